// SPDX-License-Identifier: GPL-2.0
/*
 * uet socket and packet I/O.
 *
 * Every network namespace that holds a uet device has one UDP tunnel
 * socket per address family bound to port 4793; the first device of a
 * namespace opens them, the last one closes them.  Received packets are
 * handled in the softirq that delivers them (encap_rcv), on the device
 * whose netdev they arrived through.
 *
 * Lifetimes: kernel sockets hold no reference on their namespace, so the
 * namespace's exit closes its sockets even while devices remain (their
 * netdevs are unregistered later in the same teardown).  Readers reach the
 * sockets and the device list under RCU; the device list and socket
 * pointers change under uet_net.lock.
 */
#include <linux/ipv6.h>
#include <linux/netdevice.h>
#include <linux/rculist.h>
#include <linux/skbuff.h>
#include <linux/udp.h>
#include <net/addrconf.h>
#include <net/netns/generic.h>
#include <net/udp_tunnel.h>
#include <uapi/linux/uet.h>

#include "counters.h"
#include "socket.h"
#include "uet.h"
#include "wire.h"

/**
 * struct uet_net - uet's state in one network namespace
 * @lock: serialises changes of @devs and the socket pointers
 * @devs: the namespace's uet devices (RCU list, writers hold @lock)
 * @sock4: the IPv4 socket, %NULL while the namespace has no device
 * @sock6: the IPv6 socket, %NULL without a device or without IPv6
 */
struct uet_net {
	struct mutex lock;	/* see above */
	struct list_head devs;
	struct socket __rcu *sock4;
	struct socket __rcu *sock6;
};

static unsigned int uet_net_id __read_mostly;

static struct uet_net *uet_net(const struct net *net)
{
	return net_generic(net, uet_net_id);
}

/* The device that owns packets arriving through @ndev, under RCU. */
static struct uet_dev *uet_dev_by_netdev(struct uet_net *un,
					 const struct net_device *ndev)
{
	struct uet_dev *udev;

	list_for_each_entry_rcu(udev, &un->devs, net_list)
		if (udev->ndev == ndev)
			return udev;
	return NULL;
}

/* One UET packet, its UDP header already checked by the UDP layer. */
static void uet_rcv(struct uet_dev *udev, struct sk_buff *skb)
{
	u8 buf[UET_PDS_MAX_HDR_LEN];
	struct uet_pds_hdr_info pds;
	unsigned int len = skb->len - sizeof(struct udphdr);
	const u8 *hdr;

	uet_count(udev, UET_CNT_RX_PACKETS, 1);
	uet_count(udev, UET_CNT_RX_BYTES, len);

	hdr = skb_header_pointer(skb, sizeof(struct udphdr),
				 min_t(unsigned int, len, sizeof(buf)), buf);
	if (!hdr || uet_pds_parse(hdr, min_t(unsigned int, len, sizeof(buf)),
				  &pds) < 0) {
		uet_count(udev, UET_CNT_DROP_MALFORMED, 1);
		return;
	}
	/* No PDC can match until the packet engine creates them. */
	uet_count(udev, UET_CNT_DROP_UNKNOWN_PDC, 1);
}

/* Called by the UDP layer in softirq; returns 0: the packet is consumed. */
static int uet_udp_encap_recv(struct sock *sk, struct sk_buff *skb)
{
	struct uet_net *un = rcu_dereference_sk_user_data(sk);
	struct uet_dev *udev;

	udev = un ? uet_dev_by_netdev(un, skb->dev) : NULL;
	if (udev)
		uet_rcv(udev, skb);
	kfree_skb(skb);
	return 0;
}

