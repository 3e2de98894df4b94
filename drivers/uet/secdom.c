// SPDX-License-Identifier: GPL-2.0
/*
 * uet secure domains (secdom.h).
 *
 * A key is installed at an unused AN and removed by AN; the first key of
 * a domain seals what the job sends, a second only opens until it is
 * made the sending key.  A rekey therefore goes in three steps, each
 * taken on every member before the next: add the new key at the other
 * AN (everyone opens both), use it (everyone seals with it), delete the
 * old one.  No step makes a packet in flight unreadable.
 */
#include <linux/hash.h>
#include <linux/slab.h>
#include <linux/string.h>
#include <linux/wait_bit.h>

#include "job.h"
#include "secdom.h"
#include "tss_crypto.h"
#include "uet.h"

/*
 * Keys a device's jobs may hold: two for each of 2048 secure jobs.  Each
 * is a crypto API transform (with GCM, its ctr and ghash children), which
 * the crypto API allocates outside the caller's memory cgroup: the bound
 * keeps what a namespace's administrator can pin to a few MiB.
 */
#define UET_KEYS_MAX	4096

/*
 * The rekey value of a cluster key's derivations: uet's domains rekey by
 * installing keys, never by time (security.rst).
 */
#define SECDOM_REKEY	0

/*
 * Free a key no reader can reach any more: after the requests still
 * under way with it (whose completions drop @async) are over.
 */
static void sa_free(struct uet_tss_sa *sa)
{
	struct uet_tss_src *src;
	struct hlist_node *tmp;
	int i;

	if (!sa)
		return;
	wait_var_event(&sa->async, !atomic_read(&sa->async));
	for (i = 0; i < ARRAY_SIZE(sa->srcs); i++)
		hlist_for_each_entry_safe(src, tmp, &sa->srcs[i], node)
			uet_tss_src_free(sa, src);
	/* the crypto API clears a transform's memory, its key with it */
	if (sa->aead)
		crypto_free_aead(sa->aead);
	if (sa->prf)
		crypto_free_shash(sa->prf);
	kfree(sa);
}

static struct uet_tss_sa *sa_alloc(struct uet_dev *udev,
				   const struct uet_tss_key_cfg *cfg,
				   struct netlink_ext_ack *extack)
{
	struct uet_tss_sa *sa;
	void *tfm;

	sa = kzalloc(sizeof(*sa), GFP_KERNEL_ACCOUNT);
	if (!sa)
		return ERR_PTR(-ENOMEM);
	sa->epoch = cfg->epoch;
	sa->mode = cfg->mode;
	sa->derived = &udev->jobs.derived;
	spin_lock_init(&sa->lock);
	if (cfg->mode == UET_KEY_MODE_DIRECT) {
		tfm = uet_tss_aead_alloc(cfg->key);
		if (!IS_ERR(tfm))
			sa->aead = tfm;
	} else {
		tfm = uet_tss_prf_alloc(cfg->key);
		if (!IS_ERR(tfm))
			sa->prf = tfm;
	}
	if (!IS_ERR(tfm))
		return sa;
	kfree(sa);
	if (PTR_ERR(tfm) == -ENOENT) {
		/* the crypto API's answer when it has no such algorithm */
		NL_SET_ERR_MSG(extack, "This kernel has no AES-GCM or AES-CMAC");
		return ERR_PTR(-EOPNOTSUPP);
	}
	if (PTR_ERR(tfm) != -ENOMEM)
		NL_SET_ERR_MSG(extack, "The kernel's crypto API refused the key");
	return tfm;
}

static struct hlist_head *sa_head(struct uet_tss_sa *sa,
				  const struct in6_addr *addr)
{
	return &sa->srcs[hash_32(ipv6_addr_hash(addr), UET_TSS_SOURCE_BITS)];
}

