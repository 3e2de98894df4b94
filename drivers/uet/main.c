// SPDX-License-Identifier: GPL-2.0
/*
 * uet: module entry, device lifecycle and netdev events.
 *
 * A uet device is created by "rdma link add NAME type uet netdev DEV" and
 * removed by "rdma link del NAME", by the removal of DEV, or by unloading
 * the module.  Whatever the path, the RDMA core ends in uet_dealloc_driver()
 * (verbs.c), which calls uet_dev_release().
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/debugfs.h>
#include <linux/ethtool.h>
#include <linux/module.h>
#include <linux/mutex.h>
#include <linux/netdevice.h>
#include <linux/rtnetlink.h>
#include <net/addrconf.h>
#include <rdma/ib_verbs.h>
#include <rdma/rdma_netlink.h>
#include <uapi/linux/uet.h>

#include "counters.h"
#include "job.h"
#include "netlink.h"
#include "profile.h"
#include "ses.h"
#include "socket.h"
#include "tss_pkt.h"
#include "uet.h"
#include "verbs.h"

/*
 * debugfs: uet/<device>/pdcs, one line per PDC; uet/<device>/rudi, the
 * RUDI requests in flight and the messages waiting.
 */
static struct dentry *uet_debugfs;

static int uet_pdcs_show(struct seq_file *m, void *unused)
{
	return uet_pds_show(m, m->private);
}
DEFINE_SHOW_ATTRIBUTE(uet_pdcs);

static int uet_rudi_file_show(struct seq_file *m, void *unused)
{
	return uet_rudi_show(m, m->private);
}
DEFINE_SHOW_ATTRIBUTE(uet_rudi_file);

/* All uet devices; the list and each entry's list and registered fields. */
static LIST_HEAD(uet_devs);
DEFINE_MUTEX(uet_devs_lock);	/* see above */

/*
 * Device defaults.  The PDC pools: UEC lets an implementation size them;
 * 4096 general PDCs hold a rack's worth of peers in each mode.
 */
#define UET_DEF_PDC_POOL	4096
#define UET_DEF_PDC_RESERVED	256
/*
 * Target PDCs one source address may hold: a quarter of the default
 * general pool, so that one peer address cannot take the whole pool (it
 * takes four to fill it, Documentation/threat-model.rst), while a peer in
 * many jobs and traffic classes still has room.
 */
#define UET_DEF_PDC_PER_SOURCE	1024
/* How long a target may sit on an owed ACK (delayed ACK). */
#define UET_DEF_ACK_DELAY_US	500
/*
 * Retransmission timeout bounds.  The reliability core defaults to TCP's
 * (200 ms at least, RFC 6298 and Linux); a fabric's round trips are far
 * shorter, so ours start at 50 ms, and the first timeout, before any RTT
 * sample, is 100 ms: well above the stalls of a software-emulated VM,
 * where a round trip takes milliseconds but a vCPU can be descheduled for
 * tens of them.  The upper bound is RFC 6298's 60 s.
 */
#define UET_DEF_RTO_MIN_US	(50 * USEC_PER_MSEC)
#define UET_DEF_RTO_INITIAL_US	(100 * USEC_PER_MSEC)
#define UET_DEF_RTO_MAX_US	(60 * USEC_PER_SEC)
/*
 * Idle PDCs are closed after this long: long enough that a job's bursts
 * reuse their PDCs, short enough that a quiet peer's are given back.
 */
#define UET_DEF_PDC_IDLE_MS	(10 * MSEC_PER_SEC)
/*
 * Traffic classes leave as the class selectors of their number (RFC 2474
 * section 4.2.2: DSCP 8 n), and ACKs, NACKs, responses and control packets
 * in class 6, CS6, network control (RFC 4594 section 3.1): the high class
 * the UE walk-through gives them, above any class of data.
 */
#define UET_DSCP_CS_SHIFT	3
#define UET_DEF_CTL_TC		6
/*
 * The link rate NSCC assumes when the netdev does not tell its own (a
 * virtio or tunnel device reports none): 10 Gb/s, what veth reports.
 */
