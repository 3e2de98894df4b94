/* SPDX-License-Identifier: GPL-2.0 */
/*
 * uet socket and packet I/O: one in-kernel UDP tunnel socket per address
 * family per network namespace that holds a uet device.
 */
#ifndef _UET_SOCKET_H
#define _UET_SOCKET_H

#include <linux/in6.h>
#include <linux/skbuff.h>

struct dst_cache;
struct uet_dev;

/**
 * struct uet_skb_cb - what the PDS says of a packet it hands to uet_xmit()
 *	or uet_xmit_queue(), in the skb's control block (the sender's until
 *	the IP layer takes the packet)
 * @ecn: the ECN field it leaves with: INET_ECN_NOT_ECT (0, as an skb is
 *	allocated) or INET_ECN_ECT_0.
 */
struct uet_skb_cb {
	u8 ecn;
};

static inline struct uet_skb_cb *uet_skb_cb(struct sk_buff *skb)
{
	BUILD_BUG_ON(sizeof(struct uet_skb_cb) > sizeof(skb->cb));
	return (struct uet_skb_cb *)skb->cb;
}

int uet_socket_init(void);
void uet_socket_exit(void);
int uet_socket_attach(struct uet_dev *udev);
void uet_socket_detach(struct uet_dev *udev);
bool uet_socket_tx_full(struct uet_dev *udev);
void uet_xmit(struct uet_dev *udev, struct sk_buff *skb,
	      const struct in6_addr *daddr, u16 entropy,
	      struct dst_cache *cache);
void uet_xmit_queue(struct uet_dev *udev, struct sk_buff_head *q,
		    const struct in6_addr *daddr, u16 entropy,
		    struct dst_cache *cache);

#endif /* _UET_SOCKET_H */
