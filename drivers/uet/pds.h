/* SPDX-License-Identifier: GPL-2.0 */
/*
 * uet PDS manager: the packet delivery contexts (PDCs) of a device, how
 * packets find them, and the timers and queues that drive the reliability
 * core (pdc.c) for each.
 */
#ifndef _UET_PDS_H
#define _UET_PDS_H

#include <linux/bitfield.h>
#include <linux/hashtable.h>
#include <linux/hrtimer.h>
#include <linux/seq_file.h>
#include <linux/in6.h>
#include <linux/log2.h>
#include <linux/ratelimit.h>
#include <linux/rhashtable-types.h>
#include <linux/skbuff.h>
#include <linux/spinlock.h>
#include <linux/workqueue.h>
#include <linux/xarray.h>
#include <net/dst_cache.h>

#include "lb.h"
#include "nscc.h"
#include "rccc.h"
#include "pdc.h"
#include "sched.h"
#include "ra.h"
#include "tss.h"
#include "wheel.h"

struct uet_dev;

/*
 * Headroom of a request skb (uet_pds_send(), uet_ses_build_req()): link
 * layer, IPv6, UDP, the longest TSS header and the longest PDS request
 * header.
 */
#define UET_PDS_HEADROOM	(LL_MAX_HEADER + sizeof(struct ipv6hdr) + \
				 sizeof(struct udphdr) + \
				 sizeof(struct uet_tss_hdr_ssi) + \
				 UET_PDS_REQ_MAX_LEN)
/* Tailroom of the skbs of requests and ACKs: the ICV, when sealed. */
#define UET_PDS_TAILROOM	UET_TSS_ICV_LEN

/*
 * Requests a PDC has in flight at most, until congestion control sizes
 * its window: half the 1000 packets of Linux's default receive backlog
 * (netdev_max_backlog) and transmit queue (txqueuelen), so that one PDC
 * cannot overrun either on its own (measured with the whole tracking
 * window of 1024 in flight: 345 drops in 32 MiB between two namespaces).
 * A device's RUDI requests have the same bound, for the same reason; the
 * requests of further messages wait, as descriptors, for a slot.
 */
#define UET_PDS_INFLIGHT_MAX	512

/**
 * struct uet_pds_key - what selects an initiator's PDC (design decision 5)
 * @raddr: the target's fabric address; IPv4 as IPv4-mapped IPv6.
 * @job: the job both endpoints belong to.
 * @tc: traffic class.
 * @mode: enum uet_pdc_mode.
 * @cc: the job's congestion control (struct uet_job_cfg): enum uet_cc
 *	plus one; %UET_PDS_CC_DEVICE, the device's.  Not part of the
 *	lookup: a job's PDCs keep the cc they were made with.
 * @lb: the job's load balancing, as uet_pds_lb_key() packs it; 0 the
 *	device's.  Not part of the lookup either.
 */
struct uet_pds_key {
	struct in6_addr raddr;
	u32 job;
	u8 tc;
	u8 mode;
	u8 cc;
	u8 lb;
};

/*
 * A key's load balancing in one byte: the job's mode plus one in the low
 * bits, and the base-2 logarithm of its set of entropies plus one above;
 * either 0 for the device's.
 */
#define UET_PDS_LB_MODE		GENMASK(1, 0)
#define UET_PDS_LB_SHIFT	GENMASK(5, 2)

/**
 * uet_pds_lb_key() - pack a job's load balancing into a key's @lb
 * @lb: enum uet_lb_mode plus one; 0, the device's
 * @paths: the set of entropies; 0, the device's
 *
 * Return: the key's byte.
 */
static inline u8 uet_pds_lb_key(u8 lb, u32 paths)
{
	return FIELD_PREP(UET_PDS_LB_MODE, lb) |
	       FIELD_PREP(UET_PDS_LB_SHIFT, paths ? ilog2(paths) + 1 : 0);
}

/* A key's or a job's congestion control: the device's (zero). */
#define UET_PDS_CC_DEVICE	0

/**
 * struct uet_pds_src - the target PDCs of one peer address
 * @node: in the device's table of sources.
 * @addr: the address; IPv4 as IPv4-mapped IPv6.
 * @pdcs: how many target PDCs it has.
 *
 * Under the device's struct uet_pds.lock; freed with its last PDC.
 */
struct uet_pds_src {
	struct hlist_node node;
	struct in6_addr addr;
	u32 pdcs;
};

/*
 * The congestion contexts' table: as many buckets as a thousand paths
 * need, 8 KiB a device; a context per PDC at the most (65535).
 */
