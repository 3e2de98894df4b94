// SPDX-License-Identifier: GPL-2.0
/*
 * Data integrity and error paths of the verbs data path between two uet
 * devices, in one process: uet0 (198.18.0.1) and uet1 (198.18.0.2), in
 * two namespaces joined by veth (verbs.sh).  Patterned data crosses
 * several QPs and MRs by send, send with immediate, RDMA write (with
 * immediate) and RDMA read, and every byte is checked; atomics
 * (fetch-and-add, compare-and-swap) act exactly once each; bad keys,
 * bounds, permissions, another PD's memory and requests from a QP that is
 * not the peer fail with the IB status a requester expects.
 */
#include <arpa/inet.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <infiniband/verbs.h>

#include "kselftest_harness.h"

#define PORT		1
#define NQP		4	/* QP pairs */
#define NMR		3	/* MRs per side */
#define MR_LEN		(1 << 20)
#define CQ_LEN		1024
#define TIMEOUT_MS	20000
#define REMOTE_ALL	(IBV_ACCESS_REMOTE_WRITE | IBV_ACCESS_REMOTE_READ | \
			 IBV_ACCESS_REMOTE_ATOMIC)
#define ACCESS_ALL	(IBV_ACCESS_LOCAL_WRITE | REMOTE_ALL)
#define RD_ATOMIC	4	/* atomics in flight per QP */
#define AMO_PER_QP	50	/* fetch-and-adds each QP posts at once */

struct side {
	struct ibv_context *ctx;
	struct ibv_pd *pd;
	struct ibv_cq *cq;
	struct ibv_qp *qp[NQP];
	struct ibv_mr *mr[NMR];
	unsigned char *buf[NMR];
	int gid;
};

FIXTURE(pair) {
	struct ibv_device **list;
	struct side s[2];
};

static int gid_of(struct ibv_context *ctx, int host)
{
	union ibv_gid want = {}, gid;
	int i;

	want.raw[10] = 0xff;
	want.raw[11] = 0xff;
	want.raw[12] = 198;
	want.raw[13] = 18;
	want.raw[15] = host;
	for (i = 0; i < 16; i++)
		if (!ibv_query_gid(ctx, PORT, i, &gid) &&
		    !memcmp(&gid, &want, sizeof(gid)))
			return i;
	return -1;
}

static struct ibv_qp *make_qp(struct side *s, enum ibv_qp_type type)
{
	struct ibv_qp_init_attr init = {
		.send_cq = s->cq, .recv_cq = s->cq, .qp_type = type,
		.cap = { .max_send_wr = 64, .max_recv_wr = 64,
			 .max_send_sge = 4, .max_recv_sge = 4,
			 .max_inline_data = 64 },
	};

	return ibv_create_qp(s->pd, &init);
}

/* Through INIT and RTR to RTS, to the QP @dqpn of host @dhost. */
static int to_rts_rnr(struct ibv_qp *qp, int sgid, int dhost, uint32_t dqpn,
		      uint8_t rnr_retry)
{
	struct ibv_qp_attr a = {
		.qp_state = IBV_QPS_INIT, .port_num = PORT,
		.qp_access_flags = REMOTE_ALL,
		.qkey = 0x1234,
	};
	int ud = qp->qp_type == IBV_QPT_UD;

	if (ibv_modify_qp(qp, &a, IBV_QP_STATE | IBV_QP_PKEY_INDEX |
			  IBV_QP_PORT | (ud ? IBV_QP_QKEY : IBV_QP_ACCESS_FLAGS)))
		return -1;
	memset(&a, 0, sizeof(a));
	a.qp_state = IBV_QPS_RTR;
	if (!ud) {
		a.path_mtu = IBV_MTU_1024;
		a.dest_qp_num = dqpn;
		a.max_dest_rd_atomic = RD_ATOMIC;
		a.min_rnr_timer = 12;
		a.ah_attr.is_global = 1;
		a.ah_attr.port_num = PORT;
		a.ah_attr.grh.sgid_index = sgid;
		a.ah_attr.grh.hop_limit = 1;
		a.ah_attr.grh.dgid.raw[10] = a.ah_attr.grh.dgid.raw[11] = 0xff;
		a.ah_attr.grh.dgid.raw[12] = 198;
		a.ah_attr.grh.dgid.raw[13] = 18;
		a.ah_attr.grh.dgid.raw[15] = dhost;
	}
	if (ibv_modify_qp(qp, &a, ud ? IBV_QP_STATE :
			  IBV_QP_STATE | IBV_QP_AV | IBV_QP_PATH_MTU |
			  IBV_QP_DEST_QPN | IBV_QP_RQ_PSN |
			  IBV_QP_MAX_DEST_RD_ATOMIC | IBV_QP_MIN_RNR_TIMER))
		return -2;
	memset(&a, 0, sizeof(a));
	a.qp_state = IBV_QPS_RTS;
	a.timeout = 14;
	a.retry_cnt = 7;
	a.rnr_retry = rnr_retry;
	a.max_rd_atomic = RD_ATOMIC;
	if (ibv_modify_qp(qp, &a, ud ? IBV_QP_STATE | IBV_QP_SQ_PSN :
			  IBV_QP_STATE | IBV_QP_SQ_PSN | IBV_QP_TIMEOUT |
			  IBV_QP_RETRY_CNT | IBV_QP_RNR_RETRY |
			  IBV_QP_MAX_QP_RD_ATOMIC))
		return -3;
	return 0;
}

/* ... retrying a send the peer has no receive WQE for without limit. */
static int to_rts(struct ibv_qp *qp, int sgid, int dhost, uint32_t dqpn)
{
	return to_rts_rnr(qp, sgid, dhost, dqpn, 7);
}

static struct ibv_context *open_dev(struct ibv_device **list, const char *name)
{
	for (; *list; list++)
		if (!strcmp(ibv_get_device_name(*list), name))
			return ibv_open_device(*list);
	return NULL;
}

FIXTURE_SETUP(pair)
{
	int i, j;

	memset(self->s, 0, sizeof(self->s));
	self->list = ibv_get_device_list(NULL);
	ASSERT_NE(NULL, self->list);
	for (i = 0; i < 2; i++) {
		struct side *s = &self->s[i];

		s->ctx = open_dev(self->list, i ? "uet1" : "uet0");
		ASSERT_NE(NULL, s->ctx);
		s->gid = gid_of(s->ctx, i + 1);
		ASSERT_LE(0, s->gid);
		s->pd = ibv_alloc_pd(s->ctx);
		ASSERT_NE(NULL, s->pd);
		s->cq = ibv_create_cq(s->ctx, CQ_LEN, NULL, NULL, 0);
		ASSERT_NE(NULL, s->cq);
		for (j = 0; j < NMR; j++) {
			s->buf[j] = aligned_alloc(4096, MR_LEN);
			ASSERT_NE(NULL, s->buf[j]);
			memset(s->buf[j], 0, MR_LEN);
			s->mr[j] = ibv_reg_mr(s->pd, s->buf[j], MR_LEN,
					      ACCESS_ALL);
			ASSERT_NE(NULL, s->mr[j]);
		}
		for (j = 0; j < NQP; j++) {
			s->qp[j] = make_qp(s, IBV_QPT_RC);
			ASSERT_NE(NULL, s->qp[j]);
		}
	}
	for (i = 0; i < 2; i++)
		for (j = 0; j < NQP; j++)
			ASSERT_EQ(0, to_rts(self->s[i].qp[j], self->s[i].gid,
					    2 - i, self->s[!i].qp[j]->qp_num));
}

FIXTURE_TEARDOWN(pair)
{
	int i, j;

	for (i = 0; i < 2; i++) {
		struct side *s = &self->s[i];

		for (j = 0; j < NQP; j++)
			if (s->qp[j])
				ibv_destroy_qp(s->qp[j]);
		for (j = 0; j < NMR; j++) {
			if (s->mr[j])
				ibv_dereg_mr(s->mr[j]);
			free(s->buf[j]);
		}
		if (s->cq)
			ibv_destroy_cq(s->cq);
		if (s->pd)
			ibv_dealloc_pd(s->pd);
		if (s->ctx)
			ibv_close_device(s->ctx);
	}
	ibv_free_device_list(self->list);
}

