#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Where a packet's time goes: perf samples every CPU while the test module
# moves 1 MiB messages from uet0 (in uet-a) to uet1 (in uet-b), and the
# report lists the functions that took the busy time, sender and receiver
# together (one VM: both ends run on its CPUs), and the layers they are
# in.  Not a pass/fail test: run it with "make profile", which puts perf
# in the VM.
#   UET_PROFILE_COUNT   messages per run (64)
#   UET_PROFILE_RUNS    the runs, each "MODE OP LOSS%" (the test module's
#                       mode and op), separated by ";"
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/engine_lib.sh"

N=${UET_PROFILE_COUNT:-64}
RUNS=${UET_PROFILE_RUNS:-"rud send 0;rud write 0;rud send 1"}

# profile MODE OP LOSS: one transfer (xfer) under perf, and its report
profile() {
	local mode=$1 op=$2 loss=$3 data=/tmp/perf.data pkts perf rc=0
	if [ "$loss" != 0 ]; then netem loss "$loss%" || return 1; fi
	pkts=$(counter uet0 tx_packets)
	perf record -q -a -e cpu-clock -F 2000 -o $data &
	perf=$!
	(sleep 1; cp /proc/kallsyms /tmp/kallsyms) &
	xfer count="$N" size=1048576 mode="$mode" op="$op" || rc=1
	kill -INT $perf
	wait $perf
	netem_off
	pkts=$(( $(counter uet0 tx_packets) - pkts ))
	echo "# $mode $op, $loss% loss: $N x 1 MiB, $pkts packets from uet0"
	perf_report $data /tmp/kallsyms
	rm -f $data
	return $rc
}

profiles() {
	local run rc=0
	IFS=';' read -ra runs <<<"$RUNS"
	for run in "${runs[@]}"; do
		# shellcheck disable=SC2086
		profile $run || rc=1
	done
	return $rc
}

trap 'netem_off; fabric_down' EXIT
ktap_print_header
ktap_set_plan 3
ktap_test_result "setup" setup
ktap_test_result "profiles" profiles
ktap_test_result "teardown" teardown
ktap_finished
