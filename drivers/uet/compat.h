/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Differences between the kernels uet builds against (Debian 12's 6.1 and
 * Debian's 6.12), gathered here so that no other file has to know them.
 * Kbuild detects each from the kernel headers and defines UET_HAVE_*.
 */
#ifndef _UET_COMPAT_H
#define _UET_COMPAT_H

#include <rdma/ib_verbs.h>
#include <rdma/uverbs_ioctl.h>

/*
 * Since 6.11 ib_device_ops.create_cq takes the uverbs attribute bundle
 * instead of the driver's udata.
 */
#ifdef UET_HAVE_CREATE_CQ_ATTRS
#define UET_CREATE_CQ_UDATA_ARG struct uverbs_attr_bundle *attrs
static inline struct ib_udata *uet_create_cq_udata(struct uverbs_attr_bundle *attrs)
{
	return attrs ? &attrs->driver_udata : NULL;
}
#else
#define UET_CREATE_CQ_UDATA_ARG struct ib_udata *attrs
static inline struct ib_udata *uet_create_cq_udata(struct ib_udata *udata)
{
	return udata;
}
#endif

#endif /* _UET_COMPAT_H */
