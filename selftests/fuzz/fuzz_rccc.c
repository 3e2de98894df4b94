// SPDX-License-Identifier: GPL-2.0
/*
 * libFuzzer target for RCCC's credit (drivers/uet/rccc.c).
 *
 * The input sets up a sender (window, MSS, the grant it heard last) and
 * the receiver's view of it, then scripts events, one operation per byte
 * followed by its arguments: requests sent (at most a request's bytes
 * with headers), answers, grants and targets with any 24-bit count (the
 * wire's), turns of the receiver's pacer, the window measured anew.
 * After each operation the invariants are checked, and any breach
 * aborts:
 *  - credit never passes the window, and never falls below what one
 *    request may take past 0 (requests leave only on credit, as in the
 *    engine);
 *  - speculation only ends;
 *  - a grant adds exactly the quanta it moves the count on, only forward;
 *  - credit moves by what a grant or a new window says it kept or gave
 *    up;
 *  - a target is never behind the grant heard, nor more than the window
 *    (or a request, speculating) past it;
 *  - the receiver never grants past the target, nor more than asked in a
 *    turn, and what it owes is what it was asked less what it granted,
 *    at most %UET_RCCC_OWED_MAX.
 * UBSan catches any overflow of a signed value or shift along the way.
 */
#include <stdlib.h>

#include "fuzz_input.h"
#include "rccc.h"

#define MAX_OPS		4096

static u32 dist(u32 a, u32 b)
{
	return (a - b) & UET_RCCC_COUNT_MASK;
}

int LLVMFuzzerTestOneInput(const unsigned char *data, size_t size)
{
	struct input in = { data, size };
	struct uet_rccc_tx tx, before;
	struct uet_rccc_rx rx, rxb;
	u32 maxwnd, mss, n, t, q, unused;
	u64 backlog, given;
	int ops;

	maxwnd = take(&in, 4) % (64u << 20) + 1;
	mss = take(&in, 2) % 9000 + 1;
	uet_rccc_tx_init(&tx, maxwnd, mss, take(&in, 3));
	rx.granted = take(&in, 3);
	rx.target = (rx.granted + take(&in, 3) % (UET_RCCC_OWED_MAX + 1)) &
		    UET_RCCC_COUNT_MASK;
	for (ops = 0; in.left && ops < MAX_OPS; ops++) {
		before = tx;
		rxb = rx;
		switch (take(&in, 1) % 8) {
		case 0:
			/* as the engine: only while there is credit */
			n = take(&in, 2) % (mss + 64) + 1;
			if (uet_rccc_may_send(&tx))
				uet_rccc_sent(&tx, n);
			break;
		case 1:
			uet_rccc_answered(&tx);
			if (tx.credit > 0 && before.speculating)
				abort();
			break;
		case 2:
			n = take(&in, 3);
			uet_rccc_answered(&before);
			q = uet_rccc_credit(&tx, n, &unused);
			if (q && (dist(n, before.pull) >= UET_RCCC_COUNT_HALF ||
				  q != dist(n, before.pull) * UET_RCCC_QUANTUM ||
				  tx.pull != n))
				abort();
			if (!q && tx.pull != before.pull)
				abort();
			/* what is not held is counted as given up */
			if (unused > q ||
			    tx.credit != before.credit + q - unused)
				abort();
			break;
		case 3:
			backlog = take(&in, 5);
			t = uet_rccc_target(&tx, backlog, take(&in, 4));
			if (dist(t, tx.pull) * (u64)UET_RCCC_QUANTUM >
			    (u64)(tx.maxwnd > tx.mss ? tx.maxwnd : tx.mss) +
			    UET_RCCC_QUANTUM + (tx.credit < 0 ? -tx.credit : 0))
				abort();
			if (uet_rccc_ask(&tx, t) &&
			    dist(t, before.asked) >= UET_RCCC_COUNT_HALF)
				abort();
			break;
		case 4:
			n = take(&in, 3);
			if (uet_rccc_want(&rx, n) != (rx.target != rxb.target))
				abort();
			break;
		case 5:
			n = take(&in, 1);
			q = uet_rccc_grant(&rx, n);
			if (q > n || q > uet_rccc_owed(&rxb) ||
			    dist(rx.granted, rxb.granted) != q)
				abort();
			break;
		case 6:
			given = uet_rccc_window(&tx,
						take(&in, 4) % (64u << 20) + 1);
			if (tx.credit != before.credit - (s64)given)
				abort();
			break;
		default:
			uet_rccc_pace_ns(take(&in, 4), take(&in, 5) + 1);
			break;
		}
		/* the window, and the rounding of an ask to whole quanta */
		if (tx.credit > (s64)tx.maxwnd + UET_RCCC_QUANTUM - 1 ||
		    tx.credit <= -(s64)mss - 64)
			abort();
		if (tx.speculating && !before.speculating)
			abort();
		if (uet_rccc_owed(&rx) > dist(rx.target, rx.granted) ||
		    uet_rccc_owed(&rx) > UET_RCCC_OWED_MAX)
			abort();
	}
	return 0;
}
