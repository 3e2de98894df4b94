/* SPDX-License-Identifier: GPL-2.0 */
/*
 * uet shared queues: the ring buffers of the soft-RoCE user ABI
 * (struct rxe_queue_buf in include/uapi/rdma/rdma_user_rxe.h) through which
 * rdma-core's rxe provider and the kernel exchange work requests and
 * completions without system calls.
 *
 * A queue has a power-of-two number of slots of a power-of-two size; one
 * slot stays empty, so a queue of N slots holds N - 1 entries (the
 * provider's queue_full() test).  Each side owns one index: the kernel
 * produces completions and consumes work requests.  The kernel keeps its
 * own index in struct uet_queue and never reads it back from the shared
 * page; the other side's index is read with acquire semantics and masked,
 * so that whatever userspace writes there, the kernel stays inside the
 * buffer.  Entries are published with a release store of the index.
 */
#ifndef _UET_QUEUE_H
#define _UET_QUEUE_H

#include <rdma/ib_verbs.h>
#include <rdma/rdma_user_rxe.h>

/**
 * enum uet_queue_kind - which index the kernel owns
 * @UET_QUEUE_PRODUCE: the kernel produces (completion queues)
 * @UET_QUEUE_CONSUME: the kernel consumes (send, receive and shared
 *	receive queues)
 */
enum uet_queue_kind {
	UET_QUEUE_PRODUCE,
	UET_QUEUE_CONSUME,
};

/**
 * struct uet_queue - a ring shared with userspace, or private to the kernel
 * @buf: the ring, header included (vmalloc_user()).
 * @size: bytes of @buf.
 * @log2_elem: log2 of the slot size.
 * @mask: number of slots - 1; the kernel's copy, never the shared one.
 * @index: the kernel's own index (producer or consumer, see @kind).
 * @kind: which side the kernel is.
 * @mmap: the mmap entry through which userspace maps @buf, or %NULL for
 *	a kernel queue.  A mapped buffer is freed with its entry.
 *
 * The owner's lock protects @index and the kernel's side of the ring.
 */
struct uet_queue {
	struct rxe_queue_buf *buf;
	size_t size;
	u32 log2_elem;
	u32 mask;
	u32 index;
	enum uet_queue_kind kind;
	struct rdma_user_mmap_entry *mmap;
};

int uet_queue_init(struct uet_queue *q, enum uet_queue_kind kind, u32 nelem,
		   size_t elem_size, struct ib_udata *udata, struct mminfo *mi);
void uet_queue_free(struct uet_queue *q);
int uet_queue_swap(struct uet_queue *q, struct uet_queue *nq);
u32 uet_queue_count(const struct uet_queue *q);
void uet_queue_reset(struct uet_queue *q);

int uet_mmap(struct ib_ucontext *uctx, struct vm_area_struct *vma);
void uet_mmap_free(struct rdma_user_mmap_entry *entry);

/* Entries a queue holds at most. */
static inline u32 uet_queue_capacity(const struct uet_queue *q)
{
	return q->mask;
}

static inline void *uet_queue_slot(const struct uet_queue *q, u32 index)
{
	return q->buf->data + ((size_t)(index & q->mask) << q->log2_elem);
}

/* Producer side (kernel produces): room for one more entry? */
static inline bool uet_queue_full(const struct uet_queue *q)
{
	/* pairs with the consumer's release: it is done with the slot */
	u32 cons = smp_load_acquire(&q->buf->consumer_index) & q->mask;

	return ((q->index + 1) & q->mask) == cons;
}

/* Producer side: the slot to fill next. */
static inline void *uet_queue_producer_slot(const struct uet_queue *q)
{
	return uet_queue_slot(q, q->index);
}

/* Producer side: publish the filled slot (entry before index). */
static inline void uet_queue_produce(struct uet_queue *q)
{
	q->index = (q->index + 1) & q->mask;
	/* the entry's bytes before the index that publishes them */
	smp_store_release(&q->buf->producer_index, q->index);
}

/* Consumer side (kernel consumes): the oldest entry, or NULL. */
static inline void *uet_queue_head(const struct uet_queue *q)
{
	/* pairs with the producer's release: the entry's bytes are there */
	u32 prod = smp_load_acquire(&q->buf->producer_index) & q->mask;

	return prod == q->index ? NULL : uet_queue_slot(q, q->index);
}

/* Consumer side: done with the oldest entry (reads before index). */
static inline void uet_queue_consume(struct uet_queue *q)
{
	q->index = (q->index + 1) & q->mask;
	/* our reads of the entry before the index that frees the slot */
	smp_store_release(&q->buf->consumer_index, q->index);
}

/*
 * Kernel work queues: the kernel is also the producer, under the owner's
 * lock, so the shared producer index is its own.
 */
static inline bool uet_queue_kfull(const struct uet_queue *q)
{
	return ((q->buf->producer_index + 1) & q->mask) == q->index;
}

static inline void *uet_queue_kslot(const struct uet_queue *q)
{
	return uet_queue_slot(q, q->buf->producer_index);
}

static inline void uet_queue_kproduce(struct uet_queue *q)
{
	/* the entry's bytes before the index that publishes them */
	smp_store_release(&q->buf->producer_index,
			  (q->buf->producer_index + 1) & q->mask);
}

#endif /* _UET_QUEUE_H */
