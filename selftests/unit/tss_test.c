// SPDX-License-Identifier: GPL-2.0
/*
 * Unit tests of the transport security core (drivers/uet/tss.c): the
 * nonce and the KDF's input blocks are laid out byte for byte as
 * Documentation/security.rst draws them, the KDF keyed with AES-CMAC
 * (OpenSSL's, checked first against RFC 4493's examples) gives the CMAC
 * blocks of those inputs, and the replay window takes each TSC once, in
 * any order within the window, and refuses what falls below it, however
 * far the top jumps.
 */
/* OpenSSL's headers before the harness: they want <pthread.h> as is */
#include <openssl/core_names.h>
#include <openssl/evp.h>

#include "kselftest_harness.h"

#include <linux/limits.h>

#include "tss.h"

/* "00 11 ..." into bytes; how many. */
static size_t unhex(const char *s, u8 *out)
{
	size_t n = 0;
	unsigned int b;

	while (*s) {
		if (*s == ' ') {
			s++;
			continue;
		}
		if (sscanf(s, "%2x", &b) != 1)
			break;
		out[n++] = b;
		s += 2;
	}
	return n;
}

/* AES-CMAC of @in under the key in @arg (struct cmac_key), by OpenSSL. */
struct cmac_key {
	const u8 *key;
	size_t len;
};

static int cmac(void *arg, const u8 *in, size_t len, u8 *out)
{
	const struct cmac_key *k = arg;
	char cipher[] = "AES-256-CBC";
	OSSL_PARAM params[2];
	EVP_MAC_CTX *ctx;
	EVP_MAC *mac;
	size_t olen = 0;
	int ok;

	if (k->len == 16)
		memcpy(cipher, "AES-128-CBC", sizeof(cipher));
	mac = EVP_MAC_fetch(NULL, "CMAC", NULL);
	ctx = mac ? EVP_MAC_CTX_new(mac) : NULL;
	params[0] = OSSL_PARAM_construct_utf8_string(OSSL_MAC_PARAM_CIPHER,
						     cipher, 0);
	params[1] = OSSL_PARAM_construct_end();
	ok = ctx && EVP_MAC_init(ctx, k->key, k->len, params) &&
	     EVP_MAC_update(ctx, in, len) &&
	     EVP_MAC_final(ctx, out, &olen, UET_TSS_PRF_LEN) &&
	     olen == UET_TSS_PRF_LEN;
	EVP_MAC_CTX_free(ctx);
	EVP_MAC_free(mac);
	return ok ? 0 : -EIO;
}

/*
 * The PRF itself: RFC 4493 section 4, examples 1 and 2 (AES-128), and
 * with the KDF's key length, SP 800-38B appendix D.3, examples 9 and 10
 * (AES-256).
 */
TEST(cmac_known_answers)
{
	static const struct {
		const char *key, *msg, *mac;
	} v[] = {
		{ "2b7e1516 28aed2a6 abf71588 09cf4f3c", "",
		  "bb1d6929 e9593728 7fa37d12 9b756746" },
		{ "2b7e1516 28aed2a6 abf71588 09cf4f3c",
		  "6bc1bee2 2e409f96 e93d7e11 7393172a",
		  "070a16b4 6b4d4144 f79bdd9d d04a287c" },
		{ "603deb10 15ca71be 2b73aef0 857d7781 1f352c07 3b6108d7 2d9810a3 0914dff4",
		  "", "028962f6 1b7bf89e fc6b551f 4667d983" },
		{ "603deb10 15ca71be 2b73aef0 857d7781 1f352c07 3b6108d7 2d9810a3 0914dff4",
		  "6bc1bee2 2e409f96 e93d7e11 7393172a",
		  "28a7023f 452e8f82 bd4bf28d 8c37c35c" },
	};
	u8 key[32], msg[16], want[16], got[16];
	struct cmac_key k = { .key = key };
	size_t i, len;

	for (i = 0; i < sizeof(v) / sizeof(v[0]); i++) {
		k.len = unhex(v[i].key, key);
		len = unhex(v[i].msg, msg);
		unhex(v[i].mac, want);
		ASSERT_EQ(0, cmac(&k, msg, len, got));
		EXPECT_EQ(0, memcmp(want, got, sizeof(got)));
	}
}

