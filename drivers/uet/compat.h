/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Differences between the kernels uet builds against (Debian 12's 6.1 and
 * Debian's 6.12), gathered here so that no other file has to know them.
 * Kbuild detects each from the kernel headers and defines UET_HAVE_*.
 */
#ifndef _UET_COMPAT_H
#define _UET_COMPAT_H

#include <linux/crypto.h>
#include <linux/netlink.h>
#include <net/genetlink.h>
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

/*
 * Since 6.6 a dump's parsed attributes are in a struct genl_info
 * (genl_info_dump()); before, in struct genl_dumpit_info itself.
 */
static inline struct nlattr **uet_nl_dump_attrs(struct netlink_callback *cb)
{
#ifdef UET_HAVE_GENL_INFO_DUMP
	return genl_info_dump(cb)->attrs;
#else
	return genl_dumpit_info(cb)->attrs;
#endif
}

/*
 * Formatted extack messages arrived in 6.2; before, the message is the
 * format string itself (a literal, so it outlives the request).
 */
#ifndef UET_HAVE_NL_SET_ERR_MSG_FMT
static inline __printf(2, 3) void uet_nl_err_fmt(struct netlink_ext_ack *extack,
						 const char *fmt, ...)
{
	if (extack)
		extack->_msg = fmt;
}

#define NL_SET_ERR_MSG_FMT uet_nl_err_fmt
#endif

/*
 * Since 6.3 a crypto request's completion is called with the data set
 * with it (aead_request_set_callback()); before, with the request, whose
 * @data holds it.  UET_CRYPTO_DONE(name) begins the definition of a
 * static completion @name whose body sees @data and @err under either.
 */
#ifdef UET_HAVE_CRYPTO_DATA_COMPLETION
#define UET_CRYPTO_DONE(name)						\
	static void name(void *data, int err)
#else
#define UET_CRYPTO_DONE(name)						\
	static void name##_data(void *data, int err);			\
	static void name(struct crypto_async_request *req, int err)	\
	{								\
		name##_data(req->data, err);				\
	}								\
	static void name##_data(void *data, int err)
#endif

#endif /* _UET_COMPAT_H */
