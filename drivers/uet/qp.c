// SPDX-License-Identifier: GPL-2.0
/*
 * uet queue pairs: creation, the state machine of modify_qp, and the work
 * queues.
 *
 * A QP's send and receive queues hold the WQEs of the soft-RoCE user ABI
 * (struct rxe_send_wqe, struct rxe_recv_wqe).  A process fills them from
 * the rxe provider and rings the doorbell, a post_send without work
 * requests, after adding send WQEs; a kernel user's ib_post_send() and
 * ib_post_recv() write the same WQEs into kernel queues.  Either way the
 * send queue is drained here, in the caller's context, by one drainer at a
 * time; each WQE is checked and handed to the data path (xfer.c), which
 * completes it.
 *
 * Moving a QP to the error state completes every WQE still queued with
 * IB_WC_WR_FLUSH_ERR; WQEs a process adds later are flushed at its next
 * doorbell (send queue) or when the data path looks for a receive WQE.
 */
#include <linux/memcontrol.h>
#include <linux/random.h>
#include <linux/slab.h>
#include <rdma/ib_verbs.h>
#include <rdma/uverbs_ioctl.h>

#include "uet.h"
#include "verbs.h"
#include "xfer.h"

/* Largest value of the 3-bit retry counters (IB spec 9.7.5.2.8). */
#define UET_MAX_RETRY		7

#define UET_QP_ACCESS	(IB_ACCESS_LOCAL_WRITE | IB_ACCESS_REMOTE_WRITE | \
			 IB_ACCESS_REMOTE_READ | IB_ACCESS_REMOTE_ATOMIC)

static size_t send_wqe_size(u32 max_sge, u32 max_inline)
{
	return sizeof(struct rxe_send_wqe) +
	       max_t(size_t, max_sge * sizeof(struct rxe_sge), max_inline);
}

static size_t recv_wqe_size(u32 max_sge)
{
	return struct_size_t(struct rxe_recv_wqe, dma.sge, max_sge);
}

static int qp_check_init(struct ib_qp_init_attr *init)
{
	const struct ib_qp_cap *cap = &init->cap;

	switch (init->qp_type) {
	case IB_QPT_RC:
	case IB_QPT_UC:
	case IB_QPT_UD:
		break;
	case IB_QPT_GSI:
		if (init->port_num != UET_PORT)
			return -EINVAL;
		break;
	default:
		return -EOPNOTSUPP;
	}
	if (init->create_flags)
		return -EOPNOTSUPP;
	if (!init->send_cq || !init->recv_cq)
		return -EINVAL;
	if (cap->max_send_wr > UET_MAX_QP_WR || cap->max_send_sge > UET_MAX_SGE ||
	    cap->max_inline_data > UET_MAX_INLINE)
		return -EINVAL;
	if (!init->srq && (cap->max_recv_wr > UET_MAX_QP_WR ||
			   cap->max_recv_sge > UET_MAX_SGE))
		return -EINVAL;
	return 0;
}

/*
 * A work queue sized for @nelem WQEs of @elem bytes; @cap_sge and
 * @cap_inline receive what the slot size allows.
 */
static int wq_init(struct uet_wq *wq, u32 nelem, size_t elem,
		   struct ib_udata *udata, struct mminfo *mi)
{
	int err;

	spin_lock_init(&wq->lock);
	err = uet_queue_init(&wq->queue, UET_QUEUE_CONSUME, nelem, elem, udata,
			     mi);
	if (err)
		return err;
	wq->wqe = kzalloc(BIT(wq->queue.log2_elem), GFP_KERNEL);
	if (!wq->wqe) {
		uet_queue_free(&wq->queue);
		return -ENOMEM;
	}
	return 0;
}

static void wq_free(struct uet_wq *wq)
{
	kfree(wq->wqe);
	uet_queue_free(&wq->queue);
}

/*
 * A QPN (the endpoint's PIDonFEP) at random among the free ones, so that
 * a party that has not been told it must guess it.
 */
static int qpn_alloc(struct uet_dev *udev)
{
	u32 start = get_random_u32_inclusive(UET_QPN_FIRST, UET_QPN_LAST);
	int qpn;

	qpn = ida_alloc_range(&udev->vdev.qpns, start, UET_QPN_LAST,
			      GFP_KERNEL);
	if (qpn == -ENOSPC && start > UET_QPN_FIRST)
		qpn = ida_alloc_range(&udev->vdev.qpns, UET_QPN_FIRST,
				      start - 1, GFP_KERNEL);
	return qpn;
}

