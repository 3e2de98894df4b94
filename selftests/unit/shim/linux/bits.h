/* SPDX-License-Identifier: GPL-2.0 */
/* Userspace stand-in for the kernel's <linux/bits.h>. */
#ifndef _UET_SHIM_LINUX_BITS_H
#define _UET_SHIM_LINUX_BITS_H

#define BIT(nr)		(1UL << (nr))
#define BIT_ULL(nr)	(1ULL << (nr))
#define GENMASK(h, l)	((~0UL << (l)) & (~0UL >> (8 * sizeof(long) - 1 - (h))))

#endif /* _UET_SHIM_LINUX_BITS_H */
