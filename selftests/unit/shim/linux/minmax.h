/* SPDX-License-Identifier: GPL-2.0 */
/* Userspace stand-in for the kernel's <linux/minmax.h>: what the core uses. */
#ifndef _UET_SHIM_LINUX_MINMAX_H
#define _UET_SHIM_LINUX_MINMAX_H

#define min_t(type, x, y)	((type)(x) < (type)(y) ? (type)(x) : (type)(y))
#define max_t(type, x, y)	((type)(x) > (type)(y) ? (type)(x) : (type)(y))
#define min(x, y)		((x) < (y) ? (x) : (y))
#define max(x, y)		((x) > (y) ? (x) : (y))
#define clamp_t(type, v, lo, hi) min_t(type, max_t(type, v, lo), hi)
#define clamp(v, lo, hi)	min(max(v, lo), hi)

#endif /* _UET_SHIM_LINUX_MINMAX_H */
