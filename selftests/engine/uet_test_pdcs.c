// SPDX-License-Identifier: GPL-2.0
/*
 * Test-only module that opens many PDCs through the engine's kernel API:
 * loading it sends one message of @size bytes in each of @pdcs jobs
 * (@job, @job + 1, ...) from endpoint {job, 1} on @src to endpoint
 * {job, 2} on @dst, whose device holds @addr.  Each job is a PDC of its
 * own on both devices (a PDC is per {peer, job, traffic class, mode}).
 * The messages go @batch at a time, each batch's endpoints closed once its
 * messages arrived; the PDCs stay, to close when idle.  The load fails
 * (-EIO) unless every message arrived intact.
 *
 *   modprobe uet_test_pdcs src=uet0 dst=uet1 addr=198.18.0.2 pdcs=65535
 *
 * The kernel log gets the time it took (us), the time from the posts of
 * the batches' sends to their last answers (setup_us: the endpoints,
 * opened and closed around them, left out) and the rate of PDC setups
 * that makes, each a zero-RTT first request and its answer.
 *
 * lat=K instead times K PDCs one after the other: a new PDC's first
 * message (post to both completions) against the next message on the
 * same, established PDC; the medians go to the log.
 *
 * sink=1 has no receiver: one endpoint sends a message to each of @pdcs
 * addresses from @addr on (IPv4), routed where nothing answers, each a
 * PDC of its own; the log gets the rate of PDC creation and first
 * transmission (the posts, which send at once).  The endpoint stays
 * open, its PDCs active, until the module is removed.  Never part of
 * uet.ko.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/completion.h>
#include <linux/inet.h>
#include <linux/module.h>
#include <linux/slab.h>
#include <linux/sort.h>
#include <net/ipv6.h>
#include <rdma/ib_verbs.h>

#include "pdc.h"
#include "ses.h"

#define SRC_PID		1
#define DST_PID		2
#define SIZE_MAX_TEST	4096
#define BATCH_MAX	1024

static char *src = "uet0";
module_param(src, charp, 0444);
MODULE_PARM_DESC(src, "sending uet device");
static char *dst = "uet1";
module_param(dst, charp, 0444);
MODULE_PARM_DESC(dst, "receiving uet device");
static char *addr = "";
module_param(addr, charp, 0444);
MODULE_PARM_DESC(addr, "IPv4 or IPv6 address of the receiving device");
static uint job = 0x100000;
module_param(job, uint, 0444);
MODULE_PARM_DESC(job, "job of the first PDC; the others follow");
static uint pdcs = 1024;
module_param(pdcs, uint, 0444);
MODULE_PARM_DESC(pdcs, "PDCs to open, one per job");
static uint size = 64;
module_param(size, uint, 0444);
MODULE_PARM_DESC(size, "bytes of each PDC's message, at most 4096");
static uint batch = 256;
module_param(batch, uint, 0444);
MODULE_PARM_DESC(batch, "messages in flight at once, at most 1024");
static uint timeout_s = 30;
module_param(timeout_s, uint, 0444);
MODULE_PARM_DESC(timeout_s, "seconds to wait for one batch");
static uint lat;
module_param(lat, uint, 0444);
MODULE_PARM_DESC(lat, "time this many new PDCs' first message against their second, at most 1024");
static bool sink;
module_param(sink, bool, 0444);
MODULE_PARM_DESC(sink, "no receiver: @pdcs IPv4 addresses from @addr on, nothing answers");

/* sink=1: the endpoint whose PDCs stay active until the module goes */
static struct ib_device *sink_dev;
static struct uet_ep *sink_ep;
static struct pdcs_batch *sink_bt;

/* One batch: its endpoints, buffers and completions. */
struct pdcs_batch {
	struct uet_ep *a[BATCH_MAX], *b[BATCH_MAX];
	u32 len[BATCH_MAX];	/* bytes each receive got */
	u8 *sbuf, *rbuf;
	struct uet_mem smem, rmem;
	atomic_t left;
	struct completion done;
	int status;		/* the first failure */
	u64 setup_ns;		/* posts to answers, all batches */
};

static void comp(struct uet_ep *ep, const struct uet_comp *c, void *priv)
{
	struct pdcs_batch *bt = priv;

	if (c->recv && c->cookie < BATCH_MAX)
		bt->len[c->cookie] = c->byte_len;
	if (c->status == -ECANCELED)
		return;
	if (c->status && !bt->status)
		bt->status = c->status;
	if (atomic_dec_and_test(&bt->left))
		complete(&bt->done);
}

