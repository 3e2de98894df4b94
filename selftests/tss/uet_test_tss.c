// SPDX-License-Identifier: GPL-2.0
/*
 * Test-only module: known answers for uet's transport security through
 * the kernel crypto API, as the kernel's own crypto self-tests check its
 * algorithms.  Loading it runs every case; each prints "PASS <case>" or
 * "FAIL <case>: why" to the kernel log, and the load fails (-EIO) unless
 * all pass.  The transforms' drivers are logged, to show which
 * implementation ran.  Never part of uet.ko.
 *
 * The vectors: NIST SP 800-38B appendix D.3 (CMAC-AES-256, examples 9
 * and 10); the UEC reference provider's source key derivation (its
 * crypto/test/test_uec_kdf.c, "Cluster Mode KDF IPv4"); McGrew and Viega,
 * "The Galois/Counter Mode of Operation", test cases 13, 14 and 16
 * (AES-256-GCM; each nonce written as the TSS header that gives it).
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/crypto.h>
#include <linux/gfp.h>
#include <linux/build_bug.h>
#include <linux/module.h>
#include <linux/string.h>

#include "tss_crypto.h"

#define MAX_TEXT	64

/*
 * An AES-256-GCM vector: key, associated data, plaintext, ciphertext and
 * tag, and a TSS header giving its nonce.
 */
struct gcm_vector {
	const char *name;
	const char *key, *aad, *pt, *ct, *tag;
	unsigned int aad_len, len;
	struct uet_tss_hdr_info h;
};

static const struct gcm_vector gcm_vectors[] = {
	{
		.name = "GCM test case 13",
		.key = "\x00\x00\x00\x00\x00\x00\x00\x00"
		       "\x00\x00\x00\x00\x00\x00\x00\x00"
		       "\x00\x00\x00\x00\x00\x00\x00\x00"
		       "\x00\x00\x00\x00\x00\x00\x00\x00",
		.aad = "",
		.aad_len = 0,
		.pt = "",
		.ct = "",
		.len = 0,
		.tag = "\x53\x0f\x8a\xfb\xc7\x45\x36\xb9"
		       "\xa9\x63\xb4\xf1\xc4\xcb\x73\x8b",
		.h = { .has_ssi = true },
	},
	{
		.name = "GCM test case 14",
		.key = "\x00\x00\x00\x00\x00\x00\x00\x00"
		       "\x00\x00\x00\x00\x00\x00\x00\x00"
		       "\x00\x00\x00\x00\x00\x00\x00\x00"
		       "\x00\x00\x00\x00\x00\x00\x00\x00",
		.aad = "",
		.aad_len = 0,
		.pt = "\x00\x00\x00\x00\x00\x00\x00\x00"
		      "\x00\x00\x00\x00\x00\x00\x00\x00",
		.ct = "\xce\xa7\x40\x3d\x4d\x60\x6b\x6e"
		      "\x07\x4e\xc5\xd3\xba\xf3\x9d\x18",
		.len = 16,
		.tag = "\xd0\xd1\xc8\xa7\x99\x99\x6b\xf0"
		       "\x26\x5b\x98\xb5\xd4\x8a\xb9\x19",
		.h = { .has_ssi = true },
	},
	{
		.name = "GCM test case 16",
		.key = "\xfe\xff\xe9\x92\x86\x65\x73\x1c"
		       "\x6d\x6a\x8f\x94\x67\x30\x83\x08"
		       "\xfe\xff\xe9\x92\x86\x65\x73\x1c"
		       "\x6d\x6a\x8f\x94\x67\x30\x83\x08",
		.aad = "\xfe\xed\xfa\xce\xde\xad\xbe\xef"
		       "\xfe\xed\xfa\xce\xde\xad\xbe\xef"
		       "\xab\xad\xda\xd2",
		.aad_len = 20,
		.pt = "\xd9\x31\x32\x25\xf8\x84\x06\xe5"
		      "\xa5\x59\x09\xc5\xaf\xf5\x26\x9a"
		      "\x86\xa7\xa9\x53\x15\x34\xf7\xda"
		      "\x2e\x4c\x30\x3d\x8a\x31\x8a\x72"
		      "\x1c\x3c\x0c\x95\x95\x68\x09\x53"
		      "\x2f\xcf\x0e\x24\x49\xa6\xb5\x25"
		      "\xb1\x6a\xed\xf5\xaa\x0d\xe6\x57"
		      "\xba\x63\x7b\x39",
		.ct = "\x52\x2d\xc1\xf0\x99\x56\x7d\x07"
		      "\xf4\x7f\x37\xa3\x2a\x84\x42\x7d"
		      "\x64\x3a\x8c\xdc\xbf\xe5\xc0\xc9"
		      "\x75\x98\xa2\xbd\x25\x55\xd1\xaa"
		      "\x8c\xb0\x8e\x48\x59\x0d\xbb\x3d"
		      "\xa7\xb0\x8b\x10\x56\x82\x88\x38"
		      "\xc5\xf6\x1e\x63\x93\xba\x7a\x0a"
		      "\xbc\xc9\xf6\x62",
		.len = 60,
		.tag = "\x76\xfc\x6e\xce\x0f\x4e\x17\x68"
		       "\xcd\xdf\x88\x53\xbb\x2d\x55\x1b",
		.h = { .has_ssi = true, .ssi = 0xcafebabe,
		 .tsc = 0xfacedbaddecaf888ULL },
	},
};

