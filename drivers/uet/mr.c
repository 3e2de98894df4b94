// SPDX-License-Identifier: GPL-2.0
/*
 * uet memory regions: registration, keys, and access to their bytes.
 *
 * An lkey is {index in the device's MR table, 8-bit generation}, resolved
 * here.  A region that grants remote access is also entered in the
 * device's RI table (ri.c), which gives its rkey: peers' requests find it
 * there.  A region without remote access has no rkey of its own (it
 * reports its lkey, which names nothing in the RI table).
 *
 * A fast MR holds its RI entry from allocation to deregistration, without
 * access while it is invalid: its rkey keeps the entry's index, and each
 * REG_MR sets only its low byte, the key the consumer chose with
 * ib_update_fast_reg_key(), as IB keys do.  So a kernel user knows the
 * rkey of a registration before posting it, and may send it to a peer
 * along with the REG_MR.
 *
 * Lookups from the data path run under RCU and take a reference, held as
 * long as the engine may use the memory (a posted receive, an RDMA read);
 * deregistration removes the region from both tables and drops the
 * table's reference, and the last reference frees it.  Pinned pages are
 * released in process context: the data path drops its references from
 * its work items, never from a softirq.
 */
#include <linux/highmem.h>
#include <linux/scatterlist.h>
#include <linux/slab.h>
#include <rdma/ib_umem.h>
#include <rdma/ib_verbs.h>

#include "ri.h"
#include "uet.h"
#include "verbs.h"

/* Access flags a region may carry; IB_ACCESS_OPTIONAL ones are hints. */
#define UET_MR_ACCESS	(IB_ACCESS_LOCAL_WRITE | IB_ACCESS_REMOTE_WRITE | \
			 IB_ACCESS_REMOTE_READ | IB_ACCESS_REMOTE_ATOMIC)

static int mr_check_access(int *access)
{
	*access &= ~IB_ACCESS_OPTIONAL;
	if (*access & ~UET_MR_ACCESS)
		return -EOPNOTSUPP;
	/* IB spec C10-87: remote write and atomics need local write. */
	if ((*access & (IB_ACCESS_REMOTE_WRITE | IB_ACCESS_REMOTE_ATOMIC)) &&
	    !(*access & IB_ACCESS_LOCAL_WRITE))
		return -EINVAL;
	return 0;
}

static struct uet_mr *mr_alloc(enum uet_mr_kind kind, int access)
{
	struct uet_mr *mr;

	mr = kzalloc(sizeof(*mr), GFP_KERNEL);
	if (!mr)
		return NULL;
	mr->kind = kind;
	mr->access = access;
	mr->ibmr.type = IB_MR_TYPE_MEM_REG;
	refcount_set(&mr->ref, 1);
	return mr;
}

/* Enter @mr in the device's table and give it its keys. */
static int mr_add(struct uet_dev *udev, struct uet_mr *mr)
{
	u32 idx;
	int err;

	err = xa_alloc_bh(&udev->vdev.mrs, &idx, mr, XA_LIMIT(1, UET_MAX_MR),
			  GFP_KERNEL);
	if (err)
		return err == -EBUSY ? -ENOMEM : err;
	mr->ibmr.lkey = idx << UET_KEY_GEN_BITS | uet_key_gen(udev);
	mr->ibmr.rkey = mr->ibmr.lkey;
	return 0;
}

/*
 * Offer @mr to the peers of @ibpd's QPs when its access says so; its rkey
 * comes from there.
 */
static int mr_ri_add(struct ib_pd *ibpd, struct uet_mr *mr)
{
	int err;

	if (!uet_ri_access(mr->access)) {
		mr->ibmr.rkey = mr->ibmr.lkey;
		return 0;
	}
	err = uet_ri_add(ibpd->device, UET_JOB_DEFAULT, ibpd, &mr->mem,
			 uet_ri_access(mr->access), &mr->ri_key);
	if (err)
		return err;
	mr->ibmr.rkey = mr->ri_key;
	mr->in_ri = true;
	return 0;
}

