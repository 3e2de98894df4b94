/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Packet sequence number arithmetic.
 *
 * UET PSNs are 32-bit and wrap (UEC 1.0 PDS; the PSN field of the RUD/ROD
 * request header, see Documentation/wire-format.rst).  Comparisons are
 * serial-number arithmetic in the manner of RFC 1982: @a is before @b when
 * the forward distance from @a to @b is less than half the space.
 *
 * Part of the protocol core: no kernel objects, so the userspace unit tests
 * and fuzzers compile it as is.
 */
#ifndef _UET_PSN_H
#define _UET_PSN_H

#include <linux/types.h>

/* Signed distance from @b forward to @a. */
static inline s32 uet_psn_diff(u32 a, u32 b)
{
	return (s32)(a - b);
}

static inline bool uet_psn_before(u32 a, u32 b)
{
	return uet_psn_diff(a, b) < 0;
}

static inline bool uet_psn_after(u32 a, u32 b)
{
	return uet_psn_diff(a, b) > 0;
}

/* @psn lies in [@base, @base + @size), all modulo 2^32. */
static inline bool uet_psn_in_window(u32 psn, u32 base, u32 size)
{
	return psn - base < size;
}

#endif /* _UET_PSN_H */
