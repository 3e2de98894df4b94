// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * The parser of the uet family's replies: data messages into the
 * libuet structures, errors and their extended ACK message.  Everything
 * it reads is checked against the message bounds (libmnl) and each
 * attribute against its expected type; anything else is -EPROTO.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <libmnl/libmnl.h>
#include <linux/genetlink.h>
#include <linux/netlink.h>

#include "nl_priv.h"

#define MAX_ATTR	64	/* above every UET_A_*_MAX, and bits of @present */

_Static_assert(UET_A_DEV_MAX < MAX_ATTR && UET_A_JOB_MAX < MAX_ATTR &&
	       UET_A_PROFILE_MAX < MAX_ATTR && UET_A_PDC_MAX < MAX_ATTR &&
	       UET_A_STATS_MAX < MAX_ATTR && UET_A_COUNTER_MAX < MAX_ATTR &&
	       UET_A_KEY_MAX < MAX_ATTR,
	       "room in tb[] for every attribute of every set");

/* The type libmnl validates each attribute of an object against. */
struct attr_types {
	int max;
	const enum mnl_attr_data_type *type;
};

static const enum mnl_attr_data_type dev_types[UET_A_DEV_MAX + 1] = {
	[UET_A_DEV_NAME] = MNL_TYPE_NUL_STRING,
	[UET_A_DEV_NETDEV] = MNL_TYPE_NUL_STRING,
	[UET_A_DEV_IFINDEX] = MNL_TYPE_U32,
	[UET_A_DEV_RC_MODE] = MNL_TYPE_U8,
	[UET_A_DEV_MAX_PAYLOAD] = MNL_TYPE_U32,
	[UET_A_DEV_ACK_DELAY_US] = MNL_TYPE_U32,
	[UET_A_DEV_PDC_POOL] = MNL_TYPE_U32,
	[UET_A_DEV_PDC_RESERVED] = MNL_TYPE_U32,
	[UET_A_DEV_PDC_PER_SOURCE] = MNL_TYPE_U32,
	[UET_A_DEV_RTO_MIN_US] = MNL_TYPE_U32,
	[UET_A_DEV_RTO_MAX_US] = MNL_TYPE_U32,
	[UET_A_DEV_RTO_INIT_US] = MNL_TYPE_U32,
	[UET_A_DEV_PDC_IDLE_MS] = MNL_TYPE_U32,
	[UET_A_DEV_PROFILE] = MNL_TYPE_U8,
	[UET_A_DEV_JOBS] = MNL_TYPE_U32,
	[UET_A_DEV_PDCS] = MNL_TYPE_U32,
	[UET_A_DEV_TX_PACKETS] = MNL_TYPE_U64,
	[UET_A_DEV_TX_BYTES] = MNL_TYPE_U64,
	[UET_A_DEV_RX_PACKETS] = MNL_TYPE_U64,
	[UET_A_DEV_RX_BYTES] = MNL_TYPE_U64,
	[UET_A_DEV_PAD] = MNL_TYPE_UNSPEC,
	[UET_A_DEV_CC] = MNL_TYPE_U8,
	[UET_A_DEV_CC_TARGET_US] = MNL_TYPE_U32,
	[UET_A_DEV_CC_BASE_RTT_US] = MNL_TYPE_U32,
	[UET_A_DEV_CC_BDP] = MNL_TYPE_U32,
	[UET_A_DEV_CC_MTU] = MNL_TYPE_U32,
	[UET_A_DEV_CC_FI_PCT] = MNL_TYPE_U32,
	[UET_A_DEV_CC_ALPHA_PCT] = MNL_TYPE_U32,
	[UET_A_DEV_CC_ETA_PCT] = MNL_TYPE_U32,
	[UET_A_DEV_CC_MD_PCT] = MNL_TYPE_U32,
	[UET_A_DEV_CC_IGNORE_PCT] = MNL_TYPE_U32,
	[UET_A_DEV_LINK_MBPS] = MNL_TYPE_U32,
	/* binary of its own length (not an address's), checked when read */
	[UET_A_DEV_TC_DSCP] = MNL_TYPE_UNSPEC,
	[UET_A_DEV_CTL_TC] = MNL_TYPE_U8,
	[UET_A_DEV_LB] = MNL_TYPE_U8,
	[UET_A_DEV_LB_PATHS] = MNL_TYPE_U32,
	[UET_A_DEV_SSI] = MNL_TYPE_U32,
	[UET_A_DEV_UDP_PORT] = MNL_TYPE_U16,
	[UET_A_DEV_ENCAP] = MNL_TYPE_U8,
	[UET_A_DEV_RA_FLOOR_MBPS] = MNL_TYPE_U32,
};

