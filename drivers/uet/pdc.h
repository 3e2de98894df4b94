/* SPDX-License-Identifier: GPL-2.0 */
/*
 * PDC reliability core: the state machine of one packet delivery context
 * (PDC), the sender's window of outstanding PSNs with ACK/SACK/NACK
 * processing, retransmission choice and the RTO estimator, and the
 * receiver's window of received PSNs with ACK generation.
 *
 * Where it comes from: the PDS sublayer of UEC 1.0 as the UE overview
 * paper and the packet walkthrough describe it (zero-RTT PDC creation: the
 * initiator sends with SYN until the first ACK; 1-RTT close; RUD, ROD,
 * RUDI and UUD; selective ACK for RUD, go-back-N for ROD), the ACK and
 * NACK fields of Documentation/wire-format.rst, and RFC 6298 for the RTO.
 *
 * Everything works on host-order values and caller-provided memory: no
 * allocation, no locks, no timers, no clock.  Time is a u64 in
 * nanoseconds that the caller passes in.  Part of the protocol core, so
 * the userspace unit tests and fuzzers compile it as is.
 *
 * Locking: the caller serialises every call on one struct uet_pdc (the
 * kernel side holds the PDC's lock).  Nothing here sleeps, so any context
 * will do, softirq included.
 *
 * How the caller drives a PDC:
 *  - send: take the retransmits uet_pdc_tx_next_rtx() hands out before new
 *    PSNs from uet_pdc_tx_alloc() (new requests only in CLOSED, SYN_SENT
 *    and ESTABLISHED; in CLOSING just the CLOSE command), then
 *    uet_pdc_transition(UET_PDC_EV_SEND).  Set SYN until an ACK has
 *    acknowledged something (the state is UET_PDC_SYN_SENT, or
 *    UET_PDC_CLOSE_REQUESTED entered from it), and AR on retransmits and
 *    when uet_pdc_tx_window_full().  Start the RTO timer, uet_pdc_rto(), when
 *    it is not running (RFC 6298 (5.1)).
 *  - ACK: uet_pdc_tx_ack(), then uet_pdc_transition(UET_PDC_EV_ACK).
 *    Restart the RTO timer if it acknowledged something and PSNs remain in
 *    flight, stop it when none do (RFC 6298 (5.2), (5.3)).
 *  - NACK asking for a retransmit: uet_pdc_tx_nack(), then
 *    uet_pdc_transition(UET_PDC_EV_NACK).  NACK saying the receiver has
 *    no buffer for a PSN yet: uet_pdc_tx_rnr(); when the timer expires,
 *    uet_pdc_tx_rnr_probe() first.
 *  - RTO expiry: uet_pdc_tx_timeout(), then
 *    uet_pdc_transition(UET_PDC_EV_TIMEOUT); restart the timer with the
 *    backed-off uet_pdc_rto() unless the PDC closed.
 *  - request received: uet_pdc_transition(UET_PDC_EV_RECV or _RECV_SYN),
 *    then uet_pdc_rx_packet() says what to do with it, and
 *    uet_pdc_rx_build_ack() when uet_pdc_rx_ack_due().  A receiver that
 *    may refuse a request it would deliver (no buffer for it yet) asks
 *    uet_pdc_rx_check() first and uet_pdc_rx_accept()s what it takes.
 */
#ifndef _UET_PDC_H
#define _UET_PDC_H

#include <linux/bitmap.h>
#include <linux/bits.h>
#include <linux/types.h>

/*
 * Most PSNs one PDC tracks at once, in either direction.  Ours: UEC leaves
 * the tracking range to the implementation and lets a receiver advertise
 * its own (the MPR field of ACK_CC).  1024 packets of 4 KiB are 4 MiB in
 * flight per PDC, and the five bitmaps cost 640 bytes per PDC.
 */
#define UET_PDC_WND_MAX		1024

