/* SPDX-License-Identifier: GPL-2.0 */
#ifndef _UET_PCAP_H
#define _UET_PCAP_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#define UET_PCAP_LINE		512
#define UET_PCAP_LINKTYPE_ETH	1
#define UET_PCAP_LINKTYPE_SLL	113
#define UET_PCAP_MAX_SNAP	262144

/* A classic pcap file (tcpdump -w), read one record at a time: pcap.c. */
struct uet_pcap_file {
	FILE *f;
	uint32_t linktype;
};

int uet_pcap_open(struct uet_pcap_file *pf, FILE *f);
int uet_pcap_next(struct uet_pcap_file *pf, unsigned char *frame,
		  size_t size, size_t *len);

/**
 * struct uet_pcap_udp - the UET packet of a captured frame
 * @v6: IPv6, else IPv4
 * @native: directly over IP (protocol 253), else over UDP
 * @crc: directly over IP, clear: 1 if its CRC-32C matches, -1 if not (or
 *	it is too short for one); 0 when it has none
 * @src: source address, 4 or 16 bytes, in the frame
 * @dst: destination address, likewise
 * @sport: UDP source port, or the entropy directly over IP
 * @dport: UDP destination port, uet_pcap_port; 0 directly over IP
 * @payload: the UET packet, from its first header, in the frame
 * @len: bytes of it captured, its CRC not counted
 */
struct uet_pcap_udp {
	int v6;
	int native;
	int crc;
	const unsigned char *src, *dst;
	unsigned int sport, dport;
	const unsigned char *payload;
	size_t len;
};

/* decode.c */
extern unsigned int uet_pcap_port;

int uet_pcap_udp(uint32_t linktype, const unsigned char *p, size_t len,
		 struct uet_pcap_udp *u);
int uet_pcap_frame(uint32_t linktype, const unsigned char *p, size_t len,
		   char *out, size_t outlen);

#endif /* _UET_PCAP_H */
