#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# The UDP side of uet: each namespace with a uet device listens on port
# 4793 (IPv4 and IPv6), or the port its devices are set to, for as long
# as it has one; whatever arrives there is counted, and malformed input is
# a counted drop, never a crash.  And UET directly over IP (protocol 253),
# which a device may send and always takes.
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/engine_lib.sh"

dir=$(dirname "$0")

A() { ip netns exec "$NS_A" "$@"; }
B() { ip netns exec "$NS_B" "$@"; }

# RUD request, AR and SYN set (see selftests/unit/wire_test.c, rud_req_bytes)
RUD_REQ='\x11\x8c\xff\xfe\x00\x01\x20\x00\x40\x01\x80\x05'
# RUD request, AR set, no SYN, naming DPDCID 0xfff0, which uet0 never has
UNKNOWN_REQ='\x11\x88\x00\x00\x00\x02\x00\x00\x40\x02\xff\xf0'
# RUD_REQ from SPDCID 0x4003, its PSN 2,000 past the PDC's first (PSN
# offset 0x7d0): beyond the window of the PDC it makes
FAR_REQ='\x11\x8c\xff\xfe\x00\x01\x20\x00\x40\x03\x87\xd0'

send4() { B bash -c "printf '$1' >/dev/udp/$UET_NET4.1/4793"; }
send6() { B bash -c "printf '$1' >/dev/udp/$UET_NET6::1/4793"; }
listeners() { A ss -Hulpn 'sport = :4793' | wc -l; }

setup() {
	fabric_up && modprobe uet
}

port_follows_devices() {
	[ "$(listeners)" -eq 0 ] || return 1
	A rdma link add uet0 type uet netdev veth0 || return 1
	A ss -Hulpn 'sport = :4793' | sed 's/^/# /'
	[ "$(listeners)" -eq 2 ] || return 1
	[ "$(B ss -Hulpn 'sport = :4793' | wc -l)" -eq 0 ] || return 1
	A rdma link del uet0 || return 1
	[ "$(listeners)" -eq 0 ]
}

malformed_counted() {
	local rx mal
	A rdma link add uet0 type uet netdev veth0 || return 1
	B ping -c 1 -W 2 "$UET_NET4.1" >/dev/null || return 1
	rx=$(counter uet0 rx_packets) mal=$(counter uet0 drop_malformed)
	send4 '\x01\x02\x03' || return 1
	sleep 0.2
	expect_delta uet0 rx_packets "$rx" 1 && expect_delta uet0 drop_malformed "$mal" 1
}

# A SYN request creates the target's PDC; its SES header is missing.
valid_header_counted() {
	local rx bytes pdcs mal drops
	rx=$(counter uet0 rx_packets) bytes=$(counter uet0 rx_bytes)
	pdcs=$(counter uet0 pdcs_created) mal=$(counter uet0 drop_malformed)
	send4 "$RUD_REQ" || return 1
	sleep 0.2
	expect_delta uet0 rx_packets "$rx" 1 && expect_delta uet0 rx_bytes "$bytes" 12 &&
	expect_delta uet0 pdcs_created "$pdcs" 1 &&
	expect_delta uet0 drop_malformed "$mal" 1 || return 1
	# the same beyond the window: one drop, the header's, not two
	drops=$(all_drops)
	send4 "$FAR_REQ" || return 1
	sleep 0.2
	expect_delta uet0 rx_packets "$rx" 2 &&
	expect_delta uet0 pdcs_created "$pdcs" 2 &&
	expect_delta uet0 drop_malformed "$mal" 2 &&
	[ $(($(all_drops) - drops)) -eq 1 ]
}

# A SYN to the all-nodes multicast group creates no PDC: a counted drop.
multicast_dropped() {
	local rx pdcs d
	rx=$(counter uet0 rx_packets) pdcs=$(counter uet0 pdcs_created)
	d=$(counter uet0 drop_not_unicast)
	B bash -c "printf '$RUD_REQ' >/dev/udp/ff02::1%veth0/4793" || return 1
	sleep 0.2
	expect_delta uet0 rx_packets "$rx" 1 &&
	expect_delta uet0 drop_not_unicast "$d" 1 &&
	expect_delta uet0 pdcs_created "$pdcs" 0
}

# The sum of every drop_* counter of uet0.
all_drops() {
	rdma statistic show link uet0/1 | tr -s ' \n' '\n' |
		awk 'f { s += $1; f = 0 } /^drop_/ { f = 1 } END { print s + 0 }'
}

