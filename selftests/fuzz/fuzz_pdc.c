// SPDX-License-Identifier: GPL-2.0
/*
 * libFuzzer target for the PDC reliability core (drivers/uet/pdc.c).
 *
 * The input sets up a sender (initiator) and a receiver (target) PDC with
 * the same start PSN, then scripts events for them, one operation per
 * byte followed by its arguments: sends and retransmits (which reach the
 * receiver or are lost), ACKs with arbitrary cumulative PSNs and SACK
 * bitmaps (made up, or built by the receiver), NACKs, timeouts, arriving
 * PSNs, state machine events, RTT samples.
 * After each operation the invariants are checked, and any breach aborts:
 *  - the sender's PSNs in flight never exceed the window, its left edge
 *    never moves back, and it moves over acknowledged PSNs only;
 *  - an acknowledged PSN stays acknowledged, and each is reported newly
 *    acknowledged exactly once;
 *  - a PSN handed out for retransmission is in flight, not acknowledged,
 *    and every PSN marked lost will be handed out;
 *  - the duplicate threshold in force lies between the configured one and
 *    %UET_PDC_REORDER_MAX;
 *  - the receiver delivers a PSN once (RUDI's replays and UUD aside), ROD
 *    in order, and calls duplicate only what it delivered;
 *  - the states stay in range, and those of one side only stay there;
 *  - the sender's bitmaps go only with nothing in flight, and nothing
 *    leaks (uet_pdc_fini());
 *  - a side is saved only when quiet, and restored goes on where it was
 *    (uet_pdc_save(), uet_pdc_restore()).
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include <linux/minmax.h>

#include "fuzz_input.h"
#include "pdc.h"
#include "psn.h"

/* the allocation shim's failure injection (unit/shim/linux/slab.h): off */
int uet_shim_fail_allocs = -1;

#define MAX_OPS		4096
/* PSNs reachable from the start: one per send or delivery, plus a window. */
#define SPAN		(2 * MAX_OPS + UET_PDC_WND_MAX)
#define NS_PER_US	1000

#define CHECK(cond)		\
	do {			\
		if (!(cond))	\
			abort();\
	} while (0)

enum op {
	OP_SEND,
	OP_ACK_NEAR,
	OP_ACK_RAW,
	OP_ACK_RECEIVER,
	OP_NACK,
	OP_TIMEOUT,
	OP_RTX,
	OP_RECV_NEAR,
	OP_RECV_RAW,
	OP_EVENT,
	OP_RTT,
	OP_PROBE,
	OP_RNR,
	OP_RNR_PROBE,
	OP_SAVE,
	OP_COUNT
};

struct fuzz {
	struct uet_pdc tx;
	struct uet_pdc rx;
	u32 start;
	u64 now;
	u8 acked[SPAN];
	u8 delivered[SPAN];
};

static u32 offset(const struct fuzz *f, u32 psn)
{
	u32 i = psn - f->start;

	CHECK(i < SPAN);
	return i;
}

static bool tx_bit(const struct uet_pdc *pdc, const unsigned long *map,
		   u32 psn)
{
	return test_bit(psn & (pdc->cfg.window - 1), map);
}

/* @x lies in [@lo, @hi], all modulo 2^32. */
static bool between(u32 x, u32 lo, u32 hi)
{
	return x - lo <= hi - lo;
}

static bool rto_in_bounds(const struct uet_pdc *pdc)
{
	return uet_pdc_rto(pdc) >= pdc->cfg.rto_min &&
	       uet_pdc_rto(pdc) <= pdc->cfg.rto_max;
}

static void check_tx(const struct fuzz *f, u32 old_una)
{
	const struct uet_pdc *pdc = &f->tx;
	const struct uet_pdc_tx *tx = &pdc->tx;
	u32 psn, rtxd = 0, rnr = 0;

	CHECK(uet_pdc_tx_in_flight(pdc) <= pdc->cfg.window);
	CHECK(between(tx->una, old_una, tx->nxt));
	for (psn = old_una; psn != tx->una; psn++)
		CHECK(f->acked[offset(f, psn)]);
	if (pdc->cfg.mode == UET_PDC_UUD)
		return;		/* no window: the cursors do not move */
	CHECK(between(tx->high_sack, tx->una, tx->nxt));
	CHECK(between(tx->lost_scan, tx->una, tx->nxt));
	CHECK(tx->reorder >= pdc->cfg.dup_thresh &&
	      tx->reorder <= max_t(u32, pdc->cfg.dup_thresh,
				   UET_PDC_REORDER_MAX));
	CHECK(between(tx->rtx_next, tx->una, tx->rtx_end));
	CHECK(between(tx->rtx_end, tx->rtx_next, tx->nxt));
	for (psn = tx->una; psn != tx->nxt; psn++) {
		bool acked = tx_bit(pdc, tx->acked, psn);

		CHECK(acked == f->acked[offset(f, psn)]);
		if (tx_bit(pdc, tx->rtxd, psn)) {
			CHECK(!acked);
			rtxd++;
		}
		/* waiting for a receive buffer: neither sent nor lost */
		if (tx_bit(pdc, tx->rnr, psn)) {
			CHECK(!acked && !tx_bit(pdc, tx->lost, psn) &&
			      !tx_bit(pdc, tx->rtxd, psn));
			rnr++;
		}
		if (!tx_bit(pdc, tx->lost, psn))
			continue;
		CHECK(!acked);
		CHECK(uet_psn_in_window(psn, tx->rtx_next,
					tx->rtx_end - tx->rtx_next));
	}
	/* every retransmission outstanding is in flight, once */
	CHECK(rtxd == tx->rtx_out);
	CHECK(rnr == tx->rnr_out);
	CHECK(!tx->probing || uet_psn_before(tx->probe_psn, tx->nxt));
}