static u8 pattern(u32 pdc, u32 i)
{
	return (pdc * 131 + i * 7) & 0xff;
}

static void close_batch(struct pdcs_batch *bt, u32 n)
{
	u32 k;

	for (k = 0; k < n; k++) {
		if (!IS_ERR_OR_NULL(bt->a[k]))
			uet_ep_close(bt->a[k]);
		if (!IS_ERR_OR_NULL(bt->b[k]))
			uet_ep_close(bt->b[k]);
		bt->a[k] = NULL;
		bt->b[k] = NULL;
	}
}

/* Open the endpoints of PDCs [@first, @first + @n), post, wait, check. */
static int run_batch(struct pdcs_batch *bt, struct ib_device *sdev,
		     struct ib_device *tdev, const struct in6_addr *daddr,
		     u32 first, u32 n)
{
	struct uet_sge ssge = { .mem = &bt->smem, .len = size };
	struct uet_sge rsge = { .mem = &bt->rmem, .len = size };
	u32 k, i;
	u64 t0;
	int err;

	memset(bt->rbuf, 0, (size_t)n * size);
	memset(bt->len, 0, sizeof(bt->len));
	for (k = 0; k < n; k++)
		for (i = 0; i < size; i++)
			bt->sbuf[k * size + i] = pattern(first + k, i);
	bt->status = 0;
	atomic_set(&bt->left, 2 * n);
	reinit_completion(&bt->done);
	for (k = 0; k < n; k++) {
		struct uet_recv rv = { .cookie = k, .sge = &rsge, .nsge = 1 };

		bt->a[k] = uet_ep_open(sdev, job + first + k, SRC_PID, NULL,
				       comp, bt);
		bt->b[k] = uet_ep_open(tdev, job + first + k, DST_PID, NULL,
				       comp, bt);
		err = PTR_ERR_OR_ZERO(bt->a[k]) ?: PTR_ERR_OR_ZERO(bt->b[k]);
		if (err) {
			pr_err("FAIL open the endpoints of PDC %u: %d\n",
			       first + k, err);
			goto out;
		}
		rsge.addr = bt->rmem.iova + (u64)k * size;
		err = uet_ep_post_recv(bt->b[k], &rv);
		if (err) {
			pr_err("FAIL post a receive for PDC %u: %d\n",
			       first + k, err);
			goto out;
		}
	}
	/* from the first PDC's first packet to the last one's answer */
	t0 = ktime_get_ns();
	for (k = 0; k < n; k++) {
		struct uet_wr wr = {
			.cookie = k, .dst = *daddr, .dst_pid = DST_PID,
			.mode = UET_PDC_RUD, .sge = &ssge, .nsge = 1,
		};

		ssge.addr = bt->smem.iova + (u64)k * size;
		err = uet_ep_post(bt->a[k], &wr);
		if (err) {
			pr_err("FAIL post on PDC %u: %d\n", first + k, err);
			goto out;
		}
	}
	err = -ETIMEDOUT;
	if (!wait_for_completion_timeout(&bt->done, timeout_s * HZ)) {
		pr_err("FAIL timeout: %d of %u completions outstanding from PDC %u\n",
		       atomic_read(&bt->left), 2 * n, first);
		goto out;
	}
	err = -EIO;
	if (bt->status) {
		pr_err("FAIL status %d in the batch from PDC %u\n", bt->status,
		       first);
		goto out;
	}
	for (k = 0; k < n; k++) {
		const u8 *got = bt->rbuf + k * size;

		for (i = 0; i < size && bt->len[k] == size; i++)
			if (got[i] != pattern(first + k, i))
				break;
		if (bt->len[k] != size || i < size) {
			pr_err("FAIL PDC %u: %u bytes, byte %u wrong\n",
			       first + k, bt->len[k], i);
			goto out;
		}
	}
	bt->setup_ns += ktime_get_ns() - t0;
	err = 0;
out:
	close_batch(bt, n);
	return err;
}

