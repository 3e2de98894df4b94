// SPDX-License-Identifier: GPL-2.0
/*
 * uet PDS: congestion contexts.  NSCC's window belongs to the path, not
 * to one PDC: the initiator PDCs that go to one peer in one traffic class
 * with the same NSCC parameters share one context (the congestion control
 * context of UEC 1.0 section 3.6, per destination and traffic class),
 * whose window every one of their ACKs, trims and timeouts moves.
 *
 * Each PDC sends within its share of the window: the window divided among
 * the PDCs with requests in flight in it, counting the asking PDC, and at
 * least one request (struct uet_nscc's @mss).  A PDC is clocked by its own
 * ACKs, as alone: one with nothing in flight may always send, so no PDC
 * waits on another's ACKs, and when the window is cut each sends less
 * from its next ACK on.  The context's @in_flight is the sum of theirs.
 *
 * RUDI's requests to a peer, for a job, share its context in the same
 * way, as one more sender beside the PDCs (rudi.c).
 *
 * A context lives as long as a PDC's live state or a RUDI path refers to
 * it: there are never more of them than those.  The device finds them in
 * a small hash table by peer and class, and among those by their
 * parameters.
 */
#include <linux/jhash.h>
#include <linux/slab.h>

#include "counters.h"
#include "job.h"
#include "pds_priv.h"
#include "uet.h"

/*
 * The base RTT NSCC assumes until it measures one: it sizes the first
 * window only (1.5 BDP, 187,500 bytes at 10 Gb/s), and the first ACK
 * replaces it.  A round trip through two software stacks on a LAN.
 */
#define UET_PDS_CC_BASE_RTT_NS	(100 * NSEC_PER_USEC)

/**
 * pds_cc_wanted() - the congestion control of a key's traffic now
 * @udev: the device
 * @key: its @cc: its job's, or %UET_PDS_CC_DEVICE for the device's
 *
 * Return: enum uet_cc.
 */
u8 pds_cc_wanted(struct uet_dev *udev, const struct uet_pds_key *key)
{
	return key->cc == UET_PDS_CC_DEVICE ? READ_ONCE(udev->cfg.cc) :
					      key->cc - 1;
}

/* Count in the device what a window did, as it counts it: cuts, adapts. */
void pds_cc_count(struct uet_dev *udev, enum uet_nscc_event ev)
{
	if (uet_nscc_cut(ev))
		uet_count(udev, UET_CNT_CC_DECREASES, 1);
	else if (ev == UET_NSCC_QUICK_ADAPT)
		uet_count(udev, UET_CNT_CC_QUICK_ADAPTS, 1);
}

/* Two configurations of NSCC that make the same window. */
static bool ccx_cfg_same(const struct uet_nscc_cfg *a,
			 const struct uet_nscc_cfg *b)
{
	const struct uet_nscc_gains *ga = a->gains, *gb = b->gains;

	return a->mss == b->mss && a->hdr == b->hdr && a->rate == b->rate &&
	       a->base_rtt == b->base_rtt && a->base_fixed == b->base_fixed &&
	       a->bdp == b->bdp && a->target == b->target &&
	       ga->fi == gb->fi && ga->alpha == gb->alpha &&
	       ga->eta == gb->eta && ga->md == gb->md &&
	       ga->ignore == gb->ignore;
}

static u32 ccx_hash(const struct in6_addr *raddr, u8 tc)
{
	return jhash(raddr, sizeof(*raddr), tc);
}

/**
 * pds_ccx_get() - the congestion context of a path, made if there is none
 * @pds: the device's PDS
 * @raddr: the peer
 * @tc: the traffic class
 * @cfg: NSCC's configuration; its @gains must be set
 *
 * Context: any; takes the device's @ccx_lock.
 * Return: the context, referenced, or %NULL if memory is short.
 */
struct uet_pds_ccx *pds_ccx_get(struct uet_pds *pds,
				const struct in6_addr *raddr, u8 tc,
				const struct uet_nscc_cfg *cfg)
{
	u32 h = ccx_hash(raddr, tc);
	struct uet_pds_ccx *ccx;

	spin_lock_bh(&pds->ccx_lock);
	hash_for_each_possible(pds->ccxs, ccx, node, h)
		if (ipv6_addr_equal(&ccx->raddr, raddr) && ccx->tc == tc &&
		    ccx_cfg_same(&ccx->cfg, cfg)) {
			ccx->ref++;
			goto out;
		}
	ccx = kzalloc(sizeof(*ccx), GFP_ATOMIC | __GFP_NOWARN);
	if (!ccx)
		goto out;
	ccx->raddr = *raddr;
	ccx->tc = tc;
	ccx->gains = *cfg->gains;
	ccx->cfg = *cfg;
	ccx->cfg.gains = &ccx->gains;
	ccx->ref = 1;
	ccx->id = ++pds->ccx_ids;
	spin_lock_init(&ccx->lock);
	uet_nscc_init(&ccx->cc, &ccx->cfg);
	hash_add(pds->ccxs, &ccx->node, h);
out:
	spin_unlock_bh(&pds->ccx_lock);
	return ccx;
}