static const enum mnl_attr_data_type job_types[UET_A_JOB_MAX + 1] = {
	[UET_A_JOB_DEV_NAME] = MNL_TYPE_NUL_STRING,
	[UET_A_JOB_ID] = MNL_TYPE_U32,
	[UET_A_JOB_ADDR_MODE] = MNL_TYPE_U8,
	[UET_A_JOB_PID_LO] = MNL_TYPE_U16,
	[UET_A_JOB_PID_HI] = MNL_TYPE_U16,
	[UET_A_JOB_TC] = MNL_TYPE_U8,
	[UET_A_JOB_DELIVERY_MODE] = MNL_TYPE_U8,
	[UET_A_JOB_CC] = MNL_TYPE_U8,
	[UET_A_JOB_CC_TARGET_US] = MNL_TYPE_U32,
	[UET_A_JOB_CC_BASE_RTT_US] = MNL_TYPE_U32,
	[UET_A_JOB_CC_BDP] = MNL_TYPE_U32,
	[UET_A_JOB_CC_MTU] = MNL_TYPE_U32,
	[UET_A_JOB_CC_FI_PCT] = MNL_TYPE_U32,
	[UET_A_JOB_CC_ALPHA_PCT] = MNL_TYPE_U32,
	[UET_A_JOB_CC_ETA_PCT] = MNL_TYPE_U32,
	[UET_A_JOB_CC_MD_PCT] = MNL_TYPE_U32,
	[UET_A_JOB_CC_IGNORE_PCT] = MNL_TYPE_U32,
	[UET_A_JOB_LB] = MNL_TYPE_U8,
	[UET_A_JOB_LB_PATHS] = MNL_TYPE_U32,
	[UET_A_JOB_RA_FLOOR_MBPS] = MNL_TYPE_U32,
	[UET_A_JOB_TX_PACKETS] = MNL_TYPE_U64,
	[UET_A_JOB_TX_BYTES] = MNL_TYPE_U64,
	[UET_A_JOB_RX_PACKETS] = MNL_TYPE_U64,
	[UET_A_JOB_RX_BYTES] = MNL_TYPE_U64,
	[UET_A_JOB_ERRORS] = MNL_TYPE_U64,
	[UET_A_JOB_PAD] = MNL_TYPE_UNSPEC,
	[UET_A_JOB_SECURE] = MNL_TYPE_FLAG,
};

static const enum mnl_attr_data_type profile_types[UET_A_PROFILE_MAX + 1] = {
	[UET_A_PROFILE_DEV_NAME] = MNL_TYPE_NUL_STRING,
	[UET_A_PROFILE_ID] = MNL_TYPE_U8,
	[UET_A_PROFILE_FEATURES] = MNL_TYPE_U32,
};

static const enum mnl_attr_data_type pdc_types[UET_A_PDC_MAX + 1] = {
	[UET_A_PDC_DEV_NAME] = MNL_TYPE_NUL_STRING,
	[UET_A_PDC_LPDCID] = MNL_TYPE_U16,
	[UET_A_PDC_RPDCID] = MNL_TYPE_U16,
	[UET_A_PDC_STATE] = MNL_TYPE_U8,
	[UET_A_PDC_MODE] = MNL_TYPE_U8,
	[UET_A_PDC_INITIATOR] = MNL_TYPE_FLAG,
	[UET_A_PDC_JOB] = MNL_TYPE_U32,
	[UET_A_PDC_TC] = MNL_TYPE_U8,
	[UET_A_PDC_PEER] = MNL_TYPE_BINARY,
	[UET_A_PDC_TX_UNA] = MNL_TYPE_U32,
	[UET_A_PDC_TX_NXT] = MNL_TYPE_U32,
	[UET_A_PDC_RX_CACK] = MNL_TYPE_U32,
	[UET_A_PDC_IN_FLIGHT] = MNL_TYPE_U32,
	[UET_A_PDC_SRTT_US] = MNL_TYPE_U32,
	[UET_A_PDC_RTO_US] = MNL_TYPE_U32,
	[UET_A_PDC_RETRANSMITS] = MNL_TYPE_U64,
	[UET_A_PDC_TIMEOUTS] = MNL_TYPE_U64,
	[UET_A_PDC_PAD] = MNL_TYPE_UNSPEC,
	[UET_A_PDC_CWND] = MNL_TYPE_U32,
	[UET_A_PDC_CWND_MAX] = MNL_TYPE_U32,
	[UET_A_PDC_CC_IN_FLIGHT] = MNL_TYPE_U32,
	[UET_A_PDC_BASE_RTT_US] = MNL_TYPE_U32,
	[UET_A_PDC_DELAY_US] = MNL_TYPE_U32,
	[UET_A_PDC_ECN_ECHOES] = MNL_TYPE_U32,
	[UET_A_PDC_CC_CUTS] = MNL_TYPE_U32,
	[UET_A_PDC_QUICK_ADAPTS] = MNL_TYPE_U32,
	[UET_A_PDC_CREDIT] = MNL_TYPE_U32,
	[UET_A_PDC_CREDIT_GRANTED] = MNL_TYPE_U32,
	[UET_A_PDC_CREDIT_WANTED] = MNL_TYPE_U32,
	[UET_A_PDC_CC_CONTEXT] = MNL_TYPE_U32,
	[UET_A_PDC_CC_PDCS] = MNL_TYPE_U32,
	[UET_A_PDC_RA_CAP_MBPS] = MNL_TYPE_U32,
	[UET_A_PDC_RA_ADVISED_MBPS] = MNL_TYPE_U32,
	[UET_A_PDC_RA_AGE_MS] = MNL_TYPE_U32,
};

