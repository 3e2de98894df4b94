#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# The harness proves it catches bugs: boot the debug kernel once per planted
# bug (the first KASAN report turns lockdep off for the rest of a boot) and
# check that each run is judged failed, for the right reason.
set -uo pipefail

here=$(cd "$(dirname "$0")" && pwd)
top=$(cd "$here/../.." && pwd)

declare -A reason=(
	[oob]='KASAN: slab-out-of-bounds'
	[leak]='unreferenced object'
	[lockinv]='possible circular locking dependency'
)

pass=0 fail=0
for bug in oob leak lockinv; do
	out=$("$top/selftests/vm/run-suite.sh" planted --debug --timeout 600 \
		--logdir "$top/build/vm-logs/planted" --append "UET_PLANTED=$bug" 2>&1)
	rc=$?
	if [ $rc -ne 0 ] && grep -A12 '^not ok - .*kernel report' <<<"$out" | grep -qF "${reason[$bug]}"; then
		echo "ok - planted $bug: run failed with '${reason[$bug]}'"
		pass=$((pass + 1))
	else
		echo "not ok - planted $bug: run not failed for '${reason[$bug]}' (rc=$rc)"
		tail -n 40 <<<"$out" | sed 's/^/#   /'
		fail=$((fail + 1))
	fi
done
rm -rf "$top/build/vm-logs/planted"
echo "planted: $pass passed, $fail failed"
[ $fail -eq 0 ]
