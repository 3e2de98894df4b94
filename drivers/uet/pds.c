// SPDX-License-Identifier: GPL-2.0
/*
 * uet PDS manager: the packet delivery contexts (PDCs) of a device.
 *
 * PDCs are created on first use: an initiator's first send to {target,
 * job, traffic class, mode} creates one and sends at once with SYN set
 * (zero-RTT); the target creates its side from the first SYN request it
 * sees.  The reliability decisions are the core's (pdc.c), the choice of
 * what to send next the scheduler's (sched.c); the PDS turns them into
 * packets, queues and timers, in four files (pds_priv.h): the PDC objects
 * (pds_pdc.c), the initiator (pds_tx.c), the target (pds_rx.c), and this
 * one, the device's: its scanner, the control plane's requests, teardown.
 *
 * Closing: a device's scanner (a delayed work, every UET_PDS_SCAN_MS,
 * looking only at the PDCs due on the device's wheel, wheel.h)
 * closes initiator PDCs idle for the device's pdc_idle_ms: it takes the
 * PDC out of the initiator table, so the next send opens a new one, and
 * once nothing is queued or in flight sends a CLOSE control packet on the
 * PDC's next PSN (1-RTT close).  The target acknowledges it and both sides
 * give the PDC back to its pool.  The scanner also reclaims every PDC
 * that reached CLOSED (cleanly or in error), and target PDCs idle for
 * UET_PDS_TGT_IDLE_FACTOR times as long, whose initiator went away.
 */
#include <linux/hash.h>
#include <linux/ipv6.h>
#include <linux/jhash.h>
#include <linux/random.h>
#include <linux/rculist.h>
#include <linux/slab.h>
#include <linux/udp.h>
#include <net/ipv6.h>
#include <uapi/linux/uet.h>

#include "counters.h"
#include "pds_priv.h"
#include "psn.h"
#include "ses.h"
#include "socket.h"
#include "uet.h"
#include "wire.h"

/*
 * A target PDC idle this many times the initiators' idle timeout has lost
 * its initiator (or the initiator's CLOSE): it is reclaimed.
 */
#define UET_PDS_TGT_IDLE_FACTOR	4

static void pdc_teardown(struct uet_pds_pdc *pdc, int err)
{
	struct uet_pds *pds = &pdc->udev->pds;
	struct uet_pds_live *live;

	spin_lock_bh(&pds->wheel_lock);
	uet_wheel_del(&pdc->idle);
	spin_unlock_bh(&pds->wheel_lock);
	spin_lock_bh(&pdc->lock);
	pdc->dead = true;
	/* dead, it gets no live state, and keeps what it has */
	live = pdc->live;
	pdc_unlock_bh(pdc);
	if (live) {
		hrtimer_cancel(&live->timer);
		hrtimer_cancel(&live->pace);
	}
	spin_lock_bh(&pdc->lock);
	pdc_fail_all(pdc, err);
	pdc_unlock_bh(pdc);
	uet_count(pdc->udev, UET_CNT_PDCS_CLOSED, 1);
	pdc_put(pdc);
}

/* Give @pdc back to its pool.  Context: the scanner. */
static void pdc_reclaim(struct uet_pds *pds, struct uet_pds_pdc *pdc)
{
	pdc_unhash(pdc);
	spin_lock_bh(&pds->lock);
	src_put(pds, pdc->src);
	if (pdc->reserved)
		pds->reserved--;
	else
		pds->general--;
	spin_unlock_bh(&pds->lock);
	xa_erase_bh(&pds->pdcs, pdc->lpdcid);
	pdc_event(pdc, false);
	pdc_teardown(pdc, -ECONNRESET);
}

/*
 * Made, but without a core ever since (no memory for it when its first
 * packet came): nothing to close, nothing owed.
 */
static bool pdc_stillborn(const struct uet_pds_pdc *pdc)
{
	return !pdc->live && pdc->saved.state == UET_PDC_CLOSED;
}

/* No traffic for @idle jiffies, and nothing owed either way. */
static bool pdc_idle(const struct uet_pds_pdc *pdc, unsigned long idle)
{
	return pdc_quiet(pdc) && time_after(jiffies, pdc->last_active + idle);
}

/*
 * When the scanner is to look at @pdc again, in jiffies: when it could
 * have been idle long enough to close (an initiator) or to be reclaimed
 * (a target), and a scan period after its last traffic while it has live
 * state, which a quiet PDC does without (pdc_sleep(); but for a target
 * with a hole open, a dead initiator's, which waits for the deadline),
 * or none yet (pdc_stillborn()).
 * Later than the wheel sees (pdc-idle-ms 0: never idle) is at the
 * wheel's horizon.
 */
