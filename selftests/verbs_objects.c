// SPDX-License-Identifier: GPL-2.0
/*
 * Verbs objects of a uet device through the stock rdma-core rxe provider:
 * CQs (create, resize, destroy, notify), MRs (access flags checked),
 * SRQs, AHs, and QPs of every supported type taken through the states
 * with the attributes perftest and rdma-core's examples use.
 *
 * Expects the device given as first argument (default "uet0") on a netdev
 * holding 198.18.0.1 (see verbs.sh).
 */
#include <arpa/inet.h>
#include <errno.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <infiniband/verbs.h>

#include "kselftest_harness.h"

#define PORT		1

static const char *dev_name = "uet0";

FIXTURE(dev) {
	struct ibv_device **list;
	struct ibv_context *ctx;
	struct ibv_pd *pd;
	int gid4;	/* index of the IPv4 GID */
};

static int find_gid4(struct ibv_context *ctx)
{
	union ibv_gid want = {}, gid;
	int i;

	want.raw[10] = 0xff;
	want.raw[11] = 0xff;
	inet_pton(AF_INET, "198.18.0.1", &want.raw[12]);
	for (i = 0; i < 16; i++)
		if (!ibv_query_gid(ctx, PORT, i, &gid) &&
		    !memcmp(&gid, &want, sizeof(gid)))
			return i;
	return -1;
}

FIXTURE_SETUP(dev)
{
	int i, n;

	self->ctx = NULL;
	self->list = ibv_get_device_list(&n);
	ASSERT_NE(NULL, self->list);
	for (i = 0; i < n; i++)
		if (!strcmp(ibv_get_device_name(self->list[i]), dev_name))
			self->ctx = ibv_open_device(self->list[i]);
	ASSERT_NE(NULL, self->ctx) TH_LOG("cannot open %s", dev_name);
	self->pd = ibv_alloc_pd(self->ctx);
	ASSERT_NE(NULL, self->pd);
	self->gid4 = find_gid4(self->ctx);
	ASSERT_LE(0, self->gid4);
}

FIXTURE_TEARDOWN(dev)
{
	if (self->pd)
		ibv_dealloc_pd(self->pd);
	if (self->ctx)
		ibv_close_device(self->ctx);
	ibv_free_device_list(self->list);
}

TEST_F(dev, device_limits)
{
	struct ibv_device_attr attr;

	ASSERT_EQ(0, ibv_query_device(self->ctx, &attr));
	EXPECT_LT(1000, attr.max_qp);
	EXPECT_GT(4096, attr.max_qp);	/* QPNs are 12-bit PIDonFEPs */
	EXPECT_LE(1024, attr.max_qp_wr);
	EXPECT_LE(16, attr.max_sge);
	/* ofi_rxm's CQ for 256 peers: 65,536 entries */
	EXPECT_LE(65536, attr.max_cqe);
	EXPECT_LT(0, attr.max_mr);
	EXPECT_LT(0, attr.max_srq);
}

TEST_F(dev, cq_create_resize_destroy)
{
	struct ibv_device_attr attr;
	struct ibv_wc wc[4];
	struct ibv_cq *cq;

	cq = ibv_create_cq(self->ctx, 100, NULL, NULL, 0);
	ASSERT_NE(NULL, cq);
	EXPECT_LE(100, cq->cqe);
	EXPECT_EQ(0, ibv_poll_cq(cq, 4, wc));	/* empty, mapped */
	ASSERT_EQ(0, ibv_resize_cq(cq, 1000));
	EXPECT_LE(1000, cq->cqe);
	EXPECT_EQ(0, ibv_poll_cq(cq, 4, wc));
	ASSERT_EQ(0, ibv_resize_cq(cq, 10));
	EXPECT_LE(10, cq->cqe);
	EXPECT_EQ(0, ibv_req_notify_cq(cq, 0));
	EXPECT_EQ(0, ibv_req_notify_cq(cq, 1));
	EXPECT_EQ(0, ibv_destroy_cq(cq));

	/* as large as the device says, no larger, or nothing */
	ASSERT_EQ(0, ibv_query_device(self->ctx, &attr));
	cq = ibv_create_cq(self->ctx, attr.max_cqe, NULL, NULL, 0);
	ASSERT_NE(NULL, cq);
	EXPECT_LE(attr.max_cqe, cq->cqe);
	EXPECT_EQ(0, ibv_destroy_cq(cq));
	EXPECT_EQ(NULL, ibv_create_cq(self->ctx, attr.max_cqe + 1, NULL, NULL, 0));
	EXPECT_EQ(NULL, ibv_create_cq(self->ctx, 1 << 24, NULL, NULL, 0));
	EXPECT_EQ(NULL, ibv_create_cq(self->ctx, 0, NULL, NULL, 0));
}