static long now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

/* Wait for one completion on @cq. */
static int wait_wc(struct ibv_cq *cq, struct ibv_wc *wc)
{
	long end = now_ms() + TIMEOUT_MS;
	int n;

	do {
		n = ibv_poll_cq(cq, 1, wc);
		if (n)
			return n < 0 ? -1 : 0;
		usleep(100);
	} while (now_ms() < end);
	return -ETIMEDOUT;
}

static void pattern(unsigned char *p, size_t len, unsigned int seed)
{
	size_t i;

	for (i = 0; i < len; i++)
		p[i] = (unsigned char)(seed * 131 + i * 7 + (i >> 8));
}

static int post(struct ibv_qp *qp, enum ibv_wr_opcode op, struct ibv_sge *sge,
		int nsge, uint64_t raddr, uint32_t rkey, uint32_t imm,
		uint64_t wr_id)
{
	struct ibv_send_wr wr = {
		.wr_id = wr_id, .sg_list = sge, .num_sge = nsge, .opcode = op,
		.send_flags = IBV_SEND_SIGNALED, .imm_data = htonl(imm),
	}, *bad;

	wr.wr.rdma.remote_addr = raddr;
	wr.wr.rdma.rkey = rkey;
	return ibv_post_send(qp, &wr, &bad);
}

static int post_recv(struct ibv_qp *qp, struct ibv_sge *sge, int nsge,
		     uint64_t wr_id)
{
	struct ibv_recv_wr wr = { .wr_id = wr_id, .sg_list = sge,
				  .num_sge = nsge }, *bad;

	return ibv_post_recv(qp, &wr, &bad);
}

/* RDMA write A -> B, read back B -> A, every QP and MR, several sizes. */
/* some 9 MB each way: half a minute on the debug kernel */
TEST_F_TIMEOUT(pair, write_read_every_byte, 300)
{
	static const size_t sizes[] = { 1, 63, 4095, 65536 + 13, 300000 };
	struct side *a = &self->s[0], *b = &self->s[1];
	unsigned int q, m, k, seed = 1;
	struct ibv_wc wc;

	for (q = 0; q < NQP; q++)
		for (m = 0; m < NMR; m++)
			for (k = 0; k < sizeof(sizes) / sizeof(sizes[0]); k++) {
				size_t len = sizes[k], off = 4096 * k + q;
				unsigned char *src = a->buf[m] + off;
				unsigned char *back = a->buf[(m + 1) % NMR] +
						      MR_LEN / 2 + off;
				struct ibv_sge sge = {
					(uintptr_t)src, len, a->mr[m]->lkey };
				uint64_t raddr = (uintptr_t)b->buf[m] + off;

				pattern(src, len, seed++);
				ASSERT_EQ(0, post(a->qp[q], IBV_WR_RDMA_WRITE,
						  &sge, 1, raddr,
						  b->mr[m]->rkey, 0, 1));
				ASSERT_EQ(0, wait_wc(a->cq, &wc));
				ASSERT_EQ(IBV_WC_SUCCESS, wc.status);
				ASSERT_EQ(IBV_WC_RDMA_WRITE, wc.opcode);
				ASSERT_EQ(0, memcmp(src, b->buf[m] + off, len));

				sge.addr = (uintptr_t)back;
				sge.lkey = a->mr[(m + 1) % NMR]->lkey;
				memset(back, 0, len);
				ASSERT_EQ(0, post(a->qp[q], IBV_WR_RDMA_READ,
						  &sge, 1, raddr,
						  b->mr[m]->rkey, 0, 2));
				ASSERT_EQ(0, wait_wc(a->cq, &wc));
				ASSERT_EQ(IBV_WC_SUCCESS, wc.status);
				ASSERT_EQ(IBV_WC_RDMA_READ, wc.opcode);
				ASSERT_EQ(0, memcmp(src, back, len));
			}
}

/* Sends with and without immediate data, gathered and scattered. */
TEST_F(pair, send_imm_sgl_every_byte)
{
	struct side *a = &self->s[0], *b = &self->s[1];
	unsigned int q, i, n = 20;
	struct ibv_wc wc;

	for (q = 0; q < NQP; q++) {
		for (i = 0; i < n; i++) {
			/* three pieces in three MRs on each side */
			size_t len = 1000 + 997 * i;
			struct ibv_sge rs[3], ss[3];
			int k;

			for (k = 0; k < 3; k++) {
				rs[k] = (struct ibv_sge){
					(uintptr_t)b->buf[k] + 8192 * i, len,
					b->mr[k]->lkey };
				ss[k] = (struct ibv_sge){
					(uintptr_t)a->buf[k] + 8192 * i + k, len,
					a->mr[k]->lkey };
				pattern(a->buf[k] + 8192 * i + k, len, i * 3 + k);
			}
			ASSERT_EQ(0, post_recv(b->qp[q], rs, 3, 100 + i));
			ASSERT_EQ(0, post(a->qp[q], i & 1 ? IBV_WR_SEND_WITH_IMM :
					  IBV_WR_SEND, ss, 3, 0, 0, 0xabc000 + i,
					  200 + i));
			ASSERT_EQ(0, wait_wc(a->cq, &wc));
			ASSERT_EQ(IBV_WC_SUCCESS, wc.status);
			ASSERT_EQ(200 + i, wc.wr_id);
			ASSERT_EQ(0, wait_wc(b->cq, &wc));
			ASSERT_EQ(IBV_WC_SUCCESS, wc.status);
			ASSERT_EQ(100 + i, wc.wr_id);
			ASSERT_EQ(IBV_WC_RECV, wc.opcode);
			ASSERT_EQ(3 * len, wc.byte_len);
			ASSERT_EQ(b->qp[q]->qp_num, wc.qp_num);
			if (i & 1) {
				ASSERT_TRUE(wc.wc_flags & IBV_WC_WITH_IMM);
				ASSERT_EQ(0xabc000 + i, ntohl(wc.imm_data));
			} else {
				ASSERT_FALSE(wc.wc_flags & IBV_WC_WITH_IMM);
			}
			for (k = 0; k < 3; k++)
				ASSERT_EQ(0, memcmp(a->buf[k] + 8192 * i + k,
						    b->buf[k] + 8192 * i, len));
		}
	}
}

/* Write with immediate data: the data lands in the MR, a receive reports it. */
TEST_F(pair, write_imm)
{
	struct side *a = &self->s[0], *b = &self->s[1];
	struct ibv_sge sge = { (uintptr_t)a->buf[0], 5000, a->mr[0]->lkey };
	struct ibv_sge rs = { (uintptr_t)b->buf[2], 16, b->mr[2]->lkey };
	struct ibv_wc wc;

	pattern(a->buf[0], 5000, 77);
	ASSERT_EQ(0, post_recv(b->qp[1], &rs, 1, 7));
	ASSERT_EQ(0, post(a->qp[1], IBV_WR_RDMA_WRITE_WITH_IMM, &sge, 1,
			  (uintptr_t)b->buf[1] + 100, b->mr[1]->rkey, 0x5eed, 8));
	ASSERT_EQ(0, wait_wc(a->cq, &wc));
	ASSERT_EQ(IBV_WC_SUCCESS, wc.status);
	ASSERT_EQ(0, wait_wc(b->cq, &wc));
	ASSERT_EQ(IBV_WC_SUCCESS, wc.status);
	ASSERT_EQ(IBV_WC_RECV_RDMA_WITH_IMM, wc.opcode);
	ASSERT_EQ(0x5eed, ntohl(wc.imm_data));
	ASSERT_EQ(5000, wc.byte_len);
	ASSERT_EQ(0, memcmp(a->buf[0], b->buf[1] + 100, 5000));
}

/*
 * Wait for the failing WQE's completion, then check that the QP went to
 * the error state: a WQE posted afterwards is flushed.
 */
