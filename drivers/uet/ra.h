/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Rate advice, the protocol core's half (ra.c): the message a network
 * element (a switch, a gateway between data centres) sends a sender to
 * say what rate one of its flows should keep to, and the sender's cap
 * that follows it.  Experimental and uet's own: the UET form of the Rate
 * Advice of draft-zz-scone-rate-advice-rocev2-00 (SCONE-Based Rate
 * Advice for RoCEv2 Networks), laid out in Documentation/rate-advice.rst.
 *
 * Advice is only ever an upper bound.  The cap moves a quarter of the way
 * from where it is to each advice (the draft: senders "conduct gradual
 * rate adjustment with reference to the advised rate"), never above the
 * link nor below a floor the device sets (which bounds what forged advice
 * can do), and lapses when advice stops coming.  Congestion control keeps
 * its own window: the cap only paces what the window lets go.
 *
 * Part of the protocol core: no packets, no locks, no clock, so the
 * userspace unit tests compile it as is.  The caller serialises the calls
 * on one struct uet_ra and passes the time.
 */
#ifndef _UET_RA_H
#define _UET_RA_H

#include <linux/compiler.h>
#include <linux/in6.h>
#include <linux/types.h>

/*
 * uet's PDS type of a rate advice message: the top of the types UEC 1.0
 * leaves reserved (it defines 1 to 14), far from the next ones it may
 * define.
 */
#define UET_PDS_TYPE_RA		31
/* The version this layout is, as the draft's Version field numbers its. */
#define UET_RA_VERSION		1

/**
 * struct uet_ra_hdr - a rate advice message, 28 bytes, big-endian
 * @prologue: a PDS prologue: type %UET_PDS_TYPE_RA, next header and flags 0.
 * @version: %UET_RA_VERSION.
 * @rate_mbps: the advised rate, Mbit/s (the draft's Rate); 0 withdraws
 *	the advice.
 * @spdcid: the flow's PDC at the sender, as its requests carry it in
 *	their SPDCID field.
 * @lifetime_ms: how long the advice holds; 0, the sender's default.
 * @daddr: the destination address of the flow's packets, an IPv4 one as
 *	IPv4-mapped IPv6.
 */
struct uet_ra_hdr {
	__be16 prologue;
	__be16 version;
	__be32 rate_mbps;
	__be16 spdcid;
	__be16 lifetime_ms;
	__u8 daddr[16];
} __packed;

/**
 * struct uet_ra_info - a rate advice message, in host order
 * @version: its version; only %UET_RA_VERSION parses.
 * @rate_mbps: see struct uet_ra_hdr.
 * @spdcid: see struct uet_ra_hdr.
 * @lifetime_ms: see struct uet_ra_hdr.
 * @daddr: see struct uet_ra_hdr.
 */
struct uet_ra_info {
	u16 version;
	u32 rate_mbps;
	u16 spdcid;
	u16 lifetime_ms;
	struct in6_addr daddr;
};

int uet_ra_parse(const u8 *buf, size_t len, struct uet_ra_info *info);
int uet_ra_build(u8 *buf, size_t len, const struct uet_ra_info *info);

/* How long advice holds when it does not say, ms. */
#define UET_RA_LIFETIME_DEF_MS	1000
/* The cap moves 1/UET_RA_STEP of the way to each advice. */
#define UET_RA_STEP		4
/*
 * The most a capped sender sends at once after a pause, bytes: one UDP
 * segmentation batch of 64 KiB (socket.c), which leaves as one.
 */
#define UET_RA_BURST		65536
/*
 * What the link carries for a packet beyond its UET headers and payload,
 * which the cap counts too, as an element measures its port's rate:
 * Ethernet's 38 bytes a frame (preamble and start delimiter 8, header 14,
 * FCS 4, inter-frame gap 12; NSCC's count, nscc.h), UDP 8 and IPv4 20 or
 * IPv6 40.  Advice of a link's whole rate then keeps its senders within
 * it (Documentation/rate-advice.rst).
 */
#define UET_RA_WIRE_IPV4	66
#define UET_RA_WIRE_IPV6	86

/**
 * struct uet_ra - a sender's cap, from the advice of one flow
 * @advised: the last advice, Mbit/s, within the floor and the link; 0:
 *	none holds.
 * @cap: the rate the sender keeps to, Mbit/s; 0: none, it sends as its
 *	congestion control lets it.
 * @expires: when the advice lapses (ns).
 * @at: when @tokens were counted (ns).
 * @tokens: bytes it may send now: it sends while there are any, and goes
 *	below 0 by the packet that took the last.
 */
struct uet_ra {
	u32 advised;
	u32 cap;
	u64 expires;
	u64 at;
	s64 tokens;
};

/**
 * enum uet_ra_result - what an advice did
 * @UET_RA_APPLIED: the cap moved towards it, or stays at it.
 * @UET_RA_RELEASED: it withdrew the advice: no cap.
 */
enum uet_ra_result {
	UET_RA_APPLIED,
	UET_RA_RELEASED,
};

enum uet_ra_result uet_ra_advise(struct uet_ra *ra, u64 now,
				 const struct uet_ra_info *info,
				 u32 floor_mbps, u32 link_mbps);
bool uet_ra_expire(struct uet_ra *ra, u64 now);
bool uet_ra_may_send(struct uet_ra *ra, u64 now);
void uet_ra_sent(struct uet_ra *ra, u32 bytes);
u64 uet_ra_wait_ns(const struct uet_ra *ra);

#endif /* _UET_RA_H */
