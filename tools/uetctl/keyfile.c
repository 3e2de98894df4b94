// SPDX-License-Identifier: GPL-2.0
/*
 * uetctl key files: a transport security key, as 32 bytes or as their 64
 * hex digits on one line (white space around them allowed, as
 * "xxd -p -c 32" leaves it).  Every buffer that held the key is wiped.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>
#include <uet/libuet.h>

#include "uetctl.h"

#define ERR(...)	(snprintf(err, ARG_ERR_MAX, __VA_ARGS__), -1)

/* Longest key file taken: 64 hex digits, with room for white space. */
#define KEY_FILE_MAX	256

static int is_space(char c)
{
	return c == ' ' || c == '\t' || c == '\r' || c == '\n';
}

static int hexval(char c)
{
	if (c >= '0' && c <= '9')
		return c - '0';
	if (c >= 'a' && c <= 'f')
		return c - 'a' + 10;
	if (c >= 'A' && c <= 'F')
		return c - 'A' + 10;
	return -1;
}

/* The 64 hex digits of @s (white space around them allowed) into @key. */
static int key_hex(const char *s, size_t len, uint8_t *key)
{
	size_t i = 0, n = 0;
	int hi, lo;

	while (i < len && is_space(s[i]))
		i++;
	for (; n < UET_KEY_LEN && i + 1 < len; n++, i += 2) {
		hi = hexval(s[i]);
		lo = hexval(s[i + 1]);
		if (hi < 0 || lo < 0)
			return -1;
		key[n] = (uint8_t)(hi << 4 | lo);
	}
	while (i < len && is_space(s[i]))
		i++;
	return n == UET_KEY_LEN && i == len ? 0 : -1;
}

/* 32 bytes, each a hex digit: half a key in hex, not a raw key. */
static int key_half_hex(const char *s)
{
	int i;

	for (i = 0; i < UET_KEY_LEN; i++)
		if (hexval(s[i]) < 0)
			return 0;
	return 1;
}

/*
 * The key in @path ("-": standard input): exactly UET_KEY_LEN bytes, or
 * their 64 hex digits.  0, or -1 with @err set; @key wiped on failure.
 */
int key_read(const char *path, uint8_t *key, char *err)
{
	char buf[KEY_FILE_MAX];
	ssize_t n = 0, len = 0;
	int fd, rc = 0;

	fd = strcmp(path, "-") ? open(path, O_RDONLY | O_CLOEXEC) : 0;
	if (fd < 0)
		return ERR("key file \"%s\": %s", path, strerror(errno));
	while (len < (ssize_t)sizeof(buf) &&
	       (n = read(fd, buf + len, sizeof(buf) - len)) > 0)
		len += n;
	if (n < 0)
		rc = ERR("key file \"%s\": %s", path, strerror(errno));
	else if (len == UET_KEY_LEN && key_half_hex(buf))
		rc = ERR("key file \"%s\": 32 hex digits, half a key: a key is %d bytes or %d hex digits",
			 path, UET_KEY_LEN, 2 * UET_KEY_LEN);
	else if (len == UET_KEY_LEN)
		memcpy(key, buf, UET_KEY_LEN);
	else if (len == sizeof(buf) || key_hex(buf, len, key))
		rc = ERR("key file \"%s\": not %d bytes nor %d hex digits",
			 path, UET_KEY_LEN, 2 * UET_KEY_LEN);
	if (fd)
		close(fd);
	explicit_bzero(buf, sizeof(buf));
	if (rc)
		explicit_bzero(key, UET_KEY_LEN);
	return rc;
}
