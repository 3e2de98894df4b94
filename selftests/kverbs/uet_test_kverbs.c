// SPDX-License-Identifier: GPL-2.0
/*
 * Test-only module: a kernel user of two RDMA devices through the ordinary
 * kernel verbs API, the way a kernel ULP uses them.  Loading it runs every
 * case below and the load fails (-EIO) unless each one saw the outcome it
 * expects: the completions (status, opcode, length, immediate data, source
 * QP) and every byte of the memory involved.
 *
 *   modprobe uet_test_kverbs src=uet0 dst=uet1
 *
 * Each device may live in any network namespace: they are found by name.
 * Each gets a PD, an RC QP whose CQ is polled directly and a UD QP whose
 * CQ completes in softirq by the work requests' callbacks; the RC QPs are
 * connected to each other through the devices' IPv4 GIDs.  Memory
 * is kernel memory mapped with ib_dma_map_single() and named by the PD's
 * local_dma_lkey; the region @src writes into and reads from is @dst's,
 * registered by a fast-registration work request (IB_WR_REG_MR).
 *
 * Each case prints "PASS <case>" or "FAIL <case>: why" to the kernel log;
 * the run ends at the first failure, or with "PASS all N cases: X bytes
 * to DST, Y bytes back" (the payload that crossed, for the counters).  The
 * cases run in order and share the QPs: the last one (a stale rkey) leaves
 * the sender's RC QP in the error state.  Never part of uet.ko.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/completion.h>
#include <linux/delay.h>
#include <linux/jiffies.h>
#include <linux/module.h>
#include <linux/scatterlist.h>
#include <linux/slab.h>
#include <linux/spinlock.h>
#include <net/ipv6.h>
#include <rdma/ib_cache.h>
#include <rdma/ib_verbs.h>

#define PORT		1
/* The largest message: many packets, not a multiple of anything. */
#define MAX_MSG		(128 * 1024 + 123)
#define GUARD_LEN	64		/* checked after each message */
#define GUARD		0xa5
#define BUF_LEN		(MAX_MSG + GUARD_LEN)
/* Where writes and reads start in the remote region, and its size. */
#define RDMA_OFF	100
#define REGION_LEN	(RDMA_OFF + MAX_MSG + GUARD_LEN)
#define QP_WR		32		/* work requests per queue */
#define CQ_LEN		(2 * QP_WR)	/* a QP's sends and receives */
#define IMM		0x5eed1234
#define INLINE_LEN	64
#define SEND_IMM_MSG	4000
#define WRITE_IMM_MSG	5000
#define REREG_MSG	4096
#define UD_MSG		1000		/* one packet */
#define UD_QKEY		0x11223344
#define ATOMIC_MSGS	8		/* posted in atomic context */
#define ATOMIC_MSG	3000
#define BAD_RKEY_MSG	100		/* one packet */
#define AMO_OFF		8		/* the region's atomic integer */
#define AMO_START	0xfffffffffffffffeULL	/* adding wraps around */
#define AMO_ADD		3
#define AMO_SWAP	0x0123456789abcdefULL
#define HOP_LIMIT	1		/* of GRHs: the peer is on the link */
/* IB QP attributes: retries without limit, 67 ms transport timeout. */
#define RETRY_CNT	7
#define RNR_RETRY	7
#define MIN_RNR_TIMER	1
#define QP_TIMEOUT	14
#define RD_ATOMIC	1
#define POLL_MIN_US	100
#define POLL_MAX_US	1000

static char *src = "uet0";
module_param(src, charp, 0444);
MODULE_PARM_DESC(src, "requester RDMA device");
static char *dst = "uet1";
module_param(dst, charp, 0444);
MODULE_PARM_DESC(dst, "responder RDMA device");
static uint timeout_s = 60;
module_param(timeout_s, uint, 0444);
MODULE_PARM_DESC(timeout_s, "seconds to wait for each completion");

/* One device and what the test holds on it. */
struct side {
	const char *name;
	struct ib_device *dev;
	struct ib_pd *pd;
	struct ib_cq *cq;	/* the RC QP's, polled directly */
	struct ib_cq *ud_cq;	/* the UD QP's, completing by callback */
	struct ib_qp *rc;
	struct ib_qp *ud;
	u32 gid_index;
	union ib_gid gid;
	u8 *buf;		/* BUF_LEN bytes, mapped for the device */
	u64 dma;
};

/* The responder's region for RDMA, fast-registered. */
struct region {
	u8 *buf;
	struct scatterlist sg;
	struct ib_mr *mr;
	bool mapped;
	u32 stale_rkey;		/* its rkey before the last invalidation */
};

static struct side a = { .name = "src" }, b = { .name = "dst" };
static struct region rgn;
static DEFINE_SPINLOCK(post_lock);	/* held to post in atomic context */
static u32 last_id;
/* Payload bytes delivered each way, for the devices' counters. */
static u64 bytes_to_dst, bytes_to_src;

/*
 * @n fresh IDs, the first returned: each message's work request ID, and
 * the seed of its bytes, so that no message can pass for another.
 */
static u32 new_ids(u32 n)
{
	last_id += n;
	return last_id - n + 1;
}

static u32 new_id(void)
{
	return new_ids(1);
}

/* The byte at @i of a message made with @seed. */
static u8 pattern(u32 i, u32 seed)
{
	return (u8)(i * 7 + (i >> 8) + seed);
}

