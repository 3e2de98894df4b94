// SPDX-License-Identifier: GPL-2.0
/*
 * uetctl dev: the uet devices of this host (sysfs), with the settings and
 * counters of those in this network namespace (netlink).
 */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <string.h>
#include <uet/libuet.h>

#include "uetctl.h"

#define MAX_DEVS 256
/* -s: counters per line of the text output */
#define STATS_PER_LINE 4

static void settings_text(const struct uet_dev_attrs *a)
{
	char dscp[8 * (UET_TC_MAX + 1)];
	size_t n = 0;
	int i;

	for (i = 0; i <= UET_TC_MAX; i++)
		n += snprintf(dscp + n, sizeof(dscp) - n, "%s%u", i ? "," : "",
			      a->tc_dscp[i]);
	printf("    rc-mode %s max-payload %u ack-delay-us %u pdc-pool %u pdc-reserved %u"
	       " pdc-per-source %u\n"
	       "    rto-min-us %u rto-max-us %u rto-initial-us %u pdc-idle-ms %u\n"
	       "    cc %s link-mbps %u tc-dscp %s ctl-tc %u\n   ",
	       uet_delivery_mode_name(a->rc_mode) ?: "?", a->max_payload,
	       a->ack_delay_us, a->pdc_pool, a->pdc_reserved, a->pdc_per_source,
	       a->rto_min_us, a->rto_max_us, a->rto_init_us, a->pdc_idle_ms,
	       uet_cc_name(a->cc) ?: "?", a->link_mbps, dscp, a->ctl_tc);
	nscc_print(a->nscc, 0, a->present);
	printf("\n    lb %s lb-paths %u ssi %u udp-port %u encap %s ra-floor-mbps %u\n"
	       "    profile %s jobs %u pdcs %u\n"
	       "    tx %" PRIu64 " packets %" PRIu64 " bytes rx %" PRIu64 " packets %" PRIu64 " bytes\n",
	       uet_lb_mode_name(a->lb) ?: "?", a->lb_paths, a->ssi, a->udp_port,
	       uet_encap_name(a->encap) ?: "?", a->ra_floor_mbps,
	       uet_profile_name(a->profile) ?: "?",
	       a->jobs, a->pdcs, a->tx_packets, a->tx_bytes, a->rx_packets,
	       a->rx_bytes);
}

static void settings_json(const struct uet_dev_attrs *a)
{
	int i;

	printf(",\"rc_mode\":");
	json_string(uet_delivery_mode_name(a->rc_mode) ?: "?");
	printf(",\"max_payload\":%u,\"ack_delay_us\":%u,\"pdc_pool\":%u,"
	       "\"pdc_reserved\":%u,\"pdc_per_source\":%u,\"rto_min_us\":%u,"
	       "\"rto_max_us\":%u,\"rto_initial_us\":%u,\"pdc_idle_ms\":%u",
	       a->max_payload, a->ack_delay_us, a->pdc_pool, a->pdc_reserved,
	       a->pdc_per_source, a->rto_min_us, a->rto_max_us, a->rto_init_us,
	       a->pdc_idle_ms);
	printf(",\"cc\":");
	json_string(uet_cc_name(a->cc) ?: "?");
	nscc_print(a->nscc, 0, a->present);
	printf(",\"link_mbps\":%u,\"tc_dscp\":[", a->link_mbps);
	for (i = 0; i <= UET_TC_MAX; i++)
		printf("%s%u", i ? "," : "", a->tc_dscp[i]);
	printf("],\"ctl_tc\":%u,\"lb\":", a->ctl_tc);
	json_string(uet_lb_mode_name(a->lb) ?: "?");
	printf(",\"lb_paths\":%u,\"ssi\":%u,\"udp_port\":%u,\"encap\":",
	       a->lb_paths, a->ssi, a->udp_port);
	json_string(uet_encap_name(a->encap) ?: "?");
	printf(",\"ra_floor_mbps\":%u,\"profile\":", a->ra_floor_mbps);
	json_string(uet_profile_name(a->profile) ?: "?");
	printf(",\"jobs\":%u,\"pdcs\":%u,\"tx_packets\":%" PRIu64
	       ",\"tx_bytes\":%" PRIu64 ",\"rx_packets\":%" PRIu64
	       ",\"rx_bytes\":%" PRIu64,
	       a->jobs, a->pdcs, a->tx_packets, a->tx_bytes, a->rx_packets,
	       a->rx_bytes);
}

/*
 * -s: a device's counters under its settings, STATS_PER_LINE to a line,
 * or a "stats" object
 */
