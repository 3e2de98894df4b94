// SPDX-License-Identifier: GPL-2.0
/*
 * uet netlink: the handlers of the generic netlink family "uet".
 *
 * Documentation/netlink/specs/uet.yaml describes the family; the policies
 * and the op table are generated from it (netlink-gen.c), so the ranges
 * of every attribute are checked before a handler runs.  Handlers check
 * what a policy cannot (relations between attributes, existence of what
 * is named) and say why they refuse in the extended ACK.  Changes need
 * CAP_NET_ADMIN over the caller's network namespace (GENL_UNS_ADMIN_PERM
 * in the op table), and a device is visible only from the namespace of
 * its netdev.
 *
 * Dumps keep their place in cb->args: [0] the RDMA device index to go on
 * from, [1] the position within that device (job ID, local PDCID), [2]
 * set once a dump restricted to one device has finished it.
 */
#include <linux/in6.h>
#include <net/genetlink.h>
#include <uapi/linux/uet_netlink.h>

#include "compat.h"
#include "counters.h"
#include "job.h"
#include "netlink-gen.h"
#include "netlink.h"
#include "pdc.h"
#include "pds.h"
#include "profile.h"
#include "secdom.h"
#include "socket.h"
#include "uet.h"

static struct genl_family uet_nl_family;

enum { DUMP_DEV, DUMP_POS, DUMP_ONE_DONE };

/*
 * The notifications' group: joining it needs CAP_NET_ADMIN over the
 * namespace, as reading PDCs does (the spec's mcgrp-monitor).
 */
enum { UET_NLGRP_MONITOR };

static const struct genl_multicast_group uet_nl_mcgrps[] = {
	[UET_NLGRP_MONITOR] = {
		.name = UET_MCGRP_MONITOR,
		.flags = GENL_MCAST_CAP_NET_ADMIN,
	},
};

/*
 * Set while the family is registered.  Notifications come from the
 * engine's softirqs and from device teardown, which can outlast the
 * family at module exit: each checks it in the RCU read-side section it
 * sends in, and uet_netlink_exit() clears it and waits for them.
 */
static bool nl_live;

static int nl_missing(struct genl_info *info, int attr)
{
	if (!GENL_REQ_ATTR_CHECK(info, attr))
		return 0;
	NL_SET_ERR_MSG(info->extack, "Missing a required attribute");
	return -EINVAL;
}

/* The device @attr names, if its netdev is in @net; referenced. */
static struct uet_dev *nl_dev(struct net *net, const struct nlattr *attr,
			      struct netlink_ext_ack *extack)
{
	struct uet_dev *udev = uet_dev_get(nla_data(attr));

	if (udev && !net_eq(dev_net(udev->ndev), net)) {
		ib_device_put(&udev->ibdev);
		udev = NULL;
	}
	if (!udev) {
		NL_SET_ERR_MSG_ATTR(extack, attr,
				    "No uet device of this name in this network namespace");
		return ERR_PTR(-ENODEV);
	}
	return udev;
}

static struct uet_dev *nl_info_dev(struct genl_info *info, int attr)
{
	int err = nl_missing(info, attr);

	if (err)
		return ERR_PTR(err);
	return nl_dev(genl_info_net(info), info->attrs[attr], info->extack);
}

static void nl_dev_put(struct uet_dev *udev)
{
	ib_device_put(&udev->ibdev);
}

/* An attribute filled from a counter. */
struct counter_attr {
	u16 attr;
	u16 counter;
};

static const struct counter_attr dev_counter_attrs[] = {
	{ UET_A_DEV_TX_PACKETS, UET_CNT_TX_PACKETS },
	{ UET_A_DEV_TX_BYTES, UET_CNT_TX_BYTES },
	{ UET_A_DEV_RX_PACKETS, UET_CNT_RX_PACKETS },
	{ UET_A_DEV_RX_BYTES, UET_CNT_RX_BYTES },
};

static const struct counter_attr job_counter_attrs[] = {
	{ UET_A_JOB_TX_PACKETS, UET_JOB_CNT_TX_PACKETS },
	{ UET_A_JOB_TX_BYTES, UET_JOB_CNT_TX_BYTES },
	{ UET_A_JOB_RX_PACKETS, UET_JOB_CNT_RX_PACKETS },
	{ UET_A_JOB_RX_BYTES, UET_JOB_CNT_RX_BYTES },
	{ UET_A_JOB_ERRORS, UET_JOB_CNT_ERRORS },
};

static int put_u64(struct sk_buff *skb, int attr, u64 v, int pad)
{
	return nla_put_u64_64bit(skb, attr, v, pad);
}

static const char *dev_name_of(struct uet_dev *udev)
{
	return dev_name(&udev->ibdev.dev);
}

/* Reply to a do request with the message @fill builds. */
typedef int (*nl_fill_fn)(struct sk_buff *skb, void *obj, u32 portid,
			  u32 seq, int flags);

static int nl_reply(struct genl_info *info, nl_fill_fn fill, void *obj)
{
	struct sk_buff *msg;
	int err;

	msg = genlmsg_new(NLMSG_GOODSIZE, GFP_KERNEL);
	if (!msg)
		return -ENOMEM;
	err = fill(msg, obj, info->snd_portid, info->snd_seq, 0);
	if (err) {
		nlmsg_free(msg);
		return err;
	}
	return genlmsg_reply(msg, info);
}

/* --- notifications --- */

static bool nl_listened(struct net *net)
{
	return READ_ONCE(nl_live) &&
	       genl_has_listeners(&uet_nl_family, net, UET_NLGRP_MONITOR);
}

/*
 * Send @msg, built by a get's fill, to @net's monitor group as command
 * @cmd: a notification carries its get reply's attributes under its own
 * command (the spec's "notify: dev-get").  Consumes @msg.
 */
static void nl_multicast(struct net *net, struct sk_buff *msg, u8 cmd)
{
	struct genlmsghdr *g = nlmsg_data(nlmsg_hdr(msg));

	g->cmd = cmd;
	rcu_read_lock();
	if (READ_ONCE(nl_live))
		genlmsg_multicast_netns(&uet_nl_family, net, msg, 0,
					UET_NLGRP_MONITOR, GFP_ATOMIC);
	else
		nlmsg_free(msg);
	rcu_read_unlock();
}

/* Notify @net's monitor group of @obj as @fill puts it.  May sleep. */
static void nl_notify(struct net *net, u8 cmd, nl_fill_fn fill, void *obj)
{
	struct sk_buff *msg;

	if (!nl_listened(net))
		return;
	msg = genlmsg_new(NLMSG_GOODSIZE, GFP_KERNEL);
	if (!msg)
		return;
	if (fill(msg, obj, 0, 0, 0)) {
		nlmsg_free(msg);
		return;
	}
	nl_multicast(net, msg, cmd);
}

/* --- devices --- */

/* The DSCP of each traffic class, as the control plane last set them. */
static int dev_put_dscp(struct sk_buff *skb, const struct uet_dev_cfg *cfg)
{
	u8 dscp[UET_TC_MAX + 1];
	int i;

	for (i = 0; i <= UET_TC_MAX; i++)
		dscp[i] = READ_ONCE(cfg->tc_dscp[i]);
	return nla_put(skb, UET_A_DEV_TC_DSCP, sizeof(dscp), dscp);
}

