// SPDX-License-Identifier: GPL-2.0
/*
 * uetctl argument parsing: keyword/value pairs into libuet's structures.
 * Only the syntax and the width of each value are checked here; ranges
 * are the kernel's to check (its extended ACK says what is wrong).
 * Errors are written to err (ARG_ERR_MAX bytes), quoting the bad word.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <uet/libuet.h>

#include "uetctl.h"

#define ERR(...)	(snprintf(err, ARG_ERR_MAX, __VA_ARGS__), -1)

/* A decimal or 0x-prefixed number no larger than @max. */
int parse_u32(const char *s, uint32_t max, uint32_t *out)
{
	unsigned long long v;
	char *end;

	if (!*s || *s == '-' || *s == '+' || *s == ' ')
		return -1;
	errno = 0;
	v = strtoull(s, &end, 0);
	if (errno || *end || v > max)
		return -1;
	*out = (uint32_t)v;
	return 0;
}

static int value(int argc, char **argv, int i, char *err)
{
	if (i + 1 >= argc)
		return ERR("\"%s\" needs a value", argv[i]);
	return 0;
}

static int num(const char *key, const char *s, uint32_t max, uint32_t *out,
	       char *err)
{
	if (parse_u32(s, max, out))
		return ERR("invalid %s \"%s\"", key, s);
	return 0;
}

static int dev_name(const char *s, char *dst, size_t len, char *err)
{
	if (!*s || strlen(s) >= len || strlen(s) > UET_NAME_MAX_LEN)
		return ERR("invalid device name \"%s\"", s);
	strcpy(dst, s);
	return 0;
}

int args_sel(int argc, char **argv, const char *idword, uint32_t idmax,
	     struct sel *sel, char *err)
{
	int i;

	memset(sel, 0, sizeof(*sel));
	for (i = 0; i < argc; i += 2) {
		if (value(argc, argv, i, err))
			return -1;
		if (!strcmp(argv[i], "dev")) {
			if (dev_name(argv[i + 1], sel->dev, sizeof(sel->dev), err))
				return -1;
			sel->has_dev = true;
		} else if (idword && !strcmp(argv[i], idword)) {
			if (num(idword, argv[i + 1], idmax, &sel->id, err))
				return -1;
			sel->has_id = true;
		} else {
			return ERR("unknown argument \"%s\"", argv[i]);
		}
	}
	return 0;
}

/*
 * What a show command lists: everything (no dev), a device's objects, or
 * one of them, which needs its device.
 */
int args_show(int argc, char **argv, const char *idword, uint32_t idmax,
	      struct sel *sel, char *err)
{
	if (args_sel(argc, argv, idword, idmax, sel, err))
		return -1;
	if (sel->has_id && !sel->has_dev)
		return ERR("which device? (dev DEV)");
	return 0;
}

/* "D0,D1,...,D7": the DSCP of each of the eight traffic classes. */
static int dscp_list(const char *s, uint8_t *dscp, char *err)
{
	char buf[64], *tok, *save = NULL;
	uint32_t v;
	int n = 0;

	if (strlen(s) >= sizeof(buf) || strstr(s, ",,") || *s == ',' ||
	    s[strlen(s) - 1] == ',')
		return ERR("invalid tc-dscp \"%s\" (8 DSCPs 0-63, by traffic class)", s);
	strcpy(buf, s);
	for (tok = strtok_r(buf, ",", &save); tok;
	     tok = strtok_r(NULL, ",", &save)) {
		if (n > UET_TC_MAX || parse_u32(tok, UET_DSCP_MAX, &v))
			return ERR("invalid tc-dscp \"%s\" (8 DSCPs 0-63, by traffic class)", s);
		dscp[n++] = (uint8_t)v;
	}
	if (n != UET_TC_MAX + 1)
		return ERR("invalid tc-dscp \"%s\" (8 DSCPs 0-63, by traffic class)", s);
	return 0;
}

/*
 * @key and @val, if @key names an NSCC parameter, into @nscc and
 * @present, a device's or (@job) a job's: 1; 0: not one; -1: invalid.
 */
