#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# checkpatch (from Debian's linux-source-6.12) over the module, the uapi
# headers and the test modules planted and kverbs; any error, warning or
# check fails.
set -euo pipefail

top=$(cd "$(dirname "$0")/.." && pwd)
src=$("$top/scripts/linux-source.sh" --partial)
cd "$top"
perl "$src/scripts/checkpatch.pl" --no-tree --strict --terse --show-types \
	--summary-file -f drivers/uet/*.[ch] drivers/uet/Kbuild include/uapi/linux/*.h \
	selftests/debug/planted/*.c selftests/kverbs/*.c |
	tee /dev/stderr |
	sed -nE 's/.*total: ([0-9]+) errors, ([0-9]+) warnings, ([0-9]+) checks.*/\1 \2 \3/p' |
	awk '{ e += $1; w += $2; c += $3 }
	     END { printf "checkpatch: %d errors, %d warnings, %d checks\n", e, w, c
		   exit (e + w + c) > 0 }'
