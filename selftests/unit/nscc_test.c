// SPDX-License-Identifier: GPL-2.0
/*
 * Unit tests of NSCC (drivers/uet/nscc.c) against traces computed by hand
 * from the formulas of Documentation/congestion.rst: each reaction once,
 * with the numbers it must give.
 *
 * The path of every test is uet-htsim's reference path, 100 Gb/s and a
 * base RTT of 12 us: a BDP of 150,000 bytes, so the gains are unscaled.
 * With an MSS of 4,000 bytes: fair increase 20,000 bytes a round trip,
 * proportional 16,000 per 12 us below the target, eta 600, the target
 * 9 us, the window's ceiling 225,000.
 */
#include "kselftest_harness.h"

#include "nscc.h"

#define MSS	4000
#define RATE	12500000000ULL	/* 100 Gb/s in bytes/s */
#define BASE	12000
#define T0	1000000000ULL	/* a time far from 0, ns */

FIXTURE(nscc)
{
	struct uet_nscc cc;
};

FIXTURE_SETUP(nscc)
{
	struct uet_nscc_cfg cfg = {
		.mss = MSS, .hdr = UET_NSCC_HDR_IPV4, .rate = RATE,
		.base_rtt = BASE,
	};

	uet_nscc_init(&self->cc, &cfg);
	/* the base is known: the traces below start from a measured path */
	self->cc.measured = true;
}

FIXTURE_TEARDOWN(nscc)
{
}

/* An ACK of one MSS whose request waited @delay ns in queues. */
static enum uet_nscc_event ack(struct uet_nscc *cc, u32 delay, bool ecn,
			       u64 now)
{
	struct uet_nscc_ack a = {
		.bytes = MSS, .rtt = BASE + delay, .ecn = ecn,
	};

	return uet_nscc_ack(cc, &a, now);
}

/* The window and gains of the reference path; it starts at the ceiling. */
TEST_F(nscc, init_from_the_path)
{
	EXPECT_EQ(150000, self->cc.bdp);
	EXPECT_EQ(225000, self->cc.maxwnd);
	EXPECT_EQ(225000, self->cc.cwnd);
	EXPECT_EQ(1 << 16, self->cc.scale);
	EXPECT_EQ(20000, self->cc.fi);
	EXPECT_EQ(16000, self->cc.alpha);
	EXPECT_EQ(600, self->cc.eta);
	EXPECT_EQ(9000, self->cc.target);
}

/* A configured target is kept; the window's floor is one MSS. */
TEST(nscc_configured_target)
{
	struct uet_nscc_cfg cfg = {
		.mss = MSS, .rate = 1000, .base_rtt = BASE, .target = 5000,
	};
	struct uet_nscc cc;

	uet_nscc_init(&cc, &cfg);
	EXPECT_EQ(5000, cc.target);
	/* a BDP of less than an MSS is one MSS */
	EXPECT_EQ(MSS, cc.bdp);
	EXPECT_EQ(MSS * 3 / 2, cc.cwnd);
}

/*
 * The first RTT measured replaces the configured base, longer or not; then
 * a shorter one is the new base: the BDP, ceiling, gains and target follow.
 */
TEST_F(nscc, base_rtt_follows_the_shortest)
{
	struct uet_nscc_ack first = { .bytes = MSS, .rtt = 2 * BASE };

	self->cc.measured = false;
	uet_nscc_ack(&self->cc, &first, T0 - 1);
	EXPECT_EQ(2 * BASE, self->cc.base_rtt);
	EXPECT_EQ(450000, self->cc.maxwnd);

	struct uet_nscc_ack a = { .bytes = MSS, .rtt = BASE / 2 };

	uet_nscc_ack(&self->cc, &a, T0);
	EXPECT_EQ(BASE / 2, self->cc.base_rtt);
	EXPECT_EQ(75000, self->cc.bdp);
	EXPECT_EQ(112500, self->cc.maxwnd);
	EXPECT_EQ(112500, self->cc.cwnd);
	EXPECT_EQ(10000, self->cc.fi);
	EXPECT_EQ(4500, self->cc.target);

	/* a longer one changes nothing */
	a.rtt = BASE;
	uet_nscc_ack(&self->cc, &a, T0 + 1);
	EXPECT_EQ(BASE / 2, self->cc.base_rtt);
}

/*
 * Fair increase (delay at the target, no mark): 20,000 * 4,000 bytes^2 an
 * ACK.  The first ACK adjusts at once (a base RTT since the last):
 * 100,000 + 8e7 / 100,000 + eta = 101,400.  Nine more within the RTT:
 * the ninth passes 8 MSS received and adjusts, 9 * 8e7 / 101,400 = 7,100,
 * without eta.
 */
