// SPDX-License-Identifier: GPL-2.0
/*
 * uet RI table: registered regions by memory key.  Entries are added and
 * removed in process context; requests look them up in softirq under RCU,
 * so removal waits for a grace period before the region may go.
 */
#include <linux/bitfield.h>
#include <linux/random.h>
#include <linux/rcupdate.h>
#include <linux/slab.h>

#include "counters.h"
#include "ri.h"
#include "ses.h"
#include "uet.h"
#include "wire.h"

/*
 * Random indexes a new entry tries before it takes the lowest free one:
 * with the table nearly empty, as it is, the first try almost always
 * succeeds.
 */
#define UET_RI_RANDOM_TRIES	4

/**
 * struct uet_ri_entry - a registered region
 * @mem: the region, kept by the registrant until uet_ri_del() returns.
 * @domain: the protection domain whose endpoints may access it.
 * @job: the job whose requests may access it.
 * @access: UET_ACCESS_*.
 * @gen: generation, the low byte of the rkey.
 * @rcu: freed after the readers that found it.
 */
struct uet_ri_entry {
	const struct uet_mem *mem;
	const void *domain;
	u32 job;
	u32 access;
	u8 gen;
	struct rcu_head rcu;
};

/*
 * Put @e at a random free index of @t: an rkey a peer has not been told is
 * then one of 2^32 values, not the next one up.
 */
static int ri_insert(struct uet_ri_table *t, struct uet_ri_entry *e,
		     u32 *index)
{
	int i, err;

	for (i = 0; i < UET_RI_RANDOM_TRIES; i++) {
		*index = get_random_u32_inclusive(1, FIELD_MAX(UET_RKEY_INDEX));
		err = xa_insert_bh(&t->entries, *index, e, GFP_KERNEL);
		if (err != -EBUSY)
			return err;
	}
	return xa_alloc_bh(&t->entries, index, e,
			   XA_LIMIT(1, FIELD_MAX(UET_RKEY_INDEX)), GFP_KERNEL);
}

/**
 * uet_ri_add() - register a region peers may access
 * @ibdev: a uet device
 * @job: the job whose requests may access it
 * @domain: the protection domain whose endpoints may access it (see
 *	uet_ep_open())
 * @mem: the region; the caller keeps it alive until uet_ri_del() returns
 * @access: UET_ACCESS_* bits
 * @rkey: set to the key peers name it by, a random one among those free
 *
 * Context: process.
 * Return: 0, -EINVAL for bad arguments, -ENOSPC when the table is full,
 * -ENOMEM.
 */
int uet_ri_add(struct ib_device *ibdev, u32 job, const void *domain,
	       const struct uet_mem *mem, u32 access, u32 *rkey)
{
	struct uet_ri_table *t = &to_uet_dev(ibdev)->ri;
	struct uet_ri_entry *e;
	u32 index;
	int err;

	if (job >> UET_JOB_BITS || access & ~UET_ACCESS_MASK)
		return -EINVAL;
	e = kzalloc(sizeof(*e), GFP_KERNEL);
	if (!e)
		return -ENOMEM;
	e->mem = mem;
	e->domain = domain;
	e->job = job;
	e->access = access;
	e->gen = get_random_u8();

	err = ri_insert(t, e, &index);
	if (err) {
		kfree(e);
		return err == -EBUSY ? -ENOSPC : err;
	}
	*rkey = FIELD_PREP(UET_RKEY_INDEX, index) | FIELD_PREP(UET_RKEY_GEN, e->gen);
	return 0;
}
EXPORT_SYMBOL_NS_GPL(uet_ri_add, UET_ENGINE);

/**
 * uet_ri_del() - unregister a region
 * @ibdev: its device
 * @rkey: what uet_ri_add() returned
 *
 * Returns once no request is reading from or writing into the region.
 * Context: process, may sleep.
 */
void uet_ri_del(struct ib_device *ibdev, u32 rkey)
{
	struct uet_ri_table *t = &to_uet_dev(ibdev)->ri;
	u32 index = FIELD_GET(UET_RKEY_INDEX, rkey);
	struct uet_ri_entry *e;

	xa_lock_bh(&t->entries);
	e = xa_load(&t->entries, index);
	if (e && e->gen == FIELD_GET(UET_RKEY_GEN, rkey))
		__xa_erase(&t->entries, index);
	else
		e = NULL;
	xa_unlock_bh(&t->entries);
	if (WARN_ON_ONCE(!e))
		return;
	synchronize_rcu();
	kfree(e);
}
EXPORT_SYMBOL_NS_GPL(uet_ri_del, UET_ENGINE);