/* @addr's entry in @head of @sa, or %NULL; @sa's lock held. */
static struct uet_tss_src *sa_find(struct uet_tss_sa *sa,
				   struct hlist_head *head,
				   const struct in6_addr *addr)
{
	struct uet_tss_src *s;

	lockdep_assert_held(&sa->lock);
	hlist_for_each_entry(s, head, node)
		if (ipv6_addr_equal(&s->addr, addr))
			return s;
	return NULL;
}

/**
 * uet_tss_sa_src() - a source's entry under a key
 * @sa: the key, reached under RCU.
 * @addr: the source's address, IPv4 as IPv4-mapped IPv6.
 *
 * An entry stays until its key is freed: the caller may use it as long
 * as it may use @sa.
 *
 * Context: any; takes @sa's lock with bottom halves off.
 * Return: the entry, or %NULL.
 */
struct uet_tss_src *uet_tss_sa_src(struct uet_tss_sa *sa,
				   const struct in6_addr *addr)
{
	struct hlist_head *head = sa_head(sa, addr);
	struct uet_tss_src *s;

	spin_lock_bh(&sa->lock);
	s = sa_find(sa, head, addr);
	spin_unlock_bh(&sa->lock);
	return s;
}

/**
 * uet_tss_src_derive() - derive a source's key from a cluster key
 * @sa: the cluster key, held (its @async counted, or its domain locked).
 * @addr: the source's address, IPv4 as IPv4-mapped IPv6.
 * @own: @addr is the device's own: the key seals, and neither the
 *	device's bound on derived keys nor @sa's on sources applies (a
 *	device has few addresses, and others' packets must not keep it from
 *	sending).
 *
 * The key and its nonce mask come from uet_tss_derive() with the label
 * "U1" and the context of the key's epoch, %SECDOM_REKEY and the source's
 * address (security.rst); the entry is not yet in @sa's sources
 * (uet_tss_src_insert()).  May sleep.
 *
 * Return: the entry, or an ERR_PTR(): -ENOSPC when the device holds
 * %UET_TSS_DERIVED_MAX derived keys, -ENOMEM, or the crypto API's error.
 */
struct uet_tss_src *uet_tss_src_derive(struct uet_tss_sa *sa,
				       const struct in6_addr *addr, bool own)
{
	u8 ctx[UET_TSS_CONTEXT_MAX], out[UET_TSS_DERIVED_LEN];
	struct uet_tss_src *src;
	struct crypto_aead *aead;
	size_t ctx_len;
	int err;

	if (atomic_inc_return(sa->derived) > UET_TSS_DERIVED_MAX && !own) {
		err = -ENOSPC;
		goto err_count;
	}
	src = kzalloc(sizeof(*src), GFP_KERNEL);
	if (!src) {
		err = -ENOMEM;
		goto err_count;
	}
	if (ipv6_addr_v4mapped(addr))
		ctx_len = uet_tss_context(ctx, sa->epoch, SECDOM_REKEY,
					  (const u8 *)&addr->s6_addr32[3],
					  sizeof(addr->s6_addr32[3]));
	else
		ctx_len = uet_tss_context(ctx, sa->epoch, SECDOM_REKEY,
					  addr->s6_addr, sizeof(*addr));
	err = uet_tss_derive(sa->prf, UET_TSS_LABEL_CLUSTER, ctx, ctx_len,
			     out, sizeof(out));
	aead = err ? ERR_PTR(err) : uet_tss_aead_alloc(out);
	memcpy(src->mask, out + UET_TSS_KEY_LEN, UET_TSS_IV_LEN);
	memzero_explicit(out, sizeof(out));
	if (IS_ERR(aead)) {
		err = PTR_ERR(aead);
		kfree_sensitive(src);
		goto err_count;
	}
	src->aead = aead;
	src->addr = *addr;
	src->own = own;
	uet_tss_replay_init(&src->win);
	return src;
err_count:
	atomic_dec(sa->derived);
	return ERR_PTR(err);
}

