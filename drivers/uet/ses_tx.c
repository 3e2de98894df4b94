// SPDX-License-Identifier: GPL-2.0
/*
 * uet SES, the initiator: work requests, their packets and completions.
 *
 * Sending: uet_ep_post() cuts a work request into packets, each an SES
 * standard request (SOM on the first, EOM on the last, the buffer offset
 * saying where its payload goes: an offset in the message for sends, an
 * address in the target's region for writes and reads) handed to the PDS.
 * A read's requests carry no payload: each asks for a packet's worth of
 * data, which the target returns in that request's ACK, an SES response
 * with data.  A work request completes once every packet is acknowledged
 * (and, for a read, answered), with the target's return code if it refused;
 * work requests complete in the order they were posted.
 *
 * A request outlives its completion only when its endpoint closes first
 * (uet_ep_close(), ep_cancel_sends()): it completes then, cancelled, and
 * stays with the PDS, which cuts no more of it and finishes its requests
 * in flight (the PSN sequence stays whole), built again from a copy of
 * their payload taken at the close; the last of them frees it.  Nothing
 * of the endpoint, and none of the caller's memory, is touched after
 * that: the request's @ep is %NULL.
 */
#include "ses_priv.h"

static void tx_msg_free(struct uet_tx_msg *m)
{
	if (!IS_ERR(m->snap))
		kvfree(m->snap);
	kfree(m);
}

/* Drop uet_ep_close()'s hold on a cancelled message. */
void tx_msg_put(struct uet_tx_msg *m)
{
	if (atomic_dec_and_test(&m->pkts_left))
		tx_msg_free(m);
}

/*
 * Copy what cancelled message @m may still have to send again: the
 * payload of its requests cut within the last window of PSNs, as those
 * cut before it are acknowledged (a PDC allocates no PSN a window past
 * its oldest unacknowledged one).  Its requests are built from the copy
 * from now on; without memory for it, they cannot be built any more, and
 * the PDC recovers as from their loss, then fails.
 */
static void tx_msg_snapshot(struct uet_tx_msg *m)
{
	const struct uet_seg *seg = &m->pm.seg;
	u32 ncut = m->pm.ncut, first;
	struct tx_snap *s;
	u64 off, end;

	first = ncut > UET_PDC_WND_MAX ? ncut - UET_PDC_WND_MAX : 0;
	off = uet_seg_off(seg, first);
	end = uet_seg_off(seg, ncut - 1) + uet_seg_len(seg, ncut - 1);
	s = kvmalloc(struct_size(s, data, end - off), GFP_KERNEL_ACCOUNT);
	if (s) {
		s->off = off;
		s->len = end - off;
		if (uet_sgl_copy(m->sge, m->nsge, off, s->data, s->len, false)) {
			kvfree(s);
			s = NULL;
		}
	}
	/* the copy is whole before a PDC sees it: tx_msg_read() acquires */
	smp_store_release(&m->snap, s ?: ERR_PTR(-ENOMEM));
}

/**
 * ep_cancel_sends() - cancel a closing endpoint's work requests
 * @ep: the endpoint, closing: no request is being posted
 * @sends: set to its requests not yet completed, each held (tx_msg_put())
 *
 * They leave @ep: the PDS finds them without an endpoint from now on,
 * cuts none of them further (uet_pds_cancel()), and sends again what it
 * has to from a copy (tx_msg_snapshot()), so that the caller's memory is
 * not read after the return.  The caller completes them.
 *
 * Context: process, may sleep.
 */
void ep_cancel_sends(struct uet_ep *ep, struct list_head *sends)
{
	struct uet_tx_msg *m;

	spin_lock_bh(&ep->lock);
	ep->closing = true;
	list_splice_init(&ep->sends, sends);
	list_for_each_entry(m, sends, node) {
		atomic_inc(&m->pkts_left);
		RCU_INIT_POINTER(m->ep, NULL);
	}
	/*
	 * A message the PDS still has (more than our hold) keeps its PDC
	 * until the PDS is done with it, which takes @ep's lock (the PDC
	 * fails it through uet_ses_tx_done()): in RCU from before that
	 * lock is dropped, the PDC stays to be told.
	 */
	rcu_read_lock();
	spin_unlock_bh(&ep->lock);
	list_for_each_entry(m, sends, node)
		m->resend = atomic_read(&m->pkts_left) > 1 &&
			    uet_pds_cancel(ep->udev, &m->pm);
	rcu_read_unlock();
	list_for_each_entry(m, sends, node)
		if (m->resend && !m->pm.read && m->pm.ncut)
			tx_msg_snapshot(m);
}

