// SPDX-License-Identifier: GPL-2.0
/*
 * uet_inject: hostile UET packets at a live uet device, for a bounded time
 * at a bounded rate.
 *
 *   uet_inject [-p CAPTURE.pcap]... [-P PDCS] [-s SEED] [-t SECONDS]
 *              [-n COUNT] [-r RATE] [-T TRACE] ADDR...
 *   uet_inject -R TRACE [-r RATE] ADDR...
 *
 * Each packet starts as a real one: a packet of a capture (-p, what
 * tcpdump -w wrote; selftests/capture.sh shows how), or one built here
 * with the module's own header builders (drivers/uet/wire.c) for every
 * PDS type, control type, NACK code, SES header, opcode and return code.
 * Many are then aimed at the device's live PDCs: -P names the device's
 * debugfs table (/sys/kernel/debug/uet/DEV/pdcs, or - for standard input
 * opened on it), re-read every 100 ms, and aimed packets carry a live
 * PDC's IDs and PSNs in and around its window: requests and control
 * packets at PDCs the device is target of, ACKs and NACKs at those it
 * initiated.  Then come the mutations, one to four of: bit flips, a
 * field of the packet's own layout set to a value of its kind (type,
 * next header, flags with SYN, opcode, lengths, PSNs, PDCIDs, message
 * IDs, offsets, memory keys), truncation, extension, and a tail spliced
 * from another packet.  A share of packets stays well-formed, to reach
 * past the parsers.
 *
 * Packets go to UDP port 4793 of each ADDR (IPv4 or IPv6) in turn, -r
 * per second (default 1000), for -t seconds or -n packets (default 10
 * s).  The choices follow a PRNG seeded by -s (default: from the clock),
 * printed first.  The device's answers, when they come back to port 4793
 * here, are read and counted; the PDCs the device opened for our own
 * SYNs are then aimed at too, without -P.  -T writes each packet sent
 * as a line "SECONDS.MICROSECONDS INDEX ADDR-INDEX HEX" (CLOCK_MONOTONIC,
 * the clock of the kernel log's timestamps; past 16 MiB the file moves to
 * TRACE.old and starts again), and -R sends the packets of such a file,
 * or lines of bare hex, again in order: the reproducer of a kernel report
 * is the packets sent just before it.  -z sends them with a zero UDP
 * checksum, which the UE specification asks for (IPv4 and IPv6).  -N
 * sends every other packet, at random, directly over IP instead (IP
 * protocol 253, behind an entropy header, with its CRC-32C; one in 16 of
 * those with a CRC one bit wrong, which the device must count in
 * drop_bad_crc: the summary says how many).
 *
 * The first line printed gives the seed and the time of the start, on
 * the trace's clock; the last ones say what was sent, "uet_inject: sent N
 * packets" first: a test checks that the device counted as many.
 */
#include <arpa/inet.h>
#include <errno.h>
#include <fcntl.h>
#include <netinet/in.h>
#include <netinet/udp.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

#include <linux/uet.h>

#include "uet_pcap.h"
#include "wire.h"
#include "uet_rng.h"

#define UET_PORT		UET_UDP_PORT
/* a UDP payload that leaves at MTU 1500 unfragmented, IPv4 and IPv6 */
#define PKT_MAX			1452
#define SEEDS_MAX		4096
#define PDCS_MAX		4096
#define TARGETS_MAX		8
#define REFRESH_NS		100000000ull
#define NSEC			1000000000ull
/*
 * Our own PDCs: SYNs take their SPDCID from this many values, so the
 * target PDCs they open stay bounded however long the run.
 */
#define OWN_SPDCIDS		64
/* PSNs are aimed this far around a live PDC's window (its largest, RUD's). */
#define PSN_REACH		1100

struct seed {
	uint8_t *b;
	uint16_t len;
};

/**
 * struct pdc - a live PDC of the device, from its pdcs table
 * @lpdcid: the device's ID of it, our DPDCID
 * @rpdcid: the peer's ID, our SPDCID
 * @ini: the device initiated it: it takes ACKs and NACKs; else requests
 * @rod: ROD, else RUD
 * @own: its peer is one of our addresses
 * @una: initiator: the first PSN not acknowledged
 * @nxt: initiator: the next PSN to send
 * @cack: target: every PSN up to it has arrived
 */
struct pdc {
	uint16_t lpdcid, rpdcid;
	bool ini, rod, own;
	uint32_t una, nxt, cack;
};

/**
 * struct target - a destination
 * @addr: ADDR, port 4793
 * @alen: its length
 * @fd: a UDP socket connected to it
 * @local: our address towards it, as the device sees it (IPv4-mapped)
 * @name: ADDR as given
 */
struct target {
	struct sockaddr_storage addr;
	socklen_t alen;
	int fd;
	int raw;
	struct in6_addr local;
	const char *name;
};

struct pkt {
	uint8_t b[PKT_MAX];
	size_t len;
};

static struct seed seeds[SEEDS_MAX];
static unsigned int nseeds, seeds_seen;
static struct pdc pdcs[PDCS_MAX];
static unsigned int npdcs;
static struct target targets[TARGETS_MAX];
static unsigned int ntargets;

/* What was sent and heard, for the summary. */
static struct {
	unsigned long sent, bytes, aimed, aimed_own, mutated, from_capture;
	unsigned long by_type[32];
	unsigned long heard, heard_type[32];
	unsigned long native, bad_crc;
} st;

static void die(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	fputs("uet_inject: ", stderr);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
	exit(1);
}

static uint64_t now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * NSEC + (uint64_t)ts.tv_nsec;
}

/* Big-endian field access; writes beyond the packet are dropped. */
static void put_be(struct pkt *p, size_t off, unsigned int size, uint64_t v)
{
	unsigned int i;

	for (i = 0; i < size && off + i < p->len; i++)
		p->b[off + i] = (uint8_t)(v >> (8 * (size - 1 - i)));
}

static uint64_t get_be(const struct pkt *p, size_t off, unsigned int size)
{
	uint64_t v = 0;
	unsigned int i;

	for (i = 0; i < size; i++)
		v = v << 8 | (off + i < p->len ? p->b[off + i] : 0);
	return v;
}

/* ---- seeds from captures ---- */

/* Keep a uniform sample of at most SEEDS_MAX packets (reservoir). */
static void seed_add(const uint8_t *b, size_t len)
{
	unsigned int slot;

	if (!len || len > PKT_MAX)
		return;
	slot = seeds_seen < SEEDS_MAX ? seeds_seen : below(seeds_seen + 1);
	seeds_seen++;
	if (slot >= SEEDS_MAX)
		return;
	if (slot == nseeds)
		nseeds++;
	free(seeds[slot].b);
	seeds[slot].b = malloc(len);
	if (!seeds[slot].b)
		die("out of memory");
	memcpy(seeds[slot].b, b, len);
	seeds[slot].len = (uint16_t)len;
}

static void load_pcap(const char *path)
{
	static unsigned char frame[UET_PCAP_MAX_SNAP];
	struct uet_pcap_file pf;
	struct uet_pcap_udp u;
	unsigned int n = 0;
	size_t len;
	FILE *f;
	int rc;

	f = fopen(path, "rb");
	if (!f)
		die("%s: %s", path, strerror(errno));
	if (uet_pcap_open(&pf, f))
		die("%s: not a little-endian classic pcap file", path);
	while ((rc = uet_pcap_next(&pf, frame, sizeof(frame), &len)) > 0) {
		if (uet_pcap_udp(pf.linktype, frame, len, &u))
			continue;
		seed_add(u.payload, u.len);
		n++;
	}
	if (rc < 0)
		fprintf(stderr, "uet_inject: %s: truncated record, using what came before\n",
			path);
	fclose(f);
	printf("uet_inject: %u UET packets in %s\n", n, path);
}