#define UET_PDS_CCX_HASH_BITS	10

/**
 * struct uet_pds_ccx - a congestion context (pds_ccx.c)
 * @node: in the device's @ccxs ...
 * @ref: ... and referenced by the live state of this many PDCs, both
 *	under the device's @ccx_lock.
 * @id: the device's number for it, for uetctl (it wraps).
 * @raddr: the peer ...
 * @tc: ... and traffic class of its path ...
 * @cfg: ... and NSCC's configuration, whose @gains point to ...
 * @gains: ... these: what PDCs must have alike to share it.
 * @lock: protects the fields below.
 * @cc: the window.
 * @sending: the PDCs with requests in flight in it.
 */
struct uet_pds_ccx {
	struct hlist_node node;
	u32 ref;
	u32 id;
	struct in6_addr raddr;
	u8 tc;
	struct uet_nscc_cfg cfg;
	struct uet_nscc_gains gains;

	spinlock_t lock;	/* see above */
	struct uet_nscc cc;
	u32 sending;
};

/**
 * struct uet_pds_live - what a PDC holds only while traffic flows
 * @pdc: its PDC.
 * @core: the reliability core: state machine and windows.
 * @sched: initiator: what it has to send, and what each PSN in flight
 *	carries; a target's has no table.
 * @timer: an initiator's tail probe or retransmission timeout; a
 *	target's delayed ACK.
 * @out: packets built, to leave once the lock is let go (pdc_unlock()) ...
 * @xmitting: ... by the one context sending them, if set, ...
 * @sent: ... which has sent a batch of them before; ...
 * @dst_cache: ... with the route of this PDC's packets and their source
 *	address, used outside the lock by that context alone: per CPU, so
 *	only while the PDC sends, ...
 * @dst_cached: ... made by its second batch (pdc_unlock()) and freed
 *	with the live state, or once the PDC is quiet (pdc_dst_release()).
 * @rsp_msg_id: target: the SES response of the next ACK: message ID ...
 * @rsp_rc: ... and return code.
 * @nacked_cack: target, ROD: the CACK PSN of the last NACK sent, ...
 * @nacked_valid: ... if one was.
 * @ccx: initiator: its congestion context (pds_ccx.c), whose window it
 *	sends within if @cc_on, whose base RTT and ceiling RCCC uses; %NULL
 *	with neither ...
 * @ccx_bytes: ... and what it has in flight in that window.
 * @cc_gen: the device's @cc_gen when it took its congestion control.
 * @cc_on: the job's or device's congestion control has NSCC.
 * @credit: initiator: the credit receivers grant (rccc.c) ...
 * @rccc_on: ... if the device's congestion control has RCCC.
 * @lb: initiator: the entropies its requests leave with (lb.c).
 * @rx_entropy: target: the entropy its ACKs and NACKs leave with: the
 *	last request's, its PDC's until a request comes.
 * @rx_psn: target: the last request taken, ...
 * @rx_at: ... when it came (ns): its ACK says how long it waited ...
 * @rcvd_bytes: ... and, with the payload bytes taken so far, what the
 *	ACK_CC's NSCC fields carry (pdc_send_ack()).
 * @ra_floor: initiator: its job's or device's ra-floor-mbps, taken with
 *	its congestion control (@cc_gen): 0, it takes no advice; else ...
 * @ra: ... the cap rate advice sets (pds_ra.c), which keeps the
 *	live state while it holds ...
 * @ra_at: ... the time its last advice came (ns) ...
 * @pace: ... and the timer that sends again once the cap lets it.
 *
 * Under the PDC's lock.  A PDC gets one with its first packet either way
 * (pdc_wake()); the scanner frees it once the PDC is quiet, keeping what
 * the core needs in the PDC (pdc_sleep()).
 */
struct uet_pds_live {
	struct uet_pds_pdc *pdc;
	struct uet_pdc core;
	struct uet_sched sched;
	struct hrtimer timer;
	struct sk_buff_head out;
	bool xmitting;
	bool sent;
	bool dst_cached;
	bool nacked_valid;
	u8 rsp_rc;
	u16 rsp_msg_id;
	u32 nacked_cack;
	struct dst_cache dst_cache;
	struct uet_pds_ccx *ccx;
	u32 ccx_bytes;
	u32 cc_gen;
	bool cc_on;
	struct uet_rccc_tx credit;
	bool rccc_on;
	struct uet_lb lb;
	u16 rx_entropy;
	u32 rx_psn;
	u64 rx_at;
	u32 rcvd_bytes;
	u32 ra_floor;
	struct uet_ra ra;
	u64 ra_at;
	struct hrtimer pace;
};

