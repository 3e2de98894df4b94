// SPDX-License-Identifier: GPL-2.0
/*
 * uet transport security on the wire (tss_pkt.h).
 *
 * A secure job's packet leaves as
 *
 *	UDP | TSS header | PDS header, SES header, payload | ICV
 *
 * sealed by AES-256-GCM under the key its job sends with: the TSS header
 * (whose SDI is the job's ID) and the packet's IP source and destination
 * addresses are authenticated, everything after the TSS header is
 * encrypted, and the 16-byte ICV closes the packet.  Its nonce is the
 * sender's IPv4 address and the TSC (tss.c); each packet sent, a
 * retransmission included, takes the key's next count.
 *
 * Packets are sealed and opened in place: a request's skb is one linear
 * buffer built for it (room for the TSS header and the ICV included), a
 * received packet is made writable first (skb_cow_data(), a copy only
 * when it is shared).  The crypto API may finish a request later, from
 * cryptd (the AES-NI code hands a request there when the FPU cannot be
 * used where it is made, or when earlier ones wait there): the packet is
 * then sent, or taken, from the completion.  A request under way holds
 * its key (@async of struct uet_tss_sa) and its device (@tss_async of
 * struct uet_dev); cryptd's queue bounds how many there are.
 *
 * Documentation/security.rst gives the sources and the rules.
 */
#include <crypto/aead.h>
#include <linux/bitfield.h>
#include <linux/inetdevice.h>
#include <linux/ip.h>
#include <linux/ipv6.h>
#include <linux/slab.h>
#include <linux/wait_bit.h>
#include <net/addrconf.h>
#include <net/ipv6.h>

#include "compat.h"
#include "counters.h"
#include "job.h"
#include "socket.h"
#include "tss_crypto.h"
#include "tss_pkt.h"
#include "uet.h"

/* The shortest TSS header, without SSI (security.rst, the nonce). */
#define TSS_HLEN	sizeof(struct uet_tss_hdr)
/* The associated data before the TSS header: two IPv6 addresses at most. */
#define TSS_AAD_MAX	(2 * sizeof(struct in6_addr))

/**
 * struct uet_tss_pkt - one packet being sealed or opened
 * @udev: its device.
 * @sa: the key.
 * @node: in its device's struct uet_tss_wait, while it waits for its
 *	source's key to be derived.
 * @seal: it is being sealed, not opened.
 * @skb: the packet.
 * @h: its TSS header.
 * @saddr: its source address ...
 * @daddr: ... and its destination (sealing only).
 * @entropy: its entropy.
 * @ce: opening: it arrived ECN-marked.
 * @sent: sealing: where it goes once sealed late.
 * @rcvd: opening: where it goes once opened late.
 * @aad: the addresses authenticated with it.
 * @sg: the associated data, then the packet; the request follows.
 */
struct uet_tss_pkt {
	struct uet_dev *udev;
	struct uet_tss_sa *sa;
	struct list_head node;
	bool seal;
	struct sk_buff *skb;
	struct uet_tss_hdr_info h;
	struct in6_addr saddr;
	struct in6_addr daddr;
	u16 entropy;
	bool ce;
	union {
		uet_tss_sent_t sent;
		uet_tss_rcvd_t rcvd;
	};
	u8 aad[TSS_AAD_MAX];
	struct scatterlist sg[];
};

static size_t pkt_req_off(unsigned int nsg)
{
	return ALIGN(sizeof(struct uet_tss_pkt) +
		     nsg * sizeof(struct scatterlist), CRYPTO_MINALIGN);
}

static struct aead_request *pkt_req(struct uet_tss_pkt *p, unsigned int nsg)
{
	return (void *)((u8 *)p + pkt_req_off(nsg));
}

/* The length of the TSS header @h describes. */
static unsigned int pkt_hlen(const struct uet_tss_hdr_info *h)
{
	return h->has_ssi ? sizeof(struct uet_tss_hdr_ssi) : TSS_HLEN;
}

/*
 * A copy of @t with @nsg scatterlist entries and a request for @aead, the
 * nonce after it (uet_tss_req_set()); %NULL without memory.
 */
