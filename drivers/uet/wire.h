/* SPDX-License-Identifier: GPL-2.0 */
/*
 * UET wire format: the on-wire layout of the TSS, PDS and SES headers, and
 * the parsed, host-order form of each that the engine works with.
 *
 * The layouts follow Wireshark's UET dissector (epan/dissectors/packet-uet.c
 * in wireshark/wireshark, written against UEC specification 1.0.1) and are
 * cross-checked against XDP2 (src/include/uet/pds.h and ses.h in
 * xdp2-dev/xdp2).  Documentation/wire-format.rst draws every header, says
 * where each field comes from and lists where the sources disagree.
 *
 * Multi-byte fields are big-endian.  Bit-field masks (GENMASK/BIT) apply to
 * a field after conversion to host order.  The comment at each header
 * names the dissector function (in packet-uet.c) its layout comes from.
 *
 * Part of the protocol core: no kernel objects, so the userspace unit tests
 * and fuzzers compile it as is.
 */
#ifndef _UET_WIRE_H
#define _UET_WIRE_H

#include <linux/bits.h>
#include <linux/build_bug.h>
#include <linux/compiler.h>
#include <linux/types.h>

/*
 * Transport security (TSS) header, dissect_tss().  It precedes the PDS
 * header and shares the PDS type space: its first five bits are
 * UET_PDS_TYPE_TSS.
 */
#define UET_TSS_TYPE		GENMASK(31, 27)
#define UET_TSS_SP		BIT(26)		/* the SSI field is present */
#define UET_TSS_RSVD		BIT(25)
#define UET_TSS_AN		BIT(24)		/* key association number */
#define UET_TSS_SDI		GENMASK(23, 0)	/* secure domain index */

struct uet_tss_hdr {
	__be32 type_sdi;
	__be64 tsc;		/* security counter */
} __packed;

struct uet_tss_hdr_ssi {
	__be32 type_sdi;
	__be32 ssi;
	__be64 tsc;
} __packed;

static_assert(sizeof(struct uet_tss_hdr) == 12);
static_assert(sizeof(struct uet_tss_hdr_ssi) == 16);

/*
 * The entropy header of UET directly over IP (UET_IP_PROTO), in the UDP
 * header's place: [WS] the uet.entropy field, [XDP2] struct
 * uet_entropy_hdr, the UEC reference provider's struct uet_entropy.
 */
struct uet_entropy_hdr {
	__be16 entropy;
	__be16 rsvd;
} __packed;

static_assert(sizeof(struct uet_entropy_hdr) == 4);

/* PDS packet types: the top five bits of every PDS header (UET_PDS_TYPE_*). */
enum uet_pds_type {
	UET_PDS_TYPE_RESERVED,
	UET_PDS_TYPE_TSS,
	UET_PDS_TYPE_RUD_REQ,
	UET_PDS_TYPE_ROD_REQ,
	UET_PDS_TYPE_RUDI_REQ,
	UET_PDS_TYPE_RUDI_RESP,
	UET_PDS_TYPE_UUD_REQ,
	UET_PDS_TYPE_ACK,
	UET_PDS_TYPE_ACK_CC,
	UET_PDS_TYPE_ACK_CCX,
	UET_PDS_TYPE_NACK,
	UET_PDS_TYPE_CTRL,
	UET_PDS_TYPE_NACK_CCX,
	UET_PDS_TYPE_RUD_CC_REQ,
	UET_PDS_TYPE_ROD_CC_REQ,
	UET_PDS_TYPE_COUNT
};

/* The SES header that follows a PDS header (UET_PDS_NH_*). */
enum uet_ses_next_hdr {
	UET_SES_NH_NONE,
	UET_SES_NH_REQ_SMALL,
	UET_SES_NH_REQ_MEDIUM,
	UET_SES_NH_REQ_STD,
	UET_SES_NH_RSP,
	UET_SES_NH_RSP_DATA,
	UET_SES_NH_RSP_DATA_SMALL,
	UET_SES_NH_COUNT
};

/*
 * PDS prologue: the first 16 bits of every PDS header, dissect_pds().
 * Control packets carry their control type where the others carry the next
 * header.
 */
#define UET_PDS_PRLG_TYPE	GENMASK(15, 11)
#define UET_PDS_PRLG_NEXT_HDR	GENMASK(10, 7)
#define UET_PDS_PRLG_FLAGS	GENMASK(6, 0)

/*
 * Flags within UET_PDS_PRLG_FLAGS, by type: dissect_pds_flags(); EPSN and
 * ISROD from the reference provider's uet_pkt_hdr.h (Wireshark leaves them
 * in its reserved masks).
 */
