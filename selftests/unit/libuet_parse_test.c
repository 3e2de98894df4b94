// SPDX-License-Identifier: GPL-2.0
/*
 * Unit tests of libuet's netlink reply parser (userspace/libuet/parse.c):
 * replies built byte by byte as the kernel sends them, and what each must
 * become: objects, the kernel's errno and extended ACK message, the end
 * of a dump, and -EPROTO for every malformed message.
 */
#include "kselftest_harness.h"

#include <string.h>
#include <linux/genetlink.h>
#include <linux/netlink.h>

#include "nl_priv.h"

#define FAMILY	0x20

/* A reply under construction, aligned as recv() fills a buffer. */
struct msgbuf {
	union {
		uint8_t b[1024];
		uint32_t align;
	};
	size_t len;
	size_t start;		/* of the message being built */
};

static void put(struct msgbuf *m, const void *p, size_t n)
{
	if (n)
		memcpy(m->b + m->len, p, n);
	m->len += n;
	while (m->len % 4)
		m->b[m->len++] = 0;
}

static void msg_begin(struct msgbuf *m, uint16_t type, uint16_t flags)
{
	struct nlmsghdr h = { .nlmsg_type = type, .nlmsg_flags = flags };

	m->start = m->len;
	put(m, &h, sizeof(h));
}

static void msg_end(struct msgbuf *m)
{
	((struct nlmsghdr *)(m->b + m->start))->nlmsg_len = m->len - m->start;
}

static void genl(struct msgbuf *m, uint8_t cmd)
{
	struct genlmsghdr g = { .cmd = cmd, .version = 1 };

	put(m, &g, sizeof(g));
}

static void attr(struct msgbuf *m, uint16_t type, const void *p, uint16_t n)
{
	struct nlattr a = { .nla_len = sizeof(a) + n, .nla_type = type };

	memcpy(m->b + m->len, &a, sizeof(a));
	m->len += sizeof(a);
	put(m, p, n);
}

static void attr_u32(struct msgbuf *m, uint16_t type, uint32_t v)
{
	attr(m, type, &v, sizeof(v));
}

static void attr_u16(struct msgbuf *m, uint16_t type, uint16_t v)
{
	attr(m, type, &v, sizeof(v));
}

static void attr_u8(struct msgbuf *m, uint16_t type, uint8_t v)
{
	attr(m, type, &v, sizeof(v));
}

static void attr_u64(struct msgbuf *m, uint16_t type, uint64_t v)
{
	attr(m, type, &v, sizeof(v));
}

static void attr_str(struct msgbuf *m, uint16_t type, const char *s)
{
	attr(m, type, s, strlen(s) + 1);
}

static void done(struct msgbuf *m, int err, const char *extack)
{
	msg_begin(m, NLMSG_DONE, NLM_F_MULTI | (extack ? NLM_F_ACK_TLVS : 0));
	put(m, &err, sizeof(err));
	if (extack)
		attr_str(m, NLMSGERR_ATTR_MSG, extack);
	msg_end(m);
}

static void error(struct msgbuf *m, int err, const char *extack)
{
	struct nlmsgerr e = { .error = err };

	msg_begin(m, NLMSG_ERROR, NLM_F_CAPPED | (extack ? NLM_F_ACK_TLVS : 0));
	e.msg.nlmsg_len = sizeof(e.msg);
	put(m, &e, sizeof(e));
	if (extack)
		attr_str(m, NLMSGERR_ATTR_MSG, extack);
	msg_end(m);
}

static struct uet_job_attrs jobs[4];
static int njobs;

static int on_job(const struct uet_job_attrs *j, void *arg)
{
	(void)arg;
	if (njobs < 4)
		jobs[njobs] = *j;
	njobs++;
	return 0;
}

static void job_msg(struct msgbuf *m, uint32_t id)
{
	msg_begin(m, FAMILY, NLM_F_MULTI);
	genl(m, UET_CMD_JOB_GET);
	attr_str(m, UET_A_JOB_DEV_NAME, "uet0");
	attr_u32(m, UET_A_JOB_ID, id);
	attr_u8(m, UET_A_JOB_ADDR_MODE, UET_ADDR_MODE_ABSOLUTE);
	attr_u16(m, UET_A_JOB_PID_LO, 100);
	attr_u16(m, UET_A_JOB_PID_HI, 199);
	attr_u8(m, UET_A_JOB_TC, 3);
	attr_u8(m, UET_A_JOB_DELIVERY_MODE, UET_DELIVERY_MODE_ROD);
	attr_u64(m, UET_A_JOB_TX_BYTES, 1ULL << 40);
	attr_u32(m, 200, 7);	/* from a newer kernel: skipped */
	msg_end(m);
}