/* ---- the device's live PDCs ---- */

static int pdcs_fd = -1;

/* -z: UDP checksums of zero, "none" (RFC 768; RFC 6935 for IPv6) */
static bool zero_csum;
/* -N: half the packets directly over IP */
static bool native;

#ifndef UDP_NO_CHECK6_TX
#define UDP_NO_CHECK6_TX	101	/* linux/udp.h */
#endif

static bool is_own(const struct in6_addr *a)
{
	unsigned int i;

	for (i = 0; i < ntargets; i++)
		if (!memcmp(a, &targets[i].local, sizeof(*a)))
			return true;
	return false;
}

/* Re-read the table: "lpdcid rpdcid role state mode raddr una nxt cack ...". */
static void pdcs_refresh(void)
{
	static char buf[PDCS_MAX * 160];
	size_t used = 0;
	ssize_t n;
	char *line, *save;

	if (pdcs_fd < 0)
		return;
	if (lseek(pdcs_fd, 0, SEEK_SET) < 0)
		die("PDC table: %s", strerror(errno));
	while (used < sizeof(buf) - 1 &&
	       (n = read(pdcs_fd, buf + used, sizeof(buf) - 1 - used)) > 0)
		used += (size_t)n;
	buf[used] = '\0';
	npdcs = 0;
	for (line = strtok_r(buf, "\n", &save); line && npdcs < PDCS_MAX;
	     line = strtok_r(NULL, "\n", &save)) {
		char role[8], state[24], mode[8], raddr[64];
		struct pdc *pc = &pdcs[npdcs];
		struct in6_addr a;
		unsigned int l, r;

		if (sscanf(line, "%u %u %7s %23s %7s %63s %u %u %u", &l, &r, role,
			   state, mode, raddr, &pc->una, &pc->nxt, &pc->cack) != 9 ||
		    inet_pton(AF_INET6, raddr, &a) != 1)
			continue;	/* the header line */
		pc->lpdcid = (uint16_t)l;
		pc->rpdcid = (uint16_t)r;
		pc->ini = !strcmp(role, "ini");
		pc->rod = !strcmp(mode, "rod");
		pc->own = is_own(&a);
		npdcs++;
	}
}

/*
 * Without the table: the PDCs the device opened for our SYNs, learnt from
 * its ACKs, which name our SPDCID and its own.
 */
static void pdcs_learn(const uint8_t *b, size_t len)
{
	struct uet_pds_hdr_info h;
	unsigned int i;

	if (pdcs_fd >= 0 || uet_pds_parse(b, len, &h) < 0 ||
	    (h.type != UET_PDS_TYPE_ACK && h.type != UET_PDS_TYPE_ACK_CC) ||
	    !h.ack.dpdcid || h.ack.dpdcid > OWN_SPDCIDS)
		return;
	for (i = 0; i < npdcs; i++)
		if (pdcs[i].rpdcid == h.ack.dpdcid)
			break;
	if (i == npdcs) {
		if (npdcs == PDCS_MAX)
			return;
		npdcs++;
	}
	pdcs[i] = (struct pdc) {
		.lpdcid = h.ack.spdcid, .rpdcid = h.ack.dpdcid,
		.own = true, .cack = h.ack.cack_psn,
	};
}

/* ---- values by kind ---- */

enum kind {
	K_BYTE, K_PSN, K_PSNOFF, K_PDCID, K_LEN14, K_LEN32, K_OFF32, K_OFF64,
	K_KEY, K_MSGID, K_JOB, K_IDX, K_OPCODE, K_SESFLAGS, K_CODE, K_BITS,
};

/* The PDC a packet is aimed at, if any: PSNs and IDs come from it. */
static const struct pdc *aim;

static uint32_t psn_near(void)
{
	uint32_t base;

	if (!aim)
		return (uint32_t)PICK(0, 1, 0x7fffffff, 0x80000000, 0xffffffff,
				      rnd64(), rnd64() & 0xfff);
	base = aim->ini ? (one_in(2) ? aim->una : aim->nxt) : aim->cack;
	switch (below(4)) {
	case 0:
		return base + (uint32_t)PICK(0, 1, -1, 2, 63, 64, 65, -64);
	case 1:
		return base + below(64) - 8;
	case 2:
		return base + below(2 * PSN_REACH) - PSN_REACH;
	default:
		return base + (uint32_t)PICK(1023, 1024, 1025, 0x800, 0x1000,
					     0x80000000, -1024);
	}
}

static uint16_t pdcid_value(void)
{
	if (npdcs && one_in(2)) {
		const struct pdc *pc = &pdcs[below(npdcs)];

		return one_in(2) ? pc->lpdcid : pc->rpdcid;
	}
	return (uint16_t)PICK(0, 1, 2, 0xffff, 0x8000, rnd64(), 1 + below(OWN_SPDCIDS));
}

/* A field of a seed, to keep memory keys and IDs of real traffic about. */
static uint64_t seed_field(size_t off, unsigned int size, uint64_t dflt)
{
	const struct seed *s;
	struct pkt p;

	if (!nseeds)
		return dflt;
	s = &seeds[below(nseeds)];
	p.len = s->len;
	memcpy(p.b, s->b, s->len);
	return off + size <= p.len ? get_be(&p, off, size) : dflt;
}

static uint64_t value(enum kind k, unsigned int size, const struct pkt *p,
		      size_t off)
{
	uint64_t old = get_be(p, off, size);

	switch (k) {
	case K_PSN:
		return psn_near();
	case K_PSNOFF:
		return PICK(0, 1, 0xffff, 0x7fff, 0x8000, 64, 0xffc0, rnd64());
	case K_PDCID:
		return pdcid_value();
	case K_LEN14:
		return PICK(0, 1, 8, 1359, 1360, 1361, 0x3fff, 0x4000, 0xffff,
			    below(0x4000), old + 1, old - 1);
	case K_LEN32:
		return PICK(0, 1, 4096, 65536, 1 << 24, 0x7fffffff, 0xffffffff,
			    rnd64(), old + 1, old - 1, old * 2);
	case K_OFF32:
		return PICK(0, 1, 1360, 4095, 4096, 65536, 0x7fffffff, 0xffffffff,
			    rnd64(), old + 1360, old - 1);
	case K_OFF64:
		return PICK(0, 1, 4095, 4096, 1ull << 32, 1ull << 63, ~0ull,
			    ~0ull - 4095, rnd64(), old + 1, old - 1, old + 4096);
	case K_KEY:
		return PICK(0, 1, ~0ull, rnd64(), old + 1, old ^ 0x100,
			    old ^ (1ull << 56), old + 0x100);
	case K_MSGID:
		return PICK(0, 1, 0xffff, 0x8000, rnd64(), old + 1, old - 1, old + 2);
	case K_JOB:
		/* the generation byte, then the 24-bit job ID */
		return PICK(0, 1, 2, 0xffffff, 0x01000001, 0xff000001,
			    rnd64(), old ^ 0x01000000, old + 1);
	case K_IDX:
		return PICK(0, 1, 2, 3, 0xfff, 0x1000, 0xffff, below(0x1000));
	case K_OPCODE:
		return below(one_in(4) ? 256 : UET_SES_OPCODE_COUNT);
	case K_SESFLAGS:
		return old ^ (1u << below(8));
	case K_CODE:
		return one_in(3) ? rnd64() : PICK(UET_PDS_NACK_TRIMMED,
			UET_PDS_NACK_ROD_OOO, UET_PDS_NACK_INV_DPDCID,
			UET_PDS_NACK_CLOSING, UET_PDS_NACK_NO_PDC_AVAIL,
			UET_PDS_NACK_NEW_START_PSN, UET_PDS_NACK_EXP_FATAL, 0);
	case K_BITS:
		return PICK(0, ~0ull, 1, 1ull << 63, rnd64(), old << 1, old >> 1);
	default:
		return PICK(0, 0xff, 0x7f, 0x80, 1, rnd64(), old ^ (1u << below(8)));
	}
}

