#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# The fabric lab: network namespaces for hosts and a switch, veth links,
# one bottleneck, and uet between them.  An incast: N senders, each its own
# host with its own uet device, write to one receiver through a switch
# whose port towards the receiver is the bottleneck: tbf at RATE Mbit/s,
# and under it RED marking ECN-capable packets CE (dropping the others)
# once its average queue passes MIN bytes.  The receiver's link adds a
# delay, so that a round trip is a fabric's rather than a veth's.
#
#   lab-s1 eth0 198.19.1.1 --- s1 +--------- lab-sw --------+
#   lab-s2 eth0 198.19.2.1 --- s2 | routes; port r: tbf+RED | r --- eth0 198.19.100.1 lab-r
#   ...                           |   (the bottleneck)      |        (netem delay)
#   lab-sN eth0 198.19.N.1 --- sN +-------------------------+
#
# Each sender runs perftest's ib_send_bw (RC over uet, CQ events, no
# busy polling) against its own server on the receiver, each BYTES in 64
# KiB messages, with the senders' congestion control CC; the clients stop
# on a start line right before their first send (hold.c) and are let go
# together.  While
# they run, every SAMPLE_MS the lab samples what each flow's target PDC
# delivered and each sender's congestion window (debugfs), and every other
# sample the bottleneck's queue; then each flow's figures and the
# counters that matter.  Then a flow joins a running one and leaves
# before it ends (two senders).  Last, a leaf-spine fabric (the BMWG
# draft's Topology A, small) carries a permutation: every host of leaf 1
# writes to one of leaf 2 over the spines' uplinks, each RATE Mbit/s; one
# flow, on one path and sprayed; two flows whose paths collide, and
# sprayed; and the permutation again, sprayed, while a spine fails.  It prints one line "UET-LAB
# {json}" per run, for selftests/lab/report.py to turn into figures, JSON
# and plots.
#
# Runs in the test VM (make lab: selftests/lab/run.sh) or on a host as
# root with the uet module, uetctl, perftest, tc and jq; it takes the
# namespaces lab-* and the address range 198.19.0.0/16 (RFC 2544's
# benchmarking range) for its own.
#
# Environment:
#   UET_LAB_N          incast degrees, one run each ("2 4 8")
#   UET_LAB_CC         the congestion controls to run each with
#                      ("nscc rccc nscc-rccc none")
#   UET_LAB_RATE       the bottleneck, Mbit/s (40)
#   UET_LAB_DELAY_US   the receiver link's one-way delay, us (500)
#   UET_LAB_MIN        RED's marking threshold, bytes (6000; max 3 times it)
#   UET_LAB_BYTES      what each sender sends (8388608)
#   UET_LAB_SAMPLE_MS  the sampling period (100)
#   UET_LAB_JOIN_MS    when the joining flow starts, ms after the first (2000)
#   UET_LAB_LEAVES, UET_LAB_SPINES, UET_LAB_HOSTS  the leaf-spine fabric
#                      (2 leaves, 2 spines, 4 hosts under each leaf)
#   UET_LAB_BASE_US    the fabric's base RTT the senders are configured
#                      with, us (600: the receiver link's 500 us and the
#                      guest's own time, 551-583 us measured unloaded;
#                      0: each sender measures its own)
#   UET_LAB_NSCC       NSCC's parameters of the senders' devices, as
#                      uetctl dev set takes them ("cc-fi-pct 250"; none)
#   UET_LAB_RTO_MIN_US the leaf-spine senders' least retransmission
#                      timeout, us (the device's default, 50 ms;
#                      at most its initial RTO, 100 ms)
#   UET_LAB_PARTS      what to run ("incast join permutation spread
#                      collision failover")
#   UET_LAB_LB         the permutation's load balancing, each a run per
#                      congestion control ("single"; or oblivious, reps)
#   UET_LAB_LB_PATHS   the entropies a sprayed PDC takes (16)
#   UET_LAB_SPREAD_LB  the load balancing of the one flow and of the
#                      collision besides single, each a run per
#                      congestion control ("reps")
#   UET_LAB_SPREAD_SPINES  the spines under the one flow (4)
#   UET_LAB_FAIL_MS    the failover: when spine 1 fails, ms after the
#                      flows start (1000)
#   UET_LAB_FAIL_SAMPLE_MS  the failover's sampling period (10)
#   UET_LAB_FAIL_LB    the failover's load balancing, each a run per
#                      congestion control ("reps")
#   UET_LAB_ADVICE_N   rate advice inside a data centre: the incast degree
#                      (4), with NSCC, without advice and with an element
#                      on the switch (selftests/uet_advisor) sharing
#                      the bottleneck among the flows it sees; and two
#                      flows in an ECMP collision between two pods
#   UET_LAB_WAN_DELAY_US, UET_LAB_WAN_LOSS  and across data centres: one
#                      flow between two pods over a WAN link of this
#                      one-way delay (20000) and loss ("0.1%"), without
#                      and with advice
#   UET_LAB_ADVICE_REPEAT  how many times each advice run (3)
#   UET_LAB_ADVICE_MODES  the elements' policies, each a run: "share",
#                      the bottleneck shared among the flows, and
#                      "queue", that share scaled down while the
#                      bottleneck's queue holds more than
#                      UET_LAB_ADVICE_TARGET_US of it (300) ("share queue")
d=$(dirname "$0")
if [ -e "$d/lib.sh" ]; then . "$d/lib.sh"; else . "$d/../lib.sh"; fi

