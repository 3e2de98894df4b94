// SPDX-License-Identifier: GPL-2.0
/*
 * uet SES, the target: writes, reads and atomics on registered regions,
 * and the SES responses that answer requests.
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
 *
 * Writes and reads go to and from the regions of the RI table (ri.c),
 * every access checked.
 */
#include "ses_priv.h"
#include "socket.h"

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
u8 ses_rx_write(struct uet_ep *ep, const struct uet_ses_req_info *req,
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
	/* an empty write names no memory: no key to check (IBA C9-88) */
	if (rc != UET_SES_RC_OK || !req->request_length)
		return rc;
	rc = uet_ri_check(ep->udev, req, ep->domain, UET_ACCESS_REMOTE_WRITE,
			  start, req->request_length, &mem);
	if (rc == UET_SES_RC_OK &&
	    uet_mem_copy_skb(mem, req->buffer_offset, skb, hlen, len))
		rc = UET_SES_RC_UNCOR;
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

	skb = alloc_skb(UET_PDS_HEADROOM + UET_PDS_MAX_HDR_LEN + hlen + data +
			UET_PDS_TAILROOM, GFP_ATOMIC);
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
static struct sk_buff *ses_rsp_data(const struct uet_ses_req_info *req, u32 len)
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
u8 ses_rx_read(struct uet_ep *ep, const struct in6_addr *peer,
	       const struct uet_ses_req_info *req, struct uet_ses_answer *ans)
{
	u32 len = req->request_length;
	const struct uet_mem *mem;
	struct sk_buff *skb;
	u8 rc;

	if (len > ses_max_payload(ep, peer)) {
		uet_count(ep->udev, UET_CNT_DROP_UNSUPPORTED, 1);
		return UET_SES_RC_UNSUPPORTED_SIZE;
	}
	rc = ep_allows(ep, UET_ACCESS_REMOTE_READ);
	/* an empty read names no memory: no key to check (IBA C9-88) */
	if (rc == UET_SES_RC_OK && len)
		rc = uet_ri_check(ep->udev, req, ep->domain,
				  UET_ACCESS_REMOTE_READ,
				  req->buffer_offset, len, &mem);
	if (rc != UET_SES_RC_OK)
		return rc;
	skb = ses_rsp_data(req, len);
	if (!skb) {
		uet_count(ep->udev, UET_CNT_DROP_NO_MEMORY, 1);
		return UET_SES_RC_NO_MATCH;	/* try again later */
	}
	if (len && uet_mem_copy(mem, req->buffer_offset, skb_put(skb, len),
				len, false)) {
		kfree_skb(skb);
		return UET_SES_RC_UNCOR;
	}
	/* read data is data: its job's class, ECN-capable */
	uet_skb_set_data(skb, ses_ep_tc(ep));
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
u8 ses_rx_atomic(struct uet_ep *ep, const struct in6_addr *peer,
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
	f = ep->closing ? NULL : ses_rx_flow(ep, peer, req->initiator);
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
	rsp = ses_rsp_data(req, sizeof(v));
	if (rsp) {
		skb_put_data(rsp, &v, sizeof(v));
		ans->data = rsp;
	}
	return UET_SES_RC_OK;
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
