// SPDX-License-Identifier: GPL-2.0
/*
 * libFuzzer target for the capture decoder (selftests/capture/decode.c):
 * the first byte picks the link type, the rest is a captured frame.  The
 * decoder must stay inside the frame and always end its line.
 */
#include <stdlib.h>
#include <string.h>

#include "uet_pcap.h"

int LLVMFuzzerTestOneInput(const unsigned char *data, size_t size);

int LLVMFuzzerTestOneInput(const unsigned char *data, size_t size)
{
	char line[UET_PCAP_LINE];
	uint32_t linktype;

	if (!size)
		return 0;
	linktype = data[0] & 1 ? UET_PCAP_LINKTYPE_SLL : UET_PCAP_LINKTYPE_ETH;
	memset(line, 'x', sizeof(line));
	uet_pcap_frame(linktype, data + 1, size - 1, line, sizeof(line));
	if (!memchr(line, '\0', sizeof(line)))
		abort();
	return 0;
}
