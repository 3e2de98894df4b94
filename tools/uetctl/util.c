// SPDX-License-Identifier: GPL-2.0
/*
 * uetctl helpers: iproute2-style argument matching, dispatch, JSON, the
 * netlink socket, the devices of this namespace and how failures are
 * reported.
 */
#include <arpa/inet.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <uet/libuet.h>

#include "uetctl.h"

/*
 * @arg selects @word when it is a non-empty prefix of it, the way iproute2
 * accepts "uetctl d s" for "uetctl dev show".
 */
bool matches(const char *arg, const char *word)
{
	size_t len = strlen(arg);

	return len && len <= strlen(word) && !strncmp(arg, word, len);
}

void print_usage(const struct uetctl_cmd *cmds)
{
	for (; cmds->name; cmds++)
		if (cmds->usage)
			fprintf(stderr, "Usage: uetctl %s\n", cmds->usage);
}

/*
 * Run the first of @cmds that argv[0] selects, with the remaining
 * arguments; "help" and no argument print every usage line of @what.
 */
int dispatch(const struct uetctl_cmd *cmds, const char *what, int argc, char **argv)
{
	const struct uetctl_cmd *c;

	if (argc < 1 || matches(argv[0], "help")) {
		print_usage(cmds);
		return argc < 1 ? EXIT_USAGE : 0;
	}
	for (c = cmds; c->name; c++)
		if (matches(argv[0], c->name))
			return c->fn(argc - 1, argv + 1);
	fprintf(stderr, "uetctl: unknown %s \"%s\"; try \"uetctl help\"\n",
		what, argv[0]);
	return EXIT_USAGE;
}

/* Print @s as a JSON string. */
void json_string(const char *s)
{
	json_fputs(stdout, s);
}

/*
 * The NSCC parameters @present has, a device's or (@job) a job's: as
 * "name value" pairs, or as JSON members ("cc_target_us": ...).
 */
void nscc_print(const uint32_t *nscc, int job, uint64_t present)
{
	const char *name, *c;
	unsigned int i;

	for (i = 0; i < UET_NSCC_PARAMS; i++) {
		if (!((present >> uet_nscc_attr(i, job)) & 1))
			continue;
		name = uet_nscc_name(i);
		if (!opts.json) {
			printf(" %s %u", name, nscc[i]);
			continue;
		}
		printf(",\"");
		for (c = name; *c; c++)
			putchar(*c == '-' ? '_' : *c);
		printf("\":%u", nscc[i]);
	}
}

static struct uet_nl *the_nl;

/* The netlink socket, opened on first use; NULL after saying why not. */
struct uet_nl *nl(void)
{
	if (!the_nl) {
		the_nl = uet_nl_open();
		if (!the_nl)
			fprintf(stderr, "uetctl: cannot reach the uet netlink family: %s%s\n",
				strerror(errno),
				errno == ENOENT ? " (is the uet module loaded?)" : "");
	}
	return the_nl;
}

void nl_done(void)
{
	uet_nl_close(the_nl);
	the_nl = NULL;
}

/* The names a dev dump lists. */
struct dev_names {
	char (*name)[UET_NAME_MAX];
	size_t n, max;
};

static int dev_name_add(const struct uet_dev_attrs *d, void *arg)
{
	struct dev_names *names = arg;
	void *p;

	if (names->n == names->max) {
		names->max = names->max ? 2 * names->max : 16;
		p = realloc(names->name, names->max * sizeof(*names->name));
		if (!p)
			return -ENOMEM;
		names->name = p;
	}
	memcpy(names->name[names->n++], d->name, sizeof(d->name));
	return 0;
}

/*
 * Call @fn with the name of each uet device of this network namespace, in
 * the kernel's order, for what the kernel has no dump of.  The names come
 * from a dev dump first: the socket cannot take requests in the middle of
 * a dump.  A device gone since (-ENODEV) is skipped.  Returns 0, the
 * dump's error or the first other error of @fn.
 */
int walk_devs(dev_name_fn fn, void *arg)
{
	struct dev_names names = { 0 };
	size_t i;
	int ret;

	ret = uet_nl_dev_dump(nl(), dev_name_add, &names);
	for (i = 0; !ret && i < names.n; i++) {
		ret = fn(names.name[i], arg);
		if (ret == -ENODEV)
			ret = 0;
	}
	free(names.name);
	return ret;
}

/*
 * A request failed: "uetctl: WHAT: the kernel's message (errno text)", or
 * the errno text alone when the kernel gave no reason.
 */
int nl_fail(const char *what, int err)
{
	const char *msg = the_nl ? uet_nl_errmsg(the_nl) : "";

	if (*msg)
		fprintf(stderr, "uetctl: %s: %s (%s)\n", what, msg, strerror(-err));
	else
		fprintf(stderr, "uetctl: %s: %s%s\n", what, strerror(-err),
			err == -EPERM ? " (needs CAP_NET_ADMIN)" : "");
	return EXIT_RUNTIME;
}

int usage_fail(const char *what, const char *msg)
{
	fprintf(stderr, "uetctl: %s: %s; try \"uetctl %s help\"\n", what, msg,
		what);
	return EXIT_USAGE;
}

/* JSON lists: "[", elements separated by commas, "]". */
void json_begin_list(void)
{
	putchar('[');
}

void json_sep(int i)
{
	printf("%s%s", i ? "," : "", opts.pretty ? "\n  " : "");
}

void json_end_list(int n)
{
	printf("%s]\n", n && opts.pretty ? "\n" : "");
}

/* A PDC's peer address, IPv4 as dotted quad when it is v4-mapped. */
void peer_str(const uint8_t *a, char *buf, size_t len)
{
	static const uint8_t v4mapped[12] = { [10] = 0xff, [11] = 0xff };
	int v4 = !memcmp(a, v4mapped, sizeof(v4mapped));

	if (!inet_ntop(v4 ? AF_INET : AF_INET6, v4 ? a + 12 : a, buf, len))
		snprintf(buf, len, "?");
}
