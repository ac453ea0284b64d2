"""simpredict.py - the prediction check on the simulator: run a card profile
under build/host/sdbsim at one bus setting, predict another with
`sdbreport --predict` from that run's records alone, run the other setting,
and compare MB/s, IOPS and mean latency per workload. Used by
tests/test_predict.py and by tests/sim/bench_sim.py (`make bench-sim`).

Both runs use `--seed-per-workload`: the card's random numbers restart at
each workload from the seed and the workload's name, so the two runs draw
the same card latencies and stalls, and what differs is what the bus
setting changes. (Without it a stall that falls into one workload in one
run and into another in the other makes single workloads differ by 20-90%:
that is the card's luck, which no prediction from one run can know.)
"""
import json
import os
import subprocess
import tempfile

ROOT = os.path.abspath(os.path.join(os.path.dirname(__file__), "..", ".."))
SDBSIM = os.path.join(ROOT, "build", "host", "sdbsim")
SDBREPORT = os.path.join(ROOT, "build", "host", "sdbreport")

TOL_PCT = 10.0
SEED = 1


def checked(workload):
    """The workloads the 10% promise covers: every sequential one and the
    random 4 KiB ones (the others are compared and printed too)."""
    return workload.startswith("seq-") or workload in ("rand-read-4k", "rand-write-4k")


class Case:
    """One prediction: host and card, the setting measured and the one
    predicted. width4: the target runs the same card with the 4-bit bus
    allowed (a copy of the profile with bus4 = yes, same name and timing)."""

    def __init__(self, host, card, from_hz, to_hz, width4=False):
        self.host, self.card, self.from_hz, self.to_hz, self.width4 = \
            host, card, from_hz, to_hz, width4

    @property
    def id(self):
        return "%s/%s %s->%s%s" % (self.host, self.card, _mhz(self.from_hz), _mhz(self.to_hz),
                                   " 4-bit" if self.width4 else "")


def _mhz(hz):
    return "%gM" % (hz / 1e6)


def run(card, host, max_hz, tmpdir, tag, per_workload=True):
    """Run sdbsim's quick suite at max_clock_hz; return the log's path."""
    cfg = os.path.join(tmpdir, "%s.txt" % tag)
    with open(cfg, "w") as f:
        f.write("suite = quick\nconsole_wait = 0\nseed = %d\nmax_clock_hz = %d\n" % (SEED, max_hz))
    log = os.path.join(tmpdir, "%s.log" % tag)
    with open(log, "wb") as out:
        p = subprocess.run([SDBSIM, "--profile", card, "--host", host, "--config", cfg,
                            "--seed", str(SEED)] + (["--seed-per-workload"] if per_workload
                                                    else []),
                           stdout=out, stderr=subprocess.STDOUT, timeout=900)
    if p.returncode != 0:
        raise RuntimeError("sdbsim %s %s exit %d: %s" % (host, card, p.returncode,
                                                          open(log).read()[-2000:]))
    return log


def records(log):
    out = []
    with open(log, encoding="utf-8", errors="replace") as f:
        for line in f:
            if line.startswith("@ "):
                out.append(json.loads(line[2:]))
    return out


def four_bit_copy(card, tmpdir):
    """The card's profile with the 4-bit bus allowed: same name (so the same
    random numbers), same timing."""
    text = subprocess.run([SDBSIM, "--dump-profile", card], stdout=subprocess.PIPE,
                          check=True).stdout.decode()
    lines = [l for l in text.splitlines() if not l.startswith("bus4 ")] + ["bus4 = yes"]
    path = os.path.join(tmpdir, "%s-4bit.txt" % card)
    with open(path, "w") as f:
        f.write("\n".join(lines) + "\n")
    return path


def predict(log, clock_hz, width, sdbreport=SDBREPORT):
    """sdbreport --predict --json on log; return the prediction object."""
    p = subprocess.run([sdbreport, "-q", "--json", "--predict", "--clock", str(clock_hz),
                        "--width", str(width), log], stdout=subprocess.PIPE,
                       stderr=subprocess.PIPE, timeout=120)
    if p.returncode not in (0, 1):
        raise RuntimeError("sdbreport exit %d: %s" % (p.returncode, p.stderr.decode()))
    return json.loads(p.stdout.decode())["prediction"]


