// SPDX-License-Identifier: GPL-2.0
/*
 * uet PDS: the target side of a PDC, and where every received packet
 * enters the PDS (uet_pds_rcv()).  Requests reach the SES layer as the
 * core's receive window lets them (uet_pdc_rx_check()), and count as
 * received once the SES layer took or refused them (uet_pdc_rx_accept());
 * ACKs are held back (the PDC's timer) unless something asks for one at
 * once; NACKs ask for a trimmed or out-of-order request again, or later
 * (NO_PKT_BUFFER: the SES layer has no receive buffer for it yet; it
 * stays unreceived, as with an IB responder's RNR NAK).  Answers to
 * packets that no PDC takes (INV_DPDCID, NO_PDC_AVAIL, the ACK of a CLOSE
 * for a PDC gone) go to a source nobody vouches for: their rate is
 * bounded (pds_answer()).
 */
#include <linux/bitfield.h>
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
#include "pds_priv.h"
#include "psn.h"
#include "ses.h"
#include "socket.h"
#include "uet.h"
#include "wire.h"

/*
 * Target: the NSCC fields of an ACK_CC: how long the ACK was held after
 * the request it names (@ack's ack_psn) came, if that was the last one
 * taken; the bytes and the out-of-order arrivals taken so far, as the
 * fields' widths keep them.
 */
static void pdc_ack_nscc(struct uet_pds_pdc *pdc, const struct uet_pdc_ack *ack,
			 struct uet_pds_ack_info *ai)
{
	struct uet_pds_live *live = pdc->live;
	u64 held;

	if (live->rx_at && ack->ack_psn == live->rx_psn) {
		held = (ktime_get_ns() - live->rx_at) >>
		       UET_PDS_SERVICE_TIME_SHIFT;
		ai->service_time = min_t(u64, held, U16_MAX);
	}
	ai->rcvd_bytes = live->rcvd_bytes & FIELD_MAX(UET_NSCC_RCVD_BYTES);
	ai->ooo_count = live->core.cnt[UET_PDC_CNT_RX_OUT_OF_ORDER];
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
	struct uet_pds_live *live = pdc->live;
	struct sk_buff *skb = data;
	int plen, slen = 0;

	lockdep_assert_held(&pdc->lock);
	uet_pdc_rx_build_ack(&live->core, &ack);
	if (data)
		ack.ack_psn = psn;
	h.ack.cack_psn = ack.cack_psn;
	h.ack.ack_psn_offset = (s16)(ack.ack_psn - ack.cack_psn);
	h.ack.spdcid = pdc->lpdcid;
	h.ack.dpdcid = pdc->rpdcid;
	h.ack.cc_type = UET_PDS_CC_NSCC;
	h.ack.sack_psn_offset = ack.sack_base - ack.cack_psn;
	h.ack.sack_bitmap = ack.sack_bitmap;
	if (ack.marked)
		h.flags |= UET_PDS_F_M;
	pdc_ack_nscc(pdc, &ack, &h.ack);

	if (!skb) {
		rsp.rsp.opcode = UET_SES_RSP_DEFAULT;
		rsp.rsp.rc = live->rsp_rc;
		rsp.rsp.message_id = live->rsp_msg_id;
		rsp.rsp.job_id = pdc->key.job;
		live->rsp_rc = UET_SES_RC_OK;
		skb = alloc_skb(UET_PDS_HEADROOM + UET_PDS_MAX_HDR_LEN +
				sizeof(struct uet_ses_rsp) + UET_PDS_TAILROOM,
				GFP_ATOMIC);
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
	hrtimer_try_to_cancel(&live->timer);
	uet_skb_set_entropy(skb, live->rx_entropy);
	pdc_out(pdc, skb);
}

static ktime_t pdc_ack_delay(const struct uet_pds_pdc *pdc)
{
	return ns_to_ktime((u64)READ_ONCE(pdc->udev->cfg.ack_delay_us) *
			   NSEC_PER_USEC);
}

static enum hrtimer_restart pdc_ack_expired(struct hrtimer *t)
{
	/* it is gone only once its timer is stopped (pdc_sleep()) */
	struct uet_pds_live *live = container_of(t, struct uet_pds_live, timer);
	struct uet_pds_pdc *pdc = live->pdc;

