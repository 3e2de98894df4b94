// SPDX-License-Identifier: GPL-2.0
/*
 * uet's transport security core (tss.h).  The nonce, the security
 * counter's layout and the derivation inputs are those of the UEC
 * reference provider's current code (ultraethernet/uet-ref-prov,
 * uet_sec.c, and the published vectors of crypto/test/test_uec_kdf.c in
 * its fork HanXingling/uet-ref-prov; Documentation/security.rst says how
 * its older in-kernel copy differed), the KDF is NIST SP 800-108r1
 * section 4.1 (counter mode), and the replay window is the sliding bitmap
 * of RFC 4303 section 3.4.3 and RFC 6479 (a ring of bits indexed by the
 * counter, cleared as the top moves up).  Documentation/security.rst
 * draws each.
 */
#include <asm/byteorder.h>
#include <linux/errno.h>
#include <linux/minmax.h>
#include <linux/string.h>

#include "tss.h"

/* SP 800-108's counter [i]: 8 bits, before the fixed input. */
#define KDF_COUNTER_LEN		1
/* ... and [L], the bits derived: 16 bits, after it [REF]. */
#define KDF_LENGTH_LEN		2
#define KDF_IN_MAX		(KDF_COUNTER_LEN + UET_TSS_LABEL_MAX + 1 + \
				 UET_TSS_CONTEXT_MAX + KDF_LENGTH_LEN)
/* An IPv6 context's zero padding before the epoch [REF]. */
#define CTX6_PAD		4

/**
 * uet_tss_iv() - the AES-GCM nonce of a packet
 * @h: its TSS header.
 * @src4: the packet's IPv4 source address (4 bytes, network order), or
 *	%NULL for IPv6.
 * @mask: the key's nonce mask (UET_TSS_IV_LEN bytes, the end of its
 *	derivation), or %NULL for a key used as installed (direct mode).
 * @iv: UET_TSS_IV_LEN bytes: 32 bits of the sender's identity (the SSI
 *	when the header has one, else the IPv4 source address, else the
 *	SDI), then the TSC as 64, big-endian, XORed with @mask.
 *
 * The nonce is unique under a key as long as a sender never repeats a TSC
 * under it and no two senders under it share an identity: over IPv6 a
 * key shared by several senders needs their SSIs, or a key of each
 * sender's own (a derived one).
 */
void uet_tss_iv(const struct uet_tss_hdr_info *h, const u8 *src4,
		const u8 *mask, u8 *iv)
{
	__be32 id = cpu_to_be32(h->has_ssi ? h->ssi : h->sdi);
	__be64 tsc = cpu_to_be64(h->tsc);
	unsigned int i;

	if (h->has_ssi || !src4)
		memcpy(iv, &id, sizeof(id));
	else
		memcpy(iv, src4, sizeof(id));
	memcpy(iv + sizeof(id), &tsc, sizeof(tsc));
	if (mask)
		for (i = 0; i < UET_TSS_IV_LEN; i++)
			iv[i] ^= mask[i];
}

/**
 * uet_tss_context() - the context a key is derived with
 * @ctx: UET_TSS_CONTEXT_MAX bytes of room.
 * @epoch: the key's epoch.
 * @rekey: the rekey value (0 when the domain does not rekey by time).
 * @id: 4 bytes (an SSI, or an IPv4 address) or 16 (an IPv6 address), in
 *	network order: the source's for a source's key (cluster mode), the
 *	server's for a server's clients' (server mode).
 * @id_len: 4 or 16.
 *
 * The epoch and the rekey value big-endian, then @id: UET_TSS_CTX4_LEN
 * bytes; for an IPv6 address, four zero bytes first, UET_TSS_CTX6_LEN.
 *
 * Return: the context's length, or 0 for another @id_len.
 */
size_t uet_tss_context(u8 *ctx, u16 epoch, u32 rekey, const u8 *id,
		       size_t id_len)
{
	__be16 e = cpu_to_be16(epoch);
	__be32 r = cpu_to_be32(rekey);
	size_t len = 0;

	if (id_len != 4 && id_len != 16)
		return 0;
	if (id_len == 16) {
		memset(ctx, 0, CTX6_PAD);
		len = CTX6_PAD;
	}
	memcpy(ctx + len, &e, sizeof(e));
	len += sizeof(e);
	memcpy(ctx + len, &r, sizeof(r));
	len += sizeof(r);
	memcpy(ctx + len, id, id_len);
	return len + id_len;
}

