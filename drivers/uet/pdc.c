// SPDX-License-Identifier: GPL-2.0
/*
 * PDC reliability core: state machine, sender and receiver windows, RTO
 * estimator (the API and how a caller drives it are in pdc.h).
 *
 * States, per side (events in capitals; ABORT, and TIMEOUT after
 * max_retries timeouts in a row, lead from any state to CLOSED):
 *
 * Initiator:
 *
 *   CLOSED --SEND--> SYN_SENT --ACK--> ESTABLISHED --CLOSE, IDLE--> CLOSING
 *                       |                   |       (nothing in flight)  |
 *                       | CLOSE             | CLOSE (PSNs in flight)     |
 *                       v                   v                  CLOSE_ACK |
 *                   CLOSE_REQUESTED --last PSN acked--> CLOSING          v
 *                                                                     CLOSED
 *
 * Target:
 *
 *   CLOSED --RECV_SYN--> ESTABLISHED --CLOSE_CMD--> CLOSED
 *                            |
 *                            | CLOSE, IDLE (the caller sends REQ_CLOSE)
 *                            v
 *                      CLOSE_REQUESTED --CLOSE_CMD, TIMEOUT--> CLOSED
 *
 * Zero-RTT: SYN_SENT sends data at once; the target creates its PDC from
 * the first SYN request it receives, whichever PSN that is.  1-RTT close:
 * the initiator sends CLOSE on a PSN of its own once every PSN before it
 * is acknowledged, so the target has everything when CLOSE arrives; the
 * target ends its PDC and acknowledges CLOSE, and that ACK ends the
 * initiator's.
 *
 * Windows.  The sender's PSNs [una, nxt) are in flight; per PSN, by PSN
 * modulo the window, bits say acknowledged (cumulatively or by SACK) and
 * lost (waiting for retransmission).  The receiver's PSNs up to cack have
 * all arrived; for RUD and RUDI a bit per PSN in (cack + 1, cack + window]
 * says arrived.  Every loop below walks at most one window.
 */
#include <linux/bitmap.h>
#include <linux/bitops.h>
#include <linux/build_bug.h>
#include <linux/errno.h>
#include <linux/minmax.h>
#include <linux/slab.h>
#include <linux/string.h>

#include "pdc.h"
#include "psn.h"

/*
 * While SYN is set a request carries its distance from the PDC's start PSN
 * in 12 bits (psn_offset, Documentation/wire-format.rst), and no ACK has
 * moved the window yet: a whole window must fit.
 */
#define SYN_PSN_OFFSET_SPAN	4096

static_assert(UET_PDC_WND_MAX <= SYN_PSN_OFFSET_SPAN);
static_assert((UET_PDC_WND_MAX & (UET_PDC_WND_MAX - 1)) == 0);
static_assert(UET_PDC_SACK_BITS == 8 * sizeof(u64));
/* struct uet_pdc_saved's rx_history holds up to a window */
static_assert(UET_PDC_WND_MAX <= (u16)~0);

#define NS_PER_MS		1000000ULL
#define NS_PER_S		(1000 * NS_PER_MS)

/* RFC 6298 section 2: alpha = 1/8, beta = 1/4, K = 4. */
#define RTT_ALPHA_SHIFT		3
#define RTT_BETA_SHIFT		2
#define RTT_K			4

/*
 * G, the clock granularity of RFC 6298 (2.2): the kernel side runs the
 * RTO on an hrtimer, far finer than 1 us; 1 us keeps the RTO above SRTT
 * when RTTVAR decays to zero.
 */
#define RTT_G_NS		1000

/*
 * Defaults of uet_pdc_cfg_default().  RTO: 1 s before any measurement, RFC
 * 6298 (2.1); at least 200 ms, Linux's TCP_RTO_MIN, as RFC 6298 (2.4)
 * permits below its 1 s; at most 60 s, RFC 6298 (2.5).  An ACK every
 * 16th request: TCP's every second (RFC 5681 section 4.2) costs a software
 * receiver an ACK per two packets, while the 64 PSNs of a SACK bitmap
 * still cover four consecutive ACKs at 16, so one lost ACK hides nothing
 * (the issue behind the second-wave engine asks for 8 to 16).  DupThresh
 * 3, RFC 6675 and RFC 5681.  15 timeouts in a row, Linux's
 * net.ipv4.tcp_retries2.
 */
#define DEFAULT_RTO_INITIAL	NS_PER_S
#define DEFAULT_RTO_MIN		(200 * NS_PER_MS)
#define DEFAULT_RTO_MAX		(60 * NS_PER_S)
#define DEFAULT_ACK_EVERY	16
#define DEFAULT_DUP_THRESH	3
#define DEFAULT_MAX_RETRIES	15

/*
 * A CLOSE unanswered after this many timeouts in a row is given up, the
 * PDC closed in error (ours): the target reclaims its side once idle
 * anyway, and one that is gone answers strangers at a bounded rate
 * (UET_PDS_ANSWER_BURST a second), which 15 timeouts of exponential
 * backoff, minutes at the default RTO bounds, would only wait for.
 */
#define CLOSE_MAX_RETRIES	3

/*
 * PSNs refused for want of a receive buffer wait 1 ms before one goes
 * again: about InfiniBand's RNR NAK timer of 1.28 ms (code 14 of IB spec
 * 9.7.5.2.8), the value applications commonly choose.
 */
#define DEFAULT_RNR_DELAY	NS_PER_MS

static const char * const state_names[UET_PDC_STATE_COUNT] = {
	[UET_PDC_CLOSED] = "CLOSED",
	[UET_PDC_SYN_SENT] = "SYN_SENT",
	[UET_PDC_ESTABLISHED] = "ESTABLISHED",
	[UET_PDC_CLOSE_REQUESTED] = "CLOSE_REQUESTED",
	[UET_PDC_CLOSING] = "CLOSING",
};

static const char * const event_names[UET_PDC_EV_COUNT] = {
	[UET_PDC_EV_SEND] = "SEND",
	[UET_PDC_EV_ACK] = "ACK",
	[UET_PDC_EV_NACK] = "NACK",
	[UET_PDC_EV_RECV] = "RECV",
	[UET_PDC_EV_RECV_SYN] = "RECV_SYN",
	[UET_PDC_EV_CLOSE] = "CLOSE",
	[UET_PDC_EV_CLOSE_CMD] = "CLOSE_CMD",
	[UET_PDC_EV_CLOSE_ACK] = "CLOSE_ACK",
	[UET_PDC_EV_TIMEOUT] = "TIMEOUT",
	[UET_PDC_EV_IDLE] = "IDLE",
	[UET_PDC_EV_ABORT] = "ABORT",
};

static const char * const mode_names[UET_PDC_MODE_COUNT] = {
	[UET_PDC_RUD] = "RUD",
	[UET_PDC_ROD] = "ROD",
	[UET_PDC_RUDI] = "RUDI",
	[UET_PDC_UUD] = "UUD",
};

static const char * const counter_names[UET_PDC_CNT_COUNT] = {
	[UET_PDC_CNT_TX_RETRANSMITS] = "tx_retransmits",
	[UET_PDC_CNT_TX_TIMEOUTS] = "tx_timeouts",
	[UET_PDC_CNT_RX_DELIVERED] = "rx_delivered",
	[UET_PDC_CNT_RX_OUT_OF_ORDER] = "rx_out_of_order",
	[UET_PDC_CNT_RX_DUPLICATES] = "rx_duplicates",
	[UET_PDC_CNT_RX_ACKS] = "rx_acks",
	[UET_PDC_CNT_TX_NEW] = "tx_new",
	[UET_PDC_CNT_TX_DUP_ACKS] = "tx_dup_acks",
	[UET_PDC_CNT_TX_BAD_ACKS] = "tx_bad_acks",
	[UET_PDC_CNT_TX_NACKS] = "tx_nacks",
	[UET_PDC_CNT_TX_RTT_SAMPLES] = "tx_rtt_samples",
	[UET_PDC_CNT_TX_PROBES] = "tx_probes",
	[UET_PDC_CNT_TX_LOST_RTX] = "tx_lost_rtx",
	[UET_PDC_CNT_TX_RNR] = "tx_rnr",
	[UET_PDC_CNT_RX_ROD_REJECTS] = "rx_rod_rejects",
	[UET_PDC_CNT_RX_OUT_OF_WINDOW] = "rx_out_of_window",
	[UET_PDC_CNT_RX_CE] = "rx_ce",
	[UET_PDC_CNT_TX_REORDERED] = "tx_reordered",
	[UET_PDC_CNT_TX_NEEDLESS] = "tx_needless",
	[UET_PDC_CNT_TX_SPURIOUS_RTO] = "tx_spurious_timeouts",
};

static const char *name_of(const char * const *names, unsigned int count,
			   unsigned int i)
{
	return i < count && names[i] ? names[i] : "?";
}

/**
 * uet_pdc_state_name() - name of a PDC state
 * @state: the state.
 *
 * Return: its name, or "?" for a value out of range.
 */
const char *uet_pdc_state_name(enum uet_pdc_state state)
{
	return name_of(state_names, UET_PDC_STATE_COUNT, state);
}

