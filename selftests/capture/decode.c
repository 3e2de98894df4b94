// SPDX-License-Identifier: GPL-2.0
/*
 * One captured frame to one line: link, IP and UDP headers by hand, the
 * UET headers by the module's parsers.  Every length is checked against
 * what was captured (the fuzz target fuzz_pcap drives this file).
 */
#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include <linux/bitfield.h>

#include "ra.h"
#include "uet_pcap.h"
#include "wire.h"

#define ETH_HLEN		14
#define SLL_HLEN		16
#define ETH_P_IP		0x0800
#define ETH_P_IPV6		0x86dd
#define IPPROTO_UDP_NUM		17
#define IPV6_HLEN		40
#define UDP_HLEN		8
#define UET_PORT		4793	/* UET_UDP_PORT of include/uapi/linux/uet.h */
#define UET_IP_PROTO_NUM	253	/* UET_IP_PROTO, likewise */
#define ENTROPY_HLEN		4	/* UET_ENTROPY_HDR_LEN */
#define CRC_LEN			4	/* UET_CRC_LEN */
#define IP4_SADDR_OFF		12	/* where the CRC starts, wire.h */
#define IP6_SADDR_OFF		8

/* The UDP port UET packets go to: UET's, or a device's own (uet_pcap -p). */
unsigned int uet_pcap_port = UET_PORT;

struct out {
	char *buf;
	size_t len, used;
};

static void put(struct out *o, const char *fmt, ...)
{
	va_list ap;
	int n;

	if (o->used >= o->len)
		return;
	va_start(ap, fmt);
	n = vsnprintf(o->buf + o->used, o->len - o->used, fmt, ap);
	va_end(ap);
	if (n > 0)
		o->used += (size_t)n;
}

static unsigned int be16(const unsigned char *p)
{
	return (unsigned int)p[0] << 8 | p[1];
}

static void put_addr(struct out *o, int v6, const unsigned char *a)
{
	int i;

	if (!v6) {
		put(o, "%u.%u.%u.%u", a[0], a[1], a[2], a[3]);
		return;
	}
	for (i = 0; i < 16; i += 2)
		put(o, "%s%x", i ? ":" : "", be16(a + i));
}

static const char *name(const char *s)
{
	return s ? s : "?";
}

static void put_pds_flags(struct out *o, unsigned int type, unsigned int f)
{
	int req = type == UET_PDS_TYPE_RUD_REQ || type == UET_PDS_TYPE_ROD_REQ ||
		  type == UET_PDS_TYPE_RUD_CC_REQ || type == UET_PDS_TYPE_ROD_CC_REQ ||
		  type == UET_PDS_TYPE_CTRL;

	put(o, " flags");
	if (!f)
		put(o, " -");
	if (type == UET_PDS_TYPE_ACK && (f & UET_PDS_F_EPSN))
		put(o, " EPSN");
	if (req && type != UET_PDS_TYPE_CTRL && (f & UET_PDS_F_RA))
		put(o, " RA");
	if (type == UET_PDS_TYPE_CTRL && (f & UET_PDS_F_ISROD))
		put(o, " ISROD");
	if (f & UET_PDS_F_RETX)
		put(o, " RETX");
	if (req && (f & UET_PDS_F_AR))
		put(o, " AR");
	if (req && (f & UET_PDS_F_SYN))
		put(o, " SYN");
}

static void put_dst(struct out *o, unsigned int flags,
		    const struct uet_pds_dst_info *d)
{
	if (flags & UET_PDS_F_SYN)
		put(o, " psn_offset %u", d->psn_offset);
	else
		put(o, " dpdcid %u", d->dpdcid);
}