static const enum mnl_attr_data_type key_types[UET_A_KEY_MAX + 1] = {
	[UET_A_KEY_DEV_NAME] = MNL_TYPE_NUL_STRING,
	[UET_A_KEY_JOB_ID] = MNL_TYPE_U32,
	[UET_A_KEY_AN] = MNL_TYPE_U8,
	/* never in a reply; refused if it is */
	[UET_A_KEY_KEY] = MNL_TYPE_BINARY,
	[UET_A_KEY_EPOCH] = MNL_TYPE_U16,
	[UET_A_KEY_MODE] = MNL_TYPE_U8,
	[UET_A_KEY_TX] = MNL_TYPE_U8,
};

static const enum mnl_attr_data_type stats_types[UET_A_STATS_MAX + 1] = {
	[UET_A_STATS_DEV_NAME] = MNL_TYPE_NUL_STRING,
	[UET_A_STATS_JOB_ID] = MNL_TYPE_U32,
	[UET_A_STATS_COUNTER] = MNL_TYPE_NESTED,
};

static const enum mnl_attr_data_type counter_types[UET_A_COUNTER_MAX + 1] = {
	[UET_A_COUNTER_NAME] = MNL_TYPE_NUL_STRING,
	[UET_A_COUNTER_VALUE] = MNL_TYPE_U64,
	[UET_A_COUNTER_PAD] = MNL_TYPE_UNSPEC,
};

static const enum mnl_attr_data_type ctrl_types[CTRL_ATTR_MAX + 1] = {
	[CTRL_ATTR_FAMILY_ID] = MNL_TYPE_U16,
	[CTRL_ATTR_FAMILY_NAME] = MNL_TYPE_NUL_STRING,
	[CTRL_ATTR_MCAST_GROUPS] = MNL_TYPE_NESTED,
};

struct parse_ctx {
	struct attr_types types;
	const struct nlattr **tb;
};

/*
 * Keep each known attribute that has its expected type, in tb; skip
 * unknown ones (a newer kernel's); a known one of the wrong type makes
 * the message malformed.
 */
static int attr_cb(const struct nlattr *attr, void *data)
{
	const struct parse_ctx *ctx = data;
	int type = mnl_attr_get_type(attr);

	if (type > ctx->types.max)
		return MNL_CB_OK;
	if (ctx->types.type[type] == MNL_TYPE_BINARY) {
		if (mnl_attr_get_payload_len(attr) != 16)
			return MNL_CB_ERROR;
	} else if (ctx->types.type[type] != MNL_TYPE_UNSPEC &&
		   mnl_attr_validate(attr, ctx->types.type[type]) < 0) {
		return MNL_CB_ERROR;
	}
	ctx->tb[type] = attr;
	return MNL_CB_OK;
}

static int parse_attrs(const struct nlmsghdr *nlh, const struct nlattr *nest,
		       const enum mnl_attr_data_type *types, int max,
		       const struct nlattr **tb)
{
	struct parse_ctx ctx = { { max, types }, tb };

	memset(tb, 0, sizeof(*tb) * MAX_ATTR);
	if (nest)
		return mnl_attr_parse_nested(nest, attr_cb, &ctx);
	return mnl_attr_parse(nlh, sizeof(struct genlmsghdr), attr_cb, &ctx);
}

