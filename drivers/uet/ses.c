// SPDX-License-Identifier: GPL-2.0
/*
 * uet SES: endpoints, messages and completions.
 *
 * Sending: uet_ep_send() cuts a message into packets, each a SES standard
 * request (SOM on the first, EOM on the last, the buffer offset saying
 * where its payload goes) handed to the PDS.  A send completes once every
 * packet is acknowledged, with the target's return code if it refused the
 * message; sends complete in the order they were posted.
 *
 * Receiving: messages from one initiator endpoint to one target endpoint
 * over one PDC form a flow whose message IDs count up from zero.  Receive
 * buffers are bound to a flow's messages in message-ID order, whatever
 * order their packets arrive in (RUD places packets in any order), and
 * receives complete in that order too: what verbs RC semantics need.
 *
 * Locking: an endpoint's lock protects its receive queue, its flows and
 * its list of sends; it nests inside a PDC's lock (the PDS calls in with
 * it held) and is never held while calling the PDS.  Endpoints are found
 * under RCU in the device's endpoint table.
 */
#include <linux/hashtable.h>
#include <linux/ipv6.h>
#include <net/ipv6.h>
#include <linux/slab.h>
#include <linux/udp.h>
#include <uapi/linux/uet.h>

#include "counters.h"
#include "pds.h"
#include "ses.h"
#include "uet.h"
#include "wire.h"

/* Most messages of one flow between its next completion and its newest. */
#define UET_SES_FLOW_MSGS	UET_PDC_WND_MAX

/* Largest message: what the 32-bit buffer offset and lengths allow. */
#define UET_SES_MAX_MSG		U32_MAX

/**
 * struct uet_ep - an endpoint: {job, PIDonFEP} on a device
 * @udev: the device; its ib_device is referenced while the endpoint is open.
 * @job: job identifier, 24 bits.
 * @pid: PIDonFEP, 12 bits.
 * @comp: completion callback, and ...
 * @priv: ... its argument.
 * @rcu: frees the endpoint after readers that found it in the table.
 * @send_lock: serialises senders (uet_ep_send()).
 * @lock: protects everything below.
 * @closing: no more work is accepted.
 * @recvq: posted receive buffers (struct uet_recv), oldest first.
 * @sends: messages being sent (struct uet_tx_msg), oldest first.
 * @rx_flows: receive flows (struct uet_rx_flow) by PDC and initiator.
 * @tx_flows: send flows (struct uet_tx_flow) by target and its PID.
 */
struct uet_ep {
	struct uet_dev *udev;
	u32 job;
	u16 pid;
	uet_comp_fn comp;
	void *priv;
	struct rcu_head rcu;
	struct mutex send_lock;	/* see above */

	spinlock_t lock;	/* see above */
	bool closing;
	struct list_head recvq;
	struct list_head sends;
	DECLARE_HASHTABLE(rx_flows, 4);
	DECLARE_HASHTABLE(tx_flows, 4);
};

/* A posted receive buffer. */
struct uet_recv {
	struct list_head node;
	void *buf;
	u32 len;
	u64 cookie;
};

/* A message being received: its buffer (NULL: refused) and progress. */
struct uet_rx_msg {
	struct uet_recv *rb;
	u32 received;
	u32 total;	/* known once EOM arrived */
	bool eom;
	int status;
};

/* Messages from one initiator endpoint over one PDC. */
struct uet_rx_flow {
	struct hlist_node node;
	u16 lpdcid;
	u16 initiator;
	u16 next_bind;		/* message ID the next receive buffer binds to */
	u16 next_done;		/* message ID that completes next */
	struct uet_rx_msg *msgs[UET_SES_FLOW_MSGS];	/* by ID modulo size */
};

/* Messages to one target endpoint: their IDs. */
struct uet_tx_flow {
	struct hlist_node node;
	struct in6_addr dst;
	u16 dst_pid;
	u16 next_msg_id;
};

/* A message being sent. */
struct uet_tx_msg {
	struct list_head node;
	struct uet_ep *ep;
	u64 cookie;
	u32 pkts_left;
	int status;
	u8 rc;
};

static u32 ep_index(u32 job, u16 pid)
{
	return job << UET_PID_BITS | pid;
}