/**
 * uet_pdc_event_name() - name of a PDC event
 * @ev: the event.
 *
 * Return: its name, or "?" for a value out of range.
 */
const char *uet_pdc_event_name(enum uet_pdc_event ev)
{
	return name_of(event_names, UET_PDC_EV_COUNT, ev);
}

/**
 * uet_pdc_mode_name() - name of a delivery mode
 * @mode: the mode.
 *
 * Return: its name, or "?" for a value out of range.
 */
const char *uet_pdc_mode_name(enum uet_pdc_mode mode)
{
	return name_of(mode_names, UET_PDC_MODE_COUNT, mode);
}

/**
 * uet_pdc_counter_name() - name of a PDC counter
 * @cnt: the counter.
 *
 * Return: its name, or "?" for a value out of range.
 */
const char *uet_pdc_counter_name(enum uet_pdc_counter cnt)
{
	return name_of(counter_names, UET_PDC_CNT_COUNT, cnt);
}

/* State machine: one function per state, each returning the next state. */

static bool drained(const struct uet_pdc *pdc)
{
	return !uet_pdc_tx_in_flight(pdc);
}

/* Nothing in flight and no ACK owed: the PDC can go without loss. */
static bool idle(const struct uet_pdc *pdc)
{
	return drained(pdc) && !uet_pdc_rx_ack_pending(pdc);
}

/* Timeouts in a row beyond the limit close the PDC in error. */
static bool retries_exhausted(const struct uet_pdc *pdc)
{
	return pdc->tx.retries > pdc->cfg.max_retries;
}

static enum uet_pdc_state closed_next(const struct uet_pdc *pdc,
				      enum uet_pdc_event ev)
{
	if (pdc->initiator && ev == UET_PDC_EV_SEND)
		return UET_PDC_SYN_SENT;
	if (!pdc->initiator && ev == UET_PDC_EV_RECV_SYN)
		return UET_PDC_ESTABLISHED;
	return UET_PDC_CLOSED;
}

/* Initiator only.  CLOSE needs the target's PDC ID, which the ACK brings. */
static enum uet_pdc_state syn_sent_next(const struct uet_pdc *pdc,
					enum uet_pdc_event ev)
{
	switch (ev) {
	case UET_PDC_EV_ACK:
		return UET_PDC_ESTABLISHED;
	case UET_PDC_EV_CLOSE:
		return UET_PDC_CLOSE_REQUESTED;
	case UET_PDC_EV_TIMEOUT:
		return retries_exhausted(pdc) ? UET_PDC_CLOSED : UET_PDC_SYN_SENT;
	case UET_PDC_EV_ABORT:
		return UET_PDC_CLOSED;
	default:
		return UET_PDC_SYN_SENT;
	}
}

/*
 * Where a wish to close leads.  An initiator with nothing in flight sends
 * CLOSE at once; with PSNs in flight it waits for their ACKs first.  A
 * target cannot close by itself: it asks the initiator (REQ_CLOSE) and
 * waits for the CLOSE command.
 */
static enum uet_pdc_state close_wish(const struct uet_pdc *pdc)
{
	if (pdc->initiator && drained(pdc))
		return UET_PDC_CLOSING;
	return UET_PDC_CLOSE_REQUESTED;
}

static enum uet_pdc_state established_next(const struct uet_pdc *pdc,
					   enum uet_pdc_event ev)
{
	switch (ev) {
	case UET_PDC_EV_CLOSE:
		return close_wish(pdc);
	case UET_PDC_EV_IDLE:
		return idle(pdc) ? close_wish(pdc) : UET_PDC_ESTABLISHED;
	case UET_PDC_EV_CLOSE_CMD:
		return pdc->initiator ? UET_PDC_ESTABLISHED : UET_PDC_CLOSED;
	case UET_PDC_EV_TIMEOUT:
		return retries_exhausted(pdc) ? UET_PDC_CLOSED :
						UET_PDC_ESTABLISHED;
	case UET_PDC_EV_ABORT:
		return UET_PDC_CLOSED;
	default:
		return UET_PDC_ESTABLISHED;
	}
}

/*
 * Initiator: CLOSE goes out once the last PSN in flight is acknowledged.
 * Target: the CLOSE command ends the PDC, and so does the timer bounding
 * the wait for it (Close_REQ_Time in the UEC reference provider).
 */
static enum uet_pdc_state close_requested_next(const struct uet_pdc *pdc,
					       enum uet_pdc_event ev)
{
	if (ev == UET_PDC_EV_ABORT)
		return UET_PDC_CLOSED;
	if (!pdc->initiator)
		return ev == UET_PDC_EV_CLOSE_CMD || ev == UET_PDC_EV_TIMEOUT ?
		       UET_PDC_CLOSED : UET_PDC_CLOSE_REQUESTED;
	if (ev == UET_PDC_EV_TIMEOUT && retries_exhausted(pdc))
		return UET_PDC_CLOSED;
	return drained(pdc) ? UET_PDC_CLOSING : UET_PDC_CLOSE_REQUESTED;
}

/* Initiator only: CLOSE is in flight and retransmitted like any PSN. */
static enum uet_pdc_state closing_next(const struct uet_pdc *pdc,
				       enum uet_pdc_event ev)
{
	switch (ev) {
	case UET_PDC_EV_CLOSE_ACK:
	case UET_PDC_EV_ABORT:
		return UET_PDC_CLOSED;
	case UET_PDC_EV_TIMEOUT:
		return retries_exhausted(pdc) ||
		       pdc->tx.retries > CLOSE_MAX_RETRIES ? UET_PDC_CLOSED :
							     UET_PDC_CLOSING;
	default:
		return UET_PDC_CLOSING;
	}
}

/**
 * uet_pdc_transition() - move a PDC's state machine on an event
 * @pdc: the PDC.
 * @ev: what happened.  Window updates the event stands for (an ACK, a
 *	timeout) are applied first, through the uet_pdc_tx_*() functions,
 *	since some transitions depend on what is left in flight.
 *
 * On entering %UET_PDC_CLOSING the caller allocates one more PSN with
 * uet_pdc_tx_alloc() and sends the CLOSE command on it; the ACK covering
 * it is %UET_PDC_EV_CLOSE_ACK.  On entering %UET_PDC_CLOSE_REQUESTED a
 * target sends REQ_CLOSE.  A PDC that reached %UET_PDC_CLOSED is set up
 * again with uet_pdc_init() before reuse.
 *
 * Return: the new state, also stored in @pdc->state.
 */
enum uet_pdc_state uet_pdc_transition(struct uet_pdc *pdc,
				      enum uet_pdc_event ev)
{
	switch (pdc->state) {
	case UET_PDC_CLOSED:
		pdc->state = closed_next(pdc, ev);
		break;
	case UET_PDC_SYN_SENT:
		pdc->state = syn_sent_next(pdc, ev);
		break;
	case UET_PDC_ESTABLISHED:
		pdc->state = established_next(pdc, ev);
		break;
	case UET_PDC_CLOSE_REQUESTED:
		pdc->state = close_requested_next(pdc, ev);
		break;
	case UET_PDC_CLOSING:
		pdc->state = closing_next(pdc, ev);
		break;
	default:
		break;
	}
	return pdc->state;
}

/* Set-up. */

/**
 * uet_pdc_cfg_default() - default parameters for a delivery mode
 * @cfg: filled in.
 * @mode: the delivery mode.
 *
 * The window is the whole tracking range: congestion control, not the
 * PDC, is what bounds the packets in flight.  The RTO bounds follow RFC
 * 6298 and Linux TCP, tuned for no network in particular.
 */
void uet_pdc_cfg_default(struct uet_pdc_cfg *cfg, enum uet_pdc_mode mode)
{
	cfg->mode = mode;
	cfg->window = UET_PDC_WND_MAX;
	cfg->ack_every = DEFAULT_ACK_EVERY;
	cfg->dup_thresh = DEFAULT_DUP_THRESH;
	cfg->max_retries = DEFAULT_MAX_RETRIES;
	cfg->rto_initial = DEFAULT_RTO_INITIAL;
	cfg->rto_min = DEFAULT_RTO_MIN;
	cfg->rto_max = DEFAULT_RTO_MAX;
	cfg->rnr_delay = DEFAULT_RNR_DELAY;
}

static bool cfg_valid(const struct uet_pdc_cfg *cfg)
{
	return (unsigned int)cfg->mode < UET_PDC_MODE_COUNT &&
	       cfg->window && cfg->window <= UET_PDC_WND_MAX &&
	       !(cfg->window & (cfg->window - 1)) &&
	       cfg->ack_every && cfg->dup_thresh &&
	       cfg->rto_min && cfg->rto_min <= cfg->rto_max;
}

/**
 * uet_pdc_init() - set up a PDC in %UET_PDC_CLOSED
 * @pdc: the PDC; every field is overwritten.
 * @cfg: parameters, copied.
 * @initiator: created by a local send (else by a received SYN request).
 * @start_psn: the PDC's start PSN.  The initiator's first request gets
 *	it; a target takes it from the first SYN request, as its PSN minus
 *	the request's psn_offset.
 *
 * It allocates nothing: the sender's bitmaps come with the first PSN in
 * flight, a target's receive bitmap with the first request out of order;
 * uet_pdc_save() gives them back once the PDC is quiet, uet_pdc_fini()
 * at its end.
 *
 * Return: 0, or -EINVAL if @cfg is not valid.
 */
