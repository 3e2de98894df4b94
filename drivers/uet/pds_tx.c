// SPDX-License-Identifier: GPL-2.0
/*
 * uet PDS: the initiator side of a PDC.  Messages wait on the PDC's
 * scheduler (sched.c) and are cut into requests as the window lets them
 * leave (pdc_push()); each request is built from the message's memory when
 * it leaves, and again when it is resent.  One timer sends a tail probe or
 * times out; the ACKs and NACKs that come back move the window.
 *
 * Lost PDCs: a target answers a request naming a PDC it does not have
 * with a NACK (INV_DPDCID), and the initiator closes that PDC in error at
 * once instead of retrying into the void.
 *
 * Backpressure: while the device's qdiscs and drivers hold more than
 * their share of packets (uet_socket_tx_full()), a PDC sends nothing and
 * waits in the device's list; when they have drained, the device's
 * transmit work gives each waiting PDC a burst in turn, oldest first, as
 * TCP small queues resume sockets.  What one PDC may put in front of the
 * others is a burst.
 */
#include <linux/hash.h>
#include <linux/ipv6.h>
#include <linux/jhash.h>
#include <linux/random.h>
#include <linux/rculist.h>
#include <linux/slab.h>
#include <linux/udp.h>
#include <net/inet_ecn.h>
#include <net/ipv6.h>
#include <uapi/linux/uet.h>

#include "counters.h"
#include "pds_priv.h"
#include "psn.h"
#include "ses.h"
#include "socket.h"
#include "uet.h"
#include "wire.h"

/*
 * The PSN offset of a SYN request is 12 bits (Documentation/wire-format.rst):
 * while SYN is set nothing is acknowledged, so offsets stay below the window.
 */
#define UET_PDS_SYN_PSN_OFFSET_MAX	0xfff
static_assert(UET_PDC_WND_MAX - 1 <= UET_PDS_SYN_PSN_OFFSET_MAX);

static enum hrtimer_restart pdc_rto_expired(struct hrtimer *t);
static enum hrtimer_restart pdc_pace_expired(struct hrtimer *t);

/* An initiator's live state (pdc_wake()); %NULL if none can be had. */
static struct uet_pds_live *ini_wake(struct uet_pds_pdc *pdc)
{
	return pdc_wake(pdc, pdc_rto_expired, pdc_pace_expired);
}

/* With RCCC, requests carry the credit wanted: the _CC types. */
static u8 req_type(const struct uet_pds_pdc *pdc)
{
	if (pdc->live->rccc_on)
		return pdc->key.mode == UET_PDC_ROD ? UET_PDS_TYPE_ROD_CC_REQ :
						      UET_PDS_TYPE_RUD_CC_REQ;
	return pdc->key.mode == UET_PDC_ROD ? UET_PDS_TYPE_ROD_REQ :
					      UET_PDS_TYPE_RUD_REQ;
}

/*
 * The PDC is done with the request of @psn: the SES layer learns its
 * fate, or the read goes again (uet_sched_finish()).
 */
static void pdc_tx_finish(struct uet_pds_pdc *pdc, u32 psn, int err)
{
	struct uet_sched *sched = &pdc->live->sched;
	struct uet_pds_tx done;

	switch (uet_sched_finish(sched, psn, &err, &done, GFP_ATOMIC)) {
	case UET_SCHED_DONE:
		uet_ses_tx_done(done.msg, 1, err);
		break;
	case UET_SCHED_REISSUE:
		uet_count(pdc->udev, UET_CNT_READS_REISSUED, 1);
		break;
	case UET_SCHED_NONE:
		break;
	}
}

/*
 * The one gate of what may leave a PDC: the tracking window, the bound on
 * what is in flight, the congestion window, the receiver's credit and the
 * rate cap of network advice.
 */
static bool pdc_may_send(struct uet_pds_pdc *pdc)
{
	struct uet_pds_live *live = pdc->live;

	return !uet_pdc_tx_window_full(&live->core) &&
	       uet_pdc_tx_in_flight(&live->core) < UET_PDS_INFLIGHT_MAX &&
	       (!live->cc_on || pds_ccx_may_send(live->ccx, live->ccx_bytes)) &&
	       (!live->rccc_on || uet_rccc_may_send(&live->credit)) &&
	       pdc_ra_may_send(pdc);
}

/*
 * RCCC: the credit to ask the target for (uet_rccc_target()): what is
 * queued, at most the PDC's share of NSCC's window and a request more
 * when NSCC is on too.
 */
static u32 pdc_credit_target(struct uet_pds_pdc *pdc)
{
	struct uet_pds_live *live = pdc->live;
	u32 cap = live->cc_on ? pds_ccx_cap(live->ccx, live->ccx_bytes) :
				U32_MAX;

	return uet_rccc_target(&live->credit,
			       uet_sched_backlog(&live->sched,
						 live->ccx->cc.hdr,
						 live->credit.maxwnd),
			       cap);
}

/*
 * RCCC: ask the target for @target in a REQ_CREDIT, outside the PSN
 * sequence.  Only once the target's PDCID is known: before, the PDC
 * sends on the credit it starts with, and its requests ask.
 */
