// SPDX-License-Identifier: GPL-2.0
/*
 * uet shared receive queues.
 *
 * A process posts receive WQEs (struct rxe_recv_wqe) into the SRQ's shared
 * queue without a system call (the rxe provider's rxe_post_srq_recv()); a
 * kernel user through uet_post_srq_recv().  The data path takes them in
 * order for the messages of every QP attached to the SRQ.
 */
#include <linux/uaccess.h>
#include <rdma/ib_verbs.h>
#include <rdma/uverbs_ioctl.h>

#include "uet.h"
#include "verbs.h"

/* Bytes of a receive WQE with @max_sge scatter entries. */
static size_t recv_wqe_size(u32 max_sge)
{
	return struct_size_t(struct rxe_recv_wqe, dma.sge, max_sge);
}

/**
 * uet_recv_wqe_from_wr() - write a kernel user's receive request as a WQE
 * @slot: the queue slot
 * @wr: the request
 * @max_sge: the queue's limit
 *
 * Return: 0, or -EINVAL when @wr has too many scatter entries.
 */
int uet_recv_wqe_from_wr(void *slot, const struct ib_recv_wr *wr, u32 max_sge)
{
	struct rxe_recv_wqe *wqe = slot;
	u32 len = 0;
	int i;

	if (wr->num_sge < 0 || wr->num_sge > max_sge)
		return -EINVAL;
	wqe->wr_id = wr->wr_id;
	for (i = 0; i < wr->num_sge; i++) {
		wqe->dma.sge[i].addr = wr->sg_list[i].addr;
		wqe->dma.sge[i].length = wr->sg_list[i].length;
		wqe->dma.sge[i].lkey = wr->sg_list[i].lkey;
		len += wr->sg_list[i].length;
	}
	wqe->dma.length = len;
	wqe->dma.num_sge = wr->num_sge;
	return 0;
}

static int srq_check_attr(const struct ib_srq_attr *attr,
			  enum ib_srq_attr_mask mask)
{
	if ((mask & IB_SRQ_MAX_WR) &&
	    (!attr->max_wr || attr->max_wr > UET_MAX_SRQ_WR))
		return -EINVAL;
	if ((mask & IB_SRQ_LIMIT) && attr->srq_limit > UET_MAX_SRQ_WR)
		return -EINVAL;
	return 0;
}

int uet_create_srq(struct ib_srq *ibsrq, struct ib_srq_init_attr *init,
		   struct ib_udata *udata)
{
	struct uet_dev *udev = to_uet_dev(ibsrq->device);
	struct uet_srq *srq = to_uet_srq(ibsrq);
	struct rxe_create_srq_resp resp = {};
	int err, num;

	if (init->srq_type != IB_SRQT_BASIC)
		return -EOPNOTSUPP;
	err = srq_check_attr(&init->attr, IB_SRQ_MAX_WR | IB_SRQ_LIMIT);
	if (err)
		return err;
	if (init->attr.max_sge > UET_MAX_SGE ||
	    init->attr.srq_limit > init->attr.max_wr)
		return -EINVAL;
	if (udata && udata->outlen < sizeof(resp))
		return -EINVAL;

	num = ida_alloc_range(&udev->vdev.srqns, 1, UET_MAX_SRQ, GFP_KERNEL);
	if (num < 0)
		return num;
	spin_lock_init(&srq->lock);
	srq->num = num;
	srq->user = !!udata;
	srq->max_sge = max_t(u32, init->attr.max_sge, 1);
	srq->limit = init->attr.srq_limit;
	err = uet_queue_init(&srq->queue, UET_QUEUE_CONSUME, init->attr.max_wr,
			     recv_wqe_size(srq->max_sge), udata, &resp.mi);
	if (err)
		goto err_num;
	if (udata) {
		resp.srq_num = srq->num;
		err = ib_copy_to_udata(udata, &resp, sizeof(resp));
		if (err)
			goto err_queue;
	}
	init->attr.max_wr = uet_queue_capacity(&srq->queue);
	init->attr.max_sge = srq->max_sge;
	return 0;

err_queue:
	uet_queue_free(&srq->queue);
err_num:
	ida_free(&udev->vdev.srqns, num);
	return err;
}

