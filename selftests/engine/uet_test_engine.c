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
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/completion.h>
#include <linux/inet.h>
#include <linux/module.h>
#include <linux/vmalloc.h>
#include <net/ipv6.h>

#include "pdc.h"
#include "ses.h"

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
MODULE_PARM_DESC(mode, "delivery mode: rud or rod");
static int expect = 0;
module_param(expect, int, 0444);
MODULE_PARM_DESC(expect, "expected send status: 0, or a negative errno");
static uint timeout_s = 120;
module_param(timeout_s, uint, 0444);
MODULE_PARM_DESC(timeout_s, "seconds to wait for the completions");

struct side {
	struct completion done;
	atomic_t left;
	u64 next;		/* cookie the next completion must carry */
	int status;		/* first unexpected status */
	u32 *len;		/* receive: byte_len per message */
	bool disorder;
};

static struct side tx, rx;

static void comp(struct uet_ep *ep, const struct uet_comp *c, void *priv)
{
	struct side *s = c->recv ? &rx : &tx;

	if (c->cookie != s->next)
		s->disorder = true;
	s->next = c->cookie + 1;
	if (c->recv && c->status != -ECANCELED && c->cookie < count)
		s->len[c->cookie] = c->byte_len;
	if (c->status && !s->status && c->status != -ECANCELED)
		s->status = c->status;
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

static int check_rx(const u8 *rbuf, u32 rsize)
{
	size_t stride = (size_t)rsize + GUARD_LEN;
	u32 m, i;

	for (m = 0; m < count; m++) {
		if (rx.len[m] != size) {
			pr_err("FAIL message %u: %u bytes, want %u\n", m, rx.len[m], size);
			return -EIO;
		}
		for (i = 0; i < size; i++)
			if (rbuf[m * stride + i] != pattern(m, i)) {
				pr_err("FAIL message %u byte %u: %#x, want %#x\n", m, i,
				       rbuf[m * stride + i], pattern(m, i));
				return -EIO;
			}
	}
	return 0;
}

static int run(struct uet_ep *a, struct uet_ep *b, const struct in6_addr *daddr,
	       u8 pdc_mode, u8 *sbuf, u8 *rbuf, u32 rsize, u32 nrecv)
{
	unsigned long left = msecs_to_jiffies(timeout_s * MSEC_PER_SEC);
	u64 t0, ns;
	u32 m, i;
	int err;

	for (m = 0; m < count; m++)
		for (i = 0; i < size; i++)
			sbuf[(size_t)m * size + i] = pattern(m, i);
	memset(rbuf, GUARD, ((size_t)rsize + GUARD_LEN) * nrecv);
	for (m = 0; m < nrecv; m++) {
		err = uet_ep_post_recv(b, rbuf + m * ((size_t)rsize + GUARD_LEN),
				       rsize, m);
		if (err)
			return err;
	}

	t0 = ktime_get_ns();
	for (m = 0; m < count; m++) {
		err = uet_ep_send(a, daddr, DST_PID, pdc_mode,
				  sbuf + (size_t)m * size, size, m);
		if (err) {
			pr_err("FAIL send %u: %d\n", m, err);
			return err;
		}
	}
	left = wait_for_completion_timeout(&tx.done, left);
	if (left && !expect)
		left = wait_for_completion_timeout(&rx.done, left);
	ns = ktime_get_ns() - t0;
	if (!left) {
		pr_err("FAIL timeout: %d sends, %d receives outstanding\n",
		       atomic_read(&tx.left), atomic_read(&rx.left));
		return -ETIMEDOUT;
	}
	if (tx.disorder || rx.disorder) {
		pr_err("FAIL completions out of order\n");
		return -EIO;
	}
	if (tx.status != expect) {
		pr_err("FAIL send status %d, want %d\n", tx.status, expect);
		return -EIO;
	}
	err = check_guards(rbuf, rsize, nrecv);
	if (err || expect)
		return err;
	if (rx.status) {
		pr_err("FAIL receive status %d\n", rx.status);
		return -EIO;
	}
	err = check_rx(rbuf, rsize);
	if (!err)
		pr_info("PASS %s count=%u size=%u bytes=%llu us=%llu goodput_kBps=%llu\n",
			mode, count, size, (u64)count * size, ns / NSEC_PER_USEC,
			div64_u64((u64)count * size * USEC_PER_SEC, max_t(u64, ns / NSEC_PER_USEC, 1)) / 1000);
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

static int __init test_engine_init(void)
{
	u32 rsize = rbuf_size ?: size, nrecv = min(recvs, count);
	struct uet_ep *a, *b;
	struct in6_addr daddr;
	u8 *sbuf, *rbuf;
	u8 pdc_mode;
	int err;

	if (parse_addr(&daddr) || !count || (u64)count * max(size, rsize) > MAX_TOTAL)
		return -EINVAL;
	if (!strcmp(mode, "rud"))
		pdc_mode = UET_PDC_RUD;
	else if (!strcmp(mode, "rod"))
		pdc_mode = UET_PDC_ROD;
	else
		return -EINVAL;

	init_completion(&tx.done);
	init_completion(&rx.done);
	atomic_set(&tx.left, count);
	atomic_set(&rx.left, nrecv);
	rx.len = kvcalloc(count, sizeof(*rx.len), GFP_KERNEL);
	sbuf = vmalloc((size_t)count * size + 1);
	rbuf = vmalloc(((size_t)rsize + GUARD_LEN) * nrecv + 1);
	err = -ENOMEM;
	if (!rx.len || !sbuf || !rbuf)
		goto out_free;

	a = uet_ep_open(src, job, SRC_PID, comp, NULL);
	err = PTR_ERR_OR_ZERO(a);
	if (err)
		goto out_free;
	b = uet_ep_open(dst, job, DST_PID, comp, NULL);
	err = PTR_ERR_OR_ZERO(b);
	if (err)
		goto out_close_a;

	err = run(a, b, &daddr, pdc_mode, sbuf, rbuf, rsize, nrecv);

	uet_ep_close(a);	/* waits for every send */
	uet_ep_close(b);
	goto out_free;

out_close_a:
	uet_ep_close(a);
out_free:
	vfree(rbuf);
	vfree(sbuf);
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