static void pdc_ask_credit(struct uet_pds_pdc *pdc, u32 target)
{
	struct uet_pds_hdr_info h = {
		.type = UET_PDS_TYPE_CTRL,
		.next_hdr = UET_PDS_CTL_REQ_CREDIT,
		.ctl = {
			.type = UET_PDS_CTL_REQ_CREDIT,
			.psn = pdc->live->core.tx.nxt,
			.spdcid = pdc->lpdcid,
			.dst.dpdcid = pdc->rpdcid,
			.payload = target,
		},
	};
	struct sk_buff *skb;

	lockdep_assert_held(&pdc->lock);
	skb = pds_hdr_skb(&h, sizeof(struct uet_pds_ctl));
	if (!skb)
		return;
	uet_count(pdc->udev, UET_CNT_CC_CREDIT_REQUESTS, 1);
	pdc_out(pdc, skb);
}

/*
 * What the request of @psn counts for in the congestion window and in
 * RCCC's credit; 0: none, or no congestion control.
 */
static u32 pdc_cc_bytes(struct uet_pds_pdc *pdc, u32 psn)
{
	const struct uet_pds_tx *tx = uet_sched_tx(&pdc->live->sched, psn);

	if (!pdc->live->ccx || !(tx->flags & UET_PDS_TX_USED) ||
	    tx->flags & UET_PDS_TX_CLOSE)
		return 0;
	return uet_nscc_bytes(&pdc->live->ccx->cc, tx->len);
}

/*
 * Tell the PDC's load balancing what became of the request of @psn, in
 * flight, on the entropy it was sent with last.
 */
static void pdc_lb_feedback(struct uet_pds_pdc *pdc, u32 psn,
			    enum uet_lb_feedback fb, u64 now)
{
	struct uet_pds_live *live = pdc->live;
	const struct uet_pds_tx *tx;

	if (!uet_lb_sprays(&live->lb))
		return;
	tx = uet_sched_tx(&live->sched, psn);
	if ((tx->flags & (UET_PDS_TX_USED | UET_PDS_TX_CLOSE)) ==
	    UET_PDS_TX_USED)
		uet_lb_feedback(&live->lb, tx->entropy, fb, now);
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
	return uet_ses_build_req(tx->msg, tx->off, tx->len,
				 tx->flags & UET_PDS_TX_GIVE_UP);
}

/*
 * Build and send the request of @psn, with SYN and AR as they apply: a
 * new request, or a retransmission (@retx) built again the same way.
 */