static unsigned long pdc_next_look(const struct uet_pds_pdc *pdc,
				   unsigned long idle)
{
	unsigned long far = MAX_JIFFY_OFFSET, at = jiffies + far;

	lockdep_assert_held(&pdc->lock);
	if (idle && !pdc->close_wanted)
		at = pdc->last_active +
		     (pdc->initiator ? idle : idle * UET_PDS_TGT_IDLE_FACTOR);
	if ((pdc->live && !pdc->live->core.rx.holes) || pdc_stillborn(pdc)) {
		unsigned long sleep = pdc->last_active +
				      msecs_to_jiffies(UET_PDS_SCAN_MS);

		if (time_before(sleep, at))
			at = sleep;
	}
	/* pdc_idle() wants a jiffy past the deadline */
	return at + 1;
}

/*
 * Look at @pdc, which came up on the wheel: let go of its live state if
 * it is quiet, close it if idle, reclaim it if done with; put it back on
 * the wheel for its next deadline unless reclaimed.  Either way it leaves
 * the scanner's list of what came up.
 */
static void pds_look(struct uet_pds *pds, struct uet_pds_pdc *pdc,
		     unsigned long idle)
{
	bool close = false, reclaim;

	spin_lock_bh(&pdc->lock);
	pdc_ra_lapse(pdc);
	if (pdc_idle(pdc, msecs_to_jiffies(UET_PDS_SCAN_MS)))
		pdc_sleep(pdc);
	/* whoever made it had a scan period to give it a core */
	if (pdc_stillborn(pdc) &&
	    time_after(jiffies, pdc->last_active +
				msecs_to_jiffies(UET_PDS_SCAN_MS)))
		pdc->reclaim = true;
	if (idle && !pdc->dead && !pdc->close_wanted) {
		if (pdc->initiator)
			close = pdc_idle(pdc, idle);
		else if (pdc_idle(pdc, idle * UET_PDS_TGT_IDLE_FACTOR))
			pdc->reclaim = true;
	}
	/* a PDC to close that nothing else moves on (it sent nothing) */
	if (pdc->close_wanted && !pdc->dead)
		pdc_close_progress(pdc);
	reclaim = pdc->reclaim && !pdc->dead;
	/* a reclaimed PDC leaves the wheel in pdc_teardown() */
	if (!reclaim)
		pdc_wheel_add(pdc, pdc_next_look(pdc, idle));
	pdc_unlock_bh(pdc);
	if (reclaim)
		pdc_reclaim(pds, pdc);
	else if (close)
		pdc_start_close(pdc);
}

/*
 * The scanner, every UET_PDS_SCAN_MS: looks at the PDCs whose tick has
 * come on the wheel, each about once per deadline, not at every PDC.
 * Only it and uet_pds_fini(), which stops it first, free PDCs, so a PDC
 * on the wheel stays valid here.  What it takes off the wheel is its
 * own: pdc_wheel_sooner() leaves it alone.
 */
static void pds_scan(struct work_struct *work)
{
	struct uet_pds *pds = container_of(to_delayed_work(work),
					   struct uet_pds, scan);
	struct uet_dev *udev = container_of(pds, struct uet_dev, pds);
	unsigned long idle = msecs_to_jiffies(READ_ONCE(udev->cfg.pdc_idle_ms));
	LIST_HEAD(due);

	spin_lock_bh(&pds->wheel_lock);
	uet_wheel_advance(&pds->wheel, pds_tick_of(jiffies), &due);
	spin_unlock_bh(&pds->wheel_lock);
	/* each look takes its PDC off @due, back on the wheel or gone */
	while (!list_empty(&due))
		pds_look(pds, list_first_entry(&due, struct uet_pds_pdc,
					       idle.node), idle);
	schedule_delayed_work(&pds->scan, msecs_to_jiffies(UET_PDS_SCAN_MS));
}

/**
 * uet_pds_idle_changed() - the device's pdc-idle-ms changed
 * @udev: the device
 *
 * The PDCs' deadlines on the wheel come from the old value: every PDC on
 * it is looked at again in the next tick, with the new one (once, O(PDCs)).
 */
void uet_pds_idle_changed(struct uet_dev *udev)
{
	spin_lock_bh(&udev->pds.wheel_lock);
	uet_wheel_all_due(&udev->pds.wheel);
	spin_unlock_bh(&udev->pds.wheel_lock);
}

/**
 * uet_pds_close() - close a PDC
 * @udev: its device
 * @lpdcid: its local PDC identifier
 *
 * An initiator PDC leaves the initiator table at once (new sends open
 * another) and sends CLOSE once what it holds is delivered; a target PDC
 * asks its initiator to close it (REQ_CLOSE).
 *
 * Return: 0, or -ENOENT when there is no such PDC.
 */