static void ep_complete(struct uet_ep *ep, struct uet_comp *c)
{
	ep->comp(ep, c, ep->priv);
}

/* Sends complete in posting order: report those at the head that are done. */
static void ep_complete_sends(struct uet_ep *ep)
{
	struct uet_tx_msg *m, *tmp;

	lockdep_assert_held(&ep->lock);
	list_for_each_entry_safe(m, tmp, &ep->sends, node) {
		struct uet_comp c = { .cookie = m->cookie, .status = m->status,
				      .ses_rc = m->rc };

		if (m->pkts_left)
			break;
		list_del(&m->node);
		ep_complete(ep, &c);
		kfree(m);
	}
}

/**
 * uet_ses_tx_done() - the PDS is done with one request packet
 * @skb: the request
 * @err: 0 when acknowledged, else why it never will be
 */
void uet_ses_tx_done(struct sk_buff *skb, int err)
{
	struct uet_tx_msg *m = uet_pds_cb(skb)->ses;
	struct uet_ep *ep;

	if (!m)
		return;		/* orphaned by uet_ep_close() */
	ep = m->ep;
	spin_lock_bh(&ep->lock);
	if (err && !m->status)
		m->status = err;
	m->pkts_left--;
	ep_complete_sends(ep);
	spin_unlock_bh(&ep->lock);
}

/**
 * uet_ses_tx_refused() - the target refused the message of @skb
 * @skb: a request of the message, still in flight
 * @rc: the target's SES return code
 */
void uet_ses_tx_refused(struct sk_buff *skb, u8 rc)
{
	struct uet_tx_msg *m = uet_pds_cb(skb)->ses;

	if (!m)
		return;
	spin_lock_bh(&m->ep->lock);
	if (!m->status) {
		m->status = -EREMOTEIO;
		m->rc = rc;
	}
	spin_unlock_bh(&m->ep->lock);
}

static struct uet_tx_flow *tx_flow(struct uet_ep *ep, const struct in6_addr *dst,
				   u16 dst_pid)
{
	u32 key = ipv6_addr_hash(dst) ^ dst_pid;
	struct uet_tx_flow *f;

	lockdep_assert_held(&ep->lock);
	hash_for_each_possible(ep->tx_flows, f, node, key)
		if (f->dst_pid == dst_pid && ipv6_addr_equal(&f->dst, dst))
			return f;
	f = kzalloc(sizeof(*f), GFP_ATOMIC);
	if (!f)
		return NULL;
	f->dst = *dst;
	f->dst_pid = dst_pid;
	hash_add(ep->tx_flows, &f->node, key);
	return f;
}

/*
 * Payload bytes of one packet on the endpoint's netdev, at most the
 * device's setting; 0: none fit.
 */
static u32 ep_max_payload(struct uet_ep *ep)
{
	unsigned int mtu = READ_ONCE(ep->udev->ndev->mtu);
	u32 max = READ_ONCE(ep->udev->cfg.max_payload);
	u32 fit = mtu > UET_MAX_OVERHEAD ? mtu - UET_MAX_OVERHEAD : 0;

	return max ? min(max, fit) : fit;
}

static struct sk_buff *ses_packet(struct uet_ep *ep, struct uet_tx_msg *m,
				  const struct uet_ses_req_info *req,
				  const void *data, u32 len)
{
	struct uet_ses_hdr_info h = { .next_hdr = UET_SES_NH_REQ_STD, .req = *req };
	struct sk_buff *skb;

	skb = alloc_skb(UET_PDS_HEADROOM + sizeof(struct uet_ses_std) + len,
			GFP_KERNEL);
	if (!skb)
		return NULL;
	skb_reserve(skb, UET_PDS_HEADROOM);
	if (uet_ses_build(skb_put(skb, sizeof(struct uet_ses_std)),
			  sizeof(struct uet_ses_std), &h) < 0) {
		kfree_skb(skb);
		return NULL;
	}
	skb_put_data(skb, data, len);
	uet_pds_cb(skb)->next_hdr = UET_SES_NH_REQ_STD;
	/* the last packet asks for the ACK that completes the send */
	uet_pds_cb(skb)->ack_req = req->flags & UET_SES_F_EOM;
	uet_pds_cb(skb)->ses = m;
	return skb;
}