static void pdc_xmit_req(struct uet_pds_pdc *pdc, u32 psn, bool retx)
{
	struct uet_pds_tx *tx = uet_sched_tx(&pdc->live->sched, psn);
	struct uet_pds_hdr_info h = {
		.type = req_type(pdc),
		.next_hdr = UET_SES_NH_REQ_STD,
	};
	unsigned int hlen = sizeof(struct uet_pds_req);
	struct sk_buff *skb;
	u64 now;
	int len;

	lockdep_assert_held(&pdc->lock);
	h.req.psn = psn;
	h.req.clear_psn_offset = (s16)(pdc->live->core.tx.una - psn);
	h.req.spdcid = pdc->lpdcid;
	/* SYN until the first valid ACK brings the target's PDCID */
	if (!pdc->rpdcid_known) {
		h.flags |= UET_PDS_F_SYN;
		h.req.dst.psn_offset = psn - pdc->start_psn;
	} else {
		h.req.dst.dpdcid = pdc->rpdcid;
	}
	if (pdc->live->rccc_on) {
		h.req.credit_target = pdc_credit_target(pdc);
		uet_rccc_ask(&pdc->live->credit, h.req.credit_target);
		hlen = sizeof(struct uet_pds_req_cc);
	}
	if (retx)
		h.flags |= UET_PDS_F_RETX | UET_PDS_F_AR;
	else if (tx->flags & UET_PDS_TX_EOM || !pdc_may_send(pdc))
		h.flags |= UET_PDS_F_AR;
	/* what a network element that gives rate advice looks for */
	if (pdc->live->ra_floor)
		h.flags |= UET_PDS_F_RA;

	if (tx->flags & UET_PDS_TX_CLOSE) {
		/* the CLOSE command: a control packet on its own PSN */
		h.type = UET_PDS_TYPE_CTRL;
		h.next_hdr = UET_PDS_CTL_CLOSE;
		h.flags &= ~(UET_PDS_F_AR | UET_PDS_F_RA);
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
	now = ktime_get_ns();
	if (retx) {
		uet_count(pdc->udev, UET_CNT_RETRANSMITS, 1);
		tx->flags |= UET_PDS_TX_RESENT;
		/* its last path lost it (or took too long) */
		pdc_lb_feedback(pdc, psn, UET_LB_LOST, now);
	}
	tx->sent = now;
	uet_ra_sent(&pdc->live->ra, skb->len +
		    (ipv6_addr_v4mapped(&pdc->key.raddr) ? UET_RA_WIRE_IPV4 :
							   UET_RA_WIRE_IPV6));
	/*
	 * A request leaves ECN-capable in its class, on the path load
	 * balancing picks (a retransmission too); a CLOSE, control, not.
	 */
	if (!(tx->flags & UET_PDS_TX_CLOSE)) {
		uet_skb_set_data(skb, pdc->key.tc);
		if (uet_lb_sprays(&pdc->live->lb)) {
			tx->entropy = uet_lb_next(&pdc->live->lb, now, retx);
			uet_skb_set_entropy(skb, tx->entropy);
			if (uet_lb_explored(&pdc->live->lb))
				uet_count(pdc->udev, UET_CNT_LB_EXPLORED, 1);
		}
	}
	pdc_out(pdc, skb);
}

/* Drop what waits of cancelled messages at the head of the queue. */
static void pdc_drop_cancelled(struct uet_pds_pdc *pdc)
{
	struct uet_pds_msg *m;
	u32 n;

	lockdep_assert_held(&pdc->lock);
	while (uet_sched_drop(&pdc->live->sched, &m, &n))
		uet_ses_tx_done(m, n, -ECANCELED);
}

/* Fail every request still to be cut. */
static void pdc_fail_queued(struct uet_pds_pdc *pdc, int err)
{
	struct uet_pds_msg *m;
	u32 n;

	lockdep_assert_held(&pdc->lock);
	while (uet_sched_take(&pdc->live->sched, &m, &n))
		uet_ses_tx_done(m, n, err);
}

/*
 * (Re)start the sender's timer: a tail probe's or the RTO, as the core
 * says (uet_pdc_tx_timer()); pdc_rto_expired() asks again which.
 */
static void pdc_rto_arm(struct uet_pds_pdc *pdc)
{
	struct uet_pds_live *live = pdc->live;
	bool probe;

	if (!pdc->dead)
		hrtimer_start(&live->timer,
			      ns_to_ktime(uet_pdc_tx_timer(&live->core, &probe)),
			      HRTIMER_MODE_REL_SOFT);
}

/*
 * @pdc found the qdiscs full: it waits for them to drain (pds_tx_work()),
 * in the device's list once.  They may have drained before it got there,
 * and the device have missed it: then it is resumed at once.
 */
static void pdc_tx_wait(struct uet_pds_pdc *pdc)
{
	struct uet_pds *pds = &pdc->udev->pds;

	lockdep_assert_held(&pdc->lock);
	spin_lock(&pds->tx_lock);
	if (list_empty(&pdc->tx_wait)) {
		pdc_get(pdc);
		list_add_tail(&pdc->tx_wait, &pds->tx_waiting);
		uet_count(pdc->udev, UET_CNT_TX_WAITS, 1);
	}
	spin_unlock(&pds->tx_lock);
	if (!uet_socket_tx_full(pdc->udev))
		uet_pds_tx_resume(pdc->udev);
}

/*
 * RCCC: the request of @psn, sent or resent, spends credit; before the
 * receiver answered, the credit the PDC started with.
 */
static void pdc_credit_spend(struct uet_pds_pdc *pdc, u32 psn)
{
	struct uet_rccc_tx *tx = &pdc->live->credit;
	u32 bytes;

	if (!pdc->live->rccc_on)
		return;
	bytes = pdc_cc_bytes(pdc, psn);
	uet_rccc_sent(tx, bytes);
	if (tx->speculating)
		uet_count(pdc->udev, UET_CNT_CC_CREDIT_SPECULATED, bytes);
}

/*
 * RCCC: requests wait for credit.  The target hears what is wanted, if it
 * has not yet; with nothing in flight to bring answers, the timer asks
 * again should the request or the grants be lost (pdc_rto_expired()).
 */
static void pdc_credit_stall(struct uet_pds_pdc *pdc)
{
	struct uet_pds_live *live = pdc->live;
	u32 target = pdc_credit_target(pdc);

	uet_count(pdc->udev, UET_CNT_CC_CREDIT_STALLS, 1);
	if (pdc->rpdcid_known && uet_rccc_ask(&live->credit, target))
		pdc_ask_credit(pdc, target);
	if (!uet_pdc_tx_in_flight(&live->core) &&
	    !hrtimer_is_queued(&live->timer))
		pdc_rto_arm(pdc);
}

/*
 * Retransmit what the core asks for, lowest PSN first, then cut and send
 * new requests while the window has room: at most @budget packets in all,
 * %UET_PDS_TX_BURST but after a timeout.  The ACKs of what is in flight
 * send the rest: a PDC's packets leave in the order the ACKs clock them
 * out, not from two CPUs at once.  Nothing leaves while the qdiscs are
 * full: the PDC waits for them (pdc_tx_wait()).
 */
static void pdc_push(struct uet_pds_pdc *pdc, unsigned int budget)
{
	struct uet_pds_live *live = pdc->live;
	bool was_idle = !uet_pdc_tx_in_flight(&live->core);
	unsigned int sent = 0;
	int err;
	u32 psn;

	lockdep_assert_held(&pdc->lock);
	if (was_idle)
		pdc_cc_refresh(pdc);
	if (uet_sched_queued(&live->sched))
		pdc->last_active = jiffies;
	if (uet_socket_tx_full(pdc->udev)) {
		pdc_tx_wait(pdc);
		return;
	}
	while (sent < budget && uet_pdc_tx_next_rtx(&live->core, &psn)) {
		/* resent on credit or not, lest a loss wait for a grant */
		pdc_credit_spend(pdc, psn);
		pdc_xmit_req(pdc, psn, true);
		sent++;
	}

	pdc_drop_cancelled(pdc);
	while (sent < budget && pdc_may_send(pdc) &&
	       uet_sched_queued(&live->sched)) {
		err = uet_sched_room(&live->sched, live->core.tx.una,
				     live->core.tx.nxt, GFP_ATOMIC) ? 0 : -ENOMEM;
		if (!err && (pdc->reclaim ||
			     uet_pdc_transition(&live->core, UET_PDC_EV_SEND) ==
			     UET_PDC_CLOSED))
			err = -ECONNRESET;
		err = err ?: uet_pdc_tx_alloc(&live->core, ktime_get_ns(), &psn);
		/* short of memory, an ACK to come tries again; else none will */
		if (err == -ENOMEM && uet_pdc_tx_in_flight(&live->core))
			break;
		if (err) {
			pdc_fail_queued(pdc, err == -ENOMEM ? err : -ECONNRESET);
			break;
		}
		uet_sched_cut(&live->sched, psn);
		if (live->cc_on)
			pds_ccx_sent(live->ccx, &live->ccx_bytes,
				     pdc_cc_bytes(pdc, psn));
		pdc_credit_spend(pdc, psn);
		pdc_xmit_req(pdc, psn, false);
		sent++;
		pdc_drop_cancelled(pdc);
	}
	if (live->cc_on && uet_sched_queued(&live->sched) &&
	    !pds_ccx_may_send(live->ccx, live->ccx_bytes))
		uet_count(pdc->udev, UET_CNT_CC_WINDOW_FULL, 1);
	if (was_idle && uet_pdc_tx_in_flight(&live->core))
		pdc_rto_arm(pdc);
	if (live->rccc_on && !uet_rccc_may_send(&live->credit) &&
	    uet_sched_queued(&live->sched))
		pdc_credit_stall(pdc);
	if (live->ra.cap && uet_sched_queued(&live->sched))
		pdc_ra_wait(pdc);
}

/**
 * uet_pds_tx_resume() - the qdiscs have drained: resume the waiting PDCs
 *	and RUDI table
 * @udev: the device
 *
 * Any context; called by the socket layer each time the qdiscs and
 * drivers have let go of enough of the device's namespace's packets.
 */
void uet_pds_tx_resume(struct uet_dev *udev)
{
	struct uet_pds *pds = &udev->pds;

	if (!list_empty_careful(&pds->tx_waiting))
		queue_work(system_highpri_wq, &pds->tx_work);
	uet_rudi_tx_resume(udev);
}

/*
 * The device's transmit work: a burst for each waiting PDC in turn, the
 * oldest first, until none waits or one finds the qdiscs full again (it
 * goes to the end of the list, and the rest wait for the next drain).
 */
void pds_tx_work(struct work_struct *work)
{
	struct uet_pds *pds = container_of(work, struct uet_pds, tx_work);
	struct uet_pds_pdc *pdc;
	bool again;

	do {
		spin_lock_bh(&pds->tx_lock);
		pdc = list_first_entry_or_null(&pds->tx_waiting,
					       struct uet_pds_pdc, tx_wait);
		if (pdc)
			list_del_init(&pdc->tx_wait);
		spin_unlock_bh(&pds->tx_lock);
		if (!pdc)
			return;
		spin_lock_bh(&pdc->lock);
		/* one that went quiet meanwhile has nothing to send */
		if (!pdc->dead && pdc->live) {
			pdc_push(pdc, UET_PDS_TX_BURST);
			pdc_close_progress(pdc);
		}
		spin_lock(&pds->tx_lock);
		again = list_empty(&pdc->tx_wait);
		spin_unlock(&pds->tx_lock);
		pdc_unlock_bh(pdc);
		pdc_put(pdc);
	} while (again);
}

/* The device goes: drop the waiting PDCs' references. */
void pds_tx_unwait_all(struct uet_pds *pds)
{
	struct uet_pds_pdc *pdc, *tmp;
	LIST_HEAD(waiting);

	spin_lock_bh(&pds->tx_lock);
	list_splice_init(&pds->tx_waiting, &waiting);
	spin_unlock_bh(&pds->tx_lock);
	list_for_each_entry_safe(pdc, tmp, &waiting, tx_wait) {
		list_del_init(&pdc->tx_wait);
		pdc_put(pdc);
	}
}

/* The PDC closed in error: fail everything queued or in flight. */
void pdc_fail_all(struct uet_pds_pdc *pdc, int err)
{
	struct uet_sched *sched;
	u32 psn;

	lockdep_assert_held(&pdc->lock);
	pdc_set_reclaim(pdc);
	if (!pdc->live)
		return;		/* quiet: nothing queued or in flight */
	sched = &pdc->live->sched;
	for (psn = 0; sched->txq && psn <= sched->mask; psn++)
		pdc_tx_finish(pdc, psn, err);
	pdc_fail_queued(pdc, err);
}

/*
 * The request of @psn waited for the target to have a receive buffer
 * (uet_pdc_tx_rnr()), and goes again alone: as it was while its message
 * may retry, else with IE, given up (uet_ses_tx_rnr()).
 */
static void pdc_rnr_retry(struct uet_pds_pdc *pdc, u32 psn)
{
	struct uet_pds_tx *tx = uet_sched_tx(&pdc->live->sched, psn);

	if (!(tx->flags & (UET_PDS_TX_CLOSE | UET_PDS_TX_GIVE_UP)) &&
	    !uet_ses_tx_rnr(tx->msg))
		tx->flags |= UET_PDS_TX_GIVE_UP;
	uet_count(pdc->udev, UET_CNT_RNR_RETRIES, 1);
	pdc_xmit_req(pdc, psn, true);
}

/*
 * RCCC: no grant came for an RTO while the PDC waited with nothing in
 * flight.  It asks again, as if never asked, the timer backed off as for
 * a timeout; after as many asks in a row as timeouts a PDC may have, its
 * receiver is taken for gone, as it would be for a timeout.
 */
static void pdc_credit_timeout(struct uet_pds_pdc *pdc)
{
	struct uet_pds_live *live = pdc->live;

	if (++live->credit.unanswered > live->core.cfg.max_retries) {
		uet_count(pdc->udev, UET_CNT_TIMEOUTS, 1);
		pdc_fail_all(pdc, -ETIMEDOUT);
		return;
	}
	uet_pdc_rtt_backoff(&live->core.rtt);
	live->credit.asked = live->credit.pull;
	pdc_push(pdc, UET_PDS_TX_BURST);
}

/*
 * The sender's timer: after the wait for a receive buffer, the first PSN
 * that waits; a tail probe (RUD, RUDI), the highest PSN missing sent
 * again to learn what the tail lost; or a timeout.  After a timeout the
 * first hole goes alone: the ACK it asks for clocks out the rest, as TCP
 * restarts from a window of one segment (RFC 5681 section 3.1).
 */
static enum hrtimer_restart pdc_rto_expired(struct hrtimer *t)
{
	/* it is gone only once its timer is stopped (pdc_sleep()) */
	struct uet_pds_live *live = container_of(t, struct uet_pds_live, timer);
	struct uet_pds_pdc *pdc = live->pdc;
	u32 psn;

	spin_lock(&pdc->lock);
	/*
	 * Dead, or started again while this ran and waited for the lock
	 * (an ACK's hrtimer_try_to_cancel() could not stop it): the new
	 * expiry is the one to act on.
	 */
	if (pdc->dead || hrtimer_is_queued(t))
		goto out;
	if (!uet_pdc_tx_in_flight(&live->core)) {
		if (live->rccc_on && uet_sched_queued(&live->sched))
			pdc_credit_timeout(pdc);
		goto out;
	}
	if (uet_pdc_tx_rnr_probe(&live->core, &psn)) {
		pdc_rnr_retry(pdc, psn);
		pdc_rto_arm(pdc);
		goto out;
	}
	if (uet_pdc_tx_probe(&live->core, &psn)) {
		uet_count(pdc->udev, UET_CNT_TAIL_PROBES, 1);
		pdc_xmit_req(pdc, psn, true);
		pdc_push(pdc, UET_PDS_TX_BURST);
		pdc_rto_arm(pdc);
		goto out;
	}
	uet_count(pdc->udev, UET_CNT_TIMEOUTS, 1);
	if (live->cc_on)
		pds_cc_count(pdc->udev,
			     pds_ccx_timeout(live->ccx,
					     pdc_cc_bytes(pdc, live->core.tx.una)));
	pdc_lb_feedback(pdc, live->core.tx.una, UET_LB_TIMEOUT, ktime_get_ns());
	uet_pdc_tx_timeout(&live->core);
	if (uet_pdc_transition(&live->core, UET_PDC_EV_TIMEOUT) == UET_PDC_CLOSED) {
		pdc_fail_all(pdc, -ETIMEDOUT);
		goto out;
	}
	pdc_push(pdc, 1);
	pdc_rto_arm(pdc);
out:
	pdc_unlock(pdc);
	return HRTIMER_NORESTART;
}

/* The rate cap lets the PDC send again (pdc_ra_wait()). */
static enum hrtimer_restart pdc_pace_expired(struct hrtimer *t)
{
	/* it is gone only once its timer is stopped (pdc_sleep()) */
	struct uet_pds_live *live = container_of(t, struct uet_pds_live, pace);
	struct uet_pds_pdc *pdc = live->pdc;

	spin_lock(&pdc->lock);
	/* started again while this waited for the lock: that one sends */
	if (!pdc->dead && !hrtimer_is_queued(t))
		pdc_push(pdc, UET_PDS_TX_BURST);
	pdc_unlock(pdc);
	return HRTIMER_NORESTART;
}

/*
 * Initiator: move a wanted close along.  Once nothing is queued or in
 * flight, the CLOSE command goes out on the PDC's next PSN; once it is
 * acknowledged, the PDC is done and the scanner reclaims it.
 */
void pdc_close_progress(struct uet_pds_pdc *pdc)
{
	struct uet_pds_live *live;
	u32 psn;

	lockdep_assert_held(&pdc->lock);
	if (!pdc->close_wanted || pdc->dead || pdc->reclaim)
		return;
	live = ini_wake(pdc);
	if (!live)
		return;
	if (live->core.state == UET_PDC_CLOSING) {
		if (!uet_pdc_tx_in_flight(&live->core) &&
		    uet_pdc_transition(&live->core, UET_PDC_EV_CLOSE_ACK) ==
		    UET_PDC_CLOSED)
			pdc_set_reclaim(pdc);
		return;
	}
	if (uet_sched_queued(&live->sched) || uet_pdc_tx_in_flight(&live->core) ||
	    uet_pdc_transition(&live->core, UET_PDC_EV_CLOSE) != UET_PDC_CLOSING)
		return;
	if (!uet_sched_room(&live->sched, live->core.tx.una, live->core.tx.nxt,
			    GFP_ATOMIC) ||
	    uet_pdc_tx_alloc(&live->core, ktime_get_ns(), &psn)) {
		/* no clean close: the target reclaims its side when idle */
		pdc_set_reclaim(pdc);
		return;
	}
	uet_sched_close(&live->sched, psn);
	pdc_xmit_req(pdc, psn, false);
	pdc_rto_arm(pdc);
}

/* Initiator: close @pdc once it is drained. */
void pdc_start_close(struct uet_pds_pdc *pdc)
{
	pdc_unhash(pdc);
	spin_lock_bh(&pdc->lock);
	pdc->close_wanted = true;
	pdc_close_progress(pdc);
	pdc_unlock_bh(pdc);
}

/* Find @key's initiator PDC, or make one; returns it referenced. */
static struct uet_pds_pdc *pdc_get_initiator(struct uet_dev *udev,
					     const struct uet_pds_key *key)
{
	struct uet_pds *pds = &udev->pds;
	struct uet_pds_pdc *pdc;

	pdc = pdc_find_initiator(pds, key);
	if (pdc)
		return pdc;
	spin_lock_bh(&pds->lock);
	/* another sender may have made it meanwhile */
	pdc = pdc_find_initiator(pds, key) ?:
	      pdc_alloc(udev, key, true, get_random_u32(), 0, false);
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
	uet_skb_set_data(skb, key->tc);
	uet_skb_set_job(skb, key->job);
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
		msg->tc = key->tc;
		uet_rudi_send_msg(udev, key, msg);
		return 0;
	}
	pdc = pdc_get_initiator(udev, key);
	if (!pdc)
		return -ENOBUFS;
	spin_lock_bh(&pdc->lock);
	if (pdc->dead) {
		uet_ses_tx_done(msg, msg->seg.count, -ENETDOWN);
	} else if (!ini_wake(pdc)) {
		uet_ses_tx_done(msg, msg->seg.count, -ENOMEM);
	} else {
		msg->pdc = pdc;
		uet_sched_queue(&pdc->live->sched, msg);
		if (!uet_pdc_tx_in_flight(&pdc->live->core))
			pdc_push(pdc, UET_PDS_TX_BURST);
	}
	pdc_unlock_bh(pdc);
	pdc_put(pdc);
	return 0;
}

