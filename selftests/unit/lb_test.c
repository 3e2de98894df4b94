// SPDX-License-Identifier: GPL-2.0
/*
 * Unit tests of load balancing (drivers/uet/lb.c) against hand-made
 * traces: a single path keeps its entropy; oblivious spraying takes every
 * entropy of its set once a round; REPS recycles entropies acknowledged
 * unmarked, once per acknowledgment and in turn, forgets those marked,
 * trimmed, lost or timed out, explores when it has none, and freezes
 * after a timeout.
 *
 * Sets of 16 entropies (0xab0 to 0xabf: base 0xabc), a freeze of 1 ms.
 */
#include "kselftest_harness.h"

#include "lb.h"

#define BASE	0xabc
#define PATHS	16
#define FREEZE	1000000ULL
#define SEED	12345

/* Every entropy of the set: the base's high bits. */
static bool in_set(u16 e)
{
	return (e & ~(PATHS - 1)) == (BASE & ~(PATHS - 1));
}

TEST(single_path_keeps_its_entropy)
{
	struct uet_lb lb;
	int i;

	uet_lb_init(&lb, UET_LB_MODE_SINGLE, PATHS, BASE, FREEZE, SEED);
	ASSERT_FALSE(uet_lb_sprays(&lb));
	for (i = 0; i < 100; i++)
		ASSERT_EQ(BASE, uet_lb_next(&lb, i, false));
	/* a set of one is a single path, whatever the mode */
	uet_lb_init(&lb, UET_LB_MODE_REPS, 1, BASE, FREEZE, SEED);
	ASSERT_FALSE(uet_lb_sprays(&lb));
	uet_lb_feedback(&lb, 0x123, UET_LB_GOOD, 0);
	ASSERT_EQ(BASE, uet_lb_next(&lb, 0, false));
}

TEST(set_rounded_down_to_a_power_of_two)
{
	struct uet_lb lb;

	uet_lb_init(&lb, UET_LB_MODE_OBLIVIOUS, 24, BASE, FREEZE, SEED);
	ASSERT_EQ(15, lb.mask);
	uet_lb_init(&lb, UET_LB_MODE_OBLIVIOUS, 100000, BASE, FREEZE, SEED);
	ASSERT_EQ(UET_LB_PATHS_MAX - 1, lb.mask);
	uet_lb_init(&lb, UET_LB_MODE_OBLIVIOUS, 0, BASE, FREEZE, SEED);
	ASSERT_EQ(0, lb.mask);
}

/* Each round takes all 16 once, in a new order. */
TEST(oblivious_takes_each_once_a_round)
{
	struct uet_lb lb;
	int round, i, orders_differ = 0;
	u16 first[PATHS], e;

	uet_lb_init(&lb, UET_LB_MODE_OBLIVIOUS, PATHS, BASE, FREEZE, SEED);
	ASSERT_TRUE(uet_lb_sprays(&lb));
	for (round = 0; round < 8; round++) {
		u32 seen = 0;

		for (i = 0; i < PATHS; i++) {
			e = uet_lb_next(&lb, 0, false);
			ASSERT_TRUE(in_set(e));
			ASSERT_FALSE(uet_lb_explored(&lb));
			ASSERT_FALSE(seen & (1u << (e & 15)));
			seen |= 1u << (e & 15);
			if (!round)
				first[i] = e;
			else if (e != first[i])
				orders_differ = 1;
		}
		ASSERT_EQ(0xffff, seen);
		/* feedback changes nothing */
		uet_lb_feedback(&lb, first[0], UET_LB_TIMEOUT, 0);
	}
	ASSERT_TRUE(orders_differ);
}

/* With nothing acknowledged, REPS explores random entropies of its set. */
TEST(reps_explores_when_it_has_none)
{
	struct uet_lb lb;
	u32 seen = 0;
	int i;

	uet_lb_init(&lb, UET_LB_MODE_REPS, PATHS, BASE, FREEZE, SEED);
	for (i = 0; i < 200; i++) {
		u16 e = uet_lb_next(&lb, 0, false);

		ASSERT_TRUE(in_set(e));
		ASSERT_TRUE(uet_lb_explored(&lb));
		seen |= 1u << (e & 15);
	}
	/* 200 draws of 16: all of them */
	ASSERT_EQ(0xffff, seen);
}

