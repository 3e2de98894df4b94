// SPDX-License-Identifier: GPL-2.0
/*
 * uet_nlfuzz: boundary, malformed and random requests at every command of
 * the generic netlink family "uet", for a bounded count or time.
 *
 *   uet_nlfuzz -d DEV... [-n COUNT] [-t SECONDS] [-s SEED] [-u]
 *
 * Each request goes to a command of the family, or to a number just
 * around them (0, one and two past UET_CMD_MAX, 255), and is one of the
 * shapes below: request attributes with values in range or at the
 * bounds of the policy and of their width (0, 1, min - 1, min, max,
 * max + 1, all ones) and device names of -d, of no device, empty, the
 * longest, one longer, unterminated and not UTF-8; attributes of the
 * wrong length; attribute types the command does not know; NLA_F_NESTED
 * garbage; lengths that point past the message's end or cut its headers;
 * the same attribute many times; netlink flags that ask for a dump of a
 * do-only command, a do of a dump, or nothing the kernel knows; and
 * random bytes.  Attribute and command numbers come from the uapi
 * header, which ynl-gen makes from the spec; what only the spec says
 * (which commands need CAP_NET_ADMIN, which answer with data) is written
 * here beside each command.
 *
 * Every reply is read and must be well-formed: an ACK or error that
 * echoes the request's header, with well-formed extended-ACK attributes;
 * data only from a command that answers with it, each attribute of the
 * right length and known to its set, never a key; a dump's end.  The error codes must
 * be ones the family gives by design (the policies and netlink.c), and
 * a device's settings as dev-get shows them must be allowed by its
 * profile.  A request the kernel cannot read (its length past the
 * datagram's end) or does not answer (no NLM_F_ACK) is followed by an
 * NLMSG_NOOP with NLM_F_ACK: its ACK says the kernel is still there.
 * Each request must be answered within REPLY_TIMEOUT_MS.  -u says the
 * caller lacks CAP_NET_ADMIN: a command that needs it must then be
 * refused with EPERM whenever the request gets as far as genetlink's
 * permission check, and never succeed.
 *
 * Jobs, settings and profiles of the devices named by -d change as the
 * requests say: run it on devices of a test's own.  It stops after -n
 * requests or -t seconds (default 10 s), whichever comes first.  The
 * first line printed is the PRNG's seed (-s repeats a run's choices);
 * the last ones count requests, answers and error codes.  On a failure
 * it prints why and the request, in hex, and exits 1.
 */
#include <errno.h>
#include <linux/genetlink.h>
#include <linux/netlink.h>
#include <linux/uet_netlink.h>
#include <net/if.h>
#include <netinet/in.h>
#include <poll.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>
#include "uet_rng.h"

#define MSG_MAX			8192	/* a request; room for many copies */
#define RX_MAX			65536	/* a reply datagram */
#define REPLY_TIMEOUT_MS	30000
#define DEVS_MAX		8
#define NSEC			1000000000ull
/* "valid" values: this many from each end of an attribute's range */
#define VALID_SPAN		4
/* the longest run of random bytes, payload or attribute */
#define RANDOM_MAX		512
#define NEST_DEPTH_MAX		3
#define COPIES_MAX		100
/* a device name longer than any the policy lets through */
#define NAME_LONG		1000
/* at most this many bytes after a name's NUL */
#define NAME_TAIL		8
/* the most attributes a request has (dev-set's) */
#define REQ_MAX			29

#define ARRAY_SIZE(a)		(sizeof(a) / sizeof((a)[0]))

enum kind { K_NONE, K_U8, K_U16, K_U32, K_U64, K_STR, K_BIN, K_FLAG, K_NEST, K_PAD };

struct attr_set;

/**
 * struct attr - an attribute of a set, as the spec describes it
 * @kind: its type
 * @min: integers: the policy's lowest value
 * @max: integers: the policy's highest (0: the width's); strings: the
 *	longest (0: any); binary: the exact length (0: any)
 * @edge: a bound the handler checks beyond the policy (0: none)
 * @nested: K_NEST: the set of its attributes
 */
struct attr {
	enum kind kind;
	uint64_t min, max, edge;
	const struct attr_set *nested;
};

struct attr_set {
	const struct attr *a;
	unsigned int max;
};

static const struct attr dev_attrs[UET_A_DEV_MAX + 1] = {
	[UET_A_DEV_NAME]	 = { K_STR, 0, UET_NAME_MAX_LEN },
	[UET_A_DEV_NETDEV]	 = { K_STR, 0, IF_NAMESIZE - 1 },
	[UET_A_DEV_IFINDEX]	 = { K_U32 },
	[UET_A_DEV_RC_MODE]	 = { K_U8, 0, UET_DELIVERY_MODE_ROD },
	[UET_A_DEV_MAX_PAYLOAD]	 = { K_U32, 0, UET_PAYLOAD_MAX, UET_PAYLOAD_MIN },
	[UET_A_DEV_ACK_DELAY_US] = { K_U32, 0, UET_ACK_DELAY_US_MAX },
	[UET_A_DEV_PDC_POOL]	 = { K_U32, 1, UET_PDC_MAX },
	[UET_A_DEV_PDC_RESERVED] = { K_U32, 0, UET_PDC_MAX },
	[UET_A_DEV_RTO_MIN_US]	 = { K_U32, UET_RTO_US_MIN, UET_RTO_US_MAX },
	[UET_A_DEV_RTO_MAX_US]	 = { K_U32, UET_RTO_US_MIN, UET_RTO_US_MAX },
	[UET_A_DEV_RTO_INIT_US]	 = { K_U32, UET_RTO_US_MIN, UET_RTO_US_MAX },
	[UET_A_DEV_PDC_IDLE_MS]	 = { K_U32, 0, UET_PDC_IDLE_MS_MAX },
	[UET_A_DEV_CC]		 = { K_U8, 0, UET_CC_NSCC_RCCC },
	[UET_A_DEV_CC_TARGET_US] = { K_U32, 0, UET_CC_TARGET_US_MAX },
	[UET_A_DEV_LINK_MBPS]	 = { K_U32, 1, UET_LINK_MBPS_MAX },
	[UET_A_DEV_TC_DSCP]	 = { K_BIN, 0, UET_TC_MAX + 1 },
	[UET_A_DEV_CTL_TC]	 = { K_U8, 0, UET_TC_MAX },
	[UET_A_DEV_PROFILE]	 = { K_U8, 0, UET_PROFILE_HPC },
	[UET_A_DEV_JOBS]	 = { K_U32 },
	[UET_A_DEV_PDCS]	 = { K_U32 },
	[UET_A_DEV_TX_PACKETS]	 = { K_U64 },
	[UET_A_DEV_TX_BYTES]	 = { K_U64 },
	[UET_A_DEV_RX_PACKETS]	 = { K_U64 },
	[UET_A_DEV_RX_BYTES]	 = { K_U64 },
	[UET_A_DEV_PAD]		 = { K_PAD },
	[UET_A_DEV_PDC_PER_SOURCE] = { K_U32, 1, UET_PDC_MAX },
	[UET_A_DEV_CC_BASE_RTT_US] = { K_U32, 0, UET_CC_TARGET_US_MAX },
	[UET_A_DEV_CC_BDP] = { K_U32, 0, UET_CC_BDP_MAX },
	[UET_A_DEV_CC_MTU] = { K_U32, 0, 65535, UET_PAYLOAD_MIN },
	[UET_A_DEV_CC_FI_PCT] = { K_U32, 0, UET_CC_GAIN_MAX },
	[UET_A_DEV_CC_ALPHA_PCT] = { K_U32, 0, UET_CC_GAIN_MAX },
	[UET_A_DEV_CC_ETA_PCT] = { K_U32, 0, UET_CC_GAIN_MAX },
	[UET_A_DEV_CC_MD_PCT] = { K_U32, 0, 100 },
	[UET_A_DEV_CC_IGNORE_PCT] = { K_U32, 0, 100 },
	[UET_A_DEV_LB] = { K_U8, 0, UET_LB_MODE_REPS },
	[UET_A_DEV_LB_PATHS] = { K_U32, 1, UET_LB_PATHS_MAX },
	[UET_A_DEV_SSI] = { K_U32 },
	[UET_A_DEV_UDP_PORT] = { K_U16, 1, UINT16_MAX },
	[UET_A_DEV_ENCAP] = { K_U8, 0, UET_ENCAP_UDP_ZERO_CSUM },
	[UET_A_DEV_RA_FLOOR_MBPS] = { K_U32, 0, UET_LINK_MBPS_MAX },
};

