#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# make lab: the fabric lab (selftests/lab/lab.sh) in one test VM, then its
# figures (selftests/lab/report.py): a table, build/lab/lab.json and one
# PNG per run in build/lab/.  Not part of make check: under TCG the
# default runs (incast 2, 4 and 8 to 1, with NSCC and without) take some
# ten minutes.
#
# Environment: UET_LAB_APPEND, more kernel arguments for the guest, e.g.
# the UET_LAB_* variables of lab.sh: 'UET_LAB_N="2 4" UET_LAB_RATE=20'.
set -euo pipefail

top=$(cd "$(dirname "$0")/../.." && pwd)
out=$top/build/lab
mkdir -p "$out"
log=$out/lab.log
"$top/selftests/vm/run-suite.sh" selftests --timeout 5400 \
	--append "UET_TESTS=\"lab.sh\" kselftest_override_timeout=5000 ${UET_LAB_APPEND:-}" |
	tee "$log" || true
python3 "$top/selftests/lab/report.py" "$log" "$out"
