// SPDX-License-Identifier: GPL-2.0
/*
 * uet RUDI: reliable, unordered delivery for idempotent operations (RMA
 * writes without immediate data, reads), without a PDC.  Each request
 * carries a packet ID of its device's; the target carries it out and
 * answers with a RUDI response of the same ID, which carries the SES
 * response (a read's data with it).  The target keeps no state: a resent
 * request is carried out again, which idempotent operations allow.
 *
 * The initiator queues messages as descriptors on their path (a target,
 * traffic class and job) and cuts a request from a path's oldest when the
 * device has fewer than %UET_PDS_INFLIGHT_MAX in flight and, under NSCC,
 * the path's share of its congestion window has room: a path is one more
 * sender in the congestion context of its target and class (pds_ccx.c),
 * beside the PDCs that go there, moved by its responses' round trips and
 * ECN echoes and by its timeouts.  RCCC's credit is a PDC's (its control
 * packets name PDCs): RUDI has NSCC's window or none.  The paths take
 * turns.  A request is built from the message's memory when sent, and
 * built again to be resent.  It is resent when its response does not come
 * within the RTO, which starts from the device's estimate of RUDI round
 * trips and doubles with each resend, and fails after UET_RUDI_MAX_TRIES
 * sends.  The table's timeouts back off that estimate too, as a TCP
 * sender's do (RFC 6298 (5.5)), until a round trip is measured again: a
 * peer slower than the estimate, or back after a stall, does not see
 * every new request resent as well.
 *
 * Nothing is sent from a timer: a request whose RTO expired waits on the
 * table's list of resends due, which the table's work sends, in process
 * context, a burst of %UET_PDS_TX_BURST at a time, resends first.  An
 * event (a message queued, a response) cuts at most a burst of new
 * requests and leaves the rest to the work too; nothing leaves while the
 * qdiscs are full.  A stall that ends with the whole table due thus
 * resends it paced by the scheduler, not in one softirq (on the debug
 * kernel, that once starved the RCU kthread for 26 s, 2026-11-28).
 *
 * A cancelled message (its endpoint closed) is let go at once, queued and
 * in flight (uet_rudi_cancel()): RUDI keeps no sequence a missing request
 * would break.
 *
 * Locking: the device's table (struct uet_rudi) has its own lock, taken
 * with bottom halves disabled outside softirq, which protects its paths
 * too; the SES layer learns a request's fate under it.  A context's lock
 * nests inside it.  A request's timer holds no reference:
 * whoever takes a request out of the table cancels its timer before
 * freeing it, and the timer does nothing for a request no longer in the
 * table.
 */
#include <linux/hrtimer.h>
#include <linux/jhash.h>
#include <linux/random.h>
#include <linux/slab.h>
#include <net/inet_ecn.h>
#include <net/ipv6.h>

#include "counters.h"
#include "pds_priv.h"
#include "ses.h"
#include "socket.h"
#include "tss_pkt.h"
#include "uet.h"
#include "wire.h"

/*
 * Sends of one request before it fails with -ETIMEDOUT: the first and 15
 * timeouts in a row, as many as a PDC allows (the reliability core's
 * default, Linux's net.ipv4.tcp_retries2).  From an RTO at its 50 ms
 * floor, backing off to the 60 s ceiling, that is some six minutes.
 */
#define UET_RUDI_MAX_TRIES	16

/**
 * struct uet_rudi_path - RUDI's messages to one target, in one traffic
 *	class, for one job
 * @node: in the table's @paths.
 * @ready: in the table's @ready while @sendq has messages.
 * @sendq: struct uet_pds_msg with requests not yet sent, oldest first.
 * @key: the target, class and job (@mode %UET_PDC_RUDI).
 * @ccx: its congestion context (NSCC's window); %NULL without NSCC.
 * @own: bytes of its requests in flight, as @ccx counts them.
 * @inflight: its requests in flight.
 * @cc_gen: the device's @cc_gen when it took its congestion control.
 *
 * Made with its first message, under the table's lock; freed when it has
 * nothing queued or in flight.  Its congestion control is its job's or
 * device's: when their settings change, it takes it anew when it next
 * has nothing in flight.
 */
