// SPDX-License-Identifier: GPL-2.0
/* uetctl job: the jobs of a device. */
#include <inttypes.h>
#include <stdio.h>
#include <uet/libuet.h>

#include "uetctl.h"

static void job_print(const struct uet_job_attrs *j, int i)
{
	if (!opts.json) {
		printf("%s job %u addr %s pid %u-%u tc %u mode %s",
		       j->dev, j->id, uet_addr_mode_name(j->addr_mode) ?: "?",
		       j->pid_lo, j->pid_hi, j->tc,
		       uet_delivery_mode_name(j->mode) ?: "?");
		if (UET_HAS(j, UET_A_JOB_CC))
			printf(" cc %s", uet_cc_name(j->cc) ?: "?");
		nscc_print(j->nscc, 1, j->present);
		if (UET_HAS(j, UET_A_JOB_LB))
			printf(" lb %s", uet_lb_mode_name(j->lb) ?: "?");
		if (UET_HAS(j, UET_A_JOB_LB_PATHS))
			printf(" lb-paths %u", j->lb_paths);
		if (UET_HAS(j, UET_A_JOB_RA_FLOOR_MBPS))
			printf(" ra-floor-mbps %u", j->ra_floor_mbps);
		if (UET_HAS(j, UET_A_JOB_SECURE))
			printf(" secure");
		printf("\n    tx %" PRIu64 " packets %" PRIu64 " bytes rx %" PRIu64
		       " packets %" PRIu64 " bytes errors %" PRIu64 "\n",
		       j->tx_packets, j->tx_bytes, j->rx_packets, j->rx_bytes,
		       j->errors);
		return;
	}
	json_sep(i);
	printf("{\"dev\":");
	json_string(j->dev);
	printf(",\"id\":%u,\"addr\":", j->id);
	json_string(uet_addr_mode_name(j->addr_mode) ?: "?");
	printf(",\"pid_lo\":%u,\"pid_hi\":%u,\"tc\":%u,\"mode\":",
	       j->pid_lo, j->pid_hi, j->tc);
	json_string(uet_delivery_mode_name(j->mode) ?: "?");
	if (UET_HAS(j, UET_A_JOB_CC)) {
		printf(",\"cc\":");
		json_string(uet_cc_name(j->cc) ?: "?");
	}
	nscc_print(j->nscc, 1, j->present);
	if (UET_HAS(j, UET_A_JOB_LB)) {
		printf(",\"lb\":");
		json_string(uet_lb_mode_name(j->lb) ?: "?");
	}
	if (UET_HAS(j, UET_A_JOB_LB_PATHS))
		printf(",\"lb_paths\":%u", j->lb_paths);
	if (UET_HAS(j, UET_A_JOB_RA_FLOOR_MBPS))
		printf(",\"ra_floor_mbps\":%u", j->ra_floor_mbps);
	printf(",\"secure\":%s", UET_HAS(j, UET_A_JOB_SECURE) ? "true" : "false");
	printf(",\"tx_packets\":%" PRIu64 ",\"tx_bytes\":%" PRIu64
	       ",\"rx_packets\":%" PRIu64 ",\"rx_bytes\":%" PRIu64
	       ",\"errors\":%" PRIu64 "}",
	       j->tx_packets, j->tx_bytes, j->rx_packets, j->rx_bytes, j->errors);
}

static int job_one(const struct uet_job_attrs *j, void *arg)
{
	int *n = arg;

	job_print(j, (*n)++);
	return 0;
}

static int job_show(int argc, char **argv)
{
	struct uet_job_attrs j;
	char err[ARG_ERR_MAX];
	struct sel sel;
	int n = 0, ret;

	if (args_show(argc, argv, "id", UINT32_MAX, &sel, err))
		return usage_fail("job", err);
	if (!nl())
		return EXIT_RUNTIME;
	if (opts.json)
		json_begin_list();
	if (sel.has_id) {
		ret = uet_nl_job_get(nl(), sel.dev, sel.id, &j);
		if (!ret)
			job_one(&j, &n);
	} else {
		ret = uet_nl_job_dump(nl(), sel.has_dev ? sel.dev : NULL, job_one, &n);
	}
	if (opts.json)
		json_end_list(n);
	return ret ? nl_fail("job show", ret) : 0;
}

static int job_add(int argc, char **argv)
{
	struct uet_job_attrs j;
	char err[ARG_ERR_MAX];
	int ret;

	if (args_job_add(argc, argv, &j, err))
		return usage_fail("job", err);
	if (!nl())
		return EXIT_RUNTIME;
	ret = uet_nl_job_add(nl(), &j);
	return ret ? nl_fail("job add", ret) : 0;
}

static int job_del(int argc, char **argv)
{
	char err[ARG_ERR_MAX];
	struct sel sel;
	int ret;

	if (args_sel(argc, argv, "id", UINT32_MAX, &sel, err))
		return usage_fail("job", err);
	if (!sel.has_dev || !sel.has_id)
		return usage_fail("job", "job del needs dev DEV id ID");
	if (!nl())
		return EXIT_RUNTIME;
	ret = uet_nl_job_del(nl(), sel.dev, sel.id);
	return ret ? nl_fail("job del", ret) : 0;
}

static const struct uetctl_cmd job_cmds[] = {
	{ "show", job_show, "job show [dev DEV [id ID]]" },
	{ "list", job_show, NULL },
	{ "add", job_add, "job add dev DEV id ID [addr relative|absolute] [pid LO-HI] [tc TC] [mode rud|rod|rudi|uud] [cc none|nscc|rccc|nscc-rccc] [cc-target-us US] [cc-base-rtt-us US] [cc-bdp BYTES] [cc-mtu BYTES] [cc-fi-pct|cc-alpha-pct|cc-eta-pct|cc-md-pct|cc-ignore-pct PCT] [lb single|oblivious|reps] [lb-paths N] [ra-floor-mbps MBPS]" },
	{ "del", job_del, "job del dev DEV id ID" },
	{ NULL },
};

int do_job(int argc, char **argv)
{
	if (argc == 0)
		return job_show(0, argv);
	return dispatch(job_cmds, "job command", argc, argv);
}