static int srq_resize(struct uet_srq *srq, u32 max_wr, struct ib_udata *udata)
{
	struct rxe_modify_srq_cmd cmd = {};
	struct mminfo mi = {};
	struct uet_queue nq;
	int err;

	if (udata) {
		if (udata->inlen < sizeof(cmd))
			return -EINVAL;
		err = ib_copy_from_udata(&cmd, udata, sizeof(cmd));
		if (err)
			return err;
	}
	err = uet_queue_init(&nq, UET_QUEUE_CONSUME, max_wr,
			     BIT(srq->queue.log2_elem), udata, &mi);
	if (err)
		return err;
	/* Tell the process where the new queue is before it replaces the old. */
	if (udata && copy_to_user(u64_to_user_ptr(cmd.mmap_info_addr), &mi,
				  sizeof(mi))) {
		uet_queue_free(&nq);
		return -EFAULT;
	}
	spin_lock_bh(&srq->lock);
	err = uet_queue_swap(&srq->queue, &nq);
	spin_unlock_bh(&srq->lock);
	uet_queue_free(&nq);
	return err;
}

int uet_modify_srq(struct ib_srq *ibsrq, struct ib_srq_attr *attr,
		   enum ib_srq_attr_mask mask, struct ib_udata *udata)
{
	struct uet_srq *srq = to_uet_srq(ibsrq);
	int err;

	if (mask & ~(IB_SRQ_MAX_WR | IB_SRQ_LIMIT))
		return -EINVAL;
	err = srq_check_attr(attr, mask);
	if (err)
		return err;
	if (mask & IB_SRQ_MAX_WR) {
		err = srq_resize(srq, attr->max_wr, udata);
		if (err)
			return err;
	}
	if (mask & IB_SRQ_LIMIT) {
		spin_lock_bh(&srq->lock);
		if (attr->srq_limit > uet_queue_capacity(&srq->queue))
			err = -EINVAL;
		else
			srq->limit = attr->srq_limit;
		spin_unlock_bh(&srq->lock);
	}
	return err;
}

int uet_query_srq(struct ib_srq *ibsrq, struct ib_srq_attr *attr)
{
	struct uet_srq *srq = to_uet_srq(ibsrq);

	spin_lock_bh(&srq->lock);
	attr->max_wr = uet_queue_capacity(&srq->queue);
	attr->max_sge = srq->max_sge;
	attr->srq_limit = srq->limit;
	spin_unlock_bh(&srq->lock);
	return 0;
}

int uet_destroy_srq(struct ib_srq *ibsrq, struct ib_udata *udata)
{
	struct uet_srq *srq = to_uet_srq(ibsrq);

	uet_queue_free(&srq->queue);
	ida_free(&to_uet_dev(ibsrq->device)->vdev.srqns, srq->num);
	return 0;
}

int uet_post_srq_recv(struct ib_srq *ibsrq, const struct ib_recv_wr *wr,
		      const struct ib_recv_wr **bad_wr)
{
	struct uet_srq *srq = to_uet_srq(ibsrq);
	unsigned long flags;
	int err = 0;

	spin_lock_irqsave(&srq->lock, flags);
	for (; wr; wr = wr->next) {
		if (uet_queue_kfull(&srq->queue)) {
			err = -ENOMEM;
			break;
		}
		err = uet_recv_wqe_from_wr(uet_queue_kslot(&srq->queue), wr,
					   srq->max_sge);
		if (err)
			break;
		uet_queue_kproduce(&srq->queue);
	}
	spin_unlock_irqrestore(&srq->lock, flags);
	if (err)
		*bad_wr = wr;
	return err;
}

/**
 * uet_srq_consumed() - a WQE was taken: signal the limit when crossed
 * @srq: the SRQ; the caller holds its lock
 */
void uet_srq_consumed(struct uet_srq *srq)
{
	struct ib_event ev = {
		.device = srq->ibsrq.device,
		.element.srq = &srq->ibsrq,
		.event = IB_EVENT_SRQ_LIMIT_REACHED,
	};

	lockdep_assert_held(&srq->lock);
	if (!srq->limit || uet_queue_count(&srq->queue) >= srq->limit)
		return;
	srq->limit = 0;
	if (srq->ibsrq.event_handler)
		srq->ibsrq.event_handler(&ev, srq->ibsrq.srq_context);
}
