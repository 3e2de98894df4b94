// SPDX-License-Identifier: GPL-2.0
/*
 * uetctl helpers: iproute2-style argument matching, dispatch, JSON, the
 * netlink socket and how failures are reported.
 */
#include <errno.h>
#include <stdio.h>
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
	putchar('"');
	for (; *s; s++) {
		unsigned char c = (unsigned char)*s;

		if (c == '"' || c == '\\')
			printf("\\%c", c);
		else if (c < 0x20)
			printf("\\u%04x", c);
		else
			putchar(c);
	}
	putchar('"');
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