static struct uet_nl_reply job_reply(void)
{
	struct uet_nl_reply r = { .cmd = UET_CMD_JOB_GET, .fn = on_job };

	njobs = 0;
	return r;
}

TEST(dump_of_jobs)
{
	struct uet_nl_reply r = job_reply();
	struct msgbuf m = { .len = 0 };

	job_msg(&m, 42);
	job_msg(&m, 43);
	ASSERT_EQ(1, uet_nl_parse(m.b, m.len, 0, 0, &r));	/* more to come */
	m.len = 0;
	job_msg(&m, 44);
	done(&m, 0, NULL);
	ASSERT_EQ(0, uet_nl_parse(m.b, m.len, 0, 0, &r));	/* the end */
	ASSERT_EQ(0, r.error);
	ASSERT_EQ(3, njobs);
	ASSERT_EQ(3u, r.count);
	ASSERT_STREQ("uet0", jobs[0].dev);
	ASSERT_EQ(42u, jobs[0].id);
	ASSERT_EQ(44u, jobs[2].id);
	ASSERT_EQ(UET_ADDR_MODE_ABSOLUTE, jobs[0].addr_mode);
	ASSERT_EQ(100, jobs[0].pid_lo);
	ASSERT_EQ(199, jobs[0].pid_hi);
	ASSERT_EQ(3, jobs[0].tc);
	ASSERT_EQ(UET_DELIVERY_MODE_ROD, jobs[0].mode);
	ASSERT_EQ(1ULL << 40, jobs[0].tx_bytes);
	ASSERT_TRUE(UET_HAS(&jobs[0], UET_A_JOB_TX_BYTES));
	ASSERT_FALSE(UET_HAS(&jobs[0], UET_A_JOB_ERRORS));
}

static struct uet_dev_attrs dev;
static int ndevs;

static int on_dev(const struct uet_dev_attrs *d, void *arg)
{
	(void)arg;
	dev = *d;
	ndevs++;
	return 0;
}

/* A device's DSCP map, eight bytes, and its congestion settings. */
TEST(dev_with_dscp_map)
{
	static const uint8_t map[8] = { 26, 8, 16, 24, 32, 40, 48, 56 };
	struct uet_nl_reply r = { .cmd = UET_CMD_DEV_GET, .fn = on_dev };
	struct msgbuf m = { .len = 0 };

	ndevs = 0;
	msg_begin(&m, FAMILY, 0);
	genl(&m, UET_CMD_DEV_GET);
	attr_str(&m, UET_A_DEV_NAME, "uet0");
	attr_u8(&m, UET_A_DEV_CC, UET_CC_NSCC);
	attr_u32(&m, UET_A_DEV_LINK_MBPS, 10000);
	attr(&m, UET_A_DEV_TC_DSCP, map, sizeof(map));
	attr_u8(&m, UET_A_DEV_CTL_TC, 6);
	msg_end(&m);
	ASSERT_EQ(1, uet_nl_parse(m.b, m.len, 0, 0, &r));	/* no end yet */
	ASSERT_EQ(1, ndevs);
	ASSERT_EQ(UET_CC_NSCC, dev.cc);
	ASSERT_EQ(10000u, dev.link_mbps);
	ASSERT_TRUE(UET_HAS(&dev, UET_A_DEV_TC_DSCP));
	ASSERT_EQ(0, memcmp(map, dev.tc_dscp, sizeof(map)));
	ASSERT_EQ(6, dev.ctl_tc);

	/* a map of another length is not one: left out */
	m.len = 0;
	msg_begin(&m, FAMILY, 0);
	genl(&m, UET_CMD_DEV_GET);
	attr_str(&m, UET_A_DEV_NAME, "uet0");
	attr(&m, UET_A_DEV_TC_DSCP, map, 7);
	msg_end(&m);
	ASSERT_EQ(1, uet_nl_parse(m.b, m.len, 0, 0, &r));	/* no end yet */
	ASSERT_EQ(2, ndevs);
	ASSERT_FALSE(UET_HAS(&dev, UET_A_DEV_TC_DSCP));
}

