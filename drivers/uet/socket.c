// SPDX-License-Identifier: GPL-2.0
/*
 * uet socket and packet I/O.
 *
 * Every network namespace that holds a uet device has one UDP tunnel
 * socket per address family bound to each port its devices use (4793,
 * UET's, unless a device is set to another: struct uet_port); the first
 * device on a port opens them, the last one closes them.  A device takes
 * only the packets that arrive at its own port.  Received packets are
 * handled in the softirq that delivers them (encap_rcv), on the device
 * whose netdev they arrived through, or, for packets a device sends to an
 * address of its own netdev (they arrive through the loopback device), on
 * the device whose netdev holds the destination address; packets leave
 * routed in the device's namespace, out of its netdev.
 *
 * Lifetimes: neither the sockets nor the devices hold a reference on
 * their namespace.  Its exit closes the sockets and detaches the devices
 * still attached: their netdevs are unregistered later in the same
 * teardown, and a device outlives that while programs keep it open (as it
 * does when its netdev moves to another namespace).  A detached device
 * sends nothing.  Readers reach the sockets, the device lists and a
 * device's namespace under RCU; writers hold uet_nets_lock.
 *
 * Backpressure: each packet a device sends is charged to the device's
 * own accounting socket (@txsk, which sends nothing) until the qdisc and
 * the driver let go of it, as a TCP socket's are (TCP small queues,
 * net/ipv4/tcp_output.c).  Beyond that socket's send buffer,
 * UET_TX_QUEUED_MAX, the device's PDCs wait (uet_socket_tx_full()); once
 * it has drained to half of it, the device resumes them
 * (uet_pds_tx_resume()).
 */
#include <linux/bitfield.h>
#include <linux/inetdevice.h>
#include <linux/ip.h>
#include <linux/ipv6.h>
#include <linux/netdevice.h>
#include <linux/rculist.h>
#include <linux/sizes.h>
#include <linux/skbuff.h>
#include <linux/udp.h>
#include <net/addrconf.h>
#include <net/ip6_route.h>
#include <net/ip6_tunnel.h>
#include <net/ip_tunnels.h>
#include <net/dst_cache.h>
#include <net/inet_ecn.h>
#include <net/ipv6_stubs.h>
#include <net/netns/generic.h>
#include <net/protocol.h>
#include <net/route.h>
#include <net/udp.h>
#include <net/udp_tunnel.h>
#include <uapi/linux/uet.h>

#include "counters.h"
#include "pds.h"
#include "socket.h"
#include "tss_pkt.h"
#include "uet.h"
#include "wire.h"

/*
 * What a device's packets in qdiscs and drivers may take at once, in
 * socket memory (truesize): 1 MiB, what TCP small queues let one socket
 * have there by default (tcp_limit_output_bytes,
 * Documentation/networking/ip-sysctl.rst).
 */
#define UET_TX_QUEUED_MAX	SZ_1M

/* Serialises every change of a uet_net and of a device's namespace. */
static DEFINE_MUTEX(uet_nets_lock);

/**
 * struct uet_net - uet's state in one network namespace
 * @devs: the namespace's uet devices (RCU list, writers hold uet_nets_lock)
 * @ports: the UDP ports they use, struct uet_port (under uet_nets_lock)
 */
struct uet_net {
	struct list_head devs;
	struct list_head ports;
};

/**
 * struct uet_port - the sockets of one UDP port in one namespace
 * @list: entry in the namespace's @ports
 * @un: the namespace's uet state
 * @port: the port, network order
 * @users: the namespace's devices on it (their @uport)
 * @sock4: the IPv4 socket
 * @sock6: the IPv6 socket, %NULL without IPv6
 *
 * The sockets are open from creation until the port is freed: when its
 * last device leaves it, or when the namespace goes.  Devices reach it
 * through their @uport under RCU, the sockets' softirqs through their
 * user data; both are gone before it is freed.  Written under
 * uet_nets_lock.
 */
struct uet_port {
	struct list_head list;
	struct uet_net *un;
	__be16 port;
	unsigned int users;
	struct socket *sock4;
	struct socket *sock6;
};

/*
 * A UDP socket's own sk_write_space, put back before an accounting socket
 * is released.
 */
static void (*uet_def_write_space)(struct sock *sk);

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

/*
 * The netdev that holds the destination address of @skb, under RCU.  A
 * packet sent out of a netdev to one of that netdev's own addresses is
 * routed through the loopback device: the address, not the arrival
 * device, then names the receiving uet device.
 */
static struct net_device *uet_local_netdev(struct sk_buff *skb)
{
	struct net *net = dev_net(skb->dev);

	if (ip_hdr(skb)->version == 4)
		return __ip_dev_find(net, ip_hdr(skb)->daddr, false);
	return ipv6_dev_find(net, &ipv6_hdr(skb)->daddr, NULL);
}

/* The uet device a received packet is for, or %NULL; under RCU. */
static struct uet_dev *uet_dev_rcv(struct uet_net *un, struct sk_buff *skb)
{
	struct uet_dev *udev = uet_dev_by_netdev(un, skb->dev);
	struct net_device *ndev;

	if (udev || !(skb->dev->flags & IFF_LOOPBACK))
		return udev;
	ndev = uet_local_netdev(skb);
	return ndev ? uet_dev_by_netdev(un, ndev) : NULL;
}

/*
 * UET runs between unicast addresses.  A request to a broadcast or
 * multicast address would reach every host that hears it (each making a
 * PDC and answering), and an answer to a multicast, broadcast or
 * unspecified source would go to many or none.
 */
