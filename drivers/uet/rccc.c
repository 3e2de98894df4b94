// SPDX-License-Identifier: GPL-2.0
/*
 * RCCC: a sender's credit and a receiver's grants (rccc.h).
 *
 * The sender starts with credit of 1.5 BDP, sent speculatively, and gives
 * up what is left of it at the first answer from the receiver (an ACK, a
 * NACK or a grant): from then on it sends on granted credit only.  Every
 * request spends its bytes with their headers; a request may spend more
 * than is left, so credit above 0 lets one leave.  What it asks for is
 * what it has queued, at most its window's worth, less the credit it
 * holds, in whole quanta on top of the grant it has heard.  The receiver
 * keeps the highest target each sender named and hands out credit up to
 * it, at most %UET_RCCC_GRANT_MAX quanta a turn, one sender after the
 * other, paced at 99% of its link's rate (uet-htsim's UecPullPacer).
 */
#include <linux/limits.h>
#include <linux/math64.h>
#include <linux/minmax.h>

#include "rccc.h"

#define RCCC_NS_PER_SEC		1000000000ULL
/* The pacer hands out credit at 99% of the link rate (UecPullPacer). */
#define RCCC_PACE_PERCENT	99
/* The credit held covers a round trip at most this many base RTTs long. */
#define RCCC_SPAN_MAX		16
/* The most quanta paced at once: 16 MiB, which keeps the product in u64. */
#define RCCC_PACE_MAX		65536

/*
 * The most credit a sender holds: its window, and what rounding its ask
 * up to whole quanta adds, so that a grant of all it asked for is kept
 * whole.
 */
static s64 rccc_hold(const struct uet_rccc_tx *tx)
{
	return (s64)tx->maxwnd + UET_RCCC_QUANTUM - 1;
}

/**
 * uet_rccc_tx_init() - a sender's credit when its PDC wakes
 * @tx: filled in
 * @maxwnd: the most credit it may hold, bytes: 1.5 BDP, NSCC's ceiling
 *	before a round trip is measured
 * @mss: its largest request, bytes
 * @pull: the grant it heard last, kept while the PDC was quiet (0 for a
 *	new PDC, as the receiver's count starts)
 *
 * It may send @maxwnd bytes before it hears from the receiver.
 */
void uet_rccc_tx_init(struct uet_rccc_tx *tx, u32 maxwnd, u32 mss, u32 pull)
{
	*tx = (struct uet_rccc_tx) {
		.credit = maxwnd,
		.maxwnd = maxwnd,
		.mss = mss,
		.pull = pull & UET_RCCC_COUNT_MASK,
		.asked = pull & UET_RCCC_COUNT_MASK,
		.speculating = true,
	};
}

/**
 * uet_rccc_answered() - the receiver answered: speculation is over
 * @tx: the sender
 *
 * The credit it was given to start with is given up, not a debt it ran
 * into: from now on it sends on what is granted.
 */
void uet_rccc_answered(struct uet_rccc_tx *tx)
{
	if (!tx->speculating)
		return;
	tx->speculating = false;
	tx->credit = min_t(s64, tx->credit, 0);
}

/**
 * uet_rccc_window() - the most credit to hold, as the path is measured
 * @tx: the sender
 * @maxwnd: uet_rccc_span(): NSCC's ceiling for the round trip measured,
 *	bytes
 *
 * Credit held beyond it (and the rounding of an ask, rccc_hold()) is
 * given up.
 *
 * Return: the bytes of credit given up.
 */
u64 uet_rccc_window(struct uet_rccc_tx *tx, u32 maxwnd)
{
	s64 over;

	tx->maxwnd = maxwnd;
	over = tx->credit - rccc_hold(tx);
	if (over <= 0)
		return 0;
	tx->credit -= over;
	return over;
}

/**
 * uet_rccc_span() - the most credit a sender holds, for the round trip
 * @maxwnd: NSCC's ceiling, 1.5 BDP of the base RTT, bytes
 * @base: ns: that base RTT
 * @srtt: ns: the PDC's smoothed round trip, 0 before the first
 *
 * What a sender asks for and holds must last the round trip of its
 * credit: the ask, the receiver's turn, the grant back and the request it
 * pays for.  That is the round trip measured, which a loaded path (a
 * queue at the bottleneck, a busy host) stretches beyond the base RTT;
 * a sender whose asks covered the base RTT alone would wait between
 * grants, and the receiver's link would idle.  The receiver's pace, not
 * the sender's window, bounds what the senders send together.
 *
 * Return: @maxwnd scaled by @srtt over @base when @srtt is the longer, by
 * at most %RCCC_SPAN_MAX.
 */
u32 uet_rccc_span(u32 maxwnd, u32 base, u64 srtt)
{
	u64 span;

	if (!base || srtt <= base)
		return maxwnd;
	srtt = min_t(u64, srtt, (u64)base * RCCC_SPAN_MAX);
	/* up to 2^68 before the division */
	span = mul_u64_u32_div(srtt, maxwnd, base);
	return min_t(u64, span, U32_MAX);
}

