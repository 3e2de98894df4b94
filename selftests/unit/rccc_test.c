// SPDX-License-Identifier: GPL-2.0
/*
 * Unit tests of RCCC (drivers/uet/rccc.c) against numbers computed by
 * hand from Documentation/congestion.rst: a sender's speculative start,
 * its credit and what it asks for; a receiver's targets and grants; the
 * 24-bit counters across their wrap; the pace of grants.
 *
 * The sender's window is 150,000 bytes (1.5 BDP) and its requests at
 * most 4,000 bytes: 4,064 with headers.
 */
#include <linux/limits.h>

#include "kselftest_harness.h"

#include "rccc.h"

#define MAXWND	150000
#define MSS	4000
#define REQ	4064
#define Q	UET_RCCC_QUANTUM

TEST(speculative_start)
{
	struct uet_rccc_tx tx;

	uet_rccc_tx_init(&tx, MAXWND, MSS, 0);
	ASSERT_TRUE(uet_rccc_may_send(&tx));
	ASSERT_EQ(MAXWND, tx.credit);
	uet_rccc_sent(&tx, REQ);
	ASSERT_EQ(MAXWND - REQ, tx.credit);
	/* the first answer takes what is left of the start */
	uet_rccc_answered(&tx);
	ASSERT_FALSE(tx.speculating);
	ASSERT_EQ(0, tx.credit);
	ASSERT_FALSE(uet_rccc_may_send(&tx));
}

/* A request may take credit below 0; the debt is not forgiven. */
TEST(debt_outlives_speculation)
{
	struct uet_rccc_tx tx;
	u32 unused;
	int i;

	uet_rccc_tx_init(&tx, MAXWND, MSS, 0);
	for (i = 0; uet_rccc_may_send(&tx); i++)
		uet_rccc_sent(&tx, REQ);
	/* 36 requests leave 3,696 bytes, and the 37th goes: -368 */
	ASSERT_EQ(37, i);
	ASSERT_EQ(MAXWND - 37 * REQ, tx.credit);
	ASSERT_EQ(-368, tx.credit);
	uet_rccc_answered(&tx);
	ASSERT_EQ(-368, tx.credit);
	/* a grant of 2 quanta pays it and leaves 144 bytes: one may go */
	ASSERT_EQ(2 * Q, uet_rccc_credit(&tx, 2, &unused));
	ASSERT_EQ(0, unused);
	ASSERT_EQ(144, tx.credit);
	ASSERT_TRUE(uet_rccc_may_send(&tx));
}

TEST(grants_add_up_once)
{
	struct uet_rccc_tx tx;
	u32 unused;

	uet_rccc_tx_init(&tx, MAXWND, MSS, 0);
	/* a grant ends speculation first: 64 quanta on 0 */
	ASSERT_EQ(64 * Q, uet_rccc_credit(&tx, 64, &unused));
	ASSERT_EQ(16384, tx.credit);
	ASSERT_EQ(64, tx.pull);
	/* old news, reordered, and the same news again: nothing */
	ASSERT_EQ(0, uet_rccc_credit(&tx, 10, &unused));
	ASSERT_EQ(0, uet_rccc_credit(&tx, 64, &unused));
	ASSERT_EQ(16384, tx.credit);
	/* a lost grant: the next one carries it */
	ASSERT_EQ(128 * Q, uet_rccc_credit(&tx, 192, &unused));
	ASSERT_EQ(16384 + 32768, tx.credit);
}

TEST(credit_held_up_to_the_window)
{
	struct uet_rccc_tx tx;
	u32 unused;

	uet_rccc_tx_init(&tx, 20000, MSS, 0);
	uet_rccc_answered(&tx);
	ASSERT_EQ(128 * Q, uet_rccc_credit(&tx, 128, &unused));
	ASSERT_EQ(128 * Q - 20255, unused);
	/* the window and a quantum's rounding, 255 bytes */
	ASSERT_EQ(20255, tx.credit);
}

/*
 * An ask rounds up to whole quanta: the grant of all of it is kept, even
 * where it takes the credit past the window (by less than a quantum).
 */
