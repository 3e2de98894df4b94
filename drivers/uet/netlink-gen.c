// SPDX-License-Identifier: ((GPL-2.0 WITH Linux-syscall-note) OR BSD-3-Clause)
/* Do not edit directly, auto-generated from: */
/*	Documentation/netlink/specs/uet.yaml */
/* YNL-GEN kernel source */

#include <net/netlink.h>
#include <net/genetlink.h>

#include "netlink-gen.h"

#include <uapi/linux/uet_netlink.h>

/* Integer value ranges */
static const struct netlink_range_validation uet_a_dev_ack_delay_us_range = {
	.max	= UET_ACK_DELAY_US_MAX,
};

static const struct netlink_range_validation uet_a_dev_pdc_pool_range = {
	.min	= 1ULL,
	.max	= UET_PDC_MAX,
};

static const struct netlink_range_validation uet_a_dev_pdc_reserved_range = {
	.max	= UET_PDC_MAX,
};

static const struct netlink_range_validation uet_a_dev_rto_min_us_range = {
	.min	= UET_RTO_US_MIN,
	.max	= UET_RTO_US_MAX,
};

static const struct netlink_range_validation uet_a_dev_rto_max_us_range = {
	.min	= UET_RTO_US_MIN,
	.max	= UET_RTO_US_MAX,
};

static const struct netlink_range_validation uet_a_dev_rto_init_us_range = {
	.min	= UET_RTO_US_MIN,
	.max	= UET_RTO_US_MAX,
};

static const struct netlink_range_validation uet_a_dev_pdc_idle_ms_range = {
	.max	= UET_PDC_IDLE_MS_MAX,
};

static const struct netlink_range_validation uet_a_dev_pdc_per_source_range = {
	.min	= 1ULL,
	.max	= UET_PDC_MAX,
};

static const struct netlink_range_validation uet_a_dev_cc_target_us_range = {
	.max	= UET_CC_TARGET_US_MAX,
};

static const struct netlink_range_validation uet_a_dev_link_mbps_range = {
	.min	= 1ULL,
	.max	= UET_LINK_MBPS_MAX,
};

static const struct netlink_range_validation uet_a_dev_cc_base_rtt_us_range = {
	.max	= UET_CC_TARGET_US_MAX,
};

static const struct netlink_range_validation uet_a_dev_cc_bdp_range = {
	.max	= UET_CC_BDP_MAX,
};

static const struct netlink_range_validation uet_a_dev_cc_mtu_range = {
	.max	= 65535ULL,
};

static const struct netlink_range_validation uet_a_dev_ra_floor_mbps_range = {
	.max	= UET_LINK_MBPS_MAX,
};

static const struct netlink_range_validation uet_a_job_id_range = {
	.max	= UET_JOB_ID_MAX,
};

static const struct netlink_range_validation uet_a_job_cc_target_us_range = {
	.max	= UET_CC_TARGET_US_MAX,
};

static const struct netlink_range_validation uet_a_job_cc_base_rtt_us_range = {
	.max	= UET_CC_TARGET_US_MAX,
};

static const struct netlink_range_validation uet_a_job_cc_bdp_range = {
	.max	= UET_CC_BDP_MAX,
};

static const struct netlink_range_validation uet_a_job_cc_mtu_range = {
	.max	= 65535ULL,
};

static const struct netlink_range_validation uet_a_job_ra_floor_mbps_range = {
	.max	= UET_LINK_MBPS_MAX,
};

static const struct netlink_range_validation uet_a_stats_job_id_range = {
	.max	= UET_JOB_ID_MAX,
};

static const struct netlink_range_validation uet_a_key_job_id_range = {
	.max	= UET_JOB_ID_MAX,
};

/* UET_CMD_DEV_GET - do */
const struct nla_policy uet_dev_get_nl_policy[UET_A_DEV_NAME + 1] = {
	[UET_A_DEV_NAME] = { .type = NLA_NUL_STRING, .len = UET_NAME_MAX_LEN, },
};