static void count_acked(struct fuzz *f, const struct uet_pdc_acked *acked)
{
	u32 marks = 0, i, psn;

	for (i = 0; i < UET_PDC_SACK_BITS; i++) {
		if (!(acked->sack_new >> i & 1))
			continue;
		psn = offset(f, acked->sack_base + i);
		CHECK(!f->acked[psn]);
		f->acked[psn] = 1;
		marks++;
	}
	for (psn = acked->cum_from; psn != acked->cum_to; psn++) {
		i = offset(f, psn);
		if (!f->acked[i]) {
			f->acked[i] = 1;
			marks++;
		}
	}
	CHECK(marks == acked->newly);
}

static void do_ack(struct fuzz *f, const struct uet_pdc_ack *ack)
{
	struct uet_pdc_acked acked;
	int err = uet_pdc_tx_ack(&f->tx, ack, f->now, &acked);

	CHECK(err == 0 || err == -EINVAL);
	CHECK(acked.cum_from == acked.cum_to || acked.newly);
	if (err) {
		CHECK(!acked.newly && !acked.sack_new);
		return;
	}
	count_acked(f, &acked);
	uet_pdc_transition(&f->tx, UET_PDC_EV_ACK);
}

static void do_recv(struct fuzz *f, u32 psn, u32 flags)
{
	struct uet_pdc *pdc = &f->rx;
	enum uet_pdc_mode mode = pdc->cfg.mode;
	u32 expected = pdc->rx.cack + 1;
	enum uet_pdc_rx_verdict v = uet_pdc_rx_packet(pdc, psn, flags);
	u8 *seen;

	if (mode == UET_PDC_UUD) {
		CHECK(v == UET_PDC_RX_DELIVER);
		return;
	}
	switch (v) {
	case UET_PDC_RX_DELIVER:
		CHECK(psn == expected);
		break;
	case UET_PDC_RX_DELIVER_OOO:
		CHECK(mode != UET_PDC_ROD && psn != expected);
		break;
	case UET_PDC_RX_REPLAY:
		CHECK(mode == UET_PDC_RUDI);
		break;
	case UET_PDC_RX_DUPLICATE:
		CHECK(mode != UET_PDC_RUDI);
		break;
	case UET_PDC_RX_REJECT_OOO:
		CHECK(mode == UET_PDC_ROD);
		return;
	case UET_PDC_RX_OUT_OF_WINDOW:
		return;
	default:
		CHECK(false);
	}
	seen = &f->delivered[offset(f, psn)];
	CHECK(*seen == (v == UET_PDC_RX_REPLAY || v == UET_PDC_RX_DUPLICATE));
	*seen = 1;
}

/* Bit 0 of @how: the packet reaches the receiver; the rest: its flags. */
static void transmit(struct fuzz *f, u32 psn, u8 how)
{
	uet_pdc_transition(&f->tx, UET_PDC_EV_SEND);
	if (how & 1)
		do_recv(f, psn, how >> 1);
}

static void do_send(struct fuzz *f, u8 how)
{
	u32 nxt = f->tx.tx.nxt;
	u32 psn;

	if (uet_pdc_tx_alloc(&f->tx, f->now, &psn)) {
		CHECK(uet_pdc_tx_window_full(&f->tx));
		return;
	}
	CHECK(psn == nxt);
	if (f->tx.cfg.mode == UET_PDC_UUD)
		f->acked[offset(f, psn)] = 1;
	transmit(f, psn, how);
}

