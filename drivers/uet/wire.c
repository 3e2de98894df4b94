// SPDX-License-Identifier: GPL-2.0
/*
 * UET wire format: bounds-checked parsing and building of the TSS, PDS and
 * SES headers laid out in wire.h (drawn in Documentation/wire-format.rst).
 *
 * Parsers accept exactly what the layouts define.  They return the header
 * length, or -EMSGSIZE when the buffer is shorter than the header,
 * -EPROTONOSUPPORT for a type, code or opcode that is not defined or not
 * handled here, and -EINVAL for anything else malformed, a reserved bit
 * set in particular.  Builders check the host-order values the same way,
 * write zeros to every reserved bit and return the bytes written; on error
 * the header's bytes in the buffer are unspecified.  What one side accepts,
 * the other turns back into the same values or the same bytes.
 *
 * Pure C over byte buffers: no kernel objects, so the userspace unit tests
 * and fuzzers compile it as is.
 */
#include <asm/byteorder.h>
#include <linux/bitfield.h>
#include <linux/errno.h>
#include <linux/stddef.h>
#include <linux/string.h>

#include "wire.h"

static_assert(offsetof(struct uet_pds_rudi, rsvd) ==
	      offsetof(struct uet_pds_uud, rsvd));

/* The three SES request formats share bytes 0-1 and 4-19. */
static_assert(offsetof(struct uet_ses_std, buffer_offset) ==
	      offsetof(struct uet_ses_small, buffer_offset));
static_assert(offsetof(struct uet_ses_medium, buffer_offset) ==
	      offsetof(struct uet_ses_small, buffer_offset));

static const char * const pds_type_names[UET_PDS_TYPE_COUNT] = {
	[UET_PDS_TYPE_TSS] = "TSS",
	[UET_PDS_TYPE_RUD_REQ] = "RUD_REQ",
	[UET_PDS_TYPE_ROD_REQ] = "ROD_REQ",
	[UET_PDS_TYPE_RUDI_REQ] = "RUDI_REQ",
	[UET_PDS_TYPE_RUDI_RESP] = "RUDI_RESP",
	[UET_PDS_TYPE_UUD_REQ] = "UUD_REQ",
	[UET_PDS_TYPE_ACK] = "ACK",
	[UET_PDS_TYPE_ACK_CC] = "ACK_CC",
	[UET_PDS_TYPE_ACK_CCX] = "ACK_CCX",
	[UET_PDS_TYPE_NACK] = "NACK",
	[UET_PDS_TYPE_CTRL] = "CTRL",
	[UET_PDS_TYPE_NACK_CCX] = "NACK_CCX",
	[UET_PDS_TYPE_RUD_CC_REQ] = "RUD_CC_REQ",
	[UET_PDS_TYPE_ROD_CC_REQ] = "ROD_CC_REQ",
};

static const char * const pds_ctl_names[UET_PDS_CTL_COUNT] = {
	[UET_PDS_CTL_NOOP] = "NOOP",
	[UET_PDS_CTL_REQ_ACK] = "REQ_ACK",
	[UET_PDS_CTL_CLEAR] = "CLEAR",
	[UET_PDS_CTL_REQ_CLEAR] = "REQ_CLEAR",
	[UET_PDS_CTL_CLOSE] = "CLOSE",
	[UET_PDS_CTL_REQ_CLOSE] = "REQ_CLOSE",
	[UET_PDS_CTL_PROBE] = "PROBE",
	[UET_PDS_CTL_CREDIT] = "CREDIT",
	[UET_PDS_CTL_REQ_CREDIT] = "REQ_CREDIT",
	[UET_PDS_CTL_NEGOTIATION] = "NEGOTIATION",
};

static const char * const pds_nack_names[UET_PDS_NACK_EXP_FATAL + 1] = {
	[UET_PDS_NACK_TRIMMED] = "TRIMMED",
	[UET_PDS_NACK_TRIMMED_LASTHOP] = "TRIMMED_LASTHOP",
	[UET_PDS_NACK_TRIMMED_ACK] = "TRIMMED_ACK",
	[UET_PDS_NACK_NO_PDC_AVAIL] = "NO_PDC_AVAIL",
	[UET_PDS_NACK_NO_CCC_AVAIL] = "NO_CCC_AVAIL",
	[UET_PDS_NACK_NO_BITMAP] = "NO_BITMAP",
	[UET_PDS_NACK_NO_PKT_BUFFER] = "NO_PKT_BUFFER",
	[UET_PDS_NACK_NO_GTD_DEL_AVAIL] = "NO_GTD_DEL_AVAIL",
	[UET_PDS_NACK_NO_SES_MSG_AVAIL] = "NO_SES_MSG_AVAIL",
	[UET_PDS_NACK_NO_RESOURCE] = "NO_RESOURCE",
	[UET_PDS_NACK_PSN_OOR_WINDOW] = "PSN_OOR_WINDOW",
	[UET_PDS_NACK_ROD_OOO] = "ROD_OOO",
	[UET_PDS_NACK_INV_DPDCID] = "INV_DPDCID",
	[UET_PDS_NACK_PDC_HDR_MISMATCH] = "PDC_HDR_MISMATCH",
	[UET_PDS_NACK_CLOSING] = "CLOSING",
	[UET_PDS_NACK_CLOSING_IN_ERR] = "CLOSING_IN_ERR",
	[UET_PDS_NACK_PKT_NOT_RCVD] = "PKT_NOT_RCVD",
	[UET_PDS_NACK_GTD_DEL_RESP_UNAVAIL] = "GTD_DEL_RESP_UNAVAIL",
	[UET_PDS_NACK_ACK_WITH_DATA] = "ACK_WITH_DATA",
	[UET_PDS_NACK_INVALID_SYN] = "INVALID_SYN",
	[UET_PDS_NACK_PDC_MODE_MISMATCH] = "PDC_MODE_MISMATCH",
	[UET_PDS_NACK_NEW_START_PSN] = "NEW_START_PSN",
	[UET_PDS_NACK_RCVD_SES_PROCG] = "RCVD_SES_PROCG",
	[UET_PDS_NACK_UNEXP_EVENT] = "UNEXP_EVENT",
	[UET_PDS_NACK_RCVR_INFER_LOSS] = "RCVR_INFER_LOSS",
	[UET_PDS_NACK_EXP_NORMAL] = "EXP_NORMAL",
	[UET_PDS_NACK_EXP_ERR] = "EXP_ERR",
	[UET_PDS_NACK_EXP_FATAL] = "EXP_FATAL",
};

static const char * const ses_opcode_names[UET_SES_OPCODE_COUNT] = {
	[UET_SES_NO_OP] = "NO_OP",
	[UET_SES_WRITE] = "WRITE",
	[UET_SES_READ] = "READ",
	[UET_SES_ATOMIC] = "ATOMIC",
	[UET_SES_FETCHING_ATOMIC] = "FETCHING_ATOMIC",
	[UET_SES_SEND] = "SEND",
	[UET_SES_RENDEZVOUS_SEND] = "RENDEZVOUS_SEND",
	[UET_SES_DATAGRAM_SEND] = "DATAGRAM_SEND",
	[UET_SES_DEFERRABLE_SEND] = "DEFERRABLE_SEND",
	[UET_SES_TAGGED_SEND] = "TAGGED_SEND",
	[UET_SES_RENDEZVOUS_TSEND] = "RENDEZVOUS_TSEND",
	[UET_SES_DEFERRABLE_TSEND] = "DEFERRABLE_TSEND",
	[UET_SES_DEFERRABLE_RTR] = "DEFERRABLE_RTR",
	[UET_SES_TSEND_ATOMIC] = "TSEND_ATOMIC",
	[UET_SES_TSEND_FETCH_ATOMIC] = "TSEND_FETCH_ATOMIC",
	[UET_SES_MSG_ERROR] = "MSG_ERROR",
	[UET_SES_SYNC_WRITE] = "SYNC_WRITE",
	[UET_SES_SYNC_ATOMIC] = "SYNC_ATOMIC",
};

