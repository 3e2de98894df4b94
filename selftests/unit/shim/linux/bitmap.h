/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Userspace stand-in for the kernel's <linux/bitmap.h>: DECLARE_BITMAP()
 * (which the kernel defines in <linux/types.h>), the bit operations,
 * bitmap_zero() and bitmap_empty().
 */
#ifndef _UET_SHIM_LINUX_BITMAP_H
#define _UET_SHIM_LINUX_BITMAP_H

#include <linux/bitops.h>

#define DECLARE_BITMAP(name, bits)	unsigned long name[BITS_TO_LONGS(bits)]

static inline void bitmap_zero(unsigned long *dst, unsigned int nbits)
{
	unsigned int i;

	for (i = 0; i < BITS_TO_LONGS(nbits); i++)
		dst[i] = 0;
}

/* Whether none of the first @nbits bits is set. */
static inline bool bitmap_empty(const unsigned long *src, unsigned int nbits)
{
	unsigned int i;

	for (i = 0; i < nbits / BITS_PER_LONG; i++)
		if (src[i])
			return false;
	if (nbits % BITS_PER_LONG)
		return !(src[i] & ((1UL << (nbits % BITS_PER_LONG)) - 1));
	return true;
}

#endif /* _UET_SHIM_LINUX_BITMAP_H */