static void expect_failure(struct __test_metadata *_metadata, struct side *a,
			   int q, enum ibv_wc_status want)
{
	struct ibv_sge sge = { (uintptr_t)a->buf[0], 8, a->mr[0]->lkey };
	struct ibv_wc wc;

	ASSERT_EQ(0, wait_wc(a->cq, &wc));
	EXPECT_EQ(want, wc.status) TH_LOG("status %s",
					   ibv_wc_status_str(wc.status));
	ASSERT_EQ(0, post(a->qp[q], IBV_WR_SEND, &sge, 1, 0, 0, 0, 9));
	ASSERT_EQ(0, wait_wc(a->cq, &wc));
	EXPECT_EQ(IBV_WC_WR_FLUSH_ERR, wc.status);
	EXPECT_EQ(9, wc.wr_id);
}

static int post_atomic(struct ibv_qp *qp, enum ibv_wr_opcode op,
			struct ibv_sge *sge, uint64_t raddr, uint32_t rkey,
			uint64_t compare_add, uint64_t swap, uint64_t wr_id)
{
	struct ibv_send_wr wr = {
		.wr_id = wr_id, .sg_list = sge, .num_sge = 1, .opcode = op,
		.send_flags = IBV_SEND_SIGNALED,
	}, *bad;

	wr.wr.atomic.remote_addr = raddr;
	wr.wr.atomic.rkey = rkey;
	wr.wr.atomic.compare_add = compare_add;
	wr.wr.atomic.swap = swap;
	return ibv_post_send(qp, &wr, &bad);
}

static int cmp_u64(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;

	return x < y ? -1 : x > y;
}

/*
 * Every QP adds 1 to one 64-bit counter AMO_PER_QP times, all posted at
 * once (so the send queues wait at RD_ATOMIC in flight): the counter ends
 * up exactly that much higher, across the carry into its upper half, and
 * the old values fetched are every value in between, each once.  Run
 * under loss and duplication by verbs.sh: no atomic acts twice.
 */
TEST_F(pair, fetch_add_every_value)
{
	const uint64_t start = 0xffffffffULL - NQP * AMO_PER_QP / 2;
	struct side *a = &self->s[0], *b = &self->s[1];
	uint64_t *ctr = (uint64_t *)b->buf[1], *old = (uint64_t *)a->buf[1];
	struct ibv_sge sge;
	struct ibv_wc wc;
	int q, i, n = NQP * AMO_PER_QP;

	*ctr = start;
	for (i = 0; i < AMO_PER_QP; i++)
		for (q = 0; q < NQP; q++) {
			sge = (struct ibv_sge) {
				(uintptr_t)&old[i * NQP + q], 8, a->mr[1]->lkey,
			};
			ASSERT_EQ(0, post_atomic(a->qp[q],
						 IBV_WR_ATOMIC_FETCH_AND_ADD,
						 &sge, (uintptr_t)ctr,
						 b->mr[1]->rkey, 1, 0,
						 i * NQP + q));
		}
	for (i = 0; i < n; i++) {
		ASSERT_EQ(0, wait_wc(a->cq, &wc));
		ASSERT_EQ(IBV_WC_SUCCESS, wc.status) TH_LOG("%s",
			ibv_wc_status_str(wc.status));
		EXPECT_EQ(IBV_WC_FETCH_ADD, wc.opcode);
	}
	EXPECT_EQ(start + n, *ctr);
	qsort(old, n, sizeof(*old), cmp_u64);
	for (i = 0; i < n; i++)
		ASSERT_EQ(start + i, old[i]) TH_LOG("fetched value %d", i);
}

TEST_F(pair, compare_swap)
{
	struct side *a = &self->s[0], *b = &self->s[1];
	uint64_t *word = (uint64_t *)(b->buf[1] + 64);
	uint64_t *old = (uint64_t *)a->buf[1];
	struct ibv_sge sge = { (uintptr_t)old, 8, a->mr[1]->lkey };
	struct ibv_wc wc;

	*word = 0x0123456789abcdefULL;
	/* equal: swapped */
	ASSERT_EQ(0, post_atomic(a->qp[0], IBV_WR_ATOMIC_CMP_AND_SWP, &sge,
				 (uintptr_t)word, b->mr[1]->rkey,
				 0x0123456789abcdefULL, 0xfedcba9876543210ULL,
				 1));
	ASSERT_EQ(0, wait_wc(a->cq, &wc));
	ASSERT_EQ(IBV_WC_SUCCESS, wc.status);
	EXPECT_EQ(IBV_WC_COMP_SWAP, wc.opcode);
	EXPECT_EQ(0x0123456789abcdefULL, *old);
	EXPECT_EQ(0xfedcba9876543210ULL, *word);
	/* not equal: left alone, the current value fetched */
	ASSERT_EQ(0, post_atomic(a->qp[0], IBV_WR_ATOMIC_CMP_AND_SWP, &sge,
				 (uintptr_t)word, b->mr[1]->rkey,
				 0x0123456789abcdefULL, 7, 2));
	ASSERT_EQ(0, wait_wc(a->cq, &wc));
	ASSERT_EQ(IBV_WC_SUCCESS, wc.status);
	EXPECT_EQ(0xfedcba9876543210ULL, *old);
	EXPECT_EQ(0xfedcba9876543210ULL, *word);
}

/*
 * The stock provider refuses an atomic on an unaligned address at post
 * time (the target would refuse it too: UET_SES_RC_AMO_UNALIGNED).
 */
TEST_F(pair, atomic_unaligned)
{
	struct side *a = &self->s[0], *b = &self->s[1];
	struct ibv_sge sge = { (uintptr_t)a->buf[1], 8, a->mr[1]->lkey };
	struct ibv_wc wc;

	EXPECT_EQ(EINVAL, post_atomic(a->qp[1], IBV_WR_ATOMIC_FETCH_AND_ADD,
				      &sge, (uintptr_t)b->buf[1] + 4,
				      b->mr[1]->rkey, 1, 0, 1));
	EXPECT_EQ(0, ibv_poll_cq(a->cq, 1, &wc));
}

/* A region registered without remote atomic access. */
TEST_F(pair, atomic_no_mr_permission)
{
	struct side *a = &self->s[0], *b = &self->s[1];
	struct ibv_sge sge = { (uintptr_t)a->buf[1], 8, a->mr[1]->lkey };
	struct ibv_mr *rw;

	rw = ibv_reg_mr(b->pd, b->buf[2], 4096, IBV_ACCESS_LOCAL_WRITE |
			IBV_ACCESS_REMOTE_WRITE | IBV_ACCESS_REMOTE_READ);
	ASSERT_NE(NULL, rw);
	*(uint64_t *)b->buf[2] = 5;
	ASSERT_EQ(0, post_atomic(a->qp[2], IBV_WR_ATOMIC_FETCH_AND_ADD, &sge,
				 (uintptr_t)b->buf[2], rw->rkey, 1, 0, 1));
	expect_failure(_metadata, a, 2, IBV_WC_REM_ACCESS_ERR);
	EXPECT_EQ(5, *(uint64_t *)b->buf[2]);
	EXPECT_EQ(0, ibv_dereg_mr(rw));
}

/*
 * The target QP's access flags: without remote atomic access, an atomic
 * is refused; without remote write, a write; the memory stays untouched.
 */
TEST_F(pair, qp_access_flags)
{
	struct side *a = &self->s[0], *b = &self->s[1];
	struct ibv_sge sge = { (uintptr_t)a->buf[1], 8, a->mr[1]->lkey };
	struct ibv_qp_attr attr = {
		.qp_access_flags = IBV_ACCESS_REMOTE_WRITE |
				   IBV_ACCESS_REMOTE_READ,
	};

	*(uint64_t *)b->buf[2] = 5;
	ASSERT_EQ(0, ibv_modify_qp(b->qp[3], &attr, IBV_QP_ACCESS_FLAGS));
	ASSERT_EQ(0, post_atomic(a->qp[3], IBV_WR_ATOMIC_FETCH_AND_ADD, &sge,
				 (uintptr_t)b->buf[2], b->mr[2]->rkey, 1, 0, 1));
	expect_failure(_metadata, a, 3, IBV_WC_REM_ACCESS_ERR);
	EXPECT_EQ(5, *(uint64_t *)b->buf[2]);

	attr.qp_access_flags = IBV_ACCESS_REMOTE_READ;
	ASSERT_EQ(0, ibv_modify_qp(b->qp[0], &attr, IBV_QP_ACCESS_FLAGS));
	pattern(a->buf[1], 100, 3);
	sge.length = 100;
	ASSERT_EQ(0, post(a->qp[0], IBV_WR_RDMA_WRITE, &sge, 1,
			  (uintptr_t)b->buf[2], b->mr[2]->rkey, 0, 1));
	expect_failure(_metadata, a, 0, IBV_WC_REM_ACCESS_ERR);
	EXPECT_EQ(5, *(uint64_t *)b->buf[2]);
}

