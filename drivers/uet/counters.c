// SPDX-License-Identifier: GPL-2.0
/*
 * uet counters.
 *
 * Each device keeps one array of counters per CPU, updated without locks
 * (local64_t, safe against the softirq on the same CPU) and summed when
 * read.  The RDMA core shows them as the port's hw counters.
 */
#include <linux/percpu.h>
#include <rdma/ib_verbs.h>

#include "counters.h"
#include "uet.h"

/*
 * How long the RDMA core may serve counter values from its cache, in
 * milliseconds: rdma_alloc_hw_stats_struct() converts it to jiffies.
 */
#define UET_COUNTERS_LIFESPAN_MS	10

static const struct rdma_stat_desc uet_counter_descs[] = {
	[UET_CNT_TX_PACKETS].name = "tx_packets",
	[UET_CNT_TX_BYTES].name = "tx_bytes",
	[UET_CNT_RX_PACKETS].name = "rx_packets",
	[UET_CNT_RX_BYTES].name = "rx_bytes",
	[UET_CNT_TX_BATCHES].name = "tx_batches",
	[UET_CNT_RETRANSMITS].name = "retransmits",
	[UET_CNT_TIMEOUTS].name = "timeouts",
	[UET_CNT_TAIL_PROBES].name = "tail_probes",
	[UET_CNT_NACKS_SENT].name = "nacks_sent",
	[UET_CNT_NACKS_RECEIVED].name = "nacks_received",
	[UET_CNT_DUPLICATES].name = "duplicates",
	[UET_CNT_OUT_OF_ORDER].name = "out_of_order",
	[UET_CNT_PDCS_CREATED].name = "pdcs_created",
	[UET_CNT_PDCS_CLOSED].name = "pdcs_closed",
	[UET_CNT_PDC_POOL_EXHAUSTED].name = "pdc_pool_exhausted",
	[UET_CNT_PDC_SOURCE_LIMIT].name = "pdc_source_limit",
	[UET_CNT_DROP_MALFORMED].name = "drop_malformed",
	[UET_CNT_DROP_UNKNOWN_PDC].name = "drop_unknown_pdc",
	[UET_CNT_DROP_PDC_NOT_PEER].name = "drop_pdc_not_peer",
	[UET_CNT_DROP_BAD_RKEY].name = "drop_bad_rkey",
	[UET_CNT_DROP_BOUNDS].name = "drop_bounds",
	[UET_CNT_DROP_NO_RECV_BUFFER].name = "drop_no_recv_buffer",
	[UET_CNT_DROP_NO_ENDPOINT].name = "drop_no_endpoint",
	[UET_CNT_DROP_OUT_OF_WINDOW].name = "drop_out_of_window",
	[UET_CNT_DROP_UNSUPPORTED].name = "drop_unsupported",
	[UET_CNT_DROP_ACCESS].name = "drop_access",
	[UET_CNT_DROP_FLOW_LIMIT].name = "drop_flow_limit",
	[UET_CNT_DROP_NOT_PEER].name = "drop_not_peer",
	[UET_CNT_DROP_NOT_UNICAST].name = "drop_not_unicast",
	[UET_CNT_READS_REISSUED].name = "reads_reissued",
	[UET_CNT_TRIMMED].name = "trimmed",
	[UET_CNT_RNR_RETRIES].name = "rnr_retries",
	[UET_CNT_RNR_NACKS_SENT].name = "rnr_nacks_sent",
	[UET_CNT_TX_WAITS].name = "tx_waits",
	[UET_CNT_DROP_NO_MEMORY].name = "drop_no_memory",
	[UET_CNT_ECN_MARKED].name = "ecn_marked",
	[UET_CNT_ECN_ECHOES].name = "ecn_echoes",
	[UET_CNT_CC_DECREASES].name = "cc_decreases",
	[UET_CNT_CC_QUICK_ADAPTS].name = "cc_quick_adapts",
	[UET_CNT_CC_WINDOW_FULL].name = "cc_window_full",
	[UET_CNT_CC_CREDIT_STALLS].name = "cc_credit_stalls",
	[UET_CNT_CC_CREDIT_REQUESTS].name = "cc_credit_requests",
	[UET_CNT_CC_CREDIT_GRANTED].name = "cc_credit_granted",
	[UET_CNT_CC_CREDIT_UNUSED].name = "cc_credit_unused",
	[UET_CNT_CC_CREDIT_SPECULATED].name = "cc_credit_speculated",
	[UET_CNT_LB_EXPLORED].name = "lb_explored",
	[UET_CNT_RETRANSMITS_NEEDLESS].name = "retransmits_needless",
	[UET_CNT_TIMEOUTS_SPURIOUS].name = "timeouts_spurious",
	[UET_CNT_TSS_SEALED].name = "tss_sealed",
	[UET_CNT_TSS_OPENED].name = "tss_opened",
	[UET_CNT_TSS_TX_ERRORS].name = "tss_tx_errors",
	[UET_CNT_DROP_TSS_NO_KEY].name = "drop_tss_no_key",
	[UET_CNT_DROP_TSS_EPOCH].name = "drop_tss_epoch",
	[UET_CNT_DROP_TSS_BAD_ICV].name = "drop_tss_bad_icv",
	[UET_CNT_DROP_TSS_REPLAY].name = "drop_tss_replay",
	[UET_CNT_DROP_TSS_SOURCES].name = "drop_tss_sources",
	[UET_CNT_DROP_TSS_CLEAR].name = "drop_tss_clear",
	[UET_CNT_TSS_DERIVED].name = "tss_derived",
	[UET_CNT_DROP_TSS_WAITING].name = "drop_tss_waiting",
	[UET_CNT_DROP_BAD_CRC].name = "drop_bad_crc",
	[UET_CNT_RA_RECEIVED].name = "ra_received",
	[UET_CNT_RA_APPLIED].name = "ra_applied",
	[UET_CNT_RA_IGNORED].name = "ra_ignored",
	[UET_CNT_RA_EXPIRED].name = "ra_expired",
	[UET_CNT_RA_PACED].name = "ra_paced",
	[UET_CNT_PDCS_ACTIVE].name = "pdcs_active",
};

