// SPDX-License-Identifier: GPL-2.0
/*
 * uet verbs glue.
 *
 * The RDMA core allocates most objects (INIT_RDMA_OBJ_SIZE below) and
 * calls the driver to fill them in.  This file holds the device and port
 * attributes, contexts, protection domains and the ops table; the other
 * objects live in their own files (ah.c, cq.c, mr.c, qp.c, srq.c, with the
 * shared queues of the rxe user ABI in queue.c and the data path in
 * xfer.c).
 */
#include <linux/etherdevice.h>
#include <linux/log2.h>
#include <linux/netdevice.h>
#include <rdma/ib_mad.h>
#include <rdma/ib_verbs.h>
#include <uapi/linux/uet.h>

#include "compat.h"
#include "uet.h"
#include "verbs.h"

/* Device limits reported to applications (ibv_devinfo). */
#define UET_MAX_PD		0x10000
#define UET_MAX_MSG_SIZE	0x80000000u	/* 2 GiB, as IB allows */
#define UET_GID_TABLE_LEN	1024
#define UET_VENDOR_ID		0xffffff	/* no IEEE OUI assigned */
#define UET_MAX_CQ		0x10000

static int uet_query_device(struct ib_device *ibdev, struct ib_device_attr *attr,
			    struct ib_udata *udata)
{
	struct uet_dev *udev = to_uet_dev(ibdev);

	if (udata->inlen || udata->outlen)
		return -EINVAL;

	memset(attr, 0, sizeof(*attr));
	attr->vendor_id = UET_VENDOR_ID;
	attr->sys_image_guid = udev->ibdev.node_guid;
	attr->max_mr_size = U64_MAX;
	attr->page_size_cap = PAGE_SIZE;
	attr->max_pd = UET_MAX_PD;
	attr->max_qp = UET_QPN_LAST - UET_QPN_FIRST + 1;
	attr->max_qp_wr = UET_MAX_QP_WR;
	attr->max_send_sge = UET_MAX_SGE;
	attr->max_recv_sge = UET_MAX_SGE;
	attr->max_sge_rd = UET_MAX_SGE;
	attr->max_cq = UET_MAX_CQ;
	attr->max_cqe = UET_MAX_CQE;
	attr->max_mr = UET_MAX_MR;
	attr->max_ah = UET_MAX_AH;
	attr->max_srq = UET_MAX_SRQ;
	attr->max_srq_wr = UET_MAX_SRQ_WR;
	attr->max_srq_sge = UET_MAX_SGE;
	attr->max_fast_reg_page_list_len = UET_MAX_FMR_PAGES;
	attr->max_pkeys = 1;
	attr->max_qp_rd_atom = UET_MAX_RD_ATOMIC;
	attr->max_qp_init_rd_atom = UET_MAX_RD_ATOMIC;
	attr->max_res_rd_atom = UET_MAX_RD_ATOMIC * attr->max_qp;
	/* atomics are atomic among the device's own (ri.h) */
	attr->atomic_cap = IB_ATOMIC_HCA;
	attr->device_cap_flags = IB_DEVICE_RC_RNR_NAK_GEN |
				 IB_DEVICE_SRQ_RESIZE |
				 IB_DEVICE_MEM_MGT_EXTENSIONS |
				 IB_DEVICE_SYS_IMAGE_GUID;
	attr->kernel_cap_flags = IBK_ALLOW_USER_UNREG;
	return 0;
}

/* Largest IB MTU whose payload fits a UET packet in @mtu bytes of IP. */
static enum ib_mtu uet_ib_mtu(unsigned int mtu)
{
	int payload = (int)mtu - UET_MAX_OVERHEAD;

	if (payload >= 4096)
		return IB_MTU_4096;
	if (payload >= 2048)
		return IB_MTU_2048;
	if (payload >= 1024)
		return IB_MTU_1024;
	if (payload >= 512)
		return IB_MTU_512;
	return IB_MTU_256;
}

static int uet_query_port(struct ib_device *ibdev, u32 port,
			  struct ib_port_attr *attr)
{
	struct net_device *ndev = to_uet_dev(ibdev)->ndev;