static bool uet_unicast(const struct sk_buff *skb)
{
	const struct in6_addr *s6;
	__be32 s4;

	if (skb->pkt_type != PACKET_HOST)
		return false;
	if (ip_hdr(skb)->version == 4) {
		s4 = ip_hdr(skb)->saddr;
		return !(skb_rtable(skb)->rt_flags &
			 (RTCF_BROADCAST | RTCF_MULTICAST)) &&
		       !ipv4_is_multicast(s4) && !ipv4_is_lbcast(s4) &&
		       !ipv4_is_zeronet(s4);
	}
	s6 = &ipv6_hdr(skb)->saddr;
	return !ipv6_addr_is_multicast(&ipv6_hdr(skb)->daddr) &&
	       !ipv6_addr_is_multicast(s6) && !ipv6_addr_any(s6) &&
	       !ipv6_addr_v4mapped(s6);
}

/* uet_tss_rcvd_t: a packet, clear or opened, for the PDS; consumed. */
static void uet_rcvd(struct uet_dev *udev, struct sk_buff *skb,
		     const struct in6_addr *saddr, u16 entropy, bool ce)
{
	uet_pds_rcv(udev, skb, saddr, entropy, ce);
	consume_skb(skb);
}

/* Whether the UET headers of @skb, from @off on, start with a TSS header. */
static bool uet_skb_sealed(const struct sk_buff *skb, unsigned int off)
{
	__be32 word;

	/* the PDS type's five bits, which a TSS header shares (wire.h) */
	return !skb_copy_bits(skb, off, &word, sizeof(word)) &&
	       FIELD_GET(UET_TSS_TYPE, be32_to_cpu(word)) == UET_PDS_TYPE_TSS;
}

/* The IP source address of a received packet, IPv4 as IPv4-mapped. */
static void uet_rcv_saddr(const struct sk_buff *skb, struct in6_addr *saddr)
{
	if (ip_hdr(skb)->version == 4)
		ipv6_addr_set_v4mapped(ip_hdr(skb)->saddr, saddr);
	else
		*saddr = ipv6_hdr(skb)->saddr;
}

/*
 * One UET packet from its first UET header on, what carried it (UDP, or
 * the entropy header directly over IP) checked and pulled; consumed.  A
 * packet with a TSS header is opened first (uet_tss_open()), perhaps
 * later; a clear one goes on to the PDS as it is.
 */
static void uet_rcv(struct uet_dev *udev, struct sk_buff *skb, u16 entropy)
{
	struct in6_addr saddr;
	bool ce;

	if (!uet_unicast(skb)) {
		uet_count(udev, UET_CNT_DROP_NOT_UNICAST, 1);
		kfree_skb(skb);
		return;
	}
	uet_rcv_saddr(skb, &saddr);
	if (ip_hdr(skb)->version == 4)
		ce = INET_ECN_is_ce(ipv4_get_dsfield(ip_hdr(skb)));
	else
		ce = INET_ECN_is_ce(ipv6_get_dsfield(ipv6_hdr(skb)));
	if (uet_skb_sealed(skb, 0)) {
		uet_tss_open(udev, skb, &saddr, entropy, ce, uet_rcvd);
		return;
	}
	uet_rx_cb(skb)->sealed = false;
	uet_rcvd(udev, skb, &saddr, entropy, ce);
}

/* A UET datagram, its UDP header checked by the UDP layer; consumed. */
static void uet_rcv_udp(struct uet_dev *udev, struct sk_buff *skb)
{
	u16 entropy = ntohs(udp_hdr(skb)->source);

	__skb_pull(skb, sizeof(struct udphdr));
	uet_count(udev, UET_CNT_RX_PACKETS, 1);
	uet_count(udev, UET_CNT_RX_BYTES, skb->len);
	uet_rcv(udev, skb, entropy);
}

/*
 * A packet no uet device owns: it came through a netdev without one, or
 * to a local address of such a netdev.  Counted where the kernel counts a
 * UDP datagram that no socket takes (UdpNoPorts, Udp6NoPorts).
 */
static void uet_rcv_unowned(struct sk_buff *skb)
{
	struct net *net = dev_net(skb->dev);

	if (ip_hdr(skb)->version == 4)
		__UDP_INC_STATS(net, UDP_MIB_NOPORTS, 0);
	else
		__UDP6_INC_STATS(net, UDP_MIB_NOPORTS, 0);
}

/* Called by the UDP layer in softirq; returns 0: the packet is consumed. */
static int uet_udp_encap_recv(struct sock *sk, struct sk_buff *skb)
{
	struct uet_port *up = rcu_dereference_sk_user_data(sk);
	struct uet_dev *udev;

	udev = up ? uet_dev_rcv(up->un, skb) : NULL;
	/* a device takes only what comes to its own port */
	if (udev && rcu_access_pointer(udev->uport) != up)
		udev = NULL;
	if (udev) {
		uet_rcv_udp(udev, skb);
	} else {
		uet_rcv_unowned(skb);
		kfree_skb_reason(skb, SKB_DROP_REASON_NO_SOCKET);
	}
	return 0;
}

/*
 * The CRC-32C of a packet directly over IP (wire.h): @crc, the register
 * after the bytes of its IP header from the source address on, run on
 * over the first @len bytes of @skb, from its entropy header at
 * @skb->data on.
 */
static u32 uet_crc(u32 crc, struct sk_buff *skb, unsigned int len)
{
	unsigned int off = 0, n;
	struct skb_seq_state st;
	const u8 *data;

	skb_prepare_seq_read(skb, 0, len, &st);
	while (off < len && (n = skb_seq_read(off, &data, &st))) {
		/* a block may run past @len */
		n = min(n, len - off);
		crc = uet_crc32c(crc, data, n);
		off += n;
	}
	skb_abort_seq_read(&st);
	return uet_crc32c_final(crc);
}

/*
 * Where the CRC of a received packet directly over IP starts, in its IP
 * header: the source address (IPv4 byte 12, IPv6 byte 8), as the UEC
 * reference provider has it; options and extension headers are covered.
 */
#define UET_CRC_IP4_START	offsetof(struct iphdr, saddr)
#define UET_CRC_IP6_START	offsetof(struct ipv6hdr, saddr)