int uet_pdc_init(struct uet_pdc *pdc, const struct uet_pdc_cfg *cfg,
		 bool initiator, u32 start_psn)
{
	struct uet_pdc_tx *tx = &pdc->tx;

	if (!cfg_valid(cfg))
		return -EINVAL;

	memset(pdc, 0, sizeof(*pdc));
	pdc->state = UET_PDC_CLOSED;
	pdc->initiator = initiator;
	pdc->cfg = *cfg;
	tx->una = start_psn;
	tx->nxt = start_psn;
	tx->high_sack = start_psn;
	tx->lost_scan = start_psn;
	tx->reorder = cfg->dup_thresh;
	tx->rtx_next = start_psn;
	tx->rtx_end = start_psn;
	tx->rtx_twice = start_psn;
	pdc->rx.cack = start_psn - 1;
	pdc->rx.last_psn = start_psn - 1;
	pdc->rx.high = start_psn - 1;
	uet_pdc_rtt_init(&pdc->rtt, cfg->rto_initial, cfg->rto_min,
			 cfg->rto_max);
	return 0;
}

/* The sender's four bitmaps are one allocation, at tx.acked. */
static void tx_bitmaps_free(struct uet_pdc *pdc)
{
	kfree(pdc->tx.acked);
	pdc->tx.acked = NULL;
	pdc->tx.lost = NULL;
	pdc->tx.rtxd = NULL;
	pdc->tx.rnr = NULL;
}

/**
 * uet_pdc_fini() - free what the PDC holds
 * @pdc: the PDC, initialised (uet_pdc_init() returned 0)
 */
void uet_pdc_fini(struct uet_pdc *pdc)
{
	kfree(pdc->rx.recvd);
	pdc->rx.recvd = NULL;
	tx_bitmaps_free(pdc);
}

/* RTT estimator, RFC 6298. */

static u64 rto_clamp(const struct uet_pdc_rtt *rtt, u64 rto)
{
	if (rto < rtt->rto_min)		/* (2.4) */
		return rtt->rto_min;
	if (rto > rtt->rto_max)		/* (2.5) */
		return rtt->rto_max;
	return rto;
}

/*
 * RTO = SRTT + max(G, K * RTTVAR), (2.2) and (2.3), saturating at rto_max:
 * SRTT and RTTVAR never exceed it, so nothing here overflows.
 */
static u64 rto_estimate(const struct uet_pdc_rtt *rtt)
{
	u64 room = rtt->rto_max - rtt->srtt;
	u64 var;

	if (rtt->rttvar > room / RTT_K)
		return rtt->rto_max;
	var = RTT_K * rtt->rttvar;
	if (var < RTT_G_NS)
		var = RTT_G_NS;
	return var > room ? rtt->rto_max : rto_clamp(rtt, rtt->srtt + var);
}

/**
 * uet_pdc_rtt_init() - set up an RTT estimator without measurements
 * @rtt: the estimator.
 * @initial: RTO until the first sample, ns (RFC 6298 (2.1)).
 * @min: lower bound of the RTO, ns.
 * @max: upper bound of the RTO, ns; at least @min.
 */
void uet_pdc_rtt_init(struct uet_pdc_rtt *rtt, u64 initial, u64 min, u64 max)
{
	memset(rtt, 0, sizeof(*rtt));
	rtt->rto_min = min;
	rtt->rto_max = max;
	rtt->rto = rto_clamp(rtt, initial);
}

/**
 * uet_pdc_rtt_sample() - take an RTT measurement, RFC 6298 (2.2), (2.3)
 * @rtt: the estimator.
 * @r: the round-trip time of a PSN never retransmitted, ns.
 *
 * Recomputes the RTO from the new estimate, which also ends any backoff
 * (Karn's algorithm keeps a backed-off RTO until a valid sample).  A
 * sample above the RTO's upper bound counts as that bound: no round trip
 * outlasts the timer.
 */
void uet_pdc_rtt_sample(struct uet_pdc_rtt *rtt, u64 r)
{
	u64 delta;

	if (r > rtt->rto_max)
		r = rtt->rto_max;
	if (!rtt->seeded) {
		/* (2.2): SRTT = R, RTTVAR = R / 2 */
		rtt->srtt = r;
		rtt->rttvar = r >> 1;
		rtt->seeded = true;
	} else {
		/* RTTVAR first: it takes the old SRTT. */
		delta = r > rtt->srtt ? r - rtt->srtt : rtt->srtt - r;
		rtt->rttvar = rtt->rttvar - (rtt->rttvar >> RTT_BETA_SHIFT) +
			      (delta >> RTT_BETA_SHIFT);
		rtt->srtt = rtt->srtt - (rtt->srtt >> RTT_ALPHA_SHIFT) +
			    (r >> RTT_ALPHA_SHIFT);
	}
	rtt->rto = rto_estimate(rtt);
}

/**
 * uet_pdc_rtt_backoff() - double the RTO after a timeout, RFC 6298 (5.5)
 * @rtt: the estimator.
 *
 * The RTO stays within its upper bound.
 */
void uet_pdc_rtt_backoff(struct uet_pdc_rtt *rtt)
{
	rtt->rto = rtt->rto > rtt->rto_max / 2 ? rtt->rto_max : 2 * rtt->rto;
}

/**
 * uet_pdc_saved_init() - what a new PDC is, saved
 * @s: filled in
 * @start_psn: its first PSN
 *
 * uet_pdc_restore() of @s is the core uet_pdc_init() makes.
 */
void uet_pdc_saved_init(struct uet_pdc_saved *s, u32 start_psn)
{
	memset(s, 0, sizeof(*s));
	s->state = UET_PDC_CLOSED;
	s->tx_nxt = start_psn;
	s->rx_cack = start_psn - 1;
}

/**
 * uet_pdc_save() - keep what a quiet PDC needs, and let go of the rest
 * @pdc: the PDC
 * @s: filled in if @pdc is quiet
 *
 * Quiet: nothing in flight, no hole open, no ACK owed.  Its windows then
 * hold nothing a new core would not (uet_pdc_restore()); its bitmaps are
 * freed, and the caller may free @pdc.  The RTT estimate stays, backoff
 * aside, and so does the duplicate threshold learnt: a sprayed PDC's
 * reordering is its paths', which a quiet spell does not change; the
 * counters but the first %UET_PDC_CNT_KEPT go.
 *
 * Return: true if @pdc was quiet and is saved in @s.
 */
bool uet_pdc_save(struct uet_pdc *pdc, struct uet_pdc_saved *s)
{
	if (uet_pdc_tx_in_flight(pdc) || pdc->rx.holes || pdc->rx.unacked ||
	    pdc->rx.ack_due)
		return false;
	s->tx_nxt = pdc->tx.nxt;
	s->rx_cack = pdc->rx.cack;
	s->rx_history = pdc->rx.history;
	s->srtt = min_t(u64, pdc->rtt.srtt, (u32)~0U);
	s->rttvar = min_t(u64, pdc->rtt.rttvar, (u32)~0U);
	s->seeded = pdc->rtt.seeded;
	s->reorder = pdc->tx.reorder;
	s->state = pdc->state;
	memcpy(s->cnt, pdc->cnt, sizeof(s->cnt));
	uet_pdc_fini(pdc);
	return true;
}

/**
 * uet_pdc_restore() - a core again for a PDC saved by uet_pdc_save()
 * @pdc: the core, filled in
 * @cfg: its parameters (those of the PDC's device now)
 * @initiator: the PDC's role
 * @s: what was saved
 *
 * Like uet_pdc_init(), nothing is allocated.
 *
 * Return: 0, or -EINVAL if @cfg is not valid.
 */
int uet_pdc_restore(struct uet_pdc *pdc, const struct uet_pdc_cfg *cfg,
		    bool initiator, const struct uet_pdc_saved *s)
{
	int err;

	err = uet_pdc_init(pdc, cfg, initiator, s->tx_nxt);
	if (err)
		return err;
	pdc->state = s->state;
	pdc->rx.cack = s->rx_cack;
	pdc->rx.last_psn = s->rx_cack;
	pdc->rx.high = s->rx_cack;
	pdc->rx.history = min_t(u32, s->rx_history, cfg->window);
	/* a threshold learnt stays, within the bounds of the new settings */
	pdc->tx.reorder = clamp_t(u32, s->reorder, cfg->dup_thresh,
				  max_t(u32, cfg->dup_thresh,
					UET_PDC_REORDER_MAX));
	if (s->seeded) {
		pdc->rtt.srtt = min_t(u64, s->srtt, cfg->rto_max);
		pdc->rtt.rttvar = min_t(u64, s->rttvar, cfg->rto_max);
		pdc->rtt.seeded = true;
		pdc->rtt.rto = rto_estimate(&pdc->rtt);
	}
	memcpy(pdc->cnt, s->cnt, sizeof(s->cnt));
	return 0;
}

