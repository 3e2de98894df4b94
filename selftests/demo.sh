#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# What "make demo" shows: two uet devices on a two-namespace fabric, and a
# transfer between them.
. "$(dirname "$0")/lib.sh"

A() { ip netns exec "$NS_A" "$@"; }
B() { ip netns exec "$NS_B" "$@"; }

step() { echo; echo "### $*"; }

trap fabric_down EXIT
step "fabric: namespaces $NS_A and $NS_B joined by veth"
fabric_up || exit 1
A ip -br addr show dev veth0
B ip -br addr show dev veth0

step "load uet"
run modprobe uet || exit 1
grep '^uet ' /proc/modules

step "create one uet device in each namespace"
run A rdma link add uet0 type uet netdev veth0 || exit 1
run B rdma link add uet1 type uet netdev veth0 || exit 1

step "the devices, as the RDMA tools see them"
run A rdma link show uet0/1
run B rdma link show uet1/1
run A ibv_devices
run A ibv_devinfo -d uet0
run uetctl dev show
run uetctl -j -p dev show

step "a UET transfer: 8 messages of 1 MiB, uet0 -> uet1 (RUD), every byte checked"
echo "(driven through the engine's kernel API by the test module uet_test_engine)"
run modprobe uet_test_engine src=uet0 dst=uet1 addr="$UET_NET4.2" count=8 size=1048576 &&
	dmesg | grep 'uet_test_engine: PASS' | tail -n 1
rmmod uet_test_engine 2>/dev/null

step "verbs: ibv_rc_pingpong and perftest with rdma-core's stock rxe provider"
echo "(the provider speaks the soft-RoCE user ABI; the packets are UET on UDP 4793)"
ga=$(gid_index uet0 1) gb=$(gid_index uet1 2)
tx0=$(counter uet0 tx_packets)
A timeout 20 tcpdump -Z root -i veth0 -nn -c 6 udp >/tmp/demo-tcpdump.log 2>&1 &
sleep 1
B timeout 60 ibv_rc_pingpong -d uet1 -g "$gb" -n 100 -s 4096 >/dev/null 2>&1 &
sleep 1
run A timeout 60 ibv_rc_pingpong -d uet0 -g "$ga" -n 100 -s 4096 "$UET_NET4.2"
wait
echo "first packets on the wire (UDP destination port 4793; a frame longer"
echo "than the MTU is a GSO batch of whole UET packets, cut up below the tap):"
sed 's/^/  /' /tmp/demo-tcpdump.log
B timeout 120 ib_write_bw -d uet1 -x "$gb" -F -n 200 -s 65536 >/dev/null 2>&1 &
sleep 1
run A timeout 120 ib_write_bw -d uet0 -x "$ga" -F -n 200 -s 65536 "$UET_NET4.2"
wait
B timeout 120 ib_atomic_bw -d uet1 -x "$gb" -F -n 500 >/dev/null 2>&1 &
sleep 1
run A timeout 120 ib_atomic_bw -d uet0 -x "$ga" -F -n 500 "$UET_NET4.2"
wait
echo "uet0 sent $(($(counter uet0 tx_packets) - tx0)) UET packets for them"

step "what went over UDP port 4793, as the devices count it"
run rdma statistic show link uet0/1
run rdma statistic show link uet1/1
run cat /sys/kernel/debug/uet/uet0/pdcs /sys/kernel/debug/uet/uet1/pdcs

step "remove them"
run A rdma link del uet0
run B rdma link del uet1
run modprobe -r uet
dmesg | grep ' uet' | sed 's/^/  /'