#define UET_PDS_F_EPSN		BIT(6)	/* ACK: the expected PSN follows */
/*
 * RUD/ROD: the sender takes rate advice (uet's own, in a bit UEC 1.0
 * reserves: Documentation/rate-advice.rst).
 */
#define UET_PDS_F_RA		BIT(6)
#define UET_PDS_F_M		BIT(5)	/* ACK, NACK, RUDI: request was ECN-marked */
#define UET_PDS_F_ISROD		BIT(5)	/* control: the PDC is ROD, not RUD */
#define UET_PDS_F_RETX		BIT(4)	/* retransmission */
#define UET_PDS_F_AR		BIT(3)	/* RUD/ROD, control: ACK requested */
#define UET_PDS_F_P		BIT(3)	/* ACK: answers a probe */
#define UET_PDS_F_NT		BIT(3)	/* NACK: the PSN is a RUDI packet ID */
#define UET_PDS_F_SYN		BIT(2)	/* RUD/ROD, control: PDC being set up */
#define UET_PDS_F_ACK_REQ	GENMASK(2, 1)	/* ACK: enum uet_pds_ack_req */

/* The ACK's REQ field: uet_pds_flags_ack_req_vals; 3 is reserved. */
enum uet_pds_ack_req {
	UET_PDS_ACK_REQ_NONE,
	UET_PDS_ACK_REQ_CLEAR,
	UET_PDS_ACK_REQ_CLOSE,
};

/*
 * With SYN set, the DPDCID field of RUD/ROD requests and control packets
 * instead says which PDC pool the target should use and how far the PSN
 * is from the PDC's start PSN.  "Use the reserved pool" is bit 15 in
 * Wireshark and XDP2, bit 12 (a 4-bit pdc_info of 1) in the reference
 * provider: either is understood, bit 15 is sent, both at once are
 * malformed (Documentation/wire-format.rst, "Use reserved PDC").
 */
#define UET_PDS_SYN_USE_RSV	BIT(15)
#define UET_PDS_SYN_RSVD	GENMASK(14, 13)
#define UET_PDS_SYN_USE_RSV_REF	BIT(12)
#define UET_PDS_SYN_PSN_OFFSET	GENMASK(11, 0)

/* RUD and ROD requests, 12 B: dissect_pds_rud_rod_req(). */
struct uet_pds_req {
	__be16 prologue;
	__be16 clear_psn_offset;	/* signed, from psn */
	__be32 psn;
	__be16 spdcid;
	__be16 dpdcid;			/* UET_PDS_SYN_* with SYN */
} __packed;

/* RUD_CC and ROD_CC requests: a request plus the CC state, 16 B. */
#define UET_PDS_CC_CCC_ID	GENMASK(31, 24)
#define UET_PDS_CC_CREDIT_TGT	GENMASK(23, 0)

struct uet_pds_req_cc {
	struct uet_pds_req req;
	__be32 cc_state;
} __packed;

/* RUDI requests and responses, 8 B: dissect_pds_rudi_req_rsp(). */
struct uet_pds_rudi {
	__be16 prologue;
	__be16 rsvd;
	__be32 pkt_id;
} __packed;

/* UUD requests, 4 B: dissect_pds(). */
struct uet_pds_uud {
	__be16 prologue;
	__be16 rsvd;
} __packed;

/* ACK, 12 B: dissect_pds_ack(). */
struct uet_pds_ack {
	__be16 prologue;
	__be16 ack_psn_offset;		/* signed, from cack_psn */
	__be32 cack_psn;
	__be16 spdcid;
	__be16 dpdcid;
} __packed;

/*
 * The closing ACK of a PDC set up securely: an ACK plus the next PSN the
 * secure domain expects, 16 B (the reference provider's uet_pds_ack_epsn).
 */
struct uet_pds_ack_epsn {
	struct uet_pds_ack ack;
	__be32 epsn;
} __packed;

/* ACK_CC: an ACK plus 20 B of SACK and CC state, dissect_pds_ack_ext_hdr(). */
#define UET_PDS_ACK_CC_TYPE	GENMASK(7, 4)
#define UET_PDS_ACK_CC_RSVD	GENMASK(3, 0)

/* UET_PDS_CC_*; the other values are not defined. */
enum uet_pds_cc_type {
	UET_PDS_CC_NSCC,
	UET_PDS_CC_CREDIT,
};

#define UET_NSCC_RC		BIT(31)		/* restore cwnd */
#define UET_NSCC_CWND_PEND	GENMASK(30, 24)	/* receiver cwnd penalty */
#define UET_NSCC_RCVD_BYTES	GENMASK(23, 0)