/* NSCC's parameters, a device's and a job's attributes */
static const struct {
	u16 dev;
	u16 job;
} nscc_attrs[UET_NSCC_NUM_PARAMS] = {
	[UET_NSCC_P_TARGET_US] = { UET_A_DEV_CC_TARGET_US, UET_A_JOB_CC_TARGET_US },
	[UET_NSCC_P_BASE_RTT_US] = { UET_A_DEV_CC_BASE_RTT_US, UET_A_JOB_CC_BASE_RTT_US },
	[UET_NSCC_P_BDP] = { UET_A_DEV_CC_BDP, UET_A_JOB_CC_BDP },
	[UET_NSCC_P_MTU] = { UET_A_DEV_CC_MTU, UET_A_JOB_CC_MTU },
	[UET_NSCC_P_FI] = { UET_A_DEV_CC_FI_PCT, UET_A_JOB_CC_FI_PCT },
	[UET_NSCC_P_ALPHA] = { UET_A_DEV_CC_ALPHA_PCT, UET_A_JOB_CC_ALPHA_PCT },
	[UET_NSCC_P_ETA] = { UET_A_DEV_CC_ETA_PCT, UET_A_JOB_CC_ETA_PCT },
	[UET_NSCC_P_MD] = { UET_A_DEV_CC_MD_PCT, UET_A_JOB_CC_MD_PCT },
	[UET_NSCC_P_IGNORE] = { UET_A_DEV_CC_IGNORE_PCT, UET_A_JOB_CC_IGNORE_PCT },
};

/*
 * The NSCC parameters of @a, a device's (@job false) or a job's, into
 * @params; each one given sets its bit in @set, if any.  The policy checked the
 * ranges but for the MTU's floor.
 */
static int nscc_parse(struct nlattr **a, bool job, u32 *params, u16 *set,
		      struct netlink_ext_ack *extack)
{
	int i;

	for (i = 0; i < UET_NSCC_NUM_PARAMS; i++) {
		const struct nlattr *attr = a[job ? nscc_attrs[i].job :
						    nscc_attrs[i].dev];
		u32 v;

		if (!attr)
			continue;
		v = nla_get_u32(attr);
		if (i == UET_NSCC_P_MTU && v && v < UET_PAYLOAD_MIN) {
			NL_SET_ERR_MSG_ATTR(extack, attr,
					    "cc-mtu must be 0 (the netdev's) or at least 256");
			return -ERANGE;
		}
		params[i] = v;
		if (set)
			*set |= BIT(i);
	}
	return 0;
}

static int dev_fill(struct sk_buff *skb, void *obj, u32 portid, u32 seq,
		    int flags)
{
	struct uet_dev *udev = obj;
	const struct uet_dev_cfg *cfg = &udev->cfg;
	unsigned int i;
	void *hdr;

	hdr = genlmsg_put(skb, portid, seq, &uet_nl_family, flags,
			  UET_CMD_DEV_GET);
	if (!hdr)
		return -EMSGSIZE;
	if (nla_put_string(skb, UET_A_DEV_NAME, dev_name_of(udev)) ||
	    nla_put_string(skb, UET_A_DEV_NETDEV, udev->ndev->name) ||
	    nla_put_u32(skb, UET_A_DEV_IFINDEX, udev->ndev->ifindex) ||
	    nla_put_u8(skb, UET_A_DEV_RC_MODE, READ_ONCE(cfg->rc_mode)) ||
	    nla_put_u32(skb, UET_A_DEV_MAX_PAYLOAD, READ_ONCE(cfg->max_payload)) ||
	    nla_put_u32(skb, UET_A_DEV_ACK_DELAY_US, READ_ONCE(cfg->ack_delay_us)) ||
	    nla_put_u32(skb, UET_A_DEV_PDC_POOL, READ_ONCE(cfg->pdc_pool)) ||
	    nla_put_u32(skb, UET_A_DEV_PDC_RESERVED, READ_ONCE(cfg->pdc_reserved)) ||
	    nla_put_u32(skb, UET_A_DEV_PDC_PER_SOURCE, READ_ONCE(cfg->pdc_per_source)) ||
	    nla_put_u32(skb, UET_A_DEV_RTO_MIN_US, READ_ONCE(cfg->rto_min_us)) ||
	    nla_put_u32(skb, UET_A_DEV_RTO_MAX_US, READ_ONCE(cfg->rto_max_us)) ||
	    nla_put_u32(skb, UET_A_DEV_RTO_INIT_US, READ_ONCE(cfg->rto_initial_us)) ||
	    nla_put_u32(skb, UET_A_DEV_PDC_IDLE_MS, READ_ONCE(cfg->pdc_idle_ms)) ||
	    nla_put_u8(skb, UET_A_DEV_CC, READ_ONCE(cfg->cc)) ||
	    nla_put_u32(skb, UET_A_DEV_LINK_MBPS, READ_ONCE(cfg->link_mbps)) ||
	    dev_put_dscp(skb, cfg) ||
	    nla_put_u8(skb, UET_A_DEV_CTL_TC, READ_ONCE(cfg->ctl_tc)) ||
	    nla_put_u8(skb, UET_A_DEV_LB, READ_ONCE(cfg->lb)) ||
	    nla_put_u32(skb, UET_A_DEV_LB_PATHS, READ_ONCE(cfg->lb_paths)) ||
	    nla_put_u32(skb, UET_A_DEV_SSI, READ_ONCE(cfg->ssi)) ||
	    nla_put_u16(skb, UET_A_DEV_UDP_PORT, READ_ONCE(cfg->udp_port)) ||
	    nla_put_u8(skb, UET_A_DEV_ENCAP, READ_ONCE(cfg->encap)) ||
	    nla_put_u32(skb, UET_A_DEV_RA_FLOOR_MBPS,
			READ_ONCE(cfg->ra_floor_mbps)) ||
	    nla_put_u8(skb, UET_A_DEV_PROFILE, READ_ONCE(cfg->profile)) ||
	    nla_put_u32(skb, UET_A_DEV_JOBS, uet_jobs_count(udev)) ||
	    nla_put_u32(skb, UET_A_DEV_PDCS, uet_pds_count(udev)))
		goto cancel;
	for (i = 0; i < UET_NSCC_NUM_PARAMS; i++)
		if (nla_put_u32(skb, nscc_attrs[i].dev, READ_ONCE(cfg->nscc[i])))
			goto cancel;
	for (i = 0; i < ARRAY_SIZE(dev_counter_attrs); i++)
		if (put_u64(skb, dev_counter_attrs[i].attr,
			    uet_counter_read(udev, dev_counter_attrs[i].counter),
			    UET_A_DEV_PAD))
			goto cancel;
	genlmsg_end(skb, hdr);
	return 0;

cancel:
	genlmsg_cancel(skb, hdr);
	return -EMSGSIZE;
}

/* A device that went away: what names it. */
static int dev_gone_fill(struct sk_buff *skb, void *obj, u32 portid, u32 seq,
			 int flags)
{
	struct uet_dev *udev = obj;
	void *hdr;

	hdr = genlmsg_put(skb, portid, seq, &uet_nl_family, flags,
			  UET_CMD_DEV_GET);
	if (!hdr)
		return -EMSGSIZE;
	if (nla_put_string(skb, UET_A_DEV_NAME, dev_name_of(udev)) ||
	    nla_put_string(skb, UET_A_DEV_NETDEV, udev->ndev->name) ||
	    nla_put_u32(skb, UET_A_DEV_IFINDEX, udev->ndev->ifindex)) {
		genlmsg_cancel(skb, hdr);
		return -EMSGSIZE;
	}
	genlmsg_end(skb, hdr);
	return 0;
}

/**
 * uet_nl_dev_notify() - tell the monitor group a device came or went
 * @udev: the device, registered with the RDMA core (@added) or being
 *	released after it was
 * @added: whether it came
 *
 * Context: process; may sleep.
 */
