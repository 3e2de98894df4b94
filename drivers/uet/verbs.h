/* SPDX-License-Identifier: GPL-2.0 */
/*
 * uet verbs glue: translation between the RDMA core's ib_* objects and the
 * UET engine.  Prototypes are grouped by the file that implements them.
 */
#ifndef _UET_VERBS_H
#define _UET_VERBS_H

#include <linux/idr.h>
#include <linux/in6.h>
#include <linux/xarray.h>
#include <rdma/ib_verbs.h>

#include "compat.h"
#include "mem.h"
#include "queue.h"
#include "ri.h"
#include "ses.h"

/*
 * ABI version of the soft-RoCE user ABI (include/uapi/rdma/rdma_user_rxe.h)
 * that uet implements so that rdma-core's stock rxe provider drives it;
 * the provider accepts versions 1 and 2 on 64-bit hosts, 2 everywhere.
 */
#define UET_UVERBS_ABI_VERSION	2

/* The single port of a uet device. */
#define UET_PORT		1

/*
 * QPNs are the endpoints' PIDonFEP (12 bits in the SES header, ses.h);
 * QPN 0 and 1 are the special QPs of IB (SMI, GSI): no SMI on Ethernet,
 * and QPN 1 only for the GSI QP the MAD layer creates.
 */
#define UET_QPN_GSI		1
#define UET_QPN_FIRST		2
#define UET_QPN_LAST		(BIT(UET_PID_BITS) - 1)

/*
 * A UD work request's Q_Key with this bit set stands for the sending QP's
 * own Q_Key (IBA vol. 1, Q_Keys; ib_mad.h's IB_QP_SET_QKEY).
 */
#define UET_QKEY_OWN		BIT(31)

/* Limits reported in the device attributes and enforced at creation. */
#define UET_MAX_QP_WR		16383
/*
 * The most a uet queue holds (queue.c).  Middleware sizes its CQs for the
 * whole job: libfabric's ofi_rxm asks (128 receive + 128 send entries) x
 * 256 peers = 65,536 for its verbs CQ with its defaults.
 */
#define UET_MAX_CQE		(BIT(20) - 1)
#define UET_MAX_SRQ_WR		16383
#define UET_MAX_INLINE		512
#define UET_MAX_FMR_PAGES	512
#define UET_MAX_MR		0x100000
#define UET_MAX_AH		0x10000
#define UET_MAX_SRQ		0x10000
/*
 * RDMA reads and atomics in flight per QP, as initiator and as target
 * (IB: 8 bits): what the endpoint allows of atomics (ses.h).
 */
#define UET_MAX_RD_ATOMIC	UET_SES_AMO_MAX

/*
 * Bytes of a QP's messages in the data path, handed on and not completed,
 * above which its send queue waits for completions.  Ours: four 1 MiB
 * messages, three times what a PDC's tracking window (UET_PDC_WND_MAX
 * packets of some 1.4 KB at MTU 1500) has in flight, so the window does
 * not wait for the next message; the doorbell returns after at most that
 * much work, and the data path holds no more than that of a QP's backlog.
 * A larger message goes alone.
 */
#define UET_SQ_BYTES_MAX	(4 << 20)

/*
 * Bytes in the data path up to which a doorbell's caller hands WQEs over
 * itself (uet_qp_sq_run()); beyond, the QP's work item does.  Ours: one
 * 64 KiB message (48 packets at MTU 1500), so small messages leave at
 * once and a doorbell never does more than that much work.
 */
#define UET_SQ_INLINE_BYTES	(64 << 10)

/* A memory key: table index above, 8-bit generation below. */
#define UET_KEY_GEN_BITS	8

/**
 * struct uet_vdev - a device's verbs objects
 * @qpns: QPNs in use.
 * @srqns: SRQ numbers in use.
 * @mrs: memory regions by key index; readers under RCU, writers take the
 *	xarray's lock (_bh).
 * @ahs: address handles by number, for UD work requests from userspace;
 *	lookups copy the AH under the xarray's lock, taken _irqsave: the IB
 *	CM creates and destroys AHs with interrupts off.
 * @key_gen: generation given to the next memory key.
 */
