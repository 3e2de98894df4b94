// SPDX-License-Identifier: GPL-2.0
/*
 * uet PDS: PDC objects, drawn from the device's pools, the tables that
 * find them, and the queue of packets that leave after a PDC's lock.
 *
 * Lookups: an initiator's PDC is found by its key, a target's by {peer
 * address, peer PDCID} from the SYN that made it, each in a resizable
 * hash table of its own (rhashtable: per-bucket locks, readers under RCU
 * alone, hashes seeded at random).  Every later packet names our PDC by
 * its DPDCID, and counts only if it comes from the PDC's peer: its
 * address, and its PDCID once known (pdc_get_by_id()).
 *
 * Contexts: packets arrive in softirq; sends come from process context.
 * A PDC's lock is taken with bottom halves disabled outside softirq.  Lock
 * order: uet_pds.lock, held only to make a PDC (so that one key gets one)
 * and for the pools and sources, is never taken under a PDC's lock (a new
 * PDC's nests inside it, pdc_alloc()); a PDC's lock may be held while
 * calling into the SES layer (ses.c), whose locks nest inside it.
 *
 * Lifetime: a PDC is referenced by the tables (one reference, dropped at
 * teardown) and by whoever found it under RCU (pdc_get_by_id()).  Its
 * live state comes and goes under its lock (pdc_wake(), pdc_sleep()),
 * and goes with the PDC's last reference.  The live state's timer holds
 * no reference: it goes only with the timer stopped, and teardown marks
 * the PDC dead (no live state comes or goes after) and stops the timer
 * before the tables' reference goes.
 */
#include <linux/hash.h>
#include <linux/ipv6.h>
#include <linux/jhash.h>
#include <linux/random.h>
#include <linux/rculist.h>
#include <linux/rhashtable.h>
#include <linux/slab.h>
#include <linux/udp.h>
#include <net/ipv6.h>
#include <uapi/linux/uet.h>
#include <uapi/linux/uet_netlink.h>

#include "counters.h"
#include "job.h"
#include "pds_priv.h"
#include "psn.h"
#include "ses.h"
#include "socket.h"
#include "tss_pkt.h"
#include "uet.h"
#include "wire.h"

/*
 * Local PDCIDs run from 1 (0 is none) up to this, the largest pool the
 * 16-bit PDCID fields allow.
 */
#define UET_PDS_PDCID_MAX	U16_MAX

/*
 * ROD's window.  Go-back-N resends everything in flight after a loss, so
 * the window bounds what each loss costs; 64 packets (87 KB at MTU 1500)
 * still cover a round trip at the speeds a software transport reaches
 * (Documentation/engine.rst has the measurements).
 */
#define UET_PDS_ROD_WINDOW	64

/*
 * PDCs and their live state come from caches of their own, sized to the
 * structures rather than to the next kmalloc size.  PDCs are freed after
 * RCU readers by callbacks, which the module's exit waits for
 * (rcu_barrier()).
 */
static struct kmem_cache *pdc_cache;
static struct kmem_cache *live_cache;

/**
 * uet_pds_cache_init() - the caches PDCs come from, at module load
 *
 * Return: 0, or -ENOMEM.
 */
int __init uet_pds_cache_init(void)
{
	pdc_cache = KMEM_CACHE(uet_pds_pdc, 0);
	if (!pdc_cache)
		return -ENOMEM;
	live_cache = KMEM_CACHE(uet_pds_live, 0);
	if (!live_cache) {
		kmem_cache_destroy(pdc_cache);
		return -ENOMEM;
	}
	return 0;
}

/**
 * uet_pds_cache_exit() - at module unload, once every PDC is gone
 *
 * Context: after rcu_barrier(): no PDC waits to be freed.
 */
void uet_pds_cache_exit(void)
{
	kmem_cache_destroy(live_cache);
	kmem_cache_destroy(pdc_cache);
}

static void pdc_free_rcu(struct rcu_head *head)
{
	kmem_cache_free(pdc_cache, container_of(head, struct uet_pds_pdc, rcu));
}

/* An initiator lets go of its congestion context, if it has one. */
static void live_cc_fini(struct uet_pds_live *live)
{
	if (!live->ccx)
		return;
	pds_ccx_put(&live->pdc->udev->pds, live->ccx, live->ccx_bytes);
	live->ccx = NULL;
	live->ccx_bytes = 0;
}

/* Free @live, its timer stopped, nothing being sent. */
static void live_free(struct uet_pds_live *live)
{
	live_cc_fini(live);
	__skb_queue_purge(&live->out);
	if (live->dst_cached)
		dst_cache_destroy(&live->dst_cache);
	uet_sched_fini(&live->sched);
	uet_pdc_fini(&live->core);
	kmem_cache_free(live_cache, live);
}

void pdc_put(struct uet_pds_pdc *pdc)
{
	if (refcount_dec_and_test(&pdc->ref)) {
		/* its timer was stopped at teardown (pdc_teardown()) */
		if (pdc->live)
			live_free(pdc->live);
		call_rcu(&pdc->rcu, pdc_free_rcu);
	}
}

/*
 * Queue @skb, a packet of @pdc's, to leave once its lock is let go:
 * sealed as @pdc's are (@sealed of struct uet_pds_pdc).
 */
