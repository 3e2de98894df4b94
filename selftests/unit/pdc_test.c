// SPDX-License-Identifier: GPL-2.0
/*
 * Unit tests of the PDC reliability core (drivers/uet/pdc.c): the state
 * machine, the sender and receiver windows across PSN wrap-around, the RTO
 * estimator against RFC 6298 values worked by hand, and a simulation that
 * moves 10,000 requests through a lossy, reordering, duplicating channel.
 */
#include <stdlib.h>
#include <string.h>

#include "kselftest_harness.h"

#include "pdc.h"
#include "psn.h"

/* The allocation shim's failure injection: off but where a test sets it. */
int uet_shim_fail_allocs = -1;

/* Start PSNs a few packets short of the wrap, so that every test wraps. */
#define WRAP_START	0xfffffffcu
#define US		1000ULL			/* ns */
#define MS		(1000 * US)
#define S		(1000 * MS)

static void small_cfg(struct uet_pdc_cfg *cfg, enum uet_pdc_mode mode,
		      u32 window)
{
	uet_pdc_cfg_default(cfg, mode);
	cfg->window = window;
	cfg->ack_every = 4;
}

/* An initiator in ESTABLISHED with @n PSNs in flight from WRAP_START. */
static void sender(struct __test_metadata *_metadata, struct uet_pdc *pdc,
		   enum uet_pdc_mode mode, u32 window, u32 n)
{
	struct uet_pdc_cfg cfg;
	u32 psn, i;

	small_cfg(&cfg, mode, window);
	ASSERT_EQ(0, uet_pdc_init(pdc, &cfg, true, WRAP_START));
	pdc->state = UET_PDC_ESTABLISHED;
	for (i = 0; i < n; i++) {
		ASSERT_EQ(0, uet_pdc_tx_alloc(pdc, 0, &psn));
		ASSERT_EQ(WRAP_START + i, psn);
	}
}

static void receiver(struct __test_metadata *_metadata, struct uet_pdc *pdc,
		     enum uet_pdc_mode mode, u32 window)
{
	struct uet_pdc_cfg cfg;

	small_cfg(&cfg, mode, window);
	ASSERT_EQ(0, uet_pdc_init(pdc, &cfg, false, WRAP_START));
	ASSERT_EQ(UET_PDC_ESTABLISHED,
		  uet_pdc_transition(pdc, UET_PDC_EV_RECV_SYN));
}

static struct uet_pdc_ack ack_of(u32 cack, u32 sack_base, u64 bitmap)
{
	struct uet_pdc_ack ack = {
		.cack_psn = cack,
		.ack_psn = cack,
		.sack_base = sack_base,
		.sack_bitmap = bitmap,
	};

	return ack;
}

/* uet_pdc_tx_ack(): how many PSNs it acknowledged first, or its error. */
static int acks(struct uet_pdc *pdc, const struct uet_pdc_ack *ack, u64 now,
		struct uet_pdc_acked *acked)
{
	int err = uet_pdc_tx_ack(pdc, ack, now, acked);

	return err ? err : (int)acked->newly;
}

/* Drains the retransmit queue into @psns; returns how many. */
static unsigned int take_rtx(struct uet_pdc *pdc, u32 *psns, unsigned int max)
{
	unsigned int n = 0;
	u32 psn;

	while (n < max && uet_pdc_tx_next_rtx(pdc, &psn))
		psns[n++] = psn;
	return n;
}

TEST(names)
{
	unsigned int i;

	for (i = 0; i < UET_PDC_STATE_COUNT; i++)
		EXPECT_STRNE("?", uet_pdc_state_name(i));
	for (i = 0; i < UET_PDC_EV_COUNT; i++)
		EXPECT_STRNE("?", uet_pdc_event_name(i));
	for (i = 0; i < UET_PDC_MODE_COUNT; i++)
		EXPECT_STRNE("?", uet_pdc_mode_name(i));
	for (i = 0; i < UET_PDC_CNT_COUNT; i++)
		EXPECT_STRNE("?", uet_pdc_counter_name(i));
	EXPECT_STREQ("?", uet_pdc_state_name(UET_PDC_STATE_COUNT));
	EXPECT_STREQ("?", uet_pdc_event_name(UET_PDC_EV_COUNT));
	EXPECT_STREQ("SYN_SENT", uet_pdc_state_name(UET_PDC_SYN_SENT));
	EXPECT_STREQ("ROD", uet_pdc_mode_name(UET_PDC_ROD));
}

TEST(init_rejects_bad_cfg)
{
	struct uet_pdc_cfg cfg;
	struct uet_pdc pdc;

	uet_pdc_cfg_default(&cfg, UET_PDC_RUD);
	EXPECT_EQ(0, uet_pdc_init(&pdc, &cfg, true, 0));
	EXPECT_EQ(UET_PDC_CLOSED, pdc.state);
	EXPECT_EQ(UET_PDC_WND_MAX, pdc.cfg.window);
	EXPECT_EQ(1 * S, uet_pdc_rto(&pdc));

	cfg.window = 0;
	EXPECT_EQ(-EINVAL, uet_pdc_init(&pdc, &cfg, true, 0));
	cfg.window = 96;
	EXPECT_EQ(-EINVAL, uet_pdc_init(&pdc, &cfg, true, 0));
	cfg.window = 2 * UET_PDC_WND_MAX;
	EXPECT_EQ(-EINVAL, uet_pdc_init(&pdc, &cfg, true, 0));
	uet_pdc_cfg_default(&cfg, UET_PDC_RUD);
	cfg.ack_every = 0;
	EXPECT_EQ(-EINVAL, uet_pdc_init(&pdc, &cfg, true, 0));
	uet_pdc_cfg_default(&cfg, UET_PDC_RUD);
	cfg.dup_thresh = 0;
	EXPECT_EQ(-EINVAL, uet_pdc_init(&pdc, &cfg, true, 0));
	uet_pdc_cfg_default(&cfg, UET_PDC_RUD);
	cfg.rto_min = cfg.rto_max + 1;
	EXPECT_EQ(-EINVAL, uet_pdc_init(&pdc, &cfg, true, 0));
	uet_pdc_cfg_default(&cfg, UET_PDC_MODE_COUNT);
	EXPECT_EQ(-EINVAL, uet_pdc_init(&pdc, &cfg, true, 0));
}

/*
 * Zero-RTT: the initiator sends three requests with SYN before any ACK;
 * the target creates its PDC from the first, delivers all three and
 * acknowledges at once (SYN); that ACK establishes the initiator.
 */
TEST(zero_rtt)
{
	struct uet_pdc ini, tgt;
	struct uet_pdc_acked acked;
	struct uet_pdc_ack ack;
	struct uet_pdc_cfg cfg;
	u32 psn, i;

	small_cfg(&cfg, UET_PDC_RUD, 16);
	ASSERT_EQ(0, uet_pdc_init(&ini, &cfg, true, WRAP_START));
	for (i = 0; i < 3; i++) {
		ASSERT_EQ(UET_PDC_SYN_SENT,
			  uet_pdc_transition(&ini, UET_PDC_EV_SEND));
		ASSERT_EQ(0, uet_pdc_tx_alloc(&ini, 0, &psn));
	}
	EXPECT_EQ(3, uet_pdc_tx_in_flight(&ini));

	/* The first SYN to arrive sets the target up; it is PSN + 0. */
	ASSERT_EQ(0, uet_pdc_init(&tgt, &cfg, false, WRAP_START));
	EXPECT_EQ(UET_PDC_ESTABLISHED,
		  uet_pdc_transition(&tgt, UET_PDC_EV_RECV_SYN));
	EXPECT_EQ(UET_PDC_RX_DELIVER,
		  uet_pdc_rx_packet(&tgt, WRAP_START, UET_PDC_RX_SYN));
	EXPECT_TRUE(uet_pdc_rx_ack_due(&tgt));
	for (i = 1; i < 3; i++) {
		uet_pdc_transition(&tgt, UET_PDC_EV_RECV_SYN);
		EXPECT_EQ(UET_PDC_RX_DELIVER,
			  uet_pdc_rx_packet(&tgt, WRAP_START + i,
					    UET_PDC_RX_SYN));
	}
	uet_pdc_rx_build_ack(&tgt, &ack);
	EXPECT_EQ(WRAP_START + 2, ack.cack_psn);
	EXPECT_EQ(0, ack.sack_bitmap);

	EXPECT_EQ(3, acks(&ini, &ack, 5 * US, &acked));
	EXPECT_EQ(UET_PDC_ESTABLISHED, uet_pdc_transition(&ini, UET_PDC_EV_ACK));
	EXPECT_EQ(0, uet_pdc_tx_in_flight(&ini));
	EXPECT_EQ(1, ini.cnt[UET_PDC_CNT_TX_RTT_SAMPLES]);
}

/* The first request lost: the target starts from the second's offset. */
TEST(target_created_by_later_syn)
{
	struct uet_pdc_cfg cfg;
	struct uet_pdc tgt;

	small_cfg(&cfg, UET_PDC_RUD, 16);
	ASSERT_EQ(0, uet_pdc_init(&tgt, &cfg, false, (WRAP_START + 5) - 5));
	EXPECT_EQ(UET_PDC_ESTABLISHED,
		  uet_pdc_transition(&tgt, UET_PDC_EV_RECV_SYN));
	EXPECT_EQ(UET_PDC_RX_DELIVER_OOO,
		  uet_pdc_rx_packet(&tgt, WRAP_START + 5, UET_PDC_RX_SYN));
	EXPECT_EQ(WRAP_START - 1, tgt.rx.cack);
}

TEST(target_needs_syn)
{
	struct uet_pdc_cfg cfg;
	struct uet_pdc tgt;

	small_cfg(&cfg, UET_PDC_RUD, 16);
	ASSERT_EQ(0, uet_pdc_init(&tgt, &cfg, false, 0));
	EXPECT_EQ(UET_PDC_CLOSED, uet_pdc_transition(&tgt, UET_PDC_EV_RECV));
	EXPECT_EQ(UET_PDC_CLOSED, uet_pdc_transition(&tgt, UET_PDC_EV_ACK));
	EXPECT_EQ(UET_PDC_CLOSED, uet_pdc_transition(&tgt, UET_PDC_EV_SEND));
}

TEST(initiator_needs_send)
{
	struct uet_pdc_cfg cfg;
	struct uet_pdc ini;

	small_cfg(&cfg, UET_PDC_RUD, 16);
	ASSERT_EQ(0, uet_pdc_init(&ini, &cfg, true, 0));
	EXPECT_EQ(UET_PDC_CLOSED,
		  uet_pdc_transition(&ini, UET_PDC_EV_RECV_SYN));
	EXPECT_EQ(UET_PDC_CLOSED, uet_pdc_transition(&ini, UET_PDC_EV_ACK));
	EXPECT_EQ(UET_PDC_SYN_SENT, uet_pdc_transition(&ini, UET_PDC_EV_SEND));
	EXPECT_EQ(UET_PDC_SYN_SENT, uet_pdc_transition(&ini, UET_PDC_EV_NACK));
	EXPECT_EQ(UET_PDC_SYN_SENT, uet_pdc_transition(&ini, UET_PDC_EV_IDLE));
}

/* 1-RTT close with nothing in flight: CLOSE on a PSN of its own. */
TEST(close_drained)
{
	struct uet_pdc ini, tgt;
	struct uet_pdc_acked acked;
	struct uet_pdc_ack ack;
	u32 psn;

	sender(_metadata, &ini, UET_PDC_RUD, 16, 0);
	receiver(_metadata, &tgt, UET_PDC_RUD, 16);
	EXPECT_EQ(UET_PDC_CLOSING, uet_pdc_transition(&ini, UET_PDC_EV_CLOSE));
	ASSERT_EQ(0, uet_pdc_tx_alloc(&ini, 0, &psn));

	EXPECT_EQ(UET_PDC_RX_DELIVER,
		  uet_pdc_rx_packet(&tgt, psn, UET_PDC_RX_AR));
	EXPECT_EQ(UET_PDC_CLOSED,
		  uet_pdc_transition(&tgt, UET_PDC_EV_CLOSE_CMD));
	uet_pdc_rx_build_ack(&tgt, &ack);
	EXPECT_EQ(psn, ack.ack_psn);

	EXPECT_EQ(1, acks(&ini, &ack, 0, &acked));
	EXPECT_EQ(UET_PDC_CLOSING, uet_pdc_transition(&ini, UET_PDC_EV_ACK));
	EXPECT_EQ(UET_PDC_CLOSED,
		  uet_pdc_transition(&ini, UET_PDC_EV_CLOSE_ACK));
}

/*
 * An unanswered CLOSE goes again 3 times, then the PDC closes in error,
 * whatever the retries allowed before: its target is gone or reclaims
 * its side when idle.
 */
TEST(close_unanswered_given_up)
{
	struct uet_pdc ini;
	u32 psn;
	int i;

	sender(_metadata, &ini, UET_PDC_RUD, 16, 0);
	EXPECT_EQ(UET_PDC_CLOSING, uet_pdc_transition(&ini, UET_PDC_EV_CLOSE));
	ASSERT_EQ(0, uet_pdc_tx_alloc(&ini, 0, &psn));
	for (i = 0; i < 3; i++) {
		uet_pdc_tx_timeout(&ini);
		EXPECT_EQ(UET_PDC_CLOSING,
			  uet_pdc_transition(&ini, UET_PDC_EV_TIMEOUT));
		EXPECT_TRUE(uet_pdc_tx_next_rtx(&ini, &psn));
	}
	uet_pdc_tx_timeout(&ini);
	EXPECT_EQ(UET_PDC_CLOSED, uet_pdc_transition(&ini, UET_PDC_EV_TIMEOUT));
	EXPECT_EQ(4, ini.cnt[UET_PDC_CNT_TX_TIMEOUTS]);
	uet_pdc_fini(&ini);
}

/* A close waits for every PSN in flight to be acknowledged. */
TEST(close_waits_for_flight)
{
	struct uet_pdc_acked acked;
	struct uet_pdc_ack ack;
	struct uet_pdc ini;

	sender(_metadata, &ini, UET_PDC_RUD, 16, 4);
	EXPECT_EQ(UET_PDC_CLOSE_REQUESTED,
		  uet_pdc_transition(&ini, UET_PDC_EV_CLOSE));
	ack = ack_of(WRAP_START + 1, WRAP_START + 2, 0);
	EXPECT_EQ(2, acks(&ini, &ack, 0, &acked));
	EXPECT_EQ(UET_PDC_CLOSE_REQUESTED,
		  uet_pdc_transition(&ini, UET_PDC_EV_ACK));
	EXPECT_EQ(UET_PDC_CLOSE_REQUESTED,
		  uet_pdc_transition(&ini, UET_PDC_EV_TIMEOUT));
	ack = ack_of(WRAP_START + 3, WRAP_START + 4, 0);
	EXPECT_EQ(2, acks(&ini, &ack, 0, &acked));
	EXPECT_EQ(UET_PDC_CLOSING, uet_pdc_transition(&ini, UET_PDC_EV_ACK));
	EXPECT_EQ(UET_PDC_CLOSING, uet_pdc_transition(&ini, UET_PDC_EV_TIMEOUT));
}

