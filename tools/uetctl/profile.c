// SPDX-License-Identifier: GPL-2.0
/* uetctl profile: the UEC profiles, and the one each device enforces. */
#include <stdio.h>
#include <uet/libuet.h>

#include "uetctl.h"

static void features_text(uint32_t f)
{
	unsigned int bit;

	for (bit = 0; uet_feature_name(bit); bit++)
		if (f & (1u << bit))
			printf(" %s", uet_feature_name(bit));
}

static void features_json(uint32_t f)
{
	unsigned int bit;
	int n = 0;

	printf(",\"features\":[");
	for (bit = 0; uet_feature_name(bit); bit++)
		if (f & (1u << bit)) {
			printf("%s", n++ ? "," : "");
			json_string(uet_feature_name(bit));
		}
	printf("]");
}

static int profile_one(const struct uet_profile_attrs *p, void *arg)
{
	int *n = arg;

	if (!opts.json) {
		if (p->dev[0])
			printf("%s profile %s:", p->dev, uet_profile_name(p->id) ?: "?");
		else
			printf("%s:", uet_profile_name(p->id) ?: "?");
		features_text(p->features);
		printf("\n");
	} else {
		json_sep(*n);
		printf("{");
		if (p->dev[0]) {
			printf("\"dev\":");
			json_string(p->dev);
			printf(",");
		}
		printf("\"profile\":");
		json_string(uet_profile_name(p->id) ?: "?");
		features_json(p->features);
		printf("}");
	}
	(*n)++;
	return 0;
}

/* The active profile of @dev. */
static int profile_dev(const char *dev, void *arg)
{
	struct uet_profile_attrs p;
	int ret;

	ret = uet_nl_profile_get(nl(), dev, &p);
	if (!ret)
		profile_one(&p, arg);
	return ret;
}

/* Without dev: the table of profiles, then every device's active one. */
static int profile_show(int argc, char **argv)
{
	char err[ARG_ERR_MAX];
	struct sel sel;
	int n = 0, ret;

	if (args_sel(argc, argv, NULL, 0, &sel, err))
		return usage_fail("profile", err);
	if (!nl())
		return EXIT_RUNTIME;
	if (opts.json)
		json_begin_list();
	if (sel.has_dev) {
		ret = profile_dev(sel.dev, &n);
	} else {
		ret = uet_nl_profile_dump(nl(), profile_one, &n);
		if (!ret)
			ret = walk_devs(profile_dev, &n);
	}
	if (opts.json)
		json_end_list(n);
	return ret ? nl_fail("profile show", ret) : 0;
}

static int profile_set(int argc, char **argv)
{
	char err[ARG_ERR_MAX];
	struct sel sel;
	uint8_t id;
	int ret;

	if (args_profile_set(argc, argv, &sel, &id, err))
		return usage_fail("profile", err);
	if (!nl())
		return EXIT_RUNTIME;
	ret = uet_nl_profile_set(nl(), sel.dev, id);
	return ret ? nl_fail("profile set", ret) : 0;
}

static const struct uetctl_cmd profile_cmds[] = {
	{ "show", profile_show, "profile show [dev DEV]" },
	{ "set", profile_set, "profile set dev DEV ai-base|ai-full|hpc" },
	{ NULL },
};

int do_profile(int argc, char **argv)
{
	if (argc == 0)
		return profile_show(0, argv);
	return dispatch(profile_cmds, "profile command", argc, argv);
}
