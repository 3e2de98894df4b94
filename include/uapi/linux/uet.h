/* SPDX-License-Identifier: GPL-2.0 WITH Linux-syscall-note */
/*
 * Ultra Ethernet Transport (UEC specification 1.0): wire constants shared
 * by the uet kernel module and userspace.
 *
 * Sizes are those of the UE overview (shared/seeds/ue-overview-talk.txt,
 * "Transport Layer" header stack); Documentation/wire-format.rst cites the
 * field layouts behind them.
 */
#ifndef _UAPI_LINUX_UET_H
#define _UAPI_LINUX_UET_H

/* IANA-assigned UDP destination port of UET. */
#define UET_UDP_PORT		4793

/*
 * UET directly over IP: IP protocol 253, one of the two RFC 3692 sets
 * aside for experiments, which the UEC reference provider sends; a 4-byte
 * entropy header takes the UDP header's place, and a packet sent without
 * transport security ends with a CRC-32C (Documentation/wire-format.rst).
 */
#define UET_IP_PROTO		253
#define UET_ENTROPY_HDR_LEN	4
#define UET_CRC_LEN		4

/*
 * Largest header of each layer that can precede a UET payload.  The PDS
 * request with congestion-control state is 16 bytes in Wireshark's UET
 * dissector (packet-uet.c), whose layout Documentation/wire-format.rst
 * follows; the overview's "2B + 12-20B" counts the same bytes differently.
 */
#define UET_IPV6_HDR_LEN	40	/* IPv6 without extension headers */
#define UET_UDP_HDR_LEN		8
#define UET_TSS_HDR_MAX_LEN	16	/* "Opt. TSS (12-16B)" */
#define UET_PDS_REQ_MAX_LEN	16	/* RUD/ROD request with CC state */
#define UET_SES_HDR_MAX_LEN	44	/* SES standard request */
#define UET_TSS_ICV_LEN		16	/* "Opt. TSS ICV (16B)" */

/* Worst-case bytes of a packet's MTU that are not payload. */
#define UET_MAX_OVERHEAD	(UET_IPV6_HDR_LEN + UET_UDP_HDR_LEN + \
				 UET_TSS_HDR_MAX_LEN + UET_PDS_REQ_MAX_LEN + \
				 UET_SES_HDR_MAX_LEN + UET_TSS_ICV_LEN)

#endif /* _UAPI_LINUX_UET_H */
