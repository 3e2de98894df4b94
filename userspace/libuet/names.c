// SPDX-License-Identifier: LGPL-2.1-or-later
/* Names of the uet netlink family's enum values, as uetctl spells them. */
#include <string.h>

#include "uet/libuet.h"

#define ARRAY_SIZE(a)	(sizeof(a) / sizeof((a)[0]))

static const char * const modes[] = {
	[UET_DELIVERY_MODE_RUD] = "rud",
	[UET_DELIVERY_MODE_ROD] = "rod",
	[UET_DELIVERY_MODE_RUDI] = "rudi",
	[UET_DELIVERY_MODE_UUD] = "uud",
};

static const char * const ccs[] = {
	[UET_CC_NONE] = "none",
	[UET_CC_NSCC] = "nscc",
	[UET_CC_RCCC] = "rccc",
	[UET_CC_NSCC_RCCC] = "nscc-rccc",
};

static const char * const lb_modes[] = {
	[UET_LB_MODE_SINGLE] = "single",
	[UET_LB_MODE_OBLIVIOUS] = "oblivious",
	[UET_LB_MODE_REPS] = "reps",
};

static const char * const encaps[] = {
	[UET_ENCAP_UDP] = "udp",
	[UET_ENCAP_IP] = "ip",
	[UET_ENCAP_UDP_ZERO_CSUM] = "udp-zero-csum",
};

static const char * const key_modes[] = {
	[UET_KEY_MODE_DIRECT] = "direct",
	[UET_KEY_MODE_CLUSTER] = "cluster",
};

static const char * const addr_modes[] = {
	[UET_ADDR_MODE_RELATIVE] = "relative",
	[UET_ADDR_MODE_ABSOLUTE] = "absolute",
};

static const char * const profiles[] = {
	[UET_PROFILE_AI_BASE] = "ai-base",
	[UET_PROFILE_AI_FULL] = "ai-full",
	[UET_PROFILE_HPC] = "hpc",
};

static const char * const states[] = {
	[UET_PDC_STATE_CLOSED] = "closed",
	[UET_PDC_STATE_SYN_SENT] = "syn-sent",
	[UET_PDC_STATE_ESTABLISHED] = "established",
	[UET_PDC_STATE_CLOSE_REQUESTED] = "close-requested",
	[UET_PDC_STATE_CLOSING] = "closing",
};

/* By bit number, as enum uet_feature. */
static const char * const features[] = {
	"mode-rud", "mode-rod", "mode-rudi", "mode-uud", "send", "rma",
	"atomic", "ext-atomic", "tagged", "wildcard-tags", "rendezvous",
	"deferrable-send",
};

static const char *name_of(const char * const *tab, size_t n, unsigned int v)
{
	return v < n ? tab[v] : NULL;
}

static int parse(const char * const *tab, size_t n, const char *s)
{
	size_t i;

	for (i = 0; i < n; i++)
		if (tab[i] && !strcmp(tab[i], s))
			return (int)i;
	return -1;
}

const char *uet_delivery_mode_name(unsigned int mode)
{
	return name_of(modes, ARRAY_SIZE(modes), mode);
}

int uet_delivery_mode_parse(const char *s)
{
	return parse(modes, ARRAY_SIZE(modes), s);
}

const char *uet_cc_name(unsigned int cc)
{
	return name_of(ccs, ARRAY_SIZE(ccs), cc);
}

int uet_cc_parse(const char *s)
{
	return parse(ccs, ARRAY_SIZE(ccs), s);
}

const char *uet_lb_mode_name(unsigned int lb)
{
	return name_of(lb_modes, ARRAY_SIZE(lb_modes), lb);
}

int uet_lb_mode_parse(const char *s)
{
	return parse(lb_modes, ARRAY_SIZE(lb_modes), s);
}

const char *uet_encap_name(unsigned int encap)
{
	return name_of(encaps, ARRAY_SIZE(encaps), encap);
}

int uet_encap_parse(const char *s)
{
	return parse(encaps, ARRAY_SIZE(encaps), s);
}

const char *uet_key_mode_name(unsigned int mode)
{
	return name_of(key_modes, ARRAY_SIZE(key_modes), mode);
}

int uet_key_mode_parse(const char *s)
{
	return parse(key_modes, ARRAY_SIZE(key_modes), s);
}

static const struct {
	const char *name;
	int dev, job;
} nscc_params[UET_NSCC_PARAMS] = {
	[UET_NSCC_TARGET_US] = { "cc-target-us", UET_A_DEV_CC_TARGET_US, UET_A_JOB_CC_TARGET_US },
	[UET_NSCC_BASE_RTT_US] = { "cc-base-rtt-us", UET_A_DEV_CC_BASE_RTT_US, UET_A_JOB_CC_BASE_RTT_US },
	[UET_NSCC_BDP] = { "cc-bdp", UET_A_DEV_CC_BDP, UET_A_JOB_CC_BDP },
	[UET_NSCC_MTU] = { "cc-mtu", UET_A_DEV_CC_MTU, UET_A_JOB_CC_MTU },
	[UET_NSCC_FI_PCT] = { "cc-fi-pct", UET_A_DEV_CC_FI_PCT, UET_A_JOB_CC_FI_PCT },
	[UET_NSCC_ALPHA_PCT] = { "cc-alpha-pct", UET_A_DEV_CC_ALPHA_PCT, UET_A_JOB_CC_ALPHA_PCT },
	[UET_NSCC_ETA_PCT] = { "cc-eta-pct", UET_A_DEV_CC_ETA_PCT, UET_A_JOB_CC_ETA_PCT },
	[UET_NSCC_MD_PCT] = { "cc-md-pct", UET_A_DEV_CC_MD_PCT, UET_A_JOB_CC_MD_PCT },
	[UET_NSCC_IGNORE_PCT] = { "cc-ignore-pct", UET_A_DEV_CC_IGNORE_PCT, UET_A_JOB_CC_IGNORE_PCT },
};

const char *uet_nscc_name(unsigned int param)
{
	return param < UET_NSCC_PARAMS ? nscc_params[param].name : NULL;
}

int uet_nscc_attr(unsigned int param, int job)
{
	if (param >= UET_NSCC_PARAMS)
		return -1;
	return job ? nscc_params[param].job : nscc_params[param].dev;
}

const char *uet_addr_mode_name(unsigned int mode)
{
	return name_of(addr_modes, ARRAY_SIZE(addr_modes), mode);
}

int uet_addr_mode_parse(const char *s)
{
	return parse(addr_modes, ARRAY_SIZE(addr_modes), s);
}

const char *uet_profile_name(unsigned int profile)
{
	return name_of(profiles, ARRAY_SIZE(profiles), profile);
}

int uet_profile_parse(const char *s)
{
	return parse(profiles, ARRAY_SIZE(profiles), s);
}

const char *uet_pdc_state_name(unsigned int state)
{
	return name_of(states, ARRAY_SIZE(states), state);
}

const char *uet_feature_name(unsigned int bit)
{
	_Static_assert(1u << (ARRAY_SIZE(features) - 1) == UET_FEATURE_DEFERRABLE_SEND,
		       "a name per feature");
	return name_of(features, ARRAY_SIZE(features), bit);
}