static struct uet_tss_pkt *pkt_alloc(const struct uet_tss_pkt *t,
				     struct crypto_aead *aead,
				     unsigned int nsg)
{
	struct uet_tss_pkt *p;

	p = kmalloc(pkt_req_off(nsg) + sizeof(struct aead_request) +
		    crypto_aead_reqsize(aead) + crypto_aead_alignmask(aead) +
		    UET_TSS_IV_LEN, GFP_ATOMIC);
	if (!p)
		return NULL;
	*p = *t;
	aead_request_set_tfm(pkt_req(p, nsg), aead);
	sg_init_table(p->sg, nsg);
	return p;
}

/*
 * The associated data before the TSS header: the packet's source and
 * destination addresses, 4 bytes each over IPv4, 16 over IPv6 [REF].
 */
static unsigned int pkt_aad(struct uet_tss_pkt *p, const struct in6_addr *s,
			    const struct in6_addr *d)
{
	if (ipv6_addr_v4mapped(s)) {
		memcpy(p->aad, &s->s6_addr32[3], sizeof(__be32));
		memcpy(p->aad + sizeof(__be32), &d->s6_addr32[3],
		       sizeof(__be32));
		return 2 * sizeof(__be32);
	}
	memcpy(p->aad, s, sizeof(*s));
	memcpy(p->aad + sizeof(*s), d, sizeof(*d));
	return 2 * sizeof(*s);
}

/*
 * A request may go asynchronous: its key and device wait for it.  Counted
 * before it is made, as its completion may run, and free it, before the
 * crypto API returns; uncounted again when it finished at once.
 */
static void pkt_async_begin(struct uet_tss_sa *sa, struct uet_dev *udev)
{
	atomic_inc(&sa->async);
	atomic_inc(&udev->tss_async);
}

static void pkt_async_end(struct uet_tss_sa *sa, struct uet_dev *udev)
{
	if (atomic_dec_and_test(&sa->async))
		wake_up_var(&sa->async);
	if (atomic_dec_and_test(&udev->tss_async))
		wake_up_var(&udev->tss_async);
}

/*
 * Keep a copy of @t until uet_tss_wait_work() derives a key for its
 * source from its cluster key; the copy holds the key and the device as
 * a request under way does.  Return: -EINPROGRESS, or another negative
 * errno when the packet was dropped, counted.
 */
static int pkt_wait(const struct uet_tss_pkt *t)
{
	struct uet_tss_wait *w = &t->udev->tss_wait;
	struct uet_tss_pkt *p;

	p = kmalloc(sizeof(*p), GFP_ATOMIC);
	if (!p) {
		uet_count(t->udev, t->seal ? UET_CNT_TSS_TX_ERRORS :
			  UET_CNT_DROP_NO_MEMORY, 1);
		kfree_skb(t->skb);
		return -ENOMEM;
	}
	spin_lock(&w->lock);
	if (w->len[t->seal] < UET_TSS_WAIT_MAX) {
		*p = *t;
		pkt_async_begin(p->sa, p->udev);
		list_add_tail(&p->node, &w->list);
		w->len[t->seal]++;
		queue_work(system_wq, &w->work);
		t = NULL;
	}
	spin_unlock(&w->lock);
	if (!t)
		return -EINPROGRESS;
	kfree(p);
	uet_count(t->udev, t->seal ? UET_CNT_TSS_TX_ERRORS :
		  UET_CNT_DROP_TSS_WAITING, 1);
	kfree_skb(t->skb);
	return -ENOBUFS;
}

/*
 * The key @job seals with, reached under RCU; %NULL (clear) when the job
 * is not secure.  A secure job without one gets an ERR_PTR().
 */
static struct uet_tss_sa *tx_sa(struct uet_dev *udev, u32 job, u8 *an)
{
	struct uet_job *j = xa_load(&udev->jobs.xa, job);
	struct uet_tss_sa *sa;

	if (!j || !READ_ONCE(j->secdom.secure))
		return NULL;
	*an = READ_ONCE(j->secdom.tx_an);
	sa = rcu_dereference(j->secdom.sa[*an]);
	return sa ?: ERR_PTR(-ENOKEY);
}

/*
 * Whether @addr is an address of @udev's netdev: under a key shared by
 * several devices, only distinct addresses keep their nonces apart.
 */
static bool tx_addr_own(struct uet_dev *udev, const struct in6_addr *addr)
{
	struct net *net = dev_net(udev->ndev);

	if (ipv6_addr_v4mapped(addr))
		return __ip_dev_find(net, addr->s6_addr32[3], false) ==
		       udev->ndev;
	/* strict: an address of another netdev does not do */
	return ipv6_chk_addr(net, addr, udev->ndev, 1);
}

