#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Build what a VM run needs and boot it: uet.ko for the guest kernel, the
# selftests, the initramfs; then selftests/vm/run-vm.sh.
#
# Usage: run-suite.sh SUITE [--debug] [--groups "T1 T2;T3 ..."]
#                     [run-vm.sh options]
#   SUITE    selftests | pair | demo | planted (--debug only)
#   --debug  boot the debug kernel (KASAN, lockdep, kmemleak...) built by
#            selftests/debug/build-kernel.sh instead of Debian's 6.12, with
#            the planted-bug module (selftests/debug/planted) beside uet.ko
#   --groups split the suite's tests into groups (";" between groups), each
#            run in a VM of its own, all at once: the one-vCPU debug VMs
#            then use every core.  The result counts every group.
# Other options go to run-vm.sh as they are, e.g. for the pair suite
# "--link dgram" (a UDP datagram link between the two VMs instead of the
# default TCP socket link; UET_LINK=dgram in the environment does the same):
#   run-suite.sh pair --link dgram
set -euo pipefail

top=$(cd "$(dirname "$0")/../.." && pwd)
suite=$1
shift
debug=0 args=() groups=''
while [ $# -gt 0 ]; do
	case $1 in
	--debug) debug=1 ;;
	--groups) groups=$2; shift ;;
	*) args+=("$1") ;;
	esac
	shift
done
[ "$suite" = pair ] && args+=(--pair)

make -s -C "$top/selftests" install >/dev/null
mkdir -p "$top/build/vm"
if [ "$debug" = 1 ]; then
	kdir=$("$top/selftests/debug/build-kernel.sh" | tail -n 1)
	kernel=$kdir/arch/x86/boot/bzImage
	name=debug modules=$kdir
	# One vCPU: with two, a KASAN report (wild-memory-access in
	# handle_edge_irq, during identify_cpu) was seen in early boot under
	# TCG, and the first report turns lockdep off.
	args=(--smp 1 "${args[@]}")
else
	modules=$(basename "$(ls -d /lib/modules/6.12.*-amd64 | sort -V | tail -n 1)")
	kdir=/lib/modules/$modules/build
	kernel=/boot/vmlinuz-$modules
	name=$modules
fi

blog=$top/build/kmod-$name.log
"$top/scripts/kmod.sh" "$kdir" "$top/build/kmod-$name" >"$blog" 2>&1 ||
	{ cat "$blog"; exit 1; }
kos=$top/build/kmod-$name/drivers/uet/uet.ko

# Test-only modules, built against uet's exported symbols.
testmods=(engine kverbs tss)
[ "$debug" = 1 ] && testmods+=(debug/planted)
for t in "${testmods[@]}"; do
	out=$top/build/testmod-$name/${t##*/}
	mkdir -p "$out"
	cp "$top/selftests/$t"/{Kbuild,*.c} "$out/"
	make -C "$kdir" M="$out" UET_SRC="$top" \
		KBUILD_EXTRA_SYMBOLS="$top/build/kmod-$name/Module.symvers" \
		modules >>"$blog" 2>&1 || { cat "$blog"; exit 1; }
	kos+=:$(ls "$out"/*.ko | tr '\n' ':' | sed 's/:$//')
done
initrd=$top/build/vm/initrd-$name.gz
# The pair topology's middleware test needs libfabric, UCX and Open MPI.
if [ "$suite" = pair ]; then
	export UET_VM_MIDDLEWARE=1
	initrd=$top/build/vm/initrd-$name-pair.gz
fi
"$top/selftests/vm/mkinitramfs.sh" "$initrd" "$kos" "$top/build/selftests-install" "$modules"

vm=("$top/selftests/vm/run-vm.sh" --kernel "$kernel" --initrd "$initrd"
    --suite "$suite" --logdir "$top/build/vm-logs" "${args[@]}")
[ -z "$groups" ] && exec "${vm[@]}"

IFS=';' read -ra glist <<<"$groups"
outs=() pids=()
for i in "${!glist[@]}"; do
	outs+=("$top/build/vm/group-$name-$i.log")
	"${vm[@]}" --append "UET_TESTS=\"${glist[$i]}\"" >"${outs[$i]}" 2>&1 &
	pids+=($!)
done
rc=0 pass=0 fail=0
for i in "${!glist[@]}"; do
	wait "${pids[$i]}" || rc=1
	sed "s/^/[group $i] /" "${outs[$i]}"
	line=$(grep -E '^vm\(.*\): [0-9]+ passed, [0-9]+ failed' "${outs[$i]}" | tail -n 1)
	if [ -n "$line" ]; then
		pass=$((pass + $(sed -E 's/.*: ([0-9]+) passed.*/\1/' <<<"$line")))
		fail=$((fail + $(sed -E 's/.* ([0-9]+) failed.*/\1/' <<<"$line")))
	else
		fail=$((fail + 1))
	fi
done
[ "$fail" -gt 0 ] && rc=1
echo "vm($suite): $pass passed, $fail failed"
exit $rc
