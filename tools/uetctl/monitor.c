// SPDX-License-Identifier: GPL-2.0
/*
 * uetctl monitor: the notifications of the devices, jobs and PDCs of this
 * network namespace, one line each as they come, as ip monitor prints
 * links and addresses.
 */
#include <arpa/inet.h>
#include <errno.h>
#include <stdio.h>
#include <uet/libuet.h>

#include "uetctl.h"

/* What to show: a bit per kind of object. */
enum {
	MON_DEV = 1 << 0,
	MON_JOB = 1 << 1,
	MON_PDC = 1 << 2,
	MON_ALL = MON_DEV | MON_JOB | MON_PDC,
};

/* A notification's kind, verb and which objects it is of. */
static const struct {
	uint8_t cmd;
	int kind;
	const char *object;
	const char *verb;
} events[] = {
	{ UET_CMD_DEV_ADD_NTF, MON_DEV, "dev", "add" },
	{ UET_CMD_DEV_CHANGE_NTF, MON_DEV, "dev", "change" },
	{ UET_CMD_DEV_DEL_NTF, MON_DEV, "dev", "del" },
	{ UET_CMD_JOB_ADD_NTF, MON_JOB, "job", "add" },
	{ UET_CMD_JOB_DEL_NTF, MON_JOB, "job", "del" },
	{ UET_CMD_PDC_ADD_NTF, MON_PDC, "pdc", "add" },
	{ UET_CMD_PDC_DEL_NTF, MON_PDC, "pdc", "del" },
};

static void dev_text(const struct uet_dev_attrs *d)
{
	printf(" %s netdev %s", d->name, d->netdev);
	if (UET_HAS(d, UET_A_DEV_UDP_PORT))
		printf(" udp-port %u cc %s lb %s", d->udp_port,
		       uet_cc_name(d->cc) ?: "?", uet_lb_mode_name(d->lb) ?: "?");
}

static void dev_json(const struct uet_dev_attrs *d)
{
	printf(",\"dev\":");
	json_string(d->name);
	printf(",\"netdev\":");
	json_string(d->netdev);
	printf(",\"ifindex\":%u", d->ifindex);
	if (UET_HAS(d, UET_A_DEV_UDP_PORT)) {
		printf(",\"udp_port\":%u,\"cc\":", d->udp_port);
		json_string(uet_cc_name(d->cc) ?: "?");
		printf(",\"lb\":");
		json_string(uet_lb_mode_name(d->lb) ?: "?");
	}
}

static void job_text(const struct uet_job_attrs *j)
{
	printf(" %s job %u", j->dev, j->id);
	if (UET_HAS(j, UET_A_JOB_DELIVERY_MODE))
		printf(" tc %u mode %s%s", j->tc,
		       uet_delivery_mode_name(j->mode) ?: "?",
		       UET_HAS(j, UET_A_JOB_SECURE) ? " secure" : "");
}

static void job_json(const struct uet_job_attrs *j)
{
	printf(",\"dev\":");
	json_string(j->dev);
	printf(",\"id\":%u", j->id);
	if (UET_HAS(j, UET_A_JOB_DELIVERY_MODE)) {
		printf(",\"tc\":%u,\"mode\":", j->tc);
		json_string(uet_delivery_mode_name(j->mode) ?: "?");
		printf(",\"secure\":%s",
		       UET_HAS(j, UET_A_JOB_SECURE) ? "true" : "false");
	}
}

static void pdc_text(const struct uet_pdc_attrs *p)
{
	char peer[INET6_ADDRSTRLEN];

	peer_str(p->peer, peer, sizeof(peer));
	printf(" %s pdc %u", p->dev, p->lpdcid);
	if (UET_HAS(p, UET_A_PDC_RPDCID))
		printf(" rpdc %u", p->rpdcid);
	printf(" %s mode %s peer %s job %u tc %u",
	       p->initiator ? "initiator" : "target",
	       uet_delivery_mode_name(p->mode) ?: "?", peer, p->job, p->tc);
}

static void pdc_json(const struct uet_pdc_attrs *p)
{
	char peer[INET6_ADDRSTRLEN];

	peer_str(p->peer, peer, sizeof(peer));
	printf(",\"dev\":");
	json_string(p->dev);
	printf(",\"lpdcid\":%u", p->lpdcid);
	if (UET_HAS(p, UET_A_PDC_RPDCID))
		printf(",\"rpdcid\":%u", p->rpdcid);
	printf(",\"role\":\"%s\",\"mode\":",
	       p->initiator ? "initiator" : "target");
	json_string(uet_delivery_mode_name(p->mode) ?: "?");
	printf(",\"peer\":");
	json_string(peer);
	printf(",\"job\":%u,\"tc\":%u", p->job, p->tc);
}

static int event_one(const struct uet_event *ev, void *arg)
{
	const int *want = arg;
	size_t i;

	for (i = 0; i < sizeof(events) / sizeof(events[0]); i++)
		if (events[i].cmd == ev->cmd)
			break;
	if (i == sizeof(events) / sizeof(events[0]) ||
	    !(*want & events[i].kind))
		return 0;
	if (opts.json) {
		printf("{\"event\":\"%s-%s\"", events[i].object, events[i].verb);
	} else {
		printf("[%s] %s", events[i].object, events[i].verb);
	}
	switch (events[i].kind) {
	case MON_DEV:
		(opts.json ? dev_json : dev_text)(&ev->dev);
		break;
	case MON_JOB:
		(opts.json ? job_json : job_text)(&ev->job);
		break;
	default:
		(opts.json ? pdc_json : pdc_text)(&ev->pdc);
		break;
	}
	printf(opts.json ? "}\n" : "\n");
	/* a reader of a pipe sees each event as it comes */
	fflush(stdout);
	return 0;
}

/* uetctl monitor [all | dev | job | pdc]... */
int do_monitor(int argc, char **argv)
{
	int want = 0, ret, i;

	if (argc == 1 && matches(argv[0], "help")) {
		fprintf(stderr, "Usage: uetctl monitor [all | dev | job | pdc]...\n");
		return 0;
	}
	for (i = 0; i < argc; i++) {
		if (matches(argv[i], "all"))
			want |= MON_ALL;
		else if (matches(argv[i], "dev"))
			want |= MON_DEV;
		else if (matches(argv[i], "job"))
			want |= MON_JOB;
		else if (matches(argv[i], "pdc"))
			want |= MON_PDC;
		else
			return usage_fail("monitor", "monitor shows all, dev, job or pdc");
	}
	if (!want)
		want = MON_ALL;
	if (!nl())
		return EXIT_RUNTIME;
	for (;;) {
		ret = uet_nl_monitor(nl(), event_one, &want);
		if (ret != -ENOBUFS)
			break;
		/* the socket's queue overflowed: say so and go on */
		fprintf(stderr, "uetctl: monitor: notifications lost\n");
	}
	return nl_fail("monitor", ret);
}
