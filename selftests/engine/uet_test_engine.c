// SPDX-License-Identifier: GPL-2.0
/*
 * Test-only module that drives the uet engine through its kernel API, the
 * way lib/test_*.c modules test kernel facilities: loading it runs one
 * transfer and the load fails (-EIO) unless every byte arrived intact, in
 * order, with every completion as expected.
 *
 *   modprobe uet_test_engine src=uet0 dst=uet1 addr=198.18.0.2 \
 *	count=64 size=65536 mode=rud
 *
 * sends @count messages of @size bytes from endpoint {job, 1} on @src to
 * endpoint {job, 2} on @dst, whose device holds @addr; the result, with the
 * time it took, goes to the kernel log.  Never part of uet.ko.
 *
 * op= picks the operation: send, tsend (tagged: receive buffers posted in
 * reverse order, each for one message's tag), write, writeimm (each write
 * also completes a receive with its immediate data), read (@count reads of
 * @size bytes from @dst's region).  fault= makes the RMA target refuse:
 * rkey (unknown key), gen (stale generation), bounds (past the region's
 * end), perm (region registered without the access), domain (region
 * registered in another protection domain); the work requests
 * must then fail with -EREMOTEIO and the matching SES return code, and
 * the target's memory stay untouched.  pages=1 describes memory by its
 * pages, as user memory is, rather than by kernel address.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/completion.h>
#include <linux/delay.h>
#include <linux/inet.h>
#include <linux/module.h>
#include <linux/mm.h>
#include <linux/string.h>
#include <linux/vmalloc.h>
#include <linux/workqueue.h>
#include <net/ipv6.h>
#include <rdma/ib_verbs.h>

#include "pdc.h"
#include "ri.h"
#include "ses.h"
#include "wire.h"

#define SRC_PID		1
#define DST_PID		2
#define MAX_TOTAL	(256u << 20)	/* bytes sent by one load, at most */
#define GUARD_LEN	64		/* after each receive buffer */
#define GUARD		0xa5

static char *src = "uet0";
module_param(src, charp, 0444);
MODULE_PARM_DESC(src, "sending uet device");
static char *dst = "uet1";
module_param(dst, charp, 0444);
MODULE_PARM_DESC(dst, "receiving uet device");
static char *addr = "";
module_param(addr, charp, 0444);
MODULE_PARM_DESC(addr, "IPv4 or IPv6 address of the receiving device");
static uint job = 1;
module_param(job, uint, 0444);
MODULE_PARM_DESC(job, "job of both endpoints");
static uint count = 16;
module_param(count, uint, 0444);
MODULE_PARM_DESC(count, "messages to send");
static uint size = 4096;
module_param(size, uint, 0444);
MODULE_PARM_DESC(size, "bytes per message");
static uint rbuf_size;
module_param(rbuf_size, uint, 0444);
MODULE_PARM_DESC(rbuf_size, "receive buffer size, default size");
static uint recvs = UINT_MAX;
module_param(recvs, uint, 0444);
MODULE_PARM_DESC(recvs, "receive buffers to post, default count");
static char *mode = "rud";
module_param(mode, charp, 0444);
MODULE_PARM_DESC(mode, "delivery mode: rud, rod, uud (sends) or rudi (write, read)");
static bool lossy;
module_param(lossy, bool, 0444);
MODULE_PARM_DESC(lossy, "uud: messages may be lost; check those that arrive");
static int expect = 0;
module_param(expect, int, 0444);
MODULE_PARM_DESC(expect, "expected status of the work requests or first post: 0 or -errno");
static char *op = "send";
module_param(op, charp, 0444);
MODULE_PARM_DESC(op, "send, tsend, write, writeimm or read");
static char *fault = "none";
module_param(fault, charp, 0444);
MODULE_PARM_DESC(fault, "RMA fault to inject: none, rkey, gen, bounds, perm, domain");
static bool pages;
module_param(pages, bool, 0444);
MODULE_PARM_DESC(pages, "describe memory by its pages");
static uint nsge = 1;
module_param(nsge, uint, 0444);
MODULE_PARM_DESC(nsge, "scatter/gather entries per buffer");
static uint timeout_s = 120;
module_param(timeout_s, uint, 0444);
MODULE_PARM_DESC(timeout_s, "seconds to wait for the completions");

static unsigned int close_ms;
module_param(close_ms, uint, 0444);
MODULE_PARM_DESC(close_ms, "write: close the sender after this many ms, change its data, and check what lands after");

