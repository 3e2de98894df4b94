#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Connection management over uet devices: the MAD layer's GSI QP (QPN 1)
# carries the IB CM's MADs as UUD datagrams, so rdma_cm resolves and
# connects QPs the way applications expect, between two namespaces of
# one VM:
#
#   +------ uet-a ------+   veth   +------ uet-b ------+
#   | uet0 on veth0     |----------| uet1 on veth0     |
#   | 198.18.0.1        |          | 198.18.0.2        |
#   +-------------------+          +-------------------+
#
# perftest with -R (RC and UD), and librdmacm's examples (rping, which checks its
# data, ucmatose, and udaddy for UD QPs) connect, move data and
# disconnect; the IB CM's MAD counters must have moved by the
# connections' REQ, REP, RTU and DREQ (SIDR REQ and REP for UD).
. "$(dirname "$0")/lib.sh"

A() { ip netns exec "$NS_A" "$@"; }
B() { ip netns exec "$NS_B" "$@"; }

setup() {
	fabric_up && modprobe uet && modprobe rdma_ucm &&
	A rdma link add uet0 type uet netdev veth0 &&
	B rdma link add uet1 type uet netdev veth0
}

# cm DEV DIR MAD: how many MADs of type MAD the IB CM sent (DIR tx) or
# received (rx) on DEV's port
cm() {
	cat "/sys/class/infiniband/$1/ports/1/cm_$2_msgs/$3"
}

# cm_snap: the counters cm_moved compares with
cm_snap() {
	local d m
	for d in uet0 uet1; do
		for m in req rep rtu dreq sidr_req sidr_rep; do
			snap[$d.tx.$m]=$(cm $d tx $m) snap[$d.rx.$m]=$(cm $d rx $m)
		done
	done
}

# cm_moved MAD...: since cm_snap, the active side (uet0) sent each MAD of
# the list and the passive side (uet1) received it; the answers (rep,
# sidr_rep) the other way; dreq either way (whoever disconnects first)
cm_moved() {
	local m from to sent got
	for m in "$@"; do
		case $m in
		rep|sidr_rep) from=uet1 to=uet0 ;;
		dreq) if [ "$(cm uet1 tx dreq)" -gt "${snap[uet1.tx.dreq]}" ]; then
			from=uet1 to=uet0
		      else
			from=uet0 to=uet1
		      fi ;;
		*) from=uet0 to=uet1 ;;
		esac
		sent=$(( $(cm $from tx "$m") - snap[$from.tx.$m] ))
		got=$(( $(cm $to rx "$m") - snap[$to.rx.$m] ))
		echo "# $m: $from sent $sent, $to received $got"
		[ "$sent" -gt 0 ] && [ "$got" -gt 0 ] || return 1
	done
}

# listening: wait up to 5 s more for an rdma_cm ID to listen (a request
# that comes before it is rejected, as on any fabric; a loaded host may
# take a while to start the server)
listening() {
	local i
	for i in $(seq 50); do
		rdma resource show cm_id 2>/dev/null | grep -q LISTEN && return
		sleep 0.1
	done
	echo "# no rdma_cm listener seen"
}

# pair SERVER-CMD -- CLIENT-CMD: the server in uet-b, then the client in
# uet-a; both must succeed
pair() {
	local srv=() pid rc=0
	while [ "$1" != -- ]; do srv+=("$1"); shift; done
	shift
	B timeout 120 "${srv[@]}" >/tmp/cm-server.log 2>&1 &
	pid=$!
	sleep 1
	listening
	run A timeout 120 "$@" >/tmp/cm-client.log 2>&1 || rc=1
	wait $pid || rc=1
	if [ $rc != 0 ] || grep -qi mismatch /tmp/cm-client.log /tmp/cm-server.log; then
		sed 's/^/# client: /' /tmp/cm-client.log
		sed 's/^/# server: /' /tmp/cm-server.log
		rdma statistic show link uet0/1 | sed 's/^/# /'
		rdma statistic show link uet1/1 | sed 's/^/# /'
		return 1
	fi
}

# perf PROGRAM [ARGS]: perftest connected by rdma_cm
perf() {
	local prog=$1
	shift
	pair "$prog" -d uet1 -R -F "$@" -- "$prog" -d uet0 -R -F "$@" "$UET_NET4.2" ||
		return 1
	grep -E '^ +[0-9]' /tmp/cm-client.log | sed 's/^/# /'
}

declare -A snap

# On the debug kernel 200 writes of 64 KiB once outlasted the 120 s (the
# host's cores shared with two more VMs): 50 there.
rc_perf() {
	cm_snap
	perf ib_write_bw -n "$(scaled 200 50)" -s 65536 &&
	perf ib_read_bw -n 100 -s 4096 &&
	perf ib_send_lat -n 100 -s 64 && cm_moved req rep rtu dreq
}

ud_perf() {
	cm_snap
	perf ib_send_bw -c UD -n 1000 -s 1024 && cm_moved sidr_req sidr_rep
}

# rping: RDMA reads and writes of pings it checks byte for byte
rping_() {
	cm_snap
	pair rping -s -a "$1" -C 50 -S 4096 -V -- \
		rping -c -a "$1" -C 50 -S 4096 -V && cm_moved req rep rtu
}

ucmatose_() {
	cm_snap
	pair ucmatose -c 4 -C 20 -S 1000 -- ucmatose -s "$UET_NET4.2" -c 4 -C 20 -S 1000 &&
	cm_moved req rep rtu dreq
}

udaddy_() {
	cm_snap
	pair udaddy -c 2 -C 20 -- udaddy -s "$UET_NET4.2" -c 2 -C 20 &&
	cm_moved sidr_req sidr_rep
}

teardown() {
	A rdma link del uet0 && B rdma link del uet1 &&
	wait_no_uet_devs && modprobe -r uet
}

trap 'fabric_down' EXIT
ktap_print_header
ktap_set_plan 8
ktap_test_result "setup" setup
ktap_test_result "perftest RC over rdma_cm: write, read, send" rc_perf
ktap_test_result "perftest UD over rdma_cm (SIDR)" ud_perf
ktap_test_result "rping, data checked" rping_ "$UET_NET4.2"
ktap_test_result "rping over IPv6" rping_ "$UET_NET6::2"
ktap_test_result "ucmatose, 4 connections" ucmatose_
ktap_test_result "udaddy, UD" udaddy_
ktap_test_result "teardown" teardown
ktap_finished