static const char * const ses_rc_names[UET_SES_RC_COUNT] = {
	[UET_SES_RC_NULL] = "NULL",
	[UET_SES_RC_OK] = "OK",
	[UET_SES_RC_BAD_GENERATION] = "BAD_GENERATION",
	[UET_SES_RC_DISABLED] = "DISABLED",
	[UET_SES_RC_DISABLED_GEN] = "DISABLED_GEN",
	[UET_SES_RC_NO_MATCH] = "NO_MATCH",
	[UET_SES_RC_UNSUPPORTED_OP] = "UNSUPPORTED_OP",
	[UET_SES_RC_UNSUPPORTED_SIZE] = "UNSUPPORTED_SIZE",
	[UET_SES_RC_AT_INVALID] = "AT_INVALID",
	[UET_SES_RC_AT_PERM] = "AT_PERM",
	[UET_SES_RC_AT_ATS_ERROR] = "AT_ATS_ERROR",
	[UET_SES_RC_AT_NO_TRANS] = "AT_NO_TRANS",
	[UET_SES_RC_AT_OUT_OF_RANGE] = "AT_OUT_OF_RANGE",
	[UET_SES_RC_HOST_POISONED] = "HOST_POISONED",
	[UET_SES_RC_HOST_UNSUCCESS_CMPL] = "HOST_UNSUCCESS_CMPL",
	[UET_SES_RC_AMO_UNSUPPORTED_OP] = "AMO_UNSUPPORTED_OP",
	[UET_SES_RC_AMO_UNSUPPORTED_DT] = "AMO_UNSUPPORTED_DT",
	[UET_SES_RC_AMO_UNSUPPORTED_SIZE] = "AMO_UNSUPPORTED_SIZE",
	[UET_SES_RC_AMO_UNALIGNED] = "AMO_UNALIGNED",
	[UET_SES_RC_AMO_FP_NAN] = "AMO_FP_NAN",
	[UET_SES_RC_AMO_FP_UNDERFLOW] = "AMO_FP_UNDERFLOW",
	[UET_SES_RC_AMO_FP_OVERFLOW] = "AMO_FP_OVERFLOW",
	[UET_SES_RC_AMO_FP_INEXACT] = "AMO_FP_INEXACT",
	[UET_SES_RC_PERM_VIOLATION] = "PERM_VIOLATION",
	[UET_SES_RC_OP_VIOLATION] = "OP_VIOLATION",
	[UET_SES_RC_BAD_INDEX] = "BAD_INDEX",
	[UET_SES_RC_BAD_PID] = "BAD_PID",
	[UET_SES_RC_BAD_JOB_ID] = "BAD_JOB_ID",
	[UET_SES_RC_BAD_MKEY] = "BAD_MKEY",
	[UET_SES_RC_BAD_ADDR] = "BAD_ADDR",
	[UET_SES_RC_CANCELLED] = "CANCELLED",
	[UET_SES_RC_UNDELIVERABLE] = "UNDELIVERABLE",
	[UET_SES_RC_UNCOR] = "UNCOR",
	[UET_SES_RC_UNCOR_TRNSNT] = "UNCOR_TRNSNT",
	[UET_SES_RC_TOO_LONG] = "TOO_LONG",
	[UET_SES_RC_INITIATOR_ERR] = "INITIATOR_ERR",
	[UET_SES_RC_DROPPED] = "DROPPED",
};

static const char *lookup(const char * const *names, unsigned int count,
			  unsigned int value)
{
	return value < count ? names[value] : NULL;
}

/**
 * uet_pds_type_name() - name of a PDS packet type
 * @type: enum uet_pds_type.
 *
 * Return: the name, or NULL for a reserved type.
 */
const char *uet_pds_type_name(unsigned int type)
{
	return lookup(pds_type_names, UET_PDS_TYPE_COUNT, type);
}

/**
 * uet_pds_ctl_name() - name of a PDS control packet type
 * @type: enum uet_pds_ctl_type.
 *
 * Return: the name, or NULL for an undefined type.
 */
const char *uet_pds_ctl_name(unsigned int type)
{
	return lookup(pds_ctl_names, UET_PDS_CTL_COUNT, type);
}

/**
 * uet_pds_nack_name() - name of a NACK code
 * @code: enum uet_pds_nack_code.
 *
 * Return: the name, or NULL for an undefined code.
 */
const char *uet_pds_nack_name(unsigned int code)
{
	return lookup(pds_nack_names, UET_PDS_NACK_EXP_FATAL + 1, code);
}

/**
 * uet_ses_opcode_name() - name of an SES request opcode
 * @opcode: enum uet_ses_opcode.
 *
 * Return: the name, or NULL for an undefined opcode.
 */
const char *uet_ses_opcode_name(unsigned int opcode)
{
	return lookup(ses_opcode_names, UET_SES_OPCODE_COUNT, opcode);
}

/**
 * uet_ses_rc_name() - name of an SES response return code
 * @rc: enum uet_ses_rc.
 *
 * Return: the name, or NULL for an undefined return code.
 */
const char *uet_ses_rc_name(unsigned int rc)
{
	return lookup(ses_rc_names, UET_SES_RC_COUNT, rc);
}

/**
 * uet_tss_parse() - parse a TSS header
 * @buf: the header's first byte.
 * @len: bytes available at @buf.
 * @info: filled in on success; unspecified on error.
 *
 * Return: the header length (12 or 16), or a negative errno.
 */
int uet_tss_parse(const u8 *buf, size_t len, struct uet_tss_hdr_info *info)
{
	const struct uet_tss_hdr_ssi *hs = (const void *)buf;
	const struct uet_tss_hdr *h = (const void *)buf;
	size_t hlen;
	u32 word;

	memset(info, 0, sizeof(*info));
	if (len < sizeof(h->type_sdi))
		return -EMSGSIZE;
	word = be32_to_cpu(h->type_sdi);
	if (FIELD_GET(UET_TSS_TYPE, word) != UET_PDS_TYPE_TSS)
		return -EPROTONOSUPPORT;
	info->has_ssi = word & UET_TSS_SP;
	hlen = info->has_ssi ? sizeof(*hs) : sizeof(*h);
	if (len < hlen)
		return -EMSGSIZE;
	if (word & UET_TSS_RSVD)
		return -EINVAL;
	info->an = word & UET_TSS_AN;
	info->sdi = FIELD_GET(UET_TSS_SDI, word);
	if (info->has_ssi) {
		info->ssi = be32_to_cpu(hs->ssi);
		info->tsc = be64_to_cpu(hs->tsc);
	} else {
		info->tsc = be64_to_cpu(h->tsc);
	}
	return hlen;
}

