#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Kernel users of uet devices: the test-only module uet_test_kverbs drives
# uet0 (in uet-a) and uet1 (in uet-b) through the kernel verbs API alone,
# as a kernel ULP would (PD, CQ, RC and UD QPs, local_dma_lkey,
# fast-registered MRs), and fails to load unless every completion and
# every byte is as expected:
#
#   +------ uet-a ------+   veth   +------ uet-b ------+
#   | uet0 on veth0     |----------| uet1 on veth0     |
#   | 198.18.0.1        |          | 198.18.0.2        |
#   +-------------------+          +-------------------+
#
# Its cases are reported one by one; then the devices' counters must
# show its bytes crossing as UET packets, its stale rkey refused once and
# nothing retransmitted.  Then the same run with RC QPs over ROD.
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/engine_lib.sh"

MOD=uet_test_kverbs
# The module's cases, in its order, as it names them in the kernel log.
CASES=("sends 1 B to 128 KiB" "send with immediate" "inline send"
       "fast registration" "RDMA writes" "RDMA write with immediate"
       "RDMA reads" "atomics" "unaligned atomic refused, QP reset"
       "invalidate and register again"
       "posting in atomic context" "UD datagram, completions by callback"
       "stale rkey refused")
LOG=/tmp/kverbs-dmesg.log

B() { ip netns exec "$NS_B" "$@"; }

# kverbs: one load of the module, uet0 -> uet1; its kernel log in $LOG
kverbs() {
	testmod_load "$LOG" "$MOD" src=uet0 dst=uet1
}

passed() {
	grep -qF "$MOD: PASS $1" "$LOG"
}

# counters TX0 TX1 BAD UNSUP RTX: since then, uet0's tx_bytes and uet1's
# grew by at least the payload the module reports each way, uet1 refused
# one packet for its stale rkey and one unaligned atomic, uet0
# retransmitted nothing
counters() {
	local to_dst back
	to_dst=$(sed -nE 's/.*PASS all [0-9]+ cases: ([0-9]+) bytes to .*/\1/p' "$LOG")
	back=$(sed -nE 's/.*bytes to [^,]+, ([0-9]+) bytes back.*/\1/p' "$LOG")
	[ -n "$to_dst" ] && [ -n "$back" ] || return 1
	echo "# payload: $to_dst bytes to uet1, $back back"
	echo "# uet0 tx_bytes +$(($(counter uet0 tx_bytes) - $1)), uet1 tx_bytes +$(($(counter uet1 tx_bytes) - $2))"
	[ "$(counter uet0 tx_bytes)" -ge $(($1 + to_dst)) ] &&
	[ "$(counter uet1 tx_bytes)" -ge $(($2 + back)) ] &&
	expect_delta uet1 drop_bad_rkey "$3" 1 &&
	expect_delta uet1 drop_unsupported "$4" 1 &&
	expect_delta uet0 retransmits "$5" 0
}

# RC QPs of new devices over ROD: the devices made again, the whole run
rod() {
	local rc=0
	A rdma link del uet0 && B rdma link del uet1 && wait_no_uet_devs ||
		return 1
	echo 1 >/sys/module/uet/parameters/rc_mode || return 1
	A rdma link add uet0 type uet netdev veth0 &&
	B rdma link add uet1 type uet netdev veth0 && kverbs || rc=1
	echo 0 >/sys/module/uet/parameters/rc_mode
	return $rc
}

trap 'fabric_down' EXIT
ktap_print_header
ktap_set_plan $((${#CASES[@]} + 5))
ktap_test_result "setup" setup
tx0=$(counter uet0 tx_bytes) tx1=$(counter uet1 tx_bytes)
bad=$(counter uet1 drop_bad_rkey) unsup=$(counter uet1 drop_unsupported)
rtx=$(counter uet0 retransmits)
ktap_test_result "kernel verbs over RUD: the module loads" kverbs
for c in "${CASES[@]}"; do
	ktap_test_result "$c" passed "$c"
done
ktap_test_result "counters: bytes crossed, stale rkey and unaligned atomic refused, no retransmit" \
	counters "$tx0" "$tx1" "$bad" "$unsup" "$rtx"
ktap_test_result "kernel verbs over ROD" rod
ktap_test_result "teardown" teardown
ktap_finished