UET_CRYPTO_DONE(seal_done)
{
	struct uet_tss_pkt *p = data;
	struct uet_dev *udev = p->udev;
	struct uet_tss_sa *sa = p->sa;

	local_bh_disable();
	rcu_read_lock();
	if (err) {
		uet_count(udev, UET_CNT_TSS_TX_ERRORS, 1);
		kfree_skb(p->skb);
	} else {
		uet_count(udev, UET_CNT_TSS_SEALED, 1);
		p->sent(udev, p->skb, &p->saddr, &p->daddr, p->entropy);
	}
	rcu_read_unlock();
	local_bh_enable();
	kfree_sensitive(p);
	pkt_async_end(sa, udev);
}

/*
 * Seal @t's packet with @aead (and @mask, a derived key's), as
 * uet_tss_seal() returns: 0 when it is ready, -EINPROGRESS when
 * seal_done() sends it, else dropped, counted.
 */
static int pkt_seal(const struct uet_tss_pkt *t, struct crypto_aead *aead,
		    const u8 *mask)
{
	unsigned int alen, textlen, hlen = pkt_hlen(&t->h);
	struct sk_buff *skb = t->skb;
	struct aead_request *req;
	struct uet_tss_pkt *p;
	int err = -ENOMEM;

	p = pkt_alloc(t, aead, 2);
	if (!p)
		goto drop;
	textlen = skb->len;
	uet_tss_build(skb_push(skb, hlen), hlen, &p->h);
	skb_put(skb, UET_TSS_ICV_LEN);
	alen = pkt_aad(p, &p->saddr, &p->daddr);
	sg_set_buf(&p->sg[0], p->aad, alen);
	sg_set_buf(&p->sg[1], skb->data, skb->len);
	req = pkt_req(p, 2);
	aead_request_set_callback(req, 0, seal_done, p);
	uet_tss_req_set(req, &p->h, ipv6_addr_v4mapped(&p->saddr) ?
			(u8 *)&p->saddr.s6_addr32[3] : NULL, mask, p->sg,
			alen + hlen, textlen);
	pkt_async_begin(p->sa, p->udev);
	err = crypto_aead_encrypt(req);
	if (err == -EINPROGRESS)
		return err;
	pkt_async_end(p->sa, p->udev);
	kfree_sensitive(p);
	if (err)
		goto drop;
	uet_count(t->udev, UET_CNT_TSS_SEALED, 1);
	return 0;
drop:
	uet_count(t->udev, UET_CNT_TSS_TX_ERRORS, 1);
	kfree_skb(skb);
	return err;
}

/**
 * uet_tss_seal() - seal a packet of a secure job
 * @udev: the sending device.
 * @skb: the packet from its PDS header on, linear, its struct uet_skb_cb
 *	saying whose it is.
 * @saddr: its source address, IPv4 as IPv4-mapped IPv6 ...
 * @daddr: ... and its destination: both are authenticated.
 * @entropy: its entropy, for @sent.
 * @sent: where the packet goes if it is sealed late.
 *
 * A packet whose job is not secure (or that is no job's) stays clear;
 * either way, its @tss (struct uet_skb_cb) is cleared, decided.  A
 * secure job's packet that cannot be sealed (no key it may send with, an
 * IPv6 path under a direct key without the device's SSI, a source
 * address not of the device's netdev, the key's counts spent, no memory,
 * no key derived for the source) is dropped, counted in tss_tx_errors:
 * it never leaves clear.  Under a direct key the device's SSI, if it has
 * one, goes in the header and the nonce.  Under a cluster key, a packet
 * whose source has no key yet waits for its derivation
 * (uet_tss_wait_work()).
 *
 * Context: bottom halves off, under rcu_read_lock().
 * Return: 0 when @skb is ready to send, sealed or clear; -EINPROGRESS
 * when it is finished later and handed to @sent; another negative errno
 * when it was dropped.
 */