NS=${UET_LAB_N:-2 4 8}
CCS=${UET_LAB_CC:-nscc rccc nscc-rccc none}
RATE=${UET_LAB_RATE:-40}
DELAY_US=${UET_LAB_DELAY_US:-500}
MIN=${UET_LAB_MIN:-6000}
BYTES=${UET_LAB_BYTES:-8388608}
SAMPLE_MS=${UET_LAB_SAMPLE_MS:-100}
PERIOD=$(printf '%d.%03d' $((SAMPLE_MS / 1000)) $((SAMPLE_MS % 1000)))
JOIN_MS=${UET_LAB_JOIN_MS:-2000}
LEAVES=${UET_LAB_LEAVES:-2}
SPINES=${UET_LAB_SPINES:-2}
HOSTS=${UET_LAB_HOSTS:-4}
BASE_US=${UET_LAB_BASE_US:-600}
read -ra NSCC <<<"cc-base-rtt-us $BASE_US ${UET_LAB_NSCC:-}"
RTO=()
[ -z "${UET_LAB_RTO_MIN_US:-}" ] || RTO=(rto-min-us "$UET_LAB_RTO_MIN_US")
PARTS=${UET_LAB_PARTS:-incast join permutation spread collision failover advice}
LBS=${UET_LAB_LB:-single}
LB_PATHS=${UET_LAB_LB_PATHS:-16}
FAIL_MS=${UET_LAB_FAIL_MS:-1000}
FAIL_LBS=${UET_LAB_FAIL_LB:-reps}
FAIL_SAMPLE_MS=${UET_LAB_FAIL_SAMPLE_MS:-10}
FAIL_PERIOD=$(printf '%d.%03d' $((FAIL_SAMPLE_MS / 1000)) $((FAIL_SAMPLE_MS % 1000)))
SPREAD_LBS=${UET_LAB_SPREAD_LB:-reps}
SPREAD_SPINES=${UET_LAB_SPREAD_SPINES:-4}
ADVICE_N=${UET_LAB_ADVICE_N:-4}
ADVICE_REPEAT=${UET_LAB_ADVICE_REPEAT:-3}
ADVICE_MODES=${UET_LAB_ADVICE_MODES:-share queue}
ADVICE_TARGET_US=${UET_LAB_ADVICE_TARGET_US:-300}
WAN_DELAY_US=${UET_LAB_WAN_DELAY_US:-20000}
WAN_LOSS=${UET_LAB_WAN_LOSS:-0.1%}
# run(): the topology (incast_up or pods_up), its bottleneck (a port of
# a switch, where the element advises), the element's rate when set
# (advice) and its target for the queue (0: it shares the rate
# whatever the queue), the senders' links' loss
TOPO=incast QNS=sw QDEV=r
ADVICE= TARGET_US=0
LOSS=
HOST_MBPS=$RATE
SIZE=65536
NET=198.19
RX=$NET.100.1
PORT0=18600
OUT=/tmp/uet-lab

in_ns() { local ns=$1; shift; ip netns exec "lab-$ns" "$@"; }

# nap SECONDS: a pause without a fork (under TCG a fork can take longer
# than the pause): a read that times out on a pipe nobody writes to
exec {NAP_FD}<> <(:)
nap() { read -r -t "$1" -u "$NAP_FD" _ || true; }

# now: NOW, the time in ms (the guest's date has no %N; no fork)
now() { local t=${EPOCHREALTIME/./}; NOW=$((t / 1000)); }

