/* SPDX-License-Identifier: GPL-2.0 */
/*
 * uet SES internals, shared by its files: ses.c (endpoints), ses_tx.c (the
 * initiator), ses_rx.c (the target) and ses_rma.c (the target's writes,
 * reads and atomics, and the responses).  Nothing outside them includes
 * this.
 */
#ifndef _UET_SES_PRIV_H
#define _UET_SES_PRIV_H

#include <linux/bitfield.h>
#include <linux/hashtable.h>
#include <linux/ip.h>
#include <linux/ipv6.h>
#include <net/ipv6.h>
#include <linux/refcount.h>
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
 * @get_rbuf: the owner's receive buffers, taken when @recvq has none
 *	(uet_ep_set_rbuf()); %NULL: none.
 * @access: the remote operations it accepts (UET_ACCESS_*): read without
 *	the lock.
 * @rcu: frees the endpoint after readers that found it in the table.
 * @users: the open endpoint's own reference, and one per request being
 *	delivered to it (ep_find(), ep_put()): uet_ep_close() waits for
 *	those, not for a grace period.
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
	uet_rbuf_fn get_rbuf;
	u8 access;
	struct rcu_head rcu;
	refcount_t users;
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
	DECLARE_HASHTABLE(rx_flows, 4);
	unsigned int nr_rx_flows;
	DECLARE_HASHTABLE(tx_flows, 4);
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
 * struct tx_snap - payload of a cancelled message that may be resent
 * @off: where it starts in the message ...
 * @len: ... how many bytes ...
 * @data: ... and they.
 */
struct tx_snap {
	u64 off;
	u32 len;
	u8 data[];
};

/**
 * struct uet_tx_msg - a work request in progress
 * @pm: what the PDS sees of it: its requests, cut as they may leave.
 * @node: in the endpoint's list, until completed.
 * @ep: the endpoint; %NULL once it closed and cancelled the request
 *	(RCU: freed after a grace period; changed under its lock).
 * @cookie: the caller's.
 * @pkts_left: requests the PDS is not yet done with: while @ep is set,
 *	changed under its lock; after, the last to take it to 0 frees
 *	(uet_ep_close() holds one more while it cancels).
 * @snap: once its endpoint closed, a copy of the payload of what it may
 *	still have to send again (struct tx_snap), published with
 *	smp_store_release(); ERR_PTR() if none could be made.
 * @resend: once its endpoint closed: the PDS may send requests of it
 *	again (uet_pds_cancel()).
 * @status: 0, or the first error.
 * @rc: the target's SES return code with -EREMOTEIO.
 * @op: enum uet_op.
 * @rnr_left: how many more times a request the target had no buffer for
 *	may go again (uet_ses_tx_rnr()); %UET_RNR_RETRY_INFINITE: always.
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
	struct uet_ep __rcu *ep;
	struct uet_tx_flow *flow;
	u64 cookie;
	atomic_t pkts_left;
	struct tx_snap *snap;
	bool resend;
	int status;
	u8 rc;
	u8 op;
	u8 rnr_left;
	struct uet_ses_req_info req;
	u64 raddr;
	u8 amo;
	u64 compare;
	u64 operand;
	unsigned int nsge;
	struct uet_sge sge[];
};

static inline struct uet_tx_msg *tx_msg(struct uet_pds_msg *pm)
{
	return container_of(pm, struct uet_tx_msg, pm);
}

/* Every {job, PIDonFEP} has its own index in the endpoint table. */
static_assert(UET_JOB_BITS + UET_PID_BITS <= BITS_PER_LONG);

static inline unsigned long ep_index(u32 job, u16 pid)
{
	return (unsigned long)job << UET_PID_BITS | pid;
}

static inline void ep_complete(struct uet_ep *ep, struct uet_comp *c)
{
	ep->comp(ep, c, ep->priv);
}

/* ses_tx.c */
void ep_cancel_sends(struct uet_ep *ep, struct list_head *sends);
void tx_msg_put(struct uet_tx_msg *m);

/* ses.c */
struct uet_rx_flow *ses_rx_flow(struct uet_ep *ep, const struct in6_addr *src,
				u16 initiator);
struct uet_rbuf *ses_rbuf_take(struct list_head *q, bool tagged, u64 tag);
struct uet_rbuf *ses_rbuf_next(struct uet_ep *ep);
void ses_count_rx(struct uet_ep *ep, u8 rc, u32 len);
bool ses_uud_deliver(struct uet_ep *ep, const struct uet_ses_req_info *req,
		     struct sk_buff *skb, unsigned int hlen,
		     const struct in6_addr *saddr);
void ses_uud_drop(struct uet_ep *ep, u32 len);

/* ses_tx.c */
u32 ses_max_payload(struct uet_ep *ep, const struct in6_addr *peer);

/* The traffic class of @ep's data: its job's, or 0 in a job unknown. */
static inline u8 ses_ep_tc(const struct uet_ep *ep)
{
	return ep->jobp ? ep->jobp->cfg.tc : 0;
}

/* ... and its congestion control (struct uet_pds_key's @cc). */
static inline u8 ses_ep_cc(const struct uet_ep *ep)
{
	return ep->jobp ? ep->jobp->cfg.cc : UET_PDS_CC_DEVICE;
}

/* ... and its load balancing (struct uet_pds_key's @lb). */
static inline u8 ses_ep_lb(const struct uet_ep *ep)
{
	return ep->jobp ? uet_pds_lb_key(ep->jobp->cfg.lb,
					 ep->jobp->cfg.lb_paths) : 0;
}

/* ses_rma.c */
u8 ses_rx_write(struct uet_ep *ep, const struct uet_ses_req_info *req,
		struct sk_buff *skb, unsigned int hlen, u32 len);
u8 ses_rx_read(struct uet_ep *ep, const struct in6_addr *peer,
	       const struct uet_ses_req_info *req, struct uet_ses_answer *ans);
u8 ses_rx_atomic(struct uet_ep *ep, const struct in6_addr *peer,
		 const struct uet_ses_req_info *req, struct sk_buff *skb,
		 unsigned int hlen, bool dup, struct uet_ses_answer *ans);

#endif /* _UET_SES_PRIV_H */