	spin_lock(&pdc->lock);
	if (!pdc->dead && uet_pdc_rx_ack_pending(&live->core))
		pdc_send_ack(pdc, NULL, 0);
	pdc_unlock(pdc);
	return HRTIMER_NORESTART;
}

/* The delivery mode of a request of @type, with or without CC state. */
static enum uet_pdc_mode req_mode(u8 type)
{
	return type == UET_PDS_TYPE_ROD_REQ || type == UET_PDS_TYPE_ROD_CC_REQ ?
	       UET_PDC_ROD : UET_PDC_RUD;
}

/* A request of @type carries CC state: the credit its sender wants. */
static bool req_has_cc(u8 type)
{
	return type == UET_PDS_TYPE_RUD_CC_REQ ||
	       type == UET_PDS_TYPE_ROD_CC_REQ;
}

/* A target's live state (pdc_wake()); %NULL if none can be had. */
static struct uet_pds_live *tgt_wake(struct uet_pds_pdc *pdc)
{
	return pdc_wake(pdc, pdc_ack_expired, NULL);
}

/*
 * Target side: the PDC of SYN request @skb, by its peer {@saddr, SPDCID}
 * and the domain it opened in, created if there is none and @create,
 * sealed as @skb is; referenced, or %NULL.
 */
static struct uet_pds_pdc *pdc_get_syn_target(struct uet_dev *udev,
					      const struct sk_buff *skb,
					      const struct uet_pds_hdr_info *h,
					      const struct in6_addr *saddr,
					      bool create)
{
	const struct uet_rx_cb *rx = (const void *)skb->cb;
	const struct uet_pds_req_info *req = &h->req;
	u32 domain = pdc_tgt_domain(rx->sealed, rx->sdi);
	struct uet_pds *pds = &udev->pds;
	struct uet_pds_key key = { .raddr = *saddr };
	struct uet_pds_src *src;
	struct uet_pds_pdc *pdc;

	pdc = pdc_find_target(pds, saddr, req->spdcid, domain);
	if (pdc || !create)
		return pdc;
	spin_lock(&pds->lock);
	/* another CPU may have made it meanwhile */
	pdc = pdc_find_target(pds, saddr, req->spdcid, domain);
	if (pdc)
		goto unlock;
	src = src_get(udev, saddr);
	if (!src)
		goto unlock;
	key.mode = req_mode(h->type);
	if (rx->sealed)
		key.job = rx->sdi;
	/* counted ahead: src_put() undoes it if no PDC comes */
	src->pdcs++;
	pdc = pdc_alloc(udev, &key, false, req->psn - req->dst.psn_offset,
			req->spdcid, rx->sealed);
	if (pdc)
		pdc->src = src;
	else
		src_put(pds, src);
unlock:
	spin_unlock(&pds->lock);
	return pdc;
}

/*
 * Target: NACK the request of @psn.  ROD_OOO: it arrived ahead of the
 * expected PSN, and the sender goes back at once, but once per hole: a
 * go-back-N burst would otherwise bring a NACK per packet.  TRIMMED: its
 * payload was cut on the way; the sender resends that PSN at once.  Its
 * payload is the highest PSN received + 1, as Wireshark reads it.
 */
static void pdc_send_nack(struct uet_pds_pdc *pdc, u32 psn, u8 code)
{
	struct uet_pds_hdr_info h = {
		.type = UET_PDS_TYPE_NACK,
		.next_hdr = UET_SES_NH_NONE,
	};
	struct sk_buff *skb;
	struct uet_pds_live *live = pdc->live;

	lockdep_assert_held(&pdc->lock);
	if (code == UET_PDS_NACK_ROD_OOO) {
		if (live->nacked_valid &&
		    live->nacked_cack == live->core.rx.cack)
			return;
		live->nacked_valid = true;
		live->nacked_cack = live->core.rx.cack;
	}
	h.nack.code = code;
	h.nack.psn = psn;
	h.nack.spdcid = pdc->lpdcid;
	h.nack.dpdcid = pdc->rpdcid;
	h.nack.payload = live->core.rx.high + 1;

	skb = pds_hdr_skb(&h, sizeof(struct uet_pds_nack));
	if (!skb)
		return;
	uet_count(pdc->udev, UET_CNT_NACKS_SENT, 1);
	uet_skb_set_entropy(skb, live->rx_entropy);
	pdc_out(pdc, skb);
}

/* Whether a request of verdict @v goes to the SES layer. */
static bool pdc_deliverable(enum uet_pdc_rx_verdict v)
{
	return v == UET_PDC_RX_DELIVER || v == UET_PDC_RX_DELIVER_OOO ||
	       v == UET_PDC_RX_REPLAY || v == UET_PDC_RX_DUPLICATE;
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
static void nack_no_pdc(struct uet_dev *udev, const struct sk_buff *skb,
			const struct uet_pds_hdr_info *h,
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

	if (pds_answer(udev, skb, &n, sizeof(struct uet_pds_nack), saddr))
		uet_count(udev, UET_CNT_NACKS_SENT, 1);
}

/*
 * Target: a SYN request that got no PDC: trimmed, or none to be had (the
 * pool is exhausted), which its initiator hears of (NO_PDC_AVAIL) and
 * retries as PDCs free up.
 */
static void syn_no_pdc(struct uet_dev *udev, const struct sk_buff *skb,
		       const struct uet_pds_hdr_info *h,
		       const struct in6_addr *saddr, bool trimmed, int hlen)
{
	if (trimmed) {
		uet_count(udev, UET_CNT_TRIMMED, 1);
		nack_no_pdc(udev, skb, h, saddr, UET_PDS_NACK_TRIMMED);
	} else if (hlen >= 0) {
		/* (a malformed SES header was counted already) */
		uet_count(udev, UET_CNT_DROP_UNKNOWN_PDC, 1);
		nack_no_pdc(udev, skb, h, saddr, UET_PDS_NACK_NO_PDC_AVAIL);
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
				      const struct sk_buff *skb,
				      const struct uet_pds_hdr_info *h,
				      const struct in6_addr *saddr, bool create)
{
	u32 start = h->req.psn - h->req.dst.psn_offset;
	struct uet_pds_pdc *pdc;
	bool stale;

	pdc = pdc_get_syn_target(udev, skb, h, saddr, create);
	/* a PDC's start PSN is set before it is hashed and never changes */
	if (!pdc || pdc->start_psn == start)
		return pdc;
	spin_lock(&pdc->lock);
	stale = pdc->dead || pdc_quiet(pdc);
	if (stale) {
		pdc_set_reclaim(pdc);
	} else if (tgt_wake(pdc)) {
		uet_count(udev, UET_CNT_DROP_OUT_OF_WINDOW, 1);
		pdc_send_nack(pdc, h->req.psn, UET_PDS_NACK_INVALID_SYN);
	}
	pdc_unlock(pdc);
	if (stale)
		pdc_unhash(pdc);
	pdc_put(pdc);
	if (!stale)
		return ERR_PTR(-EAGAIN);
	return pdc_get_syn_target(udev, skb, h, saddr, create);
}

/*
 * Target: a request.  Without SYN it names its PDC; a SYN creates the PDC
 * unless there is one, and unless its payload was trimmed: a PDC made for
 * a packet that delivers nothing would stay CLOSED, which the scanner
 * never reclaims, and hold its place in the pool.
 */
static void rcv_request(struct uet_dev *udev, struct sk_buff *skb,
			const struct uet_pds_hdr_info *h,
			const struct in6_addr *saddr, u16 entropy, bool ce)
{
	bool syn = h->flags & UET_PDS_F_SYN, trimmed;
	struct uet_ses_hdr_info ses;
	struct uet_ses_rx rx = {
		.udev = udev,
		.mode = req_mode(h->type),
		.peer = saddr,
		.skb = skb,
		.h = &ses,
	};
	struct uet_pds_pdc *pdc = NULL;
	struct uet_ses_answer ans = {};
	struct uet_pds_live *live;
	enum uet_pdc_rx_verdict v;
	u32 flags = 0, holes;
	u8 rc = UET_SES_RC_OK;

	if (!syn) {
		pdc = pdc_get_by_id(udev, skb, h->req.dst.dpdcid, false,
				    h->req.spdcid, saddr);
		if (!pdc) {
			nack_no_pdc(udev, skb, h, saddr,
				    UET_PDS_NACK_INV_DPDCID);
			return;
		}
	}
	/* a malformed SES header still takes its PSN: the SES layer refuses it */
	rx.hlen = uet_ses_parse_skb(udev, skb, h->next_hdr, &ses);
	trimmed = uet_ses_trimmed(skb, rx.hlen, &ses);
	if (syn) {
		pdc = syn_target(udev, skb, h, saddr, !trimmed);
		if (IS_ERR_OR_NULL(pdc)) {
			if (!pdc)
				syn_no_pdc(udev, skb, h, saddr, trimmed,
					   rx.hlen);
			return;
		}
	}
	if (h->flags & UET_PDS_F_AR)
		flags |= UET_PDC_RX_AR;
	if (syn)
		flags |= UET_PDC_RX_SYN;
	if (ce)
		flags |= UET_PDC_RX_CE;

	spin_lock(&pdc->lock);
	live = tgt_wake(pdc);
	if (!live)
		goto out;	/* dead, or a counted drop */
	/*
	 * Answers go back on the entropy of the request they answer: an
	 * entropy whose answers come back is one whose round trip works,
	 * which is what the initiator's load balancing learns.
	 */
	live->rx_entropy = entropy;
	/* a trimmed request's header still asks for credit (RCCC) */
	if (req_has_cc(h->type))
		pdc_credit_want(pdc, h->req.credit_target, false);
	if (trimmed) {
		/* nothing to deliver: the sender resends it at once */
		uet_count(udev, UET_CNT_TRIMMED, 1);
		pdc_send_nack(pdc, h->req.psn, UET_PDS_NACK_TRIMMED);
		goto out;
	}
	uet_pdc_transition(&live->core, syn ? UET_PDC_EV_RECV_SYN :
					     UET_PDC_EV_RECV);
	v = uet_pdc_rx_check(&live->core, h->req.psn);
	if (pdc_deliverable(v)) {
		rx.dup = v == UET_PDC_RX_DUPLICATE;
		rc = uet_ses_deliver(&rx, &ans);
		if (ans.wait) {
			/* not received: the sender sends it again later */
			uet_count(udev, UET_CNT_RNR_NACKS_SENT, 1);
			pdc_send_nack(pdc, h->req.psn,
				      UET_PDS_NACK_NO_PKT_BUFFER);
			goto out;
		}
	}
	holes = live->core.rx.holes;
	uet_pdc_rx_accept(&live->core, h->req.psn, flags, v);
	/* the last hole filled: the bitmap goes once quiet, looked at soon */
	if (holes && !live->core.rx.holes)
		pdc_look_soon(pdc);
	/* a malformed SES header was the drop counted: not twice */
	if (rx.hlen >= 0 || pdc_deliverable(v))
		pdc_count_verdict(udev, v);
	if (ce && pdc_deliverable(v))
		uet_count(udev, UET_CNT_ECN_MARKED, 1);
	if (!pdc_deliverable(v)) {
		if (v == UET_PDC_RX_REJECT_OOO)
			pdc_send_nack(pdc, h->req.psn, UET_PDS_NACK_ROD_OOO);
		goto out;	/* else dropped: the sender retransmits */
	}
	/* only what the window takes keeps a PDC alive */
	pdc->last_active = jiffies;
	if (v != UET_PDC_RX_DUPLICATE) {
		live->rx_psn = h->req.psn;
		live->rx_at = ktime_get_ns();
		live->rcvd_bytes += skb->len;
	}
	if (ans.data) {
		/* a read's data goes back at once, in this ACK */
		pdc_send_ack(pdc, ans.data, h->req.psn);
		goto out;
	}
	if (v != UET_PDC_RX_DUPLICATE)
		live->rsp_msg_id = ans.msg_id;
	if (rc != UET_SES_RC_OK) {
		/* a refusal goes back at once, in this ACK */
		live->rsp_rc = rc;
		uet_pdc_rx_ack_now(&live->core);
	}
	/*
	 * Not hrtimer_active(): that is also true while the timer's callback
	 * runs, which may have built its ACK before this request came.
	 */
	if (uet_pdc_rx_ack_due(&live->core))
		pdc_send_ack(pdc, NULL, 0);
	else if (uet_pdc_rx_ack_pending(&live->core) &&
		 !hrtimer_is_queued(&live->timer))
		hrtimer_start(&live->timer, pdc_ack_delay(pdc),
			      HRTIMER_MODE_REL_SOFT);
out:
	pdc_unlock(pdc);
	pdc_put(pdc);
}

/*
 * A UUD request: delivered as it is, or a counted drop; nothing answers,
 * so a mark (@ce) is only counted.
 */
static void rcv_uud(struct uet_dev *udev, struct sk_buff *skb,
		    const struct uet_pds_hdr_info *h,
		    const struct in6_addr *saddr, bool ce)
{
	struct uet_ses_answer ans = {};

	uet_ses_deliver_datagram(udev, UET_PDC_UUD, saddr, skb, h->next_hdr,
				 &ans);
	if (ce)
		uet_count(udev, UET_CNT_ECN_MARKED, 1);
}

/*
 * Target: a CLOSE for a PDC we no longer have (ours closed, and the ACK of
 * the CLOSE was lost): acknowledge it anyway, so the initiator can finish.
 */
static void ack_unknown_close(struct uet_dev *udev, const struct sk_buff *skb,
			      const struct uet_pds_hdr_info *h,
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

	pds_answer(udev, skb, &a, sizeof(struct uet_pds_ack), saddr);
}

/*
 * Target: a control packet of @pdc's outside its PSN sequence, @payload
 * its payload: REQ_CLOSE, or CREDIT (pds_credit.c).
 */
void pdc_send_ctl(struct uet_pds_pdc *pdc, u8 type, u32 payload)
{
	struct uet_pds_hdr_info h = {
		.type = UET_PDS_TYPE_CTRL,
		.next_hdr = type,
		.ctl = {
			.type = type,
			.spdcid = pdc->lpdcid,
			.dst.dpdcid = pdc->rpdcid,
			.payload = payload,
		},
	};
	struct sk_buff *skb;

	if (!tgt_wake(pdc))
		return;
	skb = pds_hdr_skb(&h, sizeof(struct uet_pds_ctl));
	if (!skb)
		return;
	pdc_out(pdc, skb);
}

/*
 * Control packets: CLOSE (target: the initiator is done with the PDC),
 * REQ_CLOSE (initiator: the target asks it to close), REQ_CREDIT
 * (target: the initiator wants credit) and CREDIT (initiator: the target
 * granted it).
 */
static void rcv_ctl(struct uet_dev *udev, const struct sk_buff *skb,
		    const struct uet_pds_hdr_info *h,
		    const struct in6_addr *saddr)
{
	const struct uet_pds_ctl_info *ctl = &h->ctl;
	enum uet_pdc_rx_verdict v;
	struct uet_pds_live *live;
	struct uet_pds_pdc *pdc;
	bool peer;

	if (h->flags & UET_PDS_F_SYN ||
	    (ctl->type != UET_PDS_CTL_CLOSE && ctl->type != UET_PDS_CTL_REQ_CLOSE &&
	     ctl->type != UET_PDS_CTL_CREDIT &&
	     ctl->type != UET_PDS_CTL_REQ_CREDIT)) {
		uet_count(udev, UET_CNT_DROP_UNSUPPORTED, 1);
		return;
	}
	if (ctl->type == UET_PDS_CTL_CREDIT) {
		pds_rcv_credit(udev, skb, ctl, saddr);
		return;
	}
	pdc = pdc_get_by_id(udev, skb, ctl->dst.dpdcid,
			    ctl->type == UET_PDS_CTL_REQ_CLOSE, ctl->spdcid, saddr);
	if (!pdc) {
		if (ctl->type == UET_PDS_CTL_CLOSE)
			ack_unknown_close(udev, skb, h, saddr);
		return;
	}
	if (ctl->type == UET_PDS_CTL_REQ_CREDIT) {
		/* outside the PSN sequence: no ACK; a CREDIT answers it */
		spin_lock(&pdc->lock);
		pdc_credit_want(pdc, ctl->payload, true);
		pdc_unlock(pdc);
		pdc_put(pdc);
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
	live = tgt_wake(pdc);
	if (!live)
		goto out;	/* dead, or a counted drop */
	v = uet_pdc_rx_packet(&live->core, ctl->psn, UET_PDC_RX_AR);
	pdc_count_verdict(udev, v);
	if (v == UET_PDC_RX_DELIVER || v == UET_PDC_RX_DELIVER_OOO ||
	    v == UET_PDC_RX_DUPLICATE) {
		if (uet_pdc_transition(&live->core, UET_PDC_EV_CLOSE_CMD) ==
		    UET_PDC_CLOSED)
			pdc_set_reclaim(pdc);
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
 * @entropy: its entropy, from its UDP source port
 * @ce: it arrived ECN-marked, Congestion Experienced
 */
void uet_pds_rcv(struct uet_dev *udev, struct sk_buff *skb,
		 const struct in6_addr *saddr, u16 entropy, bool ce)
{
	u8 buf[UET_PDS_MAX_HDR_LEN];
	struct uet_pds_hdr_info h;
	unsigned int len = min_t(unsigned int, skb->len, sizeof(buf));
	const u8 *p;
	int hlen;

	p = skb_header_pointer(skb, 0, len, buf);
	/* rate advice: uet's own type, not one of the PDS headers */
	if (p && len >= sizeof(__be16) &&
	    FIELD_GET(UET_PDS_PRLG_TYPE, p[0] << 8 | p[1]) == UET_PDS_TYPE_RA) {
		pds_rcv_ra(udev, skb);
		return;
	}
	hlen = p ? uet_pds_parse(p, len, &h) : -EMSGSIZE;
	/* the header into the linear part: a NIC may hand over paged skbs */
	if (hlen < 0 || !pskb_may_pull(skb, hlen)) {
		uet_count(udev, UET_CNT_DROP_MALFORMED, 1);
		return;
	}

	switch (h.type) {
	case UET_PDS_TYPE_RUD_REQ:
	case UET_PDS_TYPE_ROD_REQ:
	case UET_PDS_TYPE_RUD_CC_REQ:
	case UET_PDS_TYPE_ROD_CC_REQ:
		skb_pull(skb, hlen);
		rcv_request(udev, skb, &h, saddr, entropy, ce);
		break;
	case UET_PDS_TYPE_ACK:
	case UET_PDS_TYPE_ACK_CC:
		pds_rcv_ack(udev, skb, &h, hlen, saddr, ce);
		break;
	case UET_PDS_TYPE_NACK:
		pds_rcv_nack(udev, skb, &h, saddr);
		break;
	case UET_PDS_TYPE_CTRL:
		rcv_ctl(udev, skb, &h, saddr);
		break;
	case UET_PDS_TYPE_UUD_REQ:
		skb_pull(skb, hlen);
		rcv_uud(udev, skb, &h, saddr, ce);
		break;
	case UET_PDS_TYPE_RUDI_REQ:
	case UET_PDS_TYPE_RUDI_RESP:
		skb_pull(skb, hlen);
		uet_rudi_rcv(udev, skb, &h, saddr, ce);
		break;
	default:
		/* ACK_CCX, NACK_CCX: a vendor's congestion control */
		uet_count(udev, UET_CNT_DROP_UNSUPPORTED, 1);
		break;
	}
}