/* Closing before the first ACK waits for it: it names the target's PDC. */
TEST(close_from_syn_sent)
{
	struct uet_pdc_acked acked;
	struct uet_pdc_ack ack;
	struct uet_pdc ini;

	sender(_metadata, &ini, UET_PDC_RUD, 16, 2);
	ini.state = UET_PDC_SYN_SENT;
	EXPECT_EQ(UET_PDC_CLOSE_REQUESTED,
		  uet_pdc_transition(&ini, UET_PDC_EV_CLOSE));
	ack = ack_of(WRAP_START + 1, WRAP_START + 2, 0);
	EXPECT_EQ(2, acks(&ini, &ack, 0, &acked));
	EXPECT_EQ(UET_PDC_CLOSING, uet_pdc_transition(&ini, UET_PDC_EV_ACK));
}

/* A target asks for the close and waits for CLOSE, or gives up. */
TEST(target_requests_close)
{
	struct uet_pdc tgt;

	receiver(_metadata, &tgt, UET_PDC_RUD, 16);
	EXPECT_EQ(UET_PDC_CLOSE_REQUESTED,
		  uet_pdc_transition(&tgt, UET_PDC_EV_CLOSE));
	EXPECT_EQ(UET_PDC_CLOSE_REQUESTED,
		  uet_pdc_transition(&tgt, UET_PDC_EV_RECV));
	EXPECT_EQ(UET_PDC_CLOSED,
		  uet_pdc_transition(&tgt, UET_PDC_EV_CLOSE_CMD));

	receiver(_metadata, &tgt, UET_PDC_RUD, 16);
	EXPECT_EQ(UET_PDC_CLOSE_REQUESTED,
		  uet_pdc_transition(&tgt, UET_PDC_EV_CLOSE));
	EXPECT_EQ(UET_PDC_CLOSED, uet_pdc_transition(&tgt, UET_PDC_EV_TIMEOUT));
}

/* Idle reclaim only takes a PDC with nothing in flight and no ACK owed. */
TEST(idle_reclaim)
{
	struct uet_pdc_acked acked;
	struct uet_pdc ini, tgt;
	struct uet_pdc_ack ack;

	sender(_metadata, &ini, UET_PDC_RUD, 16, 1);
	EXPECT_EQ(UET_PDC_ESTABLISHED, uet_pdc_transition(&ini, UET_PDC_EV_IDLE));
	ack = ack_of(WRAP_START, WRAP_START + 1, 0);
	EXPECT_EQ(1, acks(&ini, &ack, 0, &acked));
	EXPECT_EQ(UET_PDC_CLOSING, uet_pdc_transition(&ini, UET_PDC_EV_IDLE));

	receiver(_metadata, &tgt, UET_PDC_RUD, 16);
	uet_pdc_rx_packet(&tgt, WRAP_START, 0);
	EXPECT_TRUE(uet_pdc_rx_ack_pending(&tgt));
	EXPECT_EQ(UET_PDC_ESTABLISHED, uet_pdc_transition(&tgt, UET_PDC_EV_IDLE));
	uet_pdc_rx_build_ack(&tgt, &ack);
	EXPECT_EQ(UET_PDC_CLOSE_REQUESTED,
		  uet_pdc_transition(&tgt, UET_PDC_EV_IDLE));
}

/* max_retries timeouts in a row close in error; progress resets them. */
TEST(timeouts_close_in_error)
{
	struct uet_pdc_acked acked;
	struct uet_pdc_ack ack;
	struct uet_pdc ini;
	int i;

	sender(_metadata, &ini, UET_PDC_RUD, 16, 2);
	ini.cfg.max_retries = 2;
	for (i = 0; i < 2; i++) {
		uet_pdc_tx_timeout(&ini);
		EXPECT_EQ(UET_PDC_ESTABLISHED,
			  uet_pdc_transition(&ini, UET_PDC_EV_TIMEOUT));
	}
	ack = ack_of(WRAP_START, WRAP_START + 1, 0);
	EXPECT_EQ(1, acks(&ini, &ack, 0, &acked));
	for (i = 0; i < 2; i++) {
		uet_pdc_tx_timeout(&ini);
		EXPECT_EQ(UET_PDC_ESTABLISHED,
			  uet_pdc_transition(&ini, UET_PDC_EV_TIMEOUT));
	}
	uet_pdc_tx_timeout(&ini);
	EXPECT_EQ(UET_PDC_CLOSED, uet_pdc_transition(&ini, UET_PDC_EV_TIMEOUT));
	EXPECT_EQ(5, ini.cnt[UET_PDC_CNT_TX_TIMEOUTS]);
}

TEST(abort_from_every_state)
{
	enum uet_pdc_state s;
	struct uet_pdc pdc;

	for (s = UET_PDC_CLOSED; s < UET_PDC_STATE_COUNT; s++) {
		sender(_metadata, &pdc, UET_PDC_RUD, 16, 1);
		pdc.state = s;
		EXPECT_EQ(UET_PDC_CLOSED,
			  uet_pdc_transition(&pdc, UET_PDC_EV_ABORT));
	}
}

/* The window bounds the PSNs in flight, across the 32-bit wrap. */
TEST(tx_window_wraps)
{
	struct uet_pdc_acked acked;
	struct uet_pdc_ack ack;
	struct uet_pdc pdc;
	u32 psn;

	sender(_metadata, &pdc, UET_PDC_RUD, 8, 8);
	EXPECT_TRUE(uet_pdc_tx_window_full(&pdc));
	EXPECT_EQ(-EAGAIN, uet_pdc_tx_alloc(&pdc, 0, &psn));
	EXPECT_EQ(WRAP_START + 8, pdc.tx.nxt);

	ack = ack_of(WRAP_START + 4, WRAP_START + 5, 0);
	EXPECT_EQ(5, acks(&pdc, &ack, 0, &acked));
	EXPECT_EQ(WRAP_START, acked.cum_from);
	EXPECT_EQ(WRAP_START + 5, acked.cum_to);
	EXPECT_EQ(3, uet_pdc_tx_in_flight(&pdc));
	while (!uet_pdc_tx_alloc(&pdc, 0, &psn))
		;
	EXPECT_EQ(WRAP_START + 12, psn);
	EXPECT_EQ(8, uet_pdc_tx_in_flight(&pdc));
	EXPECT_EQ(13, pdc.cnt[UET_PDC_CNT_TX_NEW]);
}

/*
 * The sender's bitmaps exist only while PSNs are in flight: the first
 * brings them, a quiet PDC gives them back, and the next PSN finds clean
 * ones, the window's state as it was.
 */
TEST(tx_bitmaps_only_in_flight)
{
	struct uet_pdc_saved saved;
	struct uet_pdc_acked acked;
	struct uet_pdc_ack ack;
	struct uet_pdc_cfg cfg;
	struct uet_pdc pdc;
	u32 psn;

	small_cfg(&cfg, UET_PDC_RUD, 8);
	ASSERT_EQ(0, uet_pdc_init(&pdc, &cfg, true, WRAP_START));
	EXPECT_EQ(NULL, pdc.tx.acked);
	ASSERT_EQ(0, uet_pdc_tx_alloc(&pdc, 0, &psn));
	ASSERT_NE(NULL, pdc.tx.acked);
	ASSERT_EQ(0, uet_pdc_tx_alloc(&pdc, 0, &psn));
	/* a SACK of the second: held while the first is in flight */
	ack = ack_of(WRAP_START - 1, WRAP_START + 1, 1);
	EXPECT_EQ(1, acks(&pdc, &ack, 0, &acked));
	EXPECT_FALSE(uet_pdc_save(&pdc, &saved));
	ASSERT_NE(NULL, pdc.tx.acked);
	EXPECT_TRUE(test_bit((WRAP_START + 1) & 7, pdc.tx.acked));
	ack = ack_of(WRAP_START + 1, WRAP_START + 2, 0);
	EXPECT_EQ(1, acks(&pdc, &ack, 0, &acked));
	EXPECT_EQ(0, uet_pdc_tx_in_flight(&pdc));
	EXPECT_TRUE(uet_pdc_save(&pdc, &saved));
	EXPECT_EQ(NULL, pdc.tx.acked);
	ASSERT_EQ(0, uet_pdc_restore(&pdc, &cfg, true, &saved));
	/* and back: the whole window, every bit clear */
	while (!uet_pdc_tx_alloc(&pdc, 0, &psn))
		;
	EXPECT_EQ(WRAP_START + 9, psn);
	for (psn = 0; psn < 8; psn++)
		EXPECT_FALSE(test_bit(psn, pdc.tx.acked) ||
			     test_bit(psn, pdc.tx.lost) ||
			     test_bit(psn, pdc.tx.rtxd) ||
			     test_bit(psn, pdc.tx.rnr));
	uet_pdc_fini(&pdc);
	EXPECT_EQ(NULL, pdc.tx.acked);
}

/* No memory for the first PSN's bitmaps: no PSN, nothing changed. */
TEST(tx_no_memory_for_bitmaps)
{
	struct uet_pdc_cfg cfg;
	struct uet_pdc pdc;
	u32 psn = 0;

	small_cfg(&cfg, UET_PDC_RUD, 64);
	ASSERT_EQ(0, uet_pdc_init(&pdc, &cfg, true, 7));
	uet_shim_fail_allocs = 0;
	EXPECT_EQ(-ENOMEM, uet_pdc_tx_alloc(&pdc, 0, &psn));
	uet_shim_fail_allocs = -1;
	EXPECT_EQ(7, pdc.tx.nxt);
	EXPECT_EQ(0, pdc.cnt[UET_PDC_CNT_TX_NEW]);
	EXPECT_FALSE(pdc.tx.timing);
	EXPECT_EQ(0, uet_pdc_tx_alloc(&pdc, 0, &psn));
	EXPECT_EQ(7, psn);
	uet_pdc_fini(&pdc);
}

/*
 * Only a target has a receive bitmap, and only from the first request out
 * of order: without memory for it that request is out of the window,
 * dropped, and nothing changes.  An initiator takes nothing out of order.
 */
TEST(rx_bitmap_target_only)
{
	struct uet_pdc_cfg cfg;
	struct uet_pdc pdc;

	small_cfg(&cfg, UET_PDC_RUD, 64);
	ASSERT_EQ(0, uet_pdc_init(&pdc, &cfg, true, 100));
	EXPECT_EQ(UET_PDC_RX_OUT_OF_WINDOW, uet_pdc_rx_check(&pdc, 103));
	EXPECT_EQ(NULL, pdc.rx.recvd);
	uet_pdc_fini(&pdc);
	ASSERT_EQ(0, uet_pdc_init(&pdc, &cfg, false, 100));
	EXPECT_EQ(NULL, pdc.rx.recvd);
	/* in order: none */
	EXPECT_EQ(UET_PDC_RX_DELIVER,
		  uet_pdc_rx_packet(&pdc, 100, UET_PDC_RX_SYN));
	EXPECT_EQ(NULL, pdc.rx.recvd);
	uet_shim_fail_allocs = 0;
	EXPECT_EQ(UET_PDC_RX_OUT_OF_WINDOW, uet_pdc_rx_packet(&pdc, 103, 0));
	uet_shim_fail_allocs = -1;
	EXPECT_EQ(NULL, pdc.rx.recvd);
	EXPECT_EQ(100, pdc.rx.cack);
	EXPECT_EQ(UET_PDC_RX_DELIVER_OOO, uet_pdc_rx_check(&pdc, 103));
	EXPECT_NE(NULL, pdc.rx.recvd);
	uet_pdc_fini(&pdc);
	EXPECT_EQ(NULL, pdc.rx.recvd);
}

/*
 * A target gives its receive bitmap back only with every hole filled,
 * and the next request out of order finds a clean one: what arrived
 * before is known as seen by the window's history, not by stale bits.
 */
TEST(rx_bitmap_until_in_order)
{
	struct uet_pdc_saved saved;
	struct uet_pdc_cfg cfg;
	struct uet_pdc_ack ack;
	struct uet_pdc pdc;

	small_cfg(&cfg, UET_PDC_RUD, 64);
	ASSERT_EQ(0, uet_pdc_init(&pdc, &cfg, false, 100));
	EXPECT_EQ(99, pdc.rx.high);
	EXPECT_EQ(UET_PDC_RX_DELIVER_OOO,
		  uet_pdc_rx_packet(&pdc, 102, UET_PDC_RX_SYN));
	EXPECT_EQ(UET_PDC_RX_DELIVER_OOO, uet_pdc_rx_packet(&pdc, 104, 0));
	EXPECT_EQ(2, pdc.rx.holes);
	EXPECT_EQ(104, pdc.rx.high);		/* what a NACK's payload says */
	uet_pdc_rx_build_ack(&pdc, &ack);
	EXPECT_FALSE(uet_pdc_save(&pdc, &saved));
	ASSERT_NE(NULL, pdc.rx.recvd);		/* holes at 100, 101, 103 */
	EXPECT_EQ(UET_PDC_RX_DELIVER, uet_pdc_rx_packet(&pdc, 100, 0));
	EXPECT_EQ(UET_PDC_RX_DELIVER, uet_pdc_rx_packet(&pdc, 101, 0));
	EXPECT_EQ(102, pdc.rx.cack);
	EXPECT_EQ(1, pdc.rx.holes);
	EXPECT_EQ(104, pdc.rx.high);
	uet_pdc_rx_build_ack(&pdc, &ack);
	EXPECT_FALSE(uet_pdc_save(&pdc, &saved));
	ASSERT_NE(NULL, pdc.rx.recvd);		/* 104 still waits for 103 */
	EXPECT_EQ(UET_PDC_RX_DELIVER, uet_pdc_rx_packet(&pdc, 103, 0));
	EXPECT_EQ(104, pdc.rx.cack);
	EXPECT_EQ(0, pdc.rx.holes);
	uet_pdc_rx_build_ack(&pdc, &ack);
	EXPECT_TRUE(uet_pdc_save(&pdc, &saved));
	EXPECT_EQ(NULL, pdc.rx.recvd);
	ASSERT_EQ(0, uet_pdc_restore(&pdc, &cfg, false, &saved));
	EXPECT_EQ(104, pdc.rx.high);
	EXPECT_EQ(UET_PDC_RX_DUPLICATE, uet_pdc_rx_packet(&pdc, 102, 0));
	EXPECT_EQ(104, pdc.rx.high);
	EXPECT_EQ(UET_PDC_RX_DELIVER_OOO, uet_pdc_rx_packet(&pdc, 106, 0));
	EXPECT_EQ(106, pdc.rx.high);
	ASSERT_NE(NULL, pdc.rx.recvd);
	EXPECT_EQ(UET_PDC_RX_DUPLICATE, uet_pdc_rx_packet(&pdc, 106, 0));
	EXPECT_FALSE(test_bit(107 & 63, pdc.rx.recvd));
	uet_pdc_fini(&pdc);
}