#define UET_DEF_LINK_MBPS	10000
/*
 * Initiator PDCs keep to a single path until the device is set to spray;
 * then each sprays over this many entropies, uet-htsim's default
 * (main_uec.cpp: path_entropy_size).
 */
#define UET_DEF_LB_PATHS	64

/*
 * Delivery mode of RC queue pairs on devices created from now on, until
 * the control plane sets it per device: 0 = RUD (packets placed in any
 * order, completions in message order), 1 = ROD (ordered, go-back-N).
 */
static unsigned int rc_mode = UET_PDC_RUD;

static int rc_mode_set(const char *val, const struct kernel_param *kp)
{
	unsigned int mode;
	int err;

	err = kstrtouint(val, 0, &mode);
	if (err)
		return err;
	if (mode != UET_PDC_RUD && mode != UET_PDC_ROD)
		return -EINVAL;
	WRITE_ONCE(rc_mode, mode);
	return 0;
}

static const struct kernel_param_ops rc_mode_ops = {
	.set = rc_mode_set,
	.get = param_get_uint,
};

module_param_cb(rc_mode, &rc_mode_ops, &rc_mode, 0644);
MODULE_PARM_DESC(rc_mode, "delivery mode of RC QPs of new devices: 0 RUD (default), 1 ROD");

/**
 * uet_dev_cfg_default() - the settings of a new device
 * @cfg: filled in
 */
void uet_dev_cfg_default(struct uet_dev_cfg *cfg)
{
	int tc;

	*cfg = (struct uet_dev_cfg) {
		.rc_mode = READ_ONCE(rc_mode),
		.ack_delay_us = UET_DEF_ACK_DELAY_US,
		.pdc_pool = UET_DEF_PDC_POOL,
		.pdc_reserved = UET_DEF_PDC_RESERVED,
		.pdc_per_source = UET_DEF_PDC_PER_SOURCE,
		.rto_min_us = UET_DEF_RTO_MIN_US,
		.rto_max_us = UET_DEF_RTO_MAX_US,
		.rto_initial_us = UET_DEF_RTO_INITIAL_US,
		.pdc_idle_ms = UET_DEF_PDC_IDLE_MS,
		.cc = UET_CC_NSCC,
		.nscc = {
			[UET_NSCC_P_FI] = UET_NSCC_GAINS_DEFAULT.fi,
			[UET_NSCC_P_ALPHA] = UET_NSCC_GAINS_DEFAULT.alpha,
			[UET_NSCC_P_ETA] = UET_NSCC_GAINS_DEFAULT.eta,
			[UET_NSCC_P_MD] = UET_NSCC_GAINS_DEFAULT.md,
			[UET_NSCC_P_IGNORE] = UET_NSCC_GAINS_DEFAULT.ignore,
		},
		.link_mbps = UET_DEF_LINK_MBPS,
		.ctl_tc = UET_DEF_CTL_TC,
		.lb = UET_LB_MODE_SINGLE,
		.lb_paths = UET_DEF_LB_PATHS,
		.profile = UET_PROFILE_DEFAULT,
		.udp_port = UET_UDP_PORT,
		.encap = UET_ENCAP_UDP,
	};
	for (tc = 0; tc <= UET_TC_MAX; tc++)
		cfg->tc_dscp[tc] = tc << UET_DSCP_CS_SHIFT;
}

static struct uet_dev *uet_dev_find(struct net_device *ndev)
{
	struct uet_dev *udev;

	lockdep_assert_held(&uet_devs_lock);
	list_for_each_entry(udev, &uet_devs, list)
		if (udev->ndev == ndev)
			return udev;
	return NULL;
}

/* Give back the netdev claimed by uet_newlink(). */
static void uet_dev_unclaim(struct uet_dev *udev)
{
	mutex_lock(&uet_devs_lock);
	list_del(&udev->list);
	mutex_unlock(&uet_devs_lock);
	netdev_put(udev->ndev, &udev->ndev_tracker);
}

