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
 * immediate data, RDMA writes (with immediate data), RDMA reads and the
 * atomics compare-and-swap and fetch-and-add map to the endpoint's
 * operations one to one; scatter/gather entries are the
 * MRs' struct uet_mem pieces, so data moves between packets and the
 * registered pages without intermediate copies.
 *
 * The rxe provider posts receive WQEs into the shared queue without a
 * system call.  The endpoint takes them from there itself as messages
 * need them (xfer_get_rbuf(), in softirq, in message order), as an IB
 * responder does: a message finds every receive WQE posted before its
 * first packet arrived, and a datagram none, with none posted, is
 * dropped, as UD's is.
 *
 * A send (or a write with immediate data) that finds no receive WQE
 * waits as after an IB RNR NAK: its requests stay unreceived at the
 * target, and the sender's PDC sends the first of them again every
 * millisecond (the RNR timer), as often as the QP's rnr_retry allows (7:
 * without limit, as in IB), then gives the message up and completes it
 * with IB_WC_RNR_RETRY_EXC_ERR.  The messages after it wait behind it:
 * the target takes receive WQEs in message order (ses_rx.c), so nothing
 * overtakes it.
 *
 * A connected QP's message that the target refuses as not its peer's
 * (UET_SES_RC_BAD_PID: the peer QP is gone, is another QP's peer, or does
 * not receive: before RTR, in ERR) is
 * what an IB responder drops silently (IB spec 9.6, packet header
 * validation): the sender posts it again after the QP's local ACK
 * timeout, as often as its retry_cnt allows, then completes it with
 * IB_WC_RETRY_EXC_ERR.  So a program that posts a send its peer, done and
 * gone, will never take, has the timeout to finish before it fails, as
 * on IB.
 *
 * The QP's access flags become the endpoint's: the remote writes, reads
 * and atomics it accepts.
 *
 * References: work handed to the endpoint keeps references on the MRs it
 * names until its completion.  The completion callback (softirq) drops
 * them, unless one is a region's last, which may unpin pages: such work
 * goes on the QP's done list for the QP's work item (qp.c), whose share
 * here, uet_xfer_run(), frees it in process context.  The work item also
 * runs after every atomic (the send queue may wait for it) and every
 * error (the QP flushes).
 */
#include <linux/sched/mm.h>
#include <linux/slab.h>
#include <linux/workqueue.h>
#include <rdma/ib_pack.h>
#include <rdma/ib_verbs.h>

#include "counters.h"
#include "ses.h"
#include "uet.h"
#include "verbs.h"
#include "wire.h"
#include "xfer.h"

/* The unit of a QP's local ACK timeout, ns (IB spec 9.7.6.1.3: 4.096 us). */
#define UET_XFER_TIMEOUT_UNIT_NS	4096

/* Longest local ACK timeout, and the one of a QP that sets none (0). */
#define UET_XFER_TIMEOUT_MAX	(8 * HZ)

/* Hop limit written into the GRH of UD receives: the IPv6 default. */
#define UET_GRH_HOP_LIMIT	64

/**
 * struct uet_xfer - work handed to the endpoint
 * @node: in the QP's @recvs while posted, in its @done once completed.
 * @recv: a receive WQE (else a send WQE).
 * @wr_id: the WQE's work request ID ...
 * @opcode: ... its opcode (IB_WR_*) ...
 * @signaled: ... and whether a success completes it: what its CQE needs.
 * @grh: UD receive: where the GRH goes.
 * @wqe: send: a copy of the WQE, to post it again.
 * @inl: send of inline data: the region of it, in @wqe; the endpoint
 *	builds packets from it until the send completes.
 * @rnr_retry: send: the QP's rnr_retry when it was posted.
 * @retry_left: send: how many more times it may be refused as not the
 *	peer's.
 * @due: send, refused: when it may be posted again (jiffies).
 * @len: send: its bytes, counted in the QP's @sq_bytes until it completes.
 * @nsge: entries of @sge.
 * @sge: the WQE's entries that are not empty, in its order, each in a
 *	region it holds a reference on (see sge_mr()); a UD receive's first
 *	begins after the GRH.
 */