/* Post and wait for one send and its receive; its time in *@ns. */
static int lat_msg(struct pdcs_batch *bt, struct uet_ep *a, struct uet_ep *b,
		   const struct in6_addr *daddr, u64 *ns)
{
	struct uet_sge ssge = { .mem = &bt->smem, .addr = bt->smem.iova,
				.len = size };
	struct uet_sge rsge = { .mem = &bt->rmem, .addr = bt->rmem.iova,
				.len = size };
	struct uet_recv rv = { .sge = &rsge, .nsge = 1 };
	struct uet_wr wr = {
		.dst = *daddr, .dst_pid = DST_PID, .mode = UET_PDC_RUD,
		.sge = &ssge, .nsge = 1,
	};
	u64 t0;
	int err;

	atomic_set(&bt->left, 2);
	reinit_completion(&bt->done);
	err = uet_ep_post_recv(b, &rv);
	if (err)
		return err;
	t0 = ktime_get_ns();
	err = uet_ep_post(a, &wr);
	if (err)
		return err;
	if (!wait_for_completion_timeout(&bt->done, timeout_s * HZ))
		return -ETIMEDOUT;
	*ns = ktime_get_ns() - t0;
	return bt->status;
}

static int cmp_u64(const void *a, const void *b)
{
	u64 x = *(const u64 *)a, y = *(const u64 *)b;

	return x < y ? -1 : x > y;
}

/* lat=K: K new PDCs, each one's first message and then its second. */
static int run_lat(struct pdcs_batch *bt, struct ib_device *sdev,
		   struct ib_device *tdev, const struct in6_addr *daddr)
{
	u64 *t_new, *t_est;
	struct uet_ep *a, *b;
	int err = 0;
	u32 k;

	t_new = kcalloc(lat, sizeof(*t_new), GFP_KERNEL);
	t_est = kcalloc(lat, sizeof(*t_est), GFP_KERNEL);
	if (!t_new || !t_est) {
		err = -ENOMEM;
		goto out;
	}
	for (k = 0; k < lat && !err; k++) {
		a = uet_ep_open(sdev, job + k, SRC_PID, NULL, comp, bt);
		if (IS_ERR(a)) {
			err = PTR_ERR(a);
			break;
		}
		b = uet_ep_open(tdev, job + k, DST_PID, NULL, comp, bt);
		err = PTR_ERR_OR_ZERO(b);
		if (!err) {
			err = lat_msg(bt, a, b, daddr, &t_new[k]) ?:
			      lat_msg(bt, a, b, daddr, &t_est[k]);
			uet_ep_close(b);
		}
		uet_ep_close(a);
	}
	if (err) {
		pr_err("FAIL latency of PDC %u: %d\n", k - 1, err);
		goto out;
	}
	sort(t_new, lat, sizeof(*t_new), cmp_u64, NULL);
	sort(t_est, lat, sizeof(*t_est), cmp_u64, NULL);
	pr_info("PASS lat=%u size=%u new_us=%llu established_us=%llu (medians)\n",
		lat, size, t_new[lat / 2] / NSEC_PER_USEC,
		t_est[lat / 2] / NSEC_PER_USEC);
out:
	kfree(t_est);
	kfree(t_new);
	return err;
}

/*
 * sink=1: one endpoint, a message to each of @pdcs addresses from
 * @daddr on; left open with its PDCs (sink_ep) until the module goes.
 */
static int run_sink(struct pdcs_batch *bt, struct ib_device *sdev,
		    const struct in6_addr *daddr)
{
	struct uet_sge ssge = { .mem = &bt->smem, .addr = bt->smem.iova,
				.len = size };
	u32 base = ntohl(daddr->s6_addr32[3]), k;
	u64 t0, us;
	int err = 0;

	sink_ep = uet_ep_open(sdev, job, SRC_PID, NULL, comp, bt);
	if (IS_ERR(sink_ep)) {
		err = PTR_ERR(sink_ep);
		sink_ep = NULL;
		return err;
	}
	t0 = ktime_get_ns();
	for (k = 0; k < pdcs && !err; k++) {
		struct uet_wr wr = {
			.cookie = k, .dst = *daddr, .dst_pid = DST_PID,
			.mode = UET_PDC_RUD, .sge = &ssge, .nsge = 1,
		};

		wr.dst.s6_addr32[3] = htonl(base + k);
		err = uet_ep_post(sink_ep, &wr);
	}
	us = max_t(u64, (ktime_get_ns() - t0) / NSEC_PER_USEC, 1);
	if (err) {
		pr_err("FAIL post to destination %u: %d\n", k - 1, err);
		uet_ep_close(sink_ep);
		sink_ep = NULL;
		return err;
	}
	pr_info("PASS sink pdcs=%u size=%u us=%llu setups_per_s=%llu\n", pdcs,
		size, us, div64_u64((u64)pdcs * USEC_PER_SEC, us));
	return 0;
}