static void get_str(char *dst, size_t len, const struct nlattr *a)
{
	snprintf(dst, len, "%s", a ? mnl_attr_get_str(a) : "");
}

#define GET(obj, tb, attr, field, bits) do {				\
	if ((tb)[attr]) {						\
		(obj)->field = mnl_attr_get_u##bits((tb)[attr]);	\
		UET_SET(obj, attr);					\
	}								\
} while (0)

/* NSCC's parameters, a device's or (@job) a job's, each marked present. */
static void get_nscc(const struct nlattr **tb, int job, uint32_t *nscc,
		     uint64_t *present)
{
	unsigned int i;
	int attr;

	for (i = 0; i < UET_NSCC_PARAMS; i++) {
		attr = uet_nscc_attr(i, job);
		if (tb[attr]) {
			nscc[i] = mnl_attr_get_u32(tb[attr]);
			*present |= 1ULL << attr;
		}
	}
}

static void dev_attrs(const struct nlattr **tb, struct uet_dev_attrs *out)
{
	struct uet_dev_attrs d = { 0 };

	get_str(d.name, sizeof(d.name), tb[UET_A_DEV_NAME]);
	get_str(d.netdev, sizeof(d.netdev), tb[UET_A_DEV_NETDEV]);
	GET(&d, tb, UET_A_DEV_IFINDEX, ifindex, 32);
	GET(&d, tb, UET_A_DEV_RC_MODE, rc_mode, 8);
	GET(&d, tb, UET_A_DEV_MAX_PAYLOAD, max_payload, 32);
	GET(&d, tb, UET_A_DEV_ACK_DELAY_US, ack_delay_us, 32);
	GET(&d, tb, UET_A_DEV_PDC_POOL, pdc_pool, 32);
	GET(&d, tb, UET_A_DEV_PDC_RESERVED, pdc_reserved, 32);
	GET(&d, tb, UET_A_DEV_PDC_PER_SOURCE, pdc_per_source, 32);
	GET(&d, tb, UET_A_DEV_RTO_MIN_US, rto_min_us, 32);
	GET(&d, tb, UET_A_DEV_RTO_MAX_US, rto_max_us, 32);
	GET(&d, tb, UET_A_DEV_RTO_INIT_US, rto_init_us, 32);
	GET(&d, tb, UET_A_DEV_PDC_IDLE_MS, pdc_idle_ms, 32);
	GET(&d, tb, UET_A_DEV_CC, cc, 8);
	get_nscc(tb, 0, d.nscc, &d.present);
	GET(&d, tb, UET_A_DEV_LINK_MBPS, link_mbps, 32);
	GET(&d, tb, UET_A_DEV_CTL_TC, ctl_tc, 8);
	GET(&d, tb, UET_A_DEV_LB, lb, 8);
	GET(&d, tb, UET_A_DEV_LB_PATHS, lb_paths, 32);
	GET(&d, tb, UET_A_DEV_SSI, ssi, 32);
	GET(&d, tb, UET_A_DEV_UDP_PORT, udp_port, 16);
	GET(&d, tb, UET_A_DEV_ENCAP, encap, 8);
	GET(&d, tb, UET_A_DEV_RA_FLOOR_MBPS, ra_floor_mbps, 32);
	if (tb[UET_A_DEV_TC_DSCP] &&
	    mnl_attr_get_payload_len(tb[UET_A_DEV_TC_DSCP]) == sizeof(d.tc_dscp)) {
		memcpy(d.tc_dscp, mnl_attr_get_payload(tb[UET_A_DEV_TC_DSCP]),
		       sizeof(d.tc_dscp));
		UET_SET(&d, UET_A_DEV_TC_DSCP);
	}
	GET(&d, tb, UET_A_DEV_PROFILE, profile, 8);
	GET(&d, tb, UET_A_DEV_JOBS, jobs, 32);
	GET(&d, tb, UET_A_DEV_PDCS, pdcs, 32);
	GET(&d, tb, UET_A_DEV_TX_PACKETS, tx_packets, 64);
	GET(&d, tb, UET_A_DEV_TX_BYTES, tx_bytes, 64);
	GET(&d, tb, UET_A_DEV_RX_PACKETS, rx_packets, 64);
	GET(&d, tb, UET_A_DEV_RX_BYTES, rx_bytes, 64);
	*out = d;
}