/* An ACK_CC's SACK bitmap covers 64 PSNs (Documentation/wire-format.rst). */
#define UET_PDC_SACK_BITS	64

/**
 * enum uet_pdc_mode - delivery mode of a PDC
 * @UET_PDC_RUD: reliable, unordered: packets are delivered as they come,
 *	ACKs carry a SACK bitmap, losses are retransmitted selectively.
 * @UET_PDC_ROD: reliable, ordered: only the expected PSN is delivered;
 *	anything ahead of it is dropped and NACKed, and the sender goes back
 *	to its first unacknowledged PSN (go-back-N).
 * @UET_PDC_RUDI: reliable, unordered, idempotent: as RUD, except that the
 *	receiver does not suppress duplicates: it delivers them again
 *	(%UET_PDC_RX_REPLAY), which idempotent operations permit, so that a
 *	retransmitted request gets its response again.  The window still
 *	bounds what is accepted.
 * @UET_PDC_UUD: unreliable, unordered: no window, no ACK, no retransmit;
 *	every packet is delivered, PSNs are counted only.
 * @UET_PDC_MODE_COUNT: number of modes.
 */
enum uet_pdc_mode {
	UET_PDC_RUD,
	UET_PDC_ROD,
	UET_PDC_RUDI,
	UET_PDC_UUD,
	UET_PDC_MODE_COUNT
};

/**
 * enum uet_pdc_state - state of a PDC
 * @UET_PDC_CLOSED: no PDC, or one closed (cleanly or in error).
 * @UET_PDC_SYN_SENT: initiator: created by a local send; requests carry
 *	SYN until the first ACK arrives.  Data flows at once (zero-RTT).
 * @UET_PDC_ESTABLISHED: initiator: an ACK arrived; target: created by the
 *	first SYN request it accepted.
 * @UET_PDC_CLOSE_REQUESTED: initiator: a close was asked for (locally or
 *	by the target's REQ_CLOSE) and waits for every PSN in flight to be
 *	acknowledged; target: REQ_CLOSE sent, waiting for the CLOSE command.
 * @UET_PDC_CLOSING: initiator: CLOSE sent (on a PSN of its own), waiting
 *	for its ACK.
 * @UET_PDC_STATE_COUNT: number of states.
 */
enum uet_pdc_state {
	UET_PDC_CLOSED,
	UET_PDC_SYN_SENT,
	UET_PDC_ESTABLISHED,
	UET_PDC_CLOSE_REQUESTED,
	UET_PDC_CLOSING,
	UET_PDC_STATE_COUNT
};

/**
 * enum uet_pdc_event - what happened to a PDC
 * @UET_PDC_EV_SEND: a request is about to be sent.
 * @UET_PDC_EV_ACK: an ACK was received (after uet_pdc_tx_ack()).
 * @UET_PDC_EV_NACK: a NACK asking for a retransmit was received.
 * @UET_PDC_EV_RECV: a request without SYN was received.
 * @UET_PDC_EV_RECV_SYN: a request with SYN was received.
 * @UET_PDC_EV_CLOSE: close requested: locally, or by a REQ_CLOSE from the
 *	target.
 * @UET_PDC_EV_CLOSE_CMD: target: the initiator's CLOSE arrived (the caller
 *	acknowledges it).
 * @UET_PDC_EV_CLOSE_ACK: initiator: the ACK of its CLOSE arrived.
 * @UET_PDC_EV_TIMEOUT: the retransmit timer (after uet_pdc_tx_timeout())
 *	or, on a target asking for a close, the close-request timer fired.
 * @UET_PDC_EV_IDLE: the PDS manager wants the PDC's resources back.
 * @UET_PDC_EV_ABORT: a fatal NACK or a local error: close in error.
 * @UET_PDC_EV_COUNT: number of events.
 */
