// SPDX-License-Identifier: GPL-2.0
/*
 * uetctl: configure and inspect uet, the Ultra Ethernet Transport software
 * RDMA device.  "uetctl [OPTIONS] OBJECT COMMAND [ARGS]", as iproute2 does.
 */
#include <stdio.h>
#include <string.h>
#include <uet/libuet.h>

#include "uetctl.h"

struct uetctl_opts opts;

static int do_help(int argc, char **argv);

static const struct uetctl_cmd objects[] = {
	{ "dev", do_dev, "dev show [DEV]" },
	{ "help", do_help, NULL },
	{ NULL },
};

static int do_help(int argc, char **argv)
{
	(void)argc;
	(void)argv;
	fprintf(stderr,
		"Usage: uetctl [OPTIONS] OBJECT COMMAND [ARGS]\n"
		"OBJECT := dev\n"
		"OPTIONS := -j[son] | -p[retty] | -V[ersion] | -h[elp]\n");
	print_usage(objects);
	return 0;
}

int main(int argc, char **argv)
{
	while (argc > 1 && argv[1][0] == '-') {
		const char *o = argv[1] + 1 + (argv[1][1] == '-');

		if (matches(o, "json")) {
			opts.json = true;
		} else if (matches(o, "pretty")) {
			opts.pretty = true;
		} else if (matches(o, "Version")) {
			printf("uetctl %s\n", uet_version());
			return 0;
		} else if (matches(o, "help")) {
			return do_help(0, NULL);
		} else {
			fprintf(stderr, "uetctl: unknown option \"%s\"; try \"uetctl help\"\n",
				argv[1]);
			return EXIT_USAGE;
		}
		argc--;
		argv++;
	}
	if (argc < 2) {
		do_help(0, NULL);
		return EXIT_USAGE;
	}
	return dispatch(objects, "object", argc - 1, argv + 1);
}
