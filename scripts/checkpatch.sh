#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# checkpatch (from Debian's linux-source-6.12) over the module and the uapi
# headers; any error, warning or check fails.
set -euo pipefail

top=$(cd "$(dirname "$0")/.." && pwd)
src=$("$top/scripts/linux-source.sh" --partial)
cd "$top"
perl "$src/scripts/checkpatch.pl" --no-tree --strict --terse --show-types \
	--summary-file -f drivers/uet/*.[ch] drivers/uet/Kbuild include/uapi/linux/*.h |
	tee /dev/stderr | awk '
		/^total:/ { e += $2; w += $4; c += $6 }
		END { printf "checkpatch: %d errors, %d warnings, %d checks\n", e, w, c
		      exit (e + w + c) > 0 }'
