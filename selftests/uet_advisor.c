// SPDX-License-Identifier: GPL-2.0
/*
 * uet_advisor: a network element that gives rate advice
 * (Documentation/rate-advice.rst), for the tests and the lab, and for
 * whoever builds one to copy.
 *
 * It watches the UET requests that arrive on a network interface (a
 * switch's or a gateway's port; AF_PACKET), and tells the sender of each
 * flow that takes advice (its requests carry the RA flag) the rate of its
 * policy, at most once per interval per flow: the flow is the sender's
 * address, its PDCID (the requests' SPDCID) and the destination address.
 * The advice goes in a UDP datagram to the sender's UET port.
 *
 *   uet_advisor -i IFACE|any -r MBPS [-f] [-q EGRESS [-d TARGET_US]]
 *               [-l LIFETIME_MS] [-e EVERY_MS] [-p PORT] [-t SECONDS]
 *               [-c COUNT]
 *
 * -i any watches every interface (a switch's ingress ports).  With -f
 * the rate is a link's, shared: each flow is advised MBPS over the flows
 * seen in the last second (at least 1 Mbit/s).  With -q the rate follows
 * the queue of EGRESS (its root qdisc's backlog, drained at MBPS): while
 * the queue holds more than TARGET_US of it (300 by default), each
 * advice is the rate scaled by TARGET_US over the queue's delay (at most
 * an eighth less), so that the senders drain it.
 *
 * It stops after -t seconds or -c advices, or at SIGINT or SIGTERM, and
 * prints what it saw and did:
 *   uet_advisor: requests N, taking advice M, flows F, advised A
 * The frames it reads and the messages it builds go through the module's
 * own parsers and builders (wire.c, ra.c), fuzzed in selftests/fuzz.
 */
#include <arpa/inet.h>
#include <errno.h>
#include <getopt.h>
#include <linux/gen_stats.h>
#include <linux/if_ether.h>
#include <linux/if_packet.h>
#include <linux/netlink.h>
#include <linux/pkt_sched.h>
#include <linux/rtnetlink.h>
#include <net/if.h>
#include <netinet/in.h>
#include <poll.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

#include "ra.h"
#include "uet_advisor.h"
#include "uet_pcap.h"
#include "wire.h"

/* Flows remembered: a fixed table, the least recently advised replaced. */
#define FLOWS		1024
#define FLOW_PROBES	8
#define FRAME_MAX	65536
/* -f: a flow shares the rate while it was seen this recently */
#define ACTIVE_NS	1000000000ULL
/* -q: the queue's delay the senders are let keep, us, unless -d says */
#define TARGET_US_DEF	300
/* -q: the backlog is read again once it is this old */
#define BACKLOG_NS	1000000ULL

struct flow {
	uint8_t src[16], dst[16];
	uint16_t spdcid;
	int used;
	uint64_t advised_ns;
	uint64_t seen_ns;
};

static struct flow flows[FLOWS];
static volatile sig_atomic_t stop;

static void on_signal(int sig)
{
	(void)sig;
	stop = 1;
}

static uint64_t now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ULL + (uint64_t)ts.tv_nsec;
}

/* An address of a frame as IPv6, an IPv4 one mapped. */
static void addr16(const unsigned char *a, int v6, uint8_t out[16])
{
	memset(out, 0, 16);
	if (v6) {
		memcpy(out, a, 16);
		return;
	}
	out[10] = 0xff;
	out[11] = 0xff;
	memcpy(out + 12, a, 4);
}

/* The flow's entry, found or taken (*@fresh then); never NULL. */
static struct flow *flow_get(const uint8_t src[16], uint16_t spdcid,
			     const uint8_t dst[16], int *fresh)
{
	uint32_t h = spdcid;
	struct flow *f, *oldest = NULL;
	int i;

	for (i = 0; i < 16; i++)
		h = h * 31 + src[i] + dst[i];
	for (i = 0; i < FLOW_PROBES; i++) {
		f = &flows[(h + (uint32_t)i) % FLOWS];
		if (f->used && f->spdcid == spdcid &&
		    !memcmp(f->src, src, 16) && !memcmp(f->dst, dst, 16)) {
			*fresh = 0;
			return f;
		}
		if (!f->used || !oldest ||
		    (oldest->used && f->advised_ns < oldest->advised_ns))
			oldest = f;
	}
	memset(oldest, 0, sizeof(*oldest));
	memcpy(oldest->src, src, 16);
	memcpy(oldest->dst, dst, 16);
	oldest->spdcid = spdcid;
	oldest->used = 1;
	*fresh = 1;
	return oldest;
}

