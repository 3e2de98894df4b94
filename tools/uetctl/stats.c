// SPDX-License-Identifier: GPL-2.0
/*
 * uetctl stats: the counters of a device or of one of its jobs, by name, or
 * those of every device of this namespace.
 */
#include <inttypes.h>
#include <stdio.h>
#include <uet/libuet.h>

#include "uetctl.h"

/* What the counters are printed into; @listed: among every device's. */
struct counters {
	int n;		/* counters of this device (or job) printed */
	int devs;	/* devices printed, when @listed */
	bool listed;
};

/* {"dev":DEV,"counters":{ ... }}: one device among every device's. */
static void dev_begin_json(const char *dev, int i)
{
	json_sep(i);
	printf("{\"dev\":");
	json_string(dev);
	printf(",\"counters\":{");
}

static int counter_one(const struct uet_counter_attrs *c, void *arg)
{
	struct counters *cs = arg;

	if (!opts.json) {
		if (!cs->n) {
			printf("%s", c->dev);
			if (c->has_job)
				printf(" job %u", c->job);
			printf(":\n");
		}
		printf("    %s %" PRIu64 "\n", c->name, c->value);
	} else {
		if (cs->listed && !cs->n)
			dev_begin_json(c->dev, cs->devs);
		printf("%s", cs->n ? "," : "");
		if (opts.pretty && !cs->listed)
			printf("\n  ");
		json_string(c->name);
		printf(":%" PRIu64, c->value);
	}
	cs->n++;
	return 0;
}

static int stats_dev(const char *dev, void *arg)
{
	struct counters *cs = arg;
	int ret;

	cs->n = 0;
	ret = uet_nl_stats_get(nl(), dev, 0, 0, counter_one, cs);
	if (cs->n) {
		if (opts.json)
			printf("}}");
		cs->devs++;
	}
	return ret;
}

/* Without dev: every device of this namespace, each under its name. */
static int stats_all(void)
{
	struct counters cs = { .listed = true };
	int ret;

	if (opts.json)
		json_begin_list();
	ret = walk_devs(stats_dev, &cs);
	if (opts.json)
		json_end_list(cs.devs);
	return ret ? nl_fail("stats show", ret) : 0;
}

static int stats_show(int argc, char **argv)
{
	struct counters cs = { 0 };
	char err[ARG_ERR_MAX];
	struct sel sel;
	int ret;

	if (args_show(argc, argv, "job", UINT32_MAX, &sel, err))
		return usage_fail("stats", err);
	if (!nl())
		return EXIT_RUNTIME;
	if (!sel.has_dev)
		return stats_all();
	if (opts.json)
		putchar('{');
	ret = uet_nl_stats_get(nl(), sel.dev, sel.has_id, sel.id, counter_one, &cs);
	if (opts.json)
		printf("%s}\n", cs.n && opts.pretty ? "\n" : "");
	return ret ? nl_fail("stats show", ret) : 0;
}

static const struct uetctl_cmd stats_cmds[] = {
	{ "show", stats_show, "stats show [dev DEV [job ID]]" },
	{ NULL },
};

int do_stats(int argc, char **argv)
{
	if (argc == 0)
		return stats_show(0, argv);
	return dispatch(stats_cmds, "stats command", argc, argv);
}