static unsigned int close_rx_ms;
module_param(close_rx_ms, uint, 0444);
MODULE_PARM_DESC(close_rx_ms, "send: close the receiver after this many ms, and check nothing lands in its buffers after");

struct side {
	struct completion done;
	atomic_t left;
	u64 next;		/* cookie the next completion must carry */
	int status;		/* first unexpected status */
	u32 *len;		/* receive: byte_len per message */
	bool disorder;
	u8 ses_rc;		/* of the first failure */
	bool bad_imm;		/* a receive's immediate data was wrong */
};

enum test_op { OP_SEND, OP_TSEND, OP_WRITE, OP_WRITEIMM, OP_READ };
static const char * const op_names[] = {
	[OP_SEND] = "send", [OP_TSEND] = "tsend", [OP_WRITE] = "write",
	[OP_WRITEIMM] = "writeimm", [OP_READ] = "read",
};
static int the_op;

enum test_fault { F_NONE, F_RKEY, F_GEN, F_BOUNDS, F_PERM, F_DOMAIN };
static const char * const fault_names[] = {
	[F_NONE] = "none", [F_RKEY] = "rkey", [F_GEN] = "gen",
	[F_BOUNDS] = "bounds", [F_PERM] = "perm", [F_DOMAIN] = "domain",
};
static const u8 fault_rc[] = {
	[F_RKEY] = UET_SES_RC_BAD_MKEY, [F_GEN] = UET_SES_RC_BAD_GENERATION,
	[F_BOUNDS] = UET_SES_RC_AT_OUT_OF_RANGE,
	[F_PERM] = UET_SES_RC_PERM_VIOLATION,
	[F_DOMAIN] = UET_SES_RC_BAD_MKEY,
};
static int the_fault;

#define TAG_BASE	0x7a6700000000ull	/* tags: TAG_BASE + message */

/*
 * UUD: messages, at most this many, may be lost, and then receive buffers
 * take later ones: the first byte tells which (pattern() is one-to-one
 * on it for 256 messages).  How long the receiver waits for stragglers.
 */
#define LOSSY_MAX	256
#define LOSSY_WAIT_MS	3000

static struct side tx, rx;

static void comp(struct uet_ep *ep, const struct uet_comp *c, void *priv)
{
	struct side *s = c->recv ? &rx : &tx;

	/* tagged sends complete as they finish, not in order */
	if (c->cookie != s->next && !(c->recv && the_op == OP_TSEND))
		s->disorder = true;
	s->next = c->cookie + 1;
	if (c->recv && c->status != -ECANCELED && c->cookie < count) {
		s->len[c->cookie] = c->byte_len;
		if (the_op == OP_WRITEIMM &&
		    (!c->has_imm || c->imm != c->cookie || c->op != UET_OP_WRITE))
			s->bad_imm = true;
		if (the_op == OP_TSEND && c->tag != TAG_BASE + c->cookie)
			s->bad_imm = true;
	}
	if (c->status && !s->status && c->status != -ECANCELED) {
		s->status = c->status;
		s->ses_rc = c->ses_rc;
	}
	if (c->status != -ECANCELED && atomic_dec_and_test(&s->left))
		complete(&s->done);
}

static u8 pattern(u32 msg, u32 i)
{
	return (msg * 131 + i * 7 + (i >> 8)) & 0xff;
}

/* Nothing was written past a receive buffer. */
static int check_guards(const u8 *rbuf, u32 rsize, u32 nrecv)
{
	size_t stride = (size_t)rsize + GUARD_LEN;
	u32 m, i;

	for (m = 0; m < nrecv; m++)
		for (i = 0; i < GUARD_LEN; i++)
			if (rbuf[m * stride + rsize + i] != GUARD) {
				pr_err("FAIL write past receive buffer %u\n", m);
				return -EIO;
			}
	return 0;
}

/*
 * A region over @len bytes at @buf: by kernel address, or by the pages of
 * the vmalloc() area (pages=1), as pinned user memory is described.
 */
static int test_mem_init(struct uet_mem *mem, void *buf, size_t len)
{
	unsigned int i;

	mem->iova = (uintptr_t)buf;
	mem->length = len;
	if (!pages)
		return 0;
	mem->offset = offset_in_page(buf);
	mem->npages = DIV_ROUND_UP(mem->offset + len, PAGE_SIZE);
	mem->pages = kvcalloc(mem->npages, sizeof(*mem->pages), GFP_KERNEL);
	if (!mem->pages)
		return -ENOMEM;
	for (i = 0; i < mem->npages; i++)
		mem->pages[i] = vmalloc_to_page(buf - mem->offset + i * PAGE_SIZE);
	return 0;
}