void uet_nl_dev_notify(struct uet_dev *udev, bool added)
{
	nl_notify(dev_net(udev->ndev),
		  added ? UET_CMD_DEV_ADD_NTF : UET_CMD_DEV_DEL_NTF,
		  added ? dev_fill : dev_gone_fill, udev);
}

int uet_nl_dev_get_doit(struct sk_buff *skb, struct genl_info *info)
{
	struct uet_dev *udev = nl_info_dev(info, UET_A_DEV_NAME);
	int err;

	if (IS_ERR(udev))
		return PTR_ERR(udev);
	err = nl_reply(info, dev_fill, udev);
	nl_dev_put(udev);
	return err;
}

/* Fill @skb with what @udev holds from cb->args[DUMP_POS] on. */
typedef int (*nl_dump_dev_fn)(struct sk_buff *skb, struct netlink_callback *cb,
			      struct uet_dev *udev);

/*
 * A dump over the devices of the caller's namespace, or only over the one
 * @name_attr names.  Returns what a dumpit returns: the length filled, 0
 * once there is nothing more, or an error.
 */
static int nl_dump_devs(struct sk_buff *skb, struct netlink_callback *cb,
			const struct nlattr *name_attr, nl_dump_dev_fn fn)
{
	struct net *net = sock_net(skb->sk);
	struct uet_dev *udev;
	u32 index;
	int err = 0;

	if (name_attr) {
		if (cb->args[DUMP_ONE_DONE])
			return 0;
		udev = nl_dev(net, name_attr, cb->extack);
		if (IS_ERR(udev))
			return PTR_ERR(udev);
		err = fn(skb, cb, udev);
		nl_dev_put(udev);
		if (!err)
			cb->args[DUMP_ONE_DONE] = 1;
	} else {
		index = cb->args[DUMP_DEV];
		while ((udev = uet_dev_get_next(net, &index))) {
			err = fn(skb, cb, udev);
			nl_dev_put(udev);
			if (err)
				break;
			cb->args[DUMP_DEV] = ++index;
			cb->args[DUMP_POS] = 0;
		}
	}
	if (err == -EMSGSIZE && skb->len)
		return skb->len;
	return err ?: skb->len;
}

static int dev_dump_one(struct sk_buff *skb, struct netlink_callback *cb,
			struct uet_dev *udev)
{
	return dev_fill(skb, udev, NETLINK_CB(cb->skb).portid,
			cb->nlh->nlmsg_seq, NLM_F_MULTI);
}

int uet_nl_dev_get_dumpit(struct sk_buff *skb, struct netlink_callback *cb)
{
	return nl_dump_devs(skb, cb, NULL, dev_dump_one);
}

/* Apply @info's settings to @cfg, checking what the policy cannot. */
static int dev_cfg_parse(struct uet_dev *udev, struct genl_info *info,
			 struct uet_dev_cfg *cfg)
{
	struct nlattr **a = info->attrs;
	int err, i;

	if (a[UET_A_DEV_RC_MODE]) {
		cfg->rc_mode = nla_get_u8(a[UET_A_DEV_RC_MODE]);
		err = uet_profile_check(udev, uet_profile_mode_feature(cfg->rc_mode),
					info->extack);
		if (err) {
			NL_SET_BAD_ATTR(info->extack, a[UET_A_DEV_RC_MODE]);
			return err;
		}
	}
	if (a[UET_A_DEV_MAX_PAYLOAD]) {
		cfg->max_payload = nla_get_u32(a[UET_A_DEV_MAX_PAYLOAD]);
		if (cfg->max_payload && cfg->max_payload < UET_PAYLOAD_MIN) {
			NL_SET_ERR_MSG_ATTR(info->extack, a[UET_A_DEV_MAX_PAYLOAD],
					    "max-payload must be 0 (from the MTU) or at least 256");
			return -ERANGE;
		}
	}
	if (a[UET_A_DEV_ACK_DELAY_US])
		cfg->ack_delay_us = nla_get_u32(a[UET_A_DEV_ACK_DELAY_US]);
	if (a[UET_A_DEV_PDC_POOL])
		cfg->pdc_pool = nla_get_u32(a[UET_A_DEV_PDC_POOL]);
	if (a[UET_A_DEV_PDC_RESERVED])
		cfg->pdc_reserved = nla_get_u32(a[UET_A_DEV_PDC_RESERVED]);
	if (a[UET_A_DEV_PDC_PER_SOURCE])
		cfg->pdc_per_source = nla_get_u32(a[UET_A_DEV_PDC_PER_SOURCE]);
	if (a[UET_A_DEV_RTO_MIN_US])
		cfg->rto_min_us = nla_get_u32(a[UET_A_DEV_RTO_MIN_US]);
	if (a[UET_A_DEV_RTO_MAX_US])
		cfg->rto_max_us = nla_get_u32(a[UET_A_DEV_RTO_MAX_US]);
	if (a[UET_A_DEV_RTO_INIT_US])
		cfg->rto_initial_us = nla_get_u32(a[UET_A_DEV_RTO_INIT_US]);
	if (a[UET_A_DEV_PDC_IDLE_MS])
		cfg->pdc_idle_ms = nla_get_u32(a[UET_A_DEV_PDC_IDLE_MS]);
	if (a[UET_A_DEV_CC])
		cfg->cc = nla_get_u8(a[UET_A_DEV_CC]);
	err = nscc_parse(a, false, cfg->nscc, NULL, info->extack);
	if (err)
		return err;
	if (a[UET_A_DEV_LINK_MBPS])
		cfg->link_mbps = nla_get_u32(a[UET_A_DEV_LINK_MBPS]);
	if (a[UET_A_DEV_TC_DSCP]) {
		const u8 *dscp = nla_data(a[UET_A_DEV_TC_DSCP]);

		for (i = 0; i <= UET_TC_MAX; i++) {
			if (dscp[i] > UET_DSCP_MAX) {
				NL_SET_ERR_MSG_ATTR(info->extack, a[UET_A_DEV_TC_DSCP],
						    "a DSCP is at most 63");
				return -ERANGE;
			}
			cfg->tc_dscp[i] = dscp[i];
		}
	}
	if (a[UET_A_DEV_CTL_TC])
		cfg->ctl_tc = nla_get_u8(a[UET_A_DEV_CTL_TC]);
	if (a[UET_A_DEV_LB])
		cfg->lb = nla_get_u8(a[UET_A_DEV_LB]);
	if (a[UET_A_DEV_LB_PATHS])
		cfg->lb_paths = nla_get_u32(a[UET_A_DEV_LB_PATHS]);
	if (a[UET_A_DEV_SSI])
		cfg->ssi = nla_get_u32(a[UET_A_DEV_SSI]);
	if (a[UET_A_DEV_UDP_PORT])
		cfg->udp_port = nla_get_u16(a[UET_A_DEV_UDP_PORT]);
	if (a[UET_A_DEV_ENCAP])
		cfg->encap = nla_get_u8(a[UET_A_DEV_ENCAP]);
	if (a[UET_A_DEV_RA_FLOOR_MBPS])
		cfg->ra_floor_mbps = nla_get_u32(a[UET_A_DEV_RA_FLOOR_MBPS]);