enum uet_pdc_event {
	UET_PDC_EV_SEND,
	UET_PDC_EV_ACK,
	UET_PDC_EV_NACK,
	UET_PDC_EV_RECV,
	UET_PDC_EV_RECV_SYN,
	UET_PDC_EV_CLOSE,
	UET_PDC_EV_CLOSE_CMD,
	UET_PDC_EV_CLOSE_ACK,
	UET_PDC_EV_TIMEOUT,
	UET_PDC_EV_IDLE,
	UET_PDC_EV_ABORT,
	UET_PDC_EV_COUNT
};

/**
 * enum uet_pdc_rx_verdict - what to do with a received request
 * @UET_PDC_RX_DELIVER: the expected PSN: deliver it.
 * @UET_PDC_RX_DELIVER_OOO: RUD, RUDI: new, ahead of a hole: deliver it.
 * @UET_PDC_RX_REPLAY: RUDI: seen before: deliver it again.
 * @UET_PDC_RX_DUPLICATE: seen before: do not deliver, acknowledge again.
 * @UET_PDC_RX_REJECT_OOO: ROD: ahead of the expected PSN: drop it and
 *	NACK (ROD_OOO) so that the sender goes back.
 * @UET_PDC_RX_OUT_OF_WINDOW: outside the window: drop it.
 */
enum uet_pdc_rx_verdict {
	UET_PDC_RX_DELIVER,
	UET_PDC_RX_DELIVER_OOO,
	UET_PDC_RX_REPLAY,
	UET_PDC_RX_DUPLICATE,
	UET_PDC_RX_REJECT_OOO,
	UET_PDC_RX_OUT_OF_WINDOW,
};

/* Flags of a received request, as uet_pdc_rx_packet() takes them. */
#define UET_PDC_RX_AR		BIT(0)	/* the sender asks for an ACK */
#define UET_PDC_RX_SYN		BIT(1)	/* the sender has had no ACK yet */
#define UET_PDC_RX_CE		BIT(2)	/* it arrived ECN-marked (CE) */

/**
 * enum uet_pdc_counter - per-PDC counters, named by uet_pdc_counter_name()
 * @UET_PDC_CNT_TX_RETRANSMITS: PSNs handed out for retransmission.
 * @UET_PDC_CNT_TX_TIMEOUTS: retransmit timer expiries.
 * @UET_PDC_CNT_RX_DELIVERED: requests delivered, replays included.
 * @UET_PDC_CNT_RX_OUT_OF_ORDER: of those, delivered ahead of a hole.
 * @UET_PDC_CNT_RX_DUPLICATES: requests seen before (replays included).
 * @UET_PDC_CNT_RX_ACKS: ACKs built.
 * @UET_PDC_CNT_TX_NEW: PSNs allocated.
 * @UET_PDC_CNT_TX_DUP_ACKS: ACKs that acknowledged nothing new.
 * @UET_PDC_CNT_TX_BAD_ACKS: ACKs naming unsent PSNs, ignored.
 * @UET_PDC_CNT_TX_NACKS: NACKs for PSNs in flight.
 * @UET_PDC_CNT_TX_RTT_SAMPLES: RTT samples taken.
 * @UET_PDC_CNT_TX_PROBES: tail probes sent (uet_pdc_tx_probe()).
 * @UET_PDC_CNT_TX_LOST_RTX: retransmissions found lost in turn.
 * @UET_PDC_CNT_TX_RNR: PSNs the receiver had no buffer for (uet_pdc_tx_rnr()).
 * @UET_PDC_CNT_RX_ROD_REJECTS: ROD requests ahead of the expected PSN.
 * @UET_PDC_CNT_RX_OUT_OF_WINDOW: requests outside the window.
 * @UET_PDC_CNT_RX_CE: requests taken that arrived ECN-marked (CE).
 * @UET_PDC_CNT_TX_REORDERED: times the duplicate threshold grew with the
 *	reordering seen.
 * @UET_PDC_CNT_TX_NEEDLESS: retransmissions an ACK showed needless: their
 *	PSN arrived twice.
 * @UET_PDC_CNT_TX_SPURIOUS_RTO: timeouts an ACK showed spurious.
 * @UET_PDC_CNT_COUNT: number of counters.
 *
 * The first %UET_PDC_CNT_KEPT, the ones a PDC's owner shows, outlast the
 * core's quiet spells (struct uet_pdc_saved); the others count from the
 * PDC's last wake-up (uet_pdc_restore()).
 */
