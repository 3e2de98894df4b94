#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Hostile input at a live device.  uet_inject, on a third host, sends
# mutated UET packets of every type and opcode at uet0, half of them
# directly over IP (some with a CRC that does not match), seeded from a
# capture of real traffic and aimed at uet0's live PDCs (their IDs and
# PSNs, from debugfs), while the engine moves data between uet0 and uet1
# beside it.  Afterwards: every live transfer arrived intact, uet0
# counted every packet it was sent, its PDCs closed as idle ones do, and
# the kernel's memory is where it was.  A kernel report fails the run by
# itself (selftests/vm/run-vm.sh); the packets sent just before it are
# printed, for uet_inject -R to send again.
#
#   +---- uet-a -----+      +------ uet-b ------+      +------ uet-c ------+
#   | uet0 on veth0  |------| veth0 (uet1)      |      |                   |
#   | 198.18.0.1     |      | 198.18.0.2        |      |                   |
#   | 2001:db8:4793::1      | 2001:db8:4793::2  |      |                   |
#   |                |      | veth1 198.18.1.2  |------| veth0 198.18.1.3  |
#   |                |      | 2001:db8:4793:1::2|      | 2001:db8:4793:1::3|
#   +----------------+      +-- forwards -------+      |  uet_inject       |
#                                                      +-------------------+
#
# The injector is not uet0's peer: what it aims at the live PDCs must be
# refused, unnoticed by the transfers.  They run in a job of their own
# that the capture never saw: a host of the same job may send into the
# job's buffers, and would.
#
# UET_INJECT_SEED and UET_INJECT_SECONDS (kernel command line) repeat a
# run's choices or make it longer.
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/engine_lib.sh"

dir=$(dirname "$0")
NS_C=uet-c
C_NET4=198.18.1
C_NET6=2001:db8:4793:1
LIVE_JOB=$((0x4793))
SECS=${UET_INJECT_SECONDS:-$(scaled 20 15)}
RATE=$(scaled 1000 200)
pcap=/tmp/inject-seed.pcap
trace=/tmp/inject-trace.txt
out=/tmp/inject.log

B() { ip netns exec "$NS_B" "$@"; }
C() { ip netns exec "$NS_C" "$@"; }

# uet-c behind uet-b, which routes between its two links
third_host() {
	ip netns add "$NS_C" &&
	ip link add veth1 netns "$NS_B" type veth peer name veth0 netns "$NS_C" &&
	C ip link set lo up &&
	B ip addr add "$C_NET4.2/24" dev veth1 &&
	B ip addr add "$C_NET6::2/64" dev veth1 nodad &&
	C ip addr add "$C_NET4.3/24" dev veth0 &&
	C ip addr add "$C_NET6::3/64" dev veth0 nodad &&
	B ip link set veth1 up && C ip link set veth0 up &&
	B sysctl -qw net.ipv4.ip_forward=1 &&
	B sysctl -qw net.ipv6.conf.all.forwarding=1 &&
	A ip route add "$C_NET4.0/24" via "$UET_NET4.2" &&
	A ip -6 route add "$C_NET6::/64" via "$UET_NET6::2" &&
	C ip route add default via "$C_NET4.2" &&
	C ip -6 route add default via "$C_NET6::2"
}

# idle_ms MS: how long both devices keep an idle PDC (a target's: 4 times
# as long)
idle_ms() {
	A uetctl dev set uet0 pdc-idle-ms "$1" &&
	B uetctl dev set uet1 pdc-idle-ms "$1"
}

# Idle PDCs close after 200 ms (targets' after 800 ms): each phase ends
# clean in a second, not a minute.
setup_all() {
	setup && third_host && idle_ms 200
}

