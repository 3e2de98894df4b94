// SPDX-License-Identifier: GPL-2.0
/*
 * Unit tests of uetctl's argument parsing (tools/uetctl/args.c): what each
 * command line becomes, and the usage error, quoting the bad word, of
 * every malformed one.
 */
#include "kselftest_harness.h"

#include <stdio.h>
#include <string.h>
#include <unistd.h>
#include <uet/libuet.h>

#include "uetctl.h"

#define ARGV(...)	((char *[]){ __VA_ARGS__ })
#define ARGC(...)	((int)(sizeof(ARGV(__VA_ARGS__)) / sizeof(char *)))
#define PARSE(fn, obj, ...)	fn(ARGC(__VA_ARGS__), ARGV(__VA_ARGS__), obj, err)

TEST(numbers)
{
	uint32_t v;

	ASSERT_EQ(0, parse_u32("0", 10, &v));
	ASSERT_EQ(0u, v);
	ASSERT_EQ(0, parse_u32("4294967295", UINT32_MAX, &v));
	ASSERT_EQ(UINT32_MAX, v);
	ASSERT_EQ(0, parse_u32("0xfff", 4095, &v));
	ASSERT_EQ(4095u, v);
	ASSERT_EQ(-1, parse_u32("4294967296", UINT32_MAX, &v));
	ASSERT_EQ(-1, parse_u32("256", 255, &v));
	ASSERT_EQ(-1, parse_u32("-1", UINT32_MAX, &v));
	ASSERT_EQ(-1, parse_u32("+1", UINT32_MAX, &v));
	ASSERT_EQ(-1, parse_u32("", UINT32_MAX, &v));
	ASSERT_EQ(-1, parse_u32("12abc", UINT32_MAX, &v));
	ASSERT_EQ(-1, parse_u32(" 1", UINT32_MAX, &v));
	ASSERT_EQ(-1, parse_u32("99999999999999999999999", UINT32_MAX, &v));
}

TEST(job_add_full)
{
	char err[ARG_ERR_MAX];
	struct uet_job_attrs j;

	ASSERT_EQ(0, PARSE(args_job_add, &j, "dev", "uet0", "id", "42",
			   "addr", "absolute", "pid", "100-199", "tc", "3",
			   "mode", "rod", "cc", "nscc-rccc"));
	ASSERT_STREQ("uet0", j.dev);
	ASSERT_EQ(42u, j.id);
	ASSERT_EQ(UET_ADDR_MODE_ABSOLUTE, j.addr_mode);
	ASSERT_EQ(100, j.pid_lo);
	ASSERT_EQ(199, j.pid_hi);
	ASSERT_EQ(3, j.tc);
	ASSERT_EQ(UET_DELIVERY_MODE_ROD, j.mode);
	ASSERT_EQ(UET_CC_NSCC_RCCC, j.cc);
	ASSERT_TRUE(UET_HAS(&j, UET_A_JOB_CC));
	ASSERT_TRUE(UET_HAS(&j, UET_A_JOB_ID) && UET_HAS(&j, UET_A_JOB_TC) &&
		    UET_HAS(&j, UET_A_JOB_PID_LO) && UET_HAS(&j, UET_A_JOB_PID_HI) &&
		    UET_HAS(&j, UET_A_JOB_ADDR_MODE) &&
		    UET_HAS(&j, UET_A_JOB_DELIVERY_MODE));
}

/* NSCC's parameters of a job: each set is present, the others not. */
TEST(job_add_nscc)
{
	char err[ARG_ERR_MAX];
	struct uet_job_attrs j;

	ASSERT_EQ(0, PARSE(args_job_add, &j, "dev", "uet0", "id", "7",
			   "cc-bdp", "40000", "cc-md-pct", "50",
			   "cc-base-rtt-us", "0"));
	ASSERT_EQ(40000u, j.nscc[UET_NSCC_BDP]);
	ASSERT_EQ(50u, j.nscc[UET_NSCC_MD_PCT]);
	ASSERT_TRUE(UET_HAS(&j, UET_A_JOB_CC_BDP) &&
		    UET_HAS(&j, UET_A_JOB_CC_MD_PCT) &&
		    UET_HAS(&j, UET_A_JOB_CC_BASE_RTT_US));
	ASSERT_FALSE(UET_HAS(&j, UET_A_JOB_CC_FI_PCT) ||
		     UET_HAS(&j, UET_A_JOB_CC_TARGET_US));
	ASSERT_EQ(-1, PARSE(args_job_add, &j, "dev", "uet0", "id", "7",
			    "cc-fi-pct", "lots"));
	ASSERT_STREQ("invalid cc-fi-pct \"lots\"", err);
}

