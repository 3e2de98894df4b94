/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * libuet: the userspace control API of uet, the Ultra Ethernet Transport
 * software RDMA device.
 */
#ifndef LIBUET_H
#define LIBUET_H

#include <stddef.h>
#include <stdint.h>
#include <linux/uet_netlink.h>

#ifdef __cplusplus
extern "C" {
#endif

#define UET_NAME_MAX 64

/* One uet device, as the RDMA core shows it. */
struct uet_dev_info {
	char name[UET_NAME_MAX];	/* RDMA device name, e.g. "uet0" */
	char netdev[UET_NAME_MAX];	/* the netdev it runs over */
	char node_guid[20];		/* "xxxx:xxxx:xxxx:xxxx" */
	char state[32];			/* port state, e.g. "ACTIVE" */
};

/* The library's version, "MAJOR.MINOR.PATCH". */
const char *uet_version(void);

/*
 * Fill @devs (room for @max entries) with the uet devices of this host and
 * return how many there are (which may exceed @max), or -errno.
 */
int uet_dev_list(struct uet_dev_info *devs, size_t max);

/*
 * The control plane: the generic netlink family "uet".  Every function
 * returns 0 or a negative errno; after a failure the kernel's own
 * explanation, when it gave one, is uet_nl_errmsg().  Devices are those of
 * the caller's network namespace.  Enum values are those of
 * <linux/uet_netlink.h>.
 */
struct uet_nl;

/* Open a netlink socket to the uet family: NULL and errno on failure. */
struct uet_nl *uet_nl_open(void);
void uet_nl_close(struct uet_nl *nl);
/* The kernel's message about the last failed request, or "". */
const char *uet_nl_errmsg(const struct uet_nl *nl);

/*
 * NSCC's parameters (Documentation/congestion.rst), a device's or a
 * job's: the index of each in the @nscc of struct uet_dev_attrs and
 * struct uet_job_attrs, present when its attribute, uet_nscc_attr(), is.
 */
enum uet_nscc_param {
	UET_NSCC_TARGET_US,
	UET_NSCC_BASE_RTT_US,
	UET_NSCC_BDP,
	UET_NSCC_MTU,
	UET_NSCC_FI_PCT,
	UET_NSCC_ALPHA_PCT,
	UET_NSCC_ETA_PCT,
	UET_NSCC_MD_PCT,
	UET_NSCC_IGNORE_PCT,
	UET_NSCC_PARAMS
};

/* A device.  @present: bit n set when attribute n (UET_A_DEV_*) is set. */
struct uet_dev_attrs {
	uint64_t present;
	char name[UET_NAME_MAX];
	char netdev[UET_NAME_MAX];
	uint32_t ifindex;
	uint8_t rc_mode;
	uint32_t max_payload;
	uint32_t ack_delay_us;
	uint32_t pdc_pool;
	uint32_t pdc_reserved;
	uint32_t pdc_per_source;
	uint32_t rto_min_us;
	uint32_t rto_max_us;
	uint32_t rto_init_us;
	uint32_t pdc_idle_ms;
	uint8_t profile;
	uint32_t jobs;
	uint32_t pdcs;
	uint64_t tx_packets, tx_bytes, rx_packets, rx_bytes;
	uint8_t cc;
	uint32_t nscc[UET_NSCC_PARAMS];
	uint32_t link_mbps;
	uint8_t tc_dscp[UET_TC_MAX + 1];
	uint8_t ctl_tc;
	/* enum uet_lb_mode */
	uint8_t lb;
	uint32_t lb_paths;
	/* the secure source identifier, 0 for none */
	uint32_t ssi;
	/* the UDP port it receives on and sends to */
	uint16_t udp_port;
	/* enum uet_encap: how its packets leave: over UDP, directly over IP */
	uint8_t encap;
	/* rate advice: 0, none taken; else the lowest cap advice sets, Mbit/s */
	uint32_t ra_floor_mbps;
};

/*
 * A job.  @present: bit n set when attribute n (UET_A_JOB_*) is set;
 * UET_A_JOB_SECURE, a flag, only so.
 */
struct uet_job_attrs {
	uint64_t present;
	char dev[UET_NAME_MAX];
	uint32_t id;
	uint8_t addr_mode;
	uint16_t pid_lo, pid_hi;
	uint8_t tc;
	uint8_t mode;
	/* enum uet_cc; absent (UET_HAS), the device's */
	uint8_t cc;
	/* each absent, the device's */
	uint32_t nscc[UET_NSCC_PARAMS];
	/* enum uet_lb_mode; absent, the device's */
	uint8_t lb;
	/* entropies sprayed over; absent, the device's */
	uint32_t lb_paths;
	/* rate advice: 0, none taken; else the lowest cap, Mbit/s; absent,
	 * the device's */
	uint32_t ra_floor_mbps;
	uint64_t tx_packets, tx_bytes, rx_packets, rx_bytes, errors;
};

/* A profile; @dev is empty for an entry of the profile table. */
struct uet_profile_attrs {
	uint64_t present;
	char dev[UET_NAME_MAX];
	uint8_t id;
	uint32_t features;
};

/* A PDC. */
struct uet_pdc_attrs {
	uint64_t present;
	char dev[UET_NAME_MAX];
	uint16_t lpdcid, rpdcid;
	uint8_t state, mode, tc;
	int initiator;
	uint32_t job;
	uint8_t peer[16];
	uint32_t tx_una, tx_nxt, rx_cack, in_flight, srtt_us, rto_us;
	uint64_t retransmits, timeouts;
	/* an initiator with NSCC, while it sends (UET_HAS(p, UET_A_PDC_CWND)) */
	uint32_t cwnd, cwnd_max, cc_in_flight, base_rtt_us, delay_us;
	uint32_t ecn_echoes, cc_cuts, quick_adapts;
	/* the congestion context of that window, and the PDCs sharing it */
	uint32_t cc_context, cc_pdcs;
	/*
	 * RCCC: an initiator's credit while it sends (UET_HAS(p,
	 * UET_A_PDC_CREDIT)); an initiator's or an asked target's counts
	 * (UET_HAS(p, UET_A_PDC_CREDIT_GRANTED)), 256-byte quanta
	 */
	int32_t credit;
	uint32_t credit_granted, credit_wanted;
	/*
	 * Rate advice: an initiator's cap while one holds (UET_HAS(p,
	 * UET_A_PDC_RA_CAP_MBPS)), the last advice and its age
	 */
	uint32_t ra_cap_mbps, ra_advised_mbps, ra_age_ms;
};

/*
 * A transport security key of a job's secure domain.  The kernel never
 * returns @key: it is filled only for uet_nl_key_add(), whose caller
 * wipes it.
 */
struct uet_key_attrs {
	uint64_t present;
	char dev[UET_NAME_MAX];
	uint32_t job;
	uint8_t an;
	uint8_t key[UET_KEY_LEN];
	uint16_t epoch;
	/* enum uet_key_mode */
	uint8_t mode;
	/* the job seals with this key */
	uint8_t tx;
};

/* One counter of a device or of a job. */
struct uet_counter_attrs {
	char dev[UET_NAME_MAX];
	int has_job;
	uint32_t job;
	char name[UET_NAME_MAX];
	uint64_t value;
};

#define UET_HAS(obj, attr)	(((obj)->present >> (attr)) & 1)
#define UET_SET(obj, attr)	((obj)->present |= 1ULL << (attr))

/* Dump callbacks: a non-zero return stops the dump and is returned. */
typedef int (*uet_dev_fn)(const struct uet_dev_attrs *d, void *arg);
typedef int (*uet_job_fn)(const struct uet_job_attrs *j, void *arg);
typedef int (*uet_profile_fn)(const struct uet_profile_attrs *p, void *arg);
typedef int (*uet_pdc_fn)(const struct uet_pdc_attrs *p, void *arg);
typedef int (*uet_counter_fn)(const struct uet_counter_attrs *c, void *arg);
typedef int (*uet_key_fn)(const struct uet_key_attrs *k, void *arg);

int uet_nl_dev_get(struct uet_nl *nl, const char *name, struct uet_dev_attrs *out);
int uet_nl_dev_dump(struct uet_nl *nl, uet_dev_fn fn, void *arg);
/* Change the settings @set has present (name required). */
int uet_nl_dev_set(struct uet_nl *nl, const struct uet_dev_attrs *set);

int uet_nl_job_add(struct uet_nl *nl, const struct uet_job_attrs *job);
int uet_nl_job_del(struct uet_nl *nl, const char *dev, uint32_t id);
int uet_nl_job_get(struct uet_nl *nl, const char *dev, uint32_t id,
		   struct uet_job_attrs *out);
/* The jobs of @dev, or of every device when @dev is NULL. */
int uet_nl_job_dump(struct uet_nl *nl, const char *dev, uet_job_fn fn, void *arg);

int uet_nl_profile_get(struct uet_nl *nl, const char *dev,
		       struct uet_profile_attrs *out);
int uet_nl_profile_dump(struct uet_nl *nl, uet_profile_fn fn, void *arg);
int uet_nl_profile_set(struct uet_nl *nl, const char *dev, uint8_t id);

int uet_nl_pdc_get(struct uet_nl *nl, const char *dev, uint16_t lpdcid,
		   struct uet_pdc_attrs *out);
int uet_nl_pdc_dump(struct uet_nl *nl, const char *dev, uet_pdc_fn fn, void *arg);
int uet_nl_pdc_close(struct uet_nl *nl, const char *dev, uint16_t lpdcid);

/* The counters of @dev, or of its job @job when @has_job. */
int uet_nl_stats_get(struct uet_nl *nl, const char *dev, int has_job,
		     uint32_t job, uet_counter_fn fn, void *arg);

/* Install @k (dev, job, an, key; epoch and mode when present). */
int uet_nl_key_add(struct uet_nl *nl, const struct uet_key_attrs *k);
int uet_nl_key_del(struct uet_nl *nl, const char *dev, uint32_t job, uint8_t an);
/* Seal what @job sends with its key at @an. */
int uet_nl_key_set(struct uet_nl *nl, const char *dev, uint32_t job, uint8_t an);
int uet_nl_key_get(struct uet_nl *nl, const char *dev, uint32_t job, uint8_t an,
		   struct uet_key_attrs *out);
/* The keys of @dev's jobs, or of every device's when @dev is NULL. */
int uet_nl_key_dump(struct uet_nl *nl, const char *dev, uet_key_fn fn, void *arg);

/**
 * struct uet_event - a notification of the monitor group
 * @cmd: UET_CMD_DEV_ADD_NTF ... UET_CMD_PDC_DEL_NTF
 * @dev: with a DEV_*_NTF: the device as dev-get shows it; gone, only
 *	its name, netdev and ifindex
 * @job: with a JOB_*_NTF: the job as job-get shows it; gone, only its
 *	device and ID
 * @pdc: with a PDC_*_NTF: the PDC's identity (device, local and, once
 *	known, peer PDCID, mode, role, job, traffic class, peer)
 */
struct uet_event {
	uint8_t cmd;
	union {
		struct uet_dev_attrs dev;
		struct uet_job_attrs job;
		struct uet_pdc_attrs pdc;
	};
};

typedef int (*uet_event_fn)(const struct uet_event *ev, void *arg);

/*
 * Join the monitor group (CAP_NET_ADMIN over the namespace) and call @fn
 * with each notification of the devices, jobs and PDCs of the caller's
 * network namespace, until it returns non-zero (returned) or an error: a
 * negative errno, -ENOBUFS when notifications were lost (the socket's
 * queue overflowed; calling again goes on), -EOPNOTSUPP if the kernel's
 * family has no such group.  Use a handle of its own: its socket keeps
 * the membership.
 */
int uet_nl_monitor(struct uet_nl *nl, uet_event_fn fn, void *arg);

/*
 * Names of enum values as uetctl spells them ("rud", "ai-base", ...):
 * NULL for an unknown value.  The parsers return the value or -1.
 */
const char *uet_delivery_mode_name(unsigned int mode);
int uet_delivery_mode_parse(const char *s);
const char *uet_cc_name(unsigned int cc);
int uet_cc_parse(const char *s);
const char *uet_lb_mode_name(unsigned int lb);
int uet_lb_mode_parse(const char *s);
const char *uet_encap_name(unsigned int encap);
int uet_encap_parse(const char *s);
/* "cc-target-us", ...: an NSCC parameter as uetctl and the spec name it */
const char *uet_nscc_name(unsigned int param);
/* its attribute, UET_A_JOB_CC_* if @job, else UET_A_DEV_CC_*; -1: none */
int uet_nscc_attr(unsigned int param, int job);
const char *uet_addr_mode_name(unsigned int mode);
int uet_addr_mode_parse(const char *s);
const char *uet_profile_name(unsigned int profile);
int uet_profile_parse(const char *s);
const char *uet_pdc_state_name(unsigned int state);
const char *uet_key_mode_name(unsigned int mode);
int uet_key_mode_parse(const char *s);
/* Name of feature bit @bit (0 for UET_FEATURE_MODE_RUD), or NULL. */
const char *uet_feature_name(unsigned int bit);

#ifdef __cplusplus
}
#endif

#endif /* LIBUET_H */