/* Work requests complete in posting order: report those at the head that are done. */
static void ep_complete_sends(struct uet_ep *ep)
{
	struct uet_tx_msg *m, *tmp;

	lockdep_assert_held(&ep->lock);
	list_for_each_entry_safe(m, tmp, &ep->sends, node) {
		struct uet_comp c = { .cookie = m->cookie, .status = m->status,
				      .ses_rc = m->rc, .op = m->op };

		if (atomic_read(&m->pkts_left))
			break;
		if (m->flow)
			m->flow->amo_inflight--;
		list_del(&m->node);
		ep_complete(ep, &c);
		tx_msg_free(m);
	}
}

/*
 * Under the lock of @m's endpoint, if it has not closed and cancelled @m:
 * @m fails with @status (and @rc) unless it failed before, the PDS is
 * done with @n more of its requests, and what is done completes.
 * Return: false if @m is cancelled, the PDS's alone: nothing was done.
 */
static bool tx_msg_update(struct uet_tx_msg *m, u32 n, int status, u8 rc)
{
	struct uet_ep *ep;
	bool live = false;

	rcu_read_lock();
	ep = rcu_dereference(m->ep);
	if (ep) {
		spin_lock_bh(&ep->lock);
		live = rcu_access_pointer(m->ep) == ep;
		if (live) {
			if (status && !m->status) {
				m->status = status;
				m->rc = rc;
			}
			if (n) {
				atomic_sub(n, &m->pkts_left);
				ep_complete_sends(ep);
			}
		}
		spin_unlock_bh(&ep->lock);
	}
	rcu_read_unlock();
	return live;
}

/**
 * uet_ses_tx_done() - the PDS is done with requests of a message
 * @pm: the message
 * @n: how many requests
 * @err: 0 when acknowledged, else why they never will be
 *
 * Context: any.
 */
void uet_ses_tx_done(struct uet_pds_msg *pm, u32 n, int err)
{
	struct uet_tx_msg *m = tx_msg(pm);

	if (!tx_msg_update(m, n, err, 0) &&
	    atomic_sub_and_test(n, &m->pkts_left))
		tx_msg_free(m);
}

/**
 * uet_ses_tx_refused() - the target refused a message
 * @pm: the message, a request of it still in flight
 * @rc: the target's SES return code
 */
void uet_ses_tx_refused(struct uet_pds_msg *pm, u8 rc)
{
	tx_msg_update(tx_msg(pm), 0, -EREMOTEIO, rc);
}

/**
 * uet_ses_read_data() - the data a read request asked for arrived
 * @pm: the read, the request still in flight
 * @rd_off: where the request's data goes in the read's data ...
 * @rd_len: ... and how much it asked for
 * @skb: the response
 * @off: where its payload starts
 * @len: the payload's length, as the response says
 * @msg_off: where it goes in the read's data, as the response says
 *
 * Context: softirq, the request's PDC locked.
 * Return: true when the response answers the request (placed, or failed
 * to place, which fails the read); false when it does not match what the
 * request asked for, a counted drop.
 */
bool uet_ses_read_data(struct uet_pds_msg *pm, u32 rd_off, u32 rd_len,
		       const struct sk_buff *skb, unsigned int off, u16 len,
		       u32 msg_off)
{
	struct uet_tx_msg *m;
	__le64 v;
	u64 old;
	int err;

	if (len != rd_len || msg_off != rd_off || skb->len < off + len)
		return false;
	if (READ_ONCE(pm->cancelled))
		return true;	/* nobody takes the data */
	m = tx_msg(pm);
	if (m->op == UET_OP_ATOMIC) {
		err = skb_copy_bits(skb, off, &v, sizeof(v));
		old = le64_to_cpu(v);
		if (!err)
			err = uet_sgl_copy(m->sge, m->nsge, 0, &old, sizeof(old),
					   true);
	} else {
		err = uet_sgl_copy_skb(m->sge, m->nsge, msg_off, skb, off, len);
	}
	if (err)
		tx_msg_update(m, 0, -EFAULT, 0);
	return true;
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
 * The headers in front of a request's payload, after IP and UDP: PDS and
 * SES.  A read's data comes back behind an ACK_CC and an SES response
 * with data, which must not take more.
 */
#define UET_REQ_HDRS_LEN	(sizeof(struct uet_pds_req) + \
				 sizeof(struct uet_ses_std))