static void fill(u8 *p, u32 len, u32 seed)
{
	u32 i;

	for (i = 0; i < len; i++)
		p[i] = pattern(i, seed);
}

/* Is @p the message of @seed, @len bytes, followed by @guard_len guards? */
static int check(const char *what, const u8 *p, u32 len, u32 seed,
		 u32 guard_len)
{
	u32 i;

	for (i = 0; i < len; i++)
		if (p[i] != pattern(i, seed)) {
			pr_err("%s: byte %u of %u is %#x, want %#x\n", what, i,
			       len, p[i], pattern(i, seed));
			return -EIO;
		}
	for (i = len; i < len + guard_len; i++)
		if (p[i] != GUARD) {
			pr_err("%s: byte %u past the end was written\n", what,
			       i - len);
			return -EIO;
		}
	return 0;
}

static void moved(u32 len, bool to_dst)
{
	if (to_dst)
		bytes_to_dst += len;
	else
		bytes_to_src += len;
}

/* The CPU and the device take turns on a side's buffer. */
static void to_dev(struct side *s)
{
	ib_dma_sync_single_for_device(s->dev, s->dma, BUF_LEN, DMA_BIDIRECTIONAL);
}

static void to_cpu(struct side *s)
{
	ib_dma_sync_single_for_cpu(s->dev, s->dma, BUF_LEN, DMA_BIDIRECTIONAL);
}

static void region_to_dev(void)
{
	ib_dma_sync_single_for_device(b.dev, sg_dma_address(&rgn.sg),
				      REGION_LEN, DMA_BIDIRECTIONAL);
}

static void region_to_cpu(void)
{
	ib_dma_sync_single_for_cpu(b.dev, sg_dma_address(&rgn.sg), REGION_LEN,
				   DMA_BIDIRECTIONAL);
}

/* The next completion of @s's CQ, within timeout_s. */
static int next_wc(struct side *s, struct ib_wc *wc)
{
	unsigned long end = jiffies + timeout_s * HZ;
	int n;

	for (;;) {
		n = ib_poll_cq(s->cq, 1, wc);
		if (n)
			return n < 0 ? n : 0;
		if (time_after(jiffies, end)) {
			pr_err("%s: no completion within %u s\n", s->name,
			       timeout_s);
			return -ETIMEDOUT;
		}
		usleep_range(POLL_MIN_US, POLL_MAX_US);
	}
}

/*
 * The next completion of @s must be @wr_id's with @status and, if it
 * succeeded, @opcode; the completion goes to @wc.
 */
static int expect_wc(struct side *s, u64 wr_id, enum ib_wc_status status,
		     enum ib_wc_opcode opcode, struct ib_wc *wc)
{
	int err;

	err = next_wc(s, wc);
	if (err)
		return err;
	if (wc->wr_id != wr_id || wc->status != status ||
	    (status == IB_WC_SUCCESS && wc->opcode != opcode)) {
		pr_err("%s: completion %llu %s opcode %d, want %llu %s opcode %d\n",
		       s->name, wc->wr_id, ib_wc_status_msg(wc->status),
		       wc->opcode, wr_id, ib_wc_status_msg(status), opcode);
		return -EIO;
	}
	return 0;
}

static int post_recv(struct ib_qp *qp, struct side *s, u64 wr_id, u32 off,
		     u32 len)
{
	struct ib_sge sge = {
		.addr = s->dma + off,
		.length = len,
		.lkey = s->pd->local_dma_lkey,
	};
	struct ib_recv_wr wr = {
		.wr_id = wr_id,
		.sg_list = &sge,
		.num_sge = len ? 1 : 0,
	};

	return ib_post_recv(qp, &wr, NULL);
}

/*
 * Post one signaled send, write or read of @len bytes at @off of @a's
 * buffer on QP @qp; writes and reads address @raddr under @rkey.
 */
static int post(struct ib_qp *qp, enum ib_wr_opcode opcode, u64 wr_id,
		u32 off, u32 len, u64 raddr, u32 rkey)
{
	struct ib_sge sge = {
		.addr = a.dma + off,
		.length = len,
		.lkey = a.pd->local_dma_lkey,
	};
	struct ib_rdma_wr wr = {
		.wr = {
			.wr_id = wr_id,
			.opcode = opcode,
			.send_flags = IB_SEND_SIGNALED,
			.sg_list = &sge,
			.num_sge = 1,
		},
		.remote_addr = raddr,
		.rkey = rkey,
	};

	if (opcode == IB_WR_SEND_WITH_IMM || opcode == IB_WR_RDMA_WRITE_WITH_IMM)
		wr.wr.ex.imm_data = cpu_to_be32(IMM);
	return ib_post_send(qp, &wr.wr, NULL);
}

