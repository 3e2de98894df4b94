#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Transport security through the kernel crypto API: the test-only module
# uet_test_tss runs known answers (CMAC-AES-256, the key derivation,
# AES-256-GCM sealing and opening in place, over scattered pages, and the
# refusal of every tampered byte, wrong nonce and wrong key) through
# uet.ko's crypto layer, and fails to load unless every case passes.
#
# Then the engine's packets in secure domains, between uet0 (uet-a) and
# uet1 (uet-b): a secure job's transfer arrives whole with every packet
# sealed and opened; a capture shows no plaintext (which the same capture
# of a clear job does show); the captured packets sent again, a TSS
# header or payload tampered with, an old epoch and an unknown domain
# are each dropped and counted on exactly their counter; a wrong key and
# a clear sender into a secure job deliver nothing; a rekey under
# traffic loses nothing.  Verbs in a secure job 0 (verbs_data) move
# every byte with every packet sealed.  Under cluster keys, each device seals with a
# key derived for its own address and opens with keys derived for its
# peers', over IPv4 and IPv6; a derivation that opens nothing is not kept.
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/engine_lib.sh"

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

dir=$(dirname "$0")
KEYS=/tmp/tss-keys
PCAP=/tmp/tss.pcap
HEX=/tmp/tss.hex
SJOB=7		# secure, one key on both sides
CJOB=8		# secure on uet1 only: uet0 sends it clear
WJOB=9		# secure, another key on each side
PJOB=10		# clear on both
KJOB=11		# secure, one cluster key on both sides
XJOB=12		# secure, another cluster key on each side
DJOB=13		# secure, one key on both sides: the sends refused without SSIs
# the first 8 bytes of uet_test_engine's first message, in hex
PLAIN=00070e151c232a31
# the first word of a TSS header of domain $SJOB, AN 0, in hex (wire.h):
# type 1 in its top five bits, no SSI, the SDI
TSS7=$(printf '08%06x' $SJOB)
TSS_DROPS="drop_tss_no_key drop_tss_epoch drop_tss_bad_icv drop_tss_replay drop_tss_sources drop_tss_clear drop_tss_waiting tss_tx_errors"

# key NAME: a fresh 32-byte key in $KEYS/NAME
key() {
	head -c 32 /dev/urandom >"$KEYS/$1"
}

sec_setup() {
	mkdir -p "$KEYS" && key k1 && key k2 && key k3 && key k4 && key k5 &&
	setup || return 1
	# one namespace entry per side: each costs on the debug kernel
	A bash -c "for j in $SJOB $CJOB $WJOB $PJOB $KJOB $XJOB $DJOB; do
			uetctl job add dev uet0 id \$j || exit 1
		done
		uetctl key add dev uet0 job $SJOB an 0 key $KEYS/k1 &&
		uetctl key add dev uet0 job $WJOB an 0 key $KEYS/k1 &&
		uetctl key add dev uet0 job $KJOB an 0 key $KEYS/k4 mode cluster &&
		uetctl key add dev uet0 job $XJOB an 0 key $KEYS/k4 mode cluster &&
		uetctl key add dev uet0 job $DJOB an 0 key $KEYS/k1" &&
	B bash -c "for j in $SJOB $CJOB $WJOB $PJOB $KJOB $XJOB $DJOB; do
			uetctl job add dev uet1 id \$j || exit 1
		done
		uetctl key add dev uet1 job $SJOB an 0 key $KEYS/k1 &&
		uetctl key add dev uet1 job $CJOB an 0 key $KEYS/k1 &&
		uetctl key add dev uet1 job $WJOB an 0 key $KEYS/k2 &&
		uetctl key add dev uet1 job $KJOB an 0 key $KEYS/k4 mode cluster &&
		uetctl key add dev uet1 job $XJOB an 0 key $KEYS/k5 mode cluster &&
		uetctl key add dev uet1 job $DJOB an 0 key $KEYS/k1"
}