static void mr_ri_del(struct ib_device *ibdev, struct uet_mr *mr)
{
	if (mr->in_ri)
		uet_ri_del(ibdev, mr->ri_key);
	mr->in_ri = false;
}

static void mr_free(struct uet_mr *mr)
{
	might_sleep();
	if (mr->umem)
		ib_umem_release(mr->umem);
	kvfree(mr->pages);
	kfree_rcu(mr, rcu);
}

struct ib_mr *uet_get_dma_mr(struct ib_pd *ibpd, int access)
{
	struct uet_mr *mr;
	int err;

	err = mr_check_access(&access);
	if (err)
		return ERR_PTR(err);
	mr = mr_alloc(UET_MR_DMA, access);
	if (!mr)
		return ERR_PTR(-ENOMEM);
	/* all of kernel memory: the engine's kernel-address regions */
	mr->ibmr.length = U64_MAX;
	mr->mem.length = U64_MAX;
	mr->valid = true;
	err = mr_add(to_uet_dev(ibpd->device), mr);
	if (err) {
		kfree(mr);
		return ERR_PTR(err);
	}
	/* remote access to all of memory is never offered */
	mr->ibmr.rkey = mr->ibmr.lkey;
	return &mr->ibmr;
}

/* The pinned pages of @mr->umem, in order. */
static int mr_collect_pages(struct uet_mr *mr)
{
	struct sg_page_iter it;
	unsigned int n = 0;

	mr->max_pages = ib_umem_num_pages(mr->umem);
	mr->pages = kvcalloc(mr->max_pages, sizeof(*mr->pages), GFP_KERNEL);
	if (!mr->pages)
		return -ENOMEM;
	for_each_sgtable_page(&mr->umem->sgt_append.sgt, &it, 0) {
		if (n == mr->max_pages)
			return -EFAULT;
		mr->pages[n++] = sg_page_iter_page(&it);
	}
	mr->npages = n;
	mr->offset = ib_umem_offset(mr->umem);
	mr->mem.pages = mr->pages;
	mr->mem.npages = n;
	mr->mem.offset = mr->offset;
	return 0;
}

struct ib_mr *uet_reg_user_mr(struct ib_pd *ibpd, u64 start, u64 length,
			      u64 iova, int access, struct ib_udata *udata)
{
	struct uet_mr *mr;
	int err;

	err = mr_check_access(&access);
	if (err)
		return ERR_PTR(err);
	if (!length || length > U32_MAX * (u64)PAGE_SIZE)
		return ERR_PTR(-EINVAL);
	mr = mr_alloc(UET_MR_USER, access);
	if (!mr)
		return ERR_PTR(-ENOMEM);
	mr->umem = ib_umem_get(ibpd->device, start, length, access);
	if (IS_ERR(mr->umem)) {
		err = PTR_ERR(mr->umem);
		mr->umem = NULL;
		goto err_free;
	}
	err = mr_collect_pages(mr);
	if (err)
		goto err_free;
	mr->ibmr.iova = iova;
	mr->ibmr.length = length;
	mr->mem.iova = iova;
	mr->mem.length = length;
	mr->valid = true;
	err = mr_add(to_uet_dev(ibpd->device), mr);
	if (err)
		goto err_free;
	err = mr_ri_add(ibpd, mr);
	if (err)
		goto err_del;
	return &mr->ibmr;

err_del:
	xa_erase_bh(&to_uet_dev(ibpd->device)->vdev.mrs,
		    mr->ibmr.lkey >> UET_KEY_GEN_BITS);
	synchronize_rcu();	/* a lookup may have seen it */
err_free:
	if (mr->umem)
		ib_umem_release(mr->umem);
	kvfree(mr->pages);
	kfree(mr);
	return ERR_PTR(err);
}

