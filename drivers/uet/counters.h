/* SPDX-License-Identifier: GPL-2.0 */
/*
 * uet counters: per device, per CPU, exported as RDMA hw counters
 * ("rdma statistic show link uet0/1").
 */
#ifndef _UET_COUNTERS_H
#define _UET_COUNTERS_H

#include <asm/local64.h>
#include <linux/percpu.h>
#include <rdma/ib_verbs.h>

/* The names in counters.c follow this order. */
enum uet_counter {
	UET_CNT_TX_PACKETS,
	UET_CNT_TX_BYTES,
	UET_CNT_RX_PACKETS,
	UET_CNT_RX_BYTES,
	UET_CNT_TX_BATCHES,
	UET_CNT_RETRANSMITS,
	UET_CNT_TIMEOUTS,
	UET_CNT_TAIL_PROBES,
	UET_CNT_NACKS_SENT,
	UET_CNT_NACKS_RECEIVED,
	UET_CNT_DUPLICATES,
	UET_CNT_OUT_OF_ORDER,
	UET_CNT_PDCS_CREATED,
	UET_CNT_PDCS_CLOSED,
	UET_CNT_PDC_POOL_EXHAUSTED,
	UET_CNT_PDC_SOURCE_LIMIT,
	UET_CNT_DROP_MALFORMED,
	UET_CNT_DROP_UNKNOWN_PDC,
	UET_CNT_DROP_PDC_NOT_PEER,
	UET_CNT_DROP_BAD_RKEY,
	UET_CNT_DROP_BOUNDS,
	UET_CNT_DROP_NO_RECV_BUFFER,
	UET_CNT_DROP_NO_ENDPOINT,
	UET_CNT_DROP_OUT_OF_WINDOW,
	UET_CNT_DROP_UNSUPPORTED,
	UET_CNT_DROP_ACCESS,
	UET_CNT_DROP_FLOW_LIMIT,
	UET_CNT_DROP_NOT_PEER,
	UET_CNT_DROP_NOT_UNICAST,
	UET_CNT_READS_REISSUED,
	UET_CNT_TRIMMED,
	UET_CNT_RNR_RETRIES,
	UET_CNT_RNR_NACKS_SENT,
	UET_CNT_TX_WAITS,
	UET_CNT_DROP_NO_MEMORY,
	UET_CNT_ECN_MARKED,
	UET_CNT_ECN_ECHOES,
	UET_CNT_CC_DECREASES,
	UET_CNT_CC_QUICK_ADAPTS,
	UET_CNT_CC_WINDOW_FULL,
	UET_CNT_CC_CREDIT_STALLS,
	UET_CNT_CC_CREDIT_REQUESTS,
	UET_CNT_CC_CREDIT_GRANTED,
	UET_CNT_CC_CREDIT_UNUSED,
	UET_CNT_CC_CREDIT_SPECULATED,
	UET_CNT_LB_EXPLORED,
	UET_CNT_RETRANSMITS_NEEDLESS,
	UET_CNT_TIMEOUTS_SPURIOUS,
	UET_CNT_TSS_SEALED,
	UET_CNT_TSS_OPENED,
	UET_CNT_TSS_TX_ERRORS,
	UET_CNT_DROP_TSS_NO_KEY,
	UET_CNT_DROP_TSS_EPOCH,
	UET_CNT_DROP_TSS_BAD_ICV,
	UET_CNT_DROP_TSS_REPLAY,
	UET_CNT_DROP_TSS_SOURCES,
	UET_CNT_DROP_TSS_CLEAR,
	UET_CNT_TSS_DERIVED,
	UET_CNT_DROP_TSS_WAITING,
	UET_CNT_DROP_BAD_CRC,
	UET_CNT_RA_RECEIVED,
	UET_CNT_RA_APPLIED,
	UET_CNT_RA_IGNORED,
	UET_CNT_RA_EXPIRED,
	UET_CNT_RA_PACED,
	UET_CNT_PDCS_ACTIVE,	/* a gauge: created minus closed, never counted */
	UET_NUM_COUNTERS
};

struct uet_counters {
	local64_t c[UET_NUM_COUNTERS];
};

struct uet_dev;

int uet_counters_init(struct uet_dev *udev);
void uet_counters_free(struct uet_dev *udev);
u64 uet_counter_read(struct uet_dev *udev, enum uet_counter idx);
const char *uet_counter_name(enum uet_counter idx);

/**
 * uet_count() - add @n to counter @idx of @udev
 * @udev: the device
 * @idx: which counter
 * @n: the amount
 *
 * Safe in any context, softirq included: each CPU has its own copy.
 */
#define uet_count(udev, idx, n) \
	local64_add((n), &this_cpu_ptr((udev)->counters)->c[(idx)])

extern const struct ib_device_ops uet_counters_ops;

#endif /* _UET_COUNTERS_H */