# The seeds: a capture of every operation and mode in both directions,
# refusals and the idle CLOSE among them.
capture_seeds() {
	local rc=0
	tcpdump_start "$NS_A" "$pcap" udp port 4793 || return 1
	xfer count=4 size=4096 && xfer op=tsend count=4 size=3000 &&
	xfer op=write count=2 size=3000 && xfer op=writeimm count=2 size=100 &&
	xfer op=read count=2 size=3000 && xfer mode=rod count=4 size=4096 &&
	xfer mode=uud count=4 size=1000 &&
	xfer mode=rudi op=write count=2 size=2000 &&
	xfer mode=rudi op=read count=2 size=2000 &&
	xfer op=write fault=rkey count=1 size=100 &&
	xfer op=read fault=bounds count=1 size=100 &&
	xfer recvs=0 count=1 size=100 expect=-121 &&
	xfer addr="$UET_NET6::2" count=2 size=2000 &&
	xfer src=uet1 dst=uet0 addr="$UET_NET4.1" count=4 size=4096 &&
	xfer src=uet1 dst=uet0 addr="$UET_NET4.1" op=read count=2 size=3000 ||
		rc=1
	sleep 1		# the idle PDCs close
	tcpdump_stop
	"$dir/uet_pcap" "$pcap" >/tmp/inject-seed.txt || return 1
	echo "# $(wc -l </tmp/inject-seed.txt) packets captured:" \
		"$(awk '{ n[$8]++ } END { for (t in n) printf "%s %d ", t, n[t] }' \
			/tmp/inject-seed.txt)"
	[ $rc = 0 ] && [ "$(grep -c ' pds ' /tmp/inject-seed.txt)" -gt 50 ]
}

# Packets the specification defines and uet does not act on, from the
# third host: ACK_CCX, NACK_CCX, a negotiation control packet with ISROD,
# a closing ACK with its expected PSN (to no PDC), and a RUD request
# opening a PDC for SYNC_WRITE, 0x10.  Each is parsed, none is counted
# malformed, the first three and the request are refused as unsupported,
# and the request is answered UNSUPPORTED_OP.  Then the first four again
# with a UDP checksum of zero, as the specification sends them, over IPv4
# and IPv6: all taken.  Byte layouts: Documentation/wire-format.rst.
spec_refusals() {
	local f=/tmp/inject-spec.txt pcap=/tmp/inject-spec.pcap n rc=0
	cat >"$f" <<-EOF
	48000000000000100001000250000000000000000000000000000000000000000000000000000000
	6000010000000010000100020000001150000000000000000000000000000000
	5ca00000000000010003000400000000
	38400000000000100001000200000011
	118c0000000010000007000010030001000000650000000000000000000000000000000000000000000000000000000000000000000000000000000000000000
	EOF
	head -n 4 "$f" >"$f.4"
	tcpdump_start "$NS_C" "$pcap" udp port 4793 || return 1
	spec_round "$f" "$UET_NET4.1" 5 4 || rc=1
	spec_round "$f.4" "$UET_NET4.1" 4 3 -z || rc=1
	spec_round "$f.4" "$UET_NET6::1" 4 3 -z || rc=1
	sleep 1
	tcpdump_stop
	"$dir/uet_pcap" "$pcap" | sed 's/^/# /' | tee /tmp/inject-spec-dec.txt
	grep -q 'pds ACK.* ses RSP rc UNSUPPORTED_OP' /tmp/inject-spec-dec.txt ||
		rc=1
	# the four IPv4 packets sent without a checksum went so (-Z root:
	# the guest has no tcpdump user to drop privileges to)
	n=$(tcpdump -Z root -r "$pcap" -nvv 2>/dev/null | grep -c 'no cksum')
	echo "# IPv4 packets without a checksum: $n"
	[ "$n" -eq 4 ] || rc=1
	rm -f "$pcap"
	return $rc
}

# spec_round FILE ADDR RX UNSUPPORTED [-z]: FILE's packets sent to ADDR;
# uet0 counts RX of them, UNSUPPORTED refused as such, none malformed
spec_round() {
	local m u r
	m=$(counter uet0 drop_malformed) u=$(counter uet0 drop_unsupported)
	r=$(counter uet0 rx_packets)
	C "$dir/uet_inject" ${5:+"$5"} -R "$1" "$2" | sed 's/^/# /'
	sleep 0.5
	m=$(( $(counter uet0 drop_malformed) - m ))
	u=$(( $(counter uet0 drop_unsupported) - u ))
	r=$(( $(counter uet0 rx_packets) - r ))
	echo "# to $2${5:+ ($5)}: rx_packets +$r, drop_malformed +$m, drop_unsupported +$u"
	[ "$r" -eq "$3" ] && [ "$m" -eq 0 ] && [ "$u" -eq "$4" ]
}