#define UET_CREDIT_CREDIT	GENMASK(31, 8)
#define UET_CREDIT_RSVD		GENMASK(7, 0)

struct uet_pds_ack_cc {
	struct uet_pds_ack ack;
	u8 cc_type;
	u8 mpr;				/* maximum PSN range */
	__be16 sack_psn_offset;
	__be64 sack_bitmap;
	union {
		struct {
			__be16 service_time;
			__be32 rc_pend_bytes;
			__be16 ooo_count;
		} __packed nscc;
		struct {
			__be32 credit;
			__be16 rsvd;
			__be16 ooo_count;
		} __packed credit;
	};
} __packed;

/* NACK, 16 B: dissect_pds_nack().  Codes: UET_PDS_NACK_CODE_*. */
enum uet_pds_nack_code {
	UET_PDS_NACK_TRIMMED = 0x01,
	UET_PDS_NACK_TRIMMED_LASTHOP = 0x02,
	UET_PDS_NACK_TRIMMED_ACK = 0x03,
	UET_PDS_NACK_NO_PDC_AVAIL = 0x04,
	UET_PDS_NACK_NO_CCC_AVAIL = 0x05,
	UET_PDS_NACK_NO_BITMAP = 0x06,
	UET_PDS_NACK_NO_PKT_BUFFER = 0x07,
	UET_PDS_NACK_NO_GTD_DEL_AVAIL = 0x08,
	UET_PDS_NACK_NO_SES_MSG_AVAIL = 0x09,
	UET_PDS_NACK_NO_RESOURCE = 0x0a,
	UET_PDS_NACK_PSN_OOR_WINDOW = 0x0b,
	UET_PDS_NACK_ROD_OOO = 0x0d,
	UET_PDS_NACK_INV_DPDCID = 0x0e,
	UET_PDS_NACK_PDC_HDR_MISMATCH = 0x0f,
	UET_PDS_NACK_CLOSING = 0x10,
	UET_PDS_NACK_CLOSING_IN_ERR = 0x11,
	UET_PDS_NACK_PKT_NOT_RCVD = 0x12,
	UET_PDS_NACK_GTD_DEL_RESP_UNAVAIL = 0x13,
	UET_PDS_NACK_ACK_WITH_DATA = 0x14,
	UET_PDS_NACK_INVALID_SYN = 0x15,
	UET_PDS_NACK_PDC_MODE_MISMATCH = 0x16,
	UET_PDS_NACK_NEW_START_PSN = 0x17,
	UET_PDS_NACK_RCVD_SES_PROCG = 0x18,
	UET_PDS_NACK_UNEXP_EVENT = 0x19,
	UET_PDS_NACK_RCVR_INFER_LOSS = 0x1a,
	UET_PDS_NACK_EXP_NORMAL = 0xfd,
	UET_PDS_NACK_EXP_ERR = 0xfe,
	UET_PDS_NACK_EXP_FATAL = 0xff,
};

struct uet_pds_nack {
	__be16 prologue;
	u8 code;			/* enum uet_pds_nack_code */
	u8 vendor_code;
	__be32 psn;			/* RUDI packet ID with UET_PDS_F_NT */
	__be16 spdcid;
	__be16 dpdcid;
	__be32 payload;			/* highest PSN received + 1 */
} __packed;

/*
 * ACK_CCX and NACK_CCX carry 16 B of state for a congestion control of
 * the vendor's own (Wireshark's "CCX State", the reference provider's
 * uet_pds_ack_ccx and uet_pds_nack_ccx).  ACK_CCX, 40 B: an ACK_CC whose
 * CC type is the CCX type and whose CC state is 16 B.  NACK_CCX, 32 B: a
 * NACK and the state, whose first four bits are the CCX type.
 */
#define UET_PDS_CCX_STATE_LEN	16
#define UET_PDS_NCCX_TYPE	GENMASK(7, 4)	/* of the state's first byte */

struct uet_pds_ack_ccx {
	struct uet_pds_ack ack;
	u8 ccx_type;			/* UET_PDS_ACK_CC_TYPE */
	u8 mpr;
	__be16 sack_psn_offset;
	__be64 sack_bitmap;
	u8 state[UET_PDS_CCX_STATE_LEN];
} __packed;

struct uet_pds_nack_ccx {
	struct uet_pds_nack nack;
	u8 state[UET_PDS_CCX_STATE_LEN];
} __packed;

/*
 * Control packets, 16 B, dissect_pds_ctl(); the type (PDS_CTL_TYPE_*) is in
 * the NH bits.
 */