static_assert(sizeof(struct uet_pds_ack_cc) + sizeof(struct uet_ses_rsp_data) <=
	      UET_REQ_HDRS_LEN);

/*
 * Payload bytes of one packet of @ep's between its netdev and @peer: what
 * the MTU leaves after the headers the packet really has (IPv4 or IPv6,
 * UDP, PDS, SES, and the TSS header and ICV when @ep's job is secure;
 * directly over IP, the entropy header and a clear packet's CRC take no
 * more than UDP's 8 bytes), at
 * most the device's setting and what a 14-bit length field holds; 0:
 * none fit.  A job made secure afterwards, while its packets are in
 * flight, has them dropped at the IP layer, too long to seal
 * (Documentation/security.rst): keys go in before the traffic.
 */
u32 ses_max_payload(struct uet_ep *ep, const struct in6_addr *peer)
{
	unsigned int mtu = READ_ONCE(ep->udev->ndev->mtu);
	u32 max = READ_ONCE(ep->udev->cfg.max_payload);
	u32 hdrs = (ipv6_addr_v4mapped(peer) ? sizeof(struct iphdr) :
					       sizeof(struct ipv6hdr)) +
		   sizeof(struct udphdr) + UET_REQ_HDRS_LEN;
	u32 fit;

	BUILD_BUG_ON(UET_ENTROPY_HDR_LEN + UET_CRC_LEN > sizeof(struct udphdr));
	if (ep->jobp && READ_ONCE(ep->jobp->secdom.secure))
		hdrs += sizeof(struct uet_tss_hdr_ssi) + UET_TSS_ICV_LEN;
	fit = mtu > hdrs ? mtu - hdrs : 0;

	fit = min_t(u32, fit, FIELD_MAX(UET_SES_LEN));
	return max ? min(max, fit) : fit;
}

/*
 * The atomic extension header of @wr and its operand: the 64-bit operands
 * travel as little-endian byte images, in the compare-and-swap header's
 * operand fields or as the payload after the other header.
 */
static int amo_put(struct sk_buff *skb, const struct uet_tx_msg *m)
{
	struct uet_ses_amo_info amo = {
		.opcode = m->amo,
		.datatype = UET_AMO_DT_UINT64,
	};
	__le64 cmp = cpu_to_le64(m->compare), v = cpu_to_le64(m->operand);
	int hlen;

	if (m->amo == UET_AMO_CSWAP) {
		memcpy(amo.compare, &cmp, sizeof(cmp));
		memcpy(amo.swap, &v, sizeof(v));
	}
	hlen = uet_ses_amo_build(skb_tail_pointer(skb), skb_tailroom(skb), &amo);
	if (hlen < 0)
		return hlen;
	skb_put(skb, hlen);
	if (m->amo != UET_AMO_CSWAP)
		skb_put_data(skb, &v, sizeof(v));
	return 0;
}

/*
 * @len bytes of @m's payload from @off: from the caller's memory, or once
 * its endpoint closed, from the copy of what may be sent again.
 */
static int tx_msg_read(const struct uet_tx_msg *m, u64 off, void *buf, u32 len)
{
	/* pairs with tx_msg_snapshot()'s release: the copy is whole */
	const struct tx_snap *s = smp_load_acquire(&m->snap);

	if (!s)
		return uet_sgl_copy(m->sge, m->nsge, off, buf, len, false);
	if (IS_ERR(s) || off < s->off || off + len > s->off + s->len)
		return -EFAULT;
	memcpy(buf, s->data + (off - s->off), len);
	return 0;
}

