#!/usr/bin/python3
"""quick_gen.py - the quick suite as users run it (build/host/sdbsim, suite
= quick), on generated card / host pairs (sdbsim --random-card SEED
--random-host SEED, sim/sim_gen.c): every workload's measured split and
verdict against the simulator's wire truth (sim/simtruth.py's rules).

tests/sim/test_bench_accuracy.c runs the engine's own workloads on the
same generated pairs; this is the whole program: the suite's calibration,
its workload list, sizes and order, its random numbers. Used by `make
bench-sim` (part 2b, 70 pairs), by tests/test_sdbsim_gen.py (a few pairs
in `make test`), and alone:

    quick_gen.py [--first-seed S] [--pairs N] [--jobs J] [--misses]

Printed: per pair its workloads within 5 points, the worst and the
verdicts; then over all pairs the workloads within 5 and 10 points, the
worst, the verdicts right / no diagnosis / wrong, and every miss with
--misses. Exit status 1 when a figure is below its floor (FLOOR_* below,
applied whatever seeds ran), or a pair fails to run.
"""
import argparse
import concurrent.futures
import os
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import simtruth  # noqa: E402

# The floors, % of the workloads (of the verdicts) of whatever pairs ran,
# set from seeds 1-70 (make bench-sim part 2b): 3545 of 3570 within 5
# points (99.3%), 3550 within 10, worst 80.4, verdicts right 3532 (98.9%),
# where 22 of the misses are two faults the fixes of the 64-bit tick
# accumulators and of the calibration stall remove: generated pairs 7 and
# 59 (seq-write-4m, one request longer than the 32-bit tick wrap, 80.4 and
# 76.7 points off and host-bound where the truth is card) and pair 34 (a
# card stall during the bus calibration: 20 write workloads 6.7-16 points
# off). Without them 3567 of 3570 within 5 (99.9%), every one within 10,
# verdicts right 3534 (99.0%). The floors are set for that: below them,
# until those fixes are in, part 2b says FAILS.
FLOOR_5 = 99.5
FLOOR_10 = 99.5
FLOOR_VERDICT = 98.5   # of the diagnosed verdicts
# The workloads diagnosed (the rest "no diagnosis", right or silent): 89.1%
# on make test's 6 pairs once the critical path's bounds and the arrivals'
# bound silenced undecided verdicts and loosely dated shares.
FLOOR_DIAG = 85.0
MIN_WORKLOADS = 40   # compared per pair: the quick suite ran


def run_pair(seed):
    """(seed, exit status, comparison rows, console tail)."""
    code, recs, out = simtruth.run("random:%d" % seed, "random:%d" % seed)
    rows = simtruth.compare(recs, "gen %d" % seed)
    ok = code == 0 and recs and recs[-1]["type"] == "done" and recs[-1]["errors"] == 0
    return seed, ok, rows, out[-2000:]


def run_pairs(seeds, jobs=2):
    with concurrent.futures.ThreadPoolExecutor(max_workers=jobs) as ex:
        return list(ex.map(run_pair, seeds))


def figures(results):
    """The figures over every pair: a dict."""
    rows = [r for _, _, rr, _ in results for r in rr]
    worst = max(rows, key=lambda r: r["err"] if r["err"] == r["err"] else 1e9, default=None)
    nd = sum(1 for r in rows if r["no_diag"])
    right = sum(1 for r in rows if r["verdict_ok"] and not r["no_diag"])
    return dict(pairs=len(results), n=len(rows), w5=sum(r["share_ok"] for r in rows),
                w10=sum(r["err"] <= simtruth.TOL_WIDE_PP for r in rows),
                worst=worst["err"] if worst else 0.0, what=worst["id"] if worst else "",
                right=right, no_diag=nd, wrong=len(rows) - right - nd,
                failed=[s for s, ok, rr, _ in results if not ok or len(rr) < MIN_WORKLOADS])


def pct(a, b):
    return 100.0 * a / b if b else 0.0


def below_floor(f, floors=None):
    """The floors a figure is below (text), none when it passes. floors:
    (within 5, within 10, verdicts right of the diagnosed[, diagnosed]) in
    %, default FLOOR_*. Right or silent: a workload without a diagnosis is
    neither right nor wrong; the diagnosed share has its own floor."""
    out = []
    floors = tuple(floors or (FLOOR_5, FLOOR_10, FLOOR_VERDICT))
    f5, f10, fv = floors[:3]
    fd = floors[3] if len(floors) > 3 else FLOOR_DIAG
    diag = f["n"] - f.get("no_diag", 0)
    for name, n, of, floor in (("within 5 pp", f["w5"], f["n"], f5),
                               ("within 10 pp", f["w10"], f["n"], f10),
                               ("verdicts right of the diagnosed", f["right"], diag, fv),
                               ("diagnosed", diag, f["n"], fd)):
        if of and not pct(n, of) >= floor:
            out.append("%s %d of %d (%.1f%%), below the floor %.1f%%"
                       % (name, n, of, pct(n, of), floor))
    if f["failed"]:
        out.append("pairs that did not run the quick suite to its end: %s"
                   % ", ".join(str(s) for s in f["failed"]))
    return out


def report(results, misses=False, indent="  "):
    for seed, ok, rows, tail in results:
        w = max(rows, key=lambda r: r["err"] if r["err"] == r["err"] else 1e9, default=None)
        print("%spair %3d: %2d workloads, %2d within %.0f pp, worst %5.2f pp (%s); verdicts "
              "right %d, no diagnosis %d%s" % (
                  indent, seed, len(rows), sum(r["share_ok"] for r in rows), simtruth.TOL_PP,
                  w["err"] if w else 0.0, w["workload"] if w else "-",
                  sum(1 for r in rows if r["verdict_ok"] and not r["no_diag"]),
                  sum(1 for r in rows if r["no_diag"]), "" if ok else "; DID NOT RUN TO ITS END"))
        if not ok:
            print(indent + "  " + tail.strip().splitlines()[-1] if tail.strip() else "")
        if misses:
            for line in simtruth.misses(rows):
                print(indent + "  " + line)
    f = figures(results)
    print("%sall: %d pairs, %d workloads, %d within %.0f pp (%.1f%%), %d within %.0f pp "
          "(%.1f%%), worst %.2f pp (%s); verdicts right %d of %d (%.1f%%), %d no diagnosis, "
          "%d wrong" % (indent, f["pairs"], f["n"], f["w5"], simtruth.TOL_PP,
                        pct(f["w5"], f["n"]), f["w10"], simtruth.TOL_WIDE_PP,
                        pct(f["w10"], f["n"]), f["worst"], f["what"], f["right"], f["n"],
                        pct(f["right"], f["n"]), f["no_diag"], f["wrong"]))
    return f


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--first-seed", type=int, default=1)
    ap.add_argument("--pairs", type=int, default=70)
    ap.add_argument("--jobs", type=int, default=2)
    ap.add_argument("--misses", action="store_true", help="print every miss")
    a = ap.parse_args()
    if not os.path.exists(simtruth.SDBSIM):
        sys.exit("quick_gen: build first (make)")
    t0 = time.time()
    res = run_pairs(range(a.first_seed, a.first_seed + a.pairs), a.jobs)
    f = report(res, a.misses)
    bad = below_floor(f)
    for b in bad:
        print("  FAIL: " + b)
    print("  (the check %s; %.0f s)" % ("FAILS" if bad else "passes", time.time() - t0))
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
