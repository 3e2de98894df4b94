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
#include <net/ipv6.h>

#include "compat.h"
#include "counters.h"
#include "job.h"
#include "socket.h"
#include "tss_crypto.h"
#include "tss_pkt.h"
#include "uet.h"

/* The TSS header uet sends: without SSI (security.rst, the nonce). */
#define TSS_HLEN	sizeof(struct uet_tss_hdr)
/* The associated data before the TSS header: two IPv6 addresses at most. */
#define TSS_AAD_MAX	(2 * sizeof(struct in6_addr))

/**
 * struct uet_tss_pkt - one packet being sealed or opened
 * @udev: its device.
 * @sa: the key.
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

/*
 * A packet's state with @nsg scatterlist entries and its request, the
 * nonce after it (uet_tss_req_set()); %NULL without memory.
 */
static struct uet_tss_pkt *pkt_alloc(struct uet_tss_sa *sa, unsigned int nsg)
{
	struct crypto_aead *aead = sa->aead;
	struct uet_tss_pkt *p;

	p = kmalloc(pkt_req_off(nsg) + sizeof(struct aead_request) +
		    crypto_aead_reqsize(aead) + crypto_aead_alignmask(aead) +
		    UET_TSS_IV_LEN, GFP_ATOMIC);
	if (!p)
		return NULL;
	p->sa = sa;
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
 * The key @job seals with, reached under RCU; %NULL (clear) when the job
 * is not secure.  A secure job without a usable one gets an ERR_PTR().
 */
static struct uet_tss_sa *tx_sa(struct uet_dev *udev, u32 job, u8 *an)
{
	struct uet_job *j = xa_load(&udev->jobs.xa, job);
	struct uet_tss_sa *sa;