void pdc_out(struct uet_pds_pdc *pdc, struct sk_buff *skb)
{
	lockdep_assert_held(&pdc->lock);
	if (pdc->initiator || pdc->sealed)
		uet_skb_set_job(skb, pdc->key.job);
	__skb_queue_tail(&pdc->live->out, skb);
}

/**
 * pdc_unlock() - let go of a PDC's lock and send what was queued under it
 * @pdc: the PDC, locked
 *
 * Packets are built under the lock (pdc_out()) and leave after it, so
 * that the lock is not held across the IP stack.  One context at a time
 * sends a PDC's packets (@pdc->xmitting), in the order they were queued;
 * a context that finds another sending leaves its packets to it.
 *
 * Context: bottom halves disabled; the caller keeps @pdc alive.
 */
void pdc_unlock(struct uet_pds_pdc *pdc)
	__releases(&pdc->lock)
{
	struct uet_pds_live *live = pdc->live;
	struct sk_buff_head q;

	lockdep_assert_held(&pdc->lock);
	/*
	 * Sending, @live stays: pdc_sleep() waits for !@xmitting.  A dead
	 * PDC's may be freed by its last reference, which whoever holds
	 * the lock without one does not stop (a dump): it is not touched.
	 */
	while (live && !pdc->dead && !live->xmitting &&
	       !skb_queue_empty(&live->out)) {
		/*
		 * The route cache (per CPU memory) comes with the second
		 * batch the live state sends, not the first: a PDC that sends
		 * one message and goes quiet does without.  Without one, each
		 * batch looks its route up.
		 */
		if (live->sent && !live->dst_cached &&
		    !dst_cache_init(&live->dst_cache,
				    GFP_ATOMIC | __GFP_NOWARN))
			live->dst_cached = true;
		__skb_queue_head_init(&q);
		skb_queue_splice_init(&live->out, &q);
		live->xmitting = true;
		live->sent = true;
		spin_unlock(&pdc->lock);
		uet_xmit_queue(pdc->udev, &q, &pdc->key.raddr, pdc->entropy,
			       live->dst_cached ? &live->dst_cache : NULL);
		spin_lock(&pdc->lock);
		live->xmitting = false;
	}
	spin_unlock(&pdc->lock);
}

/*
 * Free a quiet PDC's route cache.  Only the context sending a PDC's
 * packets uses it, outside the lock (pdc_unlock()): with none sending and
 * none queued, nothing does.
 */
static void pdc_dst_release(struct uet_pds_live *live)
{
	if (!live->dst_cached || live->xmitting || !skb_queue_empty(&live->out))
		return;
	dst_cache_destroy(&live->dst_cache);
	live->dst_cached = false;
}

/* pdc_unlock() for a lock taken with spin_lock_bh(). */
void pdc_unlock_bh(struct uet_pds_pdc *pdc)
	__releases(&pdc->lock)
{
	pdc_unlock(pdc);
	local_bh_enable();
}

/*
 * The tables' keys come from the network (a target's) or follow its
 * addresses (an initiator's): every hash is seeded at random, so that
 * nobody can aim many keys at one bucket.  Keys are compared field by
 * field, so that a key's padding never counts.
 */
static u32 ini_hashfn(const void *data, u32 len, u32 seed)
{
	const struct uet_pds_key *k = data;

	return jhash_3words(k->job, k->tc, k->mode,
			    jhash2((const u32 *)k->raddr.s6_addr32,
				   ARRAY_SIZE(k->raddr.s6_addr32), seed));
}

static u32 ini_obj_hashfn(const void *data, u32 len, u32 seed)
{
	const struct uet_pds_pdc *pdc = data;

	return ini_hashfn(&pdc->key, len, seed);
}

static int ini_obj_cmpfn(struct rhashtable_compare_arg *arg, const void *obj)
{
	const struct uet_pds_key *k = arg->key;
	const struct uet_pds_pdc *pdc = obj;

	return !ipv6_addr_equal(&pdc->key.raddr, &k->raddr) ||
	       pdc->key.job != k->job || pdc->key.tc != k->tc ||
	       pdc->key.mode != k->mode;
}

static const struct rhashtable_params ini_params = {
	.head_offset = offsetof(struct uet_pds_pdc, node),
	.key_len = sizeof(struct uet_pds_key),
	.hashfn = ini_hashfn,
	.obj_hashfn = ini_obj_hashfn,
	.obj_cmpfn = ini_obj_cmpfn,
	.automatic_shrinking = true,
};

/*
 * What finds a target's PDC: its peer, and the secure domain its SYN
 * opened in (pdc_tgt_domain()), so that a clear SYN naming a sealed
 * PDC's peer makes a PDC of its own rather than take that one's place.
 */
struct tgt_key {
	const struct in6_addr *raddr;
	u16 rpdcid;
	u32 domain;
};

static u32 tgt_hash(const struct in6_addr *raddr, u16 rpdcid, u32 domain,
		    u32 seed)
{
	u32 h = jhash2((const u32 *)raddr->s6_addr32,
		       ARRAY_SIZE(raddr->s6_addr32), seed);

	return jhash_2words(rpdcid, domain, h);
}