/* A job's load balancing: each given is present, the other not. */
TEST(job_add_lb)
{
	char err[ARG_ERR_MAX];
	struct uet_job_attrs j;

	ASSERT_EQ(0, PARSE(args_job_add, &j, "dev", "uet0", "id", "7",
			   "lb", "oblivious", "lb-paths", "8"));
	ASSERT_EQ(UET_LB_MODE_OBLIVIOUS, j.lb);
	ASSERT_EQ(8u, j.lb_paths);
	ASSERT_TRUE(UET_HAS(&j, UET_A_JOB_LB) && UET_HAS(&j, UET_A_JOB_LB_PATHS));
	ASSERT_EQ(0, PARSE(args_job_add, &j, "dev", "uet0", "id", "7", "lb", "reps"));
	ASSERT_EQ(UET_LB_MODE_REPS, j.lb);
	ASSERT_FALSE(UET_HAS(&j, UET_A_JOB_LB_PATHS));
	/* ranges are the kernel's: 257 parses here, its policy refuses it */
	ASSERT_EQ(0, PARSE(args_job_add, &j, "dev", "uet0", "id", "7",
			   "lb-paths", "257"));
	ASSERT_EQ(257u, j.lb_paths);
	ASSERT_FALSE(UET_HAS(&j, UET_A_JOB_LB));
	ASSERT_EQ(-1, PARSE(args_job_add, &j, "dev", "uet0", "id", "7",
			    "lb", "ecmp"));
	ASSERT_STREQ("invalid lb \"ecmp\" (single, oblivious, reps)", err);
	ASSERT_EQ(-1, PARSE(args_job_add, &j, "dev", "uet0", "id", "7",
			    "lb-paths", "4294967296"));
	ASSERT_STREQ("invalid lb-paths \"4294967296\"", err);
	ASSERT_EQ(-1, PARSE(args_job_add, &j, "dev", "uet0", "id", "7",
			    "lb-paths", "-1"));
	ASSERT_STREQ("invalid lb-paths \"-1\"", err);
}

TEST(job_add_minimal)
{
	char err[ARG_ERR_MAX];
	struct uet_job_attrs j;

	ASSERT_EQ(0, PARSE(args_job_add, &j, "id", "0x10", "dev", "d"));
	ASSERT_EQ(16u, j.id);
	/* what is not given is left to the kernel's defaults */
	ASSERT_FALSE(UET_HAS(&j, UET_A_JOB_TC) || UET_HAS(&j, UET_A_JOB_PID_LO) ||
		     UET_HAS(&j, UET_A_JOB_DELIVERY_MODE) ||
		     UET_HAS(&j, UET_A_JOB_ADDR_MODE) || UET_HAS(&j, UET_A_JOB_CC) ||
		     UET_HAS(&j, UET_A_JOB_LB) || UET_HAS(&j, UET_A_JOB_LB_PATHS));
	/* a single PIDonFEP is a range of one */
	ASSERT_EQ(0, PARSE(args_job_add, &j, "dev", "d", "id", "1", "pid", "7"));
	ASSERT_EQ(7, j.pid_lo);
	ASSERT_EQ(7, j.pid_hi);
	/* ranges are the kernel's to judge: 4096 is passed on */
	ASSERT_EQ(0, PARSE(args_job_add, &j, "dev", "d", "id", "16777216",
			   "pid", "0-4096", "tc", "8"));
	ASSERT_EQ(16777216u, j.id);
	ASSERT_EQ(4096, j.pid_hi);
}

