#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# The harness proves it catches bugs: boot the debug kernel with planted
# bugs and check that each run is judged failed, for the right reasons.
# The first KASAN report turns lockdep off for the rest of a boot, so the
# out-of-bounds write has a boot of its own; the lock-order inversion
# and the leak share one (lockdep's report leaves kmemleak on), which
# must show both reports.
set -uo pipefail

here=$(cd "$(dirname "$0")" && pwd)
top=$(cd "$here/../.." && pwd)

declare -A reason=(
	[oob]='KASAN: slab-out-of-bounds'
	[leak]='unreferenced object'
	[lockinv]='possible circular locking dependency'
)

pass=0 fail=0
for run in 'lockinv leak' oob; do
	out=$("$top/selftests/vm/run-suite.sh" planted --debug --timeout 600 \
		--logdir "$top/build/vm-logs/planted" --append "UET_PLANTED=\"$run\"" 2>&1)
	rc=$?
	for bug in $run; do
		if [ $rc -ne 0 ] && grep -A12 '^not ok - .*kernel report' <<<"$out" | grep -qF "${reason[$bug]}"; then
			echo "ok - planted $bug: run failed with '${reason[$bug]}'"
			pass=$((pass + 1))
		else
			echo "not ok - planted $bug: run not failed for '${reason[$bug]}' (rc=$rc)"
			tail -n 40 <<<"$out" | sed 's/^/#   /'
			fail=$((fail + 1))
		fi
	done
done
rm -rf "$top/build/vm-logs/planted"
echo "planted: $pass passed, $fail failed"
[ $fail -eq 0 ]
