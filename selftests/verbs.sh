#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Verbs over uet devices with rdma-core's stock rxe provider and its
# example programs, between two namespaces of one VM:
#
#   +------ uet-a ------+   veth   +------ uet-b ------+
#   | uet0 on veth0     |----------| uet1 on veth0     |
#   | 198.18.0.1        |          | 198.18.0.2        |
#   +-------------------+          +-------------------+
#
# The objects (verbs_objects, in C), then messages between the devices
# (ibv_*_pingpong), with the device counters showing that they crossed as
# UET packets.
. "$(dirname "$0")/lib.sh"

A() { ip netns exec "$NS_A" "$@"; }
B() { ip netns exec "$NS_B" "$@"; }

setup() {
	fabric_up && modprobe uet &&
	A rdma link add uet0 type uet netdev veth0 &&
	B rdma link add uet1 type uet netdev veth0
}

objects() {
	A ./verbs_objects uet0
}

data() {
	local tx
	tx=$(counter uet0 tx_packets)
	A ./verbs_data -T rc_across_pdc_reopen -T held_sends_bounded &&
	[ "$(counter uet0 tx_packets)" -gt "$tx" ] &&
	[ "$(counter uet0 rnr_retries)" -gt 0 ] &&
	[ "$(counter uet1 rnr_nacks_sent)" -gt 0 ]
}

# impaired NETEM CMD...: CMD with netem NETEM on both ends of the veth,
# packet by packet (no GSO batches meanwhile: netem sees a batch as one
# packet); it must succeed, and the PDCs must have retransmitted.
impaired() {
	local netem=$1 re rc=0
	shift
	re=$(counter uet0 retransmits)
	A ip link set dev veth0 gso_max_segs 1 &&
	B ip link set dev veth0 gso_max_segs 1 || return 1
	# shellcheck disable=SC2086
	A tc qdisc add dev veth0 root netem $netem &&
	B tc qdisc add dev veth0 root netem $netem || return 1
	"$@" || rc=1
	A tc qdisc del dev veth0 root
	B tc qdisc del dev veth0 root
	A ip link set dev veth0 gso_max_segs 65535
	B ip link set dev veth0 gso_max_segs 65535
	echo "# uet0 retransmits +$(($(counter uet0 retransmits) - re))"
	[ $rc = 0 ] && [ "$(counter uet0 retransmits)" -gt "$re" ]
}

# perftest under loss in both directions: 1%, or 5% on the debug kernel,
# where each run sends a fifth of the packets (see the runs below).
LOSS=$(scaled 1% 5%)
lossy() {
	impaired "loss $LOSS" perf "$@"
}

# RC over sprayed RUD: uet0's PDCs spray by REPS, and oblivious, over 16
# entropies, through reordering and 1% loss both ways; every byte written,
# read and sent arrives, and completions come in order (verbs_data checks
# each).
sprayed() {
	local lb rc=0
	for lb in reps oblivious; do
		A uetctl dev set uet0 lb "$lb" lb-paths 16 || return 1
		# shellcheck disable=SC2046
		impaired "delay 2ms reorder 25% 50% loss 1%" A ./verbs_data \
			$(scaled "-t write_read_every_byte" "") \
			-t send_imm_sgl_every_byte || rc=1
	done
	A uetctl dev set uet0 lb single || rc=1
	return $rc
}

# What the data path holds for a process's sends is bounded and charged
# to the process's memory cgroup: verbs_data runs in a cgroup of its own
# while uet1's answers are lost (in this namespace, whose /sys shows the
# cgroups; the devices are everyone's), posts 1 GiB of writes and sees
# them refused or held in little memory.  Once the answers come, the
# charge goes back below where it started.  The debug kernel has no
# memory controller.
memcg_on() { grep -qw memory /sys/fs/cgroup/cgroup.controllers 2>/dev/null; }

