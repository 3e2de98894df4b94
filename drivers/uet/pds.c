// SPDX-License-Identifier: GPL-2.0
/*
 * uet PDS manager.
 *
 * PDCs are created on first use: an initiator's first send to {target,
 * job, traffic class, mode} creates one and sends at once with SYN set
 * (zero-RTT); the target creates its side from the first SYN request it
 * sees, found again by {peer address, peer PDCID}.  Every later packet
 * names our PDC by its DPDCID, and counts only if it comes from the PDC's
 * peer: its address, and its PDCID once known (pdc_get_by_id()).  The
 * reliability decisions are the core's (pdc.c); this file turns them into
 * packets, queues and timers.
 *
 * Contexts: packets arrive in softirq; sends come from process context.
 * A PDC's lock is taken with bottom halves disabled outside softirq.  Lock
 * order: uet_pds.lock is never held while taking a PDC's lock; a PDC's
 * lock may be held while calling into the SES layer (ses.c), whose locks
 * nest inside it.
 *
 * Lifetime: a PDC is referenced by the tables (one reference, dropped at
 * teardown) and by whoever found it under RCU (uet_pdc_get()).  Its timers
 * hold no reference: teardown marks it dead and cancels them before the
 * tables' reference goes.
 *
 * Closing: a device's scanner (a delayed work, every UET_PDS_SCAN_MS)
 * closes initiator PDCs idle for the device's pdc_idle_ms: it takes the
 * PDC out of the initiator table, so the next send opens a new one, and
 * once nothing is queued or in flight sends a CLOSE control packet on the
 * PDC's next PSN (1-RTT close).  The target acknowledges it and both sides
 * give the PDC back to its pool.  The scanner also reclaims every PDC
 * that reached CLOSED (cleanly or in error), and target PDCs idle for
 * UET_PDS_TGT_IDLE_FACTOR times as long, whose initiator went away.
 *
 * Lost PDCs: a target answers a request naming a PDC it does not have
 * with a NACK (INV_DPDCID), and the initiator closes that PDC in error at
 * once instead of retrying into the void.  Such answers, like the ACK of
 * a CLOSE for a PDC gone, go to a source nobody vouches for: their rate
 * is bounded (pds_answer()).
 */
#include <linux/hash.h>
#include <linux/ipv6.h>
#include <linux/jhash.h>
#include <linux/random.h>
#include <linux/rculist.h>
#include <linux/slab.h>
#include <linux/udp.h>
#include <net/ipv6.h>
#include <uapi/linux/uet.h>

#include "counters.h"
#include "pds.h"
#include "psn.h"
#include "ses.h"
#include "socket.h"
#include "uet.h"
#include "wire.h"

/*
 * Local PDCIDs run from 1 (0 is none) up to this, the largest pool the
 * 16-bit PDCID fields allow.
 */
#define UET_PDS_PDCID_MAX	U16_MAX

/* How often a device's scanner looks for PDCs to close or reclaim. */
#define UET_PDS_SCAN_MS		100

/*
 * A target PDC idle this many times the initiators' idle timeout has lost
 * its initiator (or the initiator's CLOSE): it is reclaimed.
 */
#define UET_PDS_TGT_IDLE_FACTOR	4

/*
 * One peer address holds at most this many target PDCs, a quarter of the
 * default general pool (main.c): it takes four sources to fill the pool,
 * while a peer in many jobs and traffic classes still has room.
 */
#define UET_PDS_TGT_PER_SRC	1024

/*
 * ROD's window.  Go-back-N resends everything in flight after a loss, so
 * the window bounds what each loss costs; 64 packets (87 KB at MTU 1500)
 * still cover a round trip at the speeds a software transport reaches
 * (Documentation/engine.rst has the measurements).
 */
#define UET_PDS_ROD_WINDOW	64

/*
 * The PSN offset of a SYN request is 12 bits (Documentation/wire-format.rst):
 * while SYN is set nothing is acknowledged, so offsets stay below the window.
 */
#define UET_PDS_SYN_PSN_OFFSET_MAX	0xfff

/*
 * New requests a PDC puts on the wire in one go: when a sender finds it
 * idle, and for each ACK, NACK or timeout after that.  A window's worth
 * at once would overrun the receive backlog of a peer on the same host
 * (veth delivers into the sending CPU's, and netdev_max_backlog is 1000
 * by default; measured: 367 drops in 8 MiB sent without this bound).
 */
#define UET_PDS_TX_BURST	32

/*
 * Answers to packets that no PDC takes go to whatever source the packet
 * claims: a device sends at most UET_PDS_ANSWER_BURST of them per
 * UET_PDS_ANSWER_INTERVAL, so that it cannot be made to reflect a flood.
 * Ours, in the spirit of Linux's bound on ICMP errors
 * (net.ipv4.icmp_msgs_per_sec) but lower: one answer per lost PDC is
 * enough, its initiator gives the PDC up at the first.
 */
#define UET_PDS_ANSWER_INTERVAL	HZ
#define UET_PDS_ANSWER_BURST	100

static void pdc_get(struct uet_pds_pdc *pdc)
{
	refcount_inc(&pdc->ref);
}

static void pdc_put(struct uet_pds_pdc *pdc)
{
	if (refcount_dec_and_test(&pdc->ref)) {
		__skb_queue_purge(&pdc->out);
		dst_cache_destroy(&pdc->dst_cache);
		uet_sched_fini(&pdc->sched);
		kfree_rcu(pdc, rcu);
	}
}

/* Queue @skb, a packet of @pdc's, to leave once its lock is let go. */
static void pdc_out(struct uet_pds_pdc *pdc, struct sk_buff *skb)
{
	lockdep_assert_held(&pdc->lock);
	__skb_queue_tail(&pdc->out, skb);
}

/**
 * pdc_unlock() - let go of a PDC's lock and send what was queued under it
 * @pdc: the PDC, locked
 *
 * Packets are built under the lock (pdc_out()) and leave after it, so
 * that the lock is not held across the IP stack.  One context at a time
 * sends a PDC's packets (@pdc->xmitting), in the order they were queued;
 * a context that finds another sending leaves its packets to it.
 *
 * Context: bottom halves disabled; the caller keeps @pdc alive.
 */
static void pdc_unlock(struct uet_pds_pdc *pdc)
	__releases(&pdc->lock)
{
	struct sk_buff_head q;

	lockdep_assert_held(&pdc->lock);
	while (!pdc->xmitting && !skb_queue_empty(&pdc->out)) {
		__skb_queue_head_init(&q);
		skb_queue_splice_init(&pdc->out, &q);
		pdc->xmitting = true;
		spin_unlock(&pdc->lock);
		uet_xmit_queue(pdc->udev, &q, &pdc->key.raddr, pdc->entropy,
			       &pdc->dst_cache);
		spin_lock(&pdc->lock);
		pdc->xmitting = false;
	}
	spin_unlock(&pdc->lock);
}

/* pdc_unlock() for a lock taken with spin_lock_bh(). */
static void pdc_unlock_bh(struct uet_pds_pdc *pdc)
	__releases(&pdc->lock)
{
	pdc_unlock(pdc);
	local_bh_enable();
}

/*
 * The tables' keys come from the network (a target's) or follow its
 * addresses (an initiator's): both hashes take the device's random seed,
 * so that nobody can aim many keys at one bucket.
 */
static u32 key_hash(const struct uet_pds *pds, const struct uet_pds_key *key)
{
	return jhash(key, sizeof(*key), pds->seed);
}

static u32 tgt_hash(const struct uet_pds *pds, const struct in6_addr *raddr,
		    u16 rpdcid)
{
	return jhash_1word(rpdcid, jhash(raddr, sizeof(*raddr), pds->seed));
}

static u32 src_hash(const struct uet_pds *pds, const struct in6_addr *addr)
{
	return jhash(addr, sizeof(*addr), pds->seed);
}

/*
 * The entry of source @addr, made if there is none; %NULL when it has
 * all the target PDCs it may (counted), or memory is short.
 */
static struct uet_pds_src *src_get(struct uet_dev *udev,
				   const struct in6_addr *addr)
{
	struct uet_pds *pds = &udev->pds;
	u32 hash = src_hash(pds, addr);
	struct uet_pds_src *src;

	lockdep_assert_held(&pds->lock);
	hash_for_each_possible(pds->srcs, src, node, hash)
		if (ipv6_addr_equal(&src->addr, addr))
			goto found;
	src = kzalloc(sizeof(*src), GFP_ATOMIC);
	if (!src)
		return NULL;
	src->addr = *addr;
	hash_add(pds->srcs, &src->node, hash);
found:
	if (src->pdcs >= UET_PDS_TGT_PER_SRC) {
		uet_count(udev, UET_CNT_PDC_SOURCE_LIMIT, 1);
		return NULL;
	}
	return src;
}

/* A target PDC of @src's is gone: the entry goes with its last. */
static void src_put(struct uet_pds *pds, struct uet_pds_src *src)
{
	lockdep_assert_held(&pds->lock);
	if (!src || --src->pdcs)
		return;
	hash_del(&src->node);
	kfree(src);
}