/* UET_CMD_DEV_SET - do */
const struct nla_policy uet_dev_set_nl_policy[UET_A_DEV_RA_FLOOR_MBPS + 1] = {
	[UET_A_DEV_NAME] = { .type = NLA_NUL_STRING, .len = UET_NAME_MAX_LEN, },
	[UET_A_DEV_RC_MODE] = NLA_POLICY_MAX(NLA_U8, 1),
	[UET_A_DEV_MAX_PAYLOAD] = NLA_POLICY_MAX(NLA_U32, UET_PAYLOAD_MAX),
	[UET_A_DEV_ACK_DELAY_US] = NLA_POLICY_FULL_RANGE(NLA_U32, &uet_a_dev_ack_delay_us_range),
	[UET_A_DEV_PDC_POOL] = NLA_POLICY_FULL_RANGE(NLA_U32, &uet_a_dev_pdc_pool_range),
	[UET_A_DEV_PDC_RESERVED] = NLA_POLICY_FULL_RANGE(NLA_U32, &uet_a_dev_pdc_reserved_range),
	[UET_A_DEV_PDC_PER_SOURCE] = NLA_POLICY_FULL_RANGE(NLA_U32, &uet_a_dev_pdc_per_source_range),
	[UET_A_DEV_RTO_MIN_US] = NLA_POLICY_FULL_RANGE(NLA_U32, &uet_a_dev_rto_min_us_range),
	[UET_A_DEV_RTO_MAX_US] = NLA_POLICY_FULL_RANGE(NLA_U32, &uet_a_dev_rto_max_us_range),
	[UET_A_DEV_RTO_INIT_US] = NLA_POLICY_FULL_RANGE(NLA_U32, &uet_a_dev_rto_init_us_range),
	[UET_A_DEV_PDC_IDLE_MS] = NLA_POLICY_FULL_RANGE(NLA_U32, &uet_a_dev_pdc_idle_ms_range),
	[UET_A_DEV_CC] = NLA_POLICY_MAX(NLA_U8, 3),
	[UET_A_DEV_CC_TARGET_US] = NLA_POLICY_FULL_RANGE(NLA_U32, &uet_a_dev_cc_target_us_range),
	[UET_A_DEV_CC_BASE_RTT_US] = NLA_POLICY_FULL_RANGE(NLA_U32, &uet_a_dev_cc_base_rtt_us_range),
	[UET_A_DEV_CC_BDP] = NLA_POLICY_FULL_RANGE(NLA_U32, &uet_a_dev_cc_bdp_range),
	[UET_A_DEV_CC_MTU] = NLA_POLICY_FULL_RANGE(NLA_U32, &uet_a_dev_cc_mtu_range),
	[UET_A_DEV_CC_FI_PCT] = NLA_POLICY_MAX(NLA_U32, UET_CC_GAIN_MAX),
	[UET_A_DEV_CC_ALPHA_PCT] = NLA_POLICY_MAX(NLA_U32, UET_CC_GAIN_MAX),
	[UET_A_DEV_CC_ETA_PCT] = NLA_POLICY_MAX(NLA_U32, UET_CC_GAIN_MAX),
	[UET_A_DEV_CC_MD_PCT] = NLA_POLICY_MAX(NLA_U32, 100),
	[UET_A_DEV_CC_IGNORE_PCT] = NLA_POLICY_MAX(NLA_U32, 100),
	[UET_A_DEV_LINK_MBPS] = NLA_POLICY_FULL_RANGE(NLA_U32, &uet_a_dev_link_mbps_range),
	[UET_A_DEV_TC_DSCP] = NLA_POLICY_EXACT_LEN(8),
	[UET_A_DEV_CTL_TC] = NLA_POLICY_MAX(NLA_U8, UET_TC_MAX),
	[UET_A_DEV_LB] = NLA_POLICY_MAX(NLA_U8, 2),
	[UET_A_DEV_LB_PATHS] = NLA_POLICY_RANGE(NLA_U32, 1, UET_LB_PATHS_MAX),
	[UET_A_DEV_SSI] = { .type = NLA_U32, },
	[UET_A_DEV_UDP_PORT] = NLA_POLICY_MIN(NLA_U16, 1),
	[UET_A_DEV_ENCAP] = NLA_POLICY_MAX(NLA_U8, 2),
	[UET_A_DEV_RA_FLOOR_MBPS] = NLA_POLICY_FULL_RANGE(NLA_U32, &uet_a_dev_ra_floor_mbps_range),
};