	/* The core hands @attr in zeroed. */
	attr->max_mtu = IB_MTU_4096;
	attr->active_mtu = uet_ib_mtu(READ_ONCE(ndev->mtu));
	attr->gid_tbl_len = UET_GID_TABLE_LEN;
	attr->pkey_tbl_len = 1;
	attr->port_cap_flags = IB_PORT_CM_SUP;
	attr->max_msg_sz = UET_MAX_MSG_SIZE;
	if (netif_running(ndev) && netif_carrier_ok(ndev)) {
		attr->state = IB_PORT_ACTIVE;
		attr->phys_state = IB_PORT_PHYS_STATE_LINK_UP;
	} else {
		attr->state = IB_PORT_DOWN;
		attr->phys_state = IB_PORT_PHYS_STATE_DISABLED;
	}

	/* No speed while the netdev goes away: report the slowest. */
	if (ib_get_eth_speed(ibdev, port, &attr->active_speed,
			     &attr->active_width)) {
		attr->active_speed = IB_SPEED_SDR;
		attr->active_width = IB_WIDTH_1X;
	}
	return 0;
}

static int uet_get_port_immutable(struct ib_device *ibdev, u32 port,
				  struct ib_port_immutable *immutable)
{
	struct ib_port_attr attr = {};
	int err;

	/*
	 * Ethernet link layer with IP-based GIDs: the RDMA core keeps the GID
	 * table in step with the netdev's addresses, which is what address
	 * resolution and perftest rely on.  MADs: the MAD layer's GSI QP is a
	 * datagram QP like any other, so the IB CM and rdma_cm run over it.
	 */
	immutable->core_cap_flags = RDMA_CORE_PORT_IBA_ROCE_UDP_ENCAP;
	immutable->max_mad_size = IB_MGMT_MAD_SIZE;
	err = ib_query_port(ibdev, port, &attr);
	if (err)
		return err;
	immutable->pkey_tbl_len = attr.pkey_tbl_len;
	immutable->gid_tbl_len = attr.gid_tbl_len;
	return 0;
}

static int uet_query_pkey(struct ib_device *ibdev, u32 port, u16 index, u16 *pkey)
{
	if (index)
		return -EINVAL;
	*pkey = IB_DEFAULT_PKEY_FULL;
	return 0;
}

static enum rdma_link_layer uet_get_link_layer(struct ib_device *ibdev, u32 port)
{
	return IB_LINK_LAYER_ETHERNET;
}

/*
 * uet reports its netdev through the get_netdev op rather than
 * ib_device_set_netdev(): devices in the core's netdev hash are found by
 * driver id, and uet shares rxe's driver id (see uet_dev_ops), so rxe's
 * netdev notifier would otherwise take a uet device for one of its own.
 */
static struct net_device *uet_get_netdev(struct ib_device *ibdev, u32 port)
{
	struct net_device *ndev = to_uet_dev(ibdev)->ndev;

	dev_hold(ndev);
	return ndev;
}

static int uet_alloc_ucontext(struct ib_ucontext *ibuc, struct ib_udata *udata)
{
	return 0;
}

static void uet_dealloc_ucontext(struct ib_ucontext *ibuc)
{
}

/*
 * The device goes while a process holds it (rdma link del, module
 * unload): the core then destroys the process's objects through the
 * usual destroy ops and fails its later calls, so "rdma link del" does
 * not wait for programs to close the device.  Nothing is left for uet to
 * do: its only mappings are the queues' pages (queue.c), which keep
 * their own references while the process maps them, so the process
 * reads stale memory, never freed memory.
 */
static void uet_disassociate_ucontext(struct ib_ucontext *ibuc)
{
}

static int uet_alloc_pd(struct ib_pd *ibpd, struct ib_udata *udata)
{
	return 0;
}

static int uet_dealloc_pd(struct ib_pd *ibpd, struct ib_udata *udata)
{
	return 0;
}

/**
 * uet_key_gen() - the generation of the next memory key
 * @udev: the device
 *
 * Return: 8 bits that differ from one registration to the next, so that a
 * key of a deregistered region does not name its successor.
 */
u32 uet_key_gen(struct uet_dev *udev)
{
	return (u32)atomic_inc_return(&udev->vdev.key_gen) &
	       (BIT(UET_KEY_GEN_BITS) - 1);
}

/**
 * uet_vdev_init() - set up a device's verbs object tables
 * @udev: the device, before registration
 */
