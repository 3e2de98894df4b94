// SPDX-License-Identifier: GPL-2.0
/*
 * Reading a classic pcap file, the format tcpdump -w writes: a 24-byte
 * file header, then per frame a 16-byte record header and the captured
 * bytes.  Little-endian files only, as written on the hosts we test on.
 */
#include <string.h>

#include "uet_pcap.h"

#define PCAP_MAGIC		0xa1b2c3d4u	/* microsecond timestamps */
#define PCAP_MAGIC_NS		0xa1b23c4du	/* nanosecond timestamps */
#define PCAP_HDR_LEN		24
#define PCAP_REC_LEN		16
#define PCAP_LINKTYPE_OFF	20
#define PCAP_CAPLEN_OFF		8

/**
 * uet_pcap_open() - read a pcap file's header
 * @pf: filled in
 * @f: the file, at its start
 *
 * Return: 0, or -1 if @f is not a little-endian classic pcap file.
 */
int uet_pcap_open(struct uet_pcap_file *pf, FILE *f)
{
	unsigned char hdr[PCAP_HDR_LEN];
	uint32_t magic;

	if (fread(hdr, sizeof(hdr), 1, f) != 1)
		return -1;
	memcpy(&magic, hdr, sizeof(magic));
	if (magic != PCAP_MAGIC && magic != PCAP_MAGIC_NS)
		return -1;
	pf->f = f;
	memcpy(&pf->linktype, hdr + PCAP_LINKTYPE_OFF, sizeof(pf->linktype));
	return 0;
}

/**
 * uet_pcap_next() - read the next frame
 * @pf: the file
 * @frame: where the captured bytes go
 * @size: room at @frame
 * @len: the captured length
 *
 * Return: 1 for a frame, 0 at the end of the file, -1 for a truncated
 * record or one larger than @size.
 */
int uet_pcap_next(struct uet_pcap_file *pf, unsigned char *frame,
		  size_t size, size_t *len)
{
	unsigned char rec[PCAP_REC_LEN];
	uint32_t caplen;

	if (fread(rec, sizeof(rec), 1, pf->f) != 1)
		return 0;
	memcpy(&caplen, rec + PCAP_CAPLEN_OFF, sizeof(caplen));
	if (caplen > size || (caplen && fread(frame, caplen, 1, pf->f) != 1))
		return -1;
	*len = caplen;
	return 1;
}
