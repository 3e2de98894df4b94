// SPDX-License-Identifier: GPL-2.0
/*
 * uet jobs.
 *
 * A job (UEC 1.0 section 3.3) groups the endpoints of one parallel
 * application or service: its packets carry its 24-bit job ID, and its
 * endpoints are named by PIDonFEP values within the job's range.  Each
 * device keeps its jobs in an xarray indexed by job ID.  The default job,
 * UET_JOB_DEFAULT, exists from the device's creation to its end, so that
 * verbs applications work on a device nobody configured.
 *
 * Changes are serialised by the table's mutex; the engine finds jobs
 * under RCU (uet_job_get()) from any context and holds a reference while
 * it uses one.  A deleted job leaves the table at once and is freed after
 * its last reference and an RCU grace period; its keys (secdom.c) go
 * with its deletion.
 */
#include <linux/slab.h>
#include <uapi/linux/uet_netlink.h>

#include "job.h"
#include "pdc.h"
#include "profile.h"
#include "uet.h"

/*
 * Jobs per device: enough for every job a host of a large cluster takes
 * part in, small enough that a runaway script cannot exhaust memory.
 */
#define UET_JOBS_MAX	65536

static const char * const uet_job_counter_names[] = {
	[UET_JOB_CNT_TX_PACKETS] = "tx_packets",
	[UET_JOB_CNT_TX_BYTES] = "tx_bytes",
	[UET_JOB_CNT_RX_PACKETS] = "rx_packets",
	[UET_JOB_CNT_RX_BYTES] = "rx_bytes",
	[UET_JOB_CNT_ERRORS] = "errors",
};

const char *uet_job_counter_name(enum uet_job_counter idx)
{
	BUILD_BUG_ON(ARRAY_SIZE(uet_job_counter_names) != UET_JOB_NUM_COUNTERS);
	return uet_job_counter_names[idx];
}

static void job_free_rcu(struct rcu_head *rcu)
{
	struct uet_job *job = container_of(rcu, struct uet_job, rcu);

	free_percpu(job->counters);
	kfree(job);
}

/**
 * uet_job_put() - drop a reference taken by uet_job_get()
 * @job: the job; freed with the last reference
 */
void uet_job_put(struct uet_job *job)
{
	if (refcount_dec_and_test(&job->ref))
		call_rcu(&job->rcu, job_free_rcu);
}

static struct uet_job *job_alloc(const struct uet_job_cfg *cfg)
{
	struct uet_job *job;

	job = kzalloc(sizeof(*job), GFP_KERNEL_ACCOUNT);
	if (!job)
		return NULL;
	job->counters = alloc_percpu_gfp(struct uet_job_counters,
					 GFP_KERNEL_ACCOUNT);
	if (!job->counters) {
		kfree(job);
		return NULL;
	}
	job->cfg = *cfg;
	refcount_set(&job->ref, 1);
	return job;
}

/**
 * uet_job_add() - create a job
 * @udev: the device
 * @cfg: the job's settings, in range (the netlink policy checks ranges)
 * @extack: where to say why the job was refused
 *
 * The job's delivery mode must be one the device's profile allows.
 *
 * Return: 0, -EEXIST if @cfg->id is taken, -EINVAL for an empty PIDonFEP
 * range, -EOPNOTSUPP when the profile forbids the delivery mode, -ENOSPC
 * when the device has %UET_JOBS_MAX jobs, -ENOMEM.
 */
int uet_job_add(struct uet_dev *udev, const struct uet_job_cfg *cfg,
		struct netlink_ext_ack *extack)
{
	struct uet_jobs *jobs = &udev->jobs;
	struct uet_job *job;
	int err;