struct uet_vdev {
	struct ida qpns;
	struct ida srqns;
	struct xarray mrs;
	struct xarray ahs;
	atomic_t key_gen;
};

struct uet_ucontext {
	struct ib_ucontext ibuc;
};

struct uet_pd {
	struct ib_pd ibpd;
};

/**
 * struct uet_av - where a QP or an AH sends to
 * @dgid: the peer's GID, which is its IP address (IPv4 as v4-mapped).
 * @sgid_index: the local GID the peer knows us by.
 * @flow_label: @hop_limit: @tclass: @sl: kept for query; the IP header
 *	of UET packets is built by the engine.
 * @dmac: resolved by the RDMA core; kept for query.
 */
struct uet_av {
	struct in6_addr dgid;
	u8 sgid_index;
	u32 flow_label;
	u8 hop_limit;
	u8 tclass;
	u8 sl;
	u8 dmac[ETH_ALEN];
};

struct uet_ah {
	struct ib_ah ibah;
	struct uet_av av;
	u32 num;
};

/**
 * struct uet_cq - a completion queue
 * @ibcq: the core's CQ.
 * @lock: protects @queue (the kernel's side, resizing), @notify.
 * @queue: completions: struct ib_uverbs_wc for a user CQ, struct ib_wc
 *	for a kernel CQ.
 * @user: created by a process.
 * @notify: armed by req_notify_cq: 0, IB_CQ_SOLICITED or IB_CQ_NEXT_COMP.
 */
struct uet_cq {
	struct ib_cq ibcq;
	spinlock_t lock;	/* see above */
	struct uet_queue queue;
	bool user;
	u8 notify;
};

/**
 * struct uet_srq - a shared receive queue
 * @ibsrq: the core's SRQ.
 * @lock: protects @queue's kernel side, @limit, @max_sge.
 * @queue: struct rxe_recv_wqe entries.
 * @user: created by a process.
 * @max_sge: scatter entries a WQE may hold.
 * @limit: the armed SRQ limit (0: disarmed).
 * @num: the SRQ number.
 */
struct uet_srq {
	struct ib_srq ibsrq;
	spinlock_t lock;	/* see above */
	struct uet_queue queue;
	bool user;
	u32 max_sge;
	u32 limit;
	u32 num;
};

/**
 * struct uet_wq - the send or the receive queue of a QP
 * @lock: protects @queue's kernel side (and its producer side for a kernel
 *	QP), @wqe.
 * @queue: struct rxe_send_wqe or struct rxe_recv_wqe entries.
 * @max_sge: @max_inline: capacities given to the creator.
 * @wqe: private copy of the WQE being worked on: userspace can rewrite the
 *	shared slot at any time, so nothing is read twice from it.
 * @busy: a drainer runs (send queue) ...
 * @again: ... and must look once more before it stops.
 *
 * @lock is taken with interrupts saved: kernel users post from any
 * context.
 */
struct uet_wq {
	spinlock_t lock;	/* see above */
	struct uet_queue queue;
	u32 max_sge;
	u32 max_inline;
	void *wqe;
	bool busy;
	bool again;
};

