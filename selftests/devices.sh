#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# A uet device is visible to the RDMA tools people use, with sane
# attributes: ibv_devices, ibv_devinfo, rdma dev; and the verbs basics that
# verbs_basic checks in C.
. "$(dirname "$0")/lib.sh"

A() { ip netns exec "$NS_A" "$@"; }

setup() {
	fabric_up && modprobe uet &&
	A rdma link add uet0 type uet netdev veth0
}

# EUI-64 from the MAC: ff:fe in the middle, the universal/local bit flipped.
expected_guid() {
	local m
	m=$(A cat /sys/class/net/veth0/address)
	IFS=: read -r b0 b1 b2 b3 b4 b5 <<<"$m"
	printf '%02x%s:%sff:fe%s:%s%s\n' $((0x$b0 ^ 2)) "$b1" "$b2" "$b3" "$b4" "$b5"
}

ibv_devices_lists() {
	local out
	out=$(A ibv_devices)
	echo "$out" | sed 's/^/# /'
	grep -qE "^\s+uet0\s+$(expected_guid | tr -d :)" <<<"$out"
}

ibv_devinfo_sane() {
	local out
	out=$(A ibv_devinfo -d uet0 -v) || return 1
	echo "$out" | sed 's/^/# /' | head -n 40
	grep -qE 'state:\s+PORT_ACTIVE' <<<"$out" &&
	grep -qE 'link_layer:\s+Ethernet' <<<"$out" &&
	grep -qE "node_guid:\s+$(expected_guid)" <<<"$out" &&
	grep -qE 'phys_port_cnt:\s+1' <<<"$out" &&
	grep -qE 'active_mtu:\s+1024' <<<"$out"
}

rdma_dev_shows() {
	A rdma dev show uet0 | grep -q "node_guid $(expected_guid)" &&
	A rdma link show uet0/1 | grep -qE 'state ACTIVE physical_state LINK_UP netdev veth0'
}

port_follows_link() {
	A ip link set veth0 down || return 1
	A rdma link show uet0/1 | grep -q 'state DOWN' || return 1
	A ip link set veth0 up || return 1
	sleep 0.5
	A rdma link show uet0/1 | grep -q 'state ACTIVE'
}

uetctl_shows() {
	local out
	out=$(uetctl dev show uet0) || return 1
	echo "# $out"
	grep -qx "uet0: netdev veth0 node_guid $(expected_guid) state ACTIVE" <<<"$out" &&
	uetctl -j dev show | grep -qF "{\"ifname\":\"uet0\",\"netdev\":\"veth0\""
}

verbs_basic() {
	A ./verbs_basic
}

# has_gid GID: the port's GID table holds GID (sysfs spelling).
has_gid() {
	cat /sys/class/infiniband/uet0/ports/1/gids/* 2>/dev/null | grep -qx "$1"
}

wait_gid() {	# wait_gid yes|no GID
	local i
	for i in $(seq 50); do
		if has_gid "$2"; then [ "$1" = yes ] && return 0
		else [ "$1" = no ] && return 0
		fi
		sleep 0.1
	done
	return 1
}

gids_follow_changes() {
	local g6=2001:0db8:4793:0000:0000:0000:0000:0011
	local g4=0000:0000:0000:0000:0000:ffff:c612:0011
	A ip addr add "$UET_NET6::11/64" dev veth0 nodad &&
	A ip addr add "$UET_NET4.17/24" dev veth0 || return 1
	wait_gid yes "$g6" && wait_gid yes "$g4" || return 1
	A ip addr del "$UET_NET6::11/64" dev veth0 &&
	A ip addr del "$UET_NET4.17/24" dev veth0 || return 1
	wait_gid no "$g6" && wait_gid no "$g4"
}

trap fabric_down EXIT
ktap_print_header
ktap_set_plan 8
ktap_test_result "setup" setup
ktap_test_result "ibv_devices lists uet0 with its GUID" ibv_devices_lists
ktap_test_result "ibv_devinfo shows sane attributes" ibv_devinfo_sane
ktap_test_result "rdma dev and rdma link show the device" rdma_dev_shows
ktap_test_result "verbs: open, query, GIDs, PD" verbs_basic
ktap_test_result "GIDs follow address changes" gids_follow_changes
ktap_test_result "uetctl dev show lists it" uetctl_shows
# last: a link flap flushes the netdev's IPv6 addresses
ktap_test_result "port state follows the netdev" port_follows_link
fabric_down
modprobe -r uet
ktap_finished
