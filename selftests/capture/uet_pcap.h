/* SPDX-License-Identifier: GPL-2.0 */
#ifndef _UET_PCAP_H
#define _UET_PCAP_H

#include <stddef.h>
#include <stdint.h>

#define UET_PCAP_LINE		512
#define UET_PCAP_LINKTYPE_ETH	1
#define UET_PCAP_LINKTYPE_SLL	113

int uet_pcap_frame(uint32_t linktype, const unsigned char *p, size_t len,
		   char *out, size_t outlen);

#endif /* _UET_PCAP_H */