/**
 * uet_tss_build() - write a TSS header
 * @buf: where the header goes.
 * @len: bytes available at @buf.
 * @info: the header's values.
 *
 * Return: the header length (12 or 16), or a negative errno.
 */
int uet_tss_build(u8 *buf, size_t len, const struct uet_tss_hdr_info *info)
{
	struct uet_tss_hdr_ssi *hs = (void *)buf;
	struct uet_tss_hdr *h = (void *)buf;
	size_t hlen = info->has_ssi ? sizeof(*hs) : sizeof(*h);

	if (len < hlen)
		return -EMSGSIZE;
	if (!FIELD_FIT(UET_TSS_SDI, info->sdi))
		return -EINVAL;
	h->type_sdi = cpu_to_be32(FIELD_PREP(UET_TSS_TYPE, UET_PDS_TYPE_TSS) |
				  (info->has_ssi ? UET_TSS_SP : 0) |
				  (info->an ? UET_TSS_AN : 0) | info->sdi);
	if (info->has_ssi) {
		hs->ssi = cpu_to_be32(info->ssi);
		hs->tsc = cpu_to_be64(info->tsc);
	} else {
		h->tsc = cpu_to_be64(info->tsc);
	}
	return hlen;
}

/*
 * PDS headers.  Each supported type has a length, the flags it may carry
 * and a parser and builder for what follows the prologue.  The prologue
 * itself, shared by all, is handled by uet_pds_parse() and uet_pds_build().
 */
struct pds_fmt {
	u8 len;
	u8 flags;
	int (*parse)(const void *buf, struct uet_pds_hdr_info *info);
	int (*build)(void *buf, const struct uet_pds_hdr_info *info);
};

static bool pds_has_cc(u8 type)
{
	return type == UET_PDS_TYPE_RUD_CC_REQ ||
	       type == UET_PDS_TYPE_ROD_CC_REQ;
}

/* The DPDCID field, or with SYN the PDC pool and start-PSN offset. */
static int parse_dst(u16 word, u8 flags, struct uet_pds_dst_info *dst)
{
	if (!(flags & UET_PDS_F_SYN)) {
		dst->dpdcid = word;
		return 0;
	}
	if (word & UET_PDS_SYN_RSVD)
		return -EINVAL;
	if ((word & UET_PDS_SYN_USE_RSV) && (word & UET_PDS_SYN_USE_RSV_REF))
		return -EINVAL;
	dst->use_rsv = word & (UET_PDS_SYN_USE_RSV | UET_PDS_SYN_USE_RSV_REF);
	dst->psn_offset = FIELD_GET(UET_PDS_SYN_PSN_OFFSET, word);
	return 0;
}

/* Returns the field's value, or -EINVAL. */
static int dst_word(const struct uet_pds_dst_info *dst, u8 flags)
{
	if (!(flags & UET_PDS_F_SYN))
		return dst->dpdcid;
	if (!FIELD_FIT(UET_PDS_SYN_PSN_OFFSET, dst->psn_offset))
		return -EINVAL;
	return (dst->use_rsv ? UET_PDS_SYN_USE_RSV : 0) | dst->psn_offset;
}

static int parse_req(const void *buf, struct uet_pds_hdr_info *info)
{
	const struct uet_pds_req_cc *h = buf;
	struct uet_pds_req_info *req = &info->req;
	u32 cc;

	req->psn = be32_to_cpu(h->req.psn);
	req->clear_psn_offset = (s16)be16_to_cpu(h->req.clear_psn_offset);
	req->spdcid = be16_to_cpu(h->req.spdcid);
	if (pds_has_cc(info->type)) {
		cc = be32_to_cpu(h->cc_state);
		req->ccc_id = FIELD_GET(UET_PDS_CC_CCC_ID, cc);
		req->credit_target = FIELD_GET(UET_PDS_CC_CREDIT_TGT, cc);
	}
	return parse_dst(be16_to_cpu(h->req.dpdcid), info->flags, &req->dst);
}

static int build_req(void *buf, const struct uet_pds_hdr_info *info)
{
	const struct uet_pds_req_info *req = &info->req;
	int dst = dst_word(&req->dst, info->flags);
	struct uet_pds_req_cc *h = buf;

	if (dst < 0)
		return dst;
	if (pds_has_cc(info->type)) {
		if (!FIELD_FIT(UET_PDS_CC_CREDIT_TGT, req->credit_target))
			return -EINVAL;
		h->cc_state = cpu_to_be32(FIELD_PREP(UET_PDS_CC_CCC_ID,
						     req->ccc_id) |
					  req->credit_target);
	}
	h->req.clear_psn_offset = cpu_to_be16((u16)req->clear_psn_offset);
	h->req.psn = cpu_to_be32(req->psn);
	h->req.spdcid = cpu_to_be16(req->spdcid);
	h->req.dpdcid = cpu_to_be16(dst);
	return 0;
}

/* RUDI headers, and UUD ones: a RUDI header cut short of the packet ID. */
static int parse_rudi(const void *buf, struct uet_pds_hdr_info *info)
{
	const struct uet_pds_rudi *h = buf;

	if (h->rsvd)
		return -EINVAL;
	if (info->type != UET_PDS_TYPE_UUD_REQ)
		info->rudi_pkt_id = be32_to_cpu(h->pkt_id);
	return 0;
}

static int build_rudi(void *buf, const struct uet_pds_hdr_info *info)
{
	struct uet_pds_rudi *h = buf;

	if (info->type != UET_PDS_TYPE_UUD_REQ)
		h->pkt_id = cpu_to_be32(info->rudi_pkt_id);
	return 0;
}

/*
 * ACK_CC and ACK_CCX share bytes 12-23: the CC (or CCX) type, the MPR and
 * the SACK fields, read and written through struct uet_pds_ack_cc.
 */
static_assert(offsetof(struct uet_pds_ack_ccx, state) ==
	      offsetof(struct uet_pds_ack_cc, nscc));

static int parse_sack(const struct uet_pds_ack_cc *h,
		      struct uet_pds_ack_info *ack)
{
	if (h->cc_type & UET_PDS_ACK_CC_RSVD)
		return -EINVAL;
	ack->cc_type = FIELD_GET(UET_PDS_ACK_CC_TYPE, h->cc_type);
	ack->mpr = h->mpr;
	ack->sack_psn_offset = be16_to_cpu(h->sack_psn_offset);
	ack->sack_bitmap = be64_to_cpu(h->sack_bitmap);
	return 0;
}

static void build_sack(struct uet_pds_ack_cc *h,
		       const struct uet_pds_ack_info *ack)
{
	h->cc_type = FIELD_PREP(UET_PDS_ACK_CC_TYPE, ack->cc_type);
	h->mpr = ack->mpr;
	h->sack_psn_offset = cpu_to_be16(ack->sack_psn_offset);
	h->sack_bitmap = cpu_to_be64(ack->sack_bitmap);
}

static int parse_ack_cc(const struct uet_pds_ack_cc *h,
			struct uet_pds_ack_info *ack)
{
	int err = parse_sack(h, ack);
	u32 word;