struct ib_mr *uet_alloc_mr(struct ib_pd *ibpd, enum ib_mr_type type,
			   u32 max_num_sg)
{
	struct uet_mr *mr;
	int err;

	if (type != IB_MR_TYPE_MEM_REG)
		return ERR_PTR(-EOPNOTSUPP);
	if (!max_num_sg || max_num_sg > UET_MAX_FMR_PAGES)
		return ERR_PTR(-EINVAL);
	mr = mr_alloc(UET_MR_FAST, 0);
	if (!mr)
		return ERR_PTR(-ENOMEM);
	mr->max_pages = max_num_sg;
	mr->pages = kvcalloc(max_num_sg, sizeof(*mr->pages), GFP_KERNEL);
	if (!mr->pages) {
		err = -ENOMEM;
		goto err_free;
	}
	err = mr_add(to_uet_dev(ibpd->device), mr);
	if (err)
		goto err_free;
	/* its RI entry, no access until a REG_MR (mr->mem is empty) */
	err = uet_ri_add(ibpd->device, UET_JOB_DEFAULT, ibpd, &mr->mem, 0,
			 &mr->ri_key);
	if (err)
		goto err_del;
	mr->ibmr.rkey = mr->ri_key;
	mr->in_ri = true;
	return &mr->ibmr;

err_del:
	xa_erase_bh(&to_uet_dev(ibpd->device)->vdev.mrs,
		    mr->ibmr.lkey >> UET_KEY_GEN_BITS);
	synchronize_rcu();	/* a lookup may have seen it */
err_free:
	kvfree(mr->pages);
	kfree(mr);
	return ERR_PTR(err);
}

/* ib_sg_to_pages() callback: @addr is a kernel virtual address (the device
 * uses the core's virtual DMA mapping).
 */
static int mr_set_page(struct ib_mr *ibmr, u64 addr)
{
	struct uet_mr *mr = to_uet_mr(ibmr);

	if (mr->npages == mr->max_pages)
		return -ENOMEM;
	mr->pages[mr->npages++] = virt_to_page((void *)(uintptr_t)addr);
	return 0;
}

int uet_map_mr_sg(struct ib_mr *ibmr, struct scatterlist *sg, int sg_nents,
		  unsigned int *sg_offset)
{
	struct uet_mr *mr = to_uet_mr(ibmr);
	int n;

	if (ibmr->page_size != PAGE_SIZE)
		return -EINVAL;
	mr->npages = 0;
	n = ib_sg_to_pages(ibmr, sg, sg_nents, sg_offset, mr_set_page);
	mr->offset = ibmr->iova & ~PAGE_MASK;
	return n;
}

int uet_dereg_mr(struct ib_mr *ibmr, struct ib_udata *udata)
{
	struct uet_mr *mr = to_uet_mr(ibmr);
	struct uet_dev *udev = to_uet_dev(ibmr->device);

	mr_ri_del(ibmr->device, mr);
	xa_erase_bh(&udev->vdev.mrs, mr->ibmr.lkey >> UET_KEY_GEN_BITS);
	uet_mr_put(mr);
	return 0;
}

static struct uet_mr *mr_find(struct uet_dev *udev, u32 key)
{
	struct uet_mr *mr;

	RCU_LOCKDEP_WARN(!rcu_read_lock_held(), "MR lookup outside RCU");
	mr = xa_load(&udev->vdev.mrs, key >> UET_KEY_GEN_BITS);
	if (!mr || mr->ibmr.lkey != key)
		return NULL;
	return mr;
}

/* A fast MR by its rkey (the RI table's), as LOCAL_INV may name it. */
static struct uet_mr *mr_find_rkey(struct uet_dev *udev, u32 rkey)
{
	struct uet_mr *mr;
	unsigned long i;

	RCU_LOCKDEP_WARN(!rcu_read_lock_held(), "MR lookup outside RCU");
	xa_for_each(&udev->vdev.mrs, i, mr)
		if (mr->kind == UET_MR_FAST && READ_ONCE(mr->in_ri) &&
		    mr->ri_key == rkey)
			return mr;
	return NULL;
}

/**
 * uet_mr_get() - find the region of a key and check an access to it
 * @udev: the device
 * @pd: the protection domain the access comes from
 * @key: the lkey or rkey
 * @addr: first byte accessed ...
 * @len: ... and how many
 * @access: IB_ACCESS_* the access needs (0: local read)
 *
 * Return: the region, referenced (uet_mr_put()), or %NULL when the key
 * names no valid region of @pd, the range is outside it, or it does not
 * grant @access.
 */
