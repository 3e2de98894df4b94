/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * libuet internals: the parser of the uet family's replies, kept apart
 * from the socket so that the unit tests and the fuzzer can feed it bytes.
 */
#ifndef LIBUET_NL_PRIV_H
#define LIBUET_NL_PRIV_H

#include <stddef.h>
#include <stdint.h>

#include "uet/libuet.h"

#define UET_NL_ERRMSG_MAX	256

/**
 * struct uet_nl_reply - what a request's replies are parsed into
 * @ctrl: the replies are the generic netlink controller's (family lookup)
 * @monitor: the messages are the monitor group's notifications, @fn a
 *	uet_event_fn
 * @cmd: the uet command whose messages are wanted (UET_CMD_*)
 * @fn: the callback for each object, typed after @cmd (uet_dev_fn, ...)
 * @arg: its argument
 * @family: out, @ctrl: the family id found
 * @mcgrp: out, @ctrl: the monitor group's id, 0 if the family has none
 * @cb_ret: out: the callback's non-zero return, which stopped parsing
 * @error: out: the kernel's negative errno, 0 when it acknowledged
 * @errmsg: out: the kernel's extended ACK message
 * @count: out: objects parsed
 */
struct uet_nl_reply {
	int ctrl;
	int monitor;
	uint8_t cmd;
	void *fn;
	void *arg;
	uint16_t family;
	uint32_t mcgrp;
	int cb_ret;
	int error;
	char errmsg[UET_NL_ERRMSG_MAX];
	unsigned int count;
};

/*
 * Parse @len bytes of netlink messages, at a 4-byte aligned @buf (as
 * recv() fills it).  Returns as mnl_cb_run() does:
 * 1 when more messages are to come, 0 at the end (done, ACK), -1 on an
 * error (the kernel's, in @r->error, or a malformed message, -EPROTO).
 */
int uet_nl_parse(const void *buf, size_t len, uint32_t seq, uint32_t portid,
		 struct uet_nl_reply *r);

#endif /* LIBUET_NL_PRIV_H */
