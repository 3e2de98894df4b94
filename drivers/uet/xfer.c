// SPDX-License-Identifier: GPL-2.0
/*
 * uet data path of the verbs (see xfer.h), over the SES endpoint API of
 * ses.h.
 *
 * A QP is the endpoint {UET_JOB_DEFAULT, PIDonFEP = QPN} of its device;
 * its peer is {IP address of the destination GID, destination QPN}.  RC
 * QPs use the device's RC delivery mode (cfg.rc_mode: RUD unless set
 * otherwise), UD QPs UUD (one packet per message, best effort), UC QPs
 * RUD (UET has no unreliable multi-packet mode).  Sends, sends with
 * immediate data, RDMA writes (with immediate data) and RDMA reads map to
 * the endpoint's operations one to one; scatter/gather entries are the
 * MRs' struct uet_mem pieces, so data moves between packets and the
 * registered pages without intermediate copies.
 *
 * The rxe provider posts receive WQEs into the shared queue without a
 * system call, while the endpoint needs its receive buffers before the
 * messages come.  So receive WQEs are handed to the endpoint ahead, up to
 * UET_XFER_RECV_AHEAD of them: when the QP becomes ready to receive, at
 * each doorbell, and after each receive completion (from the QP's work
 * item, since the completion callback may not call into the endpoint).  A
 * message that still finds no buffer is refused by the target, and the
 * sender's WQE completes with IB_WC_RNR_RETRY_EXC_ERR.
 *
 * References: work handed to the endpoint keeps references on the MRs it
 * names until its completion; the completion callback (softirq) queues it
 * on the QP's done list and the QP's work item drops the references in
 * process context.
 */
#include <linux/slab.h>
#include <linux/workqueue.h>
#include <rdma/ib_pack.h>
#include <rdma/ib_verbs.h>

#include "ses.h"
#include "uet.h"
#include "verbs.h"
#include "wire.h"
#include "xfer.h"

/* Receive WQEs a QP hands to its endpoint ahead of the messages. */
#define UET_XFER_RECV_AHEAD	256

/* Bytes of the GRH in front of a UD receive (IB spec 8.3). */
#define UET_GRH_LEN		sizeof(struct ib_grh)

/* Hop limit written into the GRH of UD receives: the IPv6 default. */
#define UET_GRH_HOP_LIMIT	64

/**
 * struct uet_xfer - work handed to the endpoint
 * @node: in the QP's @recvs while posted, in its @done once completed.
 * @recv: a receive WQE (else a send WQE).
 * @wr_id: @opcode: @signaled: what its CQE needs (@opcode: IB_WR_*).
 * @grh: UD receive: where the GRH goes.
 * @nmr: entries of @mr.
 * @mr: the regions it names, referenced.
 */
struct uet_xfer {
	struct list_head node;
	bool recv;
	u64 wr_id;
	u32 opcode;
	bool signaled;
	struct uet_sge grh;
	unsigned int nmr;
	struct uet_mr *mr[];
};

static void xfer_free(struct uet_xfer *x)
{
	unsigned int i;

	for (i = 0; i < x->nmr; i++)
		uet_mr_put(x->mr[i]);
	kfree(x);
}

/* Completed: its references are dropped by the QP's work item. */
static void xfer_retire(struct uet_qp *qp, struct uet_xfer *x)
{
	unsigned long flags;

	spin_lock_irqsave(&qp->xfer_lock, flags);
	if (x->recv) {
		list_del(&x->node);
		qp->nrecvs--;
	}
	list_add_tail(&x->node, &qp->done);
	spin_unlock_irqrestore(&qp->xfer_lock, flags);
	queue_work(system_wq, &qp->work);
}

