/* SPDX-License-Identifier: GPL-2.0 */
/*
 * uet SES: the semantic sublayer.  Endpoints ({job, PIDonFEP} on a
 * device); sends, tagged sends, RMA writes and reads cut into packets and
 * put back together at the target; and the completions that report them.
 * This is the kernel API the verbs layer builds on.
 */
#ifndef _UET_SES_H
#define _UET_SES_H

#include <linux/in6.h>
#include <linux/skbuff.h>
#include <linux/types.h>

#include "mem.h"

struct ib_device;
struct uet_ep;
struct uet_pds_pdc;

/* Widths of the SES header's job and PIDonFEP fields (wire.h). */
#define UET_JOB_BITS		24
#define UET_PID_BITS		12

/**
 * enum uet_op - what a work request does
 * @UET_OP_SEND: a message into the target's next receive buffer (tagged:
 *	its next receive buffer of the same tag).
 * @UET_OP_WRITE: RMA write into a region the target registered.
 * @UET_OP_READ: RMA read from such a region.
 * @UET_OP_ATOMIC: fetching atomic operation on a 64-bit unsigned integer
 *	in such a region; the integer's value before the operation comes back.
 */
enum uet_op {
	UET_OP_SEND,
	UET_OP_WRITE,
	UET_OP_READ,
	UET_OP_ATOMIC,
};

/* Bytes an atomic operation acts on: a 64-bit integer, aligned to its size. */
#define UET_AMO_SIZE	sizeof(u64)

/*
 * Atomic operations of one endpoint to one target endpoint in flight at
 * once: the target remembers the results of this many, to answer a
 * request again without acting twice.  uet_ep_post() refuses more.
 */
#define UET_SES_AMO_MAX	16

/* struct uet_wr's @rnr_retry without limit: IB's value (IB spec 9.7.5.2.8). */
#define UET_RNR_RETRY_INFINITE	7

#define UET_WR_IMM	BIT(0)	/* send, write: 32-bit immediate data */
#define UET_WR_TAGGED	BIT(1)	/* send: exact-match tag */

/**
 * struct uet_wr - a work request
 * @cookie: reported by its completion.
 * @dst: the target's fabric address, IPv4 as IPv4-mapped IPv6.
 * @dst_pid: the target endpoint's PIDonFEP (same job as the initiator).
 * @op: enum uet_op.
 * @mode: delivery mode, enum uet_pdc_mode: %UET_PDC_RUD, %UET_PDC_ROD; for
 *	a send of one packet %UET_PDC_UUD; for a write without immediate
 *	data or a read %UET_PDC_RUDI.
 * @flags: UET_WR_*.
 * @imm: with %UET_WR_IMM.
 * @tag: with %UET_WR_TAGGED; an untagged send: the key the target
 *	endpoint may ask for (uet_ep_accept()), carried in the match bits.
 * @rkey: write, read, atomic: the target's region ...
 * @raddr: ... and the address in it.
 * @amo: atomic: enum uet_amo: %UET_AMO_SUM adds @operand, %UET_AMO_CSWAP
 *	stores @operand if the integer equals @compare.
 * @compare: see @amo.
 * @operand: see @amo.
 * @sge: send, write: the data, read until the completion (over a PDC
 *	each packet is built from it when it leaves); read: where the data
 *	goes, atomic: where the old value goes (%UET_AMO_SIZE bytes), used
 *	until the completion.  The list itself is copied.
 * @nsge: entries of @sge, at most %UET_MAX_SGE.
 * @rnr_retry: over a PDC, how many times a request the target has no
 *	receive buffer for yet (or does not receive yet) is sent again
 *	before the message fails with %UET_SES_RC_NO_MATCH;
 *	%UET_RNR_RETRY_INFINITE: until the target takes it.
 */
struct uet_wr {
	u64 cookie;
	struct in6_addr dst;
	u16 dst_pid;
	u8 op;
	u8 mode;
	u8 flags;
	u32 imm;
	u64 tag;
	u32 rkey;
	u64 raddr;
	u8 amo;
	u64 compare;
	u64 operand;
	const struct uet_sge *sge;
	unsigned int nsge;
	u8 rnr_retry;
};