static u8 req_type(const struct uet_pds_pdc *pdc)
{
	return pdc->key.mode == UET_PDC_ROD ? UET_PDS_TYPE_ROD_REQ :
					      UET_PDS_TYPE_RUD_REQ;
}

/* A packet of nothing but the PDS header @h, @len bytes; %NULL if none. */
static struct sk_buff *pds_hdr_skb(const struct uet_pds_hdr_info *h,
				   unsigned int len)
{
	struct sk_buff *skb;

	skb = alloc_skb(UET_PDS_HEADROOM + len, GFP_ATOMIC);
	if (!skb)
		return NULL;
	skb_reserve(skb, UET_PDS_HEADROOM);
	if (WARN_ON_ONCE(uet_pds_build(skb_put(skb, len), len, h) < 0)) {
		kfree_skb(skb);
		return NULL;
	}
	return skb;
}

/**
 * pds_answer() - answer a packet that no PDC of ours takes
 * @udev: the device it arrived on
 * @h: the answer, a PDS header alone
 * @len: its length
 * @daddr: the packet's source address, which nothing vouches for
 *
 * Each answer takes a fresh entropy value, and the device sends at most
 * %UET_PDS_ANSWER_BURST of them a second.
 *
 * Return: true if the answer went out.
 */
static bool pds_answer(struct uet_dev *udev, const struct uet_pds_hdr_info *h,
		       unsigned int len, const struct in6_addr *daddr)
{
	struct sk_buff *skb;

	if (!__ratelimit(&udev->pds.answers))
		return false;
	skb = pds_hdr_skb(h, len);
	if (!skb)
		return false;
	uet_xmit(udev, skb, daddr, get_random_u16(), NULL);
	return true;
}

/*
 * The PDC is done with the request of @psn: the SES layer learns its
 * fate, or the read goes again (uet_sched_finish()).
 */
static void pdc_tx_finish(struct uet_pds_pdc *pdc, u32 psn, int err)
{
	struct uet_pds_tx done;

	switch (uet_sched_finish(&pdc->sched, psn, &err, &done, GFP_ATOMIC)) {
	case UET_SCHED_DONE:
		uet_ses_tx_done(done.msg, 1, err);
		break;
	case UET_SCHED_ORPHAN:
		kfree_skb(done.skb);
		break;
	case UET_SCHED_REISSUE:
		uet_count(pdc->udev, UET_CNT_READS_REISSUED, 1);
		break;
	case UET_SCHED_NONE:
		break;
	}
}

/*
 * The one gate of what may leave a PDC: the tracking window, and the
 * bound on what is in flight that congestion control will size.
 */
static bool pdc_may_send(struct uet_pds_pdc *pdc)
{
	return !uet_pdc_tx_window_full(&pdc->core) &&
	       uet_pdc_tx_in_flight(&pdc->core) < UET_PDS_INFLIGHT_MAX;
}

/* The request of @tx, SES header and payload; %NULL if it cannot be had. */
static struct sk_buff *pdc_req_skb(const struct uet_pds_tx *tx)
{
	struct sk_buff *skb;

	if (tx->flags & UET_PDS_TX_CLOSE) {
		skb = alloc_skb(UET_PDS_HEADROOM, GFP_ATOMIC);
		if (skb)
			skb_reserve(skb, UET_PDS_HEADROOM);
		return skb;
	}
	if (tx->flags & UET_PDS_TX_ORPHAN)
		return tx->skb ? skb_copy(tx->skb, GFP_ATOMIC) : NULL;
	return uet_ses_build_req(tx->msg, tx->off, tx->len);
}

/*
 * Build and send the request of @psn, with SYN and AR as they apply: a
 * new request, or a retransmission (@retx) built again the same way.
 */
static void pdc_xmit_req(struct uet_pds_pdc *pdc, u32 psn, bool retx)
{
	const struct uet_pds_tx *tx = uet_sched_tx(&pdc->sched, psn);
	struct uet_pds_hdr_info h = {
		.type = req_type(pdc),
		.next_hdr = UET_SES_NH_REQ_STD,
	};
	unsigned int hlen = sizeof(struct uet_pds_req);
	struct sk_buff *skb;
	int len;

	lockdep_assert_held(&pdc->lock);
	h.req.psn = psn;
	h.req.clear_psn_offset = (s16)(pdc->core.tx.una - psn);
	h.req.spdcid = pdc->lpdcid;
	/* SYN until the first valid ACK brings the target's PDCID */
	if (!pdc->rpdcid_known) {
		h.flags |= UET_PDS_F_SYN;
		h.req.dst.psn_offset = psn - pdc->start_psn;
	} else {
		h.req.dst.dpdcid = pdc->rpdcid;
	}
	if (retx)
		h.flags |= UET_PDS_F_RETX | UET_PDS_F_AR;
	else if (tx->flags & UET_PDS_TX_EOM || !pdc_may_send(pdc))
		h.flags |= UET_PDS_F_AR;

	if (tx->flags & UET_PDS_TX_CLOSE) {
		/* the CLOSE command: a control packet on its own PSN */
		h.type = UET_PDS_TYPE_CTRL;
		h.next_hdr = UET_PDS_CTL_CLOSE;
		h.flags &= ~UET_PDS_F_AR;
		h.ctl = (struct uet_pds_ctl_info) {
			.type = UET_PDS_CTL_CLOSE,
			.psn = psn,
			.spdcid = pdc->lpdcid,
			.dst.dpdcid = pdc->rpdcid,
		};
		hlen = sizeof(struct uet_pds_ctl);
	}

	skb = pdc_req_skb(tx);
	if (!skb)
		return;		/* as if lost: the RTO recovers */
	len = uet_pds_build(skb_push(skb, hlen), hlen, &h);
	if (WARN_ON_ONCE(len != hlen)) {
		kfree_skb(skb);
		return;
	}
	if (retx)
		uet_count(pdc->udev, UET_CNT_RETRANSMITS, 1);
	pdc_out(pdc, skb);
}

/* Fail every request still to be cut. */
static void pdc_fail_queued(struct uet_pds_pdc *pdc, int err)
{
	struct uet_pds_msg *m;
	u32 n;

	lockdep_assert_held(&pdc->lock);
	while (uet_sched_take(&pdc->sched, &m, &n))
		uet_ses_tx_done(m, n, err);
}

/*
 * (Re)start the sender's timer: a tail probe's or the RTO, as the core
 * says (uet_pdc_tx_timer()); pdc_rto_expired() asks again which.
 */
static void pdc_rto_arm(struct uet_pds_pdc *pdc)
{
	bool probe;

	if (!pdc->dead)
		hrtimer_start(&pdc->timer,
			      ns_to_ktime(uet_pdc_tx_timer(&pdc->core, &probe)),
			      HRTIMER_MODE_REL_SOFT);
}

/*
 * Retransmit what the core asks for, lowest PSN first, then cut and send
 * new requests while the window has room: at most @budget packets in all,
 * %UET_PDS_TX_BURST but after a timeout.  The ACKs of what is in flight
 * send the rest: a PDC's packets leave in the order the ACKs clock them
 * out, not from two CPUs at once.
 */
static void pdc_push(struct uet_pds_pdc *pdc, unsigned int budget)
{
	bool was_idle = !uet_pdc_tx_in_flight(&pdc->core);
	unsigned int sent = 0;
	u32 psn;

	lockdep_assert_held(&pdc->lock);
	if (uet_sched_queued(&pdc->sched))
		pdc->last_active = jiffies;
	while (sent < budget && uet_pdc_tx_next_rtx(&pdc->core, &psn)) {
		pdc_xmit_req(pdc, psn, true);
		sent++;
	}

	while (sent < budget && pdc_may_send(pdc) && uet_sched_queued(&pdc->sched)) {
		if (pdc->reclaim ||
		    uet_pdc_transition(&pdc->core, UET_PDC_EV_SEND) == UET_PDC_CLOSED ||
		    uet_pdc_tx_alloc(&pdc->core, ktime_get_ns(), &psn)) {
			pdc_fail_queued(pdc, -ECONNRESET);
			break;
		}
		uet_sched_cut(&pdc->sched, psn);
		pdc_xmit_req(pdc, psn, false);
		sent++;
	}
	if (was_idle && uet_pdc_tx_in_flight(&pdc->core))
		pdc_rto_arm(pdc);
}

/* The PDC closed in error: fail everything queued or in flight. */
static void pdc_fail_all(struct uet_pds_pdc *pdc, int err)
{
	u32 psn;

	lockdep_assert_held(&pdc->lock);
	pdc->reclaim = true;
	for (psn = 0; pdc->sched.txq && psn <= pdc->sched.mask; psn++)
		pdc_tx_finish(pdc, psn, err);
	pdc_fail_queued(pdc, err);
}

/*
 * The sender's timer: a tail probe (RUD, RUDI), the highest PSN missing
 * sent again to learn what the tail lost, or a timeout.  After a timeout
 * the first hole goes alone: the ACK it asks for clocks out the rest, as
 * TCP restarts from a window of one segment (RFC 5681 section 3.1).
 */
static enum hrtimer_restart pdc_rto_expired(struct hrtimer *t)
{
	struct uet_pds_pdc *pdc = container_of(t, struct uet_pds_pdc, timer);
	u32 psn;