/* A new PDC's saved state restores to the core uet_pdc_init() makes. */
TEST(saved_init_is_init)
{
	struct uet_pdc fresh, restored;
	struct uet_pdc_saved saved;
	struct uet_pdc_cfg cfg;

	small_cfg(&cfg, UET_PDC_RUD, 64);
	ASSERT_EQ(0, uet_pdc_init(&fresh, &cfg, true, WRAP_START));
	uet_pdc_saved_init(&saved, WRAP_START);
	ASSERT_EQ(0, uet_pdc_restore(&restored, &cfg, true, &saved));
	EXPECT_EQ(0, memcmp(&fresh, &restored, sizeof(fresh)));
	cfg.window = 3;
	EXPECT_EQ(-EINVAL, uet_pdc_restore(&restored, &cfg, true, &saved));
}

/*
 * A sender saves only with nothing in flight; restored, it goes on from
 * the next PSN with its RTT estimate and the counters it keeps.
 */
TEST(sender_saved_when_quiet)
{
	struct uet_pdc_saved saved;
	struct uet_pdc_acked acked;
	struct uet_pdc_ack ack;
	struct uet_pdc_cfg cfg;
	struct uet_pdc pdc;
	u32 psn, rtx[2];
	u64 srtt, rto;

	sender(_metadata, &pdc, UET_PDC_RUD, 16, 3);
	EXPECT_FALSE(uet_pdc_save(&pdc, &saved));
	EXPECT_NE(NULL, pdc.tx.acked);
	ack = ack_of(WRAP_START, WRAP_START + 1, 0);
	EXPECT_EQ(1, acks(&pdc, &ack, 200 * US, &acked));
	uet_pdc_tx_timeout(&pdc);
	EXPECT_EQ(1, take_rtx(&pdc, rtx, 2));
	ack = ack_of(WRAP_START + 1, WRAP_START + 2, 0);
	EXPECT_EQ(1, acks(&pdc, &ack, 250 * US, &acked));
	EXPECT_EQ(1, take_rtx(&pdc, rtx, 2));
	ack = ack_of(WRAP_START + 2, WRAP_START + 3, 0);
	EXPECT_EQ(1, acks(&pdc, &ack, 300 * US, &acked));
	EXPECT_EQ(2, pdc.cnt[UET_PDC_CNT_TX_RETRANSMITS]);
	EXPECT_EQ(1, pdc.cnt[UET_PDC_CNT_TX_TIMEOUTS]);
	srtt = pdc.rtt.srtt;
	rto = pdc.rtt.rto;
	EXPECT_TRUE(pdc.rtt.seeded);
	EXPECT_TRUE(uet_pdc_save(&pdc, &saved));
	EXPECT_EQ(NULL, pdc.tx.acked);

	small_cfg(&cfg, UET_PDC_RUD, 16);
	ASSERT_EQ(0, uet_pdc_restore(&pdc, &cfg, true, &saved));
	EXPECT_EQ(UET_PDC_ESTABLISHED, pdc.state);
	EXPECT_EQ(WRAP_START + 3, pdc.tx.una);
	EXPECT_EQ(srtt, pdc.rtt.srtt);
	EXPECT_EQ(rto, pdc.rtt.rto);
	EXPECT_EQ(2, pdc.cnt[UET_PDC_CNT_TX_RETRANSMITS]);
	EXPECT_EQ(1, pdc.cnt[UET_PDC_CNT_TX_TIMEOUTS]);
	EXPECT_EQ(0, pdc.cnt[UET_PDC_CNT_TX_NEW]);
	ASSERT_EQ(0, uet_pdc_tx_alloc(&pdc, 0, &psn));
	EXPECT_EQ(WRAP_START + 3, psn);
	ack = ack_of(WRAP_START + 3, WRAP_START + 4, 0);
	EXPECT_EQ(1, acks(&pdc, &ack, 0, &acked));
	uet_pdc_fini(&pdc);
}

/*
 * A sprayed PDC's learnt duplicate threshold outlasts a quiet spell,
 * within the bounds of the settings it wakes with.
 */
TEST(sender_saved_keeps_reordering)
{
	struct uet_pdc_saved saved;
	struct uet_pdc_acked acked;
	struct uet_pdc_ack ack;
	struct uet_pdc_cfg cfg;
	struct uet_pdc pdc;

	sender(_metadata, &pdc, UET_PDC_RUD, 64, 40);
	/* 39 first, 0 last: a reordering of 40 (tx_reordered()) */
	ack = ack_of(WRAP_START - 1, WRAP_START, BIT_ULL(39));
	EXPECT_EQ(1, acks(&pdc, &ack, 0, &acked));
	ack = ack_of(WRAP_START + 39, WRAP_START + 40, 0);
	EXPECT_EQ(39, acks(&pdc, &ack, 0, &acked));
	ASSERT_EQ(40, pdc.tx.reorder);
	ASSERT_TRUE(uet_pdc_save(&pdc, &saved));

	small_cfg(&cfg, UET_PDC_RUD, 64);
	ASSERT_EQ(0, uet_pdc_restore(&pdc, &cfg, true, &saved));
	EXPECT_EQ(40, pdc.tx.reorder);
	uet_pdc_fini(&pdc);
	cfg.dup_thresh = 50;
	ASSERT_EQ(0, uet_pdc_restore(&pdc, &cfg, true, &saved));
	EXPECT_EQ(50, pdc.tx.reorder);
	uet_pdc_fini(&pdc);
}

/*
 * A target saves only in order and with no ACK owed; restored, what it
 * took before is still a duplicate and the next PSN is delivered.
 */
TEST(target_saved_when_quiet)
{
	struct uet_pdc_saved saved;
	struct uet_pdc_ack ack;
	struct uet_pdc_cfg cfg;
	struct uet_pdc pdc;

	receiver(_metadata, &pdc, UET_PDC_RUD, 64);
	EXPECT_EQ(UET_PDC_RX_DELIVER_OOO,
		  uet_pdc_rx_packet(&pdc, WRAP_START + 1, 0));
	uet_pdc_rx_build_ack(&pdc, &ack);
	EXPECT_FALSE(uet_pdc_save(&pdc, &saved));	/* a hole */
	EXPECT_EQ(UET_PDC_RX_DELIVER, uet_pdc_rx_packet(&pdc, WRAP_START, 0));
	EXPECT_FALSE(uet_pdc_save(&pdc, &saved));	/* an ACK owed */
	uet_pdc_rx_build_ack(&pdc, &ack);
	EXPECT_TRUE(uet_pdc_save(&pdc, &saved));
	EXPECT_EQ(NULL, pdc.rx.recvd);

	small_cfg(&cfg, UET_PDC_RUD, 64);
	ASSERT_EQ(0, uet_pdc_restore(&pdc, &cfg, false, &saved));
	EXPECT_EQ(UET_PDC_ESTABLISHED, pdc.state);
	EXPECT_EQ(WRAP_START + 1, pdc.rx.cack);
	EXPECT_EQ(2, pdc.cnt[UET_PDC_CNT_RX_DELIVERED]);
	EXPECT_EQ(1, pdc.cnt[UET_PDC_CNT_RX_OUT_OF_ORDER]);
	EXPECT_EQ(2, pdc.cnt[UET_PDC_CNT_RX_ACKS]);
	EXPECT_EQ(UET_PDC_RX_DUPLICATE, uet_pdc_rx_packet(&pdc, WRAP_START, 0));
	EXPECT_EQ(UET_PDC_RX_OUT_OF_WINDOW,
		  uet_pdc_rx_packet(&pdc, WRAP_START - 1, 0));
	EXPECT_EQ(UET_PDC_RX_DELIVER,
		  uet_pdc_rx_packet(&pdc, WRAP_START + 2, 0));
	uet_pdc_rx_build_ack(&pdc, &ack);
	EXPECT_EQ(WRAP_START + 2, ack.cack_psn);
	uet_pdc_fini(&pdc);
}

/*
 * A request taken ECN-marked makes an ACK due at once, which says so; the
 * next does not.  A marked request outside the window counts for nothing.
 */
TEST(rx_ce_echoed)
{
	struct uet_pdc_ack ack;
	struct uet_pdc pdc;

	receiver(_metadata, &pdc, UET_PDC_RUD, 64);
	uet_pdc_rx_build_ack(&pdc, &ack);
	EXPECT_EQ(UET_PDC_RX_DELIVER, uet_pdc_rx_packet(&pdc, WRAP_START, 0));
	EXPECT_FALSE(uet_pdc_rx_ack_due(&pdc));
	EXPECT_EQ(UET_PDC_RX_DELIVER,
		  uet_pdc_rx_packet(&pdc, WRAP_START + 1, UET_PDC_RX_CE));
	EXPECT_TRUE(uet_pdc_rx_ack_due(&pdc));
	uet_pdc_rx_build_ack(&pdc, &ack);
	EXPECT_TRUE(ack.marked);
	EXPECT_EQ(WRAP_START + 1, ack.ack_psn);
	EXPECT_EQ(UET_PDC_RX_DELIVER,
		  uet_pdc_rx_packet(&pdc, WRAP_START + 2, UET_PDC_RX_AR));
	uet_pdc_rx_build_ack(&pdc, &ack);
	EXPECT_FALSE(ack.marked);
	EXPECT_EQ(UET_PDC_RX_OUT_OF_WINDOW,
		  uet_pdc_rx_packet(&pdc, WRAP_START + 1000, UET_PDC_RX_CE));
	EXPECT_FALSE(uet_pdc_rx_ack_due(&pdc));
	EXPECT_EQ(1, pdc.cnt[UET_PDC_CNT_RX_CE]);
	uet_pdc_fini(&pdc);
}

/* SACKed PSNs are reported once; the cumulative ACK then moves past them. */
TEST(tx_sack_then_cumulative)
{
	struct uet_pdc_acked acked;
	struct uet_pdc_ack ack;
	struct uet_pdc pdc;

	sender(_metadata, &pdc, UET_PDC_RUD, 16, 10);
	ack = ack_of(WRAP_START - 1, WRAP_START, 0xe);
	EXPECT_EQ(3, acks(&pdc, &ack, 0, &acked));
	EXPECT_EQ(0xe, acked.sack_new);
	EXPECT_EQ(WRAP_START, acked.cum_to);

	/* The same again is a duplicate ACK. */
	EXPECT_EQ(0, acks(&pdc, &ack, 0, &acked));
	EXPECT_EQ(0, acked.sack_new);
	EXPECT_EQ(1, pdc.cnt[UET_PDC_CNT_TX_DUP_ACKS]);

	ack = ack_of(WRAP_START, WRAP_START + 1, 0);
	EXPECT_EQ(1, acks(&pdc, &ack, 0, &acked));
	EXPECT_EQ(WRAP_START, acked.cum_from);
	EXPECT_EQ(WRAP_START + 4, acked.cum_to);
	EXPECT_EQ(6, uet_pdc_tx_in_flight(&pdc));

	/* A stale ACK from before is old news, not an error. */
	ack = ack_of(WRAP_START - 1, WRAP_START, 0x3);
	EXPECT_EQ(0, acks(&pdc, &ack, 0, &acked));
	EXPECT_EQ(WRAP_START + 4, pdc.tx.una);
}

/* An ACK naming a PSN never sent is ignored whole. */
TEST(tx_rejects_acks_of_unsent)
{
	struct uet_pdc_acked acked;
	struct uet_pdc_ack ack;
	struct uet_pdc pdc;

	sender(_metadata, &pdc, UET_PDC_RUD, 16, 4);
	ack = ack_of(WRAP_START + 4, WRAP_START + 5, 0);
	EXPECT_EQ(-EINVAL, acks(&pdc, &ack, 0, &acked));
	ack = ack_of(WRAP_START, WRAP_START + 1, 0x9);
	EXPECT_EQ(-EINVAL, acks(&pdc, &ack, 0, &acked));
	ack = ack_of(WRAP_START, WRAP_START + 4, 0x1);
	EXPECT_EQ(-EINVAL, acks(&pdc, &ack, 0, &acked));
	EXPECT_EQ(WRAP_START, pdc.tx.una);
	EXPECT_EQ(3, pdc.cnt[UET_PDC_CNT_TX_BAD_ACKS]);

	/* The highest PSN sent is fine, in either part. */
	ack = ack_of(WRAP_START - 1, WRAP_START + 1, 0x4);
	EXPECT_EQ(1, acks(&pdc, &ack, 0, &acked));
}

/*
 * RUD: a hole goes again once dup_thresh (3) PSNs above it are SACKed,
 * and only the holes do.
 */
TEST(rud_selective_retransmit)
{
	struct uet_pdc_acked acked;
	struct uet_pdc_ack ack;
	struct uet_pdc pdc;
	u32 rtx[16];

	sender(_metadata, &pdc, UET_PDC_RUD, 16, 10);
	ack = ack_of(WRAP_START - 1, WRAP_START, 0x4 | 0x8);
	EXPECT_EQ(2, acks(&pdc, &ack, 0, &acked));
	EXPECT_EQ(0, take_rtx(&pdc, rtx, 16));

	ack = ack_of(WRAP_START - 1, WRAP_START, 0x4 | 0x8 | 0x40);
	EXPECT_EQ(1, acks(&pdc, &ack, 0, &acked));
	ASSERT_EQ(2, take_rtx(&pdc, rtx, 16));
	EXPECT_EQ(WRAP_START, rtx[0]);
	EXPECT_EQ(WRAP_START + 1, rtx[1]);

	/* 4 and 5 have only one SACK above them so far. */
	ack = ack_of(WRAP_START - 1, WRAP_START, 0x80 | 0x100);
	EXPECT_EQ(2, acks(&pdc, &ack, 0, &acked));
	ASSERT_EQ(2, take_rtx(&pdc, rtx, 16));
	EXPECT_EQ(WRAP_START + 4, rtx[0]);
	EXPECT_EQ(WRAP_START + 5, rtx[1]);
	EXPECT_EQ(4, pdc.cnt[UET_PDC_CNT_TX_RETRANSMITS]);
}

/*
 * RUD: a PSN acknowledged after the 5 above it, and never sent again, was
 * reordered, not lost: its loss is forgotten and the threshold grows to
 * 6, so a later hole goes again only once 6 PSNs above it are SACKed.  A
 * PSN sent again teaches nothing: which copy arrived is not known.
 */