/*
 * A zero-length RDMA write or read names no memory: its key and address
 * are not checked (InfiniBand Architecture Specification, C9-88).  UCX's
 * rc_verbs transport sends such writes with key 0; with immediate data the
 * receiver still gets its completion.  The QP's access flags still apply.
 */
TEST_F(pair, zero_length_rdma)
{
	struct side *a = &self->s[0], *b = &self->s[1];
	struct ibv_sge rs = { (uintptr_t)b->buf[2], 16, b->mr[2]->lkey };
	struct ibv_qp_attr attr = { .qp_access_flags = IBV_ACCESS_REMOTE_READ };
	struct ibv_wc wc;

	ASSERT_EQ(0, post(a->qp[2], IBV_WR_RDMA_WRITE, NULL, 0, 0, 0, 0, 1));
	ASSERT_EQ(0, wait_wc(a->cq, &wc));
	ASSERT_EQ(IBV_WC_SUCCESS, wc.status) TH_LOG("write: %s",
						 ibv_wc_status_str(wc.status));
	ASSERT_EQ(0, post(a->qp[2], IBV_WR_RDMA_READ, NULL, 0, 0, 0, 0, 2));
	ASSERT_EQ(0, wait_wc(a->cq, &wc));
	ASSERT_EQ(IBV_WC_SUCCESS, wc.status) TH_LOG("read: %s",
						 ibv_wc_status_str(wc.status));
	ASSERT_EQ(IBV_WC_RDMA_READ, wc.opcode);

	ASSERT_EQ(0, post_recv(b->qp[2], &rs, 1, 7));
	ASSERT_EQ(0, post(a->qp[2], IBV_WR_RDMA_WRITE_WITH_IMM, NULL, 0,
			  0x1000, 0xdead, 0xc0de, 3));
	ASSERT_EQ(0, wait_wc(a->cq, &wc));
	ASSERT_EQ(IBV_WC_SUCCESS, wc.status);
	ASSERT_EQ(0, wait_wc(b->cq, &wc));
	ASSERT_EQ(IBV_WC_SUCCESS, wc.status);
	ASSERT_EQ(IBV_WC_RECV_RDMA_WITH_IMM, wc.opcode);
	ASSERT_EQ(0xc0de, ntohl(wc.imm_data));
	ASSERT_EQ(0, wc.byte_len);

	/* a QP that takes no writes refuses even an empty one */
	ASSERT_EQ(0, ibv_modify_qp(b->qp[2], &attr, IBV_QP_ACCESS_FLAGS));
	ASSERT_EQ(0, post(a->qp[2], IBV_WR_RDMA_WRITE, NULL, 0, 0, 0, 0, 4));
	expect_failure(_metadata, a, 2, IBV_WC_REM_ACCESS_ERR);
}

TEST_F(pair, bad_rkey)
{
	struct side *a = &self->s[0], *b = &self->s[1];
	struct ibv_sge sge = { (uintptr_t)a->buf[0], 100, a->mr[0]->lkey };

	/* same index, another generation */
	ASSERT_EQ(0, post(a->qp[0], IBV_WR_RDMA_WRITE, &sge, 1,
			  (uintptr_t)b->buf[0], b->mr[0]->rkey ^ 0x5a, 0, 1));
	expect_failure(_metadata, a, 0, IBV_WC_REM_ACCESS_ERR);
}

TEST_F(pair, out_of_bounds)
{
	struct side *a = &self->s[0], *b = &self->s[1];
	struct ibv_sge sge = { (uintptr_t)a->buf[0], 100, a->mr[0]->lkey };

	ASSERT_EQ(0, post(a->qp[1], IBV_WR_RDMA_READ, &sge, 1,
			  (uintptr_t)b->buf[0] + MR_LEN - 50, b->mr[0]->rkey,
			  0, 1));
	expect_failure(_metadata, a, 1, IBV_WC_REM_ACCESS_ERR);
}

TEST_F(pair, no_remote_write_permission)
{
	struct side *a = &self->s[0], *b = &self->s[1];
	struct ibv_sge sge = { (uintptr_t)a->buf[0], 100, a->mr[0]->lkey };
	struct ibv_mr *ro;

	ro = ibv_reg_mr(b->pd, b->buf[2], 4096, IBV_ACCESS_REMOTE_READ);
	ASSERT_NE(NULL, ro);
	ASSERT_EQ(0, post(a->qp[2], IBV_WR_RDMA_WRITE, &sge, 1,
			  (uintptr_t)b->buf[2], ro->rkey, 0, 1));
	expect_failure(_metadata, a, 2, IBV_WC_REM_ACCESS_ERR);
	EXPECT_EQ(0, ibv_dereg_mr(ro));
}

TEST_F(pair, bad_lkey)
{
	struct side *a = &self->s[0], *b = &self->s[1];
	struct ibv_sge sge = { (uintptr_t)a->buf[0], 100,
			       a->mr[0]->lkey + 0x100 * 77 };

	ASSERT_EQ(0, post(a->qp[3], IBV_WR_RDMA_WRITE, &sge, 1,
			  (uintptr_t)b->buf[0], b->mr[0]->rkey, 0, 1));
	expect_failure(_metadata, a, 3, IBV_WC_LOC_PROT_ERR);
}

/* A read into memory registered without local write. */
TEST_F(pair, read_into_read_only)
{
	struct side *a = &self->s[0], *b = &self->s[1];
	struct ibv_mr *ro = ibv_reg_mr(a->pd, a->buf[1], 4096, 0);
	struct ibv_sge sge = { (uintptr_t)a->buf[1], 100, 0 };

	ASSERT_NE(NULL, ro);
	sge.lkey = ro->lkey;
	ASSERT_EQ(0, post(a->qp[0], IBV_WR_RDMA_READ, &sge, 1,
			  (uintptr_t)b->buf[0], b->mr[0]->rkey, 0, 1));
	expect_failure(_metadata, a, 0, IBV_WC_LOC_PROT_ERR);
	EXPECT_EQ(0, ibv_dereg_mr(ro));
}

/*
 * A region of another PD is not there for a QP's peer: a write and a read
 * fail with a remote access error, the memory untouched.
 */
TEST_F(pair, mr_of_another_pd)
{
	struct side *a = &self->s[0], *b = &self->s[1];
	struct ibv_sge sge = { (uintptr_t)a->buf[0], 100, a->mr[0]->lkey };
	struct ibv_pd *pd2;
	struct ibv_mr *mr2;
	int i;

	pd2 = ibv_alloc_pd(b->ctx);
	ASSERT_NE(NULL, pd2);
	memset(b->buf[2], 0x5a, 4096);
	mr2 = ibv_reg_mr(pd2, b->buf[2], 4096, ACCESS_ALL);
	ASSERT_NE(NULL, mr2);
	pattern(a->buf[0], 100, 7);
	ASSERT_EQ(0, post(a->qp[0], IBV_WR_RDMA_WRITE, &sge, 1,
			  (uintptr_t)b->buf[2], mr2->rkey, 0, 1));
	expect_failure(_metadata, a, 0, IBV_WC_REM_ACCESS_ERR);
	ASSERT_EQ(0, post(a->qp[1], IBV_WR_RDMA_READ, &sge, 1,
			  (uintptr_t)b->buf[2], mr2->rkey, 0, 2));
	expect_failure(_metadata, a, 1, IBV_WC_REM_ACCESS_ERR);
	for (i = 0; i < 4096; i++)
		ASSERT_EQ(0x5a, b->buf[2][i]);
	EXPECT_EQ(0, ibv_dereg_mr(mr2));
	EXPECT_EQ(0, ibv_dealloc_pd(pd2));
}