TEST(grant_of_an_ask_kept_whole)
{
	struct uet_rccc_tx tx;
	u32 unused;
	u32 target;

	uet_rccc_tx_init(&tx, 4500, MSS, 0);
	uet_rccc_answered(&tx);
	uet_rccc_sent(&tx, 368);
	/* 4,868 bytes wanted: 19.02 quanta, 20 */
	target = uet_rccc_target(&tx, 50000, U32_MAX);
	ASSERT_EQ(20, target);
	ASSERT_EQ(20 * Q, uet_rccc_credit(&tx, target, &unused));
	ASSERT_EQ(0, unused);
	ASSERT_EQ(20 * Q - 368, tx.credit);
	ASSERT_TRUE(tx.credit > tx.maxwnd);
}

/* The window follows the path: credit above a smaller one is given up. */
TEST(window_follows_the_path)
{
	struct uet_rccc_tx tx;
	u32 unused;

	uet_rccc_tx_init(&tx, 2250, 1500, 0);
	ASSERT_EQ(0, uet_rccc_window(&tx, 30000));
	ASSERT_EQ(30000, tx.maxwnd);
	ASSERT_EQ(2250, tx.credit);
	uet_rccc_answered(&tx);
	ASSERT_EQ(64 * Q, uet_rccc_credit(&tx, 64, &unused));
	ASSERT_EQ(16384, tx.credit);
	ASSERT_EQ(16384 - 10255, uet_rccc_window(&tx, 10000));
	ASSERT_EQ(10255, tx.credit);
	/* 9,745 bytes short of the window: 38.07 quanta, 39 */
	uet_rccc_sent(&tx, 10000);
	ASSERT_EQ(64 + 39, uet_rccc_target(&tx, 50000, U32_MAX));
}

/*
 * The credit held lasts the round trip measured: NSCC's ceiling of the
 * base RTT, scaled up as the smoothed RTT grows past it, by 16 at most.
 */
TEST(span_covers_the_round_trip)
{
	/* not measured yet, or no longer than the base: the ceiling */
	ASSERT_EQ(4500, uet_rccc_span(4500, 600000, 0));
	ASSERT_EQ(4500, uet_rccc_span(4500, 600000, 600000));
	/* 1.7 ms against 0.6: 4,500 x 17 / 6 = 12,750 */
	ASSERT_EQ(12750, uet_rccc_span(4500, 600000, 1700000));
	/* a round trip of a second counts as 16 base RTTs */
	ASSERT_EQ(16 * 4500, uet_rccc_span(4500, 600000, 1000000000));
	/* no base: the ceiling; a huge one saturates, does not wrap */
	ASSERT_EQ(4500, uet_rccc_span(4500, 0, 1700000));
	ASSERT_EQ(U32_MAX, uet_rccc_span(U32_MAX / 2, 1000, 16000));
	/* a window near 4 GB for 40 s: a product past 2^64, no wrap */
	ASSERT_EQ(U32_MAX, uet_rccc_span(U32_MAX, 3000000000U,
					 40000000000ULL));
}

TEST(counters_wrap)
{
	struct uet_rccc_tx tx;
	u32 unused;
	struct uet_rccc_rx rx = { .target = 0xfffff0, .granted = 0xfffff0 };

	uet_rccc_tx_init(&tx, MAXWND, MSS, 0xfffff0);
	uet_rccc_answered(&tx);
	/* 0xfffff0 to 0x10: 32 quanta on */
	ASSERT_EQ(32 * Q, uet_rccc_credit(&tx, 0x10, &unused));
	ASSERT_EQ(0x10, tx.pull);
	/* half the counter back is old news, not 8 Mi quanta of credit */
	ASSERT_EQ(0, uet_rccc_credit(&tx, 0x800010, &unused));

	ASSERT_TRUE(uet_rccc_want(&rx, 0x30));
	ASSERT_EQ(0x40, uet_rccc_owed(&rx));
	ASSERT_EQ(64, uet_rccc_grant(&rx, 64));
	ASSERT_EQ(0x30, rx.granted);
	ASSERT_EQ(0, uet_rccc_owed(&rx));
}

