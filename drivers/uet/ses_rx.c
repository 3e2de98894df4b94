// SPDX-License-Identifier: GPL-2.0
/*
 * uet SES, the target: requests of every delivery mode, bound to receive
 * buffers in order and placed.
 *
 * Receiving: messages from one initiator endpoint to one target endpoint
 * form a flow, whichever PDCs carry them.  The messages that take
 * untagged receive buffers (sends, writes with immediate data) have
 * message IDs counting up from zero; receive buffers are bound to them in
 * message-ID order, whatever order their packets arrive in (RUD places
 * packets in any order), and they complete in that order too: what verbs
 * RC semantics need.  Tagged sends, writes and reads count their own IDs:
 * a tagged send takes the oldest receive buffer posted for its tag when
 * its first packet arrives, and completes when its last byte is placed
 * (at most UET_SES_FLOW_MSGS of them in progress per flow).  Writes,
 * reads and atomics are carried out in ses_rma.c.
 */
#include <linux/wait_bit.h>

#include "ses_priv.h"
#include "tss_pkt.h"

/* The entry of @f's ring for message @id. */
static struct uet_rx_msg **rx_slot(struct uet_rx_flow *f, u16 id)
{
	return &f->msgs[id & (f->ring_size - 1)];
}

/*
 * Make @f's ring hold at least @need messages from next_done on (at most
 * UET_SES_FLOW_MSGS), moving those in progress; false without memory.
 */
static bool rx_ring_grow(struct uet_rx_flow *f, unsigned int need)
{
	unsigned int size = roundup_pow_of_two(need);
	struct uet_rx_msg **msgs;
	u16 id;

	msgs = kcalloc(size, sizeof(*msgs), GFP_ATOMIC);
	if (!msgs)
		return false;
	for (id = f->next_done; id != f->next_bind; id++)
		msgs[id & (size - 1)] = *rx_slot(f, id);
	kfree(f->msgs);
	f->msgs = msgs;
	f->ring_size = size;
	return true;
}

/*
 * The message @id of @f, binding receive buffers to every message up to it
 * first, in ID order.  A message that finds no buffer is refused whole,
 * unless it may wait (@wait: the request came over a PDC to an endpoint
 * whose owner posts buffers later, uet_ep_set_rbuf()): then binding stops
 * there, and every request of it and of the messages after it waits,
 * until a buffer comes or its initiator gives it up (@give_up, for @id).
 * %NULL: @id is not within the flow's range, or no memory;
 * ERR_PTR(-EAGAIN): the request waits.
 */
static struct uet_rx_msg *rx_msg(struct uet_ep *ep, struct uet_rx_flow *f,
				 u16 id, bool wait, bool give_up)
{
	u16 span = id - f->next_done;
	struct uet_rx_msg *m;

	if (span >= UET_SES_FLOW_MSGS)
		return NULL;
	if (span >= f->ring_size && !rx_ring_grow(f, span + 1))
		return NULL;
	while ((u16)(id - f->next_bind) < UET_SES_FLOW_MSGS) {
		m = kzalloc(sizeof(*m), GFP_ATOMIC);
		if (!m)
			return NULL;
		m->rb = ses_rbuf_next(ep);
		if (!m->rb && wait && !(give_up && f->next_bind == id)) {
			kfree(m);
			return ERR_PTR(-EAGAIN);
		}
		if (!m->rb)
			m->status = -ENOBUFS;
		*rx_slot(f, f->next_bind) = m;
		f->next_bind++;
	}
	return *rx_slot(f, id);
}

/*
 * The tagged message @req names: the one in progress, or a new one bound
 * to the oldest receive buffer posted for its tag; %NULL when the flow has
 * UET_SES_FLOW_MSGS in progress already, or without memory.
 */