/* No completion on @cq for @ms milliseconds. */
static int quiet_for(struct ibv_cq *cq, long ms)
{
	long end = now_ms() + ms;
	struct ibv_wc wc;
	int n;

	while (now_ms() < end) {
		n = ibv_poll_cq(cq, 1, &wc);
		if (n)
			return n;
		usleep(1000);
	}
	return 0;
}

/*
 * A send that finds no receive buffer is retried (rnr_retry 7: without
 * limit) and completes once the receiver posts one.
 */
TEST_F(pair, receiver_not_ready)
{
	struct side *a = &self->s[0], *b = &self->s[1];
	struct ibv_sge sge = { (uintptr_t)a->buf[0], 100, a->mr[0]->lkey };
	struct ibv_sge rs = { (uintptr_t)b->buf[0], 100, b->mr[0]->lkey };
	struct ibv_qp_init_attr init;
	struct ibv_qp_attr attr;
	struct ibv_wc wc;

	ASSERT_EQ(0, ibv_query_qp(a->qp[2], &attr, IBV_QP_RNR_RETRY, &init));
	EXPECT_EQ(7, attr.rnr_retry);
	pattern(a->buf[0], 100, 3);
	ASSERT_EQ(0, post(a->qp[2], IBV_WR_SEND, &sge, 1, 0, 0, 0, 1));
	EXPECT_EQ(0, quiet_for(a->cq, 300));
	EXPECT_EQ(0, quiet_for(b->cq, 1));
	ASSERT_EQ(0, post_recv(b->qp[2], &rs, 1, 5));
	ASSERT_EQ(0, wait_wc(a->cq, &wc));
	EXPECT_EQ(IBV_WC_SUCCESS, wc.status);
	ASSERT_EQ(0, wait_wc(b->cq, &wc));
	EXPECT_EQ(IBV_WC_SUCCESS, wc.status);
	EXPECT_EQ(0, memcmp(a->buf[0], b->buf[0], 100));
}

/* Rounds of rnr_keeps_order: each could go wrong if a send overtook. */
#define RNR_ROUNDS	4

/*
 * A send that met no receive WQE keeps its place, as after an IB RNR NAK.
 * Each round, the receiver posts one WQE and the sender at once posts the
 * next send: the waiting send takes that WQE and completes first, and the
 * new one waits in turn for the next round's.
 */
TEST_F(pair, rnr_keeps_order)
{
	struct side *a = &self->s[0], *b = &self->s[1];
	struct ibv_sge ss, rs;
	struct ibv_wc wc;
	int k;

	memset(b->buf[0], 0, 4096 * (RNR_ROUNDS + 1));
	for (k = 0; k <= RNR_ROUNDS; k++)
		pattern(a->buf[0] + 4096 * k, 100, 11 + k);
	ss = (struct ibv_sge){ (uintptr_t)a->buf[0], 100, a->mr[0]->lkey };
	ASSERT_EQ(0, post(a->qp[1], IBV_WR_SEND, &ss, 1, 0, 0, 0, 0));
	EXPECT_EQ(0, quiet_for(a->cq, 100));
	for (k = 0; k <= RNR_ROUNDS; k++) {
		rs = (struct ibv_sge){ (uintptr_t)b->buf[0] + 4096 * k, 100,
				       b->mr[0]->lkey };
		ASSERT_EQ(0, post_recv(b->qp[1], &rs, 1, 20 + k));
		if (k < RNR_ROUNDS) {
			ss.addr = (uintptr_t)a->buf[0] + 4096 * (k + 1);
			ASSERT_EQ(0, post(a->qp[1], IBV_WR_SEND, &ss, 1, 0, 0,
					  0, k + 1));
		}
		ASSERT_EQ(0, wait_wc(a->cq, &wc));
		EXPECT_EQ(IBV_WC_SUCCESS, wc.status);
		ASSERT_EQ(k, wc.wr_id);
		ASSERT_EQ(0, wait_wc(b->cq, &wc));
		EXPECT_EQ(IBV_WC_SUCCESS, wc.status);
		EXPECT_EQ(20 + k, wc.wr_id);
		EXPECT_EQ(0, memcmp(b->buf[0] + 4096 * k,
				    a->buf[0] + 4096 * k, 100));
		if (k < RNR_ROUNDS)
			EXPECT_EQ(0, quiet_for(a->cq, 50));
	}
}

/* How long rnr_retry_exceeded's send may take to fail: a few RNR timers. */
#define RNR_FAIL_MS	1000

/*
 * With rnr_retry 1, a send the receiver has no WQE for goes once more
 * after the RNR timer, then fails with IBV_WC_RNR_RETRY_EXC_ERR; the
 * receiver sees nothing of it, not even when it posts a WQE afterwards.
 */
TEST_F(pair, rnr_retry_exceeded)
{
	struct side *a = &self->s[0], *b = &self->s[1];
	struct ibv_sge ss = { (uintptr_t)a->buf[0], 100, a->mr[0]->lkey };
	struct ibv_sge rs = { (uintptr_t)b->buf[0], 100, b->mr[0]->lkey };
	struct ibv_qp *qa, *qb;
	struct ibv_wc wc;
	long t0;

	qa = make_qp(a, IBV_QPT_RC);
	qb = make_qp(b, IBV_QPT_RC);
	ASSERT_NE(NULL, qa);
	ASSERT_NE(NULL, qb);
	ASSERT_EQ(0, to_rts_rnr(qa, a->gid, 2, qb->qp_num, 1));
	ASSERT_EQ(0, to_rts(qb, b->gid, 1, qa->qp_num));
	t0 = now_ms();
	ASSERT_EQ(0, post(qa, IBV_WR_SEND, &ss, 1, 0, 0, 0, 9));
	ASSERT_EQ(0, wait_wc(a->cq, &wc));
	EXPECT_EQ(IBV_WC_RNR_RETRY_EXC_ERR, wc.status) TH_LOG("status %s",
		ibv_wc_status_str(wc.status));
	EXPECT_EQ(9, wc.wr_id);
	EXPECT_GT(RNR_FAIL_MS, now_ms() - t0);
	ASSERT_EQ(0, post_recv(qb, &rs, 1, 19));
	EXPECT_EQ(0, quiet_for(b->cq, 200));
	EXPECT_EQ(0, ibv_destroy_qp(qa));
	EXPECT_EQ(0, ibv_destroy_qp(qb));
}

/* A send from a's QP 0 takes b's QP 0's receive WQE 5, posted before. */
static void peer_takes_recv(struct __test_metadata *_metadata,
			    struct side *a, struct side *b, unsigned int seed)
{
	struct ibv_sge sge = { (uintptr_t)a->buf[0], 100, a->mr[0]->lkey };
	struct ibv_wc wc;

	pattern(a->buf[0], 100, seed);
	ASSERT_EQ(0, post(a->qp[0], IBV_WR_SEND, &sge, 1, 0, 0, 0, 3));
	ASSERT_EQ(0, wait_wc(a->cq, &wc));
	EXPECT_EQ(IBV_WC_SUCCESS, wc.status);
	ASSERT_EQ(0, wait_wc(b->cq, &wc));
	EXPECT_EQ(IBV_WC_SUCCESS, wc.status);
	EXPECT_EQ(5, wc.wr_id);
	EXPECT_EQ(0, memcmp(a->buf[0], b->buf[0], 100));
}

/*
 * An RC QP takes requests from its peer only.  Two QPs of a connected to
 * b's QP 0 behind its back (b's QP 0 is connected to a's QP 0) are refused
 * as if b's QP did not exist: as on IB, they retry until retry_cnt is
 * spent and fail with IBV_WC_RETRY_EXC_ERR, a write that leaves b's memory
 * as it was, and a send that leaves b's receive WQE to the peer's send.
 */
