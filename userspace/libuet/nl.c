// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * The uet family over a generic netlink socket (libmnl): requests built
 * here, replies parsed by parse.c.  Extended ACKs are asked for, so that a
 * refusal comes with the kernel's reason, and capped, so that an error
 * does not echo the request back.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <libmnl/libmnl.h>
#include <linux/genetlink.h>
#include <linux/netlink.h>

#include "nl_priv.h"

#ifndef NETLINK_EXT_ACK
#define NETLINK_EXT_ACK		11
#endif
#ifndef NETLINK_CAP_ACK
#define NETLINK_CAP_ACK		10
#endif

/* A dump's replies come in batches of up to a page's worth per message. */
#define UET_NL_BUF_SIZE		(64 * 1024)

struct uet_nl {
	struct mnl_socket *sk;
	uint32_t portid;
	uint32_t seq;
	uint16_t family;
	uint32_t mcgrp;		/* the monitor group, 0 if none */
	int joined;
	char errmsg[UET_NL_ERRMSG_MAX];
	char buf[UET_NL_BUF_SIZE];
};

const char *uet_nl_errmsg(const struct uet_nl *nl)
{
	return nl->errmsg;
}

static struct nlmsghdr *req(struct uet_nl *nl, uint16_t type, uint8_t cmd,
			    uint16_t flags)
{
	struct nlmsghdr *nlh = mnl_nlmsg_put_header(nl->buf);
	struct genlmsghdr *g;

	nlh->nlmsg_type = type;
	nlh->nlmsg_flags = NLM_F_REQUEST | flags;
	nlh->nlmsg_seq = ++nl->seq;
	g = mnl_nlmsg_put_extra_header(nlh, sizeof(*g));
	g->cmd = cmd;
	g->version = UET_FAMILY_VERSION;
	return nlh;
}

/*
 * Put the device name @name as attribute @type of @nlh: 0, or -EINVAL
 * without a name and -ENAMETOOLONG for one longer than the kernel takes
 * (UET_NAME_MAX_LEN), with nothing put.  The request buffer is bounded.
 */
static int put_name(struct nlmsghdr *nlh, uint16_t type, const char *name)
{
	if (!name)
		return -EINVAL;
	if (strnlen(name, UET_NAME_MAX_LEN + 1) > UET_NAME_MAX_LEN)
		return -ENAMETOOLONG;
	mnl_attr_put_strz(nlh, type, name);
	return 0;
}

/* Send @nlh and parse every reply into @r; 0 or a negative errno. */
static int transact(struct uet_nl *nl, struct nlmsghdr *nlh,
		    struct uet_nl_reply *r)
{
	uint32_t seq = nlh->nlmsg_seq;
	ssize_t n;
	int ret;

	nl->errmsg[0] = '\0';
	if (mnl_socket_sendto(nl->sk, nlh, nlh->nlmsg_len) < 0)
		return -errno;
	do {
		n = mnl_socket_recvfrom(nl->sk, nl->buf, sizeof(nl->buf));
		if (n < 0)
			return -errno;
		ret = uet_nl_parse(nl->buf, n, seq, nl->portid, r);
	} while (ret > 0);

	if (r->error) {
		snprintf(nl->errmsg, sizeof(nl->errmsg), "%s", r->errmsg);
		return r->error;
	}
	return r->cb_ret;
}

struct uet_nl *uet_nl_open(void)
{
	struct uet_nl_reply r = { .ctrl = 1 };
	struct nlmsghdr *nlh;
	struct uet_nl *nl;
	int one = 1, err;

