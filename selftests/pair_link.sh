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
# rxe and a uet RC ping-pong cross between the VMs.  uet also carries
# IPv6 across the VMs' virtio NICs (RC, UD, RDMA write and read), and the
# perftest bandwidth tools report their rates when run for a duration
# (-D), as people run them: VM a serves, VM b measures.
. "$(dirname "$0")/lib.sh"

case ${UET_ROLE:-} in
a) me=1 peer=2 ;;
b) me=2 peer=1 ;;
*) ktap_print_header; ktap_skip_all "needs UET_ROLE=a or b (pair topology)"; exit "$KSFT_SKIP" ;;
esac

link_up() {
	# the IPv6 address outlives the link flaps of side_by_side
	sysctl -qw net.ipv6.conf.eth0.keep_addr_on_down=1 &&
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

# gid6 DEV HOST: the index of DEV's GID for $UET_NET6::HOST
gid6() {
	local f want
	want=$(printf '2001:0db8:4793:0000:0000:0000:0000:%04x' "$2")
	for f in /sys/class/infiniband/"$1"/ports/1/gids/*; do
		[ "$(cat "$f")" = "$want" ] && { basename "$f"; return 0; }
	done
	echo "# $1 has no GID $want" >&2
	return 1
}

# across GID PROGRAM ARGS...: PROGRAM's server on uet0 of VM a, its client
# on VM b (retried until the server listens), both using GID index GID;
# the output of this VM's end is left in /tmp/across.log.
across() {
	local g=$1 prog=$2 opt=-g i
	shift 2
	case $prog in ib_*) opt=-x ;; esac
	if [ "$me" = 1 ]; then
		run timeout 120 "$prog" -d uet0 "$opt" "$g" "$@" >/tmp/across.log 2>&1
	else
		for i in $(seq 30); do
			timeout 120 "$prog" -d uet0 "$opt" "$g" "$@" "$UET_NET4.$peer" \
				>/tmp/across.log 2>&1 && return 0
			grep -qiE "couldn't connect|unable to connect|connection refused" \
				/tmp/across.log || break
			sleep 1
		done
		sed 's/^/# /' /tmp/across.log
		return 1
	fi
}

# uet over IPv6 between the VMs: the virtio NIC has no tunnel statistics,
# which must not be asked for (the harness fails the run on a WARNING);
# the peer's packets arrive as IPv6 ones, at least one per message of
# the 100 or more each run sends (the IPv4 PDCs of earlier tests may
# still close meanwhile, so the two counts need not be equal).
over_ipv6() {
	local g rx rx6 d d6
	g=$(gid6 uet0 "$me") || return 1
	rx=$(counter uet0 rx_packets) rx6=$(udp6_in)
	across "$g" "$@" || return 1
	grep -E 'bytes in|^ +[0-9]' /tmp/across.log | sed 's/^/# /'
	d=$(($(counter uet0 rx_packets) - rx)) d6=$(($(udp6_in) - rx6))
	echo "# uet0 rx_packets +$d, Udp6InDatagrams +$d6"
	[ "$d" -ge 100 ] && [ "$d6" -ge 100 ]
}

udp6_in() { awk '$1 == "Udp6InDatagrams" { print $2 }' /proc/net/snmp6; }

# duration PROGRAM ARGS...: a perftest bandwidth run for -D seconds; this
# VM's end must report a result: a result line with the iterations that
# completed while it sampled, more than zero.  (perftest converts them to
# a rate by the TSC frequency it samples at start; under TCG on a busy
# host that sample can be far off, so the rate is shown, not judged.)
duration() {
	local g
	g=$(gid_index uet0 "$me") || return 1
	across "$g" "$@" -F -D 4 || return 1
	grep -E '^ +[0-9]+ +[0-9]+ ' /tmp/across.log | sed 's/^/# /'
	awk '$1 ~ /^[0-9]+$/ && $2 ~ /^[0-9]+$/ && NF >= 4 && $2 > 0 { ok = 1 }
	     END { exit !ok }' /tmp/across.log && return 0
	sed 's/^/# /' /tmp/across.log
	return 1
}

# uet across a real NIC: 64 KiB messages leave in GSO batches, which the
# stack cuts into packets for virtio-net (no offloads on this link) and
# checksums, and arrive in the paged skbs virtio-net builds from its
# mergeable receive buffers, merged again by UDP GRO
uet_pingpong() {
	local rx bat
	rx=$(counter uet0 rx_packets) bat=$(counter uet0 tx_batches)
	pingpong uet0 -n 50 -s 65536 -m 1024 || return 1
	echo "# uet0 rx_packets +$(($(counter uet0 rx_packets) - rx))," \
		"tx_batches +$(($(counter uet0 tx_batches) - bat))"
	[ "$(counter uet0 rx_packets)" -gt "$rx" ] &&
	[ "$(counter uet0 tx_batches)" -gt "$bat" ]
}

teardown() {
	rdma link del uet0 && rdma link del rxe0 && modprobe -r uet
}

ktap_print_header
ktap_set_plan 22
ktap_test_result "socket link carries traffic" link_up
ktap_test_result "uet and rxe side by side on eth0" side_by_side
ktap_test_result "rxe RC ping-pong between the VMs" rxe_pingpong
ktap_test_result "uet RC ping-pong between the VMs, 64 KiB" uet_pingpong
ktap_test_result "uet RC over IPv6 between the VMs" \
	over_ipv6 ibv_rc_pingpong -n 100 -s 4096
ktap_test_result "uet UD over IPv6 between the VMs" \
	over_ipv6 ibv_ud_pingpong -n 100 -s 1024
ktap_test_result "uet RDMA write over IPv6 between the VMs" \
	over_ipv6 ib_write_bw -F -n 200 -s 65536
ktap_test_result "uet RDMA read over IPv6 between the VMs" \
	over_ipv6 ib_read_bw -F -n 200 -s 65536
# every tool at the sizes in between, writes at the smallest and largest
for size in 64 4096 65536 1048576; do
	progs="ib_write_bw ib_read_bw ib_send_bw"
	case $size in 64|1048576) progs=ib_write_bw ;; esac
	for prog in $progs; do
		ktap_test_result "$prog -D, $size B, reports a result" \
			duration "$prog" -s "$size"
	done
done
ktap_test_result "ib_atomic_bw -D reports a result" duration ib_atomic_bw
ktap_test_result "ib_write_bw -D --report_gbits, 64 KiB" \
	duration ib_write_bw -s 65536 --report_gbits
ktap_test_result "ib_write_bw -D -q 4, 64 KiB" duration ib_write_bw -s 65536 -q 4
ktap_test_result "ib_write_bw -D -b, 64 KiB" duration ib_write_bw -s 65536 -b
ktap_test_result "ib_send_bw -D -b, 4 KiB" duration ib_send_bw -s 4096 -b
ktap_test_result "devices removed, module unloaded" teardown
ktap_finished
