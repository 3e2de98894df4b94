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
 * A context lives as long as a PDC's live state refers to it: there are
 * never more of them than PDCs.  The device finds them in a small hash
 * table by peer and class, and among those by their parameters.
 */
#include <linux/jhash.h>
#include <linux/slab.h>

#include "pds_priv.h"
#include "uet.h"

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
 * pds_ccx_put() - a PDC lets go of its congestion context
 * @pds: the device's PDS
 * @ccx: the context
 * @own: the bytes the PDC still has in flight in it, which leave it
 *
 * The last PDC's going frees the context.  Context: any.
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
 * pds_ccx_may_send() - a PDC's share of the window has room
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
 * @ccx: a PDC's context
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
 * pds_ccx_sent() - a PDC sent a request of @bytes (uet_nscc_bytes())
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
 * pds_ccx_ack() - an ACK of a PDC's requests
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

	/* what it acknowledged of another's is not this PDC's to take off */
	a.bytes = gone;
	spin_lock(&ccx->lock);
	ev = uet_nscc_ack(&ccx->cc, &a, now);
	*own -= gone;
	if (gone && !*own)
		ccx->sending--;
	spin_unlock(&ccx->lock);
	return ev;
}

/**
 * pds_ccx_trim() - a PDC's request came back trimmed (uet_nscc_trim())
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
 * pds_ccx_timeout() - a PDC's request timed out (uet_nscc_timeout())
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
 * @pdcs: filled in: how many PDCs share it
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