	if (cfg->pid_lo > cfg->pid_hi) {
		NL_SET_ERR_MSG(extack, "PIDonFEP range is empty: pid-lo above pid-hi");
		return -EINVAL;
	}
	job = job_alloc(cfg);
	if (!job)
		return -ENOMEM;
	mutex_lock(&jobs->lock);
	/* under the lock: uet_profile_set() checks the jobs under it */
	err = uet_profile_check(udev, uet_profile_mode_feature(cfg->mode), extack);
	if (err)
		goto err_unlock;
	if (jobs->count >= UET_JOBS_MAX) {
		NL_SET_ERR_MSG(extack, "Too many jobs on this device");
		err = -ENOSPC;
		goto err_unlock;
	}
	err = xa_insert(&jobs->xa, cfg->id, job, GFP_KERNEL_ACCOUNT);
	if (err == -EBUSY) {
		NL_SET_ERR_MSG(extack, "A job with this ID exists on this device");
		err = -EEXIST;
	}
	if (err)
		goto err_unlock;
	jobs->count++;
	mutex_unlock(&jobs->lock);
	return 0;

err_unlock:
	mutex_unlock(&jobs->lock);
	free_percpu(job->counters);
	kfree(job);
	return err;
}

/**
 * uet_job_del() - delete a job
 * @udev: the device
 * @id: the job's ID
 * @extack: where to say why the job was not deleted
 *
 * Return: 0, -EBUSY for the default job, -ENOENT for an unknown one.
 */
int uet_job_del(struct uet_dev *udev, u32 id, struct netlink_ext_ack *extack)
{
	struct uet_tss_sa *keys[UET_TSS_AN_COUNT];
	struct uet_jobs *jobs = &udev->jobs;
	struct uet_job *job;

	if (id == UET_JOB_DEFAULT) {
		NL_SET_ERR_MSG(extack, "The default job (0) cannot be deleted");
		return -EBUSY;
	}
	mutex_lock(&jobs->lock);
	job = xa_erase(&jobs->xa, id);
	if (job) {
		jobs->count--;
		uet_secdom_take(udev, &job->secdom, keys);
	}
	mutex_unlock(&jobs->lock);
	if (!job) {
		NL_SET_ERR_MSG(extack, "No job with this ID on this device");
		return -ENOENT;
	}
	uet_secdom_free(keys, true);
	uet_job_put(job);
	return 0;
}

/**
 * uet_job_get() - find a job by ID and reference it
 * @udev: the device
 * @id: the job ID
 *
 * Any context, softirq included.
 *
 * Return: the job, to be released with uet_job_put(), or %NULL.
 */
struct uet_job *uet_job_get(struct uet_dev *udev, u32 id)
{
	struct uet_job *job;

	rcu_read_lock();
	job = xa_load(&udev->jobs.xa, id);
	if (job && !refcount_inc_not_zero(&job->ref))
		job = NULL;
	rcu_read_unlock();
	return job;
}

/**
 * uet_job_get_next() - the job with the lowest ID at or above *@id
 * @udev: the device
 * @id: where to start; set to the ID of the job found
 *
 * For walks that sleep between jobs (netlink dumps).
 *
 * Return: the job, referenced, or %NULL when there are no more.
 */
struct uet_job *uet_job_get_next(struct uet_dev *udev, unsigned long *id)
{
	struct uet_job *job;

	rcu_read_lock();
	do {
		job = xa_find(&udev->jobs.xa, id, ULONG_MAX, XA_PRESENT);
	} while (job && !refcount_inc_not_zero(&job->ref) && ++*id);
	rcu_read_unlock();
	return job;
}

/**
 * uet_job_allows_pid() - @pid lies within @job's PIDonFEP range
 * @job: the job
 * @pid: a PIDonFEP value
 *
 * Return: true if an endpoint of @job may use @pid.
 */
bool uet_job_allows_pid(const struct uet_job *job, u32 pid)
{
	return pid >= job->cfg.pid_lo && pid <= job->cfg.pid_hi;
}

/**
 * uet_job_nscc() - the NSCC parameters of a job's congestion contexts
 * @udev: the device
 * @id: the job's ID
 * @params: filled in, enum uet_nscc_param: the job's where it sets them,
 *	else (or if it is gone) the device's of now
 *
 * From any context.
 */