static int nscc_param(const char *key, const char *val, int job,
		      uint32_t *nscc, uint64_t *present, char *err)
{
	unsigned int p;

	for (p = 0; p < UET_NSCC_PARAMS; p++) {
		if (strcmp(key, uet_nscc_name(p)))
			continue;
		if (num(key, val, UINT32_MAX, &nscc[p], err))
			return -1;
		*present |= 1ULL << uet_nscc_attr(p, job);
		return 1;
	}
	return 0;
}

int args_dev_set(int argc, char **argv, struct uet_dev_attrs *s, char *err)
{
	static const struct {
		const char *key;
		int attr;
		size_t off;
	} keys[] = {
		{ "max-payload", UET_A_DEV_MAX_PAYLOAD, offsetof(struct uet_dev_attrs, max_payload) },
		{ "ack-delay-us", UET_A_DEV_ACK_DELAY_US, offsetof(struct uet_dev_attrs, ack_delay_us) },
		{ "pdc-pool", UET_A_DEV_PDC_POOL, offsetof(struct uet_dev_attrs, pdc_pool) },
		{ "pdc-reserved", UET_A_DEV_PDC_RESERVED, offsetof(struct uet_dev_attrs, pdc_reserved) },
		{ "pdc-per-source", UET_A_DEV_PDC_PER_SOURCE, offsetof(struct uet_dev_attrs, pdc_per_source) },
		{ "rto-min-us", UET_A_DEV_RTO_MIN_US, offsetof(struct uet_dev_attrs, rto_min_us) },
		{ "rto-max-us", UET_A_DEV_RTO_MAX_US, offsetof(struct uet_dev_attrs, rto_max_us) },
		{ "rto-initial-us", UET_A_DEV_RTO_INIT_US, offsetof(struct uet_dev_attrs, rto_init_us) },
		{ "pdc-idle-ms", UET_A_DEV_PDC_IDLE_MS, offsetof(struct uet_dev_attrs, pdc_idle_ms) },
		{ "link-mbps", UET_A_DEV_LINK_MBPS, offsetof(struct uet_dev_attrs, link_mbps) },
		{ "lb-paths", UET_A_DEV_LB_PATHS, offsetof(struct uet_dev_attrs, lb_paths) },
		{ "ssi", UET_A_DEV_SSI, offsetof(struct uet_dev_attrs, ssi) },
		{ "ra-floor-mbps", UET_A_DEV_RA_FLOOR_MBPS, offsetof(struct uet_dev_attrs, ra_floor_mbps) },
	};
	size_t k;
	uint32_t v;
	int i, m;

	memset(s, 0, sizeof(*s));
	if (argc < 1)
		return ERR("which device?");
	if (dev_name(argv[0], s->name, sizeof(s->name), err))
		return -1;
	if (argc < 2)
		return ERR("nothing to set");
	for (i = 1; i < argc; i += 2) {
		if (value(argc, argv, i, err))
			return -1;
		if (!strcmp(argv[i], "rc-mode")) {
			m = uet_delivery_mode_parse(argv[i + 1]);
			if (m < 0)
				return ERR("invalid rc-mode \"%s\" (rud, rod)", argv[i + 1]);
			s->rc_mode = (uint8_t)m;
			UET_SET(s, UET_A_DEV_RC_MODE);
			continue;
		}
		if (!strcmp(argv[i], "tc-dscp")) {
			if (dscp_list(argv[i + 1], s->tc_dscp, err))
				return -1;
			UET_SET(s, UET_A_DEV_TC_DSCP);
			continue;
		}
		if (!strcmp(argv[i], "udp-port")) {
			if (num("udp-port", argv[i + 1], UINT16_MAX, &v, err))
				return -1;
			if (!v)
				return ERR("invalid udp-port \"%s\" (1-65535)",
					   argv[i + 1]);
			s->udp_port = (uint16_t)v;
			UET_SET(s, UET_A_DEV_UDP_PORT);
			continue;
		}
		if (!strcmp(argv[i], "encap")) {
			m = uet_encap_parse(argv[i + 1]);
			if (m < 0)
				return ERR("invalid encap \"%s\" (udp, ip, udp-zero-csum)",
					   argv[i + 1]);
			s->encap = (uint8_t)m;
			UET_SET(s, UET_A_DEV_ENCAP);
			continue;
		}
		if (!strcmp(argv[i], "ctl-tc")) {
			if (num("ctl-tc", argv[i + 1], UINT8_MAX, &v, err))
				return -1;
			s->ctl_tc = (uint8_t)v;
			UET_SET(s, UET_A_DEV_CTL_TC);
			continue;
		}
		if (!strcmp(argv[i], "cc")) {
			m = uet_cc_parse(argv[i + 1]);
			if (m < 0)
				return ERR("invalid cc \"%s\" (none, nscc, rccc, nscc-rccc)",
					   argv[i + 1]);
			s->cc = (uint8_t)m;
			UET_SET(s, UET_A_DEV_CC);
			continue;
		}
		if (!strcmp(argv[i], "lb")) {
			m = uet_lb_mode_parse(argv[i + 1]);
			if (m < 0)
				return ERR("invalid lb \"%s\" (single, oblivious, reps)",
					   argv[i + 1]);
			s->lb = (uint8_t)m;
			UET_SET(s, UET_A_DEV_LB);
			continue;
		}
		m = nscc_param(argv[i], argv[i + 1], 0, s->nscc, &s->present,
			       err);
		if (m < 0)
			return -1;
		if (m)
			continue;
		for (k = 0; k < sizeof(keys) / sizeof(keys[0]); k++)
			if (!strcmp(argv[i], keys[k].key))
				break;
		if (k == sizeof(keys) / sizeof(keys[0]))
			return ERR("unknown setting \"%s\"", argv[i]);
		if (num(keys[k].key, argv[i + 1], UINT32_MAX,
			(uint32_t *)((char *)s + keys[k].off), err))
			return -1;
		UET_SET(s, keys[k].attr);
	}
	return 0;
}