/* One message of @len bytes from @a to @b, checked on arrival. */
static int send_one(enum ib_wr_opcode opcode, u32 len)
{
	u32 seed = new_id();
	struct ib_wc wc;
	int err;

	fill(a.buf, len, seed);
	memset(b.buf, GUARD, BUF_LEN);
	to_dev(&a);
	to_dev(&b);
	err = post_recv(b.rc, &b, seed, 0, MAX_MSG) ?:
	      post(a.rc, opcode, seed, 0, len, 0, 0) ?:
	      expect_wc(&a, seed, IB_WC_SUCCESS, IB_WC_SEND, &wc) ?:
	      expect_wc(&b, seed, IB_WC_SUCCESS, IB_WC_RECV, &wc);
	if (err)
		return err;
	to_cpu(&b);
	if (wc.byte_len != len || wc.qp != b.rc) {
		pr_err("received %u bytes on QP %u, want %u on %u\n",
		       wc.byte_len, wc.qp->qp_num, len, b.rc->qp_num);
		return -EIO;
	}
	if (opcode == IB_WR_SEND_WITH_IMM &&
	    (!(wc.wc_flags & IB_WC_WITH_IMM) ||
	     be32_to_cpu(wc.ex.imm_data) != IMM)) {
		pr_err("immediate data %#x (flags %#x), want %#x\n",
		       be32_to_cpu(wc.ex.imm_data), wc.wc_flags, IMM);
		return -EIO;
	}
	moved(len, true);
	return check("received", b.buf, len, seed, GUARD_LEN);
}

static const u32 send_sizes[] = { 1, 1000, 4096, 65536, MAX_MSG };

static int sends(void)
{
	unsigned int i;
	int err;

	for (i = 0; i < ARRAY_SIZE(send_sizes); i++) {
		err = send_one(IB_WR_SEND, send_sizes[i]);
		if (err)
			return err;
	}
	return 0;
}

static int send_imm(void)
{
	return send_one(IB_WR_SEND_WITH_IMM, SEND_IMM_MSG);
}

/* Inline data is copied at post time: the buffer may change at once. */
static int send_inline(void)
{
	u8 data[INLINE_LEN];
	struct ib_sge sge = {
		.addr = (uintptr_t)data,
		.length = sizeof(data),
	};
	struct ib_send_wr wr = {
		.wr_id = new_id(),
		.opcode = IB_WR_SEND,
		.send_flags = IB_SEND_SIGNALED | IB_SEND_INLINE,
		.sg_list = &sge,
		.num_sge = 1,
	};
	struct ib_wc wc;
	int err;

	fill(data, sizeof(data), wr.wr_id);
	memset(b.buf, GUARD, BUF_LEN);
	to_dev(&b);
	err = post_recv(b.rc, &b, wr.wr_id, 0, MAX_MSG) ?:
	      ib_post_send(a.rc, &wr, NULL);
	if (err)
		return err;
	memset(data, 0, sizeof(data));
	err = expect_wc(&a, wr.wr_id, IB_WC_SUCCESS, IB_WC_SEND, &wc) ?:
	      expect_wc(&b, wr.wr_id, IB_WC_SUCCESS, IB_WC_RECV, &wc);
	if (err)
		return err;
	to_cpu(&b);
	if (wc.byte_len != INLINE_LEN) {
		pr_err("received %u bytes, want %u\n", wc.byte_len, INLINE_LEN);
		return -EIO;
	}
	moved(INLINE_LEN, true);
	return check("received", b.buf, INLINE_LEN, wr.wr_id, GUARD_LEN);
}

/*
 * Register @rgn with @access under its next key, by a work request.  The
 * key is chosen before posting, as ULPs do to send it to their peer along
 * with the registration; it must be the region's keys after it.
 */
static int region_reg(int access)
{
	struct ib_reg_wr wr = {
		.wr = {
			.wr_id = new_id(),
			.opcode = IB_WR_REG_MR,
			.send_flags = IB_SEND_SIGNALED,
		},
		.mr = rgn.mr,
		.access = access,
	};
	struct ib_wc wc;
	u32 lkey;
	int err;

	ib_update_fast_reg_key(rgn.mr, ib_inc_rkey(rgn.mr->rkey));
	wr.key = rgn.mr->rkey;
	lkey = rgn.mr->lkey;
	err = ib_post_send(b.rc, &wr.wr, NULL) ?:
	      expect_wc(&b, wr.wr.wr_id, IB_WC_SUCCESS, IB_WC_REG_MR, &wc);
	if (err)
		return err;
	if (rgn.mr->rkey != wr.key || rgn.mr->lkey != lkey) {
		pr_err("registered with rkey %#x lkey %#x, want %#x %#x\n",
		       rgn.mr->rkey, rgn.mr->lkey, wr.key, lkey);
		return -EIO;
	}
	pr_info("region at %#llx, %llu bytes, rkey %#x\n", rgn.mr->iova,
		rgn.mr->length, rgn.mr->rkey);
	return 0;
}

#define REGION_ACCESS	(IB_ACCESS_LOCAL_WRITE | IB_ACCESS_REMOTE_WRITE | \
			 IB_ACCESS_REMOTE_READ | IB_ACCESS_REMOTE_ATOMIC)

static int fast_reg(void)
{
	int n;

	rgn.buf = kmalloc(REGION_LEN, GFP_KERNEL);
	if (!rgn.buf)
		return -ENOMEM;
	rgn.mr = ib_alloc_mr(b.pd, IB_MR_TYPE_MEM_REG,
			     DIV_ROUND_UP(REGION_LEN, PAGE_SIZE) + 1);
	if (IS_ERR(rgn.mr)) {
		n = PTR_ERR(rgn.mr);
		rgn.mr = NULL;
		return n;
	}
	sg_init_one(&rgn.sg, rgn.buf, REGION_LEN);
	if (ib_dma_map_sg(b.dev, &rgn.sg, 1, DMA_BIDIRECTIONAL) != 1)
		return -ENOMEM;
	rgn.mapped = true;
	n = ib_map_mr_sg(rgn.mr, &rgn.sg, 1, NULL, PAGE_SIZE);
	if (n != 1) {
		pr_err("ib_map_mr_sg: %d\n", n);
		return n < 0 ? n : -EIO;
	}
	return region_reg(REGION_ACCESS);
}