	nl = calloc(1, sizeof(*nl));
	if (!nl)
		return NULL;
	nl->sk = mnl_socket_open(NETLINK_GENERIC);
	if (!nl->sk)
		goto err_free;
	if (mnl_socket_bind(nl->sk, 0, MNL_SOCKET_AUTOPID) < 0)
		goto err_close;
	/* Both are optional: without them errors only lose their reason. */
	mnl_socket_setsockopt(nl->sk, NETLINK_EXT_ACK, &one, sizeof(one));
	mnl_socket_setsockopt(nl->sk, NETLINK_CAP_ACK, &one, sizeof(one));
	nl->portid = mnl_socket_get_portid(nl->sk);
	nl->seq = (uint32_t)time(NULL);

	nlh = req(nl, GENL_ID_CTRL, CTRL_CMD_GETFAMILY, NLM_F_ACK);
	mnl_attr_put_strz(nlh, CTRL_ATTR_FAMILY_NAME, UET_FAMILY_NAME);
	err = transact(nl, nlh, &r);
	if (err || !r.family) {
		errno = err == -ENOENT || !err ? ENOENT : -err;
		goto err_close;
	}
	nl->family = r.family;
	nl->mcgrp = r.mcgrp;
	return nl;

err_close:
	err = errno;
	mnl_socket_close(nl->sk);
	errno = err;
err_free:
	err = errno;
	free(nl);
	errno = err;
	return NULL;
}

void uet_nl_close(struct uet_nl *nl)
{
	if (!nl)
		return;
	mnl_socket_close(nl->sk);
	free(nl);
}

static int run(struct uet_nl *nl, struct nlmsghdr *nlh, uint8_t cmd,
	       void *fn, void *arg)
{
	struct uet_nl_reply r = { .cmd = cmd, .fn = fn, .arg = arg };

	return transact(nl, nlh, &r);
}

/* Copy the one object of a get into *arg. */
static int copy_dev(const struct uet_dev_attrs *d, void *arg)
{
	memcpy(arg, d, sizeof(*d));
	return 0;
}

static int copy_job(const struct uet_job_attrs *j, void *arg)
{
	memcpy(arg, j, sizeof(*j));
	return 0;
}

static int copy_profile(const struct uet_profile_attrs *p, void *arg)
{
	memcpy(arg, p, sizeof(*p));
	return 0;
}

static int copy_key(const struct uet_key_attrs *k, void *arg)
{
	memcpy(arg, k, sizeof(*k));
	return 0;
}

static int copy_pdc(const struct uet_pdc_attrs *p, void *arg)
{
	memcpy(arg, p, sizeof(*p));
	return 0;
}

int uet_nl_dev_get(struct uet_nl *nl, const char *name, struct uet_dev_attrs *out)
{
	struct nlmsghdr *nlh = req(nl, nl->family, UET_CMD_DEV_GET, NLM_F_ACK);
	int err;

	err = put_name(nlh, UET_A_DEV_NAME, name);
	if (err)
		return err;
	memset(out, 0, sizeof(*out));
	return run(nl, nlh, UET_CMD_DEV_GET, copy_dev, out);
}

int uet_nl_dev_dump(struct uet_nl *nl, uet_dev_fn fn, void *arg)
{
	struct nlmsghdr *nlh = req(nl, nl->family, UET_CMD_DEV_GET, NLM_F_DUMP);

	return run(nl, nlh, UET_CMD_DEV_GET, fn, arg);
}

/* NSCC's parameters present, a device's or (@job) a job's. */
static void put_nscc(struct nlmsghdr *nlh, int job, const uint32_t *nscc,
		     uint64_t present)
{
	unsigned int i;
	int attr;

	for (i = 0; i < UET_NSCC_PARAMS; i++) {
		attr = uet_nscc_attr(i, job);
		if ((present >> attr) & 1)
			mnl_attr_put_u32(nlh, attr, nscc[i]);
	}
}