/**
 * uet_pds_cancel() - nobody waits for a message any more
 * @udev: the device it was sent on
 * @msg: the message, which the PDS still has requests of; the caller in
 *	an RCU read-side section since before the PDS could be done with it
 *
 * No more requests of it are cut.  A PDC goes on with those in flight,
 * built again (with IE) as needed, so that its PSN sequence stays whole;
 * RUDI lets go of them at once (uet_rudi_cancel()).
 *
 * Return: whether requests of it may still be built: then @msg's ncut
 * is final.
 */
bool uet_pds_cancel(struct uet_dev *udev, struct uet_pds_msg *msg)
{
	struct uet_pds_pdc *pdc = msg->pdc;

	RCU_LOCKDEP_WARN(!rcu_read_lock_held(), "PDC of a message outside RCU");
	if (!pdc) {
		uet_rudi_cancel(udev, msg);
		return false;
	}
	spin_lock_bh(&pdc->lock);
	WRITE_ONCE(msg->cancelled, true);
	/* quiet, the PDC holds nothing of it; dead, its teardown failed it */
	if (pdc->live && !pdc->dead)
		pdc_drop_cancelled(pdc);
	/* a PDC to close may have waited for just those */
	pdc_close_progress(pdc);
	pdc_unlock_bh(pdc);
	return true;
}