/**
 * struct uet_recv - a receive buffer
 * @cookie: reported by its completion.
 * @tagged: takes only tagged sends of @tag; else only untagged sends and
 *	writes with immediate data.
 * @tag: with @tagged.
 * @sge: the buffer; the list is copied, the memory used until the
 *	completion.
 * @nsge: entries of @sge, at most %UET_MAX_SGE.
 */
struct uet_recv {
	u64 cookie;
	bool tagged;
	u64 tag;
	const struct uet_sge *sge;
	unsigned int nsge;
};

/**
 * struct uet_comp - a completion
 * @cookie: what the caller passed with the work request or buffer.
 * @status: 0, or a negative errno: -EREMOTEIO when the target refused
 *	(@ses_rc says why: no receive buffer, bad key, out of bounds, no
 *	permission...), -EMSGSIZE when a message did not fit the receive
 *	buffer, -EFAULT when local memory could not be accessed, -ETIMEDOUT
 *	when the PDC gave up, -ENETDOWN when the device went away,
 *	-ECANCELED when the endpoint closed first.
 * @ses_rc: the target's SES return code (enum uet_ses_rc) with -EREMOTEIO.
 * @op: enum uet_op; a receive consumed by a write with immediate data
 *	reports %UET_OP_WRITE.
 * @recv: a receive (else a work request) completion.
 * @has_imm: @imm is valid.
 * @imm: the immediate data.
 * @byte_len: receive: the message's length.
 * @tag: receive: the tag of a tagged send.
 * @src: receive: the initiator's fabric address ...
 * @src_pid: ... and its PIDonFEP.
 * @dst: UUD receive: the fabric address the initiator sent to (one of
 *	this device's).
 */
struct uet_comp {
	u64 cookie;
	int status;
	u8 ses_rc;
	u8 op;
	bool recv;
	bool has_imm;
	u32 imm;
	u32 byte_len;
	u64 tag;
	struct in6_addr src;
	u16 src_pid;
	struct in6_addr dst;
};

/*
 * Called for every completion from any context: it must not sleep nor call
 * back into the endpoint.  Work requests complete in posting order,
 * receives in message order per initiator (tagged ones as they finish).
 */
typedef void (*uet_comp_fn)(struct uet_ep *ep, const struct uet_comp *comp,
			    void *priv);

struct uet_ep *uet_ep_open(struct ib_device *ibdev, u32 job, u16 pid,
			   const void *domain, uet_comp_fn comp, void *priv);
void uet_ep_close(struct uet_ep *ep);
void uet_ep_set_access(struct uet_ep *ep, u8 access);

/**
 * enum uet_ep_from - whom an endpoint takes requests from
 * @UET_EP_FROM_ANY: any initiator, any delivery mode (how it opens).
 * @UET_EP_FROM_NONE: nobody (yet): requests over PDCs and RUDI are
 *	answered %UET_SES_RC_BAD_PID, as if the endpoint did not exist (an
 *	IB QP that does not receive drops what comes), datagrams dropped.
 * @UET_EP_FROM_PEER: one initiator endpoint, over PDCs and RUDI (a
 *	connected QP); others are answered %UET_SES_RC_BAD_PID, as if the
 *	endpoint did not exist, and datagrams dropped.
 * @UET_EP_FROM_DATAGRAMS: untagged UUD sends from anyone that carry its
 *	key (a datagram QP and its Q_Key); requests over PDCs and RUDI are
 *	answered %UET_SES_RC_BAD_PID.
 *
 * Every refusal is counted in drop_not_peer.
 */
enum uet_ep_from {
	UET_EP_FROM_ANY,
	UET_EP_FROM_NONE,
	UET_EP_FROM_PEER,
	UET_EP_FROM_DATAGRAMS,
};

void uet_ep_accept(struct uet_ep *ep, enum uet_ep_from from,
		   const struct in6_addr *peer, u16 peer_pid, u32 key);

