// SPDX-License-Identifier: GPL-2.0
/*
 * libFuzzer target for rate advice (drivers/uet/ra.c).
 *
 * The first byte chooses.  Odd: the rest is a message: what parses builds
 * back into the same bytes, and what does not never touches what follows
 * the buffer.  Even: the rest sets a floor and a link rate, then scripts
 * a sender, one operation per byte followed by its arguments: advice of
 * any rate and lifetime, time passing (up to 2^32 ns), lapses, packets
 * sent when allowed.  After each operation, any breach of these aborts:
 *  - a cap is 0 or within [floor, link], and so is the advice it
 *    follows; the cap never moves away from the advice, nor past it;
 *  - tokens never pass a burst, and go below 0 by at most one packet;
 *  - a sender told to wait that long may then send, and not 1 ns before
 *    (but when the fraction of a byte it waits for came earlier).
 * UBSan catches any overflow along the way.
 */
#include <stdlib.h>
#include <string.h>

#include "fuzz_input.h"
#include "ra.h"

#define MAX_OPS		4096
#define PKT_MAX		9000

static void message(const u8 *data, size_t size)
{
	struct uet_ra_info info;
	u8 out[sizeof(struct uet_ra_hdr)];
	int n = uet_ra_parse(data, size, &info);

	if (n < 0)
		return;
	if ((size_t)n != size || uet_ra_build(out, sizeof(out), &info) != n ||
	    memcmp(out, data, size))
		abort();
}

static void check(const struct uet_ra *ra, u32 floor, u32 link)
{
	if (ra->cap && (ra->cap < floor || ra->cap > link ||
			ra->advised < floor || ra->advised > link))
		abort();
	if (!ra->cap && ra->advised)
		abort();
	if (ra->tokens > UET_RA_BURST || ra->tokens <= -PKT_MAX)
		abort();
}

int LLVMFuzzerTestOneInput(const unsigned char *data, size_t size)
{
	struct input in = { data + 1, size ? size - 1 : 0 };
	struct uet_ra_info info = { .version = UET_RA_VERSION };
	struct uet_ra ra = {};
	u32 floor, link, before;
	u64 now = 0, wait;
	int ops;

	if (!size)
		return 0;
	if (data[0] & 1) {
		message(data + 1, size - 1);
		return 0;
	}
	floor = take(&in, 2) + 1;
	link = floor + take(&in, 3);
	for (ops = 0; ops < MAX_OPS && in.left; ops++) {
		switch (take(&in, 1) % 4) {
		case 0:
			info.rate_mbps = take(&in, 4);
			info.lifetime_ms = take(&in, 2);
			before = ra.cap;
			uet_ra_advise(&ra, now, &info, floor, link);
			/* towards the advice, never past it */
			if (ra.cap && before &&
			    (ra.cap > before ? ra.cap > ra.advised || before >= ra.advised :
			     ra.cap < before && (ra.cap < ra.advised || before <= ra.advised)))
				abort();
			break;
		case 1:
			now += take(&in, 4);
			break;
		case 2:
			uet_ra_expire(&ra, now);
			break;
		default:
			if (!uet_ra_may_send(&ra, now)) {
				wait = uet_ra_wait_ns(&ra);
				if (!wait)
					abort();
				now += wait;
				if (!uet_ra_may_send(&ra, now))
					abort();
			}
			uet_ra_sent(&ra, take(&in, 2) % PKT_MAX + 1);
			break;
		}
		check(&ra, floor, link);
	}
	return 0;
}
