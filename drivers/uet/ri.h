/* SPDX-License-Identifier: GPL-2.0 */
/*
 * uet RI table: the registered memory of a device that peers may read and
 * write, found by the memory key (rkey) a request carries.
 */
#ifndef _UET_RI_H
#define _UET_RI_H

#include <linux/bits.h>
#include <linux/spinlock.h>
#include <linux/types.h>
#include <linux/xarray.h>

#include "mem.h"

struct ib_device;
struct uet_dev;
struct uet_ses_req_info;

/* What peers may do to a region. */
#define UET_ACCESS_REMOTE_READ		BIT(0)
#define UET_ACCESS_REMOTE_WRITE		BIT(1)
#define UET_ACCESS_REMOTE_ATOMIC	BIT(2)
#define UET_ACCESS_MASK			GENMASK(2, 0)

/*
 * An rkey is an entry's index above its 8-bit generation, the way IB keys
 * carry a "key" byte: a key that outlives its registration names a
 * generation that no longer matches.  On the wire it is the memory key
 * (match bits); the SES header's 12-bit resource index carries the low
 * bits of the index and the RI generation field the generation, so a
 * request whose fields disagree is refused (Documentation/engine.rst).
 */
#define UET_RKEY_GEN		GENMASK(7, 0)
#define UET_RKEY_INDEX		GENMASK(31, 8)
#define UET_RI_WIRE_INDEX	GENMASK(11, 0)

/**
 * struct uet_ri_table - the RI table of a device
 * @entries: struct uet_ri_entry by index; its own lock, readers use RCU.
 * @amo_lock: serialises the atomic operations on the table's regions, so
 *	that each reads and writes its integer as one step with respect to
 *	the others (what IB calls IB_ATOMIC_HCA).
 */
struct uet_ri_table {
	struct xarray entries;
	spinlock_t amo_lock;	/* see above */
};

int uet_ri_add(struct ib_device *ibdev, u32 job, const void *domain,
	       const struct uet_mem *mem, u32 access, u32 *rkey);
void uet_ri_del(struct ib_device *ibdev, u32 rkey);
int uet_ri_update(struct ib_device *ibdev, u32 *rkey, u8 gen,
		  const struct uet_mem *mem, u32 access);

/* For the SES layer, under rcu_read_lock(). */
u8 uet_ri_check(struct uet_dev *udev, const struct uet_ses_req_info *req,
		const void *domain, u32 access, u64 addr, u64 len,
		const struct uet_mem **mem);
void uet_ri_init(struct uet_dev *udev);
void uet_ri_fini(struct uet_dev *udev);

#endif /* _UET_RI_H */
