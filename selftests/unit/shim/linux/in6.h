/* SPDX-License-Identifier: GPL-2.0 */
/* Userspace stand-in for the kernel's <linux/in6.h>: struct in6_addr. */
#ifndef _UET_SHIM_LINUX_IN6_H
#define _UET_SHIM_LINUX_IN6_H

#include <netinet/in.h>

#endif /* _UET_SHIM_LINUX_IN6_H */
