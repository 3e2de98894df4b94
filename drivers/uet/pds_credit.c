// SPDX-License-Identifier: GPL-2.0
/*
 * RCCC in the engine, the receiver's half: credit handed out in turns.
 *
 * An initiator with RCCC names in each request (RUD_CC/ROD_CC) and in
 * REQ_CREDIT control packets the credit it wants, a count that only grows
 * (rccc.h).  Its target PDC, owed credit, waits its turn in the device's
 * @crediting, referenced.  The device's credit timer gives the first PDC
 * at most %UET_RCCC_GRANT_MAX quanta, tells its initiator in a CREDIT
 * control packet with the PDC's count of credit granted, and puts it
 * last if it is owed more; then it waits for as long as the device's
 * link takes for what it granted (at 99% of @link_mbps): the senders
 * together send no faster than the receiver's link drains.  uet-htsim's
 * UecPullPacer, a round robin of pulls at line rate.
 *
 * The pace keeps its own clock, @credit_at: when the link will have
 * drained all granted so far.  A timer that fires late grants what its
 * lateness owes the link, up to %UET_CREDIT_LAG_NS of it (measured in
 * the lab under TCG, a timer whose pause restarted from its late firing
 * lost 4-5% of the link); a device whose turns ran out does not save up
 * the time it rested.
 */
#include <linux/hrtimer.h>
#include <linux/ktime.h>
#include <linux/list.h>
#include <linux/spinlock.h>

#include "counters.h"
#include "pds_priv.h"
#include "uet.h"
#include "wire.h"

/* A turn that only answers a REQ_CREDIT takes as long as 4 quanta. */
#define UET_CREDIT_IDLE_QUANTA	4

/**
 * pdc_credit_want() - target: the initiator of @pdc asked for credit
 * @pdc: the target PDC, locked
 * @target: its count of credit wanted, quanta (24 bits)
 * @answer: a REQ_CREDIT, which gets a turn (a CREDIT) even if the count
 *	did not grow: the initiator may have lost the last CREDIT, which
 *	only a CREDIT makes good
 *
 * A count that grew puts the PDC in the device's turns, if it is not in
 * them, and starts the credit timer, if it is not running, for when the
 * link has drained the last grant (@credit_at).
 */
void pdc_credit_want(struct uet_pds_pdc *pdc, u32 target, bool answer)
{
	struct uet_pds *pds = &pdc->udev->pds;
	bool grew;

	lockdep_assert_held(&pdc->lock);
	if (pdc->initiator || pdc->dead)
		return;
	spin_lock(&pds->credit_lock);
	grew = uet_rccc_want(&pdc->credit_rx, target);
	if ((grew || answer) && list_empty(&pdc->crediting)) {
		pdc_get(pdc);
		list_add_tail(&pdc->crediting, &pds->crediting);
		if (!pds->credit_armed) {
			/* a rest is not saved up */
			pds->credit_at = max(pds->credit_at, ktime_get_ns());
			pds->credit_armed = true;
			hrtimer_start(&pds->credit_timer,
				      ns_to_ktime(pds->credit_at),
				      HRTIMER_MODE_ABS_SOFT);
		}
	}
	spin_unlock(&pds->credit_lock);
}

/*
 * The next PDC's turn: the first of @crediting alive, its list reference
 * passed to the caller if it leaves the list, else another taken; dead
 * ones met on the way are left in @dead.  Sets @q to the quanta granted
 * (0 for a turn that answers a REQ_CREDIT only) and @count to the PDC's
 * count after them.
 */
static struct uet_pds_pdc *credit_next(struct uet_pds *pds, u32 *q,
				       u32 *count, struct list_head *dead)
{
	struct uet_pds_pdc *pdc, *tmp;

	lockdep_assert_held(&pds->credit_lock);
	list_for_each_entry_safe(pdc, tmp, &pds->crediting, crediting) {
		if (READ_ONCE(pdc->dead)) {
			list_move_tail(&pdc->crediting, dead);
			continue;
		}
		*q = uet_rccc_grant(&pdc->credit_rx, UET_RCCC_GRANT_MAX);
		*count = pdc->credit_rx.granted;
		if (uet_rccc_owed(&pdc->credit_rx)) {
			list_move_tail(&pdc->crediting, &pds->crediting);
			pdc_get(pdc);
		} else {
			list_del_init(&pdc->crediting);
		}
		return pdc;
	}
	return NULL;
}

/*
 * What one run of the credit timer hands out: the turns due, and those
 * due within the next 20 us, at most 16 of them.  At 40 Mb/s a turn of
 * 16 KiB pauses 3.3 ms, one turn a run; at 100 Gb/s 1.3 us, and the timer
 * would run back to back.
 */
