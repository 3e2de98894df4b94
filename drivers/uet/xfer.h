/* SPDX-License-Identifier: GPL-2.0 */
/*
 * uet data path of the verbs: send WQEs become UET operations of the QP's
 * endpoint, receive WQEs its receive buffers, and the endpoint's
 * completions become CQEs (built by cq.c).  It calls nothing above it:
 * the QP's work item (qp.c) runs its share through uet_xfer_run(), and
 * uet_xfer_kick() only schedules that work item.
 */
#ifndef _UET_XFER_H
#define _UET_XFER_H

#include <rdma/ib_verbs.h>
#include <rdma/rdma_user_rxe.h>

#include "verbs.h"

struct uet_qp;

int uet_xfer_open(struct uet_qp *qp);
void uet_xfer_modified(struct uet_qp *qp);
void uet_xfer_close(struct uet_qp *qp);
int uet_xfer_reset(struct uet_qp *qp);
enum ib_wc_status uet_xfer_send(struct uet_qp *qp, struct rxe_send_wqe *wqe);
void uet_xfer_kick(struct uet_qp *qp);
bool uet_xfer_run(struct uet_qp *qp);

#endif /* _UET_XFER_H */