/**
 * uet_tss_src_insert() - make a derived source's entry one of its key's
 * @sa: the key, held.
 * @src: from uet_tss_src_derive() on @sa.
 *
 * Context: any; takes @sa's lock with bottom halves off.
 * Return: 0; -EEXIST when the source has an entry, or -ENOSPC when @sa
 * has %UET_TSS_SOURCES_MAX other than the device's own: @src is then the
 * caller's still.
 */
int uet_tss_src_insert(struct uet_tss_sa *sa, struct uet_tss_src *src)
{
	struct hlist_head *head = sa_head(sa, &src->addr);
	int err = 0;

	spin_lock_bh(&sa->lock);
	if (sa_find(sa, head, &src->addr)) {
		err = -EEXIST;
	} else if (!src->own && sa->nsrcs >= UET_TSS_SOURCES_MAX) {
		err = -ENOSPC;
	} else {
		hlist_add_head(&src->node, head);
		sa->nsrcs += !src->own;
	}
	spin_unlock_bh(&sa->lock);
	return err;
}

/**
 * uet_tss_src_free() - free a source's entry
 * @sa: its key.
 * @src: the entry, in no key's sources, or in @sa's as it is freed.
 *
 * May sleep when the entry holds a derived key.
 */
void uet_tss_src_free(struct uet_tss_sa *sa, struct uet_tss_src *src)
{
	if (src->aead) {
		/* the crypto API clears the transform's key */
		crypto_free_aead(src->aead);
		atomic_dec(sa->derived);
	}
	kfree_sensitive(src);
}

/**
 * uet_tss_sa_replay() - check, and take, a packet's TSC in its source's
 *	window under a key
 * @sa: the key, reached under RCU.
 * @src: the packet's source address.
 * @tsc: its TSC.
 * @take: the packet opened: take the TSC (a source's first such packet
 *	gives it a window).  Else only check, before the packet is opened,
 *	so that a replay costs no decryption and a forgery moves nothing.
 *
 * Context: any; takes @sa's lock with bottom halves off.
 * Return: enum uet_tss_sa_replay.
 */
enum uet_tss_sa_replay
uet_tss_sa_replay(struct uet_tss_sa *sa, const struct in6_addr *src,
		  u64 tsc, bool take)
{
	struct hlist_head *head = sa_head(sa, src);
	struct uet_tss_src *s;
	enum uet_tss_sa_replay v = UET_TSS_SA_NEW;

	spin_lock_bh(&sa->lock);
	s = sa_find(sa, head, src);
	if (s) {
		if (uet_tss_replay_check(&s->win, tsc) != UET_TSS_REPLAY_NEW)
			v = UET_TSS_SA_REPLAY;
		else if (take)
			uet_tss_replay_take(&s->win, tsc);
	} else if (!tsc) {
		v = UET_TSS_SA_REPLAY;	/* never sent (tss.h) */
	} else if (take) {
		/* a cluster key's sources come with their keys (above) */
		s = sa->aead && sa->nsrcs < UET_TSS_SOURCES_MAX ?
		    kmalloc(sizeof(*s), GFP_ATOMIC) : NULL;
		if (s) {
			s->addr = *src;
			s->aead = NULL;
			s->own = false;
			uet_tss_replay_init(&s->win);
			uet_tss_replay_take(&s->win, tsc);
			hlist_add_head(&s->node, head);
			sa->nsrcs++;
		} else {
			v = UET_TSS_SA_FULL;
		}
	}
	spin_unlock_bh(&sa->lock);
	return v;
}

/* @id's job on @udev; the table's lock held. */
static struct uet_job *secdom_job(struct uet_dev *udev, u32 id,
				  struct netlink_ext_ack *extack)
{
	struct uet_job *job;

	lockdep_assert_held(&udev->jobs.lock);
	job = xa_load(&udev->jobs.xa, id);
	if (!job)
		NL_SET_ERR_MSG(extack, "No job with this ID on this device");
	return job;
}

