#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Where a packet's time goes: perf samples every CPU while the test module
# moves 1 MiB messages from uet0 (in uet-a) to uet1 (in uet-b), and the
# report lists the kernel functions that took the samples, sender and
# receiver together (one VM: both ends run on its CPUs).  Not a pass/fail
# test: run it with "make profile", which puts perf in the VM.
#   UET_PROFILE_COUNT   messages per run (64)
#   UET_PROFILE_RUNS    the runs, each "MODE OP LOSS%" (the test module's
#                       mode and op), separated by ";"
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/engine_lib.sh"

N=${UET_PROFILE_COUNT:-64}
RUNS=${UET_PROFILE_RUNS:-"rud send 0;rud write 0;rud send 1"}

# name_addrs: perf finds no symbols for out-of-tree modules here; name
# the addresses it prints by the nearest symbol below in /tmp/kallsyms,
# taken while the test module ran (it is gone by the report)
name_addrs() {
	awk 'NR == FNR { if ($2 ~ /^[tT]$/ && $1 ~ /^ffffffff/) {
				a[n] = substr($1, 9); s[n] = $3 " " $4; n++ }
			 next }
	     { if (match($0, /0x(00)?ffffff[0-9a-f]+/)) {
		h = substr($0, RSTART + RLENGTH - 8, 8); best = ""
		for (i = 0; i < n; i++)
			if (a[i] <= h && a[i] > best) { best = a[i]; b = s[i] }
		if (best != "") $0 = $0 "  " b
	       }
	       print }' /tmp/kallsyms -
}

# profile MODE OP LOSS: one transfer (xfer) under perf, the report's top
# lines
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
	perf report -i $data --stdio --sort sym --percent-limit 0.7 2>/dev/null |
		grep -v '^#' | grep -v '^$' | head -n 40 | name_addrs |
		sed 's/^/#   /'
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