struct uet_rudi_path {
	struct hlist_node node;
	struct list_head ready;
	struct list_head sendq;
	struct uet_pds_key key;
	struct uet_pds_ccx *ccx;
	u32 own;
	u32 inflight;
	u32 cc_gen;
};

/**
 * struct uet_rudi_req - a request waiting for its response
 * @node: in the table, by @pkt_id; unhashed once out of it.
 * @gone: taken out of the table with others, to be freed.
 * @udev: the device.
 * @msg: its message, whose memory it is built from, and built again for
 *	each resend (uet_ses_build_req()).
 * @off: where its payload (or what it asks for) starts in @msg ...
 * @len: ... and how many bytes.
 * @pkt_id: the packet ID.
 * @path: its path, which lives while it is in flight.
 * @bytes: what it counts for in its path's window (0 without one).
 * @entropy: its UDP source port entropy.
 * @tries: sends so far.
 * @sent: when it was first sent, ns: its RTT sample, if never resent.
 * @last: when it was last sent, ns.
 * @rto: the current timeout, ns.
 * @due: in the table's @due while its RTO has expired and it waits to be
 *	resent; empty otherwise.
 * @timer: the retransmission timer, stopped while it is due.
 */
struct uet_rudi_req {
	struct hlist_node node;
	struct hlist_node gone;
	struct uet_dev *udev;
	struct uet_pds_msg *msg;
	u32 off;
	u32 len;
	u32 pkt_id;
	struct uet_rudi_path *path;
	u32 bytes;
	u16 entropy;
	u8 tries;
	u64 sent;
	u64 last;
	u64 rto;
	struct list_head due;
	struct hrtimer timer;
};

/* @rto doubled, within @max. */
static u64 rudi_double(u64 rto, u64 max)
{
	return rto > max / 2 ? max : rto * 2;
}

/*
 * The RTO of a new request: the device's estimate from RUDI's round
 * trips, or its initial RTO before the first, within its bounds as they
 * are now (uetctl may change them), doubled for each timeout of the
 * table's backoff.
 */
static u64 rudi_rto(const struct uet_rudi *t, const struct uet_dev *udev)
{
	u64 min = (u64)READ_ONCE(udev->cfg.rto_min_us) * NSEC_PER_USEC;
	u64 max = (u64)READ_ONCE(udev->cfg.rto_max_us) * NSEC_PER_USEC;
	u64 rto = t->rtt.seeded ? t->rtt.rto :
		  (u64)READ_ONCE(udev->cfg.rto_initial_us) * NSEC_PER_USEC;
	unsigned int i;

	max = max(min, max);
	rto = clamp(rto, min, max);
	for (i = 0; i < t->backoff && rto < max; i++)
		rto = rudi_double(rto, max);
	return rto;
}

/*
 * @r timed out: the table backs off, once for all the requests sent
 * before it last did, which time out together when a peer stalls.  The
 * backoff stops growing at UET_RUDI_MAX_TRIES, by when any RTO has reached
 * its bound.
 */
static void rudi_backoff(struct uet_rudi *t, const struct uet_rudi_req *r)
{
	if (r->last < t->backoff_at || t->backoff >= UET_RUDI_MAX_TRIES)
		return;
	t->backoff++;
	t->backoff_at = ktime_get_ns();
}

/* Build @r from its message's memory and send it; a failure is a loss. */
static void rudi_xmit(struct uet_rudi_req *r)
{
	struct uet_pds_hdr_info h = {
		.type = UET_PDS_TYPE_RUDI_REQ,
		.next_hdr = UET_SES_NH_REQ_STD,
		.flags = r->tries ? UET_PDS_F_RETX : 0,
		.rudi_pkt_id = r->pkt_id,
	};
	struct sk_buff *skb;

	lockdep_assert_held(&r->udev->rudi.lock);
	if (r->tries++)
		uet_count(r->udev, UET_CNT_RETRANSMITS, 1);
	r->last = ktime_get_ns();
	skb = uet_ses_build_req(r->msg, r->off, r->len, false);
	if (!skb)
		return;		/* as if lost: the timer sends it again */
	if (WARN_ON_ONCE(uet_pds_build(skb_push(skb, sizeof(struct uet_pds_rudi)),
				       sizeof(struct uet_pds_rudi), &h) < 0)) {
		kfree_skb(skb);
		return;
	}
	uet_skb_set_data(skb, r->msg->tc);
	uet_skb_set_job(skb, r->path->key.job);
	uet_xmit(r->udev, skb, &r->msg->dst, r->entropy, NULL);
}

