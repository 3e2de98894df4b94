#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Build what a VM run needs and boot it: uet.ko for the guest kernel, the
# selftests, the initramfs; then selftests/vm/run-vm.sh.
#
# Usage: run-suite.sh SUITE [--pair] [--debug] [run-vm.sh options]
#   SUITE    selftests | pair | demo
#   --debug  boot the debug kernel (KASAN, lockdep, kmemleak...) built by
#            selftests/debug/build-kernel.sh instead of Debian's 6.12
set -euo pipefail

top=$(cd "$(dirname "$0")/../.." && pwd)
suite=$1
shift
debug=0 args=()
for a in "$@"; do
	case $a in
	--debug) debug=1 ;;
	*) args+=("$a") ;;
	esac
done
[ "$suite" = pair ] && args+=(--pair)

make -s -C "$top/selftests" install >/dev/null
if [ "$debug" = 1 ]; then
	kdir=$("$top/selftests/debug/build-kernel.sh" | tail -n 1)
	kernel=$kdir/arch/x86/boot/bzImage
	name=debug kver=''
else
	kver=$(basename "$(ls -d /lib/modules/6.12.*-amd64 | sort -V | tail -n 1)")
	kdir=/lib/modules/$kver/build
	kernel=/boot/vmlinuz-$kver
	name=$kver
fi

"$top/scripts/kmod.sh" "$kdir" "$top/build/kmod-$name" >"$top/build/kmod-$name.log" 2>&1 ||
	{ cat "$top/build/kmod-$name.log"; exit 1; }
mkdir -p "$top/build/vm"
initrd=$top/build/vm/initrd-$name.gz
"$top/selftests/vm/mkinitramfs.sh" "$initrd" "$top/build/kmod-$name/drivers/uet/uet.ko" \
	"$top/build/selftests-install" $kver

exec "$top/selftests/vm/run-vm.sh" --kernel "$kernel" --initrd "$initrd" \
	--suite "$suite" --logdir "$top/build/vm-logs" "${args[@]}"
