// SPDX-License-Identifier: GPL-2.0
/*
 * NSCC: the window of one congestion context (nscc.h).
 *
 * Each ACK brings the bytes it acknowledged, the RTT of the request that
 * asked for it and whether that request arrived marked.  The delay is the
 * RTT less the base RTT (the shortest seen).  Against the target delay T
 * and the ECN echo the ACK falls in one of four quadrants (uet-htsim's
 * updateCwndOnAck_NSCC()):
 *
 *	no ECN, delay >= T: fair increase, a fixed amount a round trip;
 *	no ECN, delay <  T: proportional increase, more the further below T
 *			    (fast increase instead after a window's worth of
 *			    ACKs without delay);
 *	ECN,    delay >= T: multiplicative decrease by how far the average
 *			    delay is above T, at most once a base RTT;
 *	ECN,    delay <  T: nothing: the queue is not on this path's
 *			    account (multipath moves away from it).
 *
 * Quick adapt, checked first, sets the window to what the last period
 * (base RTT + T) achieved when that was small and the signs were bad.
 * Increases gather and are applied once 8 MSS were acknowledged or a base
 * RTT passed.  The gains scale with the path's BDP against uet-htsim's
 * reference path (12 us at 100 Gb/s), so that a path converges in the
 * same number of round trips whatever its size.
 */
#include <linux/bits.h>
#include <linux/limits.h>
#include <linux/math64.h>
#include <linux/minmax.h>

#include "nscc.h"

#define NSCC_NS_PER_SEC		1000000000ULL

/* uet-htsim's reference path: 12 us at 100 Gb/s, a BDP of 150,000 bytes */
#define NSCC_REF_RTT_NS		12000
#define NSCC_REF_BDP		150000
#define NSCC_SCALE_SHIFT	16	/* struct uet_nscc's @scale is Q16 */

/*
 * The gains of struct uet_nscc_gains are in hundredths of an MSS, or
 * percent; uet-htsim's (initNsccParams()) are its defaults: fair increase
 * 5 MSS a round trip, proportional 4 MSS per 12 us below T, eta 0.15 MSS
 * once a base RTT, multiplicative decrease by 0.8 (avg - T) / avg.
 */
#define NSCC_PCT		100
#define NSCC_FAST_SHIFT		2	/* fast increase: a/4 per byte acked */

/* The multiplicative decrease cuts at most by half */
#define NSCC_MD_SHIFT		24	/* the cut's fraction in Q24 */

/* The average delay moves by 1/80 (0.0125) of each sample */
#define NSCC_AVG_DEN		80

/* Fast increase while delays stay below 1 us (uet-htsim fast_increase()) */
#define NSCC_FAST_DELAY_NS	1000

/* Quick adapt when the period achieved below maxwnd / 8 ... */
#define NSCC_QA_GATE_SHIFT	3
/* ... and the delay exceeded four times the target */
#define NSCC_QA_DELAY_MULT	4

/* Increases are applied once this many MSS were acknowledged */
#define NSCC_ADJUST_MSS		8

/* The window's ceiling, 1.5 BDP; the target, 0.75 base RTT */
#define NSCC_MAXWND_NUM		3
#define NSCC_MAXWND_DEN		2
#define NSCC_TARGET_NUM		3
#define NSCC_TARGET_DEN		4

/* The BDP and the gains of the base RTT in use. */
static void nscc_scale(struct uet_nscc *cc)
{
	/* a rate of bytes/s in kB/s, a time in ns in ms: no overflow */
	u64 bdp = cc->bdp_cfg ?: div_u64(div_u64(cc->rate, 1000) * cc->base_rtt,
					 NSCC_NS_PER_SEC / 1000);
	u64 scale, mss_scaled;

	bdp = clamp_t(u64, bdp, cc->mss, U32_MAX / NSCC_MAXWND_NUM);
	cc->bdp = bdp;
	cc->maxwnd = bdp * NSCC_MAXWND_NUM / NSCC_MAXWND_DEN;
	scale = div_u64(bdp << NSCC_SCALE_SHIFT, NSCC_REF_BDP);
	cc->scale = min_t(u64, scale, U32_MAX);
	mss_scaled = ((u64)cc->mss * cc->scale) >> NSCC_SCALE_SHIFT;
	cc->fi = min_t(u64, div_u64(cc->gains.fi * mss_scaled, NSCC_PCT),
		       U32_MAX);
	cc->alpha = min_t(u64, div_u64(cc->gains.alpha * mss_scaled, NSCC_PCT),
			  U32_MAX);
	cc->eta = min_t(u64, div_u64(cc->gains.eta * mss_scaled, NSCC_PCT),
			U32_MAX);
	cc->target = cc->target_cfg ?:
		(u64)cc->base_rtt * NSCC_TARGET_NUM / NSCC_TARGET_DEN;
}