static u32 rudi_path_hash(const struct uet_pds_key *key)
{
	return jhash(&key->raddr, sizeof(key->raddr), key->job ^ key->tc);
}

/*
 * @p, with nothing in flight, takes its job's or device's congestion
 * control as the settings are at @gen or newer: NSCC's context, or none.
 * Return: 0, or -ENOMEM (@p as it was).
 */
static int rudi_path_cc(struct uet_dev *udev, struct uet_rudi_path *p,
			u32 gen)
{
	struct uet_pds_ccx *ccx = NULL;

	/* the settings as they were when @gen was bumped, or newer */
	smp_rmb();
	if (pds_cc_nscc(pds_cc_wanted(udev, &p->key))) {
		ccx = pds_ccx_of(udev, &p->key);
		if (!ccx)
			return -ENOMEM;
	}
	if (p->ccx)
		pds_ccx_put(&udev->pds, p->ccx, p->own);
	p->ccx = ccx;
	p->own = 0;
	p->cc_gen = gen;
	return 0;
}

/*
 * The path of @key, made if there is none, with the congestion context
 * of its job's or device's NSCC; %NULL if memory is short.
 */
static struct uet_rudi_path *rudi_path_get(struct uet_rudi *t,
					   const struct uet_pds_key *key)
{
	struct uet_dev *udev = container_of(t, struct uet_dev, rudi);
	u32 h = rudi_path_hash(key);
	struct uet_rudi_path *p;

	lockdep_assert_held(&t->lock);
	hash_for_each_possible(t->paths, p, node, h)
		if (ipv6_addr_equal(&p->key.raddr, &key->raddr) &&
		    p->key.tc == key->tc && p->key.job == key->job &&
		    p->key.cc == key->cc)
			return p;
	p = kzalloc(sizeof(*p), GFP_ATOMIC);
	if (!p)
		return NULL;
	p->key = *key;
	if (rudi_path_cc(udev, p, atomic_read(&udev->cc_gen))) {
		kfree(p);
		return NULL;
	}
	INIT_LIST_HEAD(&p->ready);
	INIT_LIST_HEAD(&p->sendq);
	hash_add(t->paths, &p->node, h);
	return p;
}

/*
 * @p has nothing queued any more, or less: out of the turns when nothing
 * is, and gone when nothing is in flight either.
 */
static void rudi_path_idle(struct uet_rudi *t, struct uet_rudi_path *p)
{
	struct uet_dev *udev = container_of(t, struct uet_dev, rudi);

	lockdep_assert_held(&t->lock);
	if (!list_empty(&p->sendq))
		return;
	list_del_init(&p->ready);
	if (p->inflight)
		return;
	hash_del(&p->node);
	if (p->ccx)
		pds_ccx_put(&udev->pds, p->ccx, p->own);
	kfree(p);
}

/*
 * @p has nothing in flight: if its job's or device's settings changed
 * since it took its congestion control, it takes it anew, as a PDC does,
 * so that a path never quiet for long does not keep an old one for good.
 * Short of memory, it keeps the one it has.
 */
static void rudi_path_refresh(struct uet_rudi *t, struct uet_rudi_path *p)
{
	struct uet_dev *udev = container_of(t, struct uet_dev, rudi);
	u32 gen = atomic_read(&udev->cc_gen);

	lockdep_assert_held(&t->lock);
	if (p->cc_gen != gen && rudi_path_cc(udev, p, gen))
		uet_count(udev, UET_CNT_DROP_NO_MEMORY, 1);
}

/*
 * The first path in turn that may send a request: one without a window,
 * or whose share of it has room; %NULL if none may.
 */
static struct uet_rudi_path *rudi_next_path(struct uet_rudi *t)
{
	struct uet_dev *udev = container_of(t, struct uet_dev, rudi);
	struct uet_rudi_path *p;
	bool full = false;