TEST_F(nscc, fair_increase)
{
	int i;

	self->cc.cwnd = 100000;
	self->cc.in_flight = 100000;
	EXPECT_EQ(UET_NSCC_NONE, ack(&self->cc, 9000, false, T0));
	EXPECT_EQ(101400, self->cc.cwnd);
	EXPECT_EQ(96000, self->cc.in_flight);
	for (i = 1; i <= 8; i++) {
		ack(&self->cc, 9000, false, T0 + i * 1000);
		EXPECT_EQ(101400, self->cc.cwnd);
	}
	ack(&self->cc, 9000, false, T0 + 9000);
	EXPECT_EQ(108500, self->cc.cwnd);
	EXPECT_EQ(0, self->cc.inc);
}

/*
 * Proportional increase (3 us of delay, 6 us below the target):
 * 4,000 * 6,000 / 12,000 * 16,000 = 3.2e7; adjusted at once:
 * 100,000 + 320 + 600.
 */
TEST_F(nscc, proportional_increase)
{
	self->cc.cwnd = 100000;
	EXPECT_EQ(UET_NSCC_NONE, ack(&self->cc, 3000, false, T0));
	EXPECT_EQ(100920, self->cc.cwnd);
	/* the average took 1/80 of the sample */
	EXPECT_EQ(3000 / 80, self->cc.avg_delay);
}

/*
 * Fast increase: without delay, once a window's worth came back (more
 * than 20,000 bytes: the sixth ACK), each ACK adds a quarter of its bytes
 * (the scale is 1) until a delay shows.
 */
TEST_F(nscc, fast_increase)
{
	int i;

	self->cc.cwnd = 20000;
	self->cc.last_adjust = T0;	/* no adjustment by time */
	for (i = 1; i <= 5; i++)
		EXPECT_EQ(UET_NSCC_NONE, ack(&self->cc, 0, false, T0 + i));
	EXPECT_EQ(20000, self->cc.cwnd);
	EXPECT_EQ(UET_NSCC_FAST_INCREASE, ack(&self->cc, 0, false, T0 + 6));
	EXPECT_EQ(21000, self->cc.cwnd);
	EXPECT_EQ(UET_NSCC_FAST_INCREASE, ack(&self->cc, 0, false, T0 + 7));
	EXPECT_EQ(22000, self->cc.cwnd);
	/* a delay of 2 us ends it: back to proportional increase */
	EXPECT_EQ(UET_NSCC_NONE, ack(&self->cc, 2000, false, T0 + 8));
	EXPECT_FALSE(self->cc.increasing);
	EXPECT_EQ(0, self->cc.fi_count);
}

/*
 * Multiplicative decrease: marked, 18 us of delay, the average at 18 us:
 * a cut of 0.8 * (18 - 9) / 18 = 0.4 of the window, once a base RTT.
 */
TEST_F(nscc, multiplicative_decrease)
{
	self->cc.cwnd = 100000;
	self->cc.avg_delay = 18000;
	self->cc.last_adjust = T0;
	EXPECT_EQ(UET_NSCC_DECREASE, ack(&self->cc, 18000, true, T0));
	EXPECT_EQ(60000, self->cc.cwnd);
	EXPECT_EQ(18000, self->cc.avg_delay);
	/* within a base RTT of it: no second cut */
	EXPECT_EQ(UET_NSCC_NONE, ack(&self->cc, 18000, true, T0 + BASE));
	EXPECT_EQ(60000, self->cc.cwnd);
	EXPECT_EQ(UET_NSCC_DECREASE, ack(&self->cc, 18000, true,
					 T0 + BASE + 1));
	/* 60,000 * 0.6, and eta: a base RTT passed since the last step */
	EXPECT_EQ(36000 + 600, self->cc.cwnd);
	/* the context counts its echoes and cuts */
	EXPECT_EQ(3, self->cc.echoes);
	EXPECT_EQ(2, self->cc.cuts);
	EXPECT_EQ(0, self->cc.adapts);
}

/*
 * The PDCs that share a context bring their times in any order: one
 * older than the last cut is taken as the latest, so the once-a-base-RTT
 * rule holds (a time before the last cut would wrap the check).
 */