	if ((u64)cfg->pdc_pool + cfg->pdc_reserved > UET_PDC_MAX) {
		NL_SET_ERR_MSG(info->extack,
			       "pdc-pool plus pdc-reserved exceeds the 65535 PDC identifiers");
		return -ERANGE;
	}
	if (cfg->rto_min_us > cfg->rto_initial_us ||
	    cfg->rto_initial_us > cfg->rto_max_us) {
		NL_SET_ERR_MSG(info->extack,
			       "RTO settings must satisfy rto-min <= rto-initial <= rto-max");
		return -EINVAL;
	}
	return 0;
}

/*
 * The device's or a job's settings changed: senders take their congestion
 * control anew (struct uet_dev's @cc_gen), after the settings' writes.
 */
static void nl_cc_changed(struct uet_dev *udev)
{
	/* the settings' writes first: pairs with the senders' smp_rmb() */
	smp_mb__before_atomic();
	atomic_inc(&udev->cc_gen);
}

int uet_nl_dev_set_doit(struct sk_buff *skb, struct genl_info *info)
{
	struct uet_dev *udev = nl_info_dev(info, UET_A_DEV_NAME);
	struct uet_dev_cfg cfg;
	int err, i;

	if (IS_ERR(udev))
		return PTR_ERR(udev);
	mutex_lock(&uet_devs_lock);
	cfg = udev->cfg;
	err = dev_cfg_parse(udev, info, &cfg);
	/* the one setting that may fail to apply goes first */
	if (!err && cfg.udp_port != udev->cfg.udp_port) {
		err = uet_socket_set_port(udev, cfg.udp_port);
		if (err)
			NL_SET_ERR_MSG_ATTR(info->extack,
					    info->attrs[UET_A_DEV_UDP_PORT],
					    "cannot open the UDP port in the device's namespace");
	}
	if (!err) {
		bool idle_changed = cfg.pdc_idle_ms != udev->cfg.pdc_idle_ms;

		WRITE_ONCE(udev->cfg.rc_mode, cfg.rc_mode);
		WRITE_ONCE(udev->cfg.max_payload, cfg.max_payload);
		WRITE_ONCE(udev->cfg.ack_delay_us, cfg.ack_delay_us);
		WRITE_ONCE(udev->cfg.pdc_pool, cfg.pdc_pool);
		WRITE_ONCE(udev->cfg.pdc_reserved, cfg.pdc_reserved);
		WRITE_ONCE(udev->cfg.pdc_per_source, cfg.pdc_per_source);
		WRITE_ONCE(udev->cfg.rto_min_us, cfg.rto_min_us);
		WRITE_ONCE(udev->cfg.rto_max_us, cfg.rto_max_us);
		WRITE_ONCE(udev->cfg.rto_initial_us, cfg.rto_initial_us);
		WRITE_ONCE(udev->cfg.pdc_idle_ms, cfg.pdc_idle_ms);
		WRITE_ONCE(udev->cfg.cc, cfg.cc);
		for (i = 0; i < UET_NSCC_NUM_PARAMS; i++)
			WRITE_ONCE(udev->cfg.nscc[i], cfg.nscc[i]);
		WRITE_ONCE(udev->cfg.link_mbps, cfg.link_mbps);
		for (i = 0; i <= UET_TC_MAX; i++)
			WRITE_ONCE(udev->cfg.tc_dscp[i], cfg.tc_dscp[i]);
		WRITE_ONCE(udev->cfg.ctl_tc, cfg.ctl_tc);
		WRITE_ONCE(udev->cfg.lb, cfg.lb);
		WRITE_ONCE(udev->cfg.lb_paths, cfg.lb_paths);
		WRITE_ONCE(udev->cfg.ssi, cfg.ssi);
		WRITE_ONCE(udev->cfg.udp_port, cfg.udp_port);
		WRITE_ONCE(udev->cfg.encap, cfg.encap);
		WRITE_ONCE(udev->cfg.ra_floor_mbps, cfg.ra_floor_mbps);
		nl_cc_changed(udev);
		if (idle_changed)
			uet_pds_idle_changed(udev);
	}
	mutex_unlock(&uet_devs_lock);
	if (!err)
		nl_notify(dev_net(udev->ndev), UET_CMD_DEV_CHANGE_NTF, dev_fill,
			  udev);
	nl_dev_put(udev);
	return err;
}

/* --- jobs --- */

struct job_msg {
	struct uet_dev *udev;
	struct uet_job *job;
	u32 id;			/* a job gone: job_gone_fill() */
};

static int job_fill(struct sk_buff *skb, void *obj, u32 portid, u32 seq,
		    int flags)
{
	const struct job_msg *m = obj;
	const struct uet_job *job = m->job;
	unsigned int i;
	void *hdr;

	hdr = genlmsg_put(skb, portid, seq, &uet_nl_family, flags,
			  UET_CMD_JOB_GET);
	if (!hdr)
		return -EMSGSIZE;
	if (nla_put_string(skb, UET_A_JOB_DEV_NAME, dev_name_of(m->udev)) ||
	    nla_put_u32(skb, UET_A_JOB_ID, job->cfg.id) ||
	    nla_put_u8(skb, UET_A_JOB_ADDR_MODE, job->cfg.addr_mode) ||
	    nla_put_u16(skb, UET_A_JOB_PID_LO, job->cfg.pid_lo) ||
	    nla_put_u16(skb, UET_A_JOB_PID_HI, job->cfg.pid_hi) ||
	    nla_put_u8(skb, UET_A_JOB_TC, job->cfg.tc) ||
	    nla_put_u8(skb, UET_A_JOB_DELIVERY_MODE, job->cfg.mode) ||
	    (job->cfg.cc != UET_PDS_CC_DEVICE &&
	     nla_put_u8(skb, UET_A_JOB_CC, job->cfg.cc - 1)) ||
	    (job->cfg.lb != UET_JOB_LB_DEVICE &&
	     nla_put_u8(skb, UET_A_JOB_LB, job->cfg.lb - 1)) ||
	    (job->cfg.lb_paths &&
	     nla_put_u32(skb, UET_A_JOB_LB_PATHS, job->cfg.lb_paths)) ||
	    (READ_ONCE(job->secdom.secure) &&
	     nla_put_flag(skb, UET_A_JOB_SECURE)) ||
	    (job->cfg.ra_set &&
	     nla_put_u32(skb, UET_A_JOB_RA_FLOOR_MBPS, job->cfg.ra_floor_mbps)))
		goto cancel;
	for (i = 0; i < UET_NSCC_NUM_PARAMS; i++)
		if (job->cfg.nscc_set & BIT(i) &&
		    nla_put_u32(skb, nscc_attrs[i].job, job->cfg.nscc[i]))
			goto cancel;
	for (i = 0; i < ARRAY_SIZE(job_counter_attrs); i++)
		if (put_u64(skb, job_counter_attrs[i].attr,
			    uet_job_counter_read(job, job_counter_attrs[i].counter),
			    UET_A_JOB_PAD))
			goto cancel;
	genlmsg_end(skb, hdr);
	return 0;

cancel:
	genlmsg_cancel(skb, hdr);
	return -EMSGSIZE;
}

/* A job that went away: its device and ID (@obj a struct job_msg). */
static int job_gone_fill(struct sk_buff *skb, void *obj, u32 portid, u32 seq,
			 int flags)
{
	const struct job_msg *m = obj;
	void *hdr;

	hdr = genlmsg_put(skb, portid, seq, &uet_nl_family, flags,
			  UET_CMD_JOB_GET);
	if (!hdr)
		return -EMSGSIZE;
	if (nla_put_string(skb, UET_A_JOB_DEV_NAME, dev_name_of(m->udev)) ||
	    nla_put_u32(skb, UET_A_JOB_ID, m->id)) {
		genlmsg_cancel(skb, hdr);
		return -EMSGSIZE;
	}
	genlmsg_end(skb, hdr);
	return 0;
}

