/* SPDX-License-Identifier: ((GPL-2.0 WITH Linux-syscall-note) OR BSD-3-Clause) */
/* Do not edit directly, auto-generated from: */
/*	Documentation/netlink/specs/uet.yaml */
/* YNL-GEN uapi header */

#ifndef _UAPI_LINUX_UET_NETLINK_H
#define _UAPI_LINUX_UET_NETLINK_H

#define UET_FAMILY_NAME		"uet"
#define UET_FAMILY_VERSION	1

#define UET_MCGRP_MONITOR	"monitor"
#define UET_NAME_MAX_LEN	63
#define UET_JOB_ID_MAX		16777215
#define UET_PID_MAX		4095
#define UET_TC_MAX		7
#define UET_DSCP_MAX		63
#define UET_PAYLOAD_MAX		9000
#define UET_PAYLOAD_MIN		256
#define UET_ACK_DELAY_US_MAX	1000000
#define UET_PDC_MAX		65535
#define UET_RTO_US_MIN		1000
#define UET_RTO_US_MAX		60000000
#define UET_PDC_IDLE_MS_MAX	3600000
#define UET_CC_TARGET_US_MAX	1000000
#define UET_CC_BDP_MAX		1073741824
#define UET_CC_GAIN_MAX		10000
#define UET_LINK_MBPS_MAX	1600000
#define UET_LB_PATHS_MAX	256
#define UET_KEY_LEN		32
#define UET_KEY_AN_MAX		1

/**
 * enum uet_delivery_mode - PDS delivery modes (UEC 1.0 section 3.5).
 * @UET_DELIVERY_MODE_RUD: Reliable, unordered delivery.
 * @UET_DELIVERY_MODE_ROD: Reliable, ordered delivery.
 * @UET_DELIVERY_MODE_RUDI: Reliable, unordered delivery for idempotent
 *   operations.
 * @UET_DELIVERY_MODE_UUD: Unreliable, unordered delivery.
 */
enum uet_delivery_mode {
	UET_DELIVERY_MODE_RUD,
	UET_DELIVERY_MODE_ROD,
	UET_DELIVERY_MODE_RUDI,
	UET_DELIVERY_MODE_UUD,
};

/**
 * enum uet_cc - Congestion control of a device's initiator PDCs.
 * @UET_CC_NONE: None; the tracking window alone bounds what is in flight.
 * @UET_CC_NSCC: NSCC, the sender-based congestion window
 *   (Documentation/congestion.rst).
 * @UET_CC_RCCC: RCCC, receiver credit; the sender sends only on credit its
 *   receivers grant.
 * @UET_CC_NSCC_RCCC: NSCC and RCCC together; a request leaves with room in the
 *   window and credit.
 */
enum uet_cc {
	UET_CC_NONE,
	UET_CC_NSCC,
	UET_CC_RCCC,
	UET_CC_NSCC_RCCC,
};

/**
 * enum uet_lb_mode - How an initiator PDC picks the entropy (UDP source port)
 *   of each request (Documentation/multipath.rst).
 * @UET_LB_MODE_SINGLE: One entropy for the PDC's life; a single path.
 * @UET_LB_MODE_OBLIVIOUS: Every entropy of the PDC's set in turn, in an order
 *   shuffled each round.
 * @UET_LB_MODE_REPS: REPS, recycled entropy packet spraying; entropies
 *   acknowledged unmarked are used again.
 */
enum uet_lb_mode {
	UET_LB_MODE_SINGLE,
	UET_LB_MODE_OBLIVIOUS,
	UET_LB_MODE_REPS,
};

/**
 * enum uet_encap - How a device's packets are carried
 *   (Documentation/wire-format.rst).
 * @UET_ENCAP_UDP: Over UDP, to the device's UDP port; the entropy in the UDP
 *   source port.
 * @UET_ENCAP_IP: Directly over IP, protocol 253, behind a 4-byte entropy
 *   header.
 * @UET_ENCAP_UDP_ZERO_CSUM: Over UDP with a UDP checksum of zero, as the UE
 *   specification asks, one packet at a time.
 */
enum uet_encap {
	UET_ENCAP_UDP,
	UET_ENCAP_IP,
	UET_ENCAP_UDP_ZERO_CSUM,
};

/**
 * enum uet_addr_mode - How a job's endpoints are addressed (UEC 1.0 section
 *   3.3).
 * @UET_ADDR_MODE_RELATIVE: Parallel jobs, PIDonFEP relative to the job.
 * @UET_ADDR_MODE_ABSOLUTE: Client/server, PIDonFEP absolute on the fabric
 *   endpoint.
 */
enum uet_addr_mode {
	UET_ADDR_MODE_RELATIVE,
	UET_ADDR_MODE_ABSOLUTE,
};

