#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# PDC scale: uet0 opens a PDC in each of 65,535 jobs to uet1 (2,048 on
# the debug kernel; UET_PDCS if set), one message each, through the
# test-only module uet_test_pdcs: the whole 16-bit PDCID space of both
# devices.  Both dumps list every one; idle, they close, and memory goes
# back to where it was.  About a minute on 6.12 under TCG.
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/engine_lib.sh"

N=${UET_PDCS:-$(scaled 65535 2048)}
JOB=$((0x100000))
MEM0=/tmp/pdcs-meminfo0.txt
MEM1=/tmp/pdcs-meminfo1.txt

# Pools of the whole PDCID space, one source allowed all of uet1's, and
# no idle close while they open (pdc-idle-ms 0).
pools() {
	setup &&
	A uetctl dev set uet0 pdc-pool 65535 pdc-reserved 0 pdc-idle-ms 0 &&
	B uetctl dev set uet1 pdc-pool 65535 pdc-reserved 0 pdc-idle-ms 0 \
		pdc-per-source 65535
}

open_all() {
	local rc
	mem_snapshot "$MEM0"
	modprobe uet_test_pdcs src=uet0 dst=uet1 addr="$UET_NET4.2" \
		job=$JOB pdcs="$N"
	rc=$?
	dmesg | grep 'uet_test_pdcs:' | tail -n 2 | sed 's/^/# /'
	rmmod uet_test_pdcs 2>/dev/null
	[ $rc -eq 0 ] || return 1
	echo "# active: uet0 $(counter uet0 pdcs_active), uet1 $(counter uet1 pdcs_active)"
	[ "$(counter uet0 pdcs_active)" -eq "$N" ] &&
	[ "$(counter uet1 pdcs_active)" -eq "$N" ]
}

# DEV NS KEY: DEV's PDCs in uetctl's dump, each once, all of them: N
# lines with N values of KEY (an initiator's job; a target's peer PDCID,
# which is unique as all come from uet0)
dump_complete() {
	local lines keys
	$2 uetctl pdc show dev "$1" >/tmp/pdcs-dump.txt || return 1
	lines=$(grep -c "^$1 pdc " /tmp/pdcs-dump.txt)
	keys=$(awk -v k="$3" '$1 ~ /^uet/ {
		for (i = 1; i < NF; i++) if ($i == k) print $(i + 1) }' \
		/tmp/pdcs-dump.txt | sort -u | wc -l)
	rm /tmp/pdcs-dump.txt	# megabytes of tmpfs, before memory is measured
	echo "# $1: $lines PDCs in the dump, $keys values of $3"
	[ "$lines" -eq "$N" ] && [ "$keys" -eq "$N" ]
}

# Kernel memory the PDCs of both devices hold, per PDC: unreclaimable
# slab and per-CPU memory, from before the load to now.
mem_per_pdc() {
	local slab pcpu
	mem_snapshot "$MEM1"
	slab=$(( $(meminfo SUnreclaim "$MEM1") - $(meminfo SUnreclaim "$MEM0") ))
	pcpu=$(( $(meminfo Percpu "$MEM1") - $(meminfo Percpu "$MEM0") ))
	echo "# $((2 * N)) PDCs: slab +$slab kB, per-CPU +$pcpu kB:" \
		"$(( (slab + pcpu) * 1024 / (2 * N) )) bytes a PDC"
	# quiet PDCs: the target is 256 bytes each, measured 230 to 251 on
	# 6.12 (216 of them the PDC itself, 19 to a slab page), as full as
	# the slab pages a run finds them; the ceiling leaves room for that.
	# The debug kernel's redzones and its 2,048 PDCs' share of slab
	# pages weigh more.
	[ $(( (slab + pcpu) * 1024 / (2 * N) )) -le "$(scaled 288 8192)" ]
}

# What the PDCs left open wait for: their states, the devices' losses and
# retransmits, and the packets the receive backlogs dropped (the second
# column of softnet_stat, one line per CPU).
close_stuck() {
	local d
	for d in uet0 uet1; do
		awk '{ n[$3 " " $4]++ } END { for (s in n) print s, n[s] }' \
			/sys/kernel/debug/uet/$d/pdcs | sed "s/^/# $d PDCs: /"
		dev_counters $d |
			grep -E 'retransmit|timeout|drop|tx_waits|pdcs|nack' |
			sed "s/^/# $d /"
	done
	d=0
	while read -r _ drops _; do
		echo "# backlog drops, CPU $d: $((0x$drops))"
		d=$((d + 1))
	done </proc/net/softnet_stat
}

# The initiators close when idle, and their CLOSEs close the targets.
# uet1 keeps pdc-idle-ms 0 meanwhile: idle for longer than four times
# the new timeout, its targets would go at its next tick, before most
# CLOSEs of the burst came, and those would then find no PDC and get
# their answers at the rate a device answers strangers (100 a second).
idle_close() {
	local end=$((SECONDS + 120))
	A uetctl dev set uet0 pdc-idle-ms 1000 || return 1
	while [ $SECONDS -lt $end ]; do
		[ "$(counter uet0 pdcs_active)" -eq 0 ] &&
		[ "$(counter uet1 pdcs_active)" -eq 0 ] && break
		sleep 1
	done
	echo "# active after the idle close: uet0 $(counter uet0 pdcs_active)," \
		"uet1 $(counter uet1 pdcs_active)"
	if [ "$(counter uet0 pdcs_active)" -ne 0 ] ||
	   [ "$(counter uet1 pdcs_active)" -ne 0 ] ||
	   [ "$(A uetctl pdc show dev uet0 | grep -c '^uet0 pdc ')" -ne 0 ]; then
		close_stuck
		return 1
	fi
	B uetctl dev set uet1 pdc-idle-ms 1000 || return 1
	mem_snapshot "$MEM1"
	# slack for slab pages still partly used by others, not per PDC; the
	# available memory also misses pages the per-CPU free lists keep
	# after a burst of frees (12 MB measured), as in inject.sh.  A debug
	# kernel's KASAN quarantine holds freed objects a while longer: 4.5
	# MB of unreclaimable slab measured once after all had closed.
	mem_flat "$MEM0" "$MEM1" "$(scaled 4096 8192)" 32768
}

trap 'fabric_down' EXIT
ktap_print_header
ktap_set_plan 7
ktap_test_result "setup: pools of 65535 PDCs" pools
ktap_test_result "$N PDCs opened, one message each" open_all
ktap_test_result "uet0's dump lists all $N" dump_complete uet0 A job
ktap_test_result "uet1's dump lists all $N" dump_complete uet1 B rpdc
ktap_test_result "kernel memory per PDC" mem_per_pdc
ktap_test_result "idle PDCs closed, memory back" idle_close
ktap_test_result "teardown" teardown
ktap_finished