/* Good entropies come back once per acknowledgment, in turn. */
TEST(reps_recycles_oldest_first)
{
	struct uet_lb lb;

	uet_lb_init(&lb, UET_LB_MODE_REPS, PATHS, BASE, FREEZE, SEED);
	uet_lb_feedback(&lb, 0xab3, UET_LB_GOOD, 0);
	uet_lb_feedback(&lb, 0xab7, UET_LB_GOOD, 0);
	uet_lb_feedback(&lb, 0xab1, UET_LB_GOOD, 0);
	ASSERT_EQ(0xab3, uet_lb_next(&lb, 0, false));
	ASSERT_EQ(0xab7, uet_lb_next(&lb, 0, false));
	uet_lb_feedback(&lb, 0xab3, UET_LB_GOOD, 0);
	ASSERT_EQ(0xab1, uet_lb_next(&lb, 0, false));
	ASSERT_EQ(0xab3, uet_lb_next(&lb, 0, false));
	ASSERT_FALSE(uet_lb_explored(&lb));
	ASSERT_EQ(0, uet_lb_fresh(&lb));
	/* none fresh left: a new one, explored */
	ASSERT_TRUE(in_set(uet_lb_next(&lb, 0, false)));
	ASSERT_TRUE(uet_lb_explored(&lb));
}

/*
 * The ring holds 8 entropies.  A ninth, while all 8 have uses to come,
 * gives its use to the oldest slot's entropy, in turn: none is lost.
 * Once a slot has no uses left, a new entropy takes it, the oldest such.
 */
TEST(reps_ring_keeps_the_last_eight)
{
	struct uet_lb lb;
	int i;

	uet_lb_init(&lb, UET_LB_MODE_REPS, PATHS, BASE, FREEZE, SEED);
	for (i = 0; i < 10; i++)
		uet_lb_feedback(&lb, 0xab0 + i, UET_LB_GOOD, 0);
	for (i = 0; i < 8; i++)
		ASSERT_EQ(0xab0 + i, uet_lb_next(&lb, 0, false));
	ASSERT_EQ(0xab0, uet_lb_next(&lb, 0, false));
	ASSERT_EQ(0xab1, uet_lb_next(&lb, 0, false));
	ASSERT_EQ(0, uet_lb_fresh(&lb));
	ASSERT_FALSE(uet_lb_explored(&lb));
	/* all used: 0xaba takes the oldest slot with no uses, 0xab2's */
	uet_lb_feedback(&lb, 0xaba, UET_LB_GOOD, 0);
	ASSERT_EQ(0xaba, uet_lb_next(&lb, 0, false));
	for (i = 0; i < 16; i++)
		ASSERT_NE(0xab2, uet_lb_next(&lb, 0, true));
}

/*
 * An entropy acknowledged unmarked n times is used n times more, in turn
 * with the others, however many ACKs came before it was used: a burst of
 * them loses none (up to 255 a slot).
 */
TEST(reps_counts_each_acknowledgment)
{
	struct uet_lb lb;
	int i;

	uet_lb_init(&lb, UET_LB_MODE_REPS, PATHS, BASE, FREEZE, SEED);
	for (i = 0; i < 3; i++)
		uet_lb_feedback(&lb, 0xab1, UET_LB_GOOD, 0);
	uet_lb_feedback(&lb, 0xab2, UET_LB_GOOD, 0);
	ASSERT_EQ(0x3, lb.known);
	ASSERT_EQ(0xab1, uet_lb_next(&lb, 0, false));
	ASSERT_EQ(0xab2, uet_lb_next(&lb, 0, false));
	ASSERT_EQ(0xab1, uet_lb_next(&lb, 0, false));
	ASSERT_EQ(0xab1, uet_lb_next(&lb, 0, false));
	ASSERT_FALSE(uet_lb_explored(&lb));
	ASSERT_EQ(0, uet_lb_fresh(&lb));
	uet_lb_next(&lb, 0, false);
	ASSERT_TRUE(uet_lb_explored(&lb));

	/* 1000 ACKs of one entropy before a request leaves: 255 uses */
	for (i = 0; i < 1000; i++)
		uet_lb_feedback(&lb, 0xab5, UET_LB_GOOD, 0);
	for (i = 0; i < 255; i++) {
		ASSERT_EQ(0xab5, uet_lb_next(&lb, 0, false));
		ASSERT_FALSE(uet_lb_explored(&lb));
	}
	uet_lb_next(&lb, 0, false);
	ASSERT_TRUE(uet_lb_explored(&lb));
}