int uet_pds_close(struct uet_dev *udev, u16 lpdcid)
{
	struct uet_pds_pdc *pdc;

	rcu_read_lock();
	pdc = xa_load(&udev->pds.pdcs, lpdcid);
	if (pdc && !refcount_inc_not_zero(&pdc->ref))
		pdc = NULL;
	rcu_read_unlock();
	if (!pdc)
		return -ENOENT;
	if (pdc->initiator) {
		pdc_start_close(pdc);
	} else {
		spin_lock_bh(&pdc->lock);
		if (!pdc->dead)
			pdc_send_ctl(pdc, UET_PDS_CTL_REQ_CLOSE, 0);
		pdc_unlock_bh(pdc);
	}
	pdc_put(pdc);
	return 0;
}

/**
 * uet_pds_init() - the PDS of a new device
 * @udev: the device
 *
 * Return: 0, or -ENOMEM.
 */
int uet_pds_init(struct uet_dev *udev)
{
	int err;

	err = pds_tables_init(&udev->pds);
	if (err)
		return err;
	spin_lock_init(&udev->pds.lock);
	spin_lock_init(&udev->pds.wheel_lock);
	uet_wheel_init(&udev->pds.wheel, pds_tick_of(jiffies));
	udev->pds.seed = get_random_u32();
	ratelimit_state_init(&udev->pds.answers, UET_PDS_ANSWER_INTERVAL,
			     UET_PDS_ANSWER_BURST);
	/* no "callbacks suppressed" in the kernel log */
	ratelimit_set_flags(&udev->pds.answers, RATELIMIT_MSG_ON_RELEASE);
	hash_init(udev->pds.srcs);
	xa_init_flags(&udev->pds.pdcs, XA_FLAGS_ALLOC1 | XA_FLAGS_LOCK_BH);
	INIT_DELAYED_WORK(&udev->pds.scan, pds_scan);
	schedule_delayed_work(&udev->pds.scan, msecs_to_jiffies(UET_PDS_SCAN_MS));
	spin_lock_init(&udev->pds.tx_lock);
	INIT_LIST_HEAD(&udev->pds.tx_waiting);
	spin_lock_init(&udev->pds.ccx_lock);
	hash_init(udev->pds.ccxs);
	INIT_WORK(&udev->pds.tx_work, pds_tx_work);
	pds_credit_init(&udev->pds);
	return 0;
}

/**
 * uet_pds_fini() - tear down every PDC of @udev
 * @udev: a device that receives no more packets (uet_socket_detach())
 *
 * Outstanding requests complete with -ENETDOWN.
 */
void uet_pds_fini(struct uet_dev *udev)
{
	struct uet_pds *pds = &udev->pds;
	struct uet_pds_pdc *pdc;
	unsigned long id;

	cancel_delayed_work_sync(&pds->scan);
	xa_for_each(&pds->pdcs, id, pdc) {
		pdc_unhash(pdc);
		spin_lock_bh(&pds->lock);
		src_put(pds, pdc->src);
		spin_unlock_bh(&pds->lock);
		xa_erase_bh(&pds->pdcs, id);
		pdc_teardown(pdc, -ENETDOWN);
	}
	/* detached, the device no longer hears that the qdiscs drained */
	cancel_work_sync(&pds->tx_work);
	pds_tx_unwait_all(pds);
	pds_credit_fini(pds);
	xa_destroy(&pds->pdcs);
	pds_tables_destroy(pds);
	synchronize_rcu();
}

/**
 * uet_pds_show() - one line per PDC, for debugfs
 * @m: the seq_file
 * @udev: the device
 *
 * Return: 0.
 */
int uet_pds_show(struct seq_file *m, struct uet_dev *udev)
{
	const struct uet_pds_live *live;
	struct uet_pds_pdc *pdc;
	struct uet_pdc tmp;
	unsigned long id;

	seq_puts(m, "lpdcid rpdcid role state mode raddr una nxt cack rto_us retransmits timeouts delivered ooo dups acks psn_table cwnd\n");
	rcu_read_lock();
	xa_for_each(&udev->pds.pdcs, id, pdc) {
		const struct uet_pdc *c;

		spin_lock_bh(&pdc->lock);
		c = pdc_core(pdc, &tmp);
		live = pdc->dead ? NULL : pdc->live;
		seq_printf(m, "%u %u %s %s %s %pI6c %u %u %u %llu %llu %llu %llu %llu %llu %llu %u %u\n",
			   pdc->lpdcid, pdc->rpdcid,
			   pdc->initiator ? "ini" : "tgt",
			   uet_pdc_state_name(c->state),
			   uet_pdc_mode_name(c->cfg.mode), &pdc->key.raddr,
			   c->tx.una, c->tx.nxt, c->rx.cack,
			   div_u64(uet_pdc_rto(c), NSEC_PER_USEC),
			   c->cnt[UET_PDC_CNT_TX_RETRANSMITS],
			   c->cnt[UET_PDC_CNT_TX_TIMEOUTS],
			   c->cnt[UET_PDC_CNT_RX_DELIVERED],
			   c->cnt[UET_PDC_CNT_RX_OUT_OF_ORDER],
			   c->cnt[UET_PDC_CNT_RX_DUPLICATES],
			   c->cnt[UET_PDC_CNT_RX_ACKS],
			   live && live->sched.txq ? live->sched.mask + 1 : 0,
			   live && live->cc_on ?
			   READ_ONCE(live->ccx->cc.cwnd) : 0);
		pdc_unlock_bh(pdc);
	}
	rcu_read_unlock();
	return 0;
}