/* A device's load balancing, and a job's when it has its own. */
TEST(lb_of_device_and_job)
{
	struct uet_nl_reply r = { .cmd = UET_CMD_DEV_GET, .fn = on_dev };
	struct msgbuf m = { .len = 0 };

	ndevs = 0;
	msg_begin(&m, FAMILY, 0);
	genl(&m, UET_CMD_DEV_GET);
	attr_str(&m, UET_A_DEV_NAME, "uet0");
	attr_u8(&m, UET_A_DEV_LB, UET_LB_MODE_REPS);
	attr_u32(&m, UET_A_DEV_LB_PATHS, 64);
	attr_u32(&m, UET_A_DEV_SSI, 0xcafebabe);
	attr_u16(&m, UET_A_DEV_UDP_PORT, 49150);
	attr_u8(&m, UET_A_DEV_ENCAP, UET_ENCAP_IP);
	attr_u32(&m, UET_A_DEV_RA_FLOOR_MBPS, 10);
	msg_end(&m);
	ASSERT_EQ(1, uet_nl_parse(m.b, m.len, 0, 0, &r));	/* no end yet */
	ASSERT_EQ(1, ndevs);
	ASSERT_TRUE(UET_HAS(&dev, UET_A_DEV_LB) && UET_HAS(&dev, UET_A_DEV_LB_PATHS));
	ASSERT_EQ(UET_LB_MODE_REPS, dev.lb);
	ASSERT_EQ(64u, dev.lb_paths);
	ASSERT_STREQ("reps", uet_lb_mode_name(dev.lb));
	ASSERT_TRUE(UET_HAS(&dev, UET_A_DEV_SSI));
	ASSERT_EQ(0xcafebabeu, dev.ssi);
	ASSERT_TRUE(UET_HAS(&dev, UET_A_DEV_UDP_PORT));
	ASSERT_EQ(49150, dev.udp_port);
	ASSERT_TRUE(UET_HAS(&dev, UET_A_DEV_ENCAP));
	ASSERT_STREQ("ip", uet_encap_name(dev.encap));
	ASSERT_EQ(UET_ENCAP_UDP, uet_encap_parse("udp"));
	ASSERT_EQ(-1, uet_encap_parse("gre"));
	ASSERT_TRUE(UET_HAS(&dev, UET_A_DEV_RA_FLOOR_MBPS));
	ASSERT_EQ(10u, dev.ra_floor_mbps);

	r = job_reply();
	m.len = 0;
	msg_begin(&m, FAMILY, NLM_F_MULTI);
	genl(&m, UET_CMD_JOB_GET);
	attr_u32(&m, UET_A_JOB_ID, 5);
	attr_u8(&m, UET_A_JOB_LB, UET_LB_MODE_OBLIVIOUS);
	attr_u32(&m, UET_A_JOB_LB_PATHS, 8);
	attr(&m, UET_A_JOB_SECURE, NULL, 0);
	msg_end(&m);
	job_msg(&m, 6);		/* the device's: neither; not secure */
	done(&m, 0, NULL);
	ASSERT_EQ(0, uet_nl_parse(m.b, m.len, 0, 0, &r));
	ASSERT_EQ(2, njobs);
	ASSERT_TRUE(UET_HAS(&jobs[0], UET_A_JOB_LB) &&
		    UET_HAS(&jobs[0], UET_A_JOB_LB_PATHS));
	ASSERT_EQ(UET_LB_MODE_OBLIVIOUS, jobs[0].lb);
	ASSERT_EQ(8u, jobs[0].lb_paths);
	ASSERT_FALSE(UET_HAS(&jobs[1], UET_A_JOB_LB) ||
		     UET_HAS(&jobs[1], UET_A_JOB_LB_PATHS));
	ASSERT_TRUE(UET_HAS(&jobs[0], UET_A_JOB_SECURE));
	ASSERT_FALSE(UET_HAS(&jobs[1], UET_A_JOB_SECURE));
}