static int stat_one(const struct uet_counter_attrs *c, void *arg)
{
	int *n = arg;

	if (!opts.json)
		printf("%s %s %" PRIu64, *n % STATS_PER_LINE ? "" : "\n   ",
		       c->name, c->value);
	else
		printf("%s\"%s\":%" PRIu64, *n ? "," : "", c->name, c->value);
	(*n)++;
	return 0;
}

static int dev_stats(const char *name)
{
	int n = 0, ret;

	if (!nl())
		return EXIT_RUNTIME;
	if (opts.json)
		printf(",\"stats\":{");
	else
		printf("    stats:");
	ret = uet_nl_stats_get(nl(), name, false, 0, stat_one, &n);
	printf(opts.json ? "}" : "\n");
	return ret ? nl_fail("dev show -s", ret) : 0;
}

/*
 * The netlink view of @name, if the device is in this namespace and the
 * family answers; devices of other namespaces show their sysfs part only.
 */
static bool nl_view(const char *name, struct uet_dev_attrs *a)
{
	struct uet_nl *h = uet_nl_open();
	bool ok;

	if (!h)
		return false;
	ok = !uet_nl_dev_get(h, name, a);
	uet_nl_close(h);
	return ok;
}

static int dev_show(int argc, char **argv)
{
	static struct uet_dev_info devs[MAX_DEVS];
	struct uet_dev_attrs a;
	const char *only = NULL;
	int i, n, shown = 0, rc = 0;
	bool have;

	if (argc > 1)
		return usage_fail("dev", "too many arguments");
	if (argc == 1)
		only = argv[0];

	n = uet_dev_list(devs, MAX_DEVS);
	if (n < 0) {
		fprintf(stderr, "uetctl: cannot list devices: %s\n", strerror(-n));
		return EXIT_RUNTIME;
	}
	if (n > MAX_DEVS)
		n = MAX_DEVS;
	for (i = 0; i < n; i++)
		if (!only || !strcmp(devs[i].name, only))
			devs[shown++] = devs[i];
	if (only && !shown) {
		fprintf(stderr, "uetctl: dev: no uet device \"%s\"\n", only);
		return EXIT_RUNTIME;
	}

	if (opts.json)
		json_begin_list();
	for (i = 0; i < shown; i++) {
		have = nl_view(devs[i].name, &a);
		if (!opts.json) {
			printf("%s: netdev %s node_guid %s state %s\n", devs[i].name,
			       devs[i].netdev, devs[i].node_guid, devs[i].state);
			if (have)
				settings_text(&a);
			if (have && opts.stats)
				rc = dev_stats(devs[i].name) ?: rc;
			continue;
		}
		json_sep(i);
		printf("{\"ifname\":");
		json_string(devs[i].name);
		printf(",\"netdev\":");
		json_string(devs[i].netdev);
		printf(",\"node_guid\":");
		json_string(devs[i].node_guid);
		printf(",\"state\":");
		json_string(devs[i].state);
		if (have)
			settings_json(&a);
		if (have && opts.stats)
			rc = dev_stats(devs[i].name) ?: rc;
		printf("}");
	}
	if (opts.json)
		json_end_list(shown);
	return rc;
}

static int dev_set(int argc, char **argv)
{
	struct uet_dev_attrs s;
	char err[ARG_ERR_MAX];
	int ret;

	if (args_dev_set(argc, argv, &s, err))
		return usage_fail("dev", err);
	if (!nl())
		return EXIT_RUNTIME;
	ret = uet_nl_dev_set(nl(), &s);
	return ret ? nl_fail("dev set", ret) : 0;
}

static const struct uetctl_cmd dev_cmds[] = {
	{ "show", dev_show, "dev show [DEV]" },
	{ "list", dev_show, NULL },
	{ "set", dev_set, "dev set DEV [rc-mode rud|rod] [max-payload BYTES] [ack-delay-us US] [pdc-pool N] [pdc-reserved N] [pdc-per-source N] [rto-min-us US] [rto-max-us US] [rto-initial-us US] [pdc-idle-ms MS] [cc none|nscc|rccc|nscc-rccc] [cc-target-us US] [cc-base-rtt-us US] [cc-bdp BYTES] [cc-mtu BYTES] [cc-fi-pct|cc-alpha-pct|cc-eta-pct|cc-md-pct|cc-ignore-pct PCT] [link-mbps MBPS] [tc-dscp D0,...,D7] [ctl-tc TC] [lb single|oblivious|reps] [lb-paths N] [ssi N] [udp-port PORT] [encap udp|ip|udp-zero-csum] [ra-floor-mbps MBPS]" },
	{ NULL },
};

int do_dev(int argc, char **argv)
{
	if (argc == 0)
		return dev_show(0, argv);
	return dispatch(dev_cmds, "dev command", argc, argv);
}