/*
 * The request of message @m that carries (a read, an atomic: asks for)
 * its @len bytes at @off: SES header and payload, %UET_PDS_HEADROOM
 * before them; %NULL without memory, or if @m's memory could not be read.
 * @give_up: the initiator gives up on the message (UET_SES_F_IE).
 */
static struct sk_buff *req_skb(const struct uet_tx_msg *m, u32 off, u32 len,
			       bool give_up, gfp_t gfp)
{
	struct uet_ses_hdr_info h = { .next_hdr = UET_SES_NH_REQ_STD,
				      .req = m->req };
	bool amo = m->op == UET_OP_ATOMIC;
	u32 plen = m->pm.read ? 0 : len;
	struct uet_ses_req_info *req = &h.req;
	struct sk_buff *skb;

	req->flags |= (off ? 0 : UET_SES_F_SOM) |
		      (off + len == m->pm.seg.len ? UET_SES_F_EOM : 0) |
		      (give_up ? UET_SES_F_IE : 0);
	req->buffer_offset = (m->op == UET_OP_SEND ? 0 : m->raddr) + off;
	req->payload_length = plen;
	req->message_offset = off;
	req->request_length = m->pm.read ? len : m->pm.seg.len;

	skb = alloc_skb(UET_PDS_HEADROOM + sizeof(struct uet_ses_std) +
			(amo ? sizeof(struct uet_ses_amo_cas) : plen) +
			UET_PDS_TAILROOM, gfp);
	if (!skb)
		return NULL;
	skb_reserve(skb, UET_PDS_HEADROOM);
	if (uet_ses_build(skb_put(skb, sizeof(struct uet_ses_std)),
			  sizeof(struct uet_ses_std), &h) < 0 ||
	    (amo ? amo_put(skb, m) : tx_msg_read(m, off, skb_put(skb, plen), plen))) {
		kfree_skb(skb);
		return NULL;
	}
	return skb;
}

/**
 * uet_ses_build_req() - build a request of a message, to send it (again)
 * @pm: the message
 * @off: where the request's payload (or what it asks for) starts in it
 * @len: how many bytes
 * @give_up: the initiator gives up on the message: the request carries
 *	the IE flag, and a target that has no receive buffer for it refuses
 *	it rather than wait (uet_ses_tx_rnr()); a cancelled message's always
 *	do
 *
 * Context: any; the caller holds the message's PDC locked.
 * Return: the request, SES header and payload, %UET_PDS_HEADROOM before
 * them; %NULL without memory.
 */
struct sk_buff *uet_ses_build_req(struct uet_pds_msg *pm, u32 off, u32 len,
				  bool give_up)
{
	return req_skb(tx_msg(pm), off, len, give_up || READ_ONCE(pm->cancelled),
		       GFP_ATOMIC);
}

/**
 * uet_ses_tx_rnr() - may a request the target had no buffer for go again?
 * @pm: its message
 *
 * The target had no receive buffer for the request's message, or did not
 * receive yet, and the request waited.  Each time it may go again, the
 * message's budget (struct uet_wr's @rnr_retry) loses one; once it is
 * spent, the request goes one last time with the IE flag
 * (uet_ses_build_req()), which the target refuses if it still has no
 * buffer: the message then fails with %UET_SES_RC_NO_MATCH.
 *
 * Context: any; the caller holds the message's PDC locked.
 * Return: true if it may go again, false if the message is given up.
 */
bool uet_ses_tx_rnr(struct uet_pds_msg *pm)
{
	struct uet_tx_msg *m = tx_msg(pm);

	if (!m->rnr_left || READ_ONCE(pm->cancelled))
		return false;
	if (m->rnr_left != UET_RNR_RETRY_INFINITE)
		m->rnr_left--;
	return true;
}

/*
 * UUD: the one request of @m built now and handed to the network, which
 * is all it waits for; the message fails (its completion says so) if it
 * cannot be built.
 */
static void ep_send_uud(struct uet_ep *ep, const struct uet_pds_key *key,
			struct uet_tx_msg *m)
{
	struct sk_buff *skb;
	int err;