/* A write of @len bytes at RDMA_OFF of the region, under @rkey. */
static int write_one(enum ib_wr_opcode opcode, u32 len, u32 rkey)
{
	u32 seed = new_id();
	struct ib_wc wc;
	int err;

	fill(a.buf, len, seed);
	memset(rgn.buf, GUARD, REGION_LEN);
	to_dev(&a);
	region_to_dev();
	if (opcode == IB_WR_RDMA_WRITE_WITH_IMM) {
		err = post_recv(b.rc, &b, seed, 0, 0);
		if (err)
			return err;
	}
	err = post(a.rc, opcode, seed, 0, len, rgn.mr->iova + RDMA_OFF, rkey) ?:
	      expect_wc(&a, seed, IB_WC_SUCCESS, IB_WC_RDMA_WRITE, &wc);
	if (!err && opcode == IB_WR_RDMA_WRITE_WITH_IMM) {
		err = expect_wc(&b, seed, IB_WC_SUCCESS,
				IB_WC_RECV_RDMA_WITH_IMM, &wc);
		if (!err && (!(wc.wc_flags & IB_WC_WITH_IMM) ||
			     be32_to_cpu(wc.ex.imm_data) != IMM)) {
			pr_err("immediate data %#x (flags %#x), want %#x\n",
			       be32_to_cpu(wc.ex.imm_data), wc.wc_flags, IMM);
			err = -EIO;
		}
	}
	if (err)
		return err;
	moved(len, true);
	region_to_cpu();
	return check("region before the write", rgn.buf, 0, 0, RDMA_OFF) ?:
	       check("written", rgn.buf + RDMA_OFF, len, seed, GUARD_LEN);
}

static const u32 rdma_sizes[] = { 1, 4096, MAX_MSG };

static int writes(void)
{
	unsigned int i;
	int err;

	for (i = 0; i < ARRAY_SIZE(rdma_sizes); i++) {
		err = write_one(IB_WR_RDMA_WRITE, rdma_sizes[i], rgn.mr->rkey);
		if (err)
			return err;
	}
	return 0;
}

static int write_imm(void)
{
	return write_one(IB_WR_RDMA_WRITE_WITH_IMM, WRITE_IMM_MSG, rgn.mr->rkey);
}

static int reads(void)
{
	struct ib_wc wc;
	unsigned int i;
	int err;

	for (i = 0; i < ARRAY_SIZE(rdma_sizes); i++) {
		u32 len = rdma_sizes[i], seed = new_id();

		fill(rgn.buf + RDMA_OFF, len, seed);
		memset(a.buf, GUARD, BUF_LEN);
		region_to_dev();
		to_dev(&a);
		err = post(a.rc, IB_WR_RDMA_READ, seed, 0, len,
			   rgn.mr->iova + RDMA_OFF, rgn.mr->rkey) ?:
		      expect_wc(&a, seed, IB_WC_SUCCESS, IB_WC_RDMA_READ, &wc);
		if (err)
			return err;
		to_cpu(&a);
		moved(len, false);
		err = check("read", a.buf, len, seed, GUARD_LEN);
		if (err)
			return err;
	}
	return 0;
}

/* An atomic on the region's integer at @off; the old value lands in @a's buffer. */
static int post_atomic(enum ib_wr_opcode opcode, u64 wr_id, u32 off,
		       u64 compare_add, u64 swap)
{
	struct ib_sge sge = {
		.addr = a.dma,
		.length = sizeof(u64),
		.lkey = a.pd->local_dma_lkey,
	};
	struct ib_atomic_wr wr = {
		.wr = {
			.wr_id = wr_id,
			.opcode = opcode,
			.send_flags = IB_SEND_SIGNALED,
			.sg_list = &sge,
			.num_sge = 1,
		},
		.remote_addr = rgn.mr->iova + off,
		.compare_add = compare_add,
		.swap = swap,
		.rkey = rgn.mr->rkey,
	};

	return ib_post_send(a.rc, &wr.wr, NULL);
}

/* One atomic: the value it fetched and the integer after it. */
static int atomic_one(enum ib_wr_opcode opcode, u64 compare_add, u64 swap,
		      u64 old, u64 after)
{
	enum ib_wc_opcode wc_opcode = opcode == IB_WR_ATOMIC_FETCH_AND_ADD ?
				      IB_WC_FETCH_ADD : IB_WC_COMP_SWAP;
	u64 *fetched = (u64 *)a.buf, *word = (u64 *)(rgn.buf + AMO_OFF);
	u32 id = new_id();
	struct ib_wc wc;
	int err;

	*fetched = 0;
	to_dev(&a);
	err = post_atomic(opcode, id, AMO_OFF, compare_add, swap) ?:
	      expect_wc(&a, id, IB_WC_SUCCESS, wc_opcode, &wc);
	if (err)
		return err;
	to_cpu(&a);
	region_to_cpu();
	if (*fetched != old || *word != after) {
		pr_err("atomic %d fetched %#llx, left %#llx; want %#llx, %#llx\n",
		       opcode, *fetched, *word, old, after);
		return -EIO;
	}
	return 0;
}