/* Whether a clear packet directly over IP ends with its CRC-32C. */
static bool uet_crc_ok(struct sk_buff *skb)
{
	unsigned int start = ip_hdr(skb)->version == 4 ? UET_CRC_IP4_START :
							 UET_CRC_IP6_START;
	const u8 *pre = skb_network_header(skb) + start;
	__le32 crc;

	if (skb->len < sizeof(struct uet_entropy_hdr) + UET_CRC_LEN ||
	    skb_copy_bits(skb, skb->len - UET_CRC_LEN, &crc, sizeof(crc)))
		return false;
	return le32_to_cpu(crc) ==
	       uet_crc(uet_crc32c(UET_CRC32C_INIT, pre,
				  skb_transport_header(skb) - pre),
		       skb, skb->len - UET_CRC_LEN);
}

/*
 * A packet directly over IP that no uet device owns: counted where the
 * kernel counts a protocol nothing takes.
 */
static void uet_ip_unowned(struct sk_buff *skb)
{
	struct net *net = dev_net(skb->dev);

	if (ip_hdr(skb)->version == 4)
		__IP_INC_STATS(net, IPSTATS_MIB_INUNKNOWNPROTOS);
	else
		__IP6_INC_STATS(net, __in6_dev_get(skb->dev),
				IPSTATS_MIB_INUNKNOWNPROTOS);
	kfree_skb_reason(skb, SKB_DROP_REASON_IP_NOPROTO);
}

/*
 * Called by IPv4 and IPv6 for protocol UET_IP_PROTO, in softirq under
 * RCU, @skb->data at the entropy header; returns 0: the packet is
 * consumed.  Every device takes these as well as its UDP port's.  A clear
 * packet must end with its CRC, which goes before the PDS sees it; a
 * sealed one has its ICV instead.
 */
static int uet_ip_rcv(struct sk_buff *skb)
{
	struct uet_dev *udev = uet_dev_rcv(uet_net(dev_net(skb->dev)), skb);
	struct uet_entropy_hdr eh;

	if (!udev) {
		uet_ip_unowned(skb);
		return 0;
	}
	uet_count(udev, UET_CNT_RX_PACKETS, 1);
	if (skb_copy_bits(skb, 0, &eh, sizeof(eh))) {
		uet_count(udev, UET_CNT_DROP_MALFORMED, 1);
		goto drop;
	}
	if (!uet_skb_sealed(skb, sizeof(eh))) {
		if (!uet_crc_ok(skb)) {
			uet_count(udev, UET_CNT_DROP_BAD_CRC, 1);
			goto drop;
		}
		if (pskb_trim_rcsum(skb, skb->len - UET_CRC_LEN))
			goto drop;
	}
	if (!pskb_pull(skb, sizeof(eh)))
		goto drop;
	uet_count(udev, UET_CNT_RX_BYTES, skb->len);
	uet_rcv(udev, skb, ntohs(eh.entropy));
	return 0;
drop:
	kfree_skb(skb);
	return 0;
}

static const struct net_protocol uet_ip4_protocol = {
	.handler = uet_ip_rcv,
};

static const struct inet6_protocol uet_ip6_protocol = {
	.handler = uet_ip_rcv,
	.flags = INET6_PROTO_FINAL,
};

/*
 * UDP source ports carry a PDC's entropy (the UE overview: "entropy value
 * ... encoded as UDP source port"), kept in the dynamic range of RFC 6335
 * so that no well-known service sees UET traffic.
 */
#define UET_SPORT_BASE		0xc000
#define UET_SPORT_MASK		0x3fff

/**
 * struct uet_route - where a device's packets to one destination go
 * @sk: the device's port's socket of the destination's family.
 * @dst: the route, referenced.
 * @saddr: the source address, IPv4 as IPv4-mapped IPv6.
 * @dport: the destination UDP port, the device's own.
 * @v4: an IPv4 route.
 * @native: the packets go directly over IP (%UET_ENCAP_IP), not over UDP.
 * @zero_csum: over UDP, they go with a UDP checksum of zero
 *	(%UET_ENCAP_UDP_ZERO_CSUM), as the UE specification asks.
 */
struct uet_route {
	struct sock *sk;
	struct dst_entry *dst;
	struct in6_addr saddr;
	__be16 dport;
	bool v4;
	bool native;
	bool zero_csum;
};

static int uet_route4(struct uet_dev *udev, struct uet_route *r,
		      __be32 daddr, __be16 sport, struct dst_cache *cache)
{
	struct flowi4 fl4 = {
		.flowi4_oif = udev->ndev->ifindex,
		.flowi4_proto = r->native ? UET_IP_PROTO : IPPROTO_UDP,
		.daddr = daddr,
		.fl4_sport = r->native ? 0 : sport,
		.fl4_dport = r->native ? 0 : r->dport,
	};
	struct rtable *rt = NULL;

	if (cache)
		rt = dst_cache_get_ip4(cache, &fl4.saddr);
	if (!rt) {
		rt = ip_route_output_key(sock_net(r->sk), &fl4);
		if (IS_ERR(rt))
			return PTR_ERR(rt);
		if (cache)
			dst_cache_set_ip4(cache, &rt->dst, fl4.saddr);
	}
	r->dst = &rt->dst;
	ipv6_addr_set_v4mapped(fl4.saddr, &r->saddr);
	return 0;
}

/*
 * The source address of a packet is one of the sending device's: the
 * receiver answers the address it came from.  Routed out of @udev's
 * netdev, IPv4 takes the source from that netdev, but IPv6 picks the best
 * match of any interface (RFC 6724 rule 1: the destination itself, when
 * another uet device of the namespace holds it).  @saddr then becomes an
 * address of @udev's netdev of the destination's scope, if it has one.
 */
static void uet_saddr6(struct uet_dev *udev, struct net *net,
		       struct in6_addr *saddr, const struct in6_addr *daddr)
{
	int scope = ipv6_addr_src_scope(daddr);
	struct inet6_ifaddr *ifa;
	struct inet6_dev *idev;