static void nscc_bound(struct uet_nscc *cc)
{
	cc->cwnd = clamp(cc->cwnd, cc->mss, cc->maxwnd);
}

/*
 * Count @bytes acknowledged or trimmed after a quick adapt, up to the
 * bytes then in flight: their echoes are old news until then.
 */
static void nscc_ignore(struct uet_nscc *cc, u32 bytes)
{
	cc->ignored += min(bytes, cc->to_ignore - cc->ignored);
}

/**
 * uet_nscc_init() - a congestion context, its window at the ceiling
 * @cc: the context
 * @cfg: the path: MSS, link rate, base RTT, BDP, target delay; the gains
 *
 * The window starts at 1.5 BDP of the configured base RTT, as uet-htsim's
 * senders start, and the first ACKs correct it.  Gains above their bounds
 * (struct uet_nscc_gains) are taken at them.
 */
void uet_nscc_init(struct uet_nscc *cc, const struct uet_nscc_cfg *cfg)
{
	struct uet_nscc_gains g = cfg->gains ? *cfg->gains :
					       UET_NSCC_GAINS_DEFAULT;

	*cc = (struct uet_nscc) {
		.mss = max_t(u32, cfg->mss, 1),
		.hdr = cfg->hdr,
		.rate = cfg->rate,
		.target_cfg = cfg->target,
		.bdp_cfg = cfg->bdp,
		.gains = {
			.fi = min_t(u16, g.fi, UET_NSCC_GAIN_MAX),
			.alpha = min_t(u16, g.alpha, UET_NSCC_GAIN_MAX),
			.eta = min_t(u16, g.eta, UET_NSCC_GAIN_MAX),
			.md = min_t(u8, g.md, NSCC_PCT),
			.ignore = min_t(u8, g.ignore, NSCC_PCT),
		},
		.base_fixed = cfg->base_fixed,
		.measured = cfg->base_fixed,
		.base_rtt = max_t(u32, cfg->base_rtt, 1),
	};
	nscc_scale(cc);
	cc->cwnd = cc->maxwnd;
}

/**
 * uet_nscc_base() - a round trip measured, for the base RTT alone
 * @cc: the context
 * @rtt: the round trip, ns; 0: none
 *
 * The first round trip measured, then any shorter than those before, is
 * the new base, which sizes the BDP and the ceiling; a fixed base stays.
 * uet_nscc_ack() does this with every sample; RCCC without NSCC needs the
 * ceiling alone.
 */
void uet_nscc_base(struct uet_nscc *cc, u32 rtt)
{
	if (rtt && !cc->base_fixed && (rtt < cc->base_rtt || !cc->measured)) {
		cc->base_rtt = rtt;
		cc->measured = true;
		nscc_scale(cc);
		nscc_bound(cc);
	}
}

/*
 * The average delay takes in @delay, but for a high delay that came
 * without a mark, which counts as a quarter of the base RTT: delay alone,
 * without the queue's mark, is not taken for congestion (uet-htsim
 * update_delay()).
 */
static void nscc_avg(struct uet_nscc *cc, u32 delay, bool ecn)
{
	u64 x = !ecn && delay > cc->target ? cc->base_rtt / 4 : delay;

	cc->avg_delay = div_u64((u64)cc->avg_delay * (NSCC_AVG_DEN - 1) + x,
				NSCC_AVG_DEN);
}