/* Split [addr, addr + len) of @mem into @nsge entries. */
static unsigned int sgl_init(struct uet_sge *sge, const struct uet_mem *mem,
			     u64 addr, u32 len)
{
	unsigned int n = clamp_t(unsigned int, nsge, 1, UET_MAX_SGE), i;
	u32 piece = len / n;

	for (i = 0; i < n; i++) {
		sge[i].mem = mem;
		sge[i].addr = addr + (u64)i * piece;
		sge[i].len = i == n - 1 ? len - i * piece : piece;
	}
	return n;
}

struct bufs {
	u8 *sbuf, *rbuf;
	u32 rsize, nrecv;
	struct uet_mem smem, rmem;
	size_t stride;
};

static int post_recvs(struct uet_ep *b, struct bufs *bf)
{
	struct uet_sge sge[UET_MAX_SGE];
	u32 m, k;
	int err;

	if (the_op == OP_WRITE || the_op == OP_READ)
		return 0;
	for (k = 0; k < bf->nrecv; k++) {
		/* tagged: posted last message first, each for its own tag */
		struct uet_recv rv = {
			.cookie = the_op == OP_TSEND ? bf->nrecv - 1 - k : k,
			.tagged = the_op == OP_TSEND,
			.sge = sge,
		};

		m = rv.cookie;
		rv.tag = TAG_BASE + m;
		if (the_op != OP_WRITEIMM)
			rv.nsge = sgl_init(sge, &bf->rmem,
					   bf->rmem.iova + m * bf->stride, bf->rsize);
		err = uet_ep_post_recv(b, &rv);
		if (err)
			return err;
	}
	return 0;
}

static int post_wrs(struct uet_ep *a, const struct in6_addr *daddr, u8 pdc_mode,
		    struct bufs *bf, u32 rkey)
{
	struct uet_sge sge[UET_MAX_SGE];
	u32 m;
	int err;

	for (m = 0; m < count; m++) {
		struct uet_wr wr = {
			.cookie = m,
			.dst = *daddr,
			.dst_pid = DST_PID,
			.mode = pdc_mode,
			.sge = sge,
			.rkey = rkey,
			.raddr = bf->rmem.iova + m * bf->stride,
			.imm = m,
			.tag = TAG_BASE + m,
		};

		wr.nsge = sgl_init(sge, &bf->smem,
				   bf->smem.iova + (size_t)m * size, size);
		switch (the_op) {
		case OP_TSEND:
			wr.flags = UET_WR_TAGGED;
			break;
		case OP_WRITEIMM:
			wr.flags = UET_WR_IMM;
			fallthrough;
		case OP_WRITE:
			wr.op = UET_OP_WRITE;
			break;
		case OP_READ:
			wr.op = UET_OP_READ;
			break;
		}
		if (the_fault == F_BOUNDS)
			wr.raddr = bf->rmem.iova + bf->rmem.length - size / 2;
		err = uet_ep_post(a, &wr);
		if (err && !m && err == expect) {
			pr_info("PASS %s refused at post: %d\n", op, err);
			return 1;
		}
		if (err) {
			pr_err("FAIL post %u: %d\n", m, err);
			return err;
		}
	}
	return 0;
}

/*
 * UUD under loss: each buffer that received something holds one whole
 * message, each message at most once.  Return: how many arrived, or
 * -EIO.
 */
static int check_lossy(struct bufs *bf)
{
	DECLARE_BITMAP(seen, LOSSY_MAX) = {};
	u32 k, m, i;
	int n = 0;

	for (k = 0; k < bf->nrecv; k++) {
		const u8 *got = bf->rbuf + k * bf->stride;

		if (!rx.len[k])
			continue;	/* nothing arrived here */
		for (m = 0; m < count && got[0] != pattern(m, 0); m++)
			;
		if (m == count || rx.len[k] != size || test_and_set_bit(m, seen)) {
			pr_err("FAIL buffer %u: %u bytes, no or a repeated message\n",
			       k, rx.len[k]);
			return -EIO;
		}
		for (i = 0; i < size; i++)
			if (got[i] != pattern(m, i)) {
				pr_err("FAIL message %u byte %u\n", m, i);
				return -EIO;
			}
		n++;
	}
	return n;
}