enum uet_pds_ctl_type {
	UET_PDS_CTL_NOOP,
	UET_PDS_CTL_REQ_ACK,
	UET_PDS_CTL_CLEAR,
	UET_PDS_CTL_REQ_CLEAR,
	UET_PDS_CTL_CLOSE,
	UET_PDS_CTL_REQ_CLOSE,
	UET_PDS_CTL_PROBE,
	UET_PDS_CTL_CREDIT,
	UET_PDS_CTL_REQ_CREDIT,
	UET_PDS_CTL_NEGOTIATION,	/* XDP2, the reference provider */
	UET_PDS_CTL_COUNT
};

struct uet_pds_ctl {
	__be16 prologue;
	__be16 probe_opaque;
	__be32 psn;
	__be16 spdcid;
	__be16 dpdcid;			/* UET_PDS_SYN_* with SYN */
	__be32 payload;			/* meaning depends on the control type */
} __packed;

static_assert(sizeof(struct uet_pds_req) == 12);
static_assert(sizeof(struct uet_pds_req_cc) == 16);
static_assert(sizeof(struct uet_pds_rudi) == 8);
static_assert(sizeof(struct uet_pds_uud) == 4);
static_assert(sizeof(struct uet_pds_ack) == 12);
static_assert(sizeof(struct uet_pds_ack_epsn) == 16);
static_assert(sizeof(struct uet_pds_ack_cc) == 32);
static_assert(sizeof(struct uet_pds_ack_ccx) == 40);
static_assert(sizeof(struct uet_pds_nack) == 16);
static_assert(sizeof(struct uet_pds_nack_ccx) == 32);
static_assert(sizeof(struct uet_pds_ctl) == 16);

/* The longest PDS header: ACK_CCX.  Enough to parse any PDS packet type. */
#define UET_PDS_MAX_HDR_LEN	40
static_assert(sizeof(struct uet_pds_ack_ccx) == UET_PDS_MAX_HDR_LEN);

/*
 * SES headers.  Requests open with a reserved/opcode byte and a
 * version/flags byte; responses with a list/opcode byte and a
 * version/return-code byte (hf_uet_ses_*).
 */
#define UET_SES_RSVD		GENMASK(7, 6)
#define UET_SES_LIST		GENMASK(7, 6)
#define UET_SES_OPCODE		GENMASK(5, 0)
#define UET_SES_VERSION		GENMASK(7, 6)
#define UET_SES_FLAGS		GENMASK(5, 0)
#define UET_SES_RC		GENMASK(5, 0)

#define UET_SES_F_DC		BIT(5)	/* delivery complete */
#define UET_SES_F_IE		BIT(4)	/* initiator error */
#define UET_SES_F_REL		BIT(3)	/* relative addressing */
#define UET_SES_F_HD		BIT(2)	/* header data present */
#define UET_SES_F_EOM		BIT(1)	/* end of message */
#define UET_SES_F_SOM		BIT(0)	/* start of message */

#define UET_SES_RI_GEN		GENMASK(31, 24)	/* resource index generation */
#define UET_SES_JOB_ID		GENMASK(23, 0)
#define UET_SES_IDX_RSVD	GENMASK(15, 12)	/* above PIDonFEP and RI */
#define UET_SES_IDX		GENMASK(11, 0)
#define UET_SES_LEN_RSVD	GENMASK(15, 14)
#define UET_SES_LEN		GENMASK(13, 0)	/* 14-bit lengths */

/* Request opcodes: UET_SES_OPCODE_*. */
enum uet_ses_opcode {
	UET_SES_NO_OP,
	UET_SES_WRITE,
	UET_SES_READ,
	UET_SES_ATOMIC,
	UET_SES_FETCHING_ATOMIC,
	UET_SES_SEND,
	UET_SES_RENDEZVOUS_SEND,
	UET_SES_DATAGRAM_SEND,
	UET_SES_DEFERRABLE_SEND,
	UET_SES_TAGGED_SEND,
	UET_SES_RENDEZVOUS_TSEND,
	UET_SES_DEFERRABLE_TSEND,
	UET_SES_DEFERRABLE_RTR,
	UET_SES_TSEND_ATOMIC,
	UET_SES_TSEND_FETCH_ATOMIC,
	UET_SES_MSG_ERROR,
	UET_SES_SYNC_WRITE,		/* the reference provider's sync groups */
	UET_SES_SYNC_ATOMIC,
	UET_SES_OPCODE_COUNT
};