/* A target's domain in its table: 0 clear, else its job plus one. */
static u32 pdc_domain(const struct uet_pds_pdc *pdc)
{
	return pdc_tgt_domain(pdc->sealed, pdc->key.job);
}

static u32 tgt_hashfn(const void *data, u32 len, u32 seed)
{
	const struct tgt_key *k = data;

	return tgt_hash(k->raddr, k->rpdcid, k->domain, seed);
}

static u32 tgt_obj_hashfn(const void *data, u32 len, u32 seed)
{
	const struct uet_pds_pdc *pdc = data;

	return tgt_hash(&pdc->key.raddr, pdc->rpdcid, pdc_domain(pdc), seed);
}

/* A target's rpdcid and domain are set before it is hashed, and stay. */
static int tgt_obj_cmpfn(struct rhashtable_compare_arg *arg, const void *obj)
{
	const struct tgt_key *k = arg->key;
	const struct uet_pds_pdc *pdc = obj;

	return pdc->rpdcid != k->rpdcid || pdc_domain(pdc) != k->domain ||
	       !ipv6_addr_equal(&pdc->key.raddr, k->raddr);
}

static const struct rhashtable_params tgt_params = {
	.head_offset = offsetof(struct uet_pds_pdc, node),
	.key_len = sizeof(struct tgt_key),
	.hashfn = tgt_hashfn,
	.obj_hashfn = tgt_obj_hashfn,
	.obj_cmpfn = tgt_obj_cmpfn,
	.automatic_shrinking = true,
};

int pds_tables_init(struct uet_pds *pds)
{
	int err;

	err = rhashtable_init(&pds->ini, &ini_params);
	if (err)
		return err;
	err = rhashtable_init(&pds->tgt, &tgt_params);
	if (err)
		rhashtable_destroy(&pds->ini);
	return err;
}

/* Free the tables, every PDC taken out of them (pdc_unhash()). */
void pds_tables_destroy(struct uet_pds *pds)
{
	rhashtable_destroy(&pds->tgt);
	rhashtable_destroy(&pds->ini);
}

/* @pdc found under RCU, referenced; %NULL if it is going away. */
static struct uet_pds_pdc *pdc_tryget(struct uet_pds_pdc *pdc)
{
	return pdc && refcount_inc_not_zero(&pdc->ref) ? pdc : NULL;
}

/**
 * pdc_find_initiator() - the initiator PDC of a key
 * @pds: the device's PDS
 * @key: the key
 *
 * Context: any but hard interrupt; takes no lock but the table's own.
 * Return: the PDC, referenced, or %NULL.
 */
struct uet_pds_pdc *pdc_find_initiator(struct uet_pds *pds,
				       const struct uet_pds_key *key)
{
	struct uet_pds_pdc *pdc;

	rcu_read_lock();
	pdc = pdc_tryget(rhashtable_lookup(&pds->ini, key, ini_params));
	rcu_read_unlock();
	return pdc;
}

/**
 * pdc_find_target() - the target PDC a peer PDC made with its SYN
 * @pds: the device's PDS
 * @raddr: the peer's address
 * @rpdcid: the peer's PDCID
 * @domain: the secure domain the SYN opened in, pdc_tgt_domain()
 *
 * Context: any but hard interrupt; takes no lock but the table's own.
 * Return: the PDC, referenced, or %NULL.
 */
struct uet_pds_pdc *pdc_find_target(struct uet_pds *pds,
				    const struct in6_addr *raddr, u16 rpdcid,
				    u32 domain)
{
	struct tgt_key k = { .raddr = raddr, .rpdcid = rpdcid,
			     .domain = domain };
	struct uet_pds_pdc *pdc;

	rcu_read_lock();
	pdc = pdc_tryget(rhashtable_lookup(&pds->tgt, &k, tgt_params));
	rcu_read_unlock();
	return pdc;
}

/* Jiffies per tick of the scanner. */
static unsigned long pds_tick_jiffies(void)
{
	return msecs_to_jiffies(UET_PDS_SCAN_MS) ?: 1;
}

/* The first tick of the scanner at or after jiffies @at. */
u64 pds_tick_of(unsigned long at)
{
	unsigned long t = pds_tick_jiffies();
	u64 now = get_jiffies_64();
	long left = (long)(at - (unsigned long)now);

	return div_u64(left > 0 ? now + left + t - 1 : now, t);
}

/*
 * Put @pdc on its device's wheel, due at jiffies @at, wherever it was.
 * Context: bottom halves disabled; the caller has the PDC to itself as
 * far as the wheel goes (making it, or the scanner with it handed out).
 */
void pdc_wheel_add(struct uet_pds_pdc *pdc, unsigned long at)
{
	struct uet_pds *pds = &pdc->udev->pds;

	spin_lock(&pds->wheel_lock);
	uet_wheel_add(&pds->wheel, &pdc->idle, pds_tick_of(at));
	spin_unlock(&pds->wheel_lock);
}

/*
 * Have the scanner look at @pdc by jiffies @at, if it is on the wheel
 * and due later: not if the scanner has it now (it decides under the
 * PDC's lock, which the caller holds) or it is being torn down.
 */
