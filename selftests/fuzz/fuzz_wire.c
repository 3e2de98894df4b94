// SPDX-License-Identifier: GPL-2.0
/*
 * libFuzzer target for the UET wire-format parsers (drivers/uet/wire.c).
 *
 * The first byte picks the parser: 0 TSS, 1 PDS followed by the SES header
 * its next-header field names, 2 + n SES with next header n, and the last
 * selector the atomic extension header.  Whatever
 * parses must build back to the very same bytes (but for the one spelling
 * uet reads and does not write, same_pds()) and parse again to the same
 * values; anything else aborts.
 */
#include <stdlib.h>
#include <string.h>

#include "wire.h"

#define MAX_HDR		64
#define SEL_SES		2	/* first selector of the SES parsers */
#define SEL_AMO		(SEL_SES + UET_SES_NH_COUNT + 1)
#define SEL_COUNT	(SEL_AMO + 1)

#define CHECK(cond)		\
	do {			\
		if (!(cond))	\
			abort();\
	} while (0)

static void fuzz_tss(const u8 *data, size_t size)
{
	struct uet_tss_hdr_info a, b;
	u8 out[MAX_HDR];
	int len = uet_tss_parse(data, size, &a);

	if (len < 0)
		return;
	CHECK(uet_tss_build(out, sizeof(out), &a) == len);
	CHECK(!memcmp(out, data, len));
	CHECK(uet_tss_parse(out, len, &b) == len);
	CHECK(!memcmp(&a, &b, sizeof(a)));
}

static void fuzz_ses(const u8 *data, size_t size, u8 next_hdr)
{
	struct uet_ses_hdr_info a, b;
	u8 out[MAX_HDR];
	int len = uet_ses_parse(data, size, next_hdr, &a);

	if (len < 0)
		return;
	CHECK(uet_ses_build(out, sizeof(out), &a) == len);
	CHECK(!memcmp(out, data, len));
	CHECK(uet_ses_parse(out, len, next_hdr, &b) == len);
	CHECK(!memcmp(&a, &b, sizeof(a)));
}

static void fuzz_amo(const u8 *data, size_t size)
{
	struct uet_ses_amo_info a, b;
	u8 out[MAX_HDR];
	int len = uet_ses_amo_parse(data, size, &a);

	if (len < 0)
		return;
	CHECK(uet_ses_amo_build(out, sizeof(out), &a) == len);
	CHECK(!memcmp(out, data, len));
	CHECK(uet_ses_amo_parse(out, len, &b) == len);
	CHECK(!memcmp(&a, &b, sizeof(a)));
}

/*
 * A PDS header built back from what @in parsed to, @out, is @in byte for
 * byte, or @in was a SYN in the reference provider's spelling of "use the
 * reserved pool" (bit 12 of the SYN word, its high byte's 0x10), which is
 * built in the other (bit 15, 0x80): one byte apart by those two bits.
 */
static bool same_pds(const u8 *in, const u8 *out, int len, u8 flags)
{
	const u8 ref = UET_PDS_SYN_USE_RSV_REF >> 8, ours = UET_PDS_SYN_USE_RSV >> 8;
	int i, diff = -1;

	for (i = 0; i < len; i++) {
		if (in[i] == out[i])
			continue;
		if (diff >= 0)
			return false;
		diff = i;
	}
	return diff < 0 ||
	       ((flags & UET_PDS_F_SYN) && (in[diff] ^ out[diff]) == (ref | ours) &&
		(in[diff] & ref));
}

static void fuzz_pds(const u8 *data, size_t size)
{
	struct uet_pds_hdr_info a, b;
	u8 out[MAX_HDR];
	int len = uet_pds_parse(data, size, &a);

	if (len < 0)
		return;
	CHECK(uet_pds_build(out, sizeof(out), &a) == len);
	CHECK(same_pds(data, out, len, a.flags));
	CHECK(uet_pds_parse(out, len, &b) == len);
	CHECK(!memcmp(&a, &b, sizeof(a)));
	fuzz_ses(data + len, size - len, a.next_hdr);
}

int LLVMFuzzerTestOneInput(const u8 *data, size_t size)
{
	u8 sel;

	if (!size)
		return 0;
	sel = data[0] % SEL_COUNT;
	if (sel == 0)
		fuzz_tss(data + 1, size - 1);
	else if (sel == 1)
		fuzz_pds(data + 1, size - 1);
	else if (sel == SEL_AMO)
		fuzz_amo(data + 1, size - 1);
	else
		fuzz_ses(data + 1, size - 1, sel - SEL_SES);
	return 0;
}
