#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# make bench: boot the two-VM pair topology once per QEMU link between the
# VMs (run-vm.sh --link), run selftests/bench/bench.sh in both VMs
# (perftest over uet and over rxe in the same run, iperf3 TCP as the
# link's ceiling), print per link a table uet | rxe | uet/rxe of the
# medians of the repeated runs (also in build/bench/bench.txt) and write
# the results as JSON, each with its link, to build/bench/bench.json.
#   socket  a TCP stream between the QEMUs: bandwidth only, since every
#           round trip there is ~22 ms of Nagle and delayed ACKs
#   dgram   UDP datagrams between the QEMUs: bandwidth and latency
# Then PDC setup rates, memory per PDC and first-packet latency in one
# VM (selftests/pdcs_bench.sh), to build/bench/pdcs.json.
# Not part of make check: it takes about fifteen minutes under TCG (14.5
# for the three default links, measured).
#
# Each link runs at MTU 1500; LINK:MTU runs it at another MTU as well
# (its figures are labelled LINK-MTU).  Per link the table also says
# what the issue of the second-wave engine asks of it: uet at 1 MiB as a
# share of iperf3 TCP, and 1 MiB writes at 1% loss as a share of lossless.
#
# Environment:
#   UET_BENCH_LINKS   the links to run, in order ("socket dgram dgram:9000")
#   UET_BENCH_APPEND  more kernel arguments for the guests, e.g. the
#                     UET_BENCH_* variables of bench.sh:
#                     'UET_BENCH_REPEAT=1 UET_BENCH_BW_SIZES=4096'
set -euo pipefail

top=$(cd "$(dirname "$0")/../.." && pwd)
out=$top/build/bench
mkdir -p "$out"
specs=${UET_BENCH_LINKS:-socket dgram dgram:9000}

# label SPEC: what the figures of LINK[:MTU] are called
label() {
	case $1 in
	*:*) echo "${1%%:*}-${1#*:}" ;;
	*) echo "$1" ;;
	esac
}