static int advise(int fd4, int fd6, const struct uet_pcap_udp *u,
		  const struct uet_ra_info *info, unsigned int port)
{
	uint8_t msg[sizeof(struct uet_ra_hdr)];
	struct sockaddr_in6 s6 = { .sin6_family = AF_INET6 };
	struct sockaddr_in s4 = { .sin_family = AF_INET };
	int len = uet_ra_build(msg, sizeof(msg), info);

	if (len < 0)
		return -1;
	if (u->v6) {
		s6.sin6_port = htons((uint16_t)port);
		memcpy(&s6.sin6_addr, u->src, 16);
		return sendto(fd6, msg, (size_t)len, 0, (void *)&s6,
			      sizeof(s6)) == len ? 0 : -1;
	}
	s4.sin_port = htons((uint16_t)port);
	memcpy(&s4.sin_addr, u->src, 4);
	return sendto(fd4, msg, (size_t)len, 0, (void *)&s4,
		      sizeof(s4)) == len ? 0 : -1;
}

/* -f: the flows seen within ACTIVE_NS of @now, at least 1 */
static unsigned int active_flows(uint64_t now)
{
	unsigned int i, n = 0;

	for (i = 0; i < FLOWS; i++)
		n += flows[i].used && now - flows[i].seen_ns < ACTIVE_NS;
	return n ? n : 1;
}

/*
 * -q: the backlog of @ifindex's root qdisc, bytes, through a dump of the
 * namespace's qdiscs on the rtnetlink socket @nl; -1 if it says none.
 */
static long qdisc_backlog(int nl, int ifindex)
{
	struct {
		struct nlmsghdr n;
		struct tcmsg t;
	} req = {
		.n.nlmsg_len = NLMSG_LENGTH(sizeof(struct tcmsg)),
		.n.nlmsg_type = RTM_GETQDISC,
		.n.nlmsg_flags = NLM_F_REQUEST | NLM_F_DUMP,
		.t.tcm_family = AF_UNSPEC,
	};
	/* aligned as the messages in it */
	static union {
		struct nlmsghdr h;
		char b[65536];
	} buf;
	long backlog = -1;
	ssize_t n;

	if (send(nl, &req, req.n.nlmsg_len, 0) != (ssize_t)req.n.nlmsg_len)
		return -1;
	while ((n = recv(nl, buf.b, sizeof(buf.b), 0)) > 0) {
		struct nlmsghdr *h = &buf.h;
		int len = (int)n;

		for (; NLMSG_OK(h, len); h = NLMSG_NEXT(h, len)) {
			struct tcmsg *t = NLMSG_DATA(h);
			struct rtattr *a = TCA_RTA(t), *q;
			int alen = (int)TCA_PAYLOAD(h), qlen;

			if (h->nlmsg_type == NLMSG_DONE ||
			    h->nlmsg_type == NLMSG_ERROR)
				return backlog;
			if (t->tcm_ifindex != ifindex ||
			    t->tcm_parent != TC_H_ROOT)
				continue;
			for (; RTA_OK(a, alen); a = RTA_NEXT(a, alen)) {
				if (a->rta_type != TCA_STATS2)
					continue;
				q = RTA_DATA(a);
				qlen = (int)RTA_PAYLOAD(a);
				for (; RTA_OK(q, qlen); q = RTA_NEXT(q, qlen))
					if (q->rta_type == TCA_STATS_QUEUE &&
					    RTA_PAYLOAD(q) >=
					    sizeof(struct gnet_stats_queue))
						backlog = ((struct gnet_stats_queue *)
							   RTA_DATA(q))->backlog;
			}
		}
	}
	return -1;
}

static int is_request(uint8_t type)
{
	return type == UET_PDS_TYPE_RUD_REQ || type == UET_PDS_TYPE_ROD_REQ ||
	       type == UET_PDS_TYPE_RUD_CC_REQ ||
	       type == UET_PDS_TYPE_ROD_CC_REQ;
}

static void usage(void)
{
	fprintf(stderr, "usage: uet_advisor -i IFACE|any -r MBPS [-f] "
		"[-q EGRESS [-d TARGET_US]] [-l LIFETIME_MS] [-e EVERY_MS] "
		"[-p PORT] [-t SECONDS] [-c COUNT]\n");
	exit(2);
}