/* Fetch-and-add across the wrap, compare-and-swap that swaps and that does not. */
static int atomics(void)
{
	*(u64 *)(rgn.buf + AMO_OFF) = AMO_START;
	region_to_dev();
	return atomic_one(IB_WR_ATOMIC_FETCH_AND_ADD, AMO_ADD, 0, AMO_START,
			  AMO_START + AMO_ADD) ?:
	       atomic_one(IB_WR_ATOMIC_CMP_AND_SWP, AMO_START + AMO_ADD,
			  AMO_SWAP, AMO_START + AMO_ADD, AMO_SWAP) ?:
	       atomic_one(IB_WR_ATOMIC_CMP_AND_SWP, AMO_START, 0, AMO_SWAP,
			  AMO_SWAP);
}

static int rc_connect(struct side *s, struct side *peer);

/*
 * An atomic on an unaligned address: the target refuses it (invalid
 * request), the integer stays as it was, the QP goes to the error state
 * and flushes what follows; reset and connected again, it works again.
 * Both ends are reset, as IB's PSNs need: the target numbers the
 * messages of its peer from the connection on, and a peer that starts
 * again alone would find it expecting the next of the old ones.
 */
static int atomic_unaligned(void)
{
	u32 id = new_ids(2);
	struct ib_qp_attr attr = { .qp_state = IB_QPS_RESET };
	struct ib_wc wc;
	int err;

	err = post_atomic(IB_WR_ATOMIC_FETCH_AND_ADD, id, AMO_OFF + 1, 1, 0) ?:
	      expect_wc(&a, id, IB_WC_REM_INV_REQ_ERR, 0, &wc) ?:
	      post(a.rc, IB_WR_SEND, id + 1, 0, 1, 0, 0) ?:
	      expect_wc(&a, id + 1, IB_WC_WR_FLUSH_ERR, 0, &wc) ?:
	      ib_modify_qp(a.rc, &attr, IB_QP_STATE) ?:
	      ib_modify_qp(b.rc, &attr, IB_QP_STATE) ?:
	      rc_connect(&a, &b) ?: rc_connect(&b, &a);
	if (err)
		return err;
	return atomic_one(IB_WR_ATOMIC_FETCH_AND_ADD, 1, 0, AMO_SWAP,
			  AMO_SWAP + 1);
}

/*
 * The region invalidated and registered again, as a ULP recycles its MRs:
 * the new rkey works (and the old one must not: see stale_rkey()).
 */
static int reregister(void)
{
	struct ib_send_wr wr = {
		.wr_id = new_id(),
		.opcode = IB_WR_LOCAL_INV,
		.send_flags = IB_SEND_SIGNALED,
		.ex.invalidate_rkey = rgn.mr->rkey,
	};
	struct ib_wc wc;
	int err;

	rgn.stale_rkey = rgn.mr->rkey;
	err = ib_post_send(b.rc, &wr, NULL) ?:
	      expect_wc(&b, wr.wr_id, IB_WC_SUCCESS, IB_WC_LOCAL_INV, &wc) ?:
	      region_reg(REGION_ACCESS);
	return err ?: write_one(IB_WR_RDMA_WRITE, REREG_MSG, rgn.mr->rkey);
}

/*
 * The next @n completions of @s: successes of the IDs @first.. in any
 * order, each once, with @opcode (the last ID: @last_opcode); receives
 * of @len bytes.
 */
static int expect_wcs(struct side *s, u32 first, u32 n,
		      enum ib_wc_opcode opcode, enum ib_wc_opcode last_opcode,
		      u32 len)
{
	unsigned long seen = 0;
	struct ib_wc wc;
	u32 i;
	int err;

	for (i = 0; i < n; i++) {
		err = next_wc(s, &wc);
		if (err)
			return err;
		if (wc.status != IB_WC_SUCCESS || wc.wr_id - first >= n ||
		    wc.opcode != (wc.wr_id - first == n - 1 ? last_opcode : opcode) ||
		    (wc.opcode == IB_WC_RECV && wc.byte_len != len) ||
		    __test_and_set_bit(wc.wr_id - first, &seen)) {
			pr_err("%s: completion %llu %s opcode %d %u bytes, want one of %u from %u\n",
			       s->name, wc.wr_id, ib_wc_status_msg(wc.status),
			       wc.opcode, wc.byte_len, n, first);
			return -EIO;
		}
	}
	return 0;
}

/*
 * Posting from atomic context, with a spinlock held and bottom halves
 * off: receives, sends and a write, each then checked.  The sends leave
 * from the QP's work item; the target takes the receives in order, so
 * each buffer holds the message of its rank.
 */
