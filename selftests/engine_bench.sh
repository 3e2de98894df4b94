#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Goodput of the engine per delivery mode, 1 MiB messages, lossless and
# at 1% loss, with the retransmissions each cost, with congestion control
# (NSCC) and without; then sends of 64 KiB and 1 MiB in a secure job
# (every packet sealed, Documentation/security.rst) against the same in a
# clear one: uet0 (in uet-a) to uet1 (in uet-b) in one VM, through the
# test module (every byte checked).
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

# kbps ARGS...: the goodput of one transfer, kB/s
kbps() {
	xfer "$@" >/dev/null || return 1
	dmesg | grep 'uet_test_engine: PASS' | tail -n 1 |
		sed -n 's/.*goodput_kBps=\([0-9]*\).*/\1/p'
}

# sends in job 3, secure on both devices, against job 4, clear, one
# after the other, three times each (the median); 64 KiB and 1 MiB.  The
# CPU's AES and GHASH drivers first, as udev loads them at boot on a host
# whose CPU has the instructions (the guest has no udev): the keys' GCM
# is then theirs.
bench_tss() {
	local key=/tmp/bench-tss.key size clear sealed c s i e
	modprobe -q aesni_intel; modprobe -q ghash_clmulni_intel
	head -c 32 /dev/urandom >"$key" &&
	A uetctl job add dev uet0 id 3 && B uetctl job add dev uet1 id 3 &&
	A uetctl job add dev uet0 id 4 && B uetctl job add dev uet1 id 4 &&
	A uetctl key add dev uet0 job 3 an 0 key "$key" &&
	B uetctl key add dev uet1 job 3 an 0 key "$key" || return 1
	rm -f "$key"
	echo "# size      clear        sealed       sealed/clear"
	for size in 65536 1048576; do
		clear='' sealed=''
		for i in 1 2 3; do
			c=$(kbps job=4 count=$((N * 1048576 / size)) size=$size) &&
			s=$(kbps job=3 count=$((N * 1048576 / size)) size=$size) ||
				return 1
			clear="$clear $c" sealed="$sealed $s"
		done
		c=$(printf '%s\n' $clear | sort -n | sed -n 2p)
		s=$(printf '%s\n' $sealed | sort -n | sed -n 2p)
		printf '# %-8s %7.1f MB/s  %7.1f MB/s  %5.1f%%\n' "$size" \
			"$(awk -v k="$c" 'BEGIN { print k / 1000 }')" \
			"$(awk -v k="$s" 'BEGIN { print k / 1000 }')" \
			"$(awk -v c="$c" -v s="$s" 'BEGIN { print 100 * s / c }')"
	done
	# the kernel's own AES-GCM on the same link, for scale: TCP (iperf3)
	# clear, then through an ESP security association in each direction
	c=$(iperf_mbs) && esp_up && e=$(iperf_mbs) || { esp_down; return 1; }
	esp_down
	printf '# iperf3 TCP clear %s MB/s, over ESP rfc4106(gcm(aes)) %s MB/s: %s%%\n' \
		"$c" "$e" "$(awk -v c="$c" -v e="$e" 'BEGIN { printf "%.1f", 100 * e / c }')"
}

# iperf_mbs: 5 s of iperf3 TCP from uet-a to uet-b, MB/s
iperf_mbs() {
	local pid mbs
	B iperf3 -s -1 >/dev/null 2>&1 &
	pid=$!
	sleep 1
	mbs=$(A iperf3 -c "$UET_NET4.2" -t 5 -J |
	      jq '.end.sum_received.bits_per_second / 8e6 | floor')
	wait $pid
	[ -n "$mbs" ] && echo "$mbs"
}

# esp_up: ESP in transport mode between the two addresses, AES-GCM with
# a 128-bit ICV, as IPsec gateways run it; esp_down takes it away
esp_up() {
	local k ns me peer spi_out spi_in
	k=0x$(head -c 36 /dev/urandom | od -An -tx1 | tr -d ' \n')
	for ns in "$NS_A" "$NS_B"; do
		if [ "$ns" = "$NS_A" ]; then
			me=$UET_NET4.1 peer=$UET_NET4.2 spi_out=0x100 spi_in=0x101
		else
			me=$UET_NET4.2 peer=$UET_NET4.1 spi_out=0x101 spi_in=0x100
		fi
		ip -n "$ns" xfrm state add src "$me" dst "$peer" proto esp \
			spi $spi_out mode transport aead 'rfc4106(gcm(aes))' "$k" 128 &&
		ip -n "$ns" xfrm state add src "$peer" dst "$me" proto esp \
			spi $spi_in mode transport aead 'rfc4106(gcm(aes))' "$k" 128 &&
		ip -n "$ns" xfrm policy add src "$me" dst "$peer" dir out \
			tmpl proto esp mode transport &&
		ip -n "$ns" xfrm policy add src "$peer" dst "$me" dir in \
			tmpl proto esp mode transport || return 1
	done
}

esp_down() {
	ip -n "$NS_A" xfrm state flush; ip -n "$NS_A" xfrm policy flush
	ip -n "$NS_B" xfrm state flush; ip -n "$NS_B" xfrm policy flush
}

trap 'netem_off; fabric_down' EXIT
ktap_print_header
ktap_set_plan 4
ktap_test_result "setup" setup
ktap_test_result "goodput per mode" bench
ktap_test_result "goodput sealed against clear" bench_tss
ktap_test_result "teardown" teardown
ktap_finished