enum uet_pdc_counter {
	UET_PDC_CNT_TX_RETRANSMITS,
	UET_PDC_CNT_TX_TIMEOUTS,
	UET_PDC_CNT_RX_DELIVERED,
	UET_PDC_CNT_RX_OUT_OF_ORDER,
	UET_PDC_CNT_RX_DUPLICATES,
	UET_PDC_CNT_RX_ACKS,
	UET_PDC_CNT_TX_NEW,
	UET_PDC_CNT_TX_DUP_ACKS,
	UET_PDC_CNT_TX_BAD_ACKS,
	UET_PDC_CNT_TX_NACKS,
	UET_PDC_CNT_TX_RTT_SAMPLES,
	UET_PDC_CNT_TX_PROBES,
	UET_PDC_CNT_TX_LOST_RTX,
	UET_PDC_CNT_TX_RNR,
	UET_PDC_CNT_RX_ROD_REJECTS,
	UET_PDC_CNT_RX_OUT_OF_WINDOW,
	UET_PDC_CNT_RX_CE,
	UET_PDC_CNT_TX_REORDERED,
	UET_PDC_CNT_TX_NEEDLESS,
	UET_PDC_CNT_TX_SPURIOUS_RTO,
	UET_PDC_CNT_COUNT
};

/* The counters a quiet PDC keeps: those before this one. */
#define UET_PDC_CNT_KEPT	(UET_PDC_CNT_RX_ACKS + 1)

/**
 * struct uet_pdc_cfg - parameters of a PDC, fixed at uet_pdc_init()
 * @mode: delivery mode.
 * @window: PSNs in flight (sender) and tracked (receiver): a power of two
 *	up to %UET_PDC_WND_MAX.
 * @ack_every: the receiver acknowledges at least every this many
 *	delivered requests.
 * @dup_thresh: RUD, RUDI: a hole is deemed lost once this many PSNs above
 *	it have been selectively acknowledged.
 * @max_retries: timeouts in a row, without anything newly acknowledged,
 *	after which the PDC closes in error.
 * @rto_initial: RTO before the first RTT sample, ns.
 * @rto_min: lower bound of the RTO, ns.
 * @rto_max: upper bound of the RTO, backoff included, ns.
 * @ack_delay: RUD, RUDI: how long the peer may hold back an ACK, ns: a
 *	tail probe waits that much longer than two round trips.
 * @rnr_delay: how long PSNs the receiver had no buffer for wait before
 *	one of them goes again (uet_pdc_tx_rnr()), ns.
 */
struct uet_pdc_cfg {
	enum uet_pdc_mode mode;
	u32 window;
	u32 ack_every;
	u32 dup_thresh;
	u32 max_retries;
	u64 rto_initial;
	u64 rto_min;
	u64 rto_max;
	u64 ack_delay;
	u64 rnr_delay;
};

/**
 * struct uet_pdc_rtt - RTT estimator and retransmission timeout (RFC 6298)
 * @srtt: smoothed RTT, ns.
 * @rttvar: RTT variation, ns.
 * @rto: current retransmission timeout, backoff included, ns.
 * @rto_min: lower bound of @rto.
 * @rto_max: upper bound of @rto.
 * @seeded: @srtt and @rttvar hold a measurement.
 */
struct uet_pdc_rtt {
	u64 srtt;
	u64 rttvar;
	u64 rto;
	u64 rto_min;
	u64 rto_max;
	bool seeded;
};