TEST(rud_threshold_follows_reordering)
{
	struct uet_pdc_acked acked;
	struct uet_pdc_ack ack;
	struct uet_pdc pdc;
	u32 rtx[16];

	sender(_metadata, &pdc, UET_PDC_RUD, 32, 20);
	EXPECT_EQ(3, pdc.tx.reorder);
	ack = ack_of(WRAP_START - 1, WRAP_START, 0x3e);
	EXPECT_EQ(5, acks(&pdc, &ack, 0, &acked));
	/* 0 is deemed lost, and arrives before it went again */
	ack = ack_of(WRAP_START, WRAP_START + 1, 0);
	EXPECT_EQ(1, acks(&pdc, &ack, 0, &acked));
	EXPECT_EQ(6, pdc.tx.reorder);
	EXPECT_EQ(1, pdc.cnt[UET_PDC_CNT_TX_REORDERED]);
	EXPECT_EQ(0, take_rtx(&pdc, rtx, 16));

	/* a hole at 6: 5 above it are not enough, 6 are */
	ack = ack_of(WRAP_START + 5, WRAP_START + 7, 0x1f);
	EXPECT_EQ(5, acks(&pdc, &ack, 0, &acked));
	EXPECT_EQ(0, take_rtx(&pdc, rtx, 16));
	ack = ack_of(WRAP_START + 5, WRAP_START + 7, 0x3f);
	EXPECT_EQ(1, acks(&pdc, &ack, 0, &acked));
	ASSERT_EQ(1, take_rtx(&pdc, rtx, 16));
	EXPECT_EQ(WRAP_START + 6, rtx[0]);

	/* 6 went again, 7 PSNs below the highest SACKed: nothing learnt */
	ack = ack_of(WRAP_START + 12, WRAP_START + 13, 0);
	EXPECT_EQ(1, acks(&pdc, &ack, 0, &acked));
	EXPECT_EQ(6, pdc.tx.reorder);
	EXPECT_EQ(1, pdc.cnt[UET_PDC_CNT_TX_REORDERED]);
}

/*
 * RUD: a hole sent again, then acknowledged late, is a suspect: which
 * copy came is not known.  An ACK that names it once it was acknowledged
 * (the target answers a duplicate at once, naming it) shows it came
 * twice: the retransmission was needless, and the threshold grows to 6
 * after all.  An ACK an earlier one overtook, which names it too, shows
 * nothing: it does not claim what the sender knows arrived.  Nor does a
 * duplicate of a PSN never sent again.
 */
TEST(rud_dsack_teaches_reordering)
{
	struct uet_pdc_acked acked;
	struct uet_pdc_ack ack;
	struct uet_pdc pdc;
	u32 rtx[16];

	sender(_metadata, &pdc, UET_PDC_RUD, 32, 20);
	ack = ack_of(WRAP_START - 1, WRAP_START, 0x3e);
	EXPECT_EQ(5, acks(&pdc, &ack, 0, &acked));
	ASSERT_EQ(1, take_rtx(&pdc, rtx, 16));
	EXPECT_EQ(WRAP_START, rtx[0]);
	/* the first copy, late: nothing learnt yet */
	ack = ack_of(WRAP_START, WRAP_START + 1, 0);
	EXPECT_EQ(1, acks(&pdc, &ack, 0, &acked));
	EXPECT_FALSE(acked.needless);
	EXPECT_EQ(3, pdc.tx.reorder);

	/* overtaken: built before the ACK of 1 to 5, it names 0 again */
	ack = ack_of(WRAP_START, WRAP_START + 1, 0x6);
	EXPECT_EQ(0, acks(&pdc, &ack, 0, &acked));
	EXPECT_FALSE(acked.needless);
	/* a duplicate of 3, never sent again */
	ack = ack_of(WRAP_START + 5, WRAP_START + 6, 0);
	ack.ack_psn = WRAP_START + 3;
	EXPECT_EQ(0, acks(&pdc, &ack, 0, &acked));
	EXPECT_FALSE(acked.needless);
	EXPECT_EQ(3, pdc.tx.reorder);

	/* the copy sent again arrives: the target names 0 at once */
	ack.ack_psn = WRAP_START;
	EXPECT_EQ(0, acks(&pdc, &ack, 0, &acked));
	EXPECT_TRUE(acked.needless);
	EXPECT_EQ(6, pdc.tx.reorder);
	EXPECT_EQ(1, pdc.cnt[UET_PDC_CNT_TX_NEEDLESS]);
	EXPECT_EQ(1, pdc.cnt[UET_PDC_CNT_TX_REORDERED]);
	/* once */
	EXPECT_EQ(0, acks(&pdc, &ack, 0, &acked));
	EXPECT_FALSE(acked.needless);
	EXPECT_EQ(1, pdc.cnt[UET_PDC_CNT_TX_NEEDLESS]);
	uet_pdc_fini(&pdc);
}

/*
 * RUD: a hole whose copy sent again is lost in turn goes a third time;
 * the second copy then arrives late, and the third as a duplicate.  That
 * proves nothing of the first copy's lateness (it was lost): nothing is
 * learnt, and the third copy is not counted needless.
 */
TEST(rud_thrice_sent_teaches_nothing)
{
	struct uet_pdc_acked acked;
	struct uet_pdc_ack ack;
	struct uet_pdc pdc;
	u32 rtx[16], psn;
	int i;

	sender(_metadata, &pdc, UET_PDC_RUD, 32, 20);
	/* all but the first arrive */
	ack = ack_of(WRAP_START - 1, WRAP_START, 0xffffe);
	EXPECT_EQ(19, acks(&pdc, &ack, 0, &acked));
	ASSERT_EQ(1, take_rtx(&pdc, rtx, 16));
	/* three sent after the second copy arrive: it is lost too */
	for (i = 0; i < 3; i++)
		ASSERT_EQ(0, uet_pdc_tx_alloc(&pdc, 0, &psn));
	ack = ack_of(WRAP_START - 1, WRAP_START, 0x7ffffe);
	EXPECT_EQ(3, acks(&pdc, &ack, 0, &acked));
	ASSERT_EQ(1, take_rtx(&pdc, rtx, 16));
	EXPECT_EQ(WRAP_START, rtx[0]);
	EXPECT_EQ(1, pdc.cnt[UET_PDC_CNT_TX_LOST_RTX]);

	/* the second copy, late; then the third, a duplicate */
	ack = ack_of(WRAP_START + 22, WRAP_START + 23, 0);
	EXPECT_EQ(1, acks(&pdc, &ack, 0, &acked));
	ack.ack_psn = WRAP_START;
	EXPECT_EQ(0, acks(&pdc, &ack, 0, &acked));
	EXPECT_FALSE(acked.needless);
	EXPECT_EQ(3, pdc.tx.reorder);
	EXPECT_EQ(0, pdc.cnt[UET_PDC_CNT_TX_REORDERED]);
	uet_pdc_fini(&pdc);
}

/*
 * A suspect takes a free entry while there is one: it pushes out no
 * other suspect still waiting for its proof.
 */
TEST(rud_suspect_takes_a_free_entry)
{
	struct uet_pdc_acked acked;
	struct uet_pdc_ack ack;
	struct uet_pdc pdc;
	u32 rtx[16];
	int i;

	sender(_metadata, &pdc, UET_PDC_RUD, 32, 20);
	/* every entry but the first waits; the ring's next is the second */
	for (i = 1; i < UET_PDC_SUSPECTS; i++) {
		pdc.tx.suspects[i].psn = WRAP_START + 100 + i;
		pdc.tx.suspects[i].dist = 50;
	}
	pdc.tx.suspect_next = 1;
	ack = ack_of(WRAP_START - 1, WRAP_START, 0x3e);
	EXPECT_EQ(5, acks(&pdc, &ack, 0, &acked));
	ASSERT_EQ(1, take_rtx(&pdc, rtx, 16));
	ack = ack_of(WRAP_START, WRAP_START + 1, 0);
	EXPECT_EQ(1, acks(&pdc, &ack, 0, &acked));
	EXPECT_EQ(WRAP_START, pdc.tx.suspects[0].psn);
	EXPECT_EQ(6, pdc.tx.suspects[0].dist);
	for (i = 1; i < UET_PDC_SUSPECTS; i++) {
		EXPECT_EQ(WRAP_START + 100 + i, pdc.tx.suspects[i].psn);
		EXPECT_EQ(50, pdc.tx.suspects[i].dist);
	}
	/* the proof of the new one still comes */
	ack = ack_of(WRAP_START + 5, WRAP_START + 6, 0);
	ack.ack_psn = WRAP_START;
	EXPECT_EQ(0, acks(&pdc, &ack, 0, &acked));
	EXPECT_TRUE(acked.needless);
	uet_pdc_fini(&pdc);
}

/* ... and follows it up to UET_PDC_REORDER_MAX, no further. */
TEST(rud_reordering_bounded)
{
	struct uet_pdc_acked acked;
	struct uet_pdc_ack ack;
	struct uet_pdc pdc;

	sender(_metadata, &pdc, UET_PDC_RUD, 512, 400);
	ack = ack_of(WRAP_START - 1, WRAP_START + 399, 1);
	EXPECT_EQ(1, acks(&pdc, &ack, 0, &acked));
	ack = ack_of(WRAP_START, WRAP_START + 1, 0);
	EXPECT_EQ(1, acks(&pdc, &ack, 0, &acked));
	EXPECT_EQ(UET_PDC_REORDER_MAX, pdc.tx.reorder);
}

/*
 * A timeout with dup_thresh PSNs SACKed above the hole brings a learnt
 * threshold back down to dup_thresh; with fewer, the lesson stands.
 */
TEST(rud_timeout_unlearns_reordering)
{
	struct uet_pdc_acked acked;
	struct uet_pdc_ack ack;
	struct uet_pdc pdc;
	u32 dup_thresh;

	sender(_metadata, &pdc, UET_PDC_RUD, 512, 420);
	dup_thresh = pdc.cfg.dup_thresh;
	ack = ack_of(WRAP_START - 1, WRAP_START + 399, 1);
	EXPECT_EQ(1, acks(&pdc, &ack, 0, &acked));
	ack = ack_of(WRAP_START, WRAP_START + 1, 0);
	EXPECT_EQ(1, acks(&pdc, &ack, 0, &acked));
	ASSERT_EQ(UET_PDC_REORDER_MAX, pdc.tx.reorder);

	/* a hole at 1 with dup_thresh - 1 SACKed above it (399 one): kept */
	ack = ack_of(WRAP_START, WRAP_START + 2, BIT_ULL(dup_thresh - 2) - 1);
	EXPECT_EQ(dup_thresh - 2, acks(&pdc, &ack, 0, &acked));
	uet_pdc_tx_timeout(&pdc);
	EXPECT_EQ(UET_PDC_REORDER_MAX, pdc.tx.reorder);

	/* one more: the configured threshold would have found the hole */
	ack = ack_of(WRAP_START, WRAP_START + 2, BIT_ULL(dup_thresh - 1) - 1);
	EXPECT_EQ(1, acks(&pdc, &ack, 0, &acked));
	uet_pdc_tx_timeout(&pdc);
	EXPECT_EQ(dup_thresh, pdc.tx.reorder);
	uet_pdc_fini(&pdc);
}

TEST(rud_nack_retransmits_one)
{
	struct uet_pdc pdc;
	u32 rtx[16];

	sender(_metadata, &pdc, UET_PDC_RUD, 16, 10);
	EXPECT_EQ(0, uet_pdc_tx_nack(&pdc, WRAP_START + 6));
	EXPECT_EQ(0, uet_pdc_tx_nack(&pdc, WRAP_START + 2));
	ASSERT_EQ(2, take_rtx(&pdc, rtx, 16));
	EXPECT_EQ(WRAP_START + 2, rtx[0]);
	EXPECT_EQ(WRAP_START + 6, rtx[1]);
	EXPECT_EQ(-EINVAL, uet_pdc_tx_nack(&pdc, WRAP_START + 10));
	EXPECT_EQ(-EINVAL, uet_pdc_tx_nack(&pdc, WRAP_START - 1));
	EXPECT_EQ(2, pdc.cnt[UET_PDC_CNT_TX_NACKS]);
}

/* ROD: a NACK goes back to the first PSN not acknowledged, once per PSN. */
TEST(rod_go_back_n)
{
	struct uet_pdc_acked acked;
	struct uet_pdc_ack ack;
	struct uet_pdc pdc;
	u32 rtx[16];
	unsigned int i;

	sender(_metadata, &pdc, UET_PDC_ROD, 16, 6);
	ack = ack_of(WRAP_START, WRAP_START + 1, 0);
	EXPECT_EQ(1, acks(&pdc, &ack, 0, &acked));
	EXPECT_EQ(0, uet_pdc_tx_nack(&pdc, WRAP_START + 3));
	ASSERT_EQ(2, take_rtx(&pdc, rtx, 2));
	EXPECT_EQ(WRAP_START + 1, rtx[0]);
	EXPECT_EQ(WRAP_START + 2, rtx[1]);

	/* NACKs for the old copies of the rest change nothing ... */
	EXPECT_EQ(0, uet_pdc_tx_nack(&pdc, WRAP_START + 4));
	ASSERT_EQ(3, take_rtx(&pdc, rtx, 16));
	for (i = 0; i < 3; i++)
		EXPECT_EQ(WRAP_START + 3 + i, rtx[i]);

	/* ... one for a new copy means the new first one was lost too. */
	EXPECT_EQ(0, uet_pdc_tx_nack(&pdc, WRAP_START + 2));
	ASSERT_EQ(5, take_rtx(&pdc, rtx, 16));
	for (i = 0; i < 5; i++)
		EXPECT_EQ(WRAP_START + 1 + i, rtx[i]);

	/* Progress, then a NACK: back again from the new left edge. */
	ack = ack_of(WRAP_START + 2, WRAP_START + 3, 0);
	EXPECT_EQ(2, acks(&pdc, &ack, 0, &acked));
	EXPECT_EQ(0, uet_pdc_tx_nack(&pdc, WRAP_START + 5));
	ASSERT_EQ(3, take_rtx(&pdc, rtx, 16));
	EXPECT_EQ(WRAP_START + 3, rtx[0]);
}

