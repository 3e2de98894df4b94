/* SPDX-License-Identifier: GPL-2.0 */
/*
 * uet's transport security through the kernel crypto API: AES-256-GCM
 * ("gcm(aes)") seals and opens packets, AES-256-CMAC ("cmac(aes)") is the
 * pseudorandom function of the key derivation in tss.c.  The transforms
 * are allocated, and keyed, where sleeping is allowed (a key's install);
 * sealing and opening may then run in softirq, and may complete
 * asynchronously, as the caller's request says.
 */
#ifndef _UET_TSS_CRYPTO_H
#define _UET_TSS_CRYPTO_H

#include <crypto/aead.h>
#include <crypto/hash.h>
#include <linux/scatterlist.h>

#include "tss.h"

struct crypto_aead *uet_tss_aead_alloc(const u8 *key);
struct crypto_shash *uet_tss_prf_alloc(const u8 *key);
int uet_tss_derive(struct crypto_shash *prf, const char *label,
		   const u8 *ctx, size_t ctx_len, u8 *out, size_t out_len);
struct aead_request *uet_tss_req_alloc(struct crypto_aead *aead, gfp_t gfp);
void uet_tss_req_set(struct aead_request *req,
		     const struct uet_tss_hdr_info *h, const u8 *src4,
		     const u8 *mask, struct scatterlist *sg,
		     unsigned int assoclen, unsigned int textlen);

#endif /* _UET_TSS_CRYPTO_H */
