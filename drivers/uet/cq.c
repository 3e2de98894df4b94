// SPDX-License-Identifier: GPL-2.0
/*
 * uet completion queues.
 *
 * Completions are written by uet_cq_post() from any context (the
 * doorbell's caller, the softirq that receives an ACK or a
 * message) into the CQ's shared queue; a process polls them without a
 * system call (the rxe provider's rxe_poll_cq()), a kernel user through
 * uet_poll_cq().  A user CQ's slots hold struct ib_uverbs_wc, the layout
 * of struct ibv_wc that the provider copies out; a kernel CQ's slots hold
 * struct ib_wc.
 *
 * Every completion a QP makes is built here, from what the verbs glue
 * knows of its work request: uet_cq_send_done() and uet_cq_recv_done().
 */
#include <linux/log2.h>
#include <rdma/ib_verbs.h>
#include <rdma/uverbs_ioctl.h>

#include "ses.h"
#include "uet.h"
#include "verbs.h"

static int cq_check_size(struct ib_device *ibdev, int cqe)
{
	if (cqe < 1 || cqe > UET_MAX_CQE)
		return -EINVAL;
	return 0;
}

int uet_create_cq(struct ib_cq *ibcq, const struct ib_cq_init_attr *attr,
		  struct ib_udata *udata)
{
	struct uet_cq *cq = to_uet_cq(ibcq);
	struct rxe_create_cq_resp resp = {};
	size_t elem;
	int err;

	if (attr->flags)
		return -EOPNOTSUPP;
	if (attr->comp_vector >= ibcq->device->num_comp_vectors)
		return -EINVAL;
	err = cq_check_size(ibcq->device, attr->cqe);
	if (err)
		return err;
	if (udata && udata->outlen < sizeof(resp))
		return -EINVAL;

	spin_lock_init(&cq->lock);
	cq->user = !!udata;
	elem = cq->user ? sizeof(struct ib_uverbs_wc) : sizeof(struct ib_wc);
	err = uet_queue_init(&cq->queue, UET_QUEUE_PRODUCE, attr->cqe, elem,
			     udata, &resp.mi);
	if (err)
		return err;
	if (udata) {
		err = ib_copy_to_udata(udata, &resp, sizeof(resp));
		if (err) {
			uet_queue_free(&cq->queue);
			return err;
		}
	}
	ibcq->cqe = uet_queue_capacity(&cq->queue);
	return 0;
}

int uet_resize_cq(struct ib_cq *ibcq, int cqe, struct ib_udata *udata)
{
	struct uet_cq *cq = to_uet_cq(ibcq);
	struct rxe_resize_cq_resp resp = {};
	struct uet_queue nq;
	int err;

	err = cq_check_size(ibcq->device, cqe);
	if (err)
		return err;
	if (udata && udata->outlen < sizeof(resp))
		return -EINVAL;

	/* Allocate first, then move the completions present under the lock. */
	err = uet_queue_init(&nq, UET_QUEUE_PRODUCE, cqe,
			     BIT(cq->queue.log2_elem), udata, &resp.mi);
	if (err)
		return err;
	spin_lock_irq(&cq->lock);
	err = uet_queue_swap(&cq->queue, &nq);
	spin_unlock_irq(&cq->lock);
	uet_queue_free(&nq);
	if (err)
		return err;
	ibcq->cqe = uet_queue_capacity(&cq->queue);
	if (udata)
		return ib_copy_to_udata(udata, &resp, sizeof(resp));
	return 0;
}

int uet_destroy_cq(struct ib_cq *ibcq, struct ib_udata *udata)
{
	uet_queue_free(&to_uet_cq(ibcq)->queue);
	return 0;
}

int uet_poll_cq(struct ib_cq *ibcq, int num_entries, struct ib_wc *wc)
{
	struct uet_cq *cq = to_uet_cq(ibcq);
	struct uet_queue *q = &cq->queue;
	unsigned long flags;
	u32 cons;
	int n;

	if (cq->user)	/* its slots are the provider's to poll */
		return -EINVAL;
	spin_lock_irqsave(&cq->lock, flags);
	cons = q->buf->consumer_index;
	for (n = 0; n < num_entries && cons != q->index; n++) {
		memcpy(&wc[n], uet_queue_slot(q, cons), sizeof(*wc));
		cons = (cons + 1) & q->mask;
	}
	/* our reads of the entries before the index that frees the slots */
	smp_store_release(&q->buf->consumer_index, cons);
	spin_unlock_irqrestore(&cq->lock, flags);
	return n;
}

int uet_req_notify_cq(struct ib_cq *ibcq, enum ib_cq_notify_flags flags)
{
	struct uet_cq *cq = to_uet_cq(ibcq);
	unsigned long irqflags;
	int ret = 0;

	spin_lock_irqsave(&cq->lock, irqflags);
	if (cq->notify != IB_CQ_NEXT_COMP)
		cq->notify = flags & IB_CQ_SOLICITED_MASK;
	if ((flags & IB_CQ_REPORT_MISSED_EVENTS) && uet_queue_count(&cq->queue))
		ret = 1;
	spin_unlock_irqrestore(&cq->lock, irqflags);
	return ret;
}

static void cq_fill_uwc(struct ib_uverbs_wc *uwc, const struct ib_wc *wc)
{
	*uwc = (struct ib_uverbs_wc) {
		.wr_id = wc->wr_id,
		.status = wc->status,
		.opcode = wc->opcode,
		.vendor_err = wc->vendor_err,
		.byte_len = wc->byte_len,
		.ex.imm_data = wc->ex.imm_data,
		.qp_num = wc->qp->qp_num,
		.src_qp = wc->src_qp,
		.wc_flags = wc->wc_flags,
		.pkey_index = wc->pkey_index,
		.slid = wc->slid,
		.sl = wc->sl,
		.dlid_path_bits = wc->dlid_path_bits,
		.port_num = wc->port_num,
	};
}