#define UET_CREDIT_RUN_NS	(20 * NSEC_PER_USEC)
#define UET_CREDIT_RUN_TURNS	16
/*
 * The most of its lateness a timer makes good: 1 ms of the link (5 KB at
 * 40 Mb/s), and no more than one run's turns (21 us at 100 Gb/s): what is
 * made good reaches the link's queue at once.  In the lab under TCG the
 * timer fired up to a few ms late; making good up to 4 ms there stood a
 * queue of 10 ms at 8:1, 1 ms none (Documentation/congestion.rst).
 */
#define UET_CREDIT_LAG_NS	NSEC_PER_MSEC
#define UET_CREDIT_LAG_QUANTA	(UET_CREDIT_RUN_TURNS * UET_RCCC_GRANT_MAX)

/* A PDC's turns in one run: the last count granted. */
struct credit_turn {
	struct uet_pds_pdc *pdc;
	u32 count;
};

/* Send each PDC of @turn its count in a CREDIT, and let it go. */
static void credit_send(struct credit_turn *turn, unsigned int n)
{
	unsigned int i;

	for (i = 0; i < n; i++) {
		struct uet_pds_pdc *pdc = turn[i].pdc;

		spin_lock(&pdc->lock);
		if (!pdc->dead)
			pdc_send_ctl(pdc, UET_PDS_CTL_CREDIT, turn[i].count);
		pdc_unlock(pdc);
		pdc_put(pdc);
	}
}

/*
 * The credit timer: the turns due in order, each moving @credit_at on by
 * the time the link takes for its grant; then it sleeps until the next is
 * due.  A PDC with turns in a row (the only one owed) gets one CREDIT of
 * the last count.
 */
static enum hrtimer_restart pds_credit_turn(struct hrtimer *t)
{
	struct uet_pds *pds = container_of(t, struct uet_pds, credit_timer);
	struct uet_dev *udev = container_of(pds, struct uet_dev, pds);
	struct credit_turn turn[UET_CREDIT_RUN_TURNS];
	struct uet_pds_pdc *pdc, *d, *tmp;
	unsigned int n = 0, i;
	u64 rate, now = ktime_get_ns(), lag, due, next;
	u32 q, count, granted = 0;
	LIST_HEAD(dead);
	bool more;

	/* Mb/s to bytes/s */
	rate = (u64)READ_ONCE(udev->cfg.link_mbps) *
	       (USEC_PER_SEC / BITS_PER_BYTE);
	spin_lock(&pds->credit_lock);
	lag = min_t(u64, UET_CREDIT_LAG_NS,
		    uet_rccc_pace_ns(UET_CREDIT_LAG_QUANTA, rate));
	if (now > lag)
		pds->credit_at = max(pds->credit_at, now - lag);
	due = now + UET_CREDIT_RUN_NS;
	for (i = 0; i < UET_CREDIT_RUN_TURNS && pds->credit_at < due; i++) {
		pdc = credit_next(pds, &q, &count, &dead);
		if (!pdc)
			break;
		granted += q;
		pds->credit_at += uet_rccc_pace_ns(q ?: UET_CREDIT_IDLE_QUANTA,
						   rate);
		if (n && turn[n - 1].pdc == pdc) {
			turn[n - 1].count = count;
			pdc_put(pdc);	/* turn[n - 1] holds one too */
			continue;
		}
		turn[n].pdc = pdc;
		turn[n++].count = count;
	}
	more = !list_empty(&pds->crediting);
	if (!more)
		pds->credit_armed = false;
	next = pds->credit_at;
	spin_unlock(&pds->credit_lock);

	list_for_each_entry_safe(d, tmp, &dead, crediting) {
		list_del_init(&d->crediting);
		pdc_put(d);
	}
	credit_send(turn, n);
	uet_count(udev, UET_CNT_CC_CREDIT_GRANTED,
		  (u64)granted * UET_RCCC_QUANTUM);
	if (!more)
		return HRTIMER_NORESTART;
	/* still behind (a run's turns ran out): the next softirq catches up */
	hrtimer_set_expires(t, ns_to_ktime(max(next, now + 1)));
	return HRTIMER_RESTART;
}

/* The device's turns: none yet. */
void pds_credit_init(struct uet_pds *pds)
{
	spin_lock_init(&pds->credit_lock);
	INIT_LIST_HEAD(&pds->crediting);
	hrtimer_init(&pds->credit_timer, CLOCK_MONOTONIC,
		     HRTIMER_MODE_ABS_SOFT);
	pds->credit_timer.function = pds_credit_turn;
}

/*
 * The device's turns end: the timer stopped, the PDCs let go.  Nothing
 * asks for credit any more: the device receives no packets.
 */
void pds_credit_fini(struct uet_pds *pds)
{
	struct uet_pds_pdc *pdc, *tmp;
	LIST_HEAD(left);

	hrtimer_cancel(&pds->credit_timer);
	spin_lock_bh(&pds->credit_lock);
	list_splice_init(&pds->crediting, &left);
	pds->credit_armed = false;
	spin_unlock_bh(&pds->credit_lock);
	list_for_each_entry_safe(pdc, tmp, &left, crediting) {
		list_del_init(&pdc->crediting);
		pdc_put(pdc);
	}
}