/**
 * struct uet_qp - a queue pair (RC, UC or UD)
 * @ibqp: the core's QP; ibqp.qp_num is the QPN.
 * @udev: the device.
 * @user: created by a process.
 * @sq: @rq: the work queues; @rq is unused with an SRQ.
 * @srq: the shared receive queue, or %NULL.
 * @attr_lock: protects everything below; the data path reads @state with
 *	READ_ONCE().
 * @state: the QP state.
 * @attr: the attributes set by modify_qp (the core's encoding), for query
 *	and for the data path: dest_qp_num, qkey, qp_access_flags, retry_cnt,
 *	rnr_retry, timeout, min_rnr_timer, path_mtu, sq_psn, rq_psn,
 *	max_rd_atomic, max_dest_rd_atomic, pkey_index, port_num.
 * @av: the peer of a connected QP (IB_QP_AV).
 * @sq_sig_all: every send WQE completes.
 * @ep: the UET endpoint {UET_JOB_DEFAULT, QPN} (xfer.c).
 * @ep_lock: serialises the use of @ep: posting, closing and reopening it.
 * @rcopy: room for one receive WQE, copied out of the shared queue by
 *	@ep, which serialises its use under its own lock (xfer.c).
 * @xfer_lock: protects @recvs, @done, @closing, @ep_flushed.
 * @recvs: receive WQEs @ep took for messages (struct uet_xfer).
 * @done: completed work whose references are dropped by @work.
 * @closing: the QP is being destroyed: no more CQEs for cancellations.
 * @ep_flushed: @ep was emptied since the QP entered the error state.
 * @retry: sends the target took as not the peer's, waiting to be posted
 *	again (struct uet_xfer), oldest first.
 * @amo_inflight: atomics handed to @ep and not completed: the send queue
 *	stalls at max_rd_atomic of them (xfer.c).
 * @sq_bytes: bytes of the messages handed to @ep and not completed: the
 *	send queue stalls at UET_SQ_BYTES_MAX (xfer.c).
 * @work: process-context work of the data path: dropping references,
 *	posting @retry again, draining the send queue for kernel users that
 *	posted from atomic context, flushing @ep.
 * @memcg: a user QP's: the memory cgroup of the process that created it,
 *	referenced.  What the data path holds for the QP's work is charged
 *	there, by @work as by the process's own system calls; a kernel QP's
 *	is %NULL, charged to none.
 */
struct uet_qp {
	struct ib_qp ibqp;
	struct uet_dev *udev;
	bool user;
	struct uet_wq sq;
	struct uet_wq rq;
	struct uet_srq *srq;

	spinlock_t attr_lock;	/* see above */
	enum ib_qp_state state;
	struct ib_qp_attr attr;
	struct uet_av av;
	bool sq_sig_all;

	struct uet_ep *ep;
	struct mutex ep_lock;	/* see above */
	void *rcopy;
	spinlock_t xfer_lock;	/* see above */
	struct list_head recvs;
	struct list_head done;
	bool closing;
	bool ep_flushed;
	struct list_head retry;
	atomic_t amo_inflight;
	atomic_long_t sq_bytes;
	struct delayed_work work;
	struct mem_cgroup *memcg;
};

/* Inline data: only sends and writes carry it; other WQEs ignore the flag. */
static inline bool uet_wqe_inline(u32 opcode, u32 send_flags)
{
	return send_flags & IB_SEND_INLINE &&
	       (opcode == IB_WR_SEND || opcode == IB_WR_SEND_WITH_IMM ||
		opcode == IB_WR_RDMA_WRITE || opcode == IB_WR_RDMA_WRITE_WITH_IMM);
}

/* The RI table's access bits (ri.h) for IB access flags. */
static inline u32 uet_ri_access(int access)
{
	return (access & IB_ACCESS_REMOTE_READ ? UET_ACCESS_REMOTE_READ : 0) |
	       (access & IB_ACCESS_REMOTE_WRITE ? UET_ACCESS_REMOTE_WRITE : 0) |
	       (access & IB_ACCESS_REMOTE_ATOMIC ? UET_ACCESS_REMOTE_ATOMIC : 0);
}

/**
 * enum uet_mr_kind - how a memory region finds its bytes
 * @UET_MR_USER: pinned user pages (reg_user_mr)
 * @UET_MR_DMA: all of kernel memory, addressed by kernel virtual address
 *	(get_dma_mr)
 * @UET_MR_FAST: pages mapped by map_mr_sg, valid after a REG_MR work
 *	request (alloc_mr)
 */
enum uet_mr_kind {
	UET_MR_USER,
	UET_MR_DMA,
	UET_MR_FAST,
};