void pdc_wheel_sooner(struct uet_pds_pdc *pdc, unsigned long at)
{
	struct uet_pds *pds = &pdc->udev->pds;
	u64 tick = pds_tick_of(at);

	lockdep_assert_held(&pdc->lock);
	spin_lock(&pds->wheel_lock);
	if (pdc->idle.on_wheel && pdc->idle.due > tick)
		uet_wheel_add(&pds->wheel, &pdc->idle, tick);
	spin_unlock(&pds->wheel_lock);
}

/*
 * @pdc has live state it does without once quiet, or a hole just filled
 * that kept it: the scanner looks a scan period from now.
 */
void pdc_look_soon(struct uet_pds_pdc *pdc)
{
	pdc_wheel_sooner(pdc, jiffies + msecs_to_jiffies(UET_PDS_SCAN_MS));
}

/* @pdc is done with: the scanner reclaims it at its next tick. */
void pdc_set_reclaim(struct uet_pds_pdc *pdc)
{
	lockdep_assert_held(&pdc->lock);
	pdc->reclaim = true;
	pdc_wheel_sooner(pdc, jiffies);
}

/* Like the tables' hashes, seeded. */
static u32 src_hash(const struct uet_pds *pds, const struct in6_addr *addr)
{
	return jhash(addr, sizeof(*addr), pds->seed);
}

/*
 * The entry of source @addr, made if there is none; %NULL when it has
 * all the target PDCs it may (counted), or memory is short.
 */
struct uet_pds_src *src_get(struct uet_dev *udev,
			    const struct in6_addr *addr)
{
	struct uet_pds *pds = &udev->pds;
	u32 hash = src_hash(pds, addr);
	struct uet_pds_src *src;

	lockdep_assert_held(&pds->lock);
	hash_for_each_possible(pds->srcs, src, node, hash)
		if (ipv6_addr_equal(&src->addr, addr))
			goto found;
	src = kzalloc(sizeof(*src), GFP_ATOMIC);
	if (!src)
		return NULL;
	src->addr = *addr;
	hash_add(pds->srcs, &src->node, hash);
found:
	if (src->pdcs >= READ_ONCE(udev->cfg.pdc_per_source)) {
		uet_count(udev, UET_CNT_PDC_SOURCE_LIMIT, 1);
		return NULL;
	}
	return src;
}

/* A target PDC of @src's is gone: the entry goes with its last. */
void src_put(struct uet_pds *pds, struct uet_pds_src *src)
{
	lockdep_assert_held(&pds->lock);
	if (!src || --src->pdcs)
		return;
	hash_del(&src->node);
	kfree(src);
}

/* A packet of nothing but the PDS header @h, @len bytes; %NULL if none. */
struct sk_buff *pds_hdr_skb(const struct uet_pds_hdr_info *h,
			    unsigned int len)
{
	struct sk_buff *skb;

	skb = alloc_skb(UET_PDS_HEADROOM + len + UET_PDS_TAILROOM, GFP_ATOMIC);
	if (!skb)
		return NULL;
	skb_reserve(skb, UET_PDS_HEADROOM);
	if (WARN_ON_ONCE(uet_pds_build(skb_put(skb, len), len, h) < 0)) {
		kfree_skb(skb);
		return NULL;
	}
	return skb;
}

/**
 * pds_answer() - answer a packet that no PDC of ours takes
 * @udev: the device it arrived on
 * @rx: the packet; the answer goes sealed as it came
 * @h: the answer, a PDS header alone
 * @len: its length
 * @daddr: the packet's source address, which nothing vouches for
 *
 * Each answer takes a fresh entropy value, and the device sends at most
 * %UET_PDS_ANSWER_BURST of them a second.
 *
 * Return: true if the answer went out.
 */
bool pds_answer(struct uet_dev *udev, const struct sk_buff *rx,
		const struct uet_pds_hdr_info *h, unsigned int len,
		const struct in6_addr *daddr)
{
	const struct uet_rx_cb *rcb = (const void *)rx->cb;
	struct sk_buff *skb;

	if (!__ratelimit(&udev->pds.answers))
		return false;
	skb = pds_hdr_skb(h, len);
	if (!skb)
		return false;
	if (rcb->sealed)
		uet_skb_set_job(skb, rcb->sdi);
	uet_xmit(udev, skb, daddr, get_random_u16(), NULL);
	return true;
}

/*
 * Take @pdc out of its table: an initiator's next send opens a new PDC, a
 * target's next SYN from that peer PDC too.
 */
void pdc_unhash(struct uet_pds_pdc *pdc)
{
	struct uet_pds *pds = &pdc->udev->pds;

	/* -ENOENT when taken out before, or never hashed: nothing to do */
	if (pdc->initiator)
		rhashtable_remove_fast(&pds->ini, &pdc->node, ini_params);
	else
		rhashtable_remove_fast(&pds->tgt, &pdc->node, tgt_params);
}

static const struct uet_pds_events __rcu *pds_events;

/**
 * uet_pds_set_events() - set the control plane's hook for PDC events
 * @ev: the hook, or %NULL for none
 *
 * The caller waits for RCU readers (synchronize_rcu()) before it takes
 * away what a hook it replaced may still be running.
 */