static void pdc_snapshot(struct uet_pds_pdc *pdc, struct uet_pdc_info *info)
{
	struct uet_pdc tmp;
	const struct uet_pdc *c = pdc_core(pdc, &tmp);

	memset(info, 0, sizeof(*info));
	info->peer = pdc->key.raddr;
	info->job = pdc->key.job;
	info->lpdcid = pdc->lpdcid;
	info->rpdcid = pdc->rpdcid;
	info->state = c->state;
	info->mode = c->cfg.mode;
	info->tc = pdc->key.tc;
	info->initiator = pdc->initiator;
	info->tx_una = c->tx.una;
	info->tx_nxt = c->tx.nxt;
	info->rx_cack = c->rx.cack;
	info->in_flight = uet_pdc_tx_in_flight(c);
	info->srtt_ns = c->rtt.seeded ? c->rtt.srtt : 0;
	info->rto_ns = uet_pdc_rto(c);
	info->retransmits = c->cnt[UET_PDC_CNT_TX_RETRANSMITS];
	info->timeouts = c->cnt[UET_PDC_CNT_TX_TIMEOUTS];
	/* a dead PDC's live state is its teardown's */
	info->cc_on = pdc->live && !pdc->dead && pdc->live->cc_on;
	if (info->cc_on)
		pds_ccx_read(&pdc->udev->pds, pdc->live->ccx, &info->cc,
			     &info->ccx_pdcs);
	if (pdc->live && !pdc->dead && pdc->live->ccx)
		info->ccx_id = pdc->live->ccx->id;
	info->rccc_on = pdc->live && !pdc->dead && pdc->live->rccc_on;
	if (info->rccc_on) {
		info->credit = clamp_t(s64, pdc->live->credit.credit, S32_MIN,
				       S32_MAX);
		info->credit_granted = pdc->live->credit.pull;
		info->credit_wanted = pdc->live->credit.asked;
	} else if (!pdc->initiator) {
		spin_lock(&pdc->udev->pds.credit_lock);
		info->credit_granted = pdc->credit_rx.granted;
		info->credit_wanted = pdc->credit_rx.target;
		spin_unlock(&pdc->udev->pds.credit_lock);
		info->rccc_asked = info->credit_wanted;
	}
	pdc_ra_read(pdc, info);
}

/**
 * uet_pds_dump() - a snapshot of each PDC from local PDCID *@pos on
 * @udev: the device
 * @pos: the first local PDCID to visit; on return, where to resume
 * @fn: called with each snapshot, under RCU but no PDC lock; a non-zero
 *	return stops the walk at that PDC, which the next call visits again
 * @arg: passed to @fn
 *
 * Return: what @fn returned last, 0 when every PDC was visited.
 */
int uet_pds_dump(struct uet_dev *udev, unsigned long *pos, uet_pds_info_fn fn,
		 void *arg)
{
	struct uet_pdc_info info;
	struct uet_pds_pdc *pdc;
	int err = 0;

	rcu_read_lock();
	xa_for_each_start(&udev->pds.pdcs, *pos, pdc, *pos) {
		spin_lock_bh(&pdc->lock);
		pdc_snapshot(pdc, &info);
		pdc_unlock_bh(pdc);
		err = fn(&info, arg);
		if (err)
			break;
	}
	rcu_read_unlock();
	if (!err)
		*pos = ULONG_MAX;
	return err;
}

/**
 * uet_pds_count() - how many PDCs a device has
 * @udev: the device
 *
 * Return: the number of PDCs, a snapshot.
 */
u32 uet_pds_count(struct uet_dev *udev)
{
	struct uet_pds_pdc *pdc;
	unsigned long id;
	u32 n = 0;

	rcu_read_lock();
	xa_for_each(&udev->pds.pdcs, id, pdc)
		n++;
	rcu_read_unlock();
	return n;
}
