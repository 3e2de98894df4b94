#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# make bench, in each VM of the pair topology (run-vm.sh --pair): stock
# perftest over a uet device and over an rxe device on the same netdev,
# in the same run, and iperf3 TCP as the link's ceiling.  VM b serves, VM
# a measures and prints one "UET-BENCH {json}" line per measurement for
# selftests/bench/run.sh to tabulate.
#
#   +---- VM a ----+   QEMU socket link   +---- VM b ----+
#   | uet0, rxe0   |----------------------| uet0, rxe0   |
#   | 198.18.0.1   |        eth0          | 198.18.0.2   |
#   +--------------+                      +--------------+
. "$(dirname "$0")/lib.sh"

case ${UET_ROLE:-} in
a) me=1 peer=2 ;;
b) me=2 peer=1 ;;
*) ktap_print_header; ktap_skip_all "needs UET_ROLE=a or b (pair topology)"; exit "$KSFT_SKIP" ;;
esac

# Iterations per message size: enough to average, few enough for TCG.
# Iterations per run, a few seconds' worth each under TCG; every run is
# repeated REPEAT times and run.sh keeps the median.
bw_iters() {
	case $1 in
	64) echo 5000 ;;
	4096) echo 2000 ;;
	65536) echo 500 ;;
	*) echo 50 ;;
	esac
}
LAT_ITERS=200
REPEAT=3
BW_SIZES="64 4096 65536 1048576"
LAT_SIZES="8 4096"
DEVS="uet0 rxe0"

link_up() {
	ip link set eth0 up &&
	ip addr add "$UET_NET4.$me/24" dev eth0 || return 1
	local i
	for i in $(seq 60); do
		ping -c 1 -W 1 "$UET_NET4.$peer" >/dev/null && return 0
	done
	return 1
}

devices() {
	modprobe crc32_generic && modprobe uet &&
	rdma link add rxe0 type rxe netdev eth0 &&
	rdma link add uet0 type uet netdev eth0
}

# client CMD...: run a client until it connects (the server may be late).
client() {
	local i out
	for i in $(seq 60); do
		out=$(timeout 900 "$@" 2>&1) && { echo "$out"; return 0; }
		grep -q "Couldn't connect\|Unable to connect\|Connection refused" <<<"$out" ||
			{ echo "$out" | sed 's/^/# /' >&2; return 1; }
		sleep 1
	done
	return 1
}

iperf() {
	local out mbit
	if [ "$UET_ROLE" = b ]; then
		timeout 300 iperf3 -s -1 >/dev/null
		return
	fi
	out=$(client iperf3 -c "$UET_NET4.$peer" -t 5 -f m) || return 1
	mbit=$(awk '/receiver/ { print $(NF - 2) }' <<<"$out")
	echo "UET-BENCH {\"dev\":\"tcp\",\"test\":\"iperf3\",\"size\":0,\"mbit_s\":$mbit}"
}

# perf DEV PROG SIZE ITERS: one perftest measurement.
perf() {
	local dev=$1 prog=$2 size=$3 n=$4 g out
	g=$(gid_index "$dev" "$me" "RoCE v2") || return 1
	if [ "$UET_ROLE" = b ]; then
		timeout 900 "$prog" -d "$dev" -x "$g" -F -s "$size" -n "$n" >/dev/null 2>&1
		return
	fi
	out=$(client "$prog" -d "$dev" -x "$g" -F -s "$size" -n "$n" \
		"$UET_NET4.$peer") || return 1
	case $prog in
	*_bw)
		awk -v s="$size" -v d="$dev" -v p="$prog" '$1 == s && NF >= 5 {
			printf "UET-BENCH {\"dev\":\"%s\",\"test\":\"%s\",\"size\":%s,\"mb_s\":%s}\n", d, p, s, $4 }' <<<"$out" ;;
	*_lat)
		awk -v s="$size" -v d="$dev" -v p="$prog" '$1 == s && NF >= 8 {
			printf "UET-BENCH {\"dev\":\"%s\",\"test\":\"%s\",\"size\":%s,\"typical_us\":%s,\"p99_us\":%s}\n", d, p, s, $5, $8 }' <<<"$out" ;;
	esac | grep UET-BENCH
}

plan=$((2 + 1 + (2 * 2 * 4 + 2 * 2 * 2) * REPEAT + 1))
ktap_print_header
ktap_set_plan $plan
ktap_test_result "socket link carries traffic" link_up
ktap_test_result "uet0 and rxe0 on eth0" devices
ktap_test_result "iperf3 TCP" iperf
for prog in ib_write_bw ib_send_bw ib_write_lat ib_send_lat; do
	case $prog in
	*_bw) sizes=$BW_SIZES ;;
	*) sizes=$LAT_SIZES ;;
	esac
	for size in $sizes; do
		case $prog in
		*_bw) n=$(bw_iters "$size") ;;
		*) n=$LAT_ITERS ;;
		esac
		for rep in $(seq "$REPEAT"); do
			for dev in $DEVS; do
				ktap_test_result "$dev $prog $size B, run $rep" \
					perf "$dev" "$prog" "$size" "$n"
			done
		done
	done
done
ktap_test_result "devices removed" eval 'rdma link del uet0 && rdma link del rxe0 && modprobe -r uet'
ktap_finished
