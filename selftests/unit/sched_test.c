// SPDX-License-Identifier: GPL-2.0
/*
 * Unit tests of the transmit scheduler's bookkeeping (drivers/uet/sched.c):
 * what each PSN in flight carries, reads sent again, and what a PDC hands
 * back when it fails.
 */
#include "kselftest_harness.h"

#include <linux/slab.h>

#include "sched.h"

int uet_shim_fail_allocs = -1;

#define WINDOW	16

static void msg_init(struct uet_pds_msg *m, u32 len, u32 max, bool read)
{
	*m = (struct uet_pds_msg) { .read = read };
	uet_seg_init(&m->seg, len, max);
}

FIXTURE(sched)
{
	struct uet_sched s;
};

FIXTURE_SETUP(sched)
{
	uet_shim_fail_allocs = -1;
	uet_sched_init(&self->s, WINDOW);
	/* the table a PDC takes with its first PSN */
	ASSERT_TRUE(uet_sched_room(&self->s, 0, 0, GFP_ATOMIC));
}

FIXTURE_TEARDOWN(sched)
{
	uet_sched_fini(&self->s);
}

/* A message is cut in order, each PSN remembering its piece. */
TEST_F(sched, cut_in_order)
{
	struct uet_pds_msg m;
	struct uet_pds_tx *tx;
	u32 psn = 100, i;

	msg_init(&m, 4096, 1416, false);
	EXPECT_FALSE(uet_sched_queued(&self->s));
	uet_sched_queue(&self->s, &m);
	for (i = 0; i < 3; i++) {
		ASSERT_TRUE(uet_sched_queued(&self->s));
		uet_sched_cut(&self->s, psn + i);
		tx = uet_sched_tx(&self->s, psn + i);
		EXPECT_EQ(&m, tx->msg);
		EXPECT_EQ(uet_seg_off(&m.seg, i), tx->off);
		EXPECT_EQ(uet_seg_len(&m.seg, i), tx->len);
		EXPECT_EQ(UET_PDS_TX_USED | (i == 2 ? UET_PDS_TX_EOM : 0),
			  tx->flags);
	}
	EXPECT_EQ(3, m.ncut);
	EXPECT_FALSE(uet_sched_queued(&self->s));
}

/*
 * The backlog: what is left of each message, 64 bytes a request more,
 * counted up to the limit and over 16 messages at most.
 */
TEST_F(sched, backlog)
{
	static struct uet_pds_msg m[20];
	int i;

	EXPECT_EQ(0, uet_sched_backlog(&self->s, 64, 1000000));
	/* 4096 bytes in 3 requests of 1366, 1366, 1364 */
	msg_init(&m[0], 4096, 1416, false);
	uet_sched_queue(&self->s, &m[0]);
	EXPECT_EQ(4096 + 3 * 64, uet_sched_backlog(&self->s, 64, 1000000));
	uet_sched_cut(&self->s, 0);
	/* one request cut: 2730 bytes in 2 left */
	EXPECT_EQ(2730 + 2 * 64, uet_sched_backlog(&self->s, 64, 1000000));
	EXPECT_EQ(1000, uet_sched_backlog(&self->s, 64, 1000));
	for (i = 1; i < 20; i++) {
		msg_init(&m[i], 100, 1416, false);
		uet_sched_queue(&self->s, &m[i]);
	}
	/* the first message and 15 more of 164 bytes each */
	EXPECT_EQ(2858 + 15 * 164, uet_sched_backlog(&self->s, 64, 1000000));
}