/* ---- the layout of a packet, read from its bytes, valid or not ---- */

struct field {
	uint8_t off, size, kind;
};

#define F(type, member, k) { offsetof(struct type, member), \
	sizeof(((struct type *)0)->member), (k) }

static const struct field f_req[] = {
	F(uet_pds_req, clear_psn_offset, K_PSNOFF), F(uet_pds_req, psn, K_PSN),
	F(uet_pds_req, spdcid, K_PDCID), F(uet_pds_req, dpdcid, K_PDCID),
	F(uet_pds_req_cc, cc_state, K_BYTE), {},
};
static const struct field f_ack[] = {
	F(uet_pds_ack, ack_psn_offset, K_PSNOFF), F(uet_pds_ack, cack_psn, K_PSN),
	F(uet_pds_ack, spdcid, K_PDCID), F(uet_pds_ack, dpdcid, K_PDCID),
	F(uet_pds_ack_cc, cc_type, K_BYTE), F(uet_pds_ack_cc, mpr, K_BYTE),
	F(uet_pds_ack_cc, sack_psn_offset, K_PSNOFF),
	F(uet_pds_ack_cc, sack_bitmap, K_BITS), { 24, 4, K_LEN32 },
	{ 28, 4, K_LEN32 }, {},
};
static const struct field f_nack[] = {
	F(uet_pds_nack, code, K_CODE), F(uet_pds_nack, vendor_code, K_BYTE),
	F(uet_pds_nack, psn, K_PSN), F(uet_pds_nack, spdcid, K_PDCID),
	F(uet_pds_nack, dpdcid, K_PDCID), F(uet_pds_nack, payload, K_PSN), {},
};
static const struct field f_ctl[] = {
	F(uet_pds_ctl, probe_opaque, K_PSNOFF), F(uet_pds_ctl, psn, K_PSN),
	F(uet_pds_ctl, spdcid, K_PDCID), F(uet_pds_ctl, dpdcid, K_PDCID),
	F(uet_pds_ctl, payload, K_PSN), {},
};
static const struct field f_rudi[] = {
	F(uet_pds_rudi, rsvd, K_BYTE), F(uet_pds_rudi, pkt_id, K_PSN), {},
};
static const struct field f_std[] = {
	F(uet_ses_std, opcode, K_OPCODE), F(uet_ses_std, flags, K_SESFLAGS),
	F(uet_ses_std, message_id, K_MSGID), F(uet_ses_std, gen_job, K_JOB),
	F(uet_ses_std, pid_on_fep, K_IDX), F(uet_ses_std, resource_index, K_IDX),
	F(uet_ses_std, buffer_offset, K_OFF64), F(uet_ses_std, initiator, K_BYTE),
	F(uet_ses_std, match_bits, K_KEY), F(uet_ses_std, payload_length, K_LEN14),
	F(uet_ses_std, message_offset, K_OFF32),
	F(uet_ses_std, request_length, K_LEN32), {},
};
static const struct field f_medium[] = {
	F(uet_ses_medium, opcode, K_OPCODE), F(uet_ses_medium, flags, K_SESFLAGS),
	F(uet_ses_medium, request_length, K_LEN14),
	F(uet_ses_medium, gen_job, K_JOB), F(uet_ses_medium, pid_on_fep, K_IDX),
	F(uet_ses_medium, resource_index, K_IDX),
	F(uet_ses_medium, buffer_offset, K_OFF64),
	F(uet_ses_medium, match_bits, K_KEY), {},
};
static const struct field f_small[] = {
	F(uet_ses_small, opcode, K_OPCODE), F(uet_ses_small, flags, K_SESFLAGS),
	F(uet_ses_small, request_length, K_LEN14), F(uet_ses_small, gen_job, K_JOB),
	F(uet_ses_small, pid_on_fep, K_IDX), F(uet_ses_small, resource_index, K_IDX),
	F(uet_ses_small, buffer_offset, K_OFF64), {},
};
static const struct field f_rsp[] = {
	F(uet_ses_rsp, list_opcode, K_BYTE), F(uet_ses_rsp, version_rc, K_BYTE),
	F(uet_ses_rsp, message_id, K_MSGID), F(uet_ses_rsp, gen_job, K_JOB),
	F(uet_ses_rsp, modified_length, K_LEN32), {},
};
static const struct field f_rsp_data[] = {
	F(uet_ses_rsp_data, list_opcode, K_BYTE),
	F(uet_ses_rsp_data, version_rc, K_BYTE),
	F(uet_ses_rsp_data, message_id, K_MSGID),
	F(uet_ses_rsp_data, job_id, K_JOB),
	F(uet_ses_rsp_data, read_req_message_id, K_MSGID),
	F(uet_ses_rsp_data, payload_length, K_LEN14),
	F(uet_ses_rsp_data, modified_length, K_LEN32),
	F(uet_ses_rsp_data, message_offset, K_OFF32), {},
};
static const struct field f_amo[] = {
	F(uet_ses_amo, opcode, K_BYTE), F(uet_ses_amo, datatype, K_BYTE),
	F(uet_ses_amo, ctrl, K_BYTE), F(uet_ses_amo, rsvd, K_BYTE), {},
};

static unsigned int pds_type(const struct pkt *p)
{
	return p->len ? p->b[0] >> 3 : 0;
}

static unsigned int pds_nh(const struct pkt *p)
{
	return (get_be(p, 0, 2) >> 7) & 0xf;
}

/* The PDS header's length and fields, by the type in its first bits. */
static unsigned int pds_layout(unsigned int type, const struct field **f)
{
	switch (type) {
	case UET_PDS_TYPE_RUD_REQ:
	case UET_PDS_TYPE_ROD_REQ:
		*f = f_req;
		return sizeof(struct uet_pds_req);
	case UET_PDS_TYPE_RUD_CC_REQ:
	case UET_PDS_TYPE_ROD_CC_REQ:
		*f = f_req;
		return sizeof(struct uet_pds_req_cc);
	case UET_PDS_TYPE_ACK:
		*f = f_ack;
		return sizeof(struct uet_pds_ack);
	case UET_PDS_TYPE_ACK_CC:
		*f = f_ack;
		return sizeof(struct uet_pds_ack_cc);
	case UET_PDS_TYPE_ACK_CCX:
		*f = f_ack;
		return sizeof(struct uet_pds_ack_ccx);
	case UET_PDS_TYPE_NACK:
		*f = f_nack;
		return sizeof(struct uet_pds_nack);
	case UET_PDS_TYPE_NACK_CCX:
		*f = f_nack;
		return sizeof(struct uet_pds_nack_ccx);
	case UET_PDS_TYPE_CTRL:
		*f = f_ctl;
		return sizeof(struct uet_pds_ctl);
	case UET_PDS_TYPE_RUDI_REQ:
	case UET_PDS_TYPE_RUDI_RESP:
		*f = f_rudi;
		return sizeof(struct uet_pds_rudi);
	case UET_PDS_TYPE_UUD_REQ:
		*f = f_rudi;
		return sizeof(struct uet_pds_uud);
	default:
		*f = NULL;
		return 0;
	}
}

static const struct field *ses_layout(unsigned int nh)
{
	switch (nh) {
	case UET_SES_NH_REQ_SMALL:
		return f_small;
	case UET_SES_NH_REQ_MEDIUM:
		return f_medium;
	case UET_SES_NH_REQ_STD:
		return f_std;
	case UET_SES_NH_RSP:
		return f_rsp;
	case UET_SES_NH_RSP_DATA:
	case UET_SES_NH_RSP_DATA_SMALL:
		return f_rsp_data;
	default:
		return NULL;
	}
}