/* Each malformed job add, and the word its error must quote. */
TEST(job_add_errors)
{
	char err[ARG_ERR_MAX];
	struct uet_job_attrs j;

	ASSERT_EQ(-1, PARSE(args_job_add, &j, "dev", "uet0"));
	ASSERT_NE(NULL, strstr(err, "which job"));
	ASSERT_EQ(-1, PARSE(args_job_add, &j, "id", "1"));
	ASSERT_NE(NULL, strstr(err, "which device"));
	ASSERT_EQ(-1, PARSE(args_job_add, &j, "dev", "uet0", "id", "x1"));
	ASSERT_NE(NULL, strstr(err, "invalid id \"x1\""));
	ASSERT_EQ(-1, PARSE(args_job_add, &j, "dev", "uet0", "id", "1", "tc", "256"));
	ASSERT_NE(NULL, strstr(err, "invalid tc \"256\""));
	ASSERT_EQ(-1, PARSE(args_job_add, &j, "dev", "uet0", "id", "1", "cc", "reno"));
	ASSERT_NE(NULL, strstr(err, "invalid cc \"reno\""));
	ASSERT_EQ(-1, PARSE(args_job_add, &j, "dev", "uet0", "id", "1", "pid", "1-"));
	ASSERT_NE(NULL, strstr(err, "invalid pid range \"1-\""));
	ASSERT_EQ(-1, PARSE(args_job_add, &j, "dev", "uet0", "id", "1", "pid", "65536"));
	ASSERT_NE(NULL, strstr(err, "invalid pid range"));
	ASSERT_EQ(-1, PARSE(args_job_add, &j, "dev", "uet0", "id", "1", "mode", "RUD"));
	ASSERT_NE(NULL, strstr(err, "invalid mode \"RUD\""));
	ASSERT_EQ(-1, PARSE(args_job_add, &j, "dev", "uet0", "id", "1", "addr", "x"));
	ASSERT_NE(NULL, strstr(err, "invalid addr \"x\""));
	ASSERT_EQ(-1, PARSE(args_job_add, &j, "dev", "uet0", "id", "1", "colour", "red"));
	ASSERT_NE(NULL, strstr(err, "unknown argument \"colour\""));
	ASSERT_EQ(-1, PARSE(args_job_add, &j, "dev", "uet0", "id"));
	ASSERT_NE(NULL, strstr(err, "\"id\" needs a value"));
	ASSERT_EQ(-1, PARSE(args_job_add, &j, "dev",
			    "a-name-that-is-longer-than-sixty-three-characters-which-the-kernel-refuses"));
	ASSERT_NE(NULL, strstr(err, "invalid device name"));
	ASSERT_EQ(-1, PARSE(args_job_add, &j, "dev", "", "id", "1"));
	ASSERT_NE(NULL, strstr(err, "invalid device name \"\""));
}