/* One PSN acknowledged: what it counted for in the congestion window. */
static u32 pdc_tx_acked_one(struct uet_pds_pdc *pdc, u32 psn, bool marked,
			    u64 now)
{
	u32 bytes = pdc_cc_bytes(pdc, psn);

	pdc_lb_feedback(pdc, psn, marked ? UET_LB_ECN : UET_LB_GOOD, now);
	pdc_tx_finish(pdc, psn, 0);
	return bytes;
}

/*
 * Initiator side: the scheduler is done with what an ACK acknowledged
 * (@a), and load balancing hears of each request's path.  The target
 * answers a marked request at once, so an ACK's M flag (@marked) marks
 * the request that called for it (@ack_psn) alone; those it acknowledges
 * besides came unmarked.
 *
 * Return: what that counted for in the congestion window.
 */
static u32 pdc_tx_acked(struct uet_pds_pdc *pdc, const struct uet_pdc_acked *a,
			u32 ack_psn, bool marked, u64 now)
{
	u32 psn, bytes = 0;
	int i;

	for (psn = a->cum_from; psn != a->cum_to; psn++)
		bytes += pdc_tx_acked_one(pdc, psn, marked && psn == ack_psn,
					  now);
	for (i = 0; i < UET_PDC_SACK_BITS; i++) {
		if (!(a->sack_new & BIT_ULL(i)))
			continue;
		psn = a->sack_base + i;
		bytes += pdc_tx_acked_one(pdc, psn, marked && psn == ack_psn,
					  now);
	}
	return bytes;
}

