// SPDX-License-Identifier: GPL-2.0
/*
 * libFuzzer target for NSCC's window (drivers/uet/nscc.c).
 *
 * The input sets up a congestion context (MSS, link rate, base RTT, fixed
 * or not, BDP, target delay, gains, any values) and then scripts events for it, one operation
 * per byte followed by its arguments: requests sent, ACKs with any byte
 * count, RTT and mark, trims, timeouts, the clock moving on or back (at
 * most by what a u32 holds: the PDCs sharing a context bring their times
 * in any order, which the window's own clock, never going back, absorbs).
 * After each operation the invariants are checked, and any breach aborts:
 *  - the window stays within [MSS, its ceiling], and the ceiling at least
 *    an MSS;
 *  - the base RTT is never 0, and only goes down once measured; a fixed
 *    one never moves;
 *  - the gains stay within their bounds; the window's clock never goes
 *    back;
 *  - the bytes whose echoes are ignored never pass those to ignore;
 *  - the bytes in flight are what was sent less what was acknowledged
 *    (never below 0);
 *  - the counters of echoes, cuts and quick adapts move by one at most
 *    per event, and only with the matching event;
 *  - a window may send exactly while what is in flight is below it;
 *  - a PDC's share of it (the counters standing in for the PDCs sharing
 *    it and the bytes the PDC has in flight) is an MSS at least, the
 *    window at most, and the window for a PDC alone.
 * UBSan catches any overflow of a signed value or shift along the way.
 */
#include <stdlib.h>
#include <string.h>

#include "fuzz_input.h"
#include "nscc.h"

#define MAX_OPS		4096

static void check(const struct uet_nscc *cc, u64 in_flight,
		  const struct uet_nscc *before, enum uet_nscc_event ev)
{
	u32 share;

	if (cc->maxwnd < cc->mss || cc->cwnd < cc->mss ||
	    cc->cwnd > cc->maxwnd)
		abort();
	if (!cc->base_rtt || cc->ignored > cc->to_ignore)
		abort();
	if (before->measured && cc->base_rtt > before->base_rtt)
		abort();
	if (cc->base_fixed && cc->base_rtt != before->base_rtt)
		abort();
	if (cc->clock < before->clock || cc->last_dec > cc->clock ||
	    cc->last_adjust > cc->clock)
		abort();
	if (cc->gains.fi > UET_NSCC_GAIN_MAX ||
	    cc->gains.alpha > UET_NSCC_GAIN_MAX ||
	    cc->gains.eta > UET_NSCC_GAIN_MAX || cc->gains.md > 100 ||
	    cc->gains.ignore > 100)
		abort();
	if (cc->in_flight != in_flight)
		abort();
	if (cc->cuts - before->cuts > 1 || cc->adapts - before->adapts > 1 ||
	    cc->echoes - before->echoes > 1)
		abort();
	if ((cc->cuts != before->cuts) != uet_nscc_cut(ev) ||
	    (cc->adapts != before->adapts) != (ev == UET_NSCC_QUICK_ADAPT))
		abort();
	if (uet_nscc_may_send(cc) != (cc->in_flight < cc->cwnd))
		abort();
	/* a share of the window: an MSS at least, the window at most */
	share = uet_nscc_share(cc, cc->echoes, cc->cuts);
	if (share < cc->mss || share > cc->cwnd ||
	    uet_nscc_share(cc, 0, 0) != cc->cwnd)
		abort();
}

int LLVMFuzzerTestOneInput(const unsigned char *data, size_t size)
{
	struct input in = { data, size };
	struct uet_nscc_gains gains;
	struct uet_nscc_cfg cfg;
	struct uet_nscc cc, before;
	enum uet_nscc_event ev;
	struct uet_nscc_ack a;
	u64 now, in_flight = 0;
	u32 n;
	int ops;

	cfg.mss = take(&in, 2);
	cfg.rate = take(&in, 5);
	cfg.base_rtt = take(&in, 4);
	cfg.target = take(&in, 4);
	n = take(&in, 1);
	cfg.base_fixed = n & 1;
	cfg.hdr = n & 2 ? UET_NSCC_HDR_IPV6 : UET_NSCC_HDR_IPV4;
	cfg.bdp = take(&in, 1) & 1 ? take(&in, 4) : 0;
	gains.fi = take(&in, 2);
	gains.alpha = take(&in, 2);
	gains.eta = take(&in, 2);
	gains.md = take(&in, 1);
	gains.ignore = take(&in, 1);
	cfg.gains = take(&in, 1) & 1 ? &gains : NULL;
	now = take(&in, 4);
	uet_nscc_init(&cc, &cfg);
	before = cc;
	check(&cc, 0, &before, UET_NSCC_NONE);

	for (ops = 0; in.left && ops < MAX_OPS; ops++) {
		before = cc;
		ev = UET_NSCC_NONE;
		switch (take(&in, 1) % 5) {
		case 0:		/* a request leaves */
			n = take(&in, 2);
			uet_nscc_sent(&cc, uet_nscc_bytes(&cc, n));
			in_flight += uet_nscc_bytes(&cc, n);
			break;
		case 1:		/* an ACK */
			a.bytes = take(&in, 3);
			a.rtt = take(&in, 4);
			a.ecn = take(&in, 1) & 1;
			ev = uet_nscc_ack(&cc, &a, now);
			in_flight -= a.bytes < in_flight ? a.bytes : in_flight;
			if (cc.echoes - before.echoes != a.ecn)
				abort();
			break;
		case 2:		/* a trim */
			n = take(&in, 3);
			ev = uet_nscc_trim(&cc, n, take(&in, 4), now);
			if (ev != UET_NSCC_TRIM && ev != UET_NSCC_QUICK_ADAPT &&
			    ev != UET_NSCC_IGNORED)
				abort();
			break;
		case 3:		/* a timeout */
			ev = uet_nscc_timeout(&cc, take(&in, 3));
			if (ev != UET_NSCC_TIMEOUT)
				abort();
			break;
		default:	/* time goes by, or another PDC's time comes */
			n = take(&in, 4);
			if (n & 1)
				now -= min_t(u64, now, n >> 1);
			else
				now += n >> 1;
			break;
		}
		check(&cc, in_flight, &before, ev);
	}
	return 0;
}