TEST(dev_set)
{
	char err[ARG_ERR_MAX];
	struct uet_dev_attrs s;

	ASSERT_EQ(0, PARSE(args_dev_set, &s, "uet0", "rc-mode", "rod",
			   "max-payload", "4000", "ack-delay-us", "250",
			   "pdc-pool", "1000", "pdc-reserved", "24",
			   "pdc-per-source", "16",
			   "rto-min-us", "2000", "rto-max-us", "5000000",
			   "rto-initial-us", "30000", "pdc-idle-ms", "0",
			   "cc", "none", "cc-target-us", "40", "link-mbps", "100",
			   "tc-dscp", "0,10,18,26,34,46,48,0x38", "ctl-tc", "7",
			   "lb", "reps", "lb-paths", "16"));
	ASSERT_STREQ("uet0", s.name);
	ASSERT_EQ(UET_DELIVERY_MODE_ROD, s.rc_mode);
	ASSERT_EQ(4000u, s.max_payload);
	ASSERT_EQ(250u, s.ack_delay_us);
	ASSERT_EQ(1000u, s.pdc_pool);
	ASSERT_EQ(24u, s.pdc_reserved);
	ASSERT_EQ(16u, s.pdc_per_source);
	ASSERT_EQ(2000u, s.rto_min_us);
	ASSERT_EQ(5000000u, s.rto_max_us);
	ASSERT_EQ(30000u, s.rto_init_us);
	ASSERT_EQ(0u, s.pdc_idle_ms);
	ASSERT_EQ(UET_CC_NONE, s.cc);
	ASSERT_EQ(40u, s.nscc[UET_NSCC_TARGET_US]);
	ASSERT_EQ(100u, s.link_mbps);
	ASSERT_EQ(0, memcmp(s.tc_dscp, (uint8_t[]){ 0, 10, 18, 26, 34, 46, 48, 56 }, 8));
	ASSERT_EQ(7, s.ctl_tc);
	ASSERT_EQ(UET_LB_MODE_REPS, s.lb);
	ASSERT_EQ(16u, s.lb_paths);
	ASSERT_EQ(s.present, (1ULL << UET_A_DEV_RC_MODE) | (1ULL << UET_A_DEV_MAX_PAYLOAD) |
		  (1ULL << UET_A_DEV_ACK_DELAY_US) | (1ULL << UET_A_DEV_PDC_POOL) |
		  (1ULL << UET_A_DEV_PDC_RESERVED) | (1ULL << UET_A_DEV_RTO_MIN_US) |
		  (1ULL << UET_A_DEV_RTO_MAX_US) | (1ULL << UET_A_DEV_RTO_INIT_US) |
		  (1ULL << UET_A_DEV_PDC_IDLE_MS) | (1ULL << UET_A_DEV_PDC_PER_SOURCE) |
		  (1ULL << UET_A_DEV_CC) | (1ULL << UET_A_DEV_CC_TARGET_US) |
		  (1ULL << UET_A_DEV_LINK_MBPS) | (1ULL << UET_A_DEV_TC_DSCP) |
		  (1ULL << UET_A_DEV_CTL_TC) | (1ULL << UET_A_DEV_LB) |
		  (1ULL << UET_A_DEV_LB_PATHS));

	ASSERT_EQ(0, PARSE(args_dev_set, &s, "uet0", "pdc-pool", "7"));
	ASSERT_EQ(s.present, 1ULL << UET_A_DEV_PDC_POOL);
	/* ranges are the kernel's: 65536 parses here, its policy refuses it */
	ASSERT_EQ(0, PARSE(args_dev_set, &s, "uet0", "pdc-per-source", "0x10000"));
	ASSERT_EQ(0x10000u, s.pdc_per_source);
	ASSERT_EQ(s.present, 1ULL << UET_A_DEV_PDC_PER_SOURCE);
	ASSERT_EQ(0, PARSE(args_dev_set, &s, "uet0", "lb-paths", "0"));
	ASSERT_EQ(0u, s.lb_paths);
	ASSERT_EQ(s.present, 1ULL << UET_A_DEV_LB_PATHS);
	ASSERT_EQ(0, PARSE(args_dev_set, &s, "uet0", "lb", "single"));
	ASSERT_EQ(UET_LB_MODE_SINGLE, s.lb);
	ASSERT_EQ(s.present, 1ULL << UET_A_DEV_LB);
	ASSERT_EQ(0, PARSE(args_dev_set, &s, "uet0", "ssi", "0xcafebabe"));
	ASSERT_EQ(0xcafebabeu, s.ssi);
	ASSERT_EQ(s.present, 1ULL << UET_A_DEV_SSI);
	ASSERT_EQ(-1, PARSE(args_dev_set, &s, "uet0", "ssi", "0x100000000"));
	ASSERT_NE(NULL, strstr(err, "invalid ssi \"0x100000000\""));
	ASSERT_EQ(0, PARSE(args_dev_set, &s, "uet0", "udp-port", "49150"));
	ASSERT_EQ(49150, s.udp_port);
	ASSERT_EQ(s.present, 1ULL << UET_A_DEV_UDP_PORT);
	ASSERT_EQ(-1, PARSE(args_dev_set, &s, "uet0", "udp-port", "0"));
	ASSERT_NE(NULL, strstr(err, "invalid udp-port \"0\""));
	ASSERT_EQ(-1, PARSE(args_dev_set, &s, "uet0", "udp-port", "65536"));
	ASSERT_EQ(0, PARSE(args_dev_set, &s, "uet0", "encap", "ip"));
	ASSERT_EQ(UET_ENCAP_IP, s.encap);
	ASSERT_EQ(s.present, 1ULL << UET_A_DEV_ENCAP);
	ASSERT_EQ(0, PARSE(args_dev_set, &s, "uet0", "encap", "udp"));
	ASSERT_EQ(UET_ENCAP_UDP, s.encap);
	ASSERT_EQ(0, PARSE(args_dev_set, &s, "uet0", "encap", "udp-zero-csum"));
	ASSERT_EQ(UET_ENCAP_UDP_ZERO_CSUM, s.encap);
	ASSERT_EQ(-1, PARSE(args_dev_set, &s, "uet0", "encap", "gre"));
	ASSERT_NE(NULL, strstr(err, "invalid encap \"gre\" (udp, ip, udp-zero-csum)"));
	ASSERT_EQ(0, PARSE(args_dev_set, &s, "uet0", "ra-floor-mbps", "25"));
	ASSERT_EQ(25u, s.ra_floor_mbps);
	ASSERT_EQ(s.present, 1ULL << UET_A_DEV_RA_FLOOR_MBPS);
}