/**
 * struct uet_pdc_ack - the reliability content of an ACK, host order
 * @cack_psn: cumulative ACK: every PSN up to and including it arrived.
 * @ack_psn: the PSN whose arrival triggered the ACK.
 * @sack_base: PSN of bit 0 of @sack_bitmap.
 * @sack_bitmap: bit i set: PSN @sack_base + i arrived.  Zero in an ACK
 *	without SACK.
 * @marked: a request it acknowledges arrived ECN-marked (the M flag).
 */
struct uet_pdc_ack {
	u32 cack_psn;
	u32 ack_psn;
	u32 sack_base;
	u64 sack_bitmap;
	bool marked;
};

/**
 * struct uet_pdc_acked - what one ACK acknowledged, from uet_pdc_tx_ack()
 * @cum_from: the window's old left edge.
 * @cum_to: its new left edge: PSNs [@cum_from, @cum_to) left the window,
 *	all acknowledged, some of them by earlier ACKs' SACK bitmaps or in
 *	@sack_new.
 * @sack_base: PSN of bit 0 of @sack_new, the ACK's SACK base.
 * @sack_new: bit i set: PSN @sack_base + i was acknowledged for the first
 *	time, by the SACK bitmap.
 * @newly: how many PSNs this ACK acknowledged for the first time.
 * @needless: the ACK showed that a PSN sent again had arrived before.
 * @spurious: the ACK showed the last timeout spurious: a PSN it had
 *	marked lost arrived before going again (uet_pdc_tx_ack()).
 */
struct uet_pdc_acked {
	u32 cum_from;
	u32 cum_to;
	u32 sack_base;
	u64 sack_new;
	u32 newly;
	bool needless;
	bool spurious;
};

/*
 * The furthest reordering a sender's duplicate threshold follows: Linux
 * TCP's default tcp_max_reordering.  Beyond it, a PSN that arrives late
 * is sent again, and the RTO or a tail probe finds a loss no later.
 */
#define UET_PDC_REORDER_MAX	300

/*
 * PSNs sent again and then acknowledged late, remembered until an ACK
 * shows one arrived twice (struct uet_pdc_tx's @suspects).  Only those
 * that would raise the threshold are kept, and it rises with each one
 * proved, so few are open at once; the ACK proving one comes within
 * about a round trip of it.  Eight is a judgment, not a measurement: a
 * suspect pushed out early costs a lesson, never a wrong one.
 */
#define UET_PDC_SUSPECTS	8

/**
 * struct uet_pdc_suspect - a retransmission that may have been needless
 * @psn: the PSN sent again, acknowledged late ...
 * @dist: ... this many PSNs below the highest one acknowledged before it;
 *	0: the entry is free.
 */
struct uet_pdc_suspect {
	u32 psn;
	u32 dist;
};