TEST_F(dev, cq_with_channel)
{
	struct ibv_comp_channel *ch = ibv_create_comp_channel(self->ctx);
	struct ibv_cq *cq;

	ASSERT_NE(NULL, ch);
	cq = ibv_create_cq(self->ctx, 16, NULL, ch, 0);
	ASSERT_NE(NULL, cq);
	EXPECT_EQ(0, ibv_req_notify_cq(cq, 0));
	EXPECT_EQ(0, ibv_destroy_cq(cq));
	EXPECT_EQ(0, ibv_destroy_comp_channel(ch));
}

TEST_F(dev, mr_access_flags)
{
	size_t len = 1 << 20;
	char *buf = malloc(len);
	struct ibv_mr *mr, *mr2;

	ASSERT_NE(NULL, buf);
	mr = ibv_reg_mr(self->pd, buf, len, IBV_ACCESS_LOCAL_WRITE |
			IBV_ACCESS_REMOTE_WRITE | IBV_ACCESS_REMOTE_READ);
	ASSERT_NE(NULL, mr);
	EXPECT_NE(0, mr->lkey);
	EXPECT_NE(0, mr->rkey);		/* from the RI table */
	mr2 = ibv_reg_mr(self->pd, buf + 100, 1000, 0);
	ASSERT_NE(NULL, mr2);
	EXPECT_NE(mr->lkey, mr2->lkey);
	EXPECT_EQ(0, ibv_dereg_mr(mr2));
	EXPECT_EQ(0, ibv_dereg_mr(mr));

	/* remote write without local write: IB spec C10-87 */
	errno = 0;
	EXPECT_EQ(NULL, ibv_reg_mr(self->pd, buf, len, IBV_ACCESS_REMOTE_WRITE));
	EXPECT_EQ(EINVAL, errno);
	/* memory windows, on-demand paging: not offered */
	EXPECT_EQ(NULL, ibv_reg_mr(self->pd, buf, len, IBV_ACCESS_MW_BIND));
	EXPECT_EQ(NULL, ibv_reg_mr(self->pd, buf, len, IBV_ACCESS_ON_DEMAND));
	/* relaxed ordering is a hint */
	mr = ibv_reg_mr(self->pd, buf, len, IBV_ACCESS_LOCAL_WRITE |
			IBV_ACCESS_RELAXED_ORDERING);
	ASSERT_NE(NULL, mr);
	EXPECT_EQ(0, ibv_dereg_mr(mr));
	/* unmapped memory */
	EXPECT_EQ(NULL, ibv_reg_mr(self->pd, (void *)4096, 4096, 0));
	free(buf);
}

TEST_F(dev, srq)
{
	struct ibv_srq_init_attr init = { .attr = { .max_wr = 64, .max_sge = 2 } };
	struct ibv_recv_wr wr = {}, *bad;
	struct ibv_srq_attr attr;
	struct ibv_sge sge = {};
	struct ibv_srq *srq;
	int i;

	srq = ibv_create_srq(self->pd, &init);
	ASSERT_NE(NULL, srq);
	ASSERT_EQ(0, ibv_query_srq(srq, &attr));
	EXPECT_LE(64, attr.max_wr);
	wr.sg_list = &sge;
	wr.num_sge = 1;
	for (i = 0; i < 10; i++) {
		wr.wr_id = i;
		ASSERT_EQ(0, ibv_post_srq_recv(srq, &wr, &bad));
	}
	/* grow: the ten WQEs move along */
	attr.max_wr = 500;
	ASSERT_EQ(0, ibv_modify_srq(srq, &attr, IBV_SRQ_MAX_WR));
	ASSERT_EQ(0, ibv_query_srq(srq, &attr));
	EXPECT_LE(500, attr.max_wr);
	/* shrink below what it holds */
	attr.max_wr = 5;
	EXPECT_NE(0, ibv_modify_srq(srq, &attr, IBV_SRQ_MAX_WR));
	attr.srq_limit = 4;
	EXPECT_EQ(0, ibv_modify_srq(srq, &attr, IBV_SRQ_LIMIT));
	ASSERT_EQ(0, ibv_query_srq(srq, &attr));
	EXPECT_EQ(4, attr.srq_limit);
	/* too many scatter entries */
	wr.num_sge = 3;
	EXPECT_NE(0, ibv_post_srq_recv(srq, &wr, &bad));
	EXPECT_EQ(0, ibv_destroy_srq(srq));
}