/* Standard request, 44 B: dissect_ses_std_req(). */
struct uet_ses_std {
	u8 opcode;
	u8 flags;
	__be16 message_id;
	__be32 gen_job;
	__be16 pid_on_fep;
	__be16 resource_index;
	__be64 buffer_offset;		/* restart token for deferrable sends */
	__be32 initiator;
	__be64 match_bits;		/* memory key; restart token for RTR */
	union {
		__be64 header_data;	/* with SOM */
		struct {
			__be32 payload_length;
			__be32 message_offset;
		} __packed;		/* without SOM */
	};
	__be32 request_length;
} __packed;

/* Medium request, 32 B, a single-packet message: dissect_ses_medium_req(). */
struct uet_ses_medium {
	u8 opcode;
	u8 flags;
	__be16 request_length;
	__be32 gen_job;
	__be16 pid_on_fep;
	__be16 resource_index;
	__be64 buffer_offset;		/* header data with UET_SES_F_HD */
	__be32 initiator;
	__be64 match_bits;
} __packed;

/* Small request, 20 B, a single-packet message: dissect_ses_small_req(). */
struct uet_ses_small {
	u8 opcode;
	u8 flags;
	__be16 request_length;
	__be32 gen_job;
	__be16 pid_on_fep;
	__be16 resource_index;
	__be64 buffer_offset;
} __packed;

/*
 * Atomic operations (AMO), the first byte of the atomic extension headers:
 * packet-uet.c UET_AMO_*, XDP2's enum uet_ses_amo (the same values).
 */
enum uet_amo {
	UET_AMO_MIN,
	UET_AMO_MAX,
	UET_AMO_SUM,
	UET_AMO_DIFF,
	UET_AMO_PROD,
	UET_AMO_LOR,
	UET_AMO_LAND,
	UET_AMO_BOR,
	UET_AMO_BAND,
	UET_AMO_LXOR,
	UET_AMO_BXOR,
	UET_AMO_READ,
	UET_AMO_WRITE,
	UET_AMO_CSWAP,
	UET_AMO_CSWAP_NE,
	UET_AMO_CSWAP_LE,
	UET_AMO_CSWAP_LT,
	UET_AMO_CSWAP_GE,
	UET_AMO_CSWAP_GT,
	UET_AMO_MSWAP,
	UET_AMO_INVAL,
};

/* Atomic datatypes, the second byte: XDP2's enum uet_ses_amo_datatype. */
enum uet_amo_dt {
	UET_AMO_DT_INT8,
	UET_AMO_DT_UINT8,
	UET_AMO_DT_INT16,
	UET_AMO_DT_UINT16,
	UET_AMO_DT_INT32,
	UET_AMO_DT_UINT32,
	UET_AMO_DT_INT64,
	UET_AMO_DT_UINT64,
};

/* Operand bytes of the compare-and-swap extension header, each value. */
#define UET_AMO_OPERAND_LEN	16

/*
 * Atomic operation extension header, 4 B, after the standard request of
 * ATOMIC and FETCHING_ATOMIC: dissect_ses_atomic_op_ext_hdr().  The
 * operand is the request's payload.
 */
struct uet_ses_amo {
	u8 opcode;
	u8 datatype;
	u8 ctrl;		/* semantic control */
	u8 rsvd;
} __packed;

/*
 * The compare-and-swap operations (UET_AMO_CSWAP*) carry both operands in
 * a 36 B extension header instead: dissect_ses_comp_swap_atomic_ext_hdr().
 */
struct uet_ses_amo_cas {
	struct uet_ses_amo amo;
	u8 compare[UET_AMO_OPERAND_LEN];
	u8 swap[UET_AMO_OPERAND_LEN];
} __packed;

/* Response opcodes: UET_SES_RSP_*. */
enum uet_ses_rsp_opcode {
	UET_SES_RSP_DEFAULT,
	UET_SES_RSP_RESPONSE,
	UET_SES_RSP_WITH_DATA,
	UET_SES_RSP_NONE,
};

/* The receive list a message landed on: XDP2's ses.h, not in packet-uet.c. */
enum uet_ses_list {
	UET_SES_LIST_EXPECTED,
	UET_SES_LIST_OVERFLOW,
};