	if (err)
		return err;
	switch (ack->cc_type) {
	case UET_PDS_CC_NSCC:
		word = be32_to_cpu(h->nscc.rc_pend_bytes);
		ack->service_time = be16_to_cpu(h->nscc.service_time);
		ack->restore_cwnd = word & UET_NSCC_RC;
		ack->cwnd_pend = FIELD_GET(UET_NSCC_CWND_PEND, word);
		ack->rcvd_bytes = FIELD_GET(UET_NSCC_RCVD_BYTES, word);
		ack->ooo_count = be16_to_cpu(h->nscc.ooo_count);
		return 0;
	case UET_PDS_CC_CREDIT:
		word = be32_to_cpu(h->credit.credit);
		if ((word & UET_CREDIT_RSVD) || h->credit.rsvd)
			return -EINVAL;
		ack->credit = FIELD_GET(UET_CREDIT_CREDIT, word);
		ack->ooo_count = be16_to_cpu(h->credit.ooo_count);
		return 0;
	}
	return -EPROTONOSUPPORT;
}

/* ACK_CCX: the SACK fields as in ACK_CC, the CC state left as it is. */
static int parse_ack_ccx(const void *buf, struct uet_pds_ack_info *ack)
{
	const struct uet_pds_ack_ccx *h = buf;

	memcpy(ack->ccx_state, h->state, sizeof(ack->ccx_state));
	return parse_sack(buf, ack);
}

static int parse_ack(const void *buf, struct uet_pds_hdr_info *info)
{
	const struct uet_pds_ack_epsn *h = buf;
	struct uet_pds_ack_info *ack = &info->ack;

	ack->ack_psn_offset = (s16)be16_to_cpu(h->ack.ack_psn_offset);
	ack->cack_psn = be32_to_cpu(h->ack.cack_psn);
	ack->spdcid = be16_to_cpu(h->ack.spdcid);
	ack->dpdcid = be16_to_cpu(h->ack.dpdcid);
	if (info->type == UET_PDS_TYPE_ACK_CC)
		return parse_ack_cc(buf, ack);
	if (info->type == UET_PDS_TYPE_ACK_CCX)
		return parse_ack_ccx(buf, ack);
	if (info->flags & UET_PDS_F_EPSN)
		ack->epsn = be32_to_cpu(h->epsn);
	return 0;
}

static int build_ack_cc(struct uet_pds_ack_cc *h,
			const struct uet_pds_ack_info *ack)
{
	build_sack(h, ack);
	switch (ack->cc_type) {
	case UET_PDS_CC_NSCC:
		if (!FIELD_FIT(UET_NSCC_CWND_PEND, ack->cwnd_pend) ||
		    !FIELD_FIT(UET_NSCC_RCVD_BYTES, ack->rcvd_bytes))
			return -EINVAL;
		h->nscc.service_time = cpu_to_be16(ack->service_time);
		h->nscc.rc_pend_bytes =
			cpu_to_be32((ack->restore_cwnd ? UET_NSCC_RC : 0) |
				    FIELD_PREP(UET_NSCC_CWND_PEND,
					       ack->cwnd_pend) |
				    ack->rcvd_bytes);
		h->nscc.ooo_count = cpu_to_be16(ack->ooo_count);
		return 0;
	case UET_PDS_CC_CREDIT:
		if (!FIELD_FIT(UET_CREDIT_CREDIT, ack->credit))
			return -EINVAL;
		h->credit.credit = cpu_to_be32(FIELD_PREP(UET_CREDIT_CREDIT,
							  ack->credit));
		h->credit.ooo_count = cpu_to_be16(ack->ooo_count);
		return 0;
	}
	return -EPROTONOSUPPORT;
}

static int build_ack_ccx(void *buf, const struct uet_pds_ack_info *ack)
{
	struct uet_pds_ack_ccx *h = buf;

	if (!FIELD_FIT(UET_PDS_ACK_CC_TYPE, ack->cc_type))
		return -EINVAL;
	build_sack(buf, ack);
	memcpy(h->state, ack->ccx_state, sizeof(h->state));
	return 0;
}

static int build_ack(void *buf, const struct uet_pds_hdr_info *info)
{
	const struct uet_pds_ack_info *ack = &info->ack;
	struct uet_pds_ack_epsn *h = buf;

	h->ack.ack_psn_offset = cpu_to_be16((u16)ack->ack_psn_offset);
	h->ack.cack_psn = cpu_to_be32(ack->cack_psn);
	h->ack.spdcid = cpu_to_be16(ack->spdcid);
	h->ack.dpdcid = cpu_to_be16(ack->dpdcid);
	if (info->type == UET_PDS_TYPE_ACK_CC)
		return build_ack_cc(buf, ack);
	if (info->type == UET_PDS_TYPE_ACK_CCX)
		return build_ack_ccx(buf, ack);
	if (info->flags & UET_PDS_F_EPSN)
		h->epsn = cpu_to_be32(ack->epsn);
	return 0;
}

static int parse_nack(const void *buf, struct uet_pds_hdr_info *info)
{
	const struct uet_pds_nack_ccx *h = buf;
	struct uet_pds_nack_info *nack = &info->nack;

	if (!uet_pds_nack_name(h->nack.code))
		return -EPROTONOSUPPORT;
	nack->code = h->nack.code;
	nack->vendor_code = h->nack.vendor_code;
	nack->psn = be32_to_cpu(h->nack.psn);
	nack->spdcid = be16_to_cpu(h->nack.spdcid);
	nack->dpdcid = be16_to_cpu(h->nack.dpdcid);
	nack->payload = be32_to_cpu(h->nack.payload);
	if (info->type == UET_PDS_TYPE_NACK_CCX) {
		nack->ccx_type = FIELD_GET(UET_PDS_NCCX_TYPE, h->state[0]);
		memcpy(nack->ccx_state, h->state, sizeof(nack->ccx_state));
		nack->ccx_state[0] &= ~UET_PDS_NCCX_TYPE;
	}
	return 0;
}

static int build_nack(void *buf, const struct uet_pds_hdr_info *info)
{
	const struct uet_pds_nack_info *nack = &info->nack;
	struct uet_pds_nack_ccx *h = buf;

	if (!uet_pds_nack_name(nack->code))
		return -EPROTONOSUPPORT;
	h->nack.code = nack->code;
	h->nack.vendor_code = nack->vendor_code;
	h->nack.psn = cpu_to_be32(nack->psn);
	h->nack.spdcid = cpu_to_be16(nack->spdcid);
	h->nack.dpdcid = cpu_to_be16(nack->dpdcid);
	h->nack.payload = cpu_to_be32(nack->payload);
	if (info->type != UET_PDS_TYPE_NACK_CCX)
		return 0;
	if (!FIELD_FIT(UET_PDS_NCCX_TYPE >> 4, nack->ccx_type) ||
	    (nack->ccx_state[0] & UET_PDS_NCCX_TYPE))
		return -EINVAL;
	memcpy(h->state, nack->ccx_state, sizeof(h->state));
	h->state[0] |= FIELD_PREP(UET_PDS_NCCX_TYPE, nack->ccx_type);
	return 0;
}

static int parse_ctl(const void *buf, struct uet_pds_hdr_info *info)
{
	const struct uet_pds_ctl *h = buf;
	struct uet_pds_ctl_info *ctl = &info->ctl;

	ctl->probe_opaque = be16_to_cpu(h->probe_opaque);
	ctl->psn = be32_to_cpu(h->psn);
	ctl->spdcid = be16_to_cpu(h->spdcid);
	ctl->payload = be32_to_cpu(h->payload);
	return parse_dst(be16_to_cpu(h->dpdcid), info->flags, &ctl->dst);
}

