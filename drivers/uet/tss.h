/* SPDX-License-Identifier: GPL-2.0 */
/*
 * uet's transport security (TSS) core: the replay window.  Pure
 * bookkeeping on host-order values, no keys, locks or crypto: the caller
 * holds whatever lock guards the window, and asks here only about packets
 * whose integrity check already passed, so a forged packet never moves a
 * window.
 *
 * Part of the protocol core: no kernel objects, so the userspace unit
 * tests and fuzzers compile it as is.  Documentation/security.rst says
 * where each rule comes from.
 */
#ifndef _UET_TSS_H
#define _UET_TSS_H

#include <linux/bitmap.h>
#include <linux/types.h>

/*
 * TSC values a window remembers below the highest seen: how far a packet
 * may arrive out of order and still be taken.  A power of two.  Sprayed
 * packets of every PDC from one source share one counter, so this covers
 * the reordering of all of them together (Linux's ESP allows 4096 with
 * extended sequence numbers, RFC 4303 asks for 32 at least); 256 bytes of
 * state per source.
 */
#define UET_TSS_REPLAY_WINDOW	2048

/**
 * struct uet_tss_replay - the TSC values a receiver took from one source
 * @top: the highest TSC taken; 0 when none is (a sender's first is 1).
 * @seen: bit (tsc % UET_TSS_REPLAY_WINDOW) for each TSC taken in
 *	(@top - UET_TSS_REPLAY_WINDOW, @top].
 */
struct uet_tss_replay {
	u64 top;
	DECLARE_BITMAP(seen, UET_TSS_REPLAY_WINDOW);
};

/* What uet_tss_replay_check() says of a TSC. */
enum uet_tss_replay_verdict {
	UET_TSS_REPLAY_NEW,	/* not taken before: take it */
	UET_TSS_REPLAY_SEEN,	/* taken before: a replay */
	UET_TSS_REPLAY_OLD,	/* below the window: a replay or too late */
};

void uet_tss_replay_init(struct uet_tss_replay *r);
enum uet_tss_replay_verdict
uet_tss_replay_check(const struct uet_tss_replay *r, u64 tsc);
void uet_tss_replay_take(struct uet_tss_replay *r, u64 tsc);

#endif /* _UET_TSS_H */
