// SPDX-License-Identifier: GPL-2.0
/*
 * Rate advice: the message's parser and builder, and the cap a sender
 * keeps from it (ra.h; Documentation/rate-advice.rst).
 *
 * Pure C over byte buffers and the time the caller passes: no kernel
 * objects, so the userspace unit tests and fuzzers compile it as is.
 */
#include <asm/byteorder.h>
#include <linux/bitfield.h>
#include <linux/errno.h>
#include <linux/math64.h>
#include <linux/minmax.h>
#include <linux/string.h>

#include "ra.h"
#include "wire.h"

static_assert(sizeof(struct uet_ra_hdr) == 28);

/* At M Mbit/s, M * T / RA_MBPS_NS_PER_BYTE bytes go in T ns (8 bits). */
#define RA_MBPS_NS_PER_BYTE	8000
/* What tokens may grow by at once: a second's worth, more than a burst. */
#define RA_REFILL_MAX_NS	1000000000ULL
#define RA_NS_PER_MS		1000000ULL

/**
 * uet_ra_parse() - read a rate advice message
 * @buf: the message, from its PDS prologue on
 * @len: bytes in @buf; more than the message are refused too
 * @info: filled in
 *
 * Return: the message's length; -EMSGSIZE if @buf is shorter or longer,
 * -EPROTONOSUPPORT for another type or version, -EINVAL for a next
 * header or flags that are not 0.
 */
int uet_ra_parse(const u8 *buf, size_t len, struct uet_ra_info *info)
{
	const struct uet_ra_hdr *h = (const void *)buf;
	u16 prologue;

	if (len != sizeof(*h))
		return -EMSGSIZE;
	prologue = be16_to_cpu(h->prologue);
	if (FIELD_GET(UET_PDS_PRLG_TYPE, prologue) != UET_PDS_TYPE_RA)
		return -EPROTONOSUPPORT;
	if (prologue & (UET_PDS_PRLG_NEXT_HDR | UET_PDS_PRLG_FLAGS))
		return -EINVAL;
	info->version = be16_to_cpu(h->version);
	if (info->version != UET_RA_VERSION)
		return -EPROTONOSUPPORT;
	info->rate_mbps = be32_to_cpu(h->rate_mbps);
	info->spdcid = be16_to_cpu(h->spdcid);
	info->lifetime_ms = be16_to_cpu(h->lifetime_ms);
	memcpy(&info->daddr, h->daddr, sizeof(info->daddr));
	return sizeof(*h);
}

/**
 * uet_ra_build() - write a rate advice message
 * @buf: where
 * @len: room in @buf
 * @info: its values; @info->version must be %UET_RA_VERSION
 *
 * Return: the bytes written, or -EMSGSIZE without room, -EINVAL for
 * another version.
 */
int uet_ra_build(u8 *buf, size_t len, const struct uet_ra_info *info)
{
	struct uet_ra_hdr *h = (void *)buf;

	if (len < sizeof(*h))
		return -EMSGSIZE;
	if (info->version != UET_RA_VERSION)
		return -EINVAL;
	h->prologue = cpu_to_be16(FIELD_PREP(UET_PDS_PRLG_TYPE,
					     UET_PDS_TYPE_RA));
	h->version = cpu_to_be16(info->version);
	h->rate_mbps = cpu_to_be32(info->rate_mbps);
	h->spdcid = cpu_to_be16(info->spdcid);
	h->lifetime_ms = cpu_to_be16(info->lifetime_ms);
	memcpy(h->daddr, &info->daddr, sizeof(h->daddr));
	return sizeof(*h);
}

/* Bytes @mbps lets go in @ns. */
static u64 ra_bytes(u32 mbps, u64 ns)
{
	return div_u64((u64)mbps * ns, RA_MBPS_NS_PER_BYTE);
}

/*
 * Count what the cap has let accrue since @ra->at, up to a burst.  @at
 * moves by the time the whole bytes counted took: the fraction of a byte
 * left over counts next time, however often the sender looks.
 */