static int build_ctl(void *buf, const struct uet_pds_hdr_info *info)
{
	const struct uet_pds_ctl_info *ctl = &info->ctl;
	int dst = dst_word(&ctl->dst, info->flags);
	struct uet_pds_ctl *h = buf;

	if (dst < 0)
		return dst;
	h->probe_opaque = cpu_to_be16(ctl->probe_opaque);
	h->psn = cpu_to_be32(ctl->psn);
	h->spdcid = cpu_to_be16(ctl->spdcid);
	h->dpdcid = cpu_to_be16(dst);
	h->payload = cpu_to_be32(ctl->payload);
	return 0;
}

#define PDS_REQ_FLAGS	(UET_PDS_F_RA | UET_PDS_F_RETX | UET_PDS_F_AR | \
			 UET_PDS_F_SYN)
#define PDS_CTL_FLAGS	(UET_PDS_F_RETX | UET_PDS_F_AR | UET_PDS_F_SYN | \
			 UET_PDS_F_ISROD)
#define PDS_RUDI_FLAGS	(UET_PDS_F_M | UET_PDS_F_RETX)
#define PDS_ACK_FLAGS	(UET_PDS_F_M | UET_PDS_F_RETX | UET_PDS_F_P | \
			 UET_PDS_F_ACK_REQ)
#define PDS_NACK_FLAGS	(UET_PDS_F_M | UET_PDS_F_RETX | UET_PDS_F_NT)

#define PDS_FMT(hdr, fl, p, b) \
	{ .len = sizeof(struct hdr), .flags = (fl), .parse = (p), .build = (b) }

static const struct pds_fmt pds_fmts[UET_PDS_TYPE_COUNT] = {
	[UET_PDS_TYPE_RUD_REQ] =
		PDS_FMT(uet_pds_req, PDS_REQ_FLAGS, parse_req, build_req),
	[UET_PDS_TYPE_ROD_REQ] =
		PDS_FMT(uet_pds_req, PDS_REQ_FLAGS, parse_req, build_req),
	[UET_PDS_TYPE_RUDI_REQ] =
		PDS_FMT(uet_pds_rudi, PDS_RUDI_FLAGS, parse_rudi, build_rudi),
	[UET_PDS_TYPE_RUDI_RESP] =
		PDS_FMT(uet_pds_rudi, PDS_RUDI_FLAGS, parse_rudi, build_rudi),
	[UET_PDS_TYPE_UUD_REQ] = PDS_FMT(uet_pds_uud, 0, parse_rudi, build_rudi),
	[UET_PDS_TYPE_ACK] = PDS_FMT(uet_pds_ack,
				     PDS_ACK_FLAGS | UET_PDS_F_EPSN,
				     parse_ack, build_ack),
	[UET_PDS_TYPE_ACK_CC] =
		PDS_FMT(uet_pds_ack_cc, PDS_ACK_FLAGS, parse_ack, build_ack),
	[UET_PDS_TYPE_ACK_CCX] =
		PDS_FMT(uet_pds_ack_ccx, PDS_ACK_FLAGS, parse_ack, build_ack),
	[UET_PDS_TYPE_NACK] =
		PDS_FMT(uet_pds_nack, PDS_NACK_FLAGS, parse_nack, build_nack),
	[UET_PDS_TYPE_CTRL] =
		PDS_FMT(uet_pds_ctl, PDS_CTL_FLAGS, parse_ctl, build_ctl),
	[UET_PDS_TYPE_NACK_CCX] = PDS_FMT(uet_pds_nack_ccx, PDS_NACK_FLAGS,
					  parse_nack, build_nack),
	[UET_PDS_TYPE_RUD_CC_REQ] =
		PDS_FMT(uet_pds_req_cc, PDS_REQ_FLAGS, parse_req, build_req),
	[UET_PDS_TYPE_ROD_CC_REQ] =
		PDS_FMT(uet_pds_req_cc, PDS_REQ_FLAGS, parse_req, build_req),
};

static const struct pds_fmt *pds_fmt(unsigned int type)
{
	if (type >= UET_PDS_TYPE_COUNT || !pds_fmts[type].len)
		return NULL;
	return &pds_fmts[type];
}

static bool pds_is_ack(u8 type)
{
	return type == UET_PDS_TYPE_ACK || type == UET_PDS_TYPE_ACK_CC ||
	       type == UET_PDS_TYPE_ACK_CCX;
}

/*
 * The header's length: its type's, and the expected PSN of an ACK with it
 * (a request's bit of the same place is UET_PDS_F_RA).
 */
static unsigned int pds_len(const struct pds_fmt *fmt, u8 type, u8 flags)
{
	if (type == UET_PDS_TYPE_ACK && flags & UET_PDS_F_EPSN)
		return sizeof(struct uet_pds_ack_epsn);
	return fmt->len;
}

/* Checks the prologue's flags and next header (control type). */
static int check_prologue(const struct pds_fmt *fmt, u8 type, u8 nh, u8 flags)
{
	if (flags & ~fmt->flags)
		return -EINVAL;
	if (pds_is_ack(type) &&
	    FIELD_GET(UET_PDS_F_ACK_REQ, flags) > UET_PDS_ACK_REQ_CLOSE)
		return -EINVAL;
	if (type == UET_PDS_TYPE_CTRL)
		return uet_pds_ctl_name(nh) ? 0 : -EPROTONOSUPPORT;
	return nh < UET_SES_NH_COUNT ? 0 : -EPROTONOSUPPORT;
}

/**
 * uet_pds_parse() - parse a PDS header
 * @buf: the header's first byte.
 * @len: bytes available at @buf.
 * @info: filled in on success; unspecified on error.
 *
 * Every type the sources define but TSS: a TSS header
 * (UET_PDS_TYPE_TSS) goes to uet_tss_parse() instead.  The vendor's state
 * of ACK_CCX and NACK_CCX is left as it is on the wire.
 *
 * Return: the header length, or a negative errno.
 */
int uet_pds_parse(const u8 *buf, size_t len, struct uet_pds_hdr_info *info)
{
	const struct pds_fmt *fmt;
	unsigned int hlen;
	__be16 word;
	u16 prologue;
	u8 nh;
	int err;

	memset(info, 0, sizeof(*info));
	if (len < sizeof(word))
		return -EMSGSIZE;
	memcpy(&word, buf, sizeof(word));
	prologue = be16_to_cpu(word);
	info->type = FIELD_GET(UET_PDS_PRLG_TYPE, prologue);
	fmt = pds_fmt(info->type);
	if (!fmt)
		return -EPROTONOSUPPORT;
	if (len < fmt->len)
		return -EMSGSIZE;
	nh = FIELD_GET(UET_PDS_PRLG_NEXT_HDR, prologue);
	info->flags = FIELD_GET(UET_PDS_PRLG_FLAGS, prologue);
	err = check_prologue(fmt, info->type, nh, info->flags);
	if (err)
		return err;
	hlen = pds_len(fmt, info->type, info->flags);
	if (len < hlen)
		return -EMSGSIZE;
	if (info->type == UET_PDS_TYPE_CTRL)
		info->ctl.type = nh;
	else
		info->next_hdr = nh;
	err = fmt->parse(buf, info);
	return err ?: hlen;
}