def err_pct(pred, actual):
    if not isinstance(pred, (int, float)) or not isinstance(actual, (int, float)) or not actual:
        return float("nan")
    return (pred - actual) / actual * 100.0


def do_case(case, tmpdir=None, sdbreport=SDBREPORT, per_workload=True):
    """Run both settings and compare: (target clock, width, notes, rows).
    per_workload=False: one random stream for the whole run, so a card
    stall may fall into different workloads in the two runs."""
    own = tmpdir is None
    tmpdir = tmpdir or tempfile.mkdtemp(prefix="sdbpredict-")
    tag = case.id.replace("/", "_").replace(" ", "_").replace(">", "")
    a = run(case.card, case.host, case.from_hz, tmpdir, tag + "-from", per_workload)
    card_b = four_bit_copy(case.card, tmpdir) if case.width4 else case.card
    b = run(card_b, case.host, case.to_hz, tmpdir, tag + "-to", per_workload)
    rb = records(b)
    res_b = {r["workload"]: r for r in rb if r["type"] == "result"}
    lat_b = {r["workload"]: r for r in rb if r["type"] == "latency"}
    first = next(iter(res_b.values()))
    clock, width = first["clock_hz"], first["width"]
    pred = predict(a, clock, width, sdbreport)
    rows = []
    for w in pred["workloads"]:
        name = w["workload"]
        if name not in res_b or w.get("p_mbs") is None:
            continue
        act = res_b[name]
        # the rates from the record's own ns and bytes: its mbs and iops
        # are rounded (0.5 IOPS, 0.008 MB/s) too coarsely for a comparison
        el = act["elapsed_ns"]
        rows.append(dict(
            workload=name, checked=checked(name), method=w["method"],
            pace="%s->%s" % (w["paced_by"], w["p_paced_by"]) if w["method"] == "pipeline" else "",
            mbs=w["mbs"], p_mbs=w["p_mbs"], a_mbs=act["bytes"] / el * 1e3,
            err_mbs=err_pct(w["p_mbs"], act["bytes"] / el * 1e3),
            err_iops=err_pct(w["p_iops"], act["ops"] / el * 1e9),
            err_lat=err_pct(w["p_mean_ns"], lat_b.get(name, {}).get("mean_ns"))))
    if own:
        for f in os.listdir(tmpdir):
            os.unlink(os.path.join(tmpdir, f))
        os.rmdir(tmpdir)
    return clock, width, pred["notes"], rows


def worst(row):
    """The largest of a row's three errors (NaN counts as failing)."""
    e = [row["err_mbs"], row["err_iops"], row["err_lat"]]
    if any(x != x for x in e):
        return float("inf")
    return max(abs(x) for x in e)


# The cases of the check (tests/test_predict.py) and of `make bench-sim`:
# a CPU-paced host (pi1: 51 us per block against a 25 us frame at
# 41.67 MHz 4-bit), a slow card, 1-bit at two clocks, 1-bit to 4-bit (the
# pace moves from the bus to the CPU), card-side clock-counted gaps behind a
# controller with gaps of its own, a fast host and card, and a prediction
# downwards. 50 MHz asks for High Speed's maximum; the Arasan divider of
# the 250 MHz base clock gives 41.67 MHz, and the prediction is made for
# the clock the target run really had.
CASES = [
    Case("pi1", "sdhc-c10-16g", 25000000, 50000000),
    Case("pi0", "sdhc-c4-8g", 25000000, 50000000),
    Case("pi3", "sdhc-1bit-4g", 25000000, 50000000),
    Case("pi1", "sdhc-1bit-4g", 25000000, 50000000, width4=True),
    Case("test-gaps", "sdhc-gaps-16g", 25000000, 50000000),
    Case("pi4", "sdxc-a2-64g", 50000000, 25000000),
]