/* Where message @m must have landed, and what must be there. */
static int check_data(struct bufs *bf)
{
	u32 m, i;

	for (m = 0; m < count; m++) {
		const u8 *got = the_op == OP_READ ? bf->sbuf + (size_t)m * size :
						   bf->rbuf + m * bf->stride;

		if (the_op != OP_WRITE && the_op != OP_READ && rx.len[m] != size) {
			pr_err("FAIL message %u: %u bytes, want %u\n", m, rx.len[m], size);
			return -EIO;
		}
		for (i = 0; i < size; i++)
			if (got[i] != pattern(m, i)) {
				pr_err("FAIL message %u byte %u: %#x, want %#x\n", m, i,
				       got[i], pattern(m, i));
				return -EIO;
			}
	}
	return 0;
}

/*
 * close_ms: the sender's writes wait (the caller stalls the link), its
 * endpoint closes, and its data changes, as a caller may change it after
 * the completion.  What the PDC sends again afterwards must be what was
 * posted: every byte of the target's buffer is the pattern or untouched,
 * none is SCRIBBLE, and some did land (else nothing was tested).
 */
#define SCRIBBLE		0xee
#define CLOSE_SETTLE_MS		8000
static bool a_closed;

static int close_and_check(struct uet_ep *a, struct bufs *bf)
{
	u32 m, i, landed = 0;

	msleep(close_ms);
	uet_ep_close(a);
	a_closed = true;
	memset(bf->sbuf, SCRIBBLE, (size_t)count * size);
	msleep(CLOSE_SETTLE_MS);
	for (m = 0; m < count; m++)
		for (i = 0; i < size; i++) {
			u8 got = bf->rbuf[m * bf->stride + i];

			if (got == pattern(m, i) && got != GUARD) {
				landed++;
			} else if (got != GUARD) {
				pr_err("FAIL message %u byte %u: %#x after the close, want %#x\n",
				       m, i, got, pattern(m, i));
				return -EIO;
			}
		}
	if (!landed) {
		pr_err("FAIL nothing landed after the close\n");
		return -EIO;
	}
	pr_info("PASS close: %u bytes landed after it, all as posted\n", landed);
	return 0;
}

/*
 * close_rx_ms: the receiver closes while the sends arrive, close_rx_ms
 * after the first is posted (posting waits for room once the sender has
 * enough queued: the close runs beside it, from a work item).  Its
 * buffers are then the caller's again: nothing may land in them after the
 * return, though packets of the messages keep arriving (dropped, no
 * endpoint).
 */
static bool b_closed;
static struct uet_ep *close_rx_ep;
static struct bufs *close_rx_bufs;

static void close_rx(struct work_struct *work)
{
	uet_ep_close(close_rx_ep);
	b_closed = true;
	memset(close_rx_bufs->rbuf, SCRIBBLE,
	       close_rx_bufs->stride * close_rx_bufs->nrecv);
}

static DECLARE_DELAYED_WORK(close_rx_work, close_rx);

static int close_rx_check(struct bufs *bf)
{
	size_t i, n = bf->stride * bf->nrecv;

	flush_delayed_work(&close_rx_work);
	msleep(CLOSE_SETTLE_MS);
	for (i = 0; i < n; i++)
		if (bf->rbuf[i] != SCRIBBLE) {
			pr_err("FAIL receive buffer byte %zu changed after the receiver's close\n",
			       i);
			return -EIO;
		}
	pr_info("PASS close of the receiver: nothing landed after it\n");
	return 0;
}