# snap VAR: every counter of both devices, as "DEV NAME VALUE" lines
snap() {
	local d n v
	for d in uet0 uet1; do
		while read -r n v; do
			echo "$d $n $v"
		done < <(dev_counters "$d")
	done >"/tmp/tss-snap.$1"
}

# between SNAP1 SNAP2 DEV NAME: how much DEV's counter NAME moved from
# one snapshot to the other, each read at once per device
between() {
	awk -v d="$3" -v n="$4" '$1 == d && $2 == n { v[FILENAME] = $3 }
		END { print v[ARGV[2]] - v[ARGV[1]] }' \
		"/tmp/tss-snap.$1" "/tmp/tss-snap.$2"
}

# no_drops SNAP: no TSS counter of refusal moved on either device since
# snapshot SNAP
no_drops() {
	only "$1" - - 0
}

# only SNAP DEV NAME N: since snapshot SNAP, DEV's counter NAME moved by
# N, every other TSS refusal counter of both devices by nothing
only() {
	local d c m want rc=0
	snap "$1.now"
	for d in uet0 uet1; do
		for c in $TSS_DROPS; do
			want=0
			[ "$d $c" = "$2 $3" ] && want=$4
			m=$(between "$1" "$1.now" $d $c)
			[ "$m" -eq "$want" ] ||
				{ echo "# $d $c moved by $m, want $want"; rc=1; }
		done
	done
	return $rc
}

