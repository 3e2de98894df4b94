// SPDX-License-Identifier: GPL-2.0
/*
 * Load balancing: the entropy each request of a PDC leaves with (lb.h).
 *
 * A PDC's set of entropies is @mask + 1 values that share the bits of its
 * base above the index, so that two PDCs' sets differ.  Oblivious
 * spraying takes each index once per round, the order XORed with a value
 * drawn anew each round (uet-htsim's UecMpOblivious).  REPS (arXiv
 * 2407.21625, uet-htsim's UecMpReps and CircularBufferREPS) keeps the
 * last %UET_REPS_RING entropies acknowledged unmarked in a ring and uses
 * each once more per acknowledgment, taking them in turn; with none
 * left, it sends on a random index of the set (a retransmission on one it
 * knows, used or not, if it knows one).  Unlike uet-htsim's ring, one
 * slot per acknowledgment, uet's keeps one slot per entropy with a count
 * of uses: a coalesced ACK acknowledges up to 64 requests, and a sender
 * the qdiscs hold back sends in bursts while ACKs arrive in between,
 * where a ring of single uses overwrote most of them unused and the
 * requests after explored (Documentation/multipath.rst).
 * A timeout freezes it: for @freeze ns it takes the entropies of the ring
 * round and round, used or not, and explores none; then it forgets them
 * all and explores %UET_REPS_EXPLORE requests' worth of new ones.
 */
#include <linux/bits.h>
#include <linux/limits.h>

#include "lb.h"

/* Marsaglia's xorshift32: a stream of random values that a seed repeats. */
static u32 lb_random(struct uet_lb *lb)
{
	u32 x = lb->rnd;

	x ^= x << 13;
	x ^= x >> 17;
	x ^= x << 5;
	lb->rnd = x;
	return x;
}

static u16 lb_entropy(const struct uet_lb *lb, u32 index)
{
	return (lb->base & ~lb->mask) | (index & lb->mask);
}

/**
 * uet_lb_init() - a PDC's choice of entropies, as it starts sending
 * @lb: filled in
 * @mode: enum uet_lb_mode
 * @paths: the size of its set of entropies, rounded down to a power of
 *	two, at most %UET_LB_PATHS_MAX; 1 (or 0) keeps to @base alone
 * @base: its single entropy, and the high bits of its set's
 * @freeze: ns: how long REPS keeps to the entropies it knows after a
 *	timeout
 * @seed: the random generator's; any value
 */
void uet_lb_init(struct uet_lb *lb, enum uet_lb_mode mode, u32 paths,
		 u16 base, u32 freeze, u32 seed)
{
	u32 n = 1;

	paths = paths > UET_LB_PATHS_MAX ? UET_LB_PATHS_MAX : paths;
	while (n * 2 <= paths)
		n *= 2;
	*lb = (struct uet_lb) {
		.base = base,
		.mask = n - 1,
		.mode = mode,
		.freeze = freeze,
		/* xorshift never leaves 0 */
		.rnd = seed ? seed : 1,
	};
	lb->shuffle = lb_random(lb) & lb->mask;
}

/* A freeze that is over forgets what it kept, and explores anew. */
static void lb_thaw(struct uet_lb *lb, u64 now)
{
	unsigned int s;

	if (!lb->frozen || now < lb->thaw)
		return;
	lb->frozen = false;
	lb->known = 0;
	for (s = 0; s < UET_REPS_RING; s++)
		lb->uses[s] = 0;
	lb->explore = UET_REPS_EXPLORE;
}

/* The first slot of @slots (a bit per slot) from @from on, round the ring. */
static unsigned int lb_slot(unsigned int slots, unsigned int from)
{
	unsigned int i, s;

	for (i = 0; i < UET_REPS_RING; i++) {
		s = (from + i) % UET_REPS_RING;
		if (slots & BIT(s))
			break;
	}
	return s;
}

/* The entropy of slot @s, used again: one use fewer; the next slot next. */
static u16 lb_take(struct uet_lb *lb, unsigned int s)
{
	if (lb->uses[s])
		lb->uses[s]--;
	lb->cursor = (s + 1) % UET_REPS_RING;
	return lb->ring[s];
}

/* A new entropy of the set, at random: a path explored. */
static u16 lb_explore(struct uet_lb *lb)
{
	lb->explored = true;
	return lb_entropy(lb, lb_random(lb));
}