/*
 * A vector laid out as a packet: AAD, text, ICV.  @plain is the packet
 * before sealing, @want after.
 */
struct packet {
	u8 key[UET_TSS_KEY_LEN];
	u8 buf[2 * MAX_TEXT + UET_TSS_ICV_LEN];
	u8 plain[2 * MAX_TEXT + UET_TSS_ICV_LEN];
	u8 want[2 * MAX_TEXT + UET_TSS_ICV_LEN];
	unsigned int aad_len, text_len;
};

/*
 * @v's key, its AAD then plaintext in @p->buf, and what sealing must make
 * of them (AAD, ciphertext, tag) in @p->want.
 */
static int packet_load(struct packet *p, const struct gcm_vector *v)
{
	unsigned int aad = v->aad_len, len = v->len;

	if (aad > MAX_TEXT || len > MAX_TEXT)
		return -EINVAL;
	memcpy(p->key, v->key, UET_TSS_KEY_LEN);
	memcpy(p->buf, v->aad, aad);
	memcpy(p->buf + aad, v->pt, len);
	memcpy(p->plain, p->buf, sizeof(p->plain));
	memcpy(p->want, p->buf, aad);
	memcpy(p->want + aad, v->ct, len);
	memcpy(p->want + aad + len, v->tag, UET_TSS_ICV_LEN);
	p->aad_len = aad;
	p->text_len = len;
	return 0;
}

/*
 * Seal (@seal) or open @p->buf in place, as @sg describes it, under
 * @aead with @h's nonce; waits for an asynchronous completion.
 */
static int crypt(struct crypto_aead *aead, bool seal, struct packet *p,
		 struct scatterlist *sg, const struct uet_tss_hdr_info *h)
{
	unsigned int text = p->text_len + (seal ? 0 : UET_TSS_ICV_LEN);
	struct aead_request *req;
	DECLARE_CRYPTO_WAIT(wait);
	int err;

	req = uet_tss_req_alloc(aead, GFP_KERNEL);
	if (!req)
		return -ENOMEM;
	aead_request_set_callback(req, CRYPTO_TFM_REQ_MAY_BACKLOG |
				  CRYPTO_TFM_REQ_MAY_SLEEP,
				  crypto_req_done, &wait);
	uet_tss_req_set(req, h, NULL, NULL, sg, p->aad_len, text);
	err = crypto_wait_req(seal ? crypto_aead_encrypt(req) :
			      crypto_aead_decrypt(req), &wait);
	aead_request_free(req);
	return err;
}