static unsigned int nfields(const struct field *f)
{
	unsigned int n = 0;

	while (f && f[n].size)
		n++;
	return n;
}

/* Set one field of the packet's layout to a value of its kind. */
static void mutate_field(struct pkt *p)
{
	const struct field *pf, *sf;
	unsigned int plen, np, ns, i;
	size_t base = 0;

	plen = pds_layout(pds_type(p), &pf);
	sf = pds_type(p) == UET_PDS_TYPE_CTRL ? NULL : ses_layout(pds_nh(p));
	np = nfields(pf);
	ns = nfields(sf);
	if (ns && pds_nh(p) == UET_SES_NH_REQ_STD &&
	    (p->b[plen] & UET_SES_OPCODE) >= UET_SES_ATOMIC &&
	    (p->b[plen] & UET_SES_OPCODE) <= UET_SES_FETCHING_ATOMIC && one_in(4)) {
		sf = f_amo;		/* the atomic extension header */
		base = sizeof(struct uet_ses_std);
		ns = nfields(sf);
	}
	if (!np && !ns)
		return;
	i = below(np + ns);
	if (i < np) {
		pf += i;
	} else {
		pf = sf + i - np;
		base += plen;
	}
	put_be(p, base + pf->off, pf->size,
	       value(pf->kind, pf->size, p, base + pf->off));
}

/* The prologue: type, next header (control type) and flags, SYN among them. */
static void mutate_prologue(struct pkt *p)
{
	uint16_t w = (uint16_t)get_be(p, 0, 2);

	switch (below(3)) {
	case 0:
		w = (uint16_t)((w & ~UET_PDS_PRLG_TYPE) | below(32) << 11);
		break;
	case 1:
		w = (uint16_t)((w & ~UET_PDS_PRLG_NEXT_HDR) | below(16) << 7);
		break;
	default:
		w ^= one_in(2) ? UET_PDS_F_SYN : 1u << below(7);
		break;
	}
	put_be(p, 0, 2, w);
}

static void mutate_bits(struct pkt *p)
{
	unsigned int n = 1 + below(8);

	while (p->len && n--) {
		/* the headers more often than the payload */
		size_t off = below((uint32_t)(one_in(4) ? p->len :
				    p->len < 64 ? p->len : 64));

		p->b[off] ^= (uint8_t)(1u << below(8));
	}
}

static void mutate_resize(struct pkt *p)
{
	size_t add;

	if (one_in(2) && p->len) {
		/* truncate: into the headers, or just short of the end */
		p->len = one_in(2) ? below((uint32_t)p->len) :
				     p->len - 1 - below(p->len < 8 ? (uint32_t)p->len : 8);
		return;
	}
	add = one_in(2) ? 1 + below(16) : below(PKT_MAX);
	if (add > PKT_MAX - p->len)
		add = PKT_MAX - p->len;
	fill_random(p->b + p->len, add);
	p->len += add;
}

/* Another seed's tail after this packet's head. */
static void mutate_splice(struct pkt *p)
{
	const struct seed *s;
	size_t cut, from, n;

	if (!nseeds)
		return;
	s = &seeds[below(nseeds)];
	cut = below((uint32_t)p->len + 1);
	from = below(s->len);
	n = s->len - from;
	if (n > PKT_MAX - cut)
		n = PKT_MAX - cut;
	memcpy(p->b + cut, s->b + from, n);
	p->len = cut + n;
}

static void mutate(struct pkt *p)
{
	unsigned int n = 1 + below(4);

	while (n--) {
		switch (below(10)) {
		case 0:
		case 1:
		case 2:
		case 3:
			mutate_field(p);
			break;
		case 4:
		case 5:
			mutate_bits(p);
			break;
		case 6:
			mutate_prologue(p);
			break;
		case 7:
		case 8:
			mutate_resize(p);
			break;
		default:
			mutate_splice(p);
			break;
		}
	}
}

/* ---- well-formed packets, built with the module's builders ---- */

static int build_ses_req(uint8_t *b, size_t room, uint8_t nh, uint8_t opcode,
			 size_t *plen)
{
	struct uet_ses_hdr_info h = { .next_hdr = nh };
	struct uet_ses_req_info *r = &h.req;
	struct pkt tmp = { .len = 0 };
	size_t len = PICK(0, 1, 8, 64, 1000, 1360, below(1400));
	int hlen;

	r->opcode = opcode;
	r->flags = nh == UET_SES_NH_REQ_STD ?
		   (uint8_t)PICK(UET_SES_F_SOM | UET_SES_F_EOM, UET_SES_F_SOM,
				 UET_SES_F_EOM, 0, UET_SES_F_SOM | UET_SES_F_HD,
				 below(64)) :
		   (uint8_t)(UET_SES_F_SOM | UET_SES_F_EOM |
			     (nh == UET_SES_NH_REQ_MEDIUM && one_in(2) ? UET_SES_F_HD : 0));
	r->message_id = (uint16_t)value(K_MSGID, 2, &tmp, 0);
	r->ri_generation = (uint8_t)PICK(0, 1, rnd64());
	r->job_id = (uint32_t)PICK(0, 1, 2, rnd64()) & 0xffffff;
	r->pid_on_fep = (uint16_t)PICK(0, 1, 2, below(0x1000));
	r->resource_index = (uint16_t)PICK(0, 1, below(0x1000));
	r->buffer_offset = value(K_OFF64, 8, &tmp, 0);
	r->initiator = (uint32_t)rnd64();
	r->match_bits = one_in(2) ? seed_field(sizeof(struct uet_pds_req) +
					       offsetof(struct uet_ses_std, match_bits),
					       8, rnd64()) : value(K_KEY, 8, &tmp, 0);
	r->header_data = rnd64();
	r->payload_length = (uint16_t)(len & UET_SES_LEN);
	r->message_offset = (uint32_t)value(K_OFF32, 4, &tmp, 0);
	r->request_length = one_in(2) ? (uint32_t)len : (uint32_t)value(K_LEN32, 4, &tmp, 0);
	if (nh != UET_SES_NH_REQ_STD)
		r->request_length &= UET_SES_LEN;
	hlen = uet_ses_build(b, room, &h);
	if (hlen < 0)
		return hlen;
	if (nh == UET_SES_NH_REQ_STD &&
	    (opcode == UET_SES_ATOMIC || opcode == UET_SES_FETCHING_ATOMIC ||
	     opcode == UET_SES_TSEND_ATOMIC || opcode == UET_SES_TSEND_FETCH_ATOMIC)) {
		struct uet_ses_amo_info amo = {
			.opcode = (uint8_t)below(UET_AMO_INVAL + 2),
			.datatype = (uint8_t)below(UET_AMO_DT_UINT64 + 2),
			.ctrl = (uint8_t)PICK(0, rnd64()),
		};
		int alen;

		fill_random(amo.compare, sizeof(amo.compare));
		fill_random(amo.swap, sizeof(amo.swap));
		alen = uet_ses_amo_build(b + hlen, room - (size_t)hlen, &amo);
		if (alen > 0)
			hlen += alen;
		len = PICK(0, 1, 2, 4, 8, 16, 3);
	}
	*plen = len;
	return hlen;
}