/**
 * pds_ccx_of() - the congestion context of a key's path, as its job or
 *	else its device sets NSCC's parameters (each on its own)
 * @udev: the device
 * @key: the peer, the traffic class and the job
 *
 * The MSS is the one set, or else a packet of the netdev's MTU; the base
 * RTT the one set, or else 100 us until the first is measured.
 *
 * Return: the context, referenced, or %NULL if memory is short.
 */
struct uet_pds_ccx *pds_ccx_of(struct uet_dev *udev,
			       const struct uet_pds_key *key)
{
	u32 p[UET_NSCC_NUM_PARAMS];
	struct uet_nscc_gains gains;
	struct uet_nscc_cfg cfg;

	uet_job_nscc(udev, key->job, p);
	gains = (struct uet_nscc_gains) {
		.fi = p[UET_NSCC_P_FI],
		.alpha = p[UET_NSCC_P_ALPHA],
		.eta = p[UET_NSCC_P_ETA],
		.md = p[UET_NSCC_P_MD],
		.ignore = p[UET_NSCC_P_IGNORE],
	};
	cfg = (struct uet_nscc_cfg) {
		.mss = p[UET_NSCC_P_MTU] ?: READ_ONCE(udev->ndev->mtu),
		.hdr = ipv6_addr_v4mapped(&key->raddr) ? UET_NSCC_HDR_IPV4 :
							 UET_NSCC_HDR_IPV6,
		.rate = (u64)READ_ONCE(udev->cfg.link_mbps) *
			(USEC_PER_SEC / BITS_PER_BYTE),
		.base_rtt = p[UET_NSCC_P_BASE_RTT_US] ?
			    p[UET_NSCC_P_BASE_RTT_US] * NSEC_PER_USEC :
			    UET_PDS_CC_BASE_RTT_NS,
		.base_fixed = p[UET_NSCC_P_BASE_RTT_US],
		.bdp = p[UET_NSCC_P_BDP],
		.target = p[UET_NSCC_P_TARGET_US] * NSEC_PER_USEC,
		.gains = &gains,
	};
	return pds_ccx_get(&udev->pds, &key->raddr, key->tc, &cfg);
}

/* @gone of a sender's @own bytes left the window: none left, it rests. */
static void ccx_own_less(struct uet_pds_ccx *ccx, u32 *own, u32 gone)
{
	lockdep_assert_held(&ccx->lock);
	*own -= gone;
	if (gone && !*own)
		ccx->sending--;
}

/**
 * pds_ccx_put() - a sender (a PDC, a RUDI path) lets go of its context
 * @pds: the device's PDS
 * @ccx: the context
 * @own: the bytes the PDC still has in flight in it, which leave it
 *
 * The last sender's going frees the context.  Context: any.
 */
void pds_ccx_put(struct uet_pds *pds, struct uet_pds_ccx *ccx, u32 own)
{
	bool last;

	spin_lock_bh(&ccx->lock);
	if (own) {
		ccx->cc.in_flight -= min(own, ccx->cc.in_flight);
		ccx->sending--;
	}
	spin_unlock_bh(&ccx->lock);

	spin_lock_bh(&pds->ccx_lock);
	last = !--ccx->ref;
	if (last)
		hash_del(&ccx->node);
	spin_unlock_bh(&pds->ccx_lock);
	if (last)
		kfree(ccx);
}

/**
 * pds_ccx_may_send() - a sender's share of the window has room
 * @ccx: its context
 * @own: the bytes it has in flight in it
 *
 * Return: true if it may send a request.
 */
bool pds_ccx_may_send(struct uet_pds_ccx *ccx, u32 own)
{
	bool room;

	spin_lock(&ccx->lock);
	room = own < uet_nscc_share(&ccx->cc, ccx->sending, own);
	spin_unlock(&ccx->lock);
	return room;
}

/**
 * pds_ccx_cap() - the most RCCC may ask for beside NSCC
 * @ccx: a PDC's context (RCCC is a PDC's)
 * @own: the bytes it has in flight in it
 *
 * Return: its share of the window and a request more, bytes.
 */
u32 pds_ccx_cap(struct uet_pds_ccx *ccx, u32 own)
{
	u32 cap;

	spin_lock(&ccx->lock);
	cap = uet_nscc_share(&ccx->cc, ccx->sending, own) + ccx->cc.mss;
	spin_unlock(&ccx->lock);
	return cap;
}