static u16 lb_reps_next(struct uet_lb *lb, u64 now, bool again)
{
	unsigned int fresh;

	lb_thaw(lb, now);
	lb->explored = false;
	if (lb->explore && !(again && lb->known)) {
		lb->explore--;
		return lb_explore(lb);
	}
	fresh = uet_lb_fresh(lb);
	if (!lb->frozen && fresh)
		return lb_take(lb, lb_slot(fresh, lb->cursor));
	if ((lb->frozen || again) && lb->known)
		return lb_take(lb, lb_slot(lb->known, lb->cursor));
	return lb_explore(lb);
}

/**
 * uet_lb_next() - the entropy of the next request to leave
 * @lb: the PDC's
 * @now: ns, the caller's clock
 * @again: the request is a retransmission: REPS explores for it only if
 *	it knows no good entropy, used or not (a retransmission is no place
 *	to try a path)
 *
 * Return: the entropy; a retransmission takes one too, and may take
 * another path than the first time.
 */
u16 uet_lb_next(struct uet_lb *lb, u64 now, bool again)
{
	u32 index;

	if (!uet_lb_sprays(lb))
		return lb->base;
	if (lb->mode == UET_LB_MODE_REPS)
		return lb_reps_next(lb, now, again);
	index = lb->turn ^ lb->shuffle;
	lb->turn = (lb->turn + 1) & lb->mask;
	if (!lb->turn)
		lb->shuffle = lb_random(lb) & lb->mask;
	return lb_entropy(lb, index);
}

/* An entropy that came back marked, trimmed, lost or late is not reused. */
static void lb_forget(struct uet_lb *lb, u16 entropy)
{
	unsigned int s;

	for (s = 0; s < UET_REPS_RING; s++) {
		if ((lb->known & BIT(s)) && lb->ring[s] == entropy) {
			lb->known &= ~BIT(s);
			lb->uses[s] = 0;
		}
	}
}

/*
 * @entropy came back unmarked: one more use of it, in its slot or, new
 * to the ring, in the oldest slot with no uses left.  With every slot's
 * uses to come, the use goes to the next of them in turn instead: an
 * acknowledgment earns a request on a path known to work either way,
 * and none is lost to make room.
 */
static void lb_good(struct uet_lb *lb, u16 entropy)
{
	unsigned int s, fresh;

	for (s = 0; s < UET_REPS_RING; s++)
		if ((lb->known & BIT(s)) && lb->ring[s] == entropy)
			break;
	if (s == UET_REPS_RING) {
		fresh = uet_lb_fresh(lb);
		s = fresh == GENMASK(UET_REPS_RING - 1, 0) ? lb->head :
		    lb_slot(~fresh, lb->head);
		lb->head = (s + 1) % UET_REPS_RING;
		if (!lb->uses[s]) {
			lb->ring[s] = entropy;
			lb->known |= BIT(s);
		}
	}
	if (lb->uses[s] < U8_MAX)
		lb->uses[s]++;
}

/**
 * uet_lb_feedback() - what became of a request sent with @entropy
 * @lb: the PDC's
 * @entropy: the request's, as uet_lb_next() gave it
 * @fb: enum uet_lb_feedback
 * @now: ns, the caller's clock
 *
 * Only REPS listens, and only to entropies of its set.  An entropy
 * acknowledged unmarked earns one more use, in its slot of the ring or in
 * a new one over the oldest; one marked,
 * trimmed, lost or timed out is forgotten wherever it is there.  The first
 * timeout outside a freeze and an exploration starts a freeze.
 */
void uet_lb_feedback(struct uet_lb *lb, u16 entropy,
		     enum uet_lb_feedback fb, u64 now)
{
	if (!uet_lb_sprays(lb) || lb->mode != UET_LB_MODE_REPS)
		return;
	lb_thaw(lb, now);
	/* a PDC sprays over its own set alone */
	if ((entropy & ~lb->mask) != (lb->base & ~lb->mask))
		return;
	switch (fb) {
	case UET_LB_GOOD:
		lb_good(lb, entropy);
		break;
	case UET_LB_TIMEOUT:
		lb_forget(lb, entropy);
		if (!lb->frozen && !lb->explore) {
			lb->frozen = true;
			lb->thaw = now + lb->freeze;
			lb->cursor = lb->head;
		}
		break;
	default:
		lb_forget(lb, entropy);
		break;
	}
}
