// SPDX-License-Identifier: GPL-2.0
/*
 * uet's transport security through the kernel crypto API (tss_crypto.h).
 * Documentation/security.rst gives the construction and its sources.
 */
#include <linux/err.h>
#include <linux/slab.h>

#include "tss_crypto.h"

/**
 * uet_tss_aead_alloc() - an AES-256-GCM transform for one key
 * @key: UET_TSS_KEY_LEN bytes; the transform keeps its own copy.
 *
 * The best "gcm(aes)" the kernel has (AES-NI and PCLMULQDQ where the CPU
 * has them), asynchronous ones included: a request says how it completes.
 * The ICV is GCM's full tag, UET_TSS_ICV_LEN bytes.  May sleep.
 *
 * Return: the transform, or an ERR_PTR().
 */
struct crypto_aead *uet_tss_aead_alloc(const u8 *key)
{
	struct crypto_aead *aead;
	int err;

	aead = crypto_alloc_aead("gcm(aes)", 0, 0);
	if (IS_ERR(aead))
		return aead;
	err = crypto_aead_setauthsize(aead, UET_TSS_ICV_LEN) ?:
	      crypto_aead_setkey(aead, key, UET_TSS_KEY_LEN);
	if (err) {
		crypto_free_aead(aead);
		return ERR_PTR(err);
	}
	return aead;
}
EXPORT_SYMBOL_NS_GPL(uet_tss_aead_alloc, UET_ENGINE);

/**
 * uet_tss_prf_alloc() - the KDF's pseudorandom function for one key
 * @key: UET_TSS_KEY_LEN bytes, the key derived from; the transform keeps
 *	its own copy.
 *
 * AES-256-CMAC, synchronous: a derivation never waits.  May sleep.
 *
 * Return: the transform, or an ERR_PTR().
 */
struct crypto_shash *uet_tss_prf_alloc(const u8 *key)
{
	struct crypto_shash *prf;
	int err;

	prf = crypto_alloc_shash("cmac(aes)", 0, 0);
	if (IS_ERR(prf))
		return prf;
	err = crypto_shash_setkey(prf, key, UET_TSS_KEY_LEN);
	if (err) {
		crypto_free_shash(prf);
		return ERR_PTR(err);
	}
	return prf;
}
EXPORT_SYMBOL_NS_GPL(uet_tss_prf_alloc, UET_ENGINE);

static int prf_cmac(void *arg, const u8 *in, size_t len, u8 *out)
{
	return crypto_shash_tfm_digest(arg, in, len, out);
}

/**
 * uet_tss_derive() - derive a key with uet_tss_kdf() keyed by @prf
 * @prf: from uet_tss_prf_alloc().
 * @label: the label, at most UET_TSS_LABEL_MAX characters.
 * @ctx: the context ...
 * @ctx_len: ... of at most UET_TSS_CONTEXT_MAX bytes.
 * @out: where the key (and its nonce mask) goes ...
 * @out_len: ... of at most UET_TSS_DERIVED_LEN bytes.
 *
 * Callable in any context: the transform is keyed already, and its
 * descriptor lives on the stack.
 *
 * Return: 0 or a negative errno, as uet_tss_kdf().
 */
int uet_tss_derive(struct crypto_shash *prf, const char *label,
		   const u8 *ctx, size_t ctx_len, u8 *out, size_t out_len)
{
	return uet_tss_kdf(prf_cmac, prf, label, ctx, ctx_len, out, out_len);
}
EXPORT_SYMBOL_NS_GPL(uet_tss_derive, UET_ENGINE);

/* Where a request from uet_tss_req_alloc() keeps its nonce: after itself. */
static u8 *req_iv(struct aead_request *req)
{
	struct crypto_aead *aead = crypto_aead_reqtfm(req);

	return PTR_ALIGN((u8 *)(req + 1) + crypto_aead_reqsize(aead),
			 crypto_aead_alignmask(aead) + 1);
}

/**
 * uet_tss_req_alloc() - a request for @aead, with room for its nonce
 * @aead: from uet_tss_aead_alloc().
 * @gfp: allocation flags.
 *
 * The nonce lives with the request, so it outlasts an asynchronous
 * completion.  Freed with aead_request_free(), which clears it.
 *
 * Return: the request, or NULL.
 */
struct aead_request *uet_tss_req_alloc(struct crypto_aead *aead, gfp_t gfp)
{
	struct aead_request *req;
	size_t len;

	len = sizeof(*req) + crypto_aead_reqsize(aead) +
	      crypto_aead_alignmask(aead) + UET_TSS_IV_LEN;
	req = kmalloc(len, gfp);
	if (req)
		aead_request_set_tfm(req, aead);
	return req;
}
EXPORT_SYMBOL_NS_GPL(uet_tss_req_alloc, UET_ENGINE);

/**
 * uet_tss_req_set() - point a request at one packet, sealed in place
 * @req: from uet_tss_req_alloc(), its callback set by the caller.
 * @h: the packet's TSS header ...
 * @src4: ... its IPv4 source address or %NULL, and ...
 * @mask: ... its key's nonce mask or %NULL: its nonce (uet_tss_iv()).
 * @sg: the packet: @assoclen bytes authenticated only (the headers that
 *	must not change, the TSS header included), then @textlen bytes
 *	encrypted; to seal, UET_TSS_ICV_LEN bytes of room follow them.
 * @assoclen: bytes authenticated only.
 * @textlen: bytes to encrypt; to open, the ciphertext and its ICV.
 *
 * The caller then calls crypto_aead_encrypt() or crypto_aead_decrypt();
 * a refused ICV is -EBADMSG, a request under way -EINPROGRESS.  Without
 * CRYPTO_TFM_REQ_MAY_BACKLOG (set only where the caller waits for the
 * request, crypto_wait_req()), -EBUSY or -ENOSPC is a request refused,
 * its queue full: never made.
 */
void uet_tss_req_set(struct aead_request *req,
		     const struct uet_tss_hdr_info *h, const u8 *src4,
		     const u8 *mask, struct scatterlist *sg,
		     unsigned int assoclen, unsigned int textlen)
{
	u8 *iv = req_iv(req);

	uet_tss_iv(h, src4, mask, iv);
	aead_request_set_ad(req, assoclen);
	aead_request_set_crypt(req, sg, sg, textlen, iv);
}
EXPORT_SYMBOL_NS_GPL(uet_tss_req_set, UET_ENGINE);