/*
 * The nonce: the SSI, else the IPv4 source address, else the SDI, then
 * the TSC, big-endian; XORed with a derived key's mask.
 */
TEST(iv_layout)
{
	struct uet_tss_hdr_info h = {
		.sdi = 0xabcdef, .ssi = 0x01020304, .has_ssi = true,
		.tsc = 0x1122334455667788ULL,
	};
	u8 iv[UET_TSS_IV_LEN], want[UET_TSS_IV_LEN], src4[4], mask[12];

	unhex("c0a82a01", src4);
	unhex("01020304 11223344 55667788", want);
	uet_tss_iv(&h, src4, NULL, iv);
	EXPECT_EQ(0, memcmp(want, iv, sizeof(iv)));
	h.has_ssi = false;
	unhex("c0a82a01 11223344 55667788", want);
	uet_tss_iv(&h, src4, NULL, iv);
	EXPECT_EQ(0, memcmp(want, iv, sizeof(iv)));
	unhex("00abcdef 11223344 55667788", want);
	uet_tss_iv(&h, NULL, NULL, iv);
	EXPECT_EQ(0, memcmp(want, iv, sizeof(iv)));
	unhex("ff000000 00000000 000000ff", mask);
	unhex("ffabcdef 11223344 55667777", want);
	uet_tss_iv(&h, NULL, mask, iv);
	EXPECT_EQ(0, memcmp(want, iv, sizeof(iv)));
}

/*
 * The reference provider's published vectors (HanXingling/uet-ref-prov,
 * crypto/test/test_uec_kdf.c at commit 5a04ca4): one domain key, a
 * counter of 0x1dc074e500000023 (epoch 0x1dc0, rekey value 0x74e5),
 * source (or server) 192.168.42.1 and 2001:cb0::fc0:0:0:abc; the
 * source's key for cluster mode ("U1") and the clients' key for server
 * mode ("U2", no rekey value), each the first 32 of 44 bytes derived.
 */
TEST(kdf_reference_vectors)
{
	static const struct {
		const char *label, *id, *ctx, *key;
		u32 rekey;
	} v[] = {
		{ UET_TSS_LABEL_CLUSTER, "c0a82a01", "1dc0 000074e5 c0a82a01",
		  "151b4ddb 30112971 ddeff321 3000ee74 d8f18aac 2135601f 1e5215e5 05fed449",
		  0x74e5 },
		{ UET_TSS_LABEL_CLUSTER, "20010cb0 00000000 0fc00000 00000abc",
		  "00000000 1dc0 000074e5 20010cb0 00000000 0fc00000 00000abc",
		  "55d1ee86 47bd53fa d0e53257 95af18e7 559b7d42 a895edf7 0f9c1703 41e8f767",
		  0x74e5 },
		{ UET_TSS_LABEL_SERVER, "c0a82a01", "1dc0 00000000 c0a82a01",
		  "245e67ab 28621853 0edd53c2 6ea9ec33 c96b3519 2d0a0eb5 4d08be28 1c5d304b",
		  0 },
		{ UET_TSS_LABEL_SERVER, "20010cb0 00000000 0fc00000 00000abc",
		  "00000000 1dc0 00000000 20010cb0 00000000 0fc00000 00000abc",
		  "b59002ad 3e6a9ae5 86487873 0070f891 6e43e501 1acaa4be 35042561 85f24d97",
		  0 },
	};
	u8 k_in[UET_TSS_KEY_LEN], id[16], ctx[UET_TSS_CONTEXT_MAX];
	u8 want_ctx[UET_TSS_CONTEXT_MAX], want[UET_TSS_KEY_LEN];
	u8 got[UET_TSS_DERIVED_LEN];
	struct cmac_key k = { k_in, sizeof(k_in) };
	size_t i, id_len, ctx_len;

	unhex("34448a06 4292601b 11a0978f 56a2d34c f3fc35ed e1a6bc04 f8db3e52 43a2b0ca",
	      k_in);
	for (i = 0; i < sizeof(v) / sizeof(v[0]); i++) {
		id_len = unhex(v[i].id, id);
		ctx_len = uet_tss_context(ctx, 0x1dc0, v[i].rekey, id, id_len);
		ASSERT_EQ(id_len == 4 ? UET_TSS_CTX4_LEN : UET_TSS_CTX6_LEN,
			  ctx_len);
		ASSERT_EQ(ctx_len, unhex(v[i].ctx, want_ctx));
		EXPECT_EQ(0, memcmp(want_ctx, ctx, ctx_len));
		unhex(v[i].key, want);
		ASSERT_EQ(0, uet_tss_kdf(cmac, &k, v[i].label, ctx, ctx_len,
					 got, sizeof(got)));
		EXPECT_EQ(0, memcmp(want, got, sizeof(want)));
	}
	EXPECT_EQ(0, uet_tss_context(ctx, 1, 2, id, 8));
}

