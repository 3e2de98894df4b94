// SPDX-License-Identifier: GPL-2.0
/*
 * The transmit scheduler's bookkeeping of one PDC (sched.h): messages cut
 * into requests as PSNs become free, and read requests sent again.
 *
 * The table of what each PSN in flight carries grows with what is in
 * flight, and goes with the scheduler, which a PDC holds only while
 * traffic flows: a quiet PDC holds none.
 *
 * Reissues: a read request acknowledged without its data (the ACK that
 * carried the data was lost, and a later one covered the PSN) is sent
 * again under a new PSN, remembered in an entry of its own.  New requests
 * are cut only while no reissue waits, so read requests in flight and
 * waiting together never exceed what was in flight when the first
 * reissue came: the window.
 */
#include <linux/compiler.h>
#include <linux/errno.h>
#include <linux/minmax.h>
#include <linux/slab.h>

#include "sched.h"

/**
 * struct uet_sched_reissue - a read request to send again
 * @node: on struct uet_sched.reissue.
 * @tx: the request, as it was in flight, less %UET_PDS_TX_ANSWERED.
 */
struct uet_sched_reissue {
	struct list_head node;
	struct uet_pds_tx tx;
};

/**
 * uet_sched_init() - empty queues, no table yet
 * @s: the scheduler
 * @window: the PDC's tracking window, a power of two; 0 for a PDC that
 *	sends no requests (a target's): nothing is ever queued
 *
 * The table comes with the first PSN in flight (uet_sched_room()), at
 * %UET_SCHED_TABLE_MIN entries (or @window, if smaller), grows with what
 * is in flight and goes with the scheduler (uet_sched_fini()), which a
 * PDC keeps only while traffic flows.
 */
void uet_sched_init(struct uet_sched *s, u32 window)
{
	INIT_LIST_HEAD(&s->sendq);
	INIT_LIST_HEAD(&s->reissue);
	s->mask = 0;
	s->window = window;
	s->txq = NULL;
}

/*
 * Move the table to one of @size entries, those of PSNs [@una, @nxt)
 * with it; it keeps the old one if memory is short.
 */
static bool sched_resize(struct uet_sched *s, u32 size, u32 una, u32 nxt,
			 gfp_t gfp)
{
	struct uet_pds_tx *txq = kcalloc(size, sizeof(*txq), gfp);
	u32 psn;

	if (!txq)
		return false;
	for (psn = una; psn != nxt; psn++)
		txq[psn & (size - 1)] = *uet_sched_tx(s, psn);
	kfree(s->txq);
	s->txq = txq;
	s->mask = size - 1;
	return true;
}

/**
 * uet_sched_room() - make room in the table for one more PSN in flight
 * @s: the scheduler of a PDC that sends
 * @una: the oldest PSN in flight (@nxt if none)
 * @nxt: the next PSN, to be cut: fewer than the window ahead of @una
 * @gfp: how to allocate a table, or a larger one
 *
 * The first PSN in flight brings the smallest table; a full table
 * doubles, the entries of PSNs [@una, @nxt) moving with it.  It is full
 * only with that many PSNs in flight: if memory is short, the PDC cuts
 * again once their ACKs have made room (with none in flight it fails
 * what waits).
 *
 * Return: whether @nxt has its entry.
 */
bool uet_sched_room(struct uet_sched *s, u32 una, u32 nxt, gfp_t gfp)
{
	if (!s->txq)
		return s->window &&
		       sched_resize(s, min_t(u32, s->window, UET_SCHED_TABLE_MIN),
				    una, nxt, gfp);
	if (nxt - una <= s->mask)
		return true;
	return s->mask + 1 < s->window &&
	       sched_resize(s, (s->mask + 1) * 2, una, nxt, gfp);
}

/**
 * uet_sched_fini() - free what the scheduler holds
 * @s: the scheduler, initialised (whether or not that succeeded)
 *
 * Messages still queued are the caller's (uet_sched_take() hands them
 * out first); reads waiting to be reissued are forgotten.
 */
void uet_sched_fini(struct uet_sched *s)
{
	struct uet_sched_reissue *r, *tmp;

	list_for_each_entry_safe(r, tmp, &s->reissue, node) {
		list_del(&r->node);
		kfree(r);
	}
	kfree(s->txq);
	s->txq = NULL;
}

/* Queue @msg, its @ncut 0, behind the messages queued before it. */
void uet_sched_queue(struct uet_sched *s, struct uet_pds_msg *msg)
{
	list_add_tail(&msg->node, &s->sendq);
}

/* Take the oldest read to reissue into @tx; false if none waits. */
static bool reissue_pop(struct uet_sched *s, struct uet_pds_tx *tx)
{
	struct uet_sched_reissue *r;

	r = list_first_entry_or_null(&s->reissue, struct uet_sched_reissue,
				     node);
	if (!r)
		return false;
	*tx = r->tx;
	list_del(&r->node);
	kfree(r);
	return true;
}

/**
 * uet_sched_cut() - the next request, given @psn
 * @s: the scheduler, with requests queued (uet_sched_queued())
 * @psn: the PSN the request goes out under, not in flight, with its
 *	entry (uet_sched_room())
 *
 * A read to reissue goes first, then the oldest message's next request;
 * a message leaves the queue with its last request (%UET_PDS_TX_EOM).
 */
void uet_sched_cut(struct uet_sched *s, u32 psn)
{
	struct uet_pds_tx *tx = uet_sched_tx(s, psn);
	struct uet_pds_msg *m;

	if (reissue_pop(s, tx))
		return;
	m = list_first_entry(&s->sendq, struct uet_pds_msg, node);
	tx->msg = m;
	tx->off = uet_seg_off(&m->seg, m->ncut);
	tx->len = uet_seg_len(&m->seg, m->ncut);
	tx->flags = UET_PDS_TX_USED | (m->read ? UET_PDS_TX_READ : 0);
	if (++m->ncut == m->seg.count) {
		tx->flags |= UET_PDS_TX_EOM;
		list_del_init(&m->node);
	}
}