/**
 * uet_dev_release() - undo uet_newlink() once the RDMA core is done
 * @udev: the device, already unregistered from the RDMA core
 *
 * Called from the core's dealloc_driver hook; the core frees @udev itself
 * afterwards.
 */
void uet_dev_release(struct uet_dev *udev)
{
	if (udev->registered)
		uet_nl_dev_notify(udev, false);
	debugfs_remove_recursive(udev->debugfs);
	uet_socket_detach(udev);
	uet_tss_drain(udev);
	uet_rudi_fini(udev);
	uet_pds_fini(udev);
	uet_ri_fini(udev);
	uet_ses_fini(udev);
	uet_jobs_fini(udev);
	uet_counters_free(udev);
	uet_vdev_fini(udev);
	uet_dev_unclaim(udev);
}

/**
 * uet_dev_get() - find a registered uet device by name and reference it
 * @name: the RDMA device name
 *
 * Return: the device, to be released with ib_device_put(), or %NULL.
 */
struct uet_dev *uet_dev_get(const char *name)
{
	struct uet_dev *udev, *found = NULL;

	mutex_lock(&uet_devs_lock);
	list_for_each_entry(udev, &uet_devs, list) {
		if (udev->registered && !strcmp(dev_name(&udev->ibdev.dev), name) &&
		    ib_device_try_get(&udev->ibdev)) {
			found = udev;
			break;
		}
	}
	mutex_unlock(&uet_devs_lock);
	return found;
}

/**
 * uet_is_uet_ibdev() - whether an RDMA device is a uet device
 * @ibdev: any RDMA device
 *
 * uet shares rxe's driver id (verbs.c), so the id cannot tell.
 *
 * Return: true for a uet device.
 */
bool uet_is_uet_ibdev(const struct ib_device *ibdev)
{
	return ibdev->ops.dealloc_driver == uet_dev_ops.dealloc_driver;
}

/**
 * uet_dev_get_next() - the next registered device of a namespace
 * @net: the namespace the device's netdev must be in
 * @index: the lowest RDMA device index to consider; set to the index of
 *	the device found
 *
 * For walks over the devices in a stable order (netlink dumps).
 *
 * Return: the device with the lowest index at or above *@index, to be
 * released with ib_device_put(), or %NULL.
 */
struct uet_dev *uet_dev_get_next(struct net *net, u32 *index)
{
	struct uet_dev *udev, *found = NULL;

	mutex_lock(&uet_devs_lock);
	list_for_each_entry(udev, &uet_devs, list) {
		if (!udev->registered || udev->ibdev.index < *index ||
		    !net_eq(dev_net(udev->ndev), net) ||
		    (found && found->ibdev.index < udev->ibdev.index))
			continue;
		found = udev;
	}
	if (found && !ib_device_try_get(&found->ibdev))
		found = NULL;
	mutex_unlock(&uet_devs_lock);
	if (found)
		*index = found->ibdev.index;
	return found;
}

/* The netdev's link rate, Mbit/s, if it tells one; else 0. */
static u32 uet_link_mbps(struct net_device *ndev)
{
	struct ethtool_link_ksettings ks;
	int err;

	rtnl_lock();
	err = __ethtool_get_link_ksettings(ndev, &ks);
	rtnl_unlock();
	if (err || ks.base.speed == SPEED_UNKNOWN)
		return 0;
	return ks.base.speed;
}

