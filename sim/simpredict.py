"""simpredict.py - the prediction check on the simulator: run a card profile
under build/host/sdbsim at one bus setting, predict another with
`sdbreport --predict` from that run's records alone, run the other setting,
and compare MB/s, IOPS and mean latency per workload. Used by
tests/test_predict.py and by sim/bench_sim.py (`make bench-sim`).

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

ROOT = os.path.abspath(os.path.join(os.path.dirname(__file__), ".."))
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

    def __init__(self, host, card, from_hz, to_hz, width4=False, bus_from=None, bus_to=None,
                 to_host=None):
        self.host, self.card, self.from_hz, self.to_hz, self.width4 = \
            host, card, from_hz, to_hz, width4
        # bus_from / bus_to: the bus_mode key of the two runs (UHS-I modes),
        # predicted with --bus-mode; to_host: the target runs on another
        # host profile, predicted with --cpu-factor = the two profiles'
        # data-port read costs (what a user would give for another board)
        self.bus_from, self.bus_to, self.to_host = bus_from, bus_to, to_host

    @property
    def id(self):
        if self.bus_to:
            return "%s/%s %s->%s" % (self.host, self.card, self.bus_from, self.bus_to)
        if self.to_host:
            return "%s->%s/%s %s" % (self.host, self.to_host, self.card, _mhz(self.from_hz))
        return "%s/%s %s->%s%s" % (self.host, self.card, _mhz(self.from_hz), _mhz(self.to_hz),
                                   " 4-bit" if self.width4 else "")


def _mhz(hz):
    return "%gM" % (hz / 1e6)


def run(card, host, max_hz, tmpdir, tag, per_workload=True, bus_mode=None):
    """Run sdbsim's quick suite at max_clock_hz (or in bus_mode); return the
    log's path."""
    cfg = os.path.join(tmpdir, "%s.txt" % tag)
    with open(cfg, "w") as f:
        f.write("suite = quick\nconsole_wait = 0\nseed = %d\n" % SEED)
        # The cases are PIO runs: since sdbsim builds pi0-pi3 from their SoC
        # tables, auto is the real boards' DMA there (docs/prediction.md
        # covers the predictor on PIO; DMA runs are not among its cases).
        f.write("data_path = pio\n")
        f.write("bus_mode = %s\n" % bus_mode if bus_mode else "max_clock_hz = %d\n" % max_hz)
    log = os.path.join(tmpdir, "%s.log" % tag)
    with open(log, "wb") as out:
        p = subprocess.run([SDBSIM] + _which(card, host) + ["--config", cfg,
                            "--seed", str(SEED)] + (["--seed-per-workload"] if per_workload
                                                    else []),
                           stdout=out, stderr=subprocess.STDOUT, timeout=900)
    if p.returncode != 0:
        raise RuntimeError("sdbsim %s %s exit %d: %s" % (host, card, p.returncode,
                                                          open(log).read()[-2000:]))
    return log


def _which(card, host):
    """sdbsim's arguments for a card and a host: a name or file, or
    "random:SEED" for a generated one (sdbsim --random-card / --random-host)."""
    args = []
    for opt, rnd, v in (("--profile", "--random-card", card), ("--host", "--random-host", host)):
        args += [rnd, v[7:]] if v.startswith("random:") else [opt, v]
    return args


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


def host_data_read_ns(host):
    """A host profile's data-port read cost in ns (sdbsim --dump-host)."""
    text = subprocess.run([SDBSIM, "--dump-host", host], stdout=subprocess.PIPE,
                          check=True).stdout.decode()
    for line in text.splitlines():
        k, _, v = line.partition("=")
        if k.strip() == "data_read":
            return float(v.strip().rstrip("ns"))
    raise RuntimeError("host %s: no data_read" % host)


def predict(log, clock_hz, width, sdbreport=SDBREPORT, bus_mode=None, cpu_factor=None):
    """sdbreport --predict --json on log; return the prediction object."""
    extra = (["--bus-mode", bus_mode] if bus_mode else []) + \
        (["--cpu-factor", "%.6f" % cpu_factor] if cpu_factor is not None else [])
    p = subprocess.run([sdbreport, "-q", "--json", "--predict", "--clock", str(clock_hz),
                        "--width", str(width)] + extra + [log], stdout=subprocess.PIPE,
                       stderr=subprocess.PIPE, timeout=120)
    if p.returncode not in (0, 1):
        raise RuntimeError("sdbreport exit %d: %s" % (p.returncode, p.stderr.decode()))
    return json.loads(p.stdout.decode())["prediction"]


