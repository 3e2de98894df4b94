/* SPDX-License-Identifier: GPL-2.0 */
/*
 * uet jobs: the jobs a device serves, each with its addressing, its range
 * of PIDonFEP values, its defaults and its counters.
 */
#ifndef _UET_JOB_H
#define _UET_JOB_H

#include <asm/local64.h>
#include <linux/mutex.h>
#include <linux/netlink.h>
#include <linux/percpu.h>
#include <linux/rcupdate.h>
#include <linux/refcount.h>
#include <linux/xarray.h>

#include "nscc.h"
#include "secdom.h"

struct uet_dev;

/* A job's @lb (struct uet_job_cfg) when it takes the device's. */
#define UET_JOB_LB_DEVICE	0

/* The names in job.c follow this order. */
enum uet_job_counter {
	UET_JOB_CNT_TX_PACKETS,
	UET_JOB_CNT_TX_BYTES,
	UET_JOB_CNT_RX_PACKETS,
	UET_JOB_CNT_RX_BYTES,
	UET_JOB_CNT_ERRORS,
	UET_JOB_NUM_COUNTERS
};

struct uet_job_counters {
	local64_t c[UET_JOB_NUM_COUNTERS];
};

/**
 * struct uet_job_cfg - what a job is created with
 * @id: job ID, 24 bits.
 * @addr_mode: enum uet_addr_mode.
 * @pid_lo: lowest PIDonFEP of the job ...
 * @pid_hi: ... and highest, 12 bits each.
 * @tc: default traffic class.
 * @mode: default delivery mode, enum uet_pdc_mode.
 * @cc: congestion control of its initiator PDCs: enum uet_cc plus one;
 *	%UET_PDS_CC_DEVICE (0), the device's.
 * @nscc: NSCC's parameters, enum uet_nscc_param, where @nscc_set has ...
 * @nscc_set: ... the parameter's bit; the device's elsewhere.
 * @lb: how its initiator PDCs pick their requests' entropies: enum
 *	uet_lb_mode plus one; %UET_JOB_LB_DEVICE (0), the device's.
 * @lb_paths: how many entropies its initiator PDCs spray over, 1 to
 *	%UET_LB_PATHS_MAX; 0, the device's.
 * @ra_floor_mbps: rate advice for its initiator PDCs, as the device's
 *	(struct uet_dev_cfg), where @ra_set ...
 * @ra_set: ... says the job sets it; the device's otherwise.
 */
struct uet_job_cfg {
	u32 id;
	u8 addr_mode;
	u16 pid_lo;
	u16 pid_hi;
	u8 tc;
	u8 mode;
	u8 cc;
	u32 nscc[UET_NSCC_NUM_PARAMS];
	u16 nscc_set;
	u8 lb;
	u16 lb_paths;
	u32 ra_floor_mbps;
	bool ra_set;
};

/**
 * struct uet_job - one job of a device
 * @cfg: its settings, constant for the job's life.
 * @ref: references: the table's one, and one per uet_job_get().
 * @rcu: frees the job after the readers that found it in the table.
 * @counters: per-CPU counters, enum uet_job_counter.
 * @secdom: its secure domain: its transport security keys.
 */
struct uet_job {
	struct uet_job_cfg cfg;
	refcount_t ref;
	struct rcu_head rcu;
	struct uet_job_counters __percpu *counters;
	struct uet_secdom secdom;
};

/**
 * struct uet_jobs - the job table of a device
 * @lock: serialises additions and deletions (and @count); lookups take
 *	no lock: they find jobs under RCU and take a reference.
 * @xa: the jobs by ID.
 * @count: how many jobs @xa holds.
 * @keys: how many transport security keys its jobs hold (secdom.c).
 * @derived: how many keys its jobs' cluster keys derived for sources
 *	hold, %UET_TSS_DERIVED_MAX at most (secdom.c); changed without
 *	@lock.
 */
struct uet_jobs {
	struct mutex lock;	/* see above */
	struct xarray xa;
	u32 count;
	u32 keys;
	atomic_t derived;
};

int uet_jobs_init(struct uet_dev *udev);
void uet_jobs_fini(struct uet_dev *udev);
u32 uet_jobs_count(struct uet_dev *udev);
int uet_job_add(struct uet_dev *udev, const struct uet_job_cfg *cfg,
		struct netlink_ext_ack *extack);
int uet_job_del(struct uet_dev *udev, u32 id, struct netlink_ext_ack *extack);
struct uet_job *uet_job_get(struct uet_dev *udev, u32 id);
struct uet_job *uet_job_get_next(struct uet_dev *udev, unsigned long *id);
void uet_job_put(struct uet_job *job);
void uet_job_nscc(struct uet_dev *udev, u32 id,
		  u32 params[UET_NSCC_NUM_PARAMS]);
u32 uet_job_ra_floor(struct uet_dev *udev, u32 id);
bool uet_job_allows_pid(const struct uet_job *job, u32 pid);
u64 uet_job_counter_read(const struct uet_job *job, enum uet_job_counter idx);
const char *uet_job_counter_name(enum uet_job_counter idx);

/*
 * The engine's accounting, in any context, softirq included: each CPU
 * has its own counters, and preemption is off while one is updated.
 */
static inline void uet_job_count_tx(struct uet_job *job, u32 pkts, u64 bytes)
{
	struct uet_job_counters *c = get_cpu_ptr(job->counters);

	local64_add(pkts, &c->c[UET_JOB_CNT_TX_PACKETS]);
	local64_add(bytes, &c->c[UET_JOB_CNT_TX_BYTES]);
	put_cpu_ptr(job->counters);
}

static inline void uet_job_count_rx(struct uet_job *job, u32 bytes)
{
	struct uet_job_counters *c = get_cpu_ptr(job->counters);

	local64_inc(&c->c[UET_JOB_CNT_RX_PACKETS]);
	local64_add(bytes, &c->c[UET_JOB_CNT_RX_BYTES]);
	put_cpu_ptr(job->counters);
}

static inline void uet_job_count_error(struct uet_job *job)
{
	local64_inc(&get_cpu_ptr(job->counters)->c[UET_JOB_CNT_ERRORS]);
	put_cpu_ptr(job->counters);
}

#endif /* _UET_JOB_H */
