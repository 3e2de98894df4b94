// SPDX-License-Identifier: GPL-2.0
/* uetctl helpers: iproute2-style argument matching, dispatch, JSON. */
#include <stdio.h>
#include <string.h>

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