static struct ibv_qp *make_qp(struct ibv_pd *pd, struct ibv_cq *cq,
			      enum ibv_qp_type type, struct ibv_srq *srq)
{
	struct ibv_qp_init_attr init = {
		.send_cq = cq, .recv_cq = cq, .srq = srq,
		.cap = { .max_send_wr = 128, .max_recv_wr = 512,
			 .max_send_sge = 1, .max_recv_sge = 1,
			 .max_inline_data = 220 },
		.qp_type = type,
	};

	return ibv_create_qp(pd, &init);
}

/* Objects of each kind the next test creates. */
#define NKEYS	16

/* How many of @n numbers follow their predecessor by exactly @stride. */
static int in_step(const uint32_t *v, int n, uint32_t stride)
{
	int i, steps = 0;

	for (i = 1; i < n; i++)
		steps += v[i] == v[i - 1] + stride;
	return steps;
}

/*
 * What a peer must name to reach a QP or a region is not predictable
 * from the ones it was told: QPNs and rkeys are drawn at random among the
 * free ones, so keys created one after the other do not count up.  (A
 * pair of random 12-bit QPNs is in step about once in 2047; 3 pairs of
 * 15, fewer than once in 10^7 runs.)
 */
TEST_F(dev, keys_unpredictable)
{
	uint32_t qpn[NKEYS], rkey[NKEYS];
	struct ibv_qp *qp[NKEYS];
	struct ibv_mr *mr[NKEYS];
	static char buf[4096];
	struct ibv_cq *cq;
	int i, j;

	cq = ibv_create_cq(self->ctx, 16, NULL, NULL, 0);
	ASSERT_NE(NULL, cq);
	for (i = 0; i < NKEYS; i++) {
		qp[i] = make_qp(self->pd, cq, IBV_QPT_RC, NULL);
		ASSERT_NE(NULL, qp[i]);
		qpn[i] = qp[i]->qp_num;
		mr[i] = ibv_reg_mr(self->pd, buf, sizeof(buf),
				   IBV_ACCESS_LOCAL_WRITE | IBV_ACCESS_REMOTE_READ);
		ASSERT_NE(NULL, mr[i]);
		rkey[i] = mr[i]->rkey;
		for (j = 0; j < i; j++) {
			EXPECT_NE(qpn[j], qpn[i]);
			EXPECT_NE(rkey[j] >> 8, rkey[i] >> 8);
		}
	}
	EXPECT_GT(3, in_step(qpn, NKEYS, 1));
	/* the index, above the 8-bit generation */
	for (i = 0; i < NKEYS; i++)
		rkey[i] >>= 8;
	EXPECT_GT(3, in_step(rkey, NKEYS, 1));
	for (i = 0; i < NKEYS; i++) {
		EXPECT_EQ(0, ibv_destroy_qp(qp[i]));
		EXPECT_EQ(0, ibv_dereg_mr(mr[i]));
	}
	EXPECT_EQ(0, ibv_destroy_cq(cq));
}