static void cq_overflow(struct uet_cq *cq)
{
	struct ib_event ev = {
		.device = cq->ibcq.device,
		.element.cq = &cq->ibcq,
		.event = IB_EVENT_CQ_ERR,
	};

	if (cq->ibcq.event_handler)
		cq->ibcq.event_handler(&ev, cq->ibcq.cq_context);
}

/**
 * uet_cq_post() - add a completion to a CQ
 * @cq: the CQ
 * @wc: the completion; @wc->qp is the QP it belongs to
 * @solicited: the message asked for a solicited event
 *
 * Any context.  Signals the completion channel when the CQ was armed for
 * this kind of completion.
 *
 * Return: 0, or -ENOSPC when the CQ overflowed (the completion is lost and
 * the CQ's owner gets IB_EVENT_CQ_ERR).
 */
int uet_cq_post(struct uet_cq *cq, const struct ib_wc *wc, bool solicited)
{
	struct uet_queue *q = &cq->queue;
	unsigned long flags;
	bool signal = false;
	void *slot;

	spin_lock_irqsave(&cq->lock, flags);
	if (uet_queue_full(q)) {
		spin_unlock_irqrestore(&cq->lock, flags);
		cq_overflow(cq);
		return -ENOSPC;
	}
	slot = uet_queue_producer_slot(q);
	if (cq->user)
		cq_fill_uwc(slot, wc);
	else
		memcpy(slot, wc, sizeof(*wc));
	uet_queue_produce(q);
	if (cq->notify == IB_CQ_NEXT_COMP ||
	    (cq->notify == IB_CQ_SOLICITED &&
	     (solicited || wc->status != IB_WC_SUCCESS))) {
		cq->notify = 0;
		signal = true;
	}
	spin_unlock_irqrestore(&cq->lock, flags);

	if (signal && cq->ibcq.comp_handler)
		cq->ibcq.comp_handler(&cq->ibcq, cq->ibcq.cq_context);
	return 0;
}

/* The completion opcode of a send WQE's opcode (IB_WR_*). */
static enum ib_wc_opcode wc_send_opcode(u32 opcode)
{
	switch (opcode) {
	case IB_WR_RDMA_WRITE:
	case IB_WR_RDMA_WRITE_WITH_IMM:
		return IB_WC_RDMA_WRITE;
	case IB_WR_RDMA_READ:
		return IB_WC_RDMA_READ;
	case IB_WR_ATOMIC_CMP_AND_SWP:
		return IB_WC_COMP_SWAP;
	case IB_WR_ATOMIC_FETCH_AND_ADD:
		return IB_WC_FETCH_ADD;
	case IB_WR_LOCAL_INV:
		return IB_WC_LOCAL_INV;
	case IB_WR_REG_MR:
		return IB_WC_REG_MR;
	default:
		return IB_WC_SEND;
	}
}

/**
 * uet_cq_send_done() - complete a send WQE on its QP's send CQ
 * @qp: the QP
 * @wr_id: the WQE's work request ID ...
 * @opcode: ... its opcode (IB_WR_*) ...
 * @signaled: ... and whether it asked for a completion
 * @status: IB_WC_SUCCESS or the error
 *
 * Any context.  Errors always complete (and move the QP to the error
 * state, but for a flush); successes only when signaled.
 */
void uet_cq_send_done(struct uet_qp *qp, u64 wr_id, u32 opcode, bool signaled,
		      enum ib_wc_status status)
{
	struct ib_wc wc = {
		.wr_id = wr_id,
		.status = status,
		.opcode = wc_send_opcode(opcode),
		.qp = &qp->ibqp,
		.port_num = UET_PORT,
	};

	if (status != IB_WC_SUCCESS && status != IB_WC_WR_FLUSH_ERR)
		uet_qp_error(qp);
	if (signaled || status != IB_WC_SUCCESS)
		uet_cq_post(to_uet_cq(qp->ibqp.send_cq), &wc, false);
}

/**
 * uet_cq_recv_done() - complete a receive WQE on its QP's receive CQ
 * @qp: the QP
 * @wr_id: the WQE's work request ID
 * @status: IB_WC_SUCCESS or the error
 * @c: the endpoint's completion of the message, or %NULL for a WQE that
 *	took none (flushed, or failed before the endpoint saw it)
 * @grh: a UD receive: a GRH precedes the message in the buffer
 *
 * Any context.
 */
void uet_cq_recv_done(struct uet_qp *qp, u64 wr_id, enum ib_wc_status status,
		      const struct uet_comp *c, bool grh)
{
	struct ib_wc wc = {
		.wr_id = wr_id,
		.status = status,
		.opcode = IB_WC_RECV,
		.qp = &qp->ibqp,
		.port_num = UET_PORT,
	};

	if (c) {
		if (c->op == UET_OP_WRITE)
			wc.opcode = IB_WC_RECV_RDMA_WITH_IMM;
		wc.byte_len = c->byte_len;
		wc.src_qp = c->src_pid;
		if (c->has_imm) {
			wc.ex.imm_data = (__force __be32)c->imm;
			wc.wc_flags |= IB_WC_WITH_IMM;
		}
	}
	if (grh) {
		wc.byte_len += UET_GRH_LEN;
		wc.wc_flags |= IB_WC_GRH;
	}
	uet_cq_post(to_uet_cq(qp->ibqp.recv_cq), &wc, false);
}