/*
 * AES-256-GCM with a nonce of uet_tss_iv(): McGrew and Viega, "The
 * Galois/Counter Mode of Operation", test cases 13 and 14 (a zero key, an
 * all-zero nonce: SSI 0 and TSC 0), by OpenSSL; what the ICV of a packet
 * with that header, key and payload must be.
 */
TEST(gcm_mcgrew_viega_13_14)
{
	struct uet_tss_hdr_info h = { .has_ssi = true };
	u8 key[32] = { 0 }, iv[UET_TSS_IV_LEN], pt[16] = { 0 }, ct[16];
	u8 tag[UET_TSS_ICV_LEN], want_ct[16], want_tag[UET_TSS_ICV_LEN];
	const char *tags[] = { "530f8afb c74536b9 a963b4f1 c4cb738b",
			       "d0d1c8a7 99996bf0 265b98b5 d48ab919" };
	EVP_CIPHER_CTX *ctx;
	int len, n;

	uet_tss_iv(&h, NULL, NULL, iv);
	unhex("cea7403d 4d606b6e 074ec5d3 baf39d18", want_ct);
	for (n = 0; n < 2; n++) {
		ctx = EVP_CIPHER_CTX_new();
		ASSERT_NE(NULL, ctx);
		ASSERT_EQ(1, EVP_EncryptInit_ex(ctx, EVP_aes_256_gcm(), NULL,
						key, iv));
		len = 0;
		if (n)
			ASSERT_EQ(1, EVP_EncryptUpdate(ctx, ct, &len, pt,
						       sizeof(pt)));
		ASSERT_EQ(1, EVP_EncryptFinal_ex(ctx, ct + len, &len));
		ASSERT_EQ(1, EVP_CIPHER_CTX_ctrl(ctx, EVP_CTRL_GCM_GET_TAG,
						 sizeof(tag), tag));
		EVP_CIPHER_CTX_free(ctx);
		unhex(tags[n], want_tag);
		EXPECT_EQ(0, memcmp(want_tag, tag, sizeof(tag)));
		if (n)
			EXPECT_EQ(0, memcmp(want_ct, ct, sizeof(ct)));
	}
}

/* A PRF that keeps its inputs and answers with the block's number. */
struct record {
	u8 in[4][64];
	size_t len[4];
	int calls;
	int fail_at;
};

