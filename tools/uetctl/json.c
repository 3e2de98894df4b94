// SPDX-License-Identifier: GPL-2.0
/*
 * JSON strings out of bytes that may be anything: a device or netdev name
 * is whatever its creator chose.  Quotes, backslashes, control characters
 * and DEL are escaped (RFC 8259, section 7); well-formed UTF-8 (RFC 3629)
 * passes as it is; any other byte becomes the code point of the same
 * value (\u0080 to \u00ff), so that the output is always valid JSON and
 * the bytes can be told apart.
 */
#include <stdio.h>

#include "uetctl.h"

/* Length of the UTF-8 sequence at @s, or 0 if none starts there. */
static int utf8_len(const unsigned char *s)
{
	unsigned int cp;
	int n, i;

	if (s[0] < 0x80)
		return 1;
	if (s[0] >= 0xc2 && s[0] <= 0xdf) {
		n = 2;
		cp = s[0] & 0x1f;
	} else if ((s[0] & 0xf0) == 0xe0) {
		n = 3;
		cp = s[0] & 0x0f;
	} else if (s[0] >= 0xf0 && s[0] <= 0xf4) {
		n = 4;
		cp = s[0] & 0x07;
	} else {
		return 0;
	}
	for (i = 1; i < n; i++) {
		if ((s[i] & 0xc0) != 0x80)	/* the terminating NUL too */
			return 0;
		cp = cp << 6 | (s[i] & 0x3f);
	}
	/* overlong forms, surrogates, beyond U+10FFFF */
	if ((n == 3 && cp < 0x800) || (n == 4 && cp < 0x10000) ||
	    cp > 0x10ffff || (cp >= 0xd800 && cp <= 0xdfff))
		return 0;
	return n;
}

void json_fputs(FILE *f, const char *s)
{
	const unsigned char *p = (const unsigned char *)s;
	int n;

	fputc('"', f);
	while (*p) {
		if (*p == '"' || *p == '\\') {
			fprintf(f, "\\%c", *p++);
		} else if (*p < 0x20 || *p == 0x7f) {
			fprintf(f, "\\u%04x", *p++);
		} else {
			n = utf8_len(p);
			if (n) {
				fwrite(p, 1, n, f);
				p += n;
			} else {
				fprintf(f, "\\u%04x", *p++);
			}
		}
	}
	fputc('"', f);
}