static struct uet_rx_msg *rx_tagged_msg(struct uet_ep *ep, struct uet_rx_flow *f,
					const struct uet_ses_req_info *req)
{
	struct uet_rx_msg *m;

	list_for_each_entry(m, &f->tagged, node)
		if (m->id == req->message_id)
			return m;
	if (f->ntagged >= UET_SES_FLOW_MSGS)
		return NULL;
	m = kzalloc(sizeof(*m), GFP_ATOMIC);
	if (!m)
		return NULL;
	m->id = req->message_id;
	m->tag = req->match_bits;
	m->rb = ses_rbuf_take(&ep->trecvq, true, req->match_bits);
	if (!m->rb)
		m->status = -ENOBUFS;
	list_add_tail(&m->node, &f->tagged);
	f->ntagged++;
	return m;
}

static bool rx_msg_done(const struct uet_rx_msg *m)
{
	return m && m->eom && m->received == m->total;
}

static void rx_report(struct uet_ep *ep, const struct in6_addr *peer,
		      struct uet_rx_flow *f, struct uet_rx_msg *m)
{
	struct uet_comp c = {
		.status = m->status,
		.ses_rc = m->status == -EREMOTEIO ? m->rc : 0,
		.op = m->op,
		.recv = true,
		.has_imm = m->has_imm,
		.imm = m->imm,
		.byte_len = min_t(u64, m->total, UET_SES_MAX_MSG),
		.tag = m->tag,
		.src = *peer,
		.src_pid = f->initiator,
	};

	if (!m->rb)
		return;		/* refused: the initiator was told */
	c.cookie = m->rb->cookie;
	ep_complete(ep, &c);
	kfree(m->rb);
}

/* Ordered receives complete in message order: report those done at the head. */
static void rx_complete(struct uet_ep *ep, const struct in6_addr *peer,
			struct uet_rx_flow *f)
{
	struct uet_rx_msg *m;

	while (f->next_done != f->next_bind &&
	       rx_msg_done(m = *rx_slot(f, f->next_done))) {
		rx_report(ep, peer, f, m);
		*rx_slot(f, f->next_done) = NULL;
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

	if (req->flags & UET_SES_F_SOM) {
		m->op = req->opcode == UET_SES_WRITE ? UET_OP_WRITE : UET_OP_SEND;
		if (req->flags & UET_SES_F_HD) {
			m->has_imm = true;
			m->imm = req->header_data;
		}
	}
	if (req->opcode == UET_SES_WRITE) {
		/* the receive buffer only reports it; the data goes to the region */
		end = (u64)req->message_offset + len;
		if (!m->status) {
			rc = ses_rx_write(ep, req, skb, hlen, len);
			if (rc != UET_SES_RC_OK) {
				m->status = -EREMOTEIO;
				m->rc = rc;
			}
		} else if (m->status == -EREMOTEIO) {
			rc = m->rc;
		}
	} else if (!m->status && end > m->rb->len) {
		m->status = -EMSGSIZE;
		uet_count(ep->udev, UET_CNT_DROP_BOUNDS, 1);
	}
	if (m->status == -ENOBUFS) {
		uet_count(ep->udev, UET_CNT_DROP_NO_RECV_BUFFER, 1);
		rc = UET_SES_RC_NO_MATCH;
	} else if (m->status == -EMSGSIZE) {
		rc = UET_SES_RC_TOO_LONG;
	} else if (!m->status && req->opcode != UET_SES_WRITE &&
		   uet_sgl_copy_skb(m->rb->sge, m->rb->nsge, req->buffer_offset,
				    skb, hlen, len)) {
		m->status = -EFAULT;
		rc = UET_SES_RC_UNCOR;
	}
	m->received += len;
	if (req->flags & UET_SES_F_EOM) {
		m->eom = true;
		m->total = end;
	}
	return rc;
}

/*
 * Whether a request came over a PDC: one the target cannot take yet may
 * wait, its PSN unreceived (struct uet_ses_answer's @wait).
 */
static bool rx_over_pdc(const struct uet_ses_rx *rx)
{
	return rx->mode == UET_PDC_RUD || rx->mode == UET_PDC_ROD;
}

/*
 * A request of a PDC or RUDI that @ep admitted: a read or a write without
 * immediate data acts on memory; an atomic (a PDC's only) too, once; a
 * send (a PDC's only) finds its message's buffer.
 */
static u8 ep_rcv(struct uet_ep *ep, const struct uet_ses_rx *rx,
		 struct uet_ses_answer *ans)
{
	const struct uet_ses_req_info *req = &rx->h->req;
	struct sk_buff *skb = rx->skb;
	unsigned int hlen = rx->hlen;
	u32 len = skb->len - hlen;
	struct uet_rx_flow *f;
	struct uet_rx_msg *m;
	u8 rc;