/* The transitions and attributes of ibv_rc_pingpong and perftest. */
static int connect_qp(struct ibv_qp *qp, int gid, uint32_t dqpn)
{
	struct ibv_qp_attr a = {
		.qp_state = IBV_QPS_INIT, .pkey_index = 0, .port_num = PORT,
		.qp_access_flags = IBV_ACCESS_REMOTE_WRITE |
				   IBV_ACCESS_REMOTE_READ,
	};
	union ibv_gid dgid = {};
	int mask;

	mask = IBV_QP_STATE | IBV_QP_PKEY_INDEX | IBV_QP_PORT;
	if (qp->qp_type == IBV_QPT_UD) {
		a.qkey = 0x11111111;
		mask |= IBV_QP_QKEY;
	} else {
		mask |= IBV_QP_ACCESS_FLAGS;
	}
	if (ibv_modify_qp(qp, &a, mask))
		return -1;

	memset(&a, 0, sizeof(a));
	a.qp_state = IBV_QPS_RTR;
	mask = IBV_QP_STATE;
	if (qp->qp_type != IBV_QPT_UD) {
		dgid.raw[10] = dgid.raw[11] = 0xff;
		inet_pton(AF_INET, "198.18.0.2", &dgid.raw[12]);
		a.path_mtu = IBV_MTU_1024;
		a.dest_qp_num = dqpn;
		a.rq_psn = 0;
		a.ah_attr.is_global = 1;
		a.ah_attr.grh.dgid = dgid;
		a.ah_attr.grh.sgid_index = gid;
		a.ah_attr.grh.hop_limit = 1;
		a.ah_attr.port_num = PORT;
		mask |= IBV_QP_AV | IBV_QP_PATH_MTU | IBV_QP_DEST_QPN |
			IBV_QP_RQ_PSN;
		if (qp->qp_type == IBV_QPT_RC) {
			a.max_dest_rd_atomic = 1;
			a.min_rnr_timer = 12;
			mask |= IBV_QP_MAX_DEST_RD_ATOMIC | IBV_QP_MIN_RNR_TIMER;
		}
	}
	if (ibv_modify_qp(qp, &a, mask))
		return -2;

	memset(&a, 0, sizeof(a));
	a.qp_state = IBV_QPS_RTS;
	a.sq_psn = 0;
	mask = IBV_QP_STATE | IBV_QP_SQ_PSN;
	if (qp->qp_type == IBV_QPT_RC) {
		a.timeout = 14;
		a.retry_cnt = 7;
		a.rnr_retry = 7;
		a.max_rd_atomic = 1;
		mask |= IBV_QP_TIMEOUT | IBV_QP_RETRY_CNT | IBV_QP_RNR_RETRY |
			IBV_QP_MAX_QP_RD_ATOMIC;
	}
	if (ibv_modify_qp(qp, &a, mask))
		return -3;
	return 0;
}

static void qp_states(struct __test_metadata *_metadata, FIXTURE_DATA(dev) *self,
		      enum ibv_qp_type type)
{
	struct ibv_qp_init_attr init;
	struct ibv_qp_attr a;
	struct ibv_cq *cq;
	struct ibv_qp *qp;

	cq = ibv_create_cq(self->ctx, 1024, NULL, NULL, 0);
	ASSERT_NE(NULL, cq);
	qp = make_qp(self->pd, cq, type, NULL);
	ASSERT_NE(NULL, qp);
	EXPECT_LE(2, qp->qp_num);
	EXPECT_GT(4096, qp->qp_num);
	ASSERT_EQ(0, connect_qp(qp, self->gid4, 77));
	ASSERT_EQ(0, ibv_query_qp(qp, &a, IBV_QP_STATE | IBV_QP_CAP |
				  IBV_QP_DEST_QPN | IBV_QP_AV, &init));
	EXPECT_EQ(IBV_QPS_RTS, a.qp_state);
	EXPECT_LE(128, a.cap.max_send_wr);
	EXPECT_LE(220, a.cap.max_inline_data);
	EXPECT_EQ(type, init.qp_type);
	if (type != IBV_QPT_UD) {
		EXPECT_EQ(77, a.dest_qp_num);
		EXPECT_EQ(IBV_MTU_1024, a.path_mtu);
		EXPECT_EQ(0xc6, a.ah_attr.grh.dgid.raw[12]);
	}
	/* RTS -> INIT is not a transition */
	a.qp_state = IBV_QPS_INIT;
	EXPECT_NE(0, ibv_modify_qp(qp, &a, IBV_QP_STATE));
	a.qp_state = IBV_QPS_ERR;
	EXPECT_EQ(0, ibv_modify_qp(qp, &a, IBV_QP_STATE));
	a.qp_state = IBV_QPS_RESET;
	EXPECT_EQ(0, ibv_modify_qp(qp, &a, IBV_QP_STATE));
	/* and around again */
	ASSERT_EQ(0, connect_qp(qp, self->gid4, 78));
	EXPECT_EQ(0, ibv_destroy_qp(qp));
	EXPECT_EQ(0, ibv_destroy_cq(cq));
}