/*
 * The most messages uet_sched_backlog() looks at: it runs with every
 * request sent, so it stays short.
 */
#define UET_SCHED_BACKLOG_MSGS	16

/**
 * uet_sched_backlog() - the bytes waiting to be cut
 * @s: the scheduler
 * @overhead: bytes each request adds to its payload
 * @limit: no need to count past this
 *
 * Reads to reissue and the oldest %UET_SCHED_BACKLOG_MSGS messages are
 * counted, until @limit is reached.
 *
 * Return: the bytes queued, with @overhead for each request; at least
 * what was counted, at most @limit.
 */
u64 uet_sched_backlog(const struct uet_sched *s, u32 overhead, u64 limit)
{
	const struct uet_sched_reissue *r;
	const struct uet_pds_msg *m;
	unsigned int n = 0;
	u64 bytes = 0;

	list_for_each_entry(r, &s->reissue, node) {
		bytes += r->tx.len + overhead;
		if (bytes >= limit)
			return limit;
	}
	list_for_each_entry(m, &s->sendq, node) {
		bytes += m->seg.len - uet_seg_off(&m->seg, m->ncut) +
			 (u64)(m->seg.count - m->ncut) * overhead;
		if (bytes >= limit || ++n == UET_SCHED_BACKLOG_MSGS)
			break;
	}
	return min(bytes, limit);
}

/* @psn, not in flight, carries the PDC's CLOSE command. */
void uet_sched_close(struct uet_sched *s, u32 psn)
{
	struct uet_pds_tx *tx = uet_sched_tx(s, psn);

	*tx = (struct uet_pds_tx) { .flags = UET_PDS_TX_USED | UET_PDS_TX_CLOSE };
}

/**
 * uet_sched_finish() - the PDC is done with the request of @psn
 * @s: the scheduler
 * @psn: the PSN: acknowledged (*@err 0), or given up
 * @err: 0 or why it failed; set to -ENOMEM if a read to reissue could
 *	not be remembered (it then fails)
 * @done: with %UET_SCHED_DONE, filled in with the request
 * @gfp: how to allocate a reissue
 *
 * The PSN's entry is free afterwards; a second call about it tells
 * nothing.
 *
 * Return: what the caller is to do, enum uet_sched_fate.
 */
enum uet_sched_fate uet_sched_finish(struct uet_sched *s, u32 psn, int *err,
				     struct uet_pds_tx *done, gfp_t gfp)
{
	struct uet_pds_tx *tx = uet_sched_tx(s, psn);
	struct uet_sched_reissue *r;
	u16 flags = tx->flags;

	if (!(flags & UET_PDS_TX_USED))
		return UET_SCHED_NONE;
	tx->flags = 0;
	if (flags & UET_PDS_TX_CLOSE)
		return UET_SCHED_NONE;
	*done = *tx;
	/* a cancelled read has nobody to take its data: no reissue */
	if (!*err && (flags & UET_PDS_TX_READ) &&
	    !(flags & UET_PDS_TX_ANSWERED) && !READ_ONCE(done->msg->cancelled)) {
		r = kmalloc(sizeof(*r), gfp);
		if (r) {
			r->tx = *done;
			/* a new PSN: its first send is timed again */
			r->tx.flags = flags & ~UET_PDS_TX_RESENT;
			list_add_tail(&r->node, &s->reissue);
			return UET_SCHED_REISSUE;
		}
		*err = -ENOMEM;
	}
	return UET_SCHED_DONE;
}

/**
 * uet_sched_take() - take out the oldest of what waits to be cut
 * @s: the scheduler
 * @msg: set to its message
 * @n: set to how many of the message's requests it stands for
 *
 * Reads waiting to be reissued come first, one request each, then the
 * queued messages with the requests not yet cut.  For failing what is
 * queued: every call takes one entry out.
 *
 * Return: false once nothing is queued.
 */
bool uet_sched_take(struct uet_sched *s, struct uet_pds_msg **msg, u32 *n)
{
	struct uet_pds_tx tx;
	struct uet_pds_msg *m;

	if (reissue_pop(s, &tx)) {
		*msg = tx.msg;
		*n = 1;
		return true;
	}
	m = list_first_entry_or_null(&s->sendq, struct uet_pds_msg, node);
	if (!m)
		return false;
	list_del_init(&m->node);
	*msg = m;
	*n = m->seg.count - m->ncut;
	return true;
}

/**
 * uet_sched_drop() - take out the oldest of what waits, if cancelled
 * @s: the scheduler
 * @msg: set to its message
 * @n: set to how many of the message's requests it stands for
 *
 * What uet_sched_take() would take out next, taken out only if its
 * message is cancelled (struct uet_pds_msg): the caller calls it until it
 * returns false before cutting, so that nothing of a cancelled message
 * is cut, and reports what it took out as failed.
 *
 * Return: whether something was taken out.
 */
bool uet_sched_drop(struct uet_sched *s, struct uet_pds_msg **msg, u32 *n)
{
	struct uet_sched_reissue *r;
	struct uet_pds_msg *m;

	r = list_first_entry_or_null(&s->reissue, struct uet_sched_reissue,
				     node);
	m = r ? r->tx.msg : list_first_entry_or_null(&s->sendq,
						     struct uet_pds_msg, node);
	if (!m || !READ_ONCE(m->cancelled))
		return false;
	return uet_sched_take(s, msg, n);
}