int uet_counters_init(struct uet_dev *udev)
{
	BUILD_BUG_ON(ARRAY_SIZE(uet_counter_descs) != UET_NUM_COUNTERS);

	udev->counters = alloc_percpu(struct uet_counters);
	return udev->counters ? 0 : -ENOMEM;
}

void uet_counters_free(struct uet_dev *udev)
{
	free_percpu(udev->counters);
}

/**
 * uet_counter_read() - the sum of counter @idx over all CPUs
 * @udev: the device
 * @idx: which counter
 *
 * Return: the counter's value; for the gauge %UET_CNT_PDCS_ACTIVE, the
 * PDCs created and not yet closed.
 */
u64 uet_counter_read(struct uet_dev *udev, enum uet_counter idx)
{
	u64 sum = 0;
	int cpu;

	if (idx == UET_CNT_PDCS_ACTIVE)
		return uet_counter_read(udev, UET_CNT_PDCS_CREATED) -
		       uet_counter_read(udev, UET_CNT_PDCS_CLOSED);

	for_each_possible_cpu(cpu)
		sum += local64_read(&per_cpu_ptr(udev->counters, cpu)->c[idx]);
	return sum;
}

/**
 * uet_counter_name() - the name of counter @idx, as "rdma statistic" shows it
 * @idx: which counter
 *
 * Return: the name.
 */
const char *uet_counter_name(enum uet_counter idx)
{
	return uet_counter_descs[idx].name;
}

static struct rdma_hw_stats *uet_alloc_hw_port_stats(struct ib_device *ibdev,
						     u32 port)
{
	return rdma_alloc_hw_stats_struct(uet_counter_descs, UET_NUM_COUNTERS,
					  UET_COUNTERS_LIFESPAN_MS);
}

static int uet_get_hw_stats(struct ib_device *ibdev, struct rdma_hw_stats *stats,
			    u32 port, int index)
{
	struct uet_dev *udev = to_uet_dev(ibdev);
	int i;

	for (i = 0; i < UET_NUM_COUNTERS; i++)
		stats->value[i] = uet_counter_read(udev, i);
	return UET_NUM_COUNTERS;
}

const struct ib_device_ops uet_counters_ops = {
	.alloc_hw_port_stats = uet_alloc_hw_port_stats,
	.get_hw_stats = uet_get_hw_stats,
};
