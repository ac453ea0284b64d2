#!/usr/bin/python3
"""bench_sim.py - the accuracy figures of the card / bus / host split and
the full-suite durations, measured on the simulator (`make bench-sim`).
Every figure about the split's accuracy or the suite's length in README.md
and docs/ comes from this output.

  1. tests/sim/test_bench_accuracy (workloads run by the engine directly,
     host / card combinations, SDHOST by PIO and by the DMA engine and
     the EMMC by the DMA engine among them, and BENCH_SIM_GEN generated
     card / host pairs, default 200): per host, pairs within the
     tolerance and the worst error; per set, the workloads within 5 and
     10 points, the worst, the verdicts right (naming the truth's largest
     part of the critical path), without a diagnosis and wrong, the
     regimes of the misses, and every floor that fails.
  2. The whole quick suite under build/host/sdbsim on every host (SDHOST
     by PIO and DMA too) and a set of cards: each workload's measured
     split against its truth record.
  2b. The quick suite under build/host/sdbsim on BENCH_SIM_QUICK_GEN
     generated card / host pairs (default 70, seeds from 1;
     sim/quick_gen.py): each pair's workloads within 5 points, then the
     workloads within 5 and 10 points over all, the worst, the verdicts
     right, and whether the floors of sim/quick_gen.py hold.
  3. The full suite (suite = full) under sdbsim on a few cards: how long it
     takes in simulated time (what a Pi would take with that card and
     host) and in host time.
  5. (below, printed after 1) Controller variants: the generated pairs
     again under each SDHCI behaviour the authorities allow
     (docs/silicon.md; sim.h enum sim_blkcnt: bus, drain, stale; enum
     sim_bwe: bwe-empty; enum sim_dat0: dat0-lag, dat0-none; the write
     looks' variants on the SDHCI PIO pairs alone, the only ones they
     touch; enum sim_sdhost_fill: fill-lag, fill-stepped, on the SDHOST
     pairs alone; and all drawn per host): per variant the workloads, those marked "no
     diagnosis", the confidently wrong ones (diagnosed and off by more
     than 5 points; the check fails on any) and the share diagnosed on
     hosts whose probe confirmed the look (the check wants 90%).
  4. Prediction (`sdbreport --predict`): a profile run at one bus setting,
     the other setting predicted from its records and then run; the error
     of the predicted MB/s per workload (sim/simpredict.py, the cases
     of tests/test_predict.py).

Environment: BENCH_SIM_FULL = comma-separated HOST/CARD pairs for part 3
("none" skips it; default pi3/sdhc-c10-16g,pi3/sdxc-a2-64g,pi3/sdhc-c4-8g),
BENCH_SIM_PREDICT = "none" skips part 4,
BENCH_SIM_JOBS = parallel sdbsim runs (default 2),
BENCH_SIM_GEN = generated pairs in part 1 (default 200),
BENCH_SIM_QUICK_GEN = generated pairs in part 2b (default 70; 0 skips it).
BENCH_SIM_VARIANTS = comma-separated variants for part 5 (default
"bus,drain,stale,bwe-empty,dat0-lag,dat0-none,fill-lag,fill-stepped,drawn";
"none" skips it), BENCH_SIM_VARIANT_GEN = its
generated pairs (default BENCH_SIM_GEN).
`sim/bench_sim.py --variants` runs part 5 alone (make bench-silicon);
`--parts 2,2b` (any of 1,5,2,2b,3,4, in that order by default) the parts named.
"""
import concurrent.futures
import os
import re
import subprocess
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import quick_gen  # noqa: E402
import simpredict  # noqa: E402
import simtruth  # noqa: E402

ROOT = simtruth.ROOT
ACCURACY = os.path.join(ROOT, "build", "host", "tests", "test_bench_accuracy")
# "+sdhost" / "+sdhost-dma": the host profile with the SDHOST controller
# by PIO / by the DMA engine (sdbsim --controller sdhost).
HOSTS = ["pi0", "pi1", "pi2", "pi3", "pi4", "sim", "test-gaps",
         "pi1+sdhost", "pi3+sdhost", "pi1+sdhost-dma", "pi3+sdhost-dma"]


def run_host(card, label, **kw):
    """simtruth.run for a HOSTS label."""
    host, _, ctrl = label.partition("+")
    return simtruth.run(card, host, controller=ctrl or None, **kw)