int main(int argc, char **argv)
{
	unsigned long every_ms = 100, seconds = 0, count = 0, port = 4793;
	unsigned long requests = 0, capable = 0, nflows = 0, advised = 0;
	unsigned long target_us = TARGET_US_DEF, drained = 0;
	struct uet_ra_info info = { .version = UET_RA_VERSION };
	static unsigned char frame[FRAME_MAX];
	struct sockaddr_ll sll = { .sll_family = AF_PACKET };
	const char *ifname = NULL, *egress = NULL;
	uint64_t start, deadline = 0, backlog_at = 0;
	int fd, fd4, fd6, opt, rate = -1, share = 0, nl = -1, eindex = 0;
	long backlog = -1;

	while ((opt = getopt(argc, argv, "i:r:fq:d:l:e:p:t:c:")) != -1) {
		switch (opt) {
		case 'i':
			ifname = optarg;
			break;
		case 'f':
			share = 1;
			break;
		case 'q':
			egress = optarg;
			break;
		case 'd':
			target_us = strtoul(optarg, NULL, 0);
			break;
		case 'r':
			rate = atoi(optarg);
			break;
		case 'l':
			info.lifetime_ms = (uint16_t)strtoul(optarg, NULL, 0);
			break;
		case 'e':
			every_ms = strtoul(optarg, NULL, 0);
			break;
		case 'p':
			port = strtoul(optarg, NULL, 0);
			break;
		case 't':
			seconds = strtoul(optarg, NULL, 0);
			break;
		case 'c':
			count = strtoul(optarg, NULL, 0);
			break;
		default:
			usage();
		}
	}
	if (!ifname || rate < 0 || !port || port > 65535)
		usage();
	uet_pcap_port = (unsigned int)port;

	sll.sll_protocol = htons(ETH_P_ALL);
	/* ifindex 0 binds to every interface */
	if (strcmp(ifname, "any")) {
		sll.sll_ifindex = (int)if_nametoindex(ifname);
		if (!sll.sll_ifindex) {
			perror(ifname);
			return 1;
		}
	}
	if (egress) {
		eindex = (int)if_nametoindex(egress);
		nl = socket(AF_NETLINK, SOCK_RAW, NETLINK_ROUTE);
		if (!eindex || nl < 0) {
			perror(egress);
			return 1;
		}
	}
	fd = socket(AF_PACKET, SOCK_RAW, htons(ETH_P_ALL));
	fd4 = socket(AF_INET, SOCK_DGRAM, 0);
	fd6 = socket(AF_INET6, SOCK_DGRAM, 0);
	if (fd < 0 || fd4 < 0 || fd6 < 0 ||
	    bind(fd, (void *)&sll, sizeof(sll))) {
		perror("socket");
		return 1;
	}
	signal(SIGINT, on_signal);
	signal(SIGTERM, on_signal);
	start = now_ns();
	if (seconds)
		deadline = start + seconds * 1000000000ULL;

	while (!stop && (!count || advised < count)) {
		struct pollfd pfd = { .fd = fd, .events = POLLIN };
		struct sockaddr_ll from;
		socklen_t fromlen = sizeof(from);
		struct uet_pds_hdr_info h;
		struct uet_pcap_udp u;
		uint8_t src[16], dst[16];
		struct flow *f;
		uint64_t now;
		ssize_t n;
		int fresh;

		now = now_ns();
		if (deadline && now >= deadline)
			break;
		if (poll(&pfd, 1, 100) <= 0)
			continue;
		n = recvfrom(fd, frame, sizeof(frame), MSG_DONTWAIT,
			     (void *)&from, &fromlen);
		/* what it sends itself is not a flow's */
		if (n <= 0 || from.sll_pkttype == PACKET_OUTGOING)
			continue;
		if (uet_pcap_udp(UET_PCAP_LINKTYPE_ETH, frame, (size_t)n, &u) ||
		    uet_pds_parse(u.payload, u.len, &h) < 0 ||
		    !is_request(h.type))
			continue;
		requests++;
		if (!(h.flags & UET_PDS_F_RA))
			continue;
		capable++;
		addr16(u.src, u.v6, src);
		addr16(u.dst, u.v6, dst);
		f = flow_get(src, h.req.spdcid, dst, &fresh);
		nflows += fresh;
		f->seen_ns = now;
		if (!fresh && now - f->advised_ns < every_ms * 1000000ULL)
			continue;
		info.rate_mbps = (uint32_t)rate;
		if (share && rate)
			info.rate_mbps = (uint32_t)rate / active_flows(now) ?: 1;
		if (egress && rate) {
			uint32_t was = info.rate_mbps;

			if (now - backlog_at >= BACKLOG_NS) {
				backlog = qdisc_backlog(nl, eindex);
				backlog_at = now;
			}
			info.rate_mbps =
				uet_advisor_queue_rate(was, backlog,
						       (uint32_t)rate,
						       (uint32_t)target_us);
			drained += info.rate_mbps < was;
		}
		info.spdcid = h.req.spdcid;
		memcpy(&info.daddr, dst, 16);
		if (advise(fd4, fd6, &u, &info, (unsigned int)port)) {
			perror("sendto");
			continue;
		}
		f->advised_ns = now;
		advised++;
	}
	printf("uet_advisor: requests %lu, taking advice %lu, flows %lu, advised %lu",
	       requests, capable, nflows, advised);
	if (egress)
		printf(", lowered for the queue %lu", drained);
	putchar('\n');
	return 0;
}