/*
 * Initiator: the RTT an ACK measures, ns: from when the request of
 * @ack_psn (@acked: the window before the ACK) left to now, less the time
 * the target says it held the ACK back (@service).  0 if there is no
 * valid sample: the request was acknowledged before or sent again
 * (Karn), the target's time is not less than the round trip, or it is
 * past what the field holds (an ACK held longer than 16.7 ms).
 */
static u32 pdc_rtt_sample(struct uet_pds_pdc *pdc, u32 ack_psn,
			  const struct uet_pdc_acked *acked, u16 service,
			  u64 now)
{
	const struct uet_pds_tx *tx;
	u32 rtt, held = (u32)service << UET_PDS_SERVICE_TIME_SHIFT;

	if (!uet_psn_in_window(ack_psn, acked->cum_from,
			       pdc->live->core.tx.nxt - acked->cum_from))
		return 0;
	tx = uet_sched_tx(&pdc->live->sched, ack_psn);
	if ((tx->flags & (UET_PDS_TX_USED | UET_PDS_TX_RESENT)) !=
	    UET_PDS_TX_USED || service == U16_MAX)
		return 0;
	rtt = (u32)now - tx->sent;
	return rtt > held ? rtt - held : 0;
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
			       pdc->live->core.tx.nxt - acked->cum_from))
		return;
	tx = uet_sched_tx(&pdc->live->sched, ack_psn);
	if (!(tx->flags & UET_PDS_TX_USED) || tx->flags & UET_PDS_TX_CLOSE)
		return;
	msg = tx->msg;
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
 * Initiator, @pdc locked: whether an answer from the peer PDC @spdcid may
 * act on it: the PDC is alive, and that is its peer (else a counted drop).
 */