/**
 * uet_rccc_credit() - a grant came
 * @tx: the sender
 * @pull: the receiver's count of what it granted, quanta (24 bits)
 * @unused: set to the bytes of the grant given up: those that would take
 *	the credit past @tx->maxwnd and the rounding of an ask (rccc_hold())
 *
 * A count not after the one heard last is old news, reordered.  The
 * credit given up when speculation ends (uet_rccc_answered()) was never
 * granted, and is not in @unused.
 *
 * Return: the bytes of new credit granted, @unused among them; 0 for old
 * news.
 */
u32 uet_rccc_credit(struct uet_rccc_tx *tx, u32 pull, u32 *unused)
{
	s64 room;
	u32 bytes;

	*unused = 0;
	pull &= UET_RCCC_COUNT_MASK;
	uet_rccc_answered(tx);
	if (!uet_rccc_after(pull, tx->pull))
		return 0;
	bytes = ((pull - tx->pull) & UET_RCCC_COUNT_MASK) * UET_RCCC_QUANTUM;
	tx->pull = pull;
	tx->unanswered = 0;
	room = max_t(s64, rccc_hold(tx) - tx->credit, 0);
	if (bytes > room)
		*unused = bytes - room;
	tx->credit += bytes - *unused;
	return bytes;
}

/**
 * uet_rccc_target() - the credit to ask for
 * @tx: the sender
 * @backlog: bytes queued to send, with their headers
 * @cap: the most it may have in flight otherwise (NSCC's window and a
 *	request more), bytes; U32_MAX if nothing else bounds it
 *
 * What it needs is the backlog, at most @cap and @tx->maxwnd, less the
 * credit it holds; while speculating, with anything queued, at least a
 * request's worth (so that the receiver hears of it).
 *
 * Return: the target, quanta (24 bits): the grant heard plus the need.
 */
u32 uet_rccc_target(const struct uet_rccc_tx *tx, u64 backlog, u32 cap)
{
	u64 want = min_t(u64, backlog, min_t(u32, cap, tx->maxwnd));
	s64 need = (s64)want - tx->credit;

	if (tx->speculating && backlog && need < tx->mss)
		need = tx->mss;
	if (need <= 0)
		return tx->pull;
	return (tx->pull + (u32)div_u64(need + UET_RCCC_QUANTUM - 1,
					UET_RCCC_QUANTUM)) &
	       UET_RCCC_COUNT_MASK;
}

/**
 * uet_rccc_ask() - is @target news to the receiver?
 * @tx: the sender
 * @target: uet_rccc_target()
 *
 * Return: true if @target is after what the sender last asked for, which
 * it then remembers: a REQ_CREDIT is worth sending.
 */
bool uet_rccc_ask(struct uet_rccc_tx *tx, u32 target)
{
	if (!uet_rccc_after(target, tx->asked))
		return false;
	tx->asked = target;
	return true;
}

/**
 * uet_rccc_want() - a sender asked for credit
 * @rx: what the receiver knows of it
 * @target: its target, quanta (24 bits)
 *
 * Targets only grow: an older one, reordered, changes nothing, and so
 * does one not after the grant.  One more than %UET_RCCC_OWED_MAX quanta
 * past the grant counts as that far: a target half the count away, which
 * would hide the next ones, is never taken.
 *
 * Return: true if the target grew.
 */
bool uet_rccc_want(struct uet_rccc_rx *rx, u32 target)
{
	target &= UET_RCCC_COUNT_MASK;
	if (!uet_rccc_after(target, rx->granted))
		return false;
	if (((target - rx->granted) & UET_RCCC_COUNT_MASK) > UET_RCCC_OWED_MAX)
		target = (rx->granted + UET_RCCC_OWED_MAX) & UET_RCCC_COUNT_MASK;
	if (!uet_rccc_after(target, rx->target))
		return false;
	rx->target = target;
	return true;
}

/**
 * uet_rccc_grant() - hand a sender its turn of credit
 * @rx: what the receiver knows of it
 * @max: the most to hand out, quanta
 *
 * Return: the quanta handed out: what is owed (uet_rccc_owed()), at most
 * @max.
 */
u32 uet_rccc_grant(struct uet_rccc_rx *rx, u32 max)
{
	u32 q = min_t(u32, uet_rccc_owed(rx), max);

	rx->granted = (rx->granted + q) & UET_RCCC_COUNT_MASK;
	return q;
}

/**
 * uet_rccc_pace_ns() - how long the link takes for a grant
 * @quanta: the grant, at most %RCCC_PACE_MAX quanta counted
 * @rate: the link's rate, bytes a second; at least 1
 *
 * Return: the nanoseconds @quanta take at 99% of @rate, the pace of the
 * receiver's grants.
 */
u64 uet_rccc_pace_ns(u32 quanta, u64 rate)
{
	u64 bytes = (u64)min_t(u32, quanta, RCCC_PACE_MAX) * UET_RCCC_QUANTUM;

	return div64_u64(bytes * RCCC_NS_PER_SEC * 100,
			 max_t(u64, rate, 1) * RCCC_PACE_PERCENT);
}
