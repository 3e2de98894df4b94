// SPDX-License-Identifier: GPL-2.0
/*
 * uet's transport security core (tss.h).  The nonce and the derivation
 * inputs are laid out as the in-kernel copy of the UEC reference provider
 * lays them out (ultraethernet/uet-ref-prov, in-kernel-ses/driver/uet_pds/
 * common/uet_sec.c and uet_crypto/kdf_ctr_cmac_aes.c; its newer code
 * differs, see Documentation/security.rst), the KDF is NIST SP
 * 800-108r1 section 4.1 (counter mode), and the replay window is the
 * sliding bitmap of RFC 4303 section 3.4.3 and RFC 6479 (a ring of bits
 * indexed by the counter, cleared as the top moves up), over TSS's 64-bit
 * security counter, which never wraps under one key.
 * Documentation/security.rst draws each.
 */
#include <asm/byteorder.h>
#include <linux/errno.h>
#include <linux/minmax.h>
#include <linux/string.h>

#include "tss.h"

/* SP 800-108's counter [i]: 8 bits, before the fixed input. */
#define KDF_COUNTER_LEN		1
/* ... and [L], the bits derived: 32 bits, after it. */
#define KDF_LENGTH_LEN		4
#define KDF_IN_MAX		(KDF_COUNTER_LEN + UET_TSS_LABEL_MAX + 1 + \
				 UET_TSS_CONTEXT_MAX + KDF_LENGTH_LEN)

/**
 * uet_tss_iv() - the AES-GCM nonce of a packet
 * @h: its TSS header.
 * @iv: UET_TSS_IV_LEN bytes: the SSI when the header has one, else the
 *	SDI, as 32 bits, then the TSC as 64, both big-endian.
 *
 * The nonce is unique under a key as long as a sender never repeats a TSC
 * under it: a key shared by several senders (a domain's, without per-source
 * derivation) needs an SSI of each sender's own.
 */
void uet_tss_iv(const struct uet_tss_hdr_info *h, u8 *iv)
{
	__be32 id = cpu_to_be32(h->has_ssi ? h->ssi : h->sdi);
	__be64 tsc = cpu_to_be64(h->tsc);

	memcpy(iv, &id, sizeof(id));
	memcpy(iv + sizeof(id), &tsc, sizeof(tsc));
}

/**
 * uet_tss_source_context() - the context a source's key is derived with
 * @ctx: UET_TSS_SOURCE_CTX_LEN bytes.
 * @epoch: the key's epoch.
 * @source: the source's SSI, or its IPv4 address, in host order.
 */
void uet_tss_source_context(u8 *ctx, u16 epoch, u32 source)
{
	__be16 e = cpu_to_be16(epoch);
	__be32 s = cpu_to_be32(source);

	ctx[0] = 0;
	memcpy(ctx + 1, &e, sizeof(e));
	memcpy(ctx + 1 + sizeof(e), &s, sizeof(s));
}

/**
 * uet_tss_kdf() - derive a key, SP 800-108 in counter mode
 * @prf: the pseudorandom function, keyed with the key derived from.
 * @arg: its argument.
 * @label: a NUL-terminated label, at most UET_TSS_LABEL_MAX characters
 *	(without its NUL, as the reference provider uses it).
 * @ctx: the context ...
 * @ctx_len: ... of at most UET_TSS_CONTEXT_MAX bytes.
 * @out: where the key goes ...
 * @out_len: ... of at most UET_TSS_KEY_LEN bytes.
 *
 * Block i (from 1) is PRF([i]_8 || label || 0x00 || context || [L]_32),
 * L the bits derived; the key is the first @out_len bytes of the blocks.
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
	__be32 bits = cpu_to_be32(out_len * 8);
	size_t in_len, done, n;
	int err = 0;
	u8 i;

	if (label_len > UET_TSS_LABEL_MAX || ctx_len > UET_TSS_CONTEXT_MAX ||
	    !out_len || out_len > UET_TSS_KEY_LEN)
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
