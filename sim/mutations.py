#!/usr/bin/python3
"""mutations.py - break the split on purpose and count what the tests catch
(`make bench-mutations`).

Each mutation below is one exact search / replace in one source file: the
bus model 10% too long, the clock-paced booking removed, the overlap rule
removed, the verdict rule naming the second part, a validity check switched
off, the tick-wrap accounting of long operations reverted, a driver's 64-bit
sum of tick differences made 32-bit again (SDHOST's seams, SDHCI's waits),
the write guard's limits loosened, --predict's cap at the target's bus
ceiling removed. The tree (its tracked and new files, as
they are now) is copied to a temporary directory; there the unmutated
baseline and then each mutation is built (only the test programs named)
and run; a Python test (a tests/ file, with ::name) runs under pytest while its
mutation is in place. For
tests/sim/test_bench_accuracy (82 shipped and make test's 40 generated
pairs, where its floors apply) it prints per set the workloads within 5
and within 10 points of the wire truth, the misses, the worst and the
regimes with the most misses, and which floors failed; for the other
tests, the checks that failed. A mutation must make its test fail.

A search text that is not found exactly once is an error before anything
is built: a source that drifted away from a mutation is reported, never
silently left unmutated.

  --list          print the mutations and the lines they touch, run nothing
  --only NAME     only these mutations (comma-separated; the baseline runs too)
  --keep          keep the temporary tree (its path is printed)
  --tests NAMES   run only these of each mutation's tests (comma-separated;
                  make bench-confirm: test_confirm on the split mutations)

Environment: BENCH_MUTATIONS_JOBS = test programs run at once (default 2).
Exit status: 0 when the baseline passes and every mutation is caught; 1
when a mutation survives or the baseline fails; 2 on a mutation that no
longer applies or a build that fails.
"""
import argparse
import concurrent.futures
import os
import re
import shutil
import subprocess
import sys
import tempfile
import time

ROOT = os.path.abspath(os.path.join(os.path.dirname(__file__), ".."))
ACCURACY = "test_bench_accuracy"
CONFIRM = "test_confirm"   # the counterfactual checks: prints CONFIRM_COUNTS


class Mutation:
    def __init__(self, name, what, path, search, replace, tests):
        self.name, self.what, self.path = name, what, path
        self.search, self.replace, self.tests = search, replace, tests