/* Response return codes: UET_SES_RSP_RC_*. */
enum uet_ses_rc {
	UET_SES_RC_NULL,
	UET_SES_RC_OK,
	UET_SES_RC_BAD_GENERATION,
	UET_SES_RC_DISABLED,
	UET_SES_RC_DISABLED_GEN,
	UET_SES_RC_NO_MATCH,
	UET_SES_RC_UNSUPPORTED_OP,
	UET_SES_RC_UNSUPPORTED_SIZE,
	UET_SES_RC_AT_INVALID,
	UET_SES_RC_AT_PERM,
	UET_SES_RC_AT_ATS_ERROR,
	UET_SES_RC_AT_NO_TRANS,
	UET_SES_RC_AT_OUT_OF_RANGE,
	UET_SES_RC_HOST_POISONED,
	UET_SES_RC_HOST_UNSUCCESS_CMPL,
	UET_SES_RC_AMO_UNSUPPORTED_OP,
	UET_SES_RC_AMO_UNSUPPORTED_DT,
	UET_SES_RC_AMO_UNSUPPORTED_SIZE,
	UET_SES_RC_AMO_UNALIGNED,
	UET_SES_RC_AMO_FP_NAN,
	UET_SES_RC_AMO_FP_UNDERFLOW,
	UET_SES_RC_AMO_FP_OVERFLOW,
	UET_SES_RC_AMO_FP_INEXACT,
	UET_SES_RC_PERM_VIOLATION,
	UET_SES_RC_OP_VIOLATION,
	UET_SES_RC_BAD_INDEX,
	UET_SES_RC_BAD_PID,
	UET_SES_RC_BAD_JOB_ID,
	UET_SES_RC_BAD_MKEY,
	UET_SES_RC_BAD_ADDR,
	UET_SES_RC_CANCELLED,
	UET_SES_RC_UNDELIVERABLE,
	UET_SES_RC_UNCOR,
	UET_SES_RC_UNCOR_TRNSNT,
	UET_SES_RC_TOO_LONG,
	UET_SES_RC_INITIATOR_ERR,
	UET_SES_RC_DROPPED,
	UET_SES_RC_COUNT
};

/* Response without data, 12 B: dissect_ses_resp(). */
struct uet_ses_rsp {
	u8 list_opcode;
	u8 version_rc;
	__be16 message_id;
	__be32 gen_job;
	__be32 modified_length;
} __packed;

/* Response with data, 20 B, dissect_ses_resp_data(): job ID's top byte reserved. */
struct uet_ses_rsp_data {
	u8 list_opcode;
	u8 version_rc;
	__be16 message_id;
	__be32 job_id;
	__be16 read_req_message_id;
	__be16 payload_length;
	__be32 modified_length;
	__be32 message_offset;
} __packed;

/*
 * Response with small data, 12 B: the reference provider's uet_ses_rsp_ds
 * and XDP2's struct uet_ses_response_small_data_hdr; the job ID's top byte
 * is reserved.
 */
struct uet_ses_rsp_small {
	u8 list_opcode;
	u8 version_rc;
	__be16 payload_length;
	__be32 job_id;
	__be32 req_psn;
} __packed;

static_assert(sizeof(struct uet_ses_std) == 44);
static_assert(sizeof(struct uet_ses_medium) == 32);
static_assert(sizeof(struct uet_ses_small) == 20);
static_assert(sizeof(struct uet_ses_rsp) == 12);
static_assert(sizeof(struct uet_ses_rsp_data) == 20);
static_assert(sizeof(struct uet_ses_rsp_small) == 12);
static_assert(sizeof(struct uet_ses_amo) == 4);
static_assert(sizeof(struct uet_ses_amo_cas) == 36);

/**
 * struct uet_tss_hdr_info - a TSS header in host order
 * @an: key association number.
 * @sdi: secure domain index, 24 bits.
 * @has_ssi: the header carries @ssi (the SP bit), making it 16 B.
 * @ssi: the SSI field, when @has_ssi.
 * @tsc: security counter.
 */
struct uet_tss_hdr_info {
	bool an;
	u32 sdi;
	bool has_ssi;
	u32 ssi;
	u64 tsc;
};

/**
 * struct uet_pds_dst_info - the field after SPDCID in requests and control
 * @dpdcid: the destination PDC, when SYN is clear.
 * @use_rsv: with SYN: the target allocates from its reserved PDC pool.
 * @psn_offset: with SYN: PSN minus the PDC's start PSN, 12 bits.
 */
struct uet_pds_dst_info {
	u16 dpdcid;
	bool use_rsv;
	u16 psn_offset;
};

/**
 * struct uet_pds_req_info - RUD/ROD request, with or without CC state
 * @psn: packet sequence number.
 * @clear_psn_offset: clear PSN minus @psn.
 * @spdcid: source PDC.
 * @dst: destination PDC, or the SYN fields.
 * @ccc_id: CC context, _CC_REQ types only.
 * @credit_target: 24 bits, _CC_REQ types only.
 */