	if (ipv6_chk_addr(net, saddr, udev->ndev, 1))
		return;
	idev = in6_dev_get(udev->ndev);
	if (!idev)
		return;
	read_lock_bh(&idev->lock);
	list_for_each_entry(ifa, &idev->addr_list, if_list) {
		if (!(ifa->flags & (IFA_F_TENTATIVE | IFA_F_DADFAILED)) &&
		    ipv6_addr_src_scope(&ifa->addr) == scope) {
			*saddr = ifa->addr;
			break;
		}
	}
	read_unlock_bh(&idev->lock);
	in6_dev_put(idev);
}

static int uet_route6(struct uet_dev *udev, struct uet_route *r,
		      const struct in6_addr *daddr, __be16 sport,
		      struct dst_cache *cache)
{
	struct flowi6 fl6 = {
		.flowi6_oif = udev->ndev->ifindex,
		.flowi6_proto = r->native ? UET_IP_PROTO : IPPROTO_UDP,
		.daddr = *daddr,
		.fl6_sport = r->native ? 0 : sport,
		.fl6_dport = r->native ? 0 : r->dport,
	};
	struct dst_entry *dst = NULL;

	if (cache)
		dst = dst_cache_get_ip6(cache, &fl6.saddr);
	if (!dst) {
		dst = ipv6_stub->ipv6_dst_lookup_flow(sock_net(r->sk), r->sk,
						      &fl6, NULL);
		if (IS_ERR(dst))
			return PTR_ERR(dst);
		uet_saddr6(udev, sock_net(r->sk), &fl6.saddr, daddr);
		if (cache)
			dst_cache_set_ip6(cache, dst, &fl6.saddr);
	}
	r->dst = dst;
	r->saddr = fl6.saddr;
	return 0;
}

/*
 * The route of @udev's packets to @daddr, whose first one leaves with
 * @sport; looked up in @cache first, kept there when missing.  Under
 * rcu_read_lock_bh().
 */
static int uet_route(struct uet_dev *udev, struct uet_route *r,
		     const struct in6_addr *daddr, __be16 sport,
		     struct dst_cache *cache)
{
	struct uet_port *up = rcu_dereference_bh(udev->uport);
	struct socket *sock = NULL;
	u8 encap;

	r->v4 = ipv6_addr_v4mapped(daddr);
	if (up)
		sock = r->v4 ? up->sock4 : up->sock6;
	/* a device without its namespace sends nothing */
	if (!sock)
		return -ENETDOWN;
	r->sk = sock->sk;
	r->dport = up->port;
	encap = READ_ONCE(udev->cfg.encap);
	r->native = encap == UET_ENCAP_IP;
	r->zero_csum = encap == UET_ENCAP_UDP_ZERO_CSUM;
	return r->v4 ? uet_route4(udev, r, daddr->s6_addr32[3], sport, cache) :
		       uet_route6(udev, r, daddr, sport, cache);
}

static __be16 uet_sport(u16 entropy)
{
	return htons(UET_SPORT_BASE | (entropy & UET_SPORT_MASK));
}

/*
 * The DS field @skb leaves with (IPv4 TOS, IPv6 traffic class): the DSCP
 * of its traffic class, a request's or the device's control class, and
 * its ECN field.  The device's settings may change meanwhile: each is
 * read once.
 */
static u8 uet_tos(struct uet_dev *udev, struct sk_buff *skb)
{
	const struct uet_skb_cb *cb = uet_skb_cb(skb);
	u8 tc = cb->data ? cb->tc : READ_ONCE(udev->cfg.ctl_tc);

	BUILD_BUG_ON(!is_power_of_2(UET_TC_MAX + 1));
	return READ_ONCE(udev->cfg.tc_dscp[tc & UET_TC_MAX]) << 2 | cb->ecn;
}

/*
 * End a clear packet directly over IP, from its entropy header at
 * @skb->data on, with its CRC-32C (uet_crc()): the IP addresses it will
 * leave with, then the packet.  Return: 0, or an error: @skb is dropped.
 */
static int uet_crc_put(const struct uet_route *r, struct sk_buff *skb,
		       const struct in6_addr *daddr)
{
	/* an IPv4 address is the last 4 bytes of its IPv4-mapped form */
	unsigned int off = r->v4 ? offsetof(struct in6_addr, s6_addr32[3]) : 0;
	unsigned int len = skb->len;
	struct sk_buff *trailer;
	__le32 *trail;
	u32 crc;
	int err;

	err = skb_cow_data(skb, UET_CRC_LEN, &trailer);
	if (err < 0)
		return err;
	trail = pskb_put(skb, trailer, UET_CRC_LEN);
	crc = uet_crc32c(UET_CRC32C_INIT, r->saddr.s6_addr + off,
			 sizeof(r->saddr) - off);
	crc = uet_crc32c(crc, daddr->s6_addr + off, sizeof(*daddr) - off);
	*trail = cpu_to_le32(uet_crc(crc, skb, len));
	return 0;
}

/*
 * Send @skb, one packet ready (sealed or clear), directly over IP: behind
 * an entropy header and, clear, with its CRC; the rest as
 * uet_route_xmit().
 */
static void uet_ip_xmit(const struct uet_route *r, struct sk_buff *skb,
			const struct in6_addr *daddr, u16 entropy, u8 tos)
{
	bool sealed = uet_skb_sealed(skb, 0);
	struct uet_entropy_hdr *eh;
	struct ipv6hdr *ip6h;

	eh = skb_push(skb, sizeof(*eh));
	eh->entropy = htons(entropy);
	eh->rsvd = 0;
	if (!sealed && uet_crc_put(r, skb, daddr)) {
		dst_release(r->dst);
		kfree_skb(skb);
		return;
	}
	skb_reset_transport_header(skb);
	if (r->v4) {
		iptunnel_xmit(r->sk, (struct rtable *)r->dst, skb,
			      r->saddr.s6_addr32[3], daddr->s6_addr32[3],
			      UET_IP_PROTO, tos, ip4_dst_hoplimit(r->dst),
			      htons(IP_DF), false);
		return;
	}
	/* as udp_tunnel6_xmit_skb() lays out its IPv6 header */
	skb_dst_set(skb, r->dst);
	skb_push(skb, sizeof(*ip6h));
	skb_reset_network_header(skb);
	ip6h = ipv6_hdr(skb);
	ip6_flow_hdr(ip6h, tos, 0);
	ip6h->payload_len = htons(skb->len - sizeof(*ip6h));
	ip6h->nexthdr = UET_IP_PROTO;
	ip6h->hop_limit = ip6_dst_hoplimit(r->dst);
	ip6h->saddr = r->saddr;
	ip6h->daddr = *daddr;
	ip6tunnel_xmit(r->sk, skb, NULL);
}