/* A timeout retransmits what is in flight and not SACKed (RUD) ... */
TEST(rud_timeout)
{
	struct uet_pdc_acked acked;
	struct uet_pdc_ack ack;
	struct uet_pdc pdc;
	u64 rto;
	u32 rtx[16];

	sender(_metadata, &pdc, UET_PDC_RUD, 16, 6);
	rto = uet_pdc_rto(&pdc);
	ack = ack_of(WRAP_START - 1, WRAP_START, 0x4 | 0x8);
	EXPECT_EQ(2, acks(&pdc, &ack, 0, &acked));
	uet_pdc_tx_timeout(&pdc);
	EXPECT_EQ(2 * rto, uet_pdc_rto(&pdc));
	/* the first hole alone, then two more for each PSN acknowledged */
	ASSERT_EQ(1, take_rtx(&pdc, rtx, 16));
	EXPECT_EQ(WRAP_START, rtx[0]);
	ack = ack_of(WRAP_START, WRAP_START + 1, 0x2 | 0x4);
	EXPECT_EQ(1, acks(&pdc, &ack, 0, &acked));
	EXPECT_FALSE(acked.spurious);
	ASSERT_EQ(2, take_rtx(&pdc, rtx, 16));
	EXPECT_EQ(WRAP_START + 1, rtx[0]);
	EXPECT_EQ(WRAP_START + 4, rtx[1]);
	ack = ack_of(WRAP_START + 1, WRAP_START + 2, 0x1 | 0x2);
	EXPECT_EQ(1, acks(&pdc, &ack, 0, &acked));
	ASSERT_EQ(1, take_rtx(&pdc, rtx, 16));
	EXPECT_EQ(WRAP_START + 5, rtx[0]);

	/* The retransmits are not judged again by SACKs. */
	ack = ack_of(WRAP_START + 1, WRAP_START + 2, 0x1 | 0x2 | 0x4 | 0x8);
	EXPECT_EQ(2, acks(&pdc, &ack, 0, &acked));
	EXPECT_EQ(0, take_rtx(&pdc, rtx, 16));
	EXPECT_EQ(0, uet_pdc_tx_in_flight(&pdc));
}

/*
 * RUD: a retransmission lost in turn goes again once dup_thresh PSNs sent
 * after it are SACKed, without waiting for the RTO.
 */
TEST(rud_lost_retransmission)
{
	struct uet_pdc_acked acked;
	struct uet_pdc_ack ack;
	struct uet_pdc pdc;
	u32 rtx[16], psn;
	unsigned int i;

	sender(_metadata, &pdc, UET_PDC_RUD, 16, 6);
	/* 0 and 1 lost: 2, 3 and 4 SACKed */
	ack = ack_of(WRAP_START - 1, WRAP_START, 0x4 | 0x8 | 0x10);
	EXPECT_EQ(3, acks(&pdc, &ack, 0, &acked));
	ASSERT_EQ(2, take_rtx(&pdc, rtx, 16));
	EXPECT_EQ(WRAP_START, rtx[0]);

	/* Three new PSNs after the retransmissions; 1's copy arrives. */
	for (i = 0; i < 3; i++)
		ASSERT_EQ(0, uet_pdc_tx_alloc(&pdc, 0, &psn));
	ack = ack_of(WRAP_START - 1, WRAP_START, 0x2 | 0x1c | 0x40 | 0x80);
	EXPECT_EQ(3, acks(&pdc, &ack, 0, &acked));
	EXPECT_EQ(0, take_rtx(&pdc, rtx, 16));	/* 2 of 3 sent after */

	/* The third one above: 0's copy is lost too, 5 was not resent. */
	ack = ack_of(WRAP_START - 1, WRAP_START, 0x2 | 0x1c | 0x1c0);
	EXPECT_EQ(1, acks(&pdc, &ack, 0, &acked));
	ASSERT_EQ(2, take_rtx(&pdc, rtx, 16));
	EXPECT_EQ(WRAP_START, rtx[0]);
	EXPECT_EQ(WRAP_START + 5, rtx[1]);
	EXPECT_EQ(1, pdc.cnt[UET_PDC_CNT_TX_LOST_RTX]);
	EXPECT_EQ(4, pdc.cnt[UET_PDC_CNT_TX_RETRANSMITS]);
	EXPECT_EQ(2, pdc.tx.rtx_out);

	/* Both copies arrive: nothing is outstanding. */
	ack = ack_of(WRAP_START + 8, WRAP_START + 9, 0);
	EXPECT_EQ(2, acks(&pdc, &ack, 0, &acked));
	EXPECT_EQ(0, pdc.tx.rtx_out);
	EXPECT_EQ(0, uet_pdc_tx_in_flight(&pdc));
}

/*
 * RUD: PSNs the receiver has no buffer for wait: no SACK, timeout or tail
 * probe sends them, the timer is rnr_delay; then the lowest goes alone,
 * and once it is taken the others follow.  Each refusal proves the
 * receiver alive: the timeouts in a row start again.
 */
TEST(rud_receiver_not_ready)
{
	struct uet_pdc_acked acked;
	struct uet_pdc_ack ack;
	struct uet_pdc pdc;
	u32 rtx[16], psn;
	bool again, probe;

	sender(_metadata, &pdc, UET_PDC_RUD, 16, 6);
	EXPECT_EQ(0, uet_pdc_tx_rnr(&pdc, WRAP_START + 1, &again));
	EXPECT_FALSE(again);
	EXPECT_EQ(0, uet_pdc_tx_rnr(&pdc, WRAP_START + 2, &again));
	EXPECT_EQ(2, pdc.tx.rnr_out);
	EXPECT_EQ(2, pdc.cnt[UET_PDC_CNT_TX_RNR]);
	EXPECT_EQ(pdc.cfg.rnr_delay, uet_pdc_tx_timer(&pdc, &probe));
	EXPECT_FALSE(probe);

	/* 0, 3, 4 and 5 arrive: 1 and 2 are not judged lost */
	ack = ack_of(WRAP_START, WRAP_START + 1, 0x1c);
	EXPECT_EQ(4, acks(&pdc, &ack, 0, &acked));
	EXPECT_EQ(0, take_rtx(&pdc, rtx, 16));
	/* a timeout sends nothing that waits, and counts */
	uet_pdc_tx_timeout(&pdc);
	EXPECT_EQ(1, pdc.tx.retries);
	EXPECT_EQ(0, take_rtx(&pdc, rtx, 16));

	/* the wait is over: 1 alone; refused again, it waits again */
	ASSERT_TRUE(uet_pdc_tx_rnr_probe(&pdc, &psn));
	EXPECT_EQ(WRAP_START + 1, psn);
	EXPECT_FALSE(uet_pdc_tx_rnr_probe(&pdc, &psn));
	EXPECT_EQ(pdc.rtt.rto, uet_pdc_tx_timer(&pdc, &probe));
	EXPECT_EQ(0, uet_pdc_tx_rnr(&pdc, WRAP_START + 1, &again));
	EXPECT_TRUE(again);
	EXPECT_EQ(0, pdc.tx.retries);
	EXPECT_EQ(2, pdc.tx.rnr_out);

	/* sent again and taken: 2 follows */
	ASSERT_TRUE(uet_pdc_tx_rnr_probe(&pdc, &psn));
	EXPECT_EQ(WRAP_START + 1, psn);
	ack = ack_of(WRAP_START + 1, WRAP_START + 2, 0);
	EXPECT_EQ(1, acks(&pdc, &ack, 0, &acked));
	EXPECT_EQ(0, pdc.tx.rnr_out);
	ASSERT_EQ(1, take_rtx(&pdc, rtx, 16));
	EXPECT_EQ(WRAP_START + 2, rtx[0]);

	/* a late NACK, or one of a PSN acknowledged, changes nothing */
	EXPECT_EQ(-EINVAL, uet_pdc_tx_rnr(&pdc, WRAP_START + 3, &again));
	EXPECT_EQ(-EINVAL, uet_pdc_tx_rnr(&pdc, WRAP_START + 6, &again));
	ack = ack_of(WRAP_START + 5, WRAP_START + 6, 0);
	EXPECT_EQ(1, acks(&pdc, &ack, 0, &acked));
	EXPECT_EQ(0, uet_pdc_tx_in_flight(&pdc));
}

/* ROD: what follows a PSN without a buffer waits with it, then goes back. */
TEST(rod_receiver_not_ready)
{
	struct uet_pdc_acked acked;
	struct uet_pdc_ack ack;
	struct uet_pdc pdc;
	u32 rtx[16], psn;
	unsigned int i;
	bool again;

	sender(_metadata, &pdc, UET_PDC_ROD, 16, 5);
	ack = ack_of(WRAP_START, WRAP_START + 1, 0);
	EXPECT_EQ(1, acks(&pdc, &ack, 0, &acked));
	EXPECT_EQ(0, uet_pdc_tx_rnr(&pdc, WRAP_START + 1, &again));
	EXPECT_EQ(4, pdc.tx.rnr_out);
	/* the receiver's NACK of what followed sends none of it */
	EXPECT_EQ(0, uet_pdc_tx_nack(&pdc, WRAP_START + 2));
	EXPECT_EQ(0, take_rtx(&pdc, rtx, 16));

	ASSERT_TRUE(uet_pdc_tx_rnr_probe(&pdc, &psn));
	EXPECT_EQ(WRAP_START + 1, psn);
	ack = ack_of(WRAP_START + 1, WRAP_START + 2, 0);
	EXPECT_EQ(1, acks(&pdc, &ack, 0, &acked));
	ASSERT_EQ(3, take_rtx(&pdc, rtx, 16));
	for (i = 0; i < 3; i++)
		EXPECT_EQ(WRAP_START + 2 + i, rtx[i]);
}

/* The receiver checks before it takes: nothing changes until it does. */
TEST(rx_check_then_accept)
{
	struct uet_pdc pdc;
	struct uet_pdc_ack ack;

	receiver(_metadata, &pdc, UET_PDC_RUD, 16);
	EXPECT_EQ(UET_PDC_RX_DELIVER, uet_pdc_rx_check(&pdc, WRAP_START));
	EXPECT_EQ(UET_PDC_RX_DELIVER_OOO,
		  uet_pdc_rx_check(&pdc, WRAP_START + 1));
	/* refused: still expected, and in no ACK */
	EXPECT_EQ(UET_PDC_RX_DELIVER, uet_pdc_rx_check(&pdc, WRAP_START));
	EXPECT_EQ(0, pdc.cnt[UET_PDC_CNT_RX_DELIVERED]);
	uet_pdc_rx_accept(&pdc, WRAP_START + 1, 0, UET_PDC_RX_DELIVER_OOO);
	uet_pdc_rx_build_ack(&pdc, &ack);
	EXPECT_EQ(WRAP_START - 1, ack.cack_psn);
	EXPECT_EQ(0x2, ack.sack_bitmap & 0x3);
	uet_pdc_rx_accept(&pdc, WRAP_START, 0, UET_PDC_RX_DELIVER);
	EXPECT_EQ(UET_PDC_RX_DUPLICATE, uet_pdc_rx_check(&pdc, WRAP_START + 1));
	uet_pdc_rx_build_ack(&pdc, &ack);
	EXPECT_EQ(WRAP_START + 1, ack.cack_psn);
	EXPECT_EQ(2, pdc.cnt[UET_PDC_CNT_RX_DELIVERED]);
}

/* A RUD sender whose round trip is measured at 1 ms, @n PSNs in flight. */
static void timed_sender(struct __test_metadata *_metadata,
			 struct uet_pdc *pdc, u32 n)
{
	struct uet_pdc_acked acked;
	struct uet_pdc_cfg cfg;
	struct uet_pdc_ack ack;
	u32 psn, i;

	small_cfg(&cfg, UET_PDC_RUD, 16);
	cfg.ack_delay = 500 * US;
	ASSERT_EQ(0, uet_pdc_init(pdc, &cfg, true, WRAP_START));
	pdc->state = UET_PDC_ESTABLISHED;
	ASSERT_EQ(0, uet_pdc_tx_alloc(pdc, 0, &psn));
	ack = ack_of(psn, psn + 1, 0);
	ASSERT_EQ(1, acks(pdc, &ack, 1 * MS, &acked));
	ASSERT_TRUE(pdc->rtt.seeded);
	for (i = 0; i < n; i++)
		ASSERT_EQ(0, uet_pdc_tx_alloc(pdc, 2 * MS, &psn));
}

/*
 * RUD: a timeout marks the window lost and its first hole goes.  An ACK
 * for a PSN it marked that has not gone again proves the timeout
 * spurious: the rest stays in flight for the SACKs to judge (the hole
 * they show goes, the one out again does not go twice), and the RTO stays
 * backed off until a new RTT sample.  An ACK for the hole sent again alone
 * proves nothing: the rest goes.
 */
TEST(rud_spurious_timeout)
{
	struct uet_pdc_acked acked;
	struct uet_pdc_ack ack;
	struct uet_pdc pdc;
	u32 first, thresh, rtx[16], psn;
	u64 rto, bits;

	timed_sender(_metadata, &pdc, 12);
	first = pdc.tx.una;
	thresh = pdc.cfg.dup_thresh;
	ASSERT_LE(thresh, 9);
	rto = uet_pdc_rto(&pdc);
	uet_pdc_tx_timeout(&pdc);
	EXPECT_EQ(2 * rto, uet_pdc_rto(&pdc));
	ASSERT_TRUE(uet_pdc_tx_next_rtx(&pdc, &psn));
	EXPECT_EQ(first, psn);

	/* first + 1's first copy arrives */
	ack = ack_of(first - 1, first, 0x2);
	EXPECT_EQ(1, acks(&pdc, &ack, 3 * MS, &acked));
	EXPECT_TRUE(acked.spurious);
	EXPECT_EQ(1, pdc.cnt[UET_PDC_CNT_TX_SPURIOUS_RTO]);
	EXPECT_EQ(0, take_rtx(&pdc, rtx, 16));
	EXPECT_EQ(2 * rto, uet_pdc_rto(&pdc));

	/* dup_thresh SACKed above first + 2: it alone goes */
	bits = 0x2 | ((BIT_ULL(thresh) - 1) << 3);
	ack = ack_of(first - 1, first, bits);
	EXPECT_EQ(thresh, acks(&pdc, &ack, 3 * MS, &acked));
	EXPECT_FALSE(acked.spurious);
	ASSERT_EQ(1, take_rtx(&pdc, rtx, 16));
	EXPECT_EQ(first + 2, rtx[0]);
	EXPECT_EQ(2 * rto, uet_pdc_rto(&pdc));

	/* a new PSN's round trip: the RTO is estimated again */
	ASSERT_EQ(0, uet_pdc_tx_alloc(&pdc, 4 * MS, &psn));
	ack = ack_of(psn, psn + 1, 0);
	EXPECT_LT(0, acks(&pdc, &ack, 5 * MS, &acked));
	EXPECT_FALSE(acked.spurious);
	EXPECT_GT(2 * rto, uet_pdc_rto(&pdc));
	EXPECT_EQ(0, uet_pdc_tx_in_flight(&pdc));
	uet_pdc_fini(&pdc);

	/* a real loss: only the copy sent again is acknowledged */
	timed_sender(_metadata, &pdc, 4);
	first = pdc.tx.una;
	uet_pdc_tx_timeout(&pdc);
	ASSERT_TRUE(uet_pdc_tx_next_rtx(&pdc, &psn));
	ack = ack_of(first, first + 1, 0);
	EXPECT_EQ(1, acks(&pdc, &ack, 3 * MS, &acked));
	EXPECT_FALSE(acked.spurious);
	ASSERT_EQ(2, take_rtx(&pdc, rtx, 16));
	EXPECT_EQ(first + 1, rtx[0]);
	EXPECT_EQ(0, pdc.cnt[UET_PDC_CNT_TX_SPURIOUS_RTO]);
	uet_pdc_fini(&pdc);
}