static void job_attrs(const struct nlattr **tb, struct uet_job_attrs *out)
{
	struct uet_job_attrs j = { 0 };

	get_str(j.dev, sizeof(j.dev), tb[UET_A_JOB_DEV_NAME]);
	GET(&j, tb, UET_A_JOB_ID, id, 32);
	GET(&j, tb, UET_A_JOB_ADDR_MODE, addr_mode, 8);
	GET(&j, tb, UET_A_JOB_PID_LO, pid_lo, 16);
	GET(&j, tb, UET_A_JOB_PID_HI, pid_hi, 16);
	GET(&j, tb, UET_A_JOB_TC, tc, 8);
	GET(&j, tb, UET_A_JOB_DELIVERY_MODE, mode, 8);
	GET(&j, tb, UET_A_JOB_CC, cc, 8);
	get_nscc(tb, 1, j.nscc, &j.present);
	GET(&j, tb, UET_A_JOB_LB, lb, 8);
	GET(&j, tb, UET_A_JOB_LB_PATHS, lb_paths, 32);
	GET(&j, tb, UET_A_JOB_RA_FLOOR_MBPS, ra_floor_mbps, 32);
	GET(&j, tb, UET_A_JOB_TX_PACKETS, tx_packets, 64);
	GET(&j, tb, UET_A_JOB_TX_BYTES, tx_bytes, 64);
	GET(&j, tb, UET_A_JOB_RX_PACKETS, rx_packets, 64);
	GET(&j, tb, UET_A_JOB_RX_BYTES, rx_bytes, 64);
	GET(&j, tb, UET_A_JOB_ERRORS, errors, 64);
	if (tb[UET_A_JOB_SECURE])
		UET_SET(&j, UET_A_JOB_SECURE);
	*out = j;
}

static int key_msg(const struct nlattr **tb, struct uet_nl_reply *r)
{
	struct uet_key_attrs k = { 0 };

	if (tb[UET_A_KEY_KEY]) {
		r->error = -EPROTO;
		return 0;
	}
	get_str(k.dev, sizeof(k.dev), tb[UET_A_KEY_DEV_NAME]);
	GET(&k, tb, UET_A_KEY_JOB_ID, job, 32);
	GET(&k, tb, UET_A_KEY_AN, an, 8);
	GET(&k, tb, UET_A_KEY_EPOCH, epoch, 16);
	GET(&k, tb, UET_A_KEY_MODE, mode, 8);
	GET(&k, tb, UET_A_KEY_TX, tx, 8);
	return ((uet_key_fn)r->fn)(&k, r->arg);
}

static int profile_msg(const struct nlattr **tb, struct uet_nl_reply *r)
{
	struct uet_profile_attrs p = { 0 };

	get_str(p.dev, sizeof(p.dev), tb[UET_A_PROFILE_DEV_NAME]);
	GET(&p, tb, UET_A_PROFILE_ID, id, 8);
	GET(&p, tb, UET_A_PROFILE_FEATURES, features, 32);
	return ((uet_profile_fn)r->fn)(&p, r->arg);
}

