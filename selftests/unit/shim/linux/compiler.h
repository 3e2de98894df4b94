/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Userspace stand-in for the kernel's <linux/compiler.h>: the attributes
 * the protocol core (drivers/uet) uses.
 */
#ifndef _UET_SHIM_LINUX_COMPILER_H
#define _UET_SHIM_LINUX_COMPILER_H

#define __packed	__attribute__((__packed__))

/* One access the compiler may not tear, merge or repeat. */
#define READ_ONCE(x)	(*(const volatile __typeof__(x) *)&(x))

#endif /* _UET_SHIM_LINUX_COMPILER_H */