/* Messages go in the order queued; PSNs wrap around the table. */
TEST_F(sched, messages_fifo_and_wrap)
{
	struct uet_pds_msg a, b;
	u32 psn = 0xfffffffe;

	msg_init(&a, 10, 1000, false);
	msg_init(&b, 2000, 1000, true);
	uet_sched_queue(&self->s, &a);
	uet_sched_queue(&self->s, &b);
	uet_sched_cut(&self->s, psn);
	uet_sched_cut(&self->s, psn + 1);
	uet_sched_cut(&self->s, psn + 2);
	EXPECT_EQ(&a, uet_sched_tx(&self->s, psn)->msg);
	EXPECT_EQ(&b, uet_sched_tx(&self->s, psn + 1)->msg);
	EXPECT_EQ(&b, uet_sched_tx(&self->s, 0)->msg);
	EXPECT_EQ(&self->s.txq[0], uet_sched_tx(&self->s, psn + 2));
	EXPECT_EQ(&self->s.txq[WINDOW - 1], uet_sched_tx(&self->s, psn + 1));
	EXPECT_EQ(UET_PDS_TX_USED | UET_PDS_TX_READ | UET_PDS_TX_EOM,
		  uet_sched_tx(&self->s, 0)->flags);
}

/* A PSN's request is told once; a free PSN and the CLOSE tell nothing. */
TEST_F(sched, finish_once)
{
	struct uet_pds_tx done = {};
	struct uet_pds_msg m;
	int err = 0;

	msg_init(&m, 100, 1000, false);
	uet_sched_queue(&self->s, &m);
	uet_sched_cut(&self->s, 5);
	EXPECT_EQ(UET_SCHED_NONE,
		  uet_sched_finish(&self->s, 4, &err, &done, GFP_ATOMIC));
	EXPECT_EQ(UET_SCHED_DONE,
		  uet_sched_finish(&self->s, 5, &err, &done, GFP_ATOMIC));
	EXPECT_EQ(&m, done.msg);
	EXPECT_EQ(0, err);
	EXPECT_EQ(0, uet_sched_tx(&self->s, 5)->flags);
	EXPECT_EQ(UET_SCHED_NONE,
		  uet_sched_finish(&self->s, 5, &err, &done, GFP_ATOMIC));

	uet_sched_close(&self->s, 6);
	EXPECT_EQ(UET_PDS_TX_USED | UET_PDS_TX_CLOSE,
		  uet_sched_tx(&self->s, 6)->flags);
	EXPECT_EQ(UET_SCHED_NONE,
		  uet_sched_finish(&self->s, 6, &err, &done, GFP_ATOMIC));
	EXPECT_EQ(0, uet_sched_tx(&self->s, 6)->flags);
}

/*
 * A read acknowledged without its data goes again, first, under a new PSN,
 * as it was; answered, or failed, it is done.
 */
TEST_F(sched, read_reissued_first)
{
	struct uet_pds_msg rd, wr;
	struct uet_pds_tx done, *tx;
	int err = 0;

	msg_init(&rd, 3000, 1000, true);
	msg_init(&wr, 1000, 1000, false);
	uet_sched_queue(&self->s, &rd);
	uet_sched_queue(&self->s, &wr);
	uet_sched_cut(&self->s, 1);
	uet_sched_cut(&self->s, 2);
	EXPECT_EQ(UET_SCHED_REISSUE,
		  uet_sched_finish(&self->s, 2, &err, &done, GFP_ATOMIC));
	EXPECT_EQ(0, err);

	uet_sched_cut(&self->s, 3);
	tx = uet_sched_tx(&self->s, 3);
	EXPECT_EQ(&rd, tx->msg);
	EXPECT_EQ(1000, tx->off);
	EXPECT_EQ(1000, tx->len);
	EXPECT_EQ(UET_PDS_TX_USED | UET_PDS_TX_READ, tx->flags);

	/* its data came: done */
	tx->flags |= UET_PDS_TX_ANSWERED;
	EXPECT_EQ(UET_SCHED_DONE,
		  uet_sched_finish(&self->s, 3, &err, &done, GFP_ATOMIC));
	/* given up: done, with the error */
	err = -ETIMEDOUT;
	EXPECT_EQ(UET_SCHED_DONE,
		  uet_sched_finish(&self->s, 1, &err, &done, GFP_ATOMIC));
	EXPECT_EQ(-ETIMEDOUT, err);
	EXPECT_EQ(2, rd.ncut);
	uet_sched_cut(&self->s, 4);
	EXPECT_EQ(&rd, uet_sched_tx(&self->s, 4)->msg);
	EXPECT_EQ(2000, uet_sched_tx(&self->s, 4)->off);
	EXPECT_EQ(UET_PDS_TX_USED | UET_PDS_TX_READ | UET_PDS_TX_EOM,
		  uet_sched_tx(&self->s, 4)->flags);
	uet_sched_cut(&self->s, 5);
	EXPECT_EQ(&wr, uet_sched_tx(&self->s, 5)->msg);
}

