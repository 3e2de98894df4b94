// SPDX-License-Identifier: GPL-2.0
/*
 * Unit tests of uet_advisor's policy under a queue (selftests/
 * uet_advisor.h) against numbers worked out by hand: a 400 Mbit/s link
 * drains 400 bits a microsecond, so a target of 300 us is 15,000 bytes,
 * and a share of 100 Mbit/s is cut to 88 at most (an eighth, 12).
 */
#include "kselftest_harness.h"

#include "../uet_advisor.h"

#define LINK	400	/* Mbit/s */
#define SHARE	100	/* Mbit/s: the link over four flows */
#define TARGET	300	/* us */

TEST(within_target)
{
	ASSERT_EQ(SHARE, uet_advisor_queue_rate(SHARE, 0, LINK, TARGET));
	ASSERT_EQ(SHARE, uet_advisor_queue_rate(SHARE, 15000, LINK, TARGET));
}

TEST(scaled_by_delay)
{
	/* 16,000 bytes: 320 us; 100 * 300 / 320 = 93.75 */
	ASSERT_EQ(93, uet_advisor_queue_rate(SHARE, 16000, LINK, TARGET));
	/* 17,000 bytes: 340 us; 100 * 300 / 340 = 88.2 */
	ASSERT_EQ(88, uet_advisor_queue_rate(SHARE, 17000, LINK, TARGET));
}

TEST(an_eighth_at_most)
{
	/* 20,000 bytes: 400 us; 75, held at 88 */
	ASSERT_EQ(88, uet_advisor_queue_rate(SHARE, 20000, LINK, TARGET));
	ASSERT_EQ(88, uet_advisor_queue_rate(SHARE, 10000000, LINK, TARGET));
	/* an eighth of less than 8 Mbit/s is less than 1: not cut */
	ASSERT_EQ(7, uet_advisor_queue_rate(7, 20000, LINK, TARGET));
	ASSERT_EQ(1, uet_advisor_queue_rate(1, 20000, LINK, TARGET));
}

TEST(unknown)
{
	/* no backlog read, or no link rate to turn it into a delay */
	ASSERT_EQ(SHARE, uet_advisor_queue_rate(SHARE, -1, LINK, TARGET));
	ASSERT_EQ(SHARE, uet_advisor_queue_rate(SHARE, 20000, 0, TARGET));
}

TEST(fast_link)
{
	/* 400 Gbit/s shared by 4, a target of 10 us (500,000 bytes) */
	ASSERT_EQ(100000, uet_advisor_queue_rate(100000, 500000, 400000, 10));
	/* 550,000 bytes: 11 us; 100,000 * 10 / 11 */
	ASSERT_EQ(90909, uet_advisor_queue_rate(100000, 550000, 400000, 10));
	/* 1,000,000 bytes: 20 us; 50,000, held at 87,500 */
	ASSERT_EQ(87500, uet_advisor_queue_rate(100000, 1000000, 400000, 10));
}

TEST_HARNESS_MAIN