/* Complete every queued WQE of @wq with IB_WC_WR_FLUSH_ERR. */
static void wq_flush(struct uet_qp *qp, struct uet_wq *wq, bool send)
{
	unsigned long flags;
	void *slot;

	spin_lock_irqsave(&wq->lock, flags);
	while ((slot = uet_queue_head(&wq->queue))) {
		if (send) {
			struct rxe_send_wqe *wqe = slot;

			uet_cq_send_done(qp, READ_ONCE(wqe->wr.wr_id),
					 IB_WR_SEND, true, IB_WC_WR_FLUSH_ERR);
		} else {
			struct rxe_recv_wqe *wqe = slot;

			uet_cq_recv_done(qp, READ_ONCE(wqe->wr_id),
					 IB_WC_WR_FLUSH_ERR, NULL, false);
		}
		uet_queue_consume(&wq->queue);
	}
	spin_unlock_irqrestore(&wq->lock, flags);
}

/* Complete what a QP in the error state still holds. */
static void qp_flush(struct uet_qp *qp)
{
	wq_flush(qp, &qp->sq, true);
	if (!qp->srq)
		wq_flush(qp, &qp->rq, false);
}

/*
 * The QP's work item: what the data path left to it (uet_xfer_run()),
 * then the send queue, or in the error state a flush.  What it allocates
 * for a user QP is charged to its owner.
 */
static void qp_work(struct work_struct *work)
{
	struct uet_qp *qp = container_of(to_delayed_work(work), struct uet_qp,
					 work);
	struct mem_cgroup *old = set_active_memcg(qp->memcg);

	if (uet_xfer_run(qp))
		qp_flush(qp);
	else
		uet_qp_sq_run(qp, UET_CTX_WORKER);
	set_active_memcg(old);
}

int uet_create_qp(struct ib_qp *ibqp, struct ib_qp_init_attr *init,
		  struct ib_udata *udata)
{
	struct uet_dev *udev = to_uet_dev(ibqp->device);
	struct rxe_create_qp_resp resp = {};
	struct uet_qp *qp = to_uet_qp(ibqp);
	struct ib_qp_cap *cap = &init->cap;
	size_t elem;
	int err, qpn;

	err = qp_check_init(init);
	if (err)
		return err;
	if (udata && udata->outlen < sizeof(resp))
		return -EINVAL;

	if (init->qp_type == IB_QPT_GSI) {
		/* the MAD layer's, one per port */
		if (udata)
			return -EOPNOTSUPP;
		qpn = ida_alloc_range(&udev->vdev.qpns, UET_QPN_GSI, UET_QPN_GSI,
				      GFP_KERNEL);
		if (qpn == -ENOSPC)
			return -EEXIST;
	} else {
		qpn = qpn_alloc(udev);
	}
	if (qpn < 0)
		return qpn == -ENOSPC ? -ENOMEM : qpn;
	qp->udev = udev;
	qp->user = !!udata;
	if (udata)
		qp->memcg = get_mem_cgroup_from_mm(current->mm);
	qp->state = IB_QPS_RESET;
	qp->sq_sig_all = init->sq_sig_type == IB_SIGNAL_ALL_WR;
	spin_lock_init(&qp->attr_lock);
	ibqp->qp_num = qpn;

	cap->max_send_sge = max_t(u32, cap->max_send_sge, 1);
	elem = roundup_pow_of_two(send_wqe_size(cap->max_send_sge,
						cap->max_inline_data));
	err = wq_init(&qp->sq, max_t(u32, cap->max_send_wr, 1), elem, udata,
		      &resp.sq_mi);
	if (err)
		goto err_qpn;
	qp->sq.max_sge = min_t(u32, UET_MAX_SGE, (elem - sizeof(struct rxe_send_wqe)) /
			       sizeof(struct rxe_sge));
	qp->sq.max_inline = min_t(u32, UET_MAX_INLINE,
				  elem - sizeof(struct rxe_send_wqe));
	cap->max_send_wr = uet_queue_capacity(&qp->sq.queue);
	cap->max_send_sge = qp->sq.max_sge;
	cap->max_inline_data = qp->sq.max_inline;