void uet_pds_set_events(const struct uet_pds_events *ev)
{
	rcu_assign_pointer(pds_events, ev);
}

/*
 * Tell the control plane that @pdc was made (@added) or went back to its
 * pool (struct uet_pds_events): its identity, which it never changes but
 * for an initiator's peer PDCID, learnt once.
 */
void pdc_event(struct uet_pds_pdc *pdc, bool added)
{
	const struct uet_pds_events *ev;
	struct uet_pdc_info info;

	rcu_read_lock();
	ev = rcu_dereference(pds_events);
	if (ev && ev->wanted(pdc->udev)) {
		info = (struct uet_pdc_info) {
			.peer = pdc->key.raddr,
			.job = pdc->key.job,
			.lpdcid = pdc->lpdcid,
			.rpdcid = READ_ONCE(pdc->rpdcid),
			.mode = pdc->key.mode,
			.tc = pdc->key.tc,
			.initiator = pdc->initiator,
		};
		ev->pdc(pdc->udev, &info, added);
	}
	rcu_read_unlock();
}

/* The parameters of a core of @mode on @udev, from its settings now. */
static void pdc_cfg(struct uet_dev *udev, enum uet_pdc_mode mode,
		    struct uet_pdc_cfg *cfg)
{
	uet_pdc_cfg_default(cfg, mode);
	if (mode == UET_PDC_ROD)
		cfg->window = UET_PDS_ROD_WINDOW;
	cfg->rto_min = (u64)READ_ONCE(udev->cfg.rto_min_us) * NSEC_PER_USEC;
	cfg->rto_max = (u64)READ_ONCE(udev->cfg.rto_max_us) * NSEC_PER_USEC;
	cfg->rto_initial = (u64)READ_ONCE(udev->cfg.rto_initial_us) *
			   NSEC_PER_USEC;
	/* the peer holds ACKs back as long as this device would */
	cfg->ack_delay = (u64)READ_ONCE(udev->cfg.ack_delay_us) * NSEC_PER_USEC;
	/*
	 * The control plane writes the three one after the other: read
	 * meanwhile, an old one and a new one can be out of order.
	 */
	cfg->rto_max = max(cfg->rto_max, cfg->rto_min);
	cfg->rto_initial = clamp(cfg->rto_initial, cfg->rto_min, cfg->rto_max);
}

/*
 * An initiator's congestion control, as its job or else the device has
 * it (each of NSCC's parameters too, and whether it takes rate advice):
 * NSCC's window, RCCC's credit, both or neither; with either, the
 * congestion context of its path, which it joins (pds_ccx.c), leaving any
 * it had.  RCCC holds at most, and sends first, what NSCC's window would
 * start at: 1.5 BDP.
 *
 * Return: 0, or -ENOMEM (@live as it was).
 */
static int pdc_cc_init(struct uet_pds_pdc *pdc, struct uet_pds_live *live)
{
	u32 gen = atomic_read(&pdc->udev->cc_gen);
	struct uet_pds_ccx *ccx = NULL;
	bool nscc, rccc;
	u8 cc;

	if (!pdc->initiator)
		return 0;
	/* the settings as they were when @gen was bumped, or newer */
	smp_rmb();
	cc = pds_cc_wanted(pdc->udev, &pdc->key);
	nscc = pds_cc_nscc(cc);
	rccc = pds_cc_rccc(cc);
	if (nscc || rccc) {
		ccx = pds_ccx_of(pdc->udev, &pdc->key);
		if (!ccx)
			return -ENOMEM;
	}
	live_cc_fini(live);
	live->ccx = ccx;
	live->ra_floor = uet_job_ra_floor(pdc->udev, pdc->key.job);
	live->cc_gen = gen;
	live->cc_on = nscc;
	live->rccc_on = rccc;
	if (rccc)
		uet_rccc_tx_init(&live->credit, pds_ccx_credit(ccx, 0, 0),
				 ccx->cc.mss, pdc->pull);
	return 0;
}

/**
 * pdc_cc_refresh() - an initiator takes its congestion control anew
 * @pdc: the initiator, locked, live, with nothing in flight
 *
 * If its job's or device's settings changed since the PDC took its
 * congestion control, it takes it anew (and its rate advice floor), as
 * a PDC that wakes does: a PDC busy without a pause would otherwise keep
 * the old one for good.  With
 * the same kinds (NSCC's window, RCCC's credit) it moves to the context
 * of NSCC's parameters now, keeping its credit; with others it starts
 * again.
 */