static struct socket *uet_sock_open(struct net *net, struct uet_net *un,
				    int family)
{
	struct udp_tunnel_sock_cfg tcfg = {
		.sk_user_data = un,
		.encap_type = 1,
		.encap_rcv = uet_udp_encap_recv,
	};
	struct udp_port_cfg cfg = {
		.family = family,
		.local_udp_port = htons(UET_UDP_PORT),
	};
	struct socket *sock;
	int err;

	if (family == AF_INET6) {
		cfg.local_ip6 = in6addr_any;
		cfg.ipv6_v6only = 1;
	} else {
		cfg.local_ip.s_addr = htonl(INADDR_ANY);
	}
	err = udp_sock_create(net, &cfg, &sock);
	if (err)
		return ERR_PTR(err);
	setup_udp_tunnel_sock(net, sock, &tcfg);
	return sock;
}

static void uet_sock_close(struct uet_net *un)
{
	struct socket *s4, *s6;

	lockdep_assert_held(&un->lock);
	s4 = rcu_replace_pointer(un->sock4, NULL, lockdep_is_held(&un->lock));
	s6 = rcu_replace_pointer(un->sock6, NULL, lockdep_is_held(&un->lock));
	synchronize_net();
	if (s4)
		udp_tunnel_sock_release(s4);
	if (s6)
		udp_tunnel_sock_release(s6);
}

static int uet_sock_open_all(struct net *net, struct uet_net *un)
{
	struct socket *sock;

	lockdep_assert_held(&un->lock);
	sock = uet_sock_open(net, un, AF_INET);
	if (IS_ERR(sock))
		return PTR_ERR(sock);
	rcu_assign_pointer(un->sock4, sock);

	if (!ipv6_mod_enabled())
		return 0;
	sock = uet_sock_open(net, un, AF_INET6);
	if (IS_ERR(sock)) {
		uet_sock_close(un);
		return PTR_ERR(sock);
	}
	rcu_assign_pointer(un->sock6, sock);
	return 0;
}

/**
 * uet_socket_attach() - start receiving UET packets for @udev
 * @udev: a device being created; its netdev's namespace is used
 *
 * Opens the namespace's sockets if @udev is its first device.
 *
 * Return: 0, or a negative errno (e.g. -EADDRINUSE when something else
 * holds UDP port 4793 in that namespace).
 */
int uet_socket_attach(struct uet_dev *udev)
{
	struct net *net = dev_net(udev->ndev);
	struct uet_net *un = uet_net(net);
	int err = 0;

	mutex_lock(&un->lock);
	if (list_empty(&un->devs))
		err = uet_sock_open_all(net, un);
	if (!err) {
		udev->net = net;
		list_add_tail_rcu(&udev->net_list, &un->devs);
	}
	mutex_unlock(&un->lock);
	return err;
}

/**
 * uet_socket_detach() - stop receiving for @udev
 * @udev: a device attached with uet_socket_attach()
 *
 * Returns after any softirq that could still see @udev has finished; closes
 * the namespace's sockets with its last device.
 */
void uet_socket_detach(struct uet_dev *udev)
{
	struct uet_net *un = uet_net(udev->net);

	mutex_lock(&un->lock);
	list_del_rcu(&udev->net_list);
	if (list_empty(&un->devs))
		uet_sock_close(un);
	else
		synchronize_net();
	mutex_unlock(&un->lock);
}

static int __net_init uet_net_init(struct net *net)
{
	struct uet_net *un = uet_net(net);

	mutex_init(&un->lock);
	INIT_LIST_HEAD(&un->devs);
	return 0;
}

/*
 * The namespace is going away; its netdevs, and with them its uet devices,
 * go later in the same teardown: close the sockets now, since they do not
 * keep the namespace alive.
 */
static void __net_exit uet_net_exit(struct net *net)
{
	struct uet_net *un = uet_net(net);

	mutex_lock(&un->lock);
	uet_sock_close(un);
	mutex_unlock(&un->lock);
}

static struct pernet_operations uet_net_ops = {
	.init = uet_net_init,
	.exit = uet_net_exit,
	.id = &uet_net_id,
	.size = sizeof(struct uet_net),
};

int uet_socket_init(void)
{
	return register_pernet_device(&uet_net_ops);
}

void uet_socket_exit(void)
{
	unregister_pernet_device(&uet_net_ops);
}