static const struct attr job_attrs[UET_A_JOB_MAX + 1] = {
	[UET_A_JOB_DEV_NAME]	  = { K_STR, 0, UET_NAME_MAX_LEN },
	[UET_A_JOB_ID]		  = { K_U32, 0, UET_JOB_ID_MAX },
	[UET_A_JOB_ADDR_MODE]	  = { K_U8, 0, UET_ADDR_MODE_ABSOLUTE },
	[UET_A_JOB_PID_LO]	  = { K_U16, 0, UET_PID_MAX },
	[UET_A_JOB_PID_HI]	  = { K_U16, 0, UET_PID_MAX },
	[UET_A_JOB_TC]		  = { K_U8, 0, UET_TC_MAX },
	[UET_A_JOB_DELIVERY_MODE] = { K_U8, 0, UET_DELIVERY_MODE_UUD },
	[UET_A_JOB_TX_PACKETS]	  = { K_U64 },
	[UET_A_JOB_TX_BYTES]	  = { K_U64 },
	[UET_A_JOB_RX_PACKETS]	  = { K_U64 },
	[UET_A_JOB_RX_BYTES]	  = { K_U64 },
	[UET_A_JOB_ERRORS]	  = { K_U64 },
	[UET_A_JOB_PAD]		  = { K_PAD },
	[UET_A_JOB_CC]		  = { K_U8, 0, UET_CC_NSCC_RCCC },
	[UET_A_JOB_CC_TARGET_US] = { K_U32, 0, UET_CC_TARGET_US_MAX },
	[UET_A_JOB_CC_BASE_RTT_US] = { K_U32, 0, UET_CC_TARGET_US_MAX },
	[UET_A_JOB_CC_BDP] = { K_U32, 0, UET_CC_BDP_MAX },
	[UET_A_JOB_CC_MTU] = { K_U32, 0, 65535, UET_PAYLOAD_MIN },
	[UET_A_JOB_CC_FI_PCT] = { K_U32, 0, UET_CC_GAIN_MAX },
	[UET_A_JOB_CC_ALPHA_PCT] = { K_U32, 0, UET_CC_GAIN_MAX },
	[UET_A_JOB_CC_ETA_PCT] = { K_U32, 0, UET_CC_GAIN_MAX },
	[UET_A_JOB_CC_MD_PCT] = { K_U32, 0, 100 },
	[UET_A_JOB_CC_IGNORE_PCT] = { K_U32, 0, 100 },
	[UET_A_JOB_LB] = { K_U8, 0, UET_LB_MODE_REPS },
	[UET_A_JOB_LB_PATHS] = { K_U32, 1, UET_LB_PATHS_MAX },
	[UET_A_JOB_RA_FLOOR_MBPS] = { K_U32, 0, UET_LINK_MBPS_MAX },
	[UET_A_JOB_SECURE]   = { K_FLAG },
};

static const struct attr profile_attrs[UET_A_PROFILE_MAX + 1] = {
	[UET_A_PROFILE_DEV_NAME] = { K_STR, 0, UET_NAME_MAX_LEN },
	[UET_A_PROFILE_ID]	 = { K_U8, 0, UET_PROFILE_HPC },
	[UET_A_PROFILE_FEATURES] = { K_U32 },
};

static const struct attr pdc_attrs[UET_A_PDC_MAX + 1] = {
	[UET_A_PDC_DEV_NAME]	= { K_STR, 0, UET_NAME_MAX_LEN },
	[UET_A_PDC_LPDCID]	= { K_U16, 1, UET_PDC_MAX },
	[UET_A_PDC_RPDCID]	= { K_U16 },
	[UET_A_PDC_STATE]	= { K_U8 },
	[UET_A_PDC_MODE]	= { K_U8 },
	[UET_A_PDC_INITIATOR]	= { K_FLAG },
	[UET_A_PDC_JOB]		= { K_U32 },
	[UET_A_PDC_TC]		= { K_U8 },
	[UET_A_PDC_PEER]	= { K_BIN, 0, sizeof(struct in6_addr) },
	[UET_A_PDC_TX_UNA]	= { K_U32 },
	[UET_A_PDC_TX_NXT]	= { K_U32 },
	[UET_A_PDC_RX_CACK]	= { K_U32 },
	[UET_A_PDC_IN_FLIGHT]	= { K_U32 },
	[UET_A_PDC_SRTT_US]	= { K_U32 },
	[UET_A_PDC_RTO_US]	= { K_U32 },
	[UET_A_PDC_RETRANSMITS]	= { K_U64 },
	[UET_A_PDC_TIMEOUTS]	= { K_U64 },
	[UET_A_PDC_PAD]		= { K_PAD },
	[UET_A_PDC_CWND]	= { K_U32 },
	[UET_A_PDC_CWND_MAX]	= { K_U32 },
	[UET_A_PDC_CC_IN_FLIGHT] = { K_U32 },
	[UET_A_PDC_BASE_RTT_US]	= { K_U32 },
	[UET_A_PDC_DELAY_US]	= { K_U32 },
	[UET_A_PDC_ECN_ECHOES]	= { K_U32 },
	[UET_A_PDC_CC_CUTS]	= { K_U32 },
	[UET_A_PDC_QUICK_ADAPTS] = { K_U32 },
	/* an s32: what the fuzzer sends as a u32 is as long */
	[UET_A_PDC_CREDIT]	= { K_U32 },
	[UET_A_PDC_CREDIT_GRANTED] = { K_U32 },
	[UET_A_PDC_CREDIT_WANTED] = { K_U32 },
	[UET_A_PDC_CC_CONTEXT]	= { K_U32 },
	[UET_A_PDC_CC_PDCS]	= { K_U32 },
	[UET_A_PDC_RA_CAP_MBPS]	= { K_U32 },
	[UET_A_PDC_RA_ADVISED_MBPS] = { K_U32 },
	[UET_A_PDC_RA_AGE_MS]	= { K_U32 },
};

static const struct attr counter_attrs[UET_A_COUNTER_MAX + 1] = {
	[UET_A_COUNTER_NAME]  = { K_STR },
	[UET_A_COUNTER_VALUE] = { K_U64 },
	[UET_A_COUNTER_PAD]   = { K_PAD },
};

#define SET(attrs) { attrs, ARRAY_SIZE(attrs) - 1 }

static const struct attr_set dev_set = SET(dev_attrs);
static const struct attr_set job_set = SET(job_attrs);
static const struct attr_set profile_set = SET(profile_attrs);
static const struct attr_set pdc_set = SET(pdc_attrs);
static const struct attr_set counter_set = SET(counter_attrs);

static const struct attr stats_attrs[UET_A_STATS_MAX + 1] = {
	[UET_A_STATS_DEV_NAME] = { K_STR, 0, UET_NAME_MAX_LEN },
	[UET_A_STATS_JOB_ID]   = { K_U32, 0, UET_JOB_ID_MAX },
	[UET_A_STATS_COUNTER]  = { K_NEST, .nested = &counter_set },
};