/**
 * struct uet_pdc_tx - sender window: PSNs [@una, @nxt) are in flight
 * @una: oldest PSN not acknowledged cumulatively: the window's left edge.
 * @nxt: next PSN to allocate.  @nxt - @una never exceeds the window.
 * @high_sack: one past the highest PSN selectively acknowledged, at least
 *	@una.
 * @lost_scan: RUD, RUDI: holes below it have been judged by the
 *	duplicate threshold already.
 * @reorder: RUD, RUDI: the duplicate threshold in force: dup_thresh,
 *	raised to the furthest reordering seen (a PSN acknowledged, not sent
 *	again, that many PSNs below the highest one selectively acknowledged
 *	before), at most %UET_PDC_REORDER_MAX.  A PDC that wakes keeps what
 *	it learnt (struct uet_pdc_saved); one whose timer expires with
 *	dup_thresh PSNs SACKed above its first hole starts again from
 *	dup_thresh.
 * @rtx_next: PSNs marked lost lie in [@rtx_next, @rtx_end): where the
 *	search for the next retransmission resumes ...
 * @rtx_end: ... and where it stops.
 * @rewound: ROD: a go-back-N from @una is under way.
 * @rtx_high: RUD, RUDI: @nxt when the last retransmission was taken:
 *	PSNs from it on left after every retransmission outstanding.
 * @rtx_out: RUD, RUDI: PSNs retransmitted whose new copy is not
 *	acknowledged yet (set in @rtxd).
 * @rtx_twice: RUD, RUDI: one past the highest PSN whose retransmission
 *	was found lost in turn (sent a third time, or to be): below it,
 *	arrivals teach nothing of reordering (tx_reordered()).
 * @probing: RUD, RUDI: a tail probe is out, a copy of @probe_psn ...
 * @probe_psn: ... sent again when the probe timer expired.
 * @rnr_out: PSNs the receiver had no buffer for, waiting (set in @rnr) ...
 * @rnr_probing: ... for @rnr_probe, one of them sent again once
 *	rnr_delay passed, to be acknowledged: then all of them go again.
 * @rnr_probe: see @rnr_probing.
 * @retries: timeouts since something was last newly acknowledged.
 * @rto_marked: RUD, RUDI: the last timeout marked PSNs below @rto_end lost
 *	that may not have gone again yet: an ACK for one of them proves it
 *	spurious (rto_undo()).
 * @rto_end: @nxt at the last timeout.
 * @rto_quota: while @rto_marked, the retransmissions that may go: one
 *	after the timeout, two more for each PSN acknowledged since, as TCP's
 *	slow start after a timeout (RFC 5681 section 3.1): what the timer
 *	marked goes out as ACKs come back, not whenever the sender may send.
 * @rto_hold: nonzero until the next RTT sample: the RTO, backed off, at the
 *	last timeout proved spurious, which showed the RTO before it shorter
 *	than the round trip; the samples that would correct it are what
 *	repeated timeouts keep from completing.  Progress brings the RTO back
 *	down to no less than it, not to the estimate, nor leaves it at what
 *	later timeouts backed it off to.
 * @suspects: RUD, RUDI: PSNs sent again and acknowledged late, which would
 *	have raised @reorder had they not gone again (tx_reordered()): an
 *	ACK that shows one arrived twice proves it (ack_dsack()).
 * @suspect_next: the entry of @suspects the next one takes when none is
 *	free.
 * @timing: @timed_psn is being timed for an RTT sample.
 * @timed_psn: the PSN being timed: one at a time, which RFC 6298 section 3
 *	allows.  Its timing stops if it is retransmitted (Karn's rule).
 * @timed_at: when @timed_psn was sent.
 * @acked: per PSN in flight, by PSN modulo the window: acknowledged.
 * @lost: per PSN in flight: deemed lost, waiting for retransmission.
 * @rtxd: per PSN in flight: retransmitted, the new copy not acknowledged.
 * @rnr: per PSN in flight: the receiver had no buffer for it; it waits.
 *
 * The cursors, all within [@una, @nxt], bound what each scan covers to at
 * most the window.  A PSN's bits are cleared when the PSN is allocated, so
 * that stale bits of the PSN one window earlier never show.  The four
 * bitmaps, of a window's bits each, are one allocation that exists only
 * while PSNs are in flight: the first PSN allocated brings it
 * (uet_pdc_tx_alloc()), and the PDC gives it back once quiet
 * (uet_pdc_save()).  UUD moves @una along with @nxt and uses
 * nothing else.
 */
struct uet_pdc_tx {
	u32 una;
	u32 nxt;
	u32 high_sack;
	u32 lost_scan;
	u32 reorder;
	u32 rtx_next;
	u32 rtx_end;
	bool rewound;
	u32 rtx_high;
	u32 rtx_out;
	u32 rtx_twice;
	bool probing;
	u32 probe_psn;
	u32 rnr_out;
	bool rnr_probing;
	u32 rnr_probe;
	u32 retries;
	bool rto_marked;
	u32 rto_end;
	u32 rto_quota;
	u64 rto_hold;
	struct uet_pdc_suspect suspects[UET_PDC_SUSPECTS];
	u8 suspect_next;
	bool timing;
	u32 timed_psn;
	u64 timed_at;
	unsigned long *acked;
	unsigned long *lost;
	unsigned long *rtxd;
	unsigned long *rnr;
};