int uet_tss_seal(struct uet_dev *udev, struct sk_buff *skb,
		 const struct in6_addr *saddr, const struct in6_addr *daddr,
		 u16 entropy, uet_tss_sent_t sent)
{
	struct uet_skb_cb *cb = uet_skb_cb(skb);
	struct uet_tss_src *src;
	struct uet_tss_pkt t;
	struct uet_tss_sa *sa;
	u32 ssi = 0;
	u64 count;
	u8 an;
	int err;

	if (!cb->tss)
		return 0;
	/* decided now: a sealed packet is not sealed again, nor a clear one */
	cb->tss = false;
	sa = tx_sa(udev, cb->job, &an);
	if (!sa)
		return 0;
	err = -ENOKEY;
	if (IS_ERR(sa))
		goto drop;
	/*
	 * Under a direct key, the sender's SSI tells its nonces apart; over
	 * IPv6, without one, nothing would.  A cluster key's sources seal
	 * with keys of their own.
	 */
	if (sa->aead)
		ssi = READ_ONCE(udev->cfg.ssi);
	if (sa->aead && !ssi && !ipv6_addr_v4mapped(saddr))
		goto drop;
	err = -EADDRNOTAVAIL;
	if (!tx_addr_own(udev, saddr))
		goto drop;
	err = -ERANGE;
	count = atomic64_inc_return(&sa->tx_count);
	if (count > FIELD_MAX(UET_TSS_TSC_COUNT))
		goto drop;
	err = -ENOMEM;
	if (skb_linearize(skb) ||
	    skb_cow_head(skb, sizeof(struct uet_tss_hdr_ssi)) ||
	    (skb_tailroom(skb) < UET_TSS_ICV_LEN &&
	     pskb_expand_head(skb, 0, UET_TSS_ICV_LEN, GFP_ATOMIC)))
		goto drop;
	t = (struct uet_tss_pkt) {
		.udev = udev,
		.sa = sa,
		.seal = true,
		.skb = skb,
		.h = {
			.an = an,
			.sdi = cb->job,
			.has_ssi = ssi,
			.ssi = ssi,
			.tsc = FIELD_PREP(UET_TSS_TSC_EPOCH, sa->epoch) | count,
		},
		.saddr = *saddr,
		.daddr = *daddr,
		.entropy = entropy,
		.sent = sent,
	};
	if (sa->aead)
		return pkt_seal(&t, sa->aead, NULL);
	src = uet_tss_sa_src(sa, saddr);
	if (src)
		return pkt_seal(&t, src->aead, src->mask);
	return pkt_wait(&t);
drop:
	uet_count(udev, UET_CNT_TSS_TX_ERRORS, 1);
	kfree_skb(skb);
	return err;
}

/*
 * The end of opening: take the TSC into the source's window, and the
 * packet on to the PDS, or drop it, counted.
 */
static void open_end(struct uet_tss_pkt *p, int err)
{
	struct uet_dev *udev = p->udev;
	struct sk_buff *skb = p->skb;
	struct uet_rx_cb *rx;

	if (err == -EBADMSG) {
		uet_count(udev, UET_CNT_DROP_TSS_BAD_ICV, 1);
		goto drop;
	}
	if (err) {
		uet_count(udev, UET_CNT_DROP_NO_MEMORY, 1);
		goto drop;
	}
	switch (uet_tss_sa_replay(p->sa, &p->saddr, p->h.tsc, true)) {
	case UET_TSS_SA_NEW:
		break;
	case UET_TSS_SA_REPLAY:
		/* a copy opened meanwhile on another CPU */
		uet_count(udev, UET_CNT_DROP_TSS_REPLAY, 1);
		goto drop;
	case UET_TSS_SA_FULL:
		uet_count(udev, UET_CNT_DROP_TSS_SOURCES, 1);
		goto drop;
	}
	if (pskb_trim(skb, skb->len - UET_TSS_ICV_LEN)) {
		uet_count(udev, UET_CNT_DROP_NO_MEMORY, 1);
		goto drop;
	}
	/* the header is in the linear part (uet_tss_open()) */
	__skb_pull(skb, pkt_hlen(&p->h));
	/* a checksum the device gave is of the ciphertext */
	skb->ip_summed = CHECKSUM_NONE;
	uet_count(udev, UET_CNT_TSS_OPENED, 1);
	rx = uet_rx_cb(skb);
	rx->sealed = true;
	rx->sdi = p->h.sdi;
	p->rcvd(udev, skb, &p->saddr, p->entropy, p->ce);
	return;
drop:
	kfree_skb(skb);
}

UET_CRYPTO_DONE(open_done)
{
	struct uet_tss_pkt *p = data;
	struct uet_dev *udev = p->udev;
	struct uet_tss_sa *sa = p->sa;

	local_bh_disable();
	rcu_read_lock();
	open_end(p, err);
	rcu_read_unlock();
	local_bh_enable();
	kfree_sensitive(p);
	pkt_async_end(sa, udev);
}