void uet_vdev_init(struct uet_dev *udev)
{
	/*
	 * Commands the core leaves disabled unless the driver asks: the rxe
	 * provider rings the doorbell with post_send and arms CQs with
	 * req_notify_cq.  Posting receives and polling stay in userspace.
	 */
	udev->ibdev.uverbs_cmd_mask |= BIT_ULL(IB_USER_VERBS_CMD_POST_SEND) |
				       BIT_ULL(IB_USER_VERBS_CMD_REQ_NOTIFY_CQ);
	ida_init(&udev->vdev.qpns);
	ida_init(&udev->vdev.srqns);
	xa_init_flags(&udev->vdev.mrs, XA_FLAGS_ALLOC1 | XA_FLAGS_LOCK_BH);
	xa_init_flags(&udev->vdev.ahs, XA_FLAGS_ALLOC1 | XA_FLAGS_LOCK_IRQ);
}

/**
 * uet_vdev_fini() - release the tables; the core destroyed every object
 * @udev: the device
 */
void uet_vdev_fini(struct uet_dev *udev)
{
	WARN_ON(!xa_empty(&udev->vdev.mrs) || !xa_empty(&udev->vdev.ahs));
	xa_destroy(&udev->vdev.mrs);
	xa_destroy(&udev->vdev.ahs);
	ida_destroy(&udev->vdev.qpns);
	ida_destroy(&udev->vdev.srqns);
}

static int uet_create_cq_op(struct ib_cq *ibcq,
			    const struct ib_cq_init_attr *attr,
			    UET_CREATE_CQ_UDATA_ARG)
{
	return uet_create_cq(ibcq, attr, uet_create_cq_udata(attrs));
}

static void uet_dealloc_driver(struct ib_device *ibdev)
{
	uet_dev_release(to_uet_dev(ibdev));
}

/*
 * driver_id is rxe's: rdma-core matches its rxe provider to a device by
 * this id, and uet implements rxe's user ABI (decision 4 of the design).
 */
const struct ib_device_ops uet_dev_ops = {
	.owner = THIS_MODULE,
	.driver_id = RDMA_DRIVER_RXE,
	.uverbs_abi_ver = UET_UVERBS_ABI_VERSION,

	.alloc_mr = uet_alloc_mr,
	.alloc_pd = uet_alloc_pd,
	.alloc_ucontext = uet_alloc_ucontext,
	.create_ah = uet_create_ah,
	.create_cq = uet_create_cq_op,
	.create_qp = uet_create_qp,
	.create_srq = uet_create_srq,
	.create_user_ah = uet_create_ah,
	.dealloc_driver = uet_dealloc_driver,
	.dealloc_pd = uet_dealloc_pd,
	.dealloc_ucontext = uet_dealloc_ucontext,
	.dereg_mr = uet_dereg_mr,
	.destroy_ah = uet_destroy_ah,
	.destroy_cq = uet_destroy_cq,
	.destroy_qp = uet_destroy_qp,
	.destroy_srq = uet_destroy_srq,
	.disassociate_ucontext = uet_disassociate_ucontext,
	.get_dma_mr = uet_get_dma_mr,
	.get_link_layer = uet_get_link_layer,
	.get_netdev = uet_get_netdev,
	.get_port_immutable = uet_get_port_immutable,
	.map_mr_sg = uet_map_mr_sg,
	.mmap = uet_mmap,
	.mmap_free = uet_mmap_free,
	.modify_qp = uet_modify_qp,
	.modify_srq = uet_modify_srq,
	.poll_cq = uet_poll_cq,
	.post_recv = uet_post_recv,
	.post_send = uet_post_send,
	.post_srq_recv = uet_post_srq_recv,
	.query_ah = uet_query_ah,
	.query_device = uet_query_device,
	.query_pkey = uet_query_pkey,
	.query_port = uet_query_port,
	.query_qp = uet_query_qp,
	.query_srq = uet_query_srq,
	.reg_user_mr = uet_reg_user_mr,
	.req_notify_cq = uet_req_notify_cq,
	.resize_cq = uet_resize_cq,

	INIT_RDMA_OBJ_SIZE(ib_ah, uet_ah, ibah),
	INIT_RDMA_OBJ_SIZE(ib_cq, uet_cq, ibcq),
	INIT_RDMA_OBJ_SIZE(ib_pd, uet_pd, ibpd),
	INIT_RDMA_OBJ_SIZE(ib_qp, uet_qp, ibqp),
	INIT_RDMA_OBJ_SIZE(ib_srq, uet_srq, ibsrq),
	INIT_RDMA_OBJ_SIZE(ib_ucontext, uet_ucontext, ibuc),
};