# gid DEV ADDR: DEV's GID index for IPv4 address ADDR (IPv4-mapped)
gid() {
	local f want a b c e
	IFS=. read -r a b c e <<<"$2"
	want=$(printf '0000:0000:0000:0000:0000:ffff:%02x%02x:%02x%02x' \
		"$a" "$b" "$c" "$e")
	for f in /sys/class/infiniband/"$1"/ports/1/gids/*; do
		[ "$(cat "$f")" = "$want" ] && { basename "$f"; return 0; }
	done
	return 1
}

# wait_gid DEV ADDR: the GID index, once the device has it (5 s at most)
wait_gid() {
	local i
	for i in $(seq 50); do
		gid "$1" "$2" && return 0
		sleep 0.1
	done
	return 1
}

# lab_down: the lab's namespaces gone, with what still runs in them (a
# run that failed half-way), and so their devices
lab_down() {
	local ns pids i
	for ns in $(ip netns list | awk '/^lab-/ { print $1 }'); do
		pids=$(ip netns pids "$ns")
		# shellcheck disable=SC2086
		[ -z "$pids" ] || kill -9 $pids 2>/dev/null
		ip netns del "$ns"
	done
	# the devices go with their netdevs
	for i in $(seq 50); do
		compgen -G '/sys/class/infiniband/lu*' >/dev/null || return 0
		sleep 0.1
	done
	echo "# lab devices still there: $(ls /sys/class/infiniband)"
	return 1
}

# switch NS: a routing namespace; multipath routes hash on the UDP ports
# (policy 1, L4), so that a PDC's entropy picks its path
switch() {
	ip netns add "lab-$1" && in_ns "$1" ip link set lo up &&
	in_ns "$1" sh -c 'echo 1 >/proc/sys/net/ipv4/ip_forward &&
		echo 1 >/proc/sys/net/ipv4/fib_multipath_hash_policy'
}

# link HOST-NS SWITCH-NS ADDR PORT-NAME: a new host's eth0 with ADDR/24 to
# the switch's port PORT-NAME (.254 of the same /24), its default route
# through it, and its uet device luHOST-NS
link() {
	local net=${3%.*}
	ip netns add "lab-$1" &&
	ip link add eth0 netns "lab-$1" type veth peer name "$4" netns "lab-$2" &&
	in_ns "$1" ip addr add "$3/24" dev eth0 &&
	in_ns "$1" ip link set eth0 up &&
	in_ns "$1" ip link set lo up &&
	in_ns "$1" ip route add default via "$net.254" &&
	in_ns "$2" ip addr add "$net.254/24" dev "$4" &&
	in_ns "$2" ip link set "$4" up &&
	# a switch sees packets, not GSO batches
	in_ns "$1" ip link set eth0 gso_max_segs 1 &&
	in_ns "$1" rdma link add "lu$1" type uet netdev eth0
}

# bottleneck SWITCH-NS DEV: DEV sends at RATE, RED marking (certainly
# above 3 MIN) what is ECN-capable and dropping the rest past MIN
bottleneck() {
	in_ns "$1" tc qdisc add dev "$2" root handle 1: tbf rate "${RATE}mbit" \
		burst 16kb limit 1000000 &&
	in_ns "$1" tc qdisc add dev "$2" parent 1:1 handle 10: red \
		limit 1000000 min "$MIN" max $((MIN * 3)) avpkt 1500 \
		burst $((MIN / 1500 + 1)) probability 1.0 \
		bandwidth "${RATE}mbit" ecn
}

# incast_up N: the topology above, with uet devices lus1..N and lur
incast_up() {
	local i
	switch sw && link r sw "$RX" r || return 1
	for i in $(seq "$1"); do
		link "s$i" sw "$NET.$i.1" "s$i" || return 1
	done
	bottleneck sw r &&
	in_ns r tc qdisc add dev eth0 root netem delay "${DELAY_US}us" \
		limit 100000
}

# uplink L S: leaf L's uplink uS to spine S (the spine's port dL),
# 198.19.(128 + 8 L + S).1 and .2
uplink() {
	local up=$NET.$((128 + 8 * $1 + $2))
	ip link add "u$2" netns "lab-l$1" type veth peer name "d$1" netns "lab-p$2" &&
	in_ns "l$1" ip addr add "$up.1/24" dev "u$2" &&
	in_ns "p$2" ip addr add "$up.2/24" dev "d$1" &&
	in_ns "l$1" ip link set "u$2" up &&
	in_ns "p$2" ip link set "d$1" up
}

# leafspine_up: Topology A of the BMWG draft, small: LEAVES leaf switches
# lab-l1.., SPINES spine switches lab-p1.., every leaf linked to every
# spine by uplinks that are bottlenecks both ways, and HOSTS hosts under
# each leaf: host j of leaf l is lab-hLxJ, 198.19.(16 l + j).1, device
# luhLxJ.  A leaf reaches the hosts of another (its /20) through every
# spine (equal-cost multipath, by the UDP ports); a spine reaches each
# leaf's /20 through that leaf.
leafspine_up() {
	local l m s j nh
	for l in $(seq "$LEAVES"); do switch "l$l" || return 1; done
	for s in $(seq "$SPINES"); do switch "p$s" || return 1; done
	for l in $(seq "$LEAVES"); do
		for s in $(seq "$SPINES"); do
			uplink "$l" "$s" &&
			bottleneck "l$l" "u$s" && bottleneck "p$s" "d$l" &&
			in_ns "p$s" ip route add "$NET.$((16 * l)).0/20" \
				via "$NET.$((128 + 8 * l + s)).1" || return 1
		done
		for j in $(seq "$HOSTS"); do
			link "h${l}x$j" "l$l" "$NET.$((16 * l + j)).1" "h$j" ||
				return 1
		done
	done
	for l in $(seq "$LEAVES"); do
		nh=
		for s in $(seq "$SPINES"); do
			nh="$nh nexthop via $NET.$((128 + 8 * l + s)).2"
		done
		for m in $(seq "$LEAVES"); do
			[ "$m" = "$l" ] && continue
			# shellcheck disable=SC2086
			in_ns "l$l" ip route add "$NET.$((16 * m)).0/20" $nh ||
				return 1
		done
	done
}

# pods_up N: two pods of a leaf-spine fabric, for rate advice: N senders
# lab-s1..N under leaf lab-l1 (the addresses of incast_up), the receiver
# lab-r under leaf lab-l2 (its link delayed as incast_up's), and SPINES
# spines between them.  Leaf 1's
# uplinks are the bottlenecks, towards the receiver; with PIN, leaf 1
# routes the receiver's /24 through spine 1 alone (an ECMP collision:
# every flow hashed onto one uplink while the others idle).  With WAN,
# spine 1's link towards leaf 2 is a WAN link between the pods: netem,
# WAN_DELAY_US one way and WAN_LOSS lost.  Leaf 1 is the pod's edge, where
# the element advises.
pods_up() {
	local i s nh1='' nh2=''
	switch l1 && switch l2 && link r l2 "$RX" r || return 1
	for i in $(seq "$1"); do
		link "s$i" l1 "$NET.$i.1" "s$i" || return 1
	done
	for s in $(seq "$SPINES"); do
		switch "p$s" && uplink 1 "$s" && uplink 2 "$s" || return 1
		in_ns "p$s" ip route add "$NET.0.0/20" via "$NET.$((136 + s)).1" &&
		in_ns "p$s" ip route add "$NET.100.0/24" via "$NET.$((144 + s)).1" &&
		bottleneck l1 "u$s" || return 1
		nh1="$nh1 nexthop via $NET.$((136 + s)).2"
		nh2="$nh2 nexthop via $NET.$((144 + s)).2"
	done
	[ -z "${PIN:-}" ] || nh1=" via $NET.137.2"
	# shellcheck disable=SC2086
	in_ns l1 ip route add "$NET.100.0/24" $nh1 || return 1
	# shellcheck disable=SC2086
	in_ns l2 ip route add "$NET.0.0/20" $nh2 || return 1
	in_ns r tc qdisc add dev eth0 root netem delay "${DELAY_US}us" \
		limit 100000 || return 1
	[ -z "${WAN:-}" ] ||
		in_ns p1 tc qdisc add dev d2 root netem \
			delay "${WAN_DELAY_US}us" loss "$WAN_LOSS" limit 100000
}

# counter DEV NAME: a device counter
lab_counter() {
	cat "/sys/class/infiniband/$1/ports/1/hw_counters/$2" 2>/dev/null || echo 0
}

# delivered N: DL, what each flow's target PDC at the receiver delivered,
# in requests, flow i being the one from host i (bash alone, no fork: a
# fork under TCG takes as long as a sample period)
delivered() {
	local -a got f
	local i h
	# columns: 3 role, 6 peer, 13 requests delivered
	while read -r -a f; do
		[ "${f[2]}" = tgt ] || continue
		h=${f[5]#*"$NET."}
		got[${h%%.*}]=${f[12]}
	done </sys/kernel/debug/uet/lur/pdcs
	DL=
	for ((i = 1; i <= $1; i++)); do
		DL="$DL${DL:+,}${got[$i]:-0}"
	done
}

# cwnds N: CW, each sender's congestion window in bytes (column 18 of
# its debugfs PDC list; 0 while it has none)
cwnds() {
	local -a f
	local i cw
	CW=
	for ((i = 1; i <= $1; i++)); do
		cw=0
		while read -r -a f; do
			[ "${f[2]}" = ini ] && cw=${f[17]:-0}
		done <"/sys/kernel/debug/uet/lus$i/pdcs"
		CW="$CW${CW:+,}$cw"
	done
}

# sample N K: sample K, added to SAMPLES as JSON: time (ms since the
# start), what each flow delivered, each sender's window, and every other
# one the bottleneck's backlog (bytes): QDEV's of switch QNS
sample() {
	local n=$1 k=$2 q=
	now
	delivered "$n"
	cwnds "$n"
	if [ $((k % 2)) = 0 ]; then
		q=$(tc -n "lab-$QNS" -s qdisc show dev "$QDEV" |
		    sed -n 's/.*backlog \([0-9]*\)b.*/\1/p' | head -n 1)
		q=",\"backlog\":${q:-0}"
	fi
	SAMPLES="$SAMPLES${SAMPLES:+,}{\"t_ms\":$((NOW - T0)),\"delivered\":[$DL],\"cwnd\":[$CW]$q}"
}

