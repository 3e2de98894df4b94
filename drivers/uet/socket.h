/* SPDX-License-Identifier: GPL-2.0 */
/*
 * uet socket and packet I/O: one in-kernel UDP tunnel socket per address
 * family per network namespace that holds a uet device.
 */
#ifndef _UET_SOCKET_H
#define _UET_SOCKET_H

#include <linux/in6.h>
#include <linux/skbuff.h>
#include <net/inet_ecn.h>

struct dst_cache;
struct uet_dev;

/**
 * struct uet_skb_cb - what the PDS says of a packet it hands to uet_xmit()
 *	or uet_xmit_queue(), in the skb's control block (the sender's until
 *	the IP layer takes the packet)
 * @ecn: the ECN field it leaves with: INET_ECN_NOT_ECT (0, as an skb is
 *	allocated) or INET_ECN_ECT_0.
 * @data: a request, which leaves with the DSCP of its traffic class
 *	@tc; else (false, as an skb is allocated) an ACK, NACK, response or
 *	control packet, which leaves with that of the device's control class
 *	(struct uet_dev_cfg).
 * @tc: a request's traffic class, 0 to %UET_TC_MAX.
 * @sprayed: the packet leaves with an entropy of its own, @entropy, not
 *	its PDC's (false, as an skb is allocated): a sprayed request, or a
 *	target's answer on the path of the request it answers.
 * @entropy: that entropy.
 * @tss: the packet leaves sealed if @job's secure domain has keys, else
 *	clear; without @tss (as an skb is allocated), clear: an answer to
 *	a clear packet, or one no job's (uet_skb_set_job()).
 * @job: see @tss.
 */
struct uet_skb_cb {
	u8 ecn;
	bool data;
	u8 tc;
	bool sprayed;
	u16 entropy;
	bool tss;
	u32 job;
};

static inline struct uet_skb_cb *uet_skb_cb(struct sk_buff *skb)
{
	BUILD_BUG_ON(sizeof(struct uet_skb_cb) > sizeof(skb->cb));
	return (struct uet_skb_cb *)skb->cb;
}

/* @skb is a request of traffic class @tc: ECN-capable, in its class. */
static inline void uet_skb_set_data(struct sk_buff *skb, u8 tc)
{
	struct uet_skb_cb *cb = uet_skb_cb(skb);

	cb->ecn = INET_ECN_ECT_0;
	cb->data = true;
	cb->tc = tc;
}

/* @skb leaves with @entropy, not its PDC's (load balancing). */
static inline void uet_skb_set_entropy(struct sk_buff *skb, u16 entropy)
{
	struct uet_skb_cb *cb = uet_skb_cb(skb);

	cb->sprayed = true;
	cb->entropy = entropy;
}

/*
 * @skb is sealed under @job's secure domain when it has one (a job's own
 * packet, or an answer to a packet opened under its domain).
 */
static inline void uet_skb_set_job(struct sk_buff *skb, u32 job)
{
	struct uet_skb_cb *cb = uet_skb_cb(skb);

	cb->tss = true;
	cb->job = job;
}

/**
 * struct uet_rx_cb - what the socket layer says of a received packet, in
 *	its control block, from uet_rcv() to the PDS and SES layers
 * @sealed: it arrived sealed, and opened under the secure domain of ...
 * @sdi: ... job @sdi; else it arrived clear.
 */
struct uet_rx_cb {
	bool sealed;
	u32 sdi;
};

static inline struct uet_rx_cb *uet_rx_cb(struct sk_buff *skb)
{
	BUILD_BUG_ON(sizeof(struct uet_rx_cb) > sizeof(skb->cb));
	return (struct uet_rx_cb *)skb->cb;
}

int uet_socket_init(void);
void uet_socket_exit(void);
int uet_socket_attach(struct uet_dev *udev);
void uet_socket_detach(struct uet_dev *udev);
int uet_socket_set_port(struct uet_dev *udev, u16 port);
bool uet_socket_tx_full(struct uet_dev *udev);
void uet_xmit(struct uet_dev *udev, struct sk_buff *skb,
	      const struct in6_addr *daddr, u16 entropy,
	      struct dst_cache *cache);
void uet_xmit_queue(struct uet_dev *udev, struct sk_buff_head *q,
		    const struct in6_addr *daddr, u16 entropy,
		    struct dst_cache *cache);

#endif /* _UET_SOCKET_H */
