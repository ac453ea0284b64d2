#!/usr/bin/python3
"""predict_pairs.py - how often `sdbreport --predict` gets 25 -> 50 MHz
right on simulated card / host pairs (`make bench-predict`).

Each pair runs the quick suite under build/host/sdbsim with max_clock_hz
25 MHz and again with 50 MHz (the clock the controller really gives, e.g.
41.67 MHz from the Arasan's 250 MHz, is the one predicted), both with
--seed-per-workload (sim/simpredict.py says why), and compares every
workload's predicted MB/s, IOPS and mean latency with the second run. The
pairs: every shipped card profile that takes writes on the pi1 (a CPU that
sets the pace), pi3 and pi4 hosts, and generated cards on generated hosts
(sdbsim --random-card SEED --random-host SEED, sim/README.md). A pair
whose card or host cannot run faster than 25 MHz predicts nothing and is
counted apart. Printed: per set the workloads within 10% both ways (the
largest of the three errors: a row the predictor flags as an upper bound
is right only within 10% too, however it is off), the worst, the rows
that were not upper bounds and how many of them were right, the upper
bounds and how many of them were right, and the misses by workload
family.

    predict_pairs.py [--random N] [--first-seed S] [--shipped-hosts pi1,pi3,pi4] [--jobs J]
"""
import argparse
import collections
import concurrent.futures
import os
import subprocess
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import simpredict  # noqa: E402

# Cards that refuse writes or exist for other checks: their quick suite has
# no write workloads to predict and they add nothing the others lack.
SKIP_CARDS = ("csd-tmp-wp-4g", "wp-switch-8g", "fake-64g-8g")


def shipped_cards():
    out = subprocess.run([simpredict.SDBSIM, "--list"], stdout=subprocess.PIPE,
                         check=True).stdout.decode()
    cards = []
    section = None
    for line in out.splitlines():
        if line.strip().endswith(":") and not line.startswith(" "):
            section = line.strip().rstrip(":")
            continue
        name = line.split()[0] if line.strip() else ""
        if name and (section is None or "card" in section) and name not in SKIP_CARDS:
            cards.append(name)
    return cards


def one(case):
    try:
        return case, simpredict.do_case(case), None
    except Exception as e:   # a pair that cannot run is reported, not hidden
        return case, None, str(e).splitlines()[0][:200]


def family(name):
    parts = name.split("-")
    return "-".join(parts[:2]) if len(parts) > 1 else name


def summarise(label, results):
    rows, skipped, failed = [], 0, []
    bounds = bounds_ok = 0
    fams = collections.Counter()
    worst = (0.0, "")
    for case, got, err in results:
        if err:
            failed.append("%s: %s" % (case.id, err))
            continue
        clock, width, notes, rr = got
        if clock <= case.from_hz * 1.01:
            skipped += 1
            continue
        for r in rr:
            e = simpredict.worst(r)
            rows.append(e)
            if r.get("bound"):
                bounds += 1
                bounds_ok += e <= simpredict.TOL_PCT
            if not e <= simpredict.TOL_PCT:
                fams[family(r["workload"])] += 1
            if not e <= worst[0]:
                worst = (e, "%s %s" % (case.id, r["workload"]))
    n = len(rows)
    ok = sum(1 for e in rows if e <= simpredict.TOL_PCT)
    print("%s: %d pairs, %d predicted 25 -> 50 MHz (%d could not run faster), %d failed to run"
          % (label, len(results), len(results) - skipped - len(failed), skipped, len(failed)))
    if n:
        print("  %d of %d workloads within %.0f%% both ways (%.1f%%); worst %.1f%% (%s)"
              % (ok, n, simpredict.TOL_PCT, 100.0 * ok / n, worst[0], worst[1]))
        print("  not upper bounds: %d of %d within %.0f%%; upper bounds (the card's time hid in "
              "the run): %d of %d within %.0f%%" % (ok - bounds_ok, n - bounds,
                                                    simpredict.TOL_PCT, bounds_ok, bounds,
                                                    simpredict.TOL_PCT))
    if fams:
        print("  misses by workload: " + ", ".join("%s %d" % kv for kv in fams.most_common()))
    for f in failed:
        print("  did not run: " + f)
    return ok, n


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--random", type=int, default=40, help="generated pairs (default 40)")
    ap.add_argument("--first-seed", type=int, default=1)
    ap.add_argument("--shipped-hosts", default="pi1,pi3,pi4",
                    help="hosts the shipped cards run on ('' for none)")
    ap.add_argument("--jobs", type=int, default=2)
    a = ap.parse_args()
    shipped = [simpredict.Case(h, c, 25000000, 50000000)
               for h in [x for x in a.shipped_hosts.split(",") if x] for c in shipped_cards()]
    gen = [simpredict.Case("random:%d" % s, "random:%d" % s, 25000000, 50000000)
           for s in range(a.first_seed, a.first_seed + a.random)]
    print("sdbreport --predict 25 -> 50 MHz against the run at 50 MHz (sim/predict_pairs.py)")
    total_ok = total_n = 0
    with concurrent.futures.ThreadPoolExecutor(max_workers=a.jobs) as ex:
        for label, cases in (("shipped cards", shipped), ("generated pairs", gen)):
            if not cases:
                continue
            ok, n = summarise(label, list(ex.map(one, cases)))
            total_ok += ok
            total_n += n
    if total_n:
        print("all: %d of %d workloads within %.0f%% both ways (%.1f%%)"
              % (total_ok, total_n, simpredict.TOL_PCT, 100.0 * total_ok / total_n))


if __name__ == "__main__":
    main()
