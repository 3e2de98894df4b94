#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Two VMs joined by a QEMU socket link (run-vm.sh --pair); this script runs
# in both, UET_ROLE telling which end it is:
#
#   +---- VM a ----+   QEMU socket link   +---- VM b ----+
#   | eth0         |----------------------| eth0         |
#   | 198.18.0.1   |                      | 198.18.0.2   |
#   +--------------+                      +--------------+
#
# It proves the topology the rxe comparisons need: the link carries
# traffic, uet and rxe devices sit side by side on the same netdev, and an
# rxe and a uet RC ping-pong cross between the VMs.
. "$(dirname "$0")/lib.sh"

case ${UET_ROLE:-} in
a) me=1 peer=2 ;;
b) me=2 peer=1 ;;
*) ktap_print_header; ktap_skip_all "needs UET_ROLE=a or b (pair topology)"; exit "$KSFT_SKIP" ;;
esac

link_up() {
	ip link set eth0 up &&
	ip addr add "$UET_NET4.$me/24" dev eth0 &&
	ip addr add "$UET_NET6::$me/64" dev eth0 nodad || return 1
	local i
	for i in $(seq 60); do
		ping -c 1 -W 1 "$UET_NET4.$peer" >/dev/null && return 0
	done
	return 1
}

# rxe and uet on one netdev: each keeps its own device and port state
# through link flaps and MTU changes.
side_by_side() {
	modprobe crc32_generic && modprobe uet || return 1
	run rdma link add rxe0 type rxe netdev eth0 &&
	run rdma link add uet0 type uet netdev eth0 || return 1
	ip link set eth0 mtu 9000 && ip link set eth0 mtu 1500 || return 1
	ip link set eth0 down && ip link set eth0 up || return 1
	sleep 1
	rdma link show | sed 's/^/# /'
	rdma link show uet0/1 | grep -q 'state ACTIVE.*netdev eth0' &&
	rdma link show rxe0/1 | grep -q 'state ACTIVE.*netdev eth0'
}

# pingpong DEV ARGS...: an RC ping-pong on DEV between the VMs, a serving
pingpong() {
	local dev=$1 g i
	shift
	g=$(gid_index "$dev" "$me") || return 1
	if [ "$me" = 1 ]; then
		run timeout 120 ibv_rc_pingpong -d "$dev" -g "$g" "$@"
	else
		for i in $(seq 30); do
			timeout 60 ibv_rc_pingpong -d "$dev" -g "$g" "$@" "$UET_NET4.$peer" &&
				return 0
			sleep 1
		done
		return 1
	fi
}

rxe_pingpong() { pingpong rxe0 -n 100; }

# uet across a real NIC: 64 KiB messages arrive in the paged skbs
# virtio-net builds from its mergeable receive buffers
uet_pingpong() {
	local rx
	rx=$(counter uet0 rx_packets)
	pingpong uet0 -n 50 -s 65536 -m 1024 &&
	[ "$(counter uet0 rx_packets)" -gt "$rx" ]
}

teardown() {
	rdma link del uet0 && rdma link del rxe0 && modprobe -r uet
}

ktap_print_header
ktap_set_plan 5
ktap_test_result "socket link carries traffic" link_up
ktap_test_result "uet and rxe side by side on eth0" side_by_side
ktap_test_result "rxe RC ping-pong between the VMs" rxe_pingpong
ktap_test_result "uet RC ping-pong between the VMs, 64 KiB" uet_pingpong
ktap_test_result "devices removed, module unloaded" teardown
ktap_finished
