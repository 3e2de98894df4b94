// SPDX-License-Identifier: GPL-2.0
/*
 * libFuzzer target for load balancing (drivers/uet/lb.c).
 *
 * The input sets up a PDC's choice of entropies (mode, set size, base,
 * freeze, seed), then scripts events, one operation per byte followed by
 * its arguments: requests sent and feedback of each kind on any entropy,
 * with a clock that only moves on.  After each operation the invariants
 * are checked, and any breach aborts:
 *  - a single path sends on its base alone; a sprayed one on its set
 *    only (the base's bits above the index), whatever feedback named;
 *  - the entropies to recycle are among those known;
 *  - a freeze ends when it said it would, and explores afterwards only
 *    as much as %UET_REPS_EXPLORE.
 */
#include <stdlib.h>

#include "fuzz_input.h"
#include "lb.h"

#define MAX_OPS		4096

int LLVMFuzzerTestOneInput(const unsigned char *data, size_t size)
{
	struct input in = { data, size };
	struct uet_lb lb, before;
	u64 now = 0;
	u16 e, set;
	int ops;

	uet_lb_init(&lb, take(&in, 1) % 3, take(&in, 2), take(&in, 2),
		    take(&in, 3), take(&in, 4));
	set = lb.base & ~lb.mask;
	for (ops = 0; in.left && ops < MAX_OPS; ops++) {
		before = lb;
		now += take(&in, 2);
		switch (take(&in, 1) % 5) {
		case 0:
			e = uet_lb_next(&lb, now, take(&in, 1) & 1);
			if (!uet_lb_sprays(&lb) ? e != lb.base :
			    (e & ~lb.mask) != set)
				abort();
			break;
		default:
			/* feedback names entropies sent, or any (a bug's) */
			e = take(&in, 1) & 1 ? set | (take(&in, 1) & lb.mask) :
			    take(&in, 2);
			uet_lb_feedback(&lb, e, take(&in, 1) % 5, now);
			break;
		}
		/* the uses left are those of entropies known */
		if (uet_lb_fresh(&lb) & ~lb.known)
			abort();
		if (lb.explore > UET_REPS_EXPLORE)
			abort();
		if (before.frozen && lb.frozen && lb.thaw != before.thaw)
			abort();
		/* every call ends a freeze that is over before it acts */
		if (before.frozen && lb.frozen && now >= before.thaw)
			abort();
		if (lb.base != before.base || lb.mask != before.mask)
			abort();
	}
	return 0;
}
