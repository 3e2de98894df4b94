// SPDX-License-Identifier: GPL-2.0
/*
 * uet PDS: rate advice at the sender (Documentation/rate-advice.rst).  A
 * network element names one of our initiator PDCs by its PDCID and its
 * peer's address and advises a rate; where the PDC takes advice (its
 * job's or else its device's ra-floor-mbps is set), its cap (ra.c)
 * moves towards it and the transmit gate (pds_tx.c) paces the PDC's
 * requests within it.
 *
 * Advice comes unauthenticated, from anyone: it only ever lowers a rate,
 * to the floor at worst, and only a PDC that is sending (has
 * live state) takes it, which it keeps while the cap holds.  Anything
 * else is counted and changes nothing.
 */
#include <linux/hrtimer.h>
#include <linux/ipv6.h>
#include <linux/ktime.h>
#include <linux/minmax.h>
#include <linux/skbuff.h>
#include <net/ipv6.h>

#include "counters.h"
#include "pds_priv.h"
#include "uet.h"

/* The initiator PDC of @udev that advice @info names, referenced; or %NULL. */
static struct uet_pds_pdc *ra_pdc(struct uet_dev *udev,
				  const struct uet_ra_info *info)
{
	struct uet_pds_pdc *pdc;

	rcu_read_lock();
	/* role and key are set before the PDC goes in the table */
	pdc = xa_load(&udev->pds.pdcs, info->spdcid);
	if (pdc && (!pdc->initiator ||
		    !ipv6_addr_equal(&pdc->key.raddr, &info->daddr) ||
		    !refcount_inc_not_zero(&pdc->ref)))
		pdc = NULL;
	rcu_read_unlock();
	return pdc;
}

/**
 * pds_rcv_ra() - a rate advice message, in softirq
 * @udev: the device it arrived on
 * @skb: the message, from its PDS prologue on (type %UET_PDS_TYPE_RA)
 *
 * A malformed one is dropped (drop_malformed); one that parses is counted
 * (ra_received), and then taken (ra_applied) or not (ra_ignored).  A cap
 * raised or lifted lets the PDC send at once.
 */
void pds_rcv_ra(struct uet_dev *udev, const struct sk_buff *skb)
{
	u8 buf[sizeof(struct uet_ra_hdr)];
	struct uet_ra_info info;
	struct uet_pds_live *live;
	struct uet_pds_pdc *pdc;
	const u8 *p = NULL;
	u32 lo, hi, was;
	u64 now;

	if (skb->len == sizeof(buf))
		p = skb_header_pointer(skb, 0, sizeof(buf), buf);
	if (!p || uet_ra_parse(p, sizeof(buf), &info) < 0) {
		uet_count(udev, UET_CNT_DROP_MALFORMED, 1);
		return;
	}
	uet_count(udev, UET_CNT_RA_RECEIVED, 1);
	pdc = ra_pdc(udev, &info);
	if (!pdc) {
		uet_count(udev, UET_CNT_RA_IGNORED, 1);
		return;
	}
	spin_lock(&pdc->lock);
	live = pdc->live;
	/*
	 * only a PDC that sends (a quiet one has nothing to cap) and takes
	 * advice, as its job or device has it
	 */
	if (!live || pdc->dead || !live->ra_floor) {
		uet_count(udev, UET_CNT_RA_IGNORED, 1);
		goto out;
	}
	/* link-mbps is at least 1 (the netlink policy) */
	hi = READ_ONCE(udev->cfg.link_mbps);
	lo = min(live->ra_floor, hi);
	now = ktime_get_ns();
	was = live->ra.cap;
	uet_ra_advise(&live->ra, now, &info, lo, hi);
	live->ra_at = now;
	uet_count(udev, UET_CNT_RA_APPLIED, 1);
	/* what waits for the cap goes now if it rose or went */
	if ((!live->ra.cap || live->ra.cap > was) &&
	    hrtimer_is_queued(&live->pace))
		hrtimer_start(&live->pace, 0, HRTIMER_MODE_REL_SOFT);
out:
	pdc_unlock(pdc);
	pdc_put(pdc);
}

/**
 * pdc_ra_may_send() - whether a PDC's rate cap lets its next request go
 * @pdc: an initiator PDC, locked, with live state
 *
 * A cap whose advice lapsed goes here (ra_expired).
 *
 * Return: true without a cap, or with bytes in hand.
 */
bool pdc_ra_may_send(struct uet_pds_pdc *pdc)
{
	struct uet_ra *ra = &pdc->live->ra;
	u64 now;

	lockdep_assert_held(&pdc->lock);
	if (!ra->cap)
		return true;
	now = ktime_get_ns();
	if (uet_ra_expire(ra, now)) {
		uet_count(pdc->udev, UET_CNT_RA_EXPIRED, 1);
		return true;
	}
	return uet_ra_may_send(ra, now);
}

/**
 * pdc_ra_wait() - a PDC with requests queued: wait for its rate cap
 * @pdc: an initiator PDC, locked, with live state
 *
 * If the cap is what holds it back, its pacing timer sends again once
 * the cap lets it (ra_paced).
 */
void pdc_ra_wait(struct uet_pds_pdc *pdc)
{
	struct uet_pds_live *live = pdc->live;
	u64 ns;

	lockdep_assert_held(&pdc->lock);
	ns = uet_ra_wait_ns(&live->ra);
	if (!ns || pdc->dead || hrtimer_is_queued(&live->pace))
		return;
	hrtimer_start(&live->pace, ns_to_ktime(ns), HRTIMER_MODE_REL_SOFT);
	uet_count(pdc->udev, UET_CNT_RA_PACED, 1);
}

/**
 * pdc_ra_lapse() - let a PDC's cap go if its advice lapsed
 * @pdc: a PDC, locked
 *
 * For the scanner: a cap keeps the live state (pdc_quiet()) until it goes.
 */
void pdc_ra_lapse(struct uet_pds_pdc *pdc)
{
	lockdep_assert_held(&pdc->lock);
	if (pdc->live && !pdc->dead &&
	    uet_ra_expire(&pdc->live->ra, ktime_get_ns()))
		uet_count(pdc->udev, UET_CNT_RA_EXPIRED, 1);
}

/**
 * pdc_ra_read() - a PDC's cap, for a snapshot
 * @pdc: a PDC, locked
 * @info: its snapshot, whose ra_* fields are filled in
 */
void pdc_ra_read(const struct uet_pds_pdc *pdc, struct uet_pdc_info *info)
{
	const struct uet_pds_live *live = pdc->live;

	lockdep_assert_held(&pdc->lock);
	if (!live || pdc->dead || !live->ra.cap)
		return;
	info->ra_cap_mbps = live->ra.cap;
	info->ra_advised_mbps = live->ra.advised;
	info->ra_age_ms = min_t(u64, div_u64(ktime_get_ns() - live->ra_at,
					     NSEC_PER_MSEC), U32_MAX);
}