int uet_nl_dev_set(struct uet_nl *nl, const struct uet_dev_attrs *s)
{
	struct nlmsghdr *nlh = req(nl, nl->family, UET_CMD_DEV_SET, NLM_F_ACK);
	int err;

	err = put_name(nlh, UET_A_DEV_NAME, s->name);
	if (err)
		return err;
	if (UET_HAS(s, UET_A_DEV_RC_MODE))
		mnl_attr_put_u8(nlh, UET_A_DEV_RC_MODE, s->rc_mode);
	if (UET_HAS(s, UET_A_DEV_MAX_PAYLOAD))
		mnl_attr_put_u32(nlh, UET_A_DEV_MAX_PAYLOAD, s->max_payload);
	if (UET_HAS(s, UET_A_DEV_ACK_DELAY_US))
		mnl_attr_put_u32(nlh, UET_A_DEV_ACK_DELAY_US, s->ack_delay_us);
	if (UET_HAS(s, UET_A_DEV_PDC_POOL))
		mnl_attr_put_u32(nlh, UET_A_DEV_PDC_POOL, s->pdc_pool);
	if (UET_HAS(s, UET_A_DEV_PDC_RESERVED))
		mnl_attr_put_u32(nlh, UET_A_DEV_PDC_RESERVED, s->pdc_reserved);
	if (UET_HAS(s, UET_A_DEV_PDC_PER_SOURCE))
		mnl_attr_put_u32(nlh, UET_A_DEV_PDC_PER_SOURCE, s->pdc_per_source);
	if (UET_HAS(s, UET_A_DEV_RTO_MIN_US))
		mnl_attr_put_u32(nlh, UET_A_DEV_RTO_MIN_US, s->rto_min_us);
	if (UET_HAS(s, UET_A_DEV_RTO_MAX_US))
		mnl_attr_put_u32(nlh, UET_A_DEV_RTO_MAX_US, s->rto_max_us);
	if (UET_HAS(s, UET_A_DEV_RTO_INIT_US))
		mnl_attr_put_u32(nlh, UET_A_DEV_RTO_INIT_US, s->rto_init_us);
	if (UET_HAS(s, UET_A_DEV_PDC_IDLE_MS))
		mnl_attr_put_u32(nlh, UET_A_DEV_PDC_IDLE_MS, s->pdc_idle_ms);
	if (UET_HAS(s, UET_A_DEV_CC))
		mnl_attr_put_u8(nlh, UET_A_DEV_CC, s->cc);
	put_nscc(nlh, 0, s->nscc, s->present);
	if (UET_HAS(s, UET_A_DEV_LINK_MBPS))
		mnl_attr_put_u32(nlh, UET_A_DEV_LINK_MBPS, s->link_mbps);
	if (UET_HAS(s, UET_A_DEV_TC_DSCP))
		mnl_attr_put(nlh, UET_A_DEV_TC_DSCP, sizeof(s->tc_dscp), s->tc_dscp);
	if (UET_HAS(s, UET_A_DEV_CTL_TC))
		mnl_attr_put_u8(nlh, UET_A_DEV_CTL_TC, s->ctl_tc);
	if (UET_HAS(s, UET_A_DEV_LB))
		mnl_attr_put_u8(nlh, UET_A_DEV_LB, s->lb);
	if (UET_HAS(s, UET_A_DEV_LB_PATHS))
		mnl_attr_put_u32(nlh, UET_A_DEV_LB_PATHS, s->lb_paths);
	if (UET_HAS(s, UET_A_DEV_SSI))
		mnl_attr_put_u32(nlh, UET_A_DEV_SSI, s->ssi);
	if (UET_HAS(s, UET_A_DEV_UDP_PORT))
		mnl_attr_put_u16(nlh, UET_A_DEV_UDP_PORT, s->udp_port);
	if (UET_HAS(s, UET_A_DEV_ENCAP))
		mnl_attr_put_u8(nlh, UET_A_DEV_ENCAP, s->encap);
	if (UET_HAS(s, UET_A_DEV_RA_FLOOR_MBPS))
		mnl_attr_put_u32(nlh, UET_A_DEV_RA_FLOOR_MBPS, s->ra_floor_mbps);
	return run(nl, nlh, 0, NULL, NULL);
}