	if (init->srq) {
		qp->srq = to_uet_srq(init->srq);
	} else {
		cap->max_recv_sge = max_t(u32, cap->max_recv_sge, 1);
		err = wq_init(&qp->rq, max_t(u32, cap->max_recv_wr, 1),
			      roundup_pow_of_two(recv_wqe_size(cap->max_recv_sge)),
			      udata, &resp.rq_mi);
		if (err)
			goto err_sq;
		qp->rq.max_sge = cap->max_recv_sge;
		cap->max_recv_wr = uet_queue_capacity(&qp->rq.queue);
	}

	INIT_DELAYED_WORK(&qp->work, qp_work);
	err = uet_xfer_open(qp);
	if (err)
		goto err_rq;
	if (udata) {
		err = ib_copy_to_udata(udata, &resp, sizeof(resp));
		if (err)
			goto err_xfer;
	}
	return 0;

err_xfer:
	uet_xfer_close(qp);
err_rq:
	if (!qp->srq)
		wq_free(&qp->rq);
err_sq:
	wq_free(&qp->sq);
err_qpn:
	mem_cgroup_put(qp->memcg);
	ida_free(&udev->vdev.qpns, qpn);
	return err;
}

int uet_destroy_qp(struct ib_qp *ibqp, struct ib_udata *udata)
{
	struct uet_qp *qp = to_uet_qp(ibqp);

	uet_xfer_close(qp);
	if (!qp->srq)
		wq_free(&qp->rq);
	wq_free(&qp->sq);
	mem_cgroup_put(qp->memcg);
	ida_free(&qp->udev->vdev.qpns, ibqp->qp_num);
	return 0;
}

/* Check what modify_qp sets, before anything changes. */
static int qp_check_attr(struct uet_qp *qp, const struct ib_qp_attr *attr,
			 int mask, struct uet_av *av)
{
	if ((mask & IB_QP_PORT) && attr->port_num != UET_PORT)
		return -EINVAL;
	if ((mask & IB_QP_PKEY_INDEX) && attr->pkey_index)
		return -EINVAL;
	if ((mask & IB_QP_ACCESS_FLAGS) &&
	    (attr->qp_access_flags & ~IB_ACCESS_OPTIONAL & ~UET_QP_ACCESS))
		return -EOPNOTSUPP;
	if ((mask & IB_QP_PATH_MTU) &&
	    (attr->path_mtu < IB_MTU_256 || attr->path_mtu > IB_MTU_4096))
		return -EINVAL;
	if ((mask & IB_QP_DEST_QPN) && attr->dest_qp_num > UET_QPN_LAST)
		return -EINVAL;
	if ((mask & IB_QP_MAX_QP_RD_ATOMIC) &&
	    attr->max_rd_atomic > UET_MAX_RD_ATOMIC)
		return -EINVAL;
	if ((mask & IB_QP_MAX_DEST_RD_ATOMIC) &&
	    attr->max_dest_rd_atomic > UET_MAX_RD_ATOMIC)
		return -EINVAL;
	if ((mask & IB_QP_RETRY_CNT) && attr->retry_cnt > UET_MAX_RETRY)
		return -EINVAL;
	if ((mask & IB_QP_RNR_RETRY) && attr->rnr_retry > UET_MAX_RETRY)
		return -EINVAL;
	if (mask & (IB_QP_ALT_PATH | IB_QP_PATH_MIG_STATE))
		return -EOPNOTSUPP;
	if (mask & IB_QP_AV)
		return uet_av_from_attr(qp->udev, av, &attr->ah_attr);
	return 0;
}