TEST_F(dev, qp_rc_states)
{
	qp_states(_metadata, self, IBV_QPT_RC);
}

TEST_F(dev, qp_uc_states)
{
	qp_states(_metadata, self, IBV_QPT_UC);
}

TEST_F(dev, qp_ud_states)
{
	qp_states(_metadata, self, IBV_QPT_UD);
}

TEST_F(dev, qp_bad_attributes)
{
	struct ibv_cq *cq = ibv_create_cq(self->ctx, 16, NULL, NULL, 0);
	struct ibv_qp_attr a = { .qp_state = IBV_QPS_INIT, .port_num = 2 };
	struct ibv_qp_init_attr init = {
		.send_cq = cq, .recv_cq = cq, .qp_type = IBV_QPT_RC,
		.cap = { .max_send_wr = 1 << 20, .max_recv_wr = 1,
			 .max_send_sge = 1, .max_recv_sge = 1 },
	};
	struct ibv_qp *qp;

	ASSERT_NE(NULL, cq);
	EXPECT_EQ(NULL, ibv_create_qp(self->pd, &init));	/* too deep */
	init.cap.max_send_wr = 1;
	init.cap.max_send_sge = 1000;
	EXPECT_EQ(NULL, ibv_create_qp(self->pd, &init));	/* too wide */
	init.cap.max_send_sge = 1;
	qp = ibv_create_qp(self->pd, &init);
	ASSERT_NE(NULL, qp);
	/* port 2 does not exist; pkey index 1 neither */
	EXPECT_NE(0, ibv_modify_qp(qp, &a, IBV_QP_STATE | IBV_QP_PKEY_INDEX |
				   IBV_QP_PORT | IBV_QP_ACCESS_FLAGS));
	a.port_num = PORT;
	a.pkey_index = 1;
	EXPECT_NE(0, ibv_modify_qp(qp, &a, IBV_QP_STATE | IBV_QP_PKEY_INDEX |
				   IBV_QP_PORT | IBV_QP_ACCESS_FLAGS));
	/* INIT without its required attributes */
	EXPECT_NE(0, ibv_modify_qp(qp, &a, IBV_QP_STATE));
	a.pkey_index = 0;
	EXPECT_EQ(0, ibv_modify_qp(qp, &a, IBV_QP_STATE | IBV_QP_PKEY_INDEX |
				   IBV_QP_PORT | IBV_QP_ACCESS_FLAGS));
	/* a destination QPN beyond 12 bits */
	a.qp_state = IBV_QPS_RTR;
	a.dest_qp_num = 5000;
	a.path_mtu = IBV_MTU_1024;
	a.ah_attr.is_global = 1;
	a.ah_attr.grh.sgid_index = self->gid4;
	a.ah_attr.port_num = PORT;
	a.ah_attr.grh.dgid.raw[10] = a.ah_attr.grh.dgid.raw[11] = 0xff;
	inet_pton(AF_INET, "198.18.0.2", &a.ah_attr.grh.dgid.raw[12]);
	EXPECT_NE(0, ibv_modify_qp(qp, &a, IBV_QP_STATE | IBV_QP_AV |
				   IBV_QP_PATH_MTU | IBV_QP_DEST_QPN |
				   IBV_QP_RQ_PSN | IBV_QP_MAX_DEST_RD_ATOMIC |
				   IBV_QP_MIN_RNR_TIMER));
	EXPECT_EQ(0, ibv_destroy_qp(qp));
	/* types uet does not offer */
	init.qp_type = IBV_QPT_RAW_PACKET;
	EXPECT_EQ(NULL, ibv_create_qp(self->pd, &init));
	EXPECT_EQ(0, ibv_destroy_cq(cq));
}