	spin_lock(&pdc->lock);
	if (pdc->dead || !uet_pdc_tx_in_flight(&pdc->core))
		goto out;
	if (uet_pdc_tx_probe(&pdc->core, &psn)) {
		uet_count(pdc->udev, UET_CNT_TAIL_PROBES, 1);
		pdc_xmit_req(pdc, psn, true);
		pdc_push(pdc, UET_PDS_TX_BURST);
		pdc_rto_arm(pdc);
		goto out;
	}
	uet_count(pdc->udev, UET_CNT_TIMEOUTS, 1);
	uet_pdc_tx_timeout(&pdc->core);
	if (uet_pdc_transition(&pdc->core, UET_PDC_EV_TIMEOUT) == UET_PDC_CLOSED) {
		pdc_fail_all(pdc, -ETIMEDOUT);
		goto out;
	}
	pdc_push(pdc, 1);
	pdc_rto_arm(pdc);
out:
	pdc_unlock(pdc);
	return HRTIMER_NORESTART;
}

/*
 * Target: send an ACK_CC (with SACK) and the SES response it carries: the
 * default response, or @data, a read's response with data, which answers
 * the request of @psn and goes back in this ACK.
 */
static void pdc_send_ack(struct uet_pds_pdc *pdc, struct sk_buff *data, u32 psn)
{
	struct uet_ses_hdr_info rsp = { .next_hdr = UET_SES_NH_RSP };
	struct uet_pds_hdr_info h = {
		.type = UET_PDS_TYPE_ACK_CC,
		.next_hdr = data ? UET_SES_NH_RSP_DATA : UET_SES_NH_RSP,
	};
	struct uet_pdc_ack ack;
	struct sk_buff *skb = data;
	int plen, slen = 0;

	lockdep_assert_held(&pdc->lock);
	uet_pdc_rx_build_ack(&pdc->core, &ack);
	if (data)
		ack.ack_psn = psn;
	h.ack.cack_psn = ack.cack_psn;
	h.ack.ack_psn_offset = (s16)(ack.ack_psn - ack.cack_psn);
	h.ack.spdcid = pdc->lpdcid;
	h.ack.dpdcid = pdc->rpdcid;
	h.ack.cc_type = UET_PDS_CC_NSCC;
	h.ack.sack_psn_offset = ack.sack_base - ack.cack_psn;
	h.ack.sack_bitmap = ack.sack_bitmap;

	if (!skb) {
		rsp.rsp.opcode = UET_SES_RSP_DEFAULT;
		rsp.rsp.rc = pdc->rsp_rc;
		rsp.rsp.message_id = pdc->rsp_msg_id;
		rsp.rsp.job_id = pdc->key.job;
		pdc->rsp_rc = UET_SES_RC_OK;
		skb = alloc_skb(UET_PDS_HEADROOM + UET_PDS_MAX_HDR_LEN +
				sizeof(struct uet_ses_rsp), GFP_ATOMIC);
		if (!skb)
			return;		/* the sender's RTO recovers */
		skb_reserve(skb, UET_PDS_HEADROOM + UET_PDS_MAX_HDR_LEN);
		slen = uet_ses_build(skb_put(skb, sizeof(struct uet_ses_rsp)),
				     sizeof(struct uet_ses_rsp), &rsp);
	}
	plen = uet_pds_build(skb_push(skb, sizeof(struct uet_pds_ack_cc)),
			     sizeof(struct uet_pds_ack_cc), &h);
	if (WARN_ON_ONCE(slen < 0 || plen < 0)) {
		kfree_skb(skb);
		return;
	}
	hrtimer_try_to_cancel(&pdc->timer);
	pdc_out(pdc, skb);
}

static ktime_t pdc_ack_delay(const struct uet_pds_pdc *pdc)
{
	return ns_to_ktime((u64)READ_ONCE(pdc->udev->cfg.ack_delay_us) *
			   NSEC_PER_USEC);
}

static enum hrtimer_restart pdc_ack_expired(struct hrtimer *t)
{
	struct uet_pds_pdc *pdc = container_of(t, struct uet_pds_pdc, timer);

	spin_lock(&pdc->lock);
	if (!pdc->dead && uet_pdc_rx_ack_pending(&pdc->core))
		pdc_send_ack(pdc, NULL, 0);
	pdc_unlock(pdc);
	return HRTIMER_NORESTART;
}

/*
 * Initiator: move a wanted close along.  Once nothing is queued or in
 * flight, the CLOSE command goes out on the PDC's next PSN; once it is
 * acknowledged, the PDC is done and the scanner reclaims it.
 */
static void pdc_close_progress(struct uet_pds_pdc *pdc)
{
	u32 psn;

	lockdep_assert_held(&pdc->lock);
	if (!pdc->close_wanted || pdc->dead || pdc->reclaim)
		return;
	if (pdc->core.state == UET_PDC_CLOSING) {
		if (!uet_pdc_tx_in_flight(&pdc->core) &&
		    uet_pdc_transition(&pdc->core, UET_PDC_EV_CLOSE_ACK) ==
		    UET_PDC_CLOSED)
			pdc->reclaim = true;
		return;
	}
	if (uet_sched_queued(&pdc->sched) || uet_pdc_tx_in_flight(&pdc->core) ||
	    uet_pdc_transition(&pdc->core, UET_PDC_EV_CLOSE) != UET_PDC_CLOSING)
		return;
	if (uet_pdc_tx_alloc(&pdc->core, ktime_get_ns(), &psn)) {
		/* no clean close: the target reclaims its side when idle */
		pdc->reclaim = true;
		return;
	}
	uet_sched_close(&pdc->sched, psn);
	pdc_xmit_req(pdc, psn, false);
	pdc_rto_arm(pdc);
}

/*
 * Take @pdc out of its table: an initiator's next send opens a new PDC, a
 * target's next SYN from that peer PDC too.
 */
static void pdc_unhash(struct uet_pds_pdc *pdc)
{
	spin_lock_bh(&pdc->udev->pds.lock);
	hash_del_rcu(&pdc->node);
	spin_unlock_bh(&pdc->udev->pds.lock);
}

/* Initiator: close @pdc once it is drained. */
static void pdc_start_close(struct uet_pds_pdc *pdc)
{
	pdc_unhash(pdc);
	spin_lock_bh(&pdc->lock);
	pdc->close_wanted = true;
	pdc_close_progress(pdc);
	pdc_unlock_bh(pdc);
}

/* A control packet of @pdc's, outside its PSN sequence (REQ_CLOSE). */
static void pdc_send_ctl(struct uet_pds_pdc *pdc, u8 type)
{
	struct uet_pds_hdr_info h = {
		.type = UET_PDS_TYPE_CTRL,
		.next_hdr = type,
		.ctl = {
			.type = type,
			.spdcid = pdc->lpdcid,
			.dst.dpdcid = pdc->rpdcid,
		},
	};
	struct sk_buff *skb;

	skb = pds_hdr_skb(&h, sizeof(struct uet_pds_ctl));
	if (!skb)
		return;
	pdc_out(pdc, skb);
}

/*
 * A new PDC for @key, in the table of local PDCIDs; a target's peer PDC
 * is @rpdcid.  Receivers find a PDC there by the ID a packet names, under
 * RCU and without its lock: it goes in only once whole.
 */