ipv6_counted() {
	local rx
	B ping -c 1 -W 2 "$UET_NET6::1" >/dev/null || return 1
	rx=$(counter uet0 rx_packets)
	send6 "$RUD_REQ" || return 1
	sleep 0.2
	expect_delta uet0 rx_packets "$rx" 1
}

# Requests naming a PDC uet0 does not have are each a counted drop, and
# answered by a NACK (INV_DPDCID) at a bounded rate (UET_PDS_ANSWER_BURST,
# 100 a second): the source may be forged.
unknown_pdc_nacked() {
	local n d nacks t0 ms
	n=300
	d=$(counter uet0 drop_unknown_pdc) nacks=$(counter uet0 nacks_sent)
	t0=${EPOCHREALTIME/./}
	B bash -c "for i in \$(seq $n); do printf '$UNKNOWN_REQ' >/dev/udp/$UET_NET4.1/4793; done"
	ms=$(( (${EPOCHREALTIME/./} - t0) / 1000 ))
	sleep 0.2
	nacks=$(( $(counter uet0 nacks_sent) - nacks ))
	echo "# $n requests in $ms ms, $nacks NACKs"
	expect_delta uet0 drop_unknown_pdc "$d" $n &&
	[ $nacks -ge 1 ] && [ $nacks -le $(( 100 * (ms / 1000 + 2) )) ]
}

# Random datagrams: every one is counted, as a packet and as one drop.
# One shell sends them all with its builtins (a program started costs
# some 300 ms on the debug kernel); their bytes are any but 0x0a, at
# which the shell's line-buffered printf would cut a datagram in two.
garbage_counted() {
	local n rx drops
	n=$(scaled 200 40)
	rx=$(counter uet0 rx_packets) drops=$(all_drops)
	B bash -c 'for ((i = 0; i < '"$n"'; i++)); do
			s=
			for ((j = RANDOM % 96 + 1; j > 0; j--)); do
				printf -v b "\\\\x%02x" $(((RANDOM % 255 + 11) % 256))
				s+=$b
			done
			printf "$s" >/dev/udp/'"$UET_NET4.1"'/4793
		done' || return 1
	sleep 0.5
	expect_delta uet0 rx_packets "$rx" $n || return 1
	echo "# drops: $(( $(all_drops) - drops )) of $n"
	[ $(( $(all_drops) - drops )) -eq $n ]
}

# ports A B: uet0 and uet1 set to them
ports() {
	A uetctl dev set uet0 udp-port "$1" && B uetctl dev set uet1 udp-port "$2"
}

# bound NS PORT: the UDP sockets listening on PORT in NS
bound() { ip netns exec "$1" ss -Huln "sport = :$2" | wc -l; }

# capture_port PORT CMD...: CMD's packets on uet-a's link are UET's to
# PORT, every one, in both directions (uet_pcap -p decodes them)
capture_port() {
	local port=$1 pcap=/tmp/socket-port.pcap n rc
	shift
	tcpdump_start "$NS_A" "$pcap" udp || return 1
	"$@"
	rc=$?
	tcpdump_stop
	n=$("$dir/uet_pcap" -p "$port" "$pcap" | grep -c ' pds ')
	echo "# $n packets to port $port, decoded;" \
		"$("$dir/uet_pcap" -p "$port" "$pcap" | grep -c 'not UET') not"
	[ $rc -eq 0 ] && [ "$n" -gt 0 ] &&
	! "$dir/uet_pcap" -p "$port" "$pcap" | grep -q 'not UET' &&
	"$dir/uet_pcap" -p "$port" "$pcap" |
		awk -v p=".$port" '{ if (substr($4, length($4) - length(p) + 1) != p) exit 1 }'
	rc=$?
	rm -f "$pcap"
	return $rc
}