struct uet_xfer {
	struct list_head node;
	bool recv;
	u64 wr_id;
	u32 opcode;
	bool signaled;
	struct uet_sge grh;
	struct rxe_send_wqe *wqe;
	struct uet_mem inl;
	u8 rnr_retry;
	u8 retry_left;
	unsigned long due;
	u32 len;
	unsigned int nsge;
	struct uet_sge sge[];
};

/* The region an entry of an xfer's scatter/gather list is in. */
static struct uet_mr *sge_mr(const struct uet_sge *sge)
{
	return container_of(sge->mem, struct uet_mr, mem);
}

static void xfer_free(struct uet_xfer *x)
{
	unsigned int i;

	for (i = 0; i < x->nsge; i++)
		uet_mr_put(sge_mr(&x->sge[i]));
	kfree(x->wqe);
	kfree(x);
}

static bool opcode_amo(u32 opcode)
{
	return opcode == IB_WR_ATOMIC_CMP_AND_SWP ||
	       opcode == IB_WR_ATOMIC_FETCH_AND_ADD;
}

/*
 * Drop the MR references of completed work, and free it, unless one is a
 * region's last: then the work keeps the rest for drop_done().
 */
static bool xfer_put_refs(struct uet_xfer *x)
{
	while (x->nsge) {
		if (!refcount_dec_not_one(&sge_mr(&x->sge[x->nsge - 1])->ref))
			return false;
		x->nsge--;
	}
	kfree(x->wqe);
	kfree(x);
	return true;
}

