/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Userspace stand-in for the kernel's <asm/byteorder.h>: the uapi header
 * gives the __-prefixed conversions; the kernel's names map onto them.
 */
#ifndef _UET_SHIM_ASM_BYTEORDER_H
#define _UET_SHIM_ASM_BYTEORDER_H

#include_next <asm/byteorder.h>

#define cpu_to_be16	__cpu_to_be16
#define cpu_to_be32	__cpu_to_be32
#define cpu_to_be64	__cpu_to_be64
#define be16_to_cpu	__be16_to_cpu
#define be32_to_cpu	__be32_to_cpu
#define be64_to_cpu	__be64_to_cpu

#endif /* _UET_SHIM_ASM_BYTEORDER_H */