/* A mode of a newer kernel has no name; a value of the wrong width is malformed. */
TEST(lb_unknown_and_malformed)
{
	struct uet_nl_reply r = { .cmd = UET_CMD_DEV_GET, .fn = on_dev };
	struct msgbuf m = { .len = 0 };

	ndevs = 0;
	msg_begin(&m, FAMILY, 0);
	genl(&m, UET_CMD_DEV_GET);
	attr_u8(&m, UET_A_DEV_LB, UET_LB_MODE_REPS + 1);
	msg_end(&m);
	ASSERT_EQ(1, uet_nl_parse(m.b, m.len, 0, 0, &r));
	ASSERT_EQ(UET_LB_MODE_REPS + 1, dev.lb);
	ASSERT_EQ(NULL, uet_lb_mode_name(dev.lb));
	ASSERT_EQ(-1, uet_lb_mode_parse("ecmp"));

	m.len = 0;
	msg_begin(&m, FAMILY, 0);
	genl(&m, UET_CMD_DEV_GET);
	attr_u16(&m, UET_A_DEV_LB_PATHS, 64);		/* a u32 */
	msg_end(&m);
	ASSERT_EQ(-1, uet_nl_parse(m.b, m.len, 0, 0, &r));
	ASSERT_EQ(-EPROTO, r.error);
	ASSERT_EQ(1, ndevs);

	r = job_reply();
	m.len = 0;
	msg_begin(&m, FAMILY, 0);
	genl(&m, UET_CMD_JOB_GET);
	attr_u32(&m, UET_A_JOB_LB, UET_LB_MODE_REPS);	/* a u8 */
	msg_end(&m);
	ASSERT_EQ(-1, uet_nl_parse(m.b, m.len, 0, 0, &r));
	ASSERT_EQ(-EPROTO, r.error);
	ASSERT_EQ(0, njobs);
}

static struct uet_key_attrs key;
static int nkeys;

static int on_key(const struct uet_key_attrs *k, void *arg)
{
	key = *k;
	nkeys++;
	return 0;
}

/* A key's description; a reply that carries key material is refused. */
TEST(key_described_never_given)
{
	struct uet_nl_reply r = { .cmd = UET_CMD_KEY_GET, .fn = on_key };
	struct msgbuf m = { .len = 0 };
	uint8_t material[UET_KEY_LEN] = { 1 };

	nkeys = 0;
	msg_begin(&m, FAMILY, NLM_F_MULTI);
	genl(&m, UET_CMD_KEY_GET);
	attr_str(&m, UET_A_KEY_DEV_NAME, "uet0");
	attr_u32(&m, UET_A_KEY_JOB_ID, 7);
	attr_u8(&m, UET_A_KEY_AN, 1);
	attr_u16(&m, UET_A_KEY_EPOCH, 513);
	attr_u8(&m, UET_A_KEY_MODE, UET_KEY_MODE_CLUSTER);
	attr_u8(&m, UET_A_KEY_TX, 1);
	msg_end(&m);
	done(&m, 0, NULL);
	ASSERT_EQ(0, uet_nl_parse(m.b, m.len, 0, 0, &r));
	ASSERT_EQ(1, nkeys);
	ASSERT_STREQ("uet0", key.dev);
	ASSERT_EQ(7u, key.job);
	ASSERT_EQ(1u, key.an);
	ASSERT_EQ(513u, key.epoch);
	ASSERT_EQ(UET_KEY_MODE_CLUSTER, key.mode);
	ASSERT_EQ(1u, key.tx);
	ASSERT_STREQ("cluster", uet_key_mode_name(key.mode));

	r = (struct uet_nl_reply){ .cmd = UET_CMD_KEY_GET, .fn = on_key };
	m.len = 0;
	msg_begin(&m, FAMILY, 0);
	genl(&m, UET_CMD_KEY_GET);
	attr_u32(&m, UET_A_KEY_JOB_ID, 7);
	attr(&m, UET_A_KEY_KEY, material, sizeof(material));
	msg_end(&m);
	ASSERT_EQ(-1, uet_nl_parse(m.b, m.len, 0, 0, &r));
	ASSERT_EQ(-EPROTO, r.error);
	ASSERT_EQ(1, nkeys);
}

TEST(error_with_extack)
{
	struct uet_nl_reply r = job_reply();
	struct msgbuf m = { .len = 0 };

	error(&m, -EEXIST, "A job with this ID exists on this device");
	ASSERT_EQ(-1, uet_nl_parse(m.b, m.len, 0, 0, &r));
	ASSERT_EQ(-EEXIST, r.error);
	ASSERT_STREQ("A job with this ID exists on this device", r.errmsg);
}

