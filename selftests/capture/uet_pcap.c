// SPDX-License-Identifier: GPL-2.0
/*
 * uet_pcap: print the UET headers of the packets in a capture, one line
 * per packet, decoded with the module's own parsers (drivers/uet/wire.c).
 * The packet tools of Debian 12 predate UET, so this is how the capture
 * test (selftests/capture.sh) and a user debugging a fabric read what
 * went over the wire:
 *
 *   tcpdump -i eth0 -w uet.pcap udp port 4793; uet_pcap uet.pcap
 *
 * Reads the classic pcap format (tcpdump -w) of Ethernet or Linux cooked
 * captures, IPv4 and IPv6.  Anything it cannot decode is said so, never
 * guessed at.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "uet_pcap.h"

#define PCAP_MAGIC		0xa1b2c3d4u	/* microsecond timestamps */
#define PCAP_MAGIC_NS		0xa1b23c4du	/* nanosecond timestamps */
#define PCAP_HDR_LEN		24
#define PCAP_REC_LEN		16
#define PCAP_LINKTYPE_OFF	20
#define PCAP_MAX_SNAP		262144

int main(int argc, char **argv)
{
	unsigned char hdr[PCAP_HDR_LEN], rec[PCAP_REC_LEN];
	static unsigned char frame[PCAP_MAX_SNAP];
	char line[UET_PCAP_LINE];
	unsigned int n = 0;
	uint32_t magic, linktype;
	FILE *f;

	if (argc != 2) {
		fprintf(stderr, "usage: uet_pcap FILE.pcap\n");
		return 2;
	}
	f = strcmp(argv[1], "-") ? fopen(argv[1], "rb") : stdin;
	if (!f) {
		perror(argv[1]);
		return 1;
	}
	if (fread(hdr, sizeof(hdr), 1, f) != 1) {
		fprintf(stderr, "%s: not a pcap file\n", argv[1]);
		return 1;
	}
	memcpy(&magic, hdr, sizeof(magic));
	memcpy(&linktype, hdr + PCAP_LINKTYPE_OFF, sizeof(linktype));
	if (magic != PCAP_MAGIC && magic != PCAP_MAGIC_NS) {
		fprintf(stderr, "%s: not a little-endian classic pcap file\n", argv[1]);
		return 1;
	}
	while (fread(rec, sizeof(rec), 1, f) == 1) {
		uint32_t caplen;

		memcpy(&caplen, rec + 8, sizeof(caplen));
		if (caplen > sizeof(frame) || fread(frame, caplen, 1, f) != 1) {
			fprintf(stderr, "%s: truncated record\n", argv[1]);
			return 1;
		}
		n++;
		if (uet_pcap_frame(linktype, frame, caplen, line, sizeof(line)) >= 0)
			printf("%u %s\n", n, line);
		else
			printf("%u not UET\n", n);
	}
	return 0;
}