/* Sender window. */

static u32 slot(const struct uet_pdc *pdc, u32 psn)
{
	return psn & (pdc->cfg.window - 1);
}

static bool tx_acked(const struct uet_pdc *pdc, u32 psn)
{
	return test_bit(slot(pdc, psn), pdc->tx.acked);
}

static bool tx_in_flight(const struct uet_pdc *pdc, u32 psn)
{
	return uet_psn_in_window(psn, pdc->tx.una, uet_pdc_tx_in_flight(pdc));
}

/* The four bitmaps of the sender's window, in one allocation. */
static int tx_bitmaps_alloc(struct uet_pdc *pdc)
{
	size_t n = BITS_TO_LONGS(pdc->cfg.window);
	unsigned long *b = kcalloc(4 * n, sizeof(*b), GFP_ATOMIC);

	if (!b)
		return -ENOMEM;
	pdc->tx.acked = b;
	pdc->tx.lost = b + n;
	pdc->tx.rtxd = b + 2 * n;
	pdc->tx.rnr = b + 3 * n;
	return 0;
}

/* Raise @psn to @floor if it lies before it. */
static void psn_raise(u32 *psn, u32 floor)
{
	if (uet_psn_before(*psn, floor))
		*psn = floor;
}

/**
 * uet_pdc_tx_alloc() - allocate the next PSN for a new request
 * @pdc: the PDC.
 * @now: the time, ns.
 * @psn: the PSN allocated.
 *
 * The request's retransmits, if any, come from uet_pdc_tx_next_rtx()
 * under the same PSN.  UUD has no window: every call succeeds and the PSN
 * only counts.
 *
 * Return: 0, or -EAGAIN while the window is full, or -ENOMEM when the
 * first PSN in flight finds no memory for the window's bitmaps.
 */
int uet_pdc_tx_alloc(struct uet_pdc *pdc, u64 now, u32 *psn)
{
	struct uet_pdc_tx *tx = &pdc->tx;
	u32 s;

	if (pdc->cfg.mode == UET_PDC_UUD) {
		*psn = tx->nxt++;
		tx->una = tx->nxt;
		pdc->cnt[UET_PDC_CNT_TX_NEW]++;
		return 0;
	}
	if (uet_pdc_tx_window_full(pdc))
		return -EAGAIN;
	if (!tx->acked && tx_bitmaps_alloc(pdc))
		return -ENOMEM;

	/* The slot last held the PSN one window back, acknowledged long ago. */
	s = slot(pdc, tx->nxt);
	__clear_bit(s, tx->acked);
	__clear_bit(s, tx->lost);
	__clear_bit(s, tx->rtxd);
	__clear_bit(s, tx->rnr);
	if (!tx->timing) {
		tx->timing = true;
		tx->timed_psn = tx->nxt;
		tx->timed_at = now;
	}
	*psn = tx->nxt++;
	pdc->cnt[UET_PDC_CNT_TX_NEW]++;
	return 0;
}

/*
 * Mark PSNs in [@from, @to) that are not acknowledged as lost, but those
 * waiting for a receive buffer (uet_pdc_tx_rnr()) and, unless @again,
 * those sent again and not acknowledged since.  Lost PSNs stay within
 * [rtx_next, rtx_end), where uet_pdc_tx_next_rtx() looks.
 */
static void mark_lost_from(struct uet_pdc *pdc, u32 from, u32 to, bool again)
{
	struct uet_pdc_tx *tx = &pdc->tx;
	bool any = false;
	u32 psn;

	for (psn = from; psn != to; psn++) {
		if (tx_acked(pdc, psn) || test_bit(slot(pdc, psn), tx->rnr) ||
		    (!again && test_bit(slot(pdc, psn), tx->rtxd)))
			continue;
		/* its copy sent again is lost too: a third goes */
		if (test_bit(slot(pdc, psn), tx->rtxd))
			psn_raise(&tx->rtx_twice, psn + 1);
		__set_bit(slot(pdc, psn), tx->lost);
		any = true;
	}
	if (!any)
		return;
	if (tx->rtx_next == tx->rtx_end) {
		tx->rtx_next = from;
		tx->rtx_end = to;
		return;
	}
	if (uet_psn_before(from, tx->rtx_next))
		tx->rtx_next = from;
	psn_raise(&tx->rtx_end, to);
}

static void mark_lost(struct uet_pdc *pdc, u32 from, u32 to)
{
	mark_lost_from(pdc, from, to, true);
}

/* ROD: everything from the first PSN not acknowledged goes again. */
static void go_back(struct uet_pdc *pdc)
{
	struct uet_pdc_tx *tx = &pdc->tx;

	tx->rewound = true;
	mark_lost(pdc, tx->una, tx->nxt);
}

/*
 * Record @psn, in flight and not acknowledged before, as acknowledged;
 * set *@spurious if that shows the last timeout spurious.
 */
static void tx_mark_acked(struct uet_pdc *pdc, u32 psn, u64 now,
			  bool *spurious)
{
	struct uet_pdc_tx *tx = &pdc->tx;
	u32 s = slot(pdc, psn);

	__set_bit(s, tx->acked);
	/* marked lost by a timeout and not sent again: its first copy came */
	if (__test_and_clear_bit(s, tx->lost) && tx->rto_marked &&
	    uet_psn_before(psn, tx->rto_end))
		*spurious = true;
	if (__test_and_clear_bit(s, tx->rtxd))
		tx->rtx_out--;
	if (__test_and_clear_bit(s, tx->rnr))
		tx->rnr_out--;
	if (tx->timing && psn == tx->timed_psn) {
		tx->timing = false;
		tx->rto_hold = 0;
		uet_pdc_rtt_sample(&pdc->rtt, now - tx->timed_at);
		pdc->cnt[UET_PDC_CNT_TX_RTT_SAMPLES]++;
	}
}

/*
 * Move the left edge over the acknowledged PSNs at it, and the cursors
 * that must not lie behind it along with it.
 */
static void tx_advance(struct uet_pdc *pdc)
{
	struct uet_pdc_tx *tx = &pdc->tx;
	u32 una = tx->una;

	while (tx->una != tx->nxt && tx_acked(pdc, tx->una))
		tx->una++;
	if (tx->una == una)
		return;
	tx->rewound = false;
	psn_raise(&tx->high_sack, tx->una);
	psn_raise(&tx->lost_scan, tx->una);
	psn_raise(&tx->rtx_next, tx->una);
	psn_raise(&tx->rtx_end, tx->una);
	psn_raise(&tx->rtx_twice, tx->una);
}

/* An ACK may not name a PSN never sent, cumulatively or in its bitmap. */
static bool ack_valid(const struct uet_pdc *pdc, const struct uet_pdc_ack *ack)
{
	s32 sent = uet_psn_diff(pdc->tx.nxt, ack->sack_base);

	if (!uet_psn_before(ack->cack_psn, pdc->tx.nxt))
		return false;
	if (sent >= UET_PDC_SACK_BITS)
		return true;
	if (sent <= 0)
		return !ack->sack_bitmap;
	return !(ack->sack_bitmap >> sent);
}

/* The duplicate threshold grows to @dist, if that is further. */
static void reorder_grow(struct uet_pdc *pdc, u32 dist)
{
	if (dist > pdc->tx.reorder) {
		pdc->tx.reorder = dist;
		pdc->cnt[UET_PDC_CNT_TX_REORDERED]++;
	}
}

/* A free entry of @tx's suspects; when none is, the ring's next in turn. */
static struct uet_pdc_suspect *suspect_entry(struct uet_pdc_tx *tx)
{
	struct uet_pdc_suspect *sus;

	for (sus = tx->suspects; sus < tx->suspects + UET_PDC_SUSPECTS; sus++)
		if (!sus->dist)
			return sus;
	sus = &tx->suspects[tx->suspect_next];
	tx->suspect_next = (tx->suspect_next + 1) % UET_PDC_SUSPECTS;
	return sus;
}

/*
 * RUD, RUDI: @psn, about to be acknowledged for the first time, arrived
 * after PSNs up to @high (one past the highest selectively acknowledged
 * before the ACK) did.  Unless it was sent again, it was reordered, not
 * lost: the duplicate threshold grows so that as late an arrival is not
 * taken for a loss again, as Linux TCP's reordering does
 * (tcp_check_sack_reordering()).  If it was sent again, which copy came
 * is not known: it is a suspect until an ACK shows whether it came twice
 * (ack_dsack()).  Below rtx_twice, where a PSN may have been sent a third
 * time, nothing is learnt: a duplicate there may be the third copy's,
 * the first lost, and a late arrival the second's.
 */
static void tx_reordered(struct uet_pdc *pdc, u32 psn, u32 high)
{
	struct uet_pdc_tx *tx = &pdc->tx;
	struct uet_pdc_suspect *sus;
	u32 dist;

	if (pdc->cfg.mode == UET_PDC_ROD || !uet_psn_before(psn, high))
		return;
	/* perhaps sent a third time: which copy came, and when, is unknown */
	if (uet_psn_before(psn, tx->rtx_twice))
		return;
	dist = min_t(u32, high - psn, UET_PDC_REORDER_MAX);
	if (!test_bit(slot(pdc, psn), tx->rtxd)) {
		reorder_grow(pdc, dist);
		return;
	}
	if (dist <= tx->reorder)
		return;		/* it would teach nothing */
	sus = suspect_entry(tx);
	sus->psn = psn;
	sus->dist = dist;
}