static enum ib_wc_status comp_status(const struct uet_comp *c, bool recv)
{
	switch (c->status) {
	case 0:
		return IB_WC_SUCCESS;
	case -ECANCELED:
		return IB_WC_WR_FLUSH_ERR;
	case -EMSGSIZE:
		return recv ? IB_WC_LOC_LEN_ERR : IB_WC_REM_INV_REQ_ERR;
	case -EFAULT:
		return IB_WC_LOC_PROT_ERR;
	case -ETIMEDOUT:
		return IB_WC_RETRY_EXC_ERR;
	case -EREMOTEIO:
		switch (c->ses_rc) {
		case UET_SES_RC_NO_MATCH:
			return IB_WC_RNR_RETRY_EXC_ERR;
		case UET_SES_RC_TOO_LONG:
		case UET_SES_RC_UNSUPPORTED_OP:
		case UET_SES_RC_UNSUPPORTED_SIZE:
			return IB_WC_REM_INV_REQ_ERR;
		case UET_SES_RC_UNCOR:
		case UET_SES_RC_UNCOR_TRNSNT:
		case UET_SES_RC_CANCELLED:
			return IB_WC_REM_OP_ERR;
		default:
			return IB_WC_REM_ACCESS_ERR;
		}
	default:
		return recv ? IB_WC_LOC_QP_OP_ERR : IB_WC_FATAL_ERR;
	}
}

static void xfer_send_done(struct uet_qp *qp, const struct uet_comp *c)
{
	struct uet_xfer *x = (void *)(uintptr_t)c->cookie;
	enum ib_wc_status status = comp_status(c, false);

	if (!READ_ONCE(qp->closing))
		uet_qp_send_done(qp, x->wr_id, x->opcode, x->signaled, status);
	if (x->nmr)
		xfer_retire(qp, x);
	else
		kfree(x);
	if (status != IB_WC_SUCCESS)
		queue_work(system_wq, &qp->work);	/* flush the QP */
}

/* The GRH of a UD receive: the sender's address as source GID. */
static void recv_grh(struct uet_qp *qp, struct uet_xfer *x,
		     const struct uet_comp *c)
{
	struct ib_grh grh = {
		.version_tclass_flow = cpu_to_be32(6 << 28),
		.paylen = cpu_to_be16(c->byte_len),
		.next_hdr = IPPROTO_UDP,
		.hop_limit = UET_GRH_HOP_LIMIT,
	};

	memcpy(grh.sgid.raw, &c->src, sizeof(grh.sgid.raw));
	uet_mem_copy(x->grh.mem, x->grh.addr, &grh, sizeof(grh), true);
}

static void xfer_recv_done(struct uet_qp *qp, const struct uet_comp *c)
{
	struct uet_xfer *x = (void *)(uintptr_t)c->cookie;
	struct ib_wc wc = {
		.wr_id = x->wr_id,
		.status = comp_status(c, true),
		.opcode = c->op == UET_OP_WRITE ? IB_WC_RECV_RDMA_WITH_IMM :
						  IB_WC_RECV,
		.byte_len = c->byte_len,
		.qp = &qp->ibqp,
		.src_qp = c->src_pid,
		.port_num = UET_PORT,
	};

	if (c->has_imm) {
		wc.ex.imm_data = (__force __be32)c->imm;
		wc.wc_flags |= IB_WC_WITH_IMM;
	}
	if (qp->ibqp.qp_type == IB_QPT_UD && wc.status == IB_WC_SUCCESS) {
		recv_grh(qp, x, c);
		wc.byte_len += UET_GRH_LEN;
		wc.wc_flags |= IB_WC_GRH;
	}
	if (!READ_ONCE(qp->closing))
		uet_cq_post(to_uet_cq(qp->ibqp.recv_cq), &wc, false);
	xfer_retire(qp, x);
}

/* The endpoint's completion callback: any context, the endpoint locked. */
static void xfer_comp(struct uet_ep *ep, const struct uet_comp *c, void *priv)
{
	struct uet_qp *qp = priv;

	if (c->recv)
		xfer_recv_done(qp, c);
	else
		xfer_send_done(qp, c);
}