/**
 * enum uet_key_mode - How a secure domain's key is used
 *   (Documentation/security.rst).
 * @UET_KEY_MODE_DIRECT: The key seals and opens every packet of the domain.
 * @UET_KEY_MODE_CLUSTER: Each source seals with a key derived from this one,
 *   its epoch and the source's identity.
 */
enum uet_key_mode {
	UET_KEY_MODE_DIRECT,
	UET_KEY_MODE_CLUSTER,
};

/**
 * enum uet_profile - UEC 1.0 profiles (Documentation/netlink.rst lists what
 *   each allows).
 */
enum uet_profile {
	UET_PROFILE_AI_BASE,
	UET_PROFILE_AI_FULL,
	UET_PROFILE_HPC,
};

/**
 * enum uet_feature - What a profile may allow.
 */
enum uet_feature {
	UET_FEATURE_MODE_RUD = 1,
	UET_FEATURE_MODE_ROD = 2,
	UET_FEATURE_MODE_RUDI = 4,
	UET_FEATURE_MODE_UUD = 8,
	UET_FEATURE_SEND = 16,
	UET_FEATURE_RMA = 32,
	UET_FEATURE_ATOMIC = 64,
	UET_FEATURE_EXT_ATOMIC = 128,
	UET_FEATURE_TAGGED = 256,
	UET_FEATURE_WILDCARD_TAGS = 512,
	UET_FEATURE_RENDEZVOUS = 1024,
	UET_FEATURE_DEFERRABLE_SEND = 2048,
};

/**
 * enum uet_nl_pdc_state - State of a PDC.
 */
enum uet_nl_pdc_state {
	UET_PDC_STATE_CLOSED,
	UET_PDC_STATE_SYN_SENT,
	UET_PDC_STATE_ESTABLISHED,
	UET_PDC_STATE_CLOSE_REQUESTED,
	UET_PDC_STATE_CLOSING,
};

enum {
	UET_A_DEV_NAME = 1,
	UET_A_DEV_NETDEV,
	UET_A_DEV_IFINDEX,
	UET_A_DEV_RC_MODE,
	UET_A_DEV_MAX_PAYLOAD,
	UET_A_DEV_ACK_DELAY_US,
	UET_A_DEV_PDC_POOL,
	UET_A_DEV_PDC_RESERVED,
	UET_A_DEV_RTO_MIN_US,
	UET_A_DEV_RTO_MAX_US,
	UET_A_DEV_RTO_INIT_US,
	UET_A_DEV_PDC_IDLE_MS,
	UET_A_DEV_PROFILE,
	UET_A_DEV_JOBS,
	UET_A_DEV_PDCS,
	UET_A_DEV_TX_PACKETS,
	UET_A_DEV_TX_BYTES,
	UET_A_DEV_RX_PACKETS,
	UET_A_DEV_RX_BYTES,
	UET_A_DEV_PAD,
	UET_A_DEV_PDC_PER_SOURCE,
	UET_A_DEV_CC,
	UET_A_DEV_CC_TARGET_US,
	UET_A_DEV_LINK_MBPS,
	UET_A_DEV_TC_DSCP,
	UET_A_DEV_CTL_TC,
	UET_A_DEV_CC_BASE_RTT_US,
	UET_A_DEV_CC_BDP,
	UET_A_DEV_CC_MTU,
	UET_A_DEV_CC_FI_PCT,
	UET_A_DEV_CC_ALPHA_PCT,
	UET_A_DEV_CC_ETA_PCT,
	UET_A_DEV_CC_MD_PCT,
	UET_A_DEV_CC_IGNORE_PCT,
	UET_A_DEV_LB,
	UET_A_DEV_LB_PATHS,
	UET_A_DEV_SSI,
	UET_A_DEV_UDP_PORT,
	UET_A_DEV_ENCAP,
	UET_A_DEV_RA_FLOOR_MBPS,

	__UET_A_DEV_MAX,
	UET_A_DEV_MAX = (__UET_A_DEV_MAX - 1)
};

enum {
	UET_A_JOB_DEV_NAME = 1,
	UET_A_JOB_ID,
	UET_A_JOB_ADDR_MODE,
	UET_A_JOB_PID_LO,
	UET_A_JOB_PID_HI,
	UET_A_JOB_TC,
	UET_A_JOB_DELIVERY_MODE,
	UET_A_JOB_TX_PACKETS,
	UET_A_JOB_TX_BYTES,
	UET_A_JOB_RX_PACKETS,
	UET_A_JOB_RX_BYTES,
	UET_A_JOB_ERRORS,
	UET_A_JOB_PAD,
	UET_A_JOB_CC,
	UET_A_JOB_CC_TARGET_US,
	UET_A_JOB_CC_BASE_RTT_US,
	UET_A_JOB_CC_BDP,
	UET_A_JOB_CC_MTU,
	UET_A_JOB_CC_FI_PCT,
	UET_A_JOB_CC_ALPHA_PCT,
	UET_A_JOB_CC_ETA_PCT,
	UET_A_JOB_CC_MD_PCT,
	UET_A_JOB_CC_IGNORE_PCT,
	UET_A_JOB_LB,
	UET_A_JOB_LB_PATHS,
	UET_A_JOB_SECURE,
	UET_A_JOB_RA_FLOOR_MBPS,