	lockdep_assert_held(&t->lock);
	list_for_each_entry(p, &t->ready, ready) {
		if (!p->inflight)
			rudi_path_refresh(t, p);
		if (!p->ccx || pds_ccx_may_send(p->ccx, p->own))
			return p;
		full = true;
	}
	if (full)
		uet_count(udev, UET_CNT_CC_WINDOW_FULL, 1);
	return NULL;
}

/*
 * Take @r out of the table: its slot is free, its timer does nothing; it
 * leaves its path's window unanswered if it is still in it (given up,
 * cancelled, the device going), and its path goes if nothing else keeps
 * it.
 */
static void rudi_unlink(struct uet_rudi *t, struct uet_rudi_req *r)
{
	struct uet_rudi_path *p = r->path;

	lockdep_assert_held(&t->lock);
	hash_del(&r->node);
	list_del_init(&r->due);
	t->inflight--;
	if (r->bytes)
		pds_ccx_forget(p->ccx, &p->own, r->bytes);
	p->inflight--;
	r->path = NULL;
	rudi_path_idle(t, p);
}

/* The request in flight of @pkt_id to @peer; %NULL if it was gone. */
static struct uet_rudi_req *rudi_find(struct uet_rudi *t, u32 pkt_id,
				      const struct in6_addr *peer)
{
	struct uet_rudi_req *r;

	lockdep_assert_held(&t->lock);
	hash_for_each_possible(t->reqs, r, node, pkt_id)
		if (r->pkt_id == pkt_id && ipv6_addr_equal(&r->msg->dst, peer))
			return r;
	return NULL;
}

/* Free a request taken out of the table, once its timer is stopped. */
static void rudi_free(struct uet_rudi_req *r)
{
	hrtimer_cancel(&r->timer);
	kfree(r);
}

static enum hrtimer_restart rudi_expired(struct hrtimer *timer);

/*
 * Cut the next request of the oldest queued message of the first path in
 * turn whose window has room, and send it; false when none may go (the
 * table is full, no path has room or none has anything queued).  Without
 * memory for the request, the rest of its message fails.
 */
static bool rudi_cut(struct uet_rudi *t)
{
	struct uet_dev *udev = container_of(t, struct uet_dev, rudi);
	struct uet_rudi_path *p;
	struct uet_pds_msg *m;
	struct uet_rudi_req *r;

	lockdep_assert_held(&t->lock);
	if (t->inflight >= UET_PDS_INFLIGHT_MAX)
		return false;
	p = rudi_next_path(t);
	if (!p)
		return false;
	m = list_first_entry(&p->sendq, struct uet_pds_msg, node);
	/* its turn is over: the others go first */
	list_move_tail(&p->ready, &t->ready);
	r = kzalloc(sizeof(*r), GFP_ATOMIC);
	if (!r) {
		uet_count(udev, UET_CNT_DROP_NO_MEMORY, 1);
		list_del_init(&m->node);
		rudi_path_idle(t, p);
		uet_ses_tx_done(m, m->seg.count - m->ncut, -ENOMEM);
		return true;
	}
	r->udev = udev;
	r->msg = m;
	r->path = p;
	INIT_LIST_HEAD(&r->due);
	r->off = uet_seg_off(&m->seg, m->ncut);
	r->len = uet_seg_len(&m->seg, m->ncut);
	if (++m->ncut == m->seg.count)
		list_del_init(&m->node);
	p->inflight++;
	if (p->ccx) {
		r->bytes = uet_nscc_bytes(&p->ccx->cc, r->len);
		pds_ccx_sent(p->ccx, &p->own, r->bytes);
	}
	rudi_path_idle(t, p);
	r->entropy = get_random_u16();
	r->rto = rudi_rto(t, udev);
	r->sent = ktime_get_ns();
	hrtimer_init(&r->timer, CLOCK_MONOTONIC, HRTIMER_MODE_REL_SOFT);
	r->timer.function = rudi_expired;
	r->pkt_id = t->next_id++;
	hash_add(t->reqs, &r->node, r->pkt_id);
	t->inflight++;
	rudi_xmit(r);
	hrtimer_start(&r->timer, ns_to_ktime(r->rto), HRTIMER_MODE_REL_SOFT);
	return true;
}