struct uet_pds_req_info {
	u32 psn;
	s16 clear_psn_offset;
	u16 spdcid;
	struct uet_pds_dst_info dst;
	u8 ccc_id;
	u32 credit_target;
};

/**
 * struct uet_pds_ack_info - ACK, and the extension of ACK_CC
 * @cack_psn: cumulative ACK PSN: every PSN up to it has arrived.
 * @ack_psn_offset: the PSN this ACK answers, minus @cack_psn.
 * @spdcid: source PDC.
 * @dpdcid: destination PDC.
 * @cc_type: ACK_CC only, from here on: enum uet_pds_cc_type; in ACK_CCX,
 *	the CCX type.
 * @mpr: maximum PSN range.
 * @sack_psn_offset: SACK bitmap base PSN minus @cack_psn.
 * @sack_bitmap: one bit per PSN from the SACK base.
 * @ooo_count: out-of-order count.
 * @service_time: NSCC.
 * @restore_cwnd: NSCC.
 * @cwnd_pend: NSCC receiver cwnd penalty, 7 bits.
 * @rcvd_bytes: NSCC received byte count, 24 bits.
 * @credit: credit-based CC, 24 bits.
 * @epsn: ACK with UET_PDS_F_EPSN only: the next PSN the secure domain
 *	expects.
 * @ccx_state: ACK_CCX only, with @cc_type, @mpr and the SACK fields: the
 *	vendor's CC state, as on the wire.
 */
struct uet_pds_ack_info {
	u32 cack_psn;
	s16 ack_psn_offset;
	u16 spdcid;
	u16 dpdcid;
	u8 cc_type;
	u8 mpr;
	u16 sack_psn_offset;
	u64 sack_bitmap;
	u16 ooo_count;
	u16 service_time;
	bool restore_cwnd;
	u8 cwnd_pend;
	u32 rcvd_bytes;
	u32 credit;
	u32 epsn;
	u8 ccx_state[UET_PDS_CCX_STATE_LEN];
};

/**
 * struct uet_pds_nack_info - NACK
 * @code: enum uet_pds_nack_code.
 * @vendor_code: vendor-defined detail.
 * @psn: the PSN refused (a RUDI packet ID with UET_PDS_F_NT).
 * @spdcid: source PDC.
 * @dpdcid: destination PDC.
 * @payload: highest PSN received + 1.
 * @ccx_type: NACK_CCX only: the CCX type, the first four bits of ...
 * @ccx_state: ... the vendor's CC state, the rest as on the wire.
 */
struct uet_pds_nack_info {
	u8 code;
	u8 vendor_code;
	u32 psn;
	u16 spdcid;
	u16 dpdcid;
	u32 payload;
	u8 ccx_type;
	u8 ccx_state[UET_PDS_CCX_STATE_LEN];
};

/**
 * struct uet_pds_ctl_info - control packet
 * @type: enum uet_pds_ctl_type.
 * @probe_opaque: echoed back by the ACK to a probe.
 * @psn: packet sequence number.
 * @spdcid: source PDC.
 * @dst: destination PDC, or the SYN fields.
 * @payload: depends on @type, e.g. the clear PSN or a credit.
 */
struct uet_pds_ctl_info {
	u8 type;
	u16 probe_opaque;
	u32 psn;
	u16 spdcid;
	struct uet_pds_dst_info dst;
	u32 payload;
};

/**
 * struct uet_pds_hdr_info - a PDS header in host order
 * @type: enum uet_pds_type.
 * @next_hdr: enum uet_ses_next_hdr; UET_SES_NH_NONE for control packets.
 * @flags: UET_PDS_F_*, as on the wire.
 * @req: RUD/ROD requests.
 * @rudi_pkt_id: RUDI requests and responses.
 * @ack: ACK and ACK_CC.
 * @nack: NACK.
 * @ctl: control packets.
 */
struct uet_pds_hdr_info {
	u8 type;
	u8 next_hdr;
	u8 flags;
	union {
		struct uet_pds_req_info req;
		u32 rudi_pkt_id;
		struct uet_pds_ack_info ack;
		struct uet_pds_nack_info nack;
		struct uet_pds_ctl_info ctl;
	};
};

