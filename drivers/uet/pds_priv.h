/* SPDX-License-Identifier: GPL-2.0 */
/*
 * uet PDS internals, shared by its files: pds_ccx.c (congestion
 * contexts), rudi.c (RUDI, without PDCs), pds_pdc.c (PDC objects and
 * their tables), pds_ra.c (rate advice), pds_tx.c (the initiator: the scheduler, transmit, ACKs
 * and NACKs received), pds_rx.c (the target: requests, the ACKs and NACKs
 * it sends, control packets; and where every received packet enters) and
 * pds.c (the device: its scanner, its control-plane requests, teardown).
 * Each calls only the files before it in that list.  Nothing outside them
 * includes this.
 */
#ifndef _UET_PDS_PRIV_H
#define _UET_PDS_PRIV_H

#include <linux/jhash.h>
#include <uapi/linux/uet_netlink.h>

#include "pds.h"

struct uet_pds_ctl_info;
struct uet_pds_hdr_info;

/*
 * Answers to packets that no PDC takes go to whatever source the packet
 * claims: a device sends at most UET_PDS_ANSWER_BURST of them per
 * UET_PDS_ANSWER_INTERVAL, so that it cannot be made to reflect a flood.
 * Ours, in the spirit of Linux's bound on ICMP errors
 * (net.ipv4.icmp_msgs_per_sec) but lower: one answer per lost PDC is
 * enough, its initiator gives the PDC up at the first.
 */
#define UET_PDS_ANSWER_INTERVAL	HZ
#define UET_PDS_ANSWER_BURST	100

/*
 * New requests a PDC puts on the wire in one go: when a sender finds it
 * idle, and for each ACK, NACK or timeout after that; and RUDI requests,
 * new or resent, per event or per pass of the RUDI table's work.  A
 * window's worth at once would overrun the receive backlog of a peer on
 * the same host (veth delivers into the sending CPU's, and
 * netdev_max_backlog is 1000 by default; measured: 367 drops in 8 MiB
 * sent without this bound).
 */
#define UET_PDS_TX_BURST	32

/*
 * The ACK_CC's NSCC service time, how long the target held the ACK after
 * the request it names arrived, counts units of 2^8 ns: 16 bits reach
 * 16.7 ms, well beyond the default ACK delay (500 us); a longer time
 * saturates, and the sender takes no RTT sample from it.  The sources
 * give the field no unit (Documentation/wire-format.rst): this is ours.
 */
#define UET_PDS_SERVICE_TIME_SHIFT	8

/* The device's scanner's tick: how often it looks at the PDCs due. */
#define UET_PDS_SCAN_MS		100

static inline void pdc_get(struct uet_pds_pdc *pdc)
{
	refcount_inc(&pdc->ref);
}

/* Congestion control @cc (enum uet_cc) has NSCC's window ... */
static inline bool pds_cc_nscc(u8 cc)
{
	return cc == UET_CC_NSCC || cc == UET_CC_NSCC_RCCC;
}

/* ... and RCCC's credit. */
static inline bool pds_cc_rccc(u8 cc)
{
	return cc == UET_CC_RCCC || cc == UET_CC_NSCC_RCCC;
}

/* pds_ccx.c */
u8 pds_cc_wanted(struct uet_dev *udev, const struct uet_pds_key *key);
void pds_cc_count(struct uet_dev *udev, enum uet_nscc_event ev);
struct uet_pds_ccx *pds_ccx_of(struct uet_dev *udev,
			       const struct uet_pds_key *key);
struct uet_pds_ccx *pds_ccx_get(struct uet_pds *pds,
				const struct in6_addr *raddr, u8 tc,
				const struct uet_nscc_cfg *cfg);
void pds_ccx_put(struct uet_pds *pds, struct uet_pds_ccx *ccx, u32 own);
bool pds_ccx_may_send(struct uet_pds_ccx *ccx, u32 own);
u32 pds_ccx_cap(struct uet_pds_ccx *ccx, u32 own);
void pds_ccx_sent(struct uet_pds_ccx *ccx, u32 *own, u32 bytes);
enum uet_nscc_event pds_ccx_ack(struct uet_pds_ccx *ccx, u32 *own,
				const struct uet_nscc_ack *ack, u64 now);
enum uet_nscc_event pds_ccx_trim(struct uet_pds_ccx *ccx, u32 bytes, u64 now);
enum uet_nscc_event pds_ccx_timeout(struct uet_pds_ccx *ccx, u32 bytes);
void pds_ccx_forget(struct uet_pds_ccx *ccx, u32 *own, u32 bytes);
u32 pds_ccx_credit(struct uet_pds_ccx *ccx, u32 rtt, u64 srtt);
void pds_ccx_read(struct uet_pds *pds, struct uet_pds_ccx *ccx,
		  struct uet_nscc *cc, u32 *pdcs);