/* Queue @m's packets, or fail the message without sending a thing. */
static void ep_queue_msg(struct uet_ep *ep, const struct uet_pds_key *key,
			 struct uet_tx_msg *m, struct sk_buff_head *pkts)
{
	struct sk_buff *skb;

	while ((skb = __skb_dequeue(pkts))) {
		if (!uet_pds_send(ep->udev, key, skb))
			continue;
		spin_lock_bh(&ep->lock);	/* the PDS freed @skb */
		if (!m->status)
			m->status = -ENOBUFS;
		m->pkts_left--;
		ep_complete_sends(ep);
		spin_unlock_bh(&ep->lock);
	}
}

/* Cut @len bytes of @buf into requests of message @req->message_id. */
static int ep_cut_msg(struct uet_ep *ep, struct uet_tx_msg *m,
		      struct uet_ses_req_info *req, const void *buf, u32 len,
		      struct sk_buff_head *pkts)
{
	u32 max = ep_max_payload(ep), off = 0, n;
	struct sk_buff *skb;

	if (!max)
		return -EMSGSIZE;
	do {
		n = min(len - off, max);
		req->flags = (off ? 0 : UET_SES_F_SOM) |
			     (off + n == len ? UET_SES_F_EOM : 0);
		req->buffer_offset = off;
		req->payload_length = n;
		req->message_offset = off;
		skb = ses_packet(ep, m, req, buf + off, n);
		if (!skb) {
			__skb_queue_purge(pkts);
			return -ENOMEM;
		}
		__skb_queue_tail(pkts, skb);
		m->pkts_left++;
		off += n;
	} while (off < len);
	return 0;
}

/**
 * uet_ep_send() - send a message
 * @ep: the sending endpoint
 * @dst: the target's fabric address, IPv4 as IPv4-mapped IPv6
 * @dst_pid: the target endpoint's PIDonFEP (same job as @ep)
 * @mode: delivery mode, enum uet_pdc_mode (%UET_PDC_RUD or %UET_PDC_ROD)
 * @buf: the message; copied before this returns
 * @len: its length, 0 allowed
 * @cookie: reported by the send's completion
 *
 * Context: process, may sleep.
 * Return: 0 when the send was queued (its completion follows), else a
 * negative errno and no completion.
 */
int uet_ep_send(struct uet_ep *ep, const struct in6_addr *dst, u16 dst_pid,
		u8 mode, const void *buf, u32 len, u64 cookie)
{
	struct uet_pds_key key = { .raddr = *dst, .job = ep->job, .mode = mode };
	struct uet_ses_req_info req = {
		.opcode = UET_SES_SEND,
		.job_id = ep->job,
		.pid_on_fep = dst_pid,
		.initiator = ep->pid,
	};
	struct sk_buff_head pkts;
	struct uet_tx_flow *flow;
	struct uet_tx_msg *m;
	int err;

	if (mode != UET_PDC_RUD && mode != UET_PDC_ROD)
		return -EOPNOTSUPP;
	if (dst_pid >> UET_PID_BITS)
		return -EINVAL;
	m = kzalloc(sizeof(*m), GFP_KERNEL);
	if (!m)
		return -ENOMEM;
	m->ep = ep;
	m->cookie = cookie;
	__skb_queue_head_init(&pkts);

	/*
	 * One send at a time per endpoint: a flow's message IDs then enter
	 * its PDC in order, and an ID is used only by a message sent whole.
	 */
	mutex_lock(&ep->send_lock);
	spin_lock_bh(&ep->lock);
	flow = ep->closing ? NULL : tx_flow(ep, dst, dst_pid);
	spin_unlock_bh(&ep->lock);
	err = ep->closing ? -ESHUTDOWN : -ENOMEM;
	if (!flow)
		goto err_unlock;
	req.message_id = flow->next_msg_id;
	err = ep_cut_msg(ep, m, &req, buf, len, &pkts);
	if (err)
		goto err_unlock;
	spin_lock_bh(&ep->lock);
	flow->next_msg_id++;
	list_add_tail(&m->node, &ep->sends);
	spin_unlock_bh(&ep->lock);
	ep_queue_msg(ep, &key, m, &pkts);
	mutex_unlock(&ep->send_lock);
	return 0;

err_unlock:
	mutex_unlock(&ep->send_lock);
	kfree(m);
	return err;
}
EXPORT_SYMBOL_NS_GPL(uet_ep_send, UET_ENGINE);