	if (req->opcode == UET_SES_READ)
		return ses_rx_read(ep, rx->peer, req, ans);
	if (req->opcode == UET_SES_WRITE && !(req->flags & UET_SES_F_HD))
		return ses_rx_write(ep, req, skb, hlen, len);
	if (req->opcode == UET_SES_FETCHING_ATOMIC)
		return ses_rx_atomic(ep, rx->peer, req, skb, hlen, rx->dup,
				     ans);

	spin_lock(&ep->lock);
	if (ep->closing) {
		rc = UET_SES_RC_CANCELLED;
		goto out;
	}
	rc = UET_SES_RC_NO_MATCH;
	/* without a flow, ses_rx_flow() counted the drop */
	f = ses_rx_flow(ep, rx->peer, req->initiator);
	if (!f)
		goto out;
	if (req->opcode == UET_SES_TAGGED_SEND)
		m = rx_tagged_msg(ep, f, req);
	else
		m = rx_msg(ep, f, req->message_id,
			   rx_over_pdc(rx) && ep->get_rbuf,
			   req->flags & UET_SES_F_IE);
	if (IS_ERR(m)) {
		ans->wait = true;
		goto out;
	}
	if (!m) {
		uet_count(ep->udev, UET_CNT_DROP_NO_RECV_BUFFER, 1);
		goto out;
	}
	rc = rx_place(ep, m, req, skb, hlen, len);
	if (req->opcode != UET_SES_TAGGED_SEND) {
		rx_complete(ep, rx->peer, f);
	} else if (rx_msg_done(m)) {
		rx_report(ep, rx->peer, f, m);
		list_del(&m->node);
		f->ntagged--;
		kfree(m);
	}
out:
	spin_unlock(&ep->lock);
	return rc;
}

/**
 * uet_ses_parse_skb() - parse the SES header at the start of a packet
 * @udev: the device it arrived on
 * @skb: the packet from its SES header on
 * @next_hdr: which SES header that is
 * @h: filled in
 *
 * Return: the header's length, or a negative errno when it is malformed,
 * a counted drop.
 */
int uet_ses_parse_skb(struct uet_dev *udev, const struct sk_buff *skb,
		      u8 next_hdr, struct uet_ses_hdr_info *h)
{
	unsigned int len = min_t(unsigned int, skb->len, sizeof(struct uet_ses_std));
	u8 buf[sizeof(struct uet_ses_std)];
	const u8 *p;
	int hlen;

	p = skb_header_pointer(skb, 0, len, buf);
	hlen = p ? uet_ses_parse(p, len, next_hdr, h) : -EMSGSIZE;
	if (hlen < 0)
		uet_count(udev, UET_CNT_DROP_MALFORMED, 1);
	return hlen;
}

/*
 * May the request @req from @src reach @ep, over a PDC or RUDI or
 * (@datagram) as a UUD send?  A refusal is a counted drop, and *@rc says
 * how to answer it.
 */
static bool ep_admits(struct uet_ep *ep, const struct in6_addr *src,
		      const struct uet_ses_req_info *req, bool datagram, u8 *rc)
{
	bool ok;

	spin_lock(&ep->lock);
	switch (ep->from) {
	case UET_EP_FROM_ANY:
		ok = true;
		break;
	case UET_EP_FROM_PEER:
		ok = !datagram && req->initiator == ep->peer_pid &&
		     ipv6_addr_equal(src, &ep->peer);
		*rc = UET_SES_RC_BAD_PID;
		break;
	case UET_EP_FROM_DATAGRAMS:
		ok = datagram && req->opcode == UET_SES_SEND &&
		     req->match_bits == ep->key;
		*rc = UET_SES_RC_BAD_PID;
		break;
	default:
		ok = false;
		*rc = UET_SES_RC_BAD_PID;
		break;
	}
	spin_unlock(&ep->lock);
	if (!ok)
		uet_count(ep->udev, UET_CNT_DROP_NOT_PEER, 1);
	return ok;
}

/*
 * The endpoint a request names, held for its delivery (ep_put()); a
 * counted drop if none, or if it is closing.  Context: rcu_read_lock().
 */
static struct uet_ep *ep_find(struct uet_dev *udev,
			      const struct uet_ses_req_info *req)
{
	struct uet_ep *ep;

	ep = xa_load(&udev->eps, ep_index(req->job_id, req->pid_on_fep));
	if (ep && !refcount_inc_not_zero(&ep->users))
		ep = NULL;
	if (!ep)
		uet_count(udev, UET_CNT_DROP_NO_ENDPOINT, 1);
	return ep;
}

/*
 * The delivery is done with @ep: the last one wakes its closer.  Under
 * rcu_read_lock(), which keeps @ep's memory for the wake-up.
 */
static void ep_put(struct uet_ep *ep)
{
	if (refcount_dec_and_test(&ep->users))
		wake_up_var(&ep->users);
}

/* A UUD send: the oldest matching buffer takes it; with none, a drop. */
static void ep_rcv_uud(struct uet_ep *ep, const struct uet_ses_req_info *req,
		       struct sk_buff *skb, unsigned int hlen,
		       const struct in6_addr *saddr)
{
	spin_lock(&ep->lock);
	if (ep->closing || !ses_uud_deliver(ep, req, skb, hlen, saddr))
		ses_uud_drop(ep, skb->len - hlen);
	spin_unlock(&ep->lock);
}

/**
 * uet_ses_trimmed() - whether a request lost its payload on the way
 * @skb: the request from its SES header on
 * @hlen: what uet_ses_parse_skb() returned for it ...
 * @h: ... and the header it parsed
 *
 * A switch that trims a packet keeps its headers and cuts the payload.
 * A request that carries data says how much: a packet after the first of
 * its message in its payload length, the first one by its message's
 * length (never 0 bytes then).  A malformed header is not trimmed: it is
 * for the SES layer to count.
 *
 * Return: true if fewer payload bytes arrived than the header promises.
 */
bool uet_ses_trimmed(const struct sk_buff *skb, int hlen,
		     const struct uet_ses_hdr_info *h)
{
	u32 payload;

	if (hlen < 0 || h->next_hdr != UET_SES_NH_REQ_STD ||
	    h->req.opcode == UET_SES_READ)
		return false;
	payload = skb->len - hlen;
	if (h->req.flags & UET_SES_F_SOM)
		return !payload && h->req.request_length;
	return payload < h->req.payload_length;
}

/*
 * What each delivery mode carries; anything else is a counted drop.  UUD:
 * sends of one packet.  RUDI: only what may be carried out every time a
 * request arrives, writes without immediate data and reads.  A PDC: sends,
 * writes, reads and fetching atomics.  A read carries no payload.
 */
static bool rx_supported(const struct uet_ses_rx *rx)
{
	const struct uet_ses_req_info *req = &rx->h->req;
	u8 op = req->opcode;

	if (rx->h->next_hdr != UET_SES_NH_REQ_STD ||
	    (op == UET_SES_READ && rx->skb->len != rx->hlen))
		return false;
	switch (rx->mode) {
	case UET_PDC_UUD:
		return (req->flags & (UET_SES_F_SOM | UET_SES_F_EOM)) ==
		       (UET_SES_F_SOM | UET_SES_F_EOM) &&
		       (op == UET_SES_SEND || op == UET_SES_TAGGED_SEND);
	case UET_PDC_RUDI:
		return (op == UET_SES_WRITE && !(req->flags & UET_SES_F_HD)) ||
		       op == UET_SES_READ;
	default:
		return op == UET_SES_SEND || op == UET_SES_TAGGED_SEND ||
		       op == UET_SES_WRITE || op == UET_SES_READ ||
		       op == UET_SES_FETCHING_ATOMIC;
	}
}

/**
 * uet_ses_deliver() - a request packet the PDS delivers, in softirq
 * @rx: the request, parsed, and where it came from
 * @ans: filled in: the message ID and job for the response, and a read's
 *	or an atomic's data
 *
 * The one way requests of every delivery mode enter the SES layer: the
 * endpoint the request names must exist and admit its initiator, and
 * then carries it out.  A UUD request is a datagram: nothing answers it,
 * and a send that finds no buffer is dropped (ep_rcv_uud()).  A PDC's
 * send that finds no buffer yet may wait instead (rx_msg()): @ans says so.
 *
 * Return: the SES return code for the response, %UET_SES_RC_OK when the
 * request was carried out (UUD: whatever it is, nothing answers).
 */
u8 uet_ses_deliver(const struct uet_ses_rx *rx, struct uet_ses_answer *ans)
{
	const struct uet_ses_req_info *req = &rx->h->req;
	bool uud = rx->mode == UET_PDC_UUD;
	struct uet_ep *ep;
	u8 rc;

	if (rx->hlen < 0)
		return UET_SES_RC_UNSUPPORTED_OP;
	/* a response's header where a request's belongs */
	if (rx->h->next_hdr < UET_SES_NH_REQ_SMALL ||
	    rx->h->next_hdr > UET_SES_NH_REQ_STD) {
		uet_count(rx->udev, UET_CNT_DROP_UNSUPPORTED, 1);
		return UET_SES_RC_UNSUPPORTED_OP;
	}
	ans->msg_id = req->message_id;
	ans->job = req->job_id;
	/* a secure job takes only what opened under its own domain */
	if (!uet_tss_admits(rx->udev, rx->skb, req->job_id)) {
		uet_count(rx->udev, UET_CNT_DROP_TSS_CLEAR, 1);
		return UET_SES_RC_BAD_JOB_ID;
	}
	if (rx->dup && req->opcode != UET_SES_READ &&
	    req->opcode != UET_SES_FETCHING_ATOMIC)
		return UET_SES_RC_OK;
	if (!rx_supported(rx)) {
		uet_count(rx->udev, UET_CNT_DROP_UNSUPPORTED, 1);
		return UET_SES_RC_UNSUPPORTED_OP;
	}

	rcu_read_lock();
	ep = ep_find(rx->udev, req);
	if (!ep) {
		rc = UET_SES_RC_BAD_PID;
		goto out;
	}
	if (!ep_admits(ep, rx->peer, req, uud, &rc)) {
		ses_count_rx(ep, rc, rx->skb->len - rx->hlen);
	} else if (uud) {
		ep_rcv_uud(ep, req, rx->skb, rx->hlen, rx->peer);
		rc = UET_SES_RC_OK;
	} else {
		rc = ep_rcv(ep, rx, ans);
		if (!ans->wait)
			ses_count_rx(ep, rc, rx->skb->len - rx->hlen);
	}
	ep_put(ep);
out:
	rcu_read_unlock();
	return rc;
}

/**
 * uet_ses_deliver_datagram() - parse a request without a PDC, deliver it
 * @udev: the device it arrived on
 * @mode: %UET_PDC_RUDI or %UET_PDC_UUD
 * @peer: the initiator's address
 * @skb: the packet, from its SES header on
 * @next_hdr: which SES header that is
 * @ans: as for uet_ses_deliver()
 *
 * Return: as uet_ses_deliver(); a malformed header is a counted drop,
 * answered as not supported.
 */
u8 uet_ses_deliver_datagram(struct uet_dev *udev, u8 mode,
			    const struct in6_addr *peer, struct sk_buff *skb,
			    u8 next_hdr, struct uet_ses_answer *ans)
{
	struct uet_ses_hdr_info h;
	struct uet_ses_rx rx = {
		.udev = udev,
		.mode = mode,
		.peer = peer,
		.skb = skb,
		.h = &h,
	};

	rx.hlen = uet_ses_parse_skb(udev, skb, next_hdr, &h);
	return uet_ses_deliver(&rx, ans);
}