/* Tell the monitor group job @id of @udev came (as it is now) or went. */
static void job_notify(struct uet_dev *udev, u32 id, bool added)
{
	struct job_msg m = { .udev = udev, .id = id };

	if (!added) {
		nl_notify(dev_net(udev->ndev), UET_CMD_JOB_DEL_NTF,
			  job_gone_fill, &m);
		return;
	}
	m.job = uet_job_get(udev, id);
	if (!m.job)
		return;		/* gone again already */
	nl_notify(dev_net(udev->ndev), UET_CMD_JOB_ADD_NTF, job_fill, &m);
	uet_job_put(m.job);
}

/* The job @info names on @udev, referenced. */
static struct uet_job *nl_info_job(struct uet_dev *udev, struct genl_info *info,
				   int attr)
{
	struct uet_job *job;
	int err;

	err = nl_missing(info, attr);
	if (err)
		return ERR_PTR(err);
	job = uet_job_get(udev, nla_get_u32(info->attrs[attr]));
	if (!job) {
		NL_SET_ERR_MSG_ATTR(info->extack, info->attrs[attr],
				    "No job with this ID on this device");
		return ERR_PTR(-ENOENT);
	}
	return job;
}

int uet_nl_job_get_doit(struct sk_buff *skb, struct genl_info *info)
{
	struct job_msg m;
	int err;

	m.udev = nl_info_dev(info, UET_A_JOB_DEV_NAME);
	if (IS_ERR(m.udev))
		return PTR_ERR(m.udev);
	m.job = nl_info_job(m.udev, info, UET_A_JOB_ID);
	if (IS_ERR(m.job)) {
		err = PTR_ERR(m.job);
	} else {
		err = nl_reply(info, job_fill, &m);
		uet_job_put(m.job);
	}
	nl_dev_put(m.udev);
	return err;
}

static int job_dump_dev(struct sk_buff *skb, struct netlink_callback *cb,
			struct uet_dev *udev)
{
	unsigned long id = cb->args[DUMP_POS];
	struct job_msg m = { .udev = udev };
	int err;

	while ((m.job = uet_job_get_next(udev, &id))) {
		err = job_fill(skb, &m, NETLINK_CB(cb->skb).portid,
			       cb->nlh->nlmsg_seq, NLM_F_MULTI);
		uet_job_put(m.job);
		if (err) {
			cb->args[DUMP_POS] = id;
			return err;
		}
		id++;
	}
	return 0;
}

int uet_nl_job_get_dumpit(struct sk_buff *skb, struct netlink_callback *cb)
{
	return nl_dump_devs(skb, cb, uet_nl_dump_attrs(cb)[UET_A_JOB_DEV_NAME],
			    job_dump_dev);
}

int uet_nl_job_add_doit(struct sk_buff *skb, struct genl_info *info)
{
	struct uet_job_cfg cfg = {
		.addr_mode = UET_ADDR_MODE_RELATIVE,
		.pid_hi = UET_PID_MAX,
		.mode = UET_PDC_RUD,
	};
	struct nlattr **a = info->attrs;
	struct uet_dev *udev;
	int err;

	udev = nl_info_dev(info, UET_A_JOB_DEV_NAME);
	if (IS_ERR(udev))
		return PTR_ERR(udev);
	err = nl_missing(info, UET_A_JOB_ID);
	if (err)
		goto out;
	cfg.id = nla_get_u32(a[UET_A_JOB_ID]);
	if (a[UET_A_JOB_ADDR_MODE])
		cfg.addr_mode = nla_get_u8(a[UET_A_JOB_ADDR_MODE]);
	if (a[UET_A_JOB_PID_LO])
		cfg.pid_lo = nla_get_u16(a[UET_A_JOB_PID_LO]);
	if (a[UET_A_JOB_PID_HI])
		cfg.pid_hi = nla_get_u16(a[UET_A_JOB_PID_HI]);
	if (a[UET_A_JOB_TC])
		cfg.tc = nla_get_u8(a[UET_A_JOB_TC]);
	if (a[UET_A_JOB_DELIVERY_MODE])
		cfg.mode = nla_get_u8(a[UET_A_JOB_DELIVERY_MODE]);
	if (a[UET_A_JOB_CC])
		cfg.cc = nla_get_u8(a[UET_A_JOB_CC]) + 1;
	if (a[UET_A_JOB_LB])
		cfg.lb = nla_get_u8(a[UET_A_JOB_LB]) + 1;
	if (a[UET_A_JOB_LB_PATHS])
		cfg.lb_paths = nla_get_u32(a[UET_A_JOB_LB_PATHS]);
	if (a[UET_A_JOB_RA_FLOOR_MBPS]) {
		cfg.ra_floor_mbps = nla_get_u32(a[UET_A_JOB_RA_FLOOR_MBPS]);
		cfg.ra_set = true;
	}
	err = nscc_parse(a, true, cfg.nscc, &cfg.nscc_set, info->extack);
	if (!err)
		err = uet_job_add(udev, &cfg, info->extack);
	if (!err) {
		nl_cc_changed(udev);
		job_notify(udev, cfg.id, true);
	}
out:
	nl_dev_put(udev);
	return err;
}

int uet_nl_job_del_doit(struct sk_buff *skb, struct genl_info *info)
{
	struct uet_dev *udev;
	int err;

	udev = nl_info_dev(info, UET_A_JOB_DEV_NAME);
	if (IS_ERR(udev))
		return PTR_ERR(udev);
	err = nl_missing(info, UET_A_JOB_ID);
	if (!err)
		err = uet_job_del(udev, nla_get_u32(info->attrs[UET_A_JOB_ID]),
				  info->extack);
	if (!err) {
		nl_cc_changed(udev);
		job_notify(udev, nla_get_u32(info->attrs[UET_A_JOB_ID]), false);
	}
	nl_dev_put(udev);
	return err;
}

/* --- profiles --- */

struct profile_msg {
	struct uet_dev *udev;	/* NULL: an entry of the profile table */
	u8 profile;
};

static int profile_fill(struct sk_buff *skb, void *obj, u32 portid, u32 seq,
			int flags)
{
	const struct profile_msg *m = obj;
	void *hdr;

	hdr = genlmsg_put(skb, portid, seq, &uet_nl_family, flags,
			  UET_CMD_PROFILE_GET);
	if (!hdr)
		return -EMSGSIZE;
	if ((m->udev &&
	     nla_put_string(skb, UET_A_PROFILE_DEV_NAME, dev_name_of(m->udev))) ||
	    nla_put_u8(skb, UET_A_PROFILE_ID, m->profile) ||
	    nla_put_u32(skb, UET_A_PROFILE_FEATURES,
			uet_profile_features(m->profile))) {
		genlmsg_cancel(skb, hdr);
		return -EMSGSIZE;
	}
	genlmsg_end(skb, hdr);
	return 0;
}

int uet_nl_profile_get_doit(struct sk_buff *skb, struct genl_info *info)
{
	struct profile_msg m;
	int err;

	m.udev = nl_info_dev(info, UET_A_PROFILE_DEV_NAME);
	if (IS_ERR(m.udev))
		return PTR_ERR(m.udev);
	m.profile = READ_ONCE(m.udev->cfg.profile);
	err = nl_reply(info, profile_fill, &m);
	nl_dev_put(m.udev);
	return err;
}

