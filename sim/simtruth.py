"""simtruth.py - run the whole program on the simulator (build/host/sdbsim)
and compare each workload's measured split and verdict with the
simulator's wire truth (its `truth` records). Used by tests/test_sdbsim.py
and by sim/bench_sim.py (`make bench-sim`).

The rules are those of tests/sim/test_bench_accuracy.c: a share is right
within TOL_PP points of the truth, or without a diagnosis (right or
silent); a verdict must name the critical path's
largest part (within TOL_VERDICT_PP), a named one dominant within the
tolerance (the ceiling rule: the wires busy at least 90% - TOL_VERDICT_PP),
a mixed one with no dominant part and naming the two largest; "no
diagnosis" (a verdict record with valid false) is never wrong, and counted
apart (no_diag). No list excuses a miss: figure() counts
the workloads within TOL_PP and TOL_WIDE_PP and names the misses.
"""
import json
import math
import os
import re
import subprocess
import tempfile

ROOT = os.path.abspath(os.path.join(os.path.dirname(__file__), ".."))
SDBSIM = os.path.join(ROOT, "build", "host", "sdbsim")

TOL_PP = 5.0       # as in test_bench_accuracy.c
TOL_WIDE_PP = 10.0
TOL_VERDICT_PP = 5.0  # TOL_VERDICT_PP in test_bench_accuracy.c
DOMINANT = 60.0    # ATTR_DOMINANT_PCT
CEILING = 90.0     # ATTR_CEILING_BUS_PCT

PARTS = ("card", "bus", "host")


def run(card, host="sim", config="suite = quick\n", seed=None, timeout=900, controller=None):
    """Run sdbsim; return (exit status, records, console text). controller:
    None (the host profile's SDHCI on data_path = auto), "dma" (the same
    on data_path = dma), "sdhost" or "sdhost-dma" (SDHOST by PIO / by the
    DMA engine). card "random:SEED" / host "random:SEED": a generated card
    / host (sdbsim --random-card / --random-host)."""
    if controller in ("sdhost-dma", "dma"):
        config += "data_path = dma\n"
    elif controller == "sdhost":
        # a real Pi 0-3's table moves SDHOST's data by the DMA engine on auto
        config += "data_path = pio\n"
    # a file of its own: under pytest-xdist two workers may run the same
    # host and card at once
    d = os.path.join(ROOT, "build", "host")
    os.makedirs(d, exist_ok=True)
    fd, cfg = tempfile.mkstemp(prefix="sdbsim-%s-%s-" % (os.path.basename(host).replace(":", "-"),
                                                         os.path.basename(card).replace(":", "-")),
                               suffix=".txt", dir=d)
    with os.fdopen(fd, "w") as f:
        f.write(config)
    cmd = [SDBSIM, "--config", cfg]
    cmd += (["--random-card", card[7:]] if card.startswith("random:") else ["--profile", card])
    cmd += (["--random-host", host[7:]] if host.startswith("random:") else ["--host", host])
    if seed is not None:
        cmd += ["--seed", str(seed)]
    if controller and controller.startswith("sdhost"):
        cmd += ["--controller", "sdhost"]
    p = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                       timeout=timeout)
    out = p.stdout.decode("utf-8", "replace")
    recs = []
    for line in out.splitlines():
        if line.startswith("@ "):
            recs.append(json.loads(line[2:]))
    os.unlink(cfg)
    return p.returncode, recs, out


def _verdict_parts(text):
    """(kind, top, second, ceiling) from a verdict line."""
    m = re.match(r"mixed (\w+)/(\w+) - ", text)
    if m:
        return "mixed", m.group(1), m.group(2), False
    kind = text.split("-bound")[0]
    ceiling = bool(re.match(r"bus-bound - [0-9.]+% of the ", text))
    return kind, kind, None, ceiling


def verdict_ok(text, tr, cr):
    """Whether a verdict line names the truth's largest part of the critical
    path (cr), a part within TOL_VERDICT_PP of the largest counting as it
    (docs/attribution.md, "The verdict against the truth"): a named part
    dominant too (the ceiling rule: the wires tr busy at least 90% -
    TOL_VERDICT_PP); a mixed one with no dominant part, naming the two
    largest."""
    kind, top, second, ceiling = _verdict_parts(text)
    order = sorted(range(3), key=lambda i: -cr[i])
    idx = {n: i for i, n in enumerate(PARTS)}
    tol = TOL_VERDICT_PP
    if kind == "mixed":
        t, s = idx.get(top, 0), idx.get(second, 0)
        return (cr[order[0]] < DOMINANT + tol and
                (t == order[0] or cr[t] >= cr[order[0]] - tol) and
                (s == order[1] or s == order[0] or abs(cr[s] - cr[order[1]]) <= tol))
    if kind not in idx:
        return False
    k = idx[kind]
    largest = order[0] == k or cr[k] >= cr[order[0]] - tol
    if ceiling:
        return largest and tr[1] >= CEILING - tol
    return largest and cr[k] >= DOMINANT - tol


