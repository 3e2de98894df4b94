// SPDX-License-Identifier: GPL-2.0
/*
 * uet SES: endpoints, messages and completions.
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
 * Receiving: messages from one initiator endpoint to one target endpoint
 * form a flow, whichever PDCs carry them.  The messages that take
 * untagged receive buffers (sends, writes with immediate data) have
 * message IDs counting up from zero; receive buffers are bound to them in
 * message-ID order, whatever order their packets arrive in (RUD places
 * packets in any order), and they complete in that order too: what verbs
 * RC semantics need.  Tagged sends, writes and reads count their own IDs:
 * a tagged send takes the oldest receive buffer posted for its tag when
 * its first packet arrives, and completes when its last byte is placed
 * (at most UET_SES_FLOW_MSGS of them in progress per flow).  Writes and
 * reads go to and from the regions of the RI table (ri.c), every access
 * checked.
 *
 * Atomics: a fetching atomic operation is one request whose ACK brings
 * the integer's old value back, like a read's data.  It must act once
 * only, but its request may come again: the PDC resends it when the ACK
 * was lost, and sends it again under a new PSN when a later ACK covered
 * it without the value.  So the target's flow remembers the results of
 * its last UET_SES_AMO_MAX atomics by message ID and answers a repeat
 * from there; the initiator keeps at most that many in flight per flow,
 * so a result is never forgotten while its request may still come.
 *
 * Locking: an endpoint's lock protects its receive queue, its flows and
 * its list of sends; it nests inside a PDC's lock (the PDS calls in with
 * it held) and is never held while calling the PDS.  Endpoints are found
 * under RCU in the device's endpoint table.
 */
#include <linux/bitfield.h>
#include <linux/hashtable.h>
#include <linux/ip.h>
#include <linux/ipv6.h>
#include <net/ipv6.h>
#include <linux/slab.h>
#include <linux/udp.h>
#include <uapi/linux/uet.h>

#include "counters.h"
#include "job.h"
#include "mem.h"
#include "pds.h"
#include "ri.h"
#include "seg.h"
#include "ses.h"
#include "uet.h"
#include "wire.h"

/* Most messages of one flow between its next completion and its newest. */
#define UET_SES_FLOW_MSGS	UET_PDC_WND_MAX

/*
 * Entries a flow's ring of untagged messages starts with; it doubles, up
 * to UET_SES_FLOW_MSGS, as more are in progress at once.
 */
#define UET_SES_FLOW_RING_MIN	8

/*
 * Initiator endpoints one endpoint keeps receive flows for, at most.  A
 * connected QP's endpoint has one peer; an endpoint of the kernel API
 * that takes requests from anyone keeps up to this many flows (under
 * 0.5 KB each, and 8 bytes per message in progress), and refuses the
 * initiators beyond them.
 */
#define UET_SES_EP_FLOWS_MAX	64

/* Largest message: what the 32-bit buffer offset and lengths allow. */
#define UET_SES_MAX_MSG		U32_MAX

/*
 * UUD datagrams a device's endpoints hold for want of a receive buffer, at
 * most (a burst of perftest's default send queue depth, 128, on each of
 * several QPs) ...
 */
#define UET_SES_UUD_HELD_MAX	1024
/* ... each for so long: the longest period of the verbs' receive poll. */
#define UET_SES_UUD_HELD_TIME	(HZ / 10)

/**
 * struct uet_ep - an endpoint: {job, PIDonFEP} on a device
 * @udev: the device; its ib_device is referenced while the endpoint is open.
 * @job: job identifier, 24 bits.
 * @jobp: the job's object, referenced, when the control plane knows the
 *	job (the default job always): its counters count the endpoint's
 *	traffic; %NULL otherwise.
 * @pid: PIDonFEP, 12 bits.
 * @domain: its protection domain: requests reach only the regions of the
 *	RI table registered in the same domain.
 * @comp: completion callback, and ...
 * @priv: ... its argument.
 * @starved: called when it holds a UUD datagram (uet_ep_set_starved()).
 * @access: the remote operations it accepts (UET_ACCESS_*): read without
 *	the lock.
 * @rcu: frees the endpoint after readers that found it in the table.
 * @send_lock: serialises posters (uet_ep_post()).
 * @lock: protects everything below.
 * @from: whom it takes requests from, enum uet_ep_from ...
 * @peer: ... with %UET_EP_FROM_PEER, the peer's fabric address ...
 * @peer_pid: ... and PIDonFEP.
 * @key: with %UET_EP_FROM_DATAGRAMS, the key datagrams must carry.
 * @closing: no more work is accepted.
 * @recvq: posted untagged receive buffers (struct uet_rbuf), oldest first.
 * @trecvq: posted tagged receive buffers, oldest first.
 * @sends: work requests in progress (struct uet_tx_msg), oldest first.
 * @held: untagged UUD sends that found no receive buffer (struct
 *	uet_held), oldest first.
 * @rx_flows: receive flows (struct uet_rx_flow) by initiator endpoint.
 * @nr_rx_flows: entries of @rx_flows.
 * @tx_flows: send flows (struct uet_tx_flow) by target and its PID.
 */
struct uet_ep {
	struct uet_dev *udev;
	u32 job;
	struct uet_job *jobp;
	u16 pid;
	const void *domain;
	uet_comp_fn comp;
	void *priv;
	uet_starved_fn starved;
	u8 access;
	struct rcu_head rcu;
	struct mutex send_lock;	/* see above */

	spinlock_t lock;	/* see above */
	u8 from;
	struct in6_addr peer;
	u16 peer_pid;
	u32 key;
	bool closing;
	struct list_head recvq;
	struct list_head trecvq;
	struct list_head sends;
	struct list_head held;
	DECLARE_HASHTABLE(rx_flows, 4);
	unsigned int nr_rx_flows;
	DECLARE_HASHTABLE(tx_flows, 4);
};