int uet_nl_job_add(struct uet_nl *nl, const struct uet_job_attrs *j)
{
	struct nlmsghdr *nlh = req(nl, nl->family, UET_CMD_JOB_ADD, NLM_F_ACK);
	int err;

	err = put_name(nlh, UET_A_JOB_DEV_NAME, j->dev);
	if (err)
		return err;
	mnl_attr_put_u32(nlh, UET_A_JOB_ID, j->id);
	if (UET_HAS(j, UET_A_JOB_ADDR_MODE))
		mnl_attr_put_u8(nlh, UET_A_JOB_ADDR_MODE, j->addr_mode);
	if (UET_HAS(j, UET_A_JOB_PID_LO))
		mnl_attr_put_u16(nlh, UET_A_JOB_PID_LO, j->pid_lo);
	if (UET_HAS(j, UET_A_JOB_PID_HI))
		mnl_attr_put_u16(nlh, UET_A_JOB_PID_HI, j->pid_hi);
	if (UET_HAS(j, UET_A_JOB_TC))
		mnl_attr_put_u8(nlh, UET_A_JOB_TC, j->tc);
	if (UET_HAS(j, UET_A_JOB_DELIVERY_MODE))
		mnl_attr_put_u8(nlh, UET_A_JOB_DELIVERY_MODE, j->mode);
	if (UET_HAS(j, UET_A_JOB_CC))
		mnl_attr_put_u8(nlh, UET_A_JOB_CC, j->cc);
	put_nscc(nlh, 1, j->nscc, j->present);
	if (UET_HAS(j, UET_A_JOB_LB))
		mnl_attr_put_u8(nlh, UET_A_JOB_LB, j->lb);
	if (UET_HAS(j, UET_A_JOB_LB_PATHS))
		mnl_attr_put_u32(nlh, UET_A_JOB_LB_PATHS, j->lb_paths);
	if (UET_HAS(j, UET_A_JOB_RA_FLOOR_MBPS))
		mnl_attr_put_u32(nlh, UET_A_JOB_RA_FLOOR_MBPS, j->ra_floor_mbps);
	return run(nl, nlh, 0, NULL, NULL);
}

int uet_nl_job_del(struct uet_nl *nl, const char *dev, uint32_t id)
{
	struct nlmsghdr *nlh = req(nl, nl->family, UET_CMD_JOB_DEL, NLM_F_ACK);
	int err;

	err = put_name(nlh, UET_A_JOB_DEV_NAME, dev);
	if (err)
		return err;
	mnl_attr_put_u32(nlh, UET_A_JOB_ID, id);
	return run(nl, nlh, 0, NULL, NULL);
}

int uet_nl_job_get(struct uet_nl *nl, const char *dev, uint32_t id,
		   struct uet_job_attrs *out)
{
	struct nlmsghdr *nlh = req(nl, nl->family, UET_CMD_JOB_GET, NLM_F_ACK);
	int err;

	err = put_name(nlh, UET_A_JOB_DEV_NAME, dev);
	if (err)
		return err;
	mnl_attr_put_u32(nlh, UET_A_JOB_ID, id);
	memset(out, 0, sizeof(*out));
	return run(nl, nlh, UET_CMD_JOB_GET, copy_job, out);
}

int uet_nl_job_dump(struct uet_nl *nl, const char *dev, uet_job_fn fn, void *arg)
{
	struct nlmsghdr *nlh = req(nl, nl->family, UET_CMD_JOB_GET, NLM_F_DUMP);
	int err;

	if (dev) {
		err = put_name(nlh, UET_A_JOB_DEV_NAME, dev);
		if (err)
			return err;
	}
	return run(nl, nlh, UET_CMD_JOB_GET, fn, arg);
}

int uet_nl_profile_get(struct uet_nl *nl, const char *dev,
		       struct uet_profile_attrs *out)
{
	struct nlmsghdr *nlh = req(nl, nl->family, UET_CMD_PROFILE_GET, NLM_F_ACK);
	int err;

