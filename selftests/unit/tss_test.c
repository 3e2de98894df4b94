// SPDX-License-Identifier: GPL-2.0
/*
 * Unit tests of the transport security core (drivers/uet/tss.c): the
 * replay window takes each TSC once, in any order within the window, and
 * refuses what falls below it, however far the top jumps.
 */
#include "kselftest_harness.h"

#include <linux/limits.h>

#include "tss.h"

#define W	UET_TSS_REPLAY_WINDOW

/* Check then take, as the receive path does; the verdict. */
static enum uet_tss_replay_verdict arrive(struct uet_tss_replay *r, u64 tsc)
{
	enum uet_tss_replay_verdict v = uet_tss_replay_check(r, tsc);

	if (v == UET_TSS_REPLAY_NEW)
		uet_tss_replay_take(r, tsc);
	return v;
}

FIXTURE(replay)
{
	struct uet_tss_replay r;
};

FIXTURE_SETUP(replay)
{
	uet_tss_replay_init(&self->r);
}

FIXTURE_TEARDOWN(replay)
{
}

/* In order: each new once, then a replay; TSC 0 is never new. */
TEST_F(replay, in_order_once)
{
	u64 t;

	EXPECT_EQ(UET_TSS_REPLAY_OLD, arrive(&self->r, 0));
	for (t = 1; t <= 3 * W; t++) {
		ASSERT_EQ(UET_TSS_REPLAY_NEW, arrive(&self->r, t));
		ASSERT_EQ(UET_TSS_REPLAY_SEEN, arrive(&self->r, t));
	}
	EXPECT_EQ(3 * W, self->r.top);
	EXPECT_EQ(UET_TSS_REPLAY_SEEN, arrive(&self->r, 2 * W + 1));
	EXPECT_EQ(UET_TSS_REPLAY_OLD, arrive(&self->r, 2 * W));
}

/* Reordered within the window: every TSC taken exactly once. */
TEST_F(replay, reordered_within_window)
{
	u64 t, base = 5;

	/* the odd ones first, up to the edge of the window, then the even */
	for (t = base + 1; t < base + W; t += 2)
		ASSERT_EQ(UET_TSS_REPLAY_NEW, arrive(&self->r, t));
	for (t = base + 2; t < base + W; t += 2)
		ASSERT_EQ(UET_TSS_REPLAY_NEW, arrive(&self->r, t));
	for (t = base + 1; t < base + W; t++)
		ASSERT_EQ(UET_TSS_REPLAY_SEEN, arrive(&self->r, t));
}

/*
 * The window's lower edge: top - W + 1 is the oldest taken, top - W is
 * old; a TSC never seen in the window's span stays new until then.
 */
TEST_F(replay, lower_edge)
{
	u64 top = 10 * W;

	ASSERT_EQ(UET_TSS_REPLAY_NEW, arrive(&self->r, top));
	EXPECT_EQ(UET_TSS_REPLAY_NEW, uet_tss_replay_check(&self->r, top - W + 1));
	EXPECT_EQ(UET_TSS_REPLAY_OLD, uet_tss_replay_check(&self->r, top - W));
	EXPECT_EQ(UET_TSS_REPLAY_NEW, arrive(&self->r, top - W + 1));
	EXPECT_EQ(UET_TSS_REPLAY_SEEN, arrive(&self->r, top - W + 1));
	/* the top moves one up: what was the oldest falls out */
	EXPECT_EQ(UET_TSS_REPLAY_NEW, arrive(&self->r, top + 1));
	EXPECT_EQ(UET_TSS_REPLAY_OLD, arrive(&self->r, top - W + 1));
}

/*
 * A jump of less than the window forgets exactly the bits it passes
 * over: a TSC taken before the jump and still in the window stays seen,
 * and the ring slots the jump reuses read as new.
 */
TEST_F(replay, jump_clears_what_it_passes)
{
	u64 t;

	for (t = 1; t <= 100; t++)
		ASSERT_EQ(UET_TSS_REPLAY_NEW, arrive(&self->r, t));
	ASSERT_EQ(UET_TSS_REPLAY_NEW, arrive(&self->r, W + 50));
	/* 51..100 still inside (W + 50 - W, W + 50]: seen */
	for (t = 51; t <= 100; t++)
		ASSERT_EQ(UET_TSS_REPLAY_SEEN, arrive(&self->r, t));
	/* 1..50 are below it */
	for (t = 1; t <= 50; t++)
		ASSERT_EQ(UET_TSS_REPLAY_OLD, arrive(&self->r, t));
	/* 101..W+49 were never taken: new, once */
	for (t = 101; t < W + 50; t++)
		ASSERT_EQ(UET_TSS_REPLAY_NEW, arrive(&self->r, t));
	for (t = 51; t <= W + 50; t++)
		ASSERT_EQ(UET_TSS_REPLAY_SEEN, arrive(&self->r, t));
}

/* A jump of the window or more forgets everything below it. */
TEST_F(replay, far_jump)
{
	u64 t, far = (u64)1 << 62;

	for (t = 1; t <= W; t++)
		ASSERT_EQ(UET_TSS_REPLAY_NEW, arrive(&self->r, t));
	ASSERT_EQ(UET_TSS_REPLAY_NEW, arrive(&self->r, far));
	for (t = far - W + 1; t < far; t++)
		ASSERT_EQ(UET_TSS_REPLAY_NEW, uet_tss_replay_check(&self->r, t));
	EXPECT_EQ(UET_TSS_REPLAY_OLD, arrive(&self->r, W));
	EXPECT_EQ(UET_TSS_REPLAY_NEW, arrive(&self->r, U64_MAX));
	EXPECT_EQ(UET_TSS_REPLAY_SEEN, arrive(&self->r, U64_MAX));
	EXPECT_EQ(UET_TSS_REPLAY_OLD, arrive(&self->r, far));
}

/* Checking alone changes nothing: a forged packet moves no window. */
TEST_F(replay, check_changes_nothing)
{
	struct uet_tss_replay before;

	ASSERT_EQ(UET_TSS_REPLAY_NEW, arrive(&self->r, 7));
	before = self->r;
	EXPECT_EQ(UET_TSS_REPLAY_NEW, uet_tss_replay_check(&self->r, 1000000));
	EXPECT_EQ(UET_TSS_REPLAY_NEW, uet_tss_replay_check(&self->r, 3));
	EXPECT_EQ(0, memcmp(&before, &self->r, sizeof(before)));
}

TEST_HARNESS_MAIN