/*
 * RUD: after a timeout proved spurious the RTO stays where it was then,
 * until an RTT sample: real losses after it back it off further, but
 * progress brings it back to that, not to the estimate the spurious
 * timeout proved short, and not left at what the losses backed it off to
 * (a last loss would wait for it).
 */
TEST(rud_held_rto_comes_back)
{
	struct uet_pdc_acked acked;
	struct uet_pdc_ack ack;
	struct uet_pdc pdc;
	u32 first, psn;
	u64 rto, est;

	timed_sender(_metadata, &pdc, 12);
	first = pdc.tx.una;
	rto = uet_pdc_rto(&pdc);
	uet_pdc_tx_timeout(&pdc);
	ASSERT_TRUE(uet_pdc_tx_next_rtx(&pdc, &psn));
	ack = ack_of(first - 1, first, 0x2);
	EXPECT_EQ(1, acks(&pdc, &ack, 3 * MS, &acked));
	EXPECT_TRUE(acked.spurious);
	EXPECT_EQ(2 * rto, uet_pdc_rto(&pdc));

	/* first is lost, twice more */
	uet_pdc_tx_timeout(&pdc);
	ASSERT_TRUE(uet_pdc_tx_next_rtx(&pdc, &psn));
	EXPECT_EQ(first, psn);
	uet_pdc_tx_timeout(&pdc);
	ASSERT_TRUE(uet_pdc_tx_next_rtx(&pdc, &psn));
	EXPECT_EQ(8 * rto, uet_pdc_rto(&pdc));

	/* it arrives: back to the RTO held */
	ack = ack_of(first, first, 0x2);
	EXPECT_EQ(1, acks(&pdc, &ack, 20 * MS, &acked));
	EXPECT_FALSE(acked.spurious);
	EXPECT_EQ(2 * rto, uet_pdc_rto(&pdc));

	/* the rest arrives, late: spurious too, the hold stays */
	ack = ack_of(first + 11, first + 12, 0);
	EXPECT_EQ(10, acks(&pdc, &ack, 20 * MS, &acked));
	EXPECT_TRUE(acked.spurious);

	/* a new PSN's round trip: estimated again, the hold gone */
	ASSERT_EQ(0, uet_pdc_tx_alloc(&pdc, 21 * MS, &psn));
	ack = ack_of(psn, psn + 1, 0);
	EXPECT_EQ(1, acks(&pdc, &ack, 22 * MS, &acked));
	EXPECT_FALSE(acked.spurious);
	est = uet_pdc_rto(&pdc);
	EXPECT_GT(2 * rto, est);

	/* a timeout, then progress: back to the estimate, not the old hold */
	ASSERT_EQ(0, uet_pdc_tx_alloc(&pdc, 23 * MS, &psn));
	uet_pdc_tx_timeout(&pdc);
	ASSERT_TRUE(uet_pdc_tx_next_rtx(&pdc, &first));
	EXPECT_EQ(psn, first);
	ack = ack_of(psn, psn + 1, 0);
	EXPECT_EQ(1, acks(&pdc, &ack, 30 * MS, &acked));
	EXPECT_FALSE(acked.spurious);
	EXPECT_EQ(est, uet_pdc_rto(&pdc));
	uet_pdc_fini(&pdc);
}

/*
 * RUD: a lost tail is probed a probe timeout after the last progress; the probe's ACK marks everything still missing
 * below it lost at once.  Until then, and after a timeout, the timer is
 * the RTO.
 */
TEST(rud_tail_probe)
{
	struct uet_pdc_acked acked;
	struct uet_pdc_ack ack;
	struct uet_pdc pdc;
	u32 rtx[16], psn;
	bool probe;

	timed_sender(_metadata, &pdc, 6);	/* PSNs 1 to 6 */
	/* SRTT 1 ms, RTTVAR 0.5 ms: 1 + 4 * 0.5 ms beats 2 * 1 ms */
	EXPECT_EQ(3 * MS + 500 * US, uet_pdc_tx_timer(&pdc, &probe));
	EXPECT_TRUE(probe);

	/* 1, 2 and 3 arrive, 4, 5 and 6 are lost: nothing reveals it */
	ack = ack_of(WRAP_START + 3, WRAP_START + 4, 0);
	EXPECT_EQ(3, acks(&pdc, &ack, 3 * MS, &acked));
	EXPECT_EQ(0, take_rtx(&pdc, rtx, 16));

	ASSERT_TRUE(uet_pdc_tx_probe(&pdc, &psn));
	EXPECT_EQ(WRAP_START + 6, psn);
	EXPECT_EQ(uet_pdc_rto(&pdc), uet_pdc_tx_timer(&pdc, &probe));
	EXPECT_FALSE(probe);
	EXPECT_FALSE(uet_pdc_tx_probe(&pdc, &psn));

	/* The probe arrives: 4 and 5 go again, in order, 6 does not. */
	ack = ack_of(WRAP_START + 3, WRAP_START + 4, 0x4);
	EXPECT_EQ(1, acks(&pdc, &ack, 4 * MS, &acked));
	ASSERT_EQ(2, take_rtx(&pdc, rtx, 16));
	EXPECT_EQ(WRAP_START + 4, rtx[0]);
	EXPECT_EQ(WRAP_START + 5, rtx[1]);
	EXPECT_EQ(1, pdc.cnt[UET_PDC_CNT_TX_PROBES]);
	EXPECT_FALSE(pdc.tx.probing);

	/* Another probe may go; after a timeout only the RTO runs. */
	uet_pdc_tx_timer(&pdc, &probe);
	EXPECT_TRUE(probe);
	uet_pdc_tx_timeout(&pdc);
	uet_pdc_tx_timer(&pdc, &probe);
	EXPECT_FALSE(probe);
	EXPECT_FALSE(uet_pdc_tx_probe(&pdc, &psn));
}

/* The probe is the highest PSN not acknowledged; ROD never probes. */
TEST(tail_probe_picks_highest_missing)
{
	struct uet_pdc_acked acked;
	struct uet_pdc_ack ack;
	struct uet_pdc pdc;
	u32 psn;
	bool probe;

	timed_sender(_metadata, &pdc, 6);
	ack = ack_of(WRAP_START, WRAP_START + 1, 0x20 | 0x10);	/* 6, 5 */
	EXPECT_EQ(2, acks(&pdc, &ack, 3 * MS, &acked));
	ASSERT_TRUE(uet_pdc_tx_probe(&pdc, &psn));
	EXPECT_EQ(WRAP_START + 4, psn);

	sender(_metadata, &pdc, UET_PDC_ROD, 16, 4);
	pdc.rtt.seeded = true;
	pdc.rtt.srtt = MS;
	uet_pdc_tx_timer(&pdc, &probe);
	EXPECT_FALSE(probe);
	EXPECT_FALSE(uet_pdc_tx_probe(&pdc, &psn));
}

/* ... and everything from the first PSN not acknowledged (ROD). */
TEST(rod_timeout)
{
	struct uet_pdc pdc;
	u32 rtx[16];

	sender(_metadata, &pdc, UET_PDC_ROD, 16, 4);
	uet_pdc_tx_timeout(&pdc);
	EXPECT_EQ(0, uet_pdc_tx_nack(&pdc, WRAP_START + 2));
	EXPECT_EQ(4, take_rtx(&pdc, rtx, 16));
	EXPECT_EQ(WRAP_START, rtx[0]);
}

/* Karn's rule: no RTT sample from a PSN that was retransmitted. */
TEST(karn)
{
	struct uet_pdc_acked acked;
	struct uet_pdc_cfg cfg;
	struct uet_pdc_ack ack;
	struct uet_pdc pdc;
	u32 psn;

	small_cfg(&cfg, UET_PDC_RUD, 16);
	ASSERT_EQ(0, uet_pdc_init(&pdc, &cfg, true, WRAP_START));
	ASSERT_EQ(0, uet_pdc_tx_alloc(&pdc, 0, &psn));
	EXPECT_EQ(0, uet_pdc_tx_nack(&pdc, psn));
	ASSERT_TRUE(uet_pdc_tx_next_rtx(&pdc, &psn));
	ack = ack_of(psn, psn + 1, 0);
	EXPECT_EQ(1, acks(&pdc, &ack, 300 * US, &acked));
	EXPECT_EQ(0, pdc.cnt[UET_PDC_CNT_TX_RTT_SAMPLES]);
	EXPECT_FALSE(pdc.rtt.seeded);

	/* The next new PSN is timed. */
	ASSERT_EQ(0, uet_pdc_tx_alloc(&pdc, 400 * US, &psn));
	ack = ack_of(psn, psn + 1, 0);
	EXPECT_EQ(1, acks(&pdc, &ack, 480 * US, &acked));
	EXPECT_EQ(1, pdc.cnt[UET_PDC_CNT_TX_RTT_SAMPLES]);
	EXPECT_EQ(80 * US, pdc.rtt.srtt);
}

/* UUD: no window, no ACK, everything delivered. */
TEST(uud)
{
	struct uet_pdc_acked acked;
	struct uet_pdc_ack ack;
	struct uet_pdc pdc;
	u32 psn, i;

	sender(_metadata, &pdc, UET_PDC_UUD, 8, 0);
	for (i = 0; i < 100; i++)
		ASSERT_EQ(0, uet_pdc_tx_alloc(&pdc, 0, &psn));
	EXPECT_EQ(0, uet_pdc_tx_in_flight(&pdc));
	ack = ack_of(psn, psn, 0);
	EXPECT_EQ(-EINVAL, acks(&pdc, &ack, 0, &acked));
	EXPECT_EQ(-EINVAL, uet_pdc_tx_nack(&pdc, psn));

	receiver(_metadata, &pdc, UET_PDC_UUD, 8);
	for (i = 0; i < 3; i++)
		EXPECT_EQ(UET_PDC_RX_DELIVER, uet_pdc_rx_packet(&pdc, 7, 0));
	EXPECT_FALSE(uet_pdc_rx_ack_due(&pdc));
	EXPECT_FALSE(uet_pdc_rx_ack_pending(&pdc));
}

/* RUD receiver across the wrap: in order, ahead, duplicate, outside. */
TEST(rx_rud_wraps)
{
	struct uet_pdc pdc;
	u32 psn;

	receiver(_metadata, &pdc, UET_PDC_RUD, 8);
	EXPECT_EQ(UET_PDC_RX_DELIVER, uet_pdc_rx_packet(&pdc, WRAP_START, 0));
	EXPECT_EQ(UET_PDC_RX_DELIVER_OOO,
		  uet_pdc_rx_packet(&pdc, WRAP_START + 3, 0));
	EXPECT_EQ(UET_PDC_RX_DELIVER_OOO,
		  uet_pdc_rx_packet(&pdc, WRAP_START + 5, 0));
	EXPECT_EQ(UET_PDC_RX_DUPLICATE,
		  uet_pdc_rx_packet(&pdc, WRAP_START + 3, 0));
	EXPECT_EQ(UET_PDC_RX_DELIVER_OOO,
		  uet_pdc_rx_packet(&pdc, WRAP_START + 2, 0));
	EXPECT_EQ(UET_PDC_RX_DELIVER,
		  uet_pdc_rx_packet(&pdc, WRAP_START + 1, 0));
	EXPECT_EQ(WRAP_START + 3, pdc.rx.cack);
	EXPECT_EQ(UET_PDC_RX_DUPLICATE,
		  uet_pdc_rx_packet(&pdc, WRAP_START, 0));
	EXPECT_EQ(UET_PDC_RX_DUPLICATE,
		  uet_pdc_rx_packet(&pdc, WRAP_START + 5, 0));
	/* Before the start PSN: never this PDC's. */
	EXPECT_EQ(UET_PDC_RX_OUT_OF_WINDOW,
		  uet_pdc_rx_packet(&pdc, WRAP_START - 1, 0));
	/* (cack, cack + 8] is the window. */
	EXPECT_EQ(UET_PDC_RX_OUT_OF_WINDOW,
		  uet_pdc_rx_packet(&pdc, WRAP_START + 3 + 9, 0));
	EXPECT_EQ(UET_PDC_RX_DELIVER_OOO,
		  uet_pdc_rx_packet(&pdc, WRAP_START + 3 + 8, 0));
	EXPECT_EQ(UET_PDC_RX_DELIVER,
		  uet_pdc_rx_packet(&pdc, WRAP_START + 4, 0));
	EXPECT_EQ(WRAP_START + 5, pdc.rx.cack);
	EXPECT_EQ(7, pdc.cnt[UET_PDC_CNT_RX_DELIVERED]);
	EXPECT_EQ(3, pdc.cnt[UET_PDC_CNT_RX_DUPLICATES]);
	EXPECT_EQ(2, pdc.cnt[UET_PDC_CNT_RX_OUT_OF_WINDOW]);

	/* Further on, one window behind cack counts as seen, no more. */
	for (psn = WRAP_START + 6; psn != WRAP_START + 30; psn++)
		uet_pdc_rx_packet(&pdc, psn, 0);
	EXPECT_EQ(WRAP_START + 29, pdc.rx.cack);
	EXPECT_EQ(UET_PDC_RX_DUPLICATE,
		  uet_pdc_rx_packet(&pdc, WRAP_START + 29 - 7, 0));
	EXPECT_EQ(UET_PDC_RX_OUT_OF_WINDOW,
		  uet_pdc_rx_packet(&pdc, WRAP_START + 29 - 8, 0));
}

TEST(rx_rod_in_order_only)
{
	struct uet_pdc pdc;
	struct uet_pdc_ack ack;

	receiver(_metadata, &pdc, UET_PDC_ROD, 8);
	EXPECT_EQ(UET_PDC_RX_REJECT_OOO,
		  uet_pdc_rx_packet(&pdc, WRAP_START + 1, 0));
	EXPECT_FALSE(uet_pdc_rx_ack_due(&pdc));
	EXPECT_EQ(UET_PDC_RX_DELIVER, uet_pdc_rx_packet(&pdc, WRAP_START, 0));
	EXPECT_EQ(UET_PDC_RX_DELIVER,
		  uet_pdc_rx_packet(&pdc, WRAP_START + 1, 0));
	EXPECT_EQ(UET_PDC_RX_DUPLICATE, uet_pdc_rx_packet(&pdc, WRAP_START, 0));
	EXPECT_EQ(UET_PDC_RX_REJECT_OOO,
		  uet_pdc_rx_packet(&pdc, WRAP_START + 4, 0));
	uet_pdc_rx_build_ack(&pdc, &ack);
	EXPECT_EQ(WRAP_START + 1, ack.cack_psn);
	EXPECT_EQ(0, ack.sack_bitmap);
	EXPECT_EQ(2, pdc.cnt[UET_PDC_CNT_RX_ROD_REJECTS]);
}

