// SPDX-License-Identifier: GPL-2.0
/*
 * uet RUDI: reliable, unordered delivery for idempotent operations (RMA
 * writes without immediate data, reads), without a PDC.  Each request
 * carries a packet ID of its device's; the target carries it out and
 * answers with a RUDI response of the same ID, which carries the SES
 * response (a read's data with it).  The initiator resends a request whose
 * response does not come, with a doubling timeout, and gives up after
 * UET_RUDI_MAX_TRIES sends.  The target keeps no state: a resent request
 * is carried out again, which idempotent operations allow.
 *
 * Locking: the device's table of outstanding requests (struct uet_rudi)
 * has its own lock, taken with bottom halves disabled outside softirq; the
 * SES layer is called with it released.  A request's timer holds no
 * reference: whoever takes a request out of the table cancels its timer
 * before freeing it, and the timer does nothing for a request no longer in
 * the table.
 */
#include <linux/hrtimer.h>
#include <linux/random.h>
#include <linux/slab.h>
#include <net/ipv6.h>

#include "counters.h"
#include "pds.h"
#include "ses.h"
#include "socket.h"
#include "uet.h"
#include "wire.h"

/* Sends of one request before it fails with -ETIMEDOUT. */
#define UET_RUDI_MAX_TRIES	8

/**
 * struct uet_rudi_req - a request waiting for its response
 * @node: in the table, by @pkt_id.
 * @udev: the device.
 * @skb: the request, from its SES header on; resent from this.
 * @dst: the target.
 * @pkt_id: the packet ID.
 * @entropy: its UDP source port entropy.
 * @tries: sends so far.
 * @rto: the current timeout, ns.
 * @timer: the retransmission timer.
 */
struct uet_rudi_req {
	struct hlist_node node;
	struct uet_dev *udev;
	struct sk_buff *skb;
	struct in6_addr dst;
	u32 pkt_id;
	u16 entropy;
	u8 tries;
	u64 rto;
	struct hrtimer timer;
};

static void rudi_xmit(struct uet_rudi_req *r)
{
	struct uet_pds_hdr_info h = {
		.type = UET_PDS_TYPE_RUDI_REQ,
		.next_hdr = uet_pds_cb(r->skb)->next_hdr,
		.flags = r->tries ? UET_PDS_F_RETX : 0,
		.rudi_pkt_id = r->pkt_id,
	};
	struct sk_buff *copy;

	copy = skb_copy(r->skb, GFP_ATOMIC);
	if (!copy)
		return;		/* as if lost */
	if (WARN_ON_ONCE(uet_pds_build(skb_push(copy, sizeof(struct uet_pds_rudi)),
				       sizeof(struct uet_pds_rudi), &h) < 0)) {
		kfree_skb(copy);
		return;
	}
	if (r->tries++)
		uet_count(r->udev, UET_CNT_RETRANSMITS, 1);
	uet_xmit(r->udev, copy, &r->dst, r->entropy, NULL);
}

/* Out of the table: the caller owns @r.  %NULL if it was gone already. */
static struct uet_rudi_req *rudi_take(struct uet_rudi *t, u32 pkt_id,
				      const struct in6_addr *peer)
{
	struct uet_rudi_req *r;

	lockdep_assert_held(&t->lock);
	hash_for_each_possible(t->reqs, r, node, pkt_id)
		if (r->pkt_id == pkt_id && (!peer || ipv6_addr_equal(&r->dst, peer))) {
			hash_del(&r->node);
			return r;
		}
	return NULL;
}

/*
 * The SES layer learns the fate of @r, under the table's lock: as
 * uet_rudi_walk_reqs() visits under it too, a closing endpoint has either
 * forgotten the request by now or waits until this is done.
 */
static void rudi_done(struct uet_rudi *t, struct uet_rudi_req *r, int err)
{
	lockdep_assert_held(&t->lock);
	uet_ses_tx_done(uet_pds_cb(r->skb)->ses, 1, err);
}

/* Free a request taken out of the table, once its timer is stopped. */
static void rudi_free(struct uet_rudi_req *r)
{
	hrtimer_cancel(&r->timer);
	kfree_skb(r->skb);
	kfree(r);
}

