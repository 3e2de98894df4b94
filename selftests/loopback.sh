#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# One host talking to itself: two processes on one uet device, and two uet
# devices of one namespace, with rdma-core's and perftest's stock programs.
# A device's packets to its own netdev's addresses travel through the
# loopback device, where the destination address names the uet device
# that takes them; between the two devices they cross the veth, which
# IPv6 allows and IPv4 allows with accept_local (see setup).
#
#   +------------------------- uet-l -------------------------+
#   |  uet0 on veth0                      uet1 on veth1        |
#   |  198.18.0.1/24       <-- veth -->   198.18.0.2/24        |
#   |  2001:db8:4793::1/64                2001:db8:4793::2/64  |
#   |  fe80::/64 (link-local)             fe80::/64            |
#   +----------------------------------------------------------+
. "$(dirname "$0")/lib.sh"

NS=uet-l

L() { ip netns exec "$NS" "$@"; }

setup() {
	ip netns add "$NS" &&
	L ip link set lo up &&
	L ip link add veth0 type veth peer name veth1 || return 1
	local i
	for i in 0 1; do
		# no duplicate address detection: the link-local address (and
		# with it the device's link-local GID) is usable at once
		L sysctl -qw net.ipv6.conf.veth$i.accept_dad=0 &&
		# IPv4 between two NICs of one host that share a link: ARP
		# and packets from the host's own addresses are martians
		# unless accepted (the RDMA core routes out of the GID's
		# netdev, as uet does)
		L sysctl -qw net.ipv4.conf.veth$i.accept_local=1 &&
		L ip addr add "$UET_NET4.$((i + 1))/24" dev veth$i &&
		L ip addr add "$UET_NET6::$((i + 1))/64" dev veth$i nodad &&
		L ip link set veth$i up || return 1
	done
	modprobe uet &&
	L rdma link add uet0 type uet netdev veth0 &&
	L rdma link add uet1 type uet netdev veth1
}