TEST(error_uncapped_skips_the_request)
{
	struct uet_nl_reply r = job_reply();
	struct msgbuf m = { .len = 0 };
	struct nlmsgerr e = { .error = -EPERM };
	uint8_t request[12] = { 1, 1 };

	msg_begin(&m, NLMSG_ERROR, NLM_F_ACK_TLVS);
	e.msg.nlmsg_len = sizeof(e.msg) + sizeof(request);
	put(&m, &e, sizeof(e));
	put(&m, request, sizeof(request));
	attr_str(&m, NLMSGERR_ATTR_MSG, "no");
	msg_end(&m);
	ASSERT_EQ(-1, uet_nl_parse(m.b, m.len, 0, 0, &r));
	ASSERT_EQ(-EPERM, r.error);
	ASSERT_STREQ("no", r.errmsg);
}

TEST(ack)
{
	struct uet_nl_reply r = job_reply();
	struct msgbuf m = { .len = 0 };

	error(&m, 0, NULL);
	ASSERT_EQ(0, uet_nl_parse(m.b, m.len, 0, 0, &r));
	ASSERT_EQ(0, r.error);
	ASSERT_STREQ("", r.errmsg);
}

TEST(dump_failing_at_its_end)
{
	struct uet_nl_reply r = job_reply();
	struct msgbuf m = { .len = 0 };

	done(&m, -ENODEV, "No uet device of this name in this network namespace");
	ASSERT_EQ(-1, uet_nl_parse(m.b, m.len, 0, 0, &r));
	ASSERT_EQ(-ENODEV, r.error);
	ASSERT_STREQ("No uet device of this name in this network namespace", r.errmsg);
}

TEST(attribute_of_the_wrong_type)
{
	struct uet_nl_reply r = job_reply();
	struct msgbuf m = { .len = 0 };

	msg_begin(&m, FAMILY, 0);
	genl(&m, UET_CMD_JOB_GET);
	attr_u16(&m, UET_A_JOB_ID, 1);		/* a u32 */
	msg_end(&m);
	ASSERT_EQ(-1, uet_nl_parse(m.b, m.len, 0, 0, &r));
	ASSERT_EQ(-EPROTO, r.error);
	ASSERT_EQ(0, njobs);
}

TEST(string_without_nul)
{
	struct uet_nl_reply r = job_reply();
	struct msgbuf m = { .len = 0 };

	msg_begin(&m, FAMILY, 0);
	genl(&m, UET_CMD_JOB_GET);
	attr(&m, UET_A_JOB_DEV_NAME, "uet0", 4);
	msg_end(&m);
	ASSERT_EQ(-1, uet_nl_parse(m.b, m.len, 0, 0, &r));
	ASSERT_EQ(-EPROTO, r.error);
}

/* Lengths past the buffer: each of them, however libmnl compares. */
TEST(message_lengths)
{
	static const uint32_t bad[] = { 0, 15, 0x7fffffff, 0x80000000, 0xffffffff };
	struct msgbuf m = { .len = 0 };
	struct uet_nl_reply r;
	unsigned int i;

	job_msg(&m, 1);
	for (i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		r = job_reply();
		((struct nlmsghdr *)m.b)->nlmsg_len = bad[i];
		ASSERT_EQ(-1, uet_nl_parse(m.b, m.len, 0, 0, &r));
		ASSERT_EQ(-EPROTO, r.error);
		ASSERT_EQ(0, njobs);
	}
	/* one byte short of its padded end */
	r = job_reply();
	msg_end(&m);
	ASSERT_EQ(1, uet_nl_parse(m.b, m.len, 0, 0, &r));
	r = job_reply();
	ASSERT_EQ(-1, uet_nl_parse(m.b, m.len - 1, 0, 0, &r));
	ASSERT_EQ(0, njobs);
}

TEST(genl_header_missing)
{
	struct uet_nl_reply r = job_reply();
	struct msgbuf m = { .len = 0 };

	msg_begin(&m, FAMILY, 0);
	msg_end(&m);
	ASSERT_EQ(-1, uet_nl_parse(m.b, m.len, 0, 0, &r));
	ASSERT_EQ(-EPROTO, r.error);
}