/**
 * struct uet_pds_pdc - one PDC of a device
 * @udev: the device.
 * @ref: references: the tables' one, and one per user outside a lock.
 * @lpdcid: our PDC identifier, what the peer's packets carry as DPDCID.
 * @entropy: the UDP source port entropy of this PDC's packets.
 * @node: in the device's initiator table (by @key) or target table (by
 *	@key.raddr and @rpdcid), until taken out (pdc_unhash()).
 * @key: the initiator's lookup key; a target fills in @key.raddr,
 *	@key.mode, and @key.job when @sealed.
 * @src: a target's entry in the table of sources.
 * @initiator: made by a local send, or else by a peer's SYN.
 * @reserved: drawn from the reserved pool (struct uet_dev_cfg).
 * @sealed: a target made by a SYN that opened under job @key.job's
 *	secure domain: it takes only packets opened so, and its own leave
 *	sealed so; without, only clear ones, and its own leave clear.
 *	(An initiator's packets are its job's: sealed while the job is
 *	secure.)
 * @lock: protects @rpdcid, everything below it, and @live.
 * @rpdcid_known: initiator: @rpdcid was learned (a target's is known
 *	from the start) ...
 * @rpdcid: ... the peer's PDC identifier: a target's from the SYN that
 *	created it, an initiator's from the first valid ACK.
 * @dead: torn down: timers must not rearm, nothing new is queued, no
 *	@live comes, and any it has is the teardown's alone (the last
 *	reference frees it, which a holder of the lock alone, a dump, does
 *	not stop: pdc_core()).
 * @close_wanted: initiator: close once drained (idle, or asked to).
 * @reclaim: closed, cleanly or in error: the scanner reclaims it.
 * @start_psn: the PDC's first PSN.
 * @last_active: jiffies of the last request or ACK, sent or received.
 * @live: while traffic flows, the core, timer and queues; else %NULL,
 *	and ...
 * @saved: ... what the core keeps while it is quiet.
 * @pull: initiator: the credit its peer granted, as it last heard it
 *	(struct uet_rccc_tx), kept while it is quiet; ...
 * @credit_rx: ... a target: what it asked for and was granted, under the
 *	device's @credit_lock.
 * @tx_wait: initiator: in the device's @tx_waiting while the qdisc holds
 *	too much to send more (struct uet_pds's @tx_lock) ...
 * @crediting: target: in the device's @crediting while it is owed
 *	credit (@credit_lock) ...
 * @rcu: ... and, once the PDC is unreferenced (never waiting then), what
 *	frees it after the readers that found it in a table.
 * @idle: on the device's wheel, due when the scanner is to look at the
 *	PDC next (struct uet_pds's @wheel_lock).
 */
struct uet_pds_pdc {
	struct uet_dev *udev;
	refcount_t ref;
	u16 lpdcid;
	u16 entropy;
	struct rhash_head node;
	struct uet_pds_key key;
	struct uet_pds_src *src;
	bool initiator;
	bool reserved;
	bool sealed;
	u16 rpdcid;

	spinlock_t lock;	/* see above */
	bool rpdcid_known;
	bool dead;
	bool close_wanted;
	bool reclaim;
	u32 start_psn;
	unsigned long last_active;
	struct uet_pds_live *live;
	struct uet_pdc_saved saved;
	union {
		u32 pull;
		struct uet_rccc_rx credit_rx;
	};
	union {
		struct list_head tx_wait;
		struct list_head crediting;
		struct rcu_head rcu;
	};
	struct uet_wheel_entry idle;
};

