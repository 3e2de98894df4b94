/* SPDX-License-Identifier: GPL-2.0 */
/* Userspace stand-in for the kernel's <linux/math64.h>: what the core uses. */
#ifndef _UET_SHIM_LINUX_MATH64_H
#define _UET_SHIM_LINUX_MATH64_H

#include <linux/types.h>

static inline u64 div_u64(u64 dividend, u32 divisor)
{
	return dividend / divisor;
}

static inline u64 div64_u64(u64 dividend, u64 divisor)
{
	return dividend / divisor;
}

static inline u64 mul_u64_u32_div(u64 a, u32 mul, u32 divisor)
{
	return (u64)((unsigned __int128)a * mul / divisor);
}

#endif /* _UET_SHIM_LINUX_MATH64_H */