static int uet_newlink(const char *ibdev_name, struct net_device *ndev)
{
	u32 mbps = uet_link_mbps(ndev);
	struct ib_device *other;
	struct uet_dev *udev;
	bool gone;
	int err;

	if (ndev->addr_len != ETH_ALEN) {
		pr_err("%s: %s is not an Ethernet-addressed device\n",
		       ibdev_name, ndev->name);
		return -EINVAL;
	}

	other = ib_device_get_by_name(ibdev_name, RDMA_DRIVER_UNKNOWN);
	if (other) {
		ib_device_put(other);
		pr_err("%s: an RDMA device of that name exists\n", ibdev_name);
		return -EEXIST;
	}

	/* Claim @ndev under the lock, so that a racing newlink sees it. */
	mutex_lock(&uet_devs_lock);
	udev = uet_dev_find(ndev);
	if (udev) {
		pr_err("%s: %s already carries uet device %s\n", ibdev_name,
		       ndev->name, dev_name(&udev->ibdev.dev));
		mutex_unlock(&uet_devs_lock);
		return -EEXIST;
	}
	udev = ib_alloc_device(uet_dev, ibdev);
	if (!udev) {
		mutex_unlock(&uet_devs_lock);
		return -ENOMEM;
	}
	udev->ndev = ndev;
	uet_dev_cfg_default(&udev->cfg);
	if (mbps)
		udev->cfg.link_mbps = mbps;
	uet_vdev_init(udev);
	netdev_hold(ndev, &udev->ndev_tracker, GFP_KERNEL);
	list_add_tail(&udev->list, &uet_devs);
	mutex_unlock(&uet_devs_lock);

	err = uet_jobs_init(udev);
	if (err)
		goto err_unclaim;
	err = uet_counters_init(udev);
	if (err)
		goto err_jobs;
	err = uet_pds_init(udev);
	if (err)
		goto err_counters;
	uet_rudi_init(udev);
	uet_ses_init(udev);
	uet_ri_init(udev);
	uet_tss_init(udev);
	err = uet_socket_attach(udev);
	if (err) {
		pr_err("%s: cannot open UDP port %u in the namespace of %s: %d\n",
		       ibdev_name, udev->cfg.udp_port, ndev->name, err);
		goto err_pds;
	}

	udev->ibdev.node_type = RDMA_NODE_IB_CA;
	udev->ibdev.phys_port_cnt = 1;
	udev->ibdev.num_comp_vectors = num_possible_cpus();
	addrconf_addr_eui48((unsigned char *)&udev->ibdev.node_guid,
			    ndev->dev_addr);
	strscpy(udev->ibdev.node_desc, "uet", sizeof(udev->ibdev.node_desc));
	ib_set_device_ops(&udev->ibdev, &uet_dev_ops);
	ib_set_device_ops(&udev->ibdev, &uet_counters_ops);

	err = ib_register_device(&udev->ibdev, ibdev_name, NULL);
	if (err) {
		pr_err("%s: registration failed: %d\n", ibdev_name, err);
		ib_dealloc_device(&udev->ibdev);	/* ends in uet_dev_release() */
		return err;
	}

	/*
	 * The netdev notifier skips devices until they are registered; a
	 * netdev that started to go away meanwhile is caught here, since its
	 * reg_state changes before its NETDEV_UNREGISTER event is sent.
	 */
	udev->debugfs = debugfs_create_dir(dev_name(&udev->ibdev.dev), uet_debugfs);
	debugfs_create_file("pdcs", 0400, udev->debugfs, udev, &uet_pdcs_fops);
	debugfs_create_file("rudi", 0400, udev->debugfs, udev,
			    &uet_rudi_file_fops);

	mutex_lock(&uet_devs_lock);
	udev->registered = true;
	gone = READ_ONCE(ndev->reg_state) != NETREG_REGISTERED;
	mutex_unlock(&uet_devs_lock);
	if (gone) {
		ib_unregister_device_queued(&udev->ibdev);
	} else {
		pr_info("%s: created on %s\n", dev_name(&udev->ibdev.dev),
			ndev->name);
		uet_nl_dev_notify(udev, true);
	}
	return 0;

err_pds:
	uet_rudi_fini(udev);
	uet_pds_fini(udev);
err_counters:
	uet_counters_free(udev);
err_jobs:
	uet_jobs_fini(udev);
err_unclaim:
	uet_dev_unclaim(udev);
	ib_dealloc_device(&udev->ibdev);	/* no device ops yet: a plain free */
	return err;
}

static struct rdma_link_ops uet_link_ops = {
	.type = "uet",
	.newlink = uet_newlink,
};

