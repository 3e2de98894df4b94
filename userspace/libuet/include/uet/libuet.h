/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * libuet: the userspace control API of uet, the Ultra Ethernet Transport
 * software RDMA device.
 */
#ifndef LIBUET_H
#define LIBUET_H

#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

#define UET_NAME_MAX 64

/* One uet device, as the RDMA core shows it. */
struct uet_dev_info {
	char name[UET_NAME_MAX];	/* RDMA device name, e.g. "uet0" */
	char netdev[UET_NAME_MAX];	/* the netdev it runs over */
	char node_guid[20];		/* "xxxx:xxxx:xxxx:xxxx" */
	char state[32];			/* port state, e.g. "ACTIVE" */
};

/* The library's version, "MAJOR.MINOR.PATCH". */
const char *uet_version(void);

/*
 * Fill @devs (room for @max entries) with the uet devices of this host and
 * return how many there are (which may exceed @max), or -errno.
 */
int uet_dev_list(struct uet_dev_info *devs, size_t max);

#ifdef __cplusplus
}
#endif

#endif /* LIBUET_H */
