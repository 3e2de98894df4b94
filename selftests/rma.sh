#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# RMA and tagged sends through the engine: writes, writes with immediate
# data, reads and tagged sends from uet0 (in uet-a) to uet1 (in uet-b),
# each byte checked by the test module; memory described by kernel
# address and by pages, in one and in several scatter/gather entries;
# under loss; and every refusal of the RI table (unknown key, stale
# generation, out of bounds, no permission), which must reach the
# initiator with its SES return code, leave the target's memory untouched
# and be counted.
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/engine_lib.sh"

write() {
	xfer op=write count=16 size=4096 &&
	xfer op=write count="$(scaled 8 2)" size="$(scaled 1048576 262144)" pages=1 nsge=3 &&
	xfer op=write count=4 size=0
}

writeimm() {
	xfer op=writeimm count=16 size=65536 nsge=2 &&
	xfer op=writeimm count=8 size=0
}

read_() {
	xfer op=read count=16 size=4096 &&
	xfer op=read count="$(scaled 8 2)" size="$(scaled 1048576 262144)" pages=1 nsge=5 &&
	xfer op=read count=4 size=1 mode=rod
}

tsend() {
	xfer op=tsend count=16 size=65536 &&
	xfer op=tsend count=8 size=3000 pages=1 nsge=4
}

# RUDI: writes and reads without a PDC, each packet answered by a RUDI
# response; through loss, reordering, duplication and corruption, resent
# until answered, every byte checked
rudi() {
	local pdcs imp rtx rc=0
	pdcs=$(counter uet0 pdcs_created)
	xfer op=write mode=rudi count=16 size=4096 &&
	xfer op=read mode=rudi count=4 size=65536 pages=1 nsge=3 &&
	xfer op=write mode=rudi fault=rkey count=2 size=2000 || return 1
	expect_delta uet0 pdcs_created "$pdcs" 0 || return 1
	for imp in "loss 1%" "loss 5%" "delay 2ms reorder 25% 50%" \
		   "duplicate 5%" "corrupt 2%"; do
		# shellcheck disable=SC2086
		netem $imp || return 1
		rtx=$(counter uet0 retransmits)
		xfer op=write mode=rudi count=4 size="$(scaled 262144 65536)" || rc=1
		xfer op=read mode=rudi count=4 size="$(scaled 262144 65536)" || rc=1
		echo "# RUDI, $imp: $(( $(counter uet0 retransmits) - rtx )) retransmits"
		netem_off
	done
	return $rc
}

# rudi_state: "inflight max queued" of uet0's RUDI table
rudi_state() {
	awk '{ print $2, $4, $6 }' /sys/kernel/debug/uet/uet0/rudi
}

# RUDI against a stalled peer: a 32 MiB write (some 24000 requests; 4 MiB
# on the debug kernel, where RUDI moves some 500 kB/s) holds at most the
# table's maximum of requests in flight, built from the message's pages,
# while the rest of the message waits as a descriptor.  Unreclaimable slab
# stays within 8 MiB of where it was (a request skb each would be some
# 50 MiB; on the debug kernel 24 MiB, as the skbs of the resends wait in
# KASAN's quarantine); available memory drops by the test's two buffers
# (vmalloc) and little more.  Once the peer answers again, the requests
# are resent from the same pages and the write arrives whole.  The stall
# (3 s) is well within a request's 16 sends (some six minutes).  An
# endpoint that closes meanwhile lets go of its requests.  Congestion
# control is off meanwhile: NSCC's window would hold fewer in flight
# (engine.sh's nscc_ecn checks that it does), and the table's bound is
# what is tested here.
# Once the peer answers again, no resend storm: each request in flight
# is resent about once more, the table's backed-off RTO covering the new
# ones until a round trip is measured again; at most four times the
# table in all (measured 512 on the stock kernel, 512 and 868 on the
# debug kernel).  Before the table backed off and resent from its work,
# the debug kernel resent 18,659 requests of the 4 MiB here, and its
# softirq starved the RCU kthread for 26 s (2026-11-28).
rudi_bounded() {
	local pid st inflight max queued i rtx rtx_back rc=0
	A uetctl dev set uet0 cc none || return 1
	rtx=$(counter uet0 retransmits)
	mem_snapshot /tmp/rudi-meminfo0.txt
	A tc qdisc replace dev veth0 root netem loss 100% || return 1
	xfer op=write mode=rudi count=1 size="$(scaled $((32 << 20)) $((4 << 20)))" \
		timeout_s=120 &
	pid=$!
	for i in $(seq 100); do
		read -r inflight max queued <<<"$(rudi_state)"
		[ "${queued:-0}" -gt 0 ] && [ "$inflight" = "$max" ] && break
		sleep 0.1
	done
	sleep 2
	st=$(rudi_state)
	cp /proc/meminfo /tmp/rudi-meminfo.txt
	rtx_back=$(counter uet0 retransmits)
	A tc qdisc del dev veth0 root
	read -r inflight max queued <<<"$st"
	echo "# stalled: $inflight requests in flight (max $max), $queued message queued"
	[ "$inflight" = "$max" ] && [ "$queued" = 1 ] || rc=1
	mem_flat /tmp/rudi-meminfo0.txt /tmp/rudi-meminfo.txt \
		"$(scaled 8192 24576)" "$(scaled 98304 131072)" || rc=1
	wait $pid || rc=1
	read -r inflight max queued <<<"$(rudi_state)"
	echo "# after: $inflight in flight, $queued queued," \
		"$(( $(counter uet0 retransmits) - rtx )) retransmits," \
		"$(( $(counter uet0 retransmits) - rtx_back )) since the peer answered;" \
		"$(awk '{ print $7, $8, $9, $10, $13, $14 }' /sys/kernel/debug/uet/uet0/rudi)"
	[ "$inflight" = 0 ] && [ "$queued" = 0 ] || rc=1
	[ "$(counter uet0 retransmits)" -ge $((rtx + max)) ] || rc=1
	[ "$(counter uet0 retransmits)" -le $((rtx_back + 4 * max)) ] || rc=1
	# an endpoint that closes mid-write (the transfer gives up after 2 s)
	# takes its requests, in flight and queued, out of the table
	A tc qdisc replace dev veth0 root netem loss 100% || return 1
	xfer op=write mode=rudi count=1 size=$((8 << 20)) timeout_s=2 && rc=1
	read -r inflight max queued <<<"$(rudi_state)"
	A tc qdisc del dev veth0 root
	echo "# after a close mid-write: $inflight in flight, $queued queued"
	[ "$inflight" = 0 ] && [ "$queued" = 0 ] || rc=1
	A uetctl dev set uet0 cc nscc || rc=1
	return $rc
}