static void ra_refill(struct uet_ra *ra, u64 now)
{
	u64 bytes;

	if (now <= ra->at)
		return;
	bytes = ra_bytes(ra->cap, min(now - ra->at, RA_REFILL_MAX_NS));
	if (ra->tokens + (s64)bytes >= UET_RA_BURST) {
		ra->tokens = UET_RA_BURST;
		ra->at = now;
		return;
	}
	ra->tokens += bytes;
	ra->at += div_u64(bytes * RA_MBPS_NS_PER_BYTE, ra->cap);
}

/**
 * uet_ra_advise() - take one advice for the flow of @ra
 * @ra: the flow's cap
 * @now: the time, ns
 * @info: the advice
 * @floor_mbps: the lowest cap the device lets advice set, at least 1
 * @link_mbps: the link's rate: the highest cap, at least @floor_mbps
 *
 * The advice, held within [@floor_mbps, @link_mbps], holds for its
 * lifetime; the cap, the link's if there was none, moves a quarter of
 * the way to it.  A rate of 0 withdraws the advice.
 *
 * Return: what it did.
 */
enum uet_ra_result uet_ra_advise(struct uet_ra *ra, u64 now,
				 const struct uet_ra_info *info,
				 u32 floor_mbps, u32 link_mbps)
{
	u32 ms = info->lifetime_ms ?: UET_RA_LIFETIME_DEF_MS;
	u32 to;

	if (!info->rate_mbps) {
		ra->advised = 0;
		ra->cap = 0;
		return UET_RA_RELEASED;
	}
	to = clamp(info->rate_mbps, floor_mbps, link_mbps);
	if (ra->cap)
		ra_refill(ra, now);
	else
		*ra = (struct uet_ra){ .cap = link_mbps, .at = now,
				       .tokens = UET_RA_BURST };
	ra->advised = to;
	if (ra->cap > to)
		ra->cap -= max_t(u32, (ra->cap - to) / UET_RA_STEP, 1);
	else if (ra->cap < to)
		ra->cap += max_t(u32, (to - ra->cap) / UET_RA_STEP, 1);
	ra->expires = now + ms * RA_NS_PER_MS;
	return UET_RA_APPLIED;
}

/**
 * uet_ra_expire() - let a lapsed advice go
 * @ra: the flow's cap
 * @now: the time, ns
 *
 * Return: whether an advice lapsed now: the flow is no longer capped.
 */
bool uet_ra_expire(struct uet_ra *ra, u64 now)
{
	if (!ra->cap || now < ra->expires)
		return false;
	ra->advised = 0;
	ra->cap = 0;
	return true;
}

/**
 * uet_ra_may_send() - whether the cap lets the flow send a packet now
 * @ra: the flow's cap
 * @now: the time, ns
 *
 * Return: true without a cap, or with bytes in hand; uet_ra_wait_ns()
 * says how long until there are some.
 */
bool uet_ra_may_send(struct uet_ra *ra, u64 now)
{
	if (!ra->cap)
		return true;
	ra_refill(ra, now);
	return ra->tokens > 0;
}

/**
 * uet_ra_sent() - the flow sent @bytes
 * @ra: the flow's cap
 * @bytes: the packet's bytes on the wire
 */
void uet_ra_sent(struct uet_ra *ra, u32 bytes)
{
	if (ra->cap)
		ra->tokens -= bytes;
}

/**
 * uet_ra_wait_ns() - how long until the cap lets the flow send again
 * @ra: the flow's cap, as uet_ra_may_send() last counted it
 *
 * Return: ns; 0 if it may send now.
 */
u64 uet_ra_wait_ns(const struct uet_ra *ra)
{
	u64 owed;

	if (!ra->cap || ra->tokens > 0)
		return 0;
	owed = (u64)(-ra->tokens) + 1;
	return div_u64(owed * RA_MBPS_NS_PER_BYTE + ra->cap - 1, ra->cap);
}