MUTATIONS = [
    Mutation("bus-model-x1.1",
             "the bus model's block frame 10% too long (bus_block_clocks)",
             "bench/engine/busmodel.c",
             "return 1u + (8u * blksz + width - 1u) / width + 16u + 1u;",
             "return (1u + (8u * blksz + width - 1u) / width + 16u + 1u) * 11u / 10u;",
             [ACCURACY, CONFIRM]),
    Mutation("clock-paced-removed",
             "the clock-paced booking removed: the calibrated clocks beyond the "
             "framing booked as bus again (pipe_bus_ns)",
             "bench/engine/attribution.c",
             "int64_t per = (int64_t)in->pitch + (in->cal_clocks < 0 ? in->cal_clocks : 0);",
             "int64_t per = (int64_t)in->pitch + in->cal_clocks;",
             [ACCURACY]),
    Mutation("overlap-rule-removed",
             "the overlap rule removed: the driver's count of its waits and a "
             "read's measured standing time for the CPU ignored (pipeline_host)",
             "bench/engine/attribution.c",
             "if (a->counted_blocks && a->counted_blocks >= in->overlapped && in->overlapped) {",
             "if (0 && a->counted_blocks && a->counted_blocks >= in->overlapped && "
             "in->overlapped) {",
             [ACCURACY]),
    Mutation("fifo-seams-removed",
             "SDHOST's FIFO rule removed: the seams the driver measured between "
             "blocks ignored, the rule from the totals again (pipeline_host)",
             "bench/engine/attribution.c",
             "if (in->fifo && a->seams + a->seams_full >= in->overlapped) {",
             "if (0 && in->fifo && a->seams + a->seams_full >= in->overlapped) {",
             [ACCURACY]),
    Mutation("verdict-names-second",
             "the verdict rule names the critical path's second part where one part "
             "dominates (decide)",
             "bench/engine/attribution.c",
             "p.verdict = share[0] >= ATTR_DOMINANT_PCT ? order[0] : BOTTLENECK_MIXED;",
             "p.verdict = share[0] >= ATTR_DOMINANT_PCT ? order[1] : BOTTLENECK_MIXED;",
             [ACCURACY]),
    Mutation("validity-ceiling-off",
             "the validity check of a rate above the bus ceiling switched off "
             "(check_ceiling)",
             "bench/engine/validity.c",
             "if (s->ceiling_pct <= 100.0)\n\t\treturn;",
             "if (s->ceiling_pct <= 1e300)\n\t\treturn;",
             ["test_validity"]),
    Mutation("idle-clocks-check-off",
             "the controller's own idle clocks never taken for the card's clock-paced "
             "wait (phase_split_idle: the test-gaps reads diagnosed again)",
             "bench/engine/attribution.c",
             "s->idle_amb_pct = amb;",
             "s->idle_amb_pct = 0 * amb;",
             ["test_validity", "test_bench_accuracy"]),
    Mutation("long-op-wrap-reverted",
             "an operation longer than half the tick wrap booked from its "
             "32-bit stamps again (book_request)",
             "bench/engine/workload.c",
             "} else if (call_ns > timer_wrap_ns() / 2) {",
             "} else if (0 && call_ns > timer_wrap_ns() / 2) {",
             ["test_long_ops"]),
    Mutation("long-op-latency-wrapped",
             "an operation longer than half the tick wrap given its wrapped 32-bit "
             "stamps' difference as its latency (wl_do)",
             "bench/engine/workload.c",
             "if (end_ns - before_ns > timer_wrap_ns() / 2) /* the tick counter wrapped */",
             "if (0 && end_ns - before_ns > timer_wrap_ns() / 2)",
             ["test_long_ops"]),
    Mutation("sdhost-seam-accumulator-32-bit",
             "SDHOST's seam accumulator 32-bit again: one request's seams over 2^32 "
             "ticks wrap (struct sd_req_times seam_ticks)",
             "drivers/sd/sd_host.h",
             "\tuint64_t seam_ticks, seam_full_ticks;",
             "\tuint32_t seam_ticks, seam_full_ticks;",
             ["test_long_ops"]),
    Mutation("sdhci-wait-accumulator-32-bit",
             "the SDHCI driver's sum of its waits 32-bit again: one request's waits "
             "over 2^32 ticks wrap (struct sd_req_times wait_ticks)",
             "drivers/sd/sd_host.h",
             "\tuint64_t wait_ticks;",
             "\tuint32_t wait_ticks;",
             ["test_long_ops"]),
    Mutation("guard-area-check-removed",
             "the write guard's test-area checks removed: a write anywhere on the card "
             "passes (write_guard_check)",
             "bench/storage/write_guard.c",
             "!write_guard_in_area(g, lba, count) ||\n\t\t !test_area_contains(g->area, lba, "
             "count) || ",
             "",
             ["test_bench_integrity"]),
    Mutation("guard-log-end-plus-one",
             "the results file's region one block longer than its run "
             "(write_guard_log_write)",
             "bench/storage/write_guard.c",
             "lba_range_end(&want) <= lba_range_end(&g->log[i]);",
             "lba_range_end(&want) <= lba_range_end(&g->log[i]) + 1;",
             ["test_write_guard"]),
    Mutation("sdhci-divider-off-by-one",
             "the simulated SDHCI's clock divider one more than the driver believes "
             "(f = base / 2(N + 1)): the split's bus at the wrong clock",
             "sim/sim_sdhci_bus.c",
             "return n ? cfg()->base_clock_hz / (2 * n) : cfg()->base_clock_hz;",
             "return n ? cfg()->base_clock_hz / (2 * (n + 1)) : cfg()->base_clock_hz;",
             [CONFIRM]),
    Mutation("block-count-stale",
             "the simulated SDHCI's Block Count stale until a read ends (it no longer "
             "falls as blocks cross the bus): the driver's look means something else",
             "sim/sim_sdhci_data.c",
             "\tif (cfg()->blkcnt == when && sim_hc.x.blkcnt_en",
             "\tif (when == SIM_BLKCNT_STALE && sim_hc.x.blkcnt_en",
             # the controller probe sees it (stale) and the split refuses
             # the look: the reads that needed it get no diagnosis, none is
             # left wrong for a counterfactual to contradict
             ["test_silicon"]),
    Mutation("predict-cap-removed",
             "sdbreport --predict no longer cut to the target's bus ceiling (_cap)",
             "tools/sdbhost/predict.py",
             "    if row.p_mbs <= cap:\n        return 0",
             "    if row.p_mbs <= cap or cap > 0:\n        return 0",
             ["tests/test_predict.py::test_predict_never_goes_above_the_target_bus_ceiling"]),
]


