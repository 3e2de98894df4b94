#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# checkpatch (from Debian's linux-source-6.12) over the module, the uapi
# headers and the test modules planted and kverbs; any error, warning or
# check fails.  drivers/uet/netlink-gen.[ch] are ynl-gen's output byte for
# byte (make check compares them with it), their lines as long as the
# spec's names make them: everything but the line length is checked there.
set -euo pipefail

top=$(cd "$(dirname "$0")/.." && pwd)
src=$("$top/scripts/linux-source.sh" --partial)
cd "$top"
checkpatch() {
	perl "$src/scripts/checkpatch.pl" --no-tree --strict --terse --show-types \
		--summary-file "$@"
}
gen=(drivers/uet/netlink-gen.c drivers/uet/netlink-gen.h)
files=()
for f in drivers/uet/*.[ch]; do
	[[ " ${gen[*]} " == *" $f "* ]] || files+=("$f")
done
{
	rc=0
	checkpatch -f "${files[@]}" drivers/uet/Kbuild include/uapi/linux/*.h \
		selftests/debug/planted/*.c selftests/kverbs/*.c \
		selftests/tss/*.c || rc=1
	checkpatch --ignore LONG_LINE -f "${gen[@]}" || rc=1
	exit $rc
} |
	tee /dev/stderr |
	sed -nE 's/.*total: ([0-9]+) errors, ([0-9]+) warnings, ([0-9]+) checks.*/\1 \2 \3/p' |
	awk '{ e += $1; w += $2; c += $3 }
	     END { printf "checkpatch: %d errors, %d warnings, %d checks\n", e, w, c
		   exit (e + w + c) > 0 }'