static void pdc_attrs(const struct nlattr **tb, struct uet_pdc_attrs *out)
{
	struct uet_pdc_attrs p = { 0 };

	get_str(p.dev, sizeof(p.dev), tb[UET_A_PDC_DEV_NAME]);
	GET(&p, tb, UET_A_PDC_LPDCID, lpdcid, 16);
	GET(&p, tb, UET_A_PDC_RPDCID, rpdcid, 16);
	GET(&p, tb, UET_A_PDC_STATE, state, 8);
	GET(&p, tb, UET_A_PDC_MODE, mode, 8);
	GET(&p, tb, UET_A_PDC_JOB, job, 32);
	GET(&p, tb, UET_A_PDC_TC, tc, 8);
	GET(&p, tb, UET_A_PDC_TX_UNA, tx_una, 32);
	GET(&p, tb, UET_A_PDC_TX_NXT, tx_nxt, 32);
	GET(&p, tb, UET_A_PDC_RX_CACK, rx_cack, 32);
	GET(&p, tb, UET_A_PDC_IN_FLIGHT, in_flight, 32);
	GET(&p, tb, UET_A_PDC_SRTT_US, srtt_us, 32);
	GET(&p, tb, UET_A_PDC_RTO_US, rto_us, 32);
	GET(&p, tb, UET_A_PDC_RETRANSMITS, retransmits, 64);
	GET(&p, tb, UET_A_PDC_TIMEOUTS, timeouts, 64);
	GET(&p, tb, UET_A_PDC_CWND, cwnd, 32);
	GET(&p, tb, UET_A_PDC_CWND_MAX, cwnd_max, 32);
	GET(&p, tb, UET_A_PDC_CC_IN_FLIGHT, cc_in_flight, 32);
	GET(&p, tb, UET_A_PDC_BASE_RTT_US, base_rtt_us, 32);
	GET(&p, tb, UET_A_PDC_DELAY_US, delay_us, 32);
	GET(&p, tb, UET_A_PDC_ECN_ECHOES, ecn_echoes, 32);
	GET(&p, tb, UET_A_PDC_CC_CUTS, cc_cuts, 32);
	GET(&p, tb, UET_A_PDC_QUICK_ADAPTS, quick_adapts, 32);
	GET(&p, tb, UET_A_PDC_CREDIT, credit, 32);
	GET(&p, tb, UET_A_PDC_CREDIT_GRANTED, credit_granted, 32);
	GET(&p, tb, UET_A_PDC_CREDIT_WANTED, credit_wanted, 32);
	GET(&p, tb, UET_A_PDC_CC_CONTEXT, cc_context, 32);
	GET(&p, tb, UET_A_PDC_CC_PDCS, cc_pdcs, 32);
	GET(&p, tb, UET_A_PDC_RA_CAP_MBPS, ra_cap_mbps, 32);
	GET(&p, tb, UET_A_PDC_RA_ADVISED_MBPS, ra_advised_mbps, 32);
	GET(&p, tb, UET_A_PDC_RA_AGE_MS, ra_age_ms, 32);
	if (tb[UET_A_PDC_INITIATOR]) {
		p.initiator = 1;
		UET_SET(&p, UET_A_PDC_INITIATOR);
	}
	if (tb[UET_A_PDC_PEER]) {
		memcpy(p.peer, mnl_attr_get_payload(tb[UET_A_PDC_PEER]),
		       sizeof(p.peer));
		UET_SET(&p, UET_A_PDC_PEER);
	}
	*out = p;
}

static int stats_msg(const struct nlmsghdr *nlh, const struct nlattr **tb,
		     struct uet_nl_reply *r)
{
	const struct nlattr *ctb[MAX_ATTR];
	struct uet_counter_attrs c = { 0 };
	const struct nlattr *a;
	int ret;

	get_str(c.dev, sizeof(c.dev), tb[UET_A_STATS_DEV_NAME]);
	if (tb[UET_A_STATS_JOB_ID]) {
		c.has_job = 1;
		c.job = mnl_attr_get_u32(tb[UET_A_STATS_JOB_ID]);
	}
	mnl_attr_for_each(a, nlh, sizeof(struct genlmsghdr)) {
		if (mnl_attr_get_type(a) != UET_A_STATS_COUNTER)
			continue;
		if (parse_attrs(nlh, a, counter_types, UET_A_COUNTER_MAX, ctb) < 0 ||
		    !ctb[UET_A_COUNTER_NAME] || !ctb[UET_A_COUNTER_VALUE]) {
			r->error = -EPROTO;
			return 0;
		}
		get_str(c.name, sizeof(c.name), ctb[UET_A_COUNTER_NAME]);
		c.value = mnl_attr_get_u64(ctb[UET_A_COUNTER_VALUE]);
		ret = ((uet_counter_fn)r->fn)(&c, r->arg);
		if (ret)
			return ret;
	}
	return 0;
}

/*
 * A notification of the monitor group into @ev: 1 when parsed, 0 for a
 * command this library does not know (a newer kernel's), -1 if malformed.
 */
static int ntf_msg(const struct nlmsghdr *nlh, uint8_t cmd,
		   struct uet_event *ev)
{
	const struct nlattr *tb[MAX_ATTR];

	ev->cmd = cmd;
	switch (cmd) {
	case UET_CMD_DEV_ADD_NTF:
	case UET_CMD_DEV_CHANGE_NTF:
	case UET_CMD_DEV_DEL_NTF:
		if (parse_attrs(nlh, NULL, dev_types, UET_A_DEV_MAX, tb) < 0)
			return -1;
		dev_attrs(tb, &ev->dev);
		return 1;
	case UET_CMD_JOB_ADD_NTF:
	case UET_CMD_JOB_DEL_NTF:
		if (parse_attrs(nlh, NULL, job_types, UET_A_JOB_MAX, tb) < 0)
			return -1;
		job_attrs(tb, &ev->job);
		return 1;
	case UET_CMD_PDC_ADD_NTF:
	case UET_CMD_PDC_DEL_NTF:
		if (parse_attrs(nlh, NULL, pdc_types, UET_A_PDC_MAX, tb) < 0)
			return -1;
		pdc_attrs(tb, &ev->pdc);
		return 1;
	default:
		return 0;
	}
}