/* Whether @ack says that @psn arrived: cumulatively or in its bitmap. */
static bool ack_claims(const struct uet_pdc_ack *ack, u32 psn)
{
	u32 bit = psn - ack->sack_base;

	return !uet_psn_after(psn, ack->cack_psn) ||
	       (bit < UET_PDC_SACK_BITS && ack->sack_bitmap & BIT_ULL(bit));
}

/*
 * RUD, RUDI, before @ack is processed: whether it shows that its PSN
 * (ack_psn, the request that called for it) arrived twice.  The target
 * answers a request it has seen before at once, naming it (rx_account()),
 * much as TCP's D-SACK does (RFC 2883); but ACKs of sprayed requests
 * come back in any order, and an ACK that an earlier one overtook names a
 * PSN acknowledged before too.  So the ACK must name a PSN acknowledged
 * before it and be current: claim every PSN above its CACK PSN that the
 * sender holds acknowledged, which one built before the ACKs that
 * acknowledged them does not.
 */
static bool ack_names_duplicate(const struct uet_pdc *pdc,
				const struct uet_pdc_ack *ack)
{
	const struct uet_pdc_tx *tx = &pdc->tx;
	u32 p;

	if (!uet_psn_before(ack->ack_psn, tx->una) &&
	    !(tx_in_flight(pdc, ack->ack_psn) && tx_acked(pdc, ack->ack_psn)))
		return false;
	/* a current ACK's bitmap reaches the highest PSN selectively acked */
	if (uet_psn_diff(tx->high_sack, ack->cack_psn + 1) > UET_PDC_SACK_BITS)
		return false;
	for (p = ack->cack_psn + 1; uet_psn_before(p, tx->high_sack); p++)
		if ((uet_psn_before(p, tx->una) || tx_acked(pdc, p)) &&
		    !ack_claims(ack, p))
			return false;
	return true;
}

/*
 * RUD, RUDI, before @ack is processed: if it shows that a suspect
 * (tx_reordered()) arrived twice, that retransmission was needless, and
 * the threshold grows to the distance the first copy was late by.
 */
static bool ack_dsack(struct uet_pdc *pdc, const struct uet_pdc_ack *ack)
{
	struct uet_pdc_suspect *sus;

	if (pdc->cfg.mode == UET_PDC_ROD || !ack_names_duplicate(pdc, ack))
		return false;
	for (sus = pdc->tx.suspects;
	     sus < pdc->tx.suspects + UET_PDC_SUSPECTS; sus++) {
		if (sus->dist && sus->psn == ack->ack_psn) {
			reorder_grow(pdc, sus->dist);
			sus->dist = 0;
			pdc->cnt[UET_PDC_CNT_TX_NEEDLESS]++;
			return true;
		}
	}
	return false;
}

/* Acknowledge [una, @cack]; a CACK PSN behind the window is stale. */
static u32 ack_cumulative(struct uet_pdc *pdc, u32 cack, u64 now, u32 high,
			  bool *spurious)
{
	u32 newly = 0;
	u32 psn;

	if (uet_psn_before(cack, pdc->tx.una))
		return 0;
	for (psn = pdc->tx.una; psn != cack + 1; psn++) {
		if (tx_acked(pdc, psn))
			continue;
		tx_reordered(pdc, psn, high);
		tx_mark_acked(pdc, psn, now, spurious);
		newly++;
	}
	return newly;
}

/* Acknowledge what the SACK bitmap names in flight; bits behind are old. */
static u32 ack_selective(struct uet_pdc *pdc, const struct uet_pdc_ack *ack,
			 u64 now, u32 high, u64 *sack_new, bool *spurious)
{
	u64 map = ack->sack_bitmap;
	u32 newly = 0;
	u64 bit;
	u32 psn;

	*sack_new = 0;
	for (; map; map ^= bit) {
		bit = map & -map;
		psn = ack->sack_base + __ffs64(map);
		if (!tx_in_flight(pdc, psn) || tx_acked(pdc, psn))
			continue;
		tx_reordered(pdc, psn, high);
		tx_mark_acked(pdc, psn, now, spurious);
		psn_raise(&pdc->tx.high_sack, psn + 1);
		*sack_new |= bit;
		newly++;
	}
	return newly;
}

/*
 * Whether @count PSNs at or above @floor have been selectively
 * acknowledged: the walk goes down from the highest PSN SACKed and stops
 * at the last of them, whose PSN goes to *@psn.
 */
static bool sacked_above(const struct uet_pdc *pdc, u32 floor, u32 count,
			 u32 *psn)
{
	u32 p = pdc->tx.high_sack;
	u32 above = 0;

	if (!uet_psn_before(floor, p))
		return false;
	while (p != floor) {
		p--;
		if (tx_acked(pdc, p) && ++above == count) {
			*psn = p;
			return true;
		}
	}
	return false;
}

/*
 * RUD, RUDI: a hole is lost once dup_thresh PSNs above it have been
 * selectively acknowledged (IsLost() of RFC 6675 section 4).  Holes below
 * lost_scan have been judged.  A retransmission lost again is
 * detect_lost_rtx()'s to find.
 */
static void detect_losses(struct uet_pdc *pdc)
{
	struct uet_pdc_tx *tx = &pdc->tx;
	u32 psn;

	if (!sacked_above(pdc, tx->lost_scan, tx->reorder, &psn))
		return;
	mark_lost_from(pdc, tx->lost_scan, psn, false);
	tx->lost_scan = psn;
}

/*
 * RUD, RUDI: retransmissions are lost in turn once dup_thresh PSNs sent
 * after all of them (from rtx_high on) have been selectively acknowledged
 * and they have not: the sequence form of RACK's rule (RFC 8985 section
 * 6.2, a packet is lost once one sent sufficiently later is delivered),
 * where RFC 6675 would wait for the RTO.
 */
static void detect_lost_rtx(struct uet_pdc *pdc)
{
	struct uet_pdc_tx *tx = &pdc->tx;
	u32 psn, s;

	if (!tx->rtx_out ||
	    !sacked_above(pdc, tx->rtx_high, tx->reorder, &psn))
		return;
	for (psn = tx->una; tx->rtx_out && psn != tx->rtx_high; psn++) {
		s = slot(pdc, psn);
		if (!test_bit(s, tx->rtxd))
			continue;
		/* while its copy is out, so that rtx_twice moves past it */
		mark_lost(pdc, psn, psn + 1);
		__clear_bit(s, tx->rtxd);
		tx->rtx_out--;
		pdc->cnt[UET_PDC_CNT_TX_LOST_RTX]++;
	}
}

/*
 * RUD, RUDI: the tail probe is acknowledged.  It left a probe timeout
 * after everything still in flight below it, which has not arrived: all
 * of that is lost (RACK's rule again, RFC 8985 section 7.4), and the
 * duplicate threshold need not judge it.
 */
static void probe_answered(struct uet_pdc *pdc)
{
	struct uet_pdc_tx *tx = &pdc->tx;

	if (!tx->probing || (!uet_psn_before(tx->probe_psn, tx->una) &&
			     !tx_acked(pdc, tx->probe_psn)))
		return;
	tx->probing = false;
	if (!uet_psn_before(tx->probe_psn, tx->una)) {
		mark_lost(pdc, tx->una, tx->probe_psn);
		psn_raise(&tx->lost_scan, tx->probe_psn);
	}
}

/*
 * Progress, or an answer that shows the receiver alive: forget the
 * backoff, as RFC 6298 (5.7) allows once new data is acknowledged; else
 * Karn's rule would keep a go-back-N PDC, which retransmits everything,
 * on its longest timeout for good.
 */
static void tx_forget_backoff(struct uet_pdc *pdc)
{
	struct uet_pdc_tx *tx = &pdc->tx;

	if (!tx->retries)
		return;
	tx->retries = 0;
	pdc->rtt.rto = pdc->rtt.seeded ? rto_estimate(&pdc->rtt) :
					 rto_clamp(&pdc->rtt, pdc->cfg.rto_initial);
	pdc->rtt.rto = max(pdc->rtt.rto, tx->rto_hold);
}

/*
 * RUD, RUDI: a PSN the last timeout marked lost was acknowledged before it
 * went again: its first copy was late, not lost, and so, probably, are the
 * others the timeout marked.  Those not sent again yet stay in flight,
 * for the SACKs to judge again from the left edge on, with the duplicate
 * threshold: a go-back of the whole window would put a second copy of
 * everything behind the first in a queue that is only slow, and, the
 * queue growing with each, a round trip longer than each next RTO
 * (Documentation/engine.rst).  The idea is F-RTO's (RFC 5682): a
 * timeout is spurious when what it did not send again is acknowledged.
 * Until the next RTT sample, progress brings the RTO back to what it is
 * now, backed off (@rto_hold of struct uet_pdc_tx), and no lower.
 */