struct uet_mr *uet_mr_get(struct uet_dev *udev, struct ib_pd *pd, u32 key,
			  u64 addr, u64 len, int access)
{
	struct uet_mr *mr;

	rcu_read_lock();
	mr = mr_find(udev, key);
	if (!mr || !READ_ONCE(mr->valid) || mr->ibmr.pd != pd ||
	    (access & ~mr->access))
		goto fail;
	if (mr->kind != UET_MR_DMA && !uet_mem_contains(&mr->mem, addr, len))
		goto fail;
	if (!refcount_inc_not_zero(&mr->ref))
		goto fail;
	rcu_read_unlock();
	return mr;

fail:
	rcu_read_unlock();
	return NULL;
}

/**
 * uet_mr_put() - drop a reference taken by uet_mr_get()
 * @mr: the region
 *
 * Context: process; the last reference releases pinned pages.
 */
void uet_mr_put(struct uet_mr *mr)
{
	if (refcount_dec_and_test(&mr->ref))
		mr_free(mr);
}

/**
 * uet_mr_reg() - the REG_MR work request: make a fast MR valid
 * @qp: the QP it was posted on
 * @ibmr: the region, mapped by uet_map_mr_sg()
 * @key: its new rkey: the current one with the low byte chosen by the
 *	caller, the new low byte of the lkey too
 * @access: IB_ACCESS_* to grant
 *
 * Context: process.
 * Return: 0, or -EINVAL, or an error of uet_ri_update().
 */
int uet_mr_reg(struct uet_qp *qp, struct ib_mr *ibmr, u32 key, int access)
{
	struct uet_mr *mr = to_uet_mr(ibmr);
	u32 gen_mask = BIT(UET_KEY_GEN_BITS) - 1;
	int err;

	if (mr->kind != UET_MR_FAST || ibmr->pd != qp->ibqp.pd ||
	    (key & ~gen_mask) != (mr->ri_key & ~gen_mask) ||
	    mr_check_access(&access))
		return -EINVAL;
	WRITE_ONCE(mr->valid, false);
	/* no request uses the old pages once this returns */
	err = uet_ri_update(ibmr->device, &mr->ri_key, mr->ri_key & gen_mask,
			    &mr->mem, 0);
	if (err)
		return err;
	mr->access = access;
	mr->mem = (struct uet_mem) {
		.iova = ibmr->iova,
		.length = ibmr->length,
		.pages = mr->pages,
		.offset = mr->offset,
		.npages = mr->npages,
	};
	ibmr->lkey = (ibmr->lkey & ~gen_mask) | (key & gen_mask);
	WRITE_ONCE(mr->valid, true);
	err = uet_ri_update(ibmr->device, &mr->ri_key, key & gen_mask,
			    &mr->mem, uet_ri_access(access));
	ibmr->rkey = mr->ri_key;
	return err;
}

/**
 * uet_mr_invalidate() - the LOCAL_INV work request
 * @qp: the QP it was posted on
 * @key: the key of a fast MR of the QP's protection domain
 *
 * Context: process.
 * Return: 0, or -EINVAL, or -ENOMEM.
 */
int uet_mr_invalidate(struct uet_qp *qp, u32 key)
{
	struct uet_mr *mr;
	int err;

	rcu_read_lock();
	mr = mr_find(qp->udev, key);
	if (!mr || mr->kind != UET_MR_FAST)	/* an lkey, or else an rkey */
		mr = mr_find_rkey(qp->udev, key);
	if (mr && (mr->kind != UET_MR_FAST || mr->ibmr.pd != qp->ibqp.pd ||
		   !refcount_inc_not_zero(&mr->ref)))
		mr = NULL;
	rcu_read_unlock();
	if (!mr)
		return -EINVAL;
	WRITE_ONCE(mr->valid, false);
	err = uet_ri_update(mr->ibmr.device, &mr->ri_key,
			    mr->ri_key & (BIT(UET_KEY_GEN_BITS) - 1),
			    &mr->mem, 0);
	uet_mr_put(mr);
	return err;
}
