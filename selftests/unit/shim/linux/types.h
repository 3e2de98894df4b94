/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Userspace stand-in for the kernel's <linux/types.h>, so that the protocol
 * core (drivers/uet) compiles into the unit tests and fuzzers unchanged.
 */
#ifndef _UET_SHIM_LINUX_TYPES_H
#define _UET_SHIM_LINUX_TYPES_H

#include_next <linux/types.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

typedef uint8_t u8;
typedef uint16_t u16;
typedef uint32_t u32;
typedef uint64_t u64;
typedef int8_t s8;
typedef int16_t s16;
typedef int32_t s32;
typedef int64_t s64;
typedef unsigned int gfp_t;

#endif /* _UET_SHIM_LINUX_TYPES_H */
