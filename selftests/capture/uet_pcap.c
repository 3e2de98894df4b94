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
 * guessed at; a sealed packet shows its TSS header alone.
 *
 *   uet_pcap -x uet.pcap
 *
 * prints each UET packet's UDP payload instead, in hex, one per line:
 * what uet_inject -R sends again.  -p PORT takes the packets to PORT
 * for UET's, for devices set to another port than 4793.
 */
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "uet_pcap.h"

/* -x: the UDP payload of each UET packet, in hex. */
static void put_hex(uint32_t linktype, const unsigned char *frame, size_t len)
{
	struct uet_pcap_udp u;
	size_t i;

	if (uet_pcap_udp(linktype, frame, len, &u))
		return;
	for (i = 0; i < u.len; i++)
		printf("%02x", u.payload[i]);
	printf("\n");
}

int main(int argc, char **argv)
{
	static unsigned char frame[UET_PCAP_MAX_SNAP];
	char line[UET_PCAP_LINE];
	struct uet_pcap_file pf;
	unsigned int n = 0;
	unsigned long port;
	const char *path;
	bool hex = false;
	size_t len;
	char *end;
	FILE *f;
	int rc, c;

	while ((c = getopt(argc, argv, "xp:")) != -1) {
		switch (c) {
		case 'x':
			hex = true;
			break;
		case 'p':
			port = strtoul(optarg, &end, 10);
			if (*end || !port || port > UINT16_MAX)
				goto usage;
			uet_pcap_port = (unsigned int)port;
			break;
		default:
			goto usage;
		}
	}
	if (optind != argc - 1)
		goto usage;
	path = argv[optind];
	f = strcmp(path, "-") ? fopen(path, "rb") : stdin;
	if (!f) {
		perror(path);
		return 1;
	}
	if (uet_pcap_open(&pf, f)) {
		fprintf(stderr, "%s: not a little-endian classic pcap file\n", path);
		return 1;
	}
	while ((rc = uet_pcap_next(&pf, frame, sizeof(frame), &len)) > 0) {
		n++;
		if (hex)
			put_hex(pf.linktype, frame, len);
		else if (uet_pcap_frame(pf.linktype, frame, len, line, sizeof(line)) >= 0)
			printf("%u %s\n", n, line);
		else
			printf("%u not UET\n", n);
	}
	if (rc < 0) {
		fprintf(stderr, "%s: truncated record\n", path);
		return 1;
	}
	return 0;

usage:
	fprintf(stderr, "usage: uet_pcap [-x] [-p PORT] FILE.pcap\n");
	return 2;
}