/**
 * struct uet_pdc_rx - receiver window: PSNs (@cack, @cack + window] accepted
 * @cack: cumulative ACK PSN: every PSN up to and including it arrived.
 * @history: PSNs up to @cack that count as seen: the @history last ones,
 *	at most a window's worth, and none from before the start PSN.
 * @last_psn: the PSN last accepted (delivered or duplicate).
 * @high: the highest PSN accepted, @cack when nothing above it was.
 * @unacked: requests delivered since the last ACK built.
 * @ack_due: an ACK should be built now.
 * @marked: a request taken since the last ACK built arrived ECN-marked:
 *	the next ACK says so (and is due at once).
 * @recvd: RUD, RUDI: per PSN above @cack + 1, by PSN modulo the window:
 *	arrived.  Cleared as @cack passes it.  A target's only (an
 *	initiator takes no requests), from the first request out of order
 *	(uet_pdc_rx_check()) until it is in order and quiet again
 *	(uet_pdc_save()).
 * @holes: bits set in @recvd: requests taken out of order, @cack not yet
 *	past them.  None: @recvd may go.
 */
struct uet_pdc_rx {
	u32 cack;
	u32 history;
	u32 last_psn;
	u32 high;
	u32 unacked;
	u32 holes;
	bool ack_due;
	bool marked;
	unsigned long *recvd;
};

/**
 * struct uet_pdc - one packet delivery context
 * @state: enum uet_pdc_state.
 * @initiator: created by a local send (else by a received SYN).
 * @cfg: parameters.
 * @tx: sender window (the initiator's requests).
 * @rx: receiver window (the target's view of them).
 * @rtt: RTT estimator of @tx.
 * @cnt: counters, indexed by enum uet_pdc_counter.
 */
struct uet_pdc {
	enum uet_pdc_state state;
	bool initiator;
	struct uet_pdc_cfg cfg;
	struct uet_pdc_tx tx;
	struct uet_pdc_rx rx;
	struct uet_pdc_rtt rtt;
	u64 cnt[UET_PDC_CNT_COUNT];
};

/**
 * struct uet_pdc_saved - what a quiet PDC keeps of its core
 * @tx_nxt: the next PSN to send (nothing is in flight).
 * @rx_cack: the cumulative ACK PSN (no hole is open) ...
 * @rx_history: ... and the PSNs up to it that count as seen.
 * @srtt: the RTT estimator's state, ns (saturating at %U32_MAX, 4.3 s,
 *	beyond any RTO that matters), ...
 * @rttvar: ...
 * @seeded: ... if it holds a measurement.
 * @reorder: the duplicate threshold learnt (struct uet_pdc_tx).
 * @state: enum uet_pdc_state.
 * @cnt: the first %UET_PDC_CNT_KEPT counters.
 *
 * A quiet PDC holds no window (uet_pdc_save()): its owner may free the
 * core and keep this, a fraction of its size, until the next packet
 * either way brings a core back (uet_pdc_restore()).
 */
struct uet_pdc_saved {
	u32 tx_nxt;
	u32 rx_cack;
	u32 srtt;
	u32 rttvar;
	u16 rx_history;
	u16 reorder;
	u8 state;
	bool seeded;
	u64 cnt[UET_PDC_CNT_KEPT];
};

/* PSNs in flight: allocated and not acknowledged cumulatively. */
static inline u32 uet_pdc_tx_in_flight(const struct uet_pdc *pdc)
{
	return pdc->tx.nxt - pdc->tx.una;
}

