# SPDX-License-Identifier: GPL-2.0
#
# Helpers for the uet shell selftests: KTAP output (from the kernel's
# kselftest/ktap_helpers.sh), namespaces and the checks tests repeat.
# Sourced, not run.

# shellcheck disable=SC1091
. "$(dirname "$0")/../kselftest/ktap_helpers.sh"

# ktap_test_result DESCRIPTION CMD...: as the kernel's, and it says how
# long CMD took, so that a run's log shows where the time goes.
ktap_test_result() {
	local description=$1 t=$SECONDS ok=1
	shift

	"$@" || ok=0
	echo "# $((SECONDS - t)) s"
	if [ $ok = 1 ]; then
		ktap_test_pass "$description"
	else
		ktap_test_fail "$description"
	fi
}

# stock_only DESCRIPTION CMD...: ktap_test_result on the stock kernel; on
# the debug kernel a skip, for a test that takes no kernel path another
# test of the debug run does not (its minutes are the check's budget:
# selftests/check.sh)
stock_only() {
	if [ -n "${UET_SLOW:-}" ]; then
		ktap_test_skip "$1: stock kernel only"
	else
		ktap_test_result "$@"
	fi
}

# Addresses of the test fabric: the benchmarking range of RFC 2544 and the
# IPv6 documentation prefix, so nothing here resembles a real network.
UET_NET4=198.18.0
UET_NET6=2001:db8:4793

NS_A=uet-a
NS_B=uet-b