static int build_ses_rsp(uint8_t *b, size_t room, uint8_t nh, size_t *plen)
{
	struct uet_ses_hdr_info h = { .next_hdr = nh };
	struct uet_ses_rsp_info *r = &h.rsp;
	struct pkt tmp = { .len = 0 };

	r->opcode = nh == UET_SES_NH_RSP_DATA ? UET_SES_RSP_WITH_DATA :
		    (uint8_t)PICK(UET_SES_RSP_DEFAULT, UET_SES_RSP_RESPONSE,
				  UET_SES_RSP_NONE);
	r->list = (uint8_t)below(2);
	r->rc = one_in(2) ? UET_SES_RC_OK : (uint8_t)below(UET_SES_RC_COUNT);
	r->message_id = (uint16_t)value(K_MSGID, 2, &tmp, 0);
	r->job_id = (uint32_t)PICK(0, 1, rnd64()) & 0xffffff;
	r->modified_length = (uint32_t)value(K_LEN32, 4, &tmp, 0);
	r->read_req_message_id = (uint16_t)value(K_MSGID, 2, &tmp, 0);
	*plen = PICK(0, 1, 8, 640, 1360, below(1400));
	r->payload_length = (uint16_t)(one_in(4) ? below(0x4000) : *plen);
	r->message_offset = (uint32_t)value(K_OFF32, 4, &tmp, 0);
	if (nh != UET_SES_NH_RSP_DATA)
		*plen = 0;
	return uet_ses_build(b, room, &h);
}

/* The PDS header of a request or control packet aimed at @pc, or fresh. */
static void fill_req(struct uet_pds_hdr_info *h, const struct pdc *pc)
{
	uint32_t psn = psn_near();

	if (pc && !one_in(8)) {
		h->req.spdcid = pc->rpdcid;
		h->req.dst.dpdcid = pc->lpdcid;
	} else {
		/* a SYN opening (or naming) one of our own PDCs */
		h->flags |= UET_PDS_F_SYN;
		h->req.spdcid = (uint16_t)(1 + below(OWN_SPDCIDS));
		h->req.dst.psn_offset = (uint16_t)PICK(0, 1, below(0x1000), 0xfff);
		h->req.dst.use_rsv = one_in(8);
	}
	if (one_in(3))
		h->flags |= UET_PDS_F_AR;
	if (one_in(8))
		h->flags |= UET_PDS_F_RETX;
	h->req.psn = psn;
	h->req.clear_psn_offset = (int16_t)PICK(0, -1, -64, 1, rnd64());
	h->req.ccc_id = (uint8_t)rnd64();
	h->req.credit_target = (uint32_t)rnd64() & 0xffffff;
}

static int gen_request(struct pkt *p, const struct pdc *pc)
{
	struct uet_pds_hdr_info h = { 0 };
	size_t plen = 0;
	int hlen, slen;

	h.type = pc && pc->rod ? UET_PDS_TYPE_ROD_REQ : UET_PDS_TYPE_RUD_REQ;
	if (one_in(4))
		h.type = (uint8_t)PICK(UET_PDS_TYPE_RUD_REQ, UET_PDS_TYPE_ROD_REQ,
				       UET_PDS_TYPE_RUD_CC_REQ, UET_PDS_TYPE_ROD_CC_REQ);
	h.next_hdr = (uint8_t)PICK(UET_SES_NH_REQ_STD, UET_SES_NH_REQ_STD,
				   UET_SES_NH_REQ_STD, UET_SES_NH_REQ_MEDIUM,
				   UET_SES_NH_REQ_SMALL, UET_SES_NH_NONE);
	fill_req(&h, pc);
	hlen = uet_pds_build(p->b, PKT_MAX, &h);
	if (hlen < 0)
		return hlen;
	slen = build_ses_req(p->b + hlen, PKT_MAX - (size_t)hlen, h.next_hdr,
			     (uint8_t)PICK(UET_SES_SEND, UET_SES_WRITE,
					   UET_SES_READ, UET_SES_TAGGED_SEND,
					   UET_SES_FETCHING_ATOMIC, UET_SES_ATOMIC,
					   below(UET_SES_OPCODE_COUNT)),
			     &plen);
	if (slen < 0)
		slen = 0;
	if (plen > PKT_MAX - (size_t)(hlen + slen))
		plen = PKT_MAX - (size_t)(hlen + slen);
	fill_random(p->b + hlen + slen, plen);
	p->len = (size_t)hlen + (size_t)slen + plen;
	return 0;
}

static int gen_ctl(struct pkt *p, const struct pdc *pc)
{
	struct uet_pds_hdr_info h = { .type = UET_PDS_TYPE_CTRL }, r = { 0 };

	fill_req(&r, pc);	/* what a control packet shares with requests */
	h.flags = r.flags;
	h.ctl.psn = r.req.psn;
	h.ctl.spdcid = r.req.spdcid;
	h.ctl.dst = r.req.dst;
	h.ctl.type = (uint8_t)(one_in(2) ? PICK(UET_PDS_CTL_CLOSE, UET_PDS_CTL_REQ_CLOSE) :
				below(UET_PDS_CTL_COUNT));
	h.ctl.probe_opaque = (uint16_t)rnd64();
	h.ctl.payload = psn_near();
	if (!one_in(4))
		h.flags &= (uint8_t)~UET_PDS_F_SYN;
	if (!(h.flags & UET_PDS_F_SYN) && pc) {
		h.ctl.dst.dpdcid = pc->lpdcid;
		h.ctl.spdcid = pc->rpdcid;
	}
	p->len = sizeof(struct uet_pds_ctl);
	return uet_pds_build(p->b, PKT_MAX, &h) < 0 ? -1 : 0;
}

static int gen_ack(struct pkt *p, const struct pdc *pc)
{
	struct uet_pds_hdr_info h = { 0 };
	size_t plen = 0;
	int hlen, slen = 0;

	h.type = (uint8_t)PICK(UET_PDS_TYPE_ACK, UET_PDS_TYPE_ACK_CC,
			       UET_PDS_TYPE_ACK_CC);
	h.next_hdr = (uint8_t)PICK(UET_SES_NH_NONE, UET_SES_NH_RSP,
				   UET_SES_NH_RSP, UET_SES_NH_RSP_DATA);
	h.flags = (uint8_t)(one_in(4) ? UET_PDS_F_RETX : 0);
	h.ack.cack_psn = psn_near();
	h.ack.ack_psn_offset = (int16_t)PICK(0, 0, 1, -1, below(64), rnd64());
	h.ack.spdcid = pc ? pc->rpdcid : pdcid_value();
	h.ack.dpdcid = pc ? pc->lpdcid : pdcid_value();
	h.ack.cc_type = (uint8_t)(one_in(4) ? UET_PDS_CC_CREDIT : UET_PDS_CC_NSCC);
	h.ack.mpr = (uint8_t)rnd64();
	h.ack.sack_psn_offset = (uint16_t)PICK(1, 0, 64, 0xffff, rnd64());
	h.ack.sack_bitmap = PICK(0, ~0ull, 1, rnd64());
	h.ack.credit = (uint32_t)rnd64() & 0xffffff;
	h.ack.rcvd_bytes = (uint32_t)rnd64() & 0xffffff;
	h.ack.cwnd_pend = (uint8_t)below(128);
	hlen = uet_pds_build(p->b, PKT_MAX, &h);
	if (hlen < 0)
		return hlen;
	if (h.next_hdr != UET_SES_NH_NONE)
		slen = build_ses_rsp(p->b + hlen, PKT_MAX - (size_t)hlen,
				     h.next_hdr, &plen);
	if (slen < 0)
		slen = 0;
	if (plen > PKT_MAX - (size_t)(hlen + slen))
		plen = PKT_MAX - (size_t)(hlen + slen);
	fill_random(p->b + hlen + slen, plen);
	p->len = (size_t)hlen + (size_t)slen + plen;
	return 0;
}

