/* SPDX-License-Identifier: GPL-2.0 */
/*
 * NSCC, UET's sender-based congestion control: a congestion window driven
 * by the delay of each acknowledged request (its RTT less the base RTT)
 * and by ECN echoes, with SMaRTT's reactions: fair and proportional
 * increase, fast increase, multiplicative decrease, quick adapt, and the
 * trim and timeout reactions.  The reference is the UEC's simulator
 * (uet-htsim, htsim/sim/uec.cpp); Documentation/congestion.rst gives the
 * maths, the constants and where each comes from.
 *
 * Part of the protocol core: no packets, no locks, no clock (the caller
 * passes the time), no floating point, so the userspace unit tests compile
 * it as is.  The caller serialises every call on one struct uet_nscc.
 */
#ifndef _UET_NSCC_H
#define _UET_NSCC_H

#include <linux/minmax.h>
#include <linux/types.h>

/*
 * What one request counts for beyond its payload, in the window and in
 * RCCC's credit: what the link carries for it besides, on an IPv4 path:
 * Ethernet's 38 bytes a frame (preamble and start delimiter 8, header 14,
 * FCS 4, inter-frame gap 12), IPv4 20, UDP 8, the largest PDS request
 * header, with its CC state, 16 (struct uet_pds_req_cc; RUD without RCCC
 * has 12, RUDI 8) and a standard SES header 44 (struct uet_ses_std).  An
 * IPv6 header is 20 bytes longer.  Counted so, the
 * senders of a receiver's credit, paced at 99% of its link rate, send no
 * faster than that link carries.  (uet-htsim counts 64 bytes, its MTU
 * less its MSS.)
 */
#define UET_NSCC_HDR_IPV4	126
#define UET_NSCC_HDR_IPV6	146

/* The largest increase gain, in hundredths of an MSS: 100 MSS */
#define UET_NSCC_GAIN_MAX	10000

/**
 * struct uet_nscc_gains - how strongly NSCC reacts
 * @fi: the fair increase of a round trip ...
 * @alpha: ... the proportional increase of a round trip whose delay is
 *	the reference RTT (12 us) below the target ...
 * @eta: ... and the increase once a base RTT: each in hundredths of an
 *	MSS scaled to the path, at most %UET_NSCC_GAIN_MAX.
 * @md: the multiplicative decrease's gain, percent.
 * @ignore: the share of the bytes in flight at a quick adapt whose ECN
 *	echoes are ignored, percent.
 *
 * %UET_NSCC_GAINS_DEFAULT has uet-htsim's (Documentation/congestion.rst).
 */
struct uet_nscc_gains {
	u16 fi;
	u16 alpha;
	u16 eta;
	u8 md;
	u8 ignore;
};

#define UET_NSCC_GAINS_DEFAULT ((struct uet_nscc_gains) {		\
	.fi = 500, .alpha = 400, .eta = 15, .md = 80, .ignore = 100,	\
})

/**
 * enum uet_nscc_param - NSCC's parameters as a device or a job sets them
 * @UET_NSCC_P_TARGET_US: the target queueing delay, us; 0: derived.
 * @UET_NSCC_P_BASE_RTT_US: the base RTT, us, fixed; 0: measured.
 * @UET_NSCC_P_BDP: bytes; 0: derived.
 * @UET_NSCC_P_MTU: the largest request, bytes; 0: the netdev's MTU.
 * @UET_NSCC_P_FI: struct uet_nscc_gains's @fi ...
 * @UET_NSCC_P_ALPHA: ... @alpha ...
 * @UET_NSCC_P_ETA: ... @eta ...
 * @UET_NSCC_P_MD: ... @md ...
 * @UET_NSCC_P_IGNORE: ... and @ignore.
 * @UET_NSCC_NUM_PARAMS: how many.
 */
