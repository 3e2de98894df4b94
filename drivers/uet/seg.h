/* SPDX-License-Identifier: GPL-2.0 */
/*
 * How a message is cut into requests: as few as the largest payload
 * allows, and of equal size, so that no packet runs nearly empty (4 KiB
 * at 1416 bytes a packet is 1366 + 1366 + 1364, not 1416 + 1416 + 1264,
 * and not four packets as with a worst-case header allowance).  Request
 * i carries bytes [i * size, min((i + 1) * size, len)) of the message.
 *
 * Part of the protocol core: no kernel objects, so the userspace unit tests
 * compile it as is.
 */
#ifndef _UET_SEG_H
#define _UET_SEG_H

#include <linux/types.h>

/**
 * struct uet_seg - a message cut into requests
 * @len: the message's bytes.
 * @size: bytes of each request, the last one's at most.
 * @count: requests, at least one (an empty message is one empty request).
 */
struct uet_seg {
	u32 len;
	u32 size;
	u32 count;
};

/**
 * uet_seg_init() - cut @len bytes into requests of at most @max bytes
 * @seg: filled in.
 * @len: the message's length.
 * @max: the largest payload of a request, at least 1.
 *
 * Every request but the last carries @seg->size bytes, the last between 1
 * and @seg->size (@len 0: one request of none): @seg->count is
 * DIV_ROUND_UP(@len, @max), and since (@seg->count - 1) * @max < @len,
 * the sizes DIV_ROUND_UP(@len, @seg->count) leave the last one something.
 */
static inline void uet_seg_init(struct uet_seg *seg, u32 len, u32 max)
{
	seg->len = len;
	seg->count = len ? (u32)(((u64)len + max - 1) / max) : 1;
	seg->size = (u32)(((u64)len + seg->count - 1) / seg->count);
}

/* Where request @i of @seg starts in the message ... */
static inline u32 uet_seg_off(const struct uet_seg *seg, u32 i)
{
	return i * seg->size;
}

/* ... and how many bytes it carries. */
static inline u32 uet_seg_len(const struct uet_seg *seg, u32 i)
{
	u32 off = uet_seg_off(seg, i);

	return seg->len - off < seg->size ? seg->len - off : seg->size;
}

#endif /* _UET_SEG_H */
