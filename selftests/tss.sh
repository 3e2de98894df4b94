#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Transport security through the kernel crypto API: the test-only module
# uet_test_tss runs known answers (CMAC-AES-256, the key derivation,
# AES-256-GCM sealing and opening in place, over scattered pages, and the
# refusal of every tampered byte, wrong nonce and wrong key) through
# uet.ko's crypto layer, and fails to load unless every case passes.
. "$(dirname "$0")/lib.sh"

MOD=uet_test_tss
# The module's cases, in its order, as it names them in the kernel log.
CASES=("gcm(aes) available" "CMAC-AES-256 known answers"
       "KDF known answer" "GCM known answers" "GCM over scattered pages"
       "GCM refusals")
LOG=/tmp/tss-dmesg.log

# aesni: whether this kernel has the AES-NI driver (the debug kernel's
# configuration leaves it out) and the CPU the instructions.
aesni() {
	grep -qw aes /proc/cpuinfo && modprobe -n -q aesni_intel
}

# The CPU's AES and carry-less multiply drivers, as udev loads them at
# boot on a host whose CPU has the instructions.
cpu_drivers() {
	aesni || { echo "# no AES-NI here: the generic code runs"; return 0; }
	run modprobe aesni_intel || return 1
	! grep -qw pclmulqdq /proc/cpuinfo || run modprobe ghash_clmulni_intel
}

# One load of the module; its kernel log in $LOG.
kat() {
	testmod_load "$LOG" "$MOD"
}

passed() {
	grep -qF "$MOD: PASS $1" "$LOG"
}

# With AES-NI in the CPU, GCM is the CPU's, not the generic template's
# composition (gcm_base(ctr(aes-generic),ghash-generic), several times
# slower).
accelerated() {
	aesni || { echo "# no AES-NI here"; return 0; }
	grep -q "$MOD: gcm(aes) by " "$LOG" &&
		! grep -q "$MOD: gcm(aes) by gcm_base(" "$LOG"
}

ktap_print_header
ktap_set_plan $((${#CASES[@]} + 3))
ktap_test_result "the CPU's crypto drivers load" cpu_drivers
ktap_test_result "known answers: the module loads" kat
for c in "${CASES[@]}"; do
	ktap_test_result "$c" passed "$c"
done
ktap_test_result "gcm(aes) uses the CPU's AES instructions" accelerated
modprobe -r uet
ktap_finished
