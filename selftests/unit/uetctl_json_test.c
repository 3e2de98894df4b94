// SPDX-License-Identifier: GPL-2.0
/*
 * Unit tests of uetctl's JSON strings (tools/uetctl/json.c): whatever the
 * bytes of a name, the output is one valid JSON string that tells them
 * apart.
 */
#include "kselftest_harness.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "uetctl.h"

/* What json_fputs() makes of @s. */
static char *json(const char *s)
{
	static char out[256];
	FILE *f = fmemopen(out, sizeof(out), "w");

	if (!f)
		return NULL;
	json_fputs(f, s);
	fclose(f);
	return out;
}

TEST(plain_and_escaped)
{
	ASSERT_STREQ("\"uet0\"", json("uet0"));
	ASSERT_STREQ("\"\"", json(""));
	ASSERT_STREQ("\"a\\\"b\\\\c\"", json("a\"b\\c"));
	ASSERT_STREQ("\"\\u0001\\u001f\\u007f\\u000a\"", json("\x01\x1f\x7f\n"));
}

TEST(utf8_passes)
{
	/* e with acute, euro sign, U+10348: 2, 3 and 4 bytes */
	ASSERT_STREQ("\"\xc3\xa9\xe2\x82\xac\xf0\x90\x8d\x88\"",
		     json("\xc3\xa9\xe2\x82\xac\xf0\x90\x8d\x88"));
	ASSERT_STREQ("\"\xf4\x8f\xbf\xbf\"", json("\xf4\x8f\xbf\xbf"));
}

TEST(other_bytes_escaped)
{
	/* lone continuation, invalid lead bytes */
	ASSERT_STREQ("\"\\u0080\\u00ff\\u00c0\\u00c1\"", json("\x80\xff\xc0\xc1"));
	/* overlong '/', a truncated sequence at the end */
	ASSERT_STREQ("\"\\u00e0\\u0080\\u00af\"", json("\xe0\x80\xaf"));
	ASSERT_STREQ("\"x\\u00e2\\u0082\"", json("x\xe2\x82"));
	/* a surrogate, beyond U+10FFFF */
	ASSERT_STREQ("\"\\u00ed\\u00a0\\u0080\"", json("\xed\xa0\x80"));
	ASSERT_STREQ("\"\\u00f4\\u0090\\u0080\\u0080\"", json("\xf4\x90\x80\x80"));
}

TEST_HARNESS_MAIN