/* Resend @r, due: its RTO doubles, within its bound of the moment. */
static void rudi_resend(struct uet_rudi_req *r)
{
	list_del_init(&r->due);
	rudi_xmit(r);
	r->rto = rudi_double(r->rto, (u64)READ_ONCE(r->udev->cfg.rto_max_us) *
					     NSEC_PER_USEC);
	hrtimer_start(&r->timer, ns_to_ktime(r->rto), HRTIMER_MODE_REL_SOFT);
}

/*
 * The qdiscs hold too much: the table waits for them to drain
 * (uet_rudi_tx_resume()), unless they already have.
 */
static void rudi_tx_wait(struct uet_rudi *t)
{
	struct uet_dev *udev = container_of(t, struct uet_dev, rudi);

	lockdep_assert_held(&t->lock);
	/*
	 * @tx_wait set (a fully ordered xchg) before the qdiscs are looked
	 * at again, as the drain lowers what they hold before
	 * uet_rudi_tx_resume() looks at it: one of the two sees the other,
	 * or a wakeup is lost, and with the timers of the resends due
	 * stopped, nothing else would come.
	 */
	if (!atomic_xchg(&t->tx_wait, 1))
		uet_count(udev, UET_CNT_TX_WAITS, 1);
	if (!uet_socket_tx_full(udev))
		uet_rudi_tx_resume(udev);
}

/*
 * Send one burst: the resends due if @resend, then new requests while the
 * table and their paths' windows have room.  Return: whether more may
 * wait.
 */
static bool rudi_burst(struct uet_rudi *t, bool resend)
{
	struct uet_dev *udev = container_of(t, struct uet_dev, rudi);
	unsigned int sent = 0;

	lockdep_assert_held(&t->lock);
	if (uet_socket_tx_full(udev)) {
		rudi_tx_wait(t);
		return false;
	}
	for (; resend && sent < UET_PDS_TX_BURST && !list_empty(&t->due);
	     sent++)
		rudi_resend(list_first_entry(&t->due, struct uet_rudi_req,
					     due));
	for (; sent < UET_PDS_TX_BURST && rudi_cut(t); sent++)
		;
	return sent == UET_PDS_TX_BURST || (!resend && !list_empty(&t->due));
}

/*
 * An event's burst of new requests; the table's work sends the resends
 * due and what is left.
 */
static void rudi_push(struct uet_rudi *t)
{
	if (rudi_burst(t, false) && t->live)
		queue_work(system_highpri_wq, &t->work);
}

/* The table's work: bursts until nothing is left, or the qdiscs are full. */
static void rudi_work(struct work_struct *work)
{
	struct uet_rudi *t = container_of(work, struct uet_rudi, work);
	bool more;

	do {
		spin_lock_bh(&t->lock);
		more = t->live && rudi_burst(t, true);
		spin_unlock_bh(&t->lock);
		cond_resched();
	} while (more);
}

/**
 * uet_rudi_tx_resume() - the qdiscs have drained: resume a waiting table
 * @udev: the device
 *
 * Context: any.
 */
void uet_rudi_tx_resume(struct uet_dev *udev)
{
	struct uet_rudi *t = &udev->rudi;

	/* pairs with rudi_tx_wait()'s xchg: the drain before @tx_wait */
	smp_mb();
	if (atomic_read(&t->tx_wait) && atomic_xchg(&t->tx_wait, 0))
		queue_work(system_highpri_wq, &t->work);
}

/*
 * The SES layer learns the fate of @r, under the table's lock.  Its slot
 * in the table goes to the next request queued.
 */
static void rudi_done(struct uet_rudi *t, struct uet_rudi_req *r, int err)
{
	lockdep_assert_held(&t->lock);
	uet_ses_tx_done(r->msg, 1, err);
	rudi_push(t);
}

static enum hrtimer_restart rudi_expired(struct hrtimer *timer)
{
	struct uet_rudi_req *r = container_of(timer, struct uet_rudi_req, timer);
	struct uet_rudi *t = &r->udev->rudi;
	bool give_up;