TEST_F(nscc, clock_never_goes_back)
{
	self->cc.cwnd = 100000;
	self->cc.avg_delay = 18000;
	self->cc.last_adjust = T0 + BASE;
	EXPECT_EQ(UET_NSCC_DECREASE, ack(&self->cc, 18000, true, T0 + BASE));
	EXPECT_EQ(60000, self->cc.cwnd);
	EXPECT_EQ(UET_NSCC_NONE, ack(&self->cc, 18000, true, T0));
	EXPECT_EQ(60000, self->cc.cwnd);
	EXPECT_EQ(T0 + BASE, self->cc.clock);
	EXPECT_EQ(T0 + BASE, self->cc.last_dec);
	EXPECT_EQ(UET_NSCC_TRIM, uet_nscc_trim(&self->cc, MSS, 0, T0 - 1));
	EXPECT_EQ(T0 + BASE, self->cc.clock);
}

/* A cut is at most half the window, however high the average. */
TEST_F(nscc, decrease_at_most_half)
{
	self->cc.cwnd = 100000;
	self->cc.avg_delay = 1000000;
	self->cc.last_adjust = T0;
	EXPECT_EQ(UET_NSCC_DECREASE, ack(&self->cc, 1000000, true, T0));
	EXPECT_EQ(50000, self->cc.cwnd);
}

/* Marked but below the target, or the average at the target: no cut. */
TEST_F(nscc, mark_without_delay_cuts_nothing)
{
	self->cc.cwnd = 100000;
	self->cc.last_adjust = T0;
	EXPECT_EQ(UET_NSCC_NONE, ack(&self->cc, 1000, true, T0));
	EXPECT_EQ(100000, self->cc.cwnd);
	/* high delay, but the average (1/80 of it) is far below T */
	EXPECT_EQ(UET_NSCC_NONE, ack(&self->cc, 20000, true, T0 + 1));
	EXPECT_EQ(100000, self->cc.cwnd);
}

/*
 * Quick adapt: the first ACK opens a period of a base RTT and T (21 us).
 * After it, an ACK with a delay above 4 T (36 us) while the period
 * achieved less than maxwnd / 8 (28,125 bytes) sets the window to what
 * was achieved; the ECN echoes of the bytes then in flight are ignored.
 */
TEST_F(nscc, quick_adapt)
{
	self->cc.cwnd = 100000;
	self->cc.in_flight = 100000;
	ack(&self->cc, 9000, false, T0);
	EXPECT_EQ(T0 + BASE + 9000, self->cc.qa_end);
	EXPECT_EQ(UET_NSCC_QUICK_ADAPT, ack(&self->cc, 40000, false,
					    T0 + 22000));
	EXPECT_EQ(MSS, self->cc.cwnd);
	EXPECT_EQ(92000, self->cc.to_ignore);
	EXPECT_EQ(UET_NSCC_IGNORED, ack(&self->cc, 40000, true, T0 + 23000));
	EXPECT_EQ(MSS, self->cc.cwnd);
	/* unmarked ACKs still count */
	self->cc.last_adjust = T0 + 23000;
	EXPECT_EQ(UET_NSCC_NONE, ack(&self->cc, 9000, false, T0 + 24000));
}

/* A period that achieved enough does not adapt, whatever the delay. */
TEST_F(nscc, quick_adapt_needs_a_poor_period)
{
	struct uet_nscc_ack a = { .bytes = 30000, .rtt = BASE + 40000 };

	self->cc.cwnd = 100000;
	ack(&self->cc, 9000, false, T0);
	EXPECT_EQ(UET_NSCC_NONE, uet_nscc_ack(&self->cc, &a, T0 + 22000));
	EXPECT_LT(MSS, self->cc.cwnd);
	/* a new period opened */
	EXPECT_EQ(T0 + 22000 + BASE + 9000, self->cc.qa_end);
	EXPECT_EQ(0, self->cc.achieved);
}

/*
 * A trim takes its bytes off the window and asks for quick adapt, which
 * acts at the end of the period on the next ACK, whatever its delay.
 */
TEST_F(nscc, trim)
{
	self->cc.cwnd = 100000;
	EXPECT_EQ(UET_NSCC_TRIM, uet_nscc_trim(&self->cc, MSS, 0, T0));
	EXPECT_EQ(96000, self->cc.cwnd);
	/* the average took a base RTT as the trimmed request's delay */
	EXPECT_EQ(BASE / 80, self->cc.avg_delay);
	EXPECT_TRUE(self->cc.trigger_qa);
	EXPECT_EQ(UET_NSCC_QUICK_ADAPT, ack(&self->cc, 0, false, T0 + 22000));
	EXPECT_EQ(MSS, self->cc.cwnd);
	EXPECT_FALSE(self->cc.trigger_qa);
	EXPECT_EQ(1, self->cc.cuts);
	EXPECT_EQ(1, self->cc.adapts);
}