static int record_prf(void *arg, const u8 *in, size_t len, u8 *out)
{
	struct record *r = arg;

	if (r->calls == r->fail_at)
		return -EIO;
	memcpy(r->in[r->calls], in, len);
	r->len[r->calls++] = len;
	memset(out, in[0], UET_TSS_PRF_LEN);
	return 0;
}

/*
 * The input blocks of a source key's derivation: [i]_8 "U1" 00, the
 * context (epoch, rekey value, source) and [L]_16 = 352; three blocks for
 * the key and its nonce mask, the last one's first 12 bytes the mask.
 */
TEST(kdf_input_layout)
{
	struct record r = { .fail_at = -1 };
	u8 ctx[UET_TSS_CONTEXT_MAX], want[64], key[UET_TSS_DERIVED_LEN];
	u8 src[4] = { 0xc6, 0x12, 0x00, 0x01 };
	size_t n, c;
	int i;

	c = uet_tss_context(ctx, 0x0102, 0x0a0b0c0d, src, sizeof(src));
	n = unhex("01 5531 00 0102 0a0b0c0d c6120001 0160", want);
	ASSERT_EQ(0, uet_tss_kdf(record_prf, &r, UET_TSS_LABEL_CLUSTER, ctx,
				 c, key, sizeof(key)));
	ASSERT_EQ(3, r.calls);
	for (i = 0; i < 3; i++) {
		want[0] = i + 1;
		ASSERT_EQ(n, r.len[i]);
		EXPECT_EQ(0, memcmp(want, r.in[i], n));
	}
	for (i = 0; i < UET_TSS_DERIVED_LEN; i++)
		ASSERT_EQ(1 + i / UET_TSS_PRF_LEN, key[i]);

	/* 16 bytes: one block, and L says 128 */
	r.calls = 0;
	ASSERT_EQ(0, uet_tss_kdf(record_prf, &r, UET_TSS_LABEL_SERVER, ctx,
				 c, key, 16));
	EXPECT_EQ(1, r.calls);
	n = unhex("01 5532 00 0102 0a0b0c0d c6120001 0080", want);
	EXPECT_EQ(0, memcmp(want, r.in[0], n));
}

/* Out-of-range lengths refused; a PRF's error clears what was derived. */
TEST(kdf_refusals)
{
	struct record r = { .fail_at = -1 };
	u8 ctx[UET_TSS_CONTEXT_MAX + 1] = { 0 }, key[UET_TSS_DERIVED_LEN + 1];

	EXPECT_EQ(-EINVAL, uet_tss_kdf(record_prf, &r, "U1", ctx,
				       sizeof(ctx), key, 32));
	EXPECT_EQ(-EINVAL, uet_tss_kdf(record_prf, &r, "U1", ctx, 10, key,
				       sizeof(key)));
	EXPECT_EQ(-EINVAL, uet_tss_kdf(record_prf, &r, "U1", ctx, 10, key, 0));
	EXPECT_EQ(-EINVAL, uet_tss_kdf(record_prf, &r, "LABEL_TOO", ctx, 10,
				       key, 32));
	EXPECT_EQ(0, r.calls);
	r.fail_at = 1;
	memset(key, 0x5a, sizeof(key));
	EXPECT_EQ(-EIO, uet_tss_kdf(record_prf, &r, "U1", ctx, 10, key, 32));
	for (int i = 0; i < 32; i++)
		ASSERT_EQ(0, key[i]);
}

/*
 * Keyed with AES-256-CMAC, the derived key and mask are the CMAC blocks
 * of those inputs, computed here without the KDF.
 */