	spin_lock(&t->lock);
	if (!hash_hashed(&r->node) || !t->live) {
		spin_unlock(&t->lock);
		return HRTIMER_NORESTART;
	}
	uet_count(r->udev, UET_CNT_TIMEOUTS, 1);
	if (r->bytes)
		pds_cc_count(r->udev, pds_ccx_timeout(r->path->ccx, r->bytes));
	rudi_backoff(t, r);
	give_up = r->tries >= UET_RUDI_MAX_TRIES;
	if (give_up) {
		rudi_unlink(t, r);
		rudi_done(t, r, -ETIMEDOUT);
	} else {
		/* resent by the table's work, which rearms the timer */
		list_add_tail(&r->due, &t->due);
		queue_work(system_highpri_wq, &t->work);
	}
	spin_unlock(&t->lock);
	/* given up, the request is ours now; its timer is this very call */
	if (give_up)
		kfree(r);
	return HRTIMER_NORESTART;
}

/**
 * uet_rudi_send_msg() - queue a message to send in RUDI mode
 * @udev: the device
 * @key: the target, traffic class and job: the message's path
 * @msg: the message, filled in; its @ncut 0
 *
 * Its requests are cut and built as the device's table of requests in
 * flight (%UET_PDS_INFLIGHT_MAX) and its path's congestion window have
 * room, each built again from the message's memory to be resent.  The
 * fate of every request reaches the SES layer through uet_ses_tx_done().
 */
void uet_rudi_send_msg(struct uet_dev *udev, const struct uet_pds_key *key,
		       struct uet_pds_msg *msg)
{
	struct uet_rudi *t = &udev->rudi;
	struct uet_rudi_path *p;

	msg->dst = key->raddr;
	spin_lock_bh(&t->lock);
	if (!t->live) {
		uet_ses_tx_done(msg, msg->seg.count, -ENETDOWN);
	} else {
		p = rudi_path_get(t, key);
		if (!p) {
			uet_count(udev, UET_CNT_DROP_NO_MEMORY, 1);
			uet_ses_tx_done(msg, msg->seg.count, -ENOMEM);
		} else {
			msg->path = p;
			list_add_tail(&msg->node, &p->sendq);
			if (list_empty(&p->ready))
				list_add_tail(&p->ready, &t->ready);
			rudi_push(t);
		}
	}
	spin_unlock_bh(&t->lock);
}

/*
 * Target: answer request @req (@pkt_id) with @skb, an SES response,
 * which says whether the request arrived ECN-marked (@ce, the M flag),
 * and goes sealed as the request came.
 */
static void rudi_respond(struct uet_dev *udev, const struct sk_buff *req,
			 struct sk_buff *skb, u8 next_hdr, u32 pkt_id,
			 const struct in6_addr *peer, bool ce)
{
	const struct uet_rx_cb *rx = (const void *)req->cb;
	struct uet_pds_hdr_info h = {
		.type = UET_PDS_TYPE_RUDI_RESP,
		.next_hdr = next_hdr,
		.flags = ce ? UET_PDS_F_M : 0,
		.rudi_pkt_id = pkt_id,
	};

	if (WARN_ON_ONCE(uet_pds_build(skb_push(skb, sizeof(struct uet_pds_rudi)),
				       sizeof(struct uet_pds_rudi), &h) < 0)) {
		kfree_skb(skb);
		return;
	}
	if (rx->sealed)
		uet_skb_set_job(skb, rx->sdi);
	uet_xmit(udev, skb, peer, get_random_u16(), NULL);
}

static void rcv_rudi_req(struct uet_dev *udev, struct sk_buff *skb,
			 const struct uet_pds_hdr_info *h,
			 const struct in6_addr *saddr, bool ce)
{
	struct uet_ses_answer ans = {};
	struct sk_buff *rsp;
	u8 rc;

	rc = uet_ses_deliver_datagram(udev, UET_PDC_RUDI, saddr, skb,
				      h->next_hdr, &ans);
	if (ce)
		uet_count(udev, UET_CNT_ECN_MARKED, 1);
	if (ans.data) {
		rudi_respond(udev, skb, ans.data, UET_SES_NH_RSP_DATA,
			     h->rudi_pkt_id, saddr, ce);
		return;
	}
	rsp = uet_ses_response(udev, rc, ans.msg_id, ans.job);
	if (rsp)
		rudi_respond(udev, skb, rsp, UET_SES_NH_RSP, h->rudi_pkt_id,
			     saddr, ce);
}

/*
 * The response to @r came, ECN-marked or not: a round trip for the RTO
 * and, with @r in its path's window, for the window, which the response
 * moves.
 */