/*
 * The key a received TSS header names, reached under RCU, or %NULL,
 * counted: no such job or key, or a key of another epoch.
 */
static struct uet_tss_sa *rx_sa(struct uet_dev *udev,
				const struct uet_tss_hdr_info *h)
{
	struct uet_job *j = xa_load(&udev->jobs.xa, h->sdi);
	struct uet_tss_sa *sa;

	sa = j ? rcu_dereference(j->secdom.sa[h->an]) : NULL;
	/* a source's key is derived from its address, never its SSI */
	if (!sa || (h->has_ssi && !sa->aead)) {
		uet_count(udev, UET_CNT_DROP_TSS_NO_KEY, 1);
		return NULL;
	}
	if (FIELD_GET(UET_TSS_TSC_EPOCH, h->tsc) != sa->epoch) {
		uet_count(udev, UET_CNT_DROP_TSS_EPOCH, 1);
		return NULL;
	}
	return sa;
}

/*
 * @t's packet made writable, and a request (@req) to open it with @aead
 * (and @mask, a derived key's), its callback the caller's to set; %NULL
 * when the packet was dropped, counted.
 */
static struct uet_tss_pkt *pkt_open(const struct uet_tss_pkt *t,
				    struct crypto_aead *aead, const u8 *mask,
				    struct aead_request **req)
{
	unsigned int alen, hlen = pkt_hlen(&t->h);
	struct sk_buff *skb = t->skb;
	struct sk_buff *trailer;
	struct uet_tss_pkt *p;
	int nfrags;

	nfrags = skb_cow_data(skb, 0, &trailer);
	p = nfrags > 0 ? pkt_alloc(t, aead, nfrags + 1) : NULL;
	if (!p) {
		uet_count(t->udev, UET_CNT_DROP_NO_MEMORY, 1);
		goto drop;
	}
	alen = pkt_aad(p, &p->saddr, &p->daddr);
	sg_set_buf(&p->sg[0], p->aad, alen);
	if (skb_to_sgvec(skb, &p->sg[1], 0, skb->len) < 0) {
		kfree(p);
		uet_count(t->udev, UET_CNT_DROP_MALFORMED, 1);
		goto drop;
	}
	*req = pkt_req(p, nfrags + 1);
	uet_tss_req_set(*req, &p->h,
			ipv6_addr_v4mapped(&p->saddr) ?
			(u8 *)&p->saddr.s6_addr32[3] : NULL, mask, p->sg,
			alen + hlen, skb->len - hlen);
	return p;
drop:
	kfree_skb(skb);
	return NULL;
}

/* Open @t's packet with @aead and @mask, now or in open_done(). */
static void pkt_open_async(const struct uet_tss_pkt *t,
			   struct crypto_aead *aead, const u8 *mask)
{
	struct aead_request *req;
	struct uet_tss_pkt *p;
	int err;

	p = pkt_open(t, aead, mask, &req);
	if (!p)
		return;
	aead_request_set_callback(req, 0, open_done, p);
	pkt_async_begin(p->sa, p->udev);
	err = crypto_aead_decrypt(req);
	if (err == -EINPROGRESS)
		return;
	pkt_async_end(p->sa, p->udev);
	open_end(p, err);
	kfree_sensitive(p);
}

/**
 * uet_tss_open() - open a packet that arrived with a TSS header
 * @udev: the receiving device.
 * @skb: the packet from its TSS header on, its IP header before it;
 *	consumed.
 * @saddr: its source address, IPv4 as IPv4-mapped IPv6.
 * @entropy: its entropy ...
 * @ce: ... and whether it arrived ECN-marked, for @rcvd.
 * @rcvd: where it goes once open, now or later.
 *
 * Nothing beyond the TSS header is read before the ICV is checked.  A
 * packet is dropped, each time counted once: a header that does not
 * parse, or a packet too short for its ICV (drop_malformed); no key at
 * its SDI and AN, or an SSI under a cluster key (drop_tss_no_key); a key of another epoch
 * (drop_tss_epoch); a TSC its source's window has taken, or below it
 * (drop_tss_replay); an ICV that does not match (drop_tss_bad_icv); a
 * new source beyond the key's windows, or beyond the keys the device
 * may derive (drop_tss_sources); a new source under a cluster key while
 * %UET_TSS_WAIT_MAX packets wait for derivations (drop_tss_waiting).
 *
 * Context: softirq, under rcu_read_lock().
 */
