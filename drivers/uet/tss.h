/* SPDX-License-Identifier: GPL-2.0 */
/*
 * uet's transport security (TSS) core: the AES-GCM nonce of a packet, the
 * key derivation (SP 800-108 in counter mode, its pseudorandom function
 * the caller's: AES-CMAC through the crypto API in the kernel) and the
 * replay window.  No keys are kept here, no locks, no crypto of its own:
 * the caller holds whatever lock guards a window, and takes a TSC into it
 * only for packets whose integrity check passed, so a forged packet never
 * moves a window.
 *
 * Part of the protocol core: no kernel objects, so the userspace unit
 * tests and fuzzers compile it as is.  Documentation/security.rst says
 * where each rule comes from.
 */
#ifndef _UET_TSS_H
#define _UET_TSS_H

#include <linux/bitmap.h>
#include <linux/bits.h>
#include <linux/types.h>

#include "wire.h"

/* AES-GCM's nonce: 96 bits, the length GCM handles without hashing it. */
#define UET_TSS_IV_LEN		12
/* The integrity check value at a packet's end: GCM's full 128-bit tag. */
#define UET_TSS_ICV_LEN		16
/* Keys: AES-256, as the UEC reference provider uses. */
#define UET_TSS_KEY_LEN		32
/* What the KDF's pseudorandom function gives per call: a CMAC-AES block. */
#define UET_TSS_PRF_LEN		16
/* Longest label and context uet_tss_kdf() takes. */
#define UET_TSS_LABEL_MAX	8
#define UET_TSS_CONTEXT_MAX	32

/*
 * The security counter (TSC) of a packet: the key's epoch in its top 16
 * bits, the sender's count under the key below [REF].
 */
#define UET_TSS_TSC_EPOCH	GENMASK_ULL(63, 48)
#define UET_TSS_TSC_COUNT	GENMASK_ULL(47, 0)

/*
 * The labels of the reference provider's derivations: "U1" derives a
 * source's key from a domain's (cluster mode), "U2" a server's clients'
 * key from a domain's (server mode).
 */
#define UET_TSS_LABEL_CLUSTER	"U1"
#define UET_TSS_LABEL_SERVER	"U2"

/*
 * What a derivation gives: the key, then a mask XORed into every nonce
 * sealed under it (352 bits).
 */
#define UET_TSS_DERIVED_LEN	(UET_TSS_KEY_LEN + UET_TSS_IV_LEN)

/*
 * A derivation's context (uet_tss_context()): the 16-bit epoch, a 32-bit
 * rekey value and a 32-bit identity; for an IPv6 address, four zero
 * bytes, the epoch, the rekey value and the 128-bit address.
 */
#define UET_TSS_CTX4_LEN	10
#define UET_TSS_CTX6_LEN	26

/**
 * typedef uet_tss_prf_t - the KDF's pseudorandom function
 * @arg: the caller's, keyed with the key derived from.
 * @in: the input block.
 * @len: its length.
 * @out: UET_TSS_PRF_LEN bytes of output.
 *
 * Return: 0, or a negative errno.
 */
typedef int (*uet_tss_prf_t)(void *arg, const u8 *in, size_t len, u8 *out);

void uet_tss_iv(const struct uet_tss_hdr_info *h, const u8 *src4,
		const u8 *mask, u8 *iv);
size_t uet_tss_context(u8 *ctx, u16 epoch, u32 rekey, const u8 *id,
		       size_t id_len);
int uet_tss_kdf(uet_tss_prf_t prf, void *arg, const char *label,
		const u8 *ctx, size_t ctx_len, u8 *out, size_t out_len);

/*
 * TSC values a window remembers below the highest seen: how far a packet
 * may arrive out of order and still be taken.  A power of two.  Sprayed
 * packets of every PDC from one source share one counter, so this covers
 * the reordering of all of them together (Linux's ESP allows 4096 with
 * extended sequence numbers, RFC 4303 asks for 32 at least); 256 bytes of
 * state per source.
 */
#define UET_TSS_REPLAY_WINDOW	2048

/**
 * struct uet_tss_replay - the TSC values a receiver took from one source
 * @top: the highest TSC taken; 0 when none is (a sender's first is 1).
 * @seen: bit (tsc % UET_TSS_REPLAY_WINDOW) for each TSC taken in
 *	(@top - UET_TSS_REPLAY_WINDOW, @top].
 */
struct uet_tss_replay {
	u64 top;
	DECLARE_BITMAP(seen, UET_TSS_REPLAY_WINDOW);
};

/* What uet_tss_replay_check() says of a TSC. */
enum uet_tss_replay_verdict {
	UET_TSS_REPLAY_NEW,	/* not taken before: take it */
	UET_TSS_REPLAY_SEEN,	/* taken before: a replay */
	UET_TSS_REPLAY_OLD,	/* below the window: a replay or too late */
};

void uet_tss_replay_init(struct uet_tss_replay *r);
enum uet_tss_replay_verdict
uet_tss_replay_check(const struct uet_tss_replay *r, u64 tsc);
void uet_tss_replay_take(struct uet_tss_replay *r, u64 tsc);

#endif /* _UET_TSS_H */