/* UET_CMD_JOB_GET - do */
const struct nla_policy uet_job_get_nl_policy[UET_A_JOB_ID + 1] = {
	[UET_A_JOB_DEV_NAME] = { .type = NLA_NUL_STRING, .len = UET_NAME_MAX_LEN, },
	[UET_A_JOB_ID] = NLA_POLICY_FULL_RANGE(NLA_U32, &uet_a_job_id_range),
};

/* UET_CMD_JOB_ADD - do */
const struct nla_policy uet_job_add_nl_policy[UET_A_JOB_RA_FLOOR_MBPS + 1] = {
	[UET_A_JOB_DEV_NAME] = { .type = NLA_NUL_STRING, .len = UET_NAME_MAX_LEN, },
	[UET_A_JOB_ID] = NLA_POLICY_FULL_RANGE(NLA_U32, &uet_a_job_id_range),
	[UET_A_JOB_ADDR_MODE] = NLA_POLICY_MAX(NLA_U8, 1),
	[UET_A_JOB_PID_LO] = NLA_POLICY_MAX(NLA_U16, UET_PID_MAX),
	[UET_A_JOB_PID_HI] = NLA_POLICY_MAX(NLA_U16, UET_PID_MAX),
	[UET_A_JOB_TC] = NLA_POLICY_MAX(NLA_U8, UET_TC_MAX),
	[UET_A_JOB_DELIVERY_MODE] = NLA_POLICY_MAX(NLA_U8, 3),
	[UET_A_JOB_CC] = NLA_POLICY_MAX(NLA_U8, 3),
	[UET_A_JOB_CC_TARGET_US] = NLA_POLICY_FULL_RANGE(NLA_U32, &uet_a_job_cc_target_us_range),
	[UET_A_JOB_CC_BASE_RTT_US] = NLA_POLICY_FULL_RANGE(NLA_U32, &uet_a_job_cc_base_rtt_us_range),
	[UET_A_JOB_CC_BDP] = NLA_POLICY_FULL_RANGE(NLA_U32, &uet_a_job_cc_bdp_range),
	[UET_A_JOB_CC_MTU] = NLA_POLICY_FULL_RANGE(NLA_U32, &uet_a_job_cc_mtu_range),
	[UET_A_JOB_CC_FI_PCT] = NLA_POLICY_MAX(NLA_U32, UET_CC_GAIN_MAX),
	[UET_A_JOB_CC_ALPHA_PCT] = NLA_POLICY_MAX(NLA_U32, UET_CC_GAIN_MAX),
	[UET_A_JOB_CC_ETA_PCT] = NLA_POLICY_MAX(NLA_U32, UET_CC_GAIN_MAX),
	[UET_A_JOB_CC_MD_PCT] = NLA_POLICY_MAX(NLA_U32, 100),
	[UET_A_JOB_CC_IGNORE_PCT] = NLA_POLICY_MAX(NLA_U32, 100),
	[UET_A_JOB_LB] = NLA_POLICY_MAX(NLA_U8, 2),
	[UET_A_JOB_LB_PATHS] = NLA_POLICY_RANGE(NLA_U32, 1, UET_LB_PATHS_MAX),
	[UET_A_JOB_RA_FLOOR_MBPS] = NLA_POLICY_FULL_RANGE(NLA_U32, &uet_a_job_ra_floor_mbps_range),
};

/* UET_CMD_JOB_DEL - do */
const struct nla_policy uet_job_del_nl_policy[UET_A_JOB_ID + 1] = {
	[UET_A_JOB_DEV_NAME] = { .type = NLA_NUL_STRING, .len = UET_NAME_MAX_LEN, },
	[UET_A_JOB_ID] = NLA_POLICY_FULL_RANGE(NLA_U32, &uet_a_job_id_range),
};

/* UET_CMD_PROFILE_GET - do */
const struct nla_policy uet_profile_get_nl_policy[UET_A_PROFILE_DEV_NAME + 1] = {
	[UET_A_PROFILE_DEV_NAME] = { .type = NLA_NUL_STRING, .len = UET_NAME_MAX_LEN, },
};