CARDS = ["sdhc-c10-16g", "sdxc-a2-64g", "sdhc-1bit-4g", "sdhc-c4-8g", "sdhc-gaps-16g"]
FULL = "pi3/sdhc-c10-16g,pi3/sdxc-a2-64g,pi3/sdhc-c4-8g"
JOBS = int(os.environ.get("BENCH_SIM_JOBS", "2"))


def part1():
    print("== 1. engine workloads against the wire truth (tests/sim/test_bench_accuracy)")
    env = dict(os.environ, SIM_ACCURACY_GEN=os.environ.get("BENCH_SIM_GEN", "200"))
    p = subprocess.run([ACCURACY], stdout=subprocess.PIPE, stderr=subprocess.STDOUT, env=env)
    out = p.stdout.decode("utf-8", "replace")
    for line in out.splitlines():
        if re.match(r"\s+(host |tolerance |shipped profiles:|generated pairs:|  misses |FAIL )",
                    line):
            print(line)
    print("  (the check %s)" % ("passes" if p.returncode == 0 else "FAILS"))
    print()


def variant_run(v, n):
    only = ":sdhci" if v.startswith(("bwe-", "dat0-")) else \
        ":sdhost" if v.startswith("fill-") else "gen-host"
    env = dict(os.environ, SIM_ACCURACY_GEN=str(n), SIM_ACCURACY_ONLY=only,
               SIM_ACCURACY_VARIANT=v)
    t0 = time.time()
    p = subprocess.run([ACCURACY], stdout=subprocess.PIPE, stderr=subprocess.STDOUT, env=env)
    out = p.stdout.decode("utf-8", "replace")
    probe = {}
    for m in re.finditer(r"^  silicon: Block Count (\w+)$", out, re.M):
        probe[m.group(1)] = probe.get(m.group(1), 0) + 1
    for m in re.finditer(r"^  silicon: SDHOST fill (\w+)$", out, re.M):
        k = "SDHOST fill %s" % m.group(1)
        probe[k] = probe.get(k, 0) + 1
    for m in re.finditer(r"^  silicon: Buffer Write Enable (\w+), DAT0 (\w+)$", out, re.M):
        if m.group(1) != "unprobed":
            k = "writes %s/%s" % (m.group(1), m.group(2))
            probe[k] = probe.get(k, 0) + 1
    lines = [line for line in out.splitlines()
             if re.match(r"\s+generated pairs(:|, Block Count)", line)]
    return p.returncode, lines, probe, time.time() - t0


def part5():
    variants = os.environ.get("BENCH_SIM_VARIANTS",
                              "bus,drain,stale,bwe-empty,dat0-lag,dat0-none,fill-lag,fill-stepped,drawn")
    if variants == "none":
        return
    n = int(os.environ.get("BENCH_SIM_VARIANT_GEN", os.environ.get("BENCH_SIM_GEN", "200")))
    print("== 5. the generated pairs under each SDHCI controller behaviour (%d pairs, seeds "
          "1-%d; tests/sim/test_bench_accuracy, SIM_ACCURACY_VARIANT)" % (n, n))
    vs = variants.split(",")
    with concurrent.futures.ThreadPoolExecutor(max_workers=JOBS) as ex:
        res = dict(zip(vs, ex.map(lambda v: variant_run(v, n), vs)))
    for v in vs:
        rc, lines, probe, secs = res[v]
        print("  variant %s: the probe said %s; %.0f s" % (
            v, ", ".join("%s on %d hosts" % kv for kv in sorted(probe.items())) or "nothing",
            secs))
        for line in lines:
            print("  " + line.strip())
        print("    (the check %s)" % ("passes" if rc == 0 else "FAILS"))
    print()


