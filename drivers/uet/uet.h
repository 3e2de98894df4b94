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
#include <uapi/linux/uet_netlink.h>

#include "job.h"
#include "pds.h"
#include "ri.h"
#include "tss_pkt.h"
#include "verbs.h"

/*
 * The job every device has from its creation on (job.c), and that of
 * endpoints no control plane placed in a job: the QPs.
 */
#define UET_JOB_DEFAULT	0

/**
 * struct uet_dev_cfg - a device's settings
 * @rc_mode: delivery mode (enum uet_pdc_mode) of RC queue pairs.
 * @max_payload: largest SES payload of a packet in bytes; 0 derives it
 *	from the netdev's MTU.
 * @ack_delay_us: how long a target may hold back a coalesced ACK.
 * @pdc_pool: size of the general PDC pool, shared by initiator and
 *	target PDCs.
 * @pdc_reserved: size of the reserved pool, which only initiator PDCs
 *	draw from once the general pool is empty: however many peers open
 *	PDCs towards a host, it can still open its own.
 * @pdc_per_source: most target PDCs one source address may hold; a
 *	lower value refuses new ones only, it closes none.
 * @rto_min_us: lower bound of the retransmission timeout ...
 * @rto_max_us: ... its upper bound ...
 * @rto_initial_us: ... and its value before the first RTT sample.
 * @pdc_idle_ms: an initiator PDC without traffic this long is closed;
 *	0 keeps PDCs open.
 * @cc: congestion control of initiator PDCs, enum uet_cc.
 * @nscc: NSCC's parameters, enum uet_nscc_param: those a job does not set.
 * @link_mbps: the link rate NSCC sizes its windows by, Mbit/s.
 * @tc_dscp: the DSCP of each traffic class's requests ...
 * @ctl_tc: ... and the traffic class of everything else a device sends
 *	(ACKs, NACKs, responses, control packets).
 * @lb: how initiator PDCs pick their requests' entropies, enum
 *	uet_lb_mode; a PDC takes it when it next starts sending.
 * @lb_paths: how many entropies an initiator PDC sprays over, 1 to
 *	%UET_LB_PATHS_MAX, rounded down to a power of two.
 * @profile: the active profile, enum uet_profile (profile.c).
 * @ssi: the secure source identifier the device seals with under direct
 *	keys (tss_pkt.c), 0 for none.
 * @udp_port: the UDP port the device receives on and sends to, UET's
 *	4793 by default (socket.c); changed through uet_socket_set_port().
 * @encap: how the device's packets leave, enum uet_encap: over UDP (by
 *	default), directly over IP, or over UDP with a zero checksum
 *	(socket.c); it receives all three.
 * @ra_floor_mbps: rate advice (pds_ra.c): 0, the device takes none;
 *	else its initiator PDCs keep to advice, never capped below this
 *	many Mbit/s nor above @link_mbps.
 *
 * Written by the control plane under uet_devs_lock, each field read once
 * (READ_ONCE()) where it is used, so that a change applies to PDCs created
 * and packets sent afterwards.
 */
struct uet_dev_cfg {
	u8 rc_mode;
	u32 max_payload;
	u32 ack_delay_us;
	u32 pdc_pool;
	u32 pdc_reserved;
	u32 pdc_per_source;
	u32 rto_min_us;
	u32 rto_max_us;
	u32 rto_initial_us;
	u32 pdc_idle_ms;
	u8 cc;
	u32 nscc[UET_NSCC_NUM_PARAMS];
	u32 link_mbps;
	u8 tc_dscp[UET_TC_MAX + 1];
	u8 ctl_tc;
	u8 lb;
	u32 lb_paths;
	u8 profile;
	u32 ssi;
	u16 udp_port;
	u8 encap;
	u32 ra_floor_mbps;
};

struct uet_port;

/**
 * struct uet_dev - one uet RDMA device bound to one network device
 * @ibdev: the RDMA core's device; must stay first (ib_alloc_device()).
 * @ndev: the network device UET packets leave and arrive through.  Set at
 *	creation, constant until dealloc, held with @ndev_tracker.
 * @ndev_tracker: reference tracker for @ndev.
 * @list: entry in the module's device list.
 * @registered: registration with the RDMA core has completed.
 * @net: the namespace whose sockets receive and send for this device, from
 *	attach until detach or the namespace's exit, %NULL then; under RCU,
 *	written under socket.c's uet_nets_lock.
 * @net_list: entry in that namespace's device list (socket.c).
 * @uport: the sockets of its UDP port in that namespace, from attach
 *	until detach or the namespace's exit, %NULL then; under RCU, written
 *	under uet_nets_lock (socket.c).
 * @txsk: owns the device's packets in qdiscs and drivers, which it
 *	bounds (socket.c); under RCU, written under uet_nets_lock.
 * @counters: per-CPU counters (counters.c).
 * @pds: the PDCs (pds.c).
 * @rudi: RUDI requests in flight (rudi.c).
 * @eps: the open endpoints by job and PIDonFEP (ses.c); its own lock.
 * @ri: the registered memory peers may access (ri.c).
 * @debugfs: the device's debugfs directory.
 * @cfg: the device's settings.
 * @cc_gen: bumped after each change of the device's or a job's settings
 *	(netlink.c), their congestion control and NSCC's parameters among
 *	them: a sender (a PDC, a RUDI path) whose context is of an older
 *	one takes them anew when it next has nothing in flight.
 * @jobs: the jobs (job.c); its own lock.
 * @tss_async: its packets being sealed or opened asynchronously
 *	(tss_pkt.c), or waiting in @tss_wait; the device waits for them as
 *	it goes.
 * @tss_wait: its packets waiting for keys derived for their sources.
 * @vdev: the verbs objects (verbs.c).
 *
 * @list and @registered are protected by uet_devs_lock (main.c).
 */
struct uet_dev {
	struct ib_device ibdev;
	struct net_device *ndev;
	netdevice_tracker ndev_tracker;
	struct list_head list;
	bool registered;
	struct net __rcu *net;
	struct list_head net_list;
	struct uet_port __rcu *uport;
	struct socket __rcu *txsk;
	struct uet_counters __percpu *counters;
	struct uet_pds pds;
	struct uet_rudi rudi;
	struct xarray eps;
	struct uet_ri_table ri;
	struct dentry *debugfs;
	struct uet_dev_cfg cfg;
	atomic_t cc_gen;
	struct uet_jobs jobs;
	atomic_t tss_async;
	struct uet_tss_wait tss_wait;
	struct uet_vdev vdev;
};

static inline struct uet_dev *to_uet_dev(struct ib_device *ibdev)
{
	return container_of(ibdev, struct uet_dev, ibdev);
}

/* main.c */
extern struct mutex uet_devs_lock;
void uet_dev_cfg_default(struct uet_dev_cfg *cfg);
void uet_dev_release(struct uet_dev *udev);
struct uet_dev *uet_dev_get(const char *name);
bool uet_is_uet_ibdev(const struct ib_device *ibdev);
struct uet_dev *uet_dev_get_next(struct net *net, u32 *index);

#endif /* _UET_H */