	__UET_A_JOB_MAX,
	UET_A_JOB_MAX = (__UET_A_JOB_MAX - 1)
};

enum {
	UET_A_PROFILE_DEV_NAME = 1,
	UET_A_PROFILE_ID,
	UET_A_PROFILE_FEATURES,

	__UET_A_PROFILE_MAX,
	UET_A_PROFILE_MAX = (__UET_A_PROFILE_MAX - 1)
};

enum {
	UET_A_PDC_DEV_NAME = 1,
	UET_A_PDC_LPDCID,
	UET_A_PDC_RPDCID,
	UET_A_PDC_STATE,
	UET_A_PDC_MODE,
	UET_A_PDC_INITIATOR,
	UET_A_PDC_JOB,
	UET_A_PDC_TC,
	UET_A_PDC_PEER,
	UET_A_PDC_TX_UNA,
	UET_A_PDC_TX_NXT,
	UET_A_PDC_RX_CACK,
	UET_A_PDC_IN_FLIGHT,
	UET_A_PDC_SRTT_US,
	UET_A_PDC_RTO_US,
	UET_A_PDC_RETRANSMITS,
	UET_A_PDC_TIMEOUTS,
	UET_A_PDC_PAD,
	UET_A_PDC_CWND,
	UET_A_PDC_CWND_MAX,
	UET_A_PDC_CC_IN_FLIGHT,
	UET_A_PDC_BASE_RTT_US,
	UET_A_PDC_DELAY_US,
	UET_A_PDC_ECN_ECHOES,
	UET_A_PDC_CC_CUTS,
	UET_A_PDC_QUICK_ADAPTS,
	UET_A_PDC_CREDIT,
	UET_A_PDC_CREDIT_GRANTED,
	UET_A_PDC_CREDIT_WANTED,
	UET_A_PDC_CC_CONTEXT,
	UET_A_PDC_CC_PDCS,
	UET_A_PDC_RA_CAP_MBPS,
	UET_A_PDC_RA_ADVISED_MBPS,
	UET_A_PDC_RA_AGE_MS,

	__UET_A_PDC_MAX,
	UET_A_PDC_MAX = (__UET_A_PDC_MAX - 1)
};

enum {
	UET_A_COUNTER_NAME = 1,
	UET_A_COUNTER_VALUE,
	UET_A_COUNTER_PAD,

	__UET_A_COUNTER_MAX,
	UET_A_COUNTER_MAX = (__UET_A_COUNTER_MAX - 1)
};

enum {
	UET_A_STATS_DEV_NAME = 1,
	UET_A_STATS_JOB_ID,
	UET_A_STATS_COUNTER,

	__UET_A_STATS_MAX,
	UET_A_STATS_MAX = (__UET_A_STATS_MAX - 1)
};

enum {
	UET_A_KEY_DEV_NAME = 1,
	UET_A_KEY_JOB_ID,
	UET_A_KEY_AN,
	UET_A_KEY_KEY,
	UET_A_KEY_EPOCH,
	UET_A_KEY_MODE,
	UET_A_KEY_TX,

	__UET_A_KEY_MAX,
	UET_A_KEY_MAX = (__UET_A_KEY_MAX - 1)
};

enum {
	UET_CMD_DEV_GET = 1,
	UET_CMD_DEV_SET,
	UET_CMD_JOB_GET,
	UET_CMD_JOB_ADD,
	UET_CMD_JOB_DEL,
	UET_CMD_PROFILE_GET,
	UET_CMD_PROFILE_SET,
	UET_CMD_PDC_GET,
	UET_CMD_PDC_CLOSE,
	UET_CMD_STATS_GET,
	UET_CMD_KEY_ADD,
	UET_CMD_KEY_DEL,
	UET_CMD_KEY_GET,
	UET_CMD_KEY_SET,
	UET_CMD_DEV_ADD_NTF,
	UET_CMD_DEV_CHANGE_NTF,
	UET_CMD_DEV_DEL_NTF,
	UET_CMD_JOB_ADD_NTF,
	UET_CMD_JOB_DEL_NTF,
	UET_CMD_PDC_ADD_NTF,
	UET_CMD_PDC_DEL_NTF,

	__UET_CMD_MAX,
	UET_CMD_MAX = (__UET_CMD_MAX - 1)
};

#endif /* _UAPI_LINUX_UET_NETLINK_H */