charged() {
	local cg=/sys/fs/cgroup/uet-charged log=/tmp/verbs-charged.log
	local base now rc=0
	echo +memory >/sys/fs/cgroup/cgroup.subtree_control && mkdir -p $cg &&
	B tc qdisc replace dev veth0 root netem loss 100% || return 1
	sh -c "echo \$\$ >$cg/cgroup.procs &&
	       exec ./verbs_data -t held_sends_bounded" >$log 2>&1 || rc=1
	sed 's/^/# /' $log
	B tc qdisc del dev veth0 root
	base=$(sed -n 's/^# memcg_kernel_base=\([0-9]*\)$/\1/p' $log)
	for _ in $(seq 300); do
		now=$(awk '$1 == "kernel" { print $2 }' $cg/memory.stat)
		[ -n "$base" ] && [ "$now" -le "$base" ] && break
		sleep 0.1
	done
	echo "# kernel memory of the cgroup once answered: $((now >> 10)) KiB"
	[ -n "$base" ] && [ "$now" -le "$base" ] || rc=1
	rmdir $cg
	return $rc
}

# A connected QP takes requests from its peer only, over its PDCs: a write
# and a send from two other QPs, each posted once and again retry_cnt (7)
# times, and a datagram, are 2 * 8 + 1 counted drops; a UD QP takes the
# datagrams of its Q_Key only: one more.
peer_only() {
	local d
	d=$(counter uet1 drop_not_peer)
	A ./verbs_data -t rc_takes_its_peer_only -t datagram_to_rc_qp_dropped \
		-t ud_qkey &&
	expect_delta uet1 drop_not_peer "$d" $((2 * 8 + 1 + 1))
}

# RC messages across an idle close of their PDC and a new one under
# another PDCID.  The test reads the PDCs in debugfs, which a namespace's
# own /sys hides: it runs in the first namespace (the devices are shared).
pdc_reopen() {
	local rc=0
	A uetctl dev set uet0 pdc-idle-ms 200 &&
	B uetctl dev set uet1 pdc-idle-ms 200 || return 1
	./verbs_data -t rc_across_pdc_reopen || rc=1
	A uetctl dev set uet0 pdc-idle-ms 10000 &&
	B uetctl dev set uet1 pdc-idle-ms 10000 || rc=1
	return $rc
}

# Atomics that lose their requests or their answers, or arrive twice, act
# once all the same: verbs_data checks every value the fetch-and-adds saw.
atomics_lossy() {
	impaired "loss 5% duplicate 5%" A ./verbs_data -t fetch_add_every_value
}

# amo_send PID ID OFFSET EXT INI: from uet-b, a fetching atomic request
# (a SYN of a new PDC, SPDCID 0x40ID) for PIDonFEP PID of job 0 on uet0:
# PDS header, SES standard header (SOM|EOM, initiator INI, request length
# 8, buffer offset OFFSET), then EXT: extension header and operand, hex
# digits.
amo_send() {
	local pds ses hex
	pds=118cfffe0001200040${2}8005
	ses=0403000100000000$(printf '%04x0000%016x' "$1" "$3")
	ses+=$(printf '%08x%032x%08x' "$5" 0 8)
	hex=$pds$ses$4
	# whole, whatever bytes (a newline) the random QPNs bring
	craft "$NS_B" "$UET_NET4.1" "$hex"
}

# qpn LOG: the local QPN an ibv_*_pingpong printed in LOG, once it is
# connected (it printed its peer's address too)
qpn() {
	local c q
	for c in $(seq 100); do
		q=$(sed -nE 's/.*local address:.*QPN (0x[0-9a-f]+).*/\1/p' "$1")
		grep -q 'remote address:' "$1" && [ -n "$q" ] &&
			{ echo $((q)); return; }
		sleep 0.1
	done
	return 1
}