/* UET_CMD_PROFILE_SET - do */
const struct nla_policy uet_profile_set_nl_policy[UET_A_PROFILE_ID + 1] = {
	[UET_A_PROFILE_DEV_NAME] = { .type = NLA_NUL_STRING, .len = UET_NAME_MAX_LEN, },
	[UET_A_PROFILE_ID] = NLA_POLICY_MAX(NLA_U8, 2),
};

/* UET_CMD_PDC_GET - do */
const struct nla_policy uet_pdc_get_nl_policy[UET_A_PDC_LPDCID + 1] = {
	[UET_A_PDC_DEV_NAME] = { .type = NLA_NUL_STRING, .len = UET_NAME_MAX_LEN, },
	[UET_A_PDC_LPDCID] = NLA_POLICY_MIN(NLA_U16, 1),
};

/* UET_CMD_PDC_CLOSE - do */
const struct nla_policy uet_pdc_close_nl_policy[UET_A_PDC_LPDCID + 1] = {
	[UET_A_PDC_DEV_NAME] = { .type = NLA_NUL_STRING, .len = UET_NAME_MAX_LEN, },
	[UET_A_PDC_LPDCID] = NLA_POLICY_MIN(NLA_U16, 1),
};

/* UET_CMD_STATS_GET - do */
const struct nla_policy uet_stats_get_nl_policy[UET_A_STATS_JOB_ID + 1] = {
	[UET_A_STATS_DEV_NAME] = { .type = NLA_NUL_STRING, .len = UET_NAME_MAX_LEN, },
	[UET_A_STATS_JOB_ID] = NLA_POLICY_FULL_RANGE(NLA_U32, &uet_a_stats_job_id_range),
};

/* UET_CMD_KEY_ADD - do */
const struct nla_policy uet_key_add_nl_policy[UET_A_KEY_MODE + 1] = {
	[UET_A_KEY_DEV_NAME] = { .type = NLA_NUL_STRING, .len = UET_NAME_MAX_LEN, },
	[UET_A_KEY_JOB_ID] = NLA_POLICY_FULL_RANGE(NLA_U32, &uet_a_key_job_id_range),
	[UET_A_KEY_AN] = NLA_POLICY_MAX(NLA_U8, UET_KEY_AN_MAX),
	[UET_A_KEY_KEY] = NLA_POLICY_EXACT_LEN(UET_KEY_LEN),
	[UET_A_KEY_EPOCH] = { .type = NLA_U16, },
	[UET_A_KEY_MODE] = NLA_POLICY_MAX(NLA_U8, 1),
};

/* UET_CMD_KEY_DEL - do */
const struct nla_policy uet_key_del_nl_policy[UET_A_KEY_AN + 1] = {
	[UET_A_KEY_DEV_NAME] = { .type = NLA_NUL_STRING, .len = UET_NAME_MAX_LEN, },
	[UET_A_KEY_JOB_ID] = NLA_POLICY_FULL_RANGE(NLA_U32, &uet_a_key_job_id_range),
	[UET_A_KEY_AN] = NLA_POLICY_MAX(NLA_U8, UET_KEY_AN_MAX),
};

/* UET_CMD_KEY_GET - do */
const struct nla_policy uet_key_get_nl_policy[UET_A_KEY_AN + 1] = {
	[UET_A_KEY_DEV_NAME] = { .type = NLA_NUL_STRING, .len = UET_NAME_MAX_LEN, },
	[UET_A_KEY_JOB_ID] = NLA_POLICY_FULL_RANGE(NLA_U32, &uet_a_key_job_id_range),
	[UET_A_KEY_AN] = NLA_POLICY_MAX(NLA_U8, UET_KEY_AN_MAX),
};

/* UET_CMD_KEY_SET - do */
const struct nla_policy uet_key_set_nl_policy[UET_A_KEY_AN + 1] = {
	[UET_A_KEY_DEV_NAME] = { .type = NLA_NUL_STRING, .len = UET_NAME_MAX_LEN, },
	[UET_A_KEY_JOB_ID] = NLA_POLICY_FULL_RANGE(NLA_U32, &uet_a_key_job_id_range),
	[UET_A_KEY_AN] = NLA_POLICY_MAX(NLA_U8, UET_KEY_AN_MAX),
};