# gid_index DEV HOST [TYPE]: the index of DEV's GID for $UET_NET4.HOST
# (IPv4-mapped), of GID type TYPE (e.g. "RoCE v2") if given.
gid_index() {
	local f i want o1 o2 o3
	IFS=. read -r o1 o2 o3 <<<"$UET_NET4"
	want=$(printf '0000:0000:0000:0000:0000:ffff:%02x%02x:%02x%02x' \
		"$o1" "$o2" "$o3" "$2")
	for f in /sys/class/infiniband/"$1"/ports/1/gids/*; do
		i=$(basename "$f")
		[ "$(cat "$f")" = "$want" ] || continue
		[ -z "${3:-}" ] ||
			[ "$(cat /sys/class/infiniband/"$1"/ports/1/gid_attrs/types/"$i")" = "$3" ] ||
			continue
		echo "$i"
		return 0
	done
	return 1
}

# scaled N SLOW: N, or SLOW on a debug kernel (UET_SLOW, set by vm/init)
scaled() {
	if [ -n "${UET_SLOW:-}" ]; then echo "$2"; else echo "$1"; fi
}

# Milliseconds since boot (the guest's date has no %N), to 10 ms.
uptime_ms() {
	awk '{ printf "%d\n", $1 * 1000 }' /proc/uptime
}

# Print and run a command, the way the kernel's network selftests do.
run() {
	echo "# + $*"
	"$@"
}

# testmod_load LOG MOD [PARAM...]: one load of a test-only module, which
# runs its cases as it loads; the kernel log lines it printed in LOG and
# shown.  Unloaded after (modprobe -r would unload uet too).
testmod_load() {
	local log=$1 mod=$2 rc n
	shift 2
	n=$(dmesg | wc -l)
	run modprobe "$mod" "$@"
	rc=$?
	dmesg | tail -n +$((n + 1)) | grep "$mod:" >"$log"
	sed 's/^/# /' "$log"
	rmmod "$mod" 2>/dev/null
	return $rc
}

# report RC CLIENT-LOG SERVER-LOG: after a client/server run, its result
# lines (perftest's figures, the ping-pongs' "bytes in") when RC is 0,
# else everything both ends printed.
report() {
	if [ "$1" = 0 ]; then
		grep -E '^ +[0-9]|bytes in' "$2" | sed 's/^/# /'
	else
		sed 's/^/# client: /' "$2"
		sed 's/^/# server: /' "$3"
	fi
}

# fabric_up: two namespaces joined by a veth pair, IPv4 and IPv6.
#
#   +---------- uet-a ----------+        +---------- uet-b ----------+
#   | veth0 198.18.0.1/24       |--------| veth0 198.18.0.2/24       |
#   |       2001:db8:4793::1/64 |        |       2001:db8:4793::2/64 |
#   +---------------------------+        +---------------------------+
fabric_up() {
	ip netns add "$NS_A" && ip netns add "$NS_B" || return 1
	ip link add veth0 netns "$NS_A" type veth peer name veth0 netns "$NS_B" ||
		return 1
	local ns i=1
	for ns in "$NS_A" "$NS_B"; do
		ip -n "$ns" link set lo up
		ip -n "$ns" addr add "$UET_NET4.$i/24" dev veth0
		ip -n "$ns" addr add "$UET_NET6::$i/64" dev veth0 nodad
		ip -n "$ns" link set veth0 up
		i=$((i + 1))
	done
}

fabric_down() {
	ip netns del "$NS_A" 2>/dev/null
	ip netns del "$NS_B" 2>/dev/null
	true
}

# expect_fail WANT_REGEX CMD...: CMD must fail and say something matching
# WANT_REGEX on stderr or stdout.
expect_fail() {
	local want=$1 out rc
	shift
	out=$("$@" 2>&1)
	rc=$?
	echo "# + $* -> rc=$rc: $out"
	[ $rc -ne 0 ] && grep -qiE -- "$want" <<<"$out"
}

# uet_devs: names of the RDMA devices whose node description is uet's.
uet_devs() {
	local d
	for d in /sys/class/infiniband/*; do
		[ -e "$d/node_desc" ] && [ "$(cat "$d/node_desc")" = uet ] &&
			basename "$d"
	done
}

# wait_no_uet_devs: every uet device is gone within 5 s
wait_no_uet_devs() {
	local i
	for i in $(seq 50); do
		[ -z "$(uet_devs)" ] && return 0
		sleep 0.1
	done
	echo "# left: $(uet_devs)"
	return 1
}

# craft NS ADDR HEX: one UDP datagram of hex digits HEX to ADDR's port
# 4793, sent from namespace NS (the kernel picks the source address).
# Through a file that dd reads whole and writes at once: bash writes
# its printf's output line by line, and a newline byte would split the
# datagram.
craft() {
	local f rc
	f=$(mktemp) || return 1
	printf %b "${3//??/\\x&}" >"$f"
	ip netns exec "$1" bash -c "dd if='$f' bs=4096 2>/dev/null >/dev/udp/$2/4793"
	rc=$?
	rm -f "$f"
	return $rc
}

# dev_counters DEV: all hw counters of DEV's port, "name value" a line.
# "rdma statistic" prints "link DEV/1" and then the pairs, words apart;
# parsed in the shell: on the debug kernel each program started costs
# some 300 ms, and the tests read counters often.
dev_counters() {
	local w n='' i=0

	for w in $(rdma statistic show link "$1/1"); do
		i=$((i + 1))
		[ $i -le 2 ] && continue
		if [ $((i % 2)) -eq 1 ]; then n=$w; else echo "$n $w"; fi
	done
}

# counter DEV NAME: one hw counter of DEV's port, as "rdma statistic" shows
counter() {
	local n v

	while read -r n v; do
		[ "$n" = "$2" ] && { echo "$v"; return; }
	done < <(dev_counters "$1")
}

# tcpdump_start NS PCAP FILTER...: capture on NS's veth0 into PCAP in the
# background, until tcpdump_stop; returns once tcpdump listens, which it
# says on stderr after its filter is on the socket.  --immediate-mode:
# otherwise the packet ring hands tcpdump its packets a block at a time,
# at the latest a second after the first, and a capture stopped sooner
# after a short transfer wrote none of them ("52 packets received by
# filter", "0 packets captured").  That mode's ring has a slot per packet,
# each as large as the snapshot length (tcpdump's 256 KiB by default: 8
# slots in its 2 MiB, and a burst of 64 KiB messages lost 77 of 188
# requests): 64 KiB, a GSO batch's most, in 32 MiB.  Not through a
# function like A(): $! must be tcpdump's own pid.  -Z root: the guest has
# no tcpdump user to drop privileges to.
tcpdump_start() {
	local ns=$1 pcap=$2 i
	shift 2
	ip netns exec "$ns" tcpdump -Z root -i veth0 --immediate-mode \
		-s 65535 -B 32768 -U -w "$pcap" "$@" \
		2>/tmp/tcpdump.err &
	tcpdump_pid=$!
	for i in $(seq 300); do
		grep -q 'listening on' /tmp/tcpdump.err && return 0
		kill -0 "$tcpdump_pid" 2>/dev/null || break
		sleep 0.1
	done
	echo "# tcpdump is not listening after ${i}00 ms:"
	sed 's/^/# /' /tmp/tcpdump.err
	kill "$tcpdump_pid" 2>/dev/null
	wait "$tcpdump_pid"
	return 1
}

# tcpdump_captured: "N C": tcpdump has said N times how many packets it
# has written (on SIGUSR1: "tcpdump: 1 packet captured, 6 packets
# received by filter, ..."), the last time C
tcpdump_captured() {
	grep -oE '[0-9]+ packets? captured' /tmp/tcpdump.err |
		awk '{ c = $1 } END { print NR, c + 0 }'
}

# tcpdump_stop: once tcpdump's count of packets written stands still
# between two of its answers, for 2 s at most (what is still queued on
# its socket at SIGTERM is lost: a busy guest once lost 124 of 188; a
# PDC retransmitting meanwhile keeps the count moving, and a longer
# capture held its peer's address away longer, see tss.sh's
# fragmented), SIGTERM (a background job of a script ignores SIGINT)
tcpdump_stop() {
	local n c said=0 last=-1 end=$((SECONDS + 2))
	while [ "$SECONDS" -le "$end" ]; do
		kill -USR1 "$tcpdump_pid" 2>/dev/null || break
		sleep 0.2
		read -r n c < <(tcpdump_captured)
		[ "$n" -gt "$said" ] || continue
		[ "$c" = "$last" ] && break
		said=$n last=$c
	done
	kill -TERM "$tcpdump_pid"
	wait "$tcpdump_pid"
}

# json_get FILTER CMD...: jq FILTER over CMD's JSON output
json_get() {
	local filter=$1 out
	shift
	out=$("$@") || return 1
	jq -r "$filter" <<<"$out"
}

# expect_rc RC WANT_REGEX CMD...: CMD exits with RC and says WANT_REGEX
expect_rc() {
	local rc=$1 want=$2 out got
	shift 2
	out=$("$@" 2>&1)
	got=$?
	echo "# + $* -> rc=$got: $out"
	[ "$got" -eq "$rc" ] && grep -qiE -- "$want" <<<"$out"
}

# expect_delta DEV NAME BEFORE DELTA: counter NAME moved by exactly DELTA
expect_delta() {
	local now
	now=$(counter "$1" "$2")
	echo "# $1 $2: $3 -> $now (want +$4)"
	[ "$now" -eq $(($3 + $4)) ]
}

# wait_delta DEV NAME BEFORE DELTA SECONDS: expect_delta, once counter NAME
# has moved by DELTA or SECONDS have passed, whichever comes first (by the
# clock: on the debug kernel one reading of the counters takes a second)
wait_delta() {
	local end=$((SECONDS + $5))
	while [ "$(counter "$1" "$2")" -lt $(($3 + $4)) ] && [ $SECONDS -lt $end ]; do
		sleep 0.1
	done
	expect_delta "$1" "$2" "$3" "$4"
}

# meminfo KEY [FILE]: a field of /proc/meminfo, or of FILE (a copy), in kB
meminfo() { awk -v k="$1:" '$1 == k { print $2 }' "${2:-/proc/meminfo}"; }

# mem_snapshot FILE: a copy of /proc/meminfo in FILE, taken once caches
# are dropped and RCU has run: memory as the kernel holds it.
mem_snapshot() {
	sync
	echo 3 >/proc/sys/vm/drop_caches
	sleep 1
	cp /proc/meminfo "$1"
}

# mem_flat BEFORE AFTER SLAB AVAIL: from snapshot BEFORE to AFTER,
# unreclaimable slab grew by at most SLAB kB and available memory shrank
# by at most AVAIL kB.  Fields that moved by more than 256 kB are printed.
mem_flat() {
	local slab0 slab avail0 avail
	slab0=$(meminfo SUnreclaim "$1") slab=$(meminfo SUnreclaim "$2")
	avail0=$(meminfo MemAvailable "$1") avail=$(meminfo MemAvailable "$2")
	echo "# SUnreclaim $slab0 -> $slab kB, MemAvailable $avail0 -> $avail kB"
	awk 'NR == FNR { b[$1] = $2; next }
	     $2 - b[$1] > 256 || b[$1] - $2 > 256 { printf "# %s %+d kB\n", $1, $2 - b[$1] }' \
		"$1" "$2"
	[ "$slab" -le $((slab0 + $3)) ] && [ "$avail" -ge $((avail0 - $4)) ]
}

# perf_report DATA KALLSYMS: where the busy time of a "perf record -a"
# went, by kernel or user function: idle is left out and each line is a
# share of the rest; then the same time by layer (uet, the kernel's
# network stack, copies, the rest).  Samples of "cp" are left out too
# (the copy of KALLSYMS, made while perf runs), and those of the engine
# test module (the load, not its cost).  perf finds no symbols for
# out-of-tree modules here, so their addresses are named from KALLSYMS
# (a copy of /proc/kallsyms taken while the modules were loaded).
perf_report() {
	command perf report -i "$1" --stdio --sort comm,sym --percent-limit 0 2>/dev/null |
		awk 'NR == FNR { if ($2 ~ /^[tT]$/ && $1 ~ /^ffffffff/) {
					a[n] = substr($1, 9); s[n] = $3 " " $4; n++ }
				 if ($4 != "") mod[$3] = $4
				 next }
		     /^#/ || NF < 4 || $2 == "cp" { next }
		     { p = $1; sub(/%/, "", p); sym = $4
		       if (match($0, /0x(00)?ffffff[0-9a-f]+/)) {
			h = substr($0, RSTART + RLENGTH - 8, 8); best = ""
			for (i = 0; i < n; i++)
				if (a[i] <= h && a[i] > best) { best = a[i]; b = s[i] }
			sym = best != "" ? b : substr($0, RSTART, RLENGTH)
		       } else if (sym in mod) {
			sym = sym " " mod[sym]
		       }
		       if (sym ~ /idle|safe_halt|cpuidle|mwait/) { idle += p; next }
		       if (sym ~ /\[uet_test_engine\]/) { gen += p; next }
		       busy += p; share[sym] += p
		       if (sym ~ /\[uet\]/) l = "uet"
		       else if (sym ~ /\[/) l = "other modules"
		       else if (sym ~ /copy|memcpy|memmove|csum/) l = "copies and checksums"
		       else if (sym ~ /^(udp|ip|ip6|__ip|__udp|__dev|dev_|net_|netif|napi|skb|__skb|kfree_skb|alloc_skb|__alloc_skb|sock|sk_|__sk|qdisc|__qdisc|pfifo|fq_codel|virtnet|virtqueue|validate_xmit|gro|inet|__netif|__napi|neigh|dst_|fib|rt_)/) l = "network stack"
		       else l = "the rest"
		       layer[l] += p }
		     END { if (busy <= 0) { print "# no busy samples"; exit }
			   if (gen > 0)
				printf "# the test module (filling and checking buffers) left out: %.1f%% of the samples\n", gen
			   printf "# busy %.1f%% of the samples; of the busy time:\n", busy
			   for (l in layer) printf "#   layer %5.1f%%  %s\n", 100 * layer[l] / busy, l | "sort -k3 -rn"
			   close("sort -k3 -rn")
			   for (f in share) if (100 * share[f] / busy >= 0.7)
				printf "#   %5.1f%%  %s\n", 100 * share[f] / busy, f | "sort -k2 -rn | head -n 40"
		     }' "$2" -
}

# mpi_hosts_up PEER_IP (pair topology, UET_ROLE a or b): the two VMs'
# names and an sshd, for mpirun to start its daemons on the other VM over
# ssh, as root with the key the image carries (vm/mkinitramfs.sh,
# UET_VM_MIDDLEWARE); returns once this VM reaches the other's sshd.
mpi_hosts_up() {
	local i
	printf '%s uet-vm-a\n%s uet-vm-b\n' "$UET_NET4.1" "$UET_NET4.2" >>/etc/hosts
	mkdir -p /run/sshd && chmod 755 /run/sshd
	ssh-keygen -q -t ed25519 -N '' -f /tmp/ssh_host_key &&
	/usr/sbin/sshd -f /dev/null -h /tmp/ssh_host_key -E /tmp/sshd.log \
		-o PidFile=/run/sshd.pid -o UsePAM=no \
		-o PermitRootLogin=prohibit-password || return 1
	for i in $(seq 60); do
		ssh "$1" true 2>/dev/null && return 0
		sleep 1
	done
	echo "# no ssh to $1"
	sed 's/^/# /' /tmp/sshd.log
	return 1
}

mpi_hosts_down() { kill "$(cat /run/sshd.pid)"; }

# mpi_pair NAME PEER_IP LOG MPIRUN_ARGS...: on VM a, an Open MPI job of
# two ranks, one per VM, its output in LOG, and its exit status left on
# VM b; VM b waits for that status (up to 400 s).  Returns the status.
mpi_pair() {
	local name=$1 peer_ip=$2 log=$3 rc i
	shift 3
	# Open MPI refuses root unless told twice; the VMs have no other user.
	if [ "$UET_ROLE" = a ]; then
		OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 \
			timeout 300 mpirun --host uet-vm-a,uet-vm-b -np 2 \
			--mca oob_tcp_if_include eth0 "$@" >"$log" 2>&1
		rc=$?
		ssh "$peer_ip" "echo $rc >/tmp/mpi-$name.rc"
		return $rc
	fi
	for i in $(seq 400); do
		[ -s "/tmp/mpi-$name.rc" ] && break
		sleep 1
	done
	rc=$(cat "/tmp/mpi-$name.rc" 2>/dev/null || echo 124)
	echo "# VM a's mpirun $name: exit $rc"
	return "$rc"
}