/* The window is full: the last PSN allocated should ask for an ACK (AR). */
static inline bool uet_pdc_tx_window_full(const struct uet_pdc *pdc)
{
	return uet_pdc_tx_in_flight(pdc) >= pdc->cfg.window;
}

/* The retransmission timeout to arm the timer with, ns. */
static inline u64 uet_pdc_rto(const struct uet_pdc *pdc)
{
	return pdc->rtt.rto;
}

/* The coalescing policy wants an ACK sent now. */
static inline bool uet_pdc_rx_ack_due(const struct uet_pdc *pdc)
{
	return pdc->rx.ack_due;
}

/* Something must go back at once (an SES error): make the next ACK due. */
static inline void uet_pdc_rx_ack_now(struct uet_pdc *pdc)
{
	pdc->rx.ack_due = true;
}

/* Requests delivered but not acknowledged yet: a delayed ACK is owed. */
static inline bool uet_pdc_rx_ack_pending(const struct uet_pdc *pdc)
{
	return pdc->rx.unacked > 0;
}

/* pdc.c */
void uet_pdc_cfg_default(struct uet_pdc_cfg *cfg, enum uet_pdc_mode mode);
int uet_pdc_init(struct uet_pdc *pdc, const struct uet_pdc_cfg *cfg,
		 bool initiator, u32 start_psn);
void uet_pdc_fini(struct uet_pdc *pdc);
void uet_pdc_saved_init(struct uet_pdc_saved *s, u32 start_psn);
bool uet_pdc_save(struct uet_pdc *pdc, struct uet_pdc_saved *s);
int uet_pdc_restore(struct uet_pdc *pdc, const struct uet_pdc_cfg *cfg,
		    bool initiator, const struct uet_pdc_saved *s);
enum uet_pdc_state uet_pdc_transition(struct uet_pdc *pdc,
				      enum uet_pdc_event ev);
const char *uet_pdc_state_name(enum uet_pdc_state state);
const char *uet_pdc_event_name(enum uet_pdc_event ev);
const char *uet_pdc_mode_name(enum uet_pdc_mode mode);
const char *uet_pdc_counter_name(enum uet_pdc_counter cnt);

int uet_pdc_tx_alloc(struct uet_pdc *pdc, u64 now, u32 *psn);
int uet_pdc_tx_ack(struct uet_pdc *pdc, const struct uet_pdc_ack *ack,
		   u64 now, struct uet_pdc_acked *acked);
int uet_pdc_tx_nack(struct uet_pdc *pdc, u32 psn);
bool uet_pdc_tx_next_rtx(struct uet_pdc *pdc, u32 *psn);
void uet_pdc_tx_timeout(struct uet_pdc *pdc);
u64 uet_pdc_tx_timer(const struct uet_pdc *pdc, bool *probe);
bool uet_pdc_tx_probe(struct uet_pdc *pdc, u32 *psn);
int uet_pdc_tx_rnr(struct uet_pdc *pdc, u32 psn, bool *again);
bool uet_pdc_tx_rnr_probe(struct uet_pdc *pdc, u32 *psn);

enum uet_pdc_rx_verdict uet_pdc_rx_packet(struct uet_pdc *pdc, u32 psn,
					  u32 flags);
enum uet_pdc_rx_verdict uet_pdc_rx_check(struct uet_pdc *pdc, u32 psn);
void uet_pdc_rx_accept(struct uet_pdc *pdc, u32 psn, u32 flags,
		       enum uet_pdc_rx_verdict v);
void uet_pdc_rx_build_ack(struct uet_pdc *pdc, struct uet_pdc_ack *ack);

void uet_pdc_rtt_init(struct uet_pdc_rtt *rtt, u64 initial, u64 min,
		      u64 max);
void uet_pdc_rtt_sample(struct uet_pdc_rtt *rtt, u64 r);
void uet_pdc_rtt_backoff(struct uet_pdc_rtt *rtt);

#endif /* _UET_PDC_H */