static bool pdc_live_peer(struct uet_pds_pdc *pdc, u16 spdcid)
{
	if (pdc->dead)
		return false;
	if (!pdc_peer_is(pdc, spdcid)) {
		uet_count(pdc->udev, UET_CNT_DROP_PDC_NOT_PEER, 1);
		return false;
	}
	return true;
}

/*
 * Initiator: an ACK from @saddr.  It counts only from the PDC's peer and
 * only if it names PSNs sent; the peer's PDCID is learned from the first
 * that acknowledges something.  Its M flag says a request was marked on
 * the way there; @ce, that it was marked itself on the way back, which
 * matters when it carries a read's data.
 */
void pds_rcv_ack(struct uet_dev *udev, struct sk_buff *skb,
		 const struct uet_pds_hdr_info *h, unsigned int hlen,
		 const struct in6_addr *saddr, bool ce)
{
	const struct uet_pds_ack_info *ai = &h->ack;
	struct uet_ses_hdr_info ses = {};
	struct uet_pdc_acked acked;
	struct uet_pdc_ack ack = {};
	struct uet_nscc_ack cc;
	struct uet_pds_pdc *pdc;
	u8 buf[sizeof(struct uet_ses_rsp_data)];
	u64 now;
	unsigned int slen = 0;
	bool unsupported = false;
	const u8 *p;

	pdc = pdc_get_by_id(udev, skb, ai->dpdcid, true, ai->spdcid, saddr);
	if (!pdc)
		return;

	switch (h->next_hdr) {
	case UET_SES_NH_NONE:
		break;
	case UET_SES_NH_RSP:
		slen = sizeof(struct uet_ses_rsp);
		break;
	case UET_SES_NH_RSP_DATA:
		slen = sizeof(struct uet_ses_rsp_data);
		break;
	default:
		/*
		 * A request's header, or small data with no offset to place
		 * it at: refused whole, once it is known to be the peer's
		 * (the request it answers goes again, and fails in the end).
		 */
		unsupported = true;
		break;
	}
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
	/* under the lock: the window's clock never goes back */
	now = ktime_get_ns();
	if (!pdc_live_peer(pdc, ai->spdcid) || !ini_wake(pdc))
		goto unlock;
	if (unsupported) {
		uet_count(udev, UET_CNT_DROP_UNSUPPORTED, 1);
		goto unlock;
	}
	if (uet_pdc_tx_ack(&pdc->live->core, &ack, now, &acked)) {
		/* names unsent PSNs: the core counted it for the PDC */
		uet_count(udev, UET_CNT_DROP_OUT_OF_WINDOW, 1);
		goto unlock;
	}
	if (acked.needless)
		uet_count(udev, UET_CNT_RETRANSMITS_NEEDLESS, 1);
	if (acked.spurious)
		uet_count(udev, UET_CNT_TIMEOUTS_SPURIOUS, 1);
	if (!pdc->rpdcid_known) {
		if (!acked.newly)
			goto unlock;	/* proves nothing: learn nothing */
		/* read unlocked by pdc_event() */
		WRITE_ONCE(pdc->rpdcid, ai->spdcid);
		pdc->rpdcid_known = true;
	}
	if (h->flags & UET_PDS_F_M)
		uet_count(udev, UET_CNT_ECN_ECHOES, 1);
	if (slen)
		pdc_ack_answer(pdc, skb, hlen + slen, &ses, ack.ack_psn, &acked);
	cc.rtt = pdc_rtt_sample(pdc, ack.ack_psn, &acked, ai->service_time,
				now);
	cc.bytes = pdc_tx_acked(pdc, &acked, ack.ack_psn,
				h->flags & UET_PDS_F_M, now);
	cc.ecn = (h->flags & UET_PDS_F_M) || ce;
	if (pdc->live->cc_on)
		pds_cc_count(pdc->udev,
			     pds_ccx_ack(pdc->live->ccx, &pdc->live->ccx_bytes,
					 &cc, now));
	if (pdc->live->rccc_on) {
		/* RCCC holds NSCC's ceiling, for the round trip measured */
		u64 unused;

		uet_rccc_answered(&pdc->live->credit);
		unused = uet_rccc_window(&pdc->live->credit,
					 pds_ccx_credit(pdc->live->ccx, cc.rtt,
							pdc->live->core.rtt.srtt));
		if (unused)
			uet_count(pdc->udev, UET_CNT_CC_CREDIT_UNUSED, unused);
	}
	uet_pdc_transition(&pdc->live->core, UET_PDC_EV_ACK);
	/*
	 * Nothing in flight: no RTO.  Stopped before the push, which may
	 * send more, or wait for credit with the timer to ask again should
	 * the ask or its grant be lost (pdc_credit_stall()).
	 */
	if (!uet_pdc_tx_in_flight(&pdc->live->core))
		hrtimer_try_to_cancel(&pdc->live->timer);
	pdc_push(pdc, UET_PDS_TX_BURST);
	pdc_close_progress(pdc);
	if (uet_pdc_tx_in_flight(&pdc->live->core) && acked.newly)
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
	struct uet_pds_live *live = pdc->live;

	lockdep_assert_held(&pdc->lock);
	if (!pdc->rpdcid_known ||
	    !uet_psn_in_window(psn, live->core.tx.una,
			       uet_pdc_tx_in_flight(&live->core)))
		return false;
	uet_pdc_transition(&live->core, UET_PDC_EV_ABORT);
	hrtimer_try_to_cancel(&live->timer);
	pdc_fail_all(pdc, -ECONNRESET);
	return true;
}