/*
 * Resolve the scatter/gather entries of a WQE into @sge, referencing their
 * MRs in @x; returns how many, or the status to fail the WQE with.
 */
static int wqe_sgl(struct uet_qp *qp, const struct rxe_sge *in, u32 n,
		   int access, struct uet_sge *sge, struct uet_xfer *x)
{
	u32 i, out = 0;

	for (i = 0; i < n; i++) {
		struct uet_mr *mr;

		if (!in[i].length)
			continue;
		mr = uet_mr_get(qp->udev, qp->ibqp.pd, in[i].lkey, in[i].addr,
				in[i].length, access);
		if (!mr)
			return -IB_WC_LOC_PROT_ERR;
		x->mr[x->nmr++] = mr;
		sge[out++] = (struct uet_sge) {
			.mem = &mr->mem, .addr = in[i].addr, .len = in[i].length,
		};
	}
	return out;
}

/* Where @wqe goes: the peer of a connected QP, or the AH of a UD WQE. */
static int send_dest(struct uet_qp *qp, const struct rxe_send_wqe *wqe,
		     struct uet_wr *wr)
{
	unsigned long flags;
	struct uet_av av;

	if (qp->ibqp.qp_type == IB_QPT_UD) {
		if (uet_ah_lookup(qp->udev, qp->ibqp.pd, wqe->wr.wr.ud.ah_num,
				  &av) ||
		    wqe->wr.wr.ud.remote_qpn > UET_QPN_LAST)
			return -EINVAL;
		wr->dst = av.dgid;
		wr->dst_pid = wqe->wr.wr.ud.remote_qpn;
		wr->mode = UET_PDC_UUD;
		return 0;
	}
	spin_lock_irqsave(&qp->attr_lock, flags);
	wr->dst = qp->av.dgid;
	wr->dst_pid = qp->attr.dest_qp_num;
	spin_unlock_irqrestore(&qp->attr_lock, flags);
	wr->mode = qp->ibqp.qp_type == IB_QPT_RC ?
		   READ_ONCE(qp->udev->cfg.rc_mode) : UET_PDC_RUD;
	return 0;
}

static enum ib_wc_status post_status(int err)
{
	switch (err) {
	case -EMSGSIZE:
		return IB_WC_LOC_LEN_ERR;
	case -EFAULT:
		return IB_WC_LOC_PROT_ERR;
	default:
		return IB_WC_LOC_QP_OP_ERR;
	}
}

/**
 * uet_xfer_send() - start a send WQE: send, write or read
 * @qp: the QP, in RTS
 * @wqe: a private copy of the WQE
 *
 * Context: process (the endpoint API may sleep).
 * Return: IB_WC_SUCCESS when the WQE was handed to the endpoint (its
 * completion follows), else the status to complete it with.
 */
enum ib_wc_status uet_xfer_send(struct uet_qp *qp, struct rxe_send_wqe *wqe)
{
	u32 opcode = wqe->wr.opcode, nsge = wqe->dma.num_sge;
	bool read = opcode == IB_WR_RDMA_READ;
	struct uet_sge sge[UET_MAX_SGE];
	struct uet_wr wr = {};
	struct uet_mem inl;
	struct uet_xfer *x;
	int n, err;

	if (nsge > UET_MAX_SGE)
		return IB_WC_LOC_LEN_ERR;
	if (send_dest(qp, wqe, &wr))
		return IB_WC_LOC_QP_OP_ERR;
	x = kzalloc(struct_size(x, mr, nsge), GFP_KERNEL);
	if (!x)
		return IB_WC_LOC_QP_OP_ERR;
	x->wr_id = wqe->wr.wr_id;
	x->opcode = opcode;
	x->signaled = qp->sq_sig_all || (wqe->wr.send_flags & IB_SEND_SIGNALED);

