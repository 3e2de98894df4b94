// SPDX-License-Identifier: GPL-2.0
/*
 * Unit tests of rate advice (drivers/uet/ra.c) against numbers worked out
 * by hand from Documentation/rate-advice.rst: the message's bytes and its
 * refusals; the cap's moves towards advice, its bounds and its lapse; the
 * pace a cap keeps.
 */
#include <string.h>

#include "kselftest_harness.h"

#include "ra.h"
#include "wire.h"

#define MS	1000000ULL
#define LINK	10000		/* Mbit/s */
#define FLOOR	100

/*
 * 10 Gbit/s to 198.18.0.2 for 250 ms, PDC 0x4001: prologue 31 << 11,
 * version 1, rate 0x2710, SPDCID, lifetime 0xfa, ::ffff:198.18.0.2.
 */
static const u8 advice_bytes[] = {
	0xf8, 0x00, 0x00, 0x01, 0x00, 0x00, 0x27, 0x10,
	0x40, 0x01, 0x00, 0xfa,
	0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0xff, 0xff, 198, 18, 0, 2,
};

static struct uet_ra_info advice(u32 mbps, u16 lifetime_ms)
{
	struct uet_ra_info info = {
		.version = UET_RA_VERSION,
		.rate_mbps = mbps,
		.spdcid = 0x4001,
		.lifetime_ms = lifetime_ms,
	};

	info.daddr.s6_addr[10] = 0xff;
	info.daddr.s6_addr[11] = 0xff;
	info.daddr.s6_addr[12] = 198;
	info.daddr.s6_addr[13] = 18;
	info.daddr.s6_addr[15] = 2;
	return info;
}

TEST(message_bytes)
{
	struct uet_ra_info want = advice(10000, 250), got;
	u8 buf[64];

	ASSERT_EQ(sizeof(advice_bytes), uet_ra_build(buf, sizeof(buf), &want));
	ASSERT_EQ(0, memcmp(buf, advice_bytes, sizeof(advice_bytes)));
	ASSERT_EQ(sizeof(advice_bytes),
		  uet_ra_parse(advice_bytes, sizeof(advice_bytes), &got));
	ASSERT_EQ(0, memcmp(&want, &got, sizeof(got)));
}

TEST(message_refusals)
{
	struct uet_ra_info info = advice(1, 0);
	u8 buf[sizeof(advice_bytes) + 1];

	memcpy(buf, advice_bytes, sizeof(advice_bytes));
	/* short, long */
	ASSERT_EQ(-EMSGSIZE, uet_ra_parse(buf, sizeof(advice_bytes) - 1, &info));
	ASSERT_EQ(-EMSGSIZE, uet_ra_parse(buf, sizeof(buf), &info));
	/* another PDS type: a RUD request */
	buf[0] = UET_PDS_TYPE_RUD_REQ << 3;
	ASSERT_EQ(-EPROTONOSUPPORT, uet_ra_parse(buf, sizeof(advice_bytes), &info));
	/* a next header, a flag */
	buf[0] = 0xf8 | 0x01;
	ASSERT_EQ(-EINVAL, uet_ra_parse(buf, sizeof(advice_bytes), &info));
	buf[0] = 0xf8;
	buf[1] = 0x40;
	ASSERT_EQ(-EINVAL, uet_ra_parse(buf, sizeof(advice_bytes), &info));
	/* version 2 */
	buf[1] = 0;
	buf[3] = 2;
	ASSERT_EQ(-EPROTONOSUPPORT, uet_ra_parse(buf, sizeof(advice_bytes), &info));
	/* the builder: no room, another version */
	info = advice(1, 0);
	ASSERT_EQ(-EMSGSIZE, uet_ra_build(buf, sizeof(advice_bytes) - 1, &info));
	info.version = 2;
	ASSERT_EQ(-EINVAL, uet_ra_build(buf, sizeof(buf), &info));
}

/* From the link's rate a quarter of the way to 1000 each time. */
TEST(cap_moves_a_quarter_of_the_way)
{
	struct uet_ra_info info = advice(1000, 0);
	struct uet_ra ra = {};

	ASSERT_EQ(UET_RA_APPLIED, uet_ra_advise(&ra, 0, &info, FLOOR, LINK));
	ASSERT_EQ(1000, ra.advised);
	ASSERT_EQ(7750, ra.cap);		/* 10000 - 9000 / 4 */
	uet_ra_advise(&ra, MS, &info, FLOOR, LINK);
	ASSERT_EQ(6063, ra.cap);		/* 7750 - 6750 / 4 (1687) */
	/* converges, and reaches it: the last steps are of 1 */
	for (int i = 0; i < 60; i++)
		uet_ra_advise(&ra, (2 + i) * MS, &info, FLOOR, LINK);
	ASSERT_EQ(1000, ra.cap);
	/* up again as gradually */
	info.rate_mbps = 5000;
	uet_ra_advise(&ra, 70 * MS, &info, FLOOR, LINK);
	ASSERT_EQ(2000, ra.cap);		/* 1000 + 4000 / 4 */
}

