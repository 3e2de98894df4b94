/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Load balancing: the entropy value each request of a PDC leaves with
 * (lb.c; Documentation/multipath.rst).
 *
 * Switches hash a packet's entropy (its UDP source port) to pick one of
 * equal-cost paths, and the same entropy keeps the same path [TALK].  A
 * PDC either keeps one entropy for its life (single path), or sprays its
 * requests over a set of entropies of its own: in turn and shuffled
 * (oblivious, uet-htsim's UecMpOblivious), or by REPS, recycled entropy
 * packet spraying (arXiv 2407.21625; uet-htsim's UecMpReps): an entropy
 * whose ACK came back unmarked is used once more, one that was marked,
 * trimmed, lost or timed out is forgotten, and a new one is explored when none
 * is left to recycle.  After a timeout, REPS freezes: it explores no more
 * for a while and keeps to the entropies it knows to be good, which routes
 * around a failed link.
 *
 * Part of the protocol core: no packets, no locks; the caller gives the
 * clock.  Its random choices come from a generator of its own, seeded by
 * the caller, so a trace repeats.
 */
#ifndef _UET_LB_H
#define _UET_LB_H

#include <linux/types.h>
#include <uapi/linux/uet_netlink.h>

/**
 * enum uet_lb_feedback - what became of a request sent with an entropy
 * @UET_LB_GOOD: acknowledged without a congestion mark.
 * @UET_LB_ECN: acknowledged with one.
 * @UET_LB_TRIMMED: its payload was trimmed on the way (a NACK).
 * @UET_LB_LOST: deemed lost otherwise (it goes again).
 * @UET_LB_TIMEOUT: given up as lost by the retransmission timer.
 */
enum uet_lb_feedback {
	UET_LB_GOOD,
	UET_LB_ECN,
	UET_LB_TRIMMED,
	UET_LB_LOST,
	UET_LB_TIMEOUT,
};

/*
 * Entropies REPS keeps to recycle: uet-htsim's repsBufferSize.  Each slot
 * holds a different entropy, with the uses it has earned.
 */
#define UET_REPS_RING		8
/* Requests sent on new entropies after a freeze ends (UecMpReps). */
#define UET_REPS_EXPLORE	16

/**
 * struct uet_lb - one PDC's choice of entropies
 * @base: the entropy of a single-path PDC; its bits above the set's index
 *	are those of each entropy of the set.
 * @mask: the set's size less one (a power of two; 0: a single path).
 * @rnd: the state of the random generator.
 * @mode: enum uet_lb_mode (the netlink family's).
 * @turn: %UET_LB_MODE_OBLIVIOUS: requests sent in this round.
 * @shuffle: %UET_LB_MODE_OBLIVIOUS: this round's order, XORed on the index.
 * @head: %UET_LB_MODE_REPS: where the next entropy acknowledged unmarked
 *	and not in @ring yet is written in @ring, over the oldest.
 * @known: slots of @ring holding an entropy not forgotten (bit per slot).
 * @cursor: the slot to use next, round those with @uses left (or round
 *	@known, frozen or for a retransmission).
 * @explore: requests still to send on new entropies.
 * @frozen: exploring stopped after a timeout, until @thaw.
 * @explored: the last entropy uet_lb_next() gave was a new one, not one
 *	acknowledged before (uet_lb_explored()).
 * @ring: entropies acknowledged unmarked, each in one slot at most; the
 *	latest new one at @head less one.
 * @uses: per slot of @known, its entropy's acknowledgments unmarked not
 *	used again yet (saturating); 0 in the others.
 * @freeze: ns: how long a freeze lasts (up to 4.2 s).
 * @thaw: ns: when this one ends.
 */
struct uet_lb {
	u16 base;
	u16 mask;
	u32 rnd;
	u8 mode;
	u8 turn;
	u8 shuffle;
	u8 head;
	u8 known;
	u8 cursor;
	u8 explore;
	bool frozen;
	bool explored;
	u16 ring[UET_REPS_RING];
	u8 uses[UET_REPS_RING];
	u32 freeze;
	u64 thaw;
};

void uet_lb_init(struct uet_lb *lb, enum uet_lb_mode mode, u32 paths,
		 u16 base, u32 freeze, u32 seed);
u16 uet_lb_next(struct uet_lb *lb, u64 now, bool again);
void uet_lb_feedback(struct uet_lb *lb, u16 entropy,
		     enum uet_lb_feedback fb, u64 now);

/*
 * Whether REPS chose the entropy uet_lb_next() gave last at random, one
 * it had not seen acknowledged: a path explored, not recycled.
 */
static inline bool uet_lb_explored(const struct uet_lb *lb)
{
	return lb->explored;
}

/* The slots of REPS's ring with uses left (a bit per slot): its fresh ones. */
static inline unsigned int uet_lb_fresh(const struct uet_lb *lb)
{
	unsigned int s, fresh = 0;

	for (s = 0; s < UET_REPS_RING; s++)
		if (lb->uses[s])
			fresh |= 1u << s;
	return fresh;
}

/* Whether requests of @lb may leave on more than one entropy. */
static inline bool uet_lb_sprays(const struct uet_lb *lb)
{
	return lb->mode != UET_LB_MODE_SINGLE && lb->mask;
}

#endif /* _UET_LB_H */