static const struct attr key_attrs[UET_A_KEY_MAX + 1] = {
	[UET_A_KEY_DEV_NAME] = { K_STR, 0, UET_NAME_MAX_LEN },
	[UET_A_KEY_JOB_ID]   = { K_U32, 0, UET_JOB_ID_MAX },
	[UET_A_KEY_AN]	     = { K_U8, 0, UET_KEY_AN_MAX },
	[UET_A_KEY_KEY]	     = { K_BIN, 0, UET_KEY_LEN },
	[UET_A_KEY_EPOCH]    = { K_U16 },
	[UET_A_KEY_MODE]     = { K_U8, 0, UET_KEY_MODE_CLUSTER },
	[UET_A_KEY_TX]	     = { K_U8 },
};

static const struct attr_set stats_set = SET(stats_attrs);
static const struct attr_set key_set = SET(key_attrs);

/* attributes of a reply by type: room for every set's */
#define TB_SIZE			64

_Static_assert(ARRAY_SIZE(pdc_attrs) <= TB_SIZE && ARRAY_SIZE(job_attrs) <= TB_SIZE && ARRAY_SIZE(profile_attrs) <= TB_SIZE &&
	       ARRAY_SIZE(dev_attrs) <= TB_SIZE && ARRAY_SIZE(counter_attrs) <= TB_SIZE &&
	       ARRAY_SIZE(stats_attrs) <= TB_SIZE && ARRAY_SIZE(key_attrs) <= TB_SIZE,
	       "room for every set's attributes");

/**
 * struct cmd - a command of the family, as the spec describes it
 * @name: the spec's name
 * @set: its attribute set
 * @req: the attributes of its request, up to a 0
 * @reply: a do answers with data
 * @dump: it has a dump
 * @admin: uns-admin-perm: it needs CAP_NET_ADMIN
 */
struct cmd {
	const char *name;
	const struct attr_set *set;
	uint16_t req[REQ_MAX + 1];
	bool reply, dump, admin;
};

static const struct cmd cmds[UET_CMD_MAX + 1] = {
	[UET_CMD_DEV_GET] = { "dev-get", &dev_set, { UET_A_DEV_NAME },
			      .reply = true, .dump = true },
	[UET_CMD_DEV_SET] = { "dev-set", &dev_set,
			      { UET_A_DEV_NAME, UET_A_DEV_RC_MODE,
				  UET_A_DEV_MAX_PAYLOAD, UET_A_DEV_ACK_DELAY_US,
				  UET_A_DEV_PDC_POOL, UET_A_DEV_PDC_RESERVED,
				  UET_A_DEV_RTO_MIN_US, UET_A_DEV_RTO_MAX_US,
				  UET_A_DEV_RTO_INIT_US, UET_A_DEV_PDC_IDLE_MS,
				  UET_A_DEV_PDC_PER_SOURCE, UET_A_DEV_CC,
				  UET_A_DEV_CC_TARGET_US, UET_A_DEV_LINK_MBPS,
				  UET_A_DEV_TC_DSCP, UET_A_DEV_CTL_TC,
				  UET_A_DEV_CC_BASE_RTT_US, UET_A_DEV_CC_BDP,
				  UET_A_DEV_CC_MTU, UET_A_DEV_CC_FI_PCT,
				  UET_A_DEV_CC_ALPHA_PCT, UET_A_DEV_CC_ETA_PCT,
				  UET_A_DEV_CC_MD_PCT, UET_A_DEV_CC_IGNORE_PCT,
				  UET_A_DEV_LB, UET_A_DEV_LB_PATHS,
				  UET_A_DEV_SSI, UET_A_DEV_UDP_PORT,
				  UET_A_DEV_ENCAP, UET_A_DEV_RA_FLOOR_MBPS },
			      .admin = true },
	[UET_CMD_JOB_GET] = { "job-get", &job_set, { UET_A_JOB_DEV_NAME, UET_A_JOB_ID },
			      .reply = true, .dump = true },
	[UET_CMD_JOB_ADD] = { "job-add", &job_set,
			      { UET_A_JOB_DEV_NAME, UET_A_JOB_ID,
				  UET_A_JOB_ADDR_MODE, UET_A_JOB_PID_LO,
				  UET_A_JOB_PID_HI, UET_A_JOB_TC,
				  UET_A_JOB_DELIVERY_MODE, UET_A_JOB_CC,
				  UET_A_JOB_CC_TARGET_US, UET_A_JOB_CC_BASE_RTT_US,
				  UET_A_JOB_CC_BDP, UET_A_JOB_CC_MTU,
				  UET_A_JOB_CC_FI_PCT, UET_A_JOB_CC_ALPHA_PCT,
				  UET_A_JOB_CC_ETA_PCT, UET_A_JOB_CC_MD_PCT,
				  UET_A_JOB_CC_IGNORE_PCT, UET_A_JOB_LB,
				  UET_A_JOB_LB_PATHS, UET_A_JOB_RA_FLOOR_MBPS },
			      .admin = true },
	[UET_CMD_JOB_DEL] = { "job-del", &job_set, { UET_A_JOB_DEV_NAME, UET_A_JOB_ID },
			      .admin = true },
	[UET_CMD_PROFILE_GET] = { "profile-get", &profile_set,
				  { UET_A_PROFILE_DEV_NAME },
				  .reply = true, .dump = true },
	[UET_CMD_PROFILE_SET] = { "profile-set", &profile_set,
				  { UET_A_PROFILE_DEV_NAME, UET_A_PROFILE_ID },
				  .admin = true },
	[UET_CMD_PDC_GET] = { "pdc-get", &pdc_set, { UET_A_PDC_DEV_NAME, UET_A_PDC_LPDCID },
			      .reply = true, .dump = true, .admin = true },
	[UET_CMD_PDC_CLOSE] = { "pdc-close", &pdc_set,
				{ UET_A_PDC_DEV_NAME, UET_A_PDC_LPDCID },
				.admin = true },
	[UET_CMD_STATS_GET] = { "stats-get", &stats_set,
				{ UET_A_STATS_DEV_NAME, UET_A_STATS_JOB_ID },
				.reply = true },
	[UET_CMD_KEY_ADD] = { "key-add", &key_set,
			      { UET_A_KEY_DEV_NAME, UET_A_KEY_JOB_ID, UET_A_KEY_AN,
				  UET_A_KEY_KEY, UET_A_KEY_EPOCH, UET_A_KEY_MODE },
			      .admin = true },
	[UET_CMD_KEY_DEL] = { "key-del", &key_set,
			      { UET_A_KEY_DEV_NAME, UET_A_KEY_JOB_ID, UET_A_KEY_AN },
			      .admin = true },
	[UET_CMD_KEY_GET] = { "key-get", &key_set,
			      { UET_A_KEY_DEV_NAME, UET_A_KEY_JOB_ID, UET_A_KEY_AN },
			      .reply = true, .dump = true, .admin = true },
	[UET_CMD_KEY_SET] = { "key-set", &key_set,
			      { UET_A_KEY_DEV_NAME, UET_A_KEY_JOB_ID, UET_A_KEY_AN },
			      .admin = true },
};

/* The request shapes; one is chosen for each request. */
enum shape {
	SH_VALID,	/* the request's attributes, values in range */
	SH_BOUNDARY,	/* at the bounds of the policy and of the width */
	SH_WRONG_LEN,	/* one attribute of the wrong length */
	SH_UNKNOWN,	/* attribute types the command does not know */
	SH_NESTED,	/* NLA_F_NESTED garbage */
	SH_DUPLICATE,	/* the same attribute again and again */
	SH_TRUNCATED,	/* lengths past the end, headers cut */
	SH_FLAGS,	/* netlink flags and genetlink header fields */
	SH_RANDOM,	/* random bytes after the headers */
	NUM_SHAPES
};

static const char *const shape_names[] = {
	"valid", "boundary", "wrong-length", "unknown-type", "nested",
	"duplicate", "truncated", "flags", "random",
};

_Static_assert(ARRAY_SIZE(shape_names) == NUM_SHAPES, "a name for every shape");