# captured JOB [TCPDUMP FILTER]: a transfer of JOB from uet0, captured at
# uet-a's veth packet by packet into $PCAP
captured() {
	local job=$1 filter=udp rc
	shift
	[ $# -eq 0 ] || filter="udp and $*"
	rm -f "$PCAP"
	A ip link set dev veth0 gso_max_segs 1 || return 1
	tcpdump_start "$NS_A" "$PCAP" "$filter" || return 1
	xfer job="$job" count=4 size=16384
	rc=$?
	sleep 0.5
	tcpdump_stop
	A ip link set dev veth0 gso_max_segs 65535
	return $rc
}

# all_sealed SNAP1 SNAP2: between the snapshots, each device sent and
# received packets, and sealed every one it sent and opened every one it
# received; and nothing was refused since SNAP1
all_sealed() {
	local t0 r1 t1 r0 s0 o1 s1 o0
	t0=$(between "$1" "$2" uet0 tx_packets) s0=$(between "$1" "$2" uet0 tss_sealed)
	r1=$(between "$1" "$2" uet1 rx_packets) o1=$(between "$1" "$2" uet1 tss_opened)
	t1=$(between "$1" "$2" uet1 tx_packets) s1=$(between "$1" "$2" uet1 tss_sealed)
	r0=$(between "$1" "$2" uet0 rx_packets) o0=$(between "$1" "$2" uet0 tss_opened)
	echo "# uet0 sent $t0, sealed $s0; uet1 received $r1, opened $o1"
	echo "# uet1 sent $t1, sealed $s1; uet0 received $r0, opened $o0"
	[ "$t0" -gt 0 ] && [ "$t1" -gt 0 ] && [ "$s0" -eq "$t0" ] &&
	[ "$o1" -eq "$r1" ] && [ "$s1" -eq "$t1" ] && [ "$o0" -eq "$r0" ] &&
	no_drops "$1"
}

# verbs in job 0 (the verbs layer's) made secure on both devices: RC
# sends, writes, reads and atomics and UD sends, each byte and value
# checked by verbs_data, every packet sealed and opened, none refused
verbs_sealed() {
	local rc
	# on the debug kernel one of each kind: RC writes, atomics (whose
	# responses are sealed as their requests came), UD sends
	local t="-t write_read_every_byte -t send_imm_sgl_every_byte -t write_imm
		 -t fetch_add_every_value -t compare_swap
		 -t ud_receives_taken_as_posted"
	[ -z "${UET_SLOW:-}" ] ||
		t="-t write_imm -t fetch_add_every_value -t ud_receives_taken_as_posted"
	A uetctl key add dev uet0 job 0 an 0 key "$KEYS/k1" &&
	B uetctl key add dev uet1 job 0 an 0 key "$KEYS/k1" || return 1
	snap vb
	# shellcheck disable=SC2086
	A "$dir/verbs_data" $t >/tmp/tss-verbs.log 2>&1
	rc=$?
	grep -E '^(not )?ok|^# (PASSED|FAILED|Totals)' /tmp/tss-verbs.log | sed 's/^/# /'
	sleep 1		# the last ACKs are in
	snap vb2
	[ $rc -eq 0 ] && all_sealed vb vb2
}

# every packet of a secure job's transfer sealed by its sender and opened
# by its receiver, both ways (requests and ACKs), the data checked by
# the module, no refusal anywhere
sealed_transfer() {
	snap st
	xfer job=$SJOB count=16 size=65536 || return 1
	sleep 1		# the last ACKs are in
	snap st2
	all_sealed st st2
}

# transfers under a cluster key over IPv4 and IPv6, each checked by the
# module, every packet sealed and opened, nothing refused; each device
# derives one key for each address, its own (to seal) and its peer's (to
# open), four in all, and none in a second round
cluster_transfer() {
	local a d0 d1 rc=0
	snap cl
	for a in "$UET_NET4.2" "$UET_NET6::2"; do
		xfer job=$KJOB count=8 size=65536 addr="$a" || rc=1
	done
	sleep 1
	snap cl2
	for a in "$UET_NET4.2" "$UET_NET6::2"; do
		xfer job=$KJOB count=2 size=4096 addr="$a" || rc=1
	done
	sleep 1
	snap cl3
	d0=$(between cl cl2 uet0 tss_derived) d1=$(between cl cl2 uet1 tss_derived)
	echo "# uet0 derived $d0 keys, uet1 $d1; then $(between cl2 cl3 uet0 tss_derived) and $(between cl2 cl3 uet1 tss_derived)"
	[ $rc -eq 0 ] && [ "$d0" -eq 4 ] && [ "$d1" -eq 4 ] &&
	[ "$(between cl2 cl3 uet0 tss_derived)" -eq 0 ] &&
	[ "$(between cl2 cl3 uet1 tss_derived)" -eq 0 ] &&
	all_sealed cl cl3
}

# a direct key over IPv6 needs its sender's SSI: without one uet0 seals
# nothing (tss_tx_errors) and the transfer fails (in a job of its own:
# its PDC's retransmissions, sealed once the SSIs are set, come later to
# no endpoint, and hold up no message of the next).  With SSIs set on both
# devices each packet carries its sender's in a 16-byte TSS header, and
# transfers over IPv6 and IPv4 arrive whole, every packet sealed and
# opened, nothing refused; a capture shows uet0's SSI in each it sent.
ssi() {
	local n m e rc=0
	snap sn
	! xfer job=$DJOB count=1 size=4096 addr="$UET_NET6::2" timeout_s=2 \
		>/dev/null || return 1
	snap sn2
	A uetctl dev set uet0 ssi 17 && B uetctl dev set uet1 ssi 34 || return 1
	e=$(between sn sn2 uet0 tss_tx_errors)
	echo "# without an SSI: uet0 tss_tx_errors +$e"
	[ "$e" -gt 0 ] || rc=1
	snap sn3
	xfer job=$SJOB count=4 size=65536 addr="$UET_NET6::2" || rc=1
	captured $SJOB src host "$UET_NET4.1" || rc=1
	sleep 1
	snap sn4
	"$dir/uet_pcap" "$PCAP" >/tmp/tss.dec || rc=1
	n=$(grep -c " tss " /tmp/tss.dec)
	m=$(grep -c " tss sdi $SJOB an [01] ssi 17 " /tmp/tss.dec)
	echo "# $n packets of uet0 captured, $m with its SSI"
	head -n 1 /tmp/tss.dec | sed 's/^/# /'
	[ $rc -eq 0 ] && [ "$n" -gt 0 ] && [ "$m" -eq "$n" ] &&
	[ "$(wc -l </tmp/tss.dec)" -eq "$n" ] && all_sealed sn3 sn4
}

# another cluster key at the receiver: nothing is delivered, every packet
# is refused on its ICV, and the key derived for it is not kept: uet1
# derives again for each packet refused (one more when a derivation is
# under way as the counters are read)
cluster_wrong() {
	local n d
	snap cw
	! xfer job=$XJOB count=1 size=4096 timeout_s=2 >/dev/null || return 1
	snap cw2
	n=$(between cw cw2 uet1 drop_tss_bad_icv) d=$(between cw cw2 uet1 tss_derived)
	echo "# uet1 refused $n packets on their ICV and derived $d keys"
	[ "$n" -gt 1 ] && [ "$d" -ge "$n" ] && [ "$d" -le $((n + 1)) ]
}

# the capture of a clear job shows the payload; a secure job's shows
# TSS headers only (its domain's, and the verbs' job 0 as its PDCs
# close), and not one plaintext byte run
no_plaintext() {
	local n
	# the secure job first: packets of the clear one's PDC (its CLOSE,
	# late ACKs) would be in a capture after it
	captured $SJOB || return 1
	"$dir/uet_pcap" "$PCAP" >/tmp/tss.dec && "$dir/uet_pcap" -x "$PCAP" >"$HEX" ||
		return 1
	n=$(wc -l <"$HEX")
	echo "# $n packets captured, $(grep -c " tss sdi " /tmp/tss.dec) sealed, $(grep -c " tss sdi $SJOB an 0 " /tmp/tss.dec) in domain $SJOB"
	head -n 3 /tmp/tss.dec | sed 's/^/# /'
	[ "$n" -gt 0 ] && [ "$(grep -c " tss sdi " /tmp/tss.dec)" -eq "$n" ] &&
	[ "$(grep -c " tss sdi $SJOB an 0 " /tmp/tss.dec)" -gt 0 ] &&
	! grep -q "$PLAIN" "$HEX" || return 1
	captured $PJOB src host "$UET_NET4.1" || return 1
	# uet0's clear packets (a sealed one, of the secure job or of the
	# verbs' closing PDCs, may be late): a TSS header's first byte is
	# 0x08 to 0x0f, its type 1 in the top five bits (wire.h)
	"$dir/uet_pcap" -x "$PCAP" | grep -v '^0[89a-f]' >/tmp/tss-clear.hex
	echo "# the clear job: $(wc -l </tmp/tss-clear.hex) packets of uet0's captured"
	grep -q "$PLAIN" /tmp/tss-clear.hex ||
		{ echo "# the clear job's payload is not in its capture"; return 1; }
}

# inject FILE: send FILE's hex lines to uet1 from uet-a (uet0's address)
inject() {
	A "$dir/uet_inject" -R "$1" -r 2000 "$UET_NET4.2" | sed 's/^/# /'
}

# every request uet0 sent, captured and sent again: each a replay
replays() {
	local n
	captured $SJOB src host "$UET_NET4.1" || return 1
	# the secure job's: the clear job's PDC may still be closing
	"$dir/uet_pcap" -x "$PCAP" | grep "^$TSS7" >"$HEX"
	n=$(wc -l <"$HEX")
	snap rp
	inject "$HEX"
	echo "# $n packets sent again"
	[ "$n" -gt 0 ] && only rp uet1 drop_tss_replay "$n"
}

# tampered COUNTER HEX: the packet HEX sent once; uet1 refuses it on
# COUNTER, and nothing else moves.  The TSS header is 24 hex digits: type
# and SDI (8), TSC (16: epoch 4, count 12).
tampered() {
	snap tm
	printf '%s\n' "$2" >/tmp/tss.bad
	inject /tmp/tss.bad
	only tm uet1 "$1" 1
}

# a captured request with a count never sent (the header changed), with
# a payload byte changed too, with an old epoch, in an unknown domain
tampering() {
	local p hdr body tsc rc=0
	p=$(head -n 1 "$HEX")
	hdr=${p:0:8} body=${p:24}
	tsc=00007fffffff0000
	tampered drop_tss_bad_icv "$hdr$tsc$body" || rc=1
	tampered drop_tss_bad_icv \
		"$hdr$tsc${body:0:40}$(printf '%02x' $((0x${body:40:2} ^ 1)))${body:42}" ||
		rc=1
	tampered drop_tss_epoch "${hdr}0001${p:12}" || rc=1
	tampered drop_tss_no_key "${hdr:0:2}000063${p:8}" || rc=1
	return $rc
}

# a clear SYN (the clear job's first request, captured) naming the
# {address, PDCID} of uet0's sealed initiator PDC: uet1 makes a clear PDC
# of its own for it and refuses nothing, the sealed PDC carries on, and
# the clear ACK uet1 sends back to that PDC is the one refusal, uet0's.
# (A request's SPDCID is its bytes 8-9, wire.h.)
clear_syn_beside() {
	local ini syn
	xfer job=$SJOB count=1 size=4096 || return 1
	ini=$(A uetctl -j pdc show dev uet0 |
	      jq "[.[] | select(.role == \"initiator\" and .job == $SJOB)][0].lpdcid")
	syn=$(head -n 1 /tmp/tss-clear.hex)
	echo "# uet0's sealed PDC $ini; a clear SYN from its address and PDCID"
	[ "$ini" -gt 0 ] || return 1
	printf '%s\n' "${syn:0:16}$(printf '%04x' "$ini")${syn:20}" >/tmp/tss.syn
	snap sb
	inject /tmp/tss.syn
	xfer job=$SJOB count=2 size=4096 || return 1
	snap sb2
	echo "# uet1 pdcs_created +$(between sb sb2 uet1 pdcs_created)"
	[ "$(between sb sb2 uet1 pdcs_created)" -eq 1 ] &&
	only sb uet0 drop_tss_clear 1
}

# reasm NS: the IPv4 datagrams namespace NS reassembled (ReasmOKs)
reasm() {
	ip netns exec "$1" awk '/^Ip:/ { if (n++) print $(f); else
		for (i = 1; i <= NF; i++) if ($i == "ReasmOKs") f = i }' \
		/proc/net/snmp
}

