/* SPDX-License-Identifier: GPL-2.0 */
/*
 * uet secure domains: each job's transport security keys.  uet gives
 * every job a secure domain of its own (the default job's is the
 * device's), holding up to two keys by association number (AN), so that
 * a new key can be installed while the old one still opens what is in
 * flight.  Documentation/security.rst describes the model.
 */
#ifndef _UET_SECDOM_H
#define _UET_SECDOM_H

#include <linux/atomic.h>
#include <linux/in6.h>
#include <linux/netlink.h>
#include <linux/rcupdate.h>
#include <linux/spinlock.h>
#include <linux/types.h>
#include <uapi/linux/uet_netlink.h>

#include "tss.h"

struct crypto_aead;
struct crypto_shash;
struct uet_dev;
struct uet_job;

/* Keys per domain: the TSS header's AN is one bit. */
#define UET_TSS_AN_COUNT	(UET_KEY_AN_MAX + 1)

/*
 * The sources whose replay windows a key keeps (struct uet_tss_src), at
 * most: a window is 264 bytes, and only a packet that opened under the
 * key makes one, so only the domain's members can add them.  A source
 * beyond the bound is refused (counted), never given a window another
 * source had: a window forgotten would take its replays again.
 */
#define UET_TSS_SOURCES_MAX	1024
#define UET_TSS_SOURCE_BITS	6	/* buckets of a key's sources: 64 */

/*
 * The keys a device's cluster keys may have derived for sources, at most:
 * each a GCM transform of a few KiB, which the crypto API allocates
 * outside the caller's memory cgroup.  Beyond it, a new source's packets
 * are refused as a source beyond the windows is (drop_tss_sources).
 */
#define UET_TSS_DERIVED_MAX	8192

/**
 * struct uet_tss_src - one source under one key
 * @node: in its key's @srcs.
 * @addr: the source's address, IPv4 as IPv4-mapped IPv6.
 * @win: the TSC values taken from it.
 * @aead: under a cluster key: the key derived for the source, which it
 *	seals with; %NULL under a direct key.
 * @mask: ... and the nonce mask derived with it.
 * @own: @addr is the sending device's own (uet_tss_src_derive()).
 *
 * But for @win, constant once in its key's @srcs, where it stays until
 * the key is freed.
 */
struct uet_tss_src {
	struct hlist_node node;
	struct in6_addr addr;
	struct uet_tss_replay win;
	struct crypto_aead *aead;
	u8 mask[UET_TSS_IV_LEN];
	bool own;
};

/**
 * struct uet_tss_sa - one key of a secure domain, ready for use
 * @aead: %UET_KEY_MODE_DIRECT: seals and opens the domain's packets.
 * @prf: %UET_KEY_MODE_CLUSTER: derives each source's key.
 * @epoch: the key's epoch.
 * @mode: enum uet_key_mode.
 * @derived: the device's count of derived keys (struct uet_jobs).
 * @tx_count: the count of the last TSC sealed under the key (the first
 *	is 1), %UET_TSS_TSC_COUNT at most.
 * @async: requests under way asynchronously with @aead: the key is freed
 *	once none is left (uet_secdom_key_del()).
 * @lock: guards @srcs and @nsrcs.
 * @srcs: struct uet_tss_src, by source: a direct key's sources that
 *	opened a packet, a cluster key's whose key it derived (the
 *	device's own addresses, and sources one of whose packets opened).
 * @nsrcs: how many but the device's own, %UET_TSS_SOURCES_MAX at most.
 *
 * But for the counts and the windows, constant once published; the
 * transforms hold the only copies of the key, and free them cleared.
 */
struct uet_tss_sa {
	struct crypto_aead *aead;
	struct crypto_shash *prf;
	u16 epoch;
	u8 mode;
	atomic_t *derived;
	atomic64_t tx_count;
	atomic_t async;
	spinlock_t lock;	/* see above */
	struct hlist_head srcs[1 << UET_TSS_SOURCE_BITS];
	u32 nsrcs;
};

/* What uet_tss_sa_replay() says of a packet's TSC. */
enum uet_tss_sa_replay {
	UET_TSS_SA_NEW,		/* never taken: taken now */
	UET_TSS_SA_REPLAY,	/* taken before, or too old to tell */
	UET_TSS_SA_FULL,	/* a new source, and no room for its window */
};

/**
 * struct uet_secdom - a job's secure domain
 * @sa: its keys by AN.  Changed under the device's job table lock
 *	(struct uet_jobs), read under RCU; a key taken out is freed after
 *	a grace period.
 * @tx_an: the AN of the key the job seals with.
 * @secure: set by the domain's first key, for the job's life: from then
 *	on the job's packets are never clear, whatever keys it has left.
 */
struct uet_secdom {
	struct uet_tss_sa __rcu *sa[UET_TSS_AN_COUNT];
	u8 tx_an;
	bool secure;
};

/**
 * struct uet_tss_key_cfg - a key being installed
 * @an: its association number.
 * @mode: enum uet_key_mode.
 * @epoch: its epoch.
 * @key: UET_KEY_LEN bytes, not kept: the caller wipes them.
 */
struct uet_tss_key_cfg {
	u8 an;
	u8 mode;
	u16 epoch;
	const u8 *key;
};

/**
 * struct uet_tss_key_info - what may be told of an installed key
 * @mode: enum uet_key_mode.
 * @epoch: its epoch.
 * @tx: the job seals with it.
 */
struct uet_tss_key_info {
	u8 mode;
	u16 epoch;
	bool tx;
};

int uet_secdom_key_add(struct uet_dev *udev, u32 job,
		       const struct uet_tss_key_cfg *cfg,
		       struct netlink_ext_ack *extack);
int uet_secdom_key_del(struct uet_dev *udev, u32 job, u8 an,
		       struct netlink_ext_ack *extack);
int uet_secdom_key_use(struct uet_dev *udev, u32 job, u8 an,
		       struct netlink_ext_ack *extack);
bool uet_secdom_key_info(struct uet_job *job, u8 an,
			 struct uet_tss_key_info *info);
enum uet_tss_sa_replay
uet_tss_sa_replay(struct uet_tss_sa *sa, const struct in6_addr *src,
		  u64 tsc, bool take);
struct uet_tss_src *uet_tss_sa_src(struct uet_tss_sa *sa,
				   const struct in6_addr *addr);
struct uet_tss_src *uet_tss_src_derive(struct uet_tss_sa *sa,
				       const struct in6_addr *addr, bool own);
int uet_tss_src_insert(struct uet_tss_sa *sa, struct uet_tss_src *src);
void uet_tss_src_free(struct uet_tss_sa *sa, struct uet_tss_src *src);
unsigned int uet_secdom_take(struct uet_dev *udev, struct uet_secdom *sd,
			     struct uet_tss_sa **sa);
void uet_secdom_free(struct uet_tss_sa **sa, bool readers);

#endif /* _UET_SECDOM_H */
