// SPDX-License-Identifier: GPL-2.0
/*
 * uet shared queues (see queue.h): allocation, resizing, and the mmap of
 * user queues.
 *
 * A user queue's buffer is offered to userspace through an rdma_user_mmap
 * entry of the context; the offset handed back in struct mminfo is the
 * entry's.  The entry owns the buffer: uet_queue_free() removes the entry
 * and the buffer goes with it (uet_mmap_free()).  Pages still mapped by
 * the process at that time keep their own references (vm_insert_page()
 * takes one per mapping), so a process that forgets to unmap reads stale
 * memory, never freed memory.
 */
#include <linux/log2.h>
#include <linux/mm.h>
#include <linux/slab.h>
#include <linux/vmalloc.h>
#include <rdma/ib_verbs.h>
#include <rdma/uverbs_ioctl.h>

#include "queue.h"
#include "verbs.h"

/* Most slots of a queue: keeps index arithmetic and allocations sane. */
#define UET_QUEUE_MAX_SLOTS	BIT(20)

struct uet_mmap_entry {
	struct rdma_user_mmap_entry rdma;
	void *buf;
};

static struct rxe_queue_buf *queue_buf_alloc(u32 slots, u32 log2_elem,
					     size_t *size)
{
	struct rxe_queue_buf *buf;

	*size = sizeof(*buf) + ((size_t)slots << log2_elem);
	buf = vmalloc_user(*size);
	if (!buf)
		return NULL;
	buf->log2_elem_size = log2_elem;
	buf->index_mask = slots - 1;
	return buf;
}

/* Offer @buf to the process of @udata; on success the entry owns it. */
static int queue_offer(struct uet_queue *q, struct ib_udata *udata,
		       struct mminfo *mi)
{
	struct uet_ucontext *uc = rdma_udata_to_drv_context(udata,
				struct uet_ucontext, ibuc);
	struct uet_mmap_entry *e;
	int err;

	if (!uc)
		return -EINVAL;
	e = kzalloc(sizeof(*e), GFP_KERNEL);
	if (!e)
		return -ENOMEM;
	e->buf = q->buf;
	err = rdma_user_mmap_entry_insert(&uc->ibuc, &e->rdma, PAGE_ALIGN(q->size));
	if (err) {
		kfree(e);
		return err;
	}
	q->mmap = &e->rdma;
	mi->offset = rdma_user_mmap_get_offset(&e->rdma);
	mi->size = q->size;
	return 0;
}

/**
 * uet_queue_init() - allocate a queue
 * @q: the queue
 * @kind: which index the kernel owns
 * @nelem: entries it must hold at least
 * @elem_size: bytes of an entry; rounded up to a power of two
 * @udata: the user call that creates the queue's owner, or %NULL for a
 *	kernel queue
 * @mi: with @udata: filled with what the process passes to mmap()
 *
 * Return: 0, -EINVAL when too large, -ENOMEM.
 */
int uet_queue_init(struct uet_queue *q, enum uet_queue_kind kind, u32 nelem,
		   size_t elem_size, struct ib_udata *udata, struct mminfo *mi)
{
	u32 slots;
	int err;

	if (nelem >= UET_QUEUE_MAX_SLOTS)
		return -EINVAL;
	slots = roundup_pow_of_two(nelem + 1);
	memset(q, 0, sizeof(*q));
	q->kind = kind;
	q->log2_elem = order_base_2(elem_size);
	q->mask = slots - 1;
	q->buf = queue_buf_alloc(slots, q->log2_elem, &q->size);
	if (!q->buf)
		return -ENOMEM;
	if (!udata)
		return 0;
	err = queue_offer(q, udata, mi);
	if (err) {
		vfree(q->buf);
		q->buf = NULL;
	}
	return err;
}

/**
 * uet_queue_free() - free a queue (user queues: withdraw its mmap offer)
 * @q: the queue, or one that uet_queue_init() failed on
 */
void uet_queue_free(struct uet_queue *q)
{
	if (q->mmap)
		rdma_user_mmap_entry_remove(q->mmap);
	else
		vfree(q->buf);
	q->mmap = NULL;
	q->buf = NULL;
}

/**
 * uet_queue_count() - entries between consumer and producer
 * @q: the queue; the caller holds its owner's lock
 *
 * Return: the count, whatever userspace wrote into its index.
 */
u32 uet_queue_count(const struct uet_queue *q)
{
	u32 prod, cons;

	if (q->kind == UET_QUEUE_PRODUCE) {
		prod = q->index;
		/* pairs with the consumer's release of its index */
		cons = smp_load_acquire(&q->buf->consumer_index);
	} else {
		/* pairs with the producer's release of its index */
		prod = smp_load_acquire(&q->buf->producer_index);
		cons = q->index;
	}
	return (prod - cons) & q->mask;
}

/**
 * uet_queue_reset() - empty a queue (a QP going back to RESET)
 * @q: the queue; the caller holds its owner's lock
 */
void uet_queue_reset(struct uet_queue *q)
{
	q->index = 0;
	WRITE_ONCE(q->buf->producer_index, 0);
	/* both indices zero before the queue is seen empty */
	smp_store_release(&q->buf->consumer_index, 0);
}

/**
 * uet_queue_swap() - move a queue's entries into a new queue, and swap them
 * @q: the queue; the caller holds its owner's lock, and the other side
 *	does not move (the provider holds its own lock during the call)
 * @nq: an empty queue from uet_queue_init() of the same kind and slot
 *	size; on return it holds what the caller frees: the old queue on
 *	success, the unused new one on error
 *
 * Return: 0, or -EINVAL when the entries present do not fit in @nq.
 */
int uet_queue_swap(struct uet_queue *q, struct uet_queue *nq)
{
	u32 count = uet_queue_count(q), first, i;
	struct uet_queue old;

	if (count > uet_queue_capacity(nq))
		return -EINVAL;
	first = q->index;
	if (q->kind == UET_QUEUE_PRODUCE) {
		/* pairs with the consumer's release: it is done with those */
		first = smp_load_acquire(&q->buf->consumer_index);
	}
	for (i = 0; i < count; i++)
		memcpy(uet_queue_slot(nq, i), uet_queue_slot(q, first + i),
		       BIT(q->log2_elem));
	nq->buf->producer_index = count;
	nq->buf->consumer_index = 0;
	nq->index = q->kind == UET_QUEUE_PRODUCE ? count : 0;
	old = *q;
	*q = *nq;
	*nq = old;
	return 0;
}

/**
 * uet_mmap() - the ib_device mmap op: map a queue offered by queue_offer()
 * @uctx: the process's context
 * @vma: the mapping; its offset names the entry, its size must match
 *
 * Return: 0, -EINVAL for an unknown offset or a wrong size or flags.
 */
int uet_mmap(struct ib_ucontext *uctx, struct vm_area_struct *vma)
{
	struct rdma_user_mmap_entry *entry;
	struct uet_mmap_entry *e;
	int err;

	entry = rdma_user_mmap_entry_get(uctx, vma);
	if (!entry)
		return -EINVAL;
	e = container_of(entry, struct uet_mmap_entry, rdma);
	err = remap_vmalloc_range(vma, e->buf, 0);
	rdma_user_mmap_entry_put(entry);
	return err;
}

/**
 * uet_mmap_free() - the ib_device mmap_free op: last reference to an entry
 * @entry: the entry; its buffer goes with it
 */
void uet_mmap_free(struct rdma_user_mmap_entry *entry)
{
	struct uet_mmap_entry *e = container_of(entry, struct uet_mmap_entry, rdma);

	vfree(e->buf);
	kfree(e);
}