# a sealed request that uet1 never took, sent again in IP fragments of
# 48 bytes (uet-a's MTU at its IPv4 least): uet1 reassembles it into a
# packet of many buffers and opens it over all of them: nothing refused,
# nothing malformed.  The request is captured while uet-b does not hold
# the address it goes to (the debug kernel has no ingress qdisc to drop
# with; its sender's retransmissions, later, are opened too).
fragmented() {
	local rc=0 r0 m0
	B ip addr del "$UET_NET4.2/24" dev veth0 || return 1
	rm -f "$PCAP"
	if tcpdump_start "$NS_A" "$PCAP" "udp and src host $UET_NET4.1"; then
		xfer job=$SJOB count=1 size=1000 timeout_s=1 >/dev/null
		# its first request is all it needs: stop at once, so that
		# the PDC's retransmissions to the missing address back off
		# no further than they did (the rekey below reuses the PDC)
		kill -TERM "$tcpdump_pid"
		wait "$tcpdump_pid"
	else
		rc=1
	fi
	B ip addr add "$UET_NET4.2/24" dev veth0 || rc=1
	"$dir/uet_pcap" -x "$PCAP" | grep -m 1 "^$TSS7" >/tmp/tss.frag
	[ -s /tmp/tss.frag ] || { echo "# nothing sealed captured"; return 1; }
	snap fr
	r0=$(reasm "$NS_B") m0=$(counter uet1 drop_malformed)
	A ip link set dev veth0 mtu 68 || return 1
	inject /tmp/tss.frag
	# below IPv6's least MTU the netdev lost its IPv6 addresses
	A ip link set dev veth0 mtu 1500 &&
	A ip addr add "$UET_NET6::1/64" dev veth0 nodad || rc=1
	sleep 0.5
	echo "# uet-b reassembled $(($(reasm "$NS_B") - r0)) datagrams"
	[ "$(($(reasm "$NS_B") - r0))" -eq 1 ] &&
	[ "$(counter uet1 drop_malformed)" -eq "$m0" ] &&
	only fr - - 0 && [ $rc -eq 0 ]
}