# held I: HELD, the pid of flow I's client if it has stopped on the start
# line (selftests/lab/hold.c)
held() {
	local st
	HELD=
	[ -e "$OUT/held$1" ] && read -r HELD <"$OUT/held$1" &&
		read -r _ _ st _ <"/proc/$HELD/stat" && [ "$st" = T ]
}

# hold_all N: wait (a minute at most) until the N clients of a run are on
# the start line; PIDS gets their pids
hold_all() {
	local i k
	for k in $(seq 600); do
		for ((i = 1; i <= $1; i++)); do
			held "$i" || break
			PIDS[i]=$HELD
		done
		[ "$i" -gt "$1" ] && return 0
		# a client that ended never gets there
		[ -e "$OUT/done$i" ] && break
		sleep 0.1
	done
	echo "# client $i not on the start line"
	return 1
}

# release: each held client whose delay has passed let go (NOW - T0 ms
# into the run), its start noted in STARTS
release() {
	local i
	for i in "${!PIDS[@]}"; do
		[ "${FLOW_DELAY[i]}" -le $((NOW - T0)) ] || continue
		kill -CONT "${PIDS[i]}"
		STARTS[i]=$((NOW - T0))
		unset "PIDS[i]"
	done
}

# run SCENARIO N CC: one run of N senders, sender i starting
# FLOW_DELAY[i] ms after the first and sending FLOW_BYTES[i]; prints its
# UET-LAB line.  With ADVICE, the senders take rate advice and the switch
# gives it, ADVICE Mbit/s shared among the flows (with TARGET_US, less
# while the bottleneck's queue holds more); with LOSS, the senders'
# links lose that share of the packets.  Every client is started at once and stops on the start
# line when its queue pair is ready; the run starts when all are there,
# so that how long a process takes to start under TCG is not part of a
# flow's time.
run() {
	local what=$1 n=$2 cc=$3 i gr gs k=0 flows=''
	local alive bw t1 rc red topo failed=0 adv='' advised=0 floor=0 q=()
	local -a iters
	[ -z "$ADVICE" ] || floor=1
	lab_down || return 1
	"${TOPO}_up" "$n" || { echo "# $what $n: no topology"; return 1; }
	gr=$(wait_gid lur "$RX") || return 1
	# the receiver grants RCCC's credit at the pace of its link
	in_ns r uetctl dev set lur link-mbps "$RATE" || return 1
	for i in $(seq "$n"); do
		iters[i]=$((FLOW_BYTES[i] / SIZE))
		in_ns "s$i" uetctl dev set "lus$i" cc "$cc" link-mbps "$RATE" \
			"${NSCC[@]}" ra-floor-mbps "$floor" ||
			return 1
		if [ -n "$LOSS" ]; then
			in_ns "s$i" tc qdisc add dev eth0 root netem loss "$LOSS" ||
				return 1
		fi
		in_ns r timeout 300 ib_send_bw -d lur -x "$gr" -p $((PORT0 + i)) \
			-e -F -s $SIZE -n "${iters[i]}" >"$OUT/server$i.log" 2>&1 &
	done
	sleep 1
	rm -f "$OUT"/held*
	for i in $(seq "$n"); do
		gs=$(wait_gid "lus$i" "$NET.$i.1") || return 1
		(
			in_ns "s$i" env LD_PRELOAD="$d/lab_hold.so" \
				UET_LAB_HOLD="$OUT/held$i" timeout 300 ib_send_bw \
				-d "lus$i" -x "$gs" -p $((PORT0 + i)) -e -F -s $SIZE \
				-n "${iters[i]}" "$RX" >"$OUT/client$i.log" 2>&1
			rc=$?
			now
			echo "$rc $NOW" >"$OUT/done$i"
		) &
	done
	if [ -n "$ADVICE" ]; then
		[ "$TARGET_US" = 0 ] || q=(-q "$QDEV" -d "$TARGET_US")
		# not through in_ns(): $! must be the advisor's own pid
		ip netns exec "lab-$QNS" "$d/uet_advisor" -i any -r "$ADVICE" -f \
			"${q[@]}" -e 20 -l 500 -t 600 >"$OUT/advisor.log" 2>&1 &
		adv=$!
	fi
	PIDS=()
	STARTS=()
	hold_all "$n" || failed=1
	now
	T0=$NOW
	SAMPLES=
	while :; do
		release
		alive=0
		for ((i = 1; i <= n; i++)); do
			[ -e "$OUT/done$i" ] || alive=1
		done
		sample "$n" $k
		k=$((k + 1))
		[ $alive = 1 ] || break
		sleep "$PERIOD"
		now
	done
	if [ -n "$adv" ]; then
		kill "$adv"
		wait "$adv"
		sed 's/^/# /' "$OUT/advisor.log"
		advised=$(sed -n 's/.*advised \([0-9]*\).*/\1/p' "$OUT/advisor.log")
	fi
	wait
	for i in $(seq "$n"); do
		read -r rc t1 <"$OUT/done$i"
		bw=$(awk '$1 == '$SIZE' && NF >= 5 { print $4 }' "$OUT/client$i.log" |
		     tail -n 1)
		if [ "$rc" != 0 ]; then
			sed 's/^/# client: /' "$OUT/client$i.log"
			failed=1
		fi
		flows="$flows${flows:+,}$(printf '{"rc":%d,"bytes":%d,"start_ms":%d,"end_ms":%d,"bw_MBps":%s,"timeouts":%d,"retransmits":%d,"cc_decreases":%d,"ecn_echoes":%d,"credit_stalls":%d,"credit_asks":%d,"credit_unused":%d}' \
			"$rc" $((iters[i] * SIZE)) "${STARTS[i]:-0}" $((t1 - T0)) "${bw:-0}" \
			"$(lab_counter "lus$i" timeouts)" \
			"$(lab_counter "lus$i" retransmits)" \
			"$(lab_counter "lus$i" cc_decreases)" \
			"$(lab_counter "lus$i" ecn_echoes)" \
			"$(lab_counter "lus$i" cc_credit_stalls)" \
			"$(lab_counter "lus$i" cc_credit_requests)" \
			"$(lab_counter "lus$i" cc_credit_unused)")"
	done
	red=$(in_ns "$QNS" tc -s qdisc show dev "$QDEV" | awk '
		/qdisc red/ { red = 1 } red && /dropped/ { for (i = 1; i <= NF; i++) if ($i == "(dropped") d = $(i + 1) + 0 }
		red && /marked/ { for (i = 1; i <= NF; i++) if ($i == "marked") m = $(i + 1) + 0 }
		END { printf "\"drops\":%d,\"marked\":%d", d, m }')
	red="$red,\"credit_granted\":$(lab_counter lur cc_credit_granted)"
	topo="\"topology\":\"$TOPO\""
	[ "$TOPO" = incast ] ||
		topo="$topo,\"spines\":$SPINES,\"pinned\":${PIN:-0},\"wan_delay_us\":$([ -n "${WAN:-}" ] && echo "$WAN_DELAY_US" || echo 0),\"wan_loss\":\"${WAN:+$WAN_LOSS}\""
	printf 'UET-LAB {"scenario":"%s","n":%d,"cc":"%s","rate_mbit":%d,"delay_us":%d,"base_us":%d,"red_min":%d,"size":%d,"sample_ms":%d,"advice_mbit":%d,"advice_target_us":%d,"advised":%d,"loss":"%s",%s,%s,"flows":[%s],"samples":[%s]}\n' \
		"$what" "$n" "$cc" "$RATE" "$DELAY_US" "$BASE_US" "$MIN" $SIZE "$SAMPLE_MS" \
		"${ADVICE:-0}" "$TARGET_US" "${advised:-0}" "$LOSS" "$topo" "$red" "$flows" "$SAMPLES"
	lab_down || failed=1
	return $failed
}

incast() {
	local n cc i rc=0
	mkdir -p "$OUT"
	for n in $NS; do
		for i in $(seq "$n"); do
			FLOW_BYTES[i]=$BYTES
			FLOW_DELAY[i]=0
		done
		for cc in $CCS; do
			rm -f "$OUT"/done*
			echo "# incast $n:1, cc $cc"
			run incast "$n" "$cc" || rc=1
		done
	done
	return $rc
}

# A flow joins a running one and leaves before it ends: sender 1 sends
# 3 BYTES, sender 2 joins JOIN_MS later with BYTES
join() {
	local cc rc=0
	mkdir -p "$OUT"
	FLOW_BYTES=([1]=$((3 * BYTES)) [2]=$BYTES)
	FLOW_DELAY=([1]=0 [2]=$JOIN_MS)
	for cc in $CCS; do
		rm -f "$OUT"/done*
		echo "# a flow joins and leaves, cc $cc"
		run join 2 "$cc" || rc=1
	done
	return $rc
}

# Rate advice, without and with each of ADVICE_MODES, ADVICE_REPEAT times
# each, with NSCC; the element shares the bottleneck's rate among the
# flows it sees (the senders count what the wire carries: that fills it,
# no more), or ("queue") shares less while the bottleneck's queue holds
# more than ADVICE_TARGET_US.
# Inside a data centre: the incast of ADVICE_N senders (the element on
# the switch), and two flows of one pod to another that an ECMP collision
# puts on one uplink (the element on their leaf).  Across data centres:
# one flow between two pods over a WAN link of WAN_DELAY_US and WAN_LOSS
# (the element on the sending pod's edge leaf), with NSCC told the WAN's
# base RTT, and measuring its own.
advice() {
	local rc=0 i a k b m base=$BASE_US
	local -a nscc=("${NSCC[@]}")
	mkdir -p "$OUT"
	for i in $(seq "$ADVICE_N"); do
		FLOW_BYTES[i]=$BYTES
		FLOW_DELAY[i]=0
	done
	for k in $(seq "$ADVICE_REPEAT"); do
		for m in none $ADVICE_MODES; do
			ADVICE=$RATE TARGET_US=0
			case $m in
			none) ADVICE= a=none ;;
			share) a=$RATE ;;
			queue) TARGET_US=$ADVICE_TARGET_US a="$RATE, queue $TARGET_US us" ;;
			*) echo "# no advice mode $m"; return 1 ;;
			esac
			rm -f "$OUT"/done*
			echo "# rate advice inside a data centre, an incast, $a ($k)"
			run ra-dc "$ADVICE_N" nscc || rc=1
			rm -f "$OUT"/done*
			echo "# rate advice inside a data centre, a collision, $a ($k)"
			TOPO=pods QNS=l1 QDEV=u1 PIN=1 SPINES=2 \
				run ra-collision 2 nscc || rc=1
			for b in $((WAN_DELAY_US + base)) 0; do
				BASE_US=$b
				NSCC=("${nscc[@]}" cc-base-rtt-us "$b")
				rm -f "$OUT"/done*
				echo "# rate advice across data centres, base $b us, $a ($k)"
				TOPO=pods QNS=l1 QDEV=u1 WAN=1 SPINES=1 \
					run ra-wan 1 nscc || rc=1
			done
			BASE_US=$base NSCC=("${nscc[@]}")
		done
	done
	ADVICE= TARGET_US=0
	return $rc
}