TEST(dev_set_errors)
{
	char err[ARG_ERR_MAX];
	struct uet_dev_attrs s;

	ASSERT_EQ(-1, args_dev_set(0, NULL, &s, err));
	ASSERT_NE(NULL, strstr(err, "which device"));
	ASSERT_EQ(-1, PARSE(args_dev_set, &s, "uet0"));
	ASSERT_NE(NULL, strstr(err, "nothing to set"));
	ASSERT_EQ(-1, PARSE(args_dev_set, &s, "uet0", "rc-mode", "fast"));
	ASSERT_NE(NULL, strstr(err, "invalid rc-mode \"fast\""));
	ASSERT_EQ(-1, PARSE(args_dev_set, &s, "uet0", "cc", "dcqcn"));
	ASSERT_NE(NULL, strstr(err, "invalid cc \"dcqcn\" (none, nscc, rccc, nscc-rccc)"));
	ASSERT_EQ(-1, PARSE(args_dev_set, &s, "uet0", "lb", "REPS"));
	ASSERT_STREQ("invalid lb \"REPS\" (single, oblivious, reps)", err);
	ASSERT_EQ(-1, PARSE(args_dev_set, &s, "uet0", "lb"));
	ASSERT_NE(NULL, strstr(err, "\"lb\" needs a value"));
	ASSERT_EQ(-1, PARSE(args_dev_set, &s, "uet0", "lb-paths", "many"));
	ASSERT_STREQ("invalid lb-paths \"many\"", err);
	ASSERT_EQ(-1, PARSE(args_dev_set, &s, "uet0", "lb-paths", "4294967296"));
	ASSERT_STREQ("invalid lb-paths \"4294967296\"", err);
	/* eight DSCPs of six bits, no more, no fewer */
	ASSERT_EQ(-1, PARSE(args_dev_set, &s, "uet0", "tc-dscp", "0,8,16"));
	ASSERT_NE(NULL, strstr(err, "invalid tc-dscp \"0,8,16\" (8 DSCPs 0-63"));
	ASSERT_EQ(-1, PARSE(args_dev_set, &s, "uet0", "tc-dscp", "0,8,16,24,32,40,48,56,0"));
	ASSERT_NE(NULL, strstr(err, "invalid tc-dscp"));
	ASSERT_EQ(-1, PARSE(args_dev_set, &s, "uet0", "tc-dscp", "0,8,16,24,32,40,48,64"));
	ASSERT_NE(NULL, strstr(err, "invalid tc-dscp"));
	ASSERT_EQ(-1, PARSE(args_dev_set, &s, "uet0", "tc-dscp", "0,,8,16,24,32,40,48,56"));
	ASSERT_NE(NULL, strstr(err, "invalid tc-dscp"));
	ASSERT_EQ(-1, PARSE(args_dev_set, &s, "uet0", "tc-dscp", "0,8,16,24,32,40,48,56,"));
	ASSERT_NE(NULL, strstr(err, "invalid tc-dscp"));
	ASSERT_EQ(-1, PARSE(args_dev_set, &s, "uet0", "ctl-tc", "256"));
	ASSERT_NE(NULL, strstr(err, "invalid ctl-tc \"256\""));
	ASSERT_EQ(-1, PARSE(args_dev_set, &s, "uet0", "pdc-pool", "-5"));
	ASSERT_NE(NULL, strstr(err, "invalid pdc-pool \"-5\""));
	ASSERT_EQ(-1, PARSE(args_dev_set, &s, "uet0", "rto-max-us", "4294967296"));
	ASSERT_NE(NULL, strstr(err, "invalid rto-max-us"));
	ASSERT_EQ(-1, PARSE(args_dev_set, &s, "uet0", "pdc-per-source", "many"));
	ASSERT_NE(NULL, strstr(err, "invalid pdc-per-source \"many\""));
	ASSERT_EQ(-1, PARSE(args_dev_set, &s, "uet0", "pdc-per-source", "4294967296"));
	ASSERT_NE(NULL, strstr(err, "invalid pdc-per-source \"4294967296\""));
	ASSERT_EQ(-1, PARSE(args_dev_set, &s, "uet0", "pdc-per-source"));
	ASSERT_NE(NULL, strstr(err, "\"pdc-per-source\" needs a value"));
	ASSERT_EQ(-1, PARSE(args_dev_set, &s, "uet0", "mtu", "1500"));
	ASSERT_NE(NULL, strstr(err, "unknown setting \"mtu\""));
	ASSERT_EQ(-1, PARSE(args_dev_set, &s, "uet0", "pdc-pool"));
	ASSERT_NE(NULL, strstr(err, "needs a value"));
}