static struct uet_pds_pdc *pdc_alloc(struct uet_dev *udev,
				     const struct uet_pds_key *key,
				     bool initiator, u32 start_psn, u16 rpdcid)
{
	struct uet_pds_pdc *pdc;
	struct uet_pdc_cfg cfg;
	bool reserved;
	void *old;
	u32 id;

	lockdep_assert_held(&udev->pds.lock);
	if (udev->pds.general < READ_ONCE(udev->cfg.pdc_pool)) {
		reserved = false;
	} else if (initiator &&
		   udev->pds.reserved < READ_ONCE(udev->cfg.pdc_reserved)) {
		reserved = true;
	} else {
		uet_count(udev, UET_CNT_PDC_POOL_EXHAUSTED, 1);
		return NULL;
	}
	pdc = kzalloc(sizeof(*pdc), GFP_ATOMIC);
	if (!pdc)
		return NULL;
	/* the ID is reserved now, and the PDC stored at it below */
	if (xa_alloc(&udev->pds.pdcs, &id, NULL,
		     XA_LIMIT(1, UET_PDS_PDCID_MAX), GFP_ATOMIC)) {
		uet_count(udev, UET_CNT_PDC_POOL_EXHAUSTED, 1);
		kfree(pdc);
		return NULL;
	}
	pdc->reserved = reserved;
	pdc->udev = udev;
	refcount_set(&pdc->ref, 1);
	pdc->key = *key;
	pdc->lpdcid = id;
	pdc->rpdcid = rpdcid;
	pdc->rpdcid_known = !initiator;
	pdc->entropy = get_random_u16();
	pdc->last_active = jiffies;
	spin_lock_init(&pdc->lock);
	__skb_queue_head_init(&pdc->out);
	pdc->start_psn = start_psn;
	uet_pdc_cfg_default(&cfg, key->mode);
	if (key->mode == UET_PDC_ROD)
		cfg.window = UET_PDS_ROD_WINDOW;
	cfg.rto_min = (u64)READ_ONCE(udev->cfg.rto_min_us) * NSEC_PER_USEC;
	cfg.rto_max = (u64)READ_ONCE(udev->cfg.rto_max_us) * NSEC_PER_USEC;
	cfg.rto_initial = (u64)READ_ONCE(udev->cfg.rto_initial_us) *
			  NSEC_PER_USEC;
	/* the peer holds ACKs back as long as this device would */
	cfg.ack_delay = (u64)READ_ONCE(udev->cfg.ack_delay_us) * NSEC_PER_USEC;
	/*
	 * The control plane writes the three one after the other: read
	 * meanwhile, an old one and a new one can be out of order.
	 */
	cfg.rto_max = max(cfg.rto_max, cfg.rto_min);
	cfg.rto_initial = clamp(cfg.rto_initial, cfg.rto_min, cfg.rto_max);
	if (uet_sched_init(&pdc->sched, initiator ? cfg.window : 0,
			   GFP_ATOMIC) ||
	    WARN_ON_ONCE(uet_pdc_init(&pdc->core, &cfg, initiator,
				      start_psn)))
		goto err_free;
	/* without a route cache each packet looks its route up */
	dst_cache_init(&pdc->dst_cache, GFP_ATOMIC);
	pdc->rsp_rc = UET_SES_RC_OK;
	hrtimer_init(&pdc->timer, CLOCK_MONOTONIC, HRTIMER_MODE_REL_SOFT);
	pdc->timer.function = initiator ? pdc_rto_expired : pdc_ack_expired;
	old = xa_store(&udev->pds.pdcs, id, pdc, GFP_ATOMIC);
	if (xa_is_err(old))
		goto err_free;
	if (reserved)
		udev->pds.reserved++;
	else
		udev->pds.general++;
	uet_count(udev, UET_CNT_PDCS_CREATED, 1);
	return pdc;

err_free:
	xa_erase(&udev->pds.pdcs, id);
	dst_cache_destroy(&pdc->dst_cache);
	uet_sched_fini(&pdc->sched);
	kfree(pdc);
	return NULL;
}

/* Find @key's initiator PDC, or make one; returns it referenced. */
static struct uet_pds_pdc *pdc_get_initiator(struct uet_dev *udev,
					     const struct uet_pds_key *key)
{
	struct uet_pds *pds = &udev->pds;
	u32 hash = key_hash(pds, key);
	struct uet_pds_pdc *pdc;

	spin_lock_bh(&pds->lock);
	hash_for_each_possible(pds->ini, pdc, node, hash)
		if (!memcmp(&pdc->key, key, sizeof(*key)))
			goto found;
	pdc = pdc_alloc(udev, key, true, get_random_u32(), 0);
	if (!pdc) {
		spin_unlock_bh(&pds->lock);
		return NULL;
	}
	hash_add_rcu(pds->ini, &pdc->node, hash);
found:
	pdc_get(pdc);
	spin_unlock_bh(&pds->lock);
	return pdc;
}

/*
 * UUD: no PDC, no PSN, no ACK.  The send is done once handed to the
 * network; each packet takes its own entropy, free to spray.
 */
static void pds_send_uud(struct uet_dev *udev, const struct uet_pds_key *key,
			 struct sk_buff *skb)
{
	struct uet_pds_hdr_info h = {
		.type = UET_PDS_TYPE_UUD_REQ,
		.next_hdr = UET_SES_NH_REQ_STD,
	};

	if (WARN_ON_ONCE(uet_pds_build(skb_push(skb, sizeof(struct uet_pds_uud)),
				       sizeof(struct uet_pds_uud), &h) < 0)) {
		kfree_skb(skb);
		return;
	}
	uet_xmit(udev, skb, &key->raddr, get_random_u16(), NULL);
}

/**
 * uet_pds_send() - send one request packet in %UET_PDC_UUD mode
 * @udev: the sending device
 * @key: the target
 * @skb: a standard SES request and its payload at skb->data,
 *	%UET_PDS_HEADROOM before it; consumed
 *
 * Nothing follows: UUD neither acknowledges nor resends.
 *
 * Return: 0 once handed to the network, or -EINVAL for another mode.
 */
int uet_pds_send(struct uet_dev *udev, const struct uet_pds_key *key,
		 struct sk_buff *skb)
{
	if (key->mode != UET_PDC_UUD) {
		kfree_skb(skb);
		return -EINVAL;
	}
	pds_send_uud(udev, key, skb);
	return 0;
}

/**
 * uet_pds_send_msg() - queue a message on the PDC for @key
 * @udev: the sending device
 * @key: selects the PDC (%UET_PDC_RUD or %UET_PDC_ROD), created
 *	(zero-RTT) if there is none; or %UET_PDC_RUDI, without a PDC
 *	(uet_rudi_send_msg())
 * @msg: the message, filled in; its @ncut 0
 *
 * The PDC cuts the message into requests as its window lets them leave,
 * and builds each from the message's memory (uet_ses_build_req()).  The
 * fate of every request reaches the SES layer through uet_ses_tx_done().
 * A PDC with nothing in flight sends the first %UET_PDS_TX_BURST
 * requests before this returns; the ACKs of what is in flight send the
 * rest.
 * Return: 0, or -ENOBUFS when no PDC can be had (pool exhausted): then
 * the PDS never saw the message.
 */
int uet_pds_send_msg(struct uet_dev *udev, const struct uet_pds_key *key,
		     struct uet_pds_msg *msg)
{
	struct uet_pds_pdc *pdc;

	if (key->mode == UET_PDC_RUDI) {
		uet_rudi_send_msg(udev, &key->raddr, msg);
		return 0;
	}
	pdc = pdc_get_initiator(udev, key);
	if (!pdc)
		return -ENOBUFS;
	spin_lock_bh(&pdc->lock);
	if (pdc->dead) {
		uet_ses_tx_done(msg, msg->seg.count, -ENETDOWN);
	} else {
		uet_sched_queue(&pdc->sched, msg);
		if (!uet_pdc_tx_in_flight(&pdc->core))
			pdc_push(pdc, UET_PDS_TX_BURST);
	}
	pdc_unlock_bh(pdc);
	pdc_put(pdc);
	return 0;
}

/**
 * pdc_get_by_id() - the PDC a received packet names, if it came from its peer
 * @udev: the device the packet arrived on
 * @lpdcid: the packet's DPDCID
 * @initiator: whether the packet is for an initiator (an ACK, a NACK, a
 *	REQ_CLOSE) or for a target (a request, a CLOSE)
 * @spdcid: the packet's SPDCID
 * @saddr: the packet's source address
 *
 * Only the peer may speak for a PDC: the packet must come from the PDC's
 * peer address and, for a target, from the peer's PDC that created it
 * with its SYN.  An initiator learns its peer's PDCID from the first
 * valid ACK: its callers check @spdcid under its lock, pdc_peer_is().
 * Anything else is a counted drop.
 *
 * Return: the PDC, referenced, or %NULL.
 */
static struct uet_pds_pdc *pdc_get_by_id(struct uet_dev *udev, u16 lpdcid,
					 bool initiator, u16 spdcid,
					 const struct in6_addr *saddr)
{
	enum uet_counter drop = UET_CNT_DROP_UNKNOWN_PDC;
	struct uet_pds_pdc *pdc;

	rcu_read_lock();
	/*
	 * Role, key and a target's rpdcid are set before the PDC goes in the
	 * table (pdc_alloc()) and never change.
	 */
	pdc = xa_load(&udev->pds.pdcs, lpdcid);
	if (pdc && pdc->core.initiator != initiator)
		pdc = NULL;
	if (pdc && (!ipv6_addr_equal(&pdc->key.raddr, saddr) ||
		    (!initiator && pdc->rpdcid != spdcid))) {
		drop = UET_CNT_DROP_PDC_NOT_PEER;
		pdc = NULL;
	}
	if (pdc && !refcount_inc_not_zero(&pdc->ref))
		pdc = NULL;
	rcu_read_unlock();
	if (!pdc)
		uet_count(udev, drop, 1);
	return pdc;
}

/*
 * Whether @spdcid may be @pdc's peer PDC: it is, or @pdc does not know
 * its peer's yet (an initiator before the first valid ACK).
 */
static bool pdc_peer_is(const struct uet_pds_pdc *pdc, u16 spdcid)
{
	lockdep_assert_held(&pdc->lock);
	return !pdc->rpdcid_known || pdc->rpdcid == spdcid;
}

/* Established, and nothing owed either way. */
static bool pdc_quiet(const struct uet_pds_pdc *pdc)
{
	return pdc->core.state == UET_PDC_ESTABLISHED &&
	       !uet_sched_queued(&pdc->sched) &&
	       !uet_pdc_tx_in_flight(&pdc->core) &&
	       !uet_pdc_rx_ack_pending(&pdc->core);
}

/*
 * Target side: the PDC of a SYN request, by its peer {@saddr, SPDCID},
 * created if there is none and @create; referenced, or %NULL.
 */