static int run(struct uet_ep *a, struct uet_ep *b, const struct in6_addr *daddr,
	       u8 pdc_mode, struct bufs *bf, struct ib_device *tdev)
{
	unsigned long left = msecs_to_jiffies(timeout_s * MSEC_PER_SEC);
	u32 access = 0, rkey = 0, bad_rkey, m, i;
	bool rma = the_op >= OP_WRITE;
	bool expect_fail = the_fault != F_NONE;
	u64 t0, ns;
	int err;

	memset(bf->rbuf, GUARD, bf->stride * bf->nrecv);
	if (the_op == OP_READ) {
		memset(bf->sbuf, GUARD, (size_t)count * size);
		for (m = 0; m < count; m++)
			for (i = 0; i < size; i++)
				bf->rbuf[m * bf->stride + i] = pattern(m, i);
	} else {
		for (m = 0; m < count; m++)
			for (i = 0; i < size; i++)
				bf->sbuf[(size_t)m * size + i] = pattern(m, i);
	}
	if (rma) {
		access = the_op == OP_READ ? UET_ACCESS_REMOTE_READ :
					     UET_ACCESS_REMOTE_WRITE;
		if (the_fault == F_PERM)
			access = UET_ACCESS_MASK & ~access;
		/* the endpoints' domain is NULL: @bf stands for another */
		err = uet_ri_add(tdev, job, the_fault == F_DOMAIN ? bf : NULL,
				 &bf->rmem, access, &rkey);
		if (err)
			return err;
	}
	bad_rkey = rkey;
	if (the_fault == F_RKEY)
		bad_rkey += 1 << 8;		/* the next index */
	else if (the_fault == F_GEN)
		bad_rkey ^= 1;
	err = post_recvs(b, bf);
	if (err)
		goto out;

	if (close_rx_ms) {
		if (the_op != OP_SEND) {
			err = -EINVAL;
			goto out;
		}
		close_rx_ep = b;
		close_rx_bufs = bf;
		schedule_delayed_work(&close_rx_work,
				      msecs_to_jiffies(close_rx_ms));
	}
	t0 = ktime_get_ns();
	err = post_wrs(a, daddr, pdc_mode, bf, bad_rkey);
	if (err) {
		err = min(err, 0);	/* 1: refused at post, as expected */
		goto out;
	}
	if (close_ms) {
		err = the_op == OP_WRITE ? close_and_check(a, bf) : -EINVAL;
		goto out;
	}
	if (close_rx_ms) {
		err = close_rx_check(bf);
		goto out;
	}
	left = wait_for_completion_timeout(&tx.done, left);
	if (left && lossy)
		wait_for_completion_timeout(&rx.done,
					    msecs_to_jiffies(LOSSY_WAIT_MS));
	else if (left && !expect && !expect_fail && atomic_read(&rx.left))
		left = wait_for_completion_timeout(&rx.done, left);
	ns = ktime_get_ns() - t0;
	err = -ETIMEDOUT;
	if (!left) {
		pr_err("FAIL timeout: %d work requests, %d receives outstanding\n",
		       atomic_read(&tx.left), atomic_read(&rx.left));
		goto out;
	}
	err = -EIO;
	if (tx.disorder || rx.disorder) {
		pr_err("FAIL completions out of order\n");
		goto out;
	}
	if (expect_fail) {
		if (tx.status != -EREMOTEIO || tx.ses_rc != fault_rc[the_fault]) {
			pr_err("FAIL status %d rc %u, want %d rc %u\n", tx.status,
			       tx.ses_rc, -EREMOTEIO, fault_rc[the_fault]);
			goto out;
		}
		/*
		 * Nothing was written (a write is checked whole, whatever
		 * packet arrives first); what a refused read leaves in the
		 * local buffer is undefined, as in verbs.
		 */
		for (i = 0; the_op != OP_READ && i < bf->stride * bf->nrecv; i++)
			if (bf->rbuf[i] != GUARD) {
				pr_err("FAIL refused write changed byte %u\n", i);
				goto out;
			}
		pr_info("PASS %s fault=%s rc=%u\n", op, fault, tx.ses_rc);
		err = 0;
		goto out;
	}
	if (tx.status != expect) {
		pr_err("FAIL status %d, want %d\n", tx.status, expect);
		goto out;
	}
	err = check_guards(bf->rbuf, bf->rsize, bf->nrecv);
	if (err || expect)
		goto out;
	err = -EIO;
	if ((rx.status && !lossy) || rx.bad_imm) {
		pr_err("FAIL receive status %d%s\n", rx.status,
		       rx.bad_imm ? ", wrong immediate data or tag" : "");
		goto out;
	}
	if (lossy) {
		err = check_lossy(bf);
		if (err >= 0)
			pr_info("PASS %s %s lossy: %d of %u messages arrived intact\n",
				op, mode, err, count);
		err = min(err, 0);
		goto out;
	}
	err = check_data(bf);
	if (!err)
		pr_info("PASS %s %s count=%u size=%u bytes=%llu us=%llu goodput_kBps=%llu\n",
			op, mode, count, size, (u64)count * size, ns / NSEC_PER_USEC,
			div64_u64((u64)count * size * USEC_PER_SEC, max_t(u64, ns / NSEC_PER_USEC, 1)) / 1000);
out:
	/* the receiver's close has run, whatever else failed */
	flush_delayed_work(&close_rx_work);
	if (rma)
		uet_ri_del(tdev, rkey);
	return err;
}