/* The whole packet as one scatterlist entry. */
static struct scatterlist *one_sg(struct scatterlist *sg, struct packet *p)
{
	sg_init_one(sg, p->buf, p->aad_len + p->text_len + UET_TSS_ICV_LEN);
	return sg;
}

/* Each vector sealed, then opened back. */
static int gcm_vectors_run(struct packet *p)
{
	const struct gcm_vector *v;
	struct crypto_aead *aead;
	struct scatterlist sg;
	size_t len;
	int err;

	for (v = gcm_vectors; v < gcm_vectors + ARRAY_SIZE(gcm_vectors); v++) {
		err = packet_load(p, v);
		if (err)
			return err;
		aead = uet_tss_aead_alloc(p->key);
		if (IS_ERR(aead))
			return PTR_ERR(aead);
		len = p->aad_len + p->text_len;
		err = crypt(aead, true, p, one_sg(&sg, p), &v->h);
		if (!err && memcmp(p->buf, p->want, len + UET_TSS_ICV_LEN)) {
			pr_err("%s: sealed packet differs\n", v->name);
			err = -EBADMSG;
		}
		if (!err)
			err = crypt(aead, false, p, one_sg(&sg, p), &v->h);
		crypto_free_aead(aead);
		if (err)
			return err;
		if (memcmp(p->buf, p->plain, len)) {
			pr_err("%s: opened packet differs\n", v->name);
			return -EBADMSG;
		}
		pr_info("%s: sealed and opened\n", v->name);
	}
	return 0;
}

/*
 * Test case 16 spread over two pages, in pieces that split the AAD and
 * the text at odd offsets, as a packet's headers and frags are: the same
 * bytes must come out.
 */
static int gcm_scattered_run(struct packet *p)
{
	const struct gcm_vector *v = &gcm_vectors[2];
	/* where each piece ends, and where it is put in the two pages */
	unsigned int cut[] = { 7, 29, 61 }, len, off, i;
	unsigned int at[] = { 11, PAGE_SIZE + 40, PAGE_SIZE - 20, PAGE_SIZE + 301 };
	struct scatterlist sg[ARRAY_SIZE(cut) + 1];
	struct crypto_aead *aead = NULL;
	struct page *pages;
	u8 *base;
	int err;

	err = packet_load(p, v);
	if (err)
		return err;
	pages = alloc_pages(GFP_KERNEL, 1);
	if (!pages)
		return -ENOMEM;
	base = page_address(pages);
	len = p->aad_len + p->text_len + UET_TSS_ICV_LEN;
	/* out of order, one piece across the pages' boundary */
	sg_init_table(sg, ARRAY_SIZE(sg));
	for (i = 0, off = 0; i < ARRAY_SIZE(sg); i++) {
		unsigned int end = i < ARRAY_SIZE(cut) ? cut[i] : len;

		memcpy(base + at[i], p->buf + off, end - off);
		sg_set_buf(&sg[i], base + at[i], end - off);
		off = end;
	}
	aead = uet_tss_aead_alloc(p->key);
	if (IS_ERR(aead)) {
		err = PTR_ERR(aead);
		aead = NULL;
		goto out;
	}
	err = crypt(aead, true, p, sg, &v->h);
	if (err)
		goto out;
	for (i = 0, off = 0; i < ARRAY_SIZE(sg); off += sg[i].length, i++)
		if (memcmp(sg_virt(&sg[i]), p->want + off, sg[i].length))
			err = -EBADMSG;
	if (!err)
		err = crypt(aead, false, p, sg, &v->h);
	for (i = 0, off = 0; !err && i < ARRAY_SIZE(sg); i++) {
		unsigned int n = min(sg[i].length, p->aad_len + p->text_len - off);

		if (memcmp(sg_virt(&sg[i]), p->plain + off, n))
			err = -EBADMSG;
		off += sg[i].length;
	}
out:
	if (aead)
		crypto_free_aead(aead);
	__free_pages(pages, 1);
	return err;
}

/*
 * Every change to a sealed packet, and every wrong key or nonce, is
 * refused with -EBADMSG: a byte of the AAD, of the ciphertext, of the
 * ICV; another TSC; another SSI; another key.
 */
