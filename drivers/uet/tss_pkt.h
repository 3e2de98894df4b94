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
#include <linux/skbuff.h>

struct uet_dev;

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
bool uet_tss_admits(struct uet_dev *udev, const struct sk_buff *skb, u32 job);
void uet_tss_drain(struct uet_dev *udev);

#endif /* _UET_TSS_PKT_H */
