// SPDX-License-Identifier: GPL-2.0
/*
 * libFuzzer target for the transport security core (drivers/uet/tss.c).
 *
 * The input scripts TSCs arriving at one replay window, one operation per
 * byte followed by its arguments: a TSC a little above the top, a little
 * or far below it, far above it, or any 64-bit value; and derivations
 * with labels and contexts of any length.  Each arrival is checked
 * against a model that remembers every TSC taken, and any difference
 * aborts:
 *  - a TSC is new exactly when it is above the top, or within the window
 *    and never taken; seen when taken and within it; old otherwise (and
 *    0 is always old);
 *  - the top is the highest TSC taken;
 *  - a derivation succeeds exactly when its lengths are in range, and
 *    its PRF sees inputs of the length the layout gives.
 */
#include <stdlib.h>
#include <string.h>

#include "fuzz_input.h"
#include "tss.h"

#define MAX_OPS		1024

static u64 taken[MAX_OPS];
static unsigned int ntaken;

static enum uet_tss_replay_verdict model(u64 top, u64 tsc)
{
	unsigned int i;

	if (tsc > top)
		return UET_TSS_REPLAY_NEW;
	if (!tsc || top - tsc >= UET_TSS_REPLAY_WINDOW)
		return UET_TSS_REPLAY_OLD;
	for (i = 0; i < ntaken; i++)
		if (taken[i] == tsc)
			return UET_TSS_REPLAY_SEEN;
	return UET_TSS_REPLAY_NEW;
}

static size_t prf_in_len;

static int prf(void *arg, const u8 *in, size_t len, u8 *out)
{
	(void)arg;
	if (prf_in_len && len != prf_in_len)
		abort();
	prf_in_len = len;
	memset(out, in[0], UET_TSS_PRF_LEN);
	return 0;
}

static void derive(struct input *in)
{
	char label[UET_TSS_LABEL_MAX + 3] = { 0 };
	u8 ctx[UET_TSS_CONTEXT_MAX + 2] = { 0 };
	u8 out[UET_TSS_DERIVED_LEN + 2];
	size_t llen = take(in, 1) % sizeof(label);
	size_t clen = take(in, 1) % sizeof(ctx);
	size_t olen = take(in, 1) % sizeof(out);
	bool ok = llen <= UET_TSS_LABEL_MAX && clen <= UET_TSS_CONTEXT_MAX &&
		  olen && olen <= UET_TSS_DERIVED_LEN;
	int err;

	memset(label, 'L', llen);
	prf_in_len = 0;
	err = uet_tss_kdf(prf, NULL, label, ctx, clen, out, olen);
	if (ok != !err)
		abort();
	/* [i]_8, the label, 0x00, the context, [L]_16 */
	if (ok && prf_in_len != 1 + llen + 1 + clen + 2)
		abort();
}

int LLVMFuzzerTestOneInput(const unsigned char *data, size_t size)
{
	struct input in = { data, size };
	enum uet_tss_replay_verdict v;
	struct uet_tss_replay r;
	u64 tsc, top = 0;
	int ops;

	uet_tss_replay_init(&r);
	ntaken = 0;
	for (ops = 0; in.left && ops < MAX_OPS; ops++) {
		switch (take(&in, 1) % 6) {
		case 0:
			tsc = top + take(&in, 1);
			break;
		case 1:
			tsc = top - take(&in, 1);
			break;
		case 2:
			tsc = top - take(&in, 2) % (2 * UET_TSS_REPLAY_WINDOW);
			break;
		case 3:
			tsc = top + take(&in, 3);
			break;
		case 4:
			tsc = take(&in, 8);
			break;
		default:
			derive(&in);
			continue;
		}
		v = uet_tss_replay_check(&r, tsc);
		if (v != model(top, tsc))
			abort();
		if (v != UET_TSS_REPLAY_NEW)
			continue;
		uet_tss_replay_take(&r, tsc);
		taken[ntaken++] = tsc;
		if (tsc > top)
			top = tsc;
		if (r.top != top ||
		    uet_tss_replay_check(&r, tsc) != UET_TSS_REPLAY_SEEN)
			abort();
	}
	return 0;
}
