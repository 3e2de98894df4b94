/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Userspace stand-in for the kernel's <linux/limits.h>: the system's (which
 * the C library's <limits.h> includes too) and the kernel's U*_MAX.
 */
#ifndef _UET_SHIM_LINUX_LIMITS_H
#define _UET_SHIM_LINUX_LIMITS_H

#include_next <linux/limits.h>
#include <stdint.h>

#define U8_MAX		UINT8_MAX
#define U16_MAX		UINT16_MAX
#define U32_MAX		UINT32_MAX
#define U64_MAX		UINT64_MAX

#endif /* _UET_SHIM_LINUX_LIMITS_H */