def compare(recs, tag):
    """One dict per workload that printed phases and truth."""
    phases, verdicts, out = {}, {}, []
    for r in recs:
        if r["type"] == "phases":
            phases[r["workload"]] = r
        elif r["type"] == "verdict":
            verdicts[r["workload"]] = r
        elif r["type"] == "truth" and r["result_printed"] and r["workload"] in phases:
            w = r["workload"]
            p = phases[w]
            me = [p["card_pct"], p["bus_pct"], p["host_pct"]]
            tr = [r["card_pct"], r["bus_pct"], r["host_pct"]]
            cr = [r["crit_card_pct"], r["crit_bus_pct"], r["crit_host_pct"]]
            err = max(abs(a - b) for a, b in zip(me, tr))
            if any(math.isnan(x) for x in me + tr):
                err = float("nan")
            vrec = verdicts.get(w, {})
            v = vrec.get("text", "")
            no_diag = vrec.get("valid") is False
            v_ok = True if no_diag else verdict_ok(v, tr, cr)
            # right or silent: a share the firmware gave no diagnosis is
            # not a miss however far off (counted apart, no_diag)
            out.append(dict(id="%s/suite:%s" % (tag, w), workload=w, measured=me, truth=tr,
                            critical=cr, err=err, share_ok=no_diag or err <= TOL_PP, verdict=v,
                            verdict_ok=v_ok, no_diag=no_diag))
    return out


def misses(rows):
    """Lines for people: every workload whose share or verdict misses."""
    lines = []
    for r in rows:
        if not r["share_ok"]:
            lines.append("MISS share %s: error %.1f pp (measured %.1f/%.1f/%.1f, truth "
                         "%.1f/%.1f/%.1f)" % tuple([r["id"], r["err"]] + r["measured"] +
                                                   r["truth"]))
        if not r["verdict_ok"] and not r.get("no_diag"):
            lines.append("MISS verdict %s: %s; critical truth %.1f/%.1f/%.1f" % tuple(
                [r["id"], r["verdict"]] + r["critical"]))
    return lines


def figure(rows):
    """(workloads, within TOL_PP, within TOL_WIDE_PP, worst error, its id,
    verdicts right)."""
    worst = max(rows, key=lambda r: r["err"] if r["err"] == r["err"] else 1e9,
                default=None)
    return (len(rows), sum(r["share_ok"] for r in rows),
            sum(r["err"] <= TOL_WIDE_PP for r in rows),
            worst["err"] if worst else 0.0, worst["id"] if worst else "",
            sum(r["verdict_ok"] for r in rows))


def main(argv):
    """simtruth.py CARD [HOST [CONTROLLER]]: the quick suite under sdbsim on
    one pair (CARD / HOST a profile or "random:SEED"; CONTROLLER "sdhost" or
    "sdhost-dma"): every miss, the bus calibration line and the figure.
    Exit status 1 when a workload misses."""
    if not 2 <= len(argv) <= 4:
        print(main.__doc__)
        return 2
    card, host = argv[1], argv[2] if len(argv) > 2 else "sim"
    ctrl = argv[3] if len(argv) > 3 else None
    tag = "%s%s/%s" % (host, "+" + ctrl if ctrl else "", card)
    code, recs, out = run(card, host, controller=ctrl)
    rows = compare(recs, tag)
    for line in out.splitlines():
        if line.startswith("bus calibration"):
            print(line)
    for line in misses(rows):
        print(line)
    n, ok, ok10, worst, what, vok = figure(rows)
    print("%s: %d workloads, %d within %.0f pp, %d within %.0f pp, worst %.2f pp (%s); "
          "verdicts right %d of %d; sdbsim exit %d" % (tag, n, ok, TOL_PP, ok10, TOL_WIDE_PP,
                                                       worst, what, vok, n, code))
    return 0 if ok == n and code == 0 else 1


if __name__ == "__main__":
    import sys
    sys.exit(main(sys.argv))
