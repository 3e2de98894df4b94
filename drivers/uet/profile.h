/* SPDX-License-Identifier: GPL-2.0 */
/*
 * uet profiles: the UEC 1.0 profiles (AI Base, AI Full, HPC) and what each
 * allows; a device has one active profile (struct uet_dev_cfg).
 */
#ifndef _UET_PROFILE_H
#define _UET_PROFILE_H

#include <linux/netlink.h>
#include <linux/types.h>
#include <uapi/linux/uet_netlink.h>

struct uet_dev;

/* The profile of a new device: HPC, which allows every feature. */
#define UET_PROFILE_DEFAULT	UET_PROFILE_HPC
#define UET_PROFILE_COUNT	(UET_PROFILE_HPC + 1)

u32 uet_profile_features(u8 profile);
const char *uet_profile_name(u8 profile);
u32 uet_profile_mode_feature(u8 mode);
int uet_profile_check(struct uet_dev *udev, u32 feature,
		      struct netlink_ext_ack *extack);
int uet_profile_set(struct uet_dev *udev, u8 profile,
		    struct netlink_ext_ack *extack);

#endif /* _UET_PROFILE_H */
