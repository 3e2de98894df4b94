#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Rate advice (Documentation/rate-advice.rst): a network element tells a
# sender the rate for one of its flows, and a device set to take advice
# keeps the flow to it while advice comes, never below its floor nor above
# its link rate; advice that stops lapses, and forged or malformed advice
# is counted and does no more than the floor allows.  uet0 in uet-a sends
# to uet1 in uet-b; uet_advisor watches the requests arriving on uet-b's
# veth0 and advises their sender.
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/engine_lib.sh"

dir=$(dirname "$0")
# The advice comes from what uet0 sends without it (GOOD, Mbit/s, 68 on
# the stock kernel of the test VM, 2 on the debug one), so that it binds
# on either: the advisor advises RATE, a quarter of it; uet0's
# ra-floor-mbps is FLOOR, and its link-mbps, the highest cap, LINK (not
# lower: NSCC sizes its window by it).
GOOD='' RATE='' FLOOR=''
LINK=100
# How long each of the advisor's advices holds, ms: on the debug kernel
# the advisor, one process among the test's on one slow vCPU (beside
# another VM), falls seconds behind, and a cap that lapses starts again
# from the link's rate; there its advice holds a minute, and its last
# word is an advice of a second (released()).
LAST_MS=1000
LIFETIME=$(scaled "$LAST_MS" 60000)

# A transfer of the test module in the background, COUNT x 64 KiB, given
# the time a slow kernel's advisor may leave it at the floor.
xfer_bg() {
	xfer count="$1" size=65536 timeout_s=300 >/tmp/ra-xfer.log 2>&1 &
	xfer_pid=$!
}

xfer_wait() {
	wait "$xfer_pid"
	local rc=$?
	cat /tmp/ra-xfer.log
	return $rc
}

# ini_pdc: PDC, the ID of uet0's initiator PDC under advice, once it has
# one: the one that sends
ini_pdc() {
	local p all end=$((SECONDS + 60))
	while [ $SECONDS -lt $end ]; do
		all=$(A uetctl -j pdc show dev uet0)
		p=$(jq -c '[.[] | select(.role == "initiator" and
					 .rate_advice != null)] | .[0] // empty' <<<"$all")
		[ -n "$p" ] && { echo "# $p"; PDC=$(jq -r .lpdcid <<<"$p"); return 0; }
		sleep 0.1
	done
	echo "# no initiator PDC under advice: $all"
	return 1
}

# advice RATE SPDCID LIFETIME_MS DADDR4: a rate advice message in hex
advice() {
	local IFS=. a
	read -ra a <<<"$4"
	printf 'f8000001%08x%04x%04x00000000000000000000ffff%02x%02x%02x%02x' \
		"$1" "$2" "$3" "${a[@]}"
}

# advise HEX: send HEX from uet-b to uet0's port
advise() { craft "$NS_B" "$UET_NET4.1" "$1"; }

# ra_now: the rate advice of uet0's PDC found last (ini_pdc()), "cap
# advised" or ""
ra_now() {
	A uetctl -j pdc show dev uet0 id "$PDC" |
		jq -r '.[0].rate_advice // empty | "\(.cap_mbps) \(.advised_mbps)"'
}

# Without ra-floor-mbps a device's requests do not say they take advice,
# and advice to it is counted and ignored.
off_by_default() {
	local rcv ign out
	rcv=$(counter uet0 ra_received) ign=$(counter uet0 ra_ignored)
	# not through B(): $! must be the advisor's own pid
	ip netns exec "$NS_B" "$dir/uet_advisor" -i veth0 -r "$RATE" -t 60 \
		>/tmp/ra-adv.log &
	local adv=$!
	sleep 0.5
	xfer count=16 size=65536 >/tmp/ra-xfer.log 2>&1 || { kill $adv; return 1; }
	kill $adv; wait $adv
	out=$(cat /tmp/ra-xfer.log /tmp/ra-adv.log)
	sed 's/^\(# \)\?/# /' <<<"$out"
	GOOD=$(sed -n 's/.*goodput_kBps=\([0-9]*\).*/\1/p' <<<"$out" | tail -n 1)
	GOOD=$((${GOOD:-0} * 8 / 1000))
	RATE=$((GOOD / 4)) && [ "$RATE" -ge 1 ] || RATE=1
	FLOOR=$(((RATE + 1) / 2))
	echo "# uet0 sends $GOOD Mbit/s: advice $RATE, ra-floor-mbps $FLOOR"
	A uetctl dev set uet0 link-mbps "$LINK" &&
	grep -qE 'requests [1-9][0-9]*, taking advice 0, flows 0, advised 0' <<<"$out" &&
	advise "$(advice "$RATE" 1 0 "$UET_NET4.2")" &&
	wait_delta uet0 ra_received "$rcv" 1 5 &&
	expect_delta uet0 ra_ignored "$ign" 1
}

