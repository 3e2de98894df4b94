// SPDX-License-Identifier: GPL-2.0
/*
 * Unit tests of the idle wheel (drivers/uet/wheel.c): entries come up at
 * the tick they are due, in order, the horizon bounds how late, and a
 * scanner that missed ticks misses no entry.
 */
#include "kselftest_harness.h"

#include "wheel.h"

#define N	8

struct item {
	struct uet_wheel_entry e;
	int id;
};

/* The ids of the entries on @out, in order, into @ids; how many. */
static int ids_of(struct list_head *out, int *ids)
{
	struct item *it;
	int n = 0;

	list_for_each_entry(it, out, e.node)
		ids[n++] = it->id;
	return n;
}

FIXTURE(wheel)
{
	struct uet_wheel w;
	struct item it[N];
};

FIXTURE_SETUP(wheel)
{
	int i;

	uet_wheel_init(&self->w, 1000);
	for (i = 0; i < N; i++) {
		uet_wheel_entry_init(&self->it[i].e);
		self->it[i].id = i;
	}
}

FIXTURE_TEARDOWN(wheel)
{
}

/* Each entry comes up at its tick, not before, in the order added. */
TEST_F(wheel, due_at_its_tick)
{
	int ids[N];
	LIST_HEAD(out);

	uet_wheel_add(&self->w, &self->it[0].e, 1003);
	uet_wheel_add(&self->w, &self->it[1].e, 1001);
	uet_wheel_add(&self->w, &self->it[2].e, 1003);
	uet_wheel_advance(&self->w, 1000, &out);
	EXPECT_TRUE(list_empty(&out));
	uet_wheel_advance(&self->w, 1002, &out);
	ASSERT_EQ(1, ids_of(&out, ids));
	EXPECT_EQ(1, ids[0]);
	EXPECT_FALSE(self->it[1].e.on_wheel);
	EXPECT_TRUE(self->it[0].e.on_wheel);
	INIT_LIST_HEAD(&out);
	uet_wheel_advance(&self->w, 1003, &out);
	ASSERT_EQ(2, ids_of(&out, ids));
	EXPECT_EQ(0, ids[0]);
	EXPECT_EQ(2, ids[1]);
}

/* Past deadlines come up at the next tick, far ones at the horizon. */
TEST_F(wheel, clamped_to_now_and_the_horizon)
{
	int ids[N];
	LIST_HEAD(out);

	uet_wheel_add(&self->w, &self->it[0].e, 5);
	uet_wheel_add(&self->w, &self->it[1].e, 1000 + 10 * UET_WHEEL_SLOTS);
	EXPECT_EQ(1000, self->it[0].e.due);
	EXPECT_EQ(1000 + UET_WHEEL_SLOTS - 1, self->it[1].e.due);
	uet_wheel_advance(&self->w, 1000, &out);
	ASSERT_EQ(1, ids_of(&out, ids));
	EXPECT_EQ(0, ids[0]);
	INIT_LIST_HEAD(&out);
	uet_wheel_advance(&self->w, 1000 + UET_WHEEL_SLOTS - 2, &out);
	EXPECT_TRUE(list_empty(&out));
	uet_wheel_advance(&self->w, 1000 + UET_WHEEL_SLOTS - 1, &out);
	ASSERT_EQ(1, ids_of(&out, ids));
	EXPECT_EQ(1, ids[0]);
}

/*
 * Moving an entry, on the wheel or handed out, puts it where its new
 * deadline says; taking it off leaves it on no list.
 */
TEST_F(wheel, move_and_del)
{
	int ids[N];
	LIST_HEAD(out);

	uet_wheel_add(&self->w, &self->it[0].e, 1050);
	uet_wheel_add(&self->w, &self->it[1].e, 1001);
	uet_wheel_add(&self->w, &self->it[0].e, 1001);
	uet_wheel_add(&self->w, &self->it[2].e, 1001);
	uet_wheel_del(&self->it[2].e);
	EXPECT_FALSE(self->it[2].e.on_wheel);
	EXPECT_TRUE(list_empty(&self->it[2].e.node));
	uet_wheel_advance(&self->w, 1001, &out);
	ASSERT_EQ(2, ids_of(&out, ids));
	EXPECT_EQ(1, ids[0]);
	EXPECT_EQ(0, ids[1]);
	/* handed out, added again: off @out, on the wheel */
	uet_wheel_add(&self->w, &self->it[1].e, 1100);
	ASSERT_EQ(1, ids_of(&out, ids));
	EXPECT_EQ(0, ids[0]);
	INIT_LIST_HEAD(&out);
	uet_wheel_advance(&self->w, 1099, &out);
	EXPECT_TRUE(list_empty(&out));
	uet_wheel_advance(&self->w, 1100, &out);
	ASSERT_EQ(1, ids_of(&out, ids));
	EXPECT_EQ(1, ids[0]);
}

/*
 * A scanner that comes late, even by many turns, gets everything due
 * meanwhile, oldest deadline first, and nothing twice.
 */
TEST_F(wheel, late_scanner_misses_nothing)
{
	int ids[N], i;
	LIST_HEAD(out);

	for (i = 0; i < N; i++)
		uet_wheel_add(&self->w, &self->it[i].e,
			      1000 + UET_WHEEL_SLOTS - 1 - i * 16);
	uet_wheel_advance(&self->w, 1000 + 5 * UET_WHEEL_SLOTS, &out);
	ASSERT_EQ(N, ids_of(&out, ids));
	for (i = 0; i < N; i++)
		EXPECT_EQ(N - 1 - i, ids[i]);
	INIT_LIST_HEAD(&out);
	uet_wheel_advance(&self->w, 1000 + 7 * UET_WHEEL_SLOTS, &out);
	EXPECT_TRUE(list_empty(&out));
	/* the wheel is at the new tick: a new entry is due from there */
	uet_wheel_add(&self->w, &self->it[0].e, 0);
	EXPECT_EQ(1000 + 7 * UET_WHEEL_SLOTS + 1, self->it[0].e.due);
}

/* Everything on the wheel comes up at the next tick; handed out stays out. */
TEST_F(wheel, all_due_at_the_next_tick)
{
	int ids[N];
	LIST_HEAD(out);
	LIST_HEAD(held);

	uet_wheel_add(&self->w, &self->it[0].e, 1100);
	uet_wheel_add(&self->w, &self->it[1].e, 1000);
	uet_wheel_add(&self->w, &self->it[2].e, 1050);
	uet_wheel_add(&self->w, &self->it[3].e, 1001);
	uet_wheel_advance(&self->w, 1000, &held);
	uet_wheel_all_due(&self->w);
	EXPECT_EQ(1001, self->it[0].e.due);
	uet_wheel_advance(&self->w, 1001, &out);
	/* the one due then first, the others in any order */
	ASSERT_EQ(3, ids_of(&out, ids));
	EXPECT_EQ(3, ids[0]);
	EXPECT_EQ(2, ids[1] + ids[2]);
	EXPECT_EQ(0, ids[1] * ids[2]);
	ASSERT_EQ(1, ids_of(&held, ids));
	EXPECT_EQ(1, ids[0]);
}

TEST_HARNESS_MAIN