/* "LO-HI" or a single PIDonFEP value. */
static int pid_range(const char *s, struct uet_job_attrs *j, char *err)
{
	char buf[32], *dash;
	uint32_t lo, hi;

	if (strlen(s) >= sizeof(buf))
		return ERR("invalid pid range \"%s\"", s);
	strcpy(buf, s);
	dash = strchr(buf, '-');
	if (dash)
		*dash = '\0';
	if (parse_u32(buf, UINT16_MAX, &lo) ||
	    parse_u32(dash ? dash + 1 : buf, UINT16_MAX, &hi))
		return ERR("invalid pid range \"%s\" (LO-HI)", s);
	j->pid_lo = (uint16_t)lo;
	j->pid_hi = (uint16_t)hi;
	UET_SET(j, UET_A_JOB_PID_LO);
	UET_SET(j, UET_A_JOB_PID_HI);
	return 0;
}

int args_job_add(int argc, char **argv, struct uet_job_attrs *j, char *err)
{
	uint32_t v;
	int i, m;

	memset(j, 0, sizeof(*j));
	for (i = 0; i < argc; i += 2) {
		if (value(argc, argv, i, err))
			return -1;
		if (!strcmp(argv[i], "dev")) {
			if (dev_name(argv[i + 1], j->dev, sizeof(j->dev), err))
				return -1;
		} else if (!strcmp(argv[i], "id")) {
			if (num("id", argv[i + 1], UINT32_MAX, &j->id, err))
				return -1;
			UET_SET(j, UET_A_JOB_ID);
		} else if (!strcmp(argv[i], "addr")) {
			m = uet_addr_mode_parse(argv[i + 1]);
			if (m < 0)
				return ERR("invalid addr \"%s\" (relative, absolute)",
					   argv[i + 1]);
			j->addr_mode = (uint8_t)m;
			UET_SET(j, UET_A_JOB_ADDR_MODE);
		} else if (!strcmp(argv[i], "pid")) {
			if (pid_range(argv[i + 1], j, err))
				return -1;
		} else if (!strcmp(argv[i], "tc")) {
			if (num("tc", argv[i + 1], UINT8_MAX, &v, err))
				return -1;
			j->tc = (uint8_t)v;
			UET_SET(j, UET_A_JOB_TC);
		} else if (!strcmp(argv[i], "mode")) {
			m = uet_delivery_mode_parse(argv[i + 1]);
			if (m < 0)
				return ERR("invalid mode \"%s\" (rud, rod, rudi, uud)",
					   argv[i + 1]);
			j->mode = (uint8_t)m;
			UET_SET(j, UET_A_JOB_DELIVERY_MODE);
		} else if (!strcmp(argv[i], "cc")) {
			m = uet_cc_parse(argv[i + 1]);
			if (m < 0)
				return ERR("invalid cc \"%s\" (none, nscc, rccc, nscc-rccc)",
					   argv[i + 1]);
			j->cc = (uint8_t)m;
			UET_SET(j, UET_A_JOB_CC);
		} else if (!strcmp(argv[i], "lb")) {
			m = uet_lb_mode_parse(argv[i + 1]);
			if (m < 0)
				return ERR("invalid lb \"%s\" (single, oblivious, reps)",
					   argv[i + 1]);
			j->lb = (uint8_t)m;
			UET_SET(j, UET_A_JOB_LB);
		} else if (!strcmp(argv[i], "lb-paths")) {
			if (num("lb-paths", argv[i + 1], UINT32_MAX, &j->lb_paths, err))
				return -1;
			UET_SET(j, UET_A_JOB_LB_PATHS);
		} else if (!strcmp(argv[i], "ra-floor-mbps")) {
			if (num("ra-floor-mbps", argv[i + 1], UINT32_MAX,
				&j->ra_floor_mbps, err))
				return -1;
			UET_SET(j, UET_A_JOB_RA_FLOOR_MBPS);
		} else {
			m = nscc_param(argv[i], argv[i + 1], 1, j->nscc,
				       &j->present, err);
			if (m < 0)
				return -1;
			if (!m)
				return ERR("unknown argument \"%s\"", argv[i]);
		}
	}
	if (!j->dev[0])
		return ERR("which device? (dev DEV)");
	if (!UET_HAS(j, UET_A_JOB_ID))
		return ERR("which job? (id ID)");
	return 0;
}