TEST_F(pair, rc_takes_its_peer_only)
{
	struct side *a = &self->s[0], *b = &self->s[1];
	struct ibv_sge sge = { (uintptr_t)a->buf[1], 100, a->mr[1]->lkey };
	struct ibv_sge rs = { (uintptr_t)b->buf[0], 100, b->mr[0]->lkey };
	struct ibv_qp *intruder[2];
	struct ibv_wc wc;
	int i;

	for (i = 0; i < 2; i++) {
		intruder[i] = make_qp(a, IBV_QPT_RC);
		ASSERT_NE(NULL, intruder[i]);
		ASSERT_EQ(0, to_rts(intruder[i], a->gid, 2, b->qp[0]->qp_num));
	}
	pattern(a->buf[1], 100, 9);
	ASSERT_EQ(0, post(intruder[0], IBV_WR_RDMA_WRITE, &sge, 1,
			  (uintptr_t)b->buf[1], b->mr[1]->rkey, 0, 1));
	ASSERT_EQ(0, wait_wc(a->cq, &wc));
	EXPECT_EQ(IBV_WC_RETRY_EXC_ERR, wc.status);
	for (i = 0; i < 100; i++)
		ASSERT_EQ(0, b->buf[1][i]);

	ASSERT_EQ(0, post_recv(b->qp[0], &rs, 1, 5));
	ASSERT_EQ(0, post(intruder[1], IBV_WR_SEND, &sge, 1, 0, 0, 0, 2));
	ASSERT_EQ(0, wait_wc(a->cq, &wc));
	EXPECT_EQ(IBV_WC_RETRY_EXC_ERR, wc.status);
	EXPECT_EQ(0, quiet_for(b->cq, 100));

	peer_takes_recv(_metadata, a, b, 3);
	for (i = 0; i < 2; i++)
		EXPECT_EQ(0, ibv_destroy_qp(intruder[i]));
}

/* PDCs of uet device @dev in role @role ("ini", "tgt"); its PDCID: *@id. */
static int pdcs(const char *dev, const char *role, unsigned int *id)
{
	char path[128], line[512], r[8];
	unsigned int lpdcid;
	int n = 0;
	FILE *f;

	snprintf(path, sizeof(path), "/sys/kernel/debug/uet/%s/pdcs", dev);
	f = fopen(path, "r");
	if (!f)
		return -1;
	while (fgets(line, sizeof(line), f))
		if (sscanf(line, "%u %*u %7s", &lpdcid, r) == 2 &&
		    (!role || !strcmp(r, role))) {
			*id = lpdcid;
			n++;
		}
	fclose(f);
	return n;
}

/* Wait until neither device has a PDC: they closed when idle. */
static int no_pdcs(void)
{
	long end = now_ms() + TIMEOUT_MS;
	unsigned int id;

	do {
		if (!pdcs("uet0", NULL, &id) && !pdcs("uet1", NULL, &id))
			return 0;
		usleep(10000);
	} while (now_ms() < end);
	return -ETIMEDOUT;
}

/* @n sends of 100 bytes from a's QP @q to b's, each checked on arrival. */
static void sends(struct __test_metadata *_metadata, struct side *a,
		  struct side *b, int q, int n)
{
	struct ibv_sge sge = { (uintptr_t)a->buf[0], 100, a->mr[0]->lkey };
	struct ibv_sge rs = { (uintptr_t)b->buf[0], 100, b->mr[0]->lkey };
	struct ibv_wc wc;
	int i;

	for (i = 0; i < n; i++) {
		pattern(a->buf[0], 100, i);
		ASSERT_EQ(0, post_recv(b->qp[q], &rs, 1, 100 + i));
		ASSERT_EQ(0, post(a->qp[q], IBV_WR_SEND, &sge, 1, 0, 0, 0, i));
		ASSERT_EQ(0, wait_wc(a->cq, &wc));
		ASSERT_EQ(IBV_WC_SUCCESS, wc.status);
		ASSERT_EQ(0, wait_wc(b->cq, &wc));
		ASSERT_EQ(IBV_WC_SUCCESS, wc.status);
		ASSERT_EQ(100 + i, wc.wr_id);
		ASSERT_EQ(0, memcmp(a->buf[0], b->buf[0], 100));
	}
}

/*
 * RC traffic goes on after its PDC closed when idle and a new one opened
 * under another PDCID: between the two, a PDC in the other direction
 * takes the target's former PDCID.  verbs.sh runs this with the devices'
 * pdc-idle-ms cut to 200.
 */
TEST_F(pair, rc_across_pdc_reopen)
{
	struct side *a = &self->s[0], *b = &self->s[1];
	unsigned int before, after;

	ASSERT_EQ(0, no_pdcs());
	sends(_metadata, a, b, 0, 3);
	ASSERT_EQ(1, pdcs("uet1", "tgt", &before));
	ASSERT_EQ(0, no_pdcs());
	sends(_metadata, b, a, 1, 1);
	sends(_metadata, a, b, 0, 3);
	ASSERT_EQ(1, pdcs("uet1", "tgt", &after));
	EXPECT_NE(before, after);
	TH_LOG("uet1's PDC for uet0's messages: %u, then %u", before, after);
}

/* UD QPs in RTS on both sides, and an AH from a to b. */
struct ud {
	struct ibv_qp *qa, *qb;
	struct ibv_ah *ah;
};

static int ud_setup(struct side *a, struct side *b, struct ud *u)
{
	struct ibv_ah_attr ah_attr = { .is_global = 1, .port_num = PORT };

	u->qa = make_qp(a, IBV_QPT_UD);
	u->qb = make_qp(b, IBV_QPT_UD);
	if (!u->qa || !u->qb || to_rts(u->qa, a->gid, 2, 0) ||
	    to_rts(u->qb, b->gid, 1, 0))
		return -1;
	ah_attr.grh.sgid_index = a->gid;
	ah_attr.grh.hop_limit = 1;
	ah_attr.grh.dgid.raw[10] = ah_attr.grh.dgid.raw[11] = 0xff;
	ah_attr.grh.dgid.raw[12] = 198;
	ah_attr.grh.dgid.raw[13] = 18;
	ah_attr.grh.dgid.raw[15] = 2;
	u->ah = ibv_create_ah(a->pd, &ah_attr);
	return u->ah ? 0 : -1;
}

static void ud_teardown(struct ud *u)
{
	if (u->ah)
		ibv_destroy_ah(u->ah);
	if (u->qa)
		ibv_destroy_qp(u->qa);
	if (u->qb)
		ibv_destroy_qp(u->qb);
}

/* Datagram @i of 1000 bytes from a's buffer slot @i, completed. */
static int ud_send(struct side *a, struct ud *u, int i)
{
	struct ibv_sge ss = { (uintptr_t)a->buf[0] + 2048 * i, 1000,
			      a->mr[0]->lkey };
	struct ibv_send_wr wr = {
		.wr_id = i, .sg_list = &ss, .num_sge = 1,
		.opcode = IBV_WR_SEND, .send_flags = IBV_SEND_SIGNALED,
	}, *bad;
	struct ibv_wc wc;

	pattern(a->buf[0] + 2048 * i, 1000, i);
	wr.wr.ud.ah = u->ah;
	wr.wr.ud.remote_qpn = u->qb->qp_num;
	wr.wr.ud.remote_qkey = 0x1234;
	if (ibv_post_send(u->qa, &wr, &bad) || wait_wc(a->cq, &wc))
		return -1;
	return wc.status == IBV_WC_SUCCESS ? 0 : -1;
}

/* A receive for a datagram (and its GRH) into b's buffer slot @i. */
static int ud_recv(struct side *b, struct ud *u, int i)
{
	struct ibv_sge rs = { (uintptr_t)b->buf[0] + 2048 * i, 40 + 1000,
			      b->mr[0]->lkey };

	return post_recv(u->qb, &rs, 1, i);
}