static enum hrtimer_restart rudi_expired(struct hrtimer *timer)
{
	struct uet_rudi_req *r = container_of(timer, struct uet_rudi_req, timer);
	struct uet_rudi *t = &r->udev->rudi;
	bool give_up;

	spin_lock(&t->lock);
	if (hash_hashed(&r->node) && t->live) {
		uet_count(r->udev, UET_CNT_TIMEOUTS, 1);
		give_up = r->tries >= UET_RUDI_MAX_TRIES;
		if (give_up) {
			rudi_done(t, r, -ETIMEDOUT);
			hash_del(&r->node);
		} else {
			rudi_xmit(r);
			r->rto = min(r->rto * 2,
				     (u64)READ_ONCE(r->udev->cfg.rto_max_us) *
				     NSEC_PER_USEC);
			hrtimer_forward_now(timer, ns_to_ktime(r->rto));
		}
		spin_unlock(&t->lock);
		if (!give_up)
			return HRTIMER_RESTART;
		/* the request is ours now; its timer is this very call */
		kfree_skb(r->skb);
		kfree(r);
		return HRTIMER_NORESTART;
	}
	spin_unlock(&t->lock);
	return HRTIMER_NORESTART;
}

/**
 * uet_rudi_send() - send one request in RUDI mode
 * @udev: the device
 * @dst: the target
 * @skb: SES header and payload, %UET_PDS_HEADROOM before it, uet_pds_cb()
 *	filled in; consumed
 *
 * Its fate reaches the SES layer through uet_ses_tx_done().
 */
void uet_rudi_send(struct uet_dev *udev, const struct in6_addr *dst,
		   struct sk_buff *skb)
{
	struct uet_rudi *t = &udev->rudi;
	struct uet_rudi_req *r;

	r = kzalloc(sizeof(*r), GFP_KERNEL_ACCOUNT);
	if (!r) {
		uet_ses_tx_done(uet_pds_cb(skb)->ses, 1, -ENOMEM);
		kfree_skb(skb);
		return;
	}
	r->udev = udev;
	r->skb = skb;
	r->dst = *dst;
	r->entropy = get_random_u16();
	r->rto = (u64)READ_ONCE(udev->cfg.rto_initial_us) * NSEC_PER_USEC;
	hrtimer_init(&r->timer, CLOCK_MONOTONIC, HRTIMER_MODE_REL_SOFT);
	r->timer.function = rudi_expired;

	spin_lock_bh(&t->lock);
	if (!t->live) {
		spin_unlock_bh(&t->lock);
		uet_ses_tx_done(uet_pds_cb(skb)->ses, 1, -ENETDOWN);
		kfree_skb(skb);
		kfree(r);
		return;
	}
	r->pkt_id = t->next_id++;
	hash_add(t->reqs, &r->node, r->pkt_id);
	rudi_xmit(r);
	hrtimer_start(&r->timer, ns_to_ktime(r->rto), HRTIMER_MODE_REL_SOFT);
	spin_unlock_bh(&t->lock);
}

/* Target: answer request @pkt_id with @skb, an SES response. */
static void rudi_respond(struct uet_dev *udev, struct sk_buff *skb, u8 next_hdr,
			 u32 pkt_id, const struct in6_addr *peer)
{
	struct uet_pds_hdr_info h = {
		.type = UET_PDS_TYPE_RUDI_RESP,
		.next_hdr = next_hdr,
		.rudi_pkt_id = pkt_id,
	};

	if (WARN_ON_ONCE(uet_pds_build(skb_push(skb, sizeof(struct uet_pds_rudi)),
				       sizeof(struct uet_pds_rudi), &h) < 0)) {
		kfree_skb(skb);
		return;
	}
	uet_xmit(udev, skb, peer, get_random_u16(), NULL);
}

static void rcv_rudi_req(struct uet_dev *udev, struct sk_buff *skb,
			 const struct uet_pds_hdr_info *h,
			 const struct in6_addr *saddr)
{
	struct uet_ses_answer ans = {};
	struct sk_buff *rsp;
	u8 rc;

	rc = uet_ses_rcv_rudi(udev, skb, h->next_hdr, saddr, &ans);
	if (ans.data) {
		rudi_respond(udev, ans.data, UET_SES_NH_RSP_DATA, h->rudi_pkt_id,
			     saddr);
		return;
	}
	rsp = uet_ses_response(udev, rc, ans.msg_id, ans.job);
	if (rsp)
		rudi_respond(udev, rsp, UET_SES_NH_RSP, h->rudi_pkt_id, saddr);
}