TEST(selections)
{
	char err[ARG_ERR_MAX];
	struct sel sel;

	ASSERT_EQ(0, args_sel(0, NULL, "id", 10, &sel, err));
	ASSERT_FALSE(sel.has_dev || sel.has_id);
	ASSERT_EQ(0, args_sel(4, ARGV("id", "10", "dev", "uet1"), "id", 10, &sel, err));
	ASSERT_TRUE(sel.has_dev && sel.has_id);
	ASSERT_STREQ("uet1", sel.dev);
	ASSERT_EQ(10u, sel.id);
	ASSERT_EQ(-1, args_sel(2, ARGV("id", "11"), "id", 10, &sel, err));
	ASSERT_NE(NULL, strstr(err, "invalid id \"11\""));
	ASSERT_EQ(-1, args_sel(2, ARGV("job", "1"), "id", 10, &sel, err));
	ASSERT_NE(NULL, strstr(err, "unknown argument \"job\""));
	ASSERT_EQ(0, args_sel(2, ARGV("job", "1"), "job", 10, &sel, err));
	ASSERT_EQ(-1, args_sel(1, ARGV("dev"), "id", 10, &sel, err));
	ASSERT_NE(NULL, strstr(err, "needs a value"));
}

/* show: no device is every device; one object needs its device. */
TEST(show_selections)
{
	char err[ARG_ERR_MAX];
	struct sel sel;

	ASSERT_EQ(0, args_show(0, NULL, "job", UINT32_MAX, &sel, err));
	ASSERT_FALSE(sel.has_dev || sel.has_id);
	ASSERT_EQ(0, args_show(2, ARGV("dev", "uet2"), "job", UINT32_MAX, &sel, err));
	ASSERT_TRUE(sel.has_dev && !sel.has_id);
	ASSERT_STREQ("uet2", sel.dev);
	ASSERT_EQ(0, args_show(4, ARGV("job", "7", "dev", "uet0"), "job", UINT32_MAX,
			       &sel, err));
	ASSERT_TRUE(sel.has_dev && sel.has_id);
	ASSERT_EQ(7u, sel.id);
	ASSERT_EQ(-1, args_show(2, ARGV("job", "7"), "job", UINT32_MAX, &sel, err));
	ASSERT_NE(NULL, strstr(err, "which device? (dev DEV)"));
	ASSERT_EQ(-1, args_show(2, ARGV("id", "70000"), "id", UINT16_MAX, &sel, err));
	ASSERT_NE(NULL, strstr(err, "invalid id \"70000\""));
	ASSERT_EQ(-1, args_show(2, ARGV("id", "1"), NULL, 0, &sel, err));
	ASSERT_NE(NULL, strstr(err, "unknown argument \"id\""));
	ASSERT_EQ(-1, args_show(1, ARGV("dev"), "id", 10, &sel, err));
	ASSERT_NE(NULL, strstr(err, "needs a value"));
}