# wait_idle: both devices back to the PDCs they had (10 s at most)
wait_idle() {
	local end=$((SECONDS + 10))
	while [ $SECONDS -lt $end ]; do
		[ "$(counter uet0 pdcs_active)" -eq "$pdcs0" ] &&
		[ "$(counter uet1 pdcs_active)" -eq "$pdcs1" ] && return 0
		sleep 0.1
	done
	echo "# uet0 pdcs_active $(counter uet0 pdcs_active) (was $pdcs0)," \
		"uet1 $(counter uet1 pdcs_active) (was $pdcs1)"
	sed 's/^/# uet0: /' /sys/kernel/debug/uet/uet0/pdcs | head -n 20
	return 1
}

# what the seeds opened has closed: the injection starts from no PDC
baseline() {
	pdcs0=0 pdcs1=0
	wait_idle || return 1
	mem_snapshot /tmp/inject-meminfo0.txt
	dev_counters uet0 >/tmp/inject-counters0.txt
	tx1=$(counter uet1 tx_packets)
	echo "# SUnreclaim $(meminfo SUnreclaim /tmp/inject-meminfo0.txt) kB," \
		"MemAvailable $(meminfo MemAvailable /tmp/inject-meminfo0.txt) kB;" \
		"PDCs active: uet0 $pdcs0, uet1 $pdcs1"
}

# live_args N: the Nth transfer of the live traffic: both ways, each
# operation and mode, IPv4 and IPv6, in LIVE_JOB
live_args() {
	local to="src=uet1 dst=uet0 addr=$UET_NET4.1"
	echo "job=$LIVE_JOB timeout_s=$(scaled 30 90) count=4 size=$(scaled 65536 16384)"
	case $(($1 % 6)) in
	0) echo "op=send" ;;
	1) echo "$to op=send" ;;
	2) echo "op=write" ;;
	3) echo "op=read mode=rod" ;;
	4) echo "src=uet1 dst=uet0 addr=$UET_NET6::1 mode=rod" ;;
	5) echo "$to op=read" ;;
	esac
}

# The kernel's first report since the injection started, if any, and the
# packets sent just before it.  The trace's clock and the kernel log's
# are matched at the start: the mark inject() leaves in the log, and the
# time the injector prints first (to within its start-up: 50 packets are
# shown).
reproducer() {
	local t0 mark ts
	t0=$(sed -n 's/^uet_inject: seed .*, at \([0-9.]*\) s$/\1/p' "$out")
	[ -n "$t0" ] || return 0
	dmesg | sed -n '/uet-inject: injection starts/,$p' |
		sed -n 's/^\[ *\([0-9.]*\)\] /\1 /p' >/tmp/inject-dmesg.txt
	mark=$(head -n 1 /tmp/inject-dmesg.txt | cut -d' ' -f1)
	ts=$(grep -E "$reports" /tmp/inject-dmesg.txt | head -n 1 | cut -d' ' -f1)
	[ -n "$ts" ] || return 0
	echo "# kernel report at $ts s; the packets sent just before it (uet_inject -R FILE sends them again):"
	cat "$trace.old" "$trace" 2>/dev/null |
		awk -v t="$ts" -v off="$(echo "$mark $t0" | awk '{ print $1 - $2 }')" \
		'$1 + off <= t' | tail -n 50 | sed 's/^/# /'
}
reports='WARNING:|BUG:|Oops|KASAN:|UBSAN:|general protection fault|ODEBUG:'
reports+='|list_(add|del) corruption|circular locking|suspicious RCU|unreferenced object'

# While the transfers run, the live PDCs stay open (the default idle
# time): the injection's effect on them is what is measured, not that of
# closing and opening PDCs.
inject() {
	local pid rc=0 seed=()
	[ -n "${UET_INJECT_SEED:-}" ] && seed=(-s "$UET_INJECT_SEED")
	live_n=0 live_bad=0
	idle_ms 10000 || return 1
	echo "uet-inject: injection starts" >/dev/kmsg
	C "$dir/uet_inject" "${seed[@]}" -N -p "$pcap" -P - -t "$SECS" -r "$RATE" \
		-T "$trace" "$UET_NET4.1" "$UET_NET6::1" \
		</sys/kernel/debug/uet/uet0/pdcs >"$out" 2>&1 &
	pid=$!
	while kill -0 "$pid" 2>/dev/null; do
		# shellcheck disable=SC2046
		if ! xfer $(live_args $live_n) >/tmp/inject-live.log 2>&1; then
			echo "# transfer $live_n failed:" $(live_args $live_n)
			sed 's/^/# /' /tmp/inject-live.log
			live_bad=$((live_bad + 1))
		fi
		live_n=$((live_n + 1))
	done
	wait "$pid" || rc=1
	idle_ms 200 || rc=1
	sleep 0.5	# the last packets are in
	sed 's/^/# /' "$out"
	reproducer
	rm -f "$trace" "$trace.old"	# MBs in tmpfs, where memory is measured
	sent=$(sed -n 's/^uet_inject: sent \([0-9]*\) packets.*/\1/p' "$out")
	bad_crc=$(sed -n 's/^uet_inject: directly over IP [0-9]*, with a bad CRC \([0-9]*\)$/\1/p' "$out")
	[ $rc = 0 ] && [ "${sent:-0}" -gt 0 ]
}

