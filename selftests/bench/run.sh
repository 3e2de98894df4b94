#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# make bench: boot the two-VM pair topology, run selftests/bench/bench.sh
# in both (perftest over uet and over rxe in the same run, iperf3 TCP as
# the ceiling), print a table uet | rxe | uet/rxe of the medians of the
# repeated runs and write the results as JSON to build/bench/bench.json.
# Not part of make check: it takes about ten minutes under TCG.
set -euo pipefail

top=$(cd "$(dirname "$0")/../.." && pwd)
out=$top/build/bench
mkdir -p "$out"
log=$out/bench.log

# The kselftest runner's 600 s (selftests/settings) is too short for this.
"$top/selftests/vm/run-suite.sh" pair --timeout 5400 \
	--append 'UET_TESTS="bench.sh" kselftest_override_timeout=5000' |
	tee "$log" || true

grep -o 'UET-BENCH {.*}' "$log" | sed 's/^UET-BENCH //' >"$out/raw.jsonl" || true
[ -s "$out/raw.jsonl" ] || { echo "bench: no measurement (see $log)" >&2; exit 1; }

python3 - "$out/raw.jsonl" "$out/bench.json" <<'PY'
import json, sys

import statistics

rows = [json.loads(l) for l in open(sys.argv[1])]
# every measurement was repeated: keep the median of each figure
runs = {}
for r in rows:
    runs.setdefault((r["dev"], r["test"], r["size"]), []).append(r)
res = {}
for key, rs in runs.items():
    res[key] = dict(rs[0])
    for k in ("mb_s", "typical_us", "p99_us", "mbit_s"):
        if k in rs[0]:
            res[key][k] = statistics.median(x[k] for x in rs)

def ratio(a, b):
    return round(a / b, 2) if a is not None and b else None

table = []
print("%-22s %14s %14s %8s" % ("test", "uet", "rxe", "uet/rxe"))
for r in res.values():
    if r["dev"] != "uet0":
        continue
    x = res.get(("rxe0", r["test"], r["size"]), {})
    name = "%s %d B" % (r["test"], r["size"])
    if "mb_s" in r:
        u, v = r["mb_s"], x.get("mb_s")
        print("%-22s %11.2f MB/s %11s MB/s %8s" % (name, u,
              "%.2f" % v if v is not None else "-", ratio(u, v)))
        table.append({"test": r["test"], "size": r["size"], "unit": "MB/s",
                      "uet": u, "rxe": v, "uet_over_rxe": ratio(u, v)})
    else:
        for k in ("typical_us", "p99_us"):
            u, v = r[k], x.get(k)
            print("%-22s %11.1f us   %11s us   %8s" % (
                name + (" p99" if k == "p99_us" else " typ"), u,
                "%.1f" % v if v is not None else "-", ratio(u, v)))
            table.append({"test": r["test"], "size": r["size"],
                          "unit": k, "uet": u, "rxe": v,
                          "uet_over_rxe": ratio(u, v)})
tcp = [r for r in res.values() if r["dev"] == "tcp"]
if tcp:
    print("%-22s %11.1f Mbit/s (ceiling)" % ("iperf3 TCP", tcp[0]["mbit_s"]))
json.dump({"results": table, "iperf3_mbit_s": tcp[0]["mbit_s"] if tcp else None,
           "raw": rows}, open(sys.argv[2], "w"), indent=1)
print("written:", sys.argv[2])
PY
