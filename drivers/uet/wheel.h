/* SPDX-License-Identifier: GPL-2.0 */
/*
 * uet's idle wheel: what a device's PDCs wait for (idle close, reclaim,
 * a smaller PSN table), by the tick it falls due, so that the device's
 * scanner visits a PDC about once per deadline instead of every PDC on
 * every tick.  Pure bookkeeping, no locks or timers: the caller holds
 * its lock and says what time it is, in ticks.
 *
 * A deadline is a hint: an entry comes up when its tick has come, the
 * caller looks at what the PDC's state says now and adds it again with
 * its new deadline, or acts.  What happens meanwhile (traffic) touches
 * nothing here.  Deadlines beyond the horizon (UET_WHEEL_SLOTS - 1
 * ticks) come up at the horizon, and are looked at again then.
 */
#ifndef _UET_WHEEL_H
#define _UET_WHEEL_H

#include <linux/list.h>
#include <linux/types.h>

/* Ticks the wheel sees ahead: its slots, a power of two. */
#define UET_WHEEL_SLOTS		128

/**
 * struct uet_wheel_entry - what waits on the wheel
 * @node: in a slot, on the list uet_wheel_advance() handed it out on, or
 *	on none (empty).
 * @due: the tick it is due at.
 * @on_wheel: in a slot (else handed out, or never added).
 */
struct uet_wheel_entry {
	struct list_head node;
	u64 due;
	bool on_wheel;
};

/**
 * struct uet_wheel - entries by the tick they are due
 * @slots: entries due at tick t are in slot t modulo UET_WHEEL_SLOTS.
 * @now: the next tick to hand out: every entry due before it is out.
 */
struct uet_wheel {
	struct list_head slots[UET_WHEEL_SLOTS];
	u64 now;
};

void uet_wheel_entry_init(struct uet_wheel_entry *e);
void uet_wheel_init(struct uet_wheel *w, u64 now);
void uet_wheel_add(struct uet_wheel *w, struct uet_wheel_entry *e, u64 due);
void uet_wheel_del(struct uet_wheel_entry *e);
void uet_wheel_advance(struct uet_wheel *w, u64 now, struct list_head *out);
void uet_wheel_all_due(struct uet_wheel *w);

#endif /* _UET_WHEEL_H */