int uet_nl_profile_get_dumpit(struct sk_buff *skb, struct netlink_callback *cb)
{
	struct profile_msg m = { .udev = NULL };
	int err;

	for (; cb->args[DUMP_POS] < UET_PROFILE_COUNT; cb->args[DUMP_POS]++) {
		m.profile = cb->args[DUMP_POS];
		err = profile_fill(skb, &m, NETLINK_CB(cb->skb).portid,
				   cb->nlh->nlmsg_seq, NLM_F_MULTI);
		if (err)
			return skb->len ?: err;
	}
	return skb->len;
}

int uet_nl_profile_set_doit(struct sk_buff *skb, struct genl_info *info)
{
	struct uet_dev *udev;
	int err;

	udev = nl_info_dev(info, UET_A_PROFILE_DEV_NAME);
	if (IS_ERR(udev))
		return PTR_ERR(udev);
	err = nl_missing(info, UET_A_PROFILE_ID);
	if (!err) {
		mutex_lock(&uet_devs_lock);
		err = uet_profile_set(udev, nla_get_u8(info->attrs[UET_A_PROFILE_ID]),
				      info->extack);
		mutex_unlock(&uet_devs_lock);
	}
	nl_dev_put(udev);
	return err;
}

/* --- PDCs --- */

struct pdc_msg {
	struct sk_buff *skb;
	struct uet_dev *udev;
	u32 portid;
	u32 seq;
	int flags;
	u16 only;		/* pdc-get do: the PDC asked for */
	bool found;
};

static u32 ns_to_us(u32 ns)
{
	return ns / NSEC_PER_USEC;
}

/* A sending initiator's congestion window, and the context it is of. */
static int pdc_put_cc(struct sk_buff *skb, const struct uet_pdc_info *pi)
{
	const struct uet_nscc *cc = &pi->cc;

	return nla_put_u32(skb, UET_A_PDC_CC_CONTEXT, pi->ccx_id) ||
	       nla_put_u32(skb, UET_A_PDC_CC_PDCS, pi->ccx_pdcs) ||
	       nla_put_u32(skb, UET_A_PDC_CWND, cc->cwnd) ||
	       nla_put_u32(skb, UET_A_PDC_CWND_MAX, cc->maxwnd) ||
	       nla_put_u32(skb, UET_A_PDC_CC_IN_FLIGHT, cc->in_flight) ||
	       nla_put_u32(skb, UET_A_PDC_BASE_RTT_US, ns_to_us(cc->base_rtt)) ||
	       nla_put_u32(skb, UET_A_PDC_DELAY_US, ns_to_us(cc->avg_delay)) ||
	       nla_put_u32(skb, UET_A_PDC_ECN_ECHOES, cc->echoes) ||
	       nla_put_u32(skb, UET_A_PDC_CC_CUTS, cc->cuts) ||
	       nla_put_u32(skb, UET_A_PDC_QUICK_ADAPTS, cc->adapts);
}

/* RCCC: a sending initiator's credit, or what a target was asked. */
static int pdc_put_credit(struct sk_buff *skb, const struct uet_pdc_info *pi)
{
	return (pi->rccc_on && nla_put_s32(skb, UET_A_PDC_CREDIT, pi->credit)) ||
	       nla_put_u32(skb, UET_A_PDC_CREDIT_GRANTED, pi->credit_granted) ||
	       nla_put_u32(skb, UET_A_PDC_CREDIT_WANTED, pi->credit_wanted);
}

/* Rate advice: the cap a sending initiator keeps to, and its advice. */
static int pdc_put_ra(struct sk_buff *skb, const struct uet_pdc_info *pi)
{
	return nla_put_u32(skb, UET_A_PDC_RA_CAP_MBPS, pi->ra_cap_mbps) ||
	       nla_put_u32(skb, UET_A_PDC_RA_ADVISED_MBPS,
			   pi->ra_advised_mbps) ||
	       nla_put_u32(skb, UET_A_PDC_RA_AGE_MS, pi->ra_age_ms);
}

static int pdc_fill(const struct uet_pdc_info *pi, void *arg)
{
	struct pdc_msg *m = arg;
	struct sk_buff *skb = m->skb;
	void *hdr;

	if (m->only) {
		if (pi->lpdcid != m->only)
			return -ENOENT;
		m->found = true;
	}
	hdr = genlmsg_put(skb, m->portid, m->seq, &uet_nl_family, m->flags,
			  UET_CMD_PDC_GET);
	if (!hdr)
		return -EMSGSIZE;
	if (nla_put_string(skb, UET_A_PDC_DEV_NAME, dev_name_of(m->udev)) ||
	    nla_put_u16(skb, UET_A_PDC_LPDCID, pi->lpdcid) ||
	    nla_put_u16(skb, UET_A_PDC_RPDCID, pi->rpdcid) ||
	    nla_put_u8(skb, UET_A_PDC_STATE, pi->state) ||
	    nla_put_u8(skb, UET_A_PDC_MODE, pi->mode) ||
	    (pi->initiator && nla_put_flag(skb, UET_A_PDC_INITIATOR)) ||
	    nla_put_u32(skb, UET_A_PDC_JOB, pi->job) ||
	    nla_put_u8(skb, UET_A_PDC_TC, pi->tc) ||
	    nla_put_in6_addr(skb, UET_A_PDC_PEER, &pi->peer) ||
	    nla_put_u32(skb, UET_A_PDC_TX_UNA, pi->tx_una) ||
	    nla_put_u32(skb, UET_A_PDC_TX_NXT, pi->tx_nxt) ||
	    nla_put_u32(skb, UET_A_PDC_RX_CACK, pi->rx_cack) ||
	    nla_put_u32(skb, UET_A_PDC_IN_FLIGHT, pi->in_flight) ||
	    nla_put_u32(skb, UET_A_PDC_SRTT_US,
			min_t(u64, div_u64(pi->srtt_ns, NSEC_PER_USEC), U32_MAX)) ||
	    nla_put_u32(skb, UET_A_PDC_RTO_US,
			min_t(u64, div_u64(pi->rto_ns, NSEC_PER_USEC), U32_MAX)) ||
	    put_u64(skb, UET_A_PDC_RETRANSMITS, pi->retransmits, UET_A_PDC_PAD) ||
	    put_u64(skb, UET_A_PDC_TIMEOUTS, pi->timeouts, UET_A_PDC_PAD) ||
	    (pi->cc_on && pdc_put_cc(skb, pi)) ||
	    ((pi->rccc_on || pi->rccc_asked) && pdc_put_credit(skb, pi)) ||
	    (pi->ra_cap_mbps && pdc_put_ra(skb, pi))) {
		genlmsg_cancel(skb, hdr);
		return -EMSGSIZE;
	}
	genlmsg_end(skb, hdr);
	/* a do request wants this one PDC only */
	return m->only ? 1 : 0;
}

/* The size of a PDC's identity in a message (pdc_id_fill()). */
static size_t pdc_id_size(void)
{
	return nla_total_size(IB_DEVICE_NAME_MAX) +	/* DEV_NAME */
	       2 * nla_total_size(sizeof(u16)) +	/* LPDCID, RPDCID */
	       2 * nla_total_size(sizeof(u8)) +		/* MODE, TC */
	       nla_total_size(0) +			/* INITIATOR */
	       nla_total_size(sizeof(u32)) +		/* JOB */
	       nla_total_size(sizeof(struct in6_addr));	/* PEER */
}

