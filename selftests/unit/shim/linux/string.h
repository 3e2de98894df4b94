/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Userspace stand-in for the kernel's <linux/string.h>: the C library's
 * string functions and memzero_explicit(), a clearing the compiler may
 * not drop.
 */
#ifndef _UET_SHIM_LINUX_STRING_H
#define _UET_SHIM_LINUX_STRING_H

#include <string.h>

static inline void memzero_explicit(void *s, size_t count)
{
	memset(s, 0, count);
	__asm__ __volatile__("" : : "r"(s) : "memory");
}

#endif /* _UET_SHIM_LINUX_STRING_H */