/**
 * uet_tss_kdf() - derive a key, SP 800-108 in counter mode
 * @prf: the pseudorandom function, keyed with the key derived from.
 * @arg: its argument.
 * @label: a NUL-terminated label, at most UET_TSS_LABEL_MAX characters
 *	(without its NUL, as the reference provider uses it).
 * @ctx: the context ...
 * @ctx_len: ... of at most UET_TSS_CONTEXT_MAX bytes.
 * @out: where the key (and its nonce mask) goes ...
 * @out_len: ... of at most UET_TSS_DERIVED_LEN bytes.
 *
 * Block i (from 1) is PRF([i]_8 || label || 0x00 || context || [L]_16),
 * L the bits derived; the output is the first @out_len bytes of the
 * blocks.
 * The inputs and blocks on the stack are cleared before returning.
 *
 * Return: 0, -EINVAL for lengths out of range, or the PRF's error (@out
 * then cleared).
 */
int uet_tss_kdf(uet_tss_prf_t prf, void *arg, const char *label,
		const u8 *ctx, size_t ctx_len, u8 *out, size_t out_len)
{
	size_t label_len = strnlen(label, UET_TSS_LABEL_MAX + 1);
	u8 in[KDF_IN_MAX], block[UET_TSS_PRF_LEN];
	__be16 bits = cpu_to_be16(out_len * 8);
	size_t in_len, done, n;
	int err = 0;
	u8 i;

	if (label_len > UET_TSS_LABEL_MAX || ctx_len > UET_TSS_CONTEXT_MAX ||
	    !out_len || out_len > UET_TSS_DERIVED_LEN)
		return -EINVAL;
	in_len = KDF_COUNTER_LEN;
	memcpy(in + in_len, label, label_len);
	in_len += label_len;
	in[in_len++] = 0;
	memcpy(in + in_len, ctx, ctx_len);
	in_len += ctx_len;
	memcpy(in + in_len, &bits, sizeof(bits));
	in_len += sizeof(bits);

	for (i = 1, done = 0; done < out_len; i++, done += n) {
		in[0] = i;
		err = prf(arg, in, in_len, block);
		if (err)
			break;
		n = min(out_len - done, sizeof(block));
		memcpy(out + done, block, n);
	}
	if (err)
		memzero_explicit(out, out_len);
	memzero_explicit(block, sizeof(block));
	memzero_explicit(in, sizeof(in));
	return err;
}

/* Nothing taken yet. */
void uet_tss_replay_init(struct uet_tss_replay *r)
{
	r->top = 0;
	bitmap_zero(r->seen, UET_TSS_REPLAY_WINDOW);
}

/**
 * uet_tss_replay_check() - whether a TSC may be taken
 * @r: the source's window.
 * @tsc: the packet's security counter.
 *
 * Changes nothing: a packet is checked here before its integrity check
 * (a cheap refusal of replays) and taken with uet_tss_replay_take() only
 * after it.  TSC 0 is never sent, so it is always old.
 *
 * Return: enum uet_tss_replay_verdict.
 */
enum uet_tss_replay_verdict
uet_tss_replay_check(const struct uet_tss_replay *r, u64 tsc)
{
	if (tsc > r->top)
		return UET_TSS_REPLAY_NEW;
	if (!tsc || r->top - tsc >= UET_TSS_REPLAY_WINDOW)
		return UET_TSS_REPLAY_OLD;
	if (test_bit(tsc % UET_TSS_REPLAY_WINDOW, r->seen))
		return UET_TSS_REPLAY_SEEN;
	return UET_TSS_REPLAY_NEW;
}

/**
 * uet_tss_replay_take() - remember a TSC taken
 * @r: the source's window.
 * @tsc: a TSC uet_tss_replay_check() found new, whose packet passed its
 *	integrity check.
 *
 * Moving the top up forgets what falls out of the window: at most
 * UET_TSS_REPLAY_WINDOW bits are cleared, however far it moves.
 */
void uet_tss_replay_take(struct uet_tss_replay *r, u64 tsc)
{
	u64 t;

	if (tsc > r->top) {
		if (tsc - r->top >= UET_TSS_REPLAY_WINDOW)
			bitmap_zero(r->seen, UET_TSS_REPLAY_WINDOW);
		else
			for (t = r->top + 1; t < tsc; t++)
				__clear_bit(t % UET_TSS_REPLAY_WINDOW, r->seen);
		r->top = tsc;
	}
	__set_bit(tsc % UET_TSS_REPLAY_WINDOW, r->seen);
}
