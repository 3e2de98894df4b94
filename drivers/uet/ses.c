// SPDX-License-Identifier: GPL-2.0
/*
 * uet SES: endpoints, messages and completions.  This file has the
 * endpoints: opening one, whom it takes requests from, its receive
 * buffers, its flows, closing it.  The initiator's side is in ses_tx.c,
 * the target's in ses_rx.c, and the target's writes, reads and atomics on
 * registered regions, with the SES responses, in ses_rma.c; ses_priv.h
 * has what they share.
 *
 * Locking: an endpoint's lock protects its receive queue, its flows and
 * its list of sends; it nests inside a PDC's lock (the PDS calls in with
 * it held) and is never held while calling the PDS.  Endpoints are found
 * under RCU in the device's endpoint table, and a request's delivery
 * holds its endpoint (uet_ep.users), which a close waits for.
 */
#include <linux/wait_bit.h>

#include "ses_priv.h"

/*
 * What the target's side (ses_rx.c, ses_rma.c) takes from an endpoint:
 * its flows and its receive buffers.
 */

/*
 * The flow of messages from the initiator endpoint {@src, @initiator},
 * created on its first request unless the endpoint has
 * UET_SES_EP_FLOWS_MAX already; %NULL then or without memory, a drop
 * counted in drop_flow_limit.
 */
struct uet_rx_flow *ses_rx_flow(struct uet_ep *ep, const struct in6_addr *src,
				u16 initiator)
{
	u32 key = ipv6_addr_hash(src) ^ initiator;
	struct uet_rx_flow *f;

	lockdep_assert_held(&ep->lock);
	hash_for_each_possible(ep->rx_flows, f, node, key)
		if (f->initiator == initiator && ipv6_addr_equal(&f->src, src))
			return f;
	if (ep->nr_rx_flows >= UET_SES_EP_FLOWS_MAX) {
		uet_count(ep->udev, UET_CNT_DROP_FLOW_LIMIT, 1);
		return NULL;
	}
	f = kzalloc(sizeof(*f), GFP_ATOMIC);
	if (f)
		f->msgs = kcalloc(UET_SES_FLOW_RING_MIN, sizeof(*f->msgs),
				  GFP_ATOMIC);
	if (!f || !f->msgs) {
		kfree(f);
		uet_count(ep->udev, UET_CNT_DROP_FLOW_LIMIT, 1);
		return NULL;
	}
	f->ring_size = UET_SES_FLOW_RING_MIN;
	f->src = *src;
	f->initiator = initiator;
	INIT_LIST_HEAD(&f->tagged);
	hash_add(ep->rx_flows, &f->node, key);
	ep->nr_rx_flows++;
	return f;
}

/* The oldest receive buffer of @q that takes @tag (untagged: any). */
struct uet_rbuf *ses_rbuf_take(struct list_head *q, bool tagged, u64 tag)
{
	struct uet_rbuf *rb;

	list_for_each_entry(rb, q, node) {
		if (!tagged || rb->tag == tag) {
			list_del(&rb->node);
			return rb;
		}
	}
	return NULL;
}

/* A request for @ep arrived: its job counts it, delivered or refused. */
void ses_count_rx(struct uet_ep *ep, u8 rc, u32 len)
{
	if (!ep->jobp)
		return;
	if (rc == UET_SES_RC_OK)
		uet_job_count_rx(ep->jobp, len);
	else
		uet_job_count_error(ep->jobp);
}

/*
 * A UUD send into the oldest matching buffer, complete or not at all;
 * false if none is posted.
 */
bool ses_uud_deliver(struct uet_ep *ep, const struct uet_ses_req_info *req,
		     struct sk_buff *skb, unsigned int hlen,
		     const struct in6_addr *saddr)
{
	bool tagged = req->opcode == UET_SES_TAGGED_SEND;
	u32 len = skb->len - hlen;
	struct uet_rbuf *rb;
	struct uet_comp c = {
		.op = UET_OP_SEND,
		.recv = true,
		.has_imm = req->flags & UET_SES_F_HD,
		.imm = req->header_data,
		.byte_len = len,
		.tag = tagged ? req->match_bits : 0,
		.src = *saddr,
		.src_pid = req->initiator,
	};

	lockdep_assert_held(&ep->lock);
	rb = tagged ? ses_rbuf_take(&ep->trecvq, true, req->match_bits) :
	     ses_rbuf_next(ep);
	if (!rb)
		return false;
	if (ip_hdr(skb)->version == 4)
		ipv6_addr_set_v4mapped(ip_hdr(skb)->daddr, &c.dst);
	else
		c.dst = ipv6_hdr(skb)->daddr;
	if (len > rb->len) {
		uet_count(ep->udev, UET_CNT_DROP_BOUNDS, 1);
		c.status = -EMSGSIZE;
	} else if (uet_sgl_copy_skb(rb->sge, rb->nsge, 0, skb, hlen, len)) {
		c.status = -EFAULT;
	}
	c.cookie = rb->cookie;
	ep_complete(ep, &c);
	kfree(rb);
	ses_count_rx(ep, c.status ? UET_SES_RC_TOO_LONG : UET_SES_RC_OK, len);
	return true;
}