# sent SWITCH-NS DEV: the bytes DEV's qdisc sent
sent() {
	in_ns "$1" tc -s qdisc show dev "$2" |
		sed -n 's/^ *Sent \([0-9]*\) bytes.*/\1/p' | head -n 1
}

# A permutation across Topology A: host j of leaf 1 writes BYTES to host
# j of leaf 2, every j at once.  A single-path flow takes one path (its
# PDC's entropy), so the spines' uplinks carry what the hash gave them; a
# sprayed one spreads its requests over LB_PATHS entropies.  Per flow its
# rate, retransmissions and timeouts, and the requests its receiver took
# out of order; per uplink of leaf 1 what it carried.
permutation() {
	# shellcheck disable=SC2086
	runs permutation "" $LBS
}

# runs SCENARIO FAIL_MS LB...: a run of permute per congestion control
# and load balancing
runs() {
	local what=$1 fail=$2 cc lb rc=0
	shift 2
	for cc in $CCS; do
		for lb in "$@"; do
			permute "$cc" "$lb" "$fail" "$what" || rc=1
		done
	done
	return $rc
}

# One flow over SPREAD_SPINES spines: host 1 of leaf 1 writes BYTES to
# host 1 of leaf 2, on one path (one spine's uplink), then sprayed over
# them all: what spraying makes of the uplinks against one.
spread() {
	local HOSTS=1 SPINES=$SPREAD_SPINES
	# the host's link as fast as all the uplinks (its window and its
	# receiver's pace follow it)
	local HOST_MBPS=$((RATE * SPREAD_SPINES))
	# shellcheck disable=SC2086
	runs spread "" single $SPREAD_LBS
}