TEST(profile_set)
{
	char err[ARG_ERR_MAX];
	struct sel sel;
	uint8_t p;

	ASSERT_EQ(0, args_profile_set(3, ARGV("dev", "uet0", "ai-full"), &sel, &p, err));
	ASSERT_EQ(UET_PROFILE_AI_FULL, p);
	ASSERT_STREQ("uet0", sel.dev);
	ASSERT_EQ(-1, args_profile_set(3, ARGV("dev", "uet0", "hpc2"), &sel, &p, err));
	ASSERT_NE(NULL, strstr(err, "invalid profile \"hpc2\""));
	ASSERT_EQ(-1, args_profile_set(1, ARGV("hpc"), &sel, &p, err));
	ASSERT_NE(NULL, strstr(err, "which device"));
	ASSERT_EQ(-1, args_profile_set(0, NULL, &sel, &p, err));
	ASSERT_NE(NULL, strstr(err, "which profile"));
}

TEST(names_round_trip)
{
	unsigned int i;

	for (i = 0; uet_delivery_mode_name(i); i++)
		ASSERT_EQ((int)i, uet_delivery_mode_parse(uet_delivery_mode_name(i)));
	ASSERT_EQ(4u, i);
	for (i = 0; uet_profile_name(i); i++)
		ASSERT_EQ((int)i, uet_profile_parse(uet_profile_name(i)));
	ASSERT_EQ(3u, i);
	for (i = 0; uet_addr_mode_name(i); i++)
		ASSERT_EQ((int)i, uet_addr_mode_parse(uet_addr_mode_name(i)));
	ASSERT_EQ(2u, i);
	for (i = 0; uet_lb_mode_name(i); i++)
		ASSERT_EQ((int)i, uet_lb_mode_parse(uet_lb_mode_name(i)));
	ASSERT_EQ(UET_LB_MODE_REPS + 1u, i);
	ASSERT_STREQ("oblivious", uet_lb_mode_name(UET_LB_MODE_OBLIVIOUS));
	ASSERT_EQ(-1, uet_lb_mode_parse("spray"));
	for (i = 0; uet_feature_name(i); i++)
		;
	ASSERT_EQ(12u, i);
	ASSERT_STREQ("closing", uet_pdc_state_name(UET_PDC_STATE_CLOSING));
	ASSERT_EQ(NULL, uet_pdc_state_name(5));
	ASSERT_EQ(-1, uet_delivery_mode_parse(""));
}

/* key add: every word; the key itself only as a file's name. */
TEST(key_args)
{
	char err[ARG_ERR_MAX];
	struct uet_key_attrs k;
	const char *file;

	ASSERT_EQ(0, args_key(12, ARGV("dev", "uet0", "job", "7", "an", "1",
				       "epoch", "65535", "mode", "cluster",
				       "key", "/k"), &k, &file, err));
	ASSERT_STREQ("uet0", k.dev);
	ASSERT_EQ(7u, k.job);
	ASSERT_EQ(1u, k.an);
	ASSERT_EQ(65535u, k.epoch);
	ASSERT_EQ(UET_KEY_MODE_CLUSTER, k.mode);
	ASSERT_STREQ("/k", file);
	ASSERT_TRUE(UET_HAS(&k, UET_A_KEY_DEV_NAME) && UET_HAS(&k, UET_A_KEY_JOB_ID) &&
		    UET_HAS(&k, UET_A_KEY_AN) && UET_HAS(&k, UET_A_KEY_EPOCH) &&
		    UET_HAS(&k, UET_A_KEY_MODE));
	ASSERT_EQ(0, args_key(2, ARGV("dev", "uet0"), &k, &file, err));
	ASSERT_EQ(NULL, file);
	ASSERT_FALSE(UET_HAS(&k, UET_A_KEY_AN) || UET_HAS(&k, UET_A_KEY_EPOCH));
	ASSERT_EQ(-1, args_key(2, ARGV("epoch", "65536"), &k, &file, err));
	ASSERT_NE(NULL, strstr(err, "invalid epoch \"65536\""));
	ASSERT_EQ(-1, args_key(2, ARGV("an", "256"), &k, &file, err));
	ASSERT_NE(NULL, strstr(err, "invalid an \"256\""));
	ASSERT_EQ(-1, args_key(2, ARGV("mode", "psk"), &k, &file, err));
	ASSERT_NE(NULL, strstr(err, "invalid mode \"psk\""));
	ASSERT_EQ(-1, args_key(2, ARGV("secret", "00"), &k, &file, err));
	ASSERT_NE(NULL, strstr(err, "unknown argument \"secret\""));
	ASSERT_EQ(-1, args_key(1, ARGV("key"), &k, &file, err));
	ASSERT_NE(NULL, strstr(err, "needs a value"));
	ASSERT_EQ(0, uet_key_mode_parse("direct"));
	ASSERT_STREQ("cluster", uet_key_mode_name(UET_KEY_MODE_CLUSTER));
	ASSERT_EQ(NULL, uet_key_mode_name(2));
}