static void rcv_rudi_resp(struct uet_dev *udev, struct sk_buff *skb,
			  const struct uet_pds_hdr_info *h,
			  const struct in6_addr *saddr)
{
	struct uet_rudi *t = &udev->rudi;
	u8 buf[sizeof(struct uet_ses_rsp_data)];
	struct uet_ses_hdr_info ses;
	struct uet_rudi_req *r;
	struct uet_pds_cb *cb;
	unsigned int slen;
	const u8 *p;
	int err = 0;

	slen = h->next_hdr == UET_SES_NH_RSP_DATA ? sizeof(struct uet_ses_rsp_data) :
						     sizeof(struct uet_ses_rsp);
	p = skb_header_pointer(skb, 0, slen, buf);
	if ((h->next_hdr != UET_SES_NH_RSP && h->next_hdr != UET_SES_NH_RSP_DATA) ||
	    !p || uet_ses_parse(p, slen, h->next_hdr, &ses) < 0) {
		uet_count(udev, UET_CNT_DROP_MALFORMED, 1);
		return;
	}
	spin_lock(&t->lock);
	r = rudi_take(t, h->rudi_pkt_id, saddr);
	if (r) {
		cb = uet_pds_cb(r->skb);
		if (ses.rsp.rc != UET_SES_RC_OK)
			uet_ses_tx_refused(cb->ses, ses.rsp.rc);
		else if (h->next_hdr == UET_SES_NH_RSP_DATA &&
			 !uet_ses_read_data(cb->ses, cb->rd_off, cb->rd_len,
					    skb, slen, ses.rsp.payload_length,
					    ses.rsp.message_offset))
			err = -EPROTO;
		rudi_done(t, r, err);
	}
	spin_unlock(&t->lock);
	if (!r) {
		uet_count(udev, UET_CNT_DUPLICATES, 1);	/* answered already */
		return;
	}
	rudi_free(r);
}

/**
 * uet_rudi_rcv() - a RUDI request or response, in softirq
 * @udev: the device it arrived on
 * @skb: the packet after its PDS header; the caller frees it
 * @h: the PDS header
 * @saddr: its source address
 */
void uet_rudi_rcv(struct uet_dev *udev, struct sk_buff *skb,
		  const struct uet_pds_hdr_info *h, const struct in6_addr *saddr)
{
	if (h->type == UET_PDS_TYPE_RUDI_REQ)
		rcv_rudi_req(udev, skb, h, saddr);
	else
		rcv_rudi_resp(udev, skb, h, saddr);
}

/**
 * uet_rudi_walk_reqs() - visit every outstanding RUDI request
 * @udev: the device
 * @fn: called under the table's lock for each request skb
 * @arg: passed to @fn
 */
void uet_rudi_walk_reqs(struct uet_dev *udev, uet_pds_req_fn fn, void *arg)
{
	struct uet_rudi *t = &udev->rudi;
	struct uet_rudi_req *r;
	int bkt;

	spin_lock_bh(&t->lock);
	hash_for_each(t->reqs, bkt, r, node)
		fn(r->skb, arg);
	spin_unlock_bh(&t->lock);
}

void uet_rudi_init(struct uet_dev *udev)
{
	spin_lock_init(&udev->rudi.lock);
	hash_init(udev->rudi.reqs);
	udev->rudi.next_id = get_random_u32();
	udev->rudi.live = true;
}

/* Fail every outstanding request: the device goes away. */
void uet_rudi_fini(struct uet_dev *udev)
{
	struct uet_rudi *t = &udev->rudi;
	struct uet_rudi_req *r;
	struct hlist_node *tmp;
	HLIST_HEAD(gone);
	int bkt;

	spin_lock_bh(&t->lock);
	t->live = false;
	hash_for_each_safe(t->reqs, bkt, tmp, r, node) {
		rudi_done(t, r, -ENETDOWN);
		hash_del(&r->node);
		hlist_add_head(&r->node, &gone);
	}
	spin_unlock_bh(&t->lock);
	hlist_for_each_entry_safe(r, tmp, &gone, node)
		rudi_free(r);
}