void ses_uud_drop(struct uet_ep *ep, u32 len)
{
	uet_count(ep->udev, UET_CNT_DROP_NO_RECV_BUFFER, 1);
	ses_count_rx(ep, UET_SES_RC_NO_MATCH, len);
}

/*
 * A copy of the buffer @rv for the endpoint's queues; ERR_PTR(-EINVAL)
 * for a bad list or memory outside its region, or ERR_PTR(-ENOMEM).
 */
static struct uet_rbuf *rbuf_new(const struct uet_recv *rv, gfp_t gfp)
{
	struct uet_rbuf *rb;
	unsigned int i;

	if (rv->nsge > UET_MAX_SGE || (rv->nsge && !rv->sge))
		return ERR_PTR(-EINVAL);
	for (i = 0; i < rv->nsge; i++)
		if (!uet_mem_contains(rv->sge[i].mem, rv->sge[i].addr,
				      rv->sge[i].len))
			return ERR_PTR(-EINVAL);
	rb = kzalloc(struct_size(rb, sge, rv->nsge), gfp);
	if (!rb)
		return ERR_PTR(-ENOMEM);
	rb->cookie = rv->cookie;
	rb->tagged = rv->tagged;
	rb->tag = rv->tag;
	rb->nsge = rv->nsge;
	memcpy(rb->sge, rv->sge, rv->nsge * sizeof(*rv->sge));
	rb->len = uet_sgl_len(rb->sge, rb->nsge);
	return rb;
}

/*
 * The buffer of the next untagged message: the oldest posted, else the
 * owner's next (uet_ep_set_rbuf()); %NULL when there is none.  A buffer
 * the owner gives that cannot be used completes with the error.
 */
struct uet_rbuf *ses_rbuf_next(struct uet_ep *ep)
{
	struct uet_recv rv = {};
	struct uet_rbuf *rb;

	lockdep_assert_held(&ep->lock);
	rb = ses_rbuf_take(&ep->recvq, false, 0);
	if (rb || !ep->get_rbuf || ep->closing)
		return rb;
	while (ep->get_rbuf(ep, ep->priv, &rv)) {
		struct uet_comp c = { .cookie = rv.cookie, .recv = true };

		rb = rbuf_new(&rv, GFP_ATOMIC);
		if (!IS_ERR(rb))
			return rb;
		c.status = PTR_ERR(rb);
		ep_complete(ep, &c);
	}
	return NULL;
}

/**
 * uet_ep_post_recv() - give the endpoint a buffer for one message
 * @ep: the endpoint
 * @rv: the buffer
 *
 * Return: 0, or -EINVAL (bad list, memory outside its region), -ESHUTDOWN
 * while closing, -ENOMEM.
 */
int uet_ep_post_recv(struct uet_ep *ep, const struct uet_recv *rv)
{
	struct uet_rbuf *rb = rbuf_new(rv, GFP_KERNEL_ACCOUNT);
	int err = 0;

	if (IS_ERR(rb))
		return PTR_ERR(rb);
	spin_lock_bh(&ep->lock);
	if (ep->closing)
		err = -ESHUTDOWN;
	else
		list_add_tail(&rb->node, rb->tagged ? &ep->trecvq : &ep->recvq);
	spin_unlock_bh(&ep->lock);
	if (err)
		kfree(rb);
	return err;
}
EXPORT_SYMBOL_NS_GPL(uet_ep_post_recv, UET_ENGINE);