# The advisor's flow slows to its rate: over two seconds once the cap has
# come down, uet0 sends no faster than the advice and a half (the cap
# moves a quarter of the way at each advice, and a burst of 64 KiB goes
# at once; timed on the stock kernel only), and its PDC waits for the
# cap.  The transfer lasts some 15 s at the advice (two minutes on the
# debug kernel, where every look takes seconds: this test took 46 s
# there, 74 beside another VM), and ends once it lapses.
capped() {
	local t0 t0b b0 t1 t1b b1 kbit paced applied p1 a1 end cap=
	A uetctl dev set uet0 ra-floor-mbps "$FLOOR" || return 1
	paced=$(counter uet0 ra_paced) applied=$(counter uet0 ra_applied)
	xfer_bg $((RATE * 30 * $(scaled 1 8)))
	ip netns exec "$NS_B" "$dir/uet_advisor" -i veth0 -r "$RATE" \
		-l "$LIFETIME" -e 20 -t 300 >/tmp/ra-adv.log &
	adv_pid=$!
	ini_pdc || return 1
	end=$((SECONDS + 60))
	while [ $SECONDS -lt $end ]; do
		read -r cap advised < <(ra_now)
		[ -n "$cap" ] && [ "$cap" -le $((RATE * 5 / 4)) ] && break
		sleep 0.1
	done
	echo "# cap $cap Mbit/s, advised $advised"
	[ -n "$cap" ] && [ "$cap" -le $((RATE * 5 / 4)) ] &&
		[ "$advised" -eq "$RATE" ] || return 1
	# each counter read taken at the middle of the time it took
	t0=$(uptime_ms) b0=$(counter uet0 tx_bytes) t0b=$(uptime_ms)
	sleep 2
	t1=$(uptime_ms) b1=$(counter uet0 tx_bytes) t1b=$(uptime_ms)
	t0=$(((t0 + t0b) / 2)) t1=$(((t1 + t1b) / 2))
	kbit=$(((b1 - b0) * 8 / (t1 - t0)))
	echo "# uet0 sent $((b1 - b0)) bytes in $((t1 - t0)) ms: $kbit kbit/s under advice of $RATE Mbit/s"
	p1=$(counter uet0 ra_paced) a1=$(counter uet0 ra_applied)
	echo "# ra_paced $paced -> $p1, ra_applied $applied -> $a1"
	# the rate on the stock kernel: on the debug one, two VMs on two
	# cores, the advisor and the counter reads fall seconds behind
	[ "$b1" -gt "$b0" ] &&
	{ [ -n "${UET_SLOW:-}" ] || [ "$kbit" -le $((RATE * 1500)) ]; } &&
	[ "$p1" -gt "$paced" ] && [ "$a1" -gt "$applied" ]
}

# Once the advisor stops, the cap lapses with the last advice's lifetime:
# the PDC is no longer paced and the transfer ends whole.
released() {
	local exp out paced
	exp=$(counter uet0 ra_expired)
	kill "$adv_pid"; wait "$adv_pid"
	out=$(cat /tmp/ra-adv.log)
	echo "# $out"
	grep -qE 'taking advice [1-9][0-9]*, flows 1, advised [1-9]' <<<"$out" ||
		return 1
	[ "$LIFETIME" = "$LAST_MS" ] ||
		advise "$(advice "$RATE" "$PDC" "$LAST_MS" "$UET_NET4.2")" ||
		return 1
	wait_delta uet0 ra_expired "$exp" 1 $((LAST_MS / 1000 + 10)) || return 1
	out=$(ra_now)
	[ -z "$out" ] || { echo "# still capped: $out"; return 1; }
	paced=$(counter uet0 ra_paced)
	sleep 0.5
	expect_delta uet0 ra_paced "$paced" 0 && xfer_wait
}