# Bad atomic requests at the QP of an ibv_rc_pingpong server (without
# remote atomic access), from its client's address and QPN while the two
# exchange messages: each is a counted drop of its kind.  The two wait for
# completion events (-e): polling, they would take the CPU from the rest
# of the test (it took 248 s on the debug kernel's one vCPU).
amo_refused() {
	local qpn cqpn pid cpid c ga gb rc=0 op=0000000000000001 i=0
	local -A before
	ga=$(gid_index uet0 1) && gb=$(gid_index uet1 2) || return 1
	# not through A() and B(): $! must be timeout's pid, which passes the
	# kill on to the program, not a subshell's
	ip netns exec "$NS_A" timeout 600 ibv_rc_pingpong -d uet0 -g "$ga" \
		-e -n 1000000 >/tmp/amo-server.log 2>&1 &
	pid=$!
	sleep 1
	ip netns exec "$NS_B" timeout 600 ibv_rc_pingpong -d uet1 -g "$gb" \
		-e -n 1000000 "$UET_NET4.1" >/tmp/amo-client.log 2>&1 &
	cpid=$!
	qpn=$(qpn /tmp/amo-server.log) && cqpn=$(qpn /tmp/amo-client.log) ||
		{ kill "$pid" "$cpid"; wait "$pid" "$cpid"; return 1; }
	# On the debug kernel's one CPU their exchange left the test a
	# fraction of it (109 s for seven requests): there they stop,
	# connected, their QPs as they were, while the requests come.
	[ -n "${UET_SLOW:-}" ] && killall -STOP ibv_rc_pingpong
	# EXT OFFSET COUNTER: what each request is refused for
	while read -r ext off c; do
		before[$c]=$(counter uet0 "$c")
		amo_send "$qpn" "$(printf %02x "$i")" "$off" "$ext" "$cqpn"
		i=$((i + 1))
		sleep 0.2
		expect_delta uet0 "$c" "${before[$c]}" 1 || rc=1
	done <<-EOF
	0207 0 drop_malformed
	02070001$op 0 drop_malformed
	00070000$op 0 drop_unsupported
	02050000$op 0 drop_unsupported
	02070000 0 drop_unsupported
	02070000$op 4 drop_unsupported
	02070000$op 0 drop_access
	EOF
	[ -n "${UET_SLOW:-}" ] && killall -CONT ibv_rc_pingpong
	kill "$pid" "$cpid"
	wait "$pid" "$cpid" 2>/dev/null
	[ $rc = 0 ] || { rdma statistic show link uet0/1; cat /tmp/amo-*.log
		head -20 /sys/kernel/debug/uet/uet0/pdcs; } | sed 's/^/# /'
	return $rc
}

# The device goes away under traffic, while perftest holds it: uet lets
# ib_core take the programs' contexts away (disassociate_ucontext), so
# rdma link del returns within 10 s without waiting for them (before, it
# waited out their 60 s timeout).  Then, stopped, both programs end
# within 10 s (nothing stuck in the kernel), the device is gone and can
# be added again; no kernel warning (the harness checks).
link_del_under_traffic() {
	local ga gb pids del p i alive rc=0
	ga=$(gid_index uet0 1) && gb=$(gid_index uet1 2) || return 1
	# not through A() and B(): $! is timeout's pid, which passes the kill
	# on to the program
	ip netns exec "$NS_B" timeout 60 ib_write_bw -d uet1 -x "$gb" -F \
		-n 100000 >/dev/null 2>&1 &
	pids=$!
	sleep 1
	ip netns exec "$NS_A" timeout 60 ib_write_bw -d uet0 -x "$ga" -F \
		-n 100000 "$UET_NET4.2" >/dev/null 2>&1 &
	pids+=" $!"
	sleep 3
	# shellcheck disable=SC2086
	if ! kill -0 $pids; then
		echo "# perftest ended before the deletion"
		# shellcheck disable=SC2086
		kill $pids 2>/dev/null
		wait
		return 1
	fi
	A rdma link del uet0 &
	del=$!
	# the device goes while the programs hold it (disassociation)
	for i in $(seq 100); do
		kill -0 "$del" 2>/dev/null || break
		sleep 0.1
	done
	if kill -0 "$del" 2>/dev/null; then
		echo "# rdma link del still waiting for the programs after 10 s"
		rc=1
	fi
	# shellcheck disable=SC2086
	kill $pids 2>/dev/null
	for i in $(seq 100); do
		alive=''
		for p in $pids $del; do
			kill -0 "$p" 2>/dev/null && alive+=" $p"
		done
		[ -z "$alive" ] && break
		sleep 0.1
	done
	if [ -n "$alive" ]; then
		echo "# still running 10 s after SIGTERM:$alive"
		# shellcheck disable=SC2086
		kill -KILL $alive 2>/dev/null
		rc=1
	fi
	wait "$del" || { echo "# rdma link del failed"; rc=1; }
	wait
	[ -e /sys/class/infiniband/uet0 ] && { echo "# uet0 still there"; rc=1; }
	A rdma link add uet0 type uet netdev veth0 || rc=1
	return $rc
}

