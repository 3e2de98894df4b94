#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Print the path of an extracted copy of Debian's linux-source-6.12 tree,
# extracting it once into a cache outside the clone.  The cache is keyed by
# the package version, so an upgraded package is extracted anew.
#
# Usage: scripts/linux-source.sh [--partial]
#   --partial  extract only what the userspace build needs (kselftest
#              headers, checkpatch, YNL tooling): seconds instead of a minute.
set -euo pipefail

tarball=/usr/src/linux-source-6.12.tar.xz
cache=${UET_CACHE:-/var/cache/uet}

[ -r "$tarball" ] || { echo "linux-source.sh: $tarball missing (run 'make deps')" >&2; exit 1; }
ver=$(dpkg-query -W -f='${Version}' linux-source-6.12)

if [ "${1:-}" = --partial ]; then
	dest=$cache/linux-source-$ver-partial
	parts=(tools/testing/selftests/kselftest.h
	       tools/testing/selftests/kselftest_harness.h
	       tools/testing/selftests/kselftest
	       scripts/checkpatch.pl scripts/spelling.txt
	       scripts/const_structs.checkpatch
	       tools/net/ynl Documentation/netlink)
else
	dest=$cache/linux-source-$ver
	parts=()
fi

mkdir -p "$cache"
exec 9>"$cache/.extract.lock"
flock 9
if [ ! -e "$dest/.extracted" ]; then
	mkdir -p "$dest"
	tar -xJf "$tarball" -C "$dest" --strip-components=1 \
		"${parts[@]/#/linux-source-6.12/}"
	touch "$dest/.extracted"
fi
echo "$dest"
