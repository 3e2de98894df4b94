#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Goodput of the engine per delivery mode, 1 MiB messages, lossless and
# at 1% loss, with the retransmissions each cost, with congestion control
# (NSCC) and without: uet0 (in uet-a) to uet1 (in uet-b) in one VM,
# through the test module (every byte checked).
# Not a pass/fail test: run it with
#   selftests/vm/run-suite.sh selftests --append 'UET_TESTS="engine_bench.sh"'
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/engine_lib.sh"

N=${UET_BENCH_COUNT:-16}

# run LABEL LOSS ARGS...: one measurement, printed as a table row
run() {
	local label=$1 loss=$2 rtx kbps
	shift 2
	if [ "$loss" != 0 ]; then netem loss "$loss%" || return 1; fi
	rtx=$(counter uet0 retransmits)
	xfer job="$JOB" count="$N" size=1048576 "$@" >/dev/null || { netem_off; return 1; }
	kbps=$(dmesg | grep 'uet_test_engine: PASS' | tail -n 1 |
	       sed -n 's/.*goodput_kBps=\([0-9]*\).*/\1/p')
	netem_off
	printf '# %-12s %4s%%  %7s MB/s  %6d retransmits\n' "$label" "$loss" \
		"$(awk -v k="$kbps" 'BEGIN { printf "%.1f", k / 1000 }')" \
		$(( $(counter uet0 retransmits) - rtx ))
}

# bench_cc CC JOB: every mode, lossless and at 1% loss, with congestion
# control CC on uet0, on PDCs of job JOB (a PDC takes the device's
# settings when it starts sending)
bench_cc() {
	local loss
	JOB=$2
	A uetctl dev set uet0 cc "$1" || return 1
	echo "# cc $1"
	echo "# mode         loss   goodput       retransmissions"
	for loss in 0 1; do
		run "RUD send" $loss mode=rud &&
		run "ROD send" $loss mode=rod &&
		run "RUD write" $loss op=write &&
		run "RUD read" $loss op=read &&
		run "RUDI write" $loss op=write mode=rudi &&
		run "RUDI read" $loss op=read mode=rudi || return 1
	done
}

bench() {
	echo "# $N x 1 MiB per row"
	bench_cc nscc 1 && bench_cc none 2 && A uetctl dev set uet0 cc nscc
}

trap 'netem_off; fabric_down' EXIT
ktap_print_header
ktap_set_plan 3
ktap_test_result "setup" setup
ktap_test_result "goodput per mode" bench
ktap_test_result "teardown" teardown
ktap_finished