static int gen_nack(struct pkt *p, const struct pdc *pc)
{
	struct uet_pds_hdr_info h = { .type = UET_PDS_TYPE_NACK };
	struct pkt tmp = { .len = 0 };

	h.flags = (uint8_t)(one_in(4) ? UET_PDS_F_NT : 0);
	do
		h.nack.code = (uint8_t)value(K_CODE, 1, &tmp, 0);
	while (!uet_pds_nack_name(h.nack.code));
	h.nack.vendor_code = (uint8_t)rnd64();
	h.nack.psn = psn_near();
	h.nack.spdcid = pc ? pc->rpdcid : pdcid_value();
	h.nack.dpdcid = pc ? pc->lpdcid : pdcid_value();
	h.nack.payload = psn_near();
	p->len = sizeof(struct uet_pds_nack);
	return uet_pds_build(p->b, PKT_MAX, &h) < 0 ? -1 : 0;
}

/* RUDI requests and responses, and UUD requests: no PDC. */
static int gen_pdcless(struct pkt *p)
{
	struct uet_pds_hdr_info h = { 0 };
	size_t plen = 0;
	int hlen, slen;

	h.type = (uint8_t)PICK(UET_PDS_TYPE_RUDI_REQ, UET_PDS_TYPE_RUDI_RESP,
			       UET_PDS_TYPE_UUD_REQ);
	h.flags = h.type == UET_PDS_TYPE_UUD_REQ ? 0 :
		  (uint8_t)PICK(0, UET_PDS_F_RETX, UET_PDS_F_M);
	h.rudi_pkt_id = psn_near();
	if (h.type == UET_PDS_TYPE_RUDI_RESP) {
		h.next_hdr = (uint8_t)PICK(UET_SES_NH_RSP, UET_SES_NH_RSP_DATA);
		hlen = uet_pds_build(p->b, PKT_MAX, &h);
		if (hlen < 0)
			return hlen;
		slen = build_ses_rsp(p->b + hlen, PKT_MAX - (size_t)hlen,
				     h.next_hdr, &plen);
	} else {
		h.next_hdr = (uint8_t)PICK(UET_SES_NH_REQ_STD, UET_SES_NH_REQ_STD,
					   UET_SES_NH_REQ_MEDIUM,
					   UET_SES_NH_REQ_SMALL);
		hlen = uet_pds_build(p->b, PKT_MAX, &h);
		if (hlen < 0)
			return hlen;
		slen = build_ses_req(p->b + hlen, PKT_MAX - (size_t)hlen,
				     h.next_hdr,
				     (uint8_t)(h.type == UET_PDS_TYPE_UUD_REQ ?
				     PICK(UET_SES_SEND, UET_SES_DATAGRAM_SEND,
					  UET_SES_TAGGED_SEND, below(16)) :
				     PICK(UET_SES_WRITE, UET_SES_READ, below(16))),
				     &plen);
	}
	if (slen < 0)
		slen = 0;
	if (plen > PKT_MAX - (size_t)(hlen + slen))
		plen = PKT_MAX - (size_t)(hlen + slen);
	fill_random(p->b + hlen + slen, plen);
	p->len = (size_t)hlen + (size_t)slen + plen;
	return 0;
}

/* Types the builders do not make: TSS, reserved, the CCX ones, 15-31. */
static void gen_other(struct pkt *p)
{
	unsigned int type = (unsigned int)PICK(UET_PDS_TYPE_RESERVED,
		UET_PDS_TYPE_TSS, UET_PDS_TYPE_ACK_CCX, UET_PDS_TYPE_NACK_CCX,
		UET_PDS_TYPE_COUNT + below(32 - UET_PDS_TYPE_COUNT));

	p->len = PICK(2, 4, 12, 16, 32, 48, below(200));
	fill_random(p->b, p->len);
	if (type == UET_PDS_TYPE_TSS) {
		struct uet_tss_hdr_info t = {
			.an = one_in(2), .sdi = (uint32_t)rnd64() & 0xffffff,
			.has_ssi = one_in(2), .ssi = (uint32_t)rnd64(),
			.tsc = rnd64(),
		};
		struct pkt inner;

		/* a TSS header in front of a packet of another kind */
		gen_request(&inner, NULL);
		p->len = (size_t)uet_tss_build(p->b, PKT_MAX, &t);
		if (inner.len > PKT_MAX - p->len)
			inner.len = PKT_MAX - p->len;
		memcpy(p->b + p->len, inner.b, inner.len);
		p->len += inner.len;
		return;
	}
	put_be(p, 0, 1, (get_be(p, 0, 1) & 0x07) | type << 3);
}

/* A captured packet, its PDC IDs and PSNs moved onto @pc when aimed. */
static bool from_capture(struct pkt *p, const struct pdc *pc)
{
	const struct seed *s;
	unsigned int type, tries;
	bool ack;

	for (tries = 0; nseeds && tries < 16; tries++) {
		s = &seeds[below(nseeds)];
		memcpy(p->b, s->b, s->len);
		p->len = s->len;
		type = pds_type(p);
		ack = type == UET_PDS_TYPE_ACK || type == UET_PDS_TYPE_ACK_CC ||
		      type == UET_PDS_TYPE_NACK;
		if (!pc)
			return true;
		if (type == UET_PDS_TYPE_RUDI_REQ || type == UET_PDS_TYPE_RUDI_RESP ||
		    type == UET_PDS_TYPE_UUD_REQ || ack != pc->ini)
			continue;
		if (type == UET_PDS_TYPE_NACK) {
			put_be(p, offsetof(struct uet_pds_nack, spdcid), 2, pc->rpdcid);
			put_be(p, offsetof(struct uet_pds_nack, dpdcid), 2, pc->lpdcid);
			put_be(p, offsetof(struct uet_pds_nack, psn), 4, psn_near());
			return true;
		}
		/* requests, control packets and ACKs: the same places */
		put_be(p, 0, 2, get_be(p, 0, 2) & ~(uint64_t)UET_PDS_F_SYN);
		put_be(p, offsetof(struct uet_pds_req, spdcid), 2, pc->rpdcid);
		put_be(p, offsetof(struct uet_pds_req, dpdcid), 2, pc->lpdcid);
		put_be(p, offsetof(struct uet_pds_req, psn), 4, psn_near());
		return true;
	}
	return false;
}

/* ---- one packet ---- */

/* A live PDC: ours or another peer's, each kind as likely as the other. */
static const struct pdc *pick_pdc(void)
{
	unsigned int i, own = 0, k;
	bool want_own;

	if (!npdcs)
		return NULL;
	for (i = 0; i < npdcs; i++)
		own += pdcs[i].own;
	want_own = own == npdcs || (own && one_in(2));
	k = below(want_own ? own : npdcs - own);
	for (i = 0; i < npdcs; i++)
		if (pdcs[i].own == want_own && !k--)
			break;
	return &pdcs[i];
}

static void make_packet(struct pkt *p)
{
	const struct pdc *pc = one_in(5) ? NULL : pick_pdc();
	bool built = false;
	int err = -1;

	aim = pc;
	if (pc) {
		st.aimed++;
		st.aimed_own += pc->own;
	}
	if (nseeds && one_in(3) && from_capture(p, pc)) {
		st.from_capture++;
		built = true;
	}
	while (!built) {
		if (pc && pc->ini)
			err = one_in(4) ? gen_nack(p, pc) : gen_ack(p, pc);
		else if (pc)
			err = one_in(5) ? gen_ctl(p, pc) : gen_request(p, pc);
		else
			switch (below(8)) {
			case 0:
				err = gen_ctl(p, NULL);
				break;
			case 1:
				err = gen_ack(p, NULL);
				break;
			case 2:
				err = gen_nack(p, NULL);
				break;
			case 3:
				err = gen_pdcless(p);
				break;
			case 4:
				gen_other(p);
				err = 0;
				break;
			default:
				err = gen_request(p, NULL);
				break;
			}
		built = !err;
	}
	/* well-formed, aimed packets reach deepest: many stay as they are */
	if (!pc || one_in(2)) {
		mutate(p);
		st.mutated++;
	}
	aim = NULL;
}