static void rudi_answered(struct uet_rudi *t, struct uet_rudi_req *r,
			  bool ecn)
{
	struct uet_nscc_ack ack = { .bytes = r->bytes, .ecn = ecn };
	u64 now = ktime_get_ns();

	if (ecn)
		uet_count(r->udev, UET_CNT_ECN_ECHOES, 1);
	/* Karn: a request sent more than once gives no sample */
	if (r->tries == 1) {
		uet_pdc_rtt_sample(&t->rtt, now - r->sent);
		t->backoff = 0;
		ack.rtt = min_t(u64, now - r->sent, U32_MAX);
	}
	if (!r->bytes)
		return;
	pds_cc_count(r->udev, pds_ccx_ack(r->path->ccx, &r->path->own, &ack,
					  now));
	r->bytes = 0;
}

static void rcv_rudi_resp(struct uet_dev *udev, struct sk_buff *skb,
			  const struct uet_pds_hdr_info *h,
			  const struct in6_addr *saddr)
{
	struct uet_rudi *t = &udev->rudi;
	u8 buf[sizeof(struct uet_ses_rsp_data)];
	struct uet_ses_hdr_info ses;
	struct uet_rudi_req *r;
	unsigned int slen;
	const u8 *p;
	int err = 0;

	if (h->next_hdr != UET_SES_NH_RSP && h->next_hdr != UET_SES_NH_RSP_DATA) {
		uet_count(udev, UET_CNT_DROP_UNSUPPORTED, 1);
		return;
	}
	slen = h->next_hdr == UET_SES_NH_RSP_DATA ? sizeof(struct uet_ses_rsp_data) :
						     sizeof(struct uet_ses_rsp);
	p = skb_header_pointer(skb, 0, slen, buf);
	if (!p || uet_ses_parse(p, slen, h->next_hdr, &ses) < 0) {
		uet_count(udev, UET_CNT_DROP_MALFORMED, 1);
		return;
	}
	spin_lock(&t->lock);
	r = rudi_find(t, h->rudi_pkt_id, saddr);
	if (r && !uet_tss_admits(udev, skb, r->path->key.job)) {
		spin_unlock(&t->lock);
		uet_count(udev, UET_CNT_DROP_TSS_CLEAR, 1);
		return;
	}
	if (r) {
		rudi_answered(t, r, h->flags & UET_PDS_F_M);
		rudi_unlink(t, r);
		if (ses.rsp.rc != UET_SES_RC_OK)
			uet_ses_tx_refused(r->msg, ses.rsp.rc);
		else if (h->next_hdr == UET_SES_NH_RSP_DATA &&
			 !uet_ses_read_data(r->msg, r->off, r->len, skb, slen,
					    ses.rsp.payload_length,
					    ses.rsp.message_offset))
			err = -EPROTO;
		rudi_done(t, r, err);
	}
	spin_unlock(&t->lock);
	if (!r) {
		uet_count(udev, UET_CNT_DUPLICATES, 1);	/* answered already */
		return;
	}
	rudi_free(r);
}

/**
 * uet_rudi_rcv() - a RUDI request or response, in softirq
 * @udev: the device it arrived on
 * @skb: the packet after its PDS header; the caller frees it
 * @h: the PDS header
 * @saddr: its source address
 * @ce: it arrived ECN-marked, Congestion Experienced
 */
void uet_rudi_rcv(struct uet_dev *udev, struct sk_buff *skb,
		  const struct uet_pds_hdr_info *h, const struct in6_addr *saddr,
		  bool ce)
{
	if (h->type == UET_PDS_TYPE_RUDI_REQ)
		rcv_rudi_req(udev, skb, h, saddr, ce);
	else
		rcv_rudi_resp(udev, skb, h, saddr);
}

/* Take every request of @msg (%NULL: all) out of the table, onto @gone. */
static void rudi_take_all(struct uet_rudi *t, struct uet_pds_msg *msg,
			  struct hlist_head *gone)
{
	struct uet_rudi_req *r;
	struct hlist_node *tmp;
	int bkt;

	lockdep_assert_held(&t->lock);
	hash_for_each_safe(t->reqs, bkt, tmp, r, node)
		if (!msg || r->msg == msg) {
			rudi_unlink(t, r);
			hlist_add_head(&r->gone, gone);
		}
}