/* Marked, trimmed and lost entropies are forgotten wherever they are. */
TEST(reps_forgets_marked_and_trimmed)
{
	struct uet_lb lb;

	uet_lb_init(&lb, UET_LB_MODE_REPS, PATHS, BASE, FREEZE, SEED);
	uet_lb_feedback(&lb, 0xab2, UET_LB_GOOD, 0);
	uet_lb_feedback(&lb, 0xab4, UET_LB_GOOD, 0);
	uet_lb_feedback(&lb, 0xab2, UET_LB_GOOD, 0);
	uet_lb_feedback(&lb, 0xab6, UET_LB_GOOD, 0);
	uet_lb_feedback(&lb, 0xab8, UET_LB_GOOD, 0);
	uet_lb_feedback(&lb, 0xab2, UET_LB_ECN, 0);
	uet_lb_feedback(&lb, 0xab6, UET_LB_TRIMMED, 0);
	uet_lb_feedback(&lb, 0xab8, UET_LB_LOST, 0);
	ASSERT_EQ(0xab4, uet_lb_next(&lb, 0, false));
	ASSERT_EQ(0, uet_lb_fresh(&lb));
	/* an entropy not in the ring: nothing to forget */
	uet_lb_feedback(&lb, 0xab9, UET_LB_ECN, 0);
	ASSERT_EQ(0, uet_lb_fresh(&lb));
	/* nor is one of another set ever recycled */
	uet_lb_feedback(&lb, 0x123, UET_LB_GOOD, 0);
	ASSERT_EQ(0, uet_lb_fresh(&lb));
	ASSERT_FALSE(lb.frozen);
}

/*
 * A timeout freezes REPS: it keeps to the good entropies it knows, used
 * or not, round and round, and never explores; the timed-out one is
 * forgotten.  When the freeze ends it forgets them all and explores 16.
 */
TEST(reps_freezes_after_a_timeout)
{
	struct uet_lb lb;
	int i;
	u16 e;

	uet_lb_init(&lb, UET_LB_MODE_REPS, PATHS, BASE, FREEZE, SEED);
	uet_lb_feedback(&lb, 0xab1, UET_LB_GOOD, 0);
	uet_lb_feedback(&lb, 0xab5, UET_LB_GOOD, 0);
	uet_lb_feedback(&lb, 0xab9, UET_LB_GOOD, 0);
	ASSERT_EQ(0xab1, uet_lb_next(&lb, 0, false));
	uet_lb_feedback(&lb, 0xab5, UET_LB_TIMEOUT, 100);
	ASSERT_TRUE(lb.frozen);
	ASSERT_EQ(100 + FREEZE, lb.thaw);
	/* 0xab1 used already, still known; 0xab5 forgotten */
	for (i = 0; i < 3; i++) {
		ASSERT_EQ(0xab1, uet_lb_next(&lb, 200, false));
		ASSERT_EQ(0xab9, uet_lb_next(&lb, 200, false));
	}
	/* a second timeout does not move the end of the freeze */
	uet_lb_feedback(&lb, 0xab9, UET_LB_TIMEOUT, 300);
	ASSERT_EQ(100 + FREEZE, lb.thaw);
	ASSERT_EQ(0xab1, uet_lb_next(&lb, 400, false));
	ASSERT_EQ(0xab1, uet_lb_next(&lb, 400, false));
	/* good news while frozen is kept */
	uet_lb_feedback(&lb, 0xabc, UET_LB_GOOD, 500);
	e = uet_lb_next(&lb, 600, false);
	ASSERT_TRUE(e == 0xab1 || e == 0xabc);
	ASSERT_NE(e, uet_lb_next(&lb, 600, false));
	/* thawed: all forgotten, 16 explored even with good news */
	uet_lb_feedback(&lb, 0xab3, UET_LB_GOOD, 100 + FREEZE);
	ASSERT_FALSE(lb.frozen);
	ASSERT_EQ(UET_REPS_EXPLORE, lb.explore);
	for (i = 0; i < UET_REPS_EXPLORE; i++)
		ASSERT_TRUE(in_set(uet_lb_next(&lb, 100 + FREEZE, false)));
	ASSERT_EQ(0xab3, uet_lb_next(&lb, 100 + FREEZE, false));
}

