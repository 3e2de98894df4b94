/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Userspace stand-in for the kernel's <linux/bitmap.h>: DECLARE_BITMAP()
 * (which the kernel defines in <linux/types.h>) and the bit operations.
 */
#ifndef _UET_SHIM_LINUX_BITMAP_H
#define _UET_SHIM_LINUX_BITMAP_H

#include <linux/bitops.h>

#define DECLARE_BITMAP(name, bits)	unsigned long name[BITS_TO_LONGS(bits)]

#endif /* _UET_SHIM_LINUX_BITMAP_H */