static int stop_at_second(const struct uet_counter_attrs *c, void *arg)
{
	int *n = arg;

	return ++*n == 2 ? 7 : (c->value == 5 ? 0 : -1);
}

TEST(counters_and_a_callback_that_stops)
{
	struct msgbuf m = { .len = 0 };
	struct uet_nl_reply r = { .cmd = UET_CMD_STATS_GET, .fn = stop_at_second };
	struct nlattr *nest;
	int n = 0, i;

	r.arg = &n;
	msg_begin(&m, FAMILY, 0);
	genl(&m, UET_CMD_STATS_GET);
	attr_str(&m, UET_A_STATS_DEV_NAME, "uet0");
	for (i = 0; i < 3; i++) {
		nest = (struct nlattr *)(m.b + m.len);
		attr(&m, UET_A_STATS_COUNTER | NLA_F_NESTED, NULL, 0);
		attr_str(&m, UET_A_COUNTER_NAME, "tx_packets");
		attr_u64(&m, UET_A_COUNTER_VALUE, 5);
		nest->nla_len = (uint8_t *)(m.b + m.len) - (uint8_t *)nest;
	}
	msg_end(&m);
	ASSERT_EQ(0, uet_nl_parse(m.b, m.len, 0, 0, &r));
	ASSERT_EQ(2, n);
	ASSERT_EQ(7, r.cb_ret);
}

TEST(family_lookup)
{
	struct msgbuf m = { .len = 0 };
	struct uet_nl_reply r = { .ctrl = 1 };

	msg_begin(&m, GENL_ID_CTRL, 0);
	genl(&m, CTRL_CMD_NEWFAMILY);
	attr_str(&m, CTRL_ATTR_FAMILY_NAME, "uet");
	attr_u16(&m, CTRL_ATTR_FAMILY_ID, 0x1b);
	msg_end(&m);
	error(&m, 0, NULL);
	ASSERT_EQ(0, uet_nl_parse(m.b, m.len, 0, 0, &r));
	ASSERT_EQ(0x1b, r.family);
}

/* The controller's answer names the family's multicast groups. */
TEST(family_lookup_with_groups)
{
	struct msgbuf m = { .len = 0 };
	struct uet_nl_reply r = { .ctrl = 1 };
	struct nlattr *groups, *grp;
	static const struct {
		const char *name;
		uint32_t id;
	} list[] = { { "other", 9 }, { UET_MCGRP_MONITOR, 12 } };
	unsigned int i;

	msg_begin(&m, GENL_ID_CTRL, 0);
	genl(&m, CTRL_CMD_NEWFAMILY);
	attr_str(&m, CTRL_ATTR_FAMILY_NAME, "uet");
	attr_u16(&m, CTRL_ATTR_FAMILY_ID, 0x1b);
	groups = (struct nlattr *)(m.b + m.len);
	attr(&m, CTRL_ATTR_MCAST_GROUPS | NLA_F_NESTED, NULL, 0);
	for (i = 0; i < 2; i++) {
		grp = (struct nlattr *)(m.b + m.len);
		attr(&m, (i + 1) | NLA_F_NESTED, NULL, 0);
		attr_str(&m, CTRL_ATTR_MCAST_GRP_NAME, list[i].name);
		attr_u32(&m, CTRL_ATTR_MCAST_GRP_ID, list[i].id);
		grp->nla_len = (uint8_t *)(m.b + m.len) - (uint8_t *)grp;
	}
	groups->nla_len = (uint8_t *)(m.b + m.len) - (uint8_t *)groups;
	msg_end(&m);
	error(&m, 0, NULL);
	ASSERT_EQ(0, uet_nl_parse(m.b, m.len, 0, 0, &r));
	ASSERT_EQ(0x1b, r.family);
	ASSERT_EQ(12u, r.mcgrp);
}

static struct uet_event events[4];
static int nevents;

static int on_event(const struct uet_event *ev, void *arg)
{
	(void)arg;
	if (nevents < 4)
		events[nevents] = *ev;
	nevents++;
	return 0;
}

/*
 * Notifications as the monitor group carries them (port ID and sequence
 * number 0): a job added, a PDC made, a command of a newer kernel
 * (skipped), a device gone; a get reply's command is none of them.
 */