static void put_ses(struct out *o, const unsigned char *p, size_t len,
		    unsigned int nh)
{
	struct uet_ses_hdr_info h;
	int hlen = uet_ses_parse(p, len, nh, &h);

	if (nh == UET_SES_NH_NONE)
		return;
	if (hlen < 0) {
		put(o, " ses malformed");
		return;
	}
	if (nh == UET_SES_NH_RSP || nh == UET_SES_NH_RSP_DATA ||
	    nh == UET_SES_NH_RSP_DATA_SMALL) {
		if (nh == UET_SES_NH_RSP_DATA_SMALL) {
			put(o, " ses RSP_SMALL rc %s psn %u len %u",
			    name(uet_ses_rc_name(h.rsp.rc)), h.rsp.req_psn,
			    h.rsp.payload_length);
			return;
		}
		put(o, " ses %s rc %s msg %u", nh == UET_SES_NH_RSP ? "RSP" : "RSP_DATA",
		    name(uet_ses_rc_name(h.rsp.rc)), h.rsp.message_id);
		if (nh != UET_SES_NH_RSP)
			put(o, " off %u len %u", h.rsp.message_offset,
			    h.rsp.payload_length);
		return;
	}
	put(o, " ses %s job %u pid %u msg %u%s%s%s", name(uet_ses_opcode_name(h.req.opcode)),
	    h.req.job_id, h.req.pid_on_fep, h.req.message_id,
	    h.req.flags & UET_SES_F_SOM ? " SOM" : "",
	    h.req.flags & UET_SES_F_EOM ? " EOM" : "",
	    h.req.flags & UET_SES_F_HD ? " HD" : "");
	put(o, " off %llu reqlen %u payload %zu",
	    (unsigned long long)h.req.buffer_offset, h.req.request_length,
	    len - (size_t)hlen);
}

/*
 * A sealed packet: its TSS header, and the length of what follows it, the
 * ICV included, which only a key opens.
 */
static void put_tss(struct out *o, const unsigned char *p, size_t len)
{
	struct uet_tss_hdr_info t;
	int hlen = uet_tss_parse(p, len, &t);

	if (hlen < 0) {
		put(o, " tss malformed");
		return;
	}
	put(o, " tss sdi %u an %u", t.sdi, t.an);
	if (t.has_ssi)
		put(o, " ssi %u", t.ssi);
	put(o, " tsc %#llx sealed %zu", (unsigned long long)t.tsc,
	    len - (size_t)hlen);
}

/* uet's rate advice (ra.h): a message of its own, in a PDS prologue. */
static void put_ra(struct out *o, const unsigned char *p, size_t len)
{
	static const unsigned char v4mapped[12] = {
		[10] = 0xff, [11] = 0xff
	};
	struct uet_ra_info ra;
	const unsigned char *a;
	int v6;

	if (uet_ra_parse(p, len, &ra) < 0) {
		put(o, " rate-advice malformed");
		return;
	}
	put(o, " rate-advice v%u rate_mbps %u spdcid %u lifetime_ms %u daddr ",
	    ra.version, ra.rate_mbps, ra.spdcid, ra.lifetime_ms);
	a = ra.daddr.s6_addr;
	v6 = memcmp(a, v4mapped, sizeof(v4mapped)) != 0;
	put_addr(o, v6, v6 ? a : a + sizeof(v4mapped));
}

