/* SPDX-License-Identifier: GPL-2.0 */
/*
 * uet transport security on the wire: the socket layer seals each packet
 * of a secure job as it leaves, after its route is known, and opens each
 * packet with a TSS header as it arrives, before anything in it beyond
 * the TSS header is read.  Documentation/security.rst draws the packet.
 */
#ifndef _UET_TSS_PKT_H
#define _UET_TSS_PKT_H

#include <linux/in6.h>
#include <linux/list.h>
#include <linux/skbuff.h>
#include <linux/spinlock.h>
#include <linux/workqueue.h>

struct uet_dev;

/*
 * Packets that may wait for their source's key to be derived from a
 * cluster key, at most, per device and way (sent or received): each
 * holds its packet.  The ways have a bound each, so that packets from
 * others, forged ones included, never keep the device from sending.
 */
#define UET_TSS_WAIT_MAX	64

/**
 * struct uet_tss_wait - a device's packets waiting for derived keys
 * @lock: guards @list and @len.
 * @list: the packets (struct uet_tss_pkt, tss_pkt.c), in arrival order.
 * @len: how many, in @list or being worked on, received ([0]) and sent
 *	([1]): %UET_TSS_WAIT_MAX at most each.
 * @work: derives their sources' keys, and seals or opens them.
 */
struct uet_tss_wait {
	spinlock_t lock;	/* see above */
	struct list_head list;
	unsigned int len[2];
	struct work_struct work;
};

/**
 * typedef uet_tss_sent_t - send a packet whose sealing completed late
 * @udev: the sending device.
 * @skb: the packet, sealed, from its TSS header on.
 * @saddr: the source address it was sealed with: it must leave with it.
 * @daddr: its destination.
 * @entropy: its entropy.
 *
 * Called with bottom halves off, under rcu_read_lock().
 */
typedef void (*uet_tss_sent_t)(struct uet_dev *udev, struct sk_buff *skb,
			       const struct in6_addr *saddr,
			       const struct in6_addr *daddr, u16 entropy);

/**
 * typedef uet_tss_rcvd_t - take a packet that opened
 * @udev: the receiving device.
 * @skb: the packet from its PDS header on, its struct uet_rx_cb filled
 *	in; the callee consumes it.
 * @saddr: its source address.
 * @entropy: its entropy.
 * @ce: it arrived ECN-marked.
 *
 * Called with bottom halves off, under rcu_read_lock().
 */
typedef void (*uet_tss_rcvd_t)(struct uet_dev *udev, struct sk_buff *skb,
			       const struct in6_addr *saddr, u16 entropy,
			       bool ce);

int uet_tss_seal(struct uet_dev *udev, struct sk_buff *skb,
		 const struct in6_addr *saddr, const struct in6_addr *daddr,
		 u16 entropy, uet_tss_sent_t sent);
void uet_tss_open(struct uet_dev *udev, struct sk_buff *skb,
		  const struct in6_addr *saddr, u16 entropy, bool ce,
		  uet_tss_rcvd_t rcvd);
void uet_tss_init(struct uet_dev *udev);
bool uet_tss_admits(struct uet_dev *udev, const struct sk_buff *skb, u32 job);
void uet_tss_drain(struct uet_dev *udev);

#endif /* _UET_TSS_PKT_H */