	if (!j || !READ_ONCE(j->secdom.secure))
		return NULL;
	*an = READ_ONCE(j->secdom.tx_an);
	sa = rcu_dereference(j->secdom.sa[*an]);
	/* cluster keys are not used on the wire yet (security.rst) */
	return sa && sa->aead ? sa : ERR_PTR(-ENOKEY);
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
 * IPv6 path, a source address not of the device's netdev, the key's
 * counts spent, no memory) is dropped, counted in tss_tx_errors: it
 * never leaves clear.  The source must be the netdev's own: another
 * device holding the same key counts TSCs of its own, and only distinct
 * addresses keep the nonces apart.
 *
 * Context: bottom halves off, under rcu_read_lock().
 * Return: 0 when @skb is ready to send, sealed or clear; -EINPROGRESS
 * when the crypto API finishes it later and hands it to @sent; another
 * negative errno when it was dropped.
 */
int uet_tss_seal(struct uet_dev *udev, struct sk_buff *skb,
		 const struct in6_addr *saddr, const struct in6_addr *daddr,
		 u16 entropy, uet_tss_sent_t sent)
{
	struct uet_skb_cb *cb = uet_skb_cb(skb);
	struct aead_request *req;
	struct uet_tss_sa *sa;
	struct uet_tss_pkt *p;
	unsigned int alen, textlen;
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
	/* over IPv6 the nonce would need an SSI of the sender's own */
	if (IS_ERR(sa) || !ipv6_addr_v4mapped(saddr))
		goto drop;
	err = -EADDRNOTAVAIL;
	if (__ip_dev_find(dev_net(udev->ndev), saddr->s6_addr32[3], false) !=
	    udev->ndev)
		goto drop;
	err = -ERANGE;
	count = atomic64_inc_return(&sa->tx_count);
	if (count > FIELD_MAX(UET_TSS_TSC_COUNT))
		goto drop;
	err = -ENOMEM;
	if (skb_linearize(skb) || skb_cow_head(skb, TSS_HLEN) ||
	    (skb_tailroom(skb) < UET_TSS_ICV_LEN &&
	     pskb_expand_head(skb, 0, UET_TSS_ICV_LEN, GFP_ATOMIC)))
		goto drop;
	p = pkt_alloc(sa, 2);
	if (!p)
		goto drop;
	p->udev = udev;
	p->skb = skb;
	p->saddr = *saddr;
	p->daddr = *daddr;
	p->entropy = entropy;
	p->sent = sent;
	p->h = (struct uet_tss_hdr_info) {
		.an = an,
		.sdi = cb->job,
		.tsc = FIELD_PREP(UET_TSS_TSC_EPOCH, sa->epoch) | count,
	};
	textlen = skb->len;
	uet_tss_build(skb_push(skb, TSS_HLEN), TSS_HLEN, &p->h);
	skb_put(skb, UET_TSS_ICV_LEN);
	alen = pkt_aad(p, saddr, daddr);
	sg_set_buf(&p->sg[0], p->aad, alen);
	sg_set_buf(&p->sg[1], skb->data, skb->len);
	req = pkt_req(p, 2);
	aead_request_set_callback(req, 0, seal_done, p);
	uet_tss_req_set(req, &p->h, (u8 *)&saddr->s6_addr32[3], NULL, p->sg,
			alen + TSS_HLEN, textlen);
	pkt_async_begin(sa, udev);
	err = crypto_aead_encrypt(req);
	if (err == -EINPROGRESS)
		return err;
	pkt_async_end(sa, udev);
	kfree_sensitive(p);
	if (err)
		goto drop;
	uet_count(udev, UET_CNT_TSS_SEALED, 1);
	return 0;
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
	__skb_pull(skb, TSS_HLEN);
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
	if (!sa || !sa->aead || h->has_ssi) {
		uet_count(udev, UET_CNT_DROP_TSS_NO_KEY, 1);
		return NULL;
	}
	if (FIELD_GET(UET_TSS_TSC_EPOCH, h->tsc) != sa->epoch) {
		uet_count(udev, UET_CNT_DROP_TSS_EPOCH, 1);
		return NULL;
	}
	return sa;
}

/**
 * uet_tss_open() - open a packet that arrived with a TSS header
 * @udev: the receiving device.
 * @skb: the packet from its TSS header on, its IP header before it;
 *	consumed.
 * @saddr: its source address, IPv4 as IPv4-mapped IPv6.
 * @entropy: its entropy ...
 * @ce: ... and whether it arrived ECN-marked, for @rcvd.
 * @rcvd: where it goes once open, now or from the crypto API's
 *	completion.
 *
 * Nothing beyond the TSS header is read before the ICV is checked.  A
 * packet is dropped, each time counted once: a header that does not
 * parse, or a packet too short for its ICV (drop_malformed); no key at
 * its SDI and AN, or an SSI (drop_tss_no_key); a key of another epoch
 * (drop_tss_epoch); a TSC its source's window has taken, or below it
 * (drop_tss_replay); an ICV that does not match (drop_tss_bad_icv); a
 * new source beyond the key's windows (drop_tss_sources).
 *
 * Context: softirq, under rcu_read_lock().
 */
void uet_tss_open(struct uet_dev *udev, struct sk_buff *skb,
		  const struct in6_addr *saddr, u16 entropy, bool ce,
		  uet_tss_rcvd_t rcvd)
{
	struct uet_tss_hdr_info h;
	struct in6_addr daddr;
	struct sk_buff *trailer;
	struct aead_request *req;
	struct uet_tss_sa *sa;
	struct uet_tss_pkt *p;
	unsigned int alen;
	int nfrags, err;

	/*
	 * The longest header into the linear part, where open_end() takes
	 * it off: a sealed packet is longer than it, with its ICV
	 */
	if (skb->len < TSS_HLEN + UET_TSS_ICV_LEN ||
	    !pskb_may_pull(skb, sizeof(struct uet_tss_hdr_ssi)) ||
	    uet_tss_parse(skb->data, sizeof(struct uet_tss_hdr_ssi), &h) < 0) {
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
	if (ip_hdr(skb)->version == 4)
		ipv6_addr_set_v4mapped(ip_hdr(skb)->daddr, &daddr);
	else
		daddr = ipv6_hdr(skb)->daddr;
	/* its route, unreferenced, is not to outlive the softirq */
	skb_dst_drop(skb);
	nfrags = skb_cow_data(skb, 0, &trailer);
	p = nfrags > 0 ? pkt_alloc(sa, nfrags + 1) : NULL;
	if (!p) {
		uet_count(udev, UET_CNT_DROP_NO_MEMORY, 1);
		goto drop;
	}
	p->udev = udev;
	p->skb = skb;
	p->h = h;
	p->saddr = *saddr;
	p->entropy = entropy;
	p->ce = ce;
	p->rcvd = rcvd;
	alen = pkt_aad(p, saddr, &daddr);
	sg_set_buf(&p->sg[0], p->aad, alen);
	err = skb_to_sgvec(skb, &p->sg[1], 0, skb->len);
	if (err < 0) {
		kfree(p);
		uet_count(udev, UET_CNT_DROP_MALFORMED, 1);
		goto drop;
	}
	req = pkt_req(p, nfrags + 1);
	aead_request_set_callback(req, 0, open_done, p);
	uet_tss_req_set(req, &h, ipv6_addr_v4mapped(saddr) ?
			(u8 *)&saddr->s6_addr32[3] : NULL, NULL, p->sg,
			alen + TSS_HLEN, skb->len - TSS_HLEN);
	pkt_async_begin(sa, udev);
	err = crypto_aead_decrypt(req);
	if (err == -EINPROGRESS)
		return;
	pkt_async_end(sa, udev);
	open_end(p, err);
	kfree_sensitive(p);
	return;
drop:
	kfree_skb(skb);
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
}