	if ((wqe->wr.send_flags & IB_SEND_INLINE) && !read) {
		/* the private copy of the WQE is kernel memory */
		inl = (struct uet_mem) {
			.iova = (uintptr_t)wqe->dma.inline_data,
			.length = wqe->dma.length,
		};
		sge[0] = (struct uet_sge) { .mem = &inl, .addr = inl.iova,
					    .len = wqe->dma.length };
		n = wqe->dma.length ? 1 : 0;
	} else {
		n = wqe_sgl(qp, wqe->dma.sge, nsge,
			    read ? IB_ACCESS_LOCAL_WRITE : 0, sge, x);
		if (n < 0) {
			xfer_free(x);
			return -n;
		}
	}

	wr.cookie = (uintptr_t)x;
	wr.sge = sge;
	wr.nsge = n;
	switch (opcode) {
	case IB_WR_SEND_WITH_IMM:
	case IB_WR_RDMA_WRITE_WITH_IMM:
		wr.flags = UET_WR_IMM;
		wr.imm = (__force u32)wqe->wr.ex.imm_data;
		break;
	}
	switch (opcode) {
	case IB_WR_SEND:
	case IB_WR_SEND_WITH_IMM:
		wr.op = UET_OP_SEND;
		break;
	case IB_WR_RDMA_WRITE:
	case IB_WR_RDMA_WRITE_WITH_IMM:
		wr.op = UET_OP_WRITE;
		break;
	case IB_WR_RDMA_READ:
		wr.op = UET_OP_READ;
		break;
	default:
		xfer_free(x);
		return IB_WC_LOC_QP_OP_ERR;
	}
	if (wr.op != UET_OP_SEND) {
		wr.rkey = wqe->wr.wr.rdma.rkey;
		wr.raddr = wqe->wr.wr.rdma.remote_addr;
	}

	mutex_lock(&qp->ep_lock);
	err = qp->ep ? uet_ep_post(qp->ep, &wr) : -ENOTCONN;
	mutex_unlock(&qp->ep_lock);
	if (err) {
		xfer_free(x);
		return post_status(err);
	}
	/* sends and writes copied their data: only reads keep their MRs */
	if (!read) {
		unsigned long flags;
		unsigned int i, nmr;

		spin_lock_irqsave(&qp->xfer_lock, flags);
		nmr = x->nmr;
		x->nmr = 0;
		spin_unlock_irqrestore(&qp->xfer_lock, flags);
		for (i = 0; i < nmr; i++)
			uet_mr_put(x->mr[i]);
	}
	return IB_WC_SUCCESS;
}

/* Take the oldest receive WQE of the RQ or SRQ of @qp. */
static struct rxe_recv_wqe *take_recv(struct uet_qp *qp, void *copy)
{
	spinlock_t *lock = qp->srq ? &qp->srq->lock : &qp->rq.lock;
	struct uet_queue *q = qp->srq ? &qp->srq->queue : &qp->rq.queue;
	struct rxe_recv_wqe *wqe;
	unsigned long flags;

	spin_lock_irqsave(lock, flags);
	wqe = uet_queue_head(q);
	if (wqe) {
		memcpy(copy, wqe, BIT(q->log2_elem));
		uet_queue_consume(q);
		if (qp->srq)
			uet_srq_consumed(qp->srq);
	}
	spin_unlock_irqrestore(lock, flags);
	return wqe ? copy : NULL;
}