	err = put_name(nlh, UET_A_PROFILE_DEV_NAME, dev);
	if (err)
		return err;
	memset(out, 0, sizeof(*out));
	return run(nl, nlh, UET_CMD_PROFILE_GET, copy_profile, out);
}

int uet_nl_profile_dump(struct uet_nl *nl, uet_profile_fn fn, void *arg)
{
	struct nlmsghdr *nlh = req(nl, nl->family, UET_CMD_PROFILE_GET, NLM_F_DUMP);

	return run(nl, nlh, UET_CMD_PROFILE_GET, fn, arg);
}

int uet_nl_profile_set(struct uet_nl *nl, const char *dev, uint8_t id)
{
	struct nlmsghdr *nlh = req(nl, nl->family, UET_CMD_PROFILE_SET, NLM_F_ACK);
	int err;

	err = put_name(nlh, UET_A_PROFILE_DEV_NAME, dev);
	if (err)
		return err;
	mnl_attr_put_u8(nlh, UET_A_PROFILE_ID, id);
	return run(nl, nlh, 0, NULL, NULL);
}

int uet_nl_pdc_get(struct uet_nl *nl, const char *dev, uint16_t lpdcid,
		   struct uet_pdc_attrs *out)
{
	struct nlmsghdr *nlh = req(nl, nl->family, UET_CMD_PDC_GET, NLM_F_ACK);
	int err;

	err = put_name(nlh, UET_A_PDC_DEV_NAME, dev);
	if (err)
		return err;
	mnl_attr_put_u16(nlh, UET_A_PDC_LPDCID, lpdcid);
	memset(out, 0, sizeof(*out));
	return run(nl, nlh, UET_CMD_PDC_GET, copy_pdc, out);
}

int uet_nl_pdc_dump(struct uet_nl *nl, const char *dev, uet_pdc_fn fn, void *arg)
{
	struct nlmsghdr *nlh = req(nl, nl->family, UET_CMD_PDC_GET, NLM_F_DUMP);
	int err;

	if (dev) {
		err = put_name(nlh, UET_A_PDC_DEV_NAME, dev);
		if (err)
			return err;
	}
	return run(nl, nlh, UET_CMD_PDC_GET, fn, arg);
}

int uet_nl_pdc_close(struct uet_nl *nl, const char *dev, uint16_t lpdcid)
{
	struct nlmsghdr *nlh = req(nl, nl->family, UET_CMD_PDC_CLOSE, NLM_F_ACK);
	int err;

	err = put_name(nlh, UET_A_PDC_DEV_NAME, dev);
	if (err)
		return err;
	mnl_attr_put_u16(nlh, UET_A_PDC_LPDCID, lpdcid);
	return run(nl, nlh, 0, NULL, NULL);
}

int uet_nl_stats_get(struct uet_nl *nl, const char *dev, int has_job,
		     uint32_t job, uet_counter_fn fn, void *arg)
{
	struct nlmsghdr *nlh = req(nl, nl->family, UET_CMD_STATS_GET, NLM_F_ACK);
	int err;

	err = put_name(nlh, UET_A_STATS_DEV_NAME, dev);
	if (err)
		return err;
	if (has_job)
		mnl_attr_put_u32(nlh, UET_A_STATS_JOB_ID, job);
	return run(nl, nlh, UET_CMD_STATS_GET, fn, arg);
}