static void rto_undo(struct uet_pdc *pdc)
{
	struct uet_pdc_tx *tx = &pdc->tx;

	for (; tx->rtx_next != tx->rtx_end; tx->rtx_next++)
		__clear_bit(slot(pdc, tx->rtx_next), tx->lost);
	tx->rto_marked = false;
	tx->rto_hold = pdc->rtt.rto;
	tx->lost_scan = tx->una;
	pdc->cnt[UET_PDC_CNT_TX_SPURIOUS_RTO]++;
}

/*
 * The PSN sent again after waiting for a receive buffer was taken: the
 * buffers are there, and every PSN still waiting goes again, RUD's and
 * RUDI's selectively, ROD's from the first not acknowledged.
 */
static void rnr_answered(struct uet_pdc *pdc)
{
	struct uet_pdc_tx *tx = &pdc->tx;
	u32 psn, s;

	if (!tx->rnr_probing || (!uet_psn_before(tx->rnr_probe, tx->una) &&
				 !tx_acked(pdc, tx->rnr_probe)))
		return;
	tx->rnr_probing = false;
	for (psn = tx->una; tx->rnr_out && psn != tx->nxt; psn++) {
		s = slot(pdc, psn);
		if (!__test_and_clear_bit(s, tx->rnr))
			continue;
		tx->rnr_out--;
		if (pdc->cfg.mode != UET_PDC_ROD)
			mark_lost(pdc, psn, psn + 1);
	}
	if (pdc->cfg.mode == UET_PDC_ROD)
		go_back(pdc);
}

/**
 * uet_pdc_tx_ack() - process the reliability content of a received ACK
 * @pdc: the PDC.
 * @ack: the ACK's cumulative PSN and SACK bitmap.  A CACK PSN behind the
 *	window and SACK bits behind it are old news, not errors.
 * @now: the time, ns, for the RTT sample.
 * @acked: what the ACK acknowledged, for the caller to release: how many
 *	PSNs for the first time, in @acked->newly.  Each PSN is reported once
 *	in @acked->sack_new or, if not, once within the cumulative range
 *	[@acked->cum_from, @acked->cum_to).
 *
 * The cumulative part goes first, then the bitmap; the window's left edge
 * then moves over everything acknowledged at it.  For RUD and RUDI the
 * bitmap also reveals holes, which become retransmits (see
 * uet_pdc_tx_next_rtx()) once dup_thresh PSNs above them are acknowledged.
 * ROD learns of losses only from NACKs and timeouts.
 *
 * Return: 0, or -EINVAL for an ACK that names PSNs never sent (ignored
 * whole) or a UUD PDC.
 */
int uet_pdc_tx_ack(struct uet_pdc *pdc, const struct uet_pdc_ack *ack,
		   u64 now, struct uet_pdc_acked *acked)
{
	struct uet_pdc_tx *tx = &pdc->tx;

	memset(acked, 0, sizeof(*acked));
	acked->cum_from = tx->una;
	acked->cum_to = tx->una;
	acked->sack_base = ack->sack_base;
	if (pdc->cfg.mode == UET_PDC_UUD || !ack_valid(pdc, ack)) {
		pdc->cnt[UET_PDC_CNT_TX_BAD_ACKS]++;
		return -EINVAL;
	}

	acked->needless = ack_dsack(pdc, ack);
	acked->newly = ack_cumulative(pdc, ack->cack_psn, now, tx->high_sack,
				      &acked->spurious);
	acked->newly += ack_selective(pdc, ack, now, tx->high_sack,
				      &acked->sack_new, &acked->spurious);
	tx_advance(pdc);
	acked->cum_to = tx->una;
	if (acked->spurious)
		rto_undo(pdc);
	else if (tx->rto_marked)
		tx->rto_quota = min(tx->rto_quota + 2 * acked->newly,
				    pdc->cfg.window);

	if (!acked->newly) {
		pdc->cnt[UET_PDC_CNT_TX_DUP_ACKS]++;
		return 0;
	}
	/*
	 * Progress: forget the backoff, as RFC 6298 (5.7) allows once new
	 * data is acknowledged; else Karn's rule would keep a go-back-N PDC,
	 * which retransmits everything, on its longest timeout for good.
	 */
	tx_forget_backoff(pdc);
	rnr_answered(pdc);
	if (pdc->cfg.mode != UET_PDC_ROD) {
		probe_answered(pdc);
		detect_losses(pdc);
		detect_lost_rtx(pdc);
	}
	return 0;
}

/**
 * uet_pdc_tx_nack() - process a NACK asking for a retransmit
 * @pdc: the PDC.
 * @psn: the PSN the NACK refers to.
 *
 * RUD, RUDI: @psn alone goes again (the receiver refused it, e.g. it was
 * trimmed).  ROD: the receiver dropped @psn for arriving ahead of the one
 * it expects, and drops everything after it too, so all from the first
 * PSN not acknowledged goes again (go-back-N).  While that is under way,
 * a NACK for a PSN not yet sent again refers to its old copy and changes
 * nothing; a NACK for a PSN already sent again says the receiver still
 * misses the first one after its new copy went out (on a ROD PDC's single
 * path, in order), so it was lost too: back again.
 *
 * Return: 0, or -EINVAL if @psn is not in flight (a late NACK) or the PDC
 * is UUD.
 */
int uet_pdc_tx_nack(struct uet_pdc *pdc, u32 psn)
{
	struct uet_pdc_tx *tx = &pdc->tx;

	if (pdc->cfg.mode == UET_PDC_UUD || !tx_in_flight(pdc, psn))
		return -EINVAL;
	pdc->cnt[UET_PDC_CNT_TX_NACKS]++;
	if (pdc->cfg.mode != UET_PDC_ROD)
		mark_lost(pdc, psn, psn + 1);
	else if (!tx->rewound || uet_psn_before(psn, tx->rtx_next))
		go_back(pdc);
	return 0;
}

/**
 * uet_pdc_tx_rnr() - the receiver has no buffer for @psn yet
 * @pdc: the PDC.
 * @psn: the PSN its NACK refers to; it did not count as received.
 * @again: set if @psn was the one sent again after waiting
 *	(uet_pdc_tx_rnr_probe()), refused once more.
 *
 * @psn waits, and is neither retransmitted nor judged lost meanwhile;
 * ROD's receiver drops what follows @psn too, which waits with it.  Once
 * rnr_delay has passed (uet_pdc_tx_timer()), uet_pdc_tx_rnr_probe() sends
 * one waiting PSN again; when that one is taken, all of them go again.
 * Waiting for the receiver's owner is no loss: the backoff is forgotten,
 * and the timeouts in a row start again from none.
 *
 * Return: 0, or -EINVAL if @psn is not in flight, or acknowledged (a late
 * NACK), or the PDC is UUD.
 */
int uet_pdc_tx_rnr(struct uet_pdc *pdc, u32 psn, bool *again)
{
	struct uet_pdc_tx *tx = &pdc->tx;
	u32 p, end, s;

	*again = false;
	if (pdc->cfg.mode == UET_PDC_UUD || !tx_in_flight(pdc, psn) ||
	    tx_acked(pdc, psn))
		return -EINVAL;
	pdc->cnt[UET_PDC_CNT_TX_RNR]++;
	if (tx->rnr_probing && tx->rnr_probe == psn) {
		tx->rnr_probing = false;
		*again = true;
	}
	end = pdc->cfg.mode == UET_PDC_ROD ? tx->nxt : psn + 1;
	for (p = psn; p != end; p++) {
		s = slot(pdc, p);
		if (tx_acked(pdc, p) || __test_and_set_bit(s, tx->rnr))
			continue;
		tx->rnr_out++;
		__clear_bit(s, tx->lost);
		if (__test_and_clear_bit(s, tx->rtxd))
			tx->rtx_out--;
	}
	tx_forget_backoff(pdc);
	return 0;
}

/**
 * uet_pdc_tx_rnr_probe() - the wait for a receive buffer is over
 * @pdc: the PDC.
 * @psn: the lowest PSN waiting, to send again with the RETX flag and AR.
 *
 * One PSN goes, not all that wait: if its receiver is still not ready it
 * is refused again (uet_pdc_tx_rnr() then says so), and if it is taken
 * the rest follow (see rnr_answered()).
 *
 * Return: true if @psn is set; false if nothing waits, or one is out
 * already.
 */
bool uet_pdc_tx_rnr_probe(struct uet_pdc *pdc, u32 *psn)
{
	struct uet_pdc_tx *tx = &pdc->tx;
	u32 p, s;

	if (!tx->rnr_out || tx->rnr_probing)
		return false;
	for (p = tx->una; p != tx->nxt; p++) {
		s = slot(pdc, p);
		if (!__test_and_clear_bit(s, tx->rnr))
			continue;
		tx->rnr_out--;
		if (tx->timing && tx->timed_psn == p)
			tx->timing = false;
		tx->rnr_probing = true;
		tx->rnr_probe = p;
		pdc->cnt[UET_PDC_CNT_TX_RETRANSMITS]++;
		*psn = p;
		return true;
	}
	return false;
}