/*
 * Quick adapt (uet-htsim quick_adapt()): while the ECN echoes of what was
 * in flight at the last one (the share the ignore gain gives) still come
 * in, they are ignored.  At the end
 * of each period of a base RTT and T, if that period's signs were bad (a
 * trim, or a delay above 4 T) and it achieved less than maxwnd / 8, the
 * window becomes what it achieved.
 */
static bool nscc_quick_adapt(struct uet_nscc *cc, bool loss, bool ecn,
			     u32 delay, u64 now, enum uet_nscc_event *ev)
{
	bool fire;

	if (cc->ignored < cc->to_ignore && ecn) {
		*ev = UET_NSCC_IGNORED;
		goto applied;
	}
	if (now <= cc->qa_end)
		return false;
	fire = cc->qa_end &&
	       (cc->trigger_qa || loss ||
		delay > (u64)cc->target * NSCC_QA_DELAY_MULT) &&
	       cc->achieved < cc->maxwnd >> NSCC_QA_GATE_SHIFT;
	if (fire) {
		cc->cwnd = max(cc->achieved, cc->mss);
		cc->to_ignore = div_u64((u64)cc->in_flight * cc->gains.ignore,
					NSCC_PCT);
		cc->ignored = 0;
		cc->trigger_qa = false;
	}
	cc->achieved = 0;
	cc->qa_end = now + cc->base_rtt + cc->target;
	if (!fire)
		return false;
	*ev = UET_NSCC_QUICK_ADAPT;
applied:
	cc->inc = 0;
	cc->received = 0;
	return true;
}

/*
 * Fast increase (uet-htsim fast_increase()): once a window's worth of
 * bytes came back without delay, the window grows by a quarter of the
 * scale for each byte acknowledged until a delay shows.
 */
static bool nscc_fast_increase(struct uet_nscc *cc, u32 bytes, u32 delay)
{
	if (delay >= NSCC_FAST_DELAY_NS) {
		cc->fi_count = 0;
		cc->increasing = false;
		return false;
	}
	cc->fi_count += bytes;
	if (cc->fi_count > cc->cwnd || cc->increasing) {
		cc->cwnd = min_t(u64, cc->cwnd +
				 (((u64)bytes * cc->scale) >>
				  (NSCC_SCALE_SHIFT + NSCC_FAST_SHIFT)),
				 cc->maxwnd);
		cc->increasing = true;
	}
	return cc->increasing;
}

/*
 * Multiplicative decrease (uet-htsim multiplicative_decrease()): by
 * md (avg - T) / avg of the average delay (md 0.8 by default), at most by
 * half, at most once a base RTT.
 */
static bool nscc_decrease(struct uet_nscc *cc, u64 now)
{
	u64 cut;

	cc->increasing = false;
	cc->fi_count = 0;
	if (cc->avg_delay <= cc->target || now - cc->last_dec <= cc->base_rtt)
		return false;
	/* the fraction first (a window times a delay overflows), rounded up */
	cut = div64_u64(((u64)(cc->avg_delay - cc->target) * cc->gains.md)
			<< NSCC_MD_SHIFT, (u64)cc->avg_delay * NSCC_PCT);
	cut = ((u64)cc->cwnd * cut + BIT_ULL(NSCC_MD_SHIFT) - 1) >> NSCC_MD_SHIFT;
	cc->cwnd -= min_t(u64, cut, cc->cwnd / 2);
	cc->last_dec = now;
	return true;
}

/*
 * The increases gathered go into the window (uet-htsim
 * fulfill_adjustment()): @inc / cwnd, and eta once a base RTT.
 */
static void nscc_adjust(struct uet_nscc *cc, u64 now)
{
	u64 cwnd = cc->cwnd + div64_u64(cc->inc, cc->cwnd);

	if (now - cc->last_adjust >= cc->base_rtt) {
		cwnd += cc->eta;
		cc->last_adjust = now;
	}
	cc->cwnd = min_t(u64, cwnd, cc->maxwnd);
	cc->inc = 0;
	cc->received = 0;
}

/* @now, or the latest time brought before if later: the window's clock. */
static u64 nscc_clock(struct uet_nscc *cc, u64 now)
{
	cc->clock = max(cc->clock, now);
	return cc->clock;
}