# An endpoint that closes with RUD writes in flight: the link drops every
# packet from uet0 until a second after the close, which cancels the
# writes, and the test module then changes the data it had posted.  What
# the PDC sends again afterwards is what was posted (taken at the close,
# not read from the caller's memory after it): every byte that lands is
# the pattern, none the new data, and some land (close_and_check() in the
# test module).
close_in_flight() {
	local pid rc=0
	A tc qdisc replace dev veth0 root netem loss 100% || return 1
	xfer op=write mode=rud count=4 size=$((64 << 10)) close_ms=1000 &
	pid=$!
	sleep 3
	A tc qdisc del dev veth0 root
	wait $pid || rc=1
	return $rc
}

# 1% loss both ways: lost read data is asked for again
lossy_rma() {
	local rtx reissued rc=0
	netem loss 1% || return 1
	rtx=$(counter uet0 retransmits)
	reissued=$(counter uet0 reads_reissued)
	xfer op=write count="$(scaled 8 2)" size="$(scaled 1048576 262144)" || rc=1
	xfer op=read count="$(scaled 8 2)" size="$(scaled 1048576 262144)" || rc=1
	xfer op=tsend count="$(scaled 8 2)" size="$(scaled 1048576 262144)" || rc=1
	echo "# retransmits: $(( $(counter uet0 retransmits) - rtx )), reads reissued: $(( $(counter uet0 reads_reissued) - reissued ))"
	netem_off
	return $rc
}

# fault OP FAULT COUNTER N: the refusal reaches the initiator (the module
# checks code and memory) and the target counts N refusals
fault() {
	local c
	c=$(counter uet1 "$3")
	xfer op="$1" fault="$2" count=2 size=8192 || return 1
	expect_delta uet1 "$3" "$c" "$4"
}

faults() {
	local rc=0
	# 8 KiB is 6 packets at MTU 1500 (1366 payload bytes, the last 1362):
	# two writes or reads are refused 12 times, packet by packet; a write
	# with immediate data once per message, as it fails whole.  A read
	# asks packet by packet: placed 4 KiB before the region's end, its
	# first 2 requests are answered and 4 refused.
	fault write rkey drop_bad_rkey 12 || rc=1
	fault write gen drop_bad_rkey 12 || rc=1
	fault write bounds drop_bounds 12 || rc=1
	fault write perm drop_access 12 || rc=1
	fault read rkey drop_bad_rkey 12 || rc=1
	fault read bounds drop_bounds 8 || rc=1
	fault read perm drop_access 12 || rc=1
	fault write domain drop_bad_rkey 12 || rc=1
	fault read domain drop_bad_rkey 12 || rc=1
	fault writeimm rkey drop_bad_rkey 2 || rc=1
	return $rc
}

# Every job bit counts: job 0x100000 is not job 0, whose endpoint {0, 1}
# (uet0's QP1) exists already.
job_bits() {
	xfer op=write count=2 size=4096 job=$((0x100000)) &&
	xfer op=send count=2 size=4096 job=$((0xfff001))
}

trap 'netem_off; fabric_down' EXIT
ktap_print_header
ktap_set_plan 12
ktap_test_result "setup" setup
ktap_test_result "RMA write" write
ktap_test_result "RMA write with immediate data" writeimm
ktap_test_result "RMA read" read_
ktap_test_result "tagged send, buffers matched by tag" tsend
ktap_test_result "RMA and tagged send under 1% loss" lossy_rma
ktap_test_result "RUDI writes and reads: loss, reordering, duplication, corruption" rudi
ktap_test_result "RUDI against a stalled peer: requests in flight bounded, let go at close" rudi_bounded
ktap_test_result "writes in flight at a close: resent as posted" close_in_flight
ktap_test_result "RI table refusals: code, no access, counted" faults
ktap_test_result "24-bit jobs, each with its own endpoints" job_bits
ktap_test_result "teardown" teardown
ktap_finished
