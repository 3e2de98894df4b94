/* SPDX-License-Identifier: GPL-2.0 */
/* uetctl: shared declarations of the command-line tool. */
#ifndef UETCTL_H
#define UETCTL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

/* Exit codes. */
#define EXIT_RUNTIME	1	/* the kernel or the system refused */
#define EXIT_USAGE	2	/* bad command line */

struct uetctl_opts {
	bool json;
	bool pretty;
	bool stats;	/* -s: show adds the counters, as ip -s does */
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
void json_fputs(FILE *f, const char *s);
struct uet_nl *nl(void);
void nl_done(void);
int nl_fail(const char *what, int err);
int usage_fail(const char *what, const char *msg);
void nscc_print(const uint32_t *nscc, int job, uint64_t present);
void json_begin_list(void);
void json_sep(int i);
void json_end_list(int n);
void peer_str(const uint8_t *a, char *buf, size_t len);
/* Called with each device's name; a non-zero return stops the walk. */
typedef int (*dev_name_fn)(const char *dev, void *arg);
int walk_devs(dev_name_fn fn, void *arg);

/* args.c: the command lines of the commands, checked for syntax only */
#define ARG_ERR_MAX	160

/* dev DEV, id|job ID: what names an object */
struct sel {
	char dev[64];
	bool has_dev;
	bool has_id;
	uint32_t id;
};

int parse_u32(const char *s, uint32_t max, uint32_t *out);
int args_sel(int argc, char **argv, const char *idword, uint32_t idmax,
	     struct sel *sel, char *err);
int args_show(int argc, char **argv, const char *idword, uint32_t idmax,
	      struct sel *sel, char *err);
struct uet_dev_attrs;
struct uet_job_attrs;
int args_dev_set(int argc, char **argv, struct uet_dev_attrs *s, char *err);
int args_job_add(int argc, char **argv, struct uet_job_attrs *j, char *err);
int args_profile_set(int argc, char **argv, struct sel *sel, uint8_t *profile,
		     char *err);
struct uet_key_attrs;
int args_key(int argc, char **argv, struct uet_key_attrs *k,
	     const char **key_file, char *err);
int key_read(const char *path, uint8_t *key, char *err);

/* one file per object */
int do_dev(int argc, char **argv);
int do_job(int argc, char **argv);
int do_profile(int argc, char **argv);
int do_pdc(int argc, char **argv);
int do_stats(int argc, char **argv);
int do_key(int argc, char **argv);
int do_monitor(int argc, char **argv);

#endif /* UETCTL_H */