/* Advice beyond the link or below the floor counts as the bound. */
TEST(cap_bounds)
{
	struct uet_ra_info info = advice(400000, 0);
	struct uet_ra ra = {};

	uet_ra_advise(&ra, 0, &info, FLOOR, LINK);
	ASSERT_EQ(LINK, ra.advised);
	ASSERT_EQ(LINK, ra.cap);
	info.rate_mbps = 1;
	for (int i = 0; i < 100; i++)
		uet_ra_advise(&ra, i * MS, &info, FLOOR, LINK);
	ASSERT_EQ(FLOOR, ra.advised);
	ASSERT_EQ(FLOOR, ra.cap);
}

/* Advice holds its lifetime (1 s by default), a rate of 0 withdraws it. */
TEST(lapse_and_withdrawal)
{
	struct uet_ra_info info = advice(1000, 250);
	struct uet_ra ra = {};

	uet_ra_advise(&ra, 0, &info, FLOOR, LINK);
	ASSERT_FALSE(uet_ra_expire(&ra, 250 * MS - 1));
	ASSERT_TRUE(uet_ra_expire(&ra, 250 * MS));
	ASSERT_EQ(0, ra.cap);
	ASSERT_EQ(0, ra.advised);
	ASSERT_FALSE(uet_ra_expire(&ra, 300 * MS));	/* once */
	info.lifetime_ms = 0;
	uet_ra_advise(&ra, 300 * MS, &info, FLOOR, LINK);
	ASSERT_EQ(7750, ra.cap);		/* from the link again */
	ASSERT_FALSE(uet_ra_expire(&ra, 1299 * MS));
	ASSERT_TRUE(uet_ra_expire(&ra, 1300 * MS));
	uet_ra_advise(&ra, 1400 * MS, &info, FLOOR, LINK);
	info.rate_mbps = 0;
	ASSERT_EQ(UET_RA_RELEASED, uet_ra_advise(&ra, 1401 * MS, &info,
						 FLOOR, LINK));
	ASSERT_EQ(0, ra.cap);
	ASSERT_TRUE(uet_ra_may_send(&ra, 1402 * MS));
	ASSERT_EQ(0, uet_ra_wait_ns(&ra));
}

/*
 * At 100 Mbit/s (12.5 bytes a us) a sender that sends 4000-byte packets
 * whenever it may spends its 64 KiB burst first, then one packet per 320
 * us: over a second, 100 Mbit and a burst.
 */
TEST(pace)
{
	struct uet_ra_info info = advice(FLOOR, 0);
	struct uet_ra ra = {};
	u64 now = 0, sent = 0;
	int burst = 0;

	for (int i = 0; i < 100; i++)
		uet_ra_advise(&ra, 0, &info, FLOOR, LINK);
	ASSERT_EQ(FLOOR, ra.cap);
	ra.tokens = UET_RA_BURST;
	while (uet_ra_may_send(&ra, now)) {
		uet_ra_sent(&ra, 4000);
		burst++;
	}
	ASSERT_EQ(17, burst);			/* 65536 / 4000, and the last */
	ASSERT_EQ(65536 - 17 * 4000, ra.tokens);
	/* 2464 bytes owed and one more: 197,200 ns at 12.5 bytes a us */
	ASSERT_EQ(197200, uet_ra_wait_ns(&ra));
	ASSERT_FALSE(uet_ra_may_send(&ra, 197199));
	ASSERT_TRUE(uet_ra_may_send(&ra, 197200));
	now = 197200;
	while (now < 1000 * MS) {
		if (uet_ra_may_send(&ra, now)) {
			uet_ra_sent(&ra, 4000);
			sent += 4000;
		} else {
			now += uet_ra_wait_ns(&ra);
		}
	}
	/* 12.5 MB in the second, give or take a packet */
	ASSERT_LE(12500000 - 4000, sent);
	ASSERT_GE(12500000 + 4000, sent);
	/* a long pause refills no more than a burst */
	ASSERT_TRUE(uet_ra_may_send(&ra, now + 10000 * MS));
	ASSERT_EQ(UET_RA_BURST, ra.tokens);
}

TEST_HARNESS_MAIN