static struct uet_pds_pdc *pdc_get_syn_target(struct uet_dev *udev,
					      const struct uet_pds_hdr_info *h,
					      const struct in6_addr *saddr,
					      bool create)
{
	const struct uet_pds_req_info *req = &h->req;
	struct uet_pds *pds = &udev->pds;
	struct uet_pds_key key = { .raddr = *saddr };
	struct uet_pds_src *src;
	struct uet_pds_pdc *pdc;
	u32 hash;

	hash = tgt_hash(pds, saddr, req->spdcid);
	spin_lock(&pds->lock);
	hash_for_each_possible(pds->tgt, pdc, node, hash)
		if (pdc->rpdcid == req->spdcid &&
		    ipv6_addr_equal(&pdc->key.raddr, saddr))
			goto found;
	pdc = NULL;
	src = create ? src_get(udev, saddr) : NULL;
	if (src) {
		key.mode = h->type == UET_PDS_TYPE_ROD_REQ ? UET_PDC_ROD :
							     UET_PDC_RUD;
		/* counted ahead: src_put() undoes it if no PDC comes */
		src->pdcs++;
		pdc = pdc_alloc(udev, &key, false,
				req->psn - req->dst.psn_offset, req->spdcid);
		if (!pdc)
			src_put(pds, src);
	}
	if (!pdc)
		goto unlock;
	pdc->src = src;
	hash_add_rcu(pds->tgt, &pdc->node, hash);
found:
	pdc_get(pdc);
unlock:
	spin_unlock(&pds->lock);
	return pdc;
}

/*
 * Target: NACK the request of @psn.  ROD_OOO: it arrived ahead of the
 * expected PSN, and the sender goes back at once, but once per hole: a
 * go-back-N burst would otherwise bring a NACK per packet.  TRIMMED: its
 * payload was cut on the way; the sender resends that PSN at once.
 */
static void pdc_send_nack(struct uet_pds_pdc *pdc, u32 psn, u8 code)
{
	struct uet_pds_hdr_info h = {
		.type = UET_PDS_TYPE_NACK,
		.next_hdr = UET_SES_NH_NONE,
	};
	struct sk_buff *skb;

	lockdep_assert_held(&pdc->lock);
	if (code == UET_PDS_NACK_ROD_OOO) {
		if (pdc->nacked_valid && pdc->nacked_cack == pdc->core.rx.cack)
			return;
		pdc->nacked_valid = true;
		pdc->nacked_cack = pdc->core.rx.cack;
	}
	h.nack.code = code;
	h.nack.psn = psn;
	h.nack.spdcid = pdc->lpdcid;
	h.nack.dpdcid = pdc->rpdcid;
	h.nack.payload = pdc->core.rx.cack + 1;

	skb = pds_hdr_skb(&h, sizeof(struct uet_pds_nack));
	if (!skb)
		return;
	uet_count(pdc->udev, UET_CNT_NACKS_SENT, 1);
	pdc_out(pdc, skb);
}

static void pdc_count_verdict(struct uet_dev *udev, enum uet_pdc_rx_verdict v)
{
	switch (v) {
	case UET_PDC_RX_DELIVER_OOO:
		uet_count(udev, UET_CNT_OUT_OF_ORDER, 1);
		break;
	case UET_PDC_RX_REPLAY:
	case UET_PDC_RX_DUPLICATE:
		uet_count(udev, UET_CNT_DUPLICATES, 1);
		break;
	case UET_PDC_RX_REJECT_OOO:
	case UET_PDC_RX_OUT_OF_WINDOW:
		uet_count(udev, UET_CNT_DROP_OUT_OF_WINDOW, 1);
		break;
	default:
		break;
	}
}

/*
 * Target: NACK a request that no PDC of ours takes.  INV_DPDCID: it names
 * a PDC we do not have (never had, or lost), which its initiator should
 * give up.  TRIMMED: a SYN that lost its payload on the way, which made
 * no PDC, and is to be sent again at once.  The NACK speaks for the PDC
 * the request named, none for a SYN.
 */
static void nack_no_pdc(struct uet_dev *udev, const struct uet_pds_hdr_info *h,
			const struct in6_addr *saddr, u8 code)
{
	struct uet_pds_hdr_info n = {
		.type = UET_PDS_TYPE_NACK,
		.next_hdr = UET_SES_NH_NONE,
		.nack = {
			.code = code,
			.psn = h->req.psn,
			.spdcid = h->flags & UET_PDS_F_SYN ? 0 :
							      h->req.dst.dpdcid,
			.dpdcid = h->req.spdcid,
		},
	};

	if (pds_answer(udev, &n, sizeof(struct uet_pds_nack), saddr))
		uet_count(udev, UET_CNT_NACKS_SENT, 1);
}

/*
 * Target: a SYN request that got no PDC: trimmed, or none to be had (the
 * pool is exhausted), which its initiator hears of (NO_PDC_AVAIL) and
 * retries as PDCs free up.
 */
static void syn_no_pdc(struct uet_dev *udev, const struct uet_pds_hdr_info *h,
		       const struct in6_addr *saddr, bool trimmed, int hlen)
{
	if (trimmed) {
		uet_count(udev, UET_CNT_TRIMMED, 1);
		nack_no_pdc(udev, h, saddr, UET_PDS_NACK_TRIMMED);
	} else if (hlen >= 0) {
		/* (a malformed SES header was counted already) */
		uet_count(udev, UET_CNT_DROP_UNKNOWN_PDC, 1);
		nack_no_pdc(udev, h, saddr, UET_PDS_NACK_NO_PDC_AVAIL);
	}
}

/*
 * Target: the PDC of SYN request @h, as pdc_get_syn_target().  A PDC of
 * that peer whose start PSN is another is stale: its initiator lost it
 * without a CLOSE (it restarted) and gave its PDCID to a new PDC.  Owing
 * nothing, the stale PDC gives way at once (the scanner reclaims it) to a
 * new one; else the SYN is refused (INVALID_SYN, counted out of window)
 * and comes again with the initiator's next retransmission.
 *
 * Return: the PDC, referenced; %NULL if none could be had; or
 * ERR_PTR(-EAGAIN) if the SYN was refused.
 */
static struct uet_pds_pdc *syn_target(struct uet_dev *udev,
				      const struct uet_pds_hdr_info *h,
				      const struct in6_addr *saddr, bool create)
{
	u32 start = h->req.psn - h->req.dst.psn_offset;
	struct uet_pds_pdc *pdc;
	bool stale;

	pdc = pdc_get_syn_target(udev, h, saddr, create);
	/* a PDC's start PSN is set before it is hashed and never changes */
	if (!pdc || pdc->start_psn == start)
		return pdc;
	spin_lock(&pdc->lock);
	stale = pdc->dead || pdc_quiet(pdc);
	if (stale) {
		pdc->reclaim = true;
	} else {
		uet_count(udev, UET_CNT_DROP_OUT_OF_WINDOW, 1);
		pdc_send_nack(pdc, h->req.psn, UET_PDS_NACK_INVALID_SYN);
	}
	pdc_unlock(pdc);
	if (stale)
		pdc_unhash(pdc);
	pdc_put(pdc);
	if (!stale)
		return ERR_PTR(-EAGAIN);
	return pdc_get_syn_target(udev, h, saddr, create);
}

/*
 * Target: a request.  Without SYN it names its PDC; a SYN creates the PDC
 * unless there is one, and unless its payload was trimmed: a PDC made for
 * a packet that delivers nothing would stay CLOSED, which the scanner
 * never reclaims, and hold its place in the pool.
 */
