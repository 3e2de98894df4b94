// SPDX-License-Identifier: GPL-2.0
/*
 * The verbs basics over a uet device through the stock rdma-core rxe
 * provider: the device opens, its attributes and port are sane, its GID
 * table carries the netdev's addresses, and protection domains work.
 *
 * Expects the device "uet0" on a netdev holding 198.18.0.1 and
 * 2001:db8:4793::1 (see devices.sh).
 */
#include <arpa/inet.h>
#include <errno.h>
#include <string.h>
#include <infiniband/verbs.h>

#include "kselftest_harness.h"

#define DEV_NAME	"uet0"
#define PORT		1

FIXTURE(dev) {
	struct ibv_device **list;
	struct ibv_context *ctx;
};

FIXTURE_SETUP(dev)
{
	int i, n;

	self->ctx = NULL;
	self->list = ibv_get_device_list(&n);
	ASSERT_NE(NULL, self->list);
	for (i = 0; i < n; i++)
		if (!strcmp(ibv_get_device_name(self->list[i]), DEV_NAME))
			self->ctx = ibv_open_device(self->list[i]);
	ASSERT_NE(NULL, self->ctx) TH_LOG("cannot open %s", DEV_NAME);
}

FIXTURE_TEARDOWN(dev)
{
	if (self->ctx)
		ibv_close_device(self->ctx);
	ibv_free_device_list(self->list);
}

TEST_F(dev, query_device)
{
	struct ibv_device_attr attr;

	ASSERT_EQ(0, ibv_query_device(self->ctx, &attr));
	EXPECT_EQ(1, attr.phys_port_cnt);
	EXPECT_NE(0, attr.node_guid);
	EXPECT_EQ(attr.node_guid, attr.sys_image_guid);
	EXPECT_LT(0, attr.max_pd);
}

TEST_F(dev, query_port)
{
	struct ibv_port_attr attr;

	ASSERT_EQ(0, ibv_query_port(self->ctx, PORT, &attr));
	EXPECT_EQ(IBV_PORT_ACTIVE, attr.state);
	EXPECT_EQ(IBV_LINK_LAYER_ETHERNET, attr.link_layer);
	EXPECT_LE(IBV_MTU_1024, attr.active_mtu);
	EXPECT_LT(0, attr.gid_tbl_len);
	/* a port that does not exist */
	EXPECT_NE(0, ibv_query_port(self->ctx, PORT + 1, &attr));
}

/* The IPv4 address appears as an IPv4-mapped GID, the IPv6 one as is. */
TEST_F(dev, gids_follow_addresses)
{
	union ibv_gid want4 = {}, want6, gid;
	struct ibv_port_attr attr;
	int i, found4 = 0, found6 = 0;

	want4.raw[10] = 0xff;
	want4.raw[11] = 0xff;
	ASSERT_EQ(1, inet_pton(AF_INET, "198.18.0.1", &want4.raw[12]));
	ASSERT_EQ(1, inet_pton(AF_INET6, "2001:db8:4793::1", want6.raw));
	ASSERT_EQ(0, ibv_query_port(self->ctx, PORT, &attr));
	for (i = 0; i < attr.gid_tbl_len; i++) {
		if (ibv_query_gid(self->ctx, PORT, i, &gid))
			continue;	/* an empty entry */
		found4 |= !memcmp(&gid, &want4, sizeof(gid));
		found6 |= !memcmp(&gid, &want6, sizeof(gid));
	}
	EXPECT_TRUE(found4);
	EXPECT_TRUE(found6);
}

TEST_F(dev, protection_domains)
{
	struct ibv_pd *pd[8];
	int i;

	for (i = 0; i < 8; i++) {
		pd[i] = ibv_alloc_pd(self->ctx);
		ASSERT_NE(NULL, pd[i]);
	}
	for (i = 0; i < 8; i++)
		EXPECT_EQ(0, ibv_dealloc_pd(pd[i]));
}

TEST_HARNESS_MAIN