/* A PDC's identity, what never changes (struct uet_pds_events). */
static int pdc_id_fill(struct sk_buff *skb, struct uet_dev *udev,
		       const struct uet_pdc_info *pi)
{
	void *hdr;

	hdr = genlmsg_put(skb, 0, 0, &uet_nl_family, 0, UET_CMD_PDC_GET);
	if (!hdr)
		return -EMSGSIZE;
	if (nla_put_string(skb, UET_A_PDC_DEV_NAME, dev_name_of(udev)) ||
	    nla_put_u16(skb, UET_A_PDC_LPDCID, pi->lpdcid) ||
	    (pi->rpdcid && nla_put_u16(skb, UET_A_PDC_RPDCID, pi->rpdcid)) ||
	    nla_put_u8(skb, UET_A_PDC_MODE, pi->mode) ||
	    (pi->initiator && nla_put_flag(skb, UET_A_PDC_INITIATOR)) ||
	    nla_put_u32(skb, UET_A_PDC_JOB, pi->job) ||
	    nla_put_u8(skb, UET_A_PDC_TC, pi->tc) ||
	    nla_put_in6_addr(skb, UET_A_PDC_PEER, &pi->peer)) {
		genlmsg_cancel(skb, hdr);
		return -EMSGSIZE;
	}
	genlmsg_end(skb, hdr);
	return 0;
}

static bool nl_pdc_wanted(struct uet_dev *udev)
{
	return nl_listened(dev_net(udev->ndev));
}

static void nl_pdc_event(struct uet_dev *udev, const struct uet_pdc_info *pi,
			 bool added)
{
	struct sk_buff *msg = genlmsg_new(pdc_id_size(), GFP_ATOMIC);

	if (!msg)
		return;
	if (pdc_id_fill(msg, udev, pi)) {
		nlmsg_free(msg);
		return;
	}
	nl_multicast(dev_net(udev->ndev), msg,
		     added ? UET_CMD_PDC_ADD_NTF : UET_CMD_PDC_DEL_NTF);
}

static const struct uet_pds_events nl_pds_events = {
	.wanted = nl_pdc_wanted,
	.pdc = nl_pdc_event,
};

static int pdc_dump_dev(struct sk_buff *skb, struct netlink_callback *cb,
			struct uet_dev *udev)
{
	struct pdc_msg m = {
		.skb = skb,
		.udev = udev,
		.portid = NETLINK_CB(cb->skb).portid,
		.seq = cb->nlh->nlmsg_seq,
		.flags = NLM_F_MULTI,
	};
	unsigned long pos = cb->args[DUMP_POS];
	int err;

	err = uet_pds_dump(udev, &pos, pdc_fill, &m);
	cb->args[DUMP_POS] = pos;
	return err;
}

int uet_nl_pdc_get_dumpit(struct sk_buff *skb, struct netlink_callback *cb)
{
	return nl_dump_devs(skb, cb, uet_nl_dump_attrs(cb)[UET_A_PDC_DEV_NAME],
			    pdc_dump_dev);
}

int uet_nl_pdc_get_doit(struct sk_buff *skb, struct genl_info *info)
{
	struct pdc_msg m = { .portid = info->snd_portid, .seq = info->snd_seq };
	unsigned long pos;
	int err;

	m.udev = nl_info_dev(info, UET_A_PDC_DEV_NAME);
	if (IS_ERR(m.udev))
		return PTR_ERR(m.udev);
	err = nl_missing(info, UET_A_PDC_LPDCID);
	if (err)
		goto out;
	m.only = nla_get_u16(info->attrs[UET_A_PDC_LPDCID]);
	m.skb = genlmsg_new(NLMSG_GOODSIZE, GFP_KERNEL);
	if (!m.skb) {
		err = -ENOMEM;
		goto out;
	}
	pos = m.only;
	uet_pds_dump(m.udev, &pos, pdc_fill, &m);
	if (!m.found || !m.skb->len) {
		nlmsg_free(m.skb);
		NL_SET_ERR_MSG_ATTR(info->extack, info->attrs[UET_A_PDC_LPDCID],
				    "No PDC with this identifier on this device");
		err = -ENOENT;
		goto out;
	}
	err = genlmsg_reply(m.skb, info);
out:
	nl_dev_put(m.udev);
	return err;
}

int uet_nl_pdc_close_doit(struct sk_buff *skb, struct genl_info *info)
{
	struct uet_dev *udev;
	int err;

	udev = nl_info_dev(info, UET_A_PDC_DEV_NAME);
	if (IS_ERR(udev))
		return PTR_ERR(udev);
	err = nl_missing(info, UET_A_PDC_LPDCID);
	if (!err) {
		err = uet_pds_close(udev, nla_get_u16(info->attrs[UET_A_PDC_LPDCID]));
		if (err == -ENOENT)
			NL_SET_ERR_MSG_ATTR(info->extack, info->attrs[UET_A_PDC_LPDCID],
					    "No PDC with this identifier on this device");
	}
	nl_dev_put(udev);
	return err;
}

/* --- counters --- */

static int put_counter(struct sk_buff *skb, const char *name, u64 value)
{
	struct nlattr *nest;

	nest = nla_nest_start(skb, UET_A_STATS_COUNTER);
	if (!nest ||
	    nla_put_string(skb, UET_A_COUNTER_NAME, name) ||
	    put_u64(skb, UET_A_COUNTER_VALUE, value, UET_A_COUNTER_PAD))
		return -EMSGSIZE;
	nla_nest_end(skb, nest);
	return 0;
}

static int stats_fill(struct sk_buff *skb, void *obj, u32 portid, u32 seq,
		      int flags)
{
	const struct job_msg *m = obj;
	void *hdr;
	int i;

	hdr = genlmsg_put(skb, portid, seq, &uet_nl_family, flags,
			  UET_CMD_STATS_GET);
	if (!hdr)
		return -EMSGSIZE;
	if (nla_put_string(skb, UET_A_STATS_DEV_NAME, dev_name_of(m->udev)))
		goto err;
	if (m->job) {
		if (nla_put_u32(skb, UET_A_STATS_JOB_ID, m->job->cfg.id))
			goto err;
		for (i = 0; i < UET_JOB_NUM_COUNTERS; i++)
			if (put_counter(skb, uet_job_counter_name(i),
					uet_job_counter_read(m->job, i)))
				goto err;
	} else {
		for (i = 0; i < UET_NUM_COUNTERS; i++)
			if (put_counter(skb, uet_counter_name(i),
					uet_counter_read(m->udev, i)))
				goto err;
	}
	genlmsg_end(skb, hdr);
	return 0;
err:
	genlmsg_cancel(skb, hdr);
	return -EMSGSIZE;
}

int uet_nl_stats_get_doit(struct sk_buff *skb, struct genl_info *info)
{
	struct job_msg m = { .job = NULL };
	int err;

	m.udev = nl_info_dev(info, UET_A_STATS_DEV_NAME);
	if (IS_ERR(m.udev))
		return PTR_ERR(m.udev);
	if (info->attrs[UET_A_STATS_JOB_ID]) {
		m.job = nl_info_job(m.udev, info, UET_A_STATS_JOB_ID);
		if (IS_ERR(m.job)) {
			err = PTR_ERR(m.job);
			goto out;
		}
	}
	err = nl_reply(info, stats_fill, &m);
	if (m.job)
		uet_job_put(m.job);
out:
	nl_dev_put(m.udev);
	return err;
}

/* --- transport security keys --- */

/* A key's description: the key material is never put in a message. */
struct key_msg {
	struct uet_dev *udev;
	u32 job;
	u8 an;
	struct uet_tss_key_info info;
};

