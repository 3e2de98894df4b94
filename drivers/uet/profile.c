// SPDX-License-Identifier: GPL-2.0
/*
 * uet profiles.
 *
 * UEC 1.0 defines three profiles, subsets of UET for a use: AI Base for
 * the bandwidth-bound collectives of training and inference, AI Full,
 * which adds deferrable sends, exact-match tagged sends, extended atomics
 * and rendezvous to it, and HPC, with MPI's semantics, tag matching and
 * rendezvous.  The table below, its public sources, and what uet chose
 * where they are silent, are in Documentation/netlink.rst.
 *
 * A device's profile gates what its jobs may use: a job whose default
 * delivery mode the profile forbids is refused, and a profile that would
 * forbid an existing job's mode, or the device's RC mode, cannot be made
 * active.
 */
#include <linux/bitops.h>
#include <linux/build_bug.h>

#include "compat.h"
#include "pdc.h"
#include "profile.h"
#include "uet.h"

#define UET_AI_BASE_FEATURES						\
	(UET_FEATURE_MODE_RUD | UET_FEATURE_MODE_RUDI | UET_FEATURE_SEND |	\
	 UET_FEATURE_RMA | UET_FEATURE_ATOMIC)

#define UET_AI_FULL_FEATURES						\
	(UET_AI_BASE_FEATURES | UET_FEATURE_MODE_ROD |			\
	 UET_FEATURE_DEFERRABLE_SEND | UET_FEATURE_TAGGED |		\
	 UET_FEATURE_EXT_ATOMIC | UET_FEATURE_RENDEZVOUS)

/* Everything: the default must not take anything from an application. */
#define UET_HPC_FEATURES						\
	(UET_AI_FULL_FEATURES | UET_FEATURE_MODE_UUD |			\
	 UET_FEATURE_WILDCARD_TAGS)

static const struct {
	const char *name;
	u32 features;
} uet_profiles[] = {
	[UET_PROFILE_AI_BASE] = { "ai-base", UET_AI_BASE_FEATURES },
	[UET_PROFILE_AI_FULL] = { "ai-full", UET_AI_FULL_FEATURES },
	[UET_PROFILE_HPC] = { "hpc", UET_HPC_FEATURES },
};

/* The feature bit of each delivery mode, enum uet_pdc_mode. */
static const u32 uet_mode_features[] = {
	[UET_PDC_RUD] = UET_FEATURE_MODE_RUD,
	[UET_PDC_ROD] = UET_FEATURE_MODE_ROD,
	[UET_PDC_RUDI] = UET_FEATURE_MODE_RUDI,
	[UET_PDC_UUD] = UET_FEATURE_MODE_UUD,
};

/**
 * uet_profile_features() - what a profile allows
 * @profile: enum uet_profile, in range
 *
 * Return: a mask of enum uet_feature.
 */
u32 uet_profile_features(u8 profile)
{
	BUILD_BUG_ON(ARRAY_SIZE(uet_profiles) != UET_PROFILE_COUNT);
	return uet_profiles[profile].features;
}

/**
 * uet_profile_name() - a profile's name, as uetctl spells it
 * @profile: enum uet_profile, in range
 *
 * Return: the name.
 */
const char *uet_profile_name(u8 profile)
{
	return uet_profiles[profile].name;
}

/**
 * uet_profile_mode_feature() - the feature a delivery mode is
 * @mode: enum uet_pdc_mode, in range
 *
 * Return: its UET_FEATURE_MODE_* bit.
 */
u32 uet_profile_mode_feature(u8 mode)
{
	BUILD_BUG_ON(ARRAY_SIZE(uet_mode_features) != UET_PDC_MODE_COUNT);
	return uet_mode_features[mode];
}

/* Names of the features in messages, by bit number. */
static const char * const uet_feature_names[] = {
	"delivery mode RUD", "delivery mode ROD", "delivery mode RUDI",
	"delivery mode UUD", "send", "RMA", "atomics", "extended atomics",
	"tagged sends", "wildcard tag matching", "rendezvous",
	"deferrable sends",
};

static const char *feature_name(u32 feature)
{
	unsigned int bit = __ffs(feature);

	BUILD_BUG_ON(BIT(ARRAY_SIZE(uet_feature_names) - 1) !=
		     UET_FEATURE_DEFERRABLE_SEND);
	return bit < ARRAY_SIZE(uet_feature_names) ? uet_feature_names[bit] :
						     "this feature";
}

/**
 * uet_profile_check() - the device's active profile allows @feature
 * @udev: the device
 * @feature: one UET_FEATURE_* bit
 * @extack: where to say which profile forbids it, or %NULL
 *
 * Any context.
 *
 * Return: 0, or -EOPNOTSUPP.
 */
int uet_profile_check(struct uet_dev *udev, u32 feature,
		      struct netlink_ext_ack *extack)
{
	u8 profile = READ_ONCE(udev->cfg.profile);

	if (uet_profile_features(profile) & feature)
		return 0;
	NL_SET_ERR_MSG_FMT(extack, "Profile %s does not allow %s",
			   uet_profile_name(profile), feature_name(feature));
	return -EOPNOTSUPP;
}

/**
 * uet_profile_set() - make @profile the device's active profile
 * @udev: the device
 * @profile: enum uet_profile, in range
 * @extack: where to say why not
 *
 * Called under uet_devs_lock, the writers' lock of the device's settings.
 *
 * Return: 0, or -EBUSY if the device's RC mode or a job uses a delivery
 * mode @profile forbids.
 */
int uet_profile_set(struct uet_dev *udev, u8 profile,
		    struct netlink_ext_ack *extack)
{
	u32 allowed = uet_profile_features(profile);
	struct uet_job *job;
	u32 mode;
	unsigned long id;
	int err = 0;

	lockdep_assert_held(&uet_devs_lock);
	/* uet_devs_lock keeps dev-set from changing the RC mode meanwhile */
	mode = uet_profile_mode_feature(udev->cfg.rc_mode);
	if (!(allowed & mode)) {
		NL_SET_ERR_MSG_FMT(extack,
				   "The RC mode is %s, which profile %s does not allow",
				   feature_name(mode), uet_profile_name(profile));
		return -EBUSY;
	}
	/* the jobs' lock keeps uet_job_add() from slipping a job in */
	mutex_lock(&udev->jobs.lock);
	xa_for_each(&udev->jobs.xa, id, job) {
		mode = uet_profile_mode_feature(job->cfg.mode);
		if (!(allowed & mode)) {
			NL_SET_ERR_MSG_FMT(extack,
					   "Job %lu uses %s, which profile %s does not allow",
					   id, feature_name(mode),
					   uet_profile_name(profile));
			err = -EBUSY;
			break;
		}
	}
	if (!err)
		WRITE_ONCE(udev->cfg.profile, profile);
	mutex_unlock(&udev->jobs.lock);
	return err;
}