/* Receiving. */

static struct uet_rx_flow *rx_flow(struct uet_ep *ep, u16 lpdcid, u16 initiator)
{
	u32 key = lpdcid << UET_PID_BITS | initiator;
	struct uet_rx_flow *f;

	lockdep_assert_held(&ep->lock);
	hash_for_each_possible(ep->rx_flows, f, node, key)
		if (f->lpdcid == lpdcid && f->initiator == initiator)
			return f;
	f = kzalloc(sizeof(*f), GFP_ATOMIC);
	if (!f)
		return NULL;
	f->lpdcid = lpdcid;
	f->initiator = initiator;
	hash_add(ep->rx_flows, &f->node, key);
	return f;
}

/*
 * The message @id of @f, binding receive buffers to every message up to it
 * first, in ID order.  A message that finds no buffer is refused whole.
 * %NULL: @id is not within the flow's range, or no memory.
 */
static struct uet_rx_msg *rx_msg(struct uet_ep *ep, struct uet_rx_flow *f, u16 id)
{
	struct uet_rx_msg *m;

	if ((u16)(id - f->next_done) >= UET_SES_FLOW_MSGS)
		return NULL;
	while ((u16)(id - f->next_bind) < UET_SES_FLOW_MSGS) {
		m = kzalloc(sizeof(*m), GFP_ATOMIC);
		if (!m)
			return NULL;
		m->rb = list_first_entry_or_null(&ep->recvq, struct uet_recv, node);
		if (m->rb)
			list_del(&m->rb->node);
		else
			m->status = -ENOBUFS;
		f->msgs[f->next_bind % UET_SES_FLOW_MSGS] = m;
		f->next_bind++;
	}
	return f->msgs[id % UET_SES_FLOW_MSGS];
}

/* Receives complete in message order: report those at the head that are done. */
static void rx_complete(struct uet_ep *ep, struct uet_rx_flow *f)
{
	struct uet_rx_msg *m;

	while ((m = f->msgs[f->next_done % UET_SES_FLOW_MSGS]) &&
	       m->eom && m->received == m->total) {
		if (m->rb) {
			struct uet_comp c = {
				.cookie = m->rb->cookie,
				.status = m->status,
				.byte_len = m->total,
				.recv = true,
			};

			ep_complete(ep, &c);
			kfree(m->rb);
		}
		f->msgs[f->next_done % UET_SES_FLOW_MSGS] = NULL;
		f->next_done++;
		kfree(m);
	}
}

/* Place one packet's @len payload bytes, found at @hlen in @skb. */
static u8 rx_place(struct uet_ep *ep, struct uet_rx_msg *m,
		   const struct uet_ses_req_info *req, struct sk_buff *skb,
		   unsigned int hlen, u32 len)
{
	u64 end = req->buffer_offset + len;
	u8 rc = UET_SES_RC_OK;

	if (!m->status && end > m->rb->len) {
		m->status = -EMSGSIZE;
		uet_count(ep->udev, UET_CNT_DROP_BOUNDS, 1);
	}
	if (m->status == -ENOBUFS) {
		uet_count(ep->udev, UET_CNT_DROP_NO_RECV_BUFFER, 1);
		rc = UET_SES_RC_NO_MATCH;
	} else if (m->status) {
		rc = UET_SES_RC_TOO_LONG;
	} else if (skb_copy_bits(skb, hlen, m->rb->buf + req->buffer_offset, len)) {
		m->status = -EFAULT;
		rc = UET_SES_RC_UNCOR;
	}
	m->received += len;
	if (req->flags & UET_SES_F_EOM) {
		m->eom = true;
		m->total = min_t(u64, end, UET_SES_MAX_MSG);
	}
	return rc;
}