# The collision of ../shared/seeds/uet-packet-walkthrough-blog.txt: two
# hosts of leaf 1 write to two of leaf 2 over two spines, and leaf 1's
# hash takes the same uplink for both single-path flows (pinned here, by
# a route through spine 1 alone, where a hash does it by chance); then
# the same flows sprayed, over both spines as the hash spreads them.
collision() {
	local HOSTS=2 SPINES=2
	# shellcheck disable=SC2086
	runs collision "" single $SPREAD_LBS
}

# The failover: the permutation again, but spine 1 fails FAIL_MS into
# it, silently (a black hole: its links stay up, the leaves go on hashing
# onto it).  What the receivers delivered is sampled every FAIL_SAMPLE_MS; a
# flow must finish all the same (a single-path flow hashed onto the
# failed spine has no other path: it fails).
failover() {
	# shellcheck disable=SC2086
	runs failover "$FAIL_MS" $FAIL_LBS
}

# spine_fail S: spine S drops all it would forward, towards every leaf
# (one tc, one process: under TCG each takes a sample period to start)
spine_fail() {
	local l
	for l in $(seq "$LEAVES"); do
		echo "qdisc replace dev d$l root netem loss 100%"
	done | in_ns "p$1" tc -batch -
}

# delivered_all: DL, the requests the target PDCs of leaf 2's hosts
# delivered, all together
delivered_all() {
	local -a f
	local j
	DL=0
	for ((j = 1; j <= HOSTS; j++)); do
		while read -r -a f; do
			[ "${f[2]}" = tgt ] && DL=$((DL + f[12]))
		done <"/sys/kernel/debug/uet/luh2x$j/pdcs"
	done
}