TEST(notifications)
{
	struct uet_nl_reply r = { .monitor = 1, .fn = on_event };
	struct msgbuf m = { .len = 0 };
	uint8_t peer[16] = { [10] = 0xff, [11] = 0xff, 198, 18, 0, 2 };

	nevents = 0;
	job_msg(&m, 7);
	((struct genlmsghdr *)(m.b + m.start + NLMSG_HDRLEN))->cmd =
		UET_CMD_JOB_ADD_NTF;
	msg_begin(&m, FAMILY, 0);
	genl(&m, UET_CMD_PDC_ADD_NTF);
	attr_str(&m, UET_A_PDC_DEV_NAME, "uet0");
	attr_u16(&m, UET_A_PDC_LPDCID, 3);
	attr_u8(&m, UET_A_PDC_MODE, UET_DELIVERY_MODE_RUD);
	attr(&m, UET_A_PDC_INITIATOR, NULL, 0);
	attr_u32(&m, UET_A_PDC_JOB, 7);
	attr(&m, UET_A_PDC_PEER, peer, sizeof(peer));
	attr_u32(&m, UET_A_PDC_RA_CAP_MBPS, 750);
	attr_u32(&m, UET_A_PDC_RA_ADVISED_MBPS, 500);
	attr_u32(&m, UET_A_PDC_RA_AGE_MS, 12);
	msg_end(&m);
	msg_begin(&m, FAMILY, 0);
	genl(&m, UET_CMD_MAX + 1);
	attr_u32(&m, 1, 5);
	msg_end(&m);
	msg_begin(&m, FAMILY, 0);
	genl(&m, UET_CMD_DEV_DEL_NTF);
	attr_str(&m, UET_A_DEV_NAME, "uet1");
	attr_str(&m, UET_A_DEV_NETDEV, "veth1");
	attr_u32(&m, UET_A_DEV_IFINDEX, 4);
	msg_end(&m);
	msg_begin(&m, FAMILY, 0);
	genl(&m, UET_CMD_DEV_GET);
	msg_end(&m);
	ASSERT_EQ(1, uet_nl_parse(m.b, m.len, 0, 0, &r));
	ASSERT_EQ(0, r.error);
	ASSERT_EQ(3, nevents);
	ASSERT_EQ(UET_CMD_JOB_ADD_NTF, events[0].cmd);
	ASSERT_EQ(7u, events[0].job.id);
	ASSERT_EQ(UET_DELIVERY_MODE_ROD, events[0].job.mode);
	ASSERT_EQ(UET_CMD_PDC_ADD_NTF, events[1].cmd);
	ASSERT_STREQ("uet0", events[1].pdc.dev);
	ASSERT_EQ(3, events[1].pdc.lpdcid);
	ASSERT_EQ(1, events[1].pdc.initiator);
	ASSERT_FALSE(UET_HAS(&events[1].pdc, UET_A_PDC_RPDCID));
	ASSERT_EQ(0, memcmp(peer, events[1].pdc.peer, sizeof(peer)));
	ASSERT_TRUE(UET_HAS(&events[1].pdc, UET_A_PDC_RA_CAP_MBPS));
	ASSERT_EQ(750u, events[1].pdc.ra_cap_mbps);
	ASSERT_EQ(500u, events[1].pdc.ra_advised_mbps);
	ASSERT_EQ(12u, events[1].pdc.ra_age_ms);
	ASSERT_EQ(UET_CMD_DEV_DEL_NTF, events[2].cmd);
	ASSERT_STREQ("uet1", events[2].dev.name);
	ASSERT_STREQ("veth1", events[2].dev.netdev);
	ASSERT_EQ(4u, events[2].dev.ifindex);
}

/* A notification with an attribute of the wrong type is malformed. */
TEST(notification_malformed)
{
	struct uet_nl_reply r = { .monitor = 1, .fn = on_event };
	struct msgbuf m = { .len = 0 };

	nevents = 0;
	msg_begin(&m, FAMILY, 0);
	genl(&m, UET_CMD_PDC_DEL_NTF);
	attr_u8(&m, UET_A_PDC_LPDCID, 3);
	msg_end(&m);
	ASSERT_EQ(-1, uet_nl_parse(m.b, m.len, 0, 0, &r));
	ASSERT_EQ(-EPROTO, r.error);
	ASSERT_EQ(0, nevents);
}

TEST_HARNESS_MAIN