/*
 * A retransmission explores only when no good entropy is known: with the
 * fresh ones used, it takes those it knows again, in turn.
 */
TEST(reps_retransmission_keeps_to_known_paths)
{
	struct uet_lb lb;

	uet_lb_init(&lb, UET_LB_MODE_REPS, PATHS, BASE, FREEZE, SEED);
	uet_lb_feedback(&lb, 0xab1, UET_LB_GOOD, 0);
	uet_lb_feedback(&lb, 0xab5, UET_LB_GOOD, 0);
	ASSERT_EQ(0xab1, uet_lb_next(&lb, 0, false));
	ASSERT_EQ(0xab5, uet_lb_next(&lb, 0, false));
	ASSERT_EQ(0, uet_lb_fresh(&lb));
	ASSERT_EQ(0xab1, uet_lb_next(&lb, 0, true));
	ASSERT_EQ(0xab5, uet_lb_next(&lb, 0, true));
	ASSERT_EQ(0xab1, uet_lb_next(&lb, 0, true));
	/* a fresh one first, if there is one */
	uet_lb_feedback(&lb, 0xab9, UET_LB_GOOD, 0);
	ASSERT_EQ(0xab9, uet_lb_next(&lb, 0, true));
	/* knowing none, it explores */
	uet_lb_feedback(&lb, 0xab1, UET_LB_LOST, 0);
	uet_lb_feedback(&lb, 0xab5, UET_LB_LOST, 0);
	uet_lb_feedback(&lb, 0xab9, UET_LB_LOST, 0);
	ASSERT_EQ(0, lb.known);
	ASSERT_TRUE(in_set(uet_lb_next(&lb, 0, true)));
}

/* Frozen with nothing known, it sends where it can: a random entropy. */
TEST(reps_frozen_with_nothing_known)
{
	struct uet_lb lb;

	uet_lb_init(&lb, UET_LB_MODE_REPS, PATHS, BASE, FREEZE, SEED);
	uet_lb_feedback(&lb, 0xab5, UET_LB_TIMEOUT, 0);
	ASSERT_TRUE(lb.frozen);
	ASSERT_TRUE(in_set(uet_lb_next(&lb, 10, false)));
	/* no timeout freezes while exploring */
	uet_lb_next(&lb, FREEZE, false);
	ASSERT_FALSE(lb.frozen);
	uet_lb_feedback(&lb, 0xab5, UET_LB_TIMEOUT, FREEZE);
	ASSERT_FALSE(lb.frozen);
}

/* The same seed repeats the same choices. */
TEST(seed_repeats)
{
	struct uet_lb a, b;
	int i;

	uet_lb_init(&a, UET_LB_MODE_REPS, PATHS, BASE, FREEZE, 7);
	uet_lb_init(&b, UET_LB_MODE_REPS, PATHS, BASE, FREEZE, 7);
	for (i = 0; i < 50; i++)
		ASSERT_EQ(uet_lb_next(&a, 0, false), uet_lb_next(&b, 0, false));
	uet_lb_init(&a, UET_LB_MODE_REPS, PATHS, BASE, FREEZE, 0);
	ASSERT_NE(0, a.rnd);
}

TEST_HARNESS_MAIN