int args_profile_set(int argc, char **argv, struct sel *sel, uint8_t *profile,
		     char *err)
{
	int p;

	if (argc < 1)
		return ERR("which profile? (ai-base, ai-full, hpc)");
	p = uet_profile_parse(argv[argc - 1]);
	if (p < 0)
		return ERR("invalid profile \"%s\" (ai-base, ai-full, hpc)",
			   argv[argc - 1]);
	*profile = (uint8_t)p;
	if (args_sel(argc - 1, argv, NULL, 0, sel, err))
		return -1;
	if (!sel->has_dev)
		return ERR("which device? (dev DEV)");
	return 0;
}

/*
 * key add|del|use|show: dev DEV job ID an N, and for add epoch E,
 * mode direct|cluster and key FILE (where the key is read from; the
 * key itself never appears on a command line).  Each given sets its
 * bit of @k->present (UET_A_KEY_*).
 */
int args_key(int argc, char **argv, struct uet_key_attrs *k,
	     const char **key_file, char *err)
{
	uint32_t v;
	int i, m;

	memset(k, 0, sizeof(*k));
	*key_file = NULL;
	for (i = 0; i < argc; i += 2) {
		if (value(argc, argv, i, err))
			return -1;
		if (!strcmp(argv[i], "dev")) {
			if (dev_name(argv[i + 1], k->dev, sizeof(k->dev), err))
				return -1;
			UET_SET(k, UET_A_KEY_DEV_NAME);
		} else if (!strcmp(argv[i], "job")) {
			if (num("job", argv[i + 1], UINT32_MAX, &k->job, err))
				return -1;
			UET_SET(k, UET_A_KEY_JOB_ID);
		} else if (!strcmp(argv[i], "an")) {
			if (num("an", argv[i + 1], UINT8_MAX, &v, err))
				return -1;
			k->an = (uint8_t)v;
			UET_SET(k, UET_A_KEY_AN);
		} else if (!strcmp(argv[i], "epoch")) {
			if (num("epoch", argv[i + 1], UINT16_MAX, &v, err))
				return -1;
			k->epoch = (uint16_t)v;
			UET_SET(k, UET_A_KEY_EPOCH);
		} else if (!strcmp(argv[i], "mode")) {
			m = uet_key_mode_parse(argv[i + 1]);
			if (m < 0)
				return ERR("invalid mode \"%s\" (direct, cluster)", argv[i + 1]);
			k->mode = (uint8_t)m;
			UET_SET(k, UET_A_KEY_MODE);
		} else if (!strcmp(argv[i], "key")) {
			*key_file = argv[i + 1];
		} else {
			return ERR("unknown argument \"%s\"", argv[i]);
		}
	}
	return 0;
}