/* A UUD send held until a receive buffer comes, or @expires. */
struct uet_held {
	struct list_head node;
	struct sk_buff *skb;
	struct uet_ses_req_info req;
	unsigned int hlen;
	struct in6_addr saddr;
	unsigned long expires;
};

/* A posted receive buffer. */
struct uet_rbuf {
	struct list_head node;
	u64 cookie;
	bool tagged;
	u64 tag;
	u64 len;
	unsigned int nsge;
	struct uet_sge sge[];
};

/**
 * struct uet_rx_msg - a message being received
 * @rb: its buffer; %NULL: refused.
 * @received: payload bytes placed (or refused) so far.
 * @total: the message's length, known once EOM arrived.
 * @eom: EOM arrived.
 * @status: 0 or why the message failed.
 * @rc: the SES return code of a write that failed.
 * @op: enum uet_op: %UET_OP_SEND, or %UET_OP_WRITE with immediate data.
 * @has_imm: @imm arrived (SOM with header data).
 * @imm: immediate data.
 * @tag: tagged: its tag, ...
 * @id: ... its message ID, ...
 * @node: ... and its entry in the flow's list.
 */
struct uet_rx_msg {
	struct uet_rbuf *rb;
	u64 received;
	u64 total;
	bool eom;
	int status;
	u8 rc;
	u8 op;
	bool has_imm;
	u32 imm;
	u64 tag;
	u16 id;
	struct list_head node;
};

/* The result of an atomic operation, kept for a repeat of its request. */
struct uet_amo_done {
	u16 id;
	bool valid;
	u64 old;
};

/*
 * Messages from one initiator endpoint, {@src, @initiator}.  Untagged
 * sends and writes with immediate data take receive buffers in message-ID
 * order (@msgs); tagged sends, writes and reads number their messages
 * apart, and tagged messages in progress are on @tagged.  The initiator
 * numbers its messages to this endpoint for its endpoint's life, across
 * the PDCs that carry them (struct uet_tx_flow), so the flow outlives the
 * PDCs too: a PDC closed when idle and opened again, under another PDCID,
 * continues the same numbering.
 */
struct uet_rx_flow {
	struct hlist_node node;
	struct in6_addr src;
	u16 initiator;
	u16 next_bind;		/* message ID the next receive buffer binds to */
	u16 next_done;		/* message ID that completes next */
	u16 ring_size;		/* entries of @msgs, a power of two */
	struct uet_rx_msg **msgs;	/* next_done..next_bind - 1, by ID */
	struct list_head tagged;
	unsigned int ntagged;	/* entries of @tagged */
	struct uet_amo_done amo[UET_SES_AMO_MAX];	/* the newest atomics */
	u8 amo_next;		/* the entry of @amo the next result takes */
};

/* Messages to one target endpoint: their IDs, in the two numberings. */
struct uet_tx_flow {
	struct hlist_node node;
	struct in6_addr dst;
	u16 dst_pid;
	u16 next_msg_id;
	u16 next_other_id;
	u8 amo_inflight;	/* atomics not completed */
};

/**
 * struct uet_tx_msg - a work request in progress
 * @pm: what the PDS sees of it: its requests, cut as they may leave.
 * @node: in the endpoint's list.
 * @ep: the endpoint.
 * @cookie: the caller's.
 * @pkts_left: requests not yet done with.
 * @status: 0, or the first error.
 * @rc: the target's SES return code with -EREMOTEIO.
 * @op: enum uet_op.
 * @flow: an atomic: the flow that counts it in flight.
 * @req: the SES header its requests start from (req_skb()).
 * @raddr: a write, read or atomic: the address in the target's region.
 * @amo: an atomic: enum uet_amo, ...
 * @compare: ... and its operands.
 * @operand: see @compare.
 * @nsge: the data (a send, a write) or where it goes (a read, an
 *	atomic): entries ...
 * @sge: ... of this list.
 */
struct uet_tx_msg {
	struct uet_pds_msg pm;
	struct list_head node;
	struct uet_ep *ep;
	struct uet_tx_flow *flow;
	u64 cookie;
	u32 pkts_left;
	int status;
	u8 rc;
	u8 op;
	struct uet_ses_req_info req;
	u64 raddr;
	u8 amo;
	u64 compare;
	u64 operand;
	unsigned int nsge;
	struct uet_sge sge[];
};

static struct uet_tx_msg *tx_msg(struct uet_pds_msg *pm)
{
	return container_of(pm, struct uet_tx_msg, pm);
}

/* Every {job, PIDonFEP} has its own index in the endpoint table. */
static_assert(UET_JOB_BITS + UET_PID_BITS <= BITS_PER_LONG);

static unsigned long ep_index(u32 job, u16 pid)
{
	return (unsigned long)job << UET_PID_BITS | pid;
}

static void ep_complete(struct uet_ep *ep, struct uet_comp *c)
{
	ep->comp(ep, c, ep->priv);
}

/* Work requests complete in posting order: report those at the head that are done. */
static void ep_complete_sends(struct uet_ep *ep)
{
	struct uet_tx_msg *m, *tmp;

	lockdep_assert_held(&ep->lock);
	list_for_each_entry_safe(m, tmp, &ep->sends, node) {
		struct uet_comp c = { .cookie = m->cookie, .status = m->status,
				      .ses_rc = m->rc, .op = m->op };

		if (m->pkts_left)
			break;
		if (m->flow)
			m->flow->amo_inflight--;
		list_del(&m->node);
		ep_complete(ep, &c);
		kfree(m);
	}
}

/**
 * uet_ses_tx_done() - the PDS is done with requests of a message
 * @pm: the message; %NULL: one nobody waits for (its endpoint closed)
 * @n: how many requests
 * @err: 0 when acknowledged, else why they never will be
 */
void uet_ses_tx_done(struct uet_pds_msg *pm, u32 n, int err)
{
	struct uet_tx_msg *m;
	struct uet_ep *ep;

	if (!pm)
		return;
	m = tx_msg(pm);
	ep = m->ep;
	spin_lock_bh(&ep->lock);
	if (err && !m->status)
		m->status = err;
	m->pkts_left -= n;
	ep_complete_sends(ep);
	spin_unlock_bh(&ep->lock);
}