static int atomic_post(void)
{
	u32 id = new_ids(ATOMIC_MSGS + 1), wid = id + ATOMIC_MSGS;
	unsigned int i, m;
	u8 *p;
	int err = 0;

	BUILD_BUG_ON(ATOMIC_MSGS + 1 > BITS_PER_LONG);

	for (i = 0; i < ATOMIC_MSGS; i++)
		fill(a.buf + i * ATOMIC_MSG, ATOMIC_MSG, id + i);
	memset(b.buf, GUARD, BUF_LEN);
	memset(rgn.buf, GUARD, REGION_LEN);
	to_dev(&a);
	to_dev(&b);
	region_to_dev();

	spin_lock_bh(&post_lock);
	for (i = 0; i < ATOMIC_MSGS && !err; i++)
		err = post_recv(b.rc, &b, id + i, i * (ATOMIC_MSG + GUARD_LEN),
				ATOMIC_MSG);
	for (i = 0; i < ATOMIC_MSGS && !err; i++)
		err = post(a.rc, IB_WR_SEND, id + i, i * ATOMIC_MSG,
			   ATOMIC_MSG, 0, 0);
	if (!err)
		err = post(a.rc, IB_WR_RDMA_WRITE, wid, 0, ATOMIC_MSG,
			   rgn.mr->iova + RDMA_OFF, rgn.mr->rkey);
	spin_unlock_bh(&post_lock);
	if (err)
		return err;

	err = expect_wcs(&a, id, ATOMIC_MSGS + 1, IB_WC_SEND, IB_WC_RDMA_WRITE,
			 0) ?:
	      expect_wcs(&b, id, ATOMIC_MSGS, IB_WC_RECV, IB_WC_RECV, ATOMIC_MSG);
	if (err)
		return err;
	moved((ATOMIC_MSGS + 1) * ATOMIC_MSG, true);
	to_cpu(&b);
	region_to_cpu();
	/* each buffer holds its message, told by its first byte */
	for (i = 0; i < ATOMIC_MSGS && !err; i++) {
		p = b.buf + i * (ATOMIC_MSG + GUARD_LEN);
		m = (u8)(p[0] - pattern(0, id));
		if (m != i) {
			pr_err("buffer %u: message %u\n", i, m);
			return -EIO;
		}
		err = check("received", p, ATOMIC_MSG, id + m, GUARD_LEN);
	}
	return err ?: check("written", rgn.buf + RDMA_OFF, ATOMIC_MSG, id,
			    GUARD_LEN);
}

/* A work request whose completion comes by callback (wr_cqe). */
struct cb_wr {
	struct ib_cqe cqe;
	struct ib_wc wc;
	struct completion done;
};

/* static: a late completion after a timeout still finds them */
static struct cb_wr ud_send, ud_recv;

static void cb_done(struct ib_cq *cq, struct ib_wc *wc)
{
	struct cb_wr *w = container_of(wc->wr_cqe, struct cb_wr, cqe);

	w->wc = *wc;
	complete(&w->done);
}

static void cb_init(struct cb_wr *w)
{
	w->cqe.done = cb_done;
	init_completion(&w->done);
}

/* @w completed successfully with @opcode, within timeout_s. */
static int cb_wait(struct side *s, struct cb_wr *w, enum ib_wc_opcode opcode)
{
	if (!wait_for_completion_timeout(&w->done, timeout_s * HZ)) {
		pr_err("%s: no completion callback within %u s\n", s->name,
		       timeout_s);
		return -ETIMEDOUT;
	}
	if (w->wc.status != IB_WC_SUCCESS || w->wc.opcode != opcode) {
		pr_err("%s: completion %s opcode %d, want success opcode %d\n",
		       s->name, ib_wc_status_msg(w->wc.status), w->wc.opcode,
		       opcode);
		return -EIO;
	}
	return 0;
}

/*
 * A datagram: the GRH in front of it names the sender's GID.  Its CQs
 * complete in softirq, by the callbacks of the work requests' wr_cqe.
 */
static int ud(void)
{
	struct rdma_ah_attr attr = {
		.type = rdma_ah_find_type(a.dev, PORT),
	};
	struct ib_sge sge = {
		.addr = a.dma,
		.length = UD_MSG,
		.lkey = a.pd->local_dma_lkey,
	};
	struct ib_ud_wr wr = {
		.wr = {
			.wr_cqe = &ud_send.cqe,
			.opcode = IB_WR_SEND,
			.send_flags = IB_SEND_SIGNALED,
			.sg_list = &sge,
			.num_sge = 1,
		},
		.remote_qpn = b.ud->qp_num,
		.remote_qkey = UD_QKEY,
	};
	const struct ib_grh *grh = (const void *)b.buf;
	struct ib_sge rsge = {
		.addr = b.dma,
		.length = sizeof(*grh) + UD_MSG,
		.lkey = b.pd->local_dma_lkey,
	};
	struct ib_recv_wr rwr = {
		.wr_cqe = &ud_recv.cqe,
		.sg_list = &rsge,
		.num_sge = 1,
	};
	const struct ib_wc *wc = &ud_recv.wc;
	u32 seed = new_id();
	int err;

	rdma_ah_set_port_num(&attr, PORT);
	rdma_ah_set_grh(&attr, &b.gid, 0, a.gid_index, HOP_LIMIT, 0);
	wr.ah = rdma_create_ah(a.pd, &attr, RDMA_CREATE_AH_SLEEPABLE);
	if (IS_ERR(wr.ah))
		return PTR_ERR(wr.ah);

	cb_init(&ud_send);
	cb_init(&ud_recv);
	fill(a.buf, UD_MSG, seed);
	memset(b.buf, GUARD, BUF_LEN);
	to_dev(&a);
	to_dev(&b);
	err = ib_post_recv(b.ud, &rwr, NULL) ?:
	      ib_post_send(a.ud, &wr.wr, NULL) ?:
	      cb_wait(&a, &ud_send, IB_WC_SEND) ?:
	      cb_wait(&b, &ud_recv, IB_WC_RECV);
	rdma_destroy_ah(wr.ah, RDMA_DESTROY_AH_SLEEPABLE);
	if (err)
		return err;
	to_cpu(&b);
	if (wc->byte_len != sizeof(*grh) + UD_MSG ||
	    !(wc->wc_flags & IB_WC_GRH) || wc->src_qp != a.ud->qp_num ||
	    wc->qp != b.ud) {
		pr_err("datagram of %u bytes, flags %#x, from QP %u, want %zu, GRH, %u\n",
		       wc->byte_len, wc->wc_flags, wc->src_qp,
		       sizeof(*grh) + UD_MSG, a.ud->qp_num);
		return -EIO;
	}
	if (memcmp(&grh->sgid, &a.gid, sizeof(a.gid))) {
		pr_err("GRH source %pI6, want %pI6\n", &grh->sgid, &a.gid);
		return -EIO;
	}
	moved(UD_MSG, true);
	return check("datagram", b.buf + sizeof(*grh), UD_MSG, seed, 0);
}

