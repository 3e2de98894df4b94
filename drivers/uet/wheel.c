// SPDX-License-Identifier: GPL-2.0
/*
 * uet's idle wheel (wheel.h): a hashed timing wheel of one level, as in
 * Varghese and Lauck, "Hashed and Hierarchical Timing Wheels" (SOSP
 * 1987), scheme 6, with deadlines beyond the horizon parked at it rather
 * than kept in overflow lists: the caller looks at an entry again when it
 * comes up anyway.  Adding, moving and removing an entry are O(1); a tick
 * costs what is due at it.
 */
#include "wheel.h"

/* A new entry, on no list. */
void uet_wheel_entry_init(struct uet_wheel_entry *e)
{
	INIT_LIST_HEAD(&e->node);
	e->on_wheel = false;
}

/* Empty, @now the first tick to come. */
void uet_wheel_init(struct uet_wheel *w, u64 now)
{
	unsigned int i;

	for (i = 0; i < UET_WHEEL_SLOTS; i++)
		INIT_LIST_HEAD(&w->slots[i]);
	w->now = now;
}

/**
 * uet_wheel_add() - put an entry on the wheel, or move it
 * @w: the wheel
 * @e: the entry: on the wheel, handed out, or on no list
 * @due: the tick it is due at: one already past comes up at the next
 *	tick, one beyond the horizon at the horizon
 */
void uet_wheel_add(struct uet_wheel *w, struct uet_wheel_entry *e, u64 due)
{
	if (due < w->now)
		due = w->now;
	if (due > w->now + UET_WHEEL_SLOTS - 1)
		due = w->now + UET_WHEEL_SLOTS - 1;
	list_del_init(&e->node);
	e->due = due;
	e->on_wheel = true;
	list_add_tail(&e->node, &w->slots[due & (UET_WHEEL_SLOTS - 1)]);
}

/* Take @e off the wheel, or off the list it was handed out on. */
void uet_wheel_del(struct uet_wheel_entry *e)
{
	list_del_init(&e->node);
	e->on_wheel = false;
}

/**
 * uet_wheel_advance() - hand out what is due up to a tick
 * @w: the wheel
 * @now: the tick that has come; the wheel goes through every tick up to
 *	it since the last call, at most a turn of the wheel
 * @out: the entries due, in the order they fell due, are moved to its
 *	tail, no longer on the wheel
 */
void uet_wheel_advance(struct uet_wheel *w, u64 now, struct list_head *out)
{
	struct uet_wheel_entry *e;
	unsigned int n = 0;

	/* a turn covers every slot: older ticks have nothing more */
	if (now >= w->now + UET_WHEEL_SLOTS)
		w->now = now - UET_WHEEL_SLOTS + 1;
	while (w->now <= now && n++ < UET_WHEEL_SLOTS) {
		struct list_head *slot = &w->slots[w->now & (UET_WHEEL_SLOTS - 1)];

		list_for_each_entry(e, slot, node)
			e->on_wheel = false;
		list_splice_tail_init(slot, out);
		w->now++;
	}
}

/**
 * uet_wheel_all_due() - bring every entry on the wheel to the next tick
 * @w: the wheel
 *
 * For when what the deadlines were computed from changed: the caller
 * looks at each entry again at the next tick.  O(entries), once.
 */
void uet_wheel_all_due(struct uet_wheel *w)
{
	struct list_head *next = &w->slots[w->now & (UET_WHEEL_SLOTS - 1)];
	struct uet_wheel_entry *e;
	unsigned int i;

	for (i = 0; i < UET_WHEEL_SLOTS; i++) {
		struct list_head *slot = &w->slots[i];

		list_for_each_entry(e, slot, node)
			e->due = w->now;
		if (slot != next)
			list_splice_tail_init(slot, next);
	}
}
