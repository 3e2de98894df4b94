# SPDX-License-Identifier: GPL-2.0
#
# What the engine tests share: uet0 in uet-a and uet1 in uet-b, the
# test-only module uet_test_engine driving them, and netem on the link.
# Sourced after lib.sh.

A() { ip netns exec "$NS_A" "$@"; }
B() { ip netns exec "$NS_B" "$@"; }

setup() {
	fabric_up && modprobe uet &&
	A rdma link add uet0 type uet netdev veth0 &&
	ip netns exec "$NS_B" rdma link add uet1 type uet netdev veth0
}

# xfer ARGS...: one run of the test module, uet0 -> uet1
xfer() {
	local rc
	modprobe uet_test_engine src=uet0 dst=uet1 addr="$UET_NET4.2" "$@"
	rc=$?
	# its last two lines, in one program: each costs on the debug kernel
	dmesg | awk '/uet_test_engine:/ { a = b; b = $0 }
		END { if (a != "") print "# " a; if (b != "") print "# " b }'
	[ $rc -eq 0 ] || head -n 20 /sys/kernel/debug/uet/uet*/pdcs | sed 's/^/# /'
	rmmod uet_test_engine 2>/dev/null	# modprobe -r would unload uet too
	return $rc
}

# netem QDISC-ARGS...: impair both directions of the link, packet by
# packet: a qdisc sees a GSO batch as one packet, so the devices send
# without batches meanwhile (the netdev's gso_max_segs)
netem() {
	A ip link set dev veth0 gso_max_segs 1 &&
	B ip link set dev veth0 gso_max_segs 1 &&
	A tc qdisc replace dev veth0 root netem "$@" &&
	B tc qdisc replace dev veth0 root netem "$@"
}

netem_off() {
	A tc qdisc del dev veth0 root 2>/dev/null
	B tc qdisc del dev veth0 root 2>/dev/null
	A ip link set dev veth0 gso_max_segs 65535
	B ip link set dev veth0 gso_max_segs 65535
	true
}

teardown() {
	A rdma link del uet0 && ip netns exec "$NS_B" rdma link del uet1 &&
	modprobe -r uet
}