static int gcm_refusals_run(struct packet *p)
{
	static const char * const what[] = {
		"AAD byte", "ciphertext byte", "ICV byte", "TSC", "SSI", "key",
	};
	const struct gcm_vector *v = &gcm_vectors[2];
	struct crypto_aead *aead, *other;
	struct uet_tss_hdr_info h;
	struct scatterlist sg;
	unsigned int i;
	int err;

	err = packet_load(p, v);
	if (err)
		return err;
	aead = uet_tss_aead_alloc(p->key);
	if (IS_ERR(aead))
		return PTR_ERR(aead);
	p->key[0] ^= 1;
	other = uet_tss_aead_alloc(p->key);
	if (IS_ERR(other)) {
		crypto_free_aead(aead);
		return PTR_ERR(other);
	}
	for (i = 0; i < ARRAY_SIZE(what) && !err; i++) {
		memcpy(p->buf, p->want, sizeof(p->buf));
		h = v->h;
		switch (i) {
		case 0:
			p->buf[p->aad_len - 1] ^= 0x80;
			break;
		case 1:
			p->buf[p->aad_len + p->text_len / 2] ^= 1;
			break;
		case 2:
			p->buf[p->aad_len + p->text_len] ^= 1;
			break;
		case 3:
			h.tsc++;
			break;
		case 4:
			h.ssi ^= 1;
			break;
		}
		err = crypt(i == 5 ? other : aead, false, p, one_sg(&sg, p), &h);
		if (err == -EBADMSG) {
			err = 0;
		} else {
			pr_err("wrong %s: %d, not -EBADMSG\n", what[i], err);
			err = err ?: -EINVAL;
		}
	}
	crypto_free_aead(other);
	crypto_free_aead(aead);
	return err;
}

/* A PRF keyed with @key, kept in @p. */
static struct crypto_shash *prf_keyed(struct packet *p, const char *key)
{
	memcpy(p->key, key, UET_TSS_KEY_LEN);
	return uet_tss_prf_alloc(p->key);
}

/* CMAC-AES-256 by uet_tss_prf_alloc(): SP 800-38B examples 9 and 10. */
static int cmac_run(struct packet *p)
{
	static const char key[] =
		"\x60\x3d\xeb\x10\x15\xca\x71\xbe"
		"\x2b\x73\xae\xf0\x85\x7d\x77\x81"
		"\x1f\x35\x2c\x07\x3b\x61\x08\xd7"
		"\x2d\x98\x10\xa3\x09\x14\xdf\xf4";
	static const struct {
		const char *msg, *mac;
		unsigned int len;
	} v[] = {
		{ "", "\x02\x89\x62\xf6\x1b\x7b\xf8\x9e"
		  "\xfc\x6b\x55\x1f\x46\x67\xd9\x83", 0 },
		{ "\x6b\xc1\xbe\xe2\x2e\x40\x9f\x96"
		  "\xe9\x3d\x7e\x11\x73\x93\x17\x2a",
		  "\x28\xa7\x02\x3f\x45\x2e\x8f\x82"
		  "\xbd\x4b\xf2\x8d\x8c\x37\xc3\x5c", 16 },
	};
	u8 mac[UET_TSS_PRF_LEN];
	struct crypto_shash *prf;
	unsigned int i;
	int err = 0;

	BUILD_BUG_ON(sizeof(key) != UET_TSS_KEY_LEN + 1);
	prf = prf_keyed(p, key);
	if (IS_ERR(prf))
		return PTR_ERR(prf);
	pr_info("cmac(aes) by %s\n", crypto_shash_driver_name(prf));
	for (i = 0; i < ARRAY_SIZE(v) && !err; i++) {
		err = crypto_shash_tfm_digest(prf, v[i].msg, v[i].len, mac);
		if (!err && memcmp(mac, v[i].mac, sizeof(mac)))
			err = -EBADMSG;
	}
	crypto_free_shash(prf);
	return err;
}