/* Write @len bytes of @data to a new temporary file, named in @path. */
static void key_file(char *path, const void *data, size_t len)
{
	int fd;

	strcpy(path, "/tmp/uetctl-key-XXXXXX");
	fd = mkstemp(path);
	if (fd < 0 || write(fd, data, len) != (ssize_t)len)
		abort();
	close(fd);
}

/* key files: 32 bytes, or 64 hex digits with white space around them. */
TEST(key_files)
{
	static const char *bad[] = {
		"00112233445566778899aabbccddeeff00112233445566778899aabbccddee\n",
		"00112233445566778899aabbccddeeff00112233445566778899aabbccddeeff00\n",
		"00112233445566778899aabbccddeeff00112233445566778899aabbccddeefg\n",
		"0011223344556677 8899aabbccddeeff00112233445566778899aabbccddeeff\n",
		"",
	};
	uint8_t raw[UET_KEY_LEN], key[UET_KEY_LEN];
	char err[ARG_ERR_MAX], path[64];
	unsigned int i;

	for (i = 0; i < sizeof(raw); i++)
		raw[i] = (uint8_t)(i * 0x11);
	key_file(path, raw, sizeof(raw));
	ASSERT_EQ(0, key_read(path, key, err));
	unlink(path);
	ASSERT_EQ(0, memcmp(raw, key, sizeof(key)));

	key_file(path, " 00112233445566778899AABBCCDDEEFF00112233445566778899aabbccddeeff\r\n", 67);
	memset(key, 0, sizeof(key));
	ASSERT_EQ(0, key_read(path, key, err));
	unlink(path);
	for (i = 0; i < 16; i++)
		ASSERT_EQ(raw[i], key[i]);
	ASSERT_EQ(0, memcmp(raw, key + 16, 16));

	for (i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		key_file(path, bad[i], strlen(bad[i]));
		memset(key, 0x5a, sizeof(key));
		EXPECT_EQ(-1, key_read(path, key, err));
		unlink(path);
		EXPECT_NE(NULL, strstr(err, "not 32 bytes nor 64 hex digits"));
		/* nothing of a refused key is left behind */
		EXPECT_EQ(NULL, memchr(key, 0x5a, sizeof(key)));
	}
	key_file(path, raw, sizeof(raw) - 1);
	EXPECT_EQ(-1, key_read(path, key, err));
	unlink(path);
	/* NUL bytes are not white space */
	key_file(path, "00112233445566778899aabbccddeeff00112233445566778899aabbccddeeff\0\0", 66);
	EXPECT_EQ(-1, key_read(path, key, err));
	unlink(path);
	/* 32 hex digits: half a key in hex, not 32 raw bytes */
	key_file(path, "00112233445566778899aabbccddeeff", 32);
	EXPECT_EQ(-1, key_read(path, key, err));
	unlink(path);
	EXPECT_NE(NULL, strstr(err, "half a key"));
	/* a directory: read() fails, and says why */
	EXPECT_EQ(-1, key_read("/tmp", key, err));
	EXPECT_NE(NULL, strstr(err, "Is a directory"));
	EXPECT_EQ(-1, key_read("/nonexistent/key", key, err));
	EXPECT_NE(NULL, strstr(err, "No such file"));
}

TEST_HARNESS_MAIN