/*
 * After a quick adapt, the echoes of what was then in flight are ignored,
 * and no more: however much comes back afterwards, an echo counts.
 */
TEST_F(nscc, echoes_ignored_for_what_was_in_flight)
{
	self->cc.cwnd = 100000;
	self->cc.avg_delay = 18000;
	self->cc.last_adjust = T0;
	self->cc.qa_end = T0 + 1000000;		/* no quick adapt meanwhile */
	self->cc.to_ignore = 2 * MSS;
	EXPECT_EQ(UET_NSCC_IGNORED, ack(&self->cc, 18000, true, T0));
	EXPECT_EQ(MSS, self->cc.ignored);
	EXPECT_EQ(UET_NSCC_NONE, ack(&self->cc, 18000, false, T0 + 1));
	EXPECT_EQ(2 * MSS, self->cc.ignored);
	/* caught up: a mark cuts again, and the count stays */
	EXPECT_EQ(UET_NSCC_DECREASE, ack(&self->cc, 18000, true, T0 + 2));
	EXPECT_EQ(2 * MSS, self->cc.ignored);
	self->cc.ignored = 2 * MSS;
	uet_nscc_trim(&self->cc, 0xffffffffu, 0, T0 + 3);
	EXPECT_EQ(2 * MSS, self->cc.ignored);
}

/* A timeout takes the request's bytes off; the floor is one MSS. */
TEST_F(nscc, timeout)
{
	self->cc.cwnd = 10000;
	EXPECT_EQ(UET_NSCC_TIMEOUT, uet_nscc_timeout(&self->cc, MSS));
	EXPECT_EQ(6000, self->cc.cwnd);
	uet_nscc_timeout(&self->cc, MSS);
	EXPECT_EQ(MSS, self->cc.cwnd);
	uet_nscc_timeout(&self->cc, MSS);
	EXPECT_EQ(MSS, self->cc.cwnd);
}

/* The window gates what leaves: requests go while in flight < window. */
TEST_F(nscc, window_gates_sending)
{
	struct uet_nscc_ack a = { .bytes = uet_nscc_bytes(&self->cc, MSS) };

	/* a request counts for its frame on an IPv4 Ethernet link */
	EXPECT_EQ(MSS + 38 + 20 + 8 + 16 + 44, uet_nscc_bytes(&self->cc, MSS));
	self->cc.cwnd = 3 * MSS;
	self->cc.last_adjust = T0;
	EXPECT_TRUE(uet_nscc_may_send(&self->cc));
	uet_nscc_sent(&self->cc, uet_nscc_bytes(&self->cc, MSS));
	uet_nscc_sent(&self->cc, uet_nscc_bytes(&self->cc, MSS));
	EXPECT_TRUE(uet_nscc_may_send(&self->cc));
	uet_nscc_sent(&self->cc, uet_nscc_bytes(&self->cc, MSS));
	EXPECT_FALSE(uet_nscc_may_send(&self->cc));
	uet_nscc_ack(&self->cc, &a, T0 + 1);
	EXPECT_EQ(2 * uet_nscc_bytes(&self->cc, MSS), self->cc.in_flight);
	EXPECT_TRUE(uet_nscc_may_send(&self->cc));
}

/* Increases stop at the ceiling, however many ACKs. */
TEST_F(nscc, ceiling_holds)
{
	int i;

	for (i = 0; i < 1000; i++)
		ack(&self->cc, 9000, false, T0 + (u64)i * BASE);
	EXPECT_EQ(self->cc.maxwnd, self->cc.cwnd);
}

/*
 * A fixed base RTT stays, whatever is measured; a configured BDP sizes
 * the ceiling and the gains, whatever the base RTT and the rate.
 */
TEST(nscc_fixed_base_and_bdp)
{
	struct uet_nscc_cfg cfg = {
		.mss = MSS, .rate = RATE, .base_rtt = BASE, .base_fixed = true,
		.bdp = 75000,
	};
	struct uet_nscc_ack a = { .bytes = MSS, .rtt = BASE / 2 };
	struct uet_nscc cc;

	uet_nscc_init(&cc, &cfg);
	EXPECT_EQ(75000, cc.bdp);
	EXPECT_EQ(112500, cc.maxwnd);
	EXPECT_EQ(10000, cc.fi);	/* half the reference's */
	EXPECT_EQ(9000, cc.target);
	uet_nscc_ack(&cc, &a, T0);
	EXPECT_EQ(BASE, cc.base_rtt);
	/* the sample is 6 us below the base: no delay, not an underflow */
	EXPECT_EQ(0, cc.avg_delay);
	uet_nscc_base(&cc, 1);
	EXPECT_EQ(BASE, cc.base_rtt);
	EXPECT_EQ(75000, cc.bdp);
}