/* Count @ev in the context's own counters. */
static enum uet_nscc_event nscc_note(struct uet_nscc *cc,
				     enum uet_nscc_event ev)
{
	if (uet_nscc_cut(ev))
		cc->cuts++;
	else if (ev == UET_NSCC_QUICK_ADAPT)
		cc->adapts++;
	return ev;
}

/**
 * uet_nscc_ack() - an ACK came back
 * @cc: the context
 * @ack: what it acknowledged, the RTT it measured, its ECN echo
 * @now: ns
 *
 * Return: what it did to the window, enum uet_nscc_event.
 */
enum uet_nscc_event uet_nscc_ack(struct uet_nscc *cc,
				 const struct uet_nscc_ack *ack, u64 now)
{
	enum uet_nscc_event ev = UET_NSCC_NONE;
	u32 delay = cc->avg_delay;

	now = nscc_clock(cc, now);
	cc->in_flight -= min(ack->bytes, cc->in_flight);
	cc->echoes += ack->ecn;
	cc->achieved += ack->bytes;
	cc->received += ack->bytes;
	nscc_ignore(cc, ack->bytes);
	if (ack->rtt) {
		uet_nscc_base(cc, ack->rtt);
		/* below a fixed base: no delay */
		delay = ack->rtt - min(ack->rtt, cc->base_rtt);
		nscc_avg(cc, delay, ack->ecn);
	}

	if (nscc_quick_adapt(cc, false, ack->ecn, delay, now, &ev))
		return nscc_note(cc, ev);
	if (!ack->ecn && delay >= cc->target) {
		cc->inc += (u64)cc->fi * ack->bytes;
	} else if (!ack->ecn) {
		if (nscc_fast_increase(cc, ack->bytes, delay))
			return UET_NSCC_FAST_INCREASE;
		cc->inc += div_u64((u64)ack->bytes * (cc->target - delay),
				   NSCC_REF_RTT_NS) * cc->alpha;
	} else if (delay >= cc->target) {
		if (nscc_decrease(cc, now))
			ev = UET_NSCC_DECREASE;
	}
	nscc_bound(cc);
	if (cc->received > cc->mss * NSCC_ADJUST_MSS ||
	    now - cc->last_adjust > cc->base_rtt)
		nscc_adjust(cc, now);
	nscc_bound(cc);
	return nscc_note(cc, ev);
}

/**
 * uet_nscc_trim() - a request came back trimmed (a NACK): it goes again
 * @cc: the context
 * @bytes: what it counts for (uet_nscc_bytes()); it stays in flight
 * @rtt: ns: its round trip, 0 if none valid
 * @now: ns
 *
 * A trim is congestion on the path: the average delay takes a base RTT
 * as this request's delay, quick adapt is asked for, and unless that
 * acts now the window loses the request's bytes (uet-htsim
 * updateCwndOnNack_NSCC()).
 *
 * Return: %UET_NSCC_QUICK_ADAPT, %UET_NSCC_IGNORED or %UET_NSCC_TRIM.
 */
enum uet_nscc_event uet_nscc_trim(struct uet_nscc *cc, u32 bytes, u32 rtt,
				  u64 now)
{
	enum uet_nscc_event ev;

	now = nscc_clock(cc, now);
	nscc_ignore(cc, bytes);
	uet_nscc_base(cc, rtt);
	nscc_avg(cc, cc->base_rtt, true);
	cc->trigger_qa = true;
	if (nscc_quick_adapt(cc, true, true, 0, now, &ev))
		return nscc_note(cc, ev);
	cc->cwnd -= min(bytes, cc->cwnd);
	nscc_bound(cc);
	return nscc_note(cc, UET_NSCC_TRIM);
}

/**
 * uet_nscc_timeout() - a request timed out: it goes again
 * @cc: the context
 * @bytes: what it counts for; it stays in flight
 *
 * The window loses its bytes (uet-htsim mark_packet_for_retransmission()).
 *
 * Return: %UET_NSCC_TIMEOUT.
 */
enum uet_nscc_event uet_nscc_timeout(struct uet_nscc *cc, u32 bytes)
{
	cc->cwnd -= min(bytes, cc->cwnd);
	nscc_bound(cc);
	return nscc_note(cc, UET_NSCC_TIMEOUT);
}
