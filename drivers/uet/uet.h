/* SPDX-License-Identifier: GPL-2.0 */
/*
 * uet: the Ultra Ethernet Transport (UEC specification 1.0) as a software
 * RDMA device.  This header holds what crosses files: the device object
 * and the module's device registry.
 */
#ifndef _UET_H
#define _UET_H

#include <linux/list.h>
#include <linux/netdevice.h>
#include <linux/xarray.h>
#include <rdma/ib_verbs.h>

#include "pds.h"

/**
 * struct uet_dev - one uet RDMA device bound to one network device
 * @ibdev: the RDMA core's device; must stay first (ib_alloc_device()).
 * @ndev: the network device UET packets leave and arrive through.  Set at
 *	creation, constant until dealloc, held with @ndev_tracker.
 * @ndev_tracker: reference tracker for @ndev.
 * @list: entry in the module's device list.
 * @registered: registration with the RDMA core has completed.
 * @net: the namespace whose socket receives for this device, constant
 *	while attached (socket.c).
 * @net_list: entry in that namespace's device list (socket.c).
 * @counters: per-CPU counters (counters.c).
 * @pds: the PDCs (pds.c).
 * @eps: the open endpoints by job and PIDonFEP (ses.c); its own lock.
 * @debugfs: the device's debugfs directory.
 *
 * @list and @registered are protected by uet_devs_lock (main.c).
 */
struct uet_dev {
	struct ib_device ibdev;
	struct net_device *ndev;
	netdevice_tracker ndev_tracker;
	struct list_head list;
	bool registered;
	struct net *net;
	struct list_head net_list;
	struct uet_counters __percpu *counters;
	struct uet_pds pds;
	struct xarray eps;
	struct dentry *debugfs;
};

static inline struct uet_dev *to_uet_dev(struct ib_device *ibdev)
{
	return container_of(ibdev, struct uet_dev, ibdev);
}

/* main.c */
void uet_dev_release(struct uet_dev *udev);
struct uet_dev *uet_dev_get(const char *name);

#endif /* _UET_H */