TEST(kdf_cmac)
{
	u8 k_in[UET_TSS_KEY_LEN], ctx[UET_TSS_CONTEXT_MAX], in[64];
	u8 want[3 * UET_TSS_PRF_LEN], got[UET_TSS_DERIVED_LEN];
	u8 other[UET_TSS_DERIVED_LEN], src[4] = { 0xc6, 0x12, 0x00, 0x02 };
	struct cmac_key k = { k_in, sizeof(k_in) };
	size_t n, c;
	int i;

	unhex("07e97249 58d9e1f7 10f594e1 8e11fd8d 4a3582c2 56ccfecf c5eb1902 e556bed4",
	      k_in);
	c = uet_tss_context(ctx, 7, 0, src, sizeof(src));
	n = unhex("01 5531 00 0007 00000000 c6120002 0160", in);
	for (i = 0; i < 3; i++) {
		in[0] = i + 1;
		ASSERT_EQ(0, cmac(&k, in, n, want + i * UET_TSS_PRF_LEN));
	}
	ASSERT_EQ(0, uet_tss_kdf(cmac, &k, UET_TSS_LABEL_CLUSTER, ctx, c,
				 got, sizeof(got)));
	EXPECT_EQ(0, memcmp(want, got, sizeof(got)));
	/* another source, another epoch: another key */
	src[3] = 3;
	c = uet_tss_context(ctx, 7, 0, src, sizeof(src));
	ASSERT_EQ(0, uet_tss_kdf(cmac, &k, UET_TSS_LABEL_CLUSTER, ctx, c,
				 other, sizeof(other)));
	EXPECT_NE(0, memcmp(got, other, sizeof(got)));
	src[3] = 2;
	c = uet_tss_context(ctx, 8, 0, src, sizeof(src));
	ASSERT_EQ(0, uet_tss_kdf(cmac, &k, UET_TSS_LABEL_CLUSTER, ctx, c,
				 other, sizeof(other)));
	EXPECT_NE(0, memcmp(got, other, sizeof(got)));
}

#define W	UET_TSS_REPLAY_WINDOW

/* Check then take, as the receive path does; the verdict. */
static enum uet_tss_replay_verdict arrive(struct uet_tss_replay *r, u64 tsc)
{
	enum uet_tss_replay_verdict v = uet_tss_replay_check(r, tsc);

	if (v == UET_TSS_REPLAY_NEW)
		uet_tss_replay_take(r, tsc);
	return v;
}

FIXTURE(replay)
{
	struct uet_tss_replay r;
};

FIXTURE_SETUP(replay)
{
	uet_tss_replay_init(&self->r);
}

FIXTURE_TEARDOWN(replay)
{
}

/* In order: each new once, then a replay; TSC 0 is never new. */
TEST_F(replay, in_order_once)
{
	u64 t;

	EXPECT_EQ(UET_TSS_REPLAY_OLD, arrive(&self->r, 0));
	for (t = 1; t <= 3 * W; t++) {
		ASSERT_EQ(UET_TSS_REPLAY_NEW, arrive(&self->r, t));
		ASSERT_EQ(UET_TSS_REPLAY_SEEN, arrive(&self->r, t));
	}
	EXPECT_EQ(3 * W, self->r.top);
	EXPECT_EQ(UET_TSS_REPLAY_SEEN, arrive(&self->r, 2 * W + 1));
	EXPECT_EQ(UET_TSS_REPLAY_OLD, arrive(&self->r, 2 * W));
}

/* Reordered within the window: every TSC taken exactly once. */
TEST_F(replay, reordered_within_window)
{
	u64 t, base = 5;

	/* the odd ones first, up to the edge of the window, then the even */
	for (t = base + 1; t < base + W; t += 2)
		ASSERT_EQ(UET_TSS_REPLAY_NEW, arrive(&self->r, t));
	for (t = base + 2; t < base + W; t += 2)
		ASSERT_EQ(UET_TSS_REPLAY_NEW, arrive(&self->r, t));
	for (t = base + 1; t < base + W; t++)
		ASSERT_EQ(UET_TSS_REPLAY_SEEN, arrive(&self->r, t));
}

/*
 * The window's lower edge: top - W + 1 is the oldest taken, top - W is
 * old; a TSC never seen in the window's span stays new until then.
 */