static int parse_addr(struct in6_addr *a)
{
	if (in4_pton(addr, -1, (u8 *)&a->s6_addr32[3], -1, NULL)) {
		ipv6_addr_set_v4mapped(a->s6_addr32[3], a);
		return 0;
	}
	return in6_pton(addr, -1, a->s6_addr, -1, NULL) ? 0 : -EINVAL;
}

static int __init test_pdcs_init(void)
{
	struct ib_device *sdev = NULL, *tdev = NULL;
	struct pdcs_batch *bt;
	struct in6_addr daddr;
	u32 first, n;
	u64 t0, us, setup_us;
	int err;

	if (parse_addr(&daddr) || !pdcs || !size || size > SIZE_MAX_TEST ||
	    !batch || batch > BATCH_MAX || job + (u64)pdcs > BIT(UET_JOB_BITS) ||
	    lat > BATCH_MAX || job + (u64)lat > BIT(UET_JOB_BITS) ||
	    (sink && (!ipv6_addr_v4mapped(&daddr) ||
		      (u64)ntohl(daddr.s6_addr32[3]) + pdcs > U32_MAX)))
		return -EINVAL;
	bt = kzalloc(sizeof(*bt), GFP_KERNEL);
	if (!bt)
		return -ENOMEM;
	init_completion(&bt->done);
	bt->sbuf = kvmalloc_array(batch, size, GFP_KERNEL);
	bt->rbuf = kvmalloc_array(batch, size, GFP_KERNEL);
	err = -ENOMEM;
	if (!bt->sbuf || !bt->rbuf)
		goto out_free;
	bt->smem = (struct uet_mem){ .iova = (uintptr_t)bt->sbuf,
				     .length = (u64)batch * size };
	bt->rmem = (struct uet_mem){ .iova = (uintptr_t)bt->rbuf,
				     .length = (u64)batch * size };
	err = -ENODEV;
	sdev = ib_device_get_by_name(src, RDMA_DRIVER_RXE);
	if (sink && sdev) {
		err = run_sink(bt, sdev, &daddr);
		if (!err) {
			sink_dev = sdev;
			sink_bt = bt;	/* its buffer is sink_ep's until it closes */
			return 0;
		}
		goto out_free;
	}
	tdev = ib_device_get_by_name(dst, RDMA_DRIVER_RXE);
	if (!sdev || !tdev)
		goto out_free;
	if (lat) {
		err = run_lat(bt, sdev, tdev, &daddr);
		goto out_free;
	}

	t0 = ktime_get_ns();
	for (first = 0, err = 0; first < pdcs && !err; first += n) {
		n = min(batch, pdcs - first);
		err = run_batch(bt, sdev, tdev, &daddr, first, n);
	}
	us = max_t(u64, (ktime_get_ns() - t0) / NSEC_PER_USEC, 1);
	setup_us = max_t(u64, bt->setup_ns / NSEC_PER_USEC, 1);
	if (!err)
		pr_info("PASS pdcs=%u size=%u batch=%u us=%llu setup_us=%llu setups_per_s=%llu\n",
			pdcs, size, batch, us, setup_us,
			div64_u64((u64)pdcs * USEC_PER_SEC, setup_us));
out_free:
	if (tdev)
		ib_device_put(tdev);
	if (sdev)
		ib_device_put(sdev);
	kvfree(bt->rbuf);
	kvfree(bt->sbuf);
	kfree(bt);
	if (err)
		pr_err("result %d\n", err);
	return err ? -EIO : 0;
}

static void __exit test_pdcs_exit(void)
{
	if (!sink_ep)
		return;
	uet_ep_close(sink_ep);
	ib_device_put(sink_dev);
	kvfree(sink_bt->rbuf);
	kvfree(sink_bt->sbuf);
	kfree(sink_bt);
}

module_init(test_pdcs_init);
module_exit(test_pdcs_exit);
MODULE_DESCRIPTION("Test driver opening many uet PDCs");
MODULE_LICENSE("GPL");
MODULE_IMPORT_NS(UET_ENGINE);
