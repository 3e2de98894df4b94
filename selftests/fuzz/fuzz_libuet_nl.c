// SPDX-License-Identifier: GPL-2.0
/*
 * libFuzzer target of libuet's netlink reply parser
 * (userspace/libuet/parse.c): whatever the bytes, the parser reads only
 * within them, hands out only NUL-terminated strings, and stops on
 * errors.  The first byte picks which reply is expected: the family
 * lookup, one of the uet commands, or notifications.
 */
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <linux/uet_netlink.h>

#include "nl_priv.h"

static volatile uint64_t sink;

static void touch_str(const char *s, size_t max)
{
	size_t n = strnlen(s, max);

	if (n == max)
		__builtin_trap();	/* not NUL-terminated */
	sink += n;
}

static int on_dev(const struct uet_dev_attrs *d, void *arg __attribute__((unused)))
{
	touch_str(d->name, sizeof(d->name));
	touch_str(d->netdev, sizeof(d->netdev));
	sink += d->rx_bytes + d->pdc_pool + d->present;
	return 0;
}

static int on_job(const struct uet_job_attrs *j, void *arg __attribute__((unused)))
{
	touch_str(j->dev, sizeof(j->dev));
	sink += j->id + j->pid_hi + j->errors;
	return 0;
}

static int on_profile(const struct uet_profile_attrs *p, void *arg __attribute__((unused)))
{
	touch_str(p->dev, sizeof(p->dev));
	sink += p->features;
	return 0;
}

static int on_pdc(const struct uet_pdc_attrs *p, void *arg __attribute__((unused)))
{
	touch_str(p->dev, sizeof(p->dev));
	sink += p->peer[15] + p->timeouts + p->lpdcid;
	return 0;
}

static int on_counter(const struct uet_counter_attrs *c, void *arg __attribute__((unused)))
{
	touch_str(c->dev, sizeof(c->dev));
	touch_str(c->name, sizeof(c->name));
	sink += c->value;
	/* a callback may stop the walk: exercise that path too */
	return c->value == 0xdead ? 1 : 0;
}

static int on_key(const struct uet_key_attrs *k, void *arg __attribute__((unused)))
{
	touch_str(k->dev, sizeof(k->dev));
	sink += k->job + k->epoch + k->key[0];
	return 0;
}

static int on_event(const struct uet_event *ev, void *arg)
{
	sink += ev->cmd;
	switch (ev->cmd) {
	case UET_CMD_DEV_ADD_NTF:
	case UET_CMD_DEV_CHANGE_NTF:
	case UET_CMD_DEV_DEL_NTF:
		return on_dev(&ev->dev, arg);
	case UET_CMD_JOB_ADD_NTF:
	case UET_CMD_JOB_DEL_NTF:
		return on_job(&ev->job, arg);
	case UET_CMD_PDC_ADD_NTF:
	case UET_CMD_PDC_DEL_NTF:
		return on_pdc(&ev->pdc, arg);
	default:
		__builtin_trap();	/* handed an event it does not know */
	}
}

/*
 * The first byte picks what the parser expects: the family lookup, a uet
 * command's replies, or (the last) the monitor group's notifications.
 */
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static void * const fns[] = {
		NULL, on_dev, on_job, on_profile, on_pdc, on_counter, on_key,
		on_event,
	};
	static const uint8_t cmds[] = {
		0, UET_CMD_DEV_GET, UET_CMD_JOB_GET, UET_CMD_PROFILE_GET,
		UET_CMD_PDC_GET, UET_CMD_STATS_GET, UET_CMD_KEY_GET, 0,
	};
	struct uet_nl_reply r = { 0 };
	unsigned int pick;
	void *buf;

	if (size < 1)
		return 0;
	/* the parser is given what recv() fills: an aligned buffer */
	buf = malloc(size - 1 ? size - 1 : 1);
	if (!buf)
		return 0;
	memcpy(buf, data + 1, size - 1);
	pick = data[0] % sizeof(cmds);
	r.ctrl = pick == 0;
	r.monitor = pick == sizeof(cmds) - 1;
	r.cmd = cmds[pick];
	r.fn = fns[pick];
	uet_nl_parse(buf, size - 1, 0, 0, &r);
	touch_str(r.errmsg, sizeof(r.errmsg));
	free(buf);
	return 0;
}