/*
 * Send @skb, one packet or a GSO batch of them, ready (sealed or clear),
 * to @daddr along @r, whose route reference it takes: charged to the
 * device's accounting socket, with the DS field of its class.  Under
 * rcu_read_lock_bh().
 */
static void uet_route_xmit(struct uet_dev *udev, const struct uet_route *r,
			   struct sk_buff *skb, const struct in6_addr *daddr,
			   u16 entropy)
{
	struct socket *txsk = rcu_dereference_bh(udev->txsk);
	__be16 sport = uet_sport(entropy);
	struct in6_addr saddr6, daddr6;
	u8 tos = uet_tos(udev, skb);

	if (txsk) {
		skb_set_owner_w(skb, txsk->sk);
		/* the flow hash is the PDC's (its entropy), not the socket's */
		skb_clear_hash(skb);
	}
	if (r->native) {
		uet_ip_xmit(r, skb, daddr, entropy, tos);
		return;
	}
	if (r->v4) {
		udp_tunnel_xmit_skb((struct rtable *)r->dst, r->sk, skb,
				    r->saddr.s6_addr32[3], daddr->s6_addr32[3],
				    tos, ip4_dst_hoplimit(r->dst), htons(IP_DF),
				    sport, r->dport, false, r->zero_csum);
		return;
	}
	/*
	 * No netdev for the tunnel statistics: they exist only on devices
	 * with per-CPU tunnel stats (veth has them, virtio_net and most NICs
	 * do not, and iptunnel_xmit_stats() warns on those).  The packet is
	 * counted in the device's own counters and by the netdev it leaves.
	 */
	/* copies: 6.1's udp_tunnel6_xmit_skb() takes them writable */
	saddr6 = r->saddr;
	daddr6 = *daddr;
	udp_tunnel6_xmit_skb(r->dst, r->sk, skb, NULL, &saddr6, &daddr6, tos,
			     ip6_dst_hoplimit(r->dst), 0, sport, r->dport,
			     r->zero_csum);
}

/*
 * Seal @skb if its job is secure (uet_tss_seal()); under rcu_read_lock_bh().
 * Return: whether it is ready to send now; if not, it is dropped, or the
 * crypto API sends it later (uet_sent()).
 */
static bool uet_ready(struct uet_dev *udev, struct sk_buff *skb,
		      const struct uet_route *r, const struct in6_addr *daddr,
		      u16 entropy);

/*
 * Send @skb, one packet, to @daddr: routed in the device's namespace and
 * out of its netdev, sealed if its job is secure.  A packet that cannot
 * be routed, or whose device has lost its namespace, is dropped like one
 * lost on the way.
 */
static void uet_send(struct uet_dev *udev, struct sk_buff *skb,
		     const struct in6_addr *daddr, u16 entropy,
		     struct dst_cache *cache)
{
	struct uet_route r;

	rcu_read_lock_bh();
	if (uet_route(udev, &r, daddr, uet_sport(entropy), cache))
		kfree_skb(skb);
	else if (!uet_ready(udev, skb, &r, daddr, entropy))
		dst_release(r.dst);
	else
		uet_route_xmit(udev, &r, skb, daddr, entropy);
	rcu_read_unlock_bh();
}

/*
 * uet_tss_sent_t: a packet sealed late, routed again; it
 * leaves only with the source address it was sealed with (the receiver
 * authenticates it).
 */
static void uet_sent(struct uet_dev *udev, struct sk_buff *skb,
		     const struct in6_addr *saddr,
		     const struct in6_addr *daddr, u16 entropy)
{
	struct uet_route r;

	rcu_read_lock_bh();
	if (uet_route(udev, &r, daddr, uet_sport(entropy), NULL)) {
		kfree_skb(skb);
	} else if (!ipv6_addr_equal(&r.saddr, saddr)) {
		uet_count(udev, UET_CNT_TSS_TX_ERRORS, 1);
		dst_release(r.dst);
		kfree_skb(skb);
	} else {
		uet_route_xmit(udev, &r, skb, daddr, entropy);
	}
	rcu_read_unlock_bh();
}

static bool uet_ready(struct uet_dev *udev, struct sk_buff *skb,
		      const struct uet_route *r, const struct in6_addr *daddr,
		      u16 entropy)
{
	bool ready;

	rcu_read_lock();
	ready = !uet_tss_seal(udev, skb, &r->saddr, daddr, entropy, uet_sent);
	rcu_read_unlock();
	return ready;
}

/**
 * uet_xmit() - send one UET packet
 * @udev: the sending device
 * @skb: the packet from its PDS header on, with room for UDP, IP and the
 *	link layer in front; consumed
 * @daddr: destination, IPv4 as IPv4-mapped IPv6
 * @entropy: the path choice, carried in the UDP source port
 * @cache: the route and source address of @daddr and @entropy, looked up
 *	and kept there when missing or stale; %NULL: look them up
 */
void uet_xmit(struct uet_dev *udev, struct sk_buff *skb,
	      const struct in6_addr *daddr, u16 entropy,
	      struct dst_cache *cache)
{
	uet_count(udev, UET_CNT_TX_PACKETS, 1);
	uet_count(udev, UET_CNT_TX_BYTES, skb->len);
	uet_send(udev, skb, daddr, entropy, cache);
}