static u8 ep_rcv(struct uet_ep *ep, struct uet_pds_pdc *pdc,
		 const struct uet_ses_req_info *req, struct sk_buff *skb,
		 unsigned int hlen)
{
	struct uet_rx_flow *f;
	struct uet_rx_msg *m;
	u8 rc;

	spin_lock(&ep->lock);
	if (ep->closing) {
		rc = UET_SES_RC_CANCELLED;
		goto out;
	}
	f = rx_flow(ep, pdc->lpdcid, req->initiator);
	m = f ? rx_msg(ep, f, req->message_id) : NULL;
	if (!m) {
		rc = UET_SES_RC_NO_MATCH;
		uet_count(ep->udev, UET_CNT_DROP_NO_RECV_BUFFER, 1);
		goto out;
	}
	rc = rx_place(ep, m, req, skb, hlen, skb->len - hlen);
	rx_complete(ep, f);
out:
	spin_unlock(&ep->lock);
	return rc;
}

/**
 * uet_ses_rcv() - a request packet the PDS delivers, in softirq
 * @pdc: its PDC, locked
 * @skb: the packet from its SES header on
 * @next_hdr: which SES header that is
 * @msg_id: set to the request's message ID, for the response
 *
 * Return: the SES return code for the response, %UET_SES_RC_OK when the
 * payload was placed.
 */
u8 uet_ses_rcv(struct uet_pds_pdc *pdc, struct sk_buff *skb, u8 next_hdr,
	       u16 *msg_id)
{
	struct uet_dev *udev = pdc->udev;
	u8 buf[sizeof(struct uet_ses_std)];
	struct uet_ses_hdr_info h;
	struct uet_ep *ep;
	const u8 *p;
	int hlen;
	u8 rc;

	p = skb_header_pointer(skb, 0, min_t(unsigned int, skb->len, sizeof(buf)),
			       buf);
	hlen = p ? uet_ses_parse(p, min_t(unsigned int, skb->len, sizeof(buf)),
				 next_hdr, &h) : -EMSGSIZE;
	if (hlen < 0) {
		uet_count(udev, UET_CNT_DROP_MALFORMED, 1);
		return UET_SES_RC_UNSUPPORTED_OP;
	}
	*msg_id = h.req.message_id;
	if (next_hdr != UET_SES_NH_REQ_STD || h.req.opcode != UET_SES_SEND) {
		uet_count(udev, UET_CNT_DROP_UNSUPPORTED, 1);
		return UET_SES_RC_UNSUPPORTED_OP;
	}

	rcu_read_lock();
	ep = xa_load(&udev->eps, ep_index(h.req.job_id, h.req.pid_on_fep));
	if (ep) {
		rc = ep_rcv(ep, pdc, &h.req, skb, hlen);
	} else {
		uet_count(udev, UET_CNT_DROP_NO_ENDPOINT, 1);
		rc = UET_SES_RC_BAD_PID;
	}
	rcu_read_unlock();
	return rc;
}

/**
 * uet_ep_post_recv() - give the endpoint a buffer for one message
 * @ep: the endpoint
 * @buf: kernel memory, owned by uet until the receive completes
 * @len: its size
 * @cookie: reported by the receive's completion
 *
 * Return: 0, or -ESHUTDOWN while closing, -ENOMEM.
 */
int uet_ep_post_recv(struct uet_ep *ep, void *buf, u32 len, u64 cookie)
{
	struct uet_recv *rb;
	int err = 0;

	rb = kzalloc(sizeof(*rb), GFP_KERNEL);
	if (!rb)
		return -ENOMEM;
	rb->buf = buf;
	rb->len = len;
	rb->cookie = cookie;
	spin_lock_bh(&ep->lock);
	if (ep->closing)
		err = -ESHUTDOWN;
	else
		list_add_tail(&rb->node, &ep->recvq);
	spin_unlock_bh(&ep->lock);
	if (err)
		kfree(rb);
	return err;
}
EXPORT_SYMBOL_NS_GPL(uet_ep_post_recv, UET_ENGINE);