links=''
rm -f "$out/raw.jsonl" "$out/links.jsonl"
for spec in $specs; do
	link=$(label "$spec")
	links="$links $link"
	mtu=1500
	[ "$spec" = "${spec#*:}" ] || mtu=${spec#*:}
	log=$out/bench-$link.log
	start=$(date +%s)
	# The kselftest runner's 600 s (selftests/settings) is too short.
	"$top/selftests/vm/run-suite.sh" pair --link "${spec%%:*}" --timeout 5400 \
		--append "UET_TESTS=\"bench.sh\" kselftest_override_timeout=5000 UET_BENCH_MTU=$mtu UET_BENCH_LABEL=$link ${UET_BENCH_APPEND:-}" |
		tee "$log" || true
	vm=$(grep -E '^vm\(pair\): ' "$log" | tail -n 1 || true)
	printf '{"link":"%s","elapsed_s":%d,"vm":"%s","log":"%s"}\n' "$link" \
		$(($(date +%s) - start)) "${vm:-no result}" "$log" >>"$out/links.jsonl"
	# Lines of a bench.sh that did not name its link came from the socket link.
	grep -o 'UET-BENCH {.*}' "$log" | sed 's/^UET-BENCH //' |
		sed "/\"link\"/!s/^{/{\"link\":\"socket\",/" >>"$out/raw.jsonl" || true
done
[ -s "$out/raw.jsonl" ] || { echo "bench: no measurement (see $out/bench-*.log)" >&2; exit 1; }

python3 - "$out/raw.jsonl" "$out/links.jsonl" "$out/bench.json" <<'PY' | tee "$out/bench.txt"
import json, statistics, sys

rows = [json.loads(l) for l in open(sys.argv[1])]
links = {}
for l in open(sys.argv[2]):
    l = json.loads(l)
    links[l.pop("link")] = l
about = {
    "socket": "-netdev socket (a TCP stream between the QEMUs): latency "
              "there is Nagle and delayed ACKs, not the stack",
    "dgram": "-netdev dgram (UDP datagrams between the QEMUs): "
             "drops frames when a burst overflows the receiving QEMU",
}
# every measurement was repeated: keep the median of each figure
runs = {}
for r in rows:
    runs.setdefault((r["link"], r["dev"], r["test"], r["size"]), []).append(r)
res = {}
for key, rs in runs.items():
    res[key] = dict(rs[0], runs=len(rs))
    for k in ("mb_s", "typical_us", "p99_us", "mbit_s"):
        if k in rs[0]:
            res[key][k] = statistics.median(x[k] for x in rs)

def ratio(a, b):
    return round(a / b, 2) if a is not None and b else None

def num(v, f):
    return f % v if v is not None else "-"

table = []
order = list(links) + sorted({k[0] for k in res} - set(links))
for link in order:
    info = links.setdefault(link, {})
    qlink, _, mtu = link.partition("-")
    info["about"] = about.get(qlink, "") + (", MTU " + mtu if mtu else "")
    info["latency_meaningful"] = qlink != "socket"
    tcp = res.get((link, "tcp", "iperf3", 0))
    info["iperf3_mbit_s"] = tcp["mbit_s"] if tcp else None
    print()
    print("link %s: %s" % (link, info["about"]))
    if "vm" in info:
        print("  %s, %d s" % (info["vm"], info["elapsed_s"]))
    print("%-26s %14s %14s %8s %5s" % ("test", "uet", "rxe", "uet/rxe", "runs"))
    for r in res.values():
        if (r["link"] != link or r["dev"] != "uet0" or
                r["test"].endswith("_tss") or r["test"].startswith("mpi_")):
            continue
        x = res.get((link, "rxe0", r["test"], r["size"]), {})
        name = "%s %d B" % (r["test"], r["size"])
        nruns = "%d/%s" % (r["runs"], x.get("runs", 0))
        if "mb_s" in r:
            u, v = r["mb_s"], x.get("mb_s")
            print("%-26s %9.2f MB/s %9s MB/s %8s %5s" % (name, u,
                  num(v, "%.2f"), num(ratio(u, v), "%.2f"), nruns))
            table.append({"link": link, "test": r["test"], "size": r["size"],
                          "unit": "MB/s", "uet": u, "rxe": v,
                          "uet_over_rxe": ratio(u, v), "runs_uet": r["runs"],
                          "runs_rxe": x.get("runs", 0)})
            continue
        for k in ("typical_us", "p99_us"):
            u, v = r[k], x.get(k)
            note = "" if info["latency_meaningful"] else "  (link's, not meaningful)"
            print("%-26s %9.1f us   %9s us   %8s %5s%s" % (
                name + (" p99" if k == "p99_us" else " typ"), u,
                num(v, "%.1f"), num(ratio(u, v), "%.2f"), nruns, note))
            table.append({"link": link, "test": r["test"], "size": r["size"],
                          "unit": k, "uet": u, "rxe": v,
                          "uet_over_rxe": ratio(u, v), "runs_uet": r["runs"],
                          "runs_rxe": x.get("runs", 0),
                          "meaningful": info["latency_meaningful"]})
    print("%-26s %9s Mbit/s (ceiling)" % ("iperf3 TCP",
          num(info["iperf3_mbit_s"], "%.1f")))
    # MPI (selftests/mpi_bench.c) over uet, over rxe and over TCP
    mpi = sorted((r for r in res.values() if r["link"] == link and
                  r["dev"] == "uet0" and r["test"].startswith("mpi_")),
                 key=lambda r: (r["test"], r["size"]))
    if mpi:
        print("%-26s %12s %12s %12s %8s %8s" % ("MPI", "uet", "rxe", "TCP",
                                             "uet/rxe", "uet/TCP"))
    for r in mpi:
        x = res.get((link, "rxe0", r["test"], r["size"]), {})
        t = res.get((link, "tcp", r["test"], r["size"]), {})
        for k, unit in (("typical_us", "us"), ("mb_s", "MB/s")):
            if k not in r:
                continue
            u, v, w = r[k], x.get(k), t.get(k)
            f = "%.1f" if unit == "us" else "%.2f"
            print("%-26s %7s %-4s %7s %-4s %7s %-4s %8s %8s" % (
                  "%s %d B" % (r["test"], r["size"]), num(u, f), unit,
                  num(v, f), unit, num(w, f), unit,
                  num(ratio(u, v), "%.2f"), num(ratio(u, w), "%.2f")))
            table.append({"link": link, "test": r["test"], "size": r["size"],
                          "unit": unit, "uet": u, "rxe": v, "tcp": w,
                          "uet_over_rxe": ratio(u, v),
                          "uet_over_tcp": ratio(u, w),
                          "meaningful": info["latency_meaningful"] or
                                        unit == "MB/s"})
    # what the second-wave engine's issue asks: shares of the ceiling and
    # of the lossless figure
    for dev in ("uet0", "rxe0"):
        mib = res.get((link, dev, "ib_write_bw", 1048576), {}).get("mb_s")
        lossy = res.get((link, dev, "ib_write_bw_loss", 1048576), {})
        tcp_share = ratio(mib * 8 if mib else None, info["iperf3_mbit_s"])
        loss_share = ratio(lossy.get("mb_s"), mib)
        info[dev + "_1mib_over_iperf3"] = tcp_share
        info[dev + "_loss_over_lossless"] = loss_share
        print("%-26s 1 MiB writes: %s of iperf3 TCP; at %s loss %s of lossless" % (
              dev, num(tcp_share, "%.2f"), lossy.get("loss", "1%"),
              num(loss_share, "%.2f")))
    # job 0 sealed (TSS, AES-256-GCM) against the same tests clear
    for r in res.values():
        if r["link"] != link or not r["test"].endswith("_tss"):
            continue
        test = r["test"][:-len("_tss")]
        c = res.get((link, "uet0", test, r["size"]), {})
        name = "%s %d B sealed" % (test, r["size"])
        for k, unit in (("mb_s", "MB/s"), ("typical_us", "us typ")):
            if k not in r:
                continue
            share = ratio(r[k], c.get(k))
            print("%-26s %9.2f %s, clear %s: %s of clear" % (
                  name, r[k], unit, num(c.get(k), "%.2f"),
                  num(share, "%.2f")))
            table.append({"link": link, "test": r["test"], "size": r["size"],
                          "unit": unit, "sealed": r[k], "clear": c.get(k),
                          "sealed_over_clear": share, "runs": r["runs"]})
json.dump({"links": links, "results": table,
           "iperf3_mbit_s": {l: links[l]["iperf3_mbit_s"] for l in order},
           "raw": rows}, open(sys.argv[3], "w"), indent=1)
print()
print("written:", sys.argv[3])
PY
# PDC setup (selftests/pdcs_bench.sh): one VM, uet0 and uet1 in two
# namespaces.  No rxe column: an RC QP has no zero-RTT setup to set
# against it.
log=$out/bench-pdcs.log
"$top/selftests/vm/run-suite.sh" selftests --timeout 3600 \
	--append "UET_TESTS=\"pdcs_bench.sh\" kselftest_override_timeout=3000 ${UET_BENCH_APPEND:-}" |
	tee "$log" || true
grep -o 'UET-BENCH-PDCS {.*}' "$log" | sed 's/^UET-BENCH-PDCS //' >"$out/pdcs.jsonl" || true
python3 - "$out/pdcs.jsonl" "$out/pdcs.json" <<'PY' | tee -a "$out/bench.txt"
import json, sys

rows = [json.loads(l) for l in open(sys.argv[1])]
print()
print("PDC setup, one VM (uet0 -> uet1 through veth; sink: a veth that drops all)")
print("%-8s %8s %16s %16s %14s" % ("test", "PDCs", "setups/s", "bytes/idle PDC",
                                   "bytes/active"))
for r in rows:
    if r["test"] == "latency":
        continue
    print("%-8s %8d %16d %16s %14s" % (r["test"], r["pdcs"], r["setups_per_s"],
          r.get("bytes_per_idle_pdc", "-"), r.get("bytes_per_active_pdc", "-")))
for r in rows:
    if r["test"] == "latency":
        print("first message: new PDC %d us, established PDC %d us (medians of %d)"
              % (r["new_us"], r["established_us"], r["pdcs"]))
json.dump(rows, open(sys.argv[2], "w"), indent=1)
print("written:", sys.argv[2])
PY

missing=0
[ -s "$out/pdcs.jsonl" ] ||
	{ echo "bench: no PDC setup measurement (see $log)" >&2; missing=1; }
for link in $links; do
	grep -q "\"link\":\"$link\"" "$out/raw.jsonl" ||
		{ echo "bench: no measurement on the $link link (see $out/bench-$link.log)" >&2; missing=1; }
done
exit $missing
