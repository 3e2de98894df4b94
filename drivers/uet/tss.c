// SPDX-License-Identifier: GPL-2.0
/*
 * uet's transport security core (tss.h).  The replay window is the
 * sliding bitmap of RFC 4303 section 3.4.3 and RFC 6479 (a ring of bits
 * indexed by the counter, cleared as the top moves up), over TSS's 64-bit
 * security counter, which never wraps under one key.
 */
#include "tss.h"

/* Nothing taken yet. */
void uet_tss_replay_init(struct uet_tss_replay *r)
{
	r->top = 0;
	bitmap_zero(r->seen, UET_TSS_REPLAY_WINDOW);
}

/**
 * uet_tss_replay_check() - whether a TSC may be taken
 * @r: the source's window.
 * @tsc: the packet's security counter.
 *
 * Changes nothing: a packet is checked here before its integrity check
 * (a cheap refusal of replays) and taken with uet_tss_replay_take() only
 * after it.  TSC 0 is never sent, so it is always old.
 *
 * Return: enum uet_tss_replay_verdict.
 */
enum uet_tss_replay_verdict
uet_tss_replay_check(const struct uet_tss_replay *r, u64 tsc)
{
	if (tsc > r->top)
		return UET_TSS_REPLAY_NEW;
	if (!tsc || r->top - tsc >= UET_TSS_REPLAY_WINDOW)
		return UET_TSS_REPLAY_OLD;
	if (test_bit(tsc % UET_TSS_REPLAY_WINDOW, r->seen))
		return UET_TSS_REPLAY_SEEN;
	return UET_TSS_REPLAY_NEW;
}

/**
 * uet_tss_replay_take() - remember a TSC taken
 * @r: the source's window.
 * @tsc: a TSC uet_tss_replay_check() found new, whose packet passed its
 *	integrity check.
 *
 * Moving the top up forgets what falls out of the window: at most
 * UET_TSS_REPLAY_WINDOW bits are cleared, however far it moves.
 */
void uet_tss_replay_take(struct uet_tss_replay *r, u64 tsc)
{
	u64 t;

	if (tsc > r->top) {
		if (tsc - r->top >= UET_TSS_REPLAY_WINDOW)
			bitmap_zero(r->seen, UET_TSS_REPLAY_WINDOW);
		else
			for (t = r->top + 1; t < tsc; t++)
				__clear_bit(t % UET_TSS_REPLAY_WINDOW, r->seen);
		r->top = tsc;
	}
	__set_bit(tsc % UET_TSS_REPLAY_WINDOW, r->seen);
}