/* Hand one receive WQE to the endpoint; false when none is queued. */
static bool recv_one(struct uet_qp *qp, void *copy)
{
	u32 max_sge = qp->srq ? qp->srq->max_sge : qp->rq.max_sge;
	bool ud = qp->ibqp.qp_type == IB_QPT_UD;
	struct uet_comp fail = { .recv = true, .status = -EFAULT };
	struct uet_sge sge[UET_MAX_SGE];
	struct uet_recv rv = {};
	struct rxe_recv_wqe *wqe;
	unsigned long flags;
	struct uet_xfer *x;
	u32 nsge;
	int n;

	wqe = take_recv(qp, copy);
	if (!wqe)
		return false;
	nsge = min3(wqe->dma.num_sge, max_sge, (u32)UET_MAX_SGE);
	x = kzalloc(struct_size(x, mr, nsge), GFP_KERNEL);
	if (!x) {
		struct ib_wc wc = { .wr_id = wqe->wr_id, .qp = &qp->ibqp,
				    .status = IB_WC_LOC_QP_OP_ERR,
				    .opcode = IB_WC_RECV };

		uet_cq_post(to_uet_cq(qp->ibqp.recv_cq), &wc, false);
		return true;
	}
	x->recv = true;
	x->wr_id = wqe->wr_id;
	fail.cookie = (uintptr_t)x;
	spin_lock_irqsave(&qp->xfer_lock, flags);
	list_add_tail(&x->node, &qp->recvs);
	qp->nrecvs++;
	spin_unlock_irqrestore(&qp->xfer_lock, flags);

	n = wqe_sgl(qp, wqe->dma.sge, nsge, IB_ACCESS_LOCAL_WRITE, sge, x);
	if (n >= 0 && ud) {
		/* the GRH takes the first bytes, in the first entry */
		if (!n || sge[0].len < UET_GRH_LEN) {
			fail.status = -EMSGSIZE;
			n = -1;
		} else {
			x->grh = sge[0];
			sge[0].addr += UET_GRH_LEN;
			sge[0].len -= UET_GRH_LEN;
		}
	}
	if (n >= 0) {
		rv.cookie = (uintptr_t)x;
		rv.sge = sge;
		rv.nsge = n;
		if (qp->ep && !uet_ep_post_recv(qp->ep, &rv))
			return true;
	}
	xfer_recv_done(qp, &fail);
	return true;
}

/* Hand queued receive WQEs to the endpoint, in queue order. */
static void recv_fill(struct uet_qp *qp)
{
	void *copy;

	copy = kmalloc(qp->srq ? BIT(qp->srq->queue.log2_elem) :
			      BIT(qp->rq.queue.log2_elem), GFP_KERNEL);
	if (!copy)
		return;
	mutex_lock(&qp->ep_lock);
	while (READ_ONCE(qp->nrecvs) < UET_XFER_RECV_AHEAD) {
		enum ib_qp_state state = READ_ONCE(qp->state);

		if (state != IB_QPS_RTR && state != IB_QPS_RTS &&
		    state != IB_QPS_SQD)
			break;
		if (!recv_one(qp, copy))
			break;
	}
	mutex_unlock(&qp->ep_lock);
	kfree(copy);
}

/* Close and reopen the endpoint: what it held completes as flushed. */
static int ep_flush(struct uet_qp *qp)
{
	struct uet_ep *ep;

	lockdep_assert_held(&qp->ep_lock);
	if (qp->ep)
		uet_ep_close(qp->ep);
	ep = uet_ep_open(&qp->udev->ibdev, UET_JOB_DEFAULT, qp->ibqp.qp_num,
			 xfer_comp, qp);
	if (IS_ERR(ep)) {
		qp->ep = NULL;
		return PTR_ERR(ep);
	}
	qp->ep = ep;
	return 0;
}

static void drop_done(struct uet_qp *qp)
{
	struct uet_xfer *x, *tmp;
	unsigned long flags;
	LIST_HEAD(done);

	spin_lock_irqsave(&qp->xfer_lock, flags);
	list_splice_init(&qp->done, &done);
	spin_unlock_irqrestore(&qp->xfer_lock, flags);
	list_for_each_entry_safe(x, tmp, &done, node)
		xfer_free(x);
}