/* The error codes the family gives by design, in the order printed. */
#define E(e) { e, #e }
static const struct {
	int err;
	const char *name;
} sane[] = {
	E(EINVAL),	/* policies, genetlink's header checks, handlers */
	E(ERANGE),	/* policies' ranges and string lengths */
	E(EOPNOTSUPP),	/* unknown commands, no do or dump, profiles */
	E(EPERM),	/* uns-admin-perm */
	E(ENODEV),	/* no such device in the caller's namespace */
	E(ENOENT),	/* no such job, PDC or key */
	E(EEXIST),	/* the job exists, a key at that AN */
	E(EBUSY),	/* the default job, a profile the jobs forbid, the sending key */
	E(ENOSPC),	/* UET_JOBS_MAX jobs, UET_KEYS_MAX keys */
};
#undef E

#define NUM_SANE ARRAY_SIZE(sane)

/* a request, as sent */
struct msg {
	_Alignas(NLMSG_ALIGNTO) uint8_t b[MSG_MAX];
	size_t len;
	unsigned long index;
	enum shape shape;
};

/* what became of a request */
struct outcome {
	bool answered;	/* an ACK, an error or a dump's end came */
	int err;	/* what it said */
	unsigned int data;
};

static int sock_fd;
static uint32_t portid, seq;
static uint16_t family;
static bool unprivileged;
static const char *devs[DEVS_MAX];
static unsigned int ndevs;
static uint64_t seed;
static const struct msg *current;
/* what each profile allows, from profile-get's dump; 0: not known yet */
static uint32_t features[UET_PROFILE_HPC + 1];

static struct {
	unsigned long sent, answered, unanswered, data, acked;
	unsigned long errs[NUM_SANE];
	unsigned long shape[NUM_SHAPES];
	unsigned long cmd_sent[UET_CMD_MAX + 1], cmd_ok[UET_CMD_MAX + 1];
	uint64_t slowest_ns;
	unsigned long slowest;
	uint8_t slowest_cmd;
	enum shape slowest_shape;
} st;

static void dump_request(void)
{
	size_t i;

	if (!current)
		return;
	fprintf(stderr, "uet_nlfuzz: request %lu (seed %#llx), %zu bytes:",
		current->index, (unsigned long long)seed, current->len);
	for (i = 0; i < current->len; i++)
		fprintf(stderr, "%s%02x", i % 32 ? "" : "\n  ", current->b[i]);
	fputc('\n', stderr);
}

static void fail(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	fputs("uet_nlfuzz: FAIL: ", stderr);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
	dump_request();
	exit(1);
}

static uint64_t now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * NSEC + (uint64_t)ts.tv_nsec;
}

/* --- building requests --- */

static struct nlmsghdr *hdr(const struct msg *m)
{
	return (struct nlmsghdr *)m->b;
}

static struct genlmsghdr *ghdr(const struct msg *m)
{
	return (struct genlmsghdr *)(m->b + NLMSG_HDRLEN);
}

/*
 * Append an attribute of @len bytes from @data (NULL: zeroes) and keep
 * nlmsg_len at the message's length; the attribute, or NULL when it
 * would not fit.
 */
static struct nlattr *put(struct msg *m, uint16_t type, const void *data,
			  size_t len)
{
	size_t room = NLA_HDRLEN + NLA_ALIGN(len);
	struct nlattr *a;

	if (m->len + room > sizeof(m->b))
		return NULL;
	a = (struct nlattr *)(m->b + m->len);
	a->nla_type = type;
	a->nla_len = (uint16_t)(NLA_HDRLEN + len);
	memset(a + 1, 0, NLA_ALIGN(len));
	if (data)
		memcpy(a + 1, data, len);
	m->len += room;
	hdr(m)->nlmsg_len = (uint32_t)m->len;
	return a;
}

static unsigned int width(enum kind k)
{
	switch (k) {
	case K_U8:
		return 1;
	case K_U16:
		return 2;
	case K_U32:
		return 4;
	case K_U64:
		return 8;
	default:
		return 0;
	}
}

static uint64_t width_max(enum kind k)
{
	return width(k) == 8 ? ~0ull : (1ull << (8 * width(k))) - 1;
}

/* An integer for @a: in range when @valid, else at a bound or any. */
static uint64_t int_value(const struct attr *a, bool valid)
{
	uint64_t wmax = width_max(a->kind), max = a->max ? a->max : wmax;
	uint64_t span = max - a->min < VALID_SPAN ? max - a->min + 1 : VALID_SPAN;

	if (valid)
		return one_in(2) ? a->min + below((uint32_t)span) :
				   max - below((uint32_t)span);
	return PICK(0, 1, a->min - 1, a->min, max, max + 1, wmax, wmax - 1,
		    a->edge - 1, a->edge, rnd64()) & wmax;
}

static void put_int(struct msg *m, uint16_t type, enum kind k, uint64_t v)
{
	uint8_t u8 = (uint8_t)v;
	uint16_t u16 = (uint16_t)v;
	uint32_t u32 = (uint32_t)v;

	switch (k) {
	case K_U8:
		put(m, type, &u8, sizeof(u8));
		break;
	case K_U16:
		put(m, type, &u16, sizeof(u16));
		break;
	case K_U32:
		put(m, type, &u32, sizeof(u32));
		break;
	default:
		put(m, type, &v, sizeof(v));
	}
}

/* A device name: one of -d when @valid, else of the kinds a name can go wrong. */
static void put_name(struct msg *m, uint16_t type, const struct attr *a,
		     bool valid)
{
	static const char not_utf8[] = "uet\xc3\x28\xff";
	const char *dev = devs[below(ndevs)];
	uint8_t buf[NAME_LONG + 1];
	size_t len;

	memset(buf, 'u', sizeof(buf));
	switch (valid ? 0 : below(9)) {
	case 0:		/* a device of -d */
		put(m, type, dev, strlen(dev) + 1);
		break;
	case 1:		/* no such device */
		put(m, type, "uetfuzz", sizeof("uetfuzz"));
		break;
	case 2:		/* empty, then not even a NUL */
		put(m, type, "", one_in(2));
		break;
	case 3:		/* the longest, or one longer */
		len = a->max + below(2);
		buf[len] = 0;
		put(m, type, buf, len + 1);
		break;
	case 4:		/* unterminated */
		put(m, type, dev, strlen(dev));
		break;
	case 5:
		put(m, type, not_utf8, sizeof(not_utf8));
		break;
	case 6:		/* a device, then bytes past its NUL */
		len = strlen(dev) + 1;
		memcpy(buf, dev, len);
		fill_random(buf + len, NAME_TAIL);
		put(m, type, buf, len + 1 + below(NAME_TAIL));
		break;
	case 7:		/* far too long, terminated or not */
		buf[NAME_LONG] = 0;
		put(m, type, buf, NAME_LONG + one_in(2));
		break;
	default:	/* random bytes */
		len = below(UET_NAME_MAX_LEN * 2);
		fill_random(buf, len);
		put(m, type, buf, len);
	}
}

static void put_random(struct msg *m, uint16_t type, size_t max)
{
	uint8_t buf[RANDOM_MAX];
	size_t len = below((uint32_t)(max < RANDOM_MAX ? max : RANDOM_MAX) + 1);

	fill_random(buf, len);
	put(m, type, buf, len);
}

/* Attribute @type of set @s, with a value of its kind. */
static void put_attr(struct msg *m, const struct attr_set *s, uint16_t type,
		     bool valid)
{
	const struct attr *a = type <= s->max ? &s->a[type] : NULL;
	uint8_t buf[UET_KEY_LEN + 1];
	size_t len;

	switch (a ? a->kind : K_NONE) {
	case K_U8:
	case K_U16:
	case K_U32:
	case K_U64:
		put_int(m, type, a->kind, int_value(a, valid));
		break;
	case K_STR:
		put_name(m, type, a, valid);
		break;
	case K_BIN:		/* the exact length, one off, or none */
		len = valid ? a->max : PICK(a->max - 1, a->max + 1, 0);
		fill_random(buf, len);
		put(m, type, buf, len);
		break;
	case K_FLAG:
		put(m, type, NULL, 0);
		break;
	default:
		put_random(m, type, 16);
	}
}