/**
 * struct uet_pds - the PDS state of a device
 * @lock: serialises the making of PDCs (so that two for one key are
 *	not made at once), the pools' counts and @srcs.
 * @ini: initiator PDCs by struct uet_pds_key; readers use RCU.
 * @tgt: target PDCs by peer address and peer PDCID; readers use RCU.
 * @srcs: struct uet_pds_src by peer address.
 * @seed: the random seed of the hash of @srcs.
 * @answers: bounds the answers to packets that no PDC takes (pds_pdc.c).
 * @pdcs: every PDC by local PDCID.
 * @general: PDCs drawn from the general pool, under @lock ...
 * @reserved: ... and from the reserved pool.
 * @scan: closes idle PDCs and reclaims closed ones (pds.c), each when
 *	it falls due on @wheel.
 * @wheel_lock: protects @wheel and the PDCs' entries on it; taken inside
 *	a PDC's lock and @lock, never around them.
 * @wheel: every PDC of the device, by the tick of UET_PDS_SCAN_MS it is
 *	to be looked at next (pds.c).
 * @tx_lock: protects @tx_waiting.
 * @tx_waiting: initiator PDCs that stopped while the qdiscs and drivers
 *	held too much (uet_socket_tx_full()), oldest first, each referenced.
 * @tx_work: sends for them in turn once the qdiscs have drained
 *	(uet_pds_tx_resume()).
 * @ccx_lock: protects @ccxs, @ccx_ids and the contexts' @ref; taken
 *	inside a PDC's lock, never around it.
 * @ccxs: the congestion contexts by peer and traffic class.
 * @ccx_ids: the @id of the last context made.
 * @credit_lock: protects @crediting, @credit_armed and the target PDCs'
 *	@credit_rx; taken inside a PDC's lock, never around it.
 * @crediting: target PDCs owed credit, each referenced, the next to get
 *	its turn first (pds_credit.c).
 * @credit_timer: hands out credit in turns, at the pace of the link ...
 * @credit_armed: ... while set, which it is while @crediting is not
 *	empty.
 * @credit_at: ns (ktime_get_ns()): when the link will have drained all
 *	the credit granted, the time of the next turn.
 */
struct uet_pds {
	spinlock_t lock;	/* see above */
	struct rhashtable ini;
	struct rhashtable tgt;
	DECLARE_HASHTABLE(srcs, 8);
	u32 seed;
	struct ratelimit_state answers;
	struct xarray pdcs;
	u32 general;
	u32 reserved;
	struct delayed_work scan;
	spinlock_t wheel_lock;	/* see above */
	struct uet_wheel wheel;
	spinlock_t tx_lock;	/* see above */
	struct list_head tx_waiting;
	struct work_struct tx_work;
	spinlock_t ccx_lock;	/* see above */
	DECLARE_HASHTABLE(ccxs, UET_PDS_CCX_HASH_BITS);
	u32 ccx_ids;
	spinlock_t credit_lock;	/* see above */
	struct list_head crediting;
	struct hrtimer credit_timer;
	bool credit_armed;
	u64 credit_at;
};

/**
 * struct uet_rudi - a device's RUDI requests (rudi.c)
 * @lock: protects the fields below.
 * @reqs: struct uet_rudi_req in flight, by packet ID.
 * @paths: struct uet_rudi_path, by target, traffic class and job.
 * @ready: the paths with messages queued, in turn.
 * @inflight: requests in @reqs, at most %UET_PDS_INFLIGHT_MAX.
 * @due: struct uet_rudi_req whose RTO expired, to be resent, in the order
 *	they expired.
 * @rtt: the round trips of RUDI requests to any peer (RFC 6298).
 * @backoff: timeouts in a row, as the table counts them: each doubles the
 *	RTO of what it sends next, until a round trip is measured.
 * @backoff_at: when @backoff last grew, ns: only a request sent since
 *	then makes it grow again.
 * @next_id: the next packet ID.
 * @live: false once the device is going away: nothing new is sent.
 * @tx_wait: it waits for the qdiscs to drain (uet_rudi_tx_resume()).
 * @work: sends what the table has to send, a burst at a time, in process
 *	context: resends due and requests to cut beyond one event's burst.
 */
struct uet_rudi {
	spinlock_t lock;	/* see above */
	DECLARE_HASHTABLE(reqs, 6);
	DECLARE_HASHTABLE(paths, 4);
	struct list_head ready;
	u32 inflight;
	struct list_head due;
	struct uet_pdc_rtt rtt;
	u8 backoff;
	u64 backoff_at;
	u32 next_id;
	bool live;
	atomic_t tx_wait;
	struct work_struct work;
};

int uet_pds_cache_init(void);
void uet_pds_cache_exit(void);
int uet_pds_init(struct uet_dev *udev);
void uet_pds_fini(struct uet_dev *udev);
int uet_pds_send(struct uet_dev *udev, const struct uet_pds_key *key,
		 struct sk_buff *skb);
void uet_pds_rcv(struct uet_dev *udev, struct sk_buff *skb,
		 const struct in6_addr *saddr, u16 entropy, bool ce);
int uet_pds_show(struct seq_file *m, struct uet_dev *udev);
void uet_pds_tx_resume(struct uet_dev *udev);
int uet_pds_close(struct uet_dev *udev, u16 lpdcid);
void uet_pds_idle_changed(struct uet_dev *udev);
int uet_pds_send_msg(struct uet_dev *udev, const struct uet_pds_key *key,
		     struct uet_pds_msg *msg);
