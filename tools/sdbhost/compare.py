"""sdbreport compare A B ...: every workload of the first run against the
same workload of the others - the median operation's rate, its sample
count and spread (p90 to fastest operation), the difference in per cent,
and whether that difference is larger than the runs' own spread.

A difference counts ("yes") when each run's median lies outside the other
run's spread (p90..fastest) and both had at least MIN_SAMPLES operations;
"no" when the medians lie inside each other's spread; "too few samples"
when one has fewer; "only in A" / "only in B" when one of the two runs has
no such workload. Pure Python."""
from . import fmt as F
from .headline import MIN_SAMPLES, figure_of


def _fig(run, name):
    r = (run.workloads.get(name) or {}).get("result") or {}
    return figure_of(run, name, name, iops=r.get("kind") in ("random", "mix") and
                     F.text(r.get("xfer_bytes")) == "4096", median=True)


ONLY_IN = "only in"


def exceeds(a, b, labels=("A", "B")):
    """True / False / None (too few samples) for figures a and b, or
    "only in A" / "only in B" (labels) when one is missing."""
    if (a is None) != (b is None):
        return "%s %s" % (ONLY_IN, labels[0] if b is None else labels[1])
    if a is None or a.few or b.few:
        return None

    def inside(x, f):
        lo, hi = f.lo, f.hi
        if lo is None or hi is None:
            return False
        return min(lo, hi) <= x <= max(lo, hi)
    return not inside(b.value, a) and not inside(a.value, b)


def rows(runs, labels=None):
    """[(workload, [Figure or None per run], [delta % per other run], [exceeds])]."""
    labels = labels or [chr(ord("A") + i) for i in range(len(runs))]
    names = []
    for run in runs:
        for n in run.result_workloads():
            if n not in names:
                names.append(n)
    out = []
    for n in names:
        figs = [_fig(run, n) for run in runs]
        base = figs[0]
        deltas, sig = [], []
        for lab, f in zip(labels[1:], figs[1:]):
            d = F.ratio(base.value, f.value) if base and f else None
            deltas.append((d - 1) * 100 if d is not None else None)
            sig.append(exceeds(base, f, (labels[0], lab)))
        out.append((n, figs, deltas, sig))
    return out


def _cell(f):
    if f is None:
        return F.DASH
    spec = "%.0f" if f.unit == "IOPS" else "%.2f"
    return "%s %s n=%s%s" % (F.num(f.value, spec), f.unit, F.intg(f.ops),
                              "" if f.single else " (%s-%s)" % (F.num(f.lo, spec),
                                                               F.num(f.hi, spec)))


def _sig(v):
    if isinstance(v, str):
        return v
    return "too few samples" if v is None else "yes" if v else "no"


def render_text(runs, labels, out):
    for lab, run in zip(labels, runs):
        out.write("%s = %s, %s\n" % (lab, run.path, run.describe()))
    out.write("\nper workload: the median operation's rate, n = operations, (p90 - fastest);"
              "\ndifference against %s, and whether it is larger than the runs' own spread\n\n"
              % labels[0])
    for n, figs, deltas, sig in rows(runs, labels):
        out.write("%s\n" % n)
        for lab, f in zip(labels, figs):
            out.write("  %-3s %s\n" % (lab, _cell(f)))
        for lab, d, s in zip(labels[1:], deltas, sig):
            if isinstance(s, str):
                out.write("  %s vs %s: %s\n" % (lab, labels[0], s))
                continue
            out.write("  %s vs %s: %s, beyond the spread: %s\n" % (
                lab, labels[0], "%+.1f%%" % d if d is not None else F.DASH, _sig(s)))


def as_json(runs, labels):
    def fj(f):
        return None if f is None else {"value": f.value, "unit": f.unit, "ops": f.ops,
                                       "low": f.lo, "high": f.hi, "single_sample": f.single}
    return {"runs": [{"label": l, "log": r.path, "run": r.index} for l, r in zip(labels, runs)],
            "workloads": [{"workload": n, "figures": [fj(f) for f in figs],
                           "delta_pct": deltas,
                           "beyond_spread": [None if isinstance(v, str) else v for v in sig],
                           "only_in": [v[len(ONLY_IN) + 1:] if isinstance(v, str) else None
                                       for v in sig]}
                          for n, figs, deltas, sig in rows(runs, labels)]}