/* Completed, @failed or not: see "References" above. */
static void xfer_retire(struct uet_qp *qp, struct uet_xfer *x, bool failed)
{
	bool kick = failed || opcode_amo(x->opcode);
	unsigned long flags;

	if (x->recv) {
		spin_lock_irqsave(&qp->xfer_lock, flags);
		list_del(&x->node);
		spin_unlock_irqrestore(&qp->xfer_lock, flags);
	}
	if (xfer_put_refs(x)) {
		if (kick)
			uet_xfer_kick(qp);
		return;
	}
	spin_lock_irqsave(&qp->xfer_lock, flags);
	list_add_tail(&x->node, &qp->done);
	spin_unlock_irqrestore(&qp->xfer_lock, flags);
	uet_xfer_kick(qp);
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
		case UET_SES_RC_AMO_UNSUPPORTED_OP:
		case UET_SES_RC_AMO_UNSUPPORTED_DT:
		case UET_SES_RC_AMO_UNSUPPORTED_SIZE:
		case UET_SES_RC_AMO_UNALIGNED:
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

/* Queue a refused send to be posted again after @delay jiffies. */
static bool xfer_again(struct uet_qp *qp, struct uet_xfer *x,
		       unsigned long delay)
{
	unsigned long flags;

	x->due = jiffies + delay;
	spin_lock_irqsave(&qp->xfer_lock, flags);
	if (qp->closing) {
		spin_unlock_irqrestore(&qp->xfer_lock, flags);
		return false;
	}
	list_add_tail(&x->node, &qp->retry);
	spin_unlock_irqrestore(&qp->xfer_lock, flags);
	mod_delayed_work(system_wq, &qp->work, delay);
	return true;
}

/*
 * The local ACK timeout of a QP's attribute @timeout: 4.096 us * 2^timeout
 * (IB spec 9.7.6.1.3); 0, which IB leaves without one, and what exceeds
 * UET_XFER_TIMEOUT_MAX, take UET_XFER_TIMEOUT_MAX.
 */
static unsigned long local_ack_timeout(u8 timeout)
{
	u64 ns = (u64)UET_XFER_TIMEOUT_UNIT_NS << min_t(u8, timeout, 31);

	if (!timeout || ns > jiffies_to_nsecs(UET_XFER_TIMEOUT_MAX))
		return UET_XFER_TIMEOUT_MAX;
	return max(nsecs_to_jiffies(ns), 1UL);
}

/* A connected QP's send the target took as not its peer's: see above. */
static bool xfer_lost(struct uet_qp *qp, struct uet_xfer *x)
{
	unsigned long flags;
	u8 timeout;

	if (!x->retry_left || READ_ONCE(qp->state) != IB_QPS_RTS)
		return false;
	x->retry_left--;
	spin_lock_irqsave(&qp->attr_lock, flags);
	timeout = qp->attr.timeout;
	spin_unlock_irqrestore(&qp->attr_lock, flags);
	return xfer_again(qp, x, local_ack_timeout(timeout));
}

/*
 * Send work leaves the data path for good: its bytes no longer hold the
 * send queue back (uet_qp_sq_run()).  The completion that brings the QP
 * below UET_SQ_BYTES_MAX runs the queue: the drainer stopped at or above
 * it, so no other wakes it.
 */
static void xfer_sq_release(struct uet_qp *qp, const struct uet_xfer *x)
{
	long left = atomic_long_sub_return(x->len, &qp->sq_bytes);

	if (left < UET_SQ_BYTES_MAX && left + x->len >= UET_SQ_BYTES_MAX)
		uet_xfer_kick(qp);
}

static void xfer_send_done(struct uet_qp *qp, const struct uet_comp *c)
{
	struct uet_xfer *x = (void *)(uintptr_t)c->cookie;
	enum ib_wc_status status = comp_status(c, false);

	/* xfer_retire() runs the send queue again, which may wait for this */
	if (opcode_amo(x->opcode))
		atomic_dec(&qp->amo_inflight);

	if (c->status == -EREMOTEIO && c->ses_rc == UET_SES_RC_BAD_PID &&
	    !uet_qp_datagram(qp)) {
		if (xfer_lost(qp, x))
			return;
		status = IB_WC_RETRY_EXC_ERR;
	}
	xfer_sq_release(qp, x);
	if (!READ_ONCE(qp->closing))
		uet_cq_send_done(qp, x->wr_id, x->opcode, x->signaled, status);
	xfer_retire(qp, x, status != IB_WC_SUCCESS);
}

/*
 * The GRH of a UD receive: the sender's address as source GID, the address
 * it sent to as destination GID (ib_init_ah_attr_from_wc() finds the GID
 * to answer from by it).
 */
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
	memcpy(grh.dgid.raw, &c->dst, sizeof(grh.dgid.raw));
	uet_mem_copy(x->grh.mem, x->grh.addr, &grh, sizeof(grh), true);
}

