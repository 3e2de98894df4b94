/* SPDX-License-Identifier: GPL-2.0 */
/* uetctl: shared declarations of the command-line tool. */
#ifndef UETCTL_H
#define UETCTL_H

#include <stdbool.h>

/* Exit codes. */
#define EXIT_USAGE	2	/* bad command line */

struct uetctl_opts {
	bool json;
	bool pretty;
};

extern struct uetctl_opts opts;

struct uetctl_cmd {
	const char *name;
	int (*fn)(int argc, char **argv);
	const char *usage;	/* one line, without the leading "uetctl " */
};

/* util.c */
bool matches(const char *arg, const char *word);
int dispatch(const struct uetctl_cmd *cmds, const char *what, int argc, char **argv);
void print_usage(const struct uetctl_cmd *cmds);
void json_string(const char *s);

/* dev.c */
int do_dev(int argc, char **argv);

#endif /* UETCTL_H */