/*
 * UDP GSO batches (the way a UDP socket's UDP_SEGMENT makes them): at
 * most UET_GSO_SEGS_MAX packets, and no more bytes than one UDP datagram
 * and one IP packet hold (a 16-bit length each).  UDP_MAX_SEGMENTS is 64
 * on Linux 6.1, 128 on 6.12.  The netdev's own GSO limits apply too, as
 * they do to TCP: "ip link set DEV gso_max_segs 1" sends packet by packet.
 */
#define UET_GSO_SEGS_MAX	64
#define UET_GSO_BYTES_MAX	(IP_MAX_MTU - sizeof(struct ipv6hdr) - \
				 sizeof(struct udphdr))

/* Whether @skb can be a segment of a batch: one linear buffer. */
static bool uet_gso_seg_ok(const struct sk_buff *skb)
{
	return !skb_is_nonlinear(skb) && !skb_cloned(skb);
}

/*
 * Take from @q the longest run of packets that can leave as one GSO skb:
 * of the first one's length, the last one possibly shorter, all of its
 * class, ECN field and entropy (struct uet_skb_cb).  They become one skb
 * with UDP L4 segmentation: the first packet in its head, the others on
 * its frag_list, each segment one of the packets, as GRO builds them.  The
 * stack cuts it into the same packets again, late: in the driver's
 * validate step, or the receiver's UDP layer when the batch crosses a
 * veth or the loopback device whole.  Without @batch (packets directly
 * over IP, or UDP ones without checksums), the first packet alone.
 * Returns the skb and sets @segs to the packets it holds.
 */
static struct sk_buff *uet_gso_batch(const struct net_device *ndev,
				     struct sk_buff_head *q,
				     unsigned int *segs, bool batch)
{
	unsigned int max_segs = min_t(unsigned int, UET_GSO_SEGS_MAX,
				      READ_ONCE(ndev->gso_max_segs));
	unsigned int max_bytes = min_t(unsigned int, UET_GSO_BYTES_MAX,
				       READ_ONCE(ndev->gso_max_size));
	struct sk_buff *head = __skb_dequeue(q), *skb, **tail;
	unsigned int mss = head->len, n = 1;

	/* UDP segmentation fills in every packet's UDP checksum */
	if (!batch || !uet_gso_seg_ok(head))
		goto out;
	tail = &skb_shinfo(head)->frag_list;
	while (n < max_segs && (skb = skb_peek(q)) &&
	       skb->len <= mss && uet_gso_seg_ok(skb) &&
	       !memcmp(uet_skb_cb(skb), uet_skb_cb(head),
		       sizeof(struct uet_skb_cb)) &&
	       head->len + skb->len <= max_bytes) {
		__skb_unlink(skb, q);
		*tail = skb;
		tail = &skb->next;
		head->len += skb->len;
		head->data_len += skb->len;
		head->truesize += skb->truesize;
		n++;
		if (skb->len < mss)
			break;
	}
	if (n == 1)
		goto out;
	skb_shinfo(head)->gso_size = mss;
	skb_shinfo(head)->gso_type = SKB_GSO_UDP_L4;
	skb_shinfo(head)->gso_segs = n;
	/*
	 * The UDP checksum is completed per segment (udp_set_csum() gives a
	 * GSO skb its pseudo-header sum only): it covers the UDP header the
	 * tunnel puts in front of the data.
	 */
	head->ip_summed = CHECKSUM_PARTIAL;
	head->csum_start = skb_headroom(head) - sizeof(struct udphdr);
	head->csum_offset = offsetof(struct udphdr, check);
out:
	*segs = n;
	return head;
}

/**
 * uet_xmit_queue() - send a PDC's packets, in batches
 * @udev: the sending device
 * @q: the packets, each as uet_xmit() takes it, in order; emptied
 * @daddr: their destination, IPv4 as IPv4-mapped IPv6
 * @entropy: their path choice, but for those sprayed with their own
 *	(struct uet_skb_cb)
 * @cache: their route and source address, as for uet_xmit()
 *
 * One route lookup for the queue; each packet is sealed on its own if
 * its job is secure (uet_tss_seal(): the route gives the source address
 * it authenticates), then consecutive packets of one size and entropy
 * leave as one GSO skb (uet_gso_batch()): one pass through IP and the
 * qdisc for the batch.  Every packet takes the route of the first: the
 * switches of the fabric hash each packet's source port, the host's own
 * multipath routes, if any, only the first one's.
 *
 * Context: bottom halves disabled.
 */
void uet_xmit_queue(struct uet_dev *udev, struct sk_buff_head *q,
		    const struct in6_addr *daddr, u16 entropy,
		    struct dst_cache *cache)
{
	const struct uet_skb_cb *cb;
	unsigned int segs, n = 0;
	struct sk_buff_head ready;
	struct sk_buff *skb;
	struct uet_route r;
	u64 bytes = 0;

	__skb_queue_head_init(&ready);
	skb_queue_walk(q, skb) {
		n++;
		bytes += skb->len;
	}
	uet_count(udev, UET_CNT_TX_PACKETS, n);
	uet_count(udev, UET_CNT_TX_BYTES, bytes);
	rcu_read_lock_bh();
	if (uet_route(udev, &r, daddr, uet_sport(entropy), cache)) {
		__skb_queue_purge(q);
		goto out;
	}
	/* each packet sealed on its own, if its job is secure, then batched */
	while ((skb = __skb_dequeue(q))) {
		cb = uet_skb_cb(skb);
		if (uet_ready(udev, skb, &r, daddr,
			      cb->sprayed ? cb->entropy : entropy))
			__skb_queue_tail(&ready, skb);
	}
	while (!skb_queue_empty(&ready)) {
		skb = uet_gso_batch(udev->ndev, &ready, &segs,
				    !r.native && !r.zero_csum);
		if (segs > 1)
			uet_count(udev, UET_CNT_TX_BATCHES, 1);
		cb = uet_skb_cb(skb);
		dst_hold(r.dst);
		uet_route_xmit(udev, &r, skb, daddr,
			       cb->sprayed ? cb->entropy : entropy);
	}
	dst_release(r.dst);
out:
	rcu_read_unlock_bh();
}