/**
 * uet_ep_open() - open the endpoint {@job, @pid} on a uet device
 * @ibdev_name: the device, e.g. "uet0"
 * @job: job identifier, 24 bits
 * @pid: PIDonFEP, 12 bits, unique on the device within @job
 * @comp: completion callback (see uet_comp_fn)
 * @priv: its argument
 *
 * The device cannot go away while the endpoint is open.
 *
 * Return: the endpoint, or ERR_PTR(-EINVAL, -ENODEV, -EADDRINUSE, -ENOMEM).
 */
struct uet_ep *uet_ep_open(const char *ibdev_name, u32 job, u16 pid,
			   uet_comp_fn comp, void *priv)
{
	struct uet_dev *udev;
	struct uet_ep *ep;
	int err;

	if (job >> UET_JOB_BITS || pid >> UET_PID_BITS || !comp)
		return ERR_PTR(-EINVAL);
	udev = uet_dev_get(ibdev_name);
	if (!udev)
		return ERR_PTR(-ENODEV);
	ep = kzalloc(sizeof(*ep), GFP_KERNEL);
	if (!ep) {
		err = -ENOMEM;
		goto err_put;
	}
	ep->udev = udev;
	ep->job = job;
	ep->pid = pid;
	ep->comp = comp;
	ep->priv = priv;
	mutex_init(&ep->send_lock);
	spin_lock_init(&ep->lock);
	INIT_LIST_HEAD(&ep->recvq);
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
	kfree(ep);
err_put:
	ib_device_put(&udev->ibdev);
	return ERR_PTR(err);
}
EXPORT_SYMBOL_NS_GPL(uet_ep_open, UET_ENGINE);

static void ep_free_flows(struct uet_ep *ep)
{
	struct uet_rx_flow *rf;
	struct uet_tx_flow *tf;
	struct hlist_node *tmp;
	int bkt, i;

	hash_for_each_safe(ep->rx_flows, bkt, tmp, rf, node) {
		for (i = 0; i < UET_SES_FLOW_MSGS; i++) {
			if (rf->msgs[i])
				kfree(rf->msgs[i]->rb);
			kfree(rf->msgs[i]);
		}
		kfree(rf);
	}
	hash_for_each_safe(ep->tx_flows, bkt, tmp, tf, node)
		kfree(tf);
}

/* uet_pds_walk_reqs() visitor: forget the requests of a closing endpoint. */
static void ep_orphan_req(struct sk_buff *skb, void *ep)
{
	struct uet_tx_msg *m = uet_pds_cb(skb)->ses;

	if (m && m->ep == ep)
		uet_pds_cb(skb)->ses = NULL;
}

/**
 * uet_ep_close() - close an endpoint
 * @ep: the endpoint; no uet_ep_send() or uet_ep_post_recv() may be running
 *
 * Sends not yet acknowledged and unused receive buffers complete with
 * -ECANCELED; the PDCs still deliver the packets already handed to them.
 * Messages half received are dropped.
 */
void uet_ep_close(struct uet_ep *ep)
{
	struct uet_dev *udev = ep->udev;
	struct uet_tx_msg *m, *mtmp;
	struct uet_recv *rb, *tmp;

	xa_erase_bh(&udev->eps, ep_index(ep->job, ep->pid));
	synchronize_rcu();	/* no packet reaches @ep any more */

	mutex_lock(&ep->send_lock);	/* and no send is half queued */
	spin_lock_bh(&ep->lock);
	ep->closing = true;
	spin_unlock_bh(&ep->lock);
	mutex_unlock(&ep->send_lock);

	/* After this, no PDC calls back about @ep's messages. */
	uet_pds_walk_reqs(udev, ep_orphan_req, ep);
	list_for_each_entry_safe(m, mtmp, &ep->sends, node) {
		struct uet_comp c = { .cookie = m->cookie, .status = -ECANCELED };

		list_del(&m->node);
		ep_complete(ep, &c);
		kfree(m);
	}
	list_for_each_entry_safe(rb, tmp, &ep->recvq, node) {
		struct uet_comp c = { .cookie = rb->cookie, .status = -ECANCELED,
				      .recv = true };

		list_del(&rb->node);
		ep_complete(ep, &c);
		kfree(rb);
	}
	ep_free_flows(ep);
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