	skb = req_skb(m, 0, m->pm.seg.len, false, GFP_KERNEL_ACCOUNT);
	err = skb ? uet_pds_send(ep->udev, key, skb) : -ENOMEM;
	uet_ses_tx_done(&m->pm, 1, err);
}

/* The SES header fields a work request starts from. */
static int wr_to_req(struct uet_ep *ep, const struct uet_wr *wr,
		     struct uet_ses_req_info *req)
{
	static const u8 flags_ok[] = {
		[UET_OP_SEND] = UET_WR_IMM | UET_WR_TAGGED,
		[UET_OP_WRITE] = UET_WR_IMM,
		[UET_OP_READ] = 0,
		[UET_OP_ATOMIC] = 0,
	};

	if (wr->op >= ARRAY_SIZE(flags_ok) || wr->flags & ~flags_ok[wr->op] ||
	    wr->dst_pid >> UET_PID_BITS || wr->nsge > UET_MAX_SGE ||
	    (wr->nsge && !wr->sge) ||
	    (wr->op == UET_OP_ATOMIC &&
	     (uet_sgl_len(wr->sge, wr->nsge) != UET_AMO_SIZE ||
	      (wr->amo != UET_AMO_SUM && wr->amo != UET_AMO_CSWAP))))
		return -EINVAL;
	/* UUD: sends of a packet; RUDI: idempotent operations only */
	if (wr->mode != UET_PDC_RUD && wr->mode != UET_PDC_ROD &&
	    (wr->mode != UET_PDC_UUD || wr->op != UET_OP_SEND) &&
	    (wr->mode != UET_PDC_RUDI || wr->op == UET_OP_SEND ||
	     wr->op == UET_OP_ATOMIC || wr->flags & UET_WR_IMM))
		return -EOPNOTSUPP;

	*req = (struct uet_ses_req_info) {
		.job_id = ep->job,
		.pid_on_fep = wr->dst_pid,
		.initiator = ep->pid,
	};
	switch (wr->op) {
	case UET_OP_SEND:
		req->opcode = wr->flags & UET_WR_TAGGED ? UET_SES_TAGGED_SEND :
							  UET_SES_SEND;
		req->match_bits = wr->tag;
		break;
	case UET_OP_WRITE:
	case UET_OP_READ:
	case UET_OP_ATOMIC:
		req->opcode = wr->op == UET_OP_WRITE ? UET_SES_WRITE :
			      wr->op == UET_OP_READ ? UET_SES_READ :
						      UET_SES_FETCHING_ATOMIC;
		req->match_bits = wr->rkey;
		req->resource_index = FIELD_GET(UET_RI_WIRE_INDEX,
						FIELD_GET(UET_RKEY_INDEX, wr->rkey));
		req->ri_generation = FIELD_GET(UET_RKEY_GEN, wr->rkey);
		break;
	}
	/*
	 * Immediate data rides in the header data of the SOM packet; HD is
	 * set on every packet of the message, so that the target knows from
	 * any of them that the message takes a receive buffer.
	 */
	if (wr->flags & UET_WR_IMM) {
		req->flags |= UET_SES_F_HD;
		req->header_data = wr->imm;
	}
	return 0;
}

/* Untagged sends and writes with immediate data take receive buffers. */
static bool req_ordered(const struct uet_ses_req_info *req)
{
	return req->opcode == UET_SES_SEND ||
	       (req->opcode == UET_SES_WRITE && req->flags & UET_SES_F_HD);
}

/**
 * uet_ep_post() - start a work request: send, write or read
 * @ep: the initiating endpoint
 * @wr: what to do
 *
 * A send in %UET_PDC_UUD mode is one packet, best effort: it completes
 * once handed to the network.  An atomic needs %UET_PDC_RUD or
 * %UET_PDC_ROD.  Over a PDC (%UET_PDC_RUD, %UET_PDC_ROD) the request is
 * a descriptor: each packet is built from @wr's memory when it may leave,
 * and again to be retransmitted, so that memory is read until the
 * completion; in the other modes its packets are built before this
 * returns.  What the request holds is charged to the caller's memory
 * cgroup.
 *
 * Context: process, may sleep.
 * Return: 0 when the request was queued (its completion follows), else a
 * negative errno and no completion: -EINVAL bad request, -EOPNOTSUPP
 * delivery mode, -EMSGSIZE longer than 4 GiB - 1, no payload fits the
 * MTU, or a UUD send longer than a packet, -EFAULT data outside its
 * region, -EBUSY %UET_SES_AMO_MAX atomics to the target in flight already,
 * -ESHUTDOWN endpoint closing, -ENOMEM.
 */
