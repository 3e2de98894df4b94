// SPDX-License-Identifier: GPL-2.0
/*
 * A switch's ways with UET requests, for the tests: tc egress programs.
 *
 * Section "tc", a trimming switch: cuts one UET RUD request in TRIM_ONE_IN
 * down to its headers, the way a UET switch trims a packet it would
 * otherwise drop, fixing the IPv4 and UDP lengths.  The receiver must see
 * the cut (the header promises a payload that is not there), NACK it as
 * trimmed, and the sender resend it at once.
 *
 * Section "tc/tail", a lossy tail: drops the first copy of every RUD
 * request that ends a message (SES EOM, PDS RETX clear).  When nothing
 * follows a message, nothing reveals the loss but a tail probe.
 *
 *   tc qdisc add dev veth0 clsact
 *   tc filter add dev veth0 egress bpf direct-action obj trim.bpf.o sec tc
 *
 * Both see packets only if the sender does not batch them (GSO).  Built
 * with clang -target bpf; no libbpf headers needed.  IPv4 only.
 */
#include <linux/bpf.h>
#include <linux/if_ether.h>
#include <linux/in.h>
#include <linux/ip.h>
#include <linux/pkt_cls.h>
#include <stddef.h>
#include <linux/udp.h>

#define SEC(name) __attribute__((section(name), used))

static long (*skb_load_bytes)(const void *skb, __u32 off, void *to, __u32 len) =
	(void *)BPF_FUNC_skb_load_bytes;
static long (*skb_store_bytes)(void *skb, __u32 off, const void *from,
			       __u32 len, __u64 flags) =
	(void *)BPF_FUNC_skb_store_bytes;
static long (*l3_csum_replace)(void *skb, __u32 off, __u64 from, __u64 to,
			       __u64 size) = (void *)BPF_FUNC_l3_csum_replace;
static long (*skb_change_tail)(void *skb, __u32 len, __u64 flags) =
	(void *)BPF_FUNC_skb_change_tail;
static __u32 (*get_prandom_u32)(void) = (void *)BPF_FUNC_get_prandom_u32;

#define BE16(x)		((__u16)__builtin_bswap16(x))	/* little-endian hosts */
#define UET_PORT	4793
#define PDS_TYPE_RUD_REQ 2	/* top five bits of the PDS header */
#define PDS_REQ_LEN	12
#define SES_STD_LEN	44
#define IP_OFF		ETH_HLEN
#define UDP_OFF		(IP_OFF + sizeof(struct iphdr))
#define PDS_OFF		(UDP_OFF + sizeof(struct udphdr))
#define HDRS_LEN	(PDS_OFF + PDS_REQ_LEN + SES_STD_LEN)
#define TRIM_ONE_IN	20
#define PDS_F_RETX	0x10	/* second byte of the PDS prologue */
#define SES_F_EOM	0x02	/* second byte of the SES header */

SEC("tc")
int trim(struct __sk_buff *skb)
{
	struct udphdr udp;
	struct iphdr ip;
	__u16 len, zero = 0;
	__u8 pds;

	if (skb->protocol != BE16(ETH_P_IP) || skb->len <= HDRS_LEN ||
	    skb_load_bytes(skb, IP_OFF, &ip, sizeof(ip)) || ip.ihl != 5 ||
	    ip.protocol != IPPROTO_UDP ||
	    skb_load_bytes(skb, UDP_OFF, &udp, sizeof(udp)) ||
	    udp.dest != BE16(UET_PORT) ||
	    skb_load_bytes(skb, PDS_OFF, &pds, sizeof(pds)) ||
	    pds >> 3 != PDS_TYPE_RUD_REQ || get_prandom_u32() % TRIM_ONE_IN)
		return TC_ACT_OK;
	if (skb_change_tail(skb, HDRS_LEN, 0))
		return TC_ACT_OK;
	len = BE16(HDRS_LEN - IP_OFF);
	l3_csum_replace(skb, IP_OFF + offsetof(struct iphdr, check), ip.tot_len,
			len, sizeof(len));
	skb_store_bytes(skb, IP_OFF + offsetof(struct iphdr, tot_len), &len,
			sizeof(len), 0);
	len = BE16(HDRS_LEN - UDP_OFF);
	skb_store_bytes(skb, UDP_OFF + offsetof(struct udphdr, len), &len,
			sizeof(len), 0);
	skb_store_bytes(skb, UDP_OFF + offsetof(struct udphdr, check), &zero,
			sizeof(zero), 0);
	return TC_ACT_OK;
}

SEC("tc/tail")
int tail(struct __sk_buff *skb)
{
	__u8 pds[2], ses[2];
	struct udphdr udp;
	struct iphdr ip;

	if (skb->protocol != BE16(ETH_P_IP) || skb->len <= HDRS_LEN ||
	    skb_load_bytes(skb, IP_OFF, &ip, sizeof(ip)) || ip.ihl != 5 ||
	    ip.protocol != IPPROTO_UDP ||
	    skb_load_bytes(skb, UDP_OFF, &udp, sizeof(udp)) ||
	    udp.dest != BE16(UET_PORT) ||
	    skb_load_bytes(skb, PDS_OFF, pds, sizeof(pds)) ||
	    skb_load_bytes(skb, PDS_OFF + PDS_REQ_LEN, ses, sizeof(ses)) ||
	    pds[0] >> 3 != PDS_TYPE_RUD_REQ || pds[1] & PDS_F_RETX ||
	    !(ses[1] & SES_F_EOM))
		return TC_ACT_OK;
	return TC_ACT_SHOT;
}

char _license[] SEC("license") = "GPL";