static void rcv_request(struct uet_dev *udev, struct sk_buff *skb,
			const struct uet_pds_hdr_info *h,
			const struct in6_addr *saddr)
{
	bool syn = h->flags & UET_PDS_F_SYN, trimmed;
	struct uet_ses_hdr_info ses;
	struct uet_ses_rx rx = {
		.udev = udev,
		.mode = h->type == UET_PDS_TYPE_ROD_REQ ? UET_PDC_ROD :
							  UET_PDC_RUD,
		.peer = saddr,
		.skb = skb,
		.h = &ses,
	};
	struct uet_pds_pdc *pdc = NULL;
	struct uet_ses_answer ans = {};
	enum uet_pdc_rx_verdict v;
	u32 flags = 0;
	u8 rc;

	if (!syn) {
		pdc = pdc_get_by_id(udev, h->req.dst.dpdcid, false,
				    h->req.spdcid, saddr);
		if (!pdc) {
			nack_no_pdc(udev, h, saddr, UET_PDS_NACK_INV_DPDCID);
			return;
		}
	}
	/* a malformed SES header still takes its PSN: the SES layer refuses it */
	rx.hlen = uet_ses_parse_skb(udev, skb, h->next_hdr, &ses);
	trimmed = uet_ses_trimmed(skb, rx.hlen, &ses);
	if (syn) {
		pdc = syn_target(udev, h, saddr, !trimmed);
		if (IS_ERR_OR_NULL(pdc)) {
			if (!pdc)
				syn_no_pdc(udev, h, saddr, trimmed, rx.hlen);
			return;
		}
	}
	if (h->flags & UET_PDS_F_AR)
		flags |= UET_PDC_RX_AR;
	if (syn)
		flags |= UET_PDC_RX_SYN;

	spin_lock(&pdc->lock);
	if (pdc->dead)
		goto out;
	if (trimmed) {
		/* nothing to deliver: the sender resends it at once */
		uet_count(udev, UET_CNT_TRIMMED, 1);
		pdc_send_nack(pdc, h->req.psn, UET_PDS_NACK_TRIMMED);
		goto out;
	}
	uet_pdc_transition(&pdc->core, syn ? UET_PDC_EV_RECV_SYN :
					     UET_PDC_EV_RECV);
	v = uet_pdc_rx_packet(&pdc->core, h->req.psn, flags);
	pdc_count_verdict(udev, v);
	switch (v) {
	case UET_PDC_RX_DELIVER:
	case UET_PDC_RX_DELIVER_OOO:
	case UET_PDC_RX_REPLAY:
	case UET_PDC_RX_DUPLICATE:
		/* only what the window takes keeps a PDC alive */
		pdc->last_active = jiffies;
		rx.dup = v == UET_PDC_RX_DUPLICATE;
		rc = uet_ses_deliver(&rx, &ans);
		if (ans.data) {
			/* a read's data goes back at once, in this ACK */
			pdc_send_ack(pdc, ans.data, h->req.psn);
			goto out;
		}
		if (v != UET_PDC_RX_DUPLICATE)
			pdc->rsp_msg_id = ans.msg_id;
		if (rc != UET_SES_RC_OK) {
			/* a refusal goes back at once, in this ACK */
			pdc->rsp_rc = rc;
			uet_pdc_rx_ack_now(&pdc->core);
		}
		break;
	case UET_PDC_RX_REJECT_OOO:
		pdc_send_nack(pdc, h->req.psn, UET_PDS_NACK_ROD_OOO);
		goto out;
	default:
		goto out;	/* dropped: the sender retransmits */
	}
	if (uet_pdc_rx_ack_due(&pdc->core))
		pdc_send_ack(pdc, NULL, 0);
	else if (uet_pdc_rx_ack_pending(&pdc->core) &&
		 !hrtimer_active(&pdc->timer))
		hrtimer_start(&pdc->timer, pdc_ack_delay(pdc),
			      HRTIMER_MODE_REL_SOFT);
out:
	pdc_unlock(pdc);
	pdc_put(pdc);
}

/* Initiator side: the scheduler is done with what an ACK acknowledged. */
static void pdc_tx_acked(struct uet_pds_pdc *pdc, const struct uet_pdc_acked *a)
{
	u32 psn;
	int i;

	for (psn = a->cum_from; psn != a->cum_to; psn++)
		pdc_tx_finish(pdc, psn, 0);
	for (i = 0; i < UET_PDC_SACK_BITS; i++)
		if (a->sack_new & BIT_ULL(i))
			pdc_tx_finish(pdc, a->sack_base + i, 0);
}

/* A UUD request: delivered as it is, or a counted drop; nothing answers. */
static void rcv_uud(struct uet_dev *udev, struct sk_buff *skb,
		    const struct uet_pds_hdr_info *h,
		    const struct in6_addr *saddr)
{
	struct uet_ses_answer ans = {};

	uet_ses_deliver_datagram(udev, UET_PDC_UUD, saddr, skb, h->next_hdr,
				 &ans);
}

/*
 * Initiator: what an ACK's SES response says of the request it answers,
 * the one of @ack_psn, if still in flight (@acked: the window before the
 * ACK): a refusal, or a read's data, reaches it before the ACK lets it go.
 */
static void pdc_ack_answer(struct uet_pds_pdc *pdc, struct sk_buff *skb,
			   unsigned int off, const struct uet_ses_hdr_info *ses,
			   u32 ack_psn, const struct uet_pdc_acked *acked)
{
	struct uet_pds_tx *tx;
	struct uet_pds_msg *msg;

	lockdep_assert_held(&pdc->lock);
	if (!uet_psn_in_window(ack_psn, acked->cum_from,
			       pdc->core.tx.nxt - acked->cum_from))
		return;
	tx = uet_sched_tx(&pdc->sched, ack_psn);
	if (!(tx->flags & UET_PDS_TX_USED) || tx->flags & UET_PDS_TX_CLOSE)
		return;
	msg = tx->flags & UET_PDS_TX_ORPHAN ? NULL : tx->msg;
	if (ses->rsp.rc != UET_SES_RC_OK) {
		tx->flags |= UET_PDS_TX_ANSWERED;
		uet_ses_tx_refused(msg, ses->rsp.rc);
	} else if (ses->next_hdr == UET_SES_NH_RSP_DATA &&
		   tx->flags & UET_PDS_TX_READ &&
		   !(tx->flags & UET_PDS_TX_ANSWERED)) {
		if (uet_ses_read_data(msg, tx->off, tx->len, skb, off,
				      ses->rsp.payload_length,
				      ses->rsp.message_offset))
			tx->flags |= UET_PDS_TX_ANSWERED;
		else
			uet_count(pdc->udev, UET_CNT_DROP_MALFORMED, 1);
	}
}

/*
 * Initiator: an ACK from @saddr.  It counts only from the PDC's peer and
 * only if it names PSNs sent; the peer's PDCID is learned from the first
 * that acknowledges something.
 */
static void rcv_ack(struct uet_dev *udev, struct sk_buff *skb,
		    const struct uet_pds_hdr_info *h, unsigned int hlen,
		    const struct in6_addr *saddr)
{
	const struct uet_pds_ack_info *ai = &h->ack;
	struct uet_ses_hdr_info ses = {};
	struct uet_pdc_acked acked;
	struct uet_pdc_ack ack = {};
	struct uet_pds_pdc *pdc;
	u8 buf[sizeof(struct uet_ses_rsp_data)];
	unsigned int slen = 0;
	const u8 *p;

	pdc = pdc_get_by_id(udev, ai->dpdcid, true, ai->spdcid, saddr);
	if (!pdc)
		return;

	if (h->next_hdr == UET_SES_NH_RSP)
		slen = sizeof(struct uet_ses_rsp);
	else if (h->next_hdr == UET_SES_NH_RSP_DATA)
		slen = sizeof(struct uet_ses_rsp_data);
	p = slen ? skb_header_pointer(skb, hlen, slen, buf) : NULL;
	if (slen && (!p || uet_ses_parse(p, slen, h->next_hdr, &ses) < 0)) {
		uet_count(udev, UET_CNT_DROP_MALFORMED, 1);
		goto put;
	}

	ack.cack_psn = ai->cack_psn;
	ack.ack_psn = ai->cack_psn + ai->ack_psn_offset;
	if (h->type == UET_PDS_TYPE_ACK_CC) {
		ack.sack_base = ai->cack_psn + ai->sack_psn_offset;
		ack.sack_bitmap = ai->sack_bitmap;
	} else {
		ack.sack_base = ai->cack_psn + 1;
	}

	spin_lock(&pdc->lock);
	if (pdc->dead)
		goto unlock;
	if (!pdc_peer_is(pdc, ai->spdcid)) {
		uet_count(udev, UET_CNT_DROP_PDC_NOT_PEER, 1);
		goto unlock;
	}
	if (uet_pdc_tx_ack(&pdc->core, &ack, ktime_get_ns(), &acked)) {
		/* names unsent PSNs: the core counted it for the PDC */
		uet_count(udev, UET_CNT_DROP_OUT_OF_WINDOW, 1);
		goto unlock;
	}
	if (!pdc->rpdcid_known) {
		if (!acked.newly)
			goto unlock;	/* proves nothing: learn nothing */
		pdc->rpdcid = ai->spdcid;
		pdc->rpdcid_known = true;
	}
	if (slen)
		pdc_ack_answer(pdc, skb, hlen + slen, &ses, ack.ack_psn, &acked);
	pdc_tx_acked(pdc, &acked);
	uet_pdc_transition(&pdc->core, UET_PDC_EV_ACK);
	pdc_push(pdc, UET_PDS_TX_BURST);
	pdc_close_progress(pdc);
	if (!uet_pdc_tx_in_flight(&pdc->core))
		hrtimer_try_to_cancel(&pdc->timer);
	else if (acked.newly)
		pdc_rto_arm(pdc);
	pdc->last_active = jiffies;
unlock:
	pdc_unlock(pdc);
put:
	pdc_put(pdc);
}

/*
 * Initiator: the target has no PDC of ours (any more): the requests in
 * flight may have been delivered or not, and nothing more will be.  The
 * PDC closes in error, failing what it holds; the caller takes it out of
 * the initiator table so that the next send opens a new one.  Only a NACK
 * of a PSN in flight, from a target whose PDC we know, says so.
 *
 * Return: true if the PDC closed.
 */
static bool pdc_lost(struct uet_pds_pdc *pdc, u32 psn)
{
	lockdep_assert_held(&pdc->lock);
	if (!pdc->rpdcid_known ||
	    !uet_psn_in_window(psn, pdc->core.tx.una,
			       uet_pdc_tx_in_flight(&pdc->core)))
		return false;
	uet_pdc_transition(&pdc->core, UET_PDC_EV_ABORT);
	hrtimer_try_to_cancel(&pdc->timer);
	pdc_fail_all(pdc, -ECONNRESET);
	return true;
}