static void put_pds(struct out *o, const unsigned char *p, size_t len)
{
	struct uet_pds_hdr_info h;
	int hlen;

	/* the PDS type field, whose value TSS the TSS header shares */
	if (len && FIELD_GET(UET_TSS_TYPE, (uint32_t)p[0] << 24) ==
		   UET_PDS_TYPE_TSS) {
		put_tss(o, p, len);
		return;
	}
	if (len && FIELD_GET(UET_PDS_PRLG_TYPE, (uint16_t)(p[0] << 8)) ==
		   UET_PDS_TYPE_RA) {
		put_ra(o, p, len);
		return;
	}
	hlen = uet_pds_parse(p, len, &h);

	if (hlen < 0) {
		put(o, " pds malformed");
		return;
	}
	put(o, " pds %s", name(uet_pds_type_name(h.type)));
	put_pds_flags(o, h.type, h.flags);
	switch (h.type) {
	case UET_PDS_TYPE_RUD_REQ:
	case UET_PDS_TYPE_ROD_REQ:
	case UET_PDS_TYPE_RUD_CC_REQ:
	case UET_PDS_TYPE_ROD_CC_REQ:
		put(o, " psn %u spdcid %u", h.req.psn, h.req.spdcid);
		put_dst(o, h.flags, &h.req.dst);
		break;
	case UET_PDS_TYPE_RUDI_REQ:
	case UET_PDS_TYPE_RUDI_RESP:
		put(o, " pkt_id %u", h.rudi_pkt_id);
		break;
	case UET_PDS_TYPE_ACK:
	case UET_PDS_TYPE_ACK_CC:
	case UET_PDS_TYPE_ACK_CCX:
		put(o, " cack %u ack_psn %u spdcid %u dpdcid %u", h.ack.cack_psn,
		    h.ack.cack_psn + h.ack.ack_psn_offset, h.ack.spdcid,
		    h.ack.dpdcid);
		if (h.flags & UET_PDS_F_EPSN && h.type == UET_PDS_TYPE_ACK)
			put(o, " epsn %u", h.ack.epsn);
		if (h.type != UET_PDS_TYPE_ACK)
			put(o, " sack_base %u sack %#llx",
			    h.ack.cack_psn + h.ack.sack_psn_offset,
			    (unsigned long long)h.ack.sack_bitmap);
		if (h.type == UET_PDS_TYPE_ACK_CCX)
			put(o, " ccx %u", h.ack.cc_type);
		break;
	case UET_PDS_TYPE_NACK:
	case UET_PDS_TYPE_NACK_CCX:
		put(o, " code %s psn %u spdcid %u dpdcid %u payload %u",
		    name(uet_pds_nack_name(h.nack.code)), h.nack.psn,
		    h.nack.spdcid, h.nack.dpdcid, h.nack.payload);
		if (h.type == UET_PDS_TYPE_NACK_CCX)
			put(o, " ccx %u", h.nack.ccx_type);
		break;
	case UET_PDS_TYPE_CTRL:
		put(o, " ctl %s psn %u spdcid %u", name(uet_pds_ctl_name(h.ctl.type)),
		    h.ctl.psn, h.ctl.spdcid);
		put_dst(o, h.flags, &h.ctl.dst);
		return;
	default:
		break;
	}
	put_ses(o, p + hlen, len - (size_t)hlen, h.next_hdr);
}

/*
 * The packet directly over IP at @l4 (@len bytes, no more than the IP
 * header says): its entropy header, then TSS or PDS; a clear one ends
 * with the CRC-32C of the bytes from the IP source address at @ip + @off
 * on (wire.h), little-endian.
 */
static int native(const unsigned char *ip, size_t off, const unsigned char *l4,
		  size_t len, struct uet_pcap_udp *u)
{
	unsigned int crc;

	if (len < ENTROPY_HLEN)
		return -1;
	u->native = 1;
	u->sport = be16(l4);
	u->dport = 0;
	u->payload = l4 + ENTROPY_HLEN;
	u->len = len - ENTROPY_HLEN;
	u->crc = 0;
	if (u->len >= 1 && u->payload[0] >> 3 == UET_PDS_TYPE_TSS)
		return 0;
	if (u->len < CRC_LEN) {
		u->crc = -1;
		return 0;
	}
	u->len -= CRC_LEN;
	crc = uet_crc32c(UET_CRC32C_INIT, ip + off,
			 (size_t)(l4 - ip) - off + ENTROPY_HLEN + u->len);
	crc = uet_crc32c_final(crc);
	u->crc = crc == ((unsigned int)u->payload[u->len] |
			 (unsigned int)u->payload[u->len + 1] << 8 |
			 (unsigned int)u->payload[u->len + 2] << 16 |
			 (unsigned int)u->payload[u->len + 3] << 24) ? 1 : -1;
	return 0;
}

