// SPDX-License-Identifier: GPL-2.0
/*
 * uetctl key: the transport security keys of a job's secure domain.  A
 * key is read from a file (keyfile.c), so that it is never on a command
 * line, in a shell's history or in ps; every copy uetctl makes is wiped
 * once sent.  The kernel never gives it back.
 */
#include <stdio.h>
#include <string.h>
#include <uet/libuet.h>

#include "uetctl.h"

static void key_print(const struct uet_key_attrs *k, int i)
{
	const char *mode = uet_key_mode_name(k->mode) ?: "?";

	if (!opts.json) {
		printf("%s job %u an %u epoch %u mode %s%s\n", k->dev, k->job,
		       k->an, k->epoch, mode, k->tx ? " tx" : "");
		return;
	}
	json_sep(i);
	printf("{\"dev\":");
	json_string(k->dev);
	printf(",\"job\":%u,\"an\":%u,\"epoch\":%u,\"mode\":", k->job, k->an,
	       k->epoch);
	json_string(mode);
	printf(",\"tx\":%s}", k->tx ? "true" : "false");
}

static int key_one(const struct uet_key_attrs *k, void *arg)
{
	int *n = arg;

	key_print(k, (*n)++);
	return 0;
}

/* @k names one key: dev, job and an. */
static int key_named(const struct uet_key_attrs *k)
{
	return UET_HAS(k, UET_A_KEY_DEV_NAME) && UET_HAS(k, UET_A_KEY_JOB_ID) &&
	       UET_HAS(k, UET_A_KEY_AN);
}

static int key_show(int argc, char **argv)
{
	struct uet_key_attrs k, sel;
	char err[ARG_ERR_MAX];
	const char *file;
	int n = 0, ret;

	if (args_key(argc, argv, &sel, &file, err))
		return usage_fail("key", err);
	if (file || UET_HAS(&sel, UET_A_KEY_EPOCH) || UET_HAS(&sel, UET_A_KEY_MODE) ||
	    ((UET_HAS(&sel, UET_A_KEY_JOB_ID) || UET_HAS(&sel, UET_A_KEY_AN)) &&
	     !key_named(&sel)))
		return usage_fail("key", "key show [dev DEV [job ID an N]]");
	if (!nl())
		return EXIT_RUNTIME;
	if (opts.json)
		json_begin_list();
	if (key_named(&sel)) {
		ret = uet_nl_key_get(nl(), sel.dev, sel.job, sel.an, &k);
		if (!ret)
			key_one(&k, &n);
	} else {
		ret = uet_nl_key_dump(nl(), UET_HAS(&sel, UET_A_KEY_DEV_NAME) ?
					    sel.dev : NULL, key_one, &n);
	}
	if (opts.json)
		json_end_list(n);
	return ret ? nl_fail("key show", ret) : 0;
}

static int key_add(int argc, char **argv)
{
	struct uet_key_attrs k;
	char err[ARG_ERR_MAX];
	const char *file;
	int ret;

	if (args_key(argc, argv, &k, &file, err))
		return usage_fail("key", err);
	if (!key_named(&k) || !file)
		return usage_fail("key", "key add needs dev DEV job ID an N key FILE");
	if (!nl())
		return EXIT_RUNTIME;
	if (key_read(file, k.key, err)) {
		fprintf(stderr, "uetctl: %s\n", err);
		return EXIT_RUNTIME;
	}
	ret = uet_nl_key_add(nl(), &k);
	explicit_bzero(k.key, sizeof(k.key));
	return ret ? nl_fail("key add", ret) : 0;
}

/* key del and key use: one key named, nothing else. */
static int key_change(int argc, char **argv, const char *what,
		      int (*fn)(struct uet_nl *nl, const char *dev, uint32_t job,
				uint8_t an))
{
	char err[ARG_ERR_MAX], usage[ARG_ERR_MAX];
	struct uet_key_attrs k;
	const char *file;
	int ret;

	if (args_key(argc, argv, &k, &file, err))
		return usage_fail("key", err);
	if (!key_named(&k) || file || UET_HAS(&k, UET_A_KEY_EPOCH) ||
	    UET_HAS(&k, UET_A_KEY_MODE)) {
		snprintf(usage, sizeof(usage), "%s needs dev DEV job ID an N", what);
		return usage_fail("key", usage);
	}
	if (!nl())
		return EXIT_RUNTIME;
	ret = fn(nl(), k.dev, k.job, k.an);
	return ret ? nl_fail(what, ret) : 0;
}

static int key_del(int argc, char **argv)
{
	return key_change(argc, argv, "key del", uet_nl_key_del);
}

static int key_use(int argc, char **argv)
{
	return key_change(argc, argv, "key use", uet_nl_key_set);
}

static const struct uetctl_cmd key_cmds[] = {
	{ "show", key_show, "key show [dev DEV [job ID an N]]" },
	{ "list", key_show, NULL },
	{ "add", key_add, "key add dev DEV job ID an 0|1 key FILE [epoch E] [mode direct|cluster]" },
	{ "del", key_del, "key del dev DEV job ID an 0|1" },
	{ "use", key_use, "key use dev DEV job ID an 0|1" },
	{ NULL },
};

int do_key(int argc, char **argv)
{
	if (argc == 0)
		return key_show(0, argv);
	return dispatch(key_cmds, "key command", argc, argv);
}