static void xfer_work(struct work_struct *work)
{
	struct uet_qp *qp = container_of(work, struct uet_qp, work);
	unsigned long flags;
	bool flush;

	drop_done(qp);
	if (READ_ONCE(qp->state) == IB_QPS_ERR) {
		spin_lock_irqsave(&qp->xfer_lock, flags);
		flush = !qp->ep_flushed && !qp->closing;
		qp->ep_flushed = true;
		spin_unlock_irqrestore(&qp->xfer_lock, flags);
		if (flush) {
			mutex_lock(&qp->ep_lock);
			ep_flush(qp);
			mutex_unlock(&qp->ep_lock);
			drop_done(qp);
		}
		uet_qp_flush(qp);
		return;
	}
	recv_fill(qp);
	uet_qp_sq_run(qp);
}

/**
 * uet_xfer_kick() - run the QP's work item: fill, drain, flush
 * @qp: the QP
 *
 * Any context.
 */
void uet_xfer_kick(struct uet_qp *qp)
{
	queue_work(system_wq, &qp->work);
}

/**
 * uet_xfer_recv_fill() - hand queued receive WQEs to the endpoint
 * @qp: the QP
 *
 * Any context: from one that may not sleep, the work item does it.
 */
void uet_xfer_recv_fill(struct uet_qp *qp)
{
	if (in_task() && !irqs_disabled())
		recv_fill(qp);
	else
		uet_xfer_kick(qp);
}

/**
 * uet_xfer_open() - open the QP's endpoint
 * @qp: the QP, its QPN set
 *
 * Return: 0 or a negative errno from uet_ep_open().
 */
int uet_xfer_open(struct uet_qp *qp)
{
	struct uet_ep *ep;

	mutex_init(&qp->ep_lock);
	spin_lock_init(&qp->xfer_lock);
	INIT_LIST_HEAD(&qp->recvs);
	INIT_LIST_HEAD(&qp->done);
	INIT_WORK(&qp->work, xfer_work);
	ep = uet_ep_open(&qp->udev->ibdev, UET_JOB_DEFAULT, qp->ibqp.qp_num,
			 xfer_comp, qp);
	if (IS_ERR(ep))
		return PTR_ERR(ep);
	qp->ep = ep;
	return 0;
}

/**
 * uet_xfer_reset() - the QP entered the error or the reset state
 * @qp: the QP
 *
 * Context: process.  Work the endpoint holds completes as flushed (error)
 * or silently (reset, whose queues are emptied anyway).
 *
 * Return: 0, or the error of reopening the endpoint.
 */
int uet_xfer_reset(struct uet_qp *qp)
{
	unsigned long flags;
	int err;

	cancel_work_sync(&qp->work);
	spin_lock_irqsave(&qp->xfer_lock, flags);
	qp->ep_flushed = READ_ONCE(qp->state) == IB_QPS_ERR;
	spin_unlock_irqrestore(&qp->xfer_lock, flags);
	mutex_lock(&qp->ep_lock);
	err = ep_flush(qp);
	mutex_unlock(&qp->ep_lock);
	drop_done(qp);
	return err;
}

/**
 * uet_xfer_close() - close the QP's endpoint, dropping what it held
 * @qp: the QP, being destroyed
 */
void uet_xfer_close(struct uet_qp *qp)
{
	struct uet_xfer *x, *tmp;
	unsigned long flags;

	spin_lock_irqsave(&qp->xfer_lock, flags);
	qp->closing = true;
	spin_unlock_irqrestore(&qp->xfer_lock, flags);
	cancel_work_sync(&qp->work);
	mutex_lock(&qp->ep_lock);
	if (qp->ep)
		uet_ep_close(qp->ep);	/* completes with -ECANCELED */
	qp->ep = NULL;
	mutex_unlock(&qp->ep_lock);
	cancel_work_sync(&qp->work);
	drop_done(qp);
	/* Messages half received when the endpoint closed never complete. */
	list_for_each_entry_safe(x, tmp, &qp->recvs, node) {
		list_del(&x->node);
		xfer_free(x);
	}
	qp->nrecvs = 0;
}
