#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# "rdma link add/del" for uet devices: the normal path, every way to get it
# wrong (each a clear error, never a device half made), and a device that
# follows its netdev away.
. "$(dirname "$0")/lib.sh"

A() { ip netns exec "$NS_A" "$@"; }

setup() {
	fabric_up && modprobe uet
}

add_del() {
	run A rdma link add uet0 type uet netdev veth0 || return 1
	A rdma link show uet0/1 | grep -q 'netdev veth0' || return 1
	A rdma dev show uet0 | grep -q 'uet0' || return 1
	[ "$(uet_devs)" = uet0 ] || return 1
	run A rdma link del uet0 || return 1
	[ -z "$(uet_devs)" ]
}

bad_names() {
	local long
	long=$(printf 'u%.0s' $(seq 70))
	expect_fail 'invalid argument' A rdma link add "uet%d0" type uet netdev veth0 &&
	expect_fail 'policy validation' A rdma link add "$long" type uet netdev veth0 &&
	expect_fail 'invalid argument' A rdma link add "" type uet netdev veth0 &&
	[ -z "$(uet_devs)" ]
}

no_such_netdev() {
	expect_fail 'no such device' A rdma link add uet0 type uet netdev nosuch0 &&
	# iproute2 answers a missing argument with its usage (and status 0)
	A rdma link add uet0 type uet 2>&1 | grep -q Usage &&
	[ -z "$(uet_devs)" ]
}

duplicates() {
	A rdma link add uet0 type uet netdev veth0 || return 1
	# the same name again, on another netdev
	A ip link add dummy0 type veth peer name dummy1 || return 1
	expect_fail 'file exists' A rdma link add uet0 type uet netdev dummy0 || return 1
	# a second device on the same netdev
	expect_fail 'file exists' A rdma link add uet9 type uet netdev veth0 || return 1
	[ "$(uet_devs)" = uet0 ] || return 1
	A ip link del dummy0
	A rdma link del uet0
}

del_unknown() {
	expect_fail 'wrong device name' A rdma link del uet7
}

bad_type() {
	expect_fail 'invalid argument' A rdma link add uet0 type nosuchtype netdev veth0
}

# Deleting the netdev removes the uet device on it.
netdev_removal() {
	A rdma link add uet0 type uet netdev veth0 || return 1
	ip netns exec "$NS_B" rdma link add uet1 type uet netdev veth0 || return 1
	A ip link del veth0 || return 1
	wait_no_uet_devs
}

trap fabric_down EXIT
ktap_print_header
ktap_set_plan 8
ktap_test_result "setup" setup
ktap_test_result "link add, show and del" add_del
ktap_test_result "bad device names are refused" bad_names
ktap_test_result "missing or unknown netdev is refused" no_such_netdev
ktap_test_result "duplicate name or netdev is refused" duplicates
ktap_test_result "deleting an unknown link is refused" del_unknown
ktap_test_result "unknown link type is refused" bad_type
ktap_test_result "netdev removal removes its device" netdev_removal
fabric_down
modprobe -r uet
ktap_finished