class NotApplicable(Exception):
    """A mutation's search text is not in its file exactly once."""


class BuildFailed(Exception):
    """The tree, mutated or not, does not build."""


def check_applies(m, root):
    """The 1-based line of the search text in root; NotApplicable when it is
    not there exactly once."""
    path = os.path.join(root, m.path)
    try:
        with open(path, encoding="utf-8") as f:
            text = f.read()
    except OSError as e:
        raise NotApplicable("%s: %s: %s" % (m.name, m.path, e.strerror))
    n = text.count(m.search)
    if n != 1:
        raise NotApplicable("%s: the search text is in %s %d times, not once (the source "
                            "changed: update sim/mutations.py):\n    %s"
                            % (m.name, m.path, n, m.search.replace("\n", "\n    ")))
    return text[:text.index(m.search)].count("\n") + 1


def apply(m, root):
    """Mutate the file in root; returns its original text."""
    check_applies(m, root)
    path = os.path.join(root, m.path)
    with open(path, encoding="utf-8") as f:
        text = f.read()
    with open(path, "w", encoding="utf-8") as f:
        f.write(text.replace(m.search, m.replace, 1))
    return text


def restore(m, root, text):
    with open(os.path.join(root, m.path), "w", encoding="utf-8") as f:
        f.write(text)


def copy_tree(dst):
    """The repository's tracked and new (not ignored) files, as they are in
    the working tree."""
    out = subprocess.run(["git", "-C", ROOT, "ls-files", "-z", "--cached", "--others",
                          "--exclude-standard"], check=True, stdout=subprocess.PIPE).stdout
    for rel in out.decode().split("\0"):
        src = os.path.join(ROOT, rel)
        if not rel or not os.path.isfile(src):
            continue  # deleted in the working tree
        os.makedirs(os.path.dirname(os.path.join(dst, rel)), exist_ok=True)
        shutil.copy2(src, os.path.join(dst, rel))


def is_pytest(test):
    """A Python test (a file of tests/, or one test of it with ::name), run
    by pytest in the tree while it is mutated; anything else is a program of
    build/host/tests."""
    return ".py" in test


def build(tree, tests, into):
    """Build the test programs in tree and keep a copy of each in into."""
    tests = [t for t in tests if not is_pytest(t)]
    if not tests:
        return  # make without a target would build everything
    targets = ["build/host/tests/" + t for t in tests]
    p = subprocess.run(["make", "-C", tree, "-j%d" % JOBS, "--no-print-directory"] + targets,
                       stdout=subprocess.PIPE, stderr=subprocess.STDOUT)
    if p.returncode:
        sys.stdout.write(p.stdout.decode("utf-8", "replace")[-4000:])
        raise BuildFailed("the build of %s in %s failed" % (" ".join(tests), into))
    os.makedirs(into, exist_ok=True)
    for t in tests:
        shutil.copy2(os.path.join(tree, "build/host/tests", t), os.path.join(into, t))


def run(tree, binary):
    p = subprocess.run([binary], cwd=tree, stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                       env=dict(os.environ, SIM_ACCURACY_GEN="40", SIM_ACCURACY_GEN_FIRST="1"))
    return p.returncode, p.stdout.decode("utf-8", "replace")


def run_pytest(tree, test):
    p = subprocess.run(["/usr/bin/python3", "-m", "pytest", "-q", "-p", "no:cacheprovider",
                        test], cwd=tree, stdout=subprocess.PIPE, stderr=subprocess.STDOUT)
    return p.returncode, p.stdout.decode("utf-8", "replace")


FIGURE = re.compile(r"^  (shipped profiles|generated pairs): (\d+) workloads, (\d+) within 5 pp "
                    r"\(([\d.]+)%\), (\d+) within 10 pp \(([\d.]+)%\), worst ([\d.na]+) pp "
                    r"\(([^)]*)\); verdicts right (\d+) of (\d+) \([\d.]+%\), (\d+) no "
                    r"diagnosis, (\d+) wrong$", re.M)