# uet0 and uet1 on 4793 or 49150 (the reference provider's port), every
# combination: a transfer arrives when both use the same port and nothing
# when they differ; each namespace listens on its device's port only, and
# a device takes nothing sent to another port.  A port something else
# holds is refused and the device keeps its own.  The combinations that
# deliver go first: a transfer that fails leaves its PDC retrying, whose
# stale message would meet the next transfer's receiver.  On the slow
# (debug) kernel, one of each kind, both on the new port.
udp_ports() {
	local pa pb other rx pid held rc
	B rdma link add uet1 type uet netdev veth0 || return 1
	for pa in $(scaled "4793:4793 49150:49150 4793:49150 49150:4793" \
			   "49150:49150 49150:4793"); do
		pb=${pa#*:} pa=${pa%:*}
		ports "$pa" "$pb" || return 1
		other=$((pa == 4793 ? 49150 : 4793))
		[ "$(bound "$NS_A" "$pa")" -eq 2 ] &&
		[ "$(bound "$NS_A" "$other")" -eq 0 ] &&
		[ "$(bound "$NS_B" "$pb")" -eq 2 ] || return 1
		rx=$(counter uet1 rx_packets)
		if [ "$pa" = "$pb" ]; then
			echo "# uet0 on $pa, uet1 on $pb: delivered"
			capture_port "$pa" xfer count=2 size=3000 timeout_s=10 ||
				return 1
		else
			echo "# uet0 on $pa, uet1 on $pb: nothing arrives"
			! xfer count=1 size=100 timeout_s=1 >/dev/null 2>&1 &&
			expect_delta uet1 rx_packets "$rx" 0 || return 1
		fi
	done
	# uet0 on 49150 takes nothing sent to 4793, which nothing holds
	rx=$(counter uet0 rx_packets)
	send4 "$RUD_REQ" && sleep 0.2 &&
	expect_delta uet0 rx_packets "$rx" 0 || return 1
	# a UDP socket of a program's own (its port the kernel's choice),
	# then asked of uet0; one process throughout, to be killed
	ip netns exec "$NS_A" bash -c \
		"exec 3<>/dev/udp/$UET_NET4.2/9 && exec sleep 10" &
	pid=$!
	sleep 0.5
	held=$(A ss -Hun | awk '{ for (i = 2; i <= NF; i++)
		if ($i ~ /:9$/) { n = split($(i - 1), a, ":"); print a[n]; exit } }')
	echo "# a shell holds UDP port $held"
	[ -n "$held" ] &&
	expect_rc 1 'cannot open the UDP port' A uetctl dev set uet0 udp-port "$held" &&
	[ "$(json_get '.[0].udp_port' A uetctl -j dev show uet0)" = 49150 ]
	rc=$?
	kill "$pid" 2>/dev/null
	wait "$pid" 2>/dev/null
	ports 4793 4793 && B rdma link del uet1 && return $rc
}

# encaps PCAP EA EB: every UET packet of PCAP left as its sender's
# device sends them (uet0, $UET_NET4.1 or $UET_NET6::1, with EA; uet1
# with EB): over UDP to port 4793, or directly over IP with a good CRC;
# some of each kind that was asked for.  Over IPv4, the UDP packets of a
# device set to udp-zero-csum have a checksum of zero, the others not.
encaps() {
	# uet_pcap writes every group of an IPv6 address
	local a6
	a6=$(awk -F: '{ s = $0; for (i = NF; i < 7; i++) s = s ":0"; print s ":1." }' \
		<<<"$UET_NET6")
	"$dir/uet_pcap" "$1" | awk -v a4="$UET_NET4.1." -v a6="$a6" \
			-v ea="$2" -v eb="$3" '
		{ e = index($2, a4) == 1 || index($2, a6) == 1 ? ea : eb
		  if (e != "ip")
			e = "udp"
		  ip = $4 ~ /\.ip$/
		  if (ip != (e == "ip") || (ip && $0 !~ / crc ok( |$)/) ||
		      (!ip && $4 !~ /\.4793$/))
			bad++
		  n[e "-" ip]++ }
		END { printf "# %d over UDP, %d directly over IP, %d not as sent\n",
			     n["udp-0"], n["ip-1"], bad
		      exit bad > 0 || (n["udp-0"] == 0) != (ea == "ip" && eb == "ip") ||
			   (n["ip-1"] == 0) != (ea != "ip" && eb != "ip") }' || return 1
	local src want out n z
	for src in "$UET_NET4.1:$2" "$UET_NET4.2:$3"; do
		want=${src#*:} src=${src%:*}
		out=$(tcpdump -Z root -r "$1" -nvv "udp and src host $src" 2>/dev/null)
		n=$(grep -c ' UDP, length' <<<"$out")
		z=$(grep -c 'no cksum' <<<"$out")
		echo "# from $src ($want): $n over UDP/IPv4, $z without a checksum"
		if [ "$want" = udp-zero-csum ]; then
			[ "$z" -eq "$n" ] && [ "$n" -gt 0 ] || return 1
		else
			[ "$z" -eq 0 ] || return 1
		fi
	done
}

# uet0 and uet1 sending over UDP or directly over IP (protocol 253, as
# the UEC reference provider does), every combination over IPv4 and the
# native one over IPv6, and over UDP without checksums (as the UE
# specification asks) to a device sending directly over IP: a transfer
# arrives whole, each device's packets on the wire as it sends them, a
# clear native packet with its CRC-32C.
# With a bit flipped in 5% of the native packets on the way, the CRC
# turns them away (drop_bad_crc) and the transfer still arrives whole.
# On the slow (debug) kernel, the mixed combinations only.  Both devices
# are new: a PDC the port test left retrying would take the transfer.
native_ip() {
	local pcap=/tmp/socket-native.pcap combo ea eb addr rc bad
	A rdma link del uet0 && A rdma link add uet0 type uet netdev veth0 &&
	B rdma link add uet1 type uet netdev veth0 || return 1
	for combo in $(scaled "ip:ip:$UET_NET4.2 ip:ip:$UET_NET6::2 ip:udp:$UET_NET4.2 udp:ip:$UET_NET6::2 udp-zero-csum:ip:$UET_NET4.2" \
			      "ip:udp:$UET_NET4.2 udp:ip:$UET_NET6::2 udp-zero-csum:ip:$UET_NET4.2"); do
		ea=${combo%%:*} combo=${combo#*:}
		eb=${combo%%:*} addr=${combo#*:}
		echo "# uet0 over $ea, uet1 over $eb, to $addr"
		A uetctl dev set uet0 encap "$ea" && B uetctl dev set uet1 encap "$eb" &&
		[ "$(json_get '.[0].encap' A uetctl -j dev show uet0)" = "$ea" ] &&
		tcpdump_start "$NS_A" "$pcap" udp or ip proto 253 or ip6 proto 253 ||
			return 1
		xfer count=4 size=3000 timeout_s=10 addr="$addr"
		rc=$?
		tcpdump_stop
		[ $rc -eq 0 ] && encaps "$pcap" "$ea" "$eb"
		rc=$?
		[ $rc -eq 0 ] || "$dir/uet_pcap" "$pcap" | head -n 8 | sed 's/^/# /'
		[ $rc -eq 0 ] || B rdma statistic show link uet1/1 |
			tr -s ' ' '\n' | paste - - | awk '$2 != 0 { print "# uet1", $0 }'
		rm -f "$pcap"
		[ $rc -eq 0 ] || return 1
	done
	A uetctl dev set uet0 encap ip && B uetctl dev set uet1 encap ip || return 1
	bad=$(counter uet1 drop_bad_crc)
	netem corrupt 5% || return 1
	xfer count="$(scaled 16 8)" size=65536 timeout_s=30
	rc=$?
	netem_off
	[ $rc -eq 0 ] && [ "$(counter uet1 drop_bad_crc)" -gt "$bad" ] &&
	echo "# drop_bad_crc: $bad -> $(counter uet1 drop_bad_crc)" || return 1
	A uetctl dev set uet0 encap udp && B rdma link del uet1
}

# Deleting the namespace removes its device and closes its socket.
netns_deleted() {
	timeout 60 ip netns del "$NS_A" || return 1
	wait_no_uet_devs
}

trap fabric_down EXIT
ktap_print_header
ktap_set_plan 11
ktap_test_result "setup" setup
ktap_test_result "port 4793 open while the namespace has a device" port_follows_devices
ktap_test_result "malformed packet: counted drop" malformed_counted
ktap_test_result "valid PDS header, no PDC: counted drop" valid_header_counted
ktap_test_result "IPv6 packets arrive" ipv6_counted
ktap_test_result "multicast: counted drop, no PDC" multicast_dropped
ktap_test_result "unknown PDC: counted drop, NACKed at a bounded rate" unknown_pdc_nacked
ktap_test_result "random datagrams: all counted, no crash" garbage_counted
ktap_test_result "UDP ports per device: every combination of 4793 and 49150" udp_ports
ktap_test_result "directly over IP or UDP without checksums: every combination, a CRC-32C that turns corruption away" native_ip
ktap_test_result "namespace deletion removes its device" netns_deleted
fabric_down
modprobe -r uet
ktap_finished