/* Copy the attributes in @mask; the caller holds attr_lock. */
static void qp_set_attr(struct uet_qp *qp, const struct ib_qp_attr *attr,
			int mask, const struct uet_av *av)
{
	struct ib_qp_attr *a = &qp->attr;

	lockdep_assert_held(&qp->attr_lock);
	if (mask & IB_QP_ACCESS_FLAGS)
		a->qp_access_flags = attr->qp_access_flags & UET_QP_ACCESS;
	if (mask & IB_QP_QKEY)
		a->qkey = attr->qkey;
	if (mask & IB_QP_PATH_MTU)
		a->path_mtu = attr->path_mtu;
	if (mask & IB_QP_DEST_QPN)
		a->dest_qp_num = attr->dest_qp_num;
	if (mask & IB_QP_RQ_PSN)
		a->rq_psn = attr->rq_psn;
	if (mask & IB_QP_SQ_PSN)
		a->sq_psn = attr->sq_psn;
	if (mask & IB_QP_MAX_QP_RD_ATOMIC)
		a->max_rd_atomic = attr->max_rd_atomic;
	if (mask & IB_QP_MAX_DEST_RD_ATOMIC)
		a->max_dest_rd_atomic = attr->max_dest_rd_atomic;
	if (mask & IB_QP_MIN_RNR_TIMER)
		a->min_rnr_timer = attr->min_rnr_timer;
	if (mask & IB_QP_TIMEOUT)
		a->timeout = attr->timeout;
	if (mask & IB_QP_RETRY_CNT)
		a->retry_cnt = attr->retry_cnt;
	if (mask & IB_QP_RNR_RETRY)
		a->rnr_retry = attr->rnr_retry;
	if (mask & IB_QP_EN_SQD_ASYNC_NOTIFY)
		a->en_sqd_async_notify = attr->en_sqd_async_notify;
	if (mask & IB_QP_AV)
		qp->av = *av;
	a->port_num = UET_PORT;
}

static void wq_reset(struct uet_wq *wq)
{
	unsigned long flags;

	spin_lock_irqsave(&wq->lock, flags);
	uet_queue_reset(&wq->queue);
	spin_unlock_irqrestore(&wq->lock, flags);
}

int uet_modify_qp(struct ib_qp *ibqp, struct ib_qp_attr *attr, int mask,
		  struct ib_udata *udata)
{
	struct uet_qp *qp = to_uet_qp(ibqp);
	enum ib_qp_state cur, next;
	unsigned long flags;
	struct uet_av av;
	int err;

	if (mask & ~IB_QP_ATTR_STANDARD_BITS)
		return -EOPNOTSUPP;
	err = qp_check_attr(qp, attr, mask, &av);
	if (err)
		return err;

	spin_lock_irqsave(&qp->attr_lock, flags);
	cur = mask & IB_QP_CUR_STATE ? attr->cur_qp_state : qp->state;
	next = mask & IB_QP_STATE ? attr->qp_state : cur;
	if (cur != qp->state ||
	    !ib_modify_qp_is_ok(cur, next, ibqp->qp_type, mask)) {
		spin_unlock_irqrestore(&qp->attr_lock, flags);
		return -EINVAL;
	}
	qp_set_attr(qp, attr, mask, &av);
	WRITE_ONCE(qp->state, next);
	spin_unlock_irqrestore(&qp->attr_lock, flags);
	uet_xfer_modified(qp);

	if (next == cur)
		return 0;
	switch (next) {
	case IB_QPS_RESET:
		err = uet_xfer_reset(qp);
		wq_reset(&qp->sq);
		if (!qp->srq)
			wq_reset(&qp->rq);
		break;
	case IB_QPS_RTS:
		uet_qp_sq_run(qp, UET_CTX_PROCESS);
		break;
	case IB_QPS_ERR:
		err = uet_xfer_reset(qp);
		qp_flush(qp);
		break;
	default:
		break;
	}
	return err;
}

int uet_query_qp(struct ib_qp *ibqp, struct ib_qp_attr *attr, int mask,
		 struct ib_qp_init_attr *init)
{
	struct uet_qp *qp = to_uet_qp(ibqp);
	unsigned long flags;

	spin_lock_irqsave(&qp->attr_lock, flags);
	*attr = qp->attr;
	attr->qp_state = qp->state;
	attr->cur_qp_state = qp->state;
	uet_av_to_attr(&qp->av, &attr->ah_attr);
	spin_unlock_irqrestore(&qp->attr_lock, flags);

	attr->cap.max_send_wr = uet_queue_capacity(&qp->sq.queue);
	attr->cap.max_send_sge = qp->sq.max_sge;
	attr->cap.max_inline_data = qp->sq.max_inline;
	if (!qp->srq) {
		attr->cap.max_recv_wr = uet_queue_capacity(&qp->rq.queue);
		attr->cap.max_recv_sge = qp->rq.max_sge;
	}
	attr->sq_draining = 0;