int uet_nl_key_add(struct uet_nl *nl, const struct uet_key_attrs *k)
{
	struct nlmsghdr *nlh = req(nl, nl->family, UET_CMD_KEY_ADD, NLM_F_ACK);
	int err;

	err = put_name(nlh, UET_A_KEY_DEV_NAME, k->dev);
	if (err)
		return err;
	mnl_attr_put_u32(nlh, UET_A_KEY_JOB_ID, k->job);
	mnl_attr_put_u8(nlh, UET_A_KEY_AN, k->an);
	mnl_attr_put(nlh, UET_A_KEY_KEY, sizeof(k->key), k->key);
	if (UET_HAS(k, UET_A_KEY_EPOCH))
		mnl_attr_put_u16(nlh, UET_A_KEY_EPOCH, k->epoch);
	if (UET_HAS(k, UET_A_KEY_MODE))
		mnl_attr_put_u8(nlh, UET_A_KEY_MODE, k->mode);
	err = run(nl, nlh, 0, NULL, NULL);
	/* the request's copy of the key (acknowledgements never echo it) */
	explicit_bzero(nl->buf, sizeof(nl->buf));
	return err;
}

/* A request naming one key: @cmd for @dev's job @job, AN @an. */
static struct nlmsghdr *key_req(struct uet_nl *nl, uint8_t cmd, const char *dev,
				uint32_t job, uint8_t an, int *err)
{
	struct nlmsghdr *nlh = req(nl, nl->family, cmd, NLM_F_ACK);

	*err = put_name(nlh, UET_A_KEY_DEV_NAME, dev);
	mnl_attr_put_u32(nlh, UET_A_KEY_JOB_ID, job);
	mnl_attr_put_u8(nlh, UET_A_KEY_AN, an);
	return nlh;
}

int uet_nl_key_del(struct uet_nl *nl, const char *dev, uint32_t job, uint8_t an)
{
	int err;
	struct nlmsghdr *nlh = key_req(nl, UET_CMD_KEY_DEL, dev, job, an, &err);

	return err ?: run(nl, nlh, 0, NULL, NULL);
}

int uet_nl_key_set(struct uet_nl *nl, const char *dev, uint32_t job, uint8_t an)
{
	int err;
	struct nlmsghdr *nlh = key_req(nl, UET_CMD_KEY_SET, dev, job, an, &err);

	return err ?: run(nl, nlh, 0, NULL, NULL);
}

int uet_nl_key_get(struct uet_nl *nl, const char *dev, uint32_t job, uint8_t an,
		   struct uet_key_attrs *out)
{
	int err;
	struct nlmsghdr *nlh = key_req(nl, UET_CMD_KEY_GET, dev, job, an, &err);

	memset(out, 0, sizeof(*out));
	return err ?: run(nl, nlh, UET_CMD_KEY_GET, copy_key, out);
}

int uet_nl_key_dump(struct uet_nl *nl, const char *dev, uet_key_fn fn, void *arg)
{
	struct nlmsghdr *nlh = req(nl, nl->family, UET_CMD_KEY_GET, NLM_F_DUMP);
	int err;

	if (dev) {
		err = put_name(nlh, UET_A_KEY_DEV_NAME, dev);
		if (err)
			return err;
	}
	return run(nl, nlh, UET_CMD_KEY_GET, fn, arg);
}

int uet_nl_monitor(struct uet_nl *nl, uet_event_fn fn, void *arg)
{
	struct uet_nl_reply r = { .monitor = 1, .fn = fn, .arg = arg };
	unsigned int grp = nl->mcgrp;
	ssize_t n;

	nl->errmsg[0] = '\0';
	if (!grp)
		return -EOPNOTSUPP;
	if (!nl->joined) {
		if (mnl_socket_setsockopt(nl->sk, NETLINK_ADD_MEMBERSHIP, &grp,
					  sizeof(grp)) < 0)
			return -errno;
		nl->joined = 1;
	}
	for (;;) {
		n = mnl_socket_recvfrom(nl->sk, nl->buf, sizeof(nl->buf));
		if (n < 0)
			return -errno;
		/* notifications: sequence number and port ID 0 */
		if (uet_nl_parse(nl->buf, n, 0, 0, &r) < 0 && r.error)
			return r.error;
		if (r.cb_ret)
			return r.cb_ret;
	}
}