# pingpong PROGRAM [ARGS]: server on uet1 in uet-b, client on uet0 in
# uet-a; both must report success, and the client's device must have sent
# UET packets for it.
pingpong() {
	local prog=$1 ga gb pid tx rx rc=0
	shift
	ga=$(gid_index uet0 1) && gb=$(gid_index uet1 2) || return 1
	tx=$(counter uet0 tx_packets)
	rx=$(counter uet1 rx_packets)
	B timeout 120 "$prog" -d uet1 -g "$gb" "$@" >/tmp/pp-server.log 2>&1 &
	pid=$!
	sleep 1
	run A timeout 120 "$prog" -d uet0 -g "$ga" "$@" "$UET_NET4.2" ||
		rc=1
	wait $pid || rc=1
	sed 's/^/# server: /' /tmp/pp-server.log
	echo "# uet0 tx_packets +$(($(counter uet0 tx_packets) - tx)), uet1 rx_packets +$(($(counter uet1 rx_packets) - rx))"
	[ $rc = 0 ] && [ "$(counter uet0 tx_packets)" -gt "$tx" ] &&
		[ "$(counter uet1 rx_packets)" -gt "$rx" ]
}

rc_pingpong() {
	pingpong ibv_rc_pingpong -n "$(scaled 200 20)" -s 4096
}

rc_pingpong_events() {
	pingpong ibv_rc_pingpong -n "$(scaled 100 10)" -s 100 -e
}

rc_pingpong_large() {
	pingpong ibv_rc_pingpong -n "$(scaled 20 2)" -s 1000000 -m 1024
}

uc_pingpong() {
	pingpong ibv_uc_pingpong -n "$(scaled 100 10)" -s 1024
}

ud_pingpong() {
	pingpong ibv_ud_pingpong -n "$(scaled 100 10)" -s 1024
}

srq_pingpong() {
	pingpong ibv_srq_pingpong -n "$(scaled 100 10)" -s 1024 -q 4
}

# perf PROGRAM [ARGS]: a perftest program, server on uet1, client on uet0.
perf() {
	local prog=$1 ga gb pid tx rc=0
	shift
	ga=$(gid_index uet0 1) && gb=$(gid_index uet1 2) || return 1
	tx=$(counter uet0 tx_packets)
	B timeout 300 "$prog" -d uet1 -x "$gb" -F "$@" >/tmp/perf-server.log 2>&1 &
	pid=$!
	sleep 1
	run A timeout 300 "$prog" -d uet0 -x "$ga" -F "$@" "$UET_NET4.2" \
		>/tmp/perf-client.log 2>&1 || rc=1
	wait $pid || rc=1
	report $rc /tmp/perf-client.log /tmp/perf-server.log
	[ $rc = 0 ] && [ "$(counter uet0 tx_packets)" -gt "$tx" ]
}

teardown() {
	A rdma link del uet0 && B rdma link del uet1 &&
	wait_no_uet_devs && modprobe -r uet
}

ktap_print_header
ktap_set_plan 32
setup || ktap_exit_fail_msg "cannot set up the fabric"
ktap_test_result "CQ, MR, SRQ, AH, QP objects and states" objects
ktap_test_result "ibv_rc_pingpong 4 KiB x 200" rc_pingpong
ktap_test_result "ibv_rc_pingpong with completion events" rc_pingpong_events
ktap_test_result "ibv_rc_pingpong 1 MB messages" rc_pingpong_large
ktap_test_result "ibv_uc_pingpong" uc_pingpong
ktap_test_result "ibv_ud_pingpong" ud_pingpong
ktap_test_result "ibv_srq_pingpong, 4 QPs on one SRQ" srq_pingpong
# the debug kernel moves some 300 KB/s: one size there, not the sweep
# shellcheck disable=SC2046
ktap_test_result "ib_write_bw -a, sizes 2 B to 8 MiB" \
	perf ib_write_bw $(scaled -a "-s 65536") -n "$(scaled 20 5)"