/*
 * Initiator: the target refused a request and asks for it again
 * (ROD_OOO, TRIMMED), or has no PDC of ours (INV_DPDCID).
 */
static void rcv_nack(struct uet_dev *udev, const struct uet_pds_hdr_info *h,
		     const struct in6_addr *saddr)
{
	const struct uet_pds_nack_info *n = &h->nack;
	struct uet_pds_pdc *pdc;
	bool lost = false;

	pdc = pdc_get_by_id(udev, n->dpdcid, true, n->spdcid, saddr);
	if (!pdc)
		return;
	spin_lock(&pdc->lock);
	if (pdc->dead)
		goto unlock;
	if (!pdc_peer_is(pdc, n->spdcid)) {
		uet_count(udev, UET_CNT_DROP_PDC_NOT_PEER, 1);
		goto unlock;
	}
	uet_count(udev, UET_CNT_NACKS_RECEIVED, 1);
	if (n->code == UET_PDS_NACK_INV_DPDCID) {
		lost = pdc_lost(pdc, n->psn);
	} else if ((n->code == UET_PDS_NACK_ROD_OOO ||
		    n->code == UET_PDS_NACK_TRIMMED) &&
		   !uet_pdc_tx_nack(&pdc->core, n->psn)) {
		uet_pdc_transition(&pdc->core, UET_PDC_EV_NACK);
		pdc_push(pdc, UET_PDS_TX_BURST);
	}
unlock:
	pdc_unlock(pdc);
	if (lost)
		pdc_unhash(pdc);
	pdc_put(pdc);
}

/*
 * Target: a CLOSE for a PDC we no longer have (ours closed, and the ACK of
 * the CLOSE was lost): acknowledge it anyway, so the initiator can finish.
 */
static void ack_unknown_close(struct uet_dev *udev, const struct uet_pds_hdr_info *h,
			      const struct in6_addr *saddr)
{
	struct uet_pds_hdr_info a = {
		.type = UET_PDS_TYPE_ACK,
		.next_hdr = UET_SES_NH_NONE,
		.ack = {
			.cack_psn = h->ctl.psn,
			.spdcid = h->ctl.dst.dpdcid,
			.dpdcid = h->ctl.spdcid,
		},
	};

	pds_answer(udev, &a, sizeof(struct uet_pds_ack), saddr);
}

/*
 * Control packets: CLOSE (target: the initiator is done with the PDC) and
 * REQ_CLOSE (initiator: the target asks it to close).
 */
static void rcv_ctl(struct uet_dev *udev, const struct uet_pds_hdr_info *h,
		    const struct in6_addr *saddr)
{
	const struct uet_pds_ctl_info *ctl = &h->ctl;
	enum uet_pdc_rx_verdict v;
	struct uet_pds_pdc *pdc;
	bool peer;

	if (h->flags & UET_PDS_F_SYN ||
	    (ctl->type != UET_PDS_CTL_CLOSE && ctl->type != UET_PDS_CTL_REQ_CLOSE)) {
		uet_count(udev, UET_CNT_DROP_UNSUPPORTED, 1);
		return;
	}
	pdc = pdc_get_by_id(udev, ctl->dst.dpdcid,
			    ctl->type == UET_PDS_CTL_REQ_CLOSE, ctl->spdcid, saddr);
	if (!pdc) {
		if (ctl->type == UET_PDS_CTL_CLOSE)
			ack_unknown_close(udev, h, saddr);
		return;
	}
	if (ctl->type == UET_PDS_CTL_REQ_CLOSE) {
		spin_lock(&pdc->lock);
		peer = pdc_peer_is(pdc, ctl->spdcid);
		pdc_unlock(pdc);
		if (peer)
			pdc_start_close(pdc);
		else
			uet_count(udev, UET_CNT_DROP_PDC_NOT_PEER, 1);
		pdc_put(pdc);
		return;
	}

	spin_lock(&pdc->lock);
	if (pdc->dead)
		goto out;
	v = uet_pdc_rx_packet(&pdc->core, ctl->psn, UET_PDC_RX_AR);
	pdc_count_verdict(udev, v);
	if (v == UET_PDC_RX_DELIVER || v == UET_PDC_RX_DELIVER_OOO ||
	    v == UET_PDC_RX_DUPLICATE) {
		if (uet_pdc_transition(&pdc->core, UET_PDC_EV_CLOSE_CMD) ==
		    UET_PDC_CLOSED)
			pdc->reclaim = true;
		pdc_send_ack(pdc, NULL, 0);
	}
out:
	pdc_unlock(pdc);
	pdc_put(pdc);
}

/**
 * uet_pds_rcv() - one received UET packet, in softirq
 * @udev: the device it arrived on
 * @skb: the packet from its PDS header on; the caller frees it
 * @saddr: its source address, IPv4 as IPv4-mapped IPv6
 */
void uet_pds_rcv(struct uet_dev *udev, struct sk_buff *skb,
		 const struct in6_addr *saddr)
{
	u8 buf[UET_PDS_MAX_HDR_LEN];
	struct uet_pds_hdr_info h;
	unsigned int len = min_t(unsigned int, skb->len, sizeof(buf));
	const u8 *p;
	int hlen;

	p = skb_header_pointer(skb, 0, len, buf);
	hlen = p ? uet_pds_parse(p, len, &h) : -EMSGSIZE;
	/* the header into the linear part: a NIC may hand over paged skbs */
	if (hlen < 0 || !pskb_may_pull(skb, hlen)) {
		uet_count(udev, UET_CNT_DROP_MALFORMED, 1);
		return;
	}

	switch (h.type) {
	case UET_PDS_TYPE_RUD_REQ:
	case UET_PDS_TYPE_ROD_REQ:
		skb_pull(skb, hlen);
		rcv_request(udev, skb, &h, saddr);
		break;
	case UET_PDS_TYPE_ACK:
	case UET_PDS_TYPE_ACK_CC:
		rcv_ack(udev, skb, &h, hlen, saddr);
		break;
	case UET_PDS_TYPE_NACK:
		rcv_nack(udev, &h, saddr);
		break;
	case UET_PDS_TYPE_CTRL:
		rcv_ctl(udev, &h, saddr);
		break;
	case UET_PDS_TYPE_UUD_REQ:
		skb_pull(skb, hlen);
		rcv_uud(udev, skb, &h, saddr);
		break;
	case UET_PDS_TYPE_RUDI_REQ:
	case UET_PDS_TYPE_RUDI_RESP:
		skb_pull(skb, hlen);
		uet_rudi_rcv(udev, skb, &h, saddr);
		break;
	default:
		/* Delivery modes and control packets still to come. */
		uet_count(udev, UET_CNT_DROP_UNSUPPORTED, 1);
		break;
	}
}

static void pdc_teardown(struct uet_pds_pdc *pdc, int err)
{
	spin_lock_bh(&pdc->lock);
	pdc->dead = true;
	pdc_unlock_bh(pdc);
	hrtimer_cancel(&pdc->timer);
	spin_lock_bh(&pdc->lock);
	pdc_fail_all(pdc, err);
	pdc_unlock_bh(pdc);
	uet_count(pdc->udev, UET_CNT_PDCS_CLOSED, 1);
	pdc_put(pdc);
}

/* Give @pdc back to its pool.  Context: the scanner. */
static void pdc_reclaim(struct uet_pds *pds, struct uet_pds_pdc *pdc)
{
	spin_lock_bh(&pds->lock);
	hash_del_rcu(&pdc->node);
	src_put(pds, pdc->src);
	if (pdc->reserved)
		pds->reserved--;
	else
		pds->general--;
	spin_unlock_bh(&pds->lock);
	xa_erase_bh(&pds->pdcs, pdc->lpdcid);
	pdc_teardown(pdc, -ECONNRESET);
}

/* No traffic for @idle jiffies, and nothing owed either way. */
static bool pdc_idle(const struct uet_pds_pdc *pdc, unsigned long idle)
{
	return pdc_quiet(pdc) && time_after(jiffies, pdc->last_active + idle);
}

/*
 * The scanner: closes idle initiator PDCs, reclaims closed ones and target
 * PDCs whose initiator went away.  Only it and uet_pds_fini(), which stops
 * it first, free PDCs, so a PDC found in the table stays valid here.
 */
static void pds_scan(struct work_struct *work)
{
	struct uet_pds *pds = container_of(to_delayed_work(work),
					   struct uet_pds, scan);
	struct uet_dev *udev = container_of(pds, struct uet_dev, pds);
	unsigned long idle = msecs_to_jiffies(READ_ONCE(udev->cfg.pdc_idle_ms));
	struct uet_pds_pdc *pdc;
	unsigned long id;

	xa_for_each(&pds->pdcs, id, pdc) {
		bool close = false, reclaim;

		spin_lock_bh(&pdc->lock);
		if (idle && !pdc->dead && !pdc->close_wanted) {
			if (pdc->core.initiator)
				close = pdc_idle(pdc, idle);
			else if (pdc_idle(pdc, idle * UET_PDS_TGT_IDLE_FACTOR))
				pdc->reclaim = true;
		}
		reclaim = pdc->reclaim && !pdc->dead;
		pdc_unlock_bh(pdc);
		if (reclaim)
			pdc_reclaim(pds, pdc);
		else if (close)
			pdc_start_close(pdc);
	}
	schedule_delayed_work(&pds->scan, msecs_to_jiffies(UET_PDS_SCAN_MS));
}