/*
 * The reference provider's published source key (cluster mode, IPv4;
 * HanXingling/uet-ref-prov crypto/test/test_uec_kdf.c at 5a04ca4), by
 * uet_tss_derive(): epoch 0x1dc0, rekey value 0x74e5, source
 * 192.168.42.1, the context as that test lays it out (and
 * uet_tss_context() does, in the unit tests); the first 32 of the 44
 * bytes derived.
 */
static int kdf_run(struct packet *p)
{
	static const char key[] =
		"\x34\x44\x8a\x06\x42\x92\x60\x1b"
		"\x11\xa0\x97\x8f\x56\xa2\xd3\x4c"
		"\xf3\xfc\x35\xed\xe1\xa6\xbc\x04"
		"\xf8\xdb\x3e\x52\x43\xa2\xb0\xca";
	static const char want[] =
		"\x15\x1b\x4d\xdb\x30\x11\x29\x71"
		"\xdd\xef\xf3\x21\x30\x00\xee\x74"
		"\xd8\xf1\x8a\xac\x21\x35\x60\x1f"
		"\x1e\x52\x15\xe5\x05\xfe\xd4\x49";
	static const u8 ctx[UET_TSS_CTX4_LEN] = {
		0x1d, 0xc0, 0x00, 0x00, 0x74, 0xe5, 0xc0, 0xa8, 0x2a, 0x01
	};
	u8 out[UET_TSS_DERIVED_LEN];
	struct crypto_shash *prf;
	int err;

	BUILD_BUG_ON(sizeof(key) != UET_TSS_KEY_LEN + 1 ||
		     sizeof(want) != UET_TSS_KEY_LEN + 1);
	prf = prf_keyed(p, key);
	if (IS_ERR(prf))
		return PTR_ERR(prf);
	err = uet_tss_derive(prf, UET_TSS_LABEL_CLUSTER, ctx, sizeof(ctx), out,
			     sizeof(out));
	if (!err && memcmp(out, want, UET_TSS_KEY_LEN))
		err = -EBADMSG;
	memzero_explicit(out, sizeof(out));
	crypto_free_shash(prf);
	return err;
}

/* Which gcm(aes) the kernel picked. */
static int gcm_driver_run(struct packet *p)
{
	struct crypto_aead *aead;

	memset(p->key, 0, sizeof(p->key));
	aead = uet_tss_aead_alloc(p->key);
	if (IS_ERR(aead))
		return PTR_ERR(aead);
	pr_info("gcm(aes) by %s%s\n", crypto_aead_driver_name(aead),
		crypto_aead_alg(aead)->base.cra_flags & CRYPTO_ALG_ASYNC ?
		", asynchronous" : "");
	crypto_free_aead(aead);
	return 0;
}

static const struct {
	const char *name;
	int (*run)(struct packet *p);
} cases[] = {
	{ "gcm(aes) available", gcm_driver_run },
	{ "CMAC-AES-256 known answers", cmac_run },
	{ "KDF known answer", kdf_run },
	{ "GCM known answers", gcm_vectors_run },
	{ "GCM over scattered pages", gcm_scattered_run },
	{ "GCM refusals", gcm_refusals_run },
};

static int __init test_tss_init(void)
{
	struct packet *p;
	unsigned int i, failed = 0;
	int err;

	p = kzalloc(sizeof(*p), GFP_KERNEL);
	if (!p)
		return -ENOMEM;
	for (i = 0; i < ARRAY_SIZE(cases); i++) {
		err = cases[i].run(p);
		if (err) {
			pr_err("FAIL %s: %d\n", cases[i].name, err);
			failed++;
		} else {
			pr_info("PASS %s\n", cases[i].name);
		}
	}
	kfree_sensitive(p);
	if (failed)
		return -EIO;
	pr_info("PASS all %zu cases\n", ARRAY_SIZE(cases));
	return 0;
}

static void __exit test_tss_exit(void)
{
}

module_init(test_tss_init);
module_exit(test_tss_exit);
MODULE_DESCRIPTION("Known answers for uet's transport security");
MODULE_LICENSE("GPL");
MODULE_IMPORT_NS(UET_ENGINE);