/**
 * struct uet_ses_req_info - an SES request header in host order
 * @opcode: enum uet_ses_opcode.
 * @version: SES version.
 * @flags: UET_SES_F_*.
 * @message_id: standard only.
 * @ri_generation: resource index generation.
 * @job_id: 24 bits.
 * @pid_on_fep: process on the fabric endpoint, 12 bits.
 * @resource_index: 12 bits.
 * @buffer_offset: or the restart token of deferrable sends; not in medium
 *	requests with UET_SES_F_HD.
 * @initiator: standard and medium.
 * @match_bits: memory key or match bits, or the restart token of RTR;
 *	standard and medium.
 * @header_data: standard with SOM, medium with UET_SES_F_HD.
 * @payload_length: standard without SOM, 14 bits.
 * @message_offset: standard without SOM.
 * @request_length: 14 bits in small and medium requests.
 */
struct uet_ses_req_info {
	u8 opcode;
	u8 version;
	u8 flags;
	u16 message_id;
	u8 ri_generation;
	u32 job_id;
	u16 pid_on_fep;
	u16 resource_index;
	u64 buffer_offset;
	u32 initiator;
	u64 match_bits;
	u64 header_data;
	u16 payload_length;
	u32 message_offset;
	u32 request_length;
};

/**
 * struct uet_ses_rsp_info - an SES response header in host order
 * @list: enum uet_ses_list.
 * @opcode: enum uet_ses_rsp_opcode.
 * @version: SES version.
 * @rc: return code, enum uet_ses_rc.
 * @message_id: the request's message ID.
 * @ri_generation: responses without data only.
 * @job_id: 24 bits.
 * @modified_length: bytes the request acted on.
 * @read_req_message_id: with data: the read request answered.
 * @payload_length: with data or small data, 14 bits.
 * @message_offset: with data: where the payload sits in the message.
 * @req_psn: with small data: the PSN of the request answered.
 */
struct uet_ses_rsp_info {
	u8 list;
	u8 opcode;
	u8 version;
	u8 rc;
	u16 message_id;
	u8 ri_generation;
	u32 job_id;
	u32 modified_length;
	u16 read_req_message_id;
	u16 payload_length;
	u32 message_offset;
	u32 req_psn;
};

/**
 * struct uet_ses_hdr_info - an SES header in host order
 * @next_hdr: which header, enum uet_ses_next_hdr.
 * @req: the UET_SES_NH_REQ_* headers.
 * @rsp: the UET_SES_NH_RSP* headers.
 */
struct uet_ses_hdr_info {
	u8 next_hdr;
	union {
		struct uet_ses_req_info req;
		struct uet_ses_rsp_info rsp;
	};
};

/**
 * struct uet_ses_amo_info - an atomic extension header
 * @opcode: enum uet_amo.
 * @datatype: enum uet_amo_dt.
 * @ctrl: semantic control, as on the wire.
 * @compare: compare-and-swap operations only: the value compared ...
 * @swap: ... and the value stored when the comparison holds; byte images
 *	of the operand type, in its first bytes.
 */
struct uet_ses_amo_info {
	u8 opcode;
	u8 datatype;
	u8 ctrl;
	u8 compare[UET_AMO_OPERAND_LEN];
	u8 swap[UET_AMO_OPERAND_LEN];
};

/* wire.c */
int uet_tss_parse(const u8 *buf, size_t len, struct uet_tss_hdr_info *info);
int uet_tss_build(u8 *buf, size_t len, const struct uet_tss_hdr_info *info);
int uet_pds_parse(const u8 *buf, size_t len, struct uet_pds_hdr_info *info);
int uet_pds_build(u8 *buf, size_t len, const struct uet_pds_hdr_info *info);
int uet_ses_parse(const u8 *buf, size_t len, u8 next_hdr,
		  struct uet_ses_hdr_info *info);
int uet_ses_build(u8 *buf, size_t len, const struct uet_ses_hdr_info *info);
int uet_ses_amo_parse(const u8 *buf, size_t len, struct uet_ses_amo_info *info);
int uet_ses_amo_build(u8 *buf, size_t len, const struct uet_ses_amo_info *info);

/*
 * The CRC-32C that ends a clear packet directly over IP: the register
 * starts at all ones, runs over the IP source and destination addresses
 * and then the packet from its entropy header on, and is inverted at the
 * end ("123456789" gives 0xe3069283, RFC 3720 B.4).
 */
#define UET_CRC32C_INIT		0xffffffffU

u32 uet_crc32c(u32 crc, const void *buf, size_t len);

static inline u32 uet_crc32c_final(u32 crc)
{
	return ~crc;
}

const char *uet_pds_type_name(unsigned int type);
const char *uet_pds_ctl_name(unsigned int type);
const char *uet_pds_nack_name(unsigned int code);
const char *uet_ses_opcode_name(unsigned int opcode);
const char *uet_ses_rc_name(unsigned int rc);

#endif /* _UET_WIRE_H */
