// SPDX-License-Identifier: GPL-2.0
/* uetctl stats: the counters of a device or of one of its jobs, by name. */
#include <inttypes.h>
#include <stdio.h>
#include <uet/libuet.h>

#include "uetctl.h"

static int counter_one(const struct uet_counter_attrs *c, void *arg)
{
	int *n = arg;

	if (!opts.json) {
		if (!*n) {
			printf("%s", c->dev);
			if (c->has_job)
				printf(" job %u", c->job);
			printf(":\n");
		}
		printf("    %s %" PRIu64 "\n", c->name, c->value);
	} else {
		printf("%s", *n ? "," : "");
		if (opts.pretty)
			printf("\n  ");
		json_string(c->name);
		printf(":%" PRIu64, c->value);
	}
	(*n)++;
	return 0;
}

static int stats_show(int argc, char **argv)
{
	char err[ARG_ERR_MAX];
	struct sel sel;
	int n = 0, ret;

	if (args_sel(argc, argv, "job", UINT32_MAX, &sel, err))
		return usage_fail("stats", err);
	if (!sel.has_dev)
		return usage_fail("stats", "which device? (dev DEV)");
	if (!nl())
		return EXIT_RUNTIME;
	if (opts.json)
		putchar('{');
	ret = uet_nl_stats_get(nl(), sel.dev, sel.has_id, sel.id, counter_one, &n);
	if (opts.json)
		printf("%s}\n", n && opts.pretty ? "\n" : "");
	return ret ? nl_fail("stats show", ret) : 0;
}

static const struct uetctl_cmd stats_cmds[] = {
	{ "show", stats_show, "stats show dev DEV [job ID]" },
	{ NULL },
};

int do_stats(int argc, char **argv)
{
	return dispatch(stats_cmds, "stats command", argc, argv);
}
