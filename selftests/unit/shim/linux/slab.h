/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Userspace stand-in for the kernel's <linux/slab.h>: allocation by
 * malloc, so that AddressSanitizer sees every leak and overrun.  The
 * flags are accepted and ignored; a test fails allocations with
 * uet_shim_fail_allocs.
 */
#ifndef _UET_SHIM_LINUX_SLAB_H
#define _UET_SHIM_LINUX_SLAB_H

#include <stdlib.h>
#include <string.h>
#include <linux/types.h>

#define GFP_KERNEL	0u
#define GFP_ATOMIC	1u

/* Allocations still to succeed before each fails; negative: all succeed. */
extern int uet_shim_fail_allocs;

static inline void *kmalloc(size_t size, gfp_t gfp)
{
	(void)gfp;
	if (uet_shim_fail_allocs == 0)
		return NULL;
	if (uet_shim_fail_allocs > 0)
		uet_shim_fail_allocs--;
	return malloc(size);
}

static inline void *kcalloc(size_t n, size_t size, gfp_t gfp)
{
	void *p = kmalloc(n * size, gfp);

	return p ? memset(p, 0, n * size) : NULL;
}

static inline void kfree(const void *p)
{
	free((void *)p);
}

#endif /* _UET_SHIM_LINUX_SLAB_H */