/**
 * uet_socket_tx_full() - whether the qdiscs hold too much to send more
 * @udev: the sending device
 *
 * Context: any.
 * Return: true while the device's packets in qdiscs and drivers take more
 * than UET_TX_QUEUED_MAX; uet_pds_tx_resume() says when that is over.
 */
bool uet_socket_tx_full(struct uet_dev *udev)
{
	struct socket *txsk;
	bool full = false;

	rcu_read_lock();
	txsk = rcu_dereference(udev->txsk);
	if (txsk)
		full = sk_wmem_alloc_get(txsk->sk) >
		       READ_ONCE(txsk->sk->sk_sndbuf);
	rcu_read_unlock();
	return full;
}

/*
 * An accounting socket's sk_write_space: called each time a qdisc or a
 * driver lets go of one of its device's packets (sock_wfree()).  Once
 * half its send buffer is free, the device resumes its waiting PDCs.
 */
static void uet_txsk_write_space(struct sock *sk)
{
	struct uet_dev *udev;

	if (sk_wmem_alloc_get(sk) > READ_ONCE(sk->sk_sndbuf) / 2)
		return;
	rcu_read_lock();
	udev = rcu_dereference_sk_user_data(sk);
	if (udev)
		uet_pds_tx_resume(udev);
	rcu_read_unlock();
}

/*
 * @udev's accounting socket.  It sends nothing, only owns the device's
 * packets on their way (the IP layer sends them for the namespace's
 * tunnel socket), and lives in the initial namespace, as long as the
 * device, whichever namespace goes first.
 */
static int uet_txsk_open(struct uet_dev *udev)
{
	struct socket *sock;
	struct sock *sk;
	int err;

	err = sock_create_kern(&init_net, AF_INET, SOCK_DGRAM, IPPROTO_UDP,
			       &sock);
	if (err)
		return err;
	sk = sock->sk;
	write_lock_bh(&sk->sk_callback_lock);
	sk->sk_sndbuf = UET_TX_QUEUED_MAX;
	sk->sk_userlocks |= SOCK_SNDBUF_LOCK;
	uet_def_write_space = sk->sk_write_space;
	rcu_assign_sk_user_data(sk, udev);
	WRITE_ONCE(sk->sk_write_space, uet_txsk_write_space);
	write_unlock_bh(&sk->sk_callback_lock);
	rcu_assign_pointer(udev->txsk, sock);
	return 0;
}

/*
 * Take @udev's accounting socket away, to release once the readers that
 * may still see it are done (uet_txsk_release(), after synchronize_net()).
 * Its packets still in qdiscs keep its memory; the socket's own
 * sk_write_space goes back, for it may outlive the module.
 */
static struct socket *uet_txsk_unhook(struct uet_dev *udev)
{
	struct socket *sock;
	struct sock *sk;

	lockdep_assert_held(&uet_nets_lock);
	sock = rcu_replace_pointer(udev->txsk, NULL,
				   lockdep_is_held(&uet_nets_lock));
	if (!sock)
		return NULL;
	sk = sock->sk;
	write_lock_bh(&sk->sk_callback_lock);
	rcu_assign_sk_user_data(sk, NULL);
	WRITE_ONCE(sk->sk_write_space, uet_def_write_space);
	write_unlock_bh(&sk->sk_callback_lock);
	return sock;
}

static void uet_txsk_release(struct socket *sock)
{
	if (sock)
		sock_release(sock);
}