void pdc_cc_refresh(struct uet_pds_pdc *pdc)
{
	struct uet_pds_live *live = pdc->live;
	u32 gen = atomic_read(&pdc->udev->cc_gen);
	struct uet_pds_ccx *ccx;
	u8 cc;

	lockdep_assert_held(&pdc->lock);
	if (live->cc_gen == gen)
		return;
	/* the settings as they were when @gen was bumped, or newer */
	smp_rmb();
	live->ra_floor = uet_job_ra_floor(pdc->udev, pdc->key.job);
	cc = pds_cc_wanted(pdc->udev, &pdc->key);
	if (live->cc_on == pds_cc_nscc(cc) && live->rccc_on == pds_cc_rccc(cc)) {
		live->cc_gen = gen;
		if (!live->ccx)
			return;
		ccx = pds_ccx_of(pdc->udev, &pdc->key);
		if (!ccx) {
			uet_count(pdc->udev, UET_CNT_DROP_NO_MEMORY, 1);
			return;
		}
		/* nothing in flight: nothing of the PDC's in the old one */
		pds_ccx_put(&pdc->udev->pds, live->ccx, live->ccx_bytes);
		live->ccx = ccx;
		live->ccx_bytes = 0;
		return;
	}
	/* the grant heard, which the target's count goes on from */
	if (live->rccc_on)
		pdc->pull = live->credit.pull;
	/* short of memory, it keeps the one it has */
	if (pdc_cc_init(pdc, live))
		uet_count(pdc->udev, UET_CNT_DROP_NO_MEMORY, 1);
}

/*
 * How long REPS keeps to the entropies it knows after a timeout, 10 ms:
 * uet-htsim's exit_freeze_after (CircularBufferREPS).
 */
#define UET_PDS_REPS_FREEZE_NS	(10 * NSEC_PER_MSEC)

/*
 * An initiator's load balancing, as its job or else the device has it
 * now; a PDC keeps one entropy (its own) unless it sprays.  ROD never
 * does: its target takes requests in order only, and a path is what
 * keeps them in order.
 */
static void pdc_lb_init(struct uet_pds_pdc *pdc, struct uet_pds_live *live)
{
	const struct uet_dev_cfg *cfg = &pdc->udev->cfg;
	u8 mode = FIELD_GET(UET_PDS_LB_MODE, pdc->key.lb);
	u8 shift = FIELD_GET(UET_PDS_LB_SHIFT, pdc->key.lb);

	if (pdc->key.mode == UET_PDC_ROD)
		mode = UET_LB_MODE_SINGLE + 1;
	uet_lb_init(&live->lb, mode ? mode - 1 : READ_ONCE(cfg->lb),
		    shift ? 1U << (shift - 1) : READ_ONCE(cfg->lb_paths),
		    pdc->entropy, UET_PDS_REPS_FREEZE_NS, get_random_u32());
}

/**
 * pdc_wake() - the live state of a PDC, made if it has none
 * @pdc: the PDC, locked
 * @expired: what its timer does: an initiator's tail probe and
 *	retransmission timeout, a target's delayed ACK
 * @paced: an initiator's, what its pacing timer does: send what its rate
 *	cap held back (pds_ra.c); a target's, %NULL (never armed)
 *
 * A new core is made of what the PDC saved (uet_pdc_restore()), with the
 * device's settings of now: what changed while the PDC was quiet applies
 * from its next packet on.
 *
 * Return: the live state; %NULL if @pdc is dead (its live state, if any,
 * is its teardown's: the timer stopped, the requests failed) or memory is
 * short (counted: drop_no_memory).
 */
struct uet_pds_live *pdc_wake(struct uet_pds_pdc *pdc,
			      enum hrtimer_restart (*expired)(struct hrtimer *),
			      enum hrtimer_restart (*paced)(struct hrtimer *))
{
	struct uet_pds_live *live = pdc->live;
	struct uet_pdc_cfg cfg;

	lockdep_assert_held(&pdc->lock);
	if (pdc->dead)
		return NULL;
	if (live)
		return live;
	live = kmem_cache_zalloc(live_cache, GFP_ATOMIC | __GFP_NOWARN);
	if (!live) {
		uet_count(pdc->udev, UET_CNT_DROP_NO_MEMORY, 1);
		return NULL;
	}
	pdc_cfg(pdc->udev, pdc->key.mode, &cfg);
	/* the device's settings were checked when set */
	if (WARN_ON_ONCE(uet_pdc_restore(&live->core, &cfg, pdc->initiator,
					 &pdc->saved))) {
		kmem_cache_free(live_cache, live);
		return NULL;
	}
	live->pdc = pdc;
	uet_sched_init(&live->sched, pdc->initiator ? cfg.window : 0);
	hrtimer_init(&live->timer, CLOCK_MONOTONIC, HRTIMER_MODE_REL_SOFT);
	live->timer.function = expired;
	hrtimer_init(&live->pace, CLOCK_MONOTONIC, HRTIMER_MODE_REL_SOFT);
	live->pace.function = paced;
	__skb_queue_head_init(&live->out);
	if (pdc_cc_init(pdc, live)) {
		live_free(live);
		uet_count(pdc->udev, UET_CNT_DROP_NO_MEMORY, 1);
		return NULL;
	}
	if (pdc->initiator)
		pdc_lb_init(pdc, live);
	live->rx_entropy = pdc->entropy;
	live->rsp_rc = UET_SES_RC_OK;
	pdc->live = live;
	/* it goes once quiet: the scanner looks soon */
	pdc_look_soon(pdc);
	return live;
}

/**
 * pdc_core() - the core of a PDC as it stands
 * @pdc: the PDC, locked
 * @tmp: room for a core
 *
 * Return: its live core, or one made in @tmp of what it saved (with
 * nothing allocated, nothing to free).  A dead PDC's live core may be
 * freed by its last reference, which the caller need not hold: what it
 * saved last stands for it.
 */