REGIME = re.compile(r"^    misses \(share or verdict\) in regime (.*?)\s+(\d+)$")
FAILED = re.compile(r"^  FAIL [^:]+:\d+: (.*)$|^E   +(\w*Error.*)$", re.M)


def figures(out):
    """{set: dict} of test_bench_accuracy's per-set figures, with the
    regimes of each set's misses in the order printed."""
    sets, cur = {}, None
    for line in out.splitlines():
        m = FIGURE.match(line)
        if m:
            cur = m.group(1)
            sets[cur] = dict(n=int(m.group(2)), w5=int(m.group(3)), p5=m.group(4),
                             w10=int(m.group(5)), p10=m.group(6), worst=m.group(7),
                             where=m.group(8), vok=int(m.group(9)), vn=int(m.group(10)),
                             vnd=int(m.group(11)), vwrong=int(m.group(12)), regimes=[])
            continue
        r = REGIME.match(line)
        if r and cur:
            sets[cur]["regimes"].append((r.group(1), int(r.group(2))))
    return sets


def verdict(rc, out):
    """'passes' or 'FAILS (...)': the floors that failed, or how many checks."""
    if rc == 0:
        return "passes"
    fails = [a or b for a, b in FAILED.findall(out)]
    floors = sorted({f for x in fails for f in re.findall(r"FLOOR_\w+|MIN_\w+", x)})
    other = [x for x in fails if not re.search(r"FLOOR_\w+|MIN_\w+", x)]
    parts = (["floors " + ", ".join(floors)] if floors else []) + \
            (["%d %schecks" % (len(other), "other " if floors else "")] if other else [])
    tests_failed = re.search(r"^(\d+) failed", out, re.M)   # pytest's summary line
    if tests_failed and not fails:
        parts.append("%s pytest tests" % tests_failed.group(1))
    elif not fails:
        parts.append("exit status %d" % rc)
    return "FAILS (%s)" % "; ".join(parts)


def print_result(test, rc, out, base):
    print("  %s: %s" % (test, verdict(rc, out)))
    if test == CONFIRM:
        for line in out.splitlines():
            # the counts, and each kind of check's (clock, width, cpu_delay)
            if line.startswith("CONFIRM_COUNTS") or \
                    re.match(r"  (shipped|generated) pairs, \w+: ", line):
                print("    " + line.strip())
        return
    if test != ACCURACY:
        for a, b in FAILED.findall(out)[:4]:
            print("    failed: %s" % (a or b)[:150])
        return
    sets = figures(out)
    for name in ("shipped profiles", "generated pairs"):
        s = sets.get(name)
        if not s:
            print("    %s: no figure printed" % name)
            continue
        b = base.get(name) if base else None
        was = lambda k: "" if not b else " (baseline %d)" % (b["n"] - b[k])  # noqa: E731
        print("    %s: %d workloads; %d within 5 pp (%s%%), %d miss%s; %d within 10 pp "
              "(%s%%), %d miss%s; worst %s pp (%s); verdicts right %d of %d, %d wrong%s"
              % (name, s["n"], s["w5"], s["p5"], s["n"] - s["w5"], was("w5"), s["w10"],
                 s["p10"], s["n"] - s["w10"], was("w10"), s["worst"], s["where"], s["vok"],
                 s["vn"], s["vwrong"], "" if not b else " (baseline %d)" % b["vwrong"]))
        for reg, n in s["regimes"][:3]:
            print("      misses in regime %-62s %3d" % (reg, n))


def list_mutations(root):
    status = 0
    for m in MUTATIONS:
        try:
            where = "%s:%d" % (m.path, check_applies(m, root))
        except NotApplicable as e:
            where, status = "NOT APPLICABLE", 2
            print(e)
        print("%-26s %-34s %s\n  - %s\n  + %s" % (m.name, where, m.what,
                                                m.search.replace("\n", "\\n"),
                                                m.replace.replace("\n", "\\n")))
    return status


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--list", action="store_true")
    ap.add_argument("--only")
    ap.add_argument("--keep", action="store_true")
    ap.add_argument("--tests")
    args = ap.parse_args()
    if args.list:
        return list_mutations(ROOT)
    chosen = [m for m in MUTATIONS if not args.only or m.name in args.only.split(",")]
    if args.only and len(chosen) != len(args.only.split(",")):
        raise SystemExit("bench-mutations: no mutation named %s (--list names them)"
                         % args.only)
    if args.tests:
        keep = args.tests.split(",")
        chosen = [Mutation(m.name, m.what, m.path, m.search, m.replace,
                           [t for t in m.tests if t in keep]) for m in chosen]
        if not all(m.tests for m in chosen):
            raise SystemExit("bench-mutations: --tests %s leaves a mutation without a test"
                             % args.tests)
    try:
        lines = {m.name: check_applies(m, ROOT) for m in chosen}
    except NotApplicable as e:
        print("bench-mutations: %s" % e, file=sys.stderr)
        return 2
    try:
        return run_all(chosen, lines, args.keep)
    except (NotApplicable, BuildFailed) as e:
        print("bench-mutations: %s" % e, file=sys.stderr)
        return 2