/* Ops table for uet */
const struct genl_ops uet_nl_ops[14] = {
	{
		.cmd		= UET_CMD_DEV_GET,
		.doit		= uet_nl_dev_get_doit,
		.dumpit		= uet_nl_dev_get_dumpit,
		.policy		= uet_dev_get_nl_policy,
		.maxattr	= UET_A_DEV_NAME,
	},
	{
		.cmd		= UET_CMD_DEV_SET,
		.doit		= uet_nl_dev_set_doit,
		.policy		= uet_dev_set_nl_policy,
		.maxattr	= UET_A_DEV_RA_FLOOR_MBPS,
		.flags		= GENL_UNS_ADMIN_PERM,
	},
	{
		.cmd		= UET_CMD_JOB_GET,
		.doit		= uet_nl_job_get_doit,
		.dumpit		= uet_nl_job_get_dumpit,
		.policy		= uet_job_get_nl_policy,
		.maxattr	= UET_A_JOB_ID,
	},
	{
		.cmd		= UET_CMD_JOB_ADD,
		.doit		= uet_nl_job_add_doit,
		.policy		= uet_job_add_nl_policy,
		.maxattr	= UET_A_JOB_RA_FLOOR_MBPS,
		.flags		= GENL_UNS_ADMIN_PERM,
	},
	{
		.cmd		= UET_CMD_JOB_DEL,
		.doit		= uet_nl_job_del_doit,
		.policy		= uet_job_del_nl_policy,
		.maxattr	= UET_A_JOB_ID,
		.flags		= GENL_UNS_ADMIN_PERM,
	},
	{
		.cmd		= UET_CMD_PROFILE_GET,
		.doit		= uet_nl_profile_get_doit,
		.dumpit		= uet_nl_profile_get_dumpit,
		.policy		= uet_profile_get_nl_policy,
		.maxattr	= UET_A_PROFILE_DEV_NAME,
	},
	{
		.cmd		= UET_CMD_PROFILE_SET,
		.doit		= uet_nl_profile_set_doit,
		.policy		= uet_profile_set_nl_policy,
		.maxattr	= UET_A_PROFILE_ID,
		.flags		= GENL_UNS_ADMIN_PERM,
	},
	{
		.cmd		= UET_CMD_PDC_GET,
		.doit		= uet_nl_pdc_get_doit,
		.dumpit		= uet_nl_pdc_get_dumpit,
		.policy		= uet_pdc_get_nl_policy,
		.maxattr	= UET_A_PDC_LPDCID,
		.flags		= GENL_UNS_ADMIN_PERM,
	},
	{
		.cmd		= UET_CMD_PDC_CLOSE,
		.doit		= uet_nl_pdc_close_doit,
		.policy		= uet_pdc_close_nl_policy,
		.maxattr	= UET_A_PDC_LPDCID,
		.flags		= GENL_UNS_ADMIN_PERM,
	},
	{
		.cmd		= UET_CMD_STATS_GET,
		.doit		= uet_nl_stats_get_doit,
		.policy		= uet_stats_get_nl_policy,
		.maxattr	= UET_A_STATS_JOB_ID,
	},
	{
		.cmd		= UET_CMD_KEY_ADD,
		.doit		= uet_nl_key_add_doit,
		.policy		= uet_key_add_nl_policy,
		.maxattr	= UET_A_KEY_MODE,
		.flags		= GENL_UNS_ADMIN_PERM,
	},
	{
		.cmd		= UET_CMD_KEY_DEL,
		.doit		= uet_nl_key_del_doit,
		.policy		= uet_key_del_nl_policy,
		.maxattr	= UET_A_KEY_AN,
		.flags		= GENL_UNS_ADMIN_PERM,
	},
	{
		.cmd		= UET_CMD_KEY_GET,
		.doit		= uet_nl_key_get_doit,
		.dumpit		= uet_nl_key_get_dumpit,
		.policy		= uet_key_get_nl_policy,
		.maxattr	= UET_A_KEY_AN,
		.flags		= GENL_UNS_ADMIN_PERM,
	},
	{
		.cmd		= UET_CMD_KEY_SET,
		.doit		= uet_nl_key_set_doit,
		.policy		= uet_key_set_nl_policy,
		.maxattr	= UET_A_KEY_AN,
		.flags		= GENL_UNS_ADMIN_PERM,
	},
};