/**
 * uet_ep_open() - open the endpoint {@job, @pid} on a uet device
 * @ibdev: the device
 * @job: job identifier, 24 bits
 * @pid: PIDonFEP, 12 bits, unique on the device within @job
 * @domain: its protection domain: its peers reach the regions registered
 *	in the same domain (uet_ri_add()) and no others
 * @comp: completion callback (see uet_comp_fn)
 * @priv: its argument
 *
 * The device cannot go away while the endpoint is open.  If the control
 * plane knows @job, @pid must lie in the job's PIDonFEP range, and the
 * job's counters count the endpoint's traffic.
 *
 * Return: the endpoint, or ERR_PTR(-EINVAL, -ENODEV, -EADDRINUSE, -ENOMEM).
 */
struct uet_ep *uet_ep_open(struct ib_device *ibdev, u32 job, u16 pid,
			   const void *domain, uet_comp_fn comp, void *priv)
{
	struct uet_dev *udev;
	struct uet_ep *ep;
	int err;

	if (job >> UET_JOB_BITS || pid >> UET_PID_BITS || !comp ||
	    !uet_is_uet_ibdev(ibdev))
		return ERR_PTR(-EINVAL);
	if (!ib_device_try_get(ibdev))
		return ERR_PTR(-ENODEV);
	udev = to_uet_dev(ibdev);
	ep = kzalloc(sizeof(*ep), GFP_KERNEL);
	if (!ep) {
		err = -ENOMEM;
		goto err_put;
	}
	ep->udev = udev;
	ep->job = job;
	ep->jobp = uet_job_get(udev, job);
	if (ep->jobp && !uet_job_allows_pid(ep->jobp, pid)) {
		err = -EINVAL;
		goto err_free;
	}
	ep->pid = pid;
	ep->domain = domain;
	ep->comp = comp;
	ep->priv = priv;
	ep->access = UET_ACCESS_MASK;
	refcount_set(&ep->users, 1);
	mutex_init(&ep->send_lock);
	spin_lock_init(&ep->lock);
	INIT_LIST_HEAD(&ep->recvq);
	INIT_LIST_HEAD(&ep->trecvq);
	INIT_LIST_HEAD(&ep->sends);
	hash_init(ep->rx_flows);
	hash_init(ep->tx_flows);
	err = xa_insert_bh(&udev->eps, ep_index(job, pid), ep, GFP_KERNEL);
	if (err) {
		err = err == -EBUSY ? -EADDRINUSE : err;
		goto err_free;
	}
	return ep;

err_free:
	if (ep->jobp)
		uet_job_put(ep->jobp);
	kfree(ep);
err_put:
	ib_device_put(ibdev);
	return ERR_PTR(err);
}
EXPORT_SYMBOL_NS_GPL(uet_ep_open, UET_ENGINE);

/**
 * uet_ep_set_access() - which remote operations an endpoint accepts
 * @ep: the endpoint
 * @access: UET_ACCESS_* bits; an endpoint opens accepting them all
 *
 * Each RI table entry says what may be done to its region; this says what
 * the endpoint's peers may do through the endpoint at all (verbs' QP
 * access flags).  Requests it does not accept are refused with
 * %UET_SES_RC_PERM_VIOLATION and counted as access drops.  Sends are
 * always accepted.  Any context.
 */
void uet_ep_set_access(struct uet_ep *ep, u8 access)
{
	WRITE_ONCE(ep->access, access & UET_ACCESS_MASK);
}
EXPORT_SYMBOL_NS_GPL(uet_ep_set_access, UET_ENGINE);

/**
 * uet_ep_accept() - whom an endpoint takes requests from
 * @ep: the endpoint
 * @from: enum uet_ep_from; an endpoint opens with %UET_EP_FROM_ANY
 * @peer: with %UET_EP_FROM_PEER, the peer endpoint's fabric address ...
 * @peer_pid: ... and PIDonFEP
 * @key: with %UET_EP_FROM_DATAGRAMS, the key untagged sends must carry
 *	(struct uet_wr's @tag: verbs' Q_Key)
 *
 * A connected QP's endpoint takes requests from its peer only, a datagram
 * QP's takes datagrams of its Q_Key only, and one not ready to receive
 * takes nothing.  Any context.
 */
void uet_ep_accept(struct uet_ep *ep, enum uet_ep_from from,
		   const struct in6_addr *peer, u16 peer_pid, u32 key)
{
	spin_lock_bh(&ep->lock);
	ep->from = from;
	if (from == UET_EP_FROM_PEER) {
		ep->peer = *peer;
		ep->peer_pid = peer_pid;
	}
	ep->key = key;
	spin_unlock_bh(&ep->lock);
}
EXPORT_SYMBOL_NS_GPL(uet_ep_accept, UET_ENGINE);