static struct uet_tss_sa *secdom_sa(struct uet_dev *udev,
				    struct uet_secdom *sd, u8 an)
{
	return rcu_dereference_protected(sd->sa[an],
					 lockdep_is_held(&udev->jobs.lock));
}

/**
 * uet_secdom_key_add() - install a key in a job's secure domain
 * @udev: the device.
 * @job: the job's ID.
 * @cfg: the key, its AN (unused in the domain), mode and epoch.
 * @extack: where to say why the key was refused.
 *
 * The domain's first key, or a key at the AN the job seals with, seals
 * what the job sends; any other only opens until uet_secdom_key_use().
 * May sleep.
 *
 * Return: 0, -ENOENT for an unknown job, -EEXIST when @cfg->an holds a
 * key, -ENOSPC when the device's jobs hold %UET_KEYS_MAX keys, -EINVAL
 * for an all-zero key, -EOPNOTSUPP when the kernel has no AES-GCM or
 * CMAC, -ENOMEM, or another error of the crypto API.
 */
int uet_secdom_key_add(struct uet_dev *udev, u32 job,
		       const struct uet_tss_key_cfg *cfg,
		       struct netlink_ext_ack *extack)
{
	struct uet_secdom *sd;
	struct uet_tss_sa *sa;
	struct uet_job *j;
	int err = 0;

	if (!memchr_inv(cfg->key, 0, UET_KEY_LEN)) {
		NL_SET_ERR_MSG(extack, "An all-zero key is refused");
		return -EINVAL;
	}
	sa = sa_alloc(udev, cfg, extack);
	if (IS_ERR(sa))
		return PTR_ERR(sa);
	mutex_lock(&udev->jobs.lock);
	j = secdom_job(udev, job, extack);
	if (!j) {
		err = -ENOENT;
		goto out;
	}
	sd = &j->secdom;
	if (secdom_sa(udev, sd, cfg->an)) {
		NL_SET_ERR_MSG(extack, "This job has a key at this association number");
		err = -EEXIST;
		goto out;
	}
	if (udev->jobs.keys >= UET_KEYS_MAX) {
		NL_SET_ERR_MSG(extack, "Too many keys on this device");
		err = -ENOSPC;
		goto out;
	}
	if (!secdom_sa(udev, sd, READ_ONCE(sd->tx_an)))
		WRITE_ONCE(sd->tx_an, cfg->an);
	WRITE_ONCE(sd->secure, true);
	rcu_assign_pointer(sd->sa[cfg->an], sa);
	udev->jobs.keys++;
	sa = NULL;
out:
	mutex_unlock(&udev->jobs.lock);
	sa_free(sa);
	return err;
}

/**
 * uet_secdom_key_del() - remove a key from a job's secure domain
 * @udev: the device.
 * @job: the job's ID.
 * @an: the key's AN.
 * @extack: where to say why the key stays.
 *
 * The key the job seals with goes only when it is the domain's last;
 * the domain stays secure without keys.  Returns after a grace period,
 * the key's memory cleared.  May sleep.
 *
 * Return: 0, -ENOENT for an unknown job or an AN without a key, -EBUSY
 * for the sending key while another is installed.
 */
int uet_secdom_key_del(struct uet_dev *udev, u32 job, u8 an,
		       struct netlink_ext_ack *extack)
{
	struct uet_tss_sa *sa = NULL;
	struct uet_secdom *sd;
	struct uet_job *j;
	int err = 0;

