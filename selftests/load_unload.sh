#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# uet.ko loads and unloads cleanly, many times, bare and with devices that
# the unload has to remove.
. "$(dirname "$0")/lib.sh"

LOOPS=$(scaled 50 10)

load_unload_bare() {
	local i
	for i in $(seq $LOOPS); do
		modprobe uet || { echo "# load $i failed"; return 1; }
		grep -q '^uet ' /proc/modules || { echo "# not loaded at $i"; return 1; }
		modprobe -r uet || { echo "# unload $i failed"; return 1; }
		! grep -q '^uet ' /proc/modules || { echo "# still loaded at $i"; return 1; }
	done
	echo "# $LOOPS load/unload cycles"
}

# Unloading with devices present removes them and releases their netdevs:
# deleting the namespaces afterwards would hang on a leaked reference.
unload_with_devices() {
	local i n
	n=$(scaled 5 2)
	for i in $(seq "$n"); do
		fabric_up || return 1
		modprobe uet || return 1
		ip netns exec "$NS_A" rdma link add uet0 type uet netdev veth0 || return 1
		ip netns exec "$NS_B" rdma link add uet1 type uet netdev veth0 || return 1
		[ "$(uet_devs | wc -l)" -eq 2 ] || { echo "# devices missing"; return 1; }
		modprobe -r uet || return 1
		[ -z "$(uet_devs)" ] || { echo "# devices left: $(uet_devs)"; return 1; }
		timeout 30 ip netns del "$NS_A" || { echo "# netns del hung"; return 1; }
		timeout 30 ip netns del "$NS_B" || { echo "# netns del hung"; return 1; }
	done
	echo "# $n unloads with 2 devices each"
}

# The kernel loads uet by itself on "rdma link add ... type uet".
autoload() {
	fabric_up || return 1
	! grep -q '^uet ' /proc/modules || modprobe -r uet
	ip netns exec "$NS_A" rdma link add uet0 type uet netdev veth0 || return 1
	grep -q '^uet ' /proc/modules || return 1
	ip netns exec "$NS_A" rdma link del uet0 || return 1
	fabric_down
	modprobe -r uet
}

trap fabric_down EXIT
ktap_print_header
ktap_set_plan 3
ktap_test_result "load and unload $LOOPS times" load_unload_bare
ktap_test_result "unload removes devices and releases netdevs" unload_with_devices
ktap_test_result "rdma link add loads the module" autoload
ktap_finished