TEST(target_asks_for_the_backlog)
{
	struct uet_rccc_tx tx;
	u32 unused;

	uet_rccc_tx_init(&tx, MAXWND, MSS, 100);
	/* speculating, credit covers it: still one request's worth */
	ASSERT_EQ(100 + 16, uet_rccc_target(&tx, 1000, U32_MAX));
	/* ... and nothing with nothing queued */
	ASSERT_EQ(100, uet_rccc_target(&tx, 0, U32_MAX));
	uet_rccc_answered(&tx);
	/* 100,000 bytes: 390.6 quanta, 391 */
	ASSERT_EQ(100 + 391, uet_rccc_target(&tx, 100000, U32_MAX));
	/* at most the window: 150,000 bytes, 585.9 quanta, 586 */
	ASSERT_EQ(100 + 586, uet_rccc_target(&tx, 400000, U32_MAX));
	/* at most what NSCC lets fly: 50,000 bytes, 196 */
	ASSERT_EQ(100 + 196, uet_rccc_target(&tx, 400000, 50000));
	/* less what it holds: 12,800 bytes, 87,200 to go: 340.6, 341 */
	ASSERT_EQ(50 * Q, uet_rccc_credit(&tx, 150, &unused));
	ASSERT_EQ(150 + 341, uet_rccc_target(&tx, 100000, U32_MAX));
}

TEST(asks_only_for_more)
{
	struct uet_rccc_tx tx;

	uet_rccc_tx_init(&tx, MAXWND, MSS, 0);
	ASSERT_TRUE(uet_rccc_ask(&tx, 391));
	ASSERT_FALSE(uet_rccc_ask(&tx, 391));
	ASSERT_FALSE(uet_rccc_ask(&tx, 100));
	ASSERT_TRUE(uet_rccc_ask(&tx, 392));
	ASSERT_EQ(392, tx.asked);
}

TEST(receiver_grants_in_turns)
{
	struct uet_rccc_rx rx = {};

	ASSERT_TRUE(uet_rccc_want(&rx, 100));
	/* older targets, reordered, change nothing */
	ASSERT_FALSE(uet_rccc_want(&rx, 50));
	ASSERT_FALSE(uet_rccc_want(&rx, 100));
	ASSERT_EQ(100, uet_rccc_owed(&rx));
	ASSERT_EQ(64, uet_rccc_grant(&rx, UET_RCCC_GRANT_MAX));
	ASSERT_EQ(36, uet_rccc_owed(&rx));
	ASSERT_EQ(36, uet_rccc_grant(&rx, UET_RCCC_GRANT_MAX));
	ASSERT_EQ(0, uet_rccc_grant(&rx, UET_RCCC_GRANT_MAX));
	ASSERT_EQ(100, rx.granted);
}

/* A target far ahead, forged or not, is owed no more than 16 MiB. */
TEST(owed_at_most)
{
	struct uet_rccc_rx rx = { .target = 10, .granted = 10 };

	ASSERT_TRUE(uet_rccc_want(&rx, 10 + 0x7fffff));
	ASSERT_EQ(UET_RCCC_OWED_MAX, uet_rccc_owed(&rx));
	ASSERT_EQ(10 + UET_RCCC_OWED_MAX, rx.target);
	/* asked again as far: no news */
	ASSERT_FALSE(uet_rccc_want(&rx, 10 + 0x7fffff));
	ASSERT_EQ(64, uet_rccc_grant(&rx, 64));
	ASSERT_TRUE(uet_rccc_want(&rx, 10 + 0x7fffff));
	ASSERT_EQ(UET_RCCC_OWED_MAX, uet_rccc_owed(&rx));
}

/*
 * A target half the count past the grant, which would hide the targets
 * after it, is never taken; nor one not past the grant.
 */
TEST(far_targets_refused)
{
	struct uet_rccc_rx rx = { .target = 15, .granted = 10 };

	ASSERT_FALSE(uet_rccc_want(&rx, 10 + UET_RCCC_COUNT_HALF + 2));
	ASSERT_FALSE(uet_rccc_want(&rx, 10));
	ASSERT_FALSE(uet_rccc_want(&rx, 9));
	ASSERT_EQ(5, uet_rccc_owed(&rx));
	ASSERT_TRUE(uet_rccc_want(&rx, 20));
	ASSERT_EQ(10, uet_rccc_owed(&rx));
}

TEST(pace)
{
	/* 16,384 bytes at 99% of 40 Mb/s (5e6 B/s): 3,309,898.99 ns */
	ASSERT_EQ(3309898, uet_rccc_pace_ns(64, 5000000));
	/* ... of 10 Gb/s: 13,239.59 ns */
	ASSERT_EQ(13239, uet_rccc_pace_ns(64, 1250000000));
	/* a huge grant is paced as 16 MiB, not overflowed */
	ASSERT_EQ(uet_rccc_pace_ns(65536, 5000000),
		  uet_rccc_pace_ns(U32_MAX, 5000000));
}

TEST_HARNESS_MAIN
