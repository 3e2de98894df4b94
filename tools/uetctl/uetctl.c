// SPDX-License-Identifier: GPL-2.0
/*
 * uetctl: configure and inspect uet, the Ultra Ethernet Transport software
 * RDMA device.  "uetctl [OPTIONS] OBJECT COMMAND [ARGS]", as iproute2 does.
 * Exit status: 0 done, 1 the kernel or the system refused, 2 bad usage.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <uet/libuet.h>

#include "uetctl.h"

struct uetctl_opts opts;

/* Longest line and most words of a batch file command. */
#define BATCH_LINE_MAX	1024
#define BATCH_ARGS_MAX	64

static int do_help(int argc, char **argv);

static const struct uetctl_cmd objects[] = {
	{ "dev", do_dev, "dev help" },
	{ "job", do_job, "job help" },
	{ "profile", do_profile, "profile help" },
	{ "pdc", do_pdc, "pdc help" },
	{ "stats", do_stats, "stats help" },
	{ "key", do_key, "key help" },
	{ "monitor", do_monitor, "monitor [all | dev | job | pdc]..." },
	{ "help", do_help, NULL },
	{ NULL },
};

static int do_help(int argc, char **argv)
{
	(void)argc;
	(void)argv;
	fprintf(stderr,
		"Usage: uetctl [OPTIONS] OBJECT COMMAND [ARGS]\n"
		"       uetctl [OPTIONS] -b[atch] FILE\n"
		"OBJECT := dev | job | profile | pdc | stats | key | monitor\n"
		"OPTIONS := -j[son] | -p[retty] | -s[tatistics] | -V[ersion] | -h[elp]\n"
		"Without a device, show lists every uet device of this network namespace\n"
		"(dev show: of the host, with the settings of this namespace's).\n");
	print_usage(objects);
	return 0;
}

/* Run each line of @path ("-": stdin) as a command; stop at the first failure. */
static int batch(const char *path)
{
	char line[BATCH_LINE_MAX], *args[BATCH_ARGS_MAX], *tok, *save;
	unsigned int lineno = 0;
	FILE *f;
	int argc, rc = 0;

	f = strcmp(path, "-") ? fopen(path, "r") : stdin;
	if (!f) {
		perror("uetctl: batch");
		return EXIT_RUNTIME;
	}
	while (!rc && fgets(line, sizeof(line), f)) {
		lineno++;
		argc = 0;
		for (tok = strtok_r(line, " \t\n", &save); tok && argc < BATCH_ARGS_MAX;
		     tok = strtok_r(NULL, " \t\n", &save))
			args[argc++] = tok;
		if (!argc || args[0][0] == '#')
			continue;
		rc = dispatch(objects, "object", argc, args);
		if (rc)
			fprintf(stderr, "uetctl: batch: line %u failed\n", lineno);
	}
	if (f != stdin)
		fclose(f);
	return rc;
}

int main(int argc, char **argv)
{
	const char *batch_file = NULL;
	int rc;

	while (argc > 1 && argv[1][0] == '-') {
		const char *o = argv[1] + 1 + (argv[1][1] == '-');

		if (matches(o, "json")) {
			opts.json = true;
		} else if (matches(o, "pretty")) {
			opts.pretty = true;
		} else if (matches(o, "stats") || matches(o, "statistics")) {
			opts.stats = true;
		} else if (matches(o, "batch")) {
			if (argc < 3) {
				fprintf(stderr, "uetctl: -batch needs a file\n");
				return EXIT_USAGE;
			}
			batch_file = argv[2];
			argc--;
			argv++;
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
	if (batch_file) {
		rc = batch(batch_file);
	} else if (argc < 2) {
		do_help(0, NULL);
		return EXIT_USAGE;
	} else if (matches(argv[1], "help")) {
		rc = do_help(0, NULL);
	} else {
		rc = dispatch(objects, "object", argc - 1, argv + 1);
	}
	nl_done();
	return rc;
}