/**
 * uet_ep_set_rbuf() - where an endpoint takes receive buffers from
 * @ep: the endpoint
 * @get_rbuf: called for the next untagged message's buffer when none was
 *	posted with uet_ep_post_recv()
 *
 * For owners whose buffers are posted where the endpoint cannot see them
 * (the verbs' receive queues, rings in user memory): the endpoint takes
 * each as a message needs it, so a message finds a buffer the moment it
 * is posted, and takes buffers in message order.  Process context.
 */
void uet_ep_set_rbuf(struct uet_ep *ep, uet_rbuf_fn get_rbuf)
{
	spin_lock_bh(&ep->lock);
	ep->get_rbuf = get_rbuf;
	spin_unlock_bh(&ep->lock);
}
EXPORT_SYMBOL_NS_GPL(uet_ep_set_rbuf, UET_ENGINE);

static void rx_msg_free(struct uet_rx_msg *m)
{
	if (m)
		kfree(m->rb);
	kfree(m);
}

static void ep_free_flows(struct uet_ep *ep)
{
	struct uet_rx_msg *m, *mtmp;
	struct uet_rx_flow *rf;
	struct uet_tx_flow *tf;
	struct hlist_node *tmp;
	int bkt, i;

	ep->nr_rx_flows = 0;
	hash_for_each_safe(ep->rx_flows, bkt, tmp, rf, node) {
		for (i = 0; i < rf->ring_size; i++)
			rx_msg_free(rf->msgs[i]);
		list_for_each_entry_safe(m, mtmp, &rf->tagged, node)
			rx_msg_free(m);
		kfree(rf->msgs);
		kfree(rf);
	}
	hash_for_each_safe(ep->tx_flows, bkt, tmp, tf, node)
		kfree(tf);
}

static void ep_cancel_recvq(struct uet_ep *ep, struct list_head *q)
{
	struct uet_rbuf *rb, *tmp;

	list_for_each_entry_safe(rb, tmp, q, node) {
		struct uet_comp c = { .cookie = rb->cookie, .status = -ECANCELED,
				      .recv = true };

		list_del(&rb->node);
		ep_complete(ep, &c);
		kfree(rb);
	}
}

/**
 * uet_ep_close() - close an endpoint
 * @ep: the endpoint; no uet_ep_post() or uet_ep_post_recv() may be running
 *
 * Work requests not yet done and unused receive buffers complete with
 * -ECANCELED; the PDCs still deliver the packets already sent, the rest
 * of those messages is dropped (see ses_tx.c).  Their memory is not read
 * after the return.
 * Messages half received are dropped.  No completion follows the return.
 *
 * Context: process, may sleep.
 */
void uet_ep_close(struct uet_ep *ep)
{
	struct uet_dev *udev = ep->udev;
	struct uet_tx_msg *m, *mtmp;
	LIST_HEAD(sends);

	xa_erase_bh(&udev->eps, ep_index(ep->job, ep->pid));
	/* no packet reaches @ep any more once those found it are done */
	if (!refcount_dec_and_test(&ep->users))
		wait_var_event(&ep->users, !refcount_read(&ep->users));

	mutex_lock(&ep->send_lock);	/* and no request is half queued */
	ep_cancel_sends(ep, &sends);
	mutex_unlock(&ep->send_lock);

	spin_lock_bh(&ep->lock);
	list_for_each_entry(m, &sends, node) {
		struct uet_comp c = { .cookie = m->cookie, .status = -ECANCELED,
				      .op = m->op };

		ep_complete(ep, &c);
	}
	spin_unlock_bh(&ep->lock);
	list_for_each_entry_safe(m, mtmp, &sends, node) {
		list_del(&m->node);
		tx_msg_put(m);
	}

	ep_cancel_recvq(ep, &ep->recvq);
	ep_cancel_recvq(ep, &ep->trecvq);
	ep_free_flows(ep);
	if (ep->jobp)
		uet_job_put(ep->jobp);
	ib_device_put(&udev->ibdev);
	kfree_rcu(ep, rcu);
}
EXPORT_SYMBOL_NS_GPL(uet_ep_close, UET_ENGINE);

void uet_ses_init(struct uet_dev *udev)
{
	xa_init_flags(&udev->eps, XA_FLAGS_LOCK_BH);
}

void uet_ses_fini(struct uet_dev *udev)
{
	/* Open endpoints hold the device: none can remain. */
	WARN_ON(!xa_empty(&udev->eps));
	xa_destroy(&udev->eps);
}