/* No memory to remember a reissue: the read fails instead. */
TEST_F(sched, reissue_without_memory_fails)
{
	struct uet_pds_tx done;
	struct uet_pds_msg rd;
	int err = 0;

	msg_init(&rd, 10, 1000, true);
	uet_sched_queue(&self->s, &rd);
	uet_sched_cut(&self->s, 7);
	uet_shim_fail_allocs = 0;
	EXPECT_EQ(UET_SCHED_DONE,
		  uet_sched_finish(&self->s, 7, &err, &done, GFP_ATOMIC));
	EXPECT_EQ(-ENOMEM, err);
	EXPECT_EQ(&rd, done.msg);
	EXPECT_FALSE(uet_sched_queued(&self->s));
}

/* A cancelled read acknowledged without its data is not sent again. */
TEST_F(sched, cancelled_read_not_reissued)
{
	struct uet_pds_tx done;
	struct uet_pds_msg rd;
	int err = 0;

	msg_init(&rd, 10, 1000, true);
	uet_sched_queue(&self->s, &rd);
	uet_sched_cut(&self->s, 9);
	rd.cancelled = true;
	EXPECT_EQ(UET_SCHED_DONE,
		  uet_sched_finish(&self->s, 9, &err, &done, GFP_ATOMIC));
	EXPECT_EQ(0, err);
	EXPECT_EQ(&rd, done.msg);
	EXPECT_FALSE(uet_sched_queued(&self->s));
}

/*
 * Failing what waits: reissues one request each, then each message with
 * the requests it has not had cut.
 */
TEST_F(sched, take_what_waits)
{
	struct uet_pds_msg rd, a, b, *msg;
	struct uet_pds_tx done;
	int err = 0;
	u32 n;

	msg_init(&rd, 10, 1000, true);
	msg_init(&a, 5000, 1000, false);
	msg_init(&b, 0, 1000, false);
	uet_sched_queue(&self->s, &rd);
	uet_sched_queue(&self->s, &a);
	uet_sched_queue(&self->s, &b);
	uet_sched_cut(&self->s, 0);
	uet_sched_cut(&self->s, 1);
	uet_sched_cut(&self->s, 2);
	ASSERT_EQ(UET_SCHED_REISSUE,
		  uet_sched_finish(&self->s, 0, &err, &done, GFP_ATOMIC));

	ASSERT_TRUE(uet_sched_take(&self->s, &msg, &n));
	EXPECT_EQ(&rd, msg);
	EXPECT_EQ(1, n);
	ASSERT_TRUE(uet_sched_take(&self->s, &msg, &n));
	EXPECT_EQ(&a, msg);
	EXPECT_EQ(3, n);
	ASSERT_TRUE(uet_sched_take(&self->s, &msg, &n));
	EXPECT_EQ(&b, msg);
	EXPECT_EQ(1, n);
	EXPECT_FALSE(uet_sched_take(&self->s, &msg, &n));
	EXPECT_FALSE(uet_sched_queued(&self->s));
	/* what is in flight stays */
	EXPECT_EQ(&a, uet_sched_tx(&self->s, 2)->msg);
}

/*
 * Dropping what waits of cancelled messages: only from the head, a
 * reissue first, each message with the requests it has not had cut; a
 * message not cancelled stops it, and stays to be cut.
 */