/* QPs in the error state flush what is posted, with IBV_WC_WR_FLUSH_ERR. */
TEST_F(dev, qp_error_flushes)
{
	struct ibv_cq *cq = ibv_create_cq(self->ctx, 64, NULL, NULL, 0);
	struct ibv_qp_attr a = { .qp_state = IBV_QPS_ERR };
	struct ibv_recv_wr rwr = {}, *rbad;
	struct ibv_send_wr swr = {}, *sbad;
	char buf[64];
	struct ibv_sge sge;
	struct ibv_wc wc[16];
	struct ibv_mr *mr;
	struct ibv_qp *qp;
	int i, n, got = 0, flushed = 0;

	ASSERT_NE(NULL, cq);
	mr = ibv_reg_mr(self->pd, buf, sizeof(buf), IBV_ACCESS_LOCAL_WRITE);
	ASSERT_NE(NULL, mr);
	qp = make_qp(self->pd, cq, IBV_QPT_RC, NULL);
	ASSERT_NE(NULL, qp);
	ASSERT_EQ(0, connect_qp(qp, self->gid4, 99));
	sge = (struct ibv_sge){ (uintptr_t)buf, sizeof(buf), mr->lkey };
	rwr.sg_list = &sge;
	rwr.num_sge = 1;
	for (i = 0; i < 4; i++) {
		rwr.wr_id = 100 + i;
		ASSERT_EQ(0, ibv_post_recv(qp, &rwr, &rbad));
	}
	ASSERT_EQ(0, ibv_modify_qp(qp, &a, IBV_QP_STATE));
	/* sends posted in the error state complete flushed too */
	swr.sg_list = &sge;
	swr.num_sge = 1;
	swr.opcode = IBV_WR_SEND;
	swr.send_flags = IBV_SEND_SIGNALED;
	for (i = 0; i < 3; i++) {
		swr.wr_id = 200 + i;
		ASSERT_EQ(0, ibv_post_send(qp, &swr, &sbad));
	}
	for (i = 0; i < 100 && got < 7; i++) {
		n = ibv_poll_cq(cq, 16, wc);
		ASSERT_LE(0, n);
		while (n--) {
			got++;
			flushed += wc[n].status == IBV_WC_WR_FLUSH_ERR;
			EXPECT_EQ(qp->qp_num, wc[n].qp_num);
		}
		usleep(10000);
	}
	EXPECT_EQ(7, got);
	EXPECT_EQ(7, flushed);
	EXPECT_EQ(0, ibv_destroy_qp(qp));
	EXPECT_EQ(0, ibv_dereg_mr(mr));
	EXPECT_EQ(0, ibv_destroy_cq(cq));
}

TEST_F(dev, qp_with_srq)
{
	struct ibv_srq_init_attr sinit = { .attr = { .max_wr = 64, .max_sge = 1 } };
	struct ibv_cq *cq = ibv_create_cq(self->ctx, 16, NULL, NULL, 0);
	struct ibv_srq *srq;
	struct ibv_qp *qp;

	ASSERT_NE(NULL, cq);
	srq = ibv_create_srq(self->pd, &sinit);
	ASSERT_NE(NULL, srq);
	qp = make_qp(self->pd, cq, IBV_QPT_RC, srq);
	ASSERT_NE(NULL, qp);
	ASSERT_EQ(0, connect_qp(qp, self->gid4, 5));
	/* the SRQ is in use */
	EXPECT_NE(0, ibv_destroy_srq(srq));
	EXPECT_EQ(0, ibv_destroy_qp(qp));
	EXPECT_EQ(0, ibv_destroy_srq(srq));
	EXPECT_EQ(0, ibv_destroy_cq(cq));
}

TEST_F(dev, ah)
{
	struct ibv_ah_attr attr = {
		.is_global = 1, .port_num = PORT,
		.grh = { .sgid_index = self->gid4, .hop_limit = 64 },
	};
	struct ibv_ah *ah;

	attr.grh.dgid.raw[10] = attr.grh.dgid.raw[11] = 0xff;
	inet_pton(AF_INET, "198.18.0.2", &attr.grh.dgid.raw[12]);
	ah = ibv_create_ah(self->pd, &attr);
	ASSERT_NE(NULL, ah);
	EXPECT_EQ(0, ibv_destroy_ah(ah));
	/* without a GRH there is no address on an Ethernet port */
	attr.is_global = 0;
	EXPECT_EQ(NULL, ibv_create_ah(self->pd, &attr));
}

int main(int argc, char **argv)
{
	if (argc > 1 && argv[1][0] != '-') {
		dev_name = argv[1];
		argv[1] = argv[0];
		argv++;
		argc--;
	}
	return test_harness_run(argc, argv);
}