/* ---- sending ---- */

/* A raw IP socket of protocol 253 connected to @t's address. */
static int raw_open(const struct target *t)
{
	struct sockaddr_storage a = t->addr;
	int fd;

	/* a raw socket's "port" is its protocol, or none */
	if (a.ss_family == AF_INET)
		((struct sockaddr_in *)&a)->sin_port = 0;
	else
		((struct sockaddr_in6 *)&a)->sin6_port = 0;
	fd = socket(a.ss_family, SOCK_RAW, UET_IP_PROTO);
	if (fd < 0 || connect(fd, (void *)&a, t->alen))
		die("%s: raw IP socket: %s", t->name, strerror(errno));
	return fd;
}

static void open_targets(char **addrs, int n)
{
	int i, one = 1;

	for (i = 0; i < n && ntargets < TARGETS_MAX; i++) {
		struct target *t = &targets[ntargets++];
		struct sockaddr_in6 *s6 = (void *)&t->addr;
		struct sockaddr_in *s4 = (void *)&t->addr;
		struct sockaddr_storage local;
		socklen_t llen = sizeof(local);

		t->name = addrs[i];
		memset(&t->addr, 0, sizeof(t->addr));
		if (inet_pton(AF_INET, addrs[i], &s4->sin_addr) == 1) {
			s4->sin_family = AF_INET;
			s4->sin_port = htons(UET_PORT);
			t->alen = sizeof(*s4);
		} else if (inet_pton(AF_INET6, addrs[i], &s6->sin6_addr) == 1) {
			s6->sin6_family = AF_INET6;
			s6->sin6_port = htons(UET_PORT);
			t->alen = sizeof(*s6);
		} else {
			die("'%s' is not an IPv4 or IPv6 address", addrs[i]);
		}
		t->fd = socket(t->addr.ss_family, SOCK_DGRAM, 0);
		if (t->fd < 0 || connect(t->fd, (void *)&t->addr, t->alen) ||
		    getsockname(t->fd, (void *)&local, &llen))
			die("%s: %s", addrs[i], strerror(errno));
		if (zero_csum && (t->addr.ss_family == AF_INET ?
				  setsockopt(t->fd, SOL_SOCKET, SO_NO_CHECK,
					     &one, sizeof(one)) :
				  setsockopt(t->fd, IPPROTO_UDP, UDP_NO_CHECK6_TX,
					     &one, sizeof(one))))
			die("%s: no checksum: %s", addrs[i], strerror(errno));
		t->raw = native ? raw_open(t) : -1;
		if (local.ss_family == AF_INET) {
			memset(&t->local, 0, sizeof(t->local));
			t->local.s6_addr[10] = 0xff;
			t->local.s6_addr[11] = 0xff;
			memcpy(&t->local.s6_addr[12],
			       &((struct sockaddr_in *)&local)->sin_addr, 4);
		} else {
			t->local = ((struct sockaddr_in6 *)&local)->sin6_addr;
		}
	}
	if (i < n)
		die("at most %d addresses", TARGETS_MAX);
}

/*
 * @p directly over IP to @t, into @b: its entropy header, the packet and,
 * unless it starts as a TSS header would, its CRC-32C, the bytes from the
 * IP source address on (drivers/uet/wire.h), one in 16 with a bit wrong.
 * Returns the length.
 */
static size_t native_wrap(const struct target *t, const struct pkt *p,
			  uint8_t *b)
{
	bool v4 = t->addr.ss_family == AF_INET;
	const void *dst = v4 ? (void *)&((struct sockaddr_in *)&t->addr)->sin_addr :
			       (void *)&((struct sockaddr_in6 *)&t->addr)->sin6_addr;
	const void *src = v4 ? (void *)&t->local.s6_addr[12] : (void *)&t->local;
	size_t alen = v4 ? 4 : 16, len = UET_ENTROPY_HDR_LEN + p->len;
	uint32_t crc;

	b[0] = (uint8_t)below(256);
	b[1] = (uint8_t)below(256);
	b[2] = b[3] = 0;
	memcpy(b + UET_ENTROPY_HDR_LEN, p->b, p->len);
	st.native++;
	/* the device takes it for sealed: no CRC (drivers/uet/socket.c) */
	if (p->len >= sizeof(uint32_t) && p->b[0] >> 3 == UET_PDS_TYPE_TSS)
		return len;
	crc = uet_crc32c(UET_CRC32C_INIT, src, alen);
	crc = uet_crc32c(crc, dst, alen);
	crc = uet_crc32c_final(uet_crc32c(crc, b, len));
	/*
	 * The device reads the type from the four bytes after the entropy
	 * header, a short packet's CRC among them: one it takes for sealed
	 * has its CRC unchecked, so only a packet whose first byte is there
	 * and says another type gets a bad one.
	 */
	if (p->len && p->b[0] >> 3 != UET_PDS_TYPE_TSS && one_in(16)) {
		crc ^= 1u << below(32);
		st.bad_crc++;
	}
	b[len] = (uint8_t)crc;
	b[len + 1] = (uint8_t)(crc >> 8);
	b[len + 2] = (uint8_t)(crc >> 16);
	b[len + 3] = (uint8_t)(crc >> 24);
	return len + UET_CRC_LEN;
}

/* Send one packet; true if it left whole. */
static bool send_one(const struct target *t, const struct pkt *p)
{
	uint8_t b[UET_ENTROPY_HDR_LEN + PKT_MAX + UET_CRC_LEN];
	const uint8_t *data = p->b;
	size_t len = p->len;
	int tries, fd = t->fd;

	if (t->raw >= 0 && one_in(2)) {
		len = native_wrap(t, p, b);
		data = b;
		fd = t->raw;
	}
	for (tries = 0; tries < 100; tries++) {
		ssize_t n = send(fd, data, len, 0);

		if (n == (ssize_t)len)
			return true;
		if (n >= 0 || (errno != EINTR && errno != ENOBUFS &&
			       errno != EAGAIN && errno != ECONNREFUSED))
			die("send to %s: %s", t->name,
			    n >= 0 ? "short write" : strerror(errno));
		if (errno != EINTR && errno != ECONNREFUSED)
			usleep(1000);
	}
	return false;
}

/* The device's answers to port 4793, when they come back here. */
static int listen_fd = -1;

static void open_listener(void)
{
	struct sockaddr_in6 a = {
		.sin6_family = AF_INET6,
		.sin6_port = htons(UET_PORT),
		.sin6_addr = IN6ADDR_ANY_INIT,
	};
	int off = 0;

	listen_fd = socket(AF_INET6, SOCK_DGRAM | SOCK_NONBLOCK, 0);
	if (listen_fd < 0)
		return;
	setsockopt(listen_fd, IPPROTO_IPV6, IPV6_V6ONLY, &off, sizeof(off));
	if (bind(listen_fd, (void *)&a, sizeof(a))) {
		/* a uet device of this namespace holds the port */
		close(listen_fd);
		listen_fd = -1;
	}
}

static void drain(void)
{
	uint8_t b[2048];
	ssize_t n;

	while (listen_fd >= 0 && (n = recv(listen_fd, b, sizeof(b), 0)) >= 0) {
		st.heard++;
		if (!n)
			continue;
		st.heard_type[b[0] >> 3]++;
		pdcs_learn(b, (size_t)n);
	}
}

/*
 * The trace: line-buffered, so that it holds every packet sent before a
 * crash of this program; bounded, so that a long run does not fill the
 * tmpfs it is written to: past TRACE_MAX bytes the file becomes FILE.old
 * and a new one starts.
 */
#define TRACE_MAX	(16u << 20)