static void rudi_free_all(struct hlist_head *gone)
{
	struct uet_rudi_req *r;
	struct hlist_node *tmp;

	hlist_for_each_entry_safe(r, tmp, gone, gone)
		rudi_free(r);
}

/**
 * uet_rudi_cancel() - let go of a message nobody waits for any more
 * @udev: the device
 * @msg: the message, which the table still has requests of
 *
 * Its requests, queued and in flight, are done with at once, as failed
 * (-%ECANCELED): RUDI has no sequence a missing request would break.
 */
void uet_rudi_cancel(struct uet_dev *udev, struct uet_pds_msg *msg)
{
	struct uet_rudi *t = &udev->rudi;
	struct uet_rudi_req *r;
	HLIST_HEAD(gone);

	spin_lock_bh(&t->lock);
	WRITE_ONCE(msg->cancelled, true);
	if (!list_empty(&msg->node)) {
		list_del_init(&msg->node);
		rudi_path_idle(t, msg->path);
		uet_ses_tx_done(msg, msg->seg.count - msg->ncut, -ECANCELED);
	}
	rudi_take_all(t, msg, &gone);
	hlist_for_each_entry(r, &gone, gone)
		uet_ses_tx_done(r->msg, 1, -ECANCELED);
	rudi_push(t);
	spin_unlock_bh(&t->lock);
	rudi_free_all(&gone);
}

/**
 * uet_rudi_show() - the RUDI table, for debugfs
 * @m: the file
 * @udev: the device
 *
 * Return: 0.
 */
int uet_rudi_show(struct seq_file *m, struct uet_dev *udev)
{
	struct uet_rudi *t = &udev->rudi;
	u32 queued = 0, paths = 0;
	struct uet_rudi_path *p;
	struct uet_pds_msg *msg;
	int bkt;

	spin_lock_bh(&t->lock);
	hash_for_each(t->paths, bkt, p, node) {
		paths++;
		list_for_each_entry(msg, &p->sendq, node)
			queued++;
	}
	seq_printf(m, "inflight %u max %u queued %u srtt_us %llu rto_us %llu paths %u backoff %u\n",
		   t->inflight, UET_PDS_INFLIGHT_MAX, queued,
		   div_u64(t->rtt.srtt, NSEC_PER_USEC),
		   div_u64(rudi_rto(t, udev), NSEC_PER_USEC), paths,
		   t->backoff);
	spin_unlock_bh(&t->lock);
	return 0;
}

void uet_rudi_init(struct uet_dev *udev)
{
	spin_lock_init(&udev->rudi.lock);
	hash_init(udev->rudi.reqs);
	hash_init(udev->rudi.paths);
	INIT_LIST_HEAD(&udev->rudi.ready);
	INIT_LIST_HEAD(&udev->rudi.due);
	INIT_WORK(&udev->rudi.work, rudi_work);
	/* unbounded: rudi_rto() applies the device's bounds of the moment */
	uet_pdc_rtt_init(&udev->rudi.rtt, 0, 0, U64_MAX);
	udev->rudi.next_id = get_random_u32();
	udev->rudi.live = true;
}

/* Fail every request queued or in flight: the device goes away. */
void uet_rudi_fini(struct uet_dev *udev)
{
	struct uet_rudi *t = &udev->rudi;
	struct uet_pds_msg *m, *tmp;
	struct uet_rudi_path *p;
	struct hlist_node *next;
	struct uet_rudi_req *r;
	HLIST_HEAD(gone);
	int bkt;

	spin_lock_bh(&t->lock);
	t->live = false;
	hash_for_each_safe(t->paths, bkt, next, p, node) {
		list_for_each_entry_safe(m, tmp, &p->sendq, node) {
			list_del_init(&m->node);
			uet_ses_tx_done(m, m->seg.count - m->ncut, -ENETDOWN);
		}
		rudi_path_idle(t, p);
	}
	rudi_take_all(t, NULL, &gone);
	hlist_for_each_entry(r, &gone, gone)
		uet_ses_tx_done(r->msg, 1, -ENETDOWN);
	spin_unlock_bh(&t->lock);
	/* not live, nothing queues it again; detached, nor do the qdiscs */
	cancel_work_sync(&t->work);
	rudi_free_all(&gone);
}