/* pds_pdc.c */
void pdc_put(struct uet_pds_pdc *pdc);
void pdc_out(struct uet_pds_pdc *pdc, struct sk_buff *skb);
void pdc_unlock(struct uet_pds_pdc *pdc) __releases(&pdc->lock);
void pdc_unlock_bh(struct uet_pds_pdc *pdc) __releases(&pdc->lock);
struct uet_pds_src *src_get(struct uet_dev *udev, const struct in6_addr *addr);
void src_put(struct uet_pds *pds, struct uet_pds_src *src);
struct sk_buff *pds_hdr_skb(const struct uet_pds_hdr_info *h,
			    unsigned int len);
bool pds_answer(struct uet_dev *udev, const struct sk_buff *rx,
		const struct uet_pds_hdr_info *h, unsigned int len,
		const struct in6_addr *daddr);
struct uet_pds_pdc *pdc_find_initiator(struct uet_pds *pds,
				       const struct uet_pds_key *key);
struct uet_pds_pdc *pdc_find_target(struct uet_pds *pds,
				    const struct in6_addr *raddr, u16 rpdcid,
				    u32 domain);

/*
 * A target PDC's secure domain, as its table keys it: 0 for one a clear
 * SYN made, else the job whose domain its SYN opened in, plus one.
 */
static inline u32 pdc_tgt_domain(bool sealed, u32 job)
{
	return sealed ? job + 1 : 0;
}

void pdc_unhash(struct uet_pds_pdc *pdc);
void pdc_event(struct uet_pds_pdc *pdc, bool added);
u64 pds_tick_of(unsigned long at);
void pdc_wheel_add(struct uet_pds_pdc *pdc, unsigned long at);
void pdc_wheel_sooner(struct uet_pds_pdc *pdc, unsigned long at);
void pdc_look_soon(struct uet_pds_pdc *pdc);
void pdc_set_reclaim(struct uet_pds_pdc *pdc);
int pds_tables_init(struct uet_pds *pds);
void pds_tables_destroy(struct uet_pds *pds);
struct uet_pds_pdc *pdc_alloc(struct uet_dev *udev,
			      const struct uet_pds_key *key, bool initiator,
			      u32 start_psn, u16 rpdcid, bool sealed);
struct uet_pds_live *pdc_wake(struct uet_pds_pdc *pdc,
			      enum hrtimer_restart (*expired)(struct hrtimer *),
			      enum hrtimer_restart (*paced)(struct hrtimer *));
void pdc_sleep(struct uet_pds_pdc *pdc);
void pdc_cc_refresh(struct uet_pds_pdc *pdc);
const struct uet_pdc *pdc_core(const struct uet_pds_pdc *pdc,
			       struct uet_pdc *tmp);
bool pdc_admits(const struct uet_pds_pdc *pdc, const struct sk_buff *skb);
struct uet_pds_pdc *pdc_get_by_id(struct uet_dev *udev,
				  const struct sk_buff *skb, u16 lpdcid,
				  bool initiator, u16 spdcid,
				  const struct in6_addr *saddr);
bool pdc_peer_is(const struct uet_pds_pdc *pdc, u16 spdcid);
bool pdc_quiet(const struct uet_pds_pdc *pdc);

/* pds_ra.c */
void pds_rcv_ra(struct uet_dev *udev, const struct sk_buff *skb);
bool pdc_ra_may_send(struct uet_pds_pdc *pdc);
void pdc_ra_wait(struct uet_pds_pdc *pdc);
void pdc_ra_lapse(struct uet_pds_pdc *pdc);
void pdc_ra_read(const struct uet_pds_pdc *pdc, struct uet_pdc_info *info);

/* pds_tx.c */
void pds_tx_work(struct work_struct *work);
void pds_tx_unwait_all(struct uet_pds *pds);
void pdc_fail_all(struct uet_pds_pdc *pdc, int err);
void pdc_close_progress(struct uet_pds_pdc *pdc);
void pdc_start_close(struct uet_pds_pdc *pdc);
void pds_rcv_ack(struct uet_dev *udev, struct sk_buff *skb,
		 const struct uet_pds_hdr_info *h, unsigned int hlen,
		 const struct in6_addr *saddr, bool ce);
void pds_rcv_nack(struct uet_dev *udev, const struct sk_buff *skb,
		  const struct uet_pds_hdr_info *h,
		  const struct in6_addr *saddr);
void pds_rcv_credit(struct uet_dev *udev, const struct sk_buff *skb,
		    const struct uet_pds_ctl_info *ctl,
		    const struct in6_addr *saddr);

/* pds_credit.c */
void pdc_credit_want(struct uet_pds_pdc *pdc, u32 target, bool answer);
void pds_credit_init(struct uet_pds *pds);
void pds_credit_fini(struct uet_pds *pds);

/* pds_rx.c */
void pdc_send_ctl(struct uet_pds_pdc *pdc, u8 type, u32 payload);

#endif /* _UET_PDS_PRIV_H */