/**
 * uet_pcap_udp() - find the UET packet in one captured frame
 * @linktype: the capture's link type
 * @p: the frame
 * @len: its captured length
 * @u: filled in for a UDP datagram to port 4793 or a packet directly over
 *	IP (protocol 253), IPv4 or IPv6
 *
 * @u->payload points into @p; @u->len is what was captured of it, no more
 * than the UDP or IP header says, a CRC not counted.
 *
 * Return: 0 for a UET packet, -1 for anything else.
 */
int uet_pcap_udp(uint32_t linktype, const unsigned char *p, size_t len,
		 struct uet_pcap_udp *u)
{
	const unsigned char *ip, *udp;
	unsigned int proto, ulen, l4proto;
	size_t off, iplen, ipend, saddr_off;

	if (linktype == UET_PCAP_LINKTYPE_ETH)
		off = ETH_HLEN;
	else if (linktype == UET_PCAP_LINKTYPE_SLL)
		off = SLL_HLEN;
	else
		return -1;
	if (len < off)
		return -1;
	proto = be16(p + off - 2);
	ip = p + off;
	len -= off;
	if (proto == ETH_P_IP) {
		if (len < 20 || (ip[0] >> 4) != 4)
			return -1;
		l4proto = ip[9];
		iplen = (size_t)(ip[0] & 0xf) * 4;
		ipend = be16(ip + 2);
		u->src = ip + 12;
		u->dst = ip + 16;
		u->v6 = 0;
		saddr_off = IP4_SADDR_OFF;
	} else if (proto == ETH_P_IPV6) {
		if (len < IPV6_HLEN || (ip[0] >> 4) != 6)
			return -1;
		l4proto = ip[6];
		iplen = IPV6_HLEN;
		ipend = IPV6_HLEN + be16(ip + 4);
		u->src = ip + 8;
		u->dst = ip + 24;
		u->v6 = 1;
		saddr_off = IP6_SADDR_OFF;
	} else {
		return -1;
	}
	if (iplen < 20 || len < iplen)
		return -1;
	u->native = 0;
	u->crc = 0;
	if (l4proto == UET_IP_PROTO_NUM) {
		if (ipend >= iplen && ipend < len)
			len = ipend;
		return native(ip, saddr_off, ip + iplen, len - iplen, u);
	}
	if (l4proto != IPPROTO_UDP_NUM || len < iplen + UDP_HLEN)
		return -1;
	udp = ip + iplen;
	u->sport = be16(udp);
	u->dport = be16(udp + 2);
	ulen = be16(udp + 4);
	if (u->dport != uet_pcap_port)
		return -1;
	len -= iplen + UDP_HLEN;
	if (ulen >= UDP_HLEN && ulen - UDP_HLEN < len)
		len = ulen - UDP_HLEN;
	u->payload = udp + UDP_HLEN;
	u->len = len;
	return 0;
}

/**
 * uet_pcap_frame() - decode one captured frame
 * @linktype: the capture's link type
 * @p: the frame
 * @len: its captured length
 * @out: the line, NUL-terminated
 * @outlen: room in @out, at least 1
 *
 * Return: 0 for a UET packet, -1 for anything else (nothing printed).
 */
int uet_pcap_frame(uint32_t linktype, const unsigned char *p, size_t len,
		   char *out, size_t outlen)
{
	struct out o = { .buf = out, .len = outlen };
	struct uet_pcap_udp u;

	out[0] = '\0';
	if (uet_pcap_udp(linktype, p, len, &u))
		return -1;
	put_addr(&o, u.v6, u.src);
	put(&o, ".%u > ", u.sport);
	put_addr(&o, u.v6, u.dst);
	if (u.native)
		put(&o, ".ip len %zu%s", u.len,
		    u.crc > 0 ? " crc ok" : u.crc < 0 ? " crc BAD" : "");
	else
		put(&o, ".%u len %zu", u.dport, u.len);
	put_pds(&o, u.payload, u.len);
	return 0;
}
