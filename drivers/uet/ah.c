// SPDX-License-Identifier: GPL-2.0
/*
 * uet address handles and address vectors.
 *
 * A uet port has IP-based GIDs (RoCEv2 style), so a destination GID is
 * the peer's IP address (IPv4 as v4-mapped IPv6): the fabric address the
 * engine sends to.  An AH created by a process gets a number that the rxe
 * provider writes into UD send WQEs (struct rxe_send_wr.wr.ud.ah_num).
 */
#include <rdma/ib_cache.h>
#include <rdma/ib_verbs.h>
#include <rdma/uverbs_ioctl.h>

#include "uet.h"
#include "verbs.h"

/**
 * uet_av_from_attr() - check an address vector and translate it
 * @udev: the device
 * @av: filled in
 * @attr: the core's address vector; it must carry a GRH whose source GID
 *	is one of the port's
 *
 * Return: 0, or -EINVAL.
 */
int uet_av_from_attr(struct uet_dev *udev, struct uet_av *av,
		     const struct rdma_ah_attr *attr)
{
	const struct ib_global_route *grh;

	if (rdma_ah_get_port_num(attr) != UET_PORT ||
	    !(rdma_ah_get_ah_flags(attr) & IB_AH_GRH) ||
	    attr->type != RDMA_AH_ATTR_TYPE_ROCE)
		return -EINVAL;
	grh = rdma_ah_read_grh(attr);
	if (!grh->sgid_attr || grh->sgid_attr->device != &udev->ibdev)
		return -EINVAL;
	memcpy(&av->dgid, grh->dgid.raw, sizeof(av->dgid));
	av->sgid_index = grh->sgid_index;
	av->flow_label = grh->flow_label;
	av->hop_limit = grh->hop_limit;
	av->tclass = grh->traffic_class;
	av->sl = rdma_ah_get_sl(attr);
	memcpy(av->dmac, attr->roce.dmac, ETH_ALEN);
	return 0;
}

/**
 * uet_av_to_attr() - the core's form of an address vector, for query
 * @av: the address vector
 * @attr: filled in, without a reference on the source GID
 */
void uet_av_to_attr(const struct uet_av *av, struct rdma_ah_attr *attr)
{
	union ib_gid dgid;

	memset(attr, 0, sizeof(*attr));
	attr->type = RDMA_AH_ATTR_TYPE_ROCE;
	memcpy(dgid.raw, &av->dgid, sizeof(dgid.raw));
	rdma_ah_set_port_num(attr, UET_PORT);
	rdma_ah_set_sl(attr, av->sl);
	rdma_ah_set_grh(attr, &dgid, av->flow_label, av->sgid_index,
			av->hop_limit, av->tclass);
	memcpy(attr->roce.dmac, av->dmac, ETH_ALEN);
}

int uet_create_ah(struct ib_ah *ibah, struct rdma_ah_init_attr *init,
		  struct ib_udata *udata)
{
	struct uet_dev *udev = to_uet_dev(ibah->device);
	gfp_t gfp = init->flags & RDMA_CREATE_AH_SLEEPABLE ?
		    GFP_KERNEL : GFP_ATOMIC;
	struct rxe_create_ah_resp resp = {};
	struct uet_ah *ah = to_uet_ah(ibah);
	unsigned long flags;
	int err;

	if (udata && udata->outlen < sizeof(resp))
		return -EINVAL;
	err = uet_av_from_attr(udev, &ah->av, init->ah_attr);
	if (err)
		return err;
	xa_lock_irqsave(&udev->vdev.ahs, flags);
	err = __xa_alloc(&udev->vdev.ahs, &ah->num, ah, XA_LIMIT(1, UET_MAX_AH),
			 gfp);
	xa_unlock_irqrestore(&udev->vdev.ahs, flags);
	if (err)
		return err == -EBUSY ? -ENOMEM : err;
	if (udata) {
		resp.ah_num = ah->num;
		err = ib_copy_to_udata(udata, &resp, sizeof(resp));
		if (err) {
			xa_erase_irq(&udev->vdev.ahs, ah->num);
			return err;
		}
	}
	return 0;
}

int uet_query_ah(struct ib_ah *ibah, struct rdma_ah_attr *attr)
{
	uet_av_to_attr(&to_uet_ah(ibah)->av, attr);
	return 0;
}

int uet_destroy_ah(struct ib_ah *ibah, u32 flags)
{
	struct xarray *ahs = &to_uet_dev(ibah->device)->vdev.ahs;
	unsigned long irqflags;

	xa_lock_irqsave(ahs, irqflags);
	__xa_erase(ahs, to_uet_ah(ibah)->num);
	xa_unlock_irqrestore(ahs, irqflags);
	return 0;
}

/**
 * uet_ah_lookup() - copy the address vector of AH number @num
 * @udev: the device
 * @pd: the protection domain of the QP that uses it
 * @num: the number a process wrote into a UD WQE
 * @av: filled in
 *
 * Return: 0, or -EINVAL for a number that names no AH of @pd.
 */
int uet_ah_lookup(struct uet_dev *udev, struct ib_pd *pd, u32 num,
		  struct uet_av *av)
{
	unsigned long flags;
	struct uet_ah *ah;
	int err = -EINVAL;

	xa_lock_irqsave(&udev->vdev.ahs, flags);
	ah = xa_load(&udev->vdev.ahs, num);
	if (ah && ah->ibah.pd == pd) {
		*av = ah->av;
		err = 0;
	}
	xa_unlock_irqrestore(&udev->vdev.ahs, flags);
	return err;
}