/**
 * struct uet_mr - a memory region
 * @ibmr: the core's MR: lkey, rkey, iova, length, pd.
 * @kind: see enum uet_mr_kind.
 * @access: IB_ACCESS_* granted.
 * @valid: usable (a fast MR between REG_MR and LOCAL_INV).
 * @umem: the pinned user memory (%UET_MR_USER).
 * @pages: the region's pages, in order (%UET_MR_USER, %UET_MR_FAST).
 * @npages: entries of @pages in use ...
 * @max_pages: ... and allocated.
 * @offset: byte 0's offset in @pages[0].
 * @mem: the region as the engine knows it (@pages, @offset...).
 * @in_ri: entered in the device's RI table (a fast MR from allocation
 *	on, without access while invalid) ...
 * @ri_key: ... under this key: ibmr.rkey, but for the low byte a
 *	consumer may change (ib_update_fast_reg_key()) before its REG_MR.
 * @ref: one for the MR table, one per posted work that names the region;
 *	the last one frees it.  Puts happen in process context only (the
 *	data path drops its references from its work items).
 * @rcu: frees the MR after lockless lookups (struct uet_vdev.mrs).
 */
struct uet_mr {
	struct ib_mr ibmr;
	enum uet_mr_kind kind;
	int access;
	bool valid;
	struct ib_umem *umem;
	struct page **pages;
	unsigned int npages;
	unsigned int max_pages;
	unsigned int offset;
	struct uet_mem mem;
	bool in_ri;
	u32 ri_key;
	refcount_t ref;
	struct rcu_head rcu;
};

static inline struct uet_pd *to_uet_pd(struct ib_pd *ibpd)
{
	return container_of(ibpd, struct uet_pd, ibpd);
}

static inline struct uet_ah *to_uet_ah(struct ib_ah *ibah)
{
	return container_of(ibah, struct uet_ah, ibah);
}

static inline struct uet_cq *to_uet_cq(struct ib_cq *ibcq)
{
	return container_of(ibcq, struct uet_cq, ibcq);
}

static inline struct uet_srq *to_uet_srq(struct ib_srq *ibsrq)
{
	return container_of(ibsrq, struct uet_srq, ibsrq);
}

static inline struct uet_qp *to_uet_qp(struct ib_qp *ibqp)
{
	return container_of(ibqp, struct uet_qp, ibqp);
}

/* Bytes of the GRH in front of a UD receive (IB spec 8.3). */
#define UET_GRH_LEN		sizeof(struct ib_grh)

/* UD and GSI QPs: datagrams addressed by an AH, over UUD. */
static inline bool uet_qp_datagram(const struct uet_qp *qp)
{
	return qp->ibqp.qp_type == IB_QPT_UD || qp->ibqp.qp_type == IB_QPT_GSI;
}

/*
 * Move a QP to the error state (a fatal send error), from any context;
 * what it still holds is flushed by its work item or the next verb.
 */
static inline void uet_qp_error(struct uet_qp *qp)
{
	unsigned long flags;

	spin_lock_irqsave(&qp->attr_lock, flags);
	WRITE_ONCE(qp->state, IB_QPS_ERR);
	spin_unlock_irqrestore(&qp->attr_lock, flags);
}

static inline struct uet_mr *to_uet_mr(struct ib_mr *ibmr)
{
	return container_of(ibmr, struct uet_mr, ibmr);
}

struct uet_dev;

/* verbs.c */
extern const struct ib_device_ops uet_dev_ops;
void uet_vdev_init(struct uet_dev *udev);
void uet_vdev_fini(struct uet_dev *udev);
u32 uet_key_gen(struct uet_dev *udev);

/* ah.c */
int uet_create_ah(struct ib_ah *ibah, struct rdma_ah_init_attr *init,
		  struct ib_udata *udata);
int uet_query_ah(struct ib_ah *ibah, struct rdma_ah_attr *attr);
int uet_destroy_ah(struct ib_ah *ibah, u32 flags);
int uet_av_from_attr(struct uet_dev *udev, struct uet_av *av,
		     const struct rdma_ah_attr *attr);
void uet_av_to_attr(const struct uet_av *av, struct rdma_ah_attr *attr);
int uet_ah_lookup(struct uet_dev *udev, struct ib_pd *pd, u32 num,
		  struct uet_av *av);

/* cq.c */
int uet_create_cq(struct ib_cq *ibcq, const struct ib_cq_init_attr *attr,
		  struct ib_udata *udata);
