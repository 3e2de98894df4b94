/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Userspace stand-in for the kernel's <linux/bitfield.h>: the same results,
 * without the kernel's compile-time checks of masks and values.
 */
#ifndef _UET_SHIM_LINUX_BITFIELD_H
#define _UET_SHIM_LINUX_BITFIELD_H

#define __bf_shf(x)	__builtin_ctzll(x)

#define FIELD_GET(mask, reg) \
	((__typeof__(mask))(((reg) & (mask)) >> __bf_shf(mask)))
#define FIELD_PREP(mask, val) \
	((((__typeof__(mask))(val)) << __bf_shf(mask)) & (mask))
#define FIELD_FIT(mask, val) \
	(!((((__typeof__(mask))(val)) << __bf_shf(mask)) & ~(mask)))

#endif /* _UET_SHIM_LINUX_BITFIELD_H */
