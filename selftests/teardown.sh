#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Devices, netdevs, namespaces and the module go away while perftest
# moves data between uet0 (in uet-a) and uet1 (in uet-b): every program
# ends, the devices go, nothing hangs, and the harness fails the run on
# any kernel report (on the debug kernel: KASAN, lockdep, kmemleak).
# UET_TEARDOWN_LOOPS rounds of each (make soak runs hundreds).
. "$(dirname "$0")/lib.sh"

A() { ip netns exec "$NS_A" "$@"; }
B() { ip netns exec "$NS_B" "$@"; }

NS_C=uet-c
LOOPS=${UET_TEARDOWN_LOOPS:-$(scaled 2 1)}
# how long each perftest run lasts at most, s
RUN_S=6

devices() {
	A rdma link add uet0 type uet netdev veth0 &&
	B rdma link add uet1 type uet netdev veth0
}

setup() {
	fabric_up && modprobe uet && devices
}

# again: a fresh fabric with both devices
again() {
	ip netns del "$NS_C" 2>/dev/null
	fabric_down
	wait_no_uet_devs && fabric_up && devices
}

# traffic: ib_write_bw from uet0 to uet1 in the background ($tpids), RUN_S
# seconds at most, both programs running and moving data once this
# returns: the server listens (perftest's port 18515) before the client
# starts, however slow the kernel.
traffic() {
	local ga gb i pid
	ga=$(gid_index uet0 1) && gb=$(gid_index uet1 2) || return 1
	B timeout $((RUN_S + 10)) ib_write_bw -d uet1 -x "$gb" -F -D "$RUN_S" \
		>/tmp/teardown-server.log 2>&1 &
	tpids=$!
	for i in $(seq 100); do
		[ -n "$(B ss -Hltn 'sport = :18515')" ] && break
		sleep 0.1
	done
	A timeout $((RUN_S + 10)) ib_write_bw -d uet0 -x "$ga" -F -D "$RUN_S" \
		"$UET_NET4.2" >/tmp/teardown-client.log 2>&1 &
	tpids+=" $!"
	sleep 2
	for pid in $tpids; do
		kill -0 "$pid" 2>/dev/null && continue
		sed 's/^/# traffic: /' /tmp/teardown-server.log /tmp/teardown-client.log
		return 1
	done
}

# traffic_end: the perftest programs ended (whatever they reported)
traffic_end() {
	# shellcheck disable=SC2086
	wait $tpids 2>/dev/null
	true
}

# gone DEV: DEV disappears within 5 s
gone() {
	local i
	for i in $(seq 50); do
		[ -e "/sys/class/infiniband/$1" ] || return 0
		sleep 0.1
	done
	echo "# $1 still there"
	return 1
}

# The netdev goes (both ends of the veth pair) under traffic.
netdev_del() {
	local i
	for i in $(seq "$LOOPS"); do
		traffic || return 1
		A ip link del veth0 || return 1
		traffic_end
		wait_no_uet_devs && again || return 1
	done
}

# uet0's netdev moves to another namespace under traffic, while a process
# of the first namespace holds uet0 open; then uet0's namespace goes: the
# device goes with it although the holder still has it open (ib_core
# takes it from the holder, disassociate_ucontext), and the holder ends
# when stopped.
netdev_move() {
	local i ga holder
	for i in $(seq "$LOOPS"); do
		ga=$(gid_index uet0 1) || return 1
		# an RC server waiting for a client that never comes, until
		# killed below (a round took 85 s on the debug kernel)
		timeout 600 ibv_rc_pingpong -d uet0 -g "$ga" -p 18600 \
			>/tmp/holder.log 2>&1 &
		holder=$!
		traffic || return 1
		ip netns add "$NS_C" &&
		A ip link set veth0 netns "$NS_C" || return 1
		traffic_end
		ip netns del "$NS_A" || return 1
		gone uet0 || return 1
		kill -0 "$holder" ||
			{ sed 's/^/# holder: /' /tmp/holder.log; return 1; }
		kill "$holder"
		wait "$holder" 2>/dev/null
		again || return 1
	done
}

# Both namespaces go under traffic; their processes keep them until they
# end, then the netdevs and devices go.
netns_del() {
	local i
	for i in $(seq "$LOOPS"); do
		traffic || return 1
		fabric_down
		traffic_end
		wait_no_uet_devs && fabric_up && devices || return 1
	done
}

# The module goes while programs use its devices: they lose them
# (disassociate_ucontext) and end, by themselves or at their timeout;
# the module then loads again.
rmmod_in_use() {
	local i
	for i in $(seq "$LOOPS"); do
		traffic || return 1
		run modprobe -r uet || return 1
		[ -z "$(uet_devs)" ] || { echo "# devices left: $(uet_devs)"; return 1; }
		traffic_end
		modprobe uet && devices || return 1
	done
}

teardown() {
	A rdma link del uet0 && B rdma link del uet1 &&
	wait_no_uet_devs && modprobe -r uet
}

trap 'ip netns del "$NS_C" 2>/dev/null; fabric_down' EXIT
ktap_print_header
ktap_set_plan 6
setup || ktap_exit_fail_msg "cannot set up the fabric"
echo "# $LOOPS rounds each"
ktap_test_result "netdev deleted under traffic" netdev_del
ktap_test_result "netdev moved away, its namespace deleted, under traffic" netdev_move
ktap_test_result "namespaces deleted under traffic" netns_del
ktap_test_result "module unloaded while programs use it" rmmod_in_use
ktap_test_result "devices removed, module unloaded" teardown
fabric_down
ktap_test_result "no device left" wait_no_uet_devs
ktap_finished