# refused JOB COUNTER [UNMOVED]: a transfer in JOB delivers nothing (the
# test module's receive stays outstanding), and uet1 refused its packets
# on COUNTER (and none on UNMOVED).  A job whose sides hold different keys
# fails the ICV; a clear sender into a job secure at the receiver is
# refused as clear.
refused() {
	local n
	snap rf
	! xfer job="$1" count=1 size=4096 timeout_s=2 >/dev/null || return 1
	snap rf2
	n=$(between rf rf2 uet1 "$2")
	echo "# uet1 $2: +$n"
	[ "$n" -gt 0 ] &&
	{ [ -z "${3:-}" ] || [ "$(between rf rf2 uet1 "$3")" -eq 0 ]; }
}

# a rekey in three steps under a transfer: both add the new key, both
# seal with it, then (after the transfer) both delete the old one; the
# transfer arrives whole, nothing is refused, and a transfer after it
# goes under the new key alone.  (Before the tests whose refused
# packets come back as their senders retransmit.)
rekey() {
	local pid rc=0
	snap rk
	xfer job=$SJOB count="$(scaled 384 64)" size=65536 timeout_s=120 \
		>/tmp/tss-rekey.log 2>&1 &
	pid=$!
	sleep 0.5
	A uetctl key add dev uet0 job $SJOB an 1 key "$KEYS/k3" &&
	B uetctl key add dev uet1 job $SJOB an 1 key "$KEYS/k3" &&
	A uetctl key use dev uet0 job $SJOB an 1 &&
	B uetctl key use dev uet1 job $SJOB an 1 || rc=1
	kill -0 $pid 2>/dev/null || { echo "# the transfer ended before the rekey"; rc=1; }
	wait $pid || rc=1
	sed 's/^/# /' /tmp/tss-rekey.log
	A uetctl key del dev uet0 job $SJOB an 0 &&
	B uetctl key del dev uet1 job $SJOB an 0 || rc=1
	xfer job=$SJOB count=2 size=4096 || rc=1
	no_drops rk || rc=1
	return $rc
}