/* The request's attributes of @c, each likely; in range when @valid. */
static void put_request(struct msg *m, const struct cmd *c, bool valid)
{
	unsigned int i;

	for (i = 0; c->req[i]; i++)
		if (!one_in(4))
			put_attr(m, c->set, c->req[i], valid || one_in(3));
}

static unsigned int nreq(const struct cmd *c)
{
	unsigned int n = 0;

	while (c->req[n])
		n++;
	return n;
}

/* One of the request's attributes, or @none if it has none. */
static uint16_t req_attr(const struct cmd *c, uint16_t none)
{
	unsigned int n = nreq(c);

	return n ? c->req[below(n)] : none;
}

/*
 * 1 to 3 attributes the command does not take: 0, one past its policy
 * (whose highest is the request's last), the set's highest (a reply's
 * attribute), one past it, the highest type there is; some with a flag.
 */
static void put_unknown(struct msg *m, const struct cmd *c)
{
	unsigned int i, n = 1 + below(3);
	uint16_t type;

	for (i = 0; i < n; i++) {
		type = (uint16_t)PICK(0, nreq(c) ? c->req[nreq(c) - 1] + 1 : 1,
				      c->set->max, c->set->max + 1, NLA_TYPE_MASK,
				      rnd64());
		if (one_in(4))
			type |= (uint16_t)PICK(NLA_F_NESTED, NLA_F_NET_BYTEORDER);
		put_random(m, type, 16);
	}
}

/* One of the request's attributes again and again, values mostly valid. */
static void put_copies(struct msg *m, const struct cmd *c)
{
	unsigned int i, n = (unsigned int)PICK(2, 3, COPIES_MAX);
	uint16_t type = req_attr(c, 1);

	for (i = 0; i < n; i++)
		put_attr(m, c->set, type, !one_in(4));
}

/* Garbage inside NLA_F_NESTED, nests within it down to @depth. */
static void put_nest(struct msg *m, uint16_t type, unsigned int depth)
{
	size_t start = m->len;
	struct nlattr *a = put(m, type | NLA_F_NESTED, NULL, 0);
	unsigned int i, n = below(4);

	if (!a)
		return;
	for (i = 0; i < n; i++) {
		if (depth && one_in(2))
			put_nest(m, (uint16_t)PICK(0, 1, 2, 3, rnd64()), depth - 1);
		else
			put_random(m, (uint16_t)PICK(0, 1, 2, 3, rnd64()), 16);
	}
	a = (struct nlattr *)(m->b + start);
	a->nla_len = (uint16_t)(m->len - start);
}

/* Change one length of a built request: the kernel must cope. */
static void truncate_msg(struct msg *m)
{
	struct nlmsghdr *h = hdr(m);
	size_t genl = NLMSG_HDRLEN + GENL_HDRLEN;
	struct nlattr *last = NULL;
	size_t off;

	for (off = genl; off + NLA_HDRLEN <= m->len; off += NLA_ALIGN(last->nla_len)) {
		last = (struct nlattr *)(m->b + off);
		if (last->nla_len < NLA_HDRLEN)
			break;
	}
	switch (below(6)) {
	case 0:		/* cut inside the attributes: one points past the end */
		if (m->len > genl)
			m->len = genl + 1 + below((uint32_t)(m->len - genl - 1));
		h->nlmsg_len = (uint32_t)m->len;
		break;
	case 1:		/* the last attribute's length past the end */
		if (last)
			last->nla_len = (uint16_t)(last->nla_len + 1 + below(64));
		break;
	case 2:		/* an attribute shorter than its own header */
		if (last)
			last->nla_len = (uint16_t)below(NLA_HDRLEN);
		break;
	case 3:		/* the genetlink header cut */
		m->len = NLMSG_HDRLEN + below(GENL_HDRLEN);
		h->nlmsg_len = (uint32_t)m->len;
		break;
	case 4:		/* nlmsg_len past the datagram: the kernel drops it */
		h->nlmsg_len = (uint32_t)(m->len + 1 + below(1024));
		break;
	default:	/* nlmsg_len shorter than a header: dropped too */
		h->nlmsg_len = below(NLMSG_HDRLEN);
	}
}

/* Flags a request may carry, and ones it should not. */
static uint16_t random_flags(void)
{
	return (uint16_t)PICK(NLM_F_REQUEST | NLM_F_ACK,
			      NLM_F_REQUEST | NLM_F_ACK | NLM_F_DUMP,
			      NLM_F_REQUEST | NLM_F_ACK | NLM_F_ECHO,
			      NLM_F_REQUEST | NLM_F_ACK | NLM_F_ROOT,
			      NLM_F_REQUEST | NLM_F_ACK | NLM_F_MATCH,
			      NLM_F_REQUEST | NLM_F_ACK | NLM_F_ATOMIC,
			      NLM_F_REQUEST | NLM_F_ACK | NLM_F_MULTI,
			      NLM_F_REQUEST | NLM_F_ACK | NLM_F_CREATE | NLM_F_EXCL,
			      NLM_F_REQUEST, NLM_F_REQUEST | NLM_F_DUMP,
			      NLM_F_ACK, 0, NLM_F_ACK | NLM_F_DUMP, rnd64());
}

static uint8_t pick_cmd(void)
{
	if (one_in(8))
		return (uint8_t)PICK(0, UET_CMD_MAX + 1, UET_CMD_MAX + 2, 255);
	return (uint8_t)(1 + below(UET_CMD_MAX));
}

/* Build request @index of shape @sh. */
static void build(struct msg *m, enum shape sh, unsigned long index)
{
	static const struct cmd none = { .name = "unknown", .set = &dev_set };
	struct nlmsghdr *h = hdr(m);
	struct genlmsghdr *g = ghdr(m);
	const struct cmd *c;
	unsigned int n;

	m->index = index;
	m->shape = sh;
	m->len = NLMSG_HDRLEN + GENL_HDRLEN;
	memset(m->b, 0, m->len);
	h->nlmsg_len = (uint32_t)m->len;
	h->nlmsg_type = family;
	h->nlmsg_flags = NLM_F_REQUEST | NLM_F_ACK | (one_in(4) ? NLM_F_DUMP : 0);
	h->nlmsg_seq = ++seq;
	g->cmd = pick_cmd();
	g->version = UET_FAMILY_VERSION;
	c = g->cmd <= UET_CMD_MAX && cmds[g->cmd].name ? &cmds[g->cmd] : &none;

	switch (sh) {
	case SH_VALID:
		put_request(m, c, true);
		break;
	case SH_BOUNDARY:
		put_request(m, c, false);
		break;
	case SH_WRONG_LEN:
		put_request(m, c, false);
		put_random(m, req_attr(c, (uint16_t)below(8)),
			   PICK(0, 1, 2, 3, 5, 7, 9, 16));
		break;
	case SH_UNKNOWN:
		put_request(m, c, true);
		put_unknown(m, c);
		break;
	case SH_NESTED:
		put_request(m, c, true);
		put_nest(m, one_in(4) ? (uint16_t)PICK(0, UET_A_STATS_COUNTER,
						       c->set->max + 1, rnd64()) & NLA_TYPE_MASK :
					req_attr(c, 1), NEST_DEPTH_MAX);
		break;
	case SH_DUPLICATE:
		put_request(m, c, true);
		put_copies(m, c);
		break;
	case SH_TRUNCATED:
		put_request(m, c, false);
		truncate_msg(m);
		break;
	case SH_FLAGS:
		put_request(m, c, true);
		h->nlmsg_flags = random_flags();
		g->version = (uint8_t)PICK(0, UET_FAMILY_VERSION, 2, 255);
		g->reserved = (uint16_t)PICK(0, 0, 1, rnd64());
		break;
	default:
		n = below(RANDOM_MAX);
		fill_random(m->b + m->len, n);
		m->len += n;
		h->nlmsg_len = (uint32_t)m->len;
	}
}

