/* SPDX-License-Identifier: GPL-2.0 */
/* Userspace stand-in for the kernel's <linux/minmax.h>: what the core uses. */
#ifndef _UET_SHIM_LINUX_MINMAX_H
#define _UET_SHIM_LINUX_MINMAX_H

#define min_t(type, x, y)	((type)(x) < (type)(y) ? (type)(x) : (type)(y))

#endif /* _UET_SHIM_LINUX_MINMAX_H */
