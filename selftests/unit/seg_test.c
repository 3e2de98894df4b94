// SPDX-License-Identifier: GPL-2.0
/* Unit tests of cutting messages into requests (drivers/uet/seg.h). */
#include "kselftest_harness.h"

#include "seg.h"

/* The pieces of @len cut at @max cover it exactly, in order, evenly. */
static int check(u32 len, u32 max)
{
	struct uet_seg s;
	u64 sum = 0;
	u32 i, n, lo = ~0u, hi = 0;

	uet_seg_init(&s, len, max);
	if (s.count != (len ? (len + (u64)max - 1) / max : 1))
		return 1;
	for (i = 0; i < s.count; i++) {
		n = uet_seg_len(&s, i);
		if (uet_seg_off(&s, i) != sum || n > max || (len && !n))
			return 2;
		sum += n;
		lo = n < lo ? n : lo;
		hi = n > hi ? n : hi;
	}
	/* equal sizes: the last is short by less than one byte per request */
	if (sum != len || hi - lo >= s.count)
		return 3;
	return 0;
}

TEST(four_kib)
{
	struct uet_seg s;

	/* IPv4 at MTU 1500: 1500 - 20 - 8 - 12 - 44 = 1416 bytes a packet */
	uet_seg_init(&s, 4096, 1416);
	EXPECT_EQ(3, s.count);
	EXPECT_EQ(1366, s.size);
	EXPECT_EQ(1366, uet_seg_len(&s, 0));
	EXPECT_EQ(1364, uet_seg_len(&s, 2));
	EXPECT_EQ(2732, uet_seg_off(&s, 2));
}

TEST(empty_is_one_request)
{
	struct uet_seg s;

	uet_seg_init(&s, 0, 1416);
	EXPECT_EQ(1, s.count);
	EXPECT_EQ(0, uet_seg_len(&s, 0));
	EXPECT_EQ(0, uet_seg_off(&s, 0));
}

TEST(exact_multiples_and_one_more)
{
	struct uet_seg s;

	uet_seg_init(&s, 3 * 1416, 1416);
	EXPECT_EQ(3, s.count);
	EXPECT_EQ(1416, s.size);
	uet_seg_init(&s, 3 * 1416 + 1, 1416);
	EXPECT_EQ(4, s.count);
	EXPECT_EQ(1063, s.size);
	EXPECT_EQ(1063 * 3 + 1060, 3 * 1416 + 1);
	EXPECT_EQ(1060, uet_seg_len(&s, 3));
}

TEST(largest_message)
{
	struct uet_seg s;

	/* 4 GiB - 1 at the 14-bit payload limit */
	uet_seg_init(&s, 0xffffffffu, 0x3fff);
	EXPECT_EQ(262161, s.count);
	EXPECT_EQ(0, check(0xffffffffu, 0x3fff));
	EXPECT_EQ(0, check(0xffffffffu, 1));
}

TEST(every_small_length)
{
	u32 len, max;

	for (max = 1; max <= 40; max++)
		for (len = 0; len <= 2000; len++)
			ASSERT_EQ(0, check(len, max)) TH_LOG("len %u max %u", len, max);
}

TEST(pseudo_random)
{
	u64 x = 0x9e3779b97f4a7c15ull;
	int i;

	for (i = 0; i < 100000; i++) {
		x ^= x << 13;
		x ^= x >> 7;
		x ^= x << 17;
		ASSERT_EQ(0, check((u32)x >> (x >> 59), 1 + (u32)(x >> 32) % 0x3fff));
	}
}

TEST_HARNESS_MAIN