TEST_F(replay, lower_edge)
{
	u64 top = 10 * W;

	ASSERT_EQ(UET_TSS_REPLAY_NEW, arrive(&self->r, top));
	EXPECT_EQ(UET_TSS_REPLAY_NEW, uet_tss_replay_check(&self->r, top - W + 1));
	EXPECT_EQ(UET_TSS_REPLAY_OLD, uet_tss_replay_check(&self->r, top - W));
	EXPECT_EQ(UET_TSS_REPLAY_NEW, arrive(&self->r, top - W + 1));
	EXPECT_EQ(UET_TSS_REPLAY_SEEN, arrive(&self->r, top - W + 1));
	/* the top moves one up: what was the oldest falls out */
	EXPECT_EQ(UET_TSS_REPLAY_NEW, arrive(&self->r, top + 1));
	EXPECT_EQ(UET_TSS_REPLAY_OLD, arrive(&self->r, top - W + 1));
}

/*
 * A jump of less than the window forgets exactly the bits it passes
 * over: a TSC taken before the jump and still in the window stays seen,
 * and the ring slots the jump reuses read as new.
 */
TEST_F(replay, jump_clears_what_it_passes)
{
	u64 t;

	for (t = 1; t <= 100; t++)
		ASSERT_EQ(UET_TSS_REPLAY_NEW, arrive(&self->r, t));
	ASSERT_EQ(UET_TSS_REPLAY_NEW, arrive(&self->r, W + 50));
	/* 51..100 still inside (W + 50 - W, W + 50]: seen */
	for (t = 51; t <= 100; t++)
		ASSERT_EQ(UET_TSS_REPLAY_SEEN, arrive(&self->r, t));
	/* 1..50 are below it */
	for (t = 1; t <= 50; t++)
		ASSERT_EQ(UET_TSS_REPLAY_OLD, arrive(&self->r, t));
	/* 101..W+49 were never taken: new, once */
	for (t = 101; t < W + 50; t++)
		ASSERT_EQ(UET_TSS_REPLAY_NEW, arrive(&self->r, t));
	for (t = 51; t <= W + 50; t++)
		ASSERT_EQ(UET_TSS_REPLAY_SEEN, arrive(&self->r, t));
}

/* A jump of the window or more forgets everything below it. */
TEST_F(replay, far_jump)
{
	u64 t, far = (u64)1 << 62;

	for (t = 1; t <= W; t++)
		ASSERT_EQ(UET_TSS_REPLAY_NEW, arrive(&self->r, t));
	ASSERT_EQ(UET_TSS_REPLAY_NEW, arrive(&self->r, far));
	for (t = far - W + 1; t < far; t++)
		ASSERT_EQ(UET_TSS_REPLAY_NEW, uet_tss_replay_check(&self->r, t));
	EXPECT_EQ(UET_TSS_REPLAY_OLD, arrive(&self->r, W));
	EXPECT_EQ(UET_TSS_REPLAY_NEW, arrive(&self->r, U64_MAX));
	EXPECT_EQ(UET_TSS_REPLAY_SEEN, arrive(&self->r, U64_MAX));
	EXPECT_EQ(UET_TSS_REPLAY_OLD, arrive(&self->r, far));
}

/* Checking alone changes nothing: a forged packet moves no window. */
TEST_F(replay, check_changes_nothing)
{
	struct uet_tss_replay before;

	ASSERT_EQ(UET_TSS_REPLAY_NEW, arrive(&self->r, 7));
	before = self->r;
	EXPECT_EQ(UET_TSS_REPLAY_NEW, uet_tss_replay_check(&self->r, 1000000));
	EXPECT_EQ(UET_TSS_REPLAY_NEW, uet_tss_replay_check(&self->r, 3));
	EXPECT_EQ(0, memcmp(&before, &self->r, sizeof(before)));
}

TEST_HARNESS_MAIN