static void xfer_recv_done(struct uet_qp *qp, const struct uet_comp *c)
{
	struct uet_xfer *x = (void *)(uintptr_t)c->cookie;
	enum ib_wc_status status = comp_status(c, true);
	bool grh = uet_qp_datagram(qp) && status == IB_WC_SUCCESS;

	if (grh)
		recv_grh(qp, x, c);
	if (!READ_ONCE(qp->closing))
		uet_cq_recv_done(qp, x->wr_id, status, c, grh);
	xfer_retire(qp, x, status != IB_WC_SUCCESS);
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
 * Resolve the @n scatter/gather entries of a WQE into @x's list, which
 * has room for them, referencing their MRs; false when one names memory
 * the WQE may not use (the WQE fails with IB_WC_LOC_PROT_ERR).
 */
static bool wqe_sgl(struct uet_qp *qp, const struct rxe_sge *in, u32 n,
		    int access, struct uet_xfer *x)
{
	u32 i;

	for (i = 0; i < n; i++) {
		struct uet_mr *mr;

		if (!in[i].length)
			continue;
		mr = uet_mr_get(qp->udev, qp->ibqp.pd, in[i].lkey, in[i].addr,
				in[i].length, access);
		if (!mr)
			return false;
		x->sge[x->nsge++] = (struct uet_sge) {
			.mem = &mr->mem, .addr = in[i].addr, .len = in[i].length,
		};
	}
	return true;
}

/* Where @wqe goes: the peer of a connected QP, or the AH of a UD WQE. */
static int send_dest(struct uet_qp *qp, const struct rxe_send_wqe *wqe,
		     struct uet_wr *wr)
{
	unsigned long flags;
	struct uet_av av;

	if (uet_qp_datagram(qp)) {
		if (uet_ah_lookup(qp->udev, qp->ibqp.pd, wqe->wr.wr.ud.ah_num,
				  &av) ||
		    wqe->wr.wr.ud.remote_qpn > UET_QPN_LAST)
			return -EINVAL;
		wr->dst = av.dgid;
		wr->dst_pid = wqe->wr.wr.ud.remote_qpn;
		wr->mode = UET_PDC_UUD;
		/* the target checks the Q_Key */
		wr->tag = wqe->wr.wr.ud.remote_qkey;
		if (wr->tag & UET_QKEY_OWN) {
			spin_lock_irqsave(&qp->attr_lock, flags);
			wr->tag = qp->attr.qkey;
			spin_unlock_irqrestore(&qp->attr_lock, flags);
		}
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

/* Hand a send WQE, its MRs resolved in @x, to the endpoint. */
static int xfer_post(struct uet_qp *qp, struct uet_xfer *x)
{
	const struct rxe_send_wqe *wqe = x->wqe;
	u32 opcode = wqe->wr.opcode;
	struct uet_sge inl_sge;
	struct uet_wr wr = {};
	int err;

	err = send_dest(qp, wqe, &wr);
	if (err)
		return err;
	wr.sge = x->sge;
	wr.nsge = x->nsge;
	if (uet_wqe_inline(opcode, wqe->wr.send_flags)) {
		/* the copy of the WQE is kernel memory */
		x->inl = (struct uet_mem) {
			.iova = (uintptr_t)wqe->dma.inline_data,
			.length = wqe->dma.length,
		};
		inl_sge = (struct uet_sge) { .mem = &x->inl, .addr = x->inl.iova,
					     .len = wqe->dma.length };
		wr.sge = &inl_sge;
		wr.nsge = wqe->dma.length ? 1 : 0;
	}
	wr.cookie = (uintptr_t)x;
	wr.rnr_retry = x->rnr_retry;
	if (opcode == IB_WR_SEND_WITH_IMM || opcode == IB_WR_RDMA_WRITE_WITH_IMM) {
		wr.flags = UET_WR_IMM;
		wr.imm = (__force u32)wqe->wr.ex.imm_data;
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
	case IB_WR_ATOMIC_CMP_AND_SWP:
		wr.amo = UET_AMO_CSWAP;
		wr.compare = wqe->wr.wr.atomic.compare_add;
		wr.operand = wqe->wr.wr.atomic.swap;
		break;
	case IB_WR_ATOMIC_FETCH_AND_ADD:
		wr.amo = UET_AMO_SUM;
		wr.operand = wqe->wr.wr.atomic.compare_add;
		break;
	default:
		return -EINVAL;
	}
	if (opcode_amo(opcode)) {
		wr.op = UET_OP_ATOMIC;
		wr.rkey = wqe->wr.wr.atomic.rkey;
		wr.raddr = wqe->wr.wr.atomic.remote_addr;
		atomic_inc(&qp->amo_inflight);
	} else if (wr.op != UET_OP_SEND) {
		wr.rkey = wqe->wr.wr.rdma.rkey;
		wr.raddr = wqe->wr.wr.rdma.remote_addr;
	}
	mutex_lock(&qp->ep_lock);
	err = qp->ep ? uet_ep_post(qp->ep, &wr) : -ENOTCONN;
	mutex_unlock(&qp->ep_lock);
	if (err && opcode_amo(opcode))
		atomic_dec(&qp->amo_inflight);
	return err;
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
 * uet_xfer_send() - start a send WQE: send, write, read or atomic
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
	unsigned long flags;
	struct uet_xfer *x;
	int err;

	if (nsge > UET_MAX_SGE)
		return IB_WC_LOC_LEN_ERR;
	x = kzalloc(struct_size(x, sge, nsge), GFP_KERNEL_ACCOUNT);
	if (!x)
		return IB_WC_LOC_QP_OP_ERR;
	x->wqe = kmemdup(wqe, BIT(qp->sq.queue.log2_elem), GFP_KERNEL_ACCOUNT);
	if (!x->wqe) {
		xfer_free(x);
		return IB_WC_LOC_QP_OP_ERR;
	}
	x->wr_id = wqe->wr.wr_id;
	x->opcode = opcode;
	x->signaled = qp->sq_sig_all || (wqe->wr.send_flags & IB_SEND_SIGNALED);
	spin_lock_irqsave(&qp->attr_lock, flags);
	x->rnr_retry = qp->attr.rnr_retry;
	x->retry_left = qp->attr.retry_cnt;
	spin_unlock_irqrestore(&qp->attr_lock, flags);
	/* reads and atomics write what comes back */
	if (!uet_wqe_inline(opcode, wqe->wr.send_flags) &&
	    !wqe_sgl(qp, wqe->dma.sge, nsge,
		     opcode == IB_WR_RDMA_READ || opcode_amo(opcode) ?
		     IB_ACCESS_LOCAL_WRITE : 0, x)) {
		xfer_free(x);
		return IB_WC_LOC_PROT_ERR;
	}
	x->len = wqe->dma.length;
	atomic_long_add(x->len, &qp->sq_bytes);
	err = xfer_post(qp, x);
	if (err) {
		xfer_sq_release(qp, x);
		xfer_free(x);
		return post_status(err);
	}
	return IB_WC_SUCCESS;
}

/* Post the refused sends that are due again, in order. */
static void repost_due(struct uet_qp *qp)
{
	bool rts = READ_ONCE(qp->state) == IB_QPS_RTS;
	struct uet_xfer *x, *tmp;
	unsigned long flags;
	LIST_HEAD(again);

	/* those due, in order; out of RTS, all of them, to fail */
	spin_lock_irqsave(&qp->xfer_lock, flags);
	list_for_each_entry_safe(x, tmp, &qp->retry, node) {
		if (rts && time_before(jiffies, x->due)) {
			mod_delayed_work(system_wq, &qp->work, x->due - jiffies);
			break;
		}
		list_move_tail(&x->node, &again);
	}
	spin_unlock_irqrestore(&qp->xfer_lock, flags);
	list_for_each_entry_safe(x, tmp, &again, node) {
		list_del(&x->node);
		if (READ_ONCE(qp->state) == IB_QPS_RTS && !xfer_post(qp, x))
			continue;
		xfer_sq_release(qp, x);
		if (!READ_ONCE(qp->closing))
			uet_cq_send_done(qp, x->wr_id, x->opcode, x->signaled,
					 READ_ONCE(qp->state) == IB_QPS_RTS ?
					 IB_WC_RETRY_EXC_ERR :
					 IB_WC_WR_FLUSH_ERR);
		xfer_free(x);
	}
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

/*
 * The work of receive WQE @wqe, its MRs resolved, or %NULL when it cannot
 * be used (it completed with the error then).
 */
static struct uet_xfer *recv_xfer(struct uet_qp *qp,
				  const struct rxe_recv_wqe *wqe)
{
	u32 max_sge = qp->srq ? qp->srq->max_sge : qp->rq.max_sge;
	struct uet_comp fail = { .recv = true, .status = -EFAULT };
	unsigned long flags;
	struct uet_xfer *x;
	u32 nsge;

	nsge = min3(wqe->dma.num_sge, max_sge, (u32)UET_MAX_SGE);
	x = kzalloc(struct_size(x, sge, nsge), GFP_ATOMIC);
	if (!x) {
		uet_cq_recv_done(qp, wqe->wr_id, IB_WC_LOC_QP_OP_ERR, NULL,
				 false);
		return NULL;
	}
	x->recv = true;
	x->wr_id = wqe->wr_id;
	fail.cookie = (uintptr_t)x;
	spin_lock_irqsave(&qp->xfer_lock, flags);
	list_add_tail(&x->node, &qp->recvs);
	spin_unlock_irqrestore(&qp->xfer_lock, flags);

	if (!wqe_sgl(qp, wqe->dma.sge, nsge, IB_ACCESS_LOCAL_WRITE, x))
		goto fail;
	if (uet_qp_datagram(qp)) {
		/* the GRH takes the first bytes, in the first entry */
		if (!x->nsge || x->sge[0].len < UET_GRH_LEN) {
			fail.status = -EMSGSIZE;
			goto fail;
		}
		x->grh = x->sge[0];
		x->sge[0].addr += UET_GRH_LEN;
		x->sge[0].len -= UET_GRH_LEN;
	}
	return x;
fail:
	xfer_recv_done(qp, &fail);
	return NULL;
}

/*
 * The endpoint's next receive buffer (uet_rbuf_fn): the oldest receive
 * WQE of the QP's RQ or SRQ.  Softirq, the endpoint locked, which
 * serialises the use of @rcopy.  A WQE that cannot be used completes with
 * the error and the next one is taken.
 */
static bool xfer_get_rbuf(struct uet_ep *ep, void *priv, struct uet_recv *rv)
{
	struct uet_qp *qp = priv;
	struct rxe_recv_wqe *wqe;
	struct uet_xfer *x;

	while ((wqe = take_recv(qp, qp->rcopy))) {
		x = recv_xfer(qp, wqe);
		if (!x)
			continue;
		*rv = (struct uet_recv) {
			.cookie = (uintptr_t)x, .sge = x->sge, .nsge = x->nsge,
		};
		return true;
	}
	return false;
}

/* Whether a QP in @state takes what arrives (IB spec 10.3.1). */
static bool qp_receives(enum ib_qp_state state)
{
	return state == IB_QPS_RTR || state == IB_QPS_RTS ||
	       state == IB_QPS_SQD || state == IB_QPS_SQE;
}

/*
 * Tell the QP's endpoint whom to take requests from: nobody before the QP
 * is ready to receive (the initiator's requests are refused as not the
 * peer's, see above), then a connected QP's peer only, with what its access flags
 * allow, or the datagrams that carry a datagram QP's Q_Key.
 */
static void ep_accept(struct uet_qp *qp)
{
	enum uet_ep_from from = UET_EP_FROM_NONE;
	struct in6_addr peer = {};
	unsigned long flags;
	int access = 0;
	u16 peer_pid = 0;
	u32 qkey = 0;

	lockdep_assert_held(&qp->ep_lock);
	spin_lock_irqsave(&qp->attr_lock, flags);
	if (qp_receives(qp->state) && uet_qp_datagram(qp)) {
		from = UET_EP_FROM_DATAGRAMS;
		qkey = qp->attr.qkey;
	} else if (qp_receives(qp->state)) {
		from = UET_EP_FROM_PEER;
		peer = qp->av.dgid;
		peer_pid = qp->attr.dest_qp_num;
		access = qp->attr.qp_access_flags;
	}
	spin_unlock_irqrestore(&qp->attr_lock, flags);
	uet_ep_set_access(qp->ep, uet_ri_access(access));
	uet_ep_accept(qp->ep, from, &peer, peer_pid, qkey);
}

/*
 * Open the QP's endpoint in its PD, taking what the QP's state allows
 * (ep_accept()) into the receive WQEs of its queue.
 */
static int ep_open(struct uet_qp *qp)
{
	struct uet_ep *ep;

	ep = uet_ep_open(&qp->udev->ibdev, UET_JOB_DEFAULT, qp->ibqp.qp_num,
			 qp->ibqp.pd, xfer_comp, qp);
	if (IS_ERR(ep)) {
		qp->ep = NULL;
		return PTR_ERR(ep);
	}
	uet_ep_set_rbuf(ep, xfer_get_rbuf);
	qp->ep = ep;
	ep_accept(qp);
	return 0;
}

/* Close and reopen the endpoint: what it held completes as flushed. */
static int ep_flush(struct uet_qp *qp)
{
	lockdep_assert_held(&qp->ep_lock);
	if (qp->ep)
		uet_ep_close(qp->ep);
	return ep_open(qp);
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

/**
 * uet_xfer_run() - the QP work item's share of the data path
 * @qp: the QP
 *
 * Frees what the endpoint is done with, and posts again the sends that
 * the target took as not its peer's and that are due.  In
 * the error state, the endpoint's work is flushed first (once), and the
 * refused sends complete flushed.
 *
 * Context: process, the QP's work item.
 * Return: whether the QP is in the error state; then its owner flushes
 * the WQEs its queues still hold.
 */
bool uet_xfer_run(struct uet_qp *qp)
{
	unsigned long flags;
	bool flush;

	drop_done(qp);
	if (READ_ONCE(qp->state) != IB_QPS_ERR) {
		repost_due(qp);
		return false;
	}
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
	repost_due(qp);
	return true;
}

/**
 * uet_xfer_kick() - run the QP's work item: fill, drain, flush
 * @qp: the QP
 *
 * Any context.
 */
void uet_xfer_kick(struct uet_qp *qp)
{
	mod_delayed_work(system_wq, &qp->work, 0);
}

/**
 * uet_xfer_open() - open the QP's endpoint
 * @qp: the QP, its QPN, work item and receive queue or SRQ set
 *
 * Return: 0, -ENOMEM or a negative errno from uet_ep_open().
 */
int uet_xfer_open(struct uet_qp *qp)
{
	int err;

	mutex_init(&qp->ep_lock);
	spin_lock_init(&qp->xfer_lock);
	INIT_LIST_HEAD(&qp->recvs);
	INIT_LIST_HEAD(&qp->done);
	INIT_LIST_HEAD(&qp->retry);
	qp->rcopy = kmalloc(qp->srq ? BIT(qp->srq->queue.log2_elem) :
				      BIT(qp->rq.queue.log2_elem),
			    GFP_KERNEL_ACCOUNT);
	if (!qp->rcopy)
		return -ENOMEM;
	mutex_lock(&qp->ep_lock);
	err = ep_open(qp);
	mutex_unlock(&qp->ep_lock);
	if (err)
		kfree(qp->rcopy);
	return err;
}

/**
 * uet_xfer_modified() - the QP's state, peer or access flags changed
 * @qp: the QP
 *
 * Context: process.
 */
void uet_xfer_modified(struct uet_qp *qp)
{
	mutex_lock(&qp->ep_lock);
	if (qp->ep)
		ep_accept(qp);
	mutex_unlock(&qp->ep_lock);
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

	cancel_delayed_work_sync(&qp->work);
	spin_lock_irqsave(&qp->xfer_lock, flags);
	qp->ep_flushed = READ_ONCE(qp->state) == IB_QPS_ERR;
	spin_unlock_irqrestore(&qp->xfer_lock, flags);
	mutex_lock(&qp->ep_lock);
	err = ep_flush(qp);
	mutex_unlock(&qp->ep_lock);
	repost_due(qp);		/* not in RTS: they complete flushed */
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
	cancel_delayed_work_sync(&qp->work);
	mutex_lock(&qp->ep_lock);
	if (qp->ep)
		uet_ep_close(qp->ep);	/* completes with -ECANCELED */
	qp->ep = NULL;
	mutex_unlock(&qp->ep_lock);
	cancel_delayed_work_sync(&qp->work);
	drop_done(qp);
	/* Messages half received when the endpoint closed never complete. */
	list_splice_init(&qp->retry, &qp->recvs);
	list_for_each_entry_safe(x, tmp, &qp->recvs, node) {
		list_del(&x->node);
		xfer_free(x);
	}
	kfree(qp->rcopy);
}