/* --- what the kernel makes of a request --- */

static bool is_dump(uint16_t flags)
{
	return (flags & NLM_F_DUMP) == NLM_F_DUMP;
}

/* The kernel reads it: netlink_rcv_skb() drops bad lengths silently. */
static bool readable(const struct msg *m)
{
	return m->len >= NLMSG_HDRLEN && hdr(m)->nlmsg_len >= NLMSG_HDRLEN &&
	       hdr(m)->nlmsg_len <= m->len;
}

/* An ACK, an error or a dump's end is due. */
static bool answer_due(const struct msg *m)
{
	uint16_t f = hdr(m)->nlmsg_flags;

	return readable(m) && ((f & NLM_F_ACK) || ((f & NLM_F_REQUEST) && is_dump(f)));
}

/* The command @m asks for, if it is one of the family's. */
static const struct cmd *cmd_of(const struct msg *m)
{
	uint8_t cmd;

	if (hdr(m)->nlmsg_len < NLMSG_HDRLEN + GENL_HDRLEN)
		return NULL;
	cmd = ghdr(m)->cmd;
	return cmd <= UET_CMD_MAX && cmds[cmd].name ? &cmds[cmd] : NULL;
}

/*
 * The request gets as far as genetlink's permission check: its headers
 * pass genl_header_check() and it names an operation the command has.
 */
static bool reaches_perm(const struct msg *m)
{
	const struct cmd *c = cmd_of(m);
	uint16_t f = hdr(m)->nlmsg_flags;

	if (!readable(m) || !(f & NLM_F_REQUEST) || !c || ghdr(m)->reserved)
		return false;
	if (is_dump(f))
		f &= ~NLM_F_DUMP;
	if (f & ~(NLM_F_REQUEST | NLM_F_ACK | NLM_F_ECHO))
		return false;
	return !is_dump(hdr(m)->nlmsg_flags) || c->dump;
}

/* --- checking replies --- */

/* The attribute at *@p, of the @len bytes left, then past it; NULL at the end. */
static const struct nlattr *next_attr(const uint8_t **p, size_t *len)
{
	const struct nlattr *a = (const struct nlattr *)*p;
	size_t step;

	if (!*len)
		return NULL;
	if (*len < NLA_HDRLEN || a->nla_len < NLA_HDRLEN || a->nla_len > *len)
		fail("an attribute of %zu bytes left overruns its reply", *len);
	step = NLA_ALIGN((size_t)a->nla_len);
	if (step > *len)
		step = *len;
	*p += step;
	*len -= step;
	return a;
}

static size_t payload_len(const struct nlattr *a)
{
	return a->nla_len - NLA_HDRLEN;
}

static const char *str_of(const struct nlattr *a, const char *what)
{
	const char *s = (const char *)(a + 1);

	if (!payload_len(a) || s[payload_len(a) - 1])
		fail("%s: a string not terminated", what);
	return s;
}

/* The attributes of a reply of set @s: known, of the right length. */
static void check_attrs(const struct attr_set *s, const uint8_t *p, size_t len,
			const struct nlattr **tb, const char *what)
{
	const struct nlattr *a;
	const struct attr *d;
	uint16_t type;

	while ((a = next_attr(&p, &len))) {
		type = a->nla_type & NLA_TYPE_MASK;
		if (!type || type > s->max || s->a[type].kind == K_NONE)
			fail("%s: unknown attribute %u", what, type);
		d = &s->a[type];
		switch (d->kind) {
		case K_STR:
			if (d->max && strlen(str_of(a, what)) > d->max)
				fail("%s: attribute %u longer than %llu", what, type,
				     (unsigned long long)d->max);
			break;
		case K_BIN:
			if (d->max && payload_len(a) != d->max)
				fail("%s: attribute %u of %zu bytes", what, type,
				     payload_len(a));
			break;
		case K_FLAG:
			if (payload_len(a))
				fail("%s: flag %u with a payload", what, type);
			break;
		case K_NEST:
			if (!(a->nla_type & NLA_F_NESTED))
				fail("%s: nest %u without NLA_F_NESTED", what, type);
			check_attrs(d->nested, (const uint8_t *)(a + 1),
				    payload_len(a), NULL, what);
			break;
		case K_PAD:
			break;
		default:
			if (payload_len(a) != width(d->kind))
				fail("%s: attribute %u of %zu bytes, not %u", what,
				     type, payload_len(a), width(d->kind));
		}
		if (tb)
			tb[type] = a;
	}
}

/* Each profile's features, from its dump; a device's settings by them. */
static void check_profiles(const struct nlattr **tb)
{
	uint8_t id;

	if (!tb[UET_A_PROFILE_ID] || !tb[UET_A_PROFILE_FEATURES])
		fail("profile-get: a reply without id or features");
	id = *(const uint8_t *)(tb[UET_A_PROFILE_ID] + 1);
	if (id > UET_PROFILE_HPC)
		fail("profile-get: profile %u", id);
	if (!tb[UET_A_PROFILE_DEV_NAME])
		features[id] = *(const uint32_t *)(tb[UET_A_PROFILE_FEATURES] + 1);
}

/*
 * A device's RC delivery mode must be one its profile allows: the
 * features' mode bits are 1 << delivery mode (uet_netlink.h).
 */
static void check_dev(const struct nlattr **tb)
{
	uint8_t profile, mode;

	if (!tb[UET_A_DEV_NAME] || !tb[UET_A_DEV_RC_MODE] || !tb[UET_A_DEV_PROFILE])
		fail("dev-get: a reply without name, rc-mode or profile");
	profile = *(const uint8_t *)(tb[UET_A_DEV_PROFILE] + 1);
	mode = *(const uint8_t *)(tb[UET_A_DEV_RC_MODE] + 1);
	if (profile > UET_PROFILE_HPC || mode > UET_DELIVERY_MODE_ROD)
		fail("dev-get: profile %u, rc-mode %u", profile, mode);
	if (features[profile] && !(features[profile] & UET_FEATURE_MODE_RUD << mode))
		fail("dev-get: %s has rc-mode %u, which its profile %u (features %#x) forbids",
		     str_of(tb[UET_A_DEV_NAME], "dev-get"), mode, profile,
		     features[profile]);
}

/* A data reply to @m: a command's own, from one that answers. */
static void check_data(const struct nlmsghdr *r, const struct msg *m)
{
	const struct nlattr *tb[TB_SIZE] = { NULL };
	const struct genlmsghdr *g = NLMSG_DATA(r);
	const struct cmd *c = cmd_of(m);
	bool dump = is_dump(hdr(m)->nlmsg_flags);

	if (r->nlmsg_len < NLMSG_HDRLEN + GENL_HDRLEN)
		fail("a data reply of %u bytes", r->nlmsg_len);
	if (!c || !(dump ? c->dump : c->reply) || g->cmd != ghdr(m)->cmd)
		fail("data (command %u) answered command %u", g->cmd, ghdr(m)->cmd);
	if (unprivileged && c->admin)
		fail("%s answered without CAP_NET_ADMIN", c->name);
	if (g->version != UET_FAMILY_VERSION)
		fail("%s: a reply of version %u", c->name, g->version);
	if (!(r->nlmsg_flags & NLM_F_MULTI) != !dump)
		fail("%s: NLM_F_MULTI %s a dump", c->name, dump ? "missing from" : "outside");
	check_attrs(c->set, (const uint8_t *)(g + 1),
		    r->nlmsg_len - NLMSG_HDRLEN - GENL_HDRLEN, tb, c->name);
	/* key material is write-only */
	if (g->cmd == UET_CMD_KEY_GET && tb[UET_A_KEY_KEY])
		fail("key-get: a reply carries a key");
	if (g->cmd == UET_CMD_PROFILE_GET)
		check_profiles(tb);
	else if (g->cmd == UET_CMD_DEV_GET)
		check_dev(tb);
}

