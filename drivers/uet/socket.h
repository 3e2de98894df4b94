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