	memset(init, 0, sizeof(*init));
	init->qp_type = ibqp->qp_type;
	init->send_cq = ibqp->send_cq;
	init->recv_cq = ibqp->recv_cq;
	init->srq = ibqp->srq;
	init->cap = attr->cap;
	init->sq_sig_type = qp->sq_sig_all ? IB_SIGNAL_ALL_WR : IB_SIGNAL_REQ_WR;
	return 0;
}

/* May QP type @type carry work request @opcode? */
static bool opcode_ok(struct uet_qp *qp, u32 opcode)
{
	switch (opcode) {
	case IB_WR_SEND:
	case IB_WR_SEND_WITH_IMM:
		return true;
	case IB_WR_RDMA_WRITE:
	case IB_WR_RDMA_WRITE_WITH_IMM:
		return !uet_qp_datagram(qp);
	case IB_WR_RDMA_READ:
	case IB_WR_ATOMIC_CMP_AND_SWP:
	case IB_WR_ATOMIC_FETCH_AND_ADD:
		return qp->ibqp.qp_type == IB_QPT_RC;
	case IB_WR_LOCAL_INV:
	case IB_WR_REG_MR:
		/* local operations of kernel users */
		return !qp->user && !uet_qp_datagram(qp);
	default:
		return false;
	}
}

/* Check one send WQE and run it; returns the status of a failure. */
static enum ib_wc_status sq_exec(struct uet_qp *qp, struct rxe_send_wqe *wqe)
{
	u32 opcode = wqe->wr.opcode;

	if (!opcode_ok(qp, opcode))
		return IB_WC_LOC_QP_OP_ERR;
	if (uet_wqe_inline(opcode, wqe->wr.send_flags)) {
		if (wqe->dma.length > qp->sq.max_inline)
			return IB_WC_LOC_LEN_ERR;
	} else if (wqe->dma.num_sge > qp->sq.max_sge) {
		return IB_WC_LOC_LEN_ERR;
	}
	switch (opcode) {
	case IB_WR_REG_MR:
		if (uet_mr_reg(qp, wqe->wr.wr.reg.mr, wqe->wr.wr.reg.key,
			       wqe->wr.wr.reg.access))
			return IB_WC_MW_BIND_ERR;
		break;
	case IB_WR_LOCAL_INV:
		if (uet_mr_invalidate(qp, wqe->wr.ex.invalidate_rkey))
			return IB_WC_MW_BIND_ERR;
		break;
	default:
		return uet_xfer_send(qp, wqe);
	}
	uet_cq_send_done(qp, wqe->wr.wr_id, opcode,
			 qp->sq_sig_all || (wqe->wr.send_flags & IB_SEND_SIGNALED),
			 IB_WC_SUCCESS);
	return IB_WC_SUCCESS;
}

/*
 * An atomic at the head of the send queue waits while max_rd_atomic of
 * them are in flight (at least one, at most what the endpoint allows);
 * the completion of one runs the queue again (xfer.c).
 */
static bool sq_amo_stall(struct uet_qp *qp, const struct rxe_send_wqe *slot)
{
	u32 opcode = READ_ONCE(slot->wr.opcode);
	unsigned long flags;
	int max;

	if (opcode != IB_WR_ATOMIC_CMP_AND_SWP &&
	    opcode != IB_WR_ATOMIC_FETCH_AND_ADD)
		return false;
	spin_lock_irqsave(&qp->attr_lock, flags);
	max = clamp_t(int, qp->attr.max_rd_atomic, 1, UET_MAX_RD_ATOMIC);
	spin_unlock_irqrestore(&qp->attr_lock, flags);
	return atomic_read(&qp->amo_inflight) >= max;
}

/*
 * The head of the send queue waits while UET_SQ_BYTES_MAX of the QP's
 * messages are in the data path, or for its atomics (above); the
 * completion that brings either below its limit runs the queue again.
 */
static bool sq_stall(struct uet_qp *qp, const struct rxe_send_wqe *slot)
{
	return atomic_long_read(&qp->sq_bytes) >= UET_SQ_BYTES_MAX ||
	       sq_amo_stall(qp, slot);
}

/*
 * May the caller of a doorbell hand @slot to the data path itself?  When
 * the QP has nothing there, or little enough with it; the rest is the
 * work item's.  The length is read from the shared slot, as a hint: the
 * copy that runs is checked on its own.
 */