# shellcheck disable=SC2046
ktap_test_result "ib_read_bw -a, sizes 2 B to 8 MiB" \
	perf ib_read_bw $(scaled -a "-s 4096") -n "$(scaled 20 20)"
# shellcheck disable=SC2046
ktap_test_result "ib_send_bw -a, sizes 2 B to 8 MiB" \
	perf ib_send_bw $(scaled -a "-s 4096") -n "$(scaled 20 20)"
ktap_test_result "ib_write_lat 8 B" perf ib_write_lat -n "$(scaled 200 20)" -s 8
ktap_test_result "ib_send_lat 8 B" perf ib_send_lat -n "$(scaled 200 20)" -s 8
ktap_test_result "ib_atomic_bw fetch-and-add" perf ib_atomic_bw -n "$(scaled 200 20)"
ktap_test_result "ib_atomic_lat compare-and-swap" \
	perf ib_atomic_lat -A CMP_AND_SWAP -n "$(scaled 200 20)"
# UD: the server posts its receive WQEs without a system call before the
# client's burst; the device takes them from its queue as datagrams come
ktap_test_result "ib_send_bw UD 1 KiB" perf ib_send_bw -c UD -s 1024 -n "$(scaled 1000 200)"
ktap_test_result "ib_send_lat UD 64 B" perf ib_send_lat -c UD -s 64 -n "$(scaled 300 100)"
ktap_test_result "data integrity and error paths (verbs_data)" data
# Each lossy run sends at least 1500 request packets from uet0 (300 on
# the debug kernel; a 64 KiB message or read is 47 packets at MTU 1500,
# 4 KiB 3), so that the chance the loss spares them all, and the
# retransmit check fails for want of a loss, is below 1e-6 (0.99^1500 =
# 2.8e-7, 0.95^300 = 2.1e-7).
ktap_test_result "ib_write_bw 64 KiB under $LOSS loss" lossy ib_write_bw -n "$(scaled 200 8)" -s 65536
# the sends, writes and reads of these under loss take the paths of the
# others: on the stock kernel only
stock_only "ib_send_bw 4 KiB under $LOSS loss" lossy ib_send_bw -n "$(scaled 500 100)" -s 4096
ktap_test_result "ib_read_bw 64 KiB under $LOSS loss" lossy ib_read_bw -n "$(scaled 100 8)" -s 65536
ktap_test_result "ib_atomic_bw under $LOSS loss" lossy ib_atomic_bw -n "$(scaled 1500 300)"
stock_only "ib_write_lat 8 B under $LOSS loss" lossy ib_write_lat -n "$(scaled 1500 300)" -s 8
stock_only "ib_send_lat 4 KiB under $LOSS loss" lossy ib_send_lat -n "$(scaled 500 100)" -s 4096
if [ -e /sys/fs/cgroup/cgroup.controllers ] ||
   mount -t cgroup2 none /sys/fs/cgroup && memcg_on; then
	ktap_test_result "1 GiB of writes to a stalled peer: refused, or held in flat memory" charged
else
	ktap_test_skip "1 GiB of writes to a stalled peer: refused, or held in flat memory: no memory controller in this kernel"
fi
ktap_test_result "a QP takes requests from its peer or of its Q_Key only" peer_only
ktap_test_result "RC messages across a PDC closed when idle and reopened" pdc_reopen
ktap_test_result "fetch-and-add exactly once under 5% loss and duplication" atomics_lossy
ktap_test_result "RC sprayed (REPS, oblivious) through reordering and loss: every byte" sprayed
ktap_test_result "malformed and unsupported atomics are counted drops" amo_refused
ktap_test_result "rdma link del under traffic" link_del_under_traffic
ktap_test_result "devices removed, module unloaded" teardown
fabric_down
ktap_test_result "no device left" wait_no_uet_devs
ktap_finished
