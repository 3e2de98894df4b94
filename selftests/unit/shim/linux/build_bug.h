/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Userspace stand-in for the kernel's <linux/build_bug.h>: static_assert()
 * with an optional message, as the kernel defines it.
 */
#ifndef _UET_SHIM_LINUX_BUILD_BUG_H
#define _UET_SHIM_LINUX_BUILD_BUG_H

#define static_assert(expr, ...) __static_assert(expr, ##__VA_ARGS__, #expr)
#define __static_assert(expr, msg, ...) _Static_assert(expr, msg)

#endif /* _UET_SHIM_LINUX_BUILD_BUG_H */