TEST_F(sched, drop_cancelled_from_the_head)
{
	struct uet_pds_msg rd, a, b, *msg;
	struct uet_pds_tx done;
	int err = 0;
	u32 n;

	msg_init(&rd, 3000, 1000, true);
	msg_init(&a, 3000, 1000, false);
	msg_init(&b, 2000, 1000, false);
	uet_sched_queue(&self->s, &rd);
	uet_sched_queue(&self->s, &a);
	uet_sched_queue(&self->s, &b);
	uet_sched_cut(&self->s, 0);
	uet_sched_cut(&self->s, 1);
	uet_sched_cut(&self->s, 2);
	uet_sched_cut(&self->s, 3);
	ASSERT_EQ(UET_SCHED_REISSUE,
		  uet_sched_finish(&self->s, 0, &err, &done, GFP_ATOMIC));
	EXPECT_FALSE(uet_sched_drop(&self->s, &msg, &n));

	rd.cancelled = true;
	a.cancelled = true;
	ASSERT_TRUE(uet_sched_drop(&self->s, &msg, &n));
	EXPECT_EQ(&rd, msg);
	EXPECT_EQ(1, n);
	ASSERT_TRUE(uet_sched_drop(&self->s, &msg, &n));
	EXPECT_EQ(&a, msg);
	EXPECT_EQ(2, n);
	EXPECT_FALSE(uet_sched_drop(&self->s, &msg, &n));
	ASSERT_TRUE(uet_sched_queued(&self->s));
	uet_sched_cut(&self->s, 4);
	EXPECT_EQ(&b, uet_sched_tx(&self->s, 4)->msg);
	/* what is in flight stays */
	EXPECT_EQ(&a, uet_sched_tx(&self->s, 3)->msg);
}

/* A reissue still waiting when the PDC goes is freed with it (ASan). */
TEST_F(sched, fini_frees_reissues)
{
	struct uet_pds_tx done;
	struct uet_pds_msg rd;
	int err = 0;

	msg_init(&rd, 10, 1000, true);
	uet_sched_queue(&self->s, &rd);
	uet_sched_cut(&self->s, 3);
	ASSERT_EQ(UET_SCHED_REISSUE,
		  uet_sched_finish(&self->s, 3, &err, &done, GFP_ATOMIC));
	EXPECT_TRUE(uet_sched_queued(&self->s));
}

/*
 * Cut @n one-packet messages of @m from @psn on, making room first as a
 * PDC does, with @una the oldest PSN in flight; false once there is none.
 */
static bool cut_n(struct uet_sched *s, struct uet_pds_msg *m, u32 una,
		  u32 psn, u32 n)
{
	u32 i;

	for (i = 0; i < n; i++) {
		msg_init(&m[i], 100, 1000, false);
		uet_sched_queue(s, &m[i]);
		if (!uet_sched_room(s, una, psn + i, GFP_ATOMIC))
			return false;
		uet_sched_cut(s, psn + i);
	}
	return true;
}

/*
 * The table grows with what is in flight, across the PSN space's wrap,
 * each PSN keeping its request, up to the window and no further.
 */
TEST(table_grows_to_the_window)
{
	struct uet_pds_msg m[64];
	u32 una = 0xfffffff0, i;
	struct uet_sched s;

	uet_sched_init(&s, 64);
	EXPECT_EQ(NULL, s.txq);
	ASSERT_TRUE(cut_n(&s, m, una, una, 1));
	EXPECT_EQ(UET_SCHED_TABLE_MIN - 1, s.mask);
	ASSERT_TRUE(cut_n(&s, m + 1, una, una + 1, 63));
	EXPECT_EQ(63, s.mask);
	for (i = 0; i < 64; i++)
		EXPECT_EQ(&m[i], uet_sched_tx(&s, una + i)->msg);
	/* a window in flight: no room for one more */
	EXPECT_FALSE(uet_sched_room(&s, una, una + 64, GFP_ATOMIC));
	uet_sched_fini(&s);
}

/*
 * Without memory to grow, the table stays whole and refuses the PSN; the
 * PDC cuts it once an ACK made room, or memory came back.
 */
