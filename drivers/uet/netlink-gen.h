/* SPDX-License-Identifier: ((GPL-2.0 WITH Linux-syscall-note) OR BSD-3-Clause) */
/* Do not edit directly, auto-generated from: */
/*	Documentation/netlink/specs/uet.yaml */
/* YNL-GEN kernel header */

#ifndef _LINUX_UET_GEN_H
#define _LINUX_UET_GEN_H

#include <net/netlink.h>
#include <net/genetlink.h>

#include <uapi/linux/uet_netlink.h>

extern const struct nla_policy uet_dev_get_nl_policy[UET_A_DEV_NAME + 1];

extern const struct nla_policy uet_dev_set_nl_policy[UET_A_DEV_RA_FLOOR_MBPS + 1];

extern const struct nla_policy uet_job_get_nl_policy[UET_A_JOB_ID + 1];

extern const struct nla_policy uet_job_add_nl_policy[UET_A_JOB_RA_FLOOR_MBPS + 1];

extern const struct nla_policy uet_job_del_nl_policy[UET_A_JOB_ID + 1];

extern const struct nla_policy uet_profile_get_nl_policy[UET_A_PROFILE_DEV_NAME + 1];

extern const struct nla_policy uet_profile_set_nl_policy[UET_A_PROFILE_ID + 1];

extern const struct nla_policy uet_pdc_get_nl_policy[UET_A_PDC_LPDCID + 1];

extern const struct nla_policy uet_pdc_close_nl_policy[UET_A_PDC_LPDCID + 1];

extern const struct nla_policy uet_stats_get_nl_policy[UET_A_STATS_JOB_ID + 1];

extern const struct nla_policy uet_key_add_nl_policy[UET_A_KEY_MODE + 1];

extern const struct nla_policy uet_key_del_nl_policy[UET_A_KEY_AN + 1];

extern const struct nla_policy uet_key_get_nl_policy[UET_A_KEY_AN + 1];

extern const struct nla_policy uet_key_set_nl_policy[UET_A_KEY_AN + 1];

/* Ops table for uet */
extern const struct genl_ops uet_nl_ops[14];

int uet_nl_dev_get_doit(struct sk_buff *skb, struct genl_info *info);
int uet_nl_dev_get_dumpit(struct sk_buff *skb, struct netlink_callback *cb);
int uet_nl_dev_set_doit(struct sk_buff *skb, struct genl_info *info);
int uet_nl_job_get_doit(struct sk_buff *skb, struct genl_info *info);
int uet_nl_job_get_dumpit(struct sk_buff *skb, struct netlink_callback *cb);
int uet_nl_job_add_doit(struct sk_buff *skb, struct genl_info *info);
int uet_nl_job_del_doit(struct sk_buff *skb, struct genl_info *info);
int uet_nl_profile_get_doit(struct sk_buff *skb, struct genl_info *info);
int uet_nl_profile_get_dumpit(struct sk_buff *skb, struct netlink_callback *cb);
int uet_nl_profile_set_doit(struct sk_buff *skb, struct genl_info *info);
int uet_nl_pdc_get_doit(struct sk_buff *skb, struct genl_info *info);
int uet_nl_pdc_get_dumpit(struct sk_buff *skb, struct netlink_callback *cb);
int uet_nl_pdc_close_doit(struct sk_buff *skb, struct genl_info *info);
int uet_nl_stats_get_doit(struct sk_buff *skb, struct genl_info *info);
int uet_nl_key_add_doit(struct sk_buff *skb, struct genl_info *info);
int uet_nl_key_del_doit(struct sk_buff *skb, struct genl_info *info);
int uet_nl_key_get_doit(struct sk_buff *skb, struct genl_info *info);
int uet_nl_key_get_dumpit(struct sk_buff *skb, struct netlink_callback *cb);
int uet_nl_key_set_doit(struct sk_buff *skb, struct genl_info *info);

#endif /* _LINUX_UET_GEN_H */