static int parse_addr(struct in6_addr *a)
{
	if (in4_pton(addr, -1, (u8 *)&a->s6_addr32[3], -1, NULL)) {
		ipv6_addr_set_v4mapped(a->s6_addr32[3], a);
		return 0;
	}
	return in6_pton(addr, -1, a->s6_addr, -1, NULL) ? 0 : -EINVAL;
}

static struct ib_device *dev_get(const char *name)
{
	return ib_device_get_by_name(name, RDMA_DRIVER_RXE);
}

static int __init test_engine_init(void)
{
	struct ib_device *sdev = NULL, *tdev = NULL;
	struct bufs bf = { .rsize = rbuf_size ?: size };
	struct uet_ep *a, *b;
	struct in6_addr daddr;
	u8 pdc_mode;
	int err;

	the_op = match_string(op_names, ARRAY_SIZE(op_names), op);
	the_fault = match_string(fault_names, ARRAY_SIZE(fault_names), fault);
	bf.nrecv = the_op == OP_WRITE || the_op == OP_READ ? count :
		   min(recvs, count);
	bf.stride = (size_t)bf.rsize + GUARD_LEN;
	if (parse_addr(&daddr) || !count || the_op < 0 || the_fault < 0 ||
	    (the_fault && the_op < OP_WRITE) ||
	    (u64)count * max(size, bf.rsize) > MAX_TOTAL)
		return -EINVAL;
	if (!strcmp(mode, "rud"))
		pdc_mode = UET_PDC_RUD;
	else if (!strcmp(mode, "rod"))
		pdc_mode = UET_PDC_ROD;
	else if (!strcmp(mode, "uud") && (the_op == OP_SEND || the_op == OP_TSEND) &&
		 count <= LOSSY_MAX)
		pdc_mode = UET_PDC_UUD;
	else if (!strcmp(mode, "rudi") && (the_op == OP_WRITE || the_op == OP_READ))
		pdc_mode = UET_PDC_RUDI;
	else
		return -EINVAL;

	init_completion(&tx.done);
	init_completion(&rx.done);
	atomic_set(&tx.left, count);
	atomic_set(&rx.left, the_op == OP_WRITE || the_op == OP_READ ? 0 : bf.nrecv);
	rx.len = kvcalloc(count, sizeof(*rx.len), GFP_KERNEL);
	bf.sbuf = vmalloc((size_t)count * size + 1);
	bf.rbuf = vmalloc(bf.stride * bf.nrecv + 1);
	err = -ENOMEM;
	if (!rx.len || !bf.sbuf || !bf.rbuf ||
	    test_mem_init(&bf.smem, bf.sbuf, (size_t)count * size) ||
	    test_mem_init(&bf.rmem, bf.rbuf, bf.stride * bf.nrecv))
		goto out_free;
	/* the target's region ends before the last guard */
	bf.rmem.length -= GUARD_LEN;

	err = -ENODEV;
	sdev = dev_get(src);
	tdev = dev_get(dst);
	if (!sdev || !tdev)
		goto out_free;
	a = uet_ep_open(sdev, job, SRC_PID, NULL, comp, NULL);
	err = PTR_ERR_OR_ZERO(a);
	if (err)
		goto out_free;
	b = uet_ep_open(tdev, job, DST_PID, NULL, comp, NULL);
	err = PTR_ERR_OR_ZERO(b);
	if (err)
		goto out_close_a;

	err = run(a, b, &daddr, pdc_mode, &bf, tdev);

	if (!a_closed)
		uet_ep_close(a);
	if (!b_closed)
		uet_ep_close(b);
	goto out_free;

out_close_a:
	uet_ep_close(a);
out_free:
	if (tdev)
		ib_device_put(tdev);
	if (sdev)
		ib_device_put(sdev);
	kvfree(bf.rmem.pages);
	kvfree(bf.smem.pages);
	vfree(bf.rbuf);
	vfree(bf.sbuf);
	kvfree(rx.len);
	if (err)
		pr_err("result %d\n", err);
	return err ? -EIO : 0;
}

static void __exit test_engine_exit(void)
{
}

module_init(test_engine_init);
module_exit(test_engine_exit);
MODULE_DESCRIPTION("Test driver of the uet engine's kernel API");
MODULE_LICENSE("GPL");
MODULE_IMPORT_NS(UET_ENGINE);