void uet_tss_open(struct uet_dev *udev, struct sk_buff *skb,
		  const struct in6_addr *saddr, u16 entropy, bool ce,
		  uet_tss_rcvd_t rcvd)
{
	struct uet_tss_hdr_info h;
	struct uet_tss_src *src;
	struct uet_tss_pkt t;
	struct uet_tss_sa *sa;

	/*
	 * The longest header into the linear part, where open_end() takes
	 * it off: a sealed packet is longer than it, with its ICV
	 */
	if (skb->len < TSS_HLEN + UET_TSS_ICV_LEN ||
	    !pskb_may_pull(skb, sizeof(struct uet_tss_hdr_ssi)) ||
	    uet_tss_parse(skb->data, sizeof(struct uet_tss_hdr_ssi), &h) < 0 ||
	    skb->len < pkt_hlen(&h) + UET_TSS_ICV_LEN) {
		uet_count(udev, UET_CNT_DROP_MALFORMED, 1);
		goto drop;
	}
	sa = rx_sa(udev, &h);
	if (!sa)
		goto drop;
	if (uet_tss_sa_replay(sa, saddr, h.tsc, false) != UET_TSS_SA_NEW) {
		uet_count(udev, UET_CNT_DROP_TSS_REPLAY, 1);
		goto drop;
	}
	t = (struct uet_tss_pkt) {
		.udev = udev,
		.sa = sa,
		.skb = skb,
		.h = h,
		.saddr = *saddr,
		.entropy = entropy,
		.ce = ce,
		.rcvd = rcvd,
	};
	if (ip_hdr(skb)->version == 4)
		ipv6_addr_set_v4mapped(ip_hdr(skb)->daddr, &t.daddr);
	else
		t.daddr = ipv6_hdr(skb)->daddr;
	/* its route, unreferenced, is not to outlive the softirq */
	skb_dst_drop(skb);
	if (sa->aead) {
		pkt_open_async(&t, sa->aead, NULL);
		return;
	}
	src = uet_tss_sa_src(sa, saddr);
	if (src)
		pkt_open_async(&t, src->aead, src->mask);
	else
		pkt_wait(&t);
	return;
drop:
	kfree_skb(skb);
}

/* The key of a waiting packet's source, derived now, counted. */
static struct uet_tss_src *wait_derive(struct uet_tss_pkt *t)
{
	struct uet_tss_src *src;

	src = uet_tss_src_derive(t->sa, &t->saddr, t->seal);
	if (!IS_ERR(src)) {
		local_bh_disable();
		uet_count(t->udev, UET_CNT_TSS_DERIVED, 1);
		local_bh_enable();
	}
	return src;
}

/*
 * Seal a packet that waited for the key of its source, an address of
 * the device's own (uet_tss_seal() checked it): the key needs no proof.
 */
static void wait_seal(struct uet_tss_pkt *t)
{
	struct uet_tss_src *src = uet_tss_sa_src(t->sa, &t->saddr);

	if (!src) {
		src = wait_derive(t);
		if (IS_ERR(src))
			goto drop;
		/* the work item alone inserts a cluster key's sources */
		if (uet_tss_src_insert(t->sa, src)) {
			uet_tss_src_free(t->sa, src);
			goto drop;
		}
	}
	local_bh_disable();
	rcu_read_lock();
	if (!pkt_seal(t, src->aead, src->mask))
		t->sent(t->udev, t->skb, &t->saddr, &t->daddr, t->entropy);
	rcu_read_unlock();
	local_bh_enable();
	return;
drop:
	local_bh_disable();
	uet_count(t->udev, UET_CNT_TSS_TX_ERRORS, 1);
	local_bh_enable();
	kfree_skb(t->skb);
}

/*
 * Open a packet that waited for the key of its source.  A key derived
 * for it joins its cluster key's sources only once the packet opened
 * under it (synchronously, here): forged packets, from whatever sources
 * they name, leave nothing behind.
 */
