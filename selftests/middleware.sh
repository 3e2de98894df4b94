#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# The middleware people run, over uet between the two VMs of the pair
# topology (pair_link.sh draws it), as Debian packages them and without a
# change: libfabric's verbs provider (msg endpoints, and rdm ones through
# ofi_rxm), UCX's rc_verbs and ud_verbs transports, and an Open MPI job
# across both VMs, started over ssh the way a cluster starts one, on UCX
# and on libfabric.  VM a serves and launches, VM b connects; every run is
# short, and each must move uet's own counters, not TCP's.
. "$(dirname "$0")/lib.sh"

case ${UET_ROLE:-} in
a) me=1 peer=2 ;;
b) me=2 peer=1 ;;
*) ktap_print_header; ktap_skip_all "needs UET_ROLE=a or b (pair topology)"; exit "$KSFT_SKIP" ;;
esac
peer_ip=$UET_NET4.$peer
log=/tmp/middleware.log

# uet0 on the link, sshd for mpirun, the two hosts' names.  The link is
# pair_link.sh's when it ran before in this VM, and is set up here if not.
setup() {
	ip link set eth0 up &&
	{ ip -4 addr show dev eth0 | grep -q "$UET_NET4.$me/" ||
	  ip addr add "$UET_NET4.$me/24" dev eth0; } || return 1
	local i
	for i in $(seq 60); do
		ping -c 1 -W 1 "$peer_ip" >/dev/null && break
	done
	modprobe crc32_generic && modprobe uet &&
	run rdma link add uet0 type uet netdev eth0 || return 1
	mpi_hosts_up "$peer_ip"
}

# fi_info names uet0 with the endpoint types the tools below use
fi_info_lists() {
	run fi_info -p verbs -d uet0 -t FI_EP_MSG >$log 2>&1 &&
	grep -q 'domain: uet0$' $log &&
	run fi_info -p 'verbs;ofi_rxm' -d uet0 -t FI_EP_RDM >$log 2>&1 &&
	grep -q 'protocol: FI_PROTO_RXM' $log && return 0
	sed 's/^/# /' $log
	return 1
}

ucx_info_lists() {
	run ucx_info -d >$log 2>&1 || { sed 's/^/# /' $log; return 1; }
	awk '/Transport:/ { t = $3 } /Device:/ && $3 == "uet0:1" { print t }' $log |
		sort | tr '\n' ' ' | tee /dev/stderr | grep -q '^rc_verbs ud_verbs $'
}

# uet0's bytes received and sent: either is the data of a run, as this VM
# receives or sends it
moved() { echo $(($(counter uet0 rx_bytes) + $(counter uet0 tx_bytes))); }

# both MIN_BYTES CMD...: CMD serving on VM a, and as its client on VM b
# (the server's address last, retried until the server listens); uet0
# must move MIN_BYTES or more meanwhile.  The output is left in $log.
both() {
	local min=$1 rx i rc=1
	shift
	rx=$(moved)
	if [ "$me" = 1 ]; then
		run timeout 180 "$@" >$log 2>&1 && rc=0
	else
		echo "# + $* $peer_ip"
		for i in $(seq 60); do
			timeout 180 "$@" "$peer_ip" >$log 2>&1 && { rc=0; break; }
			grep -qiE 'refused|connect\(\) failed' $log || break
			sleep 1
		done
	fi
	rx=$(($(moved) - rx))
	echo "# uet0 rx_bytes + tx_bytes: +$rx (want $min or more)"
	[ $rc = 0 ] && [ "$rx" -ge "$min" ] && return 0
	sed 's/^/# /' $log
	return 1
}

# fi_pingpong EP_TYPE PROVIDER: 50 round trips of 4 KiB, each checked (-c)
# by the side that receives it
fi_pingpong_over() {
	both $((50 * 4096)) fi_pingpong -p "$2" -e "$1" -d uet0 -c -I 50 -S 4096 || return 1
	grep -E '^(bytes|4k) ' $log | sed 's/^/# /'
}

# ucx TLS TEST SIZE ITERS: ucx_perftest over uet0's TLS transport only
# (rc_v: rc_verbs, with ud_verbs only to wire it up; ud_v: ud_verbs)
ucx() {
	both $(($4 * $3)) env UCX_NET_DEVICES=uet0:1 UCX_TLS="$1" \
		ucx_perftest -t "$2" -s "$3" -n "$4" || return 1
	grep -E '^Final:' $log | sed "s/^/# $1 $2 $3 B: /"
}

# mpi NAME MPIRUN_ARGS...: mpi_bench's two ranks, one per VM, each byte
# and sum checked by the ranks; uet0 must carry the ping-pong's data
mpi() {
	local name=$1 rc=0 rx
	shift
	rx=$(moved)
	mpi_pair "$name" "$peer_ip" $log "$@" "$UET_SELFTESTS/uet/mpi_bench" \
		-n 5 -m 262144 -a 4096 || rc=1
	if [ "$me" = 1 ]; then
		sed 's/^/# /' $log
		grep -q '^allreduce 4096 5 .* ok$' $log || rc=1
	fi
	rx=$(($(moved) - rx))
	# the ping-pong alone moves 5 messages of each size each way
	echo "# uet0 rx_bytes + tx_bytes: +$rx"
	[ "$rc" = 0 ] && [ "$rx" -ge $((2 * 5 * 262144)) ]
}

teardown() {
	mpi_hosts_down
	rdma link del uet0 && modprobe -r uet
}

ktap_print_header
ktap_set_plan 16
ktap_test_result "uet0 on the link, sshd" setup
ktap_test_result "fi_info lists uet0 (verbs msg, verbs;ofi_rxm rdm)" fi_info_lists
ktap_test_result "fi_pingpong over verbs, msg endpoints, checked" \
	fi_pingpong_over msg verbs
ktap_test_result "fi_pingpong over verbs;ofi_rxm, rdm endpoints, checked" \
	fi_pingpong_over rdm 'verbs;ofi_rxm'
ktap_test_result "ucx_info lists uet0:1 (rc_verbs, ud_verbs)" ucx_info_lists
for tls in rc_v ud_v; do
	ktap_test_result "ucx_perftest tag_lat over $tls" ucx $tls tag_lat 8 50
	ktap_test_result "ucx_perftest tag_bw over $tls" ucx $tls tag_bw 65536 100
	ktap_test_result "ucx_perftest ucp_put_lat over $tls" ucx $tls ucp_put_lat 8 50
	ktap_test_result "ucx_perftest ucp_put_bw over $tls" ucx $tls ucp_put_bw 65536 100
done
ktap_test_result "Open MPI over UCX (rc_verbs) across the VMs" \
	mpi ucx --mca pml ucx --mca pml_ucx_devices any \
	-x UCX_NET_DEVICES=uet0:1 -x UCX_TLS=rc_v,self
ktap_test_result "Open MPI over libfabric (verbs;ofi_rxm) across the VMs" \
	mpi ofi --mca pml cm --mca mtl ofi \
	--mca mtl_ofi_provider_include 'verbs;ofi_rxm' -x FI_VERBS_IFACE=eth0
ktap_test_result "devices removed, module unloaded" teardown
ktap_finished
