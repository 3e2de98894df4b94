// SPDX-License-Identifier: GPL-2.0
/* uetctl dev: the uet devices of this host. */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <uet/libuet.h>

#include "uetctl.h"

#define MAX_DEVS 256

static void show_json(const struct uet_dev_info *d, int n)
{
	const char *sep = opts.pretty ? "\n  " : "";
	int i;

	printf("[");
	for (i = 0; i < n; i++) {
		printf("%s%s{\"ifname\":", i ? "," : "", sep);
		json_string(d[i].name);
		printf(",\"netdev\":");
		json_string(d[i].netdev);
		printf(",\"node_guid\":");
		json_string(d[i].node_guid);
		printf(",\"state\":");
		json_string(d[i].state);
		printf("}");
	}
	printf("%s]\n", n && opts.pretty ? "\n" : "");
}

static int dev_show(int argc, char **argv)
{
	static struct uet_dev_info devs[MAX_DEVS];
	const char *only = NULL;
	int i, n, shown = 0;

	if (argc > 1) {
		fprintf(stderr, "uetctl: unexpected argument \"%s\"\n", argv[1]);
		return EXIT_USAGE;
	}
	if (argc == 1)
		only = argv[0];

	n = uet_dev_list(devs, MAX_DEVS);
	if (n < 0) {
		fprintf(stderr, "uetctl: cannot list devices: %s\n", strerror(-n));
		return 1;
	}
	if (n > MAX_DEVS)
		n = MAX_DEVS;
	for (i = 0; i < n; i++)
		if (!only || !strcmp(devs[i].name, only))
			devs[shown++] = devs[i];
	if (only && !shown) {
		fprintf(stderr, "uetctl: no uet device \"%s\"\n", only);
		return 1;
	}

	if (opts.json) {
		show_json(devs, shown);
		return 0;
	}
	for (i = 0; i < shown; i++)
		printf("%s: netdev %s node_guid %s state %s\n", devs[i].name,
		       devs[i].netdev, devs[i].node_guid, devs[i].state);
	return 0;
}

static const struct uetctl_cmd dev_cmds[] = {
	{ "show", dev_show, "dev show [DEV]" },
	{ "list", dev_show, NULL },
	{ NULL },
};

int do_dev(int argc, char **argv)
{
	if (argc == 0)
		return dev_show(0, argv);
	return dispatch(dev_cmds, "dev command", argc, argv);
}