/* The group ID of the family's group named UET_MCGRP_MONITOR, if listed. */
static int ctrl_mcgrps(const struct nlattr *groups, struct uet_nl_reply *r)
{
	const struct nlattr *grp, *a;
	const char *name;
	uint32_t id;
	int has_id;

	mnl_attr_for_each_nested(grp, groups) {
		name = NULL;
		has_id = 0;
		id = 0;
		mnl_attr_for_each_nested(a, grp) {
			switch (mnl_attr_get_type(a)) {
			case CTRL_ATTR_MCAST_GRP_NAME:
				if (mnl_attr_validate(a, MNL_TYPE_NUL_STRING) < 0)
					return -1;
				name = mnl_attr_get_str(a);
				break;
			case CTRL_ATTR_MCAST_GRP_ID:
				if (mnl_attr_validate(a, MNL_TYPE_U32) < 0)
					return -1;
				id = mnl_attr_get_u32(a);
				has_id = 1;
				break;
			}
		}
		if (name && has_id && !strcmp(name, UET_MCGRP_MONITOR))
			r->mcgrp = id;
	}
	return 0;
}

static int data_cb(const struct nlmsghdr *nlh, void *data)
{
	struct uet_nl_reply *r = data;
	const struct nlattr *tb[MAX_ATTR];
	const struct genlmsghdr *g;
	struct uet_event ev;
	int ret;

	if (mnl_nlmsg_get_payload_len(nlh) < sizeof(*g))
		goto malformed;
	g = mnl_nlmsg_get_payload(nlh);
	if (r->ctrl) {
		if (parse_attrs(nlh, NULL, ctrl_types, CTRL_ATTR_MAX, tb) < 0 ||
		    !tb[CTRL_ATTR_FAMILY_ID])
			goto malformed;
		r->family = mnl_attr_get_u16(tb[CTRL_ATTR_FAMILY_ID]);
		if (tb[CTRL_ATTR_MCAST_GROUPS] &&
		    ctrl_mcgrps(tb[CTRL_ATTR_MCAST_GROUPS], r) < 0)
			goto malformed;
		r->count++;
		return MNL_CB_OK;
	}
	if (r->monitor) {
		if (!r->fn)
			return MNL_CB_OK;
		ret = ntf_msg(nlh, g->cmd, &ev);
		if (ret < 0)
			goto malformed;
		if (!ret)
			return MNL_CB_OK;
		ret = ((uet_event_fn)r->fn)(&ev, r->arg);
		goto done;
	}
	if (g->cmd != r->cmd || !r->fn)
		return MNL_CB_OK;

	switch (r->cmd) {
	case UET_CMD_DEV_GET:
		if (parse_attrs(nlh, NULL, dev_types, UET_A_DEV_MAX, tb) < 0)
			goto malformed;
		dev_attrs(tb, &ev.dev);
		ret = ((uet_dev_fn)r->fn)(&ev.dev, r->arg);
		break;
	case UET_CMD_JOB_GET:
		if (parse_attrs(nlh, NULL, job_types, UET_A_JOB_MAX, tb) < 0)
			goto malformed;
		job_attrs(tb, &ev.job);
		ret = ((uet_job_fn)r->fn)(&ev.job, r->arg);
		break;
	case UET_CMD_PROFILE_GET:
		if (parse_attrs(nlh, NULL, profile_types, UET_A_PROFILE_MAX, tb) < 0)
			goto malformed;
		ret = profile_msg(tb, r);
		break;
	case UET_CMD_PDC_GET:
		if (parse_attrs(nlh, NULL, pdc_types, UET_A_PDC_MAX, tb) < 0)
			goto malformed;
		pdc_attrs(tb, &ev.pdc);
		ret = ((uet_pdc_fn)r->fn)(&ev.pdc, r->arg);
		break;
	case UET_CMD_STATS_GET:
		if (parse_attrs(nlh, NULL, stats_types, UET_A_STATS_MAX, tb) < 0)
			goto malformed;
		ret = stats_msg(nlh, tb, r);
		break;
	case UET_CMD_KEY_GET:
		if (parse_attrs(nlh, NULL, key_types, UET_A_KEY_MAX, tb) < 0)
			goto malformed;
		ret = key_msg(tb, r);
		break;
	default:
		return MNL_CB_OK;
	}
done:
	if (r->error)
		return MNL_CB_ERROR;	/* a malformed counter */
	r->count++;
	if (ret) {
		r->cb_ret = ret;
		return MNL_CB_STOP;
	}
	return MNL_CB_OK;

malformed:
	r->error = -EPROTO;
	return MNL_CB_ERROR;
}

