#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# PDC setup, for make bench (selftests/bench/run.sh), in one VM through
# the test-only module uet_test_pdcs, with both devices' pools at 65,535:
#   wire     uet0 opens N PDCs to uet1 (one per job, one message each,
#            256 at a time): setups a second, from the posts to the
#            answers; kernel memory per PDC once they are idle
#   sink     uet0 opens N PDCs to N addresses routed into a veth whose
#            other end, in uet-a too, drops what it gets (not its MAC):
#            nothing answers, so this is the rate of creation and first
#            transmission alone; kernel memory per PDC with its message
#            in flight (an active PDC)
#   latency  a new PDC's first message against the next on it
# for N of 100, 1,000, 10,000 and 65,535.  Each figure is a line
# "UET-BENCH-PDCS {json}".  Not a pass/fail test.
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/engine_lib.sh"

SIZES=${UET_BENCH_PDCS:-100 1000 10000 65535}
JOB=$((0x100000))
SINK=198.19.0.1
SINK_GW=198.19.255.255
M0=/tmp/pdcs-bench-mem0.txt
M1=/tmp/pdcs-bench-mem1.txt

# fresh devices for each measurement, their pools empty
devices() {
	modprobe uet &&
	A rdma link add uet0 type uet netdev veth0 &&
	B rdma link add uet1 type uet netdev veth0 &&
	A uetctl dev set uet0 pdc-pool 65535 pdc-reserved 0 pdc-idle-ms 0 &&
	B uetctl dev set uet1 pdc-pool 65535 pdc-reserved 0 pdc-idle-ms 0 \
		pdc-per-source 65535 &&
	A ip link add sink0 type veth peer name sink1 &&
	A ip link set sink0 up && A ip link set sink1 up &&
	A ip neigh add $SINK_GW lladdr 02:00:00:00:47:93 dev sink0 nud permanent &&
	A ip route add 198.19.0.0/16 via $SINK_GW dev sink0 onlink
}

devices_down() {
	A ip link del sink0 2>/dev/null
	A rdma link del uet0 2>/dev/null
	B rdma link del uet1 2>/dev/null
	modprobe -r uet
}

# bytes N: kernel memory (slab and per-CPU) from $M0 to $M1, per N PDCs
bytes() {
	local slab pcpu
	slab=$(( $(meminfo SUnreclaim "$M1") - $(meminfo SUnreclaim "$M0") ))
	pcpu=$(( $(meminfo Percpu "$M1") - $(meminfo Percpu "$M0") ))
	echo $(( (slab + pcpu) * 1024 / $1 ))
}

# field NAME: NAME=VALUE of the module's last PASS line
field() {
	dmesg | grep 'uet_test_pdcs: PASS' | tail -n 1 |
		sed -n "s/.*[ (]$1=\([0-9]*\).*/\1/p"
}

wire() {
	local n=$1 rate
	devices || { devices_down; return 1; }
	mem_snapshot "$M0"
	modprobe uet_test_pdcs src=uet0 dst=uet1 addr="$UET_NET4.2" \
		job=$JOB pdcs="$n" timeout_s=120 || { devices_down; return 1; }
	rate=$(field setups_per_s)
	rmmod uet_test_pdcs
	mem_snapshot "$M1"
	printf 'UET-BENCH-PDCS {"test":"wire","pdcs":%d,"setups_per_s":%d,"bytes_per_idle_pdc":%d}\n' \
		"$n" "$rate" "$(bytes $((2 * n)))"
	devices_down
}

sink() {
	local n=$1 rate
	devices || { devices_down; return 1; }
	mem_snapshot "$M0"
	modprobe uet_test_pdcs src=uet0 addr=$SINK sink=1 job=$JOB pdcs="$n" ||
		{ devices_down; return 1; }
	rate=$(field setups_per_s)
	mem_snapshot "$M1"
	rmmod uet_test_pdcs
	printf 'UET-BENCH-PDCS {"test":"sink","pdcs":%d,"setups_per_s":%d,"bytes_per_active_pdc":%d}\n' \
		"$n" "$rate" "$(bytes "$n")"
	devices_down
}

latency() {
	devices || { devices_down; return 1; }
	modprobe uet_test_pdcs src=uet0 dst=uet1 addr="$UET_NET4.2" \
		job=$JOB lat=200 || { devices_down; return 1; }
	rmmod uet_test_pdcs
	printf 'UET-BENCH-PDCS {"test":"latency","pdcs":200,"new_us":%d,"established_us":%d}\n' \
		"$(field new_us)" "$(field established_us)"
	devices_down
}

bench() {
	local n rc=0
	fabric_up || return 1
	for n in $SIZES; do
		wire "$n" || rc=1
		sink "$n" || rc=1
	done
	latency || rc=1
	return $rc
}

trap 'fabric_down' EXIT
ktap_print_header
ktap_set_plan 1
ktap_test_result "PDC setup rates, memory, first-packet latency" bench
ktap_finished