const struct uet_pdc *pdc_core(const struct uet_pds_pdc *pdc,
			       struct uet_pdc *tmp)
{
	struct uet_pdc_cfg cfg;

	lockdep_assert_held(&pdc->lock);
	if (pdc->live && !pdc->dead)
		return &pdc->live->core;
	pdc_cfg(pdc->udev, pdc->key.mode, &cfg);
	if (WARN_ON_ONCE(uet_pdc_restore(tmp, &cfg, pdc->initiator,
					 &pdc->saved)))
		memset(tmp, 0, sizeof(*tmp));
	return tmp;
}

/*
 * Whether @live may go: nothing being sent or to send, and its timers
 * neither pending (cancelled here: a quiet PDC owes nothing) nor running.
 */
static bool live_idle(struct uet_pds_live *live)
{
	return !live->xmitting && skb_queue_empty(&live->out) &&
	       hrtimer_try_to_cancel(&live->timer) >= 0 &&
	       hrtimer_try_to_cancel(&live->pace) >= 0;
}

/**
 * pdc_sleep() - let a quiet PDC go of what it holds while traffic flows
 * @pdc: the PDC, locked, found quiet by the scanner (pdc_quiet())
 *
 * All of its live state goes if its core can be saved; a target with a
 * hole open (its initiator gone) keeps it, but for its route cache.
 */
void pdc_sleep(struct uet_pds_pdc *pdc)
{
	struct uet_pds_live *live = pdc->live;

	lockdep_assert_held(&pdc->lock);
	if (!live || pdc->dead || !live_idle(live))
		return;
	if (!uet_pdc_save(&live->core, &pdc->saved)) {
		pdc_dst_release(live);
		return;
	}
	/* the grant heard, which the target's count goes on from */
	if (live->rccc_on)
		pdc->pull = live->credit.pull;
	pdc->live = NULL;
	live_free(live);
}

/**
 * pdc_alloc() - a new PDC, in the table of local PDCIDs
 * @udev: the device
 * @key: an initiator's key; a target's peer address, mode and job
 * @initiator: made by a local send, or else by a peer's SYN
 * @start_psn: the PDC's first PSN
 * @rpdcid: a target's peer PDC
 * @sealed: a target's SYN opened under @key->job's secure domain
 *
 * Receivers find a PDC in the table by the ID a packet names, under RCU
 * and without its lock: it goes in only once whole, and then in the table
 * of its role, by its key or peer.  One that could not go in that table
 * (memory short) is marked for the scanner to reclaim, like one closed.
 * It has no live state yet: its first packet brings it (pdc_wake()).
 *
 * Context: under the device's struct uet_pds.lock.
 * Return: the PDC, referenced for the caller besides the tables' own
 * reference, or %NULL (its pool is exhausted, or no memory).
 */
struct uet_pds_pdc *pdc_alloc(struct uet_dev *udev,
			      const struct uet_pds_key *key, bool initiator,
			      u32 start_psn, u16 rpdcid, bool sealed)
{
	struct uet_pds_pdc *pdc;
	bool reserved;
	void *old;
	int err;
	u32 id;

	lockdep_assert_held(&udev->pds.lock);
	if (udev->pds.general < READ_ONCE(udev->cfg.pdc_pool)) {
		reserved = false;
	} else if (initiator &&
		   udev->pds.reserved < READ_ONCE(udev->cfg.pdc_reserved)) {
		reserved = true;
	} else {
		uet_count(udev, UET_CNT_PDC_POOL_EXHAUSTED, 1);
		return NULL;
	}
	pdc = kmem_cache_zalloc(pdc_cache, GFP_ATOMIC);
	if (!pdc)
		return NULL;
	/* the ID is reserved now, and the PDC stored at it below */
	if (xa_alloc(&udev->pds.pdcs, &id, NULL,
		     XA_LIMIT(1, UET_PDS_PDCID_MAX), GFP_ATOMIC)) {
		uet_count(udev, UET_CNT_PDC_POOL_EXHAUSTED, 1);
		kmem_cache_free(pdc_cache, pdc);
		return NULL;
	}
	pdc->reserved = reserved;
	pdc->udev = udev;
	refcount_set(&pdc->ref, 1);
	pdc->key = *key;
	pdc->initiator = initiator;
	pdc->sealed = sealed;
	pdc->lpdcid = id;
	pdc->rpdcid = rpdcid;
	pdc->rpdcid_known = !initiator;
	pdc->entropy = get_random_u16();
	pdc->last_active = jiffies;
	spin_lock_init(&pdc->lock);
	INIT_LIST_HEAD(&pdc->tx_wait);
	uet_wheel_entry_init(&pdc->idle);
	pdc->start_psn = start_psn;
	uet_pdc_saved_init(&pdc->saved, start_psn);
	old = xa_store(&udev->pds.pdcs, id, pdc, GFP_ATOMIC);
	if (xa_is_err(old)) {
		xa_erase(&udev->pds.pdcs, id);
		kmem_cache_free(pdc_cache, pdc);
		return NULL;
	}
	if (reserved)
		udev->pds.reserved++;
	else
		udev->pds.general++;
	uet_count(udev, UET_CNT_PDCS_CREATED, 1);
	/* the scanner sees it first when it could be idle */
	pdc_wheel_add(pdc, jiffies +
		      msecs_to_jiffies(READ_ONCE(udev->cfg.pdc_idle_ms)));
	if (initiator)
		err = rhashtable_insert_fast(&udev->pds.ini, &pdc->node,
					     ini_params);
	else
		err = rhashtable_insert_fast(&udev->pds.tgt, &pdc->node,
					     tgt_params);
	/*
	 * Found by its ID before it was on the wheel or in its table, it
	 * may have been marked for reclaim, or to close, meanwhile: it
	 * leaves its table again, and the scanner sees it at its next tick.
	 */
	spin_lock_bh(&pdc->lock);
	if (err || pdc->reclaim)
		pdc_set_reclaim(pdc);
	if (!err && (pdc->reclaim || pdc->close_wanted))
		pdc_unhash(pdc);
	spin_unlock_bh(&pdc->lock);
	if (err)
		return NULL;
	pdc_event(pdc, true);
	pdc_get(pdc);
	return pdc;
}

