"""What the reports derive from records: workload groups, curves, CDFs,
stalls, per-operation phase times. Pure Python, no matplotlib."""
from .records import is_num

# Workload groups, in the order of the suite (bench/suite.c).
GROUPS = [
    ("seq-read", "Sequential read"),
    ("seq-write", "Sequential write"),
    ("random", "Random I/O, queue depth 1"),
    ("variant", "Command variants"),
    ("class", "Class check"),
    ("au", "Erase-block detection"),
    ("sustained", "Sustained write"),
    ("other", "Other workloads"),
]
GROUP_TITLE = dict(GROUPS)

# A series interval is a stall when its worst latency is at least this many
# times the median of the worst latencies of the workload's intervals.
STALL_FACTOR = 4.0
STALL_MIN_POINTS = 3

PHASE_PARTS = [
    ("cmd", "command"),
    ("access", "access"),
    ("bus", "data on the bus"),
    ("cpu", "CPU moving data"),
    ("busy", "busy"),
    ("gap", "host between requests"),
]


def group_of(result):
    kind, op = result.get("kind"), result.get("op")
    if kind == "seq":
        return "seq-write" if op == "write" else "seq-read"
    if kind in ("random", "mix"):
        return "random"
    if kind in ("variant", "class", "au", "sustained"):
        return kind
    return "other"


def groups(run):
    """[(key, title, [workload names])] for the groups present in the run."""
    members = {}
    for name in run.result_workloads():
        members.setdefault(group_of(run.workloads[name]["result"]), []).append(name)
    return [(k, t, members[k]) for k, t in GROUPS if k in members]


def seq_curve(run, op):
    """[(xfer_bytes, mbs, iops, name)] of the sequential workloads of op, by size."""
    pts = []
    for name in run.result_workloads():
        r = run.workloads[name]["result"]
        if r.get("kind") == "seq" and r.get("op") == op and is_num(r.get("xfer_bytes")) \
                and is_num(r.get("mbs")):
            pts.append((r["xfer_bytes"], r["mbs"], r.get("iops"), name))
    return sorted(pts, key=lambda p: (p[0], p[1], p[3]))   # iops may be null


def latency_points(run, names):
    """{name: latency record} for names that have a usable one."""
    out = {}
    for n in names:
        lat = run.workloads.get(n, {}).get("latency")
        if lat and is_num(lat.get("p50_ns")):
            out[n] = lat
    return out


def cdf(hist):
    """Cumulative fraction of operations at each bucket's upper edge:
    ([edge_ns], [fraction]); buckets are four per octave."""
    lo, cnt = hist.get("lo_ns"), hist.get("count")
    if not isinstance(lo, list) or not isinstance(cnt, list):
        return [], []
    pairs = [(a, c) for a, c in zip(lo, cnt) if is_num(a) and is_num(c) and a > 0 and c >= 0]
    total = sum(c for _, c in pairs)
    if not total:
        return [], []
    xs, ys, acc = [pairs[0][0]], [0.0], 0
    for a, c in sorted(pairs):
        acc += c
        xs.append(a * 2 ** 0.25)
        ys.append(acc / total)
    return xs, ys


def median(v):
    s = sorted(x for x in v if is_num(x))
    if not s:
        return None
    m = len(s) // 2
    return s[m] if len(s) % 2 else (s[m - 1] + s[m]) / 2.0


def series_points(ser):
    """([t_s], [mbs], [worst_ms]) of a series record (cut to equal length)."""
    mbs, worst, step = ser.get("mbs"), ser.get("worst_ns"), ser.get("interval_ns")
    if not isinstance(mbs, list) or not is_num(step):
        return [], [], []
    worst = worst if isinstance(worst, list) else [None] * len(mbs)
    n = min(len(mbs), len(worst))
    ts = [(i + 1) * step / 1e9 for i in range(n)]
    return ts, mbs[:n], [w / 1e6 if is_num(w) else None for w in worst[:n]]


def stalls(ser):
    """Indices of the series intervals whose worst latency is a stall."""
    worst = ser.get("worst_ns")
    if not isinstance(worst, list):
        return []
    vals = [w for w in worst if is_num(w)]
    if len(vals) < STALL_MIN_POINTS:
        return []
    med = median(vals)
    if not med:
        return []
    return [i for i, w in enumerate(worst) if is_num(w) and w >= STALL_FACTOR * med]


def split_holds(ph, verdict=None):
    """False when the firmware marked the workload's split invalid ("no
    diagnosis": its phases or verdict record carries "valid": false): then
    no card / bus / host shares and no bus efficiency are shown for it."""
    return (ph or {}).get("valid") is not False and (verdict or {}).get("valid") is not False


def phase_per_op(ph):
    """{part: microseconds per operation} from a phases record, or None.
    The data phase is split into the CPU moving data (host_ns) and the rest
    (frames on the bus, card stalls); the gap is host time between requests."""
    ops = ph.get("ops")
    if not is_num(ops) or ops <= 0:
        return None
    g = {k: ph.get(k) if is_num(ph.get(k)) else 0 for k in
         ("cmd_ns", "access_ns", "data_ns", "host_ns", "busy_ns", "gap_ns")}
    cpu = min(max(g["host_ns"], 0), max(g["data_ns"], 0))
    parts = {"cmd": g["cmd_ns"], "access": g["access_ns"], "bus": g["data_ns"] - cpu,
             "cpu": cpu, "busy": g["busy_ns"], "gap": g["gap_ns"]}
    return {k: max(v, 0) / ops / 1000.0 for k, v in parts.items()}


def fit_holds(f):
    """A sweep fit T = a + b/f is a fit only when b, the bus's clocks, is
    above 0 (the firmware's `fit_holds`; older logs: b itself)."""
    if f.get("fit_holds") is False:
        return False
    return is_num(f.get("b_clocks")) and f["b_clocks"] > 0


def sweep_points(run):
    """{(op, width): [(clock_hz, mean_ns, mbs, ceiling_mbs)]} and
    {(op, width): fit record}."""
    pts, fits = {}, {}
    for r in run.all("sweep"):
        key = (r.get("op"), r.get("width"))
        if "fit" in r:
            fits[key] = r
        elif is_num(r.get("clock_hz")) and r["clock_hz"] > 0:
            pts.setdefault(key, []).append((r["clock_hz"], r.get("mean_ns"), r.get("mbs"),
                                            r.get("ceiling_mbs")))
    for k in pts:
        pts[k].sort(key=lambda p: p[0])   # by clock only: the rest may be null
    return pts, fits


def integrity_bad(rec):
    """Number of blocks that did not read back as written."""
    return sum(rec.get(k) for k in ("changed", "overwritten", "stale", "corrupted",
                                    "read_errors") if is_num(rec.get(k)))


def run_label(run, i, total):
    """A short name for a run in comparisons: A, B, ..."""
    return chr(ord("A") + i) if i < 26 else "R%d" % (i + 1)