static bool sq_inline(struct uet_qp *qp, const struct rxe_send_wqe *slot)
{
	long busy = atomic_long_read(&qp->sq_bytes);

	return !busy || busy + READ_ONCE(slot->dma.length) <= UET_SQ_INLINE_BYTES;
}

/**
 * uet_qp_sq_run() - drain the send queue into the data path
 * @qp: the QP
 * @ctx: who calls, enum uet_ctx
 *
 * A system call of the QP's owner drains up to UET_SQ_INLINE_BYTES in the
 * data path itself, and leaves the rest to the QP's work item, which
 * drains up to UET_SQ_BYTES_MAX; a kernel user's post, which may come
 * from any context, leaves it all to the work item: a process that posts
 * large messages returns at once to post more and to poll.  One drainer
 * at a time, the others leave their WQEs to it.  The WQE is copied out of
 * the shared slot before it is read, and the slot is given back before
 * the WQE runs, so that the data path may complete it at once.
 */
void uet_qp_sq_run(struct uet_qp *qp, enum uet_ctx ctx)
{
	struct uet_wq *sq = &qp->sq;
	struct rxe_send_wqe *wqe = sq->wqe;
	enum ib_wc_status status;
	bool defer = false;
	unsigned long flags;
	void *slot;

	if (ctx == UET_CTX_ANY) {
		uet_xfer_kick(qp);
		return;
	}
	spin_lock_irqsave(&sq->lock, flags);
	if (sq->busy) {
		sq->again = true;
		spin_unlock_irqrestore(&sq->lock, flags);
		return;
	}
	sq->busy = true;
	do {
		sq->again = false;
		while (READ_ONCE(qp->state) == IB_QPS_RTS &&
		       (slot = uet_queue_head(&sq->queue)) &&
		       !sq_stall(qp, slot)) {
			if (ctx != UET_CTX_WORKER && !sq_inline(qp, slot)) {
				defer = true;
				break;
			}
			memcpy(wqe, slot, BIT(sq->queue.log2_elem));
			uet_queue_consume(&sq->queue);
			spin_unlock_irqrestore(&sq->lock, flags);
			status = sq_exec(qp, wqe);
			if (status != IB_WC_SUCCESS)
				uet_cq_send_done(qp, wqe->wr.wr_id,
						 wqe->wr.opcode, true, status);
			spin_lock_irqsave(&sq->lock, flags);
		}
	} while (sq->again && !defer);
	sq->busy = false;
	spin_unlock_irqrestore(&sq->lock, flags);

	if (defer)
		uet_xfer_kick(qp);
	if (READ_ONCE(qp->state) == IB_QPS_ERR)
		qp_flush(qp);
}