static void do_rtx(struct fuzz *f, u8 how)
{
	u32 psn;

	if (!uet_pdc_tx_next_rtx(&f->tx, &psn))
		return;
	CHECK(uet_psn_in_window(psn, f->tx.tx.una,
				uet_pdc_tx_in_flight(&f->tx)));
	CHECK(!f->acked[offset(f, psn)]);
	transmit(f, psn, how);
}

/* The sender's timer expires: a tail probe, if one is due. */
static void do_probe(struct fuzz *f, u8 how)
{
	bool probe;
	u64 t = uet_pdc_tx_timer(&f->tx, &probe);
	u32 psn;

	if (f->tx.tx.rnr_out && !f->tx.tx.rnr_probing)
		CHECK(!probe && t <= uet_pdc_rto(&f->tx));
	else
		CHECK(probe ? t < uet_pdc_rto(&f->tx) :
			      t == uet_pdc_rto(&f->tx));
	if (!uet_pdc_tx_probe(&f->tx, &psn)) {
		CHECK(!probe);
		return;
	}
	CHECK(probe && f->tx.tx.probing && f->tx.tx.probe_psn == psn);
	CHECK(uet_psn_in_window(psn, f->tx.tx.una,
				uet_pdc_tx_in_flight(&f->tx)));
	CHECK(!f->acked[offset(f, psn)]);
	/* the highest PSN not acknowledged */
	for (psn++; psn != f->tx.tx.nxt; psn++)
		CHECK(f->acked[offset(f, psn)]);
	transmit(f, f->tx.tx.probe_psn, how);
}

/* The receiver had no buffer for a PSN near the left edge. */
static void do_rnr(struct fuzz *f, u32 psn)
{
	u32 retries = f->tx.tx.retries;
	bool again;

	if (uet_pdc_tx_rnr(&f->tx, psn, &again)) {
		CHECK(f->tx.tx.retries == retries);
		return;
	}
	CHECK(!f->acked[offset(f, psn)] && !f->tx.tx.retries);
	CHECK(tx_bit(&f->tx, f->tx.tx.rnr, psn));
}

/* The wait is over: the lowest PSN waiting goes alone. */
static void do_rnr_probe(struct fuzz *f, u8 how)
{
	u32 psn, p;

	if (!uet_pdc_tx_rnr_probe(&f->tx, &psn))
		return;
	CHECK(f->tx.tx.rnr_probing && f->tx.tx.rnr_probe == psn);
	for (p = f->tx.tx.una; p != psn; p++)
		CHECK(!tx_bit(&f->tx, f->tx.tx.rnr, p));
	transmit(f, psn, how);
}

static void check_rx(const struct fuzz *f)
{
	const struct uet_pdc *pdc = &f->rx;
	u32 cack = pdc->rx.cack;

	if (pdc->cfg.mode == UET_PDC_UUD)
		return;
	/* cack never stops short of a PSN that arrived. */
	CHECK(!pdc->rx.recvd || !tx_bit(pdc, pdc->rx.recvd, cack + 1));
	/* the holes are counted as the bitmap has them */
	CHECK(pdc->rx.recvd ? !pdc->rx.holes ==
			      bitmap_empty(pdc->rx.recvd, pdc->cfg.window) :
			      !pdc->rx.holes);
	CHECK(cack + 1 == f->start || f->delivered[offset(f, cack)]);
	CHECK(pdc->rx.history <= pdc->cfg.window);
	/* a mark goes back in the next ACK, which is due at once */
	CHECK(!pdc->rx.marked || pdc->rx.ack_due);
}

/* States of the initiator's side only, or of the target's. */
static void check_states(const struct fuzz *f)
{
	CHECK(f->tx.state < UET_PDC_STATE_COUNT);
	CHECK(f->rx.state != UET_PDC_SYN_SENT && f->rx.state != UET_PDC_CLOSING);
}

/* A quiet side saved and restored goes on where it was, holding nothing. */
static void do_save(struct uet_pdc *pdc)
{
	const struct uet_pdc_cfg cfg = pdc->cfg;
	const struct uet_pdc was = *pdc;
	struct uet_pdc_saved saved;

	if (!uet_pdc_save(pdc, &saved)) {
		CHECK(uet_pdc_tx_in_flight(pdc) || pdc->rx.holes ||
		      uet_pdc_rx_ack_pending(pdc) || uet_pdc_rx_ack_due(pdc));
		return;
	}
	CHECK(!pdc->tx.acked && !pdc->rx.recvd);
	CHECK(!uet_pdc_restore(pdc, &cfg, was.initiator, &saved));
	CHECK(pdc->state == was.state && pdc->tx.una == was.tx.nxt &&
	      pdc->tx.nxt == was.tx.nxt && pdc->rx.cack == was.rx.cack &&
	      pdc->rx.history == was.rx.history);
	CHECK(pdc->rtt.seeded == was.rtt.seeded &&
	      pdc->rtt.srtt == min_t(u64, was.rtt.srtt, (u32)~0U) &&
	      rto_in_bounds(pdc));
	CHECK(!memcmp(pdc->cnt, was.cnt, sizeof(saved.cnt)));
}