int uet_ep_post(struct uet_ep *ep, const struct uet_wr *wr)
{
	struct uet_pds_key key = { .raddr = wr->dst, .job = ep->job,
				   .tc = ses_ep_tc(ep), .mode = wr->mode,
				   .cc = ses_ep_cc(ep), .lb = ses_ep_lb(ep) };
	u32 max = ses_max_payload(ep, &wr->dst);
	struct uet_ses_req_info req;
	struct uet_tx_flow *flow;
	struct uet_tx_msg *m;
	bool ordered, busy;
	unsigned int i;
	u64 len;
	int err;

	err = wr_to_req(ep, wr, &req);
	if (err)
		return err;
	len = uet_sgl_len(wr->sge, wr->nsge);
	if (len > UET_SES_MAX_MSG || !max ||
	    (wr->mode == UET_PDC_UUD && len > max))
		return -EMSGSIZE;
	for (i = 0; i < wr->nsge; i++)
		if (!uet_mem_contains(wr->sge[i].mem, wr->sge[i].addr,
				      wr->sge[i].len))
			return -EFAULT;
	m = kzalloc(struct_size(m, sge, wr->nsge), GFP_KERNEL_ACCOUNT);
	if (!m)
		return -ENOMEM;
	m->req = req;
	RCU_INIT_POINTER(m->ep, ep);
	m->cookie = wr->cookie;
	m->op = wr->op;
	m->rnr_left = min_t(u8, wr->rnr_retry, UET_RNR_RETRY_INFINITE);
	m->raddr = wr->raddr;
	m->amo = wr->amo;
	m->compare = wr->compare;
	m->operand = wr->operand;
	m->nsge = wr->nsge;
	memcpy(m->sge, wr->sge, wr->nsge * sizeof(*wr->sge));
	uet_seg_init(&m->pm.seg, len, max);
	m->pm.read = wr->op == UET_OP_READ || wr->op == UET_OP_ATOMIC;
	atomic_set(&m->pkts_left, m->pm.seg.count);

	/*
	 * One poster at a time per endpoint: a flow's message IDs then enter
	 * its PDC in order, and an ID is used only by a message sent whole.
	 */
	mutex_lock(&ep->send_lock);
	spin_lock_bh(&ep->lock);
	flow = ep->closing ? NULL : tx_flow(ep, &wr->dst, wr->dst_pid);
	busy = flow && wr->op == UET_OP_ATOMIC &&
	       flow->amo_inflight >= UET_SES_AMO_MAX;
	err = ep->closing ? -ESHUTDOWN : busy ? -EBUSY : -ENOMEM;
	if (!flow || busy) {
		spin_unlock_bh(&ep->lock);
		mutex_unlock(&ep->send_lock);
		kfree(m);
		return err;
	}
	ordered = req_ordered(&m->req) && wr->mode != UET_PDC_UUD;
	m->req.message_id = ordered ? flow->next_msg_id++ :
				      flow->next_other_id++;
	if (wr->op == UET_OP_ATOMIC) {
		m->flow = flow;
		flow->amo_inflight++;
	}
	list_add_tail(&m->node, &ep->sends);
	spin_unlock_bh(&ep->lock);
	if (ep->jobp)
		uet_job_count_tx(ep->jobp, m->pm.seg.count,
				 m->pm.read ? 0 : len);

	/* from here on, @m completes, and may go, at any time */
	if (wr->mode == UET_PDC_UUD) {
		ep_send_uud(ep, &key, m);
	} else {
		err = uet_pds_send_msg(ep->udev, &key, &m->pm);
		if (err)
			uet_ses_tx_done(&m->pm, m->pm.seg.count, err);
	}
	mutex_unlock(&ep->send_lock);
	return 0;
}
EXPORT_SYMBOL_NS_GPL(uet_ep_post, UET_ENGINE);