/*
 * A write under the key the region had before it was invalidated and
 * registered again fails with a remote access error, leaves the region
 * alone, and moves the QP to the error state, which flushes what comes
 * after it.
 */
static int stale_rkey(void)
{
	u32 id = new_ids(2);
	struct ib_wc wc;
	int err;

	memset(rgn.buf, GUARD, REGION_LEN);
	region_to_dev();
	err = post(a.rc, IB_WR_RDMA_WRITE, id, 0, BAD_RKEY_MSG,
		   rgn.mr->iova + RDMA_OFF, rgn.stale_rkey) ?:
	      expect_wc(&a, id, IB_WC_REM_ACCESS_ERR, 0, &wc) ?:
	      post(a.rc, IB_WR_SEND, id + 1, 0, 1, 0, 0) ?:
	      expect_wc(&a, id + 1, IB_WC_WR_FLUSH_ERR, 0, &wc);
	if (err)
		return err;
	region_to_cpu();
	return check("region after a refused write", rgn.buf, 0, 0, REGION_LEN);
}

static const struct {
	const char *name;
	int (*run)(void);
} cases[] = {
	{ "sends 1 B to 128 KiB", sends },
	{ "send with immediate", send_imm },
	{ "inline send", send_inline },
	{ "fast registration", fast_reg },
	{ "RDMA writes", writes },
	{ "RDMA write with immediate", write_imm },
	{ "RDMA reads", reads },
	{ "atomics", atomics },
	{ "unaligned atomic refused, QP reset", atomic_unaligned },
	{ "invalidate and register again", reregister },
	{ "posting in atomic context", atomic_post },
	{ "UD datagram, completions by callback", ud },
	{ "stale rkey refused", stale_rkey },
};

/* The index of @s's IPv4 (v4-mapped) RoCE v2 GID. */
static int find_gid(struct side *s)
{
	const struct ib_gid_attr *attr;
	struct ib_port_attr pattr;
	u32 i;
	int err;

	err = ib_query_port(s->dev, PORT, &pattr);
	if (err)
		return err;
	for (i = 0; i < pattr.gid_tbl_len; i++) {
		attr = rdma_get_gid_attr(s->dev, PORT, i);
		if (IS_ERR(attr))
			continue;
		if (attr->gid_type == IB_GID_TYPE_ROCE_UDP_ENCAP &&
		    ipv6_addr_v4mapped((const struct in6_addr *)attr->gid.raw)) {
			s->gid_index = i;
			s->gid = attr->gid;
			rdma_put_gid_attr(attr);
			return 0;
		}
		rdma_put_gid_attr(attr);
	}
	pr_err("%s: no IPv4 GID\n", s->name);
	return -ENOENT;
}

static struct ib_qp *qp_create(struct side *s, enum ib_qp_type type,
			       struct ib_cq *cq)
{
	struct ib_qp_init_attr init = {
		.send_cq = cq,
		.recv_cq = cq,
		.cap = {
			.max_send_wr = QP_WR,
			.max_recv_wr = QP_WR,
			.max_send_sge = 1,
			.max_recv_sge = 1,
			.max_inline_data = INLINE_LEN,
		},
		.sq_sig_type = IB_SIGNAL_REQ_WR,
		.qp_type = type,
	};

	return ib_create_qp(s->pd, &init);
}

/* Bring @s's RC QP to RTS, connected to @peer's. */
static int rc_connect(struct side *s, struct side *peer)
{
	struct ib_qp_attr attr = {
		.qp_state = IB_QPS_INIT,
		.port_num = PORT,
		.qp_access_flags = REGION_ACCESS,
	};
	int err;

	err = ib_modify_qp(s->rc, &attr, IB_QP_STATE | IB_QP_PKEY_INDEX |
			   IB_QP_PORT | IB_QP_ACCESS_FLAGS);
	if (err)
		return err;

	memset(&attr, 0, sizeof(attr));
	attr.qp_state = IB_QPS_RTR;
	attr.path_mtu = IB_MTU_1024;
	attr.dest_qp_num = peer->rc->qp_num;
	attr.max_dest_rd_atomic = RD_ATOMIC;
	attr.min_rnr_timer = MIN_RNR_TIMER;
	attr.ah_attr.type = rdma_ah_find_type(s->dev, PORT);
	rdma_ah_set_port_num(&attr.ah_attr, PORT);
	rdma_ah_set_grh(&attr.ah_attr, &peer->gid, 0, s->gid_index,
			HOP_LIMIT, 0);
	err = ib_modify_qp(s->rc, &attr, IB_QP_STATE | IB_QP_AV |
			   IB_QP_PATH_MTU | IB_QP_DEST_QPN | IB_QP_RQ_PSN |
			   IB_QP_MAX_DEST_RD_ATOMIC | IB_QP_MIN_RNR_TIMER);
	if (err)
		return err;

	memset(&attr, 0, sizeof(attr));
	attr.qp_state = IB_QPS_RTS;
	attr.timeout = QP_TIMEOUT;
	attr.retry_cnt = RETRY_CNT;
	attr.rnr_retry = RNR_RETRY;
	attr.max_rd_atomic = RD_ATOMIC;
	return ib_modify_qp(s->rc, &attr, IB_QP_STATE | IB_QP_TIMEOUT |
			    IB_QP_RETRY_CNT | IB_QP_RNR_RETRY | IB_QP_SQ_PSN |
			    IB_QP_MAX_QP_RD_ATOMIC);
}

