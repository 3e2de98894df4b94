/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Userspace stand-in for the kernel's <linux/bitops.h>: the non-atomic bit
 * operations on unsigned long arrays that the protocol core uses.
 */
#ifndef _UET_SHIM_LINUX_BITOPS_H
#define _UET_SHIM_LINUX_BITOPS_H

#include <linux/types.h>

#define BITS_PER_LONG		(8 * __SIZEOF_LONG__)
#define BITS_TO_LONGS(nr)	(((nr) + BITS_PER_LONG - 1) / BITS_PER_LONG)

static inline void __set_bit(unsigned long nr, unsigned long *addr)
{
	addr[nr / BITS_PER_LONG] |= 1UL << (nr % BITS_PER_LONG);
}

static inline void __clear_bit(unsigned long nr, unsigned long *addr)
{
	addr[nr / BITS_PER_LONG] &= ~(1UL << (nr % BITS_PER_LONG));
}

static inline bool test_bit(unsigned long nr, const unsigned long *addr)
{
	return addr[nr / BITS_PER_LONG] >> (nr % BITS_PER_LONG) & 1;
}

static inline bool __test_and_set_bit(unsigned long nr, unsigned long *addr)
{
	bool old = test_bit(nr, addr);

	__set_bit(nr, addr);
	return old;
}

static inline bool __test_and_clear_bit(unsigned long nr, unsigned long *addr)
{
	bool old = test_bit(nr, addr);

	__clear_bit(nr, addr);
	return old;
}

/* Index of the lowest set bit; undefined for 0, as in the kernel. */
static inline unsigned int __ffs64(u64 word)
{
	return __builtin_ctzll(word);
}

#endif /* _UET_SHIM_LINUX_BITOPS_H */