static int key_fill(struct sk_buff *skb, void *obj, u32 portid, u32 seq,
		    int flags)
{
	const struct key_msg *m = obj;
	void *hdr;

	hdr = genlmsg_put(skb, portid, seq, &uet_nl_family, flags,
			  UET_CMD_KEY_GET);
	if (!hdr)
		return -EMSGSIZE;
	if (nla_put_string(skb, UET_A_KEY_DEV_NAME, dev_name_of(m->udev)) ||
	    nla_put_u32(skb, UET_A_KEY_JOB_ID, m->job) ||
	    nla_put_u8(skb, UET_A_KEY_AN, m->an) ||
	    nla_put_u16(skb, UET_A_KEY_EPOCH, m->info.epoch) ||
	    nla_put_u8(skb, UET_A_KEY_MODE, m->info.mode) ||
	    nla_put_u8(skb, UET_A_KEY_TX, m->info.tx)) {
		genlmsg_cancel(skb, hdr);
		return -EMSGSIZE;
	}
	genlmsg_end(skb, hdr);
	return 0;
}

/* The device, job and AN a key request names; the device referenced. */
static int key_sel(struct genl_info *info, struct key_msg *m)
{
	int err = nl_missing(info, UET_A_KEY_JOB_ID) ?:
		  nl_missing(info, UET_A_KEY_AN);

	if (err)
		return err;
	m->udev = nl_info_dev(info, UET_A_KEY_DEV_NAME);
	if (IS_ERR(m->udev))
		return PTR_ERR(m->udev);
	m->job = nla_get_u32(info->attrs[UET_A_KEY_JOB_ID]);
	m->an = nla_get_u8(info->attrs[UET_A_KEY_AN]);
	return 0;
}

int uet_nl_key_add_doit(struct sk_buff *skb, struct genl_info *info)
{
	struct nlattr *key = info->attrs[UET_A_KEY_KEY];
	struct uet_tss_key_cfg cfg = {};
	struct key_msg m;
	int err;

	err = nl_missing(info, UET_A_KEY_KEY) ?: key_sel(info, &m);
	if (err)
		goto out;
	cfg.an = m.an;
	cfg.key = nla_data(key);
	if (info->attrs[UET_A_KEY_EPOCH])
		cfg.epoch = nla_get_u16(info->attrs[UET_A_KEY_EPOCH]);
	if (info->attrs[UET_A_KEY_MODE])
		cfg.mode = nla_get_u8(info->attrs[UET_A_KEY_MODE]);
	err = uet_secdom_key_add(m.udev, m.job, &cfg, info->extack);
	nl_dev_put(m.udev);
out:
	/* the request's copy of the key, as WireGuard wipes its keys' */
	if (key)
		memzero_explicit(nla_data(key), nla_len(key));
	return err;
}

int uet_nl_key_del_doit(struct sk_buff *skb, struct genl_info *info)
{
	struct key_msg m;
	int err;

	err = key_sel(info, &m);
	if (err)
		return err;
	err = uet_secdom_key_del(m.udev, m.job, m.an, info->extack);
	nl_dev_put(m.udev);
	return err;
}

int uet_nl_key_set_doit(struct sk_buff *skb, struct genl_info *info)
{
	struct key_msg m;
	int err;

	err = key_sel(info, &m);
	if (err)
		return err;
	err = uet_secdom_key_use(m.udev, m.job, m.an, info->extack);
	nl_dev_put(m.udev);
	return err;
}

int uet_nl_key_get_doit(struct sk_buff *skb, struct genl_info *info)
{
	struct uet_job *job;
	struct key_msg m;
	int err;

	err = key_sel(info, &m);
	if (err)
		return err;
	job = nl_info_job(m.udev, info, UET_A_KEY_JOB_ID);
	if (IS_ERR(job)) {
		err = PTR_ERR(job);
		goto out;
	}
	if (uet_secdom_key_info(job, m.an, &m.info)) {
		err = nl_reply(info, key_fill, &m);
	} else {
		NL_SET_ERR_MSG(info->extack,
			       "This job has no key at this association number");
		err = -ENOENT;
	}
	uet_job_put(job);
out:
	nl_dev_put(m.udev);
	return err;
}

/* The keys of @udev's jobs; the position is the job ID and AN. */
static int key_dump_dev(struct sk_buff *skb, struct netlink_callback *cb,
			struct uet_dev *udev)
{
	unsigned long pos = cb->args[DUMP_POS], id = pos / UET_TSS_AN_COUNT;
	struct key_msg m = { .udev = udev };
	struct uet_job *job;
	int err = 0;

	while (!err && (job = uet_job_get_next(udev, &id))) {
		if (id != pos / UET_TSS_AN_COUNT)
			pos = id * UET_TSS_AN_COUNT;
		m.job = id;
		for (; !err && pos < (id + 1) * UET_TSS_AN_COUNT; pos++) {
			m.an = pos % UET_TSS_AN_COUNT;
			if (!uet_secdom_key_info(job, m.an, &m.info))
				continue;
			err = key_fill(skb, &m, NETLINK_CB(cb->skb).portid,
				       cb->nlh->nlmsg_seq, NLM_F_MULTI);
			if (err)
				cb->args[DUMP_POS] = pos;
		}
		uet_job_put(job);
		id++;
	}
	return err;
}

int uet_nl_key_get_dumpit(struct sk_buff *skb, struct netlink_callback *cb)
{
	return nl_dump_devs(skb, cb, uet_nl_dump_attrs(cb)[UET_A_KEY_DEV_NAME],
			    key_dump_dev);
}

static struct genl_family uet_nl_family __ro_after_init = {
	.name = UET_FAMILY_NAME,
	.version = UET_FAMILY_VERSION,
	.netnsok = true,
	.parallel_ops = true,
	.module = THIS_MODULE,
	.ops = uet_nl_ops,
	.n_ops = ARRAY_SIZE(uet_nl_ops),
	.mcgrps = uet_nl_mcgrps,
	.n_mcgrps = ARRAY_SIZE(uet_nl_mcgrps),
};

int __init uet_netlink_init(void)
{
	int err;

	/* The uapi enums spell the engine's own. */
	BUILD_BUG_ON((int)UET_DELIVERY_MODE_RUD != (int)UET_PDC_RUD ||
		     (int)UET_DELIVERY_MODE_ROD != (int)UET_PDC_ROD ||
		     (int)UET_DELIVERY_MODE_RUDI != (int)UET_PDC_RUDI ||
		     (int)UET_DELIVERY_MODE_UUD != (int)UET_PDC_UUD);
	BUILD_BUG_ON((int)UET_PDC_STATE_CLOSED != (int)UET_PDC_CLOSED ||
		     (int)UET_PDC_STATE_SYN_SENT != (int)UET_PDC_SYN_SENT ||
		     (int)UET_PDC_STATE_ESTABLISHED != (int)UET_PDC_ESTABLISHED ||
		     (int)UET_PDC_STATE_CLOSE_REQUESTED != (int)UET_PDC_CLOSE_REQUESTED ||
		     (int)UET_PDC_STATE_CLOSING != (int)UET_PDC_CLOSING);
	BUILD_BUG_ON(UET_NAME_MAX_LEN + 1 != IB_DEVICE_NAME_MAX);
	BUILD_BUG_ON(U16_MAX != UET_PDC_MAX);
	err = genl_register_family(&uet_nl_family);
	if (err)
		return err;
	WRITE_ONCE(nl_live, true);
	uet_pds_set_events(&nl_pds_events);
	return 0;
}

void uet_netlink_exit(void)
{
	uet_pds_set_events(NULL);
	WRITE_ONCE(nl_live, false);
	synchronize_rcu();	/* notifications being sent: nl_live */
	genl_unregister_family(&uet_nl_family);
}