static int ud_ready(struct side *s)
{
	struct ib_qp_attr attr = {
		.qp_state = IB_QPS_INIT,
		.port_num = PORT,
		.qkey = UD_QKEY,
	};

	return ib_modify_qp(s->ud, &attr, IB_QP_STATE | IB_QP_PKEY_INDEX |
			    IB_QP_PORT | IB_QP_QKEY) ?:
	       ib_modify_qp(s->ud, &(struct ib_qp_attr) { .qp_state = IB_QPS_RTR },
			    IB_QP_STATE) ?:
	       ib_modify_qp(s->ud, &(struct ib_qp_attr) { .qp_state = IB_QPS_RTS },
			    IB_QP_STATE | IB_QP_SQ_PSN);
}

/* The device, its PD, CQ, QPs and buffer; undone by side_put(). */
static int side_get(struct side *s, const char *name)
{
	s->dev = ib_device_get_by_name(name, RDMA_DRIVER_UNKNOWN);
	if (!s->dev) {
		pr_err("no RDMA device %s\n", name);
		return -ENODEV;
	}
	s->pd = ib_alloc_pd(s->dev, 0);
	if (IS_ERR(s->pd))
		return PTR_ERR(s->pd);
	s->cq = ib_alloc_cq(s->dev, NULL, CQ_LEN, 0, IB_POLL_DIRECT);
	if (IS_ERR(s->cq))
		return PTR_ERR(s->cq);
	s->ud_cq = ib_alloc_cq(s->dev, NULL, CQ_LEN, 0, IB_POLL_SOFTIRQ);
	if (IS_ERR(s->ud_cq))
		return PTR_ERR(s->ud_cq);
	s->rc = qp_create(s, IB_QPT_RC, s->cq);
	if (IS_ERR(s->rc))
		return PTR_ERR(s->rc);
	s->ud = qp_create(s, IB_QPT_UD, s->ud_cq);
	if (IS_ERR(s->ud))
		return PTR_ERR(s->ud);
	s->buf = kmalloc(BUF_LEN, GFP_KERNEL);
	if (!s->buf)
		return -ENOMEM;
	s->dma = ib_dma_map_single(s->dev, s->buf, BUF_LEN, DMA_BIDIRECTIONAL);
	if (ib_dma_mapping_error(s->dev, s->dma)) {
		kfree(s->buf);
		s->buf = NULL;
		return -ENOMEM;
	}
	return find_gid(s);
}

static bool ok(const void *p)
{
	return !IS_ERR_OR_NULL(p);
}

static void side_put(struct side *s)
{
	if (s->buf) {
		ib_dma_unmap_single(s->dev, s->dma, BUF_LEN, DMA_BIDIRECTIONAL);
		kfree(s->buf);
	}
	if (ok(s->ud))
		ib_destroy_qp(s->ud);
	if (ok(s->rc))
		ib_destroy_qp(s->rc);
	if (ok(s->ud_cq))
		ib_free_cq(s->ud_cq);
	if (ok(s->cq))
		ib_free_cq(s->cq);
	if (ok(s->pd))
		ib_dealloc_pd(s->pd);
	if (s->dev)
		ib_device_put(s->dev);
}

static void region_put(void)
{
	if (rgn.mr)
		ib_dereg_mr(rgn.mr);
	if (rgn.mapped)
		ib_dma_unmap_sg(b.dev, &rgn.sg, 1, DMA_BIDIRECTIONAL);
	kfree(rgn.buf);
}

static int __init test_kverbs_init(void)
{
	unsigned int i;
	int err;

	err = side_get(&a, src) ?: side_get(&b, dst) ?:
	      rc_connect(&a, &b) ?: rc_connect(&b, &a) ?:
	      ud_ready(&a) ?: ud_ready(&b);
	if (err) {
		pr_err("FAIL setup: %d\n", err);
		goto out;
	}
	/* each case needs what those before it set up: the first failure ends the run */
	for (i = 0; i < ARRAY_SIZE(cases) && !err; i++) {
		err = cases[i].run();
		if (err)
			pr_err("FAIL %s: %d\n", cases[i].name, err);
		else
			pr_info("PASS %s\n", cases[i].name);
	}
	if (!err)
		pr_info("PASS all %zu cases: %llu bytes to %s, %llu bytes back\n",
			ARRAY_SIZE(cases), bytes_to_dst, dst, bytes_to_src);
out:
	region_put();
	side_put(&b);
	side_put(&a);
	return err ? -EIO : 0;
}

static void __exit test_kverbs_exit(void)
{
}

module_init(test_kverbs_init);
module_exit(test_kverbs_exit);
MODULE_DESCRIPTION("Test of RDMA devices through the kernel verbs API");
MODULE_LICENSE("GPL");