static void wait_open(struct uet_tss_pkt *t)
{
	struct uet_tss_src *src = uet_tss_sa_src(t->sa, &t->saddr);
	DECLARE_CRYPTO_WAIT(done);
	struct aead_request *req;
	struct uet_tss_pkt *p;
	int err;

	if (src) {
		local_bh_disable();
		rcu_read_lock();
		pkt_open_async(t, src->aead, src->mask);
		rcu_read_unlock();
		local_bh_enable();
		return;
	}
	src = wait_derive(t);
	if (IS_ERR(src)) {
		err = PTR_ERR(src);
		local_bh_disable();
		if (err == -ENOSPC)
			uet_count(t->udev, UET_CNT_DROP_TSS_SOURCES, 1);
		else if (err == -ENOMEM)
			uet_count(t->udev, UET_CNT_DROP_NO_MEMORY, 1);
		else	/* the crypto API made no key of it */
			uet_count(t->udev, UET_CNT_DROP_TSS_NO_KEY, 1);
		local_bh_enable();
		kfree_skb(t->skb);
		return;
	}
	local_bh_disable();
	p = pkt_open(t, src->aead, src->mask, &req);
	local_bh_enable();
	if (!p) {
		uet_tss_src_free(t->sa, src);
		return;
	}
	aead_request_set_callback(req, CRYPTO_TFM_REQ_MAY_SLEEP |
				  CRYPTO_TFM_REQ_MAY_BACKLOG,
				  crypto_req_done, &done);
	err = crypto_wait_req(crypto_aead_decrypt(req), &done);
	if (err || uet_tss_src_insert(t->sa, src))
		uet_tss_src_free(t->sa, src);
	local_bh_disable();
	rcu_read_lock();
	open_end(p, err);
	rcu_read_unlock();
	local_bh_enable();
	kfree_sensitive(p);
}

/**
 * uet_tss_wait_work() - seal or open the packets that wait for keys
 * @work: the device's @tss_wait.
 *
 * Deriving a key allocates a transform, which may sleep: the packets of
 * a source without a key under a cluster key wait for it here
 * (pkt_wait()), the one packet of a new source opened synchronously.
 */
static void uet_tss_wait_work(struct work_struct *work)
{
	struct uet_tss_wait *w = container_of(work, struct uet_tss_wait,
					      work);
	struct uet_tss_pkt *t, *tmp;
	LIST_HEAD(list);

	spin_lock_bh(&w->lock);
	list_splice_init(&w->list, &list);
	spin_unlock_bh(&w->lock);
	list_for_each_entry_safe(t, tmp, &list, node) {
		if (t->seal)
			wait_seal(t);
		else
			wait_open(t);
		spin_lock_bh(&w->lock);
		w->len[t->seal]--;
		spin_unlock_bh(&w->lock);
		pkt_async_end(t->sa, t->udev);
		kfree(t);
		cond_resched();
	}
}

/**
 * uet_tss_init() - set up a device's transport security on the wire
 * @udev: the device, before its socket opens.
 */
void uet_tss_init(struct uet_dev *udev)
{
	struct uet_tss_wait *w = &udev->tss_wait;

	spin_lock_init(&w->lock);
	INIT_LIST_HEAD(&w->list);
	INIT_WORK(&w->work, uet_tss_wait_work);
}

/**
 * uet_tss_admits() - whether a received packet may reach a job
 * @udev: the receiving device.
 * @skb: the packet, its struct uet_rx_cb filled in.
 * @job: the job it is for.
 *
 * A packet that opened under a job's domain reaches that job alone; a
 * clear packet reaches only jobs that are not secure.  The caller counts
 * a refusal in drop_tss_clear.
 *
 * Context: any.
 * Return: true if it may.
 */
bool uet_tss_admits(struct uet_dev *udev, const struct sk_buff *skb, u32 job)
{
	const struct uet_rx_cb *rx = (const void *)skb->cb;
	struct uet_job *j;
	bool secure;

	if (rx->sealed)
		return rx->sdi == job;
	rcu_read_lock();
	j = xa_load(&udev->jobs.xa, job);
	secure = j && READ_ONCE(j->secdom.secure);
	rcu_read_unlock();
	return !secure;
}

/**
 * uet_tss_drain() - wait for a device's requests under way
 * @udev: a device that neither sends nor receives any more.
 *
 * Every request was made under RCU: after a grace period, each one still
 * under way is counted, and its completion wakes the wait.  May sleep.
 */
void uet_tss_drain(struct uet_dev *udev)
{
	synchronize_rcu();
	wait_var_event(&udev->tss_async, !atomic_read(&udev->tss_async));
	/* the work may still be returning from the last packet's end */
	flush_work(&udev->tss_wait.work);
}