static struct socket *uet_sock_open(struct net *net, struct uet_port *up,
				    int family)
{
	struct udp_tunnel_sock_cfg tcfg = {
		.sk_user_data = up,
		.encap_type = 1,
		.encap_rcv = uet_udp_encap_recv,
	};
	struct udp_port_cfg cfg = {
		.family = family,
		.local_udp_port = up->port,
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
	/*
	 * UDP GRO: consecutive packets of one flow (one PDC, one entropy)
	 * and one size arrive through the IP layer as one skb, which the
	 * UDP layer cuts into the packets again before encap_rcv, since the
	 * socket does not take GSO skbs (no UDP_FLAGS_ACCEPT_L4).
	 */
	udp_set_bit(GRO_ENABLED, sock->sk);
	return sock;
}

/*
 * Close @up's sockets and free it; no device uses it any more.  Each
 * socket's release waits for the softirqs that may still see @up.
 */
static void uet_port_free(struct uet_port *up)
{
	lockdep_assert_held(&uet_nets_lock);
	list_del(&up->list);
	udp_tunnel_sock_release(up->sock4);
	if (up->sock6)
		udp_tunnel_sock_release(up->sock6);
	kfree(up);
}

/* One device more on @port (host order) in @net: its sockets, opened if new. */
static struct uet_port *uet_port_get(struct net *net, u16 port)
{
	struct uet_net *un = uet_net(net);
	struct socket *sock;
	struct uet_port *up;

	lockdep_assert_held(&uet_nets_lock);
	list_for_each_entry(up, &un->ports, list) {
		if (up->port == htons(port)) {
			up->users++;
			return up;
		}
	}
	up = kzalloc(sizeof(*up), GFP_KERNEL);
	if (!up)
		return ERR_PTR(-ENOMEM);
	up->un = un;
	up->port = htons(port);
	up->users = 1;
	sock = uet_sock_open(net, up, AF_INET);
	if (IS_ERR(sock))
		goto err_free;
	up->sock4 = sock;
	if (ipv6_mod_enabled()) {
		sock = uet_sock_open(net, up, AF_INET6);
		if (IS_ERR(sock)) {
			udp_tunnel_sock_release(up->sock4);
			goto err_free;
		}
		up->sock6 = sock;
	}
	list_add_tail(&up->list, &un->ports);
	return up;

err_free:
	kfree(up);
	return ERR_CAST(sock);
}

/* One device fewer on @up, if any: the last one frees it. */
static void uet_port_put(struct uet_port *up)
{
	lockdep_assert_held(&uet_nets_lock);
	if (up && !--up->users)
		uet_port_free(up);
}

/**
 * uet_socket_attach() - start receiving UET packets for @udev
 * @udev: a device being created; its netdev's namespace is used
 *
 * Opens the sockets of @udev's UDP port in that namespace if it is the
 * first device on it.
 *
 * Return: 0, or a negative errno (e.g. -EADDRINUSE when something else
 * holds the port in that namespace).
 */
int uet_socket_attach(struct uet_dev *udev)
{
	struct net *net = dev_net(udev->ndev);
	struct uet_net *un = uet_net(net);
	struct uet_port *up;
	int err;

	mutex_lock(&uet_nets_lock);
	err = uet_txsk_open(udev);
	if (err)
		goto unlock;
	up = uet_port_get(net, READ_ONCE(udev->cfg.udp_port));
	if (IS_ERR(up)) {
		err = PTR_ERR(up);
		uet_txsk_release(uet_txsk_unhook(udev));
		goto unlock;
	}
	rcu_assign_pointer(udev->uport, up);
	rcu_assign_pointer(udev->net, net);
	list_add_tail_rcu(&udev->net_list, &un->devs);
unlock:
	mutex_unlock(&uet_nets_lock);
	return err;
}

/**
 * uet_socket_detach() - stop receiving for @udev
 * @udev: a device attached with uet_socket_attach()
 *
 * Returns after any softirq that could still see @udev has finished; closes
 * the sockets of @udev's port with its last device (unless the namespace
 * went first: uet_net_exit() detached @udev), and @udev's accounting
 * socket.
 */
void uet_socket_detach(struct uet_dev *udev)
{
	struct uet_port *up;
	struct socket *txsk;
	struct net *net;

	mutex_lock(&uet_nets_lock);
	txsk = uet_txsk_unhook(udev);
	net = rcu_dereference_protected(udev->net,
					lockdep_is_held(&uet_nets_lock));
	if (net) {
		list_del_rcu(&udev->net_list);
		RCU_INIT_POINTER(udev->net, NULL);
	}
	up = rcu_replace_pointer(udev->uport, NULL,
				 lockdep_is_held(&uet_nets_lock));
	synchronize_net();
	uet_port_put(up);
	mutex_unlock(&uet_nets_lock);
	uet_txsk_release(txsk);
}

/**
 * uet_socket_set_port() - move @udev to another UDP port
 * @udev: an attached device
 * @port: the port, host order
 *
 * Packets @udev sends go to @port from now on, and it takes only those
 * arriving at @port; the sockets of its old port close if it was their
 * last device.
 *
 * Return: 0, or a negative errno (-EADDRINUSE: something else holds
 * @port in @udev's namespace); @udev keeps its port then.
 */
int uet_socket_set_port(struct uet_dev *udev, u16 port)
{
	struct uet_port *up, *old;
	struct net *net;
	int err = 0;

	mutex_lock(&uet_nets_lock);
	net = rcu_dereference_protected(udev->net,
					lockdep_is_held(&uet_nets_lock));
	old = rcu_dereference_protected(udev->uport,
					lockdep_is_held(&uet_nets_lock));
	/* a device without its namespace sends and receives nothing */
	if (!net || (old && old->port == htons(port)))
		goto unlock;
	up = uet_port_get(net, port);
	if (IS_ERR(up)) {
		err = PTR_ERR(up);
		goto unlock;
	}
	rcu_assign_pointer(udev->uport, up);
	synchronize_net();
	uet_port_put(old);
unlock:
	mutex_unlock(&uet_nets_lock);
	return err;
}

static int __net_init uet_net_init(struct net *net)
{
	struct uet_net *un = uet_net(net);

	INIT_LIST_HEAD(&un->devs);
	INIT_LIST_HEAD(&un->ports);
	return 0;
}

/*
 * The namespace is going away; its netdevs, and with them its uet devices,
 * go later in the same teardown, and a device stays while programs keep
 * it open: detach them and close the sockets now, since neither keeps
 * the namespace alive.
 */
static void __net_exit uet_net_exit(struct net *net)
{
	struct uet_net *un = uet_net(net);
	struct uet_dev *udev, *tmp;
	struct uet_port *up, *next;

	mutex_lock(&uet_nets_lock);
	list_for_each_entry_safe(udev, tmp, &un->devs, net_list) {
		list_del_rcu(&udev->net_list);
		RCU_INIT_POINTER(udev->net, NULL);
		RCU_INIT_POINTER(udev->uport, NULL);
	}
	synchronize_net();
	list_for_each_entry_safe(up, next, &un->ports, list)
		uet_port_free(up);
	mutex_unlock(&uet_nets_lock);
}

static struct pernet_operations uet_net_ops = {
	.init = uet_net_init,
	.exit = uet_net_exit,
	.id = &uet_net_id,
	.size = sizeof(struct uet_net),
};

int uet_socket_init(void)
{
	int err;

	err = register_pernet_device(&uet_net_ops);
	if (err)
		return err;
	err = inet_add_protocol(&uet_ip4_protocol, UET_IP_PROTO);
	if (err)
		goto taken;
	err = inet6_add_protocol(&uet_ip6_protocol, UET_IP_PROTO);
	if (err) {
		inet_del_protocol(&uet_ip4_protocol, UET_IP_PROTO);
		synchronize_net();
		goto taken;
	}
	return 0;
taken:
	pr_err("IP protocol %u is taken by another module\n", UET_IP_PROTO);
	unregister_pernet_device(&uet_net_ops);
	return -EBUSY;
}

void uet_socket_exit(void)
{
	inet6_del_protocol(&uet_ip6_protocol, UET_IP_PROTO);
	inet_del_protocol(&uet_ip4_protocol, UET_IP_PROTO);
	/* the handlers' last softirqs are over before the devices go */
	synchronize_net();
	unregister_pernet_device(&uet_net_ops);
}