/**
 * uet_ri_update() - give a registration a new generation, region and access
 * @ibdev: its device
 * @rkey: its key; set to the new one (same index, generation @gen)
 * @gen: the new generation
 * @mem: the region now registered, kept as for uet_ri_add() ...
 * @access: ... and what peers may do to it, UET_ACCESS_* bits (0: nothing)
 *
 * The index stays the entry's: a fast-registered MR keeps its rkey's index
 * from one registration to the next, so its owner knows the next rkey
 * before the registration happens.  Returns once no request uses the
 * entry's former region.
 *
 * Context: process, may sleep.
 * Return: 0, -EINVAL when @rkey names no entry, -ENOMEM.
 */
int uet_ri_update(struct ib_device *ibdev, u32 *rkey, u8 gen,
		  const struct uet_mem *mem, u32 access)
{
	struct uet_ri_table *t = &to_uet_dev(ibdev)->ri;
	u32 index = FIELD_GET(UET_RKEY_INDEX, *rkey);
	struct uet_ri_entry *e, *old;

	if (access & ~UET_ACCESS_MASK)
		return -EINVAL;
	e = kzalloc(sizeof(*e), GFP_KERNEL);
	if (!e)
		return -ENOMEM;
	e->mem = mem;
	e->access = access;
	e->gen = gen;

	xa_lock_bh(&t->entries);
	old = xa_load(&t->entries, index);
	if (old && old->gen == FIELD_GET(UET_RKEY_GEN, *rkey)) {
		e->domain = old->domain;
		e->job = old->job;
		/* replaces an entry in place: allocates nothing, cannot fail */
		__xa_store(&t->entries, index, e, GFP_ATOMIC);
	} else {
		old = NULL;
	}
	xa_unlock_bh(&t->entries);
	if (!old) {
		kfree(e);
		return -EINVAL;
	}
	synchronize_rcu();
	kfree(old);
	*rkey = FIELD_PREP(UET_RKEY_INDEX, index) | FIELD_PREP(UET_RKEY_GEN, gen);
	return 0;
}

/**
 * uet_ri_check() - may a request access [@addr, @addr + @len)?
 * @udev: the target device
 * @req: the request's SES header: memory key, resource index, generation,
 *	job
 * @domain: the protection domain of the endpoint it reached
 * @access: the access it needs, one UET_ACCESS_* bit
 * @addr: the first byte it names
 * @len: how many
 * @mem: set to the region when allowed
 *
 * Every refusal is counted as a drop.  Context: rcu_read_lock() held, until
 * the caller is done with *@mem.
 *
 * Return: %UET_SES_RC_OK, or the SES return code to answer with.
 */
u8 uet_ri_check(struct uet_dev *udev, const struct uet_ses_req_info *req,
		const void *domain, u32 access, u64 addr, u64 len,
		const struct uet_mem **mem)
{
	u32 rkey = (u32)req->match_bits;
	u32 index = FIELD_GET(UET_RKEY_INDEX, rkey);
	struct uet_ri_entry *e;
	u8 rc;

	RCU_LOCKDEP_WARN(!rcu_read_lock_held(), "RI table lookup outside RCU");
	e = req->match_bits >> 32 ? NULL : xa_load(&udev->ri.entries, index);
	/* another domain's region is not there for this endpoint */
	if (!e || e->domain != domain)
		rc = UET_SES_RC_BAD_MKEY;
	else if (req->resource_index != FIELD_GET(UET_RI_WIRE_INDEX, index))
		rc = UET_SES_RC_BAD_INDEX;
	else if (e->gen != FIELD_GET(UET_RKEY_GEN, rkey) ||
		 e->gen != req->ri_generation)
		rc = UET_SES_RC_BAD_GENERATION;
	else if (e->job != req->job_id)
		rc = UET_SES_RC_BAD_JOB_ID;
	else
		rc = UET_SES_RC_OK;
	if (rc != UET_SES_RC_OK) {
		uet_count(udev, UET_CNT_DROP_BAD_RKEY, 1);
		return rc;
	}
	if (!(e->access & access)) {
		uet_count(udev, UET_CNT_DROP_ACCESS, 1);
		return UET_SES_RC_PERM_VIOLATION;
	}
	if (!uet_mem_contains(e->mem, addr, len)) {
		uet_count(udev, UET_CNT_DROP_BOUNDS, 1);
		return UET_SES_RC_AT_OUT_OF_RANGE;
	}
	*mem = e->mem;
	return UET_SES_RC_OK;
}

void uet_ri_init(struct uet_dev *udev)
{
	xa_init_flags(&udev->ri.entries, XA_FLAGS_ALLOC1 | XA_FLAGS_LOCK_BH);
	spin_lock_init(&udev->ri.amo_lock);
}

void uet_ri_fini(struct uet_dev *udev)
{
	/* Registrants hold the device: none can remain. */
	WARN_ON(!xa_empty(&udev->ri.entries));
	xa_destroy(&udev->ri.entries);
}