/**
 * pds_ccx_sent() - a sender sent a request of @bytes (uet_nscc_bytes())
 * @ccx: its context
 * @own: the bytes it has in flight in it, updated
 * @bytes: what the request counts for
 */
void pds_ccx_sent(struct uet_pds_ccx *ccx, u32 *own, u32 bytes)
{
	spin_lock(&ccx->lock);
	if (!*own && bytes)
		ccx->sending++;
	*own += bytes;
	uet_nscc_sent(&ccx->cc, bytes);
	spin_unlock(&ccx->lock);
}

/**
 * pds_ccx_ack() - an ACK (a RUDI response) of a sender's requests
 * @ccx: its context
 * @own: the bytes the PDC has in flight in it, updated
 * @ack: what it acknowledged, its RTT and echo (uet_nscc_ack())
 * @now: ns
 *
 * Return: what it did to the window, enum uet_nscc_event.
 */
enum uet_nscc_event pds_ccx_ack(struct uet_pds_ccx *ccx, u32 *own,
				const struct uet_nscc_ack *ack, u64 now)
{
	enum uet_nscc_event ev;
	u32 gone = min(ack->bytes, *own);
	struct uet_nscc_ack a = *ack;

	/* what it acknowledged of another's is not this sender's to take off */
	a.bytes = gone;
	spin_lock(&ccx->lock);
	ev = uet_nscc_ack(&ccx->cc, &a, now);
	ccx_own_less(ccx, own, gone);
	spin_unlock(&ccx->lock);
	return ev;
}

/**
 * pds_ccx_trim() - a sender's request came back trimmed (uet_nscc_trim())
 * @ccx: its context
 * @bytes: what the request counts for
 * @now: ns
 *
 * Return: what it did to the window.
 */
enum uet_nscc_event pds_ccx_trim(struct uet_pds_ccx *ccx, u32 bytes, u64 now)
{
	enum uet_nscc_event ev;

	spin_lock(&ccx->lock);
	ev = uet_nscc_trim(&ccx->cc, bytes, 0, now);
	spin_unlock(&ccx->lock);
	return ev;
}

/**
 * pds_ccx_timeout() - a sender's request timed out (uet_nscc_timeout())
 * @ccx: its context
 * @bytes: what the request counts for
 *
 * Return: what it did to the window.
 */
enum uet_nscc_event pds_ccx_timeout(struct uet_pds_ccx *ccx, u32 bytes)
{
	enum uet_nscc_event ev;

	spin_lock(&ccx->lock);
	ev = uet_nscc_timeout(&ccx->cc, bytes);
	spin_unlock(&ccx->lock);
	return ev;
}

/**
 * pds_ccx_forget() - requests leave a sender's window unanswered
 * @ccx: its context
 * @own: the bytes it has in flight in it, updated
 * @bytes: what they counted for
 *
 * Requests given up or cancelled: no longer in flight, and no sign of
 * the path either way, so the window does not move.
 */
void pds_ccx_forget(struct uet_pds_ccx *ccx, u32 *own, u32 bytes)
{
	u32 gone = min(bytes, *own);

	spin_lock(&ccx->lock);
	ccx->cc.in_flight -= min(gone, ccx->cc.in_flight);
	ccx_own_less(ccx, own, gone);
	spin_unlock(&ccx->lock);
}

/**
 * pds_ccx_credit() - RCCC: a round trip measured; the credit to hold
 * @ccx: the PDC's context
 * @rtt: ns, the round trip measured, for the base RTT (without NSCC the
 *	round trips size the ceiling alone); 0 for none
 * @srtt: ns, the PDC's smoothed round trip; 0 before the first
 *
 * Return: the most credit the PDC holds (uet_rccc_span()), bytes.
 */
u32 pds_ccx_credit(struct uet_pds_ccx *ccx, u32 rtt, u64 srtt)
{
	u32 span;

	spin_lock(&ccx->lock);
	uet_nscc_base(&ccx->cc, rtt);
	span = uet_rccc_span(ccx->cc.maxwnd, ccx->cc.base_rtt, srtt);
	spin_unlock(&ccx->lock);
	return span;
}

/**
 * pds_ccx_read() - the window as it stands, for uetctl
 * @pds: the device's PDS
 * @ccx: a context
 * @cc: filled in
 * @pdcs: filled in: how many senders share it, PDCs and RUDI paths
 */
void pds_ccx_read(struct uet_pds *pds, struct uet_pds_ccx *ccx,
		  struct uet_nscc *cc, u32 *pdcs)
{
	spin_lock_bh(&ccx->lock);
	*cc = ccx->cc;
	spin_unlock_bh(&ccx->lock);
	spin_lock_bh(&pds->ccx_lock);
	*pdcs = ccx->ref;
	spin_unlock_bh(&pds->ccx_lock);
}