live_intact() {
	echo "# $((live_n - live_bad)) of $live_n transfers beside the injection intact"
	[ "$live_n" -gt 0 ] && [ "$live_bad" -eq 0 ] &&
	xfer job=$LIVE_JOB count=4 size="$(scaled 65536 16384)" &&
	xfer job=$LIVE_JOB src=uet1 dst=uet0 addr="$UET_NET4.1" count=4 \
		size="$(scaled 65536 16384)"
}

# quiet: uet0 and uet1 stopped counting packets (5 s at most)
quiet() {
	local a b= end=$((SECONDS + 5))
	while [ $SECONDS -lt $end ]; do
		a="$(counter uet0 rx_packets) $(counter uet1 tx_packets)"
		[ "$a" = "$b" ] && return 0
		b=$a
		sleep 0.2
	done
	return 1
}

# uet0 received what the injector sent and what uet1 sent it, no more and
# no less (nothing else sends to it; the veth loses nothing here)
counted() {
	local rx tx crc
	quiet || echo "# still counting"
	rx=$(( $(counter uet0 rx_packets) - $(awk '$1 == "rx_packets" { print $2 }' \
		/tmp/inject-counters0.txt) ))
	tx=$(( $(counter uet1 tx_packets) - tx1 ))
	dev_counters uet0 | awk 'NR == FNR { b[$1] = $2; next }
		$2 != b[$1] { printf "# uet0 %s +%d\n", $1, $2 - b[$1] }' \
		/tmp/inject-counters0.txt -
	echo "# uet0 rx_packets +$rx: $sent injected, $tx from uet1"
	crc=$(( $(counter uet0 drop_bad_crc) - $(awk '$1 == "drop_bad_crc" { print $2 }' \
		/tmp/inject-counters0.txt) ))
	echo "# uet0 drop_bad_crc +$crc: $bad_crc injected with a bad CRC"
	[ "$rx" -eq $((sent + tx)) ] && [ "$crc" -eq "${bad_crc:-x}" ]
}

# Unreclaimable slab may grow by 2 MiB (4 MiB on the debug kernel, whose
# objects carry red zones and tracking), available memory shrink by 32
# MiB.  Runs without leaks end 0.5 MiB above the slab they started from
# (1.5 on the debug kernel: partial slabs and per-CPU caches the burst
# left), and move available memory by up to 10 MiB either way (pages the
# burst left in the allocator's per-CPU lists and the page-fragment
# caches of the network stack); a leak of 200 bytes per packet injected
# (one in a hundred leaking an skb) passes 2 MiB of slab, and one of the
# packets' buffers (20,000 of some 2 KiB) 32 MiB.  Smaller leaks are
# kmemleak's to find, on the debug kernel.
memory_flat() {
	mem_snapshot /tmp/inject-meminfo.txt &&
	mem_flat /tmp/inject-meminfo0.txt /tmp/inject-meminfo.txt \
		"$(scaled 2048 4096)" 32768
}

teardown_all() {
	ip netns del "$NS_C" && teardown
}

cleanup() {
	ip netns del "$NS_C" 2>/dev/null
	fabric_down
}

trap cleanup EXIT
ktap_print_header
ktap_set_plan 10
ktap_test_result "setup: uet0, uet1 and a third host" setup_all
ktap_test_result "seeds captured from every operation" capture_seeds
ktap_test_result "what the specification defines is parsed, refused if not done" \
	spec_refusals
ktap_test_result "baseline" baseline
ktap_test_result "$SECS s of hostile packets at uet0, live traffic beside" inject
ktap_test_result "live transfers intact" live_intact
ktap_test_result "PDCs closed when idle" wait_idle
ktap_test_result "every packet counted" counted
ktap_test_result "memory flat" memory_flat
ktap_test_result "teardown" teardown_all
ktap_finished