def part2():
    print("== 2. the quick suite under build/host/sdbsim, every workload against its truth record")
    combos = [(h, c) for h in HOSTS for c in CARDS]
    t0 = time.time()
    with concurrent.futures.ThreadPoolExecutor(max_workers=JOBS) as ex:
        futs = {cb: ex.submit(run_host, cb[1], cb[0]) for cb in combos}
        res = {cb: f.result() for cb, f in futs.items()}
    total = dict(n=0, ok=0, v=0, vok=0, worst=0.0, what="")
    print("  %-15s %9s %9s %9s  %-28s %9s" % ("host", "workloads", "within", "worst pp",
                                              "(workload)", "verdicts"))
    for h in HOSTS:
        n = ok = v = vok = 0
        worst, what = 0.0, ""
        for c in CARDS:
            code, recs, out = res[(h, c)]
            rows = simtruth.compare(recs, "%s/%s" % (h, c))
            for r in rows:
                n += 1
                ok += r["share_ok"]
                v += 1
                vok += r["verdict_ok"] and not r["no_diag"]   # no diagnosis: not right
                if not r["err"] <= worst:
                    worst, what = r["err"], "%s/%s" % (c, r["workload"])
        print("  %-15s %9d %9d %9.2f  %-28s %4d/%-4d" % (h, n, ok, worst, what[:28], vok, v))
        total["n"] += n
        total["ok"] += ok
        total["v"] += v
        total["vok"] += vok
        if not worst <= total["worst"]:
            total["worst"], total["what"] = worst, "%s/%s" % (h, what)
    print("  %-22s %9s %9s %9s" % ("card", "workloads", "within", "worst pp"))
    for c in CARDS:
        rows = []
        for h in HOSTS:
            rows += simtruth.compare(res[(h, c)][1], "%s/%s" % (h, c))
        print("  %-22s %9d %9d %9.2f" % (c, len(rows), sum(r["share_ok"] for r in rows),
                                         max([r["err"] for r in rows] or [0])))
    print("  all: %d workloads on %d hosts x %d cards, %d within %.0f pp of the truth "
          "(%.1f%%), worst %.2f pp (%s); verdicts right %d of %d; %.0f s" % (
              total["n"], len(HOSTS), len(CARDS), total["ok"], simtruth.TOL_PP,
              100.0 * total["ok"] / max(total["n"], 1), total["worst"], total["what"],
              total["vok"], total["v"], time.time() - t0))
    n10 = sum(simtruth.figure(simtruth.compare(res[cb][1], "%s/%s" % (cb[0], cb[1])))[2]
              for cb in combos)
    print("  within %.0f pp: %d of %d (%.1f%%)" % (simtruth.TOL_WIDE_PP, n10, total["n"],
                                                   100.0 * n10 / max(total["n"], 1)))
    print()


def part2b():
    n = int(os.environ.get("BENCH_SIM_QUICK_GEN", "70"))
    if n <= 0:
        return
    print("== 2b. the quick suite under build/host/sdbsim on %d generated pairs (sim/quick_gen.py)"
          % n)
    t0 = time.time()
    res = quick_gen.run_pairs(range(1, 1 + n), JOBS)
    f = quick_gen.report(res, misses=True)
    bad = quick_gen.below_floor(f)
    for b in bad:
        print("  FAIL: " + b)
    print("  (the check %s; %.0f s)" % ("FAILS" if bad else "passes", time.time() - t0))
    print()


def part3():
    spec = os.environ.get("BENCH_SIM_FULL", FULL)
    if spec == "none":
        return
    pairs = [tuple(x.split("/", 1)) for x in spec.split(",") if x]
    print("== 3. the full suite (suite = full) under build/host/sdbsim")

    def one(hc):
        t0 = time.time()
        code, recs, out = simtruth.run(hc[1], hc[0], config="suite = full\n", timeout=3600)
        return code, recs, time.time() - t0

    with concurrent.futures.ThreadPoolExecutor(max_workers=JOBS) as ex:
        futs = {hc: ex.submit(one, hc) for hc in pairs}
        for hc in pairs:
            code, recs, wall = futs[hc].result()
            suite = [r for r in recs if r["type"] == "suite"]
            done = [r for r in recs if r["type"] == "done"]
            wl = sum(1 for r in recs if r["type"] == "result")
            if not suite or not done:
                print("  %-4s %-22s did not finish (exit %d)" % (hc[0], hc[1], code))
                continue
            print("  %-4s %-22s suite %6.1f s simulated (%4.1f min), whole run %6.1f s; "
                  "%d workloads; errors %d; host time %.0f s" % (
                      hc[0], hc[1], suite[-1]["elapsed_us"] / 1e6,
                      suite[-1]["elapsed_us"] / 6e7, done[-1]["elapsed_us"] / 1e6, wl,
                      done[-1]["errors"], wall))
    print()