/**
 * uet_pds_build() - write a PDS header
 * @buf: where the header goes.
 * @len: bytes available at @buf.
 * @info: the header's values; fields its type and flags do not use are
 *	ignored.
 *
 * Return: the header length, or a negative errno.
 */
int uet_pds_build(u8 *buf, size_t len, const struct uet_pds_hdr_info *info)
{
	const struct pds_fmt *fmt = pds_fmt(info->type);
	u8 nh = info->next_hdr;
	unsigned int hlen;
	__be16 prologue;
	int err;

	if (!fmt)
		return -EPROTONOSUPPORT;
	if (len < fmt->len)
		return -EMSGSIZE;
	if (info->type == UET_PDS_TYPE_CTRL)
		nh = info->ctl.type;
	err = check_prologue(fmt, info->type, nh, info->flags);
	if (err)
		return err;
	hlen = pds_len(fmt, info->type, info->flags);
	if (len < hlen)
		return -EMSGSIZE;
	memset(buf, 0, hlen);
	err = fmt->build(buf, info);
	if (err)
		return err;
	prologue = cpu_to_be16(FIELD_PREP(UET_PDS_PRLG_TYPE, info->type) |
			       FIELD_PREP(UET_PDS_PRLG_NEXT_HDR, nh) |
			       info->flags);
	memcpy(buf, &prologue, sizeof(prologue));
	return hlen;
}

/*
 * SES headers.  The request formats share their first bytes, read and
 * written through struct uet_ses_small; the responses share theirs.
 */
static int parse_req_common(const struct uet_ses_small *h,
			    struct uet_ses_req_info *req)
{
	u16 pid = be16_to_cpu(h->pid_on_fep);
	u16 ri = be16_to_cpu(h->resource_index);
	u32 gen_job = be32_to_cpu(h->gen_job);

	if ((h->opcode & UET_SES_RSVD) || ((pid | ri) & UET_SES_IDX_RSVD))
		return -EINVAL;
	req->opcode = FIELD_GET(UET_SES_OPCODE, h->opcode);
	if (!uet_ses_opcode_name(req->opcode))
		return -EPROTONOSUPPORT;
	req->version = FIELD_GET(UET_SES_VERSION, h->flags);
	req->flags = FIELD_GET(UET_SES_FLAGS, h->flags);
	req->ri_generation = FIELD_GET(UET_SES_RI_GEN, gen_job);
	req->job_id = FIELD_GET(UET_SES_JOB_ID, gen_job);
	req->pid_on_fep = pid;
	req->resource_index = ri;
	return 0;
}

static int build_req_common(struct uet_ses_small *h,
			    const struct uet_ses_req_info *req)
{
	if (!uet_ses_opcode_name(req->opcode))
		return -EPROTONOSUPPORT;
	if (!FIELD_FIT(UET_SES_VERSION, req->version) ||
	    !FIELD_FIT(UET_SES_FLAGS, req->flags) ||
	    !FIELD_FIT(UET_SES_JOB_ID, req->job_id) ||
	    !FIELD_FIT(UET_SES_IDX, req->pid_on_fep) ||
	    !FIELD_FIT(UET_SES_IDX, req->resource_index))
		return -EINVAL;
	h->opcode = req->opcode;
	h->flags = FIELD_PREP(UET_SES_VERSION, req->version) | req->flags;
	h->gen_job = cpu_to_be32(FIELD_PREP(UET_SES_RI_GEN, req->ri_generation) |
				 req->job_id);
	h->pid_on_fep = cpu_to_be16(req->pid_on_fep);
	h->resource_index = cpu_to_be16(req->resource_index);
	return 0;
}

/*
 * Small and medium requests carry a whole message in one packet (they
 * have no message ID); small ones have no room for header data.
 */
static int check_whole_msg(u8 next_hdr, u8 flags)
{
	const u8 whole = UET_SES_F_SOM | UET_SES_F_EOM;

	if ((flags & whole) != whole)
		return -EINVAL;
	if (next_hdr == UET_SES_NH_REQ_SMALL && (flags & UET_SES_F_HD))
		return -EINVAL;
	return 0;
}

/* Parses and checks a small or medium request's 14-bit length. */
static int parse_short_len(__be16 field, struct uet_ses_hdr_info *info)
{
	u16 len = be16_to_cpu(field);

	if (len & UET_SES_LEN_RSVD)
		return -EINVAL;
	info->req.request_length = len;
	return check_whole_msg(info->next_hdr, info->req.flags);
}

/* Returns the field's value, or -EINVAL. */
static int short_len(const struct uet_ses_hdr_info *info)
{
	const struct uet_ses_req_info *req = &info->req;

	if (!FIELD_FIT(UET_SES_LEN, req->request_length))
		return -EINVAL;
	return check_whole_msg(info->next_hdr, req->flags) ?:
	       req->request_length;
}

static int parse_std(const void *buf, struct uet_ses_hdr_info *info)
{
	struct uet_ses_req_info *req = &info->req;
	const struct uet_ses_std *h = buf;
	int err = parse_req_common(buf, req);
	u32 plen;

	if (err)
		return err;
	req->message_id = be16_to_cpu(h->message_id);
	req->buffer_offset = be64_to_cpu(h->buffer_offset);
	req->initiator = be32_to_cpu(h->initiator);
	req->match_bits = be64_to_cpu(h->match_bits);
	req->request_length = be32_to_cpu(h->request_length);
	if (req->flags & UET_SES_F_SOM) {
		req->header_data = be64_to_cpu(h->header_data);
		return 0;
	}
	plen = be32_to_cpu(h->payload_length);
	if (plen & ~UET_SES_LEN)
		return -EINVAL;
	req->payload_length = plen;
	req->message_offset = be32_to_cpu(h->message_offset);
	return 0;
}

static int build_std(void *buf, const struct uet_ses_hdr_info *info)
{
	const struct uet_ses_req_info *req = &info->req;
	struct uet_ses_std *h = buf;
	int err = build_req_common(buf, req);

	if (err)
		return err;
	h->message_id = cpu_to_be16(req->message_id);
	h->buffer_offset = cpu_to_be64(req->buffer_offset);
	h->initiator = cpu_to_be32(req->initiator);
	h->match_bits = cpu_to_be64(req->match_bits);
	h->request_length = cpu_to_be32(req->request_length);
	if (req->flags & UET_SES_F_SOM) {
		h->header_data = cpu_to_be64(req->header_data);
		return 0;
	}
	if (!FIELD_FIT(UET_SES_LEN, req->payload_length))
		return -EINVAL;
	h->payload_length = cpu_to_be32(req->payload_length);
	h->message_offset = cpu_to_be32(req->message_offset);
	return 0;
}

static int parse_medium(const void *buf, struct uet_ses_hdr_info *info)
{
	struct uet_ses_req_info *req = &info->req;
	const struct uet_ses_medium *h = buf;
	int err = parse_req_common(buf, req) ?:
		  parse_short_len(h->request_length, info);

	if (err)
		return err;
	if (req->flags & UET_SES_F_HD)
		req->header_data = be64_to_cpu(h->buffer_offset);
	else
		req->buffer_offset = be64_to_cpu(h->buffer_offset);
	req->initiator = be32_to_cpu(h->initiator);
	req->match_bits = be64_to_cpu(h->match_bits);
	return 0;
}