/**
 * uet_pdc_tx_next_rtx() - take the next PSN to retransmit
 * @pdc: the PDC.
 * @psn: the PSN to send again, with the RETX flag and AR.
 *
 * PSNs come in increasing order from the lowest one lost; for ROD that is
 * go-back-N.  Call it before uet_pdc_tx_alloc(): retransmits go first.
 *
 * Return: true if @psn is set, false if nothing waits for retransmission.
 */
bool uet_pdc_tx_next_rtx(struct uet_pdc *pdc, u32 *psn)
{
	struct uet_pdc_tx *tx = &pdc->tx;
	u32 s;

	for (; tx->rtx_next != tx->rtx_end; tx->rtx_next++) {
		s = slot(pdc, tx->rtx_next);
		if (!test_bit(s, tx->lost))
			continue;
		if (tx->rto_marked && !tx->rto_quota)
			return false;	/* the next ACK lets more go */
		if (tx->rto_marked)
			tx->rto_quota--;
		__clear_bit(s, tx->lost);
		/* Karn: its ACK could answer either copy. */
		if (tx->timing && tx->timed_psn == tx->rtx_next)
			tx->timing = false;
		if (!__test_and_set_bit(s, tx->rtxd))
			tx->rtx_out++;
		tx->rtx_high = tx->nxt;
		*psn = tx->rtx_next++;
		pdc->cnt[UET_PDC_CNT_TX_RETRANSMITS]++;
		return true;
	}
	/* all a timeout marked went again: nothing of it to undo */
	tx->rto_marked = false;
	return false;
}

/**
 * uet_pdc_tx_timeout() - the retransmit timer expired
 * @pdc: the PDC.
 *
 * Backs the RTO off (RFC 6298 (5.5)) and stops the RTT measurement under
 * way (Karn).  Every PSN in flight and not acknowledged becomes a
 * retransmit: for RUD and RUDI the holes the SACKs left, as after an RTO
 * in RFC 6675 section 5.1, one at first and more as ACKs come back
 * (@rto_quota of struct uet_pdc_tx), unless one shows the timeout
 * spurious (rto_undo()); for ROD all from the first (go-back-N).  Feed
 * %UET_PDC_EV_TIMEOUT next: after max_retries timeouts in a row without
 * progress it closes the PDC.
 */
void uet_pdc_tx_timeout(struct uet_pdc *pdc)
{
	struct uet_pdc_tx *tx = &pdc->tx;
	u32 psn;

	pdc->cnt[UET_PDC_CNT_TX_TIMEOUTS]++;
	tx->retries++;
	tx->timing = false;
	tx->probing = false;
	uet_pdc_rtt_backoff(&pdc->rtt);
	if (pdc->cfg.mode == UET_PDC_ROD) {
		go_back(pdc);
		return;
	}
	/*
	 * dup_thresh PSNs SACKed above the hole the timer found: the
	 * configured threshold would have found it, so the one learnt
	 * overestimates the reordering (a lesson from a late tail probe, or a
	 * needless resend wrongly proved) and comes back down to it, as Linux
	 * TCP's does on a timeout (tcp_enter_loss()).
	 */
	if (tx->reorder > pdc->cfg.dup_thresh &&
	    sacked_above(pdc, tx->una, pdc->cfg.dup_thresh, &psn))
		tx->reorder = pdc->cfg.dup_thresh;
	mark_lost(pdc, tx->una, tx->nxt);
	tx->rto_marked = true;
	tx->rto_end = tx->nxt;
	tx->rto_quota = 1;
	/* The retransmits are not to be judged lost again by SACKs. */
	tx->lost_scan = tx->nxt;
}

/*
 * A tail probe may go: RUD or RUDI, a round trip measured, nothing timed
 * out since the last progress, no probe out, and a probe timeout shorter
 * than the RTO.
 */
static bool probe_allowed(const struct uet_pdc *pdc, u64 pto)
{
	const struct uet_pdc_tx *tx = &pdc->tx;

	return (pdc->cfg.mode == UET_PDC_RUD ||
		pdc->cfg.mode == UET_PDC_RUDI) &&
	       pdc->rtt.seeded && !tx->retries && !tx->probing &&
	       !tx->rnr_out && !tx->rnr_probing &&
	       tx->una != tx->nxt && pto < pdc->rtt.rto;
}

/*
 * The probe timeout: RFC 8985's two smoothed round trips, or RFC 6298's
 * estimate without its floor (rto_min) if that is longer, so that the
 * jitter the RTT variation measured does not set probes off; and the
 * peer's ACK delay, for a tail that did not ask for an ACK.
 */
static u64 probe_timeout(const struct uet_pdc *pdc)
{
	const struct uet_pdc_rtt *rtt = &pdc->rtt;
	u64 var = RTT_K * rtt->rttvar;	/* both at most rto_max: no overflow */

	return rtt->srtt + (var > rtt->srtt ? var : rtt->srtt) +
	       pdc->cfg.ack_delay;
}

/**
 * uet_pdc_tx_timer() - when the sender's timer should expire
 * @pdc: the PDC, with PSNs in flight.
 * @probe: set if the expiry is a tail probe's (uet_pdc_tx_probe()), else
 *	it is a timeout (uet_pdc_tx_timeout()).
 *
 * RUD and RUDI probe before they time out (RFC 8985 section 7, tail loss
 * probe): a loss at the end of what is in flight leaves no later PSNs to
 * reveal it through SACKs, and would wait for the RTO.  PSNs waiting for
 * a receive buffer wait rnr_delay, then uet_pdc_tx_rnr_probe() goes
 * first.  The timer runs from the last progress (an ACK of something new,
 * or of a PSN waiting), or from the first send of an idle PDC.
 *
 * Return: the time from then to the expiry, ns.
 */
u64 uet_pdc_tx_timer(const struct uet_pdc *pdc, bool *probe)
{
	u64 pto = probe_timeout(pdc);

	*probe = false;
	if (pdc->tx.rnr_out && !pdc->tx.rnr_probing)
		return pdc->cfg.rnr_delay < pdc->rtt.rto ? pdc->cfg.rnr_delay :
							   pdc->rtt.rto;
	*probe = probe_allowed(pdc, pto);
	return *probe ? pto : pdc->rtt.rto;
}

/**
 * uet_pdc_tx_probe() - the probe timer expired: take the PSN to send again
 * @pdc: the PDC.
 * @psn: the highest PSN in flight and not acknowledged, to send again
 *	with the RETX flag and AR (RFC 8985 section 7.3 sends new data as
 *	the probe when there is some; the caller sends what its window
 *	allows after the probe).
 *
 * Its acknowledgment marks everything still missing below it lost (see
 * probe_answered()); until then, or a timeout, no other probe goes.  Arm
 * the timer again with uet_pdc_tx_timer(): for the RTO.
 *
 * Return: true if @psn is set, false if no probe is allowed.
 */
bool uet_pdc_tx_probe(struct uet_pdc *pdc, u32 *psn)
{
	struct uet_pdc_tx *tx = &pdc->tx;
	u32 p = tx->nxt;

	if (!probe_allowed(pdc, probe_timeout(pdc)))
		return false;
	/* una itself is never acknowledged: tx_advance() moved past it */
	do {
		p--;
	} while (p != tx->una && tx_acked(pdc, p));
	tx->probing = true;
	tx->probe_psn = p;
	if (tx->timing && tx->timed_psn == p)
		tx->timing = false;
	pdc->cnt[UET_PDC_CNT_TX_PROBES]++;
	*psn = p;
	return true;
}

/* Receiver window. */

/*
 * PSNs above cack + 1 that arrived; none past the window, none to an
 * initiator, none while nothing arrived out of order.
 */
static bool rx_recvd(const struct uet_pdc *pdc, u32 psn)
{
	return pdc->rx.recvd &&
	       uet_psn_in_window(psn, pdc->rx.cack + 1, pdc->cfg.window) &&
	       test_bit(slot(pdc, psn), pdc->rx.recvd);
}

/* The PSN after cack arrived: move cack over it. */
static void rx_step(struct uet_pdc *pdc)
{
	struct uet_pdc_rx *rx = &pdc->rx;

	rx->cack++;
	if (rx->history < pdc->cfg.window)
		rx->history++;
}

/* The expected PSN arrived: move cack over it and what arrived after it. */
static void rx_advance(struct uet_pdc *pdc)
{
	struct uet_pdc_rx *rx = &pdc->rx;

	rx_step(pdc);
	while (rx_recvd(pdc, rx->cack + 1)) {
		__clear_bit(slot(pdc, rx->cack + 1), rx->recvd);
		rx->holes--;
		rx_step(pdc);
	}
}

/* A PSN seen before: RUDI executes it again, the others do not. */
static enum uet_pdc_rx_verdict rx_seen(const struct uet_pdc *pdc)
{
	return pdc->cfg.mode == UET_PDC_RUDI ? UET_PDC_RX_REPLAY :
					       UET_PDC_RX_DUPLICATE;
}

/*
 * Ahead of cack lies the window; behind it, as seen, its history: a
 * sender retransmits nothing older than a window, so older PSNs are not
 * this PDC's any more.
 */
