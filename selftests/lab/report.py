#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""The fabric lab's figures, from the "UET-LAB {json}" lines of lab.sh.

Usage: report.py LOG OUTDIR

For each run (an incast degree and a congestion control) it computes:

  goodput      what the senders delivered, over the time from the first
               flow's first delivery to the last flow's last, as a share
               of the bottleneck's rate
  steady       the same while every flow runs, after the first second
               (the bottleneck's rate counts whole frames: payload is at
               most 93.3% of a request's 1464-byte frame, 1366 bytes)
  jain         Jain's fairness index of the flows' rates over windows of
               the sampling period, while every flow runs, after the first
               second (convergence); the mean over those windows
  spread       the spread of completion times, slowest over fastest
               (uet-htsim's metric); a flow's time runs from its start
               (lab.sh starts them together) to its last delivery at the
               receiver
  p99_queue_ms the 99th percentile of the bottleneck's queueing delay
               (backlog over rate) while every flow runs, after the first
               second; max_queue_ms the most it was at any time (the
               start's burst: every sender's first window at once)
  drops, marked, timeouts  the bottleneck's drops and ECN marks, the
               senders' retransmission timeouts

and with them the senders' base RTT (base: configured, us, or "meas",
each sender's own measurement); for a permutation across a leaf-spine
fabric: each flow's rate, each of leaf 1's uplinks' share of the bytes,
and what the flows moved as a share of the uplinks' rate; for one flow
over the spines (scenario "spread"), its rate sprayed against its rate
on one path (vs_single); for two flows whose single paths collide on one
uplink (scenario "collision"), their aggregate sprayed against it
collided (vs_single), both timed on the wire from what the receivers
delivered; and for a flow
that joins a running one and leaves before it (scenario "join"): join_ms,
from the second flow's start until both rates are within 10% of their
mean for two windows in a row, and leave_ms, from its end until the
first flow's rate is within 10% of what the two had together.

  settle_ms    from the last flow's first delivery until the flows
               together run within 10% of their rate over the second half
               of the time all ran, two windows in a row

Rate advice (scenarios "ra-dc", the incast inside a data centre,
"ra-collision", two flows of one pod to another on one uplink, and
"ra-wan", one flow between two pods over a WAN link with delay and
loss): each without advice and with an element at the bottleneck
advising a share of advice_mbit (the row's "raN"), or that share scaled
down while its queue holds more than advice_target_us ("raNq"); advised,
the advices it sent.  The pods' runs carry their topology (spines, pinned, the WAN
link's wan_delay_us and wan_loss).

A flow's first and last delivery are what the receiver's samples saw: the
midpoint of the two samples around each, to half a sample period (the
time perftest takes to exit under TCG, a second or more, is not the
transport's).

It writes OUTDIR/lab.json (every run, its figures and its samples),
OUTDIR/lab.txt (the table it prints) and, with gnuplot, one PNG per run:
each flow's rate, the bottleneck's queue and each sender's congestion
window over time (OUTDIR/lab-SCENARIO N-CC.png, e.g. lab-incast8-nscc.png;
"-ra" with advice ("-raq" following the queue), "-meas" where the senders measured their base RTT, and
"-2", "-3" ... for a run repeated).
"""
import json
import os
import shutil
import subprocess
import sys

CONVERGE_MS = 1000


def runs_of(log):
    for line in open(log, errors="replace"):
        i = line.find("UET-LAB {")
        if i >= 0:
            yield json.loads(line[i + len("UET-LAB "):])


def jain(xs):
    s, q = sum(xs), sum(x * x for x in xs)
    return s * s / (len(xs) * q) if q else None


def percentile(xs, p):
    if not xs:
        return None
    xs = sorted(xs)
    return xs[min(len(xs) - 1, int(p / 100 * len(xs)))]


def data_times(flows, samples):
    """Each flow's first and last delivery, from the receiver's samples.

    A sample shows only that a delivery fell between it and the one
    before (130-200 ms apart under TCG).  Within that gap the time is
    placed at the flow's rate in the three gaps beside it (before for the
    last delivery, after for the first), kept inside the gap: a steady
    flow's ends are then known to a few ms, not to half a gap.
    """
    ts = [smp["t_ms"] for smp in samples]

    def rate(ds, a, b):
        a, b = max(a, 0), min(b, len(ds) - 1)
        if b <= a or ts[b] <= ts[a] or ds[b] <= ds[a]:
            return 0
        return (ds[b] - ds[a]) / (ts[b] - ts[a])

    for i, f in enumerate(flows):
        ds = [smp["delivered"][i] for smp in samples]
        if not ds or not ds[-1]:
            f["first_ms"], f["last_ms"] = f["start_ms"], f["end_ms"]
            continue
        j = next(j for j, d in enumerate(ds) if d)
        lo = ts[j - 1] if j else min(f["start_ms"], ts[j])
        r = rate(ds, j, j + 3)
        f["first_ms"] = max(lo, ts[j] - ds[j] / r) if r else (lo + ts[j]) / 2
        j = ds.index(ds[-1])
        if not j:
            f["last_ms"] = ts[0]
            continue
        r = rate(ds, j - 4, j - 1)
        left = ds[j] - ds[j - 1]
        f["last_ms"] = (min(ts[j], ts[j - 1] + left / r) if r
                        else (ts[j - 1] + ts[j]) / 2)


def figures(r):
    flows, samples = r["flows"], r["samples"]
    rate = r["rate_mbit"] * 1e6 / 8
    # what each flow's target PDC delivered so far: the most any sample
    # saw (a PDC the sampler missed counts as no progress, not a loss)
    top = [0] * len(flows)
    for smp in samples:
        top = [max(x, y) for x, y in zip(top, smp["delivered"])]
        smp["delivered"] = top
    data_times(flows, samples)
    start = min(f["first_ms"] for f in flows)
    end = max(f["last_ms"] for f in flows)
    all_in = max(f["first_ms"] for f in flows)
    first_out = min(f["last_ms"] for f in flows)
    ok = [f for f in flows if f["rc"] == 0]
    # bytes per request delivered: what the flows that completed sent
    # over what their target PDCs delivered, the same for every flow
    done = [i for i, f in enumerate(flows) if f["rc"] == 0]
    reqs = sum(top[i] for i in done)
    per_req = sum(flows[i]["bytes"] for i in done) / reqs if reqs else 0
    series = []
    for a, b in zip(samples, samples[1:]):
        dt = (b["t_ms"] - a["t_ms"]) / 1000
        if dt <= 0:
            continue
        rates = [(y - x) * per_req / dt for x, y in zip(a["delivered"], b["delivered"])]
        series.append((b["t_ms"], rates, b.get("backlog"), b.get("cwnd")))
    windows = [rs for t, rs, _, _ in series
               if all_in + CONVERGE_MS <= t <= first_out]
    if not windows:
        windows = [rs for t, rs, _, _ in series if all_in <= t <= first_out]
    js = [j for j in (jain(w) for w in windows) if j is not None]
    steady = [sum(w) / rate for w in windows]
    qd = [q / rate * 1000 for t, _, q, _ in series
          if q is not None and all_in + CONVERGE_MS <= t <= first_out]
    if not qd:
        qd = [q / rate * 1000 for t, _, q, _ in series
              if q is not None and all_in <= t <= first_out]
    qmax = [q / rate * 1000 for _, _, q, _ in series if q is not None]
    times = [f["last_ms"] - f["start_ms"] for f in ok]
    fig = {
        "scenario": r["scenario"],
        "n": r["n"], "cc": r["cc"], "rate_mbit": r["rate_mbit"],
        "delay_us": r["delay_us"], "base_us": r.get("base_us"),
        "complete": len(ok) == len(flows),
        "goodput": sum(f["bytes"] for f in ok) / ((end - start) / 1000) / rate
        if end > start else 0,
        "steady": sum(steady) / len(steady) if steady else None,
        "jain": sum(js) / len(js) if js else None,
        "spread": max(times) / min(times) if times and min(times) else None,
        "p99_queue_ms": percentile(qd, 99),
        "max_queue_ms": max(qmax) if qmax else None,
        "drops": r["drops"], "marked": r["marked"],
        "timeouts": sum(f["timeouts"] for f in flows),
        "retransmits": sum(f["retransmits"] for f in flows),
        "cc_decreases": sum(f["cc_decreases"] for f in flows),
        "flow_MBps": [f["bw_MBps"] for f in flows],
        "completion_ms": [f["last_ms"] - f["start_ms"] for f in flows],
        "process_ms": [f["end_ms"] - f["start_ms"] for f in flows],
    }
    fig["settle_ms"] = settle(series, all_in, first_out)
    if r["scenario"] == "join" and len(flows) == 2:
        fig.update(join_leave(flows, series))
    return fig, series


def settle(series, all_in, first_out):
    """Time to settle: from the last flow's first delivery until the flows
    together run within 10% of their rate over the second half of the
    time all ran, for two windows in a row."""
    both = [(t, sum(rs)) for t, rs, _, _ in series if all_in < t <= first_out]
    tail = [x for _, x in both[len(both) // 2:]]
    ref = sum(tail) / len(tail) if tail else 0
    for (t, a), (_, b) in zip(both, both[1:]):
        if ref and abs(a - ref) <= 0.1 * ref and abs(b - ref) <= 0.1 * ref:
            return t - all_in
    return None


def permutation(r):
    """A permutation over a leaf-spine fabric: how the uplinks shared it."""
    ups = r["uplink_bytes"]
    total = sum(ups)
    rate = r["rate_mbit"] * 1e6 / 8
    flows = r["flows"]
    packets = sum(f.get("packets", 0) for f in flows)
    mean = total / len(ups) if ups else 0
    return {
        "scenario": "permutation", "cc": r["cc"], "leaves": r["leaves"],
        "lb": r.get("lb", "single"), "lb_paths": r.get("lb_paths", 1),
        "spines": r["spines"], "hosts": r["hosts"],
        "flow_MBps": [f["bw_MBps"] for f in flows],
        "uplink_share": [u / total if total else 0 for u in ups],
        # the BMWG draft's spray efficacy: the busiest path against the
        # mean, and Jain's index of the paths' loads
        "uplink_max_mean": max(ups) / mean if mean else None,
        "uplink_jain": jain(ups),
        # what the flows moved, against what the spines' uplinks carry
        "uplinks_used": sum(f["bw_MBps"] for f in flows) * 1e6 /
        (rate * r["spines"]),
        "timeouts": sum(f["timeouts"] for f in flows),
        # per request sent: sent again, and taken out of order
        "retransmit_rate": sum(f.get("retransmits", 0) for f in flows) /
        packets if packets else None,
        # of those, needless: as the senders found them (an ACK showed
        # the PSN arrived twice), and as the receivers counted them
        "needless_rate": sum(f.get("needless", 0) for f in flows) /
        packets if packets else None,
        "duplicate_rate": sum(f.get("duplicates", 0) for f in flows) /
        packets if packets else None,
        # tail probes sent, per request
        "probe_rate": sum(f.get("tail_probes", 0) for f in flows) /
        packets if packets else None,
        "out_of_order_rate": sum(f.get("out_of_order", 0) for f in flows) /
        packets if packets else None,
        # what the receivers sent back (ACKs, credit) per request
        "answer_rate": sum(f.get("answers", 0) for f in flows) /
        packets if packets else None,
    }


def wire_rate(r):
    """What the flows of a leaf-spine run moved together, B/s, on the wire:
    from the first sample that saw a delivery to the first that saw them
    all (a flow's own time includes its process's start, a second or
    more under TCG, which is not the transport's); None unsampled."""
    s = r.get("samples")
    most = max((x["delivered"] for x in s), default=0) if s else 0
    if not most:
        return None
    first = next(x for x in s if x["delivered"] > 0)
    full = next(x for x in s if x["delivered"] == most)
    dt = (full["t_ms"] - first["t_ms"]) / 1000
    per = r["bytes"] * r["hosts"] / most
    return (most - first["delivered"]) * per / dt if dt > 0 else None


def against_single(r, singles, key):
    """A spread or collision run's figures: its wire rate as @key, and
    against the single-path run of its congestion control (vs_single),
    which @singles keeps by congestion control."""
    fig = permutation(r)
    fig["scenario"] = r["scenario"]
    wire = wire_rate(r)
    fig[key] = wire / 1e6 if wire else None
    one = singles.get(r["cc"]) if fig["lb"] != "single" else None
    if fig["lb"] == "single":
        singles[r["cc"]] = wire
    fig["vs_single"] = wire / one if one and wire else None
    return fig


# The failover's recovery: the rate over this long after a sample.
RECOVER_MS = 20


def failover(out, r):
    """A spine fails under a sprayed permutation: the goodput before, its
    dip, and how long until it is back to 90% of what the spines left
    carry (of the rate before, which the whole fabric carried)."""
    fig = permutation(r)
    fig["scenario"] = "failover"
    samples, fail = r["samples"], r["fail_ms"]
    # what a request carried, on average (a PDC that closes at the end
    # leaves the count)
    most = max((x["delivered"] for x in samples), default=0)
    per = r["bytes"] * r["hosts"] / most if most else 0
    rates = []
    for a, b in zip(samples, samples[1:]):
        dt = (b["t_ms"] - a["t_ms"]) / 1000
        # a count that falls: a flow's PDC closed once it was done
        if dt > 0 and b["delivered"] >= a["delivered"]:
            rates.append((b["t_ms"], (b["delivered"] - a["delivered"]) * per / dt))
    # before: from 300 ms in (the flows' start under TCG) to the failure
    pre = [x for t, x in rates if 300 <= t <= fail]
    post = [(t, x) for t, x in rates if t > fail]
    fig["fail_ms"] = fail
    fig["before_MBps"] = sum(pre) / len(pre) / 1e6 if pre else None
    fig["dip_MBps"] = min(x for _, x in post) / 1e6 if post else None
    target = None
    if pre:
        target = 0.9 * fig["before_MBps"] * 1e6 * (r["spines"] - 1) / r["spines"]
    # back: the first sample from which the rate over the next
    # RECOVER_MS, and two samples at least, holds the target (one sample
    # alone is noise)
    fig["recovered_ms"] = None
    for i, (t, _) in enumerate(post if target else []):
        ahead = [x for u, x in post[i:] if u - t < RECOVER_MS]
        if len(ahead) < 2:
            ahead = [x for _, x in post[i:i + 2]]
        if sum(ahead) / len(ahead) >= target:
            fig["recovered_ms"] = t - fail
            break
    base = r.get("base_us")
    fig["recovered_rtts"] = (fig["recovered_ms"] * 1000 / base
                             if base and fig["recovered_ms"] is not None
                             else None)
    fig["after_MBps"] = sum(x for _, x in post) / len(post) / 1e6 if post else None
    fig["plot"] = failover_plot(out, r, rates)
    return fig


def failover_plot(out, r, rates):
    if not shutil.which("gnuplot") or not rates:
        return None
    name = "lab-failover-%s-%s" % (r["cc"], r["lb"])
    dat = os.path.join(out, name + ".dat")
    with open(dat, "w") as f:
        for t, x in rates:
            f.write("%g %g\n" % (t / 1000, x * 8 / 1e6))
    png = os.path.join(out, name + ".png")
    script = """
set terminal pngcairo size 900,400
set output '%s'
set title 'spine 1 of %d fails at %.1f s: %d flows, cc %s, lb %s'
set xlabel 'time (s)'
set ylabel 'Mbit/s, all flows'
set arrow from %g, graph 0 to %g, graph 1 nohead dashtype 2
plot '%s' using 1:2 with linespoints title 'delivered'
""" % (png, r["spines"], r["fail_ms"] / 1000, r["hosts"], r["cc"], r["lb"],
       r["fail_ms"] / 1000, r["fail_ms"] / 1000, dat)
    p = subprocess.run(["gnuplot"], input=script.encode(), stderr=subprocess.PIPE)
    if p.returncode:
        sys.stderr.write(p.stderr.decode(errors="replace"))
        return None
    return png


def join_leave(flows, series):
    """When the joining flow got its share, and the other all back."""
    joined, left = flows[1]["start_ms"], flows[1]["last_ms"]

    def fair(rs):
        m = sum(rs) / len(rs)
        return m > 0 and all(abs(x - m) <= 0.1 * m for x in rs)

    both = [(t, rs) for t, rs, _, _ in series if joined < t <= left]
    join_ms = None
    for (t, a), (_, b) in zip(both, both[1:]):
        if fair(a) and fair(b):
            join_ms = t - joined
            break
    # what the two had together, over the last half of their time
    tail = [sum(rs) for _, rs in both[len(both) // 2:]]
    total = sum(tail) / len(tail) if tail else 0
    leave_ms = None
    for t, rs, _, _ in series:
        if t > left and total and rs[0] >= 0.9 * total:
            leave_ms = t - left
            break
    return {"join_ms": join_ms, "leave_ms": leave_ms}


def plot(out, name, r, series):
    if not shutil.which("gnuplot") or not series or \
            any(len(rs) != r["n"] for _, rs, _, _ in series):
        return None
    n = r["n"]
    dat = os.path.join(out, name + ".dat")
    with open(dat, "w") as f:
        for t, rates, q, cw in series:
            f.write("%g %s %s %s\n" % (t / 1000, " ".join("%g" % (x * 8 / 1e6) for x in rates),
                                       "NaN" if q is None else q,
                                       " ".join(str(c) for c in cw) if cw else
                                       " ".join("NaN" for _ in range(n))))
    png = os.path.join(out, name + ".png")
    flows = ", ".join("'%s' using 1:%d with lines title 'flow %d'" % (dat, i + 2, i + 1)
                      for i in range(n))
    cwnd = ", ".join("'%s' using 1:%d with lines title 'sender %d'" % (dat, n + 3 + i, i + 1)
                     for i in range(n))
    script = """
set terminal pngcairo size 900,900
set output '%s'
set multiplot layout 3,1 title '%s %d:1, cc %s, %d Mbit/s bottleneck'
set xlabel 'time (s)'
set ylabel 'Mbit/s'
set key outside right
plot %s
set datafile missing 'NaN'
set ylabel 'queue (bytes)'
plot '%s' using 1:%d with points pointtype 7 pointsize 0.5 title 'bottleneck backlog'
set ylabel 'cwnd (bytes)'
plot %s
unset multiplot
""" % (png, r["scenario"], n, r["cc"], r["rate_mbit"], flows, dat, n + 2, cwnd)
    # its warnings (an empty range: no window without CC) are no failure
    p = subprocess.run(["gnuplot"], input=script.encode(), stderr=subprocess.PIPE)
    if p.returncode:
        sys.stderr.write(p.stderr.decode(errors="replace"))
        return None
    return png


def advice_summary(results):
    """Rate advice's runs, repeated: per scenario (and base RTT), the mean
    and range of goodput, p99 queue delay and time to settle, without
    advice and with."""
    groups = {}
    for f in results:
        if not f["scenario"].startswith("ra-"):
            continue
        key = (f["scenario"], base(f["base_us"]))
        groups.setdefault(key, {}).setdefault(mode(f), []).append(f)
    lines = []

    def stat(fs, k, scale=1, form="%.1f"):
        xs = [f[k] * scale for f in fs if f.get(k) is not None]
        if not xs:
            return "-"
        return (form + " (" + form + "-" + form + ")") % (
            sum(xs) / len(xs), min(xs), max(xs))

    for (scenario, b), by in sorted(groups.items()):
        for adv in sorted(by):
            fs = by[adv]
            if fs:
                lines.append("%s base %s, %s: %d runs, goodput %s%%, p99 queue "
                             "%s ms, settled in %s ms, complete %d" %
                             (scenario, b, adv,
                              len(fs), stat(fs, "goodput", 100),
                              stat(fs, "p99_queue_ms"),
                              stat(fs, "settle_ms", form="%.0f"),
                              sum(f["complete"] for f in fs)))
    return lines


def mode(f):
    """A run's element: none, a share of the rate, or a share that follows
    the queue."""
    if not f.get("advice_mbit"):
        return "NSCC alone"
    if f.get("advice_target_us"):
        return "advice, queue %d us" % f["advice_target_us"]
    return "advice"


def base(us):
    """The senders' base RTT: configured, us, or each one's measured."""
    return "-" if us is None else "meas" if us == 0 else str(us)


def fmt(x, f="%.2f"):
    return "-" if x is None else f % x


def main():
    log, out = sys.argv[1], sys.argv[2]
    os.makedirs(out, exist_ok=True)
    results, lines = [], []
    lines.append("%-20s %-9s %5s %8s %7s %6s %7s %9s %9s %9s %6s %7s %8s %9s" %
                 ("incast", "cc", "base", "goodput", "steady", "jain", "spread",
                  "p99q_ms", "maxq_ms", "settle_ms", "drops", "marked",
                  "timeouts", "complete"))
    joins = []
    singles, collided, names = {}, {}, {}
    for r in runs_of(log):
        if r["scenario"] == "failover":
            fig = failover(out, r)
            results.append(fig)
            joins.append("failover %dx%dx%d, cc %-5s lb %-9s spine 1 failed at "
                         "%d ms: %s MB/s before, %s at the dip, %s after; back to "
                         "90%% of the rest in %s ms (%s base RTTs); timeouts %d, "
                         "retransmitted %s" %
                         (r["leaves"], r["spines"], r["hosts"], r["cc"], fig["lb"],
                          fig["fail_ms"], fmt(fig["before_MBps"]), fmt(fig["dip_MBps"]),
                          fmt(fig["after_MBps"]), fmt(fig["recovered_ms"], "%d"),
                          fmt(fig["recovered_rtts"], "%.0f"),
                          fig["timeouts"], fmt(fig["retransmit_rate"], "%.4f")))
            continue
        if r["scenario"] == "spread":
            # the sprayed flow against the same flow on one path
            fig = against_single(r, singles, "wire_MBps")
            results.append(fig)
            joins.append("one flow over %d spines, cc %-5s lb %-9s %s MB/s on "
                         "the wire (%s x single; %.2f from its process's "
                         "start), uplinks %s (max/mean %s), "
                         "retransmitted %s, out of order %s" %
                         (r["spines"], r["cc"], fig["lb"],
                          fmt(fig["wire_MBps"]), fmt(fig["vs_single"]),
                          fig["flow_MBps"][0],
                          " ".join("%.0f%%" % (x * 100) for x in fig["uplink_share"]),
                          fmt(fig["uplink_max_mean"]),
                          fmt(fig["retransmit_rate"], "%.4f"),
                          fmt(fig["out_of_order_rate"], "%.4f")))
            continue
        if r["scenario"] == "collision":
            # the sprayed flows together against the two that collided
            fig = against_single(r, collided, "aggregate_MBps")
            results.append(fig)
            joins.append("collision %dx%dx%d, cc %-5s lb %-9s flows %s MB/s "
                         "from their processes' start, together %s on the "
                         "wire (%s x single), uplinks %s" %
                         (r["leaves"], r["spines"], r["hosts"], r["cc"],
                          fig["lb"], " ".join("%.2f" % x for x in fig["flow_MBps"]),
                          fmt(fig["aggregate_MBps"]), fmt(fig["vs_single"]),
                          " ".join("%.0f%%" % (x * 100) for x in fig["uplink_share"])))
            continue
        if r["scenario"] == "permutation":
            fig = permutation(r)
            results.append(fig)
            joins.append("permutation %dx%dx%d, cc %-5s lb %-9s flows %s MB/s, "
                         "uplinks %s (max/mean %s, jain %s), %.0f%% of their "
                         "rate, timeouts %d, retransmitted %s (needless %s, "
                         "arrived twice %s; tail probes %s), "
                         "out of order %s, answered %s" %
                         (r["leaves"], r["spines"], r["hosts"], r["cc"],
                          fig["lb"],
                          " ".join("%.2f" % f["bw_MBps"] for f in r["flows"]),
                          " ".join("%.0f%%" % (x * 100) for x in fig["uplink_share"]),
                          fmt(fig["uplink_max_mean"]), fmt(fig["uplink_jain"]),
                          fig["uplinks_used"] * 100, fig["timeouts"],
                          fmt(fig["retransmit_rate"], "%.4f"),
                          fmt(fig["needless_rate"], "%.4f"),
                          fmt(fig["duplicate_rate"], "%.4f"),
                          fmt(fig["probe_rate"], "%.4f"),
                          fmt(fig["out_of_order_rate"], "%.4f"),
                          fmt(fig["answer_rate"], "%.3f")))
            continue
        fig, series = figures(r)
        advice = r.get("advice_mbit", 0)
        target = r.get("advice_target_us", 0) if advice else 0
        name = "lab-%s%d-%s%s%s" % (r["scenario"], r["n"], r["cc"],
                                    ("-raq" if target else "-ra")
                                    if advice else "",
                                    "-meas" if r.get("base_us") == 0 else "")
        # a run repeated: -2, -3, ...
        names[name] = names.get(name, 0) + 1
        if names[name] > 1:
            name += "-%d" % names[name]
        fig["advice_mbit"] = advice
        fig["advice_target_us"] = target
        fig["advised"] = r.get("advised", 0)
        fig["loss"] = r.get("loss", "")
        for k in ("topology", "spines", "pinned", "wan_delay_us", "wan_loss"):
            if k in r:
                fig[k] = r[k]
        fig["plot"] = plot(out, name, r, series)
        fig["samples"] = r["samples"]
        results.append(fig)
        if r["scenario"] == "join":
            joins.append("join, cc %-5s joined in %s ms, the other back in %s ms, "
                          "jain %s" % (r["cc"], fmt(fig["join_ms"], "%d"),
                                       fmt(fig["leave_ms"], "%d"), fmt(fig["jain"])))
            continue
        label = "%d:1" % r["n"]
        if r["scenario"] != "incast":
            label = "%s %s" % (r["scenario"], label)
        if advice:
            label += " ra%d%s" % (advice, "q" if target else "")
        lines.append("%-20s %-9s %5s %7.1f%% %7s %6s %7s %9s %9s %9s %6d %7d %8d %9s" %
                     (label, r["cc"],
                      base(fig["base_us"]), fig["goodput"] * 100,
                      fmt(fig["steady"] and fig["steady"] * 100, "%.1f%%"),
                      fmt(fig["jain"]), fmt(fig["spread"]),
                      fmt(fig["p99_queue_ms"], "%.1f"),
                      fmt(fig["max_queue_ms"], "%.1f"),
                      fmt(fig["settle_ms"], "%d"), fig["drops"],
                      fig["marked"], fig["timeouts"],
                      "yes" if fig["complete"] else "NO"))
    if not results:
        print("lab: no run in %s" % log, file=sys.stderr)
        return 1
    joins += advice_summary(results)
    json.dump(results, open(os.path.join(out, "lab.json"), "w"), indent=1)
    text = "\n".join(lines + joins) + "\n"
    open(os.path.join(out, "lab.txt"), "w").write(text)
    sys.stdout.write(text)
    for f in results:
        if f.get("plot"):
            print("plot: %s" % f["plot"])
    return 0


if __name__ == "__main__":
    sys.exit(main())