TEST(table_without_memory_to_grow)
{
	struct uet_pds_msg m[UET_SCHED_TABLE_MIN], more;
	struct uet_pds_tx done;
	struct uet_sched s;
	int err = 0;
	u32 i;

	uet_sched_init(&s, 1024);
	ASSERT_TRUE(cut_n(&s, m, 7, 7, UET_SCHED_TABLE_MIN));
	uet_shim_fail_allocs = 0;
	EXPECT_FALSE(uet_sched_room(&s, 7, 7 + UET_SCHED_TABLE_MIN, GFP_ATOMIC));
	uet_shim_fail_allocs = -1;
	for (i = 0; i < UET_SCHED_TABLE_MIN; i++)
		EXPECT_EQ(&m[i], uet_sched_tx(&s, 7 + i)->msg);
	/* the oldest is acknowledged: room without growing */
	EXPECT_EQ(UET_SCHED_DONE,
		  uet_sched_finish(&s, 7, &err, &done, GFP_ATOMIC));
	uet_shim_fail_allocs = 0;
	EXPECT_TRUE(uet_sched_room(&s, 8, 7 + UET_SCHED_TABLE_MIN, GFP_ATOMIC));
	uet_shim_fail_allocs = -1;
	msg_init(&more, 100, 1000, false);
	uet_sched_queue(&s, &more);
	uet_sched_cut(&s, 7 + UET_SCHED_TABLE_MIN);
	EXPECT_EQ(&more, uet_sched_tx(&s, 7 + UET_SCHED_TABLE_MIN)->msg);
	EXPECT_EQ(&m[1], uet_sched_tx(&s, 8)->msg);
	uet_sched_fini(&s);
}

/* A table goes with its scheduler; a new one grows again with traffic. */
TEST(table_goes_when_quiet)
{
	struct uet_pds_msg m[40];
	struct uet_pds_tx done;
	struct uet_sched s;
	int err = 0;
	u32 i;

	uet_sched_init(&s, 1024);
	ASSERT_TRUE(cut_n(&s, m, 0, 0, 40));
	EXPECT_EQ(63, s.mask);
	for (i = 0; i < 40; i++)
		EXPECT_EQ(UET_SCHED_DONE,
			  uet_sched_finish(&s, i, &err, &done, GFP_ATOMIC));
	uet_sched_fini(&s);
	uet_sched_init(&s, 1024);
	EXPECT_EQ(NULL, s.txq);
	EXPECT_EQ(0, s.mask);
	/* and comes back, growing again */
	ASSERT_TRUE(cut_n(&s, m, 40, 40, 20));
	EXPECT_EQ(31, s.mask);
	EXPECT_EQ(&m[19], uet_sched_tx(&s, 59)->msg);
	uet_sched_fini(&s);
}

/* A window smaller than the smallest table is the table. */
TEST(small_window_table)
{
	struct uet_sched s;

	uet_sched_init(&s, 4);
	EXPECT_TRUE(uet_sched_room(&s, 0, 0, GFP_ATOMIC));
	EXPECT_EQ(3, s.mask);
	EXPECT_TRUE(uet_sched_room(&s, 0, 3, GFP_ATOMIC));
	EXPECT_FALSE(uet_sched_room(&s, 0, 4, GFP_ATOMIC));
	uet_sched_fini(&s);
}

/*
 * No memory for the first PSN's table: no room, nothing changed; the
 * PDC tries again later.  A target's scheduler (window 0) has no table.
 */
TEST(no_memory_for_the_table)
{
	struct uet_sched s;

	uet_sched_init(&s, WINDOW);
	uet_shim_fail_allocs = 0;
	EXPECT_FALSE(uet_sched_room(&s, 5, 5, GFP_ATOMIC));
	uet_shim_fail_allocs = -1;
	EXPECT_EQ(NULL, s.txq);
	EXPECT_TRUE(uet_sched_room(&s, 5, 5, GFP_ATOMIC));
	EXPECT_NE(NULL, s.txq);
	uet_sched_fini(&s);
	uet_sched_init(&s, 0);
	EXPECT_FALSE(uet_sched_room(&s, 0, 0, GFP_ATOMIC));
	EXPECT_EQ(NULL, s.txq);
}

TEST_HARNESS_MAIN