trap 'netem_off; fabric_down; rm -rf "$KEYS"' EXIT
ktap_print_header
ktap_set_plan $((${#CASES[@]} + 18))
ktap_test_result "the CPU's crypto drivers load" cpu_drivers
ktap_test_result "known answers: the module loads" kat
for c in "${CASES[@]}"; do
	ktap_test_result "$c" passed "$c"
done
ktap_test_result "gcm(aes) uses the CPU's AES instructions" accelerated
modprobe -r uet
ktap_test_result "secure domains on both devices" sec_setup
ktap_test_result "verbs in a secure job 0: every byte, every packet sealed" verbs_sealed
ktap_test_result "a secure job's packets all sealed and opened" sealed_transfer
ktap_test_result "a capture shows no plaintext" no_plaintext
ktap_test_result "replayed packets refused, counted" replays
ktap_test_result "tampered, stale or unknown packets refused, counted" tampering
ktap_test_result "a clear SYN beside a sealed PDC takes nothing from it" clear_syn_beside
ktap_test_result "a sealed packet in IP fragments opens" fragmented
ktap_test_result "a rekey under traffic loses nothing" rekey
ktap_test_result "cluster keys: sealed with keys derived per source" cluster_transfer
ktap_test_result "direct keys over IPv6 with the senders' SSIs" ssi
ktap_test_result "cluster keys: a wrong one delivers and keeps nothing" cluster_wrong
ktap_test_result "a wrong key delivers nothing" \
	refused $WJOB drop_tss_bad_icv drop_tss_clear
ktap_test_result "a clear sender into a secure job delivers nothing" \
	refused $CJOB drop_tss_clear
ktap_test_result "teardown" teardown
ktap_finished