enum uet_nscc_param {
	UET_NSCC_P_TARGET_US,
	UET_NSCC_P_BASE_RTT_US,
	UET_NSCC_P_BDP,
	UET_NSCC_P_MTU,
	UET_NSCC_P_FI,
	UET_NSCC_P_ALPHA,
	UET_NSCC_P_ETA,
	UET_NSCC_P_MD,
	UET_NSCC_P_IGNORE,
	UET_NSCC_NUM_PARAMS
};

/**
 * struct uet_nscc_cfg - what a congestion context is set up from
 * @mss: bytes of the largest request as the netdev's MTU counts it (an
 *	IP packet).  The window never shrinks below it.
 * @hdr: bytes a request counts for beyond its payload: %UET_NSCC_HDR_IPV4
 *	or %UET_NSCC_HDR_IPV6.
 * @rate: the link's rate, bytes per second.
 * @base_rtt: ns: the round trip of an idle path, assumed until the first
 *	one is measured ...
 * @base_fixed: ... or for good: no round trip measured replaces it.
 * @bdp: bytes: the bandwidth-delay product; 0: @rate times the base RTT,
 *	as it is measured.
 * @target: ns: the queueing delay to aim for; 0: three quarters of the
 *	base RTT, as it is measured.
 * @gains: the gains; %NULL: %UET_NSCC_GAINS_DEFAULT.
 */
struct uet_nscc_cfg {
	u32 mss;
	u32 hdr;
	u64 rate;
	u32 base_rtt;
	bool base_fixed;
	u32 bdp;
	u32 target;
	const struct uet_nscc_gains *gains;
};

/**
 * struct uet_nscc - one congestion context
 * @mss: from the configuration.
 * @hdr: from the configuration.
 * @rate: from the configuration.
 * @target_cfg: from the configuration.
 * @bdp_cfg: from the configuration (its @bdp).
 * @gains: from the configuration.
 * @base_fixed: from the configuration.
 * @base_rtt: ns: the shortest RTT measured, or the configured one before
 *	the first.
 * @target: ns: the target queueing delay in use.
 * @bdp: bytes: @base_rtt at @rate.
 * @maxwnd: bytes: the window's ceiling, 1.5 @bdp.
 * @scale: @bdp against uet-htsim's reference BDP, Q16: what scales the
 *	gains to this path.
 * @fi: bytes: the fair increase of one round trip.
 * @eta: bytes: the increase once per base RTT.
 * @alpha: bytes: the proportional increase of one round trip whose delay
 *	is the reference RTT below the target.
 * @cwnd: bytes: the congestion window.
 * @in_flight: bytes of the requests sent and not acknowledged.
 * @avg_delay: ns: the delay's moving average.
 * @inc: bytes squared: the increases since the last adjustment; the
 *	window grows by @inc / @cwnd.
 * @received: bytes acknowledged since the last adjustment.
 * @achieved: bytes acknowledged in the quick-adapt period.
 * @fi_count: bytes acknowledged in a row with no delay.
 * @to_ignore: bytes in flight when quick adapt acted: their ECN echoes
 *	are old news.
 * @ignored: bytes acknowledged or trimmed since, up to @to_ignore.
 * @last_adjust: ns: time of the last @eta step.
 * @last_dec: ns: time of the last multiplicative decrease.
 * @qa_end: ns: the end of the quick-adapt period; 0 before the first.
 * @clock: ns: the latest time an ACK or a trim brought: what the window's
 *	reactions are timed by, which never goes back (the PDCs that share a
 *	context read the time each under its own lock).
 * @increasing: fast increase is on.
 * @trigger_qa: a trim asks for quick adapt at the period's end.
 * @measured: @base_rtt was measured (or is fixed).
 * @echoes: ACKs with an ECN echo ...
 * @cuts: ... cuts of the window (multiplicative decrease, trim, timeout)
 *	...
 * @adapts: ... and quick adapts, since the context was set up.
 */
struct uet_nscc {
	u32 mss;
	u32 hdr;
	u64 rate;
	u32 target_cfg;
	u32 bdp_cfg;
	struct uet_nscc_gains gains;
	bool base_fixed;

