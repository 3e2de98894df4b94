#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Generate the netlink code of the uet family from its YNL spec with the
# kernel's own generator (tools/net/ynl/ynl-gen-c.py of Debian's
# linux-source-6.12):
#   include/uapi/linux/uet_netlink.h   constants, enums, attribute and
#                                      command ids shared with userspace
#   drivers/uet/netlink-gen.[ch]       the kernel's policies and op table
#
# Usage: scripts/ynl-gen.sh [OUTDIR]
#   without OUTDIR the files are written in place; with it, into OUTDIR
#   (make check compares those with the committed ones).
#
# The generator finds its JSON schemas next to the spec's directory and
# names the spec relative to a kernel tree (one holding MAINTAINERS): it
# runs on a copy of the spec laid out that way.
set -euo pipefail

top=$(cd "$(dirname "$0")/.." && pwd)
src=$("$top/scripts/linux-source.sh" --partial)
out=${1:-}

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
mkdir -p "$work/Documentation/netlink/specs"
touch "$work/MAINTAINERS"
cp "$src"/Documentation/netlink/*.yaml "$work/Documentation/netlink/"
cp "$top/Documentation/netlink/specs/uet.yaml" "$work/Documentation/netlink/specs/"

gen() {	# MODE KIND OUTPUT
	(cd "$work" && python3 "$src/tools/net/ynl/ynl-gen-c.py" \
		--mode "$1" "--$2" --spec Documentation/netlink/specs/uet.yaml \
		-o "$work/$(basename "$3")")
	if [ -n "$out" ]; then
		cp "$work/$(basename "$3")" "$out/"
	else
		cp "$work/$(basename "$3")" "$top/$3"
	fi
}

[ -z "$out" ] || mkdir -p "$out"
gen uapi header include/uapi/linux/uet_netlink.h
gen kernel header drivers/uet/netlink-gen.h
gen kernel source drivers/uet/netlink-gen.c