/**
 * pdc_admits() - whether a received packet may reach a PDC
 * @pdc: the PDC
 * @skb: the packet
 *
 * An initiator takes what its job takes (uet_tss_admits()); a target,
 * packets sealed or clear as the SYN that made it was, and sealed under
 * the same job's domain (@sealed of struct uet_pds_pdc).  The caller
 * counts a refusal in drop_tss_clear.
 *
 * Return: true if it may.
 */
bool pdc_admits(const struct uet_pds_pdc *pdc, const struct sk_buff *skb)
{
	const struct uet_rx_cb *rx = (const void *)skb->cb;

	if (pdc->initiator)
		return uet_tss_admits(pdc->udev, skb, pdc->key.job);
	return rx->sealed == pdc->sealed &&
	       (!rx->sealed || rx->sdi == pdc->key.job);
}

/**
 * pdc_get_by_id() - the PDC a received packet names, if it came from its peer
 * @udev: the device the packet arrived on
 * @skb: the packet
 * @lpdcid: the packet's DPDCID
 * @initiator: whether the packet is for an initiator (an ACK, a NACK, a
 *	REQ_CLOSE) or for a target (a request, a CLOSE)
 * @spdcid: the packet's SPDCID
 * @saddr: the packet's source address
 *
 * Only the peer may speak for a PDC: the packet must come from the PDC's
 * peer address and, for a target, from the peer's PDC that created it
 * with its SYN.  An initiator learns its peer's PDCID from the first
 * valid ACK: its callers check @spdcid under its lock, pdc_peer_is().
 * And the packet must be as the PDC's are, sealed or clear
 * (pdc_admits()).  Anything else is a counted drop.
 *
 * Return: the PDC, referenced, or %NULL.
 */
struct uet_pds_pdc *pdc_get_by_id(struct uet_dev *udev,
				  const struct sk_buff *skb, u16 lpdcid,
				  bool initiator, u16 spdcid,
				  const struct in6_addr *saddr)
{
	enum uet_counter drop = UET_CNT_DROP_UNKNOWN_PDC;
	struct uet_pds_pdc *pdc;

	rcu_read_lock();
	/*
	 * Role, key and a target's rpdcid are set before the PDC goes in the
	 * table (pdc_alloc()) and never change.
	 */
	pdc = xa_load(&udev->pds.pdcs, lpdcid);
	if (pdc && pdc->initiator != initiator)
		pdc = NULL;
	if (pdc && (!ipv6_addr_equal(&pdc->key.raddr, saddr) ||
		    (!initiator && pdc->rpdcid != spdcid))) {
		drop = UET_CNT_DROP_PDC_NOT_PEER;
		pdc = NULL;
	}
	if (pdc && !pdc_admits(pdc, skb)) {
		drop = UET_CNT_DROP_TSS_CLEAR;
		pdc = NULL;
	}
	if (pdc && !refcount_inc_not_zero(&pdc->ref))
		pdc = NULL;
	rcu_read_unlock();
	if (!pdc)
		uet_count(udev, drop, 1);
	return pdc;
}

/*
 * Whether @spdcid may be @pdc's peer PDC: it is, or @pdc does not know
 * its peer's yet (an initiator before the first valid ACK).
 */
bool pdc_peer_is(const struct uet_pds_pdc *pdc, u16 spdcid)
{
	lockdep_assert_held(&pdc->lock);
	return !pdc->rpdcid_known || pdc->rpdcid == spdcid;
}

/*
 * Established, nothing owed either way (nothing, without live state), and
 * no rate cap holding (pdc_ra_lapse()).
 */
bool pdc_quiet(const struct uet_pds_pdc *pdc)
{
	const struct uet_pds_live *live = pdc->live;

	if (!live)
		return pdc->saved.state == UET_PDC_ESTABLISHED;
	return live->core.state == UET_PDC_ESTABLISHED && !live->ra.cap &&
	       !uet_sched_queued(&live->sched) &&
	       !uet_pdc_tx_in_flight(&live->core) &&
	       !uet_pdc_rx_ack_pending(&live->core);
}