static FILE *trace;
static const char *trace_path;
static size_t trace_bytes;

static void trace_open(void)
{
	trace = fopen(trace_path, "w");
	if (!trace)
		die("%s: %s", trace_path, strerror(errno));
	setvbuf(trace, NULL, _IOLBF, 0);
	trace_bytes = 0;
}

static void trace_packet(unsigned long idx, unsigned int ti, const struct pkt *p)
{
	uint64_t t = now_ns();
	char old[4096];
	size_t i;
	int n;

	if (!trace)
		return;
	if (trace_bytes > TRACE_MAX) {
		fclose(trace);
		snprintf(old, sizeof(old), "%s.old", trace_path);
		if (rename(trace_path, old))
			die("%s: %s", old, strerror(errno));
		trace_open();
	}
	n = fprintf(trace, "%llu.%06llu %lu %u ", (unsigned long long)(t / NSEC),
		    (unsigned long long)(t % NSEC / 1000), idx, ti);
	for (i = 0; i < p->len; i++)
		fprintf(trace, "%02x", p->b[i]);
	fputc('\n', trace);
	trace_bytes += (size_t)(n > 0 ? n : 0) + 2 * p->len + 1;
}

/* Wait until the rate allows one more packet. */
static void pace(uint64_t start, unsigned long rate)
{
	for (;;) {
		uint64_t due = start + (uint64_t)st.sent * NSEC / rate;
		uint64_t now = now_ns();
		struct timespec ts;

		drain();
		if (now >= due)
			return;
		due -= now;
		if (due > 2000000)
			due = 2000000;	/* answers are read at least that often */
		ts.tv_sec = 0;
		ts.tv_nsec = (long)due;
		nanosleep(&ts, NULL);
	}
}

static void account(unsigned int ti, const struct pkt *p)
{
	trace_packet(st.sent, ti, p);
	st.sent++;
	st.bytes += p->len;
	st.by_type[p->len ? p->b[0] >> 3 : 0]++;
}

static void run(unsigned long count, double seconds, unsigned long rate)
{
	uint64_t start = now_ns(), refreshed = 0;
	uint64_t end = start + (uint64_t)(seconds * NSEC);
	struct pkt p;

	while ((!count || st.sent < count) && (count || now_ns() < end)) {
		unsigned int ti = (unsigned int)(st.sent % ntargets);

		pace(start, rate);
		if (now_ns() - refreshed >= REFRESH_NS) {
			pdcs_refresh();
			refreshed = now_ns();
		}
		make_packet(&p);
		if (send_one(&targets[ti], &p))
			account(ti, &p);
	}
}

static int hexval(int c)
{
	if (c >= '0' && c <= '9')
		return c - '0';
	if (c >= 'a' && c <= 'f')
		return c - 'a' + 10;
	if (c >= 'A' && c <= 'F')
		return c - 'A' + 10;
	return -1;
}

/* -R: the packets of a trace (or bare hex lines), in order. */
static void replay(const char *path, unsigned long rate)
{
	static char line[2 * PKT_MAX + 256];
	uint64_t start = now_ns();
	FILE *f = fopen(path, "r");
	struct pkt p;

	if (!f)
		die("%s: %s", path, strerror(errno));
	while (fgets(line, sizeof(line), f)) {
		unsigned long idx;
		unsigned int ti = 0;
		double t;
		char *hex = strrchr(line, ' ');
		size_t i;

		if (sscanf(line, "%lf %lu %u ", &t, &idx, &ti) != 3)
			ti = 0;
		hex = hex ? hex + 1 : line;
		for (p.len = 0, i = 0; p.len < PKT_MAX; i += 2) {
			int hi = hexval(hex[i]), lo = hi < 0 ? -1 : hexval(hex[i + 1]);

			if (lo < 0)
				break;
			p.b[p.len++] = (uint8_t)(hi << 4 | lo);
		}
		ti %= ntargets;
		pace(start, rate);
		if (send_one(&targets[ti], &p))
			account(ti, &p);
	}
	fclose(f);
}

static void print_types(const unsigned long *n)
{
	unsigned int i;

	for (i = 0; i < 32; i++) {
		if (!n[i])
			continue;
		if (uet_pds_type_name(i))
			printf(" %s %lu", uet_pds_type_name(i), n[i]);
		else
			printf(" type%u %lu", i, n[i]);
	}
	printf("\n");
}

static void summary(double seconds)
{
	unsigned int i;

	printf("uet_inject: sent %lu packets, %lu bytes, in %.1f s to", st.sent,
	       st.bytes, seconds);
	for (i = 0; i < ntargets; i++)
		printf(" %s", targets[i].name);
	printf("\nuet_inject: aimed at live PDCs %lu (at our own %lu), mutated %lu, from captures %lu\n",
	       st.aimed, st.aimed_own, st.mutated, st.from_capture);
	if (native)
		printf("uet_inject: directly over IP %lu, with a bad CRC %lu\n",
		       st.native, st.bad_crc);
	printf("uet_inject: by PDS type:");
	print_types(st.by_type);
	printf("uet_inject: answers heard %lu:", st.heard);
	print_types(st.heard_type);
}

static void usage(void)
{
	fprintf(stderr,
		"usage: uet_inject [-p CAPTURE.pcap]... [-P PDCS|-] [-s SEED] [-t SECONDS]\n"
		"                  [-n COUNT] [-r RATE] [-T TRACE] [-z] [-N] ADDR...\n"
		"       uet_inject -R TRACE [-r RATE] [-z] [-N] ADDR...\n");
	exit(2);
}

static unsigned long number(const char *s, const char *what)
{
	char *end;
	unsigned long v;

	errno = 0;
	v = strtoul(s, &end, 0);
	if (errno || !*s || *end)
		die("bad %s '%s'", what, s);
	return v;
}

int main(int argc, char **argv)
{
	const char *pdcs_path = NULL, *replay_path = NULL;
	unsigned long count = 0, rate = 1000;
	double seconds = 10;
	uint64_t seed = now_ns() ^ (uint64_t)getpid() << 32;
	uint64_t start;
	int c;

	while ((c = getopt(argc, argv, "p:P:s:t:n:r:T:R:zNh")) != -1) {
		switch (c) {
		case 'p':
			load_pcap(optarg);
			break;
		case 'P':
			pdcs_path = optarg;
			break;
		case 's':
			seed = strtoull(optarg, NULL, 0);
			break;
		case 't':
			seconds = (double)number(optarg, "duration");
			break;
		case 'n':
			count = number(optarg, "count");
			break;
		case 'r':
			rate = number(optarg, "rate");
			break;
		case 'T':
			trace_path = optarg;
			break;
		case 'R':
			replay_path = optarg;
			break;
		case 'z':
			zero_csum = true;
			break;
		case 'N':
			native = true;
			break;
		default:
			usage();
		}
	}
	if (optind == argc || !rate)
		usage();
	/* the seed first: it must be known whatever happens next */
	start = now_ns();
	printf("uet_inject: seed %#llx, at %llu.%06llu s\n", (unsigned long long)seed,
	       (unsigned long long)(start / NSEC),
	       (unsigned long long)(start % NSEC / 1000));
	fflush(stdout);
	rng = seed;
	open_targets(argv + optind, argc - optind);
	if (pdcs_path) {
		pdcs_fd = strcmp(pdcs_path, "-") ? open(pdcs_path, O_RDONLY) : 0;
		if (pdcs_fd < 0)
			die("%s: %s", pdcs_path, strerror(errno));
	}
	if (trace_path)
		trace_open();
	open_listener();
	start = now_ns();
	if (replay_path)
		replay(replay_path, rate);
	else
		run(count, seconds, rate);
	drain();
	summary((double)(now_ns() - start) / NSEC);
	if (trace)
		fclose(trace);
	return 0;
}