int uet_resize_cq(struct ib_cq *ibcq, int cqe, struct ib_udata *udata);
int uet_destroy_cq(struct ib_cq *ibcq, struct ib_udata *udata);
int uet_poll_cq(struct ib_cq *ibcq, int num_entries, struct ib_wc *wc);
int uet_req_notify_cq(struct ib_cq *ibcq, enum ib_cq_notify_flags flags);
int uet_cq_post(struct uet_cq *cq, const struct ib_wc *wc, bool solicited);
struct uet_comp;
void uet_cq_send_done(struct uet_qp *qp, u64 wr_id, u32 opcode, bool signaled,
		      enum ib_wc_status status);
void uet_cq_recv_done(struct uet_qp *qp, u64 wr_id, enum ib_wc_status status,
		      const struct uet_comp *c, bool grh);

/* mr.c */
struct ib_mr *uet_get_dma_mr(struct ib_pd *ibpd, int access);
struct ib_mr *uet_reg_user_mr(struct ib_pd *ibpd, u64 start, u64 length,
			      u64 iova, int access, struct ib_udata *udata);
struct ib_mr *uet_alloc_mr(struct ib_pd *ibpd, enum ib_mr_type type,
			   u32 max_num_sg);
int uet_map_mr_sg(struct ib_mr *ibmr, struct scatterlist *sg, int sg_nents,
		  unsigned int *sg_offset);
int uet_dereg_mr(struct ib_mr *ibmr, struct ib_udata *udata);
struct uet_mr *uet_mr_get(struct uet_dev *udev, struct ib_pd *pd, u32 key,
			  u64 addr, u64 len, int access);
void uet_mr_put(struct uet_mr *mr);
int uet_mr_reg(struct uet_qp *qp, struct ib_mr *ibmr, u32 key, int access);
int uet_mr_invalidate(struct uet_qp *qp, u32 key);

/* srq.c */
int uet_create_srq(struct ib_srq *ibsrq, struct ib_srq_init_attr *init,
		   struct ib_udata *udata);
int uet_modify_srq(struct ib_srq *ibsrq, struct ib_srq_attr *attr,
		   enum ib_srq_attr_mask mask, struct ib_udata *udata);
int uet_query_srq(struct ib_srq *ibsrq, struct ib_srq_attr *attr);
int uet_destroy_srq(struct ib_srq *ibsrq, struct ib_udata *udata);
int uet_post_srq_recv(struct ib_srq *ibsrq, const struct ib_recv_wr *wr,
		      const struct ib_recv_wr **bad_wr);
void uet_srq_consumed(struct uet_srq *srq);
int uet_recv_wqe_from_wr(void *slot, const struct ib_recv_wr *wr,
			 u32 max_sge);

/* qp.c */
int uet_create_qp(struct ib_qp *ibqp, struct ib_qp_init_attr *init,
		  struct ib_udata *udata);
int uet_modify_qp(struct ib_qp *ibqp, struct ib_qp_attr *attr, int mask,
		  struct ib_udata *udata);
int uet_query_qp(struct ib_qp *ibqp, struct ib_qp_attr *attr, int mask,
		 struct ib_qp_init_attr *init);
int uet_destroy_qp(struct ib_qp *ibqp, struct ib_udata *udata);
int uet_post_send(struct ib_qp *ibqp, const struct ib_send_wr *wr,
		  const struct ib_send_wr **bad_wr);
int uet_post_recv(struct ib_qp *ibqp, const struct ib_recv_wr *wr,
		  const struct ib_recv_wr **bad_wr);
/**
 * enum uet_ctx - who drains a queue, and whether it may sleep there
 * @UET_CTX_WORKER: the QP's work item.
 * @UET_CTX_PROCESS: a system call of the QP's owner (a user QP's doorbell,
 *	modify_qp): it may sleep, and does a bounded share of the work.
 * @UET_CTX_ANY: a kernel user's post, from any context: the work item
 *	does the work.
 */
enum uet_ctx {
	UET_CTX_WORKER,
	UET_CTX_PROCESS,
	UET_CTX_ANY,
};

void uet_qp_sq_run(struct uet_qp *qp, enum uet_ctx ctx);

#endif /* _UET_VERBS_H */
