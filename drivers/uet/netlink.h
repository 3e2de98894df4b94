/* SPDX-License-Identifier: GPL-2.0 */
/* uet netlink: the generic netlink family "uet" (Documentation/netlink.rst). */
#ifndef _UET_NETLINK_H
#define _UET_NETLINK_H

struct uet_dev;

int uet_netlink_init(void);
void uet_netlink_exit(void);
void uet_nl_dev_notify(struct uet_dev *udev, bool added);

#endif /* _UET_NETLINK_H */