/* RUDI delivers what it has seen again: idempotent, it answers again. */
TEST(rx_rudi_replays)
{
	struct uet_pdc pdc;

	receiver(_metadata, &pdc, UET_PDC_RUDI, 8);
	EXPECT_EQ(UET_PDC_RX_DELIVER_OOO,
		  uet_pdc_rx_packet(&pdc, WRAP_START + 2, 0));
	EXPECT_EQ(UET_PDC_RX_REPLAY,
		  uet_pdc_rx_packet(&pdc, WRAP_START + 2, 0));
	EXPECT_EQ(UET_PDC_RX_DELIVER, uet_pdc_rx_packet(&pdc, WRAP_START, 0));
	EXPECT_EQ(UET_PDC_RX_REPLAY, uet_pdc_rx_packet(&pdc, WRAP_START, 0));
	EXPECT_TRUE(uet_pdc_rx_ack_due(&pdc));
	EXPECT_EQ(UET_PDC_RX_OUT_OF_WINDOW,
		  uet_pdc_rx_packet(&pdc, WRAP_START - 9, 0));
	EXPECT_EQ(4, pdc.cnt[UET_PDC_CNT_RX_DELIVERED]);
}

TEST(rx_ack_sack)
{
	struct uet_pdc_ack ack;
	struct uet_pdc pdc;

	receiver(_metadata, &pdc, UET_PDC_RUD, 256);
	uet_pdc_rx_packet(&pdc, WRAP_START + 1, 0);
	uet_pdc_rx_packet(&pdc, WRAP_START + 3, 0);
	uet_pdc_rx_build_ack(&pdc, &ack);
	EXPECT_EQ(WRAP_START - 1, ack.cack_psn);
	EXPECT_EQ(WRAP_START + 3, ack.ack_psn);
	EXPECT_EQ(WRAP_START, ack.sack_base);
	EXPECT_EQ(0xa, ack.sack_bitmap);

	/* Far ahead: the bitmap ends at the PSN acknowledged. */
	uet_pdc_rx_packet(&pdc, WRAP_START + 100, 0);
	uet_pdc_rx_build_ack(&pdc, &ack);
	EXPECT_EQ(WRAP_START + 100 - 63, ack.sack_base);
	EXPECT_EQ(1ULL << 63, ack.sack_bitmap);
	EXPECT_EQ(2, pdc.cnt[UET_PDC_CNT_RX_ACKS]);

	/* The bitmap never reaches past the window: no aliases of slots. */
	receiver(_metadata, &pdc, UET_PDC_RUD, 8);
	uet_pdc_rx_packet(&pdc, WRAP_START + 7, 0);
	uet_pdc_rx_build_ack(&pdc, &ack);
	EXPECT_EQ(0x80, ack.sack_bitmap);
}

/*
 * ACK every ack_every (8) deliveries, every dup_thresh (3) while a hole is
 * open, at once for the request that fills the last hole, AR, SYN and
 * what was seen before: not for each request out of sequence.
 */
TEST(rx_ack_coalescing)
{
	struct uet_pdc_cfg cfg;
	struct uet_pdc_ack ack;
	struct uet_pdc pdc;
	u32 i;

	small_cfg(&cfg, UET_PDC_RUD, 64);
	cfg.ack_every = 8;
	ASSERT_EQ(3, cfg.dup_thresh);
	ASSERT_EQ(0, uet_pdc_init(&pdc, &cfg, false, WRAP_START));
	uet_pdc_transition(&pdc, UET_PDC_EV_RECV_SYN);
	for (i = 0; i < 7; i++) {
		uet_pdc_rx_packet(&pdc, WRAP_START + i, 0);
		EXPECT_FALSE(uet_pdc_rx_ack_due(&pdc));
	}
	EXPECT_TRUE(uet_pdc_rx_ack_pending(&pdc));
	uet_pdc_rx_packet(&pdc, WRAP_START + 7, 0);
	EXPECT_TRUE(uet_pdc_rx_ack_due(&pdc));
	uet_pdc_rx_build_ack(&pdc, &ack);
	EXPECT_FALSE(uet_pdc_rx_ack_due(&pdc));
	EXPECT_FALSE(uet_pdc_rx_ack_pending(&pdc));

	uet_pdc_rx_packet(&pdc, WRAP_START + 8, UET_PDC_RX_AR);
	EXPECT_TRUE(uet_pdc_rx_ack_due(&pdc));
	uet_pdc_rx_build_ack(&pdc, &ack);
	uet_pdc_rx_packet(&pdc, WRAP_START + 9, UET_PDC_RX_SYN);
	EXPECT_TRUE(uet_pdc_rx_ack_due(&pdc));
	uet_pdc_rx_build_ack(&pdc, &ack);

	/* 10 missing: every third delivery, whatever its order */
	uet_pdc_rx_packet(&pdc, WRAP_START + 12, 0);
	EXPECT_FALSE(uet_pdc_rx_ack_due(&pdc));
	uet_pdc_rx_packet(&pdc, WRAP_START + 11, 0);
	EXPECT_FALSE(uet_pdc_rx_ack_due(&pdc));
	uet_pdc_rx_packet(&pdc, WRAP_START + 14, 0);
	EXPECT_TRUE(uet_pdc_rx_ack_due(&pdc));
	uet_pdc_rx_build_ack(&pdc, &ack);
	EXPECT_EQ(WRAP_START + 9, ack.cack_psn);
	EXPECT_EQ(0x16, ack.sack_bitmap);
	uet_pdc_rx_packet(&pdc, WRAP_START + 13, 0);
	EXPECT_FALSE(uet_pdc_rx_ack_due(&pdc));
	/* the last hole filled: at once, the cumulative ACK past 14 */
	uet_pdc_rx_packet(&pdc, WRAP_START + 10, 0);
	EXPECT_TRUE(uet_pdc_rx_ack_due(&pdc));
	uet_pdc_rx_build_ack(&pdc, &ack);
	EXPECT_EQ(WRAP_START + 14, ack.cack_psn);
	/* in sequence again: the eighth */
	for (i = 15; i < 22; i++) {
		uet_pdc_rx_packet(&pdc, WRAP_START + i, 0);
		EXPECT_FALSE(uet_pdc_rx_ack_due(&pdc));
	}
	uet_pdc_rx_packet(&pdc, WRAP_START + 22, 0);
	EXPECT_TRUE(uet_pdc_rx_ack_due(&pdc));
	uet_pdc_rx_build_ack(&pdc, &ack);
	EXPECT_EQ(WRAP_START + 22, ack.cack_psn);

	uet_pdc_rx_packet(&pdc, WRAP_START + 1, 0);
	EXPECT_TRUE(uet_pdc_rx_ack_due(&pdc));
	uet_pdc_rx_build_ack(&pdc, &ack);
	uet_pdc_rx_packet(&pdc, WRAP_START + 100, 0);
	EXPECT_FALSE(uet_pdc_rx_ack_due(&pdc));
}

/*
 * RFC 6298 by hand, K = 4, alpha = 1/8, beta = 1/4:
 *  R = 100 us: SRTT = 100, RTTVAR = 50, RTO = 100 + 4 * 50 = 300 us.
 *  R = 140 us: RTTVAR = 3/4 * 50 + 1/4 * |100 - 140| = 47.5,
 *              SRTT = 7/8 * 100 + 1/8 * 140 = 105, RTO = 105 + 190 = 295.
 *  R = 60 us:  RTTVAR = 3/4 * 47.5 + 1/4 * |105 - 60| = 46.875,
 *              SRTT = 7/8 * 105 + 1/8 * 60 = 99.375,
 *              RTO = 99.375 + 187.5 = 286.875 us.
 */
TEST(rto_rfc6298)
{
	struct uet_pdc_rtt rtt;

	uet_pdc_rtt_init(&rtt, 1 * S, 1 * US, 60 * S);
	EXPECT_EQ(1 * S, rtt.rto);
	uet_pdc_rtt_sample(&rtt, 100 * US);
	EXPECT_EQ(100000, rtt.srtt);
	EXPECT_EQ(50000, rtt.rttvar);
	EXPECT_EQ(300000, rtt.rto);
	uet_pdc_rtt_sample(&rtt, 140 * US);
	EXPECT_EQ(47500, rtt.rttvar);
	EXPECT_EQ(105000, rtt.srtt);
	EXPECT_EQ(295000, rtt.rto);
	uet_pdc_rtt_sample(&rtt, 60 * US);
	EXPECT_EQ(46875, rtt.rttvar);
	EXPECT_EQ(99375, rtt.srtt);
	EXPECT_EQ(286875, rtt.rto);

	/* (5.5): doubled, then a valid sample recomputes it. */
	uet_pdc_rtt_backoff(&rtt);
	EXPECT_EQ(573750, rtt.rto);
	uet_pdc_rtt_backoff(&rtt);
	EXPECT_EQ(1147500, rtt.rto);
	uet_pdc_rtt_sample(&rtt, 99375);
	EXPECT_EQ(99375, rtt.srtt);
	EXPECT_EQ(rtt.srtt + 4 * rtt.rttvar, rtt.rto);
	EXPECT_LT(rtt.rto, 286875);
}

TEST(rto_bounds)
{
	struct uet_pdc_rtt rtt;
	int i;

	/* (2.4): never below the minimum; (2.1) clamped too. */
	uet_pdc_rtt_init(&rtt, 1 * US, 200 * MS, 60 * S);
	EXPECT_EQ(200 * MS, rtt.rto);
	uet_pdc_rtt_sample(&rtt, 10 * US);
	EXPECT_EQ(200 * MS, rtt.rto);

	/* G: RTTVAR decays to nothing, the RTO stays a granule above SRTT. */
	uet_pdc_rtt_init(&rtt, 1 * S, 1, 60 * S);
	for (i = 0; i < 200; i++)
		uet_pdc_rtt_sample(&rtt, 50 * US);
	EXPECT_EQ(50 * US, rtt.srtt);
	EXPECT_GT(4, rtt.rttvar);
	EXPECT_EQ(50 * US + 1 * US, rtt.rto);

	/* (2.5): never above the maximum, backoff included. */
	uet_pdc_rtt_init(&rtt, 1 * S, 1 * MS, 4 * S);
	uet_pdc_rtt_sample(&rtt, 3 * S);
	EXPECT_EQ(4 * S, rtt.rto);
	uet_pdc_rtt_sample(&rtt, ~0ULL);
	EXPECT_LE(rtt.srtt, 4 * S);
	EXPECT_EQ(4 * S, rtt.rto);
	uet_pdc_rtt_init(&rtt, 3 * S, 1 * MS, 4 * S);
	uet_pdc_rtt_backoff(&rtt);
	EXPECT_EQ(4 * S, rtt.rto);
}

/*
 * The simulation: an initiator and a target exchange SIM_PACKETS requests
 * through a channel that loses, delays, reorders and duplicates, in both
 * directions, in virtual time.  The initiator follows pdc.h's recipe:
 * retransmits first, SYN until the first ACK, AR on retransmits, on the
 * packet that fills the window and on the last; RTO timer per RFC 6298.
 */
#define SIM_PACKETS	10000
/* 0xffffe000 + 10000 crosses the wrap after 8192 PSNs. */
#define SIM_START	0xffffe000u
#define SIM_WINDOW	128
#define SIM_DELAY	(10 * US)	/* one way */
#define SIM_REORDER_PCT	3		/* of packets held back ... */
#define SIM_JITTER	(5 * US)	/* ... by up to 5 packets */
#define SIM_GAP		(1 * US)	/* time on the wire per packet */
#define SIM_DUP_PCT	1
#define SIM_TIME_LIMIT	(60 * S)
#define SIM_QUEUE	8192

enum sim_kind { SIM_DATA, SIM_ACK, SIM_NACK };

struct sim_msg {
	u64 at;
	u64 seq;		/* FIFO among equal times */
	enum sim_kind kind;
	u32 psn;
	u32 flags;		/* UET_PDC_RX_* */
	bool retx;
	struct uet_pdc_ack ack;
};

struct sim {
	struct uet_pdc ini;
	struct uet_pdc tgt;
	u64 rng;
	u64 now;
	u64 seq;
	u64 rto_at;		/* 0: timer stopped */
	u64 send_at;
	u32 sent_new;
	u32 delivered;
	u32 acked;
	u32 dropped_new;	/* first transmissions the channel lost */
	u32 replays;		/* RUDI: deliveries of PSNs delivered before */
	unsigned int loss_pct;
	bool reorder;
	bool dup;
	unsigned int queued;
	struct sim_msg queue[SIM_QUEUE];	/* binary min-heap */
	u8 delivered_count[SIM_PACKETS];
	u8 acked_count[SIM_PACKETS];
};

/* xorshift64* (Vigna, "An experimental exploration of Marsaglia's ...") */
static u64 sim_rand(struct sim *s)
{
	s->rng ^= s->rng >> 12;
	s->rng ^= s->rng << 25;
	s->rng ^= s->rng >> 27;
	return s->rng * 2685821657736338717ULL;
}

static bool sim_chance(struct sim *s, unsigned int pct)
{
	return sim_rand(s) % 100 < pct;
}

static bool msg_before(const struct sim_msg *a, const struct sim_msg *b)
{
	return a->at < b->at || (a->at == b->at && a->seq < b->seq);
}

static void heap_swap(struct sim *s, unsigned int i, unsigned int j)
{
	struct sim_msg t = s->queue[i];

	s->queue[i] = s->queue[j];
	s->queue[j] = t;
}

static void heap_push(struct sim *s, const struct sim_msg *m)
{
	unsigned int i = s->queued++;

	if (i >= SIM_QUEUE)
		abort();
	s->queue[i] = *m;
	for (; i && msg_before(&s->queue[i], &s->queue[(i - 1) / 2]);
	     i = (i - 1) / 2)
		heap_swap(s, i, (i - 1) / 2);
}

static void heap_pop(struct sim *s, struct sim_msg *m)
{
	unsigned int i = 0, c;

	*m = s->queue[0];
	s->queue[0] = s->queue[--s->queued];
	for (; (c = 2 * i + 1) < s->queued; i = c) {
		if (c + 1 < s->queued && msg_before(&s->queue[c + 1], &s->queue[c]))
			c++;
		if (!msg_before(&s->queue[c], &s->queue[i]))
			break;
		heap_swap(s, i, c);
	}
}