/* The extended ACK's attributes, from @p for @len bytes, of a request of @req_len. */
static void check_extack(const uint8_t *p, size_t len, uint32_t req_len)
{
	const struct nlattr *a;
	uint32_t off;

	while ((a = next_attr(&p, &len))) {
		switch (a->nla_type & NLA_TYPE_MASK) {
		case NLMSGERR_ATTR_MSG:
			str_of(a, "extack message");
			break;
		case NLMSGERR_ATTR_OFFS:
		case NLMSGERR_ATTR_MISS_NEST:
			if (payload_len(a) != sizeof(off))
				fail("extack offset of %zu bytes", payload_len(a));
			memcpy(&off, a + 1, sizeof(off));
			if (off >= req_len)
				fail("extack offset %u past the request's %u bytes",
				     off, req_len);
			break;
		case NLMSGERR_ATTR_MISS_TYPE:
			if (payload_len(a) != sizeof(uint32_t))
				fail("extack missing type of %zu bytes", payload_len(a));
			break;
		case NLMSGERR_ATTR_COOKIE:
		case NLMSGERR_ATTR_POLICY:
			break;
		default:
			fail("extack attribute %u", a->nla_type);
		}
	}
}

/* The code an error or a dump's end says, if it is a sane one. */
static void count_err(int err, const char *what)
{
	unsigned int i;

	if (!err) {
		st.acked++;
		return;
	}
	for (i = 0; i < NUM_SANE; i++)
		if (-err == sane[i].err) {
			st.errs[i]++;
			return;
		}
	fail("%s: error %d (%s), not one the family gives", what, err,
	     strerror(-err));
}

/* An NLMSG_ERROR for @m (or the probe, which has @m NULL): its code. */
static int check_error(const struct nlmsghdr *r, const struct nlmsghdr *req)
{
	const struct nlmsgerr *e = NLMSG_DATA(r);
	size_t off = NLMSG_HDRLEN + sizeof(*e);

	if (r->nlmsg_len < off)
		fail("an error message of %u bytes", r->nlmsg_len);
	if (e->error > 0 || e->error < -4095)
		fail("error code %d", e->error);
	if (e->msg.nlmsg_seq != req->nlmsg_seq || e->msg.nlmsg_type != req->nlmsg_type ||
	    e->msg.nlmsg_flags != req->nlmsg_flags || e->msg.nlmsg_len != req->nlmsg_len)
		fail("an error that echoes another request (seq %u)", e->msg.nlmsg_seq);
	if (!(r->nlmsg_flags & NLM_F_CAPPED))
		fail("an error not capped (NETLINK_CAP_ACK)");
	if (r->nlmsg_flags & NLM_F_ACK_TLVS)
		check_extack((const uint8_t *)r + off, r->nlmsg_len - off,
			     req->nlmsg_len);
	else if (r->nlmsg_len != off)
		fail("%u bytes after an error without NLM_F_ACK_TLVS",
		     r->nlmsg_len - (unsigned int)off);
	return e->error;
}

/* A dump's end: its code. */
static int check_done(const struct nlmsghdr *r, const struct msg *m)
{
	size_t off = NLMSG_HDRLEN + sizeof(int);
	int err;

	if (!is_dump(hdr(m)->nlmsg_flags))
		fail("NLMSG_DONE after a request that was no dump");
	if (r->nlmsg_len < off)
		fail("NLMSG_DONE of %u bytes", r->nlmsg_len);
	memcpy(&err, NLMSG_DATA(r), sizeof(err));
	if (err > 0)
		fail("NLMSG_DONE with code %d", err);
	if (r->nlmsg_flags & NLM_F_ACK_TLVS)
		check_extack((const uint8_t *)r + off, r->nlmsg_len - off,
			     hdr(m)->nlmsg_len);
	return err;
}

/* --- the exchange --- */

static void send_msg(const void *b, size_t len)
{
	struct sockaddr_nl kernel = { .nl_family = AF_NETLINK };
	ssize_t n;

	n = sendto(sock_fd, b, len, 0, (struct sockaddr *)&kernel, sizeof(kernel));
	if (n != (ssize_t)len)
		fail("send: %s", n < 0 ? strerror(errno) : "short");
}

static ssize_t recv_reply(uint8_t *buf)
{
	struct pollfd pfd = { .fd = sock_fd, .events = POLLIN };
	ssize_t n;
	int ret;

	do
		ret = poll(&pfd, 1, REPLY_TIMEOUT_MS);
	while (ret < 0 && errno == EINTR);
	if (ret < 0)
		fail("poll: %s", strerror(errno));
	if (!ret)
		fail("no reply within %d ms: a hang?", REPLY_TIMEOUT_MS);
	n = recv(sock_fd, buf, RX_MAX, MSG_TRUNC);
	if (n < 0)
		fail("recv: %s", strerror(errno));
	if (n > RX_MAX)
		fail("a reply of %zd bytes, more than %d", n, RX_MAX);
	return n;
}

/*
 * One reply of a datagram, to @m or to the probe @probe (NULL if none
 * was sent): true once the one awaited is answered.  A request followed
 * by a probe is no dump the kernel started (a dump is always answered):
 * whatever it gets comes before the probe's ACK.
 */
static bool take(const struct nlmsghdr *r, const struct msg *m,
		 const struct nlmsghdr *probe, struct outcome *o)
{
	const struct nlmsghdr *req = hdr(m);

	if (r->nlmsg_pid != portid)
		fail("a reply for port %u, not ours (%u)", r->nlmsg_pid, portid);
	if (probe && r->nlmsg_seq == probe->nlmsg_seq) {
		if (r->nlmsg_type != NLMSG_ERROR || check_error(r, probe))
			fail("the probe not ACKed");
		return true;
	}
	if (r->nlmsg_seq != req->nlmsg_seq)
		fail("a reply of sequence %u, awaiting %u", r->nlmsg_seq,
		     req->nlmsg_seq);
	if (!readable(m))
		fail("an answer to a request the kernel cannot read");
	if (o->answered)
		fail("a reply after the answer");
	if (r->nlmsg_type == family) {
		check_data(r, m);
		o->data++;
		return false;
	}
	if (r->nlmsg_type == NLMSG_ERROR)
		o->err = check_error(r, req);
	else if (r->nlmsg_type == NLMSG_DONE)
		o->err = check_done(r, m);
	else
		fail("a reply of type %u", r->nlmsg_type);
	o->answered = true;
	return !probe;
}

/* Read replies until @m is answered, or the probe after it. */
static void await(const struct msg *m, const struct nlmsghdr *probe,
		  struct outcome *o)
{
	static uint8_t buf[RX_MAX];
	const struct nlmsghdr *r;
	bool done = false;
	int len;

	while (!done) {
		len = (int)recv_reply(buf);
		for (r = (const struct nlmsghdr *)buf; NLMSG_OK(r, len);
		     r = NLMSG_NEXT(r, len)) {
			if (done)
				fail("a reply after the last one awaited");
			done = take(r, m, probe, o);
		}
		if (len)
			fail("%d bytes left over after a reply's messages", len);
	}
}