void uet_job_nscc(struct uet_dev *udev, u32 id,
		  u32 params[UET_NSCC_NUM_PARAMS])
{
	const struct uet_job *job;
	int i;

	rcu_read_lock();
	job = xa_load(&udev->jobs.xa, id);
	for (i = 0; i < UET_NSCC_NUM_PARAMS; i++)
		params[i] = job && job->cfg.nscc_set & BIT(i) ?
			    job->cfg.nscc[i] : READ_ONCE(udev->cfg.nscc[i]);
	rcu_read_unlock();
}

/**
 * uet_job_ra_floor() - whether, and how far down, a job's initiator PDCs
 *	take rate advice (pds_ra.c)
 * @udev: the device
 * @id: the job's ID
 *
 * From any context.
 *
 * Return: the job's ra-floor-mbps where it sets one, else (or if it is
 * gone) the device's of now; 0, they take none.
 */
u32 uet_job_ra_floor(struct uet_dev *udev, u32 id)
{
	const struct uet_job *job;
	u32 floor;

	rcu_read_lock();
	job = xa_load(&udev->jobs.xa, id);
	floor = job && job->cfg.ra_set ? job->cfg.ra_floor_mbps :
					 READ_ONCE(udev->cfg.ra_floor_mbps);
	rcu_read_unlock();
	return floor;
}

/**
 * uet_job_counter_read() - the sum of a job's counter over all CPUs
 * @job: the job
 * @idx: which counter
 *
 * Return: the counter's value.
 */
u64 uet_job_counter_read(const struct uet_job *job, enum uet_job_counter idx)
{
	u64 sum = 0;
	int cpu;

	for_each_possible_cpu(cpu)
		sum += local64_read(&per_cpu_ptr(job->counters, cpu)->c[idx]);
	return sum;
}

/**
 * uet_jobs_count() - how many jobs a device has
 * @udev: the device
 *
 * Return: the number of jobs, default job included.
 */
u32 uet_jobs_count(struct uet_dev *udev)
{
	u32 n;

	mutex_lock(&udev->jobs.lock);
	n = udev->jobs.count;
	mutex_unlock(&udev->jobs.lock);
	return n;
}

/**
 * uet_jobs_init() - the job table of a new device, with its default job
 * @udev: the device
 *
 * The default job: relative addressing, every PIDonFEP, traffic class 0,
 * RUD, which every profile allows.
 *
 * Return: 0 or -ENOMEM.
 */
int uet_jobs_init(struct uet_dev *udev)
{
	static const struct uet_job_cfg def = {
		.id = UET_JOB_DEFAULT,
		.addr_mode = UET_ADDR_MODE_RELATIVE,
		.pid_lo = 0,
		.pid_hi = UET_PID_MAX,
		.tc = 0,
		.mode = UET_PDC_RUD,
	};
	struct uet_job *job;
	int err;

	mutex_init(&udev->jobs.lock);
	xa_init(&udev->jobs.xa);
	job = job_alloc(&def);
	if (!job)
		return -ENOMEM;
	err = xa_insert(&udev->jobs.xa, def.id, job, GFP_KERNEL_ACCOUNT);
	if (err) {
		uet_job_put(job);
		return err;
	}
	udev->jobs.count = 1;
	return 0;
}

/**
 * uet_jobs_fini() - delete every job of a device
 * @udev: the device, which nothing uses any more
 */
void uet_jobs_fini(struct uet_dev *udev)
{
	struct uet_tss_sa *keys[UET_TSS_AN_COUNT];
	struct uet_job *job;
	unsigned long id;

	mutex_lock(&udev->jobs.lock);
	xa_for_each(&udev->jobs.xa, id, job) {
		xa_erase(&udev->jobs.xa, id);
		uet_secdom_take(udev, &job->secdom, keys);
		uet_secdom_free(keys, false);
		uet_job_put(job);
	}
	udev->jobs.count = 0;
	mutex_unlock(&udev->jobs.lock);
	xa_destroy(&udev->jobs.xa);
	mutex_destroy(&udev->jobs.lock);
}