	mutex_lock(&udev->jobs.lock);
	j = secdom_job(udev, job, extack);
	if (!j) {
		err = -ENOENT;
		goto out;
	}
	sd = &j->secdom;
	sa = secdom_sa(udev, sd, an);
	if (!sa) {
		NL_SET_ERR_MSG(extack, "This job has no key at this association number");
		err = -ENOENT;
	} else if (an == sd->tx_an && secdom_sa(udev, sd, !an)) {
		NL_SET_ERR_MSG(extack, "The job sends with this key: use the other first");
		err = -EBUSY;
		sa = NULL;
	} else {
		RCU_INIT_POINTER(sd->sa[an], NULL);
		udev->jobs.keys--;
	}
out:
	mutex_unlock(&udev->jobs.lock);
	if (!err) {
		/* outside the lock: a grace period holds up no other change */
		synchronize_rcu();
		sa_free(sa);
	}
	return err;
}

/**
 * uet_secdom_key_use() - make a key the one a job seals with
 * @udev: the device.
 * @job: the job's ID.
 * @an: the key's AN.
 * @extack: where to say why not.
 *
 * Return: 0, -ENOENT for an unknown job or an AN without a key.
 */
int uet_secdom_key_use(struct uet_dev *udev, u32 job, u8 an,
		       struct netlink_ext_ack *extack)
{
	struct uet_job *j;
	int err = 0;

	mutex_lock(&udev->jobs.lock);
	j = secdom_job(udev, job, extack);
	if (!j) {
		err = -ENOENT;
	} else if (!secdom_sa(udev, &j->secdom, an)) {
		NL_SET_ERR_MSG(extack, "This job has no key at this association number");
		err = -ENOENT;
	} else {
		WRITE_ONCE(j->secdom.tx_an, an);
	}
	mutex_unlock(&udev->jobs.lock);
	return err;
}

/**
 * uet_secdom_key_info() - describe a job's key, never its material
 * @job: the job, referenced.
 * @an: the key's AN.
 * @info: filled in.
 *
 * Any context.
 *
 * Return: whether the job has a key at @an.
 */
bool uet_secdom_key_info(struct uet_job *job, u8 an,
			 struct uet_tss_key_info *info)
{
	const struct uet_tss_sa *sa;

	rcu_read_lock();
	sa = rcu_dereference(job->secdom.sa[an]);
	if (sa) {
		info->mode = sa->mode;
		info->epoch = sa->epoch;
		info->tx = READ_ONCE(job->secdom.tx_an) == an;
	}
	rcu_read_unlock();
	return sa;
}

/**
 * uet_secdom_take() - take every key out of a deleted job's domain
 * @udev: the device, its job table locked.
 * @sd: the job's domain.
 * @sa: UET_TSS_AN_COUNT entries: the keys taken (or NULL), for
 *	uet_secdom_free() once the lock is dropped.
 *
 * Return: how many keys were taken.
 */
unsigned int uet_secdom_take(struct uet_dev *udev, struct uet_secdom *sd,
			     struct uet_tss_sa **sa)
{
	unsigned int n = 0;
	int an;

	for (an = 0; an < UET_TSS_AN_COUNT; an++) {
		sa[an] = secdom_sa(udev, sd, an);
		n += !!sa[an];
		RCU_INIT_POINTER(sd->sa[an], NULL);
	}
	udev->jobs.keys -= n;
	return n;
}

/**
 * uet_secdom_free() - free the keys uet_secdom_take() took
 * @sa: UET_TSS_AN_COUNT entries, each a key or NULL.
 * @readers: the engine may still be reading the domain: free the keys
 *	after a grace period.  Without, the device is going and nothing
 *	reads it (one grace period per job would make removing a device
 *	with many jobs take minutes).
 *
 * May sleep.
 */
void uet_secdom_free(struct uet_tss_sa **sa, bool readers)
{
	int an;

	for (an = 0; an < UET_TSS_AN_COUNT; an++)
		if (sa[an])
			break;
	if (an == UET_TSS_AN_COUNT)
		return;
	if (readers)
		synchronize_rcu();
	for (an = 0; an < UET_TSS_AN_COUNT; an++)
		sa_free(sa[an]);
}