/* Into the channel: lost, or delayed (and maybe reordered, duplicated). */
static bool sim_xmit(struct sim *s, struct sim_msg *m)
{
	int copies = 1 + (s->dup && sim_chance(s, SIM_DUP_PCT));
	bool lost = true;

	while (copies--) {
		if (sim_chance(s, s->loss_pct))
			continue;
		m->at = s->now + SIM_DELAY;
		if (s->reorder && sim_chance(s, SIM_REORDER_PCT))
			m->at += 1 + sim_rand(s) % SIM_JITTER;
		m->seq = s->seq++;
		heap_push(s, m);
		lost = false;
	}
	return lost;
}

/* The sender's timer, as pds.c runs it: a tail probe's, or the RTO. */
static void sim_arm(struct sim *s)
{
	bool probe;

	s->rto_at = s->now + uet_pdc_tx_timer(&s->ini, &probe);
}

static void sim_send_data(struct sim *s, u32 psn, u32 flags, bool retx)
{
	struct sim_msg m = {
		.kind = SIM_DATA, .psn = psn, .flags = flags, .retx = retx,
	};

	if (s->ini.state == UET_PDC_SYN_SENT)
		m.flags |= UET_PDC_RX_SYN;
	if (sim_xmit(s, &m) && !retx)
		s->dropped_new++;
	if (!s->rto_at)
		sim_arm(s);	/* (5.1) */
	s->send_at = s->now + SIM_GAP;
}

static bool sim_has_work(const struct sim *s)
{
	const struct uet_pdc_tx *tx = &s->ini.tx;

	/* after a timeout, retransmissions wait for the ACKs' quota */
	return (tx->rtx_next != tx->rtx_end &&
		(!tx->rto_marked || tx->rto_quota)) ||
	       (s->sent_new < SIM_PACKETS && !uet_pdc_tx_window_full(&s->ini));
}

/* One packet on the wire if there is one to send: retransmits first. */
static void sim_sender(struct __test_metadata *_metadata, struct sim *s)
{
	u32 psn, flags = 0;

	if (s->now < s->send_at)
		return;
	if (uet_pdc_tx_next_rtx(&s->ini, &psn)) {
		uet_pdc_transition(&s->ini, UET_PDC_EV_SEND);
		sim_send_data(s, psn, UET_PDC_RX_AR, true);
		return;
	}
	if (s->sent_new == SIM_PACKETS || uet_pdc_tx_alloc(&s->ini, s->now, &psn))
		return;
	ASSERT_EQ(SIM_START + s->sent_new, psn);
	ASSERT_LE(uet_pdc_tx_in_flight(&s->ini), SIM_WINDOW);
	s->sent_new++;
	if (uet_pdc_tx_window_full(&s->ini) || s->sent_new == SIM_PACKETS)
		flags |= UET_PDC_RX_AR;
	uet_pdc_transition(&s->ini, UET_PDC_EV_SEND);
	sim_send_data(s, psn, flags, false);
}

static void sim_deliver(struct __test_metadata *_metadata, struct sim *s,
			u32 psn)
{
	u32 i = psn - SIM_START;

	ASSERT_LT(i, SIM_PACKETS);
	ASSERT_EQ(0, s->delivered_count[i]);
	/* ROD delivers in order. */
	ASSERT_TRUE(s->tgt.cfg.mode != UET_PDC_ROD || s->delivered == i);
	s->delivered_count[i]++;
	s->delivered++;
}

static void sim_target(struct __test_metadata *_metadata, struct sim *s,
		       const struct sim_msg *in)
{
	enum uet_pdc_event ev = in->flags & UET_PDC_RX_SYN ?
				UET_PDC_EV_RECV_SYN : UET_PDC_EV_RECV;
	struct sim_msg m = { .kind = SIM_ACK };

	ASSERT_EQ(UET_PDC_ESTABLISHED, uet_pdc_transition(&s->tgt, ev));
	switch (uet_pdc_rx_packet(&s->tgt, in->psn, in->flags)) {
	case UET_PDC_RX_DELIVER:
	case UET_PDC_RX_DELIVER_OOO:
		sim_deliver(_metadata, s, in->psn);
		break;
	case UET_PDC_RX_REJECT_OOO:
		m.kind = SIM_NACK;
		m.psn = in->psn;
		sim_xmit(s, &m);
		return;
	case UET_PDC_RX_REPLAY:
		ASSERT_EQ(UET_PDC_RUDI, s->tgt.cfg.mode);
		ASSERT_EQ(1, s->delivered_count[in->psn - SIM_START]);
		s->replays++;
		break;
	case UET_PDC_RX_DUPLICATE:
		ASSERT_EQ(1, s->delivered_count[in->psn - SIM_START]);
		break;
	default:
		ASSERT_TRUE(false);
	}
	if (!uet_pdc_rx_ack_due(&s->tgt))
		return;
	uet_pdc_rx_build_ack(&s->tgt, &m.ack);
	sim_xmit(s, &m);
}

/* Each PSN is reported acknowledged once, as uet_pdc_tx_ack() promises. */
static void sim_count_acked(struct __test_metadata *_metadata, struct sim *s,
			    const struct uet_pdc_acked *acked)
{
	u32 marks = 0, i, psn;

	for (i = 0; i < UET_PDC_SACK_BITS; i++) {
		if (!(acked->sack_new >> i & 1))
			continue;
		psn = acked->sack_base + i - SIM_START;
		ASSERT_LT(psn, SIM_PACKETS);
		ASSERT_EQ(0, s->acked_count[psn]);
		s->acked_count[psn]++;
		marks++;
	}
	for (psn = acked->cum_from; psn != acked->cum_to; psn++) {
		i = psn - SIM_START;
		ASSERT_LT(i, SIM_PACKETS);
		if (s->acked_count[i])
			continue;
		s->acked_count[i]++;
		marks++;
	}
	ASSERT_EQ(acked->newly, marks);
	s->acked += marks;
}

static void sim_initiator(struct __test_metadata *_metadata, struct sim *s,
			  const struct sim_msg *in)
{
	struct uet_pdc_acked acked;

	if (in->kind == SIM_NACK) {
		if (!uet_pdc_tx_nack(&s->ini, in->psn))
			uet_pdc_transition(&s->ini, UET_PDC_EV_NACK);
		return;
	}
	ASSERT_EQ(0, uet_pdc_tx_ack(&s->ini, &in->ack, s->now, &acked));
	sim_count_acked(_metadata, s, &acked);
	ASSERT_EQ(UET_PDC_ESTABLISHED,
		  uet_pdc_transition(&s->ini, UET_PDC_EV_ACK));
	if (acked.newly) {	/* (5.2), (5.3) */
		s->rto_at = 0;
		if (uet_pdc_tx_in_flight(&s->ini))
			sim_arm(s);
	}
}

static void sim_timer(struct __test_metadata *_metadata, struct sim *s)
{
	bool probe;
	u32 psn;

	if (!s->rto_at || s->now < s->rto_at)
		return;
	uet_pdc_tx_timer(&s->ini, &probe);
	if (probe && uet_pdc_tx_probe(&s->ini, &psn)) {
		sim_send_data(s, psn, UET_PDC_RX_AR, true);
		sim_arm(s);
		return;
	}
	uet_pdc_tx_timeout(&s->ini);
	ASSERT_NE(UET_PDC_CLOSED,
		  uet_pdc_transition(&s->ini, UET_PDC_EV_TIMEOUT));
	s->rto_at = s->now + uet_pdc_rto(&s->ini);	/* (5.6) */
}

/* The next moment something happens: a message, the timer, a send. */
static u64 sim_next(const struct sim *s)
{
	u64 next = ~0ULL;

	if (s->queued)
		next = s->queue[0].at;
	if (s->rto_at && s->rto_at < next)
		next = s->rto_at;
	if (sim_has_work(s) && s->send_at < next)
		next = s->send_at > s->now ? s->send_at : s->now;
	return next;
}

static bool sim_done(const struct sim *s)
{
	return s->delivered == SIM_PACKETS && !uet_pdc_tx_in_flight(&s->ini);
}

static void sim_run(struct __test_metadata *_metadata, struct sim *s)
{
	struct sim_msg m;

	for (;;) {
		sim_timer(_metadata, s);
		sim_sender(_metadata, s);
		while (s->queued && s->queue[0].at <= s->now) {
			heap_pop(s, &m);
			if (m.kind == SIM_DATA)
				sim_target(_metadata, s, &m);
			else
				sim_initiator(_metadata, s, &m);
		}
		if (sim_done(s))
			return;
		s->now = sim_next(s);
		ASSERT_LT(s->now, SIM_TIME_LIMIT);
	}
}

FIXTURE(sim) {
	struct sim *s;
};

FIXTURE_VARIANT(sim) {
	enum uet_pdc_mode mode;
	unsigned int loss_pct;
	bool reorder;
	bool dup;
};

FIXTURE_VARIANT_ADD(sim, rud_loss0) {
	.mode = UET_PDC_RUD,
};

FIXTURE_VARIANT_ADD(sim, rud_loss0_reorder_dup) {
	.mode = UET_PDC_RUD, .reorder = true, .dup = true,
};

FIXTURE_VARIANT_ADD(sim, rud_loss1) {
	.mode = UET_PDC_RUD, .loss_pct = 1, .reorder = true, .dup = true,
};

FIXTURE_VARIANT_ADD(sim, rud_loss5) {
	.mode = UET_PDC_RUD, .loss_pct = 5, .reorder = true, .dup = true,
};

FIXTURE_VARIANT_ADD(sim, rud_loss20) {
	.mode = UET_PDC_RUD, .loss_pct = 20, .reorder = true, .dup = true,
};

FIXTURE_VARIANT_ADD(sim, rudi_loss5) {
	.mode = UET_PDC_RUDI, .loss_pct = 5, .reorder = true, .dup = true,
};

FIXTURE_VARIANT_ADD(sim, rod_loss0) {
	.mode = UET_PDC_ROD,
};

FIXTURE_VARIANT_ADD(sim, rod_loss0_reorder_dup) {
	.mode = UET_PDC_ROD, .reorder = true, .dup = true,
};

FIXTURE_VARIANT_ADD(sim, rod_loss1) {
	.mode = UET_PDC_ROD, .loss_pct = 1, .reorder = true, .dup = true,
};

FIXTURE_VARIANT_ADD(sim, rod_loss5) {
	.mode = UET_PDC_ROD, .loss_pct = 5, .reorder = true, .dup = true,
};

FIXTURE_VARIANT_ADD(sim, rod_loss20) {
	.mode = UET_PDC_ROD, .loss_pct = 20, .reorder = true, .dup = true,
};

FIXTURE_SETUP(sim)
{
	struct uet_pdc_cfg cfg;
	struct sim *s;

	s = calloc(1, sizeof(*s));
	ASSERT_NE(NULL, s);
	self->s = s;
	uet_pdc_cfg_default(&cfg, variant->mode);
	cfg.window = SIM_WINDOW;
	cfg.ack_every = 4;
	cfg.rto_initial = 1 * MS;
	cfg.rto_min = 100 * US;
	cfg.rto_max = 100 * MS;
	ASSERT_EQ(0, uet_pdc_init(&s->ini, &cfg, true, SIM_START));
	ASSERT_EQ(0, uet_pdc_init(&s->tgt, &cfg, false, SIM_START));
	s->rng = 0x5eed0000 + variant->mode * 100 + variant->loss_pct;
	s->loss_pct = variant->loss_pct;
	s->reorder = variant->reorder;
	s->dup = variant->dup;
}

FIXTURE_TEARDOWN(sim)
{
	free(self->s);
}

TEST_F(sim, transfer)
{
	struct sim *s = self->s;
	const u64 *c = s->ini.cnt;
	u64 max_rtx;
	u32 i;

	sim_run(_metadata, s);
	TH_LOG("%s loss %u%%%s: %llu retransmits (%u first sends lost), %llu timeouts, %llu probes, %llu lost retransmits, %.1f ms",
	       uet_pdc_mode_name(variant->mode), variant->loss_pct,
	       variant->reorder ? " reorder dup" : "",
	       (unsigned long long)c[UET_PDC_CNT_TX_RETRANSMITS], s->dropped_new,
	       (unsigned long long)c[UET_PDC_CNT_TX_TIMEOUTS],
	       (unsigned long long)c[UET_PDC_CNT_TX_PROBES],
	       (unsigned long long)c[UET_PDC_CNT_TX_LOST_RTX], s->now / 1e6);
	TH_LOG("%llu dup ACKs, %llu NACKs, %llu duplicates at the target",
	       (unsigned long long)c[UET_PDC_CNT_TX_DUP_ACKS],
	       (unsigned long long)c[UET_PDC_CNT_TX_NACKS],
	       (unsigned long long)s->tgt.cnt[UET_PDC_CNT_RX_DUPLICATES]);

	for (i = 0; i < SIM_PACKETS; i++) {
		ASSERT_EQ(1, s->delivered_count[i]);
		ASSERT_EQ(1, s->acked_count[i]);
	}
	EXPECT_EQ(SIM_PACKETS, s->acked);
	EXPECT_EQ(0, uet_pdc_tx_in_flight(&s->ini));
	EXPECT_EQ(SIM_START + SIM_PACKETS, s->ini.tx.una);
	EXPECT_EQ(SIM_START + SIM_PACKETS - 1, s->tgt.rx.cack);
	EXPECT_EQ(SIM_PACKETS + s->replays,
		  s->tgt.cnt[UET_PDC_CNT_RX_DELIVERED]);
	EXPECT_TRUE(variant->mode != UET_PDC_RUDI ||
		    s->replays == s->tgt.cnt[UET_PDC_CNT_RX_DUPLICATES]);
	EXPECT_EQ(0, c[UET_PDC_CNT_TX_BAD_ACKS]);
	EXPECT_EQ(UET_PDC_ESTABLISHED, s->ini.state);

	/*
	 * Every first send lost was sent again.  Selective retransmission
	 * costs about one send per loss, plus some spurious ones (reordering
	 * beyond the duplicate threshold, retransmits racing their ACKs);
	 * go-back-N costs up to a window per loss.
	 */
	max_rtx = variant->mode == UET_PDC_ROD ? 8 * SIM_PACKETS :
		  2 * s->dropped_new + SIM_PACKETS / 50;
	EXPECT_GE(c[UET_PDC_CNT_TX_RETRANSMITS], s->dropped_new);
	EXPECT_LE(c[UET_PDC_CNT_TX_RETRANSMITS], max_rtx);
	if (!variant->loss_pct && !variant->reorder) {
		EXPECT_EQ(0, c[UET_PDC_CNT_TX_RETRANSMITS]);
		EXPECT_EQ(0, c[UET_PDC_CNT_TX_TIMEOUTS]);
		EXPECT_EQ(0, s->tgt.cnt[UET_PDC_CNT_RX_DUPLICATES]);
	}
}

TEST_HARNESS_MAIN
