/* SPDX-License-Identifier: GPL-2.0 */
/*
 * RCCC: receiver credit congestion control, the protocol core's half
 * (rccc.c; Documentation/congestion.rst).
 *
 * A receiver hands out credit, at the rate its link drains, to the senders
 * that ask for it, in turn; a sender sends only on credit.  Credit is
 * counted in quanta of %UET_RCCC_QUANTUM bytes in two counters that only
 * grow, each 24 bits wide as the wire carries them (modulo 2^24): the
 * sender's target (all the credit it has asked for since its PDC began,
 * in its requests' CREDIT_TARGET field and in REQ_CREDIT control packets)
 * and the receiver's grant (all it has handed out, in CREDIT control
 * packets).  A lost or reordered packet loses nothing: the next one
 * carries the sum.  The model is uet-htsim's (uec.cpp: UecSrc's pull
 * target and credit, UecSink and UecPullPacer).
 */
#ifndef _UET_RCCC_H
#define _UET_RCCC_H

#include <linux/types.h>

/* Bytes a quantum of credit is: uet-htsim's UEC_PULL_QUANTUM. */
#define UET_RCCC_QUANTUM	256
/* What the 24-bit counters hold; they compare within half of it. */
#define UET_RCCC_COUNT_MASK	0xffffffu
#define UET_RCCC_COUNT_HALF	0x800000u
/* The most one grant hands one sender: uet-htsim's 64 quanta, 16 KiB. */
#define UET_RCCC_GRANT_MAX	64
/*
 * The most a receiver owes one sender, 16 MiB: a sender asks for at most
 * its window, 1.5 BDP; a forged target beyond costs the receiver no more
 * than this many bytes of grants.
 */
#define UET_RCCC_OWED_MAX	65536

/**
 * struct uet_rccc_tx - a sender's credit
 * @credit: bytes it may still send; a request may take it below 0.
 * @maxwnd: the most credit it asks for, bytes: what it may send first too.
 *	It holds as much and the rounding of an ask to whole quanta.
 * @mss: its largest request, bytes.
 * @pull: the receiver's grant it last heard, quanta (24 bits).
 * @asked: the target it last told the receiver, quanta (24 bits).
 * @speculating: it has heard nothing yet: it sends on the credit it was
 *	given to start with, which it gives up at the first answer.
 * @unanswered: its asks in a row that no grant answered (the engine's
 *	count: a grant zeroes it).
 */
struct uet_rccc_tx {
	s64 credit;
	u32 maxwnd;
	u32 mss;
	u32 pull;
	u32 asked;
	bool speculating;
	u32 unanswered;
};

/**
 * struct uet_rccc_rx - what a receiver knows of one sender
 * @target: the most credit the sender asked for, quanta (24 bits).
 * @granted: the credit handed out to it, quanta (24 bits).
 */
struct uet_rccc_rx {
	u32 target;
	u32 granted;
};

void uet_rccc_tx_init(struct uet_rccc_tx *tx, u32 maxwnd, u32 mss, u32 pull);
void uet_rccc_answered(struct uet_rccc_tx *tx);
u64 uet_rccc_window(struct uet_rccc_tx *tx, u32 maxwnd);
u32 uet_rccc_span(u32 maxwnd, u32 base, u64 srtt);
u32 uet_rccc_credit(struct uet_rccc_tx *tx, u32 pull, u32 *unused);
u32 uet_rccc_target(const struct uet_rccc_tx *tx, u64 backlog, u32 cap);
bool uet_rccc_ask(struct uet_rccc_tx *tx, u32 target);
bool uet_rccc_want(struct uet_rccc_rx *rx, u32 target);
u32 uet_rccc_grant(struct uet_rccc_rx *rx, u32 max);
u64 uet_rccc_pace_ns(u32 quanta, u64 rate);

/* Count @a is after @b, as 24-bit counters go. */
static inline bool uet_rccc_after(u32 a, u32 b)
{
	u32 d = (a - b) & UET_RCCC_COUNT_MASK;

	return d && d < UET_RCCC_COUNT_HALF;
}

/* May the sender send a request? */
static inline bool uet_rccc_may_send(const struct uet_rccc_tx *tx)
{
	return tx->credit > 0;
}

/* A request of @bytes (uet_nscc_bytes(): payload and headers) left. */
static inline void uet_rccc_sent(struct uet_rccc_tx *tx, u32 bytes)
{
	tx->credit -= bytes;
}

/* Credit the receiver still owes the sender, quanta. */
static inline u32 uet_rccc_owed(const struct uet_rccc_rx *rx)
{
	u32 d = (rx->target - rx->granted) & UET_RCCC_COUNT_MASK;

	return d < UET_RCCC_COUNT_HALF ? d : 0;
}

#endif /* _UET_RCCC_H */