static void uet_port_event(struct uet_dev *udev, enum ib_event_type type)
{
	struct ib_event ev = {
		.device = &udev->ibdev,
		.element.port_num = UET_PORT,
		.event = type,
	};

	ib_dispatch_event(&ev);
}

static int uet_netdev_event(struct notifier_block *nb, unsigned long event,
			    void *ptr)
{
	struct net_device *ndev = netdev_notifier_info_to_dev(ptr);
	struct uet_dev *udev;

	mutex_lock(&uet_devs_lock);
	udev = uet_dev_find(ndev);
	if (!udev || !udev->registered)
		goto out;

	switch (event) {
	case NETDEV_UNREGISTER:
		/*
		 * Synchronous unregistration would deadlock on RTNL here.  The
		 * event comes again every 250 ms while the netdev waits for
		 * its references, and the device may be going away already
		 * ("rdma link del"): queue only while it is still alive.
		 */
		if (ib_device_try_get(&udev->ibdev)) {
			ib_unregister_device_queued(&udev->ibdev);
			ib_device_put(&udev->ibdev);
		}
		break;
	case NETDEV_UP:
	case NETDEV_CHANGE:
		if (netif_running(ndev) && netif_carrier_ok(ndev))
			uet_port_event(udev, IB_EVENT_PORT_ACTIVE);
		else
			uet_port_event(udev, IB_EVENT_PORT_ERR);
		break;
	case NETDEV_DOWN:
		uet_port_event(udev, IB_EVENT_PORT_ERR);
		break;
	default:
		break;
	}
out:
	mutex_unlock(&uet_devs_lock);
	return NOTIFY_OK;
}

static struct notifier_block uet_netdev_notifier = {
	.notifier_call = uet_netdev_event,
};

static int __init uet_init(void)
{
	int err;

	err = uet_pds_cache_init();
	if (err)
		return err;
	err = uet_socket_init();
	if (err)
		goto err_cache;
	uet_debugfs = debugfs_create_dir(KBUILD_MODNAME, NULL);
	err = register_netdevice_notifier(&uet_netdev_notifier);
	if (err)
		goto err_socket;
	err = uet_netlink_init();
	if (err)
		goto err_notifier;
	rdma_link_register(&uet_link_ops);
	return 0;

err_notifier:
	unregister_netdevice_notifier(&uet_netdev_notifier);
err_socket:
	debugfs_remove(uet_debugfs);
	uet_socket_exit();
err_cache:
	uet_pds_cache_exit();
	return err;
}

static void __exit uet_exit(void)
{
	struct uet_dev *udev;

	rdma_link_unregister(&uet_link_ops);
	uet_netlink_exit();
	unregister_netdevice_notifier(&uet_netdev_notifier);

	/*
	 * uet shares rxe's driver id, so ib_unregister_driver() would take
	 * rxe's devices too: unregister ours one by one.  Holding the device
	 * keeps it valid while a queued unregistration from a netdev event
	 * may be completing concurrently; the core serialises the two and
	 * the later one finds nothing left to do.
	 */
	mutex_lock(&uet_devs_lock);
	while ((udev = list_first_entry_or_null(&uet_devs, struct uet_dev, list))) {
		get_device(&udev->ibdev.dev);
		mutex_unlock(&uet_devs_lock);
		ib_unregister_device(&udev->ibdev);
		put_device(&udev->ibdev.dev);
		mutex_lock(&uet_devs_lock);
	}
	mutex_unlock(&uet_devs_lock);
	/* jobs and PDCs freed by RCU callbacks run this module's code */
	rcu_barrier();
	uet_pds_cache_exit();
	debugfs_remove(uet_debugfs);
	uet_socket_exit();
}

module_init(uet_init);
module_exit(uet_exit);

MODULE_DESCRIPTION("Ultra Ethernet Transport (UEC 1.0) software RDMA device");
MODULE_LICENSE("GPL");
MODULE_ALIAS_RDMA_LINK("uet");