/* UD: one-packet messages with the GRH and the sender's QPN. */
TEST_F(pair, ud_grh_src_qp)
{
	struct side *a = &self->s[0], *b = &self->s[1];
	struct ud u = {};
	struct ibv_wc wc;
	int i;

	ASSERT_EQ(0, ud_setup(a, b, &u));
	for (i = 0; i < 10; i++) {
		ASSERT_EQ(0, ud_recv(b, &u, i));
		ASSERT_EQ(0, ud_send(a, &u, i));
		ASSERT_EQ(0, wait_wc(b->cq, &wc));
		ASSERT_EQ(IBV_WC_SUCCESS, wc.status);
		ASSERT_EQ(1040, wc.byte_len);
		ASSERT_TRUE(wc.wc_flags & IBV_WC_GRH);
		ASSERT_EQ(u.qa->qp_num, wc.src_qp);
		/* the GRH's GIDs: the sender's address, then the receiver's */
		ASSERT_EQ(0, memcmp(b->buf[0] + 2048 * i + 8 + 12,
				    (unsigned char[]){ 198, 18, 0, 1 }, 4));
		ASSERT_EQ(0, memcmp(b->buf[0] + 2048 * i + 24 + 12,
				    (unsigned char[]){ 198, 18, 0, 2 }, 4));
		ASSERT_EQ(0, memcmp(a->buf[0] + 2048 * i,
				    b->buf[0] + 2048 * i + 40, 1000));
	}
	ud_teardown(&u);
}

/* Which of the datagrams ud_send() sent from a's slots 0 to @n - 1 @p holds. */
static int ud_which(struct side *a, const unsigned char *p, int n)
{
	int j;

	for (j = 0; j < n; j++)
		if (!memcmp(a->buf[0] + 2048 * j, p, 1000))
			return j;
	return -1;
}

/*
 * The counter @name of @s's device, as rdma(8) shows it (its sysfs files
 * are not in the test's network namespace); -1 if unreadable.
 */
static long long dev_counter(struct side *s, const char *name)
{
	char cmd[128], word[64];
	long long v = -1;
	FILE *f;

	snprintf(cmd, sizeof(cmd), "rdma statistic show link %s/%d",
		 ibv_get_device_name(s->ctx->device), PORT);
	f = popen(cmd, "r");
	if (!f)
		return -1;
	while (fscanf(f, "%63s", word) == 1)
		if (!strcmp(word, name) && fscanf(f, "%lld", &v) == 1)
			break;
	pclose(f);
	return v;
}

/* How long ud_receives_taken_as_posted waits for a drop to be counted. */
#define UD_DROP_WAIT_MS	5000

/*
 * The device takes receive WQEs from the queue the process posts them
 * into without a system call, as datagrams arrive: a datagram that finds
 * none is dropped and counted, as UD's is, and the datagrams sent after
 * the process posted take its WQEs at once, in order.
 */
TEST_F(pair, ud_receives_taken_as_posted)
{
	struct side *a = &self->s[0], *b = &self->s[1];
	long long before;
	struct ud u = {};
	struct ibv_wc wc;
	long t0;
	int i;

	ASSERT_EQ(0, ud_setup(a, b, &u));
	before = dev_counter(b, "drop_no_recv_buffer");
	ASSERT_LE(0, before);
	ASSERT_EQ(0, ud_send(a, &u, 0));
	t0 = now_ms();
	while (dev_counter(b, "drop_no_recv_buffer") == before &&
	       now_ms() - t0 < UD_DROP_WAIT_MS)
		usleep(10000);
	ASSERT_EQ(before + 1, dev_counter(b, "drop_no_recv_buffer"));

	for (i = 0; i < 3; i++)
		ASSERT_EQ(0, ud_recv(b, &u, i));
	for (i = 1; i <= 3; i++)
		ASSERT_EQ(0, ud_send(a, &u, i));
	for (i = 0; i < 3; i++) {
		ASSERT_EQ(0, wait_wc(b->cq, &wc));
		ASSERT_EQ(IBV_WC_SUCCESS, wc.status);
		ASSERT_EQ(i, wc.wr_id);
		ASSERT_EQ(1000, wc.byte_len - 40);
		EXPECT_EQ(i + 1, ud_which(a, b->buf[0] + 2048 * i + 40, 4));
	}
	EXPECT_EQ(0, quiet_for(b->cq, 200));
	EXPECT_EQ(before + 1, dev_counter(b, "drop_no_recv_buffer"));
	ud_teardown(&u);
}

/* A datagram of @qkey from a's UD QP to b's, completed at a. */
static int ud_send_qkey(struct side *a, struct ud *u, uint32_t qkey)
{
	struct ibv_sge ss = { (uintptr_t)a->buf[0], 1000, a->mr[0]->lkey };
	struct ibv_send_wr wr = {
		.wr_id = qkey, .sg_list = &ss, .num_sge = 1,
		.opcode = IBV_WR_SEND, .send_flags = IBV_SEND_SIGNALED,
	}, *bad;
	struct ibv_wc wc;

	wr.wr.ud.ah = u->ah;
	wr.wr.ud.remote_qpn = u->qb->qp_num;
	wr.wr.ud.remote_qkey = qkey;
	if (ibv_post_send(u->qa, &wr, &bad) || wait_wc(a->cq, &wc))
		return -1;
	return wc.status == IBV_WC_SUCCESS ? 0 : -1;
}

/*
 * A UD QP takes the datagrams of its Q_Key only; a work request's Q_Key
 * with the high bit set stands for the sending QP's own (both QPs have
 * 0x1234).
 */
TEST_F(pair, ud_qkey)
{
	struct side *a = &self->s[0], *b = &self->s[1];
	struct ud u = {};
	struct ibv_wc wc;

	ASSERT_EQ(0, ud_setup(a, b, &u));
	ASSERT_EQ(0, ud_recv(b, &u, 0));
	ASSERT_EQ(0, ud_send_qkey(a, &u, 0x4321));
	EXPECT_EQ(0, quiet_for(b->cq, 200));
	ASSERT_EQ(0, ud_send_qkey(a, &u, 0x80000000));
	ASSERT_EQ(0, wait_wc(b->cq, &wc));
	EXPECT_EQ(IBV_WC_SUCCESS, wc.status);
	EXPECT_EQ(0, wc.wr_id);
	ASSERT_EQ(0, ud_recv(b, &u, 1));
	ASSERT_EQ(0, ud_send_qkey(a, &u, 0x1234));
	ASSERT_EQ(0, wait_wc(b->cq, &wc));
	EXPECT_EQ(IBV_WC_SUCCESS, wc.status);
	EXPECT_EQ(1, wc.wr_id);
	ud_teardown(&u);
}

/*
 * A datagram to an RC QP is dropped: the receive WQE it would have taken
 * stays for the peer's send.
 */
TEST_F(pair, datagram_to_rc_qp_dropped)
{
	struct side *a = &self->s[0], *b = &self->s[1];
	struct ibv_sge ss = { (uintptr_t)a->buf[1], 100, a->mr[1]->lkey };
	struct ibv_sge rs = { (uintptr_t)b->buf[0], 100, b->mr[0]->lkey };
	struct ibv_send_wr wr = {
		.wr_id = 1, .sg_list = &ss, .num_sge = 1,
		.opcode = IBV_WR_SEND, .send_flags = IBV_SEND_SIGNALED,
	}, *bad;
	struct ud u = {};
	struct ibv_wc wc;

	ASSERT_EQ(0, ud_setup(a, b, &u));
	ASSERT_EQ(0, post_recv(b->qp[0], &rs, 1, 5));
	pattern(a->buf[1], 100, 4);
	wr.wr.ud.ah = u.ah;
	wr.wr.ud.remote_qpn = b->qp[0]->qp_num;
	wr.wr.ud.remote_qkey = 0x1234;
	ASSERT_EQ(0, ibv_post_send(u.qa, &wr, &bad));
	ASSERT_EQ(0, wait_wc(a->cq, &wc));
	EXPECT_EQ(IBV_WC_SUCCESS, wc.status);
	EXPECT_EQ(0, quiet_for(b->cq, 200));
	peer_takes_recv(_metadata, a, b, 5);
	ud_teardown(&u);
}

/*
 * A send to a peer QP that is gone fails as on IB: not at once, but once
 * the sender has posted it again retry_cnt (7) times, a local ACK timeout
 * (timeout 14: 67 ms) apart, with IBV_WC_RETRY_EXC_ERR.
 */