/*
 * The owner's next receive buffer, asked for when an untagged message
 * finds none posted with uet_ep_post_recv(): called from softirq, the
 * endpoint locked, in message order.  It fills @rv (the list is copied)
 * and returns true, or returns false when the owner has none.  It must
 * not call into the endpoint; it may complete buffers it cannot use
 * itself first.
 */
typedef bool (*uet_rbuf_fn)(struct uet_ep *ep, void *priv,
			    struct uet_recv *rv);

void uet_ep_set_rbuf(struct uet_ep *ep, uet_rbuf_fn get_rbuf);
int uet_ep_post(struct uet_ep *ep, const struct uet_wr *wr);
int uet_ep_post_recv(struct uet_ep *ep, const struct uet_recv *rv);

/**
 * struct uet_ses_answer - how the SES layer answers a request packet
 * @msg_id: the request's message ID, for the response.
 * @job: the request's job (RUDI responses carry it).
 * @data: a read or an atomic: the SES response with data and its payload, in an skb
 *	with room for the PDS ACK header in front; %NULL otherwise.
 * @wait: over a PDC: the request was neither carried out nor refused,
 *	for the endpoint has no receive buffer for its message yet, or does
 *	not receive yet.  The PDS leaves its PSN unreceived and tells the
 *	initiator to send it again later (NACK NO_PKT_BUFFER).
 */
struct uet_ses_answer {
	u16 msg_id;
	u32 job;
	struct sk_buff *data;
	bool wait;
};

struct uet_dev;
struct uet_ses_hdr_info;

/**
 * struct uet_ses_rx - a request packet the PDS delivers, parsed once
 * @udev: the device it arrived on.
 * @mode: its delivery mode, enum uet_pdc_mode.  Over a PDC (RUD, ROD)
 *	the PDC's lock is held meanwhile.
 * @peer: the initiator's address, IPv4 as IPv4-mapped IPv6.
 * @skb: the packet, from its SES header on.
 * @hlen: what uet_ses_parse_skb() returned for it ...
 * @h: ... and the header it parsed.
 * @dup: RUD, ROD: the PDC has seen this packet before: a read acts again
 *	(its answer was lost), an atomic answers from what it kept, anything
 *	else was placed already.
 */
struct uet_ses_rx {
	struct uet_dev *udev;
	u8 mode;
	const struct in6_addr *peer;
	struct sk_buff *skb;
	int hlen;
	const struct uet_ses_hdr_info *h;
	bool dup;
};

/* For the PDS (pds_tx.c, pds_rx.c, rudi.c). */
int uet_ses_parse_skb(struct uet_dev *udev, const struct sk_buff *skb,
		      u8 next_hdr, struct uet_ses_hdr_info *h);
u8 uet_ses_deliver(const struct uet_ses_rx *rx, struct uet_ses_answer *ans);
u8 uet_ses_deliver_datagram(struct uet_dev *udev, u8 mode,
			    const struct in6_addr *peer, struct sk_buff *skb,
			    u8 next_hdr, struct uet_ses_answer *ans);
bool uet_ses_trimmed(const struct sk_buff *skb, int hlen,
		     const struct uet_ses_hdr_info *h);
struct sk_buff *uet_ses_response(struct uet_dev *udev, u8 rc, u16 msg_id,
				 u32 job);
struct uet_pds_msg;
bool uet_ses_read_data(struct uet_pds_msg *pm, u32 rd_off, u32 rd_len,
		       const struct sk_buff *skb, unsigned int off, u16 len,
		       u32 msg_off);
struct sk_buff *uet_ses_build_req(struct uet_pds_msg *pm, u32 off, u32 len,
				  bool give_up);
bool uet_ses_tx_rnr(struct uet_pds_msg *pm);
void uet_ses_tx_done(struct uet_pds_msg *pm, u32 n, int err);
void uet_ses_tx_refused(struct uet_pds_msg *pm, u8 rc);

void uet_ses_init(struct uet_dev *udev);
void uet_ses_fini(struct uet_dev *udev);

#endif /* _UET_SES_H */