# permute CC LB [FAIL_MS [SCENARIO]]: one permutation run; with FAIL_MS,
# the failover's.  The hosts' devices are told their links run at
# HOST_MBPS (RATE: a host's link as fast as an uplink).
permute() {
	local cc=$1 lb=$2 fail=${3:-} j gs gr up bw rc=0 flows ups s frc t0 t1
	local count=$((BYTES / SIZE)) alive failed_at='' samples='' start period
	local what=${4:-permutation}
	[ -z "$fail" ] || what=failover
	mkdir -p "$OUT"
	echo "# a permutation across $LEAVES leaves and $SPINES spines, $HOSTS hosts each, cc $cc, lb $lb"
	lab_down && leafspine_up || return 1
	if [ "$what" = collision ] && [ "$lb" = single ]; then
		# leaf 1 to leaf 2 through its uplink u1 alone
		in_ns l1 ip route replace "$NET.32.0/20" \
			via "$NET.$((128 + 8 * 1 + 1)).2" ||
			return 1
	fi
	for j in $(seq "$HOSTS"); do
		in_ns "h1x$j" uetctl dev set "luh1x$j" cc "$cc" \
			lb "$lb" lb-paths "$LB_PATHS" \
			link-mbps "$HOST_MBPS" "${NSCC[@]}" "${RTO[@]}" &&
		in_ns "h2x$j" uetctl dev set "luh2x$j" link-mbps "$HOST_MBPS" &&
		gr=$(wait_gid "luh2x$j" "$NET.$((32 + j)).1") || rc=1
		in_ns "h2x$j" timeout 300 ib_send_bw -d "luh2x$j" -x "$gr" \
			-p $((PORT0 + j)) -e -F -s $SIZE -n $count \
			>"$OUT/server$j.log" 2>&1 &
	done
	sleep 1
	rm -f "$OUT"/done*
	for j in $(seq "$HOSTS"); do
		gs=$(wait_gid "luh1x$j" "$NET.$((16 + j)).1") || rc=1
		(
			now
			t0=$NOW
			in_ns "h1x$j" timeout 300 ib_send_bw -d "luh1x$j" \
				-x "$gs" -p $((PORT0 + j)) -e -F -s $SIZE \
				-n $count "$NET.$((32 + j)).1" \
				>"$OUT/client$j.log" 2>&1
			rc=$?
			now
			echo "$rc $t0 $NOW" >"$OUT/done$j"
		) &
	done
	now
	start=$NOW
	# what the receivers delivered, every sample period (the failover's
	# finer), to time the flows on the wire: from the first delivery to
	# the last
	period=$PERIOD
	[ -z "$fail" ] || period=$FAIL_PERIOD
	while [ "$what" != permutation ]; do
		alive=0
		for ((j = 1; j <= HOSTS; j++)); do
			[ -e "$OUT/done$j" ] || alive=1
		done
		now
		delivered_all
		samples="$samples${samples:+,}{\"t_ms\":$((NOW - start)),\"delivered\":$DL}"
		# the last sample after every flow is done
		[ $alive = 1 ] || break
		if [ -n "$fail" ] && [ -z "$failed_at" ] &&
		   [ $((NOW - start)) -ge "$fail" ]; then
			spine_fail 1 || rc=1
			now
			failed_at=$((NOW - start))
		fi
		nap "$period"
	done
	wait
	flows=
	for j in $(seq "$HOSTS"); do
		# the rate from the flow's own time: perftest's average
		# read 0.00 for some flows that stalled on credit
		read -r frc t0 t1 <"$OUT/done$j"
		[ "$frc" = 0 ] || { sed 's/^/# client: /' "$OUT/client$j.log"; rc=1; }
		bw=$(awk -v b="$BYTES" -v ms=$((t1 - t0)) \
			'BEGIN { printf "%.2f", ms ? b / 1048576 / (ms / 1000) : 0 }')
		flows="$flows${flows:+,}{\"bw_MBps\":$bw,\"timeouts\":$(lab_counter "luh1x$j" timeouts),\"retransmits\":$(lab_counter "luh1x$j" retransmits),\"needless\":$(lab_counter "luh1x$j" retransmits_needless),\"tail_probes\":$(lab_counter "luh1x$j" tail_probes),\"packets\":$(lab_counter "luh1x$j" tx_packets),\"out_of_order\":$(lab_counter "luh2x$j" out_of_order),\"duplicates\":$(lab_counter "luh2x$j" duplicates),\"answers\":$(lab_counter "luh2x$j" tx_packets)}"
	done
	ups=
	for s in $(seq "$SPINES"); do
		up=$(sent l1 "u$s")
		ups="$ups${ups:+,}${up:-0}"
	done
	printf 'UET-LAB {"scenario":"%s","leaves":%d,"spines":%d,"hosts":%d,"cc":"%s","lb":"%s","lb_paths":%d,"rate_mbit":%d,"base_us":%d,"bytes":%d,"flows":[%s],"uplink_bytes":[%s]%s}\n' \
		"$what" "$LEAVES" "$SPINES" \
		"$HOSTS" "$cc" "$lb" "$LB_PATHS" "$RATE" "$BASE_US" "$BYTES" "$flows" "$ups" \
		"${fail:+,\"fail_ms\":${failed_at:-0}}${samples:+,\"samples\":[$samples]}"
	lab_down || rc=1
	return $rc
}

trap 'lab_down' EXIT
ktap_print_header
ktap_set_plan 8
ktap_test_result "setup" modprobe uet
echo "# the senders' NSCC parameters: ${NSCC[*]}"
# part WORD NAME: the part of the lab NAME if UET_LAB_PARTS has WORD
part() {
	if grep -qw "$1" <<<"$PARTS"; then
		ktap_test_result "$2" "$1"
	else
		ktap_test_skip "$2: not in UET_LAB_PARTS"
	fi
}
part incast "incast through one ECN-marking bottleneck"
part join "a flow joins and leaves"
part permutation "a permutation across a leaf-spine fabric"
part spread "one flow over one spine, and sprayed over all"
part collision "two flows collide on one uplink, and sprayed"
part failover "a spine fails under a sprayed permutation"
part advice "rate advice inside a data centre and across a WAN"
ktap_finished