static int build_medium(void *buf, const struct uet_ses_hdr_info *info)
{
	const struct uet_ses_req_info *req = &info->req;
	struct uet_ses_medium *h = buf;
	int len = short_len(info);
	int err = build_req_common(buf, req);

	if (err || len < 0)
		return err ?: len;
	h->request_length = cpu_to_be16(len);
	h->buffer_offset = cpu_to_be64(req->flags & UET_SES_F_HD ?
				       req->header_data : req->buffer_offset);
	h->initiator = cpu_to_be32(req->initiator);
	h->match_bits = cpu_to_be64(req->match_bits);
	return 0;
}

static int parse_small(const void *buf, struct uet_ses_hdr_info *info)
{
	const struct uet_ses_small *h = buf;
	int err = parse_req_common(h, &info->req) ?:
		  parse_short_len(h->request_length, info);

	if (err)
		return err;
	info->req.buffer_offset = be64_to_cpu(h->buffer_offset);
	return 0;
}

static int build_small(void *buf, const struct uet_ses_hdr_info *info)
{
	struct uet_ses_small *h = buf;
	int len = short_len(info);
	int err = build_req_common(h, &info->req);

	if (err || len < 0)
		return err ?: len;
	h->request_length = cpu_to_be16(len);
	h->buffer_offset = cpu_to_be64(info->req.buffer_offset);
	return 0;
}

/* Only responses with data use UET_SES_RSP_WITH_DATA, and they only. */
static bool rsp_opcode_ok(u8 next_hdr, u8 opcode)
{
	return opcode <= UET_SES_RSP_NONE &&
	       (opcode == UET_SES_RSP_WITH_DATA) ==
	       (next_hdr == UET_SES_NH_RSP_DATA ||
		next_hdr == UET_SES_NH_RSP_DATA_SMALL);
}

static int parse_rsp_common(const struct uet_ses_rsp *h,
			    struct uet_ses_hdr_info *info)
{
	struct uet_ses_rsp_info *rsp = &info->rsp;

	rsp->list = FIELD_GET(UET_SES_LIST, h->list_opcode);
	rsp->opcode = FIELD_GET(UET_SES_OPCODE, h->list_opcode);
	rsp->version = FIELD_GET(UET_SES_VERSION, h->version_rc);
	rsp->rc = FIELD_GET(UET_SES_RC, h->version_rc);
	rsp->message_id = be16_to_cpu(h->message_id);
	if (!rsp_opcode_ok(info->next_hdr, rsp->opcode))
		return -EINVAL;
	return uet_ses_rc_name(rsp->rc) ? 0 : -EPROTONOSUPPORT;
}

static int build_rsp_common(struct uet_ses_rsp *h,
			    const struct uet_ses_hdr_info *info)
{
	const struct uet_ses_rsp_info *rsp = &info->rsp;

	if (!FIELD_FIT(UET_SES_LIST, rsp->list) ||
	    !FIELD_FIT(UET_SES_VERSION, rsp->version) ||
	    !FIELD_FIT(UET_SES_JOB_ID, rsp->job_id) ||
	    !rsp_opcode_ok(info->next_hdr, rsp->opcode))
		return -EINVAL;
	if (!uet_ses_rc_name(rsp->rc))
		return -EPROTONOSUPPORT;
	h->list_opcode = FIELD_PREP(UET_SES_LIST, rsp->list) | rsp->opcode;
	h->version_rc = FIELD_PREP(UET_SES_VERSION, rsp->version) | rsp->rc;
	h->message_id = cpu_to_be16(rsp->message_id);
	return 0;
}

static int parse_rsp(const void *buf, struct uet_ses_hdr_info *info)
{
	struct uet_ses_rsp_info *rsp = &info->rsp;
	const struct uet_ses_rsp *h = buf;
	u32 gen_job = be32_to_cpu(h->gen_job);

	rsp->ri_generation = FIELD_GET(UET_SES_RI_GEN, gen_job);
	rsp->job_id = FIELD_GET(UET_SES_JOB_ID, gen_job);
	rsp->modified_length = be32_to_cpu(h->modified_length);
	return parse_rsp_common(h, info);
}

static int build_rsp(void *buf, const struct uet_ses_hdr_info *info)
{
	const struct uet_ses_rsp_info *rsp = &info->rsp;
	struct uet_ses_rsp *h = buf;

	h->gen_job = cpu_to_be32(FIELD_PREP(UET_SES_RI_GEN, rsp->ri_generation) |
				 rsp->job_id);
	h->modified_length = cpu_to_be32(rsp->modified_length);
	return build_rsp_common(h, info);
}

static int parse_rsp_data(const void *buf, struct uet_ses_hdr_info *info)
{
	struct uet_ses_rsp_info *rsp = &info->rsp;
	const struct uet_ses_rsp_data *h = buf;
	u32 job = be32_to_cpu(h->job_id);
	u16 plen = be16_to_cpu(h->payload_length);

	if ((job & ~UET_SES_JOB_ID) || (plen & UET_SES_LEN_RSVD))
		return -EINVAL;
	rsp->job_id = job;
	rsp->read_req_message_id = be16_to_cpu(h->read_req_message_id);
	rsp->payload_length = plen;
	rsp->modified_length = be32_to_cpu(h->modified_length);
	rsp->message_offset = be32_to_cpu(h->message_offset);
	return parse_rsp_common(buf, info);
}

static int build_rsp_data(void *buf, const struct uet_ses_hdr_info *info)
{
	const struct uet_ses_rsp_info *rsp = &info->rsp;
	struct uet_ses_rsp_data *h = buf;

	if (!FIELD_FIT(UET_SES_LEN, rsp->payload_length))
		return -EINVAL;
	h->job_id = cpu_to_be32(rsp->job_id);
	h->read_req_message_id = cpu_to_be16(rsp->read_req_message_id);
	h->payload_length = cpu_to_be16(rsp->payload_length);
	h->modified_length = cpu_to_be32(rsp->modified_length);
	h->message_offset = cpu_to_be32(rsp->message_offset);
	return build_rsp_common(buf, info);
}

/*
 * The small-data response shares the first two bytes; its payload length
 * stands where the others have the message ID.
 */
static int parse_rsp_small(const void *buf, struct uet_ses_hdr_info *info)
{
	struct uet_ses_rsp_info *rsp = &info->rsp;
	const struct uet_ses_rsp_small *h = buf;
	u32 job = be32_to_cpu(h->job_id);
	u16 plen = be16_to_cpu(h->payload_length);
	int err;

	if ((job & ~UET_SES_JOB_ID) || (plen & UET_SES_LEN_RSVD))
		return -EINVAL;
	err = parse_rsp_common(buf, info);
	rsp->message_id = 0;
	rsp->payload_length = plen;
	rsp->job_id = job;
	rsp->req_psn = be32_to_cpu(h->req_psn);
	return err;
}

static int build_rsp_small(void *buf, const struct uet_ses_hdr_info *info)
{
	const struct uet_ses_rsp_info *rsp = &info->rsp;
	struct uet_ses_rsp_small *h = buf;
	int err;

	if (!FIELD_FIT(UET_SES_LEN, rsp->payload_length))
		return -EINVAL;
	err = build_rsp_common(buf, info);
	h->payload_length = cpu_to_be16(rsp->payload_length);
	h->job_id = cpu_to_be32(rsp->job_id);
	h->req_psn = cpu_to_be32(rsp->req_psn);
	return err;
}