/* Send @m, read what it gets, and judge it. */
static void exchange(const struct msg *m)
{
	struct nlmsghdr probe = {
		.nlmsg_len = NLMSG_HDRLEN,
		.nlmsg_type = NLMSG_NOOP,
		.nlmsg_flags = NLM_F_REQUEST | NLM_F_ACK,
	};
	const struct cmd *c = cmd_of(m);
	struct outcome o = { .answered = false };
	bool due = answer_due(m);
	uint64_t t = now_ns();

	current = m;
	send_msg(m->b, m->len);
	if (!due) {
		probe.nlmsg_seq = ++seq;
		send_msg(&probe, sizeof(probe));
	}
	await(m, due ? NULL : &probe, &o);
	t = now_ns() - t;
	if (t > st.slowest_ns) {
		st.slowest_ns = t;
		st.slowest = m->index;
		st.slowest_cmd = ghdr(m)->cmd;
		st.slowest_shape = m->shape;
	}
	if (t / 1000000 > REPLY_TIMEOUT_MS)
		fail("answered after %llu ms: a hang?", (unsigned long long)(t / 1000000));
	st.sent++;
	st.data += o.data;
	if (c)
		st.cmd_sent[ghdr(m)->cmd]++;
	if (!o.answered) {
		st.unanswered++;
		return;
	}
	st.answered++;
	count_err(o.err, c ? c->name : "an unknown command");
	if (c && !o.err && readable(m) && (hdr(m)->nlmsg_flags & NLM_F_REQUEST))
		st.cmd_ok[ghdr(m)->cmd]++;
	if (!unprivileged || !c || !c->admin)
		return;
	if (!o.err && (hdr(m)->nlmsg_flags & NLM_F_REQUEST))
		fail("%s succeeded without CAP_NET_ADMIN", c->name);
	if (reaches_perm(m) && o.err != -EPERM)
		fail("%s without CAP_NET_ADMIN: %s, not EPERM", c->name,
		     o.err ? strerror(-o.err) : "accepted");
}

/* --- setting up --- */

/* The family's ID, from the controller. */
static uint16_t resolve_family(void)
{
	static uint8_t buf[RX_MAX];
	struct msg m = { .len = NLMSG_HDRLEN + GENL_HDRLEN };
	const struct nlattr *a;
	const struct nlmsghdr *r;
	const uint8_t *p;
	size_t len;
	uint16_t id = 0;
	ssize_t n;

	hdr(&m)->nlmsg_len = (uint32_t)m.len;
	hdr(&m)->nlmsg_type = GENL_ID_CTRL;
	hdr(&m)->nlmsg_flags = NLM_F_REQUEST;
	hdr(&m)->nlmsg_seq = ++seq;
	ghdr(&m)->cmd = CTRL_CMD_GETFAMILY;
	ghdr(&m)->version = 1;
	put(&m, CTRL_ATTR_FAMILY_NAME, UET_FAMILY_NAME, sizeof(UET_FAMILY_NAME));
	send_msg(m.b, m.len);
	n = recv_reply(buf);
	r = (const struct nlmsghdr *)buf;
	if (!NLMSG_OK(r, n) || r->nlmsg_type != GENL_ID_CTRL ||
	    r->nlmsg_len < NLMSG_HDRLEN + GENL_HDRLEN)
		fail("family %s not found (is uet loaded?)", UET_FAMILY_NAME);
	p = (const uint8_t *)NLMSG_DATA(r) + GENL_HDRLEN;
	len = r->nlmsg_len - NLMSG_HDRLEN - GENL_HDRLEN;
	while ((a = next_attr(&p, &len)))
		if (a->nla_type == CTRL_ATTR_FAMILY_ID && payload_len(a) == sizeof(id))
			memcpy(&id, a + 1, sizeof(id));
	if (!id)
		fail("no ID for family %s", UET_FAMILY_NAME);
	return id;
}

static void open_socket(void)
{
	struct sockaddr_nl sa = { .nl_family = AF_NETLINK };
	socklen_t salen = sizeof(sa);
	int one = 1;

	sock_fd = socket(AF_NETLINK, SOCK_RAW | SOCK_CLOEXEC, NETLINK_GENERIC);
	if (sock_fd < 0)
		fail("socket: %s", strerror(errno));
	if (setsockopt(sock_fd, SOL_NETLINK, NETLINK_EXT_ACK, &one, sizeof(one)) ||
	    setsockopt(sock_fd, SOL_NETLINK, NETLINK_CAP_ACK, &one, sizeof(one)))
		fail("setsockopt: %s", strerror(errno));
	if (bind(sock_fd, (struct sockaddr *)&sa, sizeof(sa)) ||
	    getsockname(sock_fd, (struct sockaddr *)&sa, &salen))
		fail("bind: %s", strerror(errno));
	portid = sa.nl_pid;
}

/* The profile table first: dev-get's replies are checked against it. */
static void load_profiles(void)
{
	static struct msg m;

	m.len = NLMSG_HDRLEN + GENL_HDRLEN;
	hdr(&m)->nlmsg_len = (uint32_t)m.len;
	hdr(&m)->nlmsg_type = family;
	hdr(&m)->nlmsg_flags = NLM_F_REQUEST | NLM_F_DUMP;
	hdr(&m)->nlmsg_seq = ++seq;
	ghdr(&m)->cmd = UET_CMD_PROFILE_GET;
	ghdr(&m)->version = UET_FAMILY_VERSION;
	exchange(&m);
	if (!features[UET_PROFILE_HPC])
		fail("profile-get: no profile table");
}

/* --- the run --- */

static void summary(double secs)
{
	unsigned int i;

	printf("uet_nlfuzz: %lu requests in %.1f s: %lu answered (%lu ACKed, %lu data messages), %lu unanswered\n",
	       st.sent, secs, st.answered, st.acked, st.data, st.unanswered);
	printf("uet_nlfuzz: errors:");
	for (i = 0; i < NUM_SANE; i++)
		printf(" %s %lu", sane[i].name, st.errs[i]);
	printf("\nuet_nlfuzz: shapes:");
	for (i = 0; i < NUM_SHAPES; i++)
		printf(" %s %lu", shape_names[i], st.shape[i]);
	printf("\nuet_nlfuzz: commands (sent/succeeded):");
	for (i = 1; i <= UET_CMD_MAX; i++)
		printf(" %s %lu/%lu", cmds[i].name, st.cmd_sent[i], st.cmd_ok[i]);
	printf("\nuet_nlfuzz: slowest: request %lu, command %u, %s, %.1f ms\n",
	       st.slowest, st.slowest_cmd, shape_names[st.slowest_shape],
	       (double)st.slowest_ns / 1000000);
}

static void usage(void)
{
	fprintf(stderr,
		"Usage: uet_nlfuzz -d DEV... [-n COUNT] [-t SECONDS] [-s SEED] [-u]\n");
	exit(2);
}

static unsigned long number(const char *s, const char *what)
{
	char *end;
	unsigned long v;

	errno = 0;
	v = strtoul(s, &end, 0);
	if (errno || !*s || *end)
		fail("bad %s '%s'", what, s);
	return v;
}

int main(int argc, char **argv)
{
	static struct msg m;
	unsigned long count = 0, i;
	uint64_t start, end;
	double secs = 10;
	enum shape sh;
	int c;

	seed = now_ns() ^ (uint64_t)getpid() << 32;
	while ((c = getopt(argc, argv, "d:n:t:s:uh")) != -1) {
		switch (c) {
		case 'd':
			if (ndevs == DEVS_MAX || strlen(optarg) > UET_NAME_MAX_LEN)
				usage();
			devs[ndevs++] = optarg;
			break;
		case 'n':
			count = number(optarg, "count");
			break;
		case 't':
			secs = (double)number(optarg, "duration");
			break;
		case 's':
			seed = strtoull(optarg, NULL, 0);
			break;
		case 'u':
			unprivileged = true;
			break;
		default:
			usage();
		}
	}
	if (!ndevs || optind != argc)
		usage();
	printf("uet_nlfuzz: seed %#llx\n", (unsigned long long)seed);
	fflush(stdout);
	rng = seed;
	open_socket();
	family = resolve_family();
	load_profiles();
	memset(&st, 0, sizeof(st));

	start = now_ns();
	end = start + (uint64_t)(secs * NSEC);
	for (i = 0; (!count || i < count) && now_ns() < end; i++) {
		sh = (enum shape)below(NUM_SHAPES);
		build(&m, sh, i);
		st.shape[sh]++;
		exchange(&m);
	}
	current = NULL;
	summary((double)(now_ns() - start) / NSEC);
	if (!st.acked)
		fail("no request succeeded: the requests never reach the handlers");
	return 0;
}