static enum uet_pdc_rx_verdict rx_classify(const struct uet_pdc *pdc,
					   u32 psn)
{
	const struct uet_pdc_rx *rx = &pdc->rx;
	u32 expected = rx->cack + 1;

	if (psn == expected)
		return UET_PDC_RX_DELIVER;
	if (uet_psn_in_window(psn, expected - rx->history, rx->history))
		return rx_seen(pdc);
	if (!uet_psn_in_window(psn, expected, pdc->cfg.window))
		return UET_PDC_RX_OUT_OF_WINDOW;
	if (pdc->cfg.mode == UET_PDC_ROD)
		return UET_PDC_RX_REJECT_OOO;
	if (pdc->initiator)
		return UET_PDC_RX_OUT_OF_WINDOW;
	if (rx_recvd(pdc, psn))
		return rx_seen(pdc);
	return UET_PDC_RX_DELIVER_OOO;
}

/* Record @psn, classified @v, as received. */
static void rx_take(struct uet_pdc *pdc, u32 psn, enum uet_pdc_rx_verdict v)
{
	if (v == UET_PDC_RX_DELIVER) {
		rx_advance(pdc);
	} else if (v == UET_PDC_RX_DELIVER_OOO) {
		__set_bit(slot(pdc, psn), pdc->rx.recvd);
		pdc->rx.holes++;
	}
}

static void rx_delivered(struct uet_pdc *pdc)
{
	pdc->cnt[UET_PDC_CNT_RX_DELIVERED]++;
	pdc->rx.unacked++;
}

/*
 * Counters, and the ACK coalescing policy: an ACK is due after ack_every
 * deliveries, and after dup_thresh while a hole is open: a sender that
 * has seen no reordering judges a hole lost once that many PSNs above it
 * are selectively acknowledged, and hears of them within dup_thresh
 * deliveries more.  At once for the request that closes the last hole
 * (the cumulative ACK passes what waited behind it, a request that asked
 * for an ACK among them), one seen before (its ACK was lost), one asking
 * for an ACK (AR), with SYN (the initiator leaves SYN_SENT one round
 * trip after it started), or ECN-marked (the ACK carries the mark, M).
 * Not at once for each request out of sequence, as TCP's duplicate ACKs:
 * the SACK bitmap carries what they would, and a sprayed PDC, whose
 * requests mostly arrive out of sequence, would answer each one.
 * @holes: requests held out of order before this one came.
 */
static void rx_account(struct uet_pdc *pdc, u32 psn, u32 flags,
		       enum uet_pdc_rx_verdict v, u32 holes)
{
	struct uet_pdc_rx *rx = &pdc->rx;
	u32 every = pdc->cfg.ack_every;

	switch (v) {
	case UET_PDC_RX_REJECT_OOO:
		pdc->cnt[UET_PDC_CNT_RX_ROD_REJECTS]++;
		return;
	case UET_PDC_RX_OUT_OF_WINDOW:
		pdc->cnt[UET_PDC_CNT_RX_OUT_OF_WINDOW]++;
		return;
	case UET_PDC_RX_DELIVER:
	case UET_PDC_RX_DELIVER_OOO:
		if (v == UET_PDC_RX_DELIVER_OOO)
			pdc->cnt[UET_PDC_CNT_RX_OUT_OF_ORDER]++;
		rx_delivered(pdc);
		break;
	case UET_PDC_RX_REPLAY:
		rx_delivered(pdc);
		pdc->cnt[UET_PDC_CNT_RX_DUPLICATES]++;
		rx->ack_due = true;
		break;
	case UET_PDC_RX_DUPLICATE:
		pdc->cnt[UET_PDC_CNT_RX_DUPLICATES]++;
		rx->ack_due = true;
		break;
	}
	rx->last_psn = psn;
	if (uet_psn_after(psn, rx->high))
		rx->high = psn;
	/* the sender learns of a mark in the next round trip, not later */
	if (flags & UET_PDC_RX_CE) {
		pdc->cnt[UET_PDC_CNT_RX_CE]++;
		rx->marked = true;
		rx->ack_due = true;
	}
	if (holes && !rx->holes)
		rx->ack_due = true;
	if (rx->holes && pdc->cfg.dup_thresh < every)
		every = pdc->cfg.dup_thresh;
	if (flags & (UET_PDC_RX_AR | UET_PDC_RX_SYN) || rx->unacked >= every)
		rx->ack_due = true;
}

/**
 * uet_pdc_rx_packet() - classify a received request by its PSN
 * @pdc: the PDC.
 * @psn: the request's PSN.
 * @flags: %UET_PDC_RX_AR, %UET_PDC_RX_SYN as the request carries them.
 *
 * A PSN is delivered once: RUD and RUDI deliver it as it comes, ROD only
 * in order.  A PSN received before, behind the expected one by up to a
 * window (and not before the start PSN) or ahead of it, is a duplicate,
 * which RUDI delivers again.  The window ahead of the expected PSN is all
 * that is accepted.  UUD delivers everything and never acknowledges.
 * Afterwards uet_pdc_rx_ack_due() says whether to send an ACK now.
 *
 * Return: what to do with the request.
 */
enum uet_pdc_rx_verdict uet_pdc_rx_packet(struct uet_pdc *pdc, u32 psn,
					  u32 flags)
{
	enum uet_pdc_rx_verdict v = uet_pdc_rx_check(pdc, psn);

	uet_pdc_rx_accept(pdc, psn, flags, v);
	return v;
}

/**
 * uet_pdc_rx_check() - what uet_pdc_rx_packet() would say of a request
 * @pdc: the PDC.
 * @psn: the request's PSN.
 *
 * Nothing the window shows changes: a receiver that can still refuse the
 * request (it has no buffer for it yet: the sender waits and sends it
 * again) calls uet_pdc_rx_accept() only for what it takes.  The first
 * request out of order brings the receive bitmap, empty, so that
 * accepting it cannot fail; without memory for it, the request is out of
 * the window: dropped, the sender sends it again.
 *
 * Return: the verdict.
 */
enum uet_pdc_rx_verdict uet_pdc_rx_check(struct uet_pdc *pdc, u32 psn)
{
	enum uet_pdc_rx_verdict v;

	if (pdc->cfg.mode == UET_PDC_UUD)
		return UET_PDC_RX_DELIVER;
	v = rx_classify(pdc, psn);
	if (v == UET_PDC_RX_DELIVER_OOO && !pdc->rx.recvd) {
		pdc->rx.recvd = kcalloc(BITS_TO_LONGS(pdc->cfg.window),
					sizeof(*pdc->rx.recvd), GFP_ATOMIC);
		if (!pdc->rx.recvd)
			return UET_PDC_RX_OUT_OF_WINDOW;
	}
	return v;
}

/**
 * uet_pdc_rx_accept() - record a request as uet_pdc_rx_packet() does
 * @pdc: the PDC.
 * @psn: the request's PSN.
 * @flags: %UET_PDC_RX_AR, %UET_PDC_RX_SYN as the request carries them.
 * @v: what uet_pdc_rx_check() said of it, nothing having changed since.
 */
void uet_pdc_rx_accept(struct uet_pdc *pdc, u32 psn, u32 flags,
		       enum uet_pdc_rx_verdict v)
{
	u32 holes = pdc->rx.holes;

	if (pdc->cfg.mode == UET_PDC_UUD) {
		pdc->cnt[UET_PDC_CNT_RX_DELIVERED]++;
		return;
	}
	rx_take(pdc, psn, v);
	rx_account(pdc, psn, flags, v, holes);
}

static u64 sack_bitmap(const struct uet_pdc *pdc, u32 base)
{
	u64 map = 0;
	u32 i;

	for (i = UET_PDC_SACK_BITS; i-- > 0;)
		map = map << 1 | rx_recvd(pdc, base + i);
	return map;
}

/**
 * uet_pdc_rx_build_ack() - build an ACK of what has been received
 * @pdc: the PDC.
 * @ack: filled in.
 *
 * The SACK bitmap starts at the first hole, cack + 1, unless the PSN being
 * acknowledged lies further ahead than the bitmap reaches: then it ends at
 * that PSN, so that each ACK covers the arrival that caused it.  Either
 * way the base lies at most a window above the CACK PSN, well within the
 * 16-bit sack_psn_offset of ACK_CC.  ROD's bitmap is empty: it keeps
 * nothing out of order.  Resets the coalescing.
 */
void uet_pdc_rx_build_ack(struct uet_pdc *pdc, struct uet_pdc_ack *ack)
{
	struct uet_pdc_rx *rx = &pdc->rx;
	u32 base = rx->cack + 1;

	if (uet_psn_diff(rx->last_psn, base) >= UET_PDC_SACK_BITS)
		base = rx->last_psn - (UET_PDC_SACK_BITS - 1);
	ack->cack_psn = rx->cack;
	ack->ack_psn = rx->last_psn;
	ack->sack_base = base;
	ack->sack_bitmap = sack_bitmap(pdc, base);
	ack->marked = rx->marked;
	rx->unacked = 0;
	rx->ack_due = false;
	rx->marked = false;
	pdc->cnt[UET_PDC_CNT_RX_ACKS]++;
}