# gid_of DEV PREFIX: the index of DEV's first RoCE v2 GID starting PREFIX
gid_of() {
	local f i
	for f in /sys/class/infiniband/"$1"/ports/1/gids/*; do
		i=$(basename "$f")
		[[ $(cat "$f") == "$2"* ]] || continue
		[ "$(cat /sys/class/infiniband/"$1"/ports/1/gid_attrs/types/"$i")" = "RoCE v2" ] ||
			continue
		echo "$i"
		return 0
	done
	return 1
}

# The GID prefixes: IPv4-mapped 198.18.0.x, 2001:db8:4793::x, link-local.
V4=0000:0000:0000:0000:0000:ffff:c612:000
V6=2001:0db8:4793:0000:0000:0000:0000:000
LL=fe80:0000:0000:0000:

# nosock: UdpNoPorts plus Udp6NoPorts of the namespace
nosock() {
	L cat /proc/net/snmp /proc/net/snmp6 |
		awk '/^Udp: [0-9]/ { n += $3 } /^Udp6NoPorts/ { n += $2 } END { print n }'
}

# pair SDEV SGID CDEV CGID HOST PROGRAM [ARGS]: PROGRAM's server on SDEV
# (GID index SGID), its client on CDEV connecting to HOST; both succeed,
# the server's device received UET packets, the client's device received
# the answers, and no packet was left without a device.
pair() {
	local sdev=$1 sgid=$2 cdev=$3 cgid=$4 host=$5 prog=$6 pid rc=0 opt
	local srx crx ns
	shift 6
	[ -n "$sgid" ] && [ -n "$cgid" ] || { echo "# no GID"; return 1; }
	case $prog in ib_*) opt=-x ;; *) opt=-g ;; esac
	srx=$(counter "$sdev" rx_packets) crx=$(counter "$cdev" rx_packets)
	ns=$(nosock)
	L timeout 120 "$prog" -d "$sdev" "$opt" "$sgid" "$@" \
		>/tmp/lo-server.log 2>&1 &
	pid=$!
	sleep 1
	run L timeout 120 "$prog" -d "$cdev" "$opt" "$cgid" "$@" "$host" \
		>/tmp/lo-client.log 2>&1 || rc=1
	wait $pid || rc=1
	report $rc /tmp/lo-client.log /tmp/lo-server.log
	echo "# $sdev rx_packets +$(($(counter "$sdev" rx_packets) - srx))," \
		"$cdev rx_packets +$(($(counter "$cdev" rx_packets) - crx))," \
		"no-device drops +$(($(nosock) - ns))"
	[ $rc = 0 ] && [ "$(counter "$sdev" rx_packets)" -gt "$srx" ] &&
		[ "$(counter "$cdev" rx_packets)" -gt "$crx" ] &&
		[ "$(nosock)" -eq "$ns" ]
}

# one_dev PROGRAM [ARGS]: server and client on uet0, IPv4 GID
one_dev() {
	local g
	g=$(gid_of uet0 "${V4}1")
	pair uet0 "$g" uet0 "$g" "$UET_NET4.1" "$@"
}

one_dev_ll() {
	local g
	g=$(gid_of uet0 "$LL")
	pair uet0 "$g" uet0 "$g" "$UET_NET4.1" "$@"
}

# two_dev GIDPREFIX PROGRAM [ARGS]: server on uet1, client on uet0
two_dev() {
	local pre=$1
	shift
	pair uet1 "$(gid_of uet1 "${pre}2")" uet0 "$(gid_of uet0 "${pre}1")" \
		"$UET_NET4.2" "$@"
}

# A datagram to UDP 4793 of an address no uet device holds (127.0.0.1 and
# ::1 are the loopback device's): dropped, counted as one without a socket.
unowned() {
	local ns
	ns=$(nosock)
	L bash -c "printf 'UET' >/dev/udp/127.0.0.1/4793" &&
	L bash -c "printf 'UET' >/dev/udp/::1/4793" || return 1
	sleep 0.5
	echo "# no-device drops: $ns -> $(nosock) (want +2)"
	[ "$(nosock)" -eq $((ns + 2)) ]
}

teardown() {
	L rdma link del uet0 && L rdma link del uet1 &&
	wait_no_uet_devs && ip netns del "$NS" && modprobe -r uet
}

N=$(scaled 200 20)

ktap_print_header
ktap_set_plan 15
setup || ktap_exit_fail_msg "cannot set up the namespace"
ktap_test_result "ibv_rc_pingpong, both ends on one device (IPv4 GID)" \
	one_dev ibv_rc_pingpong -n "$N" -s 4096
ktap_test_result "ibv_rc_pingpong, both ends on one device (IPv6 link-local GID)" \
	one_dev_ll ibv_rc_pingpong -n "$N" -s 4096
ktap_test_result "ibv_rc_pingpong with completion events on one device" \
	one_dev ibv_rc_pingpong -n "$N" -s 100 -e
ktap_test_result "ibv_ud_pingpong with completion events on one device" \
	one_dev ibv_ud_pingpong -n "$N" -s 1024 -e
ktap_test_result "ibv_srq_pingpong, 4 QPs, on one device" \
	one_dev ibv_srq_pingpong -n "$N" -s 1024 -q 4
ktap_test_result "ib_write_bw 64 KiB on one device" \
	one_dev ib_write_bw -F -s 65536 -n "$(scaled 500 20)"
ktap_test_result "ib_send_bw UD on one device" \
	one_dev ib_send_bw -F -c UD -s 1024 -n "$(scaled 1000 100)"
ktap_test_result "ib_read_lat on one device (IPv6 link-local GID)" \
	one_dev_ll ib_read_lat -F -s 8 -n "$N"
ktap_test_result "ibv_rc_pingpong between two devices of one namespace (IPv4)" \
	two_dev "$V4" ibv_rc_pingpong -n "$N" -s 4096
ktap_test_result "ibv_ud_pingpong with events between two devices (IPv6)" \
	two_dev "$V6" ibv_ud_pingpong -n "$N" -s 1024 -e
ktap_test_result "ib_write_bw 64 KiB between two devices (IPv6)" \
	two_dev "$V6" ib_write_bw -F -s 65536 -n "$(scaled 500 20)"
ktap_test_result "ib_atomic_bw between two devices (IPv4)" \
	two_dev "$V4" ib_atomic_bw -F -n "$N"
ktap_test_result "datagrams for addresses without a uet device are counted" \
	unowned
ktap_test_result "devices removed, module unloaded" teardown
ktap_test_result "no device left" wait_no_uet_devs
ktap_finished