/* A kernel user's send request as a WQE in @slot. */
static int send_wqe_from_wr(struct uet_qp *qp, struct rxe_send_wqe *wqe,
			    const struct ib_send_wr *wr)
{
	u32 len = 0;
	int i;

	if (wr->num_sge < 0 || wr->num_sge > qp->sq.max_sge)
		return -EINVAL;
	memset(wqe, 0, sizeof(*wqe));
	wqe->wr.wr_id = wr->wr_id;
	wqe->wr.opcode = wr->opcode;
	wqe->wr.send_flags = wr->send_flags;
	wqe->wr.ex.imm_data = wr->ex.imm_data;
	switch (wr->opcode) {
	case IB_WR_RDMA_WRITE:
	case IB_WR_RDMA_WRITE_WITH_IMM:
	case IB_WR_RDMA_READ:
		wqe->wr.wr.rdma.remote_addr = rdma_wr(wr)->remote_addr;
		wqe->wr.wr.rdma.rkey = rdma_wr(wr)->rkey;
		wqe->iova = rdma_wr(wr)->remote_addr;
		break;
	case IB_WR_SEND:
	case IB_WR_SEND_WITH_IMM:
		if (uet_qp_datagram(qp)) {
			wqe->wr.wr.ud.remote_qpn = ud_wr(wr)->remote_qpn;
			wqe->wr.wr.ud.remote_qkey = ud_wr(wr)->remote_qkey;
			wqe->wr.wr.ud.ah_num = to_uet_ah(ud_wr(wr)->ah)->num;
		}
		break;
	case IB_WR_ATOMIC_CMP_AND_SWP:
	case IB_WR_ATOMIC_FETCH_AND_ADD:
		wqe->wr.wr.atomic.remote_addr = atomic_wr(wr)->remote_addr;
		wqe->wr.wr.atomic.compare_add = atomic_wr(wr)->compare_add;
		wqe->wr.wr.atomic.swap = atomic_wr(wr)->swap;
		wqe->wr.wr.atomic.rkey = atomic_wr(wr)->rkey;
		wqe->iova = atomic_wr(wr)->remote_addr;
		break;
	case IB_WR_LOCAL_INV:
		wqe->wr.ex.invalidate_rkey = wr->ex.invalidate_rkey;
		break;
	case IB_WR_REG_MR:
		wqe->wr.wr.reg.mr = reg_wr(wr)->mr;
		wqe->wr.wr.reg.key = reg_wr(wr)->key;
		wqe->wr.wr.reg.access = reg_wr(wr)->access;
		break;
	default:
		return -EINVAL;
	}
	for (i = 0; i < wr->num_sge; i++) {
		wqe->dma.sge[i].addr = wr->sg_list[i].addr;
		wqe->dma.sge[i].length = wr->sg_list[i].length;
		wqe->dma.sge[i].lkey = wr->sg_list[i].lkey;
		len += wr->sg_list[i].length;
	}
	if (uet_wqe_inline(wr->opcode, wr->send_flags)) {
		u8 *p = wqe->dma.inline_data;

		if (len > qp->sq.max_inline)
			return -EINVAL;
		/* inline data is gathered now, from kernel addresses */
		for (i = 0; i < wr->num_sge; i++) {
			memcpy(p, (void *)(uintptr_t)wr->sg_list[i].addr,
			       wr->sg_list[i].length);
			p += wr->sg_list[i].length;
		}
	}
	wqe->dma.length = len;
	wqe->dma.resid = len;
	wqe->dma.num_sge = wr->num_sge;
	return 0;
}

int uet_post_send(struct ib_qp *ibqp, const struct ib_send_wr *wr,
		  const struct ib_send_wr **bad_wr)
{
	struct uet_qp *qp = to_uet_qp(ibqp);
	enum ib_qp_state state = READ_ONCE(qp->state);
	unsigned long flags;
	int err = 0;

	if (qp->user) {
		/* the doorbell: the WQEs are in the shared queue */
		uet_qp_sq_run(qp, UET_CTX_PROCESS);
		return 0;
	}
	if (state != IB_QPS_RTS && state != IB_QPS_ERR && state != IB_QPS_SQD) {
		*bad_wr = wr;
		return -EINVAL;
	}
	spin_lock_irqsave(&qp->sq.lock, flags);
	for (; wr; wr = wr->next) {
		if (uet_queue_kfull(&qp->sq.queue)) {
			err = -ENOMEM;
			break;
		}
		err = send_wqe_from_wr(qp, uet_queue_kslot(&qp->sq.queue), wr);
		if (err)
			break;
		uet_queue_kproduce(&qp->sq.queue);
	}
	spin_unlock_irqrestore(&qp->sq.lock, flags);
	if (err)
		*bad_wr = wr;
	uet_qp_sq_run(qp, UET_CTX_ANY);
	return err;
}

int uet_post_recv(struct ib_qp *ibqp, const struct ib_recv_wr *wr,
		  const struct ib_recv_wr **bad_wr)
{
	struct uet_qp *qp = to_uet_qp(ibqp);
	unsigned long flags;
	int err = 0;

	if (qp->srq || qp->user || READ_ONCE(qp->state) == IB_QPS_RESET) {
		*bad_wr = wr;
		return -EINVAL;
	}
	spin_lock_irqsave(&qp->rq.lock, flags);
	for (; wr; wr = wr->next) {
		if (uet_queue_kfull(&qp->rq.queue)) {
			err = -ENOMEM;
			break;
		}
		err = uet_recv_wqe_from_wr(uet_queue_kslot(&qp->rq.queue), wr,
					   qp->rq.max_sge);
		if (err)
			break;
		uet_queue_kproduce(&qp->rq.queue);
	}
	spin_unlock_irqrestore(&qp->rq.lock, flags);
	if (err)
		*bad_wr = wr;
	else if (READ_ONCE(qp->state) == IB_QPS_ERR)
		qp_flush(qp);
	return err;
}
