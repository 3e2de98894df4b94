#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Build uet.ko against one kernel, out of the source tree, so that builds
# for several kernels do not overwrite each other's objects.
#
# Usage: scripts/kmod.sh KDIR OUTDIR [extra kbuild arguments, e.g. W=1 C=1]
# The module ends up as OUTDIR/drivers/uet/uet.ko.
set -euo pipefail

kdir=$1
mkdir -p "$2"
out=$(cd "$2" && pwd)
shift 2
src=$(cd "$(dirname "$0")/.." && pwd)

[ -e "$kdir/Makefile" ] || { echo "kmod.sh: no kernel build tree at $kdir (run 'make deps')" >&2; exit 1; }

# A tree of symlinks to the sources: kbuild writes its objects beside them.
mkdir -p "$out/drivers/uet"
ln -sfn "$src/include" "$out/include"
ln -sf "$src/Kbuild" "$out/Kbuild"
find "$out/drivers/uet" -maxdepth 1 -type l -delete
for f in "$src"/drivers/uet/*.[ch] "$src/drivers/uet/Kbuild"; do
	ln -s "$f" "$out/drivers/uet/"
done
make -C "$kdir" M="$out" "$@" modules
