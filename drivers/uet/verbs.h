/* SPDX-License-Identifier: GPL-2.0 */
/*
 * uet verbs glue: translation between the RDMA core's ib_* objects and the
 * UET engine.
 */
#ifndef _UET_VERBS_H
#define _UET_VERBS_H

#include <rdma/ib_verbs.h>

/*
 * ABI version of the soft-RoCE user ABI (include/uapi/rdma/rdma_user_rxe.h)
 * that uet implements so that rdma-core's stock rxe provider drives it;
 * the provider accepts versions 1 and 2 on 64-bit hosts, 2 everywhere.
 */
#define UET_UVERBS_ABI_VERSION	2

/* The single port of a uet device. */
#define UET_PORT		1

struct uet_ucontext {
	struct ib_ucontext ibuc;
};

struct uet_pd {
	struct ib_pd ibpd;
};

struct uet_cq {
	struct ib_cq ibcq;
};

struct uet_qp {
	struct ib_qp ibqp;
};

extern const struct ib_device_ops uet_dev_ops;

#endif /* _UET_VERBS_H */