/**
 * uet_ses_tx_refused() - the target refused a message
 * @pm: the message, a request of it still in flight; %NULL: nobody waits
 * @rc: the target's SES return code
 */
void uet_ses_tx_refused(struct uet_pds_msg *pm, u8 rc)
{
	struct uet_tx_msg *m;

	if (!pm)
		return;
	m = tx_msg(pm);
	spin_lock_bh(&m->ep->lock);
	if (!m->status) {
		m->status = -EREMOTEIO;
		m->rc = rc;
	}
	spin_unlock_bh(&m->ep->lock);
}

/**
 * uet_ses_read_data() - the data a read request asked for arrived
 * @pm: the read, the request still in flight; %NULL: nobody waits
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
	if (!pm)
		return true;
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
	if (err) {
		spin_lock(&m->ep->lock);
		if (!m->status)
			m->status = -EFAULT;
		spin_unlock(&m->ep->lock);
	}
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
 * Payload bytes of one packet between the endpoint's netdev and @peer:
 * what the MTU leaves after the headers the packet really has (IPv4 or
 * IPv6, UDP, PDS, SES), at most the device's setting and what a 14-bit
 * length field holds; 0: none fit.
 */
static u32 ses_max_payload(struct uet_dev *udev, const struct in6_addr *peer)
{
	unsigned int mtu = READ_ONCE(udev->ndev->mtu);
	u32 max = READ_ONCE(udev->cfg.max_payload);
	u32 hdrs = (ipv6_addr_v4mapped(peer) ? sizeof(struct iphdr) :
					       sizeof(struct ipv6hdr)) +
		   sizeof(struct udphdr) + UET_REQ_HDRS_LEN;
	u32 fit = mtu > hdrs ? mtu - hdrs : 0;

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
 * The request of message @m that carries (a read, an atomic: asks for)
 * its @len bytes at @off: SES header and payload, %UET_PDS_HEADROOM
 * before them; %NULL without memory, or if @m's memory could not be read.
 */
static struct sk_buff *req_skb(const struct uet_tx_msg *m, u32 off, u32 len,
			       gfp_t gfp)
{
	struct uet_ses_hdr_info h = { .next_hdr = UET_SES_NH_REQ_STD,
				      .req = m->req };
	bool amo = m->op == UET_OP_ATOMIC;
	u32 plen = m->pm.read ? 0 : len;
	struct uet_ses_req_info *req = &h.req;
	struct sk_buff *skb;

	req->flags |= (off ? 0 : UET_SES_F_SOM) |
		      (off + len == m->pm.seg.len ? UET_SES_F_EOM : 0);
	req->buffer_offset = (m->op == UET_OP_SEND ? 0 : m->raddr) + off;
	req->payload_length = plen;
	req->message_offset = off;
	req->request_length = m->pm.read ? len : m->pm.seg.len;

	skb = alloc_skb(UET_PDS_HEADROOM + sizeof(struct uet_ses_std) +
			(amo ? sizeof(struct uet_ses_amo_cas) : plen), gfp);
	if (!skb)
		return NULL;
	skb_reserve(skb, UET_PDS_HEADROOM);
	if (uet_ses_build(skb_put(skb, sizeof(struct uet_ses_std)),
			  sizeof(struct uet_ses_std), &h) < 0 ||
	    (amo ? amo_put(skb, m) :
	     uet_sgl_copy(m->sge, m->nsge, off, skb_put(skb, plen), plen,
			  false))) {
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
 *
 * Context: any; the caller holds the message's PDC locked.
 * Return: the request, SES header and payload, %UET_PDS_HEADROOM before
 * them; %NULL without memory.
 */
struct sk_buff *uet_ses_build_req(struct uet_pds_msg *pm, u32 off, u32 len)
{
	return req_skb(tx_msg(pm), off, len, GFP_ATOMIC);
}

/*
 * UUD: the one request of @m built now and handed to the network; the
 * message fails (its completion says so) if it cannot be built.
 */
static void ep_send_uud(struct uet_ep *ep, const struct uet_pds_key *key,
			struct uet_tx_msg *m)
{
	struct uet_pds_cb *cb;
	struct sk_buff *skb;
	int err;

	skb = req_skb(m, 0, m->pm.seg.len, GFP_KERNEL_ACCOUNT);
	if (!skb) {
		uet_ses_tx_done(&m->pm, 1, -ENOMEM);
		return;
	}
	cb = uet_pds_cb(skb);
	memset(cb, 0, sizeof(*cb));
	cb->next_hdr = UET_SES_NH_REQ_STD;
	cb->ses = &m->pm;
	err = uet_pds_send(ep->udev, key, skb);
	if (err)
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
				   .mode = wr->mode };
	u32 max = ses_max_payload(ep->udev, &wr->dst);
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
	m->ep = ep;
	m->cookie = wr->cookie;
	m->op = wr->op;
	m->raddr = wr->raddr;
	m->amo = wr->amo;
	m->compare = wr->compare;
	m->operand = wr->operand;
	m->nsge = wr->nsge;
	memcpy(m->sge, wr->sge, wr->nsge * sizeof(*wr->sge));
	uet_seg_init(&m->pm.seg, len, max);
	m->pm.read = wr->op == UET_OP_READ || wr->op == UET_OP_ATOMIC;
	m->pkts_left = m->pm.seg.count;

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

/* Receiving. */

/*
 * The flow of messages from the initiator endpoint {@src, @initiator},
 * created on its first request unless the endpoint has
 * UET_SES_EP_FLOWS_MAX already; %NULL then or without memory, a drop
 * counted in drop_flow_limit.
 */
static struct uet_rx_flow *rx_flow(struct uet_ep *ep, const struct in6_addr *src,
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

/* The oldest receive buffer of @q that takes @tag (untagged: any). */
static struct uet_rbuf *rbuf_take(struct list_head *q, bool tagged, u64 tag)
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

/*
 * The message @id of @f, binding receive buffers to every message up to it
 * first, in ID order.  A message that finds no buffer is refused whole.
 * %NULL: @id is not within the flow's range, or no memory.
 */
static struct uet_rx_msg *rx_msg(struct uet_ep *ep, struct uet_rx_flow *f, u16 id)
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
		m->rb = rbuf_take(&ep->recvq, false, 0);
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
	m->rb = rbuf_take(&ep->trecvq, true, req->match_bits);
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

static void rx_report(struct uet_ep *ep, struct uet_pds_pdc *pdc,
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
		.src = pdc->key.raddr,
		.src_pid = f->initiator,
	};

	if (!m->rb)
		return;		/* refused: the initiator was told */
	c.cookie = m->rb->cookie;
	ep_complete(ep, &c);
	kfree(m->rb);
}

/* Ordered receives complete in message order: report those done at the head. */
static void rx_complete(struct uet_ep *ep, struct uet_pds_pdc *pdc,
			struct uet_rx_flow *f)
{
	struct uet_rx_msg *m;

	while (f->next_done != f->next_bind &&
	       rx_msg_done(m = *rx_slot(f, f->next_done))) {
		rx_report(ep, pdc, f, m);
		*rx_slot(f, f->next_done) = NULL;
		f->next_done++;
		kfree(m);
	}
}

/* May @ep's peers do @access to its regions?  A refusal is a counted drop. */
static u8 ep_allows(struct uet_ep *ep, u32 access)
{
	if (READ_ONCE(ep->access) & access)
		return UET_SES_RC_OK;
	uet_count(ep->udev, UET_CNT_DROP_ACCESS, 1);
	return UET_SES_RC_PERM_VIOLATION;
}

/*
 * Place a write's payload into the region its key names.  Every packet
 * checks the whole message's range (the request length is the message's,
 * the message offset says where the packet sits in it), so a write that
 * does not fit writes nothing, whichever packet arrives first.
 */
static u8 rx_write(struct uet_ep *ep, const struct uet_ses_req_info *req,
		   struct sk_buff *skb, unsigned int hlen, u32 len)
{
	u64 start = req->buffer_offset - req->message_offset;
	const struct uet_mem *mem;
	u8 rc;

	if (req->buffer_offset < req->message_offset ||
	    (u64)req->message_offset + len > req->request_length) {
		uet_count(ep->udev, UET_CNT_DROP_BOUNDS, 1);
		return UET_SES_RC_AT_OUT_OF_RANGE;
	}
	rc = ep_allows(ep, UET_ACCESS_REMOTE_WRITE);
	if (rc == UET_SES_RC_OK)
		rc = uet_ri_check(ep->udev, req, ep->domain,
				  UET_ACCESS_REMOTE_WRITE, start,
				  req->request_length, &mem);
	if (rc == UET_SES_RC_OK &&
	    uet_mem_copy_skb(mem, req->buffer_offset, skb, hlen, len))
		rc = UET_SES_RC_UNCOR;
	return rc;
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
			rc = rx_write(ep, req, skb, hlen, len);
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
 * An skb holding the SES response @rsp, @hlen bytes, with room for the PDS
 * header in front and for @data bytes after it; %NULL without memory.
 */
static struct sk_buff *rsp_skb(const struct uet_ses_hdr_info *rsp,
			       unsigned int hlen, u32 data)
{
	struct sk_buff *skb;

	skb = alloc_skb(UET_PDS_HEADROOM + UET_PDS_MAX_HDR_LEN + hlen + data,
			GFP_ATOMIC);
	if (!skb)
		return NULL;
	skb_reserve(skb, UET_PDS_HEADROOM + UET_PDS_MAX_HDR_LEN);
	if (WARN_ON_ONCE(uet_ses_build(skb_put(skb, hlen), hlen, rsp) < 0)) {
		kfree_skb(skb);
		return NULL;
	}
	return skb;
}

/*
 * The SES response with data that answers @req with @len bytes, in an skb
 * with room for the PDS header in front; the caller appends the data.
 */
static struct sk_buff *rsp_data(const struct uet_ses_req_info *req, u32 len)
{
	struct uet_ses_hdr_info rsp = {
		.next_hdr = UET_SES_NH_RSP_DATA,
		.rsp = {
			.opcode = UET_SES_RSP_WITH_DATA,
			.rc = UET_SES_RC_OK,
			.message_id = req->message_id,
			.read_req_message_id = req->message_id,
			.job_id = req->job_id,
			.modified_length = len,
			.payload_length = len,
			.message_offset = req->flags & UET_SES_F_SOM ? 0 :
					  req->message_offset,
		},
	};

	return rsp_skb(&rsp, sizeof(struct uet_ses_rsp_data), len);
}

/*
 * A read: the ACK of this request carries the data back, in an SES
 * response with data built here.
 */
static u8 rx_read(struct uet_ep *ep, const struct in6_addr *peer,
		  const struct uet_ses_req_info *req, struct uet_ses_answer *ans)
{
	u32 len = req->request_length;
	const struct uet_mem *mem;
	struct sk_buff *skb;
	u8 rc;

	if (len > ses_max_payload(ep->udev, peer))
		return UET_SES_RC_UNSUPPORTED_SIZE;
	rc = ep_allows(ep, UET_ACCESS_REMOTE_READ);
	if (rc == UET_SES_RC_OK)
		rc = uet_ri_check(ep->udev, req, ep->domain,
				  UET_ACCESS_REMOTE_READ,
				  req->buffer_offset, len, &mem);
	if (rc != UET_SES_RC_OK)
		return rc;
	skb = rsp_data(req, len);
	if (!skb)
		return UET_SES_RC_NO_MATCH;	/* try again later */
	if (uet_mem_copy(mem, req->buffer_offset, skb_put(skb, len), len,
			 false)) {
		kfree_skb(skb);
		return UET_SES_RC_UNCOR;
	}
	ans->data = skb;
	return UET_SES_RC_OK;
}

/* Check an atomic's extension header and operands; a refusal is counted. */
static u8 amo_check(struct uet_ep *ep, const struct uet_ses_req_info *req,
		    const struct sk_buff *skb, unsigned int hlen,
		    struct uet_ses_amo_info *amo, u64 *compare, u64 *operand)
{
	u8 buf[sizeof(struct uet_ses_amo_cas)];
	unsigned int len = skb->len - hlen;
	const u8 *p;
	__le64 v;
	int alen;
	u8 rc;

	p = skb_header_pointer(skb, hlen, min_t(unsigned int, len, sizeof(buf)),
			       buf);
	alen = p ? uet_ses_amo_parse(p, min_t(unsigned int, len, sizeof(buf)),
				     amo) : -EMSGSIZE;
	if (alen < 0) {
		uet_count(ep->udev, UET_CNT_DROP_MALFORMED, 1);
		return UET_SES_RC_AMO_UNSUPPORTED_OP;
	}
	if (amo->opcode != UET_AMO_SUM && amo->opcode != UET_AMO_CSWAP)
		rc = UET_SES_RC_AMO_UNSUPPORTED_OP;
	else if (amo->datatype != UET_AMO_DT_UINT64 &&
		 amo->datatype != UET_AMO_DT_INT64)
		rc = UET_SES_RC_AMO_UNSUPPORTED_DT;
	else if (req->request_length != UET_AMO_SIZE ||
		 len - alen != (amo->opcode == UET_AMO_CSWAP ? 0 : UET_AMO_SIZE))
		rc = UET_SES_RC_AMO_UNSUPPORTED_SIZE;
	else if (!IS_ALIGNED(req->buffer_offset, UET_AMO_SIZE))
		rc = UET_SES_RC_AMO_UNALIGNED;
	else
		rc = ep_allows(ep, UET_ACCESS_REMOTE_ATOMIC);
	if (rc != UET_SES_RC_OK) {
		if (rc != UET_SES_RC_PERM_VIOLATION)
			uet_count(ep->udev, UET_CNT_DROP_UNSUPPORTED, 1);
		return rc;
	}
	if (amo->opcode == UET_AMO_CSWAP) {
		memcpy(&v, amo->compare, sizeof(v));
		*compare = le64_to_cpu(v);
		memcpy(&v, amo->swap, sizeof(v));
	} else if (skb_copy_bits(skb, hlen + alen, &v, sizeof(v))) {
		return UET_SES_RC_AMO_UNSUPPORTED_SIZE;
	}
	*operand = le64_to_cpu(v);
	return UET_SES_RC_OK;
}

/* Carry out an atomic on the 64-bit integer at @off of @mem; the old value. */
static u64 amo_apply(struct uet_dev *udev, const struct uet_mem *mem, u64 off,
		     u8 op, u64 compare, u64 operand, u8 *rc)
{
	u64 old = 0, new;

	spin_lock(&udev->ri.amo_lock);
	if (uet_mem_copy(mem, off, &old, sizeof(old), false)) {
		*rc = UET_SES_RC_UNCOR;
	} else {
		new = op == UET_AMO_SUM ? old + operand :
		      old == compare ? operand : old;
		if (uet_mem_copy(mem, off, &new, sizeof(new), true))
			*rc = UET_SES_RC_UNCOR;
	}
	spin_unlock(&udev->ri.amo_lock);
	return old;
}

/*
 * A fetching atomic: carried out once, its result kept in the flow for a
 * repeat of the request (see the top of this file); the old value goes
 * back in the ACK, little-endian, like a read's data.  @dup: the PDC has
 * seen this very packet before, so it must not act again.
 */
static u8 rx_atomic(struct uet_ep *ep, struct uet_pds_pdc *pdc,
		    const struct uet_ses_req_info *req, struct sk_buff *skb,
		    unsigned int hlen, bool dup, struct uet_ses_answer *ans)
{
	struct uet_amo_done *done = NULL;
	struct uet_ses_amo_info amo;
	u64 compare = 0, operand, old;
	const struct uet_mem *mem;
	struct uet_rx_flow *f;
	struct sk_buff *rsp;
	unsigned int i;
	__le64 v;
	u8 rc;

	rc = amo_check(ep, req, skb, hlen, &amo, &compare, &operand);
	if (rc != UET_SES_RC_OK)
		return rc;
	spin_lock(&ep->lock);
	f = ep->closing ? NULL : rx_flow(ep, &pdc->key.raddr, req->initiator);
	rc = ep->closing ? UET_SES_RC_CANCELLED : UET_SES_RC_NO_MATCH;
	if (!f)
		goto out;
	for (i = 0; i < UET_SES_AMO_MAX; i++)
		if (f->amo[i].valid && f->amo[i].id == req->message_id)
			done = &f->amo[i];
	if (!done) {
		rc = UET_SES_RC_UNCOR;	/* forgotten: it cannot act twice */
		if (dup)
			goto out;
		rc = uet_ri_check(ep->udev, req, ep->domain,
				  UET_ACCESS_REMOTE_ATOMIC,
				  req->buffer_offset, UET_AMO_SIZE, &mem);
		if (rc != UET_SES_RC_OK)
			goto out;
		old = amo_apply(ep->udev, mem, req->buffer_offset, amo.opcode,
				compare, operand, &rc);
		if (rc != UET_SES_RC_OK)
			goto out;
		done = &f->amo[f->amo_next];
		f->amo_next = (f->amo_next + 1) % UET_SES_AMO_MAX;
		*done = (struct uet_amo_done) {
			.id = req->message_id, .valid = true, .old = old,
		};
	}
	rc = UET_SES_RC_OK;
	v = cpu_to_le64(done->old);
out:
	spin_unlock(&ep->lock);
	if (rc != UET_SES_RC_OK)
		return rc;
	/* without the value, the initiator asks again and finds it kept */
	rsp = rsp_data(req, sizeof(v));
	if (rsp) {
		skb_put_data(rsp, &v, sizeof(v));
		ans->data = rsp;
	}
	return UET_SES_RC_OK;
}

static u8 ep_rcv(struct uet_ep *ep, struct uet_pds_pdc *pdc,
		 const struct uet_ses_req_info *req, struct sk_buff *skb,
		 unsigned int hlen, bool dup, struct uet_ses_answer *ans)
{
	u32 len = skb->len - hlen;
	struct uet_rx_flow *f;
	struct uet_rx_msg *m;
	u8 rc;

	if (req->opcode == UET_SES_READ)
		return rx_read(ep, &pdc->key.raddr, req, ans);
	if (req->opcode == UET_SES_FETCHING_ATOMIC)
		return rx_atomic(ep, pdc, req, skb, hlen, dup, ans);
	if (req->opcode == UET_SES_WRITE && !(req->flags & UET_SES_F_HD))
		return rx_write(ep, req, skb, hlen, len);

	spin_lock(&ep->lock);
	if (ep->closing) {
		rc = UET_SES_RC_CANCELLED;
		goto out;
	}
	rc = UET_SES_RC_NO_MATCH;
	/* without a flow, rx_flow() counted the drop */
	f = rx_flow(ep, &pdc->key.raddr, req->initiator);
	if (!f)
		goto out;
	if (req->opcode == UET_SES_TAGGED_SEND)
		m = rx_tagged_msg(ep, f, req);
	else
		m = rx_msg(ep, f, req->message_id);
	if (!m) {
		uet_count(ep->udev, UET_CNT_DROP_NO_RECV_BUFFER, 1);
		goto out;
	}
	rc = rx_place(ep, m, req, skb, hlen, len);
	if (req->opcode != UET_SES_TAGGED_SEND) {
		rx_complete(ep, pdc, f);
	} else if (rx_msg_done(m)) {
		rx_report(ep, pdc, f, m);
		list_del(&m->node);
		f->ntagged--;
		kfree(m);
	}
out:
	spin_unlock(&ep->lock);
	return rc;
}

/* A request for @ep arrived: its job counts it, delivered or refused. */
static void ep_count_rx(struct uet_ep *ep, u8 rc, u32 len)
{
	if (!ep->jobp)
		return;
	if (rc == UET_SES_RC_OK)
		uet_job_count_rx(ep->jobp, len);
	else
		uet_job_count_error(ep->jobp);
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
		*rc = UET_SES_RC_NO_MATCH;
		break;
	}
	spin_unlock(&ep->lock);
	if (!ok)
		uet_count(ep->udev, UET_CNT_DROP_NOT_PEER, 1);
	return ok;
}

/* The endpoint a request names, under rcu_read_lock(); a counted drop if none. */
static struct uet_ep *ep_find(struct uet_dev *udev,
			      const struct uet_ses_req_info *req)
{
	struct uet_ep *ep;

	ep = xa_load(&udev->eps, ep_index(req->job_id, req->pid_on_fep));
	if (!ep)
		uet_count(udev, UET_CNT_DROP_NO_ENDPOINT, 1);
	return ep;
}

/*
 * A UUD send into the oldest matching buffer, complete or not at all;
 * false if none is posted.
 */
static bool uud_deliver(struct uet_ep *ep, const struct uet_ses_req_info *req,
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
	rb = rbuf_take(tagged ? &ep->trecvq : &ep->recvq, tagged, req->match_bits);
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
	ep_count_rx(ep, c.status ? UET_SES_RC_TOO_LONG : UET_SES_RC_OK, len);
	return true;
}

static void uud_drop(struct uet_ep *ep, u32 len)
{
	uet_count(ep->udev, UET_CNT_DROP_NO_RECV_BUFFER, 1);
	ep_count_rx(ep, UET_SES_RC_NO_MATCH, len);
}

/*
 * Hold an untagged UUD send for the next receive buffer, if the owner
 * asked for that and the device holds fewer than UET_SES_UUD_HELD_MAX.
 */
static bool uud_hold(struct uet_ep *ep, const struct uet_ses_req_info *req,
		     struct sk_buff *skb, unsigned int hlen,
		     const struct in6_addr *saddr)
{
	struct uet_held *h;

	lockdep_assert_held(&ep->lock);
	if (!ep->starved || ep->closing || req->opcode != UET_SES_SEND)
		return false;
	if (atomic_inc_return(&ep->udev->uud_held) > UET_SES_UUD_HELD_MAX)
		goto full;
	h = kmalloc(sizeof(*h), GFP_ATOMIC);
	if (!h)
		goto full;
	h->skb = skb_clone(skb, GFP_ATOMIC);
	if (!h->skb) {
		kfree(h);
		goto full;
	}
	/* kept past the RCU section its route may only be valid in */
	skb_dst_drop(h->skb);
	h->req = *req;
	h->hlen = hlen;
	h->saddr = *saddr;
	h->expires = jiffies + UET_SES_UUD_HELD_TIME;
	list_add_tail(&h->node, &ep->held);
	return true;
full:
	atomic_dec(&ep->udev->uud_held);
	return false;
}

/*
 * Hand the held sends to the buffers posted since, in arrival order; drop
 * those that waited too long, and all of them when the endpoint closes.
 */
static void uud_flush_held(struct uet_ep *ep)
{
	struct uet_held *h, *tmp;

	lockdep_assert_held(&ep->lock);
	list_for_each_entry_safe(h, tmp, &ep->held, node) {
		if (ep->closing || time_after(jiffies, h->expires))
			uud_drop(ep, h->skb->len - h->hlen);
		else if (!uud_deliver(ep, &h->req, h->skb, h->hlen, &h->saddr))
			break;
		list_del(&h->node);
		atomic_dec(&ep->udev->uud_held);
		consume_skb(h->skb);
		kfree(h);
	}
}

/*
 * A UUD send: the oldest matching buffer takes it; with none, the endpoint
 * holds it a while if its owner asked for that, else drops it.
 */
static void ep_rcv_uud(struct uet_ep *ep, const struct uet_ses_req_info *req,
		       struct sk_buff *skb, unsigned int hlen,
		       const struct in6_addr *saddr)
{
	bool tagged = req->opcode == UET_SES_TAGGED_SEND;
	uet_starved_fn starved = NULL;

	spin_lock(&ep->lock);
	uud_flush_held(ep);
	/* untagged sends take buffers in arrival order: none past the held */
	if (ep->closing || (!tagged && !list_empty(&ep->held)) ||
	    !uud_deliver(ep, req, skb, hlen, saddr)) {
		if (uud_hold(ep, req, skb, hlen, saddr))
			starved = ep->starved;
		else
			uud_drop(ep, skb->len - hlen);
	}
	spin_unlock(&ep->lock);
	if (starved)
		starved(ep, ep->priv);
}

/**
 * uet_ses_rcv_uud() - a UUD request, in softirq
 * @udev: the device it arrived on
 * @skb: the packet from its SES header on
 * @next_hdr: which SES header that is
 * @saddr: the initiator's address
 *
 * Nothing answers: whatever cannot be delivered is a counted drop.
 */
void uet_ses_rcv_uud(struct uet_dev *udev, struct sk_buff *skb, u8 next_hdr,
		     const struct in6_addr *saddr)
{
	struct uet_ses_hdr_info h;
	struct uet_ep *ep;
	int hlen;
	u8 rc;

	hlen = uet_ses_parse_skb(udev, skb, next_hdr, &h);
	if (hlen < 0)
		return;
	if (next_hdr != UET_SES_NH_REQ_STD ||
	    (h.req.flags & (UET_SES_F_SOM | UET_SES_F_EOM)) !=
	    (UET_SES_F_SOM | UET_SES_F_EOM) ||
	    (h.req.opcode != UET_SES_SEND && h.req.opcode != UET_SES_TAGGED_SEND)) {
		uet_count(udev, UET_CNT_DROP_UNSUPPORTED, 1);
		return;
	}
	rcu_read_lock();
	ep = ep_find(udev, &h.req);
	if (ep && ep_admits(ep, saddr, &h.req, true, &rc))
		ep_rcv_uud(ep, &h.req, skb, hlen, saddr);
	else if (ep)
		ep_count_rx(ep, rc, skb->len - hlen);
	rcu_read_unlock();
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

/**
 * uet_ses_rcv_rudi() - a RUDI request, in softirq
 * @udev: the device it arrived on
 * @skb: the packet from its SES header on
 * @next_hdr: which SES header that is
 * @saddr: the initiator's address
 * @ans: filled in: the message ID and job for the response, a read's data
 *
 * Only idempotent operations ride RUDI: writes without immediate data and
 * reads, carried out every time a request arrives.
 *
 * Return: the SES return code for the response.
 */
u8 uet_ses_rcv_rudi(struct uet_dev *udev, struct sk_buff *skb, u8 next_hdr,
		    const struct in6_addr *saddr, struct uet_ses_answer *ans)
{
	struct uet_ses_hdr_info h;
	struct uet_ep *ep;
	int hlen;
	u8 rc;

	hlen = uet_ses_parse_skb(udev, skb, next_hdr, &h);
	if (hlen < 0)
		return UET_SES_RC_UNSUPPORTED_OP;
	ans->msg_id = h.req.message_id;
	ans->job = h.req.job_id;
	if (next_hdr != UET_SES_NH_REQ_STD ||
	    (h.req.opcode != UET_SES_WRITE && h.req.opcode != UET_SES_READ) ||
	    h.req.flags & UET_SES_F_HD ||
	    (h.req.opcode == UET_SES_READ && skb->len != hlen)) {
		uet_count(udev, UET_CNT_DROP_UNSUPPORTED, 1);
		return UET_SES_RC_UNSUPPORTED_OP;
	}
	rcu_read_lock();
	ep = ep_find(udev, &h.req);
	if (!ep)
		rc = UET_SES_RC_BAD_PID;
	else if (!ep_admits(ep, saddr, &h.req, false, &rc))
		;
	else if (h.req.opcode == UET_SES_READ)
		rc = rx_read(ep, saddr, &h.req, ans);
	else
		rc = rx_write(ep, &h.req, skb, hlen, skb->len - hlen);
	if (ep)
		ep_count_rx(ep, rc, skb->len - hlen);
	rcu_read_unlock();
	return rc;
}

/**
 * uet_ses_response() - an SES response without data
 * @udev: the device that sends it
 * @rc: the return code
 * @msg_id: the request's message ID
 * @job: the request's job
 *
 * Return: an skb holding the response with room for a PDS header in front,
 * or %NULL.
 */
struct sk_buff *uet_ses_response(struct uet_dev *udev, u8 rc, u16 msg_id,
				 u32 job)
{
	struct uet_ses_hdr_info rsp = {
		.next_hdr = UET_SES_NH_RSP,
		.rsp = {
			.opcode = UET_SES_RSP_DEFAULT,
			.rc = rc,
			.message_id = msg_id,
			.job_id = job,
		},
	};

	return rsp_skb(&rsp, sizeof(struct uet_ses_rsp), 0);
}

/**
 * uet_ses_rcv() - a request packet the PDS delivers, in softirq
 * @pdc: its PDC, locked
 * @skb: the packet from its SES header on
 * @hlen: what uet_ses_parse_skb() returned for it ...
 * @h: ... and the header it parsed
 * @dup: the PDC has seen this packet before: a read acts again (its
 *	answer was lost), an atomic answers from what it kept, anything else
 *	was placed already
 * @ans: filled in: the message ID for the response, and a read's data
 *
 * Return: the SES return code for the response, %UET_SES_RC_OK when the
 * request was carried out.
 */
u8 uet_ses_rcv(struct uet_pds_pdc *pdc, struct sk_buff *skb, int hlen,
	       const struct uet_ses_hdr_info *h, bool dup,
	       struct uet_ses_answer *ans)
{
	const struct uet_ses_req_info *req = &h->req;
	struct uet_dev *udev = pdc->udev;
	struct uet_ep *ep;
	u8 rc;

	if (hlen < 0)
		return UET_SES_RC_UNSUPPORTED_OP;
	ans->msg_id = req->message_id;
	if (dup && req->opcode != UET_SES_READ &&
	    req->opcode != UET_SES_FETCHING_ATOMIC)
		return UET_SES_RC_OK;
	if (h->next_hdr != UET_SES_NH_REQ_STD ||
	    (req->opcode != UET_SES_SEND && req->opcode != UET_SES_TAGGED_SEND &&
	     req->opcode != UET_SES_WRITE && req->opcode != UET_SES_READ &&
	     req->opcode != UET_SES_FETCHING_ATOMIC) ||
	    (req->opcode == UET_SES_READ && skb->len != hlen)) {
		uet_count(udev, UET_CNT_DROP_UNSUPPORTED, 1);
		return UET_SES_RC_UNSUPPORTED_OP;
	}

	rcu_read_lock();
	ep = ep_find(udev, req);
	if (ep) {
		if (ep_admits(ep, &pdc->key.raddr, req, false, &rc))
			rc = ep_rcv(ep, pdc, req, skb, hlen, dup, ans);
		ep_count_rx(ep, rc, skb->len - hlen);
	} else {
		rc = UET_SES_RC_BAD_PID;
	}
	rcu_read_unlock();
	return rc;
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
	struct uet_rbuf *rb;
	unsigned int i;
	int err = 0;

	if (rv->nsge > UET_MAX_SGE || (rv->nsge && !rv->sge))
		return -EINVAL;
	for (i = 0; i < rv->nsge; i++)
		if (!uet_mem_contains(rv->sge[i].mem, rv->sge[i].addr,
				      rv->sge[i].len))
			return -EINVAL;
	rb = kzalloc(struct_size(rb, sge, rv->nsge), GFP_KERNEL_ACCOUNT);
	if (!rb)
		return -ENOMEM;
	rb->cookie = rv->cookie;
	rb->tagged = rv->tagged;
	rb->tag = rv->tag;
	rb->nsge = rv->nsge;
	memcpy(rb->sge, rv->sge, rv->nsge * sizeof(*rv->sge));
	rb->len = uet_sgl_len(rb->sge, rb->nsge);
	spin_lock_bh(&ep->lock);
	if (ep->closing) {
		err = -ESHUTDOWN;
	} else {
		list_add_tail(&rb->node, rb->tagged ? &ep->trecvq : &ep->recvq);
		uud_flush_held(ep);
	}
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
	mutex_init(&ep->send_lock);
	spin_lock_init(&ep->lock);
	INIT_LIST_HEAD(&ep->recvq);
	INIT_LIST_HEAD(&ep->trecvq);
	INIT_LIST_HEAD(&ep->sends);
	INIT_LIST_HEAD(&ep->held);
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
 * uet_ep_set_starved() - hold datagrams that find no receive buffer
 * @ep: the endpoint
 * @starved: called (softirq, the endpoint unlocked) each time it holds one
 *
 * A UUD send that finds no receive buffer is dropped, unless its endpoint
 * has a @starved callback: then the endpoint holds it (untagged sends
 * only, UET_SES_UUD_HELD_TIME at most, the device UET_SES_UUD_HELD_MAX of
 * them at most) and gives it to the next buffer posted, in arrival order,
 * while @starved tells the owner to post some.  For owners whose
 * buffers reach the endpoint later than the user posted them (the verbs'
 * receive queues in user memory).
 */
void uet_ep_set_starved(struct uet_ep *ep, uet_starved_fn starved)
{
	spin_lock_bh(&ep->lock);
	ep->starved = starved;
	spin_unlock_bh(&ep->lock);
}
EXPORT_SYMBOL_NS_GPL(uet_ep_set_starved, UET_ENGINE);

/**
 * uet_ep_expire_held() - drop the held datagrams that waited too long
 * @ep: the endpoint
 *
 * Held datagrams expire as the next one arrives or a buffer is posted;
 * an owner that holds them (uet_ep_set_starved()) calls this now and
 * then, so that they are counted as dropped when they are.
 *
 * Return: whether the endpoint still holds some.
 */
bool uet_ep_expire_held(struct uet_ep *ep)
{
	bool held;

	spin_lock_bh(&ep->lock);
	uud_flush_held(ep);
	held = !list_empty(&ep->held);
	spin_unlock_bh(&ep->lock);
	return held;
}
EXPORT_SYMBOL_NS_GPL(uet_ep_expire_held, UET_ENGINE);

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

/* uet_pds_orphan() and uet_rudi_orphan() test: a message of @ep's. */
static bool ep_owns_msg(struct uet_pds_msg *pm, void *ep)
{
	return tx_msg(pm)->ep == ep;
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
 * of those messages is dropped.
 * Messages half received are dropped.  No completion follows the return.
 */
void uet_ep_close(struct uet_ep *ep)
{
	struct uet_dev *udev = ep->udev;
	struct uet_tx_msg *m, *mtmp;

	xa_erase_bh(&udev->eps, ep_index(ep->job, ep->pid));
	synchronize_rcu();	/* no packet reaches @ep any more */

	mutex_lock(&ep->send_lock);	/* and no request is half queued */
	spin_lock_bh(&ep->lock);
	ep->closing = true;
	uud_flush_held(ep);
	spin_unlock_bh(&ep->lock);
	mutex_unlock(&ep->send_lock);

	/* After this, no PDC calls back about @ep's messages. */
	uet_pds_orphan(udev, ep_owns_msg, ep);
	uet_rudi_orphan(udev, ep_owns_msg, ep);
	list_for_each_entry_safe(m, mtmp, &ep->sends, node) {
		struct uet_comp c = { .cookie = m->cookie, .status = -ECANCELED,
				      .op = m->op };

		list_del(&m->node);
		ep_complete(ep, &c);
		kfree(m);
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