TEST_F(pair, send_to_a_peer_gone)
{
	struct side *a = &self->s[0], *b = &self->s[1];
	struct ibv_sge ss = { (uintptr_t)a->buf[0], 100, a->mr[0]->lkey };
	struct ibv_wc wc;
	long t0;

	ASSERT_EQ(0, ibv_destroy_qp(b->qp[3]));
	b->qp[3] = NULL;
	t0 = now_ms();
	ASSERT_EQ(0, post(a->qp[3], IBV_WR_SEND, &ss, 1, 0, 0, 0, 4));
	ASSERT_EQ(0, wait_wc(a->cq, &wc));
	EXPECT_EQ(IBV_WC_RETRY_EXC_ERR, wc.status) TH_LOG("status %s",
		ibv_wc_status_str(wc.status));
	EXPECT_EQ(4, wc.wr_id);
	EXPECT_LE(7 * 67, now_ms() - t0);
}

/*
 * A QP takes RDMA writes only while it receives (RTR or RTS).  In INIT it
 * drops them, as an IB QP does: the initiator retries after its local ACK
 * timeout (14: 67 ms, retry_cnt 7 times) and the memory stays untouched
 * until the QP reaches RTR, when the write lands.  In ERR it drops them
 * again.
 */
TEST_F(pair, writes_need_a_receiving_qp)
{
	struct side *a = &self->s[0], *b = &self->s[1];
	struct ibv_sge ss = { (uintptr_t)a->buf[1], 4096, a->mr[1]->lkey };
	struct ibv_qp_attr attr = {
		.qp_state = IBV_QPS_INIT, .port_num = PORT,
		.qp_access_flags = REMOTE_ALL,
	};
	static const unsigned char zero[4096];
	struct ibv_qp *qa, *qb;
	struct ibv_wc wc;

	qa = make_qp(a, IBV_QPT_RC);
	qb = make_qp(b, IBV_QPT_RC);
	ASSERT_NE(NULL, qa);
	ASSERT_NE(NULL, qb);
	ASSERT_EQ(0, ibv_modify_qp(qb, &attr, IBV_QP_STATE | IBV_QP_PKEY_INDEX |
				   IBV_QP_PORT | IBV_QP_ACCESS_FLAGS));
	ASSERT_EQ(0, to_rts(qa, a->gid, 2, qb->qp_num));
	pattern(a->buf[1], 4096, 7);
	memset(b->buf[2], 0, 4096);
	ASSERT_EQ(0, post(qa, IBV_WR_RDMA_WRITE, &ss, 1, (uintptr_t)b->buf[2],
			  b->mr[2]->rkey, 0, 1));
	/* well within the 7 x 67 ms the initiator keeps trying */
	EXPECT_EQ(0, quiet_for(a->cq, 150));
	EXPECT_EQ(0, memcmp(b->buf[2], zero, 4096));

	ASSERT_EQ(0, to_rts(qb, b->gid, 1, qa->qp_num));
	ASSERT_EQ(0, wait_wc(a->cq, &wc));
	EXPECT_EQ(IBV_WC_SUCCESS, wc.status);
	EXPECT_EQ(1, wc.wr_id);
	EXPECT_EQ(0, memcmp(b->buf[2], a->buf[1], 4096));

	attr.qp_state = IBV_QPS_ERR;
	ASSERT_EQ(0, ibv_modify_qp(qb, &attr, IBV_QP_STATE));
	memset(b->buf[2], 0, 4096);
	ASSERT_EQ(0, post(qa, IBV_WR_RDMA_WRITE, &ss, 1, (uintptr_t)b->buf[2],
			  b->mr[2]->rkey, 0, 2));
	EXPECT_EQ(0, quiet_for(a->cq, 300));
	EXPECT_EQ(0, memcmp(b->buf[2], zero, 4096));
	EXPECT_EQ(0, ibv_destroy_qp(qa));
	EXPECT_EQ(0, ibv_destroy_qp(qb));
	while (quiet_for(a->cq, 100) > 0 || quiet_for(b->cq, 100) > 0)
		;
}

/*
 * 1 GiB of 1 MiB writes, and what the kernel may hold for them at most,
 * in the cgroup and in unreclaimable slab: descriptors, not packets.  (A
 * data path that held packets would hold the 4 MiB a QP may have in it,
 * UET_SQ_BYTES_MAX.)
 */
#define HELD_POSTS	1024
#define HELD_MAX	(1 << 20)
#define HELD_SLAB_MAX	(2 << 20)

/*
 * The number after @key in the file at @path, a line "KEY VALUE" each
 * (/proc/meminfo writes "KEY: VALUE kB": @colon); -1 if missing.
 */
static long long file_field(const char *path, const char *key, bool colon)
{
	char line[512], name[64];
	long long v = -1, n;
	FILE *f;
	int k;

	f = fopen(path, "r");
	if (!f)
		return -1;
	while (fgets(line, sizeof(line), f)) {
		k = colon ? sscanf(line, "%63[^:]: %lld", name, &n) :
			    sscanf(line, "%63s %lld", name, &n);
		if (k == 2 && !strcmp(name, key))
			v = n;
	}
	fclose(f);
	return v;
}

/*
 * The memory.stat field @key of this process's cgroup (cgroup v2), in
 * bytes; -1 without one.
 */
static long long memcg_stat(const char *key)
{
	char path[600] = "", line[512];
	FILE *f;

	f = fopen("/proc/self/cgroup", "r");
	if (!f)
		return -1;
	/* the v2 line: "0::/path" */
	while (fgets(line, sizeof(line), f))
		if (!strncmp(line, "0::", 3)) {
			line[strcspn(line, "\n")] = 0;
			snprintf(path, sizeof(path), "/sys/fs/cgroup%s/memory.stat",
				 line + 3);
			break;
		}
	fclose(f);
	return file_field(path, key, false);
}

/* A field of /proc/meminfo, in bytes; -1 if missing. */
static long long meminfo(const char *key)
{
	long long kb = file_field("/proc/meminfo", key, true);

	return kb < 0 ? kb : kb << 10;
}

/*
 * What the data path holds for a process's sends is bounded, and charged
 * to its memory cgroup: 1 GiB of RDMA writes posted against a peer whose
 * answers never come (verbs.sh drops them).  The send queue takes what it
 * has room for and refuses the rest with ENOMEM, and the kernel's memory
 * stays flat: the cgroup's grows by less than HELD_MAX, unreclaimable
 * slab by less than HELD_SLAB_MAX.  The test says where the cgroup
 * started, for verbs.sh to see the memory given back once the answers
 * come.
 */
TEST_F(pair, held_sends_bounded)
{
	struct side *a = &self->s[0], *b = &self->s[1];
	struct ibv_sge ss = { (uintptr_t)a->buf[0], MR_LEN, a->mr[0]->lkey };
	long long base, slab0, held, slab;
	int i, err, refused = 0;

	base = memcg_stat("kernel");
	ASSERT_LE(0, base) TH_LOG("no memory cgroup (cgroup v2) to read");
	slab0 = meminfo("SUnreclaim");
	for (i = 0; i < HELD_POSTS; i++) {
		err = post(a->qp[0], IBV_WR_RDMA_WRITE, &ss, 1,
			   (uintptr_t)b->buf[0], b->mr[0]->rkey, 0, i);
		if (err == ENOMEM)
			refused++;
		else
			ASSERT_EQ(0, err);
	}
	/* the engine takes what it may meanwhile, and sends it */
	sleep(2);
	held = memcg_stat("kernel");
	slab = meminfo("SUnreclaim");
	printf("# %d of %d writes of 1 MiB taken; kernel memory of the cgroup %lld -> %lld KiB, unreclaimable slab %lld -> %lld KiB\n",
	       HELD_POSTS - refused, HELD_POSTS, base >> 10, held >> 10,
	       slab0 >> 10, slab >> 10);
	printf("# memcg_kernel_base=%lld\n", base);
	fflush(stdout);
	ASSERT_LT(0, refused);
	ASSERT_LT(held, base + HELD_MAX);
	ASSERT_LT(slab, slab0 + HELD_SLAB_MAX);
}

TEST_HARNESS_MAIN