/* The extended ACK attributes from @offset of @nlh's payload on. */
static void parse_extack(const struct nlmsghdr *nlh, size_t offset,
			 struct uet_nl_reply *r)
{
	const struct nlattr *a;

	if (!(nlh->nlmsg_flags & NLM_F_ACK_TLVS) ||
	    offset > mnl_nlmsg_get_payload_len(nlh))
		return;
	mnl_attr_for_each(a, nlh, offset) {
		if (mnl_attr_get_type(a) == NLMSGERR_ATTR_MSG &&
		    mnl_attr_validate(a, MNL_TYPE_NUL_STRING) == 0)
			get_str(r->errmsg, sizeof(r->errmsg), a);
	}
}

static int error_cb(const struct nlmsghdr *nlh, void *data)
{
	struct uet_nl_reply *r = data;
	const struct nlmsgerr *e;
	size_t offset = sizeof(*e);

	if (mnl_nlmsg_get_payload_len(nlh) < sizeof(*e)) {
		r->error = -EPROTO;
		return MNL_CB_ERROR;
	}
	e = mnl_nlmsg_get_payload(nlh);
	r->error = e->error > 0 ? -EPROTO : e->error;
	if (!r->error)
		return MNL_CB_STOP;
	/* Without NLM_F_CAPPED the request follows: skip it. */
	if (!(nlh->nlmsg_flags & NLM_F_CAPPED)) {
		if (e->msg.nlmsg_len < sizeof(struct nlmsghdr))
			return MNL_CB_ERROR;
		offset += MNL_ALIGN(e->msg.nlmsg_len) - sizeof(struct nlmsghdr);
	}
	parse_extack(nlh, offset, r);
	return MNL_CB_ERROR;
}

/* The end of a dump, which carries the dump's error, if it failed. */
static int done_cb(const struct nlmsghdr *nlh, void *data)
{
	struct uet_nl_reply *r = data;
	int err;

	if (mnl_nlmsg_get_payload_len(nlh) < sizeof(err))
		return MNL_CB_STOP;
	memcpy(&err, mnl_nlmsg_get_payload(nlh), sizeof(err));
	if (err >= 0)
		return MNL_CB_STOP;
	r->error = err;
	parse_extack(nlh, MNL_ALIGN(sizeof(err)), r);
	return MNL_CB_ERROR;
}

/*
 * Every message, padded to the alignment the kernel pads it to, lies
 * within the buffer: libmnl reads attributes up to the padded end, and
 * compares lengths as signed ints, so that a length of 2^31 or more
 * passes its own check.
 */
static int msgs_fit(const void *buf, size_t len)
{
	const struct nlmsghdr *nlh;
	size_t off = 0;

	while (off + sizeof(*nlh) <= len) {
		nlh = (const struct nlmsghdr *)((const char *)buf + off);
		if (nlh->nlmsg_len < sizeof(*nlh) ||
		    nlh->nlmsg_len > len - off ||
		    NLMSG_ALIGN(nlh->nlmsg_len) > len - off)
			return 0;
		off += NLMSG_ALIGN(nlh->nlmsg_len);
	}
	return 1;
}

int uet_nl_parse(const void *buf, size_t len, uint32_t seq, uint32_t portid,
		 struct uet_nl_reply *r)
{
	static mnl_cb_t ctl[NLMSG_MIN_TYPE] = {	/* libmnl wants it writable */
		[NLMSG_ERROR] = error_cb,
		[NLMSG_DONE] = done_cb,
	};
	int ret;

	if (!msgs_fit(buf, len)) {
		r->error = -EPROTO;
		return MNL_CB_ERROR;
	}
	ret = mnl_cb_run2(buf, len, seq, portid, data_cb, r, ctl,
			  NLMSG_MIN_TYPE);
	if (ret < 0 && !r->error)
		r->error = -EPROTO;
	return ret;
}