bool uet_pds_cancel(struct uet_dev *udev, struct uet_pds_msg *msg);

/* rudi.c */
struct uet_pds_hdr_info;
void uet_rudi_send_msg(struct uet_dev *udev, const struct uet_pds_key *key,
		       struct uet_pds_msg *msg);
void uet_rudi_rcv(struct uet_dev *udev, struct sk_buff *skb,
		  const struct uet_pds_hdr_info *h, const struct in6_addr *saddr,
		  bool ce);
void uet_rudi_cancel(struct uet_dev *udev, struct uet_pds_msg *msg);
int uet_rudi_show(struct seq_file *m, struct uet_dev *udev);
void uet_rudi_init(struct uet_dev *udev);
void uet_rudi_fini(struct uet_dev *udev);
void uet_rudi_tx_resume(struct uet_dev *udev);

/**
 * struct uet_pdc_info - a snapshot of one PDC, for the control plane
 * @peer: the peer's fabric address.
 * @job: the job of an initiator PDC (0 for a target).
 * @lpdcid: our PDC identifier ...
 * @rpdcid: ... and the peer's, 0 until known.
 * @state: enum uet_pdc_state.
 * @mode: enum uet_pdc_mode.
 * @tc: traffic class.
 * @initiator: created by a local send.
 * @tx_una: oldest PSN not acknowledged ...
 * @tx_nxt: ... and the next PSN to send.
 * @rx_cack: cumulatively acknowledged PSN of the receive side.
 * @in_flight: PSNs sent and not acknowledged.
 * @srtt_ns: smoothed RTT, 0 before the first sample.
 * @rto_ns: current retransmission timeout.
 * @retransmits: retransmitted PSNs.
 * @timeouts: retransmission timer expiries.
 * @cc_on: an initiator with NSCC, sending: @cc holds its window.
 * @cc: its context's congestion window, as it stands ...
 * @ccx_id: ... that context's number ...
 * @ccx_pdcs: ... and how many PDCs share it.
 * @rccc_on: an initiator with RCCC, sending: @credit holds its credit,
 *	bytes ...
 * @rccc_asked: ... or a target whose initiator asked for credit; either
 *	way, @credit_granted and @credit_wanted hold the counts, quanta.
 * @credit: see @rccc_on.
 * @credit_granted: the credit granted (as an initiator heard it).
 * @credit_wanted: the credit asked for (as a target heard it).
 * @ra_cap_mbps: an initiator under rate advice, sending: the rate it
 *	keeps to, Mbit/s; 0 without ...
 * @ra_advised_mbps: ... the last advice, Mbit/s ...
 * @ra_age_ms: ... and how long ago it came.
 */
struct uet_pdc_info {
	struct in6_addr peer;
	u32 job;
	u16 lpdcid;
	u16 rpdcid;
	u8 state;
	u8 mode;
	u8 tc;
	bool initiator;
	u32 tx_una;
	u32 tx_nxt;
	u32 rx_cack;
	u32 in_flight;
	u64 srtt_ns;
	u64 rto_ns;
	u64 retransmits;
	u64 timeouts;
	bool cc_on;
	struct uet_nscc cc;
	u32 ccx_id;
	u32 ccx_pdcs;
	bool rccc_on;
	s32 credit;
	bool rccc_asked;
	u32 credit_granted;
	u32 credit_wanted;
	u32 ra_cap_mbps;
	u32 ra_advised_mbps;
	u32 ra_age_ms;
};

typedef int (*uet_pds_info_fn)(const struct uet_pdc_info *info, void *arg);
int uet_pds_dump(struct uet_dev *udev, unsigned long *pos, uet_pds_info_fn fn,
		 void *arg);
u32 uet_pds_count(struct uet_dev *udev);

/**
 * struct uet_pds_events - the control plane's hook at a PDC's start and end
 * @wanted: whether anyone listens for @udev's PDC events; only then is
 *	@pdc called
 * @pdc: a PDC of @udev was made (@added) or went back to its pool; @info
 *	holds its identity only, the fields from @peer to @initiator
 *
 * The PDS engine's one call up to the control plane.  Both are called in
 * any context, from softirqs and under the engine's locks, within an RCU
 * read-side section: they must not sleep nor call into the engine.
 */
struct uet_pds_events {
	bool (*wanted)(struct uet_dev *udev);
	void (*pdc)(struct uet_dev *udev, const struct uet_pdc_info *info,
		    bool added);
};

void uet_pds_set_events(const struct uet_pds_events *ev);

#endif /* _UET_PDS_H */