	u32 base_rtt;
	u32 target;
	u32 bdp;
	u32 maxwnd;
	u32 scale;
	u32 fi;
	u32 eta;
	u32 alpha;

	u32 cwnd;
	u32 in_flight;
	u32 avg_delay;
	u64 inc;
	u32 received;
	u32 achieved;
	u32 fi_count;
	u32 to_ignore;
	u32 ignored;
	u64 last_adjust;
	u64 last_dec;
	u64 qa_end;
	u64 clock;
	bool increasing;
	bool trigger_qa;
	bool measured;
	u32 echoes;
	u32 cuts;
	u32 adapts;
};

/**
 * enum uet_nscc_event - what an ACK, a trim or a timeout did to the window
 * @UET_NSCC_NONE: no change but increases waiting for the next adjustment.
 * @UET_NSCC_IGNORED: an ECN echo of what was in flight at the last quick
 *	adapt: no reaction.
 * @UET_NSCC_QUICK_ADAPT: the window became what the period achieved.
 * @UET_NSCC_FAST_INCREASE: the window grew by what was acknowledged.
 * @UET_NSCC_DECREASE: multiplicative decrease.
 * @UET_NSCC_TRIM: a trimmed request's bytes came off the window.
 * @UET_NSCC_TIMEOUT: a timed-out request's bytes came off the window.
 */
enum uet_nscc_event {
	UET_NSCC_NONE,
	UET_NSCC_IGNORED,
	UET_NSCC_QUICK_ADAPT,
	UET_NSCC_FAST_INCREASE,
	UET_NSCC_DECREASE,
	UET_NSCC_TRIM,
	UET_NSCC_TIMEOUT,
};

/**
 * struct uet_nscc_ack - what an ACK tells the congestion context
 * @bytes: bytes of the requests it newly acknowledged.
 * @rtt: ns: the round trip of the request that asked for it, less the
 *	time the target held the ACK; 0: no valid sample (the request was
 *	sent again, or left too long ago).
 * @ecn: that request arrived marked CE.
 */
struct uet_nscc_ack {
	u32 bytes;
	u32 rtt;
	bool ecn;
};

void uet_nscc_init(struct uet_nscc *cc, const struct uet_nscc_cfg *cfg);
enum uet_nscc_event uet_nscc_ack(struct uet_nscc *cc,
				 const struct uet_nscc_ack *ack, u64 now);
enum uet_nscc_event uet_nscc_trim(struct uet_nscc *cc, u32 bytes, u32 rtt,
				  u64 now);
enum uet_nscc_event uet_nscc_timeout(struct uet_nscc *cc, u32 bytes);
void uet_nscc_base(struct uet_nscc *cc, u32 rtt);

/* @ev cut the window: what the counters call a cut. */
static inline bool uet_nscc_cut(enum uet_nscc_event ev)
{
	return ev == UET_NSCC_DECREASE || ev == UET_NSCC_TRIM ||
	       ev == UET_NSCC_TIMEOUT;
}

/* What a request of @len payload bytes counts for in @cc's window. */
static inline u32 uet_nscc_bytes(const struct uet_nscc *cc, u32 len)
{
	return len + cc->hdr;
}

/* The window has room for another request. */
static inline bool uet_nscc_may_send(const struct uet_nscc *cc)
{
	return cc->in_flight < cc->cwnd;
}

/*
 * The share of the window of one of the PDCs that share it (a congestion
 * context, pds_ccx.c), @own bytes in flight, when @sending of them have
 * requests in flight: the window divided among those and the asking PDC
 * if it is not one of them, at least an MSS.  A PDC with nothing in
 * flight may always send.
 */
static inline u32 uet_nscc_share(const struct uet_nscc *cc, u32 sending,
				 u32 own)
{
	u32 n = sending + !own;

	return max(cc->cwnd / (n ?: 1), cc->mss);
}

/* A request of @bytes (uet_nscc_bytes()) left. */
static inline void uet_nscc_sent(struct uet_nscc *cc, u32 bytes)
{
	cc->in_flight += bytes;
}

#endif /* _UET_NSCC_H */