struct ses_fmt {
	u8 len;
	int (*parse)(const void *buf, struct uet_ses_hdr_info *info);
	int (*build)(void *buf, const struct uet_ses_hdr_info *info);
};

#define SES_FMT(hdr, p, b) { .len = sizeof(struct hdr), .parse = (p), .build = (b) }

static const struct ses_fmt ses_fmts[UET_SES_NH_COUNT] = {
	[UET_SES_NH_REQ_SMALL] = SES_FMT(uet_ses_small, parse_small, build_small),
	[UET_SES_NH_REQ_MEDIUM] =
		SES_FMT(uet_ses_medium, parse_medium, build_medium),
	[UET_SES_NH_REQ_STD] = SES_FMT(uet_ses_std, parse_std, build_std),
	[UET_SES_NH_RSP] = SES_FMT(uet_ses_rsp, parse_rsp, build_rsp),
	[UET_SES_NH_RSP_DATA] =
		SES_FMT(uet_ses_rsp_data, parse_rsp_data, build_rsp_data),
	[UET_SES_NH_RSP_DATA_SMALL] =
		SES_FMT(uet_ses_rsp_small, parse_rsp_small, build_rsp_small),
};

static const struct ses_fmt *ses_fmt(unsigned int next_hdr)
{
	if (next_hdr >= UET_SES_NH_COUNT || !ses_fmts[next_hdr].len)
		return NULL;
	return &ses_fmts[next_hdr];
}

/**
 * uet_ses_parse() - parse an SES header
 * @buf: the header's first byte.
 * @len: bytes available at @buf.
 * @next_hdr: the PDS header's next-header value, enum uet_ses_next_hdr.
 * @info: filled in on success; unspecified on error.
 *
 * Handles the small, medium and standard requests and the responses
 * without data, with data and with small data.  The extension headers
 * that follow some standard requests are left to their opcode's handler.
 * UET_SES_NH_NONE gives -EPROTONOSUPPORT.
 *
 * Return: the header length, or a negative errno.
 */
int uet_ses_parse(const u8 *buf, size_t len, u8 next_hdr,
		  struct uet_ses_hdr_info *info)
{
	const struct ses_fmt *fmt = ses_fmt(next_hdr);
	int err;

	memset(info, 0, sizeof(*info));
	if (!fmt)
		return -EPROTONOSUPPORT;
	if (len < fmt->len)
		return -EMSGSIZE;
	info->next_hdr = next_hdr;
	err = fmt->parse(buf, info);
	return err ?: fmt->len;
}

/**
 * uet_ses_build() - write an SES header
 * @buf: where the header goes.
 * @len: bytes available at @buf.
 * @info: the header's values, @info->next_hdr saying which header;
 *	fields that header and its flags do not use are ignored.
 *
 * Return: the header length, or a negative errno.
 */
int uet_ses_build(u8 *buf, size_t len, const struct uet_ses_hdr_info *info)
{
	const struct ses_fmt *fmt = ses_fmt(info->next_hdr);
	int err;

	if (!fmt)
		return -EPROTONOSUPPORT;
	if (len < fmt->len)
		return -EMSGSIZE;
	memset(buf, 0, fmt->len);
	err = fmt->build(buf, info);
	return err ?: fmt->len;
}

static bool amo_is_cas(u8 opcode)
{
	return opcode >= UET_AMO_CSWAP && opcode <= UET_AMO_CSWAP_GT;
}

/**
 * uet_ses_amo_parse() - parse an atomic extension header
 * @buf: the header's first byte, just after the standard request.
 * @len: bytes available at @buf.
 * @info: filled in on success; unspecified on error.
 *
 * The operation code says which of the two headers it is: the 36-byte one
 * of the compare-and-swap operations, else the 4-byte one.
 *
 * Return: the header length, -EMSGSIZE when truncated, -EINVAL when its
 * reserved byte is set.
 */
int uet_ses_amo_parse(const u8 *buf, size_t len, struct uet_ses_amo_info *info)
{
	const struct uet_ses_amo_cas *cas = (const void *)buf;
	const struct uet_ses_amo *amo = (const void *)buf;

	memset(info, 0, sizeof(*info));
	if (len < sizeof(*amo))
		return -EMSGSIZE;
	if (amo->rsvd)
		return -EINVAL;
	info->opcode = amo->opcode;
	info->datatype = amo->datatype;
	info->ctrl = amo->ctrl;
	if (!amo_is_cas(amo->opcode))
		return sizeof(*amo);
	if (len < sizeof(*cas))
		return -EMSGSIZE;
	memcpy(info->compare, cas->compare, sizeof(info->compare));
	memcpy(info->swap, cas->swap, sizeof(info->swap));
	return sizeof(*cas);
}

/**
 * uet_ses_amo_build() - write an atomic extension header
 * @buf: where the header goes.
 * @len: bytes available at @buf.
 * @info: the header's values; the operands only for compare-and-swap.
 *
 * Return: the header length, or -EMSGSIZE.
 */
int uet_ses_amo_build(u8 *buf, size_t len, const struct uet_ses_amo_info *info)
{
	struct uet_ses_amo_cas *cas = (void *)buf;
	size_t hlen = amo_is_cas(info->opcode) ? sizeof(*cas) :
						 sizeof(struct uet_ses_amo);

	if (len < hlen)
		return -EMSGSIZE;
	memset(buf, 0, hlen);
	cas->amo.opcode = info->opcode;
	cas->amo.datatype = info->datatype;
	cas->amo.ctrl = info->ctrl;
	if (hlen == sizeof(*cas)) {
		memcpy(cas->compare, info->compare, sizeof(cas->compare));
		memcpy(cas->swap, info->swap, sizeof(cas->swap));
	}
	return hlen;
}

/*
 * CRC-32C (Castagnoli; RFC 3720 appendix B.4: reflected polynomial
 * 0x82f63b78), four bits at a time: entry i is the remainder of the
 * nibble i shifted through the polynomial four times.
 */
static const u32 crc32c_nibble[16] = {
	0x00000000, 0x105ec76f, 0x20bd8ede, 0x30e349b1,
	0x417b1dbc, 0x5125dad3, 0x61c69362, 0x7198540d,
	0x82f63b78, 0x92a8fc17, 0xa24bb5a6, 0xb21572c9,
	0xc38d26c4, 0xd3d3e1ab, 0xe330a81a, 0xf36e6f75,
};

/**
 * uet_crc32c() - run @len bytes at @buf through a CRC-32C
 * @crc: the register so far: %UET_CRC32C_INIT before the first bytes
 * @buf: the bytes
 * @len: how many
 *
 * The CRC of a packet directly over IP (Documentation/wire-format.rst) is
 * the register after its last byte, inverted (uet_crc32c_final()).
 *
 * Return: the register after @buf.
 */
u32 uet_crc32c(u32 crc, const void *buf, size_t len)
{
	const u8 *p = buf;

	while (len--) {
		crc ^= *p++;
		crc = (crc >> 4) ^ crc32c_nibble[crc & 0xf];
		crc = (crc >> 4) ^ crc32c_nibble[crc & 0xf];
	}
	return crc;
}