/**
 * uet_pds_close() - close a PDC
 * @udev: its device
 * @lpdcid: its local PDC identifier
 *
 * An initiator PDC leaves the initiator table at once (new sends open
 * another) and sends CLOSE once what it holds is delivered; a target PDC
 * asks its initiator to close it (REQ_CLOSE).
 *
 * Return: 0, or -ENOENT when there is no such PDC.
 */
int uet_pds_close(struct uet_dev *udev, u16 lpdcid)
{
	struct uet_pds_pdc *pdc;

	rcu_read_lock();
	pdc = xa_load(&udev->pds.pdcs, lpdcid);
	if (pdc && !refcount_inc_not_zero(&pdc->ref))
		pdc = NULL;
	rcu_read_unlock();
	if (!pdc)
		return -ENOENT;
	if (pdc->core.initiator) {
		pdc_start_close(pdc);
	} else {
		spin_lock_bh(&pdc->lock);
		if (!pdc->dead)
			pdc_send_ctl(pdc, UET_PDS_CTL_REQ_CLOSE);
		pdc_unlock_bh(pdc);
	}
	pdc_put(pdc);
	return 0;
}

void uet_pds_init(struct uet_dev *udev)
{
	BUILD_BUG_ON(UET_PDC_WND_MAX - 1 > UET_PDS_SYN_PSN_OFFSET_MAX);
	spin_lock_init(&udev->pds.lock);
	udev->pds.seed = get_random_u32();
	ratelimit_state_init(&udev->pds.answers, UET_PDS_ANSWER_INTERVAL,
			     UET_PDS_ANSWER_BURST);
	/* no "callbacks suppressed" in the kernel log */
	ratelimit_set_flags(&udev->pds.answers, RATELIMIT_MSG_ON_RELEASE);
	hash_init(udev->pds.ini);
	hash_init(udev->pds.tgt);
	hash_init(udev->pds.srcs);
	xa_init_flags(&udev->pds.pdcs, XA_FLAGS_ALLOC1 | XA_FLAGS_LOCK_BH);
	INIT_DELAYED_WORK(&udev->pds.scan, pds_scan);
	schedule_delayed_work(&udev->pds.scan, msecs_to_jiffies(UET_PDS_SCAN_MS));
}

/**
 * uet_pds_fini() - tear down every PDC of @udev
 * @udev: a device that receives no more packets (uet_socket_detach())
 *
 * Outstanding requests complete with -ENETDOWN.
 */
void uet_pds_fini(struct uet_dev *udev)
{
	struct uet_pds *pds = &udev->pds;
	struct uet_pds_pdc *pdc;
	unsigned long id;

	cancel_delayed_work_sync(&pds->scan);
	xa_for_each(&pds->pdcs, id, pdc) {
		spin_lock_bh(&pds->lock);
		hash_del_rcu(&pdc->node);
		src_put(pds, pdc->src);
		spin_unlock_bh(&pds->lock);
		xa_erase_bh(&pds->pdcs, id);
		pdc_teardown(pdc, -ENETDOWN);
	}
	xa_destroy(&pds->pdcs);
	synchronize_rcu();
}

/**
 * uet_pds_show() - one line per PDC, for debugfs
 * @m: the seq_file
 * @udev: the device
 *
 * Return: 0.
 */
int uet_pds_show(struct seq_file *m, struct uet_dev *udev)
{
	struct uet_pds_pdc *pdc;
	unsigned long id;

	seq_puts(m, "lpdcid rpdcid role state mode raddr una nxt cack rto_us retransmits timeouts delivered ooo dups acks\n");
	rcu_read_lock();
	xa_for_each(&udev->pds.pdcs, id, pdc) {
		const struct uet_pdc *c = &pdc->core;

		spin_lock_bh(&pdc->lock);
		seq_printf(m, "%u %u %s %s %s %pI6c %u %u %u %llu %llu %llu %llu %llu %llu %llu\n",
			   pdc->lpdcid, pdc->rpdcid,
			   c->initiator ? "ini" : "tgt", uet_pdc_state_name(c->state),
			   uet_pdc_mode_name(c->cfg.mode), &pdc->key.raddr,
			   c->tx.una, c->tx.nxt, c->rx.cack,
			   div_u64(uet_pdc_rto(c), NSEC_PER_USEC),
			   c->cnt[UET_PDC_CNT_TX_RETRANSMITS],
			   c->cnt[UET_PDC_CNT_TX_TIMEOUTS],
			   c->cnt[UET_PDC_CNT_RX_DELIVERED],
			   c->cnt[UET_PDC_CNT_RX_OUT_OF_ORDER],
			   c->cnt[UET_PDC_CNT_RX_DUPLICATES],
			   c->cnt[UET_PDC_CNT_RX_ACKS]);
		pdc_unlock_bh(pdc);
	}
	rcu_read_unlock();
	return 0;
}

/**
 * uet_pds_orphan() - let go of the messages of a closing endpoint
 * @udev: the device
 * @mine: tells the endpoint's messages; called under a PDC's lock
 * @arg: passed to @mine
 *
 * What the PDCs had not sent of those messages is dropped; each request
 * in flight is built one last time now, while the memory it is built from
 * is there, and kept for its retransmissions, so that the PSN sequence
 * stays whole.  Afterwards no PDC calls the SES layer about them.
 */
void uet_pds_orphan(struct uet_dev *udev, uet_pds_msg_fn mine, void *arg)
{
	struct uet_pds_pdc *pdc;
	struct uet_pds_tx *tx;
	unsigned long id;
	u32 psn;

	rcu_read_lock();
	xa_for_each(&udev->pds.pdcs, id, pdc) {
		spin_lock_bh(&pdc->lock);
		uet_sched_forget(&pdc->sched, mine, arg);
		for (psn = 0; pdc->sched.txq && psn <= pdc->sched.mask; psn++) {
			tx = uet_sched_tx(&pdc->sched, psn);
			if ((tx->flags & UET_PDS_TX_USED) &&
			    !(tx->flags & (UET_PDS_TX_CLOSE | UET_PDS_TX_ORPHAN)) &&
			    mine(tx->msg, arg)) {
				tx->skb = uet_ses_build_req(tx->msg, tx->off,
							    tx->len);
				tx->flags |= UET_PDS_TX_ORPHAN;
			}
		}
		pdc_unlock_bh(pdc);
	}
	rcu_read_unlock();
}

static void pdc_snapshot(struct uet_pds_pdc *pdc, struct uet_pdc_info *info)
{
	const struct uet_pdc *c = &pdc->core;

	lockdep_assert_held(&pdc->lock);
	info->peer = pdc->key.raddr;
	info->job = pdc->key.job;
	info->lpdcid = pdc->lpdcid;
	info->rpdcid = pdc->rpdcid;
	info->state = c->state;
	info->mode = c->cfg.mode;
	info->tc = pdc->key.tc;
	info->initiator = c->initiator;
	info->tx_una = c->tx.una;
	info->tx_nxt = c->tx.nxt;
	info->rx_cack = c->rx.cack;
	info->in_flight = uet_pdc_tx_in_flight(c);
	info->srtt_ns = c->rtt.seeded ? c->rtt.srtt : 0;
	info->rto_ns = uet_pdc_rto(c);
	info->retransmits = c->cnt[UET_PDC_CNT_TX_RETRANSMITS];
	info->timeouts = c->cnt[UET_PDC_CNT_TX_TIMEOUTS];
}

/**
 * uet_pds_dump() - a snapshot of each PDC from local PDCID *@pos on
 * @udev: the device
 * @pos: the first local PDCID to visit; on return, where to resume
 * @fn: called with each snapshot, under RCU but no PDC lock; a non-zero
 *	return stops the walk at that PDC, which the next call visits again
 * @arg: passed to @fn
 *
 * Return: what @fn returned last, 0 when every PDC was visited.
 */
int uet_pds_dump(struct uet_dev *udev, unsigned long *pos, uet_pds_info_fn fn,
		 void *arg)
{
	struct uet_pdc_info info;
	struct uet_pds_pdc *pdc;
	int err = 0;

	rcu_read_lock();
	xa_for_each_start(&udev->pds.pdcs, *pos, pdc, *pos) {
		spin_lock_bh(&pdc->lock);
		pdc_snapshot(pdc, &info);
		pdc_unlock_bh(pdc);
		err = fn(&info, arg);
		if (err)
			break;
	}
	rcu_read_unlock();
	if (!err)
		*pos = ULONG_MAX;
	return err;
}

/**
 * uet_pds_count() - how many PDCs a device has
 * @udev: the device
 *
 * Return: the number of PDCs, a snapshot.
 */
u32 uet_pds_count(struct uet_dev *udev)
{
	struct uet_pds_pdc *pdc;
	unsigned long id;
	u32 n = 0;

	rcu_read_lock();
	xa_for_each(&udev->pds.pdcs, id, pdc)
		n++;
	rcu_read_unlock();
	return n;
}