# Advice naming another peer or no PDC is ignored; malformed advice is
# dropped unparsed; advice below the floor or above the link holds at the
# bound, and a rate of 0 lifts the cap at once.  The advisor first caps
# the PDC near RATE for a minute, which keeps its live state (a PDC that
# sends nothing takes no advice) however long the checks take; the
# transfer, 10 s at RATE (40 on the debug kernel), ends once the cap
# goes.
forged() {
	local id rcv ign app mal floor=$((RATE + 1))
	A uetctl dev set uet0 ra-floor-mbps 1 || return 1
	xfer_bg $((RATE * $(scaled 10 40) * 2))
	ip netns exec "$NS_B" "$dir/uet_advisor" -i veth0 -r "$RATE" -l 60000 \
		-e 0 -c 12 -t 60 | sed 's/^/# /'
	ini_pdc || return 1
	id=$PDC
	A uetctl dev set uet0 ra-floor-mbps "$floor" || return 1
	rcv=$(counter uet0 ra_received) ign=$(counter uet0 ra_ignored)
	app=$(counter uet0 ra_applied) mal=$(counter uet0 drop_malformed)
	advise "$(advice 1 "$id" 0 "$UET_NET4.3")" &&
	advise "$(advice 1 $((id ^ 0x4000)) 0 "$UET_NET4.2")" &&
	wait_delta uet0 ra_ignored "$ign" 2 5 &&
	expect_delta uet0 ra_applied "$app" 0 || return 1
	# short, long, version 2, flags set
	advise "$(advice 1 "$id" 0 "$UET_NET4.2" | cut -c 3-)" &&
	advise "$(advice 1 "$id" 0 "$UET_NET4.2")00" &&
	advise "$(advice 1 "$id" 0 "$UET_NET4.2" | sed 's/^f8000001/f8000002/')" &&
	advise "$(advice 1 "$id" 0 "$UET_NET4.2" | sed 's/^f800/f801/')" &&
	wait_delta uet0 drop_malformed "$mal" 4 5 &&
	expect_delta uet0 ra_received "$rcv" 2 || return 1
	advise "$(advice 1 "$id" 60000 "$UET_NET4.2")" &&
	wait_delta uet0 ra_applied "$app" 1 5 &&
	[ "$(ra_now | cut -d' ' -f2)" -eq "$floor" ] || return 1
	advise "$(advice 99999 "$id" 60000 "$UET_NET4.2")" &&
	wait_delta uet0 ra_applied "$app" 2 5 &&
	[ "$(ra_now | cut -d' ' -f2)" -eq "$LINK" ] || return 1
	advise "$(advice 0 "$id" 0 "$UET_NET4.2")" &&
	wait_delta uet0 ra_applied "$app" 3 5 &&
	[ -z "$(ra_now)" ] || return 1
	xfer_wait
}

# advised_xfer JOB: a transfer in JOB with the advisor watching; TAKING,
# how many of its requests said they take advice
advised_xfer() {
	local adv out
	ip netns exec "$NS_B" "$dir/uet_advisor" -i veth0 -r "$RATE" -t 60 \
		>/tmp/ra-adv.log &
	adv=$!
	sleep 0.5
	xfer job="$1" count=16 size=65536 >/tmp/ra-xfer.log 2>&1 ||
		{ kill $adv; cat /tmp/ra-xfer.log; return 1; }
	kill $adv; wait $adv
	out=$(cat /tmp/ra-adv.log)
	echo "# job $1: $out"
	TAKING=$(sed -n 's/.*taking advice \([0-9]*\),.*/\1/p' <<<"$out")
	[ -n "$TAKING" ]
}

# A job's ra-floor-mbps stands for the device's for its PDCs: job 7
# takes advice where the device takes none, job 8 none where it does,
# and job 9, which says nothing (and does not exist), takes the device's.
per_job() {
	local app
	A uetctl dev set uet0 ra-floor-mbps 0 &&
	A uetctl job add dev uet0 id 7 ra-floor-mbps "$FLOOR" &&
	A uetctl job add dev uet0 id 8 ra-floor-mbps 0 &&
	A uetctl job show dev uet0 id 7 | grep -q " ra-floor-mbps $FLOOR\$" &&
	[ "$(A uetctl -j job show dev uet0 id 8 | jq '.[0].ra_floor_mbps')" = 0 ] &&
	[ "$(A uetctl -j job show dev uet0 id 1 | jq '.[0].ra_floor_mbps')" = null ] ||
		return 1
	app=$(counter uet0 ra_applied)
	advised_xfer 7 && [ "$TAKING" -gt 0 ] &&
	[ "$(counter uet0 ra_applied)" -gt "$app" ] &&
	advised_xfer 9 && [ "$TAKING" -eq 0 ] &&
	A uetctl dev set uet0 ra-floor-mbps "$FLOOR" &&
	advised_xfer 8 && [ "$TAKING" -eq 0 ] &&
	advised_xfer 9 && [ "$TAKING" -gt 0 ] &&
	A uetctl job del dev uet0 id 7 && A uetctl job del dev uet0 id 8
}

# One initiator PDC of uet0's carries every transfer of job 1 (none
# closes when idle): a close that starts as a transfer does moves the
# rest of it to a new PDC, and the advice with it.
ra_setup() {
	setup &&
	A uetctl dev set uet0 pdc-idle-ms 0 &&
	B uetctl dev set uet1 pdc-idle-ms 0
}

trap fabric_down EXIT
ktap_print_header
ktap_set_plan 7
ktap_test_result "setup" ra_setup
ktap_test_result "off by default: no flag, advice ignored" off_by_default
ktap_test_result "a sender capped by advice" capped
ktap_test_result "the cap lapses when advice stops" released
ktap_test_result "forged and malformed advice: ignored, dropped or bounded" forged
ktap_test_result "a job's ra-floor-mbps stands for its device's" per_job
ktap_test_result "teardown" teardown
fabric_down
ktap_finished
