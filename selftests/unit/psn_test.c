// SPDX-License-Identifier: GPL-2.0
/* Unit tests of PSN serial-number arithmetic (drivers/uet/psn.h). */
#include "kselftest_harness.h"

#include "psn.h"

TEST(before_after_plain)
{
	EXPECT_TRUE(uet_psn_before(1, 2));
	EXPECT_FALSE(uet_psn_before(2, 1));
	EXPECT_FALSE(uet_psn_before(7, 7));
	EXPECT_TRUE(uet_psn_after(2, 1));
	EXPECT_FALSE(uet_psn_after(7, 7));
}

TEST(wrap_around)
{
	EXPECT_TRUE(uet_psn_before(0xffffffffu, 0));
	EXPECT_TRUE(uet_psn_after(0, 0xffffffffu));
	EXPECT_TRUE(uet_psn_before(0xfffffff0u, 0x10));
	EXPECT_EQ(0x20, uet_psn_diff(0x10, 0xfffffff0u));
	EXPECT_EQ(-0x20, uet_psn_diff(0xfffffff0u, 0x10));
}

/* Half the space is the horizon: beyond it, "before" flips. */
TEST(half_space)
{
	EXPECT_TRUE(uet_psn_before(0, 0x7fffffffu));
	EXPECT_FALSE(uet_psn_before(0, 0x80000001u));
	EXPECT_TRUE(uet_psn_after(0, 0x80000001u));
}

TEST(window)
{
	EXPECT_TRUE(uet_psn_in_window(100, 100, 1));
	EXPECT_FALSE(uet_psn_in_window(101, 100, 1));
	EXPECT_FALSE(uet_psn_in_window(99, 100, 64));
	EXPECT_TRUE(uet_psn_in_window(2, 0xfffffff0u, 64));
	EXPECT_FALSE(uet_psn_in_window(0x30, 0xfffffff0u, 64));
	EXPECT_FALSE(uet_psn_in_window(5, 5, 0));
}

TEST_HARNESS_MAIN