def part4():
    if os.environ.get("BENCH_SIM_PREDICT") == "none":
        return
    print("== 4. prediction: sdbreport --predict from one run, against the run at that setting")
    print("  error of the predicted MB/s, %; IOPS has the same error, the mean latency the "
          "opposite one")
    cols = [("seq-read-4k", "sr4k"), ("seq-write-4k", "sw4k"), ("rand-read-4k", "rr4k"),
            ("rand-write-4k", "rw4k"), ("seq-read-1m", "sr1m"), ("seq-write-1m", "sw1m"),
            ("mix70-4k", "mix4k")]
    print("  %-36s %-15s %s %8s %6s  %s" % ("case (host/card, from->to)", "predicted at",
                                            " ".join("%6s" % c[1] for c in cols),
                                            "within", "worst", "(workload)"))
    t0 = time.time()
    with concurrent.futures.ThreadPoolExecutor(max_workers=JOBS) as ex:
        futs = [ex.submit(simpredict.do_case, c) for c in simpredict.CASES]
        res = [f.result() for f in futs]
    n = ok = nc = okc = nbt = nbt_ok = 0
    top = (0.0, "")
    for c, (clock, width, notes, rows) in zip(simpredict.CASES, res):
        by = {r["workload"]: r for r in rows}
        w = max(rows, key=simpredict.worst)
        within = [r for r in rows if simpredict.worst(r) <= simpredict.TOL_PCT]
        n += len(rows)
        ok += len(within)
        nc += sum(r["checked"] for r in rows)
        okc += sum(r["checked"] for r in within)
        if not simpredict.worst(w) <= top[0]:
            top = (simpredict.worst(w), "%s %s" % (c.id, w["workload"]))
        nb, nb_ok = simpredict.bound_rows(rows)
        nbt += nb
        nbt_ok += nb_ok
        print("  %-36s %-15s %s %4d/%-3d %6.2f  %s%s" % (
            c.id, "%.2f MHz %d-bit" % (clock / 1e6, width),
            " ".join("%+6.2f" % by[k]["err_mbs"] if k in by else "%6s" % "-" for k, _ in cols),
            len(within), len(rows), simpredict.worst(w), w["workload"],
            "; %d upper bounds, %d of them within %.0f%%, up to %+.1f%%" % (
                nb, nb_ok, simpredict.TOL_PCT,
                max(r["err_mbs"] for r in rows if r.get("bound"))) if nb else ""))
    print("  all: %d workloads in %d cases, %d within %.0f%% both ways (MB/s, IOPS and mean "
          "latency; an upper bound too); sequential and random 4 KiB: %d of %d; worst %.2f%% "
          "(%s); upper bounds %d, %d of them within %.0f%%; %.0f s" % (
              n, len(simpredict.CASES), ok, simpredict.TOL_PCT, okc, nc, top[0], top[1],
              nbt, nbt_ok, simpredict.TOL_PCT, time.time() - t0))
    c = simpredict.CASES[3]
    clock, width, notes, rows = simpredict.do_case(c, per_workload=False)
    w = max(rows, key=simpredict.worst)
    print("  %s without --seed-per-workload (one random stream: a card stall can fall into "
          "another workload in the other run): %d of %d within %.0f%%, worst %.1f%% (%s)" % (
              c.id, sum(simpredict.worst(r) <= simpredict.TOL_PCT for r in rows), len(rows),
              simpredict.TOL_PCT, simpredict.worst(w), w["workload"]))
    print()


def main():
    if not os.path.exists(ACCURACY) or not os.path.exists(simtruth.SDBSIM):
        sys.exit("bench_sim: build first (make)")
    if sys.argv[1:] == ["--variants"]:
        part5()
        return
    parts = {"1": part1, "5": part5, "2": part2, "2b": part2b, "3": part3, "4": part4}
    chosen = list(parts)
    if sys.argv[1:2] == ["--parts"] and len(sys.argv) == 3:
        chosen = sys.argv[2].split(",")
        if not chosen or any(p not in parts for p in chosen):
            sys.exit("bench_sim: --parts takes a comma-separated list of %s" % ",".join(parts))
    elif sys.argv[1:]:
        sys.exit("usage: bench_sim.py [--variants | --parts 1,5,2,2b,3,4]")
    for p in chosen:
        parts[p]()


if __name__ == "__main__":
    main()