/*
 * Initiator: the target refused a request and asks for it again
 * (ROD_OOO, TRIMMED), or later (NO_PKT_BUFFER: no receive buffer for it
 * yet), or has no PDC of ours (INV_DPDCID).
 */
void pds_rcv_nack(struct uet_dev *udev, const struct sk_buff *skb,
		  const struct uet_pds_hdr_info *h,
		  const struct in6_addr *saddr)
{
	const struct uet_pds_nack_info *n = &h->nack;
	struct uet_pds_pdc *pdc;
	bool lost = false, again;

	pdc = pdc_get_by_id(udev, skb, n->dpdcid, true, n->spdcid, saddr);
	if (!pdc)
		return;
	spin_lock(&pdc->lock);
	if (!pdc_live_peer(pdc, n->spdcid) || !ini_wake(pdc))
		goto unlock;
	uet_count(udev, UET_CNT_NACKS_RECEIVED, 1);
	if (pdc->live->rccc_on)
		uet_rccc_answered(&pdc->live->credit);
	if (n->code == UET_PDS_NACK_INV_DPDCID) {
		lost = pdc_lost(pdc, n->psn);
	} else if ((n->code == UET_PDS_NACK_ROD_OOO ||
		    n->code == UET_PDS_NACK_TRIMMED) &&
		   !uet_pdc_tx_nack(&pdc->live->core, n->psn)) {
		if (n->code == UET_PDS_NACK_TRIMMED && pdc->live->cc_on)
			pds_cc_count(pdc->udev,
				     pds_ccx_trim(pdc->live->ccx,
						  pdc_cc_bytes(pdc, n->psn),
						  ktime_get_ns()));
		if (n->code == UET_PDS_NACK_TRIMMED)
			pdc_lb_feedback(pdc, n->psn, UET_LB_TRIMMED,
					ktime_get_ns());
		uet_pdc_transition(&pdc->live->core, UET_PDC_EV_NACK);
		pdc_push(pdc, UET_PDS_TX_BURST);
	} else if (n->code == UET_PDS_NACK_NO_PKT_BUFFER &&
		   !uet_pdc_tx_rnr(&pdc->live->core, n->psn, &again)) {
		/* no receive buffer for it yet: it waits (pdc_rnr_retry()) */
		pdc_rto_arm(pdc);
	}
unlock:
	pdc_unlock(pdc);
	if (lost)
		pdc_unhash(pdc);
	pdc_put(pdc);
}

/**
 * pds_rcv_credit() - initiator: a CREDIT from @saddr
 * @udev: the device it arrived on
 * @skb: the packet
 * @ctl: the control packet: its payload, the target's count of credit
 *	granted (rccc.h)
 * @saddr: its source address
 *
 * Only from the PDC's peer.  New credit sends what waited for it.  A
 * quiet PDC keeps the count for when it next sends: it has nothing to
 * send on it now.
 */
void pds_rcv_credit(struct uet_dev *udev, const struct sk_buff *skb,
		    const struct uet_pds_ctl_info *ctl,
		    const struct in6_addr *saddr)
{
	struct uet_pds_live *live;
	struct uet_pds_pdc *pdc;

	pdc = pdc_get_by_id(udev, skb, ctl->dst.dpdcid, true, ctl->spdcid,
			    saddr);
	if (!pdc)
		return;
	spin_lock(&pdc->lock);
	if (!pdc_live_peer(pdc, ctl->spdcid))
		goto unlock;
	live = pdc->live;
	if (!live) {
		if (uet_rccc_after(ctl->payload, pdc->pull))
			pdc->pull = ctl->payload & UET_RCCC_COUNT_MASK;
	} else if (live->rccc_on) {
		u32 unused;

		if (uet_rccc_credit(&live->credit, ctl->payload, &unused))
			pdc_push(pdc, UET_PDS_TX_BURST);
		if (unused)
			uet_count(udev, UET_CNT_CC_CREDIT_UNUSED, unused);
	}
unlock:
	pdc_unlock(pdc);
	pdc_put(pdc);
}