static void do_op(struct fuzz *f, struct input *in)
{
	struct uet_pdc_ack ack;
	u32 una = f->tx.tx.una;
	u8 op = take(in, 1) % OP_COUNT;
	struct uet_pdc *pdc;
	u32 psn, flags;

	f->now += take(in, 1) * NS_PER_US;
	switch (op) {
	case OP_SEND:
		do_send(f, take(in, 1));
		break;
	case OP_ACK_NEAR:
		ack.cack_psn = una - 1 + (s16)take(in, 2);
		ack.sack_base = una + (s8)take(in, 1);
		ack.sack_bitmap = take(in, 8);
		do_ack(f, &ack);
		break;
	case OP_ACK_RAW:
		ack.cack_psn = take(in, 4);
		ack.sack_base = take(in, 4);
		ack.sack_bitmap = take(in, 8);
		do_ack(f, &ack);
		break;
	case OP_ACK_RECEIVER:
		uet_pdc_rx_build_ack(&f->rx, &ack);
		CHECK(!uet_pdc_rx_ack_due(&f->rx));
		do_ack(f, &ack);
		break;
	case OP_NACK:
		if (!uet_pdc_tx_nack(&f->tx, una + (s8)take(in, 1)))
			uet_pdc_transition(&f->tx, UET_PDC_EV_NACK);
		break;
	case OP_TIMEOUT:
		uet_pdc_tx_timeout(&f->tx);
		uet_pdc_transition(&f->tx, UET_PDC_EV_TIMEOUT);
		CHECK(rto_in_bounds(&f->tx));
		break;
	case OP_RTX:
		do_rtx(f, take(in, 1));
		break;
	case OP_PROBE:
		do_probe(f, take(in, 1));
		break;
	case OP_RNR:
		do_rnr(f, una + (s8)take(in, 1));
		break;
	case OP_RNR_PROBE:
		do_rnr_probe(f, take(in, 1));
		break;
	case OP_RECV_NEAR:
		psn = f->rx.rx.cack + 1 + (s16)take(in, 2);
		flags = take(in, 1);
		do_recv(f, psn, flags);
		break;
	case OP_RECV_RAW:
		psn = take(in, 4);
		flags = take(in, 1);
		do_recv(f, psn, flags);
		break;
	case OP_EVENT:
		pdc = take(in, 1) & 1 ? &f->tx : &f->rx;
		uet_pdc_transition(pdc, take(in, 1) % UET_PDC_EV_COUNT);
		break;
	case OP_RTT:
		uet_pdc_rtt_sample(&f->tx.rtt, take(in, 8));
		CHECK(rto_in_bounds(&f->tx));
		break;
	case OP_SAVE:
		do_save(take(in, 1) & 1 ? &f->tx : &f->rx);
		break;
	}
	check_tx(f, una);
	check_rx(f);
	check_states(f);
}

/* Set-up: mode, window, ACK policy, RTO bounds and start PSN from input. */
static bool setup(struct fuzz *f, struct input *in)
{
	struct uet_pdc_cfg cfg;
	u8 b = take(in, 1);

	uet_pdc_cfg_default(&cfg, b % UET_PDC_MODE_COUNT);
	cfg.window = 1 << ((b >> 2) % 11);
	b = take(in, 1);
	cfg.ack_every = 1 + (b & 7);
	cfg.dup_thresh = 1 + ((b >> 3) & 3);
	cfg.max_retries = b >> 5;
	cfg.rto_min = 1 + take(in, 2) * NS_PER_US;
	cfg.rto_max = cfg.rto_min + take(in, 4) * NS_PER_US;
	cfg.rto_initial = take(in, 4) * NS_PER_US;
	f->start = take(in, 4);
	if (uet_pdc_init(&f->tx, &cfg, true, f->start) ||
	    uet_pdc_init(&f->rx, &cfg, false, f->start))
		return false;
	CHECK(rto_in_bounds(&f->tx));
	return true;
}

int LLVMFuzzerTestOneInput(const u8 *data, size_t size)
{
	static struct fuzz f;
	struct input in = { data, size };
	unsigned int ops;

	memset(&f, 0, sizeof(f));
	if (!setup(&f, &in))
		return 0;
	for (ops = 0; in.left && ops < MAX_OPS; ops++)
		do_op(&f, &in);
	uet_pdc_fini(&f.tx);
	uet_pdc_fini(&f.rx);
	return 0;
}