/*
 * Gains of the configuration: fair increase 2.5 MSS (10,000 bytes),
 * proportional 1 MSS, eta 0.5 MSS (2,000), decrease 0.4, half of the
 * bytes in flight ignored after a quick adapt; and gains above their
 * bounds taken at them.
 */
TEST(nscc_configured_gains)
{
	struct uet_nscc_gains g = {
		.fi = 250, .alpha = 100, .eta = 50, .md = 40, .ignore = 50,
	};
	struct uet_nscc_cfg cfg = {
		.mss = MSS, .rate = RATE, .base_rtt = BASE, .gains = &g,
	};
	struct uet_nscc cc;

	uet_nscc_init(&cc, &cfg);
	cc.measured = true;
	EXPECT_EQ(10000, cc.fi);
	EXPECT_EQ(4000, cc.alpha);
	EXPECT_EQ(2000, cc.eta);

	/* fair increase, adjusted at once: 100,000 + 4e7 / 1e5 + 2,000 */
	cc.cwnd = 100000;
	EXPECT_EQ(UET_NSCC_NONE, ack(&cc, 9000, false, T0));
	EXPECT_EQ(102400, cc.cwnd);

	/* a cut of 0.4 * (18 - 9) / 18 = 0.2 of the window */
	cc.cwnd = 100000;
	cc.avg_delay = 18000;
	cc.last_adjust = T0 + BASE;
	EXPECT_EQ(UET_NSCC_DECREASE, ack(&cc, 18000, true, T0 + BASE));
	EXPECT_EQ(80000, cc.cwnd);

	/* quick adapt ignores the echoes of half of what was in flight */
	cc.avg_delay = 0;
	cc.in_flight = 100000;
	cc.qa_end = T0 + 2 * BASE;
	EXPECT_EQ(UET_NSCC_QUICK_ADAPT, ack(&cc, 40000, false,
					    T0 + 2 * BASE + 1));
	EXPECT_EQ(48000, cc.to_ignore);

	g = (struct uet_nscc_gains) {
		.fi = 65535, .alpha = 65535, .eta = 65535, .md = 255,
		.ignore = 255,
	};
	uet_nscc_init(&cc, &cfg);
	EXPECT_EQ(UET_NSCC_GAIN_MAX, cc.gains.fi);
	EXPECT_EQ(UET_NSCC_GAIN_MAX, cc.gains.eta);
	EXPECT_EQ(100, cc.gains.md);
	EXPECT_EQ(100, cc.gains.ignore);
	EXPECT_EQ(100 * MSS, cc.fi);
}

/*
 * A shared window: each PDC's share is the window divided among the PDCs
 * sending and the one asking, one MSS at least; one with nothing in
 * flight counts itself, and may always send.
 */
TEST_F(nscc, share_among_pdcs)
{
	self->cc.cwnd = 120000;
	EXPECT_EQ(120000, uet_nscc_share(&self->cc, 0, 0));
	EXPECT_EQ(120000, uet_nscc_share(&self->cc, 1, 5000));
	/* two sending, a third asks: a third each */
	EXPECT_EQ(40000, uet_nscc_share(&self->cc, 2, 0));
	EXPECT_EQ(60000, uet_nscc_share(&self->cc, 2, 5000));
	/* a window cut below an MSS a PDC */
	self->cc.cwnd = 3 * MSS;
	EXPECT_EQ(MSS, uet_nscc_share(&self->cc, 10, MSS));
	EXPECT_GT(uet_nscc_share(&self->cc, 10, 0), 0);
}

/* No valid RTT: the average delay stands in for the sample. */
TEST_F(nscc, no_sample_uses_the_average)
{
	struct uet_nscc_ack a = { .bytes = MSS, .ecn = true };

	self->cc.cwnd = 100000;
	self->cc.avg_delay = 18000;
	self->cc.last_adjust = T0;
	EXPECT_EQ(UET_NSCC_DECREASE, uet_nscc_ack(&self->cc, &a, T0));
	EXPECT_EQ(60000, self->cc.cwnd);
	EXPECT_EQ(18000, self->cc.avg_delay);
}

TEST_HARNESS_MAIN