def run_all(chosen, lines, keep):
    t0 = time.time()
    tmp = tempfile.mkdtemp(prefix="sdb-mutations-")
    tree, bins = os.path.join(tmp, "tree"), os.path.join(tmp, "bin")
    try:
        copy_tree(tree)
        base_tests = sorted({t for m in chosen for t in m.tests})
        build(tree, base_tests, os.path.join(bins, "baseline"))
        res = {("baseline", t): run_pytest(tree, t) for t in base_tests if is_pytest(t)}
        for m in chosen:
            text = apply(m, tree)
            try:
                build(tree, m.tests, os.path.join(bins, m.name))
                res.update({(m.name, t): run_pytest(tree, t) for t in m.tests if is_pytest(t)})
            finally:
                restore(m, tree, text)
        jobs = [("baseline", t) for t in base_tests if not is_pytest(t)] + \
            [(m.name, t) for m in chosen for t in m.tests if not is_pytest(t)]
        with concurrent.futures.ThreadPoolExecutor(max_workers=JOBS) as ex:
            futs = {j: ex.submit(run, tree, os.path.join(bins, j[0], j[1])) for j in jobs}
            res.update({j: f.result() for j, f in futs.items()})
    finally:
        if keep:
            print("bench-mutations: the tree is kept in %s" % tmp)
        else:
            shutil.rmtree(tmp, ignore_errors=True)
    return report(chosen, lines, base_tests, res, time.time() - t0)


def report(chosen, lines, base_tests, res, secs):
    print("== mutations: each built in a copy of the tree and run against its test "
          "(test_bench_accuracy: 82 shipped + 40 generated pairs, make test's floors)")
    print("baseline (unmutated)")
    base = {}
    for t in base_tests:
        rc, out = res[("baseline", t)]
        print_result(t, rc, out, None)
        if t == ACCURACY:
            base = figures(out)
    status = 0 if all(res[("baseline", t)][0] == 0 for t in base_tests) else 1
    for m in chosen:
        print("%s: %s:%d, %s" % (m.name, m.path, lines[m.name], m.what))
        for t in m.tests:
            rc, out = res[(m.name, t)]
            print_result(t, rc, out, base)
            if rc == 0:
                print("    SURVIVED: %s passes with this mutation" % t)
                status = 1
    summary(chosen, base_tests, res)
    print("%d mutations, %s; %.0f s" % (len(chosen), "every one caught" if status == 0 else
                                         "NOT every one caught or the baseline fails",
                                         secs))
    return status


def summary(chosen, base_tests, res):
    """One line per run: test_bench_accuracy's misses beyond 5 and 10 points
    and worst per set, or the other test's verdict."""
    print("summary: workloads more than 5 / 10 pp off the truth of how many, and the worst")
    for name, tests in [("baseline", base_tests)] + [(m.name, m.tests) for m in chosen]:
        for t in tests:
            rc, out = res[(name, t)]
            what = "%s %s" % (t, verdict(rc, out))
            if t == ACCURACY:
                sets = figures(out)
                what = "   ".join("%s %d / %d of %d, worst %s, verdicts wrong %d"
                                  % (k.split()[0], s["n"] - s["w5"], s["n"] - s["w10"], s["n"],
                                     s["worst"], s["vwrong"])
                                  for k, s in sorted(sets.items(), reverse=True)) + \
                    "   " + verdict(rc, out)
            print("  %-26s %s" % (name, what))


JOBS = int(os.environ.get("BENCH_MUTATIONS_JOBS", "2"))

if __name__ == "__main__":
    sys.exit(main())
