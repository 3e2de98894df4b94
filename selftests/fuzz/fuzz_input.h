/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The fuzz targets that script events (fuzz_pdc.c, fuzz_nscc.c,
 * fuzz_rccc.c) read their input as big-endian numbers of a few bytes
 * each; past its end, the input reads as zeros.
 */
#ifndef _UET_FUZZ_INPUT_H
#define _UET_FUZZ_INPUT_H

#include <stddef.h>

#include <linux/types.h>

struct input {
	const u8 *data;
	size_t left;
};

/* The next @bytes bytes of @in, at most 8, as a number. */
static inline u64 take(struct input *in, unsigned int bytes)
{
	u64 v = 0;

	while (bytes--) {
		v <<= 8;
		if (in->left) {
			v |= *in->data++;
			in->left--;
		}
	}
	return v;
}

#endif /* _UET_FUZZ_INPUT_H */