def err_pct(pred, actual):
    if not isinstance(pred, (int, float)) or not isinstance(actual, (int, float)) or not actual:
        return float("nan")
    return (pred - actual) / actual * 100.0


def do_case(case, tmpdir=None, sdbreport=SDBREPORT, per_workload=True, silent=None):
    """Run both settings and compare: (target clock, width, notes, rows).
    per_workload=False: one random stream for the whole run, so a card
    stall may fall into different workloads in the two runs. silent: a
    list given here gets the workloads the predictor left out because the
    firmware gave them no diagnosis (their row's "no prediction: ...")."""
    own = tmpdir is None
    tmpdir = tmpdir or tempfile.mkdtemp(prefix="sdbpredict-")
    tag = case.id.replace("/", "_").replace(" ", "_").replace(">", "")
    a = run(case.card, case.host, case.from_hz, tmpdir, tag + "-from", per_workload,
            case.bus_from)
    card_b = four_bit_copy(case.card, tmpdir) if case.width4 else case.card
    b = run(card_b, case.to_host or case.host, case.to_hz, tmpdir, tag + "-to", per_workload,
            case.bus_to)
    rb = records(b)
    res_b = {r["workload"]: r for r in rb if r["type"] == "result"}
    lat_b = {r["workload"]: r for r in rb if r["type"] == "latency"}
    first = next(iter(res_b.values()))
    clock, width = first["clock_hz"], first["width"]
    cpu = None
    if case.to_host:
        cpu = host_data_read_ns(case.to_host) / host_data_read_ns(case.host)
    pred = predict(a, clock, width, sdbreport, case.bus_to, cpu)
    rows = []
    for w in pred["workloads"]:
        name = w["workload"]
        if name not in res_b or w.get("p_mbs") is None:
            if silent is not None and str(w.get("note") or "").startswith("no prediction"):
                silent.append(name)
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
            err_lat=err_pct(w["p_mean_ns"], lat_b.get(name, {}).get("mean_ns")),
            bound=w.get("bound", False)))
    if own:
        for f in os.listdir(tmpdir):
            os.unlink(os.path.join(tmpdir, f))
        os.rmdir(tmpdir)
    return clock, width, pred["notes"], rows


def worst(row):
    """The largest of a row's three errors, either way (NaN counts as
    failing). A row is right only within TOL_PCT both ways: a row the
    predictor marks as an upper bound (bound) that is more than TOL_PCT
    above (or below) the run is a miss like any other. The bound rows are
    counted apart too (bound_rows)."""
    e = [row["err_mbs"], row["err_iops"], row["err_lat"]]
    if any(x != x for x in e):
        return float("inf")
    return max(abs(x) for x in e)


def bound_rows(rows):
    """(upper-bound rows, of them within TOL_PCT both ways)."""
    b = [r for r in rows if r.get("bound")]
    return len(b), sum(1 for r in b if worst(r) <= TOL_PCT)


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
    # UHS-I: SDR50 (100 MHz) measured, SDR104 (208 MHz, tuned) predicted
    Case("uhs-sdr104", "uhs-sdr104-a2-64g", None, None, bus_from="sdr50", bus_to="sdr104"),
    # another board: a bus-paced Pi 2 measured, the CPU-paced Pi 1 predicted
    Case("pi2", "sdhc-c10-16g", 50000000, 50000000, to_host="pi1"),
    # and upwards: a CPU-paced Pi 1 measured, the Pi 2 predicted; the card's
    # delays between blocks hid behind the CPU, so the workloads whose pace
    # moves from the CPU to the bus are upper bounds (flagged, checked as such)
    Case("pi1", "sdhc-c10-16g", 50000000, 50000000, to_host="pi2"),
    # a generated pair whose card waits 1388 clocks between read blocks or
    # its own time, the longer (sim/README.md): the clock-counted wait
    # shrinks at 50 MHz, the time under it does not (docs/prediction.md)
    Case("random:4", "random:4", 25000000, 50000000),
]
