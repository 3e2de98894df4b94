/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The transmit scheduler's bookkeeping of one PDC: the messages waiting to
 * be cut into requests, the read requests to send again, and what each
 * PSN in flight carries.  Requests are cut only when the PDC may send
 * one, and per PSN the scheduler keeps where in which message the request
 * is, never a packet: the PDC builds the packet from the message's memory
 * when it leaves, and again for each retransmission (pds_tx.c).
 *
 * Part of the protocol core: no packets, no locks, no clock, so the
 * userspace unit tests compile it as is.  The caller serialises every
 * call on one struct uet_sched (the kernel holds the PDC's lock).
 */
#ifndef _UET_SCHED_H
#define _UET_SCHED_H

#include <linux/bits.h>
#include <linux/in6.h>
#include <linux/list.h>
#include <linux/types.h>

#include "seg.h"

struct uet_pds_pdc;
struct uet_rudi_path;

/**
 * struct uet_pds_msg - a message the SES layer gives a PDC to send
 * @node: on the PDC's send queue, until cut whole.
 * @seg: its requests: the bytes they carry (a send, a write) or ask for
 *	(a read, an atomic), cut in equal pieces.
 * @ncut: requests cut from it so far (given PSNs).
 * @read: its requests ask for data, which comes back in their ACKs.
 * @dst: %UET_PDC_RUDI: the target (a PDC knows its own peer) ...
 * @tc: ... and the traffic class.
 * @pdc: the PDC it was queued on; %NULL: RUDI ...
 * @path: ... and its path (rudi.c).
 * @cancelled: nobody waits for it any more (its endpoint closed): set
 *	once, under its PDC's lock (uet_pds_cancel()); its requests not cut
 *	yet are dropped when they come up (uet_sched_drop()), those in
 *	flight finish.
 *
 * The PDC builds each request only when it may leave, and builds it again
 * for a retransmission, with uet_ses_build_req(); per PSN it keeps only
 * where in which message the request is (struct uet_pds_tx).  The SES
 * layer owns the message and keeps it, and the memory its requests are
 * built from, until every request of it is done (uet_ses_tx_done()),
 * cancelled or not.
 */
struct uet_pds_msg {
	struct list_head node;
	struct uet_seg seg;
	u32 ncut;
	bool read;
	bool cancelled;
	u8 tc;
	struct in6_addr dst;
	struct uet_pds_pdc *pdc;
	struct uet_rudi_path *path;
};

#define UET_PDS_TX_USED		BIT(0)	/* a request is in flight */
#define UET_PDS_TX_CLOSE	BIT(1)	/* the PDC's CLOSE command */
#define UET_PDS_TX_READ		BIT(2)	/* asks for data */
#define UET_PDS_TX_ANSWERED	BIT(3)	/* its data or refusal arrived */
#define UET_PDS_TX_EOM		BIT(4)	/* its message's last request */
#define UET_PDS_TX_GIVE_UP	BIT(5)	/* goes with IE: uet_ses_tx_rnr() */
#define UET_PDS_TX_RESENT	BIT(6)	/* sent again: its ACKs time nothing */

/**
 * struct uet_pds_tx - the request of a PSN in flight
 * @msg: its message.
 * @off: where its payload (or what it asks for) starts in the message.
 * @len: how many bytes of it.
 * @flags: UET_PDS_TX_*.
 * @sent: when it was sent, the low 32 bits of ns: what its ACK's RTT
 *	sample is measured from (up to 4.2 s).
 * @entropy: the entropy it was sent with last (lb.h): what its ACK,
 *	trim or timeout says of that path.
 */
struct uet_pds_tx {
	struct uet_pds_msg *msg;
	u32 off;
	u16 len;
	u16 flags;
	u32 sent;
	u16 entropy;
};

/**
 * struct uet_sched - what one PDC has to send, and has sent
 * @sendq: messages (struct uet_pds_msg) with requests to cut, oldest
 *	first.
 * @reissue: read requests to send again under new PSNs, oldest first:
 *	they go before anything of @sendq.
 * @txq: the request of each PSN in flight, by PSN modulo the table's
 *	size; flags 0 once done with.  Sized to what is in flight, up to
 *	the window (uet_sched_room()); %NULL until something is.
 * @mask: the table's size, a power of two, less one; 0 without one.
 * @window: the PDC's tracking window: the table's largest size.
 */
struct uet_sched {
	struct list_head sendq;
	struct list_head reissue;
	struct uet_pds_tx *txq;
	u32 mask;
	u32 window;
};

/**
 * enum uet_sched_fate - what became of a request the PDC is done with
 * @UET_SCHED_NONE: nothing to tell: the PSN carried nothing of a message
 *	(none in flight, or the CLOSE command).
 * @UET_SCHED_DONE: tell the message's owner: one request done.
 * @UET_SCHED_REISSUE: a read acknowledged without its data waits to be
 *	sent again under a new PSN (reads are idempotent).
 */
enum uet_sched_fate {
	UET_SCHED_NONE,
	UET_SCHED_DONE,
	UET_SCHED_REISSUE,
};

/*
 * Entries of a table at its smallest (384 bytes): what a PDC takes when
 * it starts sending, enough for a few messages of a few packets in
 * flight.  A quiet PDC holds none.
 */
#define UET_SCHED_TABLE_MIN	16

void uet_sched_init(struct uet_sched *s, u32 window);
bool uet_sched_room(struct uet_sched *s, u32 una, u32 nxt, gfp_t gfp);
void uet_sched_fini(struct uet_sched *s);
void uet_sched_queue(struct uet_sched *s, struct uet_pds_msg *msg);

/* Requests wait to be cut: reads to reissue, or messages. */
static inline bool uet_sched_queued(const struct uet_sched *s)
{
	return !list_empty(&s->reissue) || !list_empty(&s->sendq);
}

u64 uet_sched_backlog(const struct uet_sched *s, u32 overhead, u64 limit);

/* The request of @psn, in flight or not. */
static inline struct uet_pds_tx *uet_sched_tx(struct uet_sched *s, u32 psn)
{
	return &s->txq[psn & s->mask];
}

void uet_sched_cut(struct uet_sched *s, u32 psn);
void uet_sched_close(struct uet_sched *s, u32 psn);
enum uet_sched_fate uet_sched_finish(struct uet_sched *s, u32 psn, int *err,
				     struct uet_pds_tx *done, gfp_t gfp);
bool uet_sched_take(struct uet_sched *s, struct uet_pds_msg **msg, u32 *n);
bool uet_sched_drop(struct uet_sched *s, struct uet_pds_msg **msg, u32 *n);

#endif /* _UET_SCHED_H */
