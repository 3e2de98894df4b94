/* SPDX-License-Identifier: GPL-2.0 */
/* uet netlink: the generic netlink family "uet" (Documentation/netlink.rst). */
#ifndef _UET_NETLINK_H
#define _UET_NETLINK_H

int uet_netlink_init(void);
void uet_netlink_exit(void);

#endif /* _UET_NETLINK_H */
