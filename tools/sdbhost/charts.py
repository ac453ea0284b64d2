"""Charts of sdbench runs (Debian's python3-matplotlib, Agg backend).

Every function takes the runs to draw as [(label, Run)] - one run for a
report, several for a comparison - and returns a Chart, or None when the
runs hold nothing to draw. Charts never use pyplot's global state, so many
can be made in one process.
"""
import io

import matplotlib
matplotlib.use("Agg")
from matplotlib.figure import Figure  # noqa: E402
from matplotlib.ticker import FixedLocator, FuncFormatter, LogLocator, MaxNLocator, NullLocator  # noqa: E402

from . import fmt as F  # noqa: E402
from . import model  # noqa: E402
from .records import is_num  # noqa: E402

EMULATED_MARK = "emulated run (QEMU): emulation speed, not a card's"
SIMULATED_MARK = "simulated run (build/host/sdbsim): the simulator's model, not a card"
PHASE_COLOURS = {"cmd": "#4c72b0", "access": "#dd8452", "bus": "#55a868", "cpu": "#c44e52",
                 "busy": "#8172b3", "gap": "#937860"}
SPLIT_COLOURS = {"card": "#dd8452", "bus": "#55a868", "host": "#c44e52"}
OP_STYLE = {"read": "-", "write": "--", "mixed": ":"}


class Chart:
    """A figure and what it shows: name (file stem), title, the labels of
    the drawn series (for tests and alt text)."""

    def __init__(self, fig, name, title, series):
        self.fig = fig
        self.name = name
        self.title = title
        self.series = series

    def png(self, dpi=80):
        buf = io.BytesIO()
        self.fig.savefig(buf, format="png", dpi=dpi)
        return buf.getvalue()

    @property
    def alt(self):
        return "%s: %s" % (self.title, ", ".join(self.series))


# After matplotlib's ten: ten more that differ from them and each other
# (a chart of 14 workloads must not draw two in one colour).
_MORE_COLOURS = ["#000000", "#bfef45", "#469990", "#800000", "#000075", "#f032e6",
                 "#ffe119", "#9a6324", "#808000", "#42d4f4"]


def _colour(i):
    if i < 10:
        return "C%d" % i
    return _MORE_COLOURS[(i - 10) % len(_MORE_COLOURS)]


def bus_ceiling_mbs(xfer_bytes, clock_hz, width, write, ddr=False):
    """The bus alone's rate for one multi-block transfer of xfer_bytes: its
    command, the data blocks at the framing's pitch and the stop command,
    at clock_hz (the framing of docs/attribution.md section 2)."""
    from .predict import CMD_CLOCKS, STOP_CLOCKS, pitch_clocks
    if not (is_num(xfer_bytes) and is_num(clock_hz) and is_num(width)) or clock_hz <= 0 \
            or width not in (1, 4, 8) or xfer_bytes <= 0:
        return None
    blocks = max(1, int(xfer_bytes) // 512)
    clocks = CMD_CLOCKS + blocks * pitch_clocks(int(width), write, ddr) + \
        (STOP_CLOCKS if blocks > 1 else 0)
    return xfer_bytes / (clocks / clock_hz) / 1e6


def _fig(w, h, emulated, left=0.75, top=0.5):
    """A figure with a fixed layout (margins in inches; the constrained
    layout would cost a third of the drawing time)."""
    fig = Figure(figsize=(w, h))
    fig.subplots_adjust(left=left / w, right=1 - 0.2 / w, bottom=0.55 / h, top=1 - top / h,
                        wspace=0.25)
    if emulated:
        fig.text(0.99, 0.99, emulated if isinstance(emulated, str) else EMULATED_MARK,
                 ha="right", va="top", fontsize=7, color="#b00020")
    return fig


def _label_margin(labels, fontsize=7):
    """Inches for y tick labels of this many characters."""
    return 0.25 + 0.6 * fontsize / 72.0 * max([len(l) for l in labels] + [4])


def _grid_fig(n, cols, panel_h, emulated):
    """A figure of small multiples with a fixed layout (constrained layout
    costs seconds with many axes)."""
    cols = min(cols, n)
    rows = (n + cols - 1) // cols
    h = panel_h * rows + 0.8
    fig = _fig(10, h, emulated)
    fig.subplots_adjust(left=0.07, right=0.98, bottom=0.5 / h, top=1 - 0.4 / h,
                        hspace=0.55, wspace=0.28)
    axes = fig.subplots(rows, cols, squeeze=False).ravel()
    for ax in axes[n:]:
        ax.set_visible(False)
    return fig, axes


def _lean(ax, n=4):
    """Few ticks and no minor ones: most of a chart's drawing time is
    spent making tick objects."""
    for axis, scale in ((ax.xaxis, ax.get_xscale()), (ax.yaxis, ax.get_yscale())):
        if scale == "log":
            lo, hi = sorted(axis.get_view_interval())
            if lo > 0 and hi / lo < 30:
                # less than a decade and a half: a few round values
                ticks = sorted({float("%.2g" % (lo * (hi / lo) ** ((k + 0.5) / n)))
                                for k in range(n)})
                axis.set_major_locator(FixedLocator(ticks))
            else:
                axis.set_major_locator(LogLocator(base=10, numticks=n + 2))
            axis.set_major_formatter(FuncFormatter(lambda v, _: "%g" % v))
        else:
            axis.set_major_locator(MaxNLocator(n))
        axis.set_minor_locator(NullLocator())


def _size_axis(ax):
    ax.set_xscale("log", base=2)
    ax.xaxis.set_major_locator(LogLocator(base=2, numticks=8))
    ax.xaxis.set_minor_locator(NullLocator())
    ax.xaxis.set_major_formatter(FuncFormatter(lambda v, _: F.size(v).replace(" ", "")))


def _emulated(runs):
    """The mark a chart of these runs carries: emulated, simulated, or None."""
    if any(r.emulated for _, r in runs):
        return EMULATED_MARK
    if any(getattr(r, "simulated", False) for _, r in runs):
        return SIMULATED_MARK
    return None


def _name(label, n, runs):
    return n if len(runs) == 1 else "%s %s" % (label, n)


# --- sequential --------------------------------------------------------------

def seq_throughput(runs):
    """MB/s against transfer size, read and write."""
    fig = _fig(9, 3.6, _emulated(runs))
    axes = fig.subplots(1, 2, sharey=True)
    series = []
    for ax, op in zip(axes, ("read", "write")):
        for i, (lab, run) in enumerate(runs):
            pts = model.seq_curve(run, op)
            if not pts:
                continue
            name = _name(lab, "seq-" + op, runs)
            colour = _colour(i) if len(runs) > 1 else ("C0" if op == "read" else "C3")
            ax.plot([p[0] for p in pts], [p[1] for p in pts], marker="o", ms=3,
                    color=colour, label=name)
            series.append(name)
            # the bus ceiling at the clock and width each transfer ran at
            ceil = []
            for x, _, _, n in pts:
                r = run.workloads[n]["result"]
                c = bus_ceiling_mbs(x, r.get("clock_hz"), r.get("width"), op == "write",
                                    str((run.one("card") or {}).get("timing")) == "DDR50")
                if c:
                    ceil.append((x, c))
            if ceil:
                ax.plot([p[0] for p in ceil], [p[1] for p in ceil], ls="--", lw=1,
                        color=colour if len(runs) > 1 else "#555",
                        label=_name(lab, "bus ceiling", runs))
        _size_axis(ax)
        ax.set_title("sequential " + op)
        ax.set_xlabel("transfer size")
        ax.grid(True, alpha=0.3)
        if ax.lines:
            ax.legend(fontsize=7)
    axes[0].set_ylim(bottom=0)      # after both: the shared top fits read and write
    axes[0].set_ylabel("MB/s (10^6 B/s)")
    if not series:
        return None
    return Chart(fig, "seq-throughput", "Sequential throughput against transfer size", series)


def seq_latency(runs):
    """p50, p99 and max latency against transfer size."""
    fig = _fig(9, 3.6, _emulated(runs))
    axes = fig.subplots(1, 2, sharey=True)
    series = []
    for ax, op in zip(axes, ("read", "write")):
        for i, (lab, run) in enumerate(runs):
            pts = model.seq_curve(run, op)
            lat = model.latency_points(run, [p[3] for p in pts])
            for key, style in (("p50_ns", "-"), ("p99_ns", "--"), ("max_ns", ":")):
                xy = [(p[0], lat[p[3]].get(key) / 1000.0) for p in pts
                      if p[3] in lat and is_num(lat[p[3]].get(key)) and lat[p[3]][key] > 0]
                if not xy:
                    continue
                name = _name(lab, "%s %s" % (op, key[:-3]), runs)
                ax.plot([a for a, _ in xy], [b for _, b in xy], style, marker=".",
                        color=_colour(i), label=name)
                series.append(name)
        _size_axis(ax)
        ax.set_yscale("log")
        ax.set_title("sequential %s latency" % op)
        ax.set_xlabel("transfer size")
        ax.grid(True, alpha=0.3)
        if ax.lines:
            ax.legend(fontsize=7)
    axes[0].set_ylabel("latency per operation (us)")
    if not series:
        return None
    return Chart(fig, "seq-latency", "Sequential latency percentiles against transfer size",
                 series)


# --- bars: IOPS / MB/s per workload ------------------------------------------

def rate_bars(runs, names, name, title):
    """IOPS and MB/s of the named workloads, one bar per run."""
    names = [n for n in names if any("result" in r.workloads.get(n, {}) for _, r in runs)]
    if not names:
        return None
    fig = _fig(9, 1.1 + 0.28 * len(names) * max(1, len(runs)) ** 0.6, _emulated(runs),
               left=_label_margin(names))
    axes = fig.subplots(1, 2, sharey=True)
    h = 0.8 / len(runs)
    series = []
    for k, (key, xlabel) in enumerate((("iops", "IOPS"), ("mbs", "MB/s (10^6 B/s)"))):
        ax = axes[k]
        for i, (lab, run) in enumerate(runs):
            ys, vals = [], []
            for j, n in enumerate(names):
                v = (run.workloads.get(n, {}).get("result") or {}).get(key)
                if is_num(v):
                    ys.append(j + (i - (len(runs) - 1) / 2.0) * h)
                    vals.append(v)
            if vals:
                bars = ax.barh(ys, vals, height=h, color=_colour(i),
                               label=lab if len(runs) > 1 else None)
                ax.bar_label(bars, fmt="%.0f" if key == "iops" else "%.2f", fontsize=6,
                             padding=2)
                if k == 0:
                    series.append(lab if len(runs) > 1 else "iops")
        ax.set_xlabel(xlabel)
        ax.margins(x=0.15)
        ax.grid(True, axis="x", alpha=0.3)
    axes[0].set_yticks(range(len(names)), names, fontsize=7)
    axes[0].invert_yaxis()
    if len(runs) > 1:
        axes[0].legend(fontsize=7)
    series = [_name(lab, n, runs) for lab, r in runs for n in names
              if "result" in r.workloads.get(n, {})]
    return Chart(fig, name, title, series)


# --- latency distributions ---------------------------------------------------

def latency_cdf(runs, names, name, title):
    """Latency CDF from the histogram buckets, percentiles as dots. One axes
    with every workload for a single run; small multiples per workload,
    runs overlaid, in a comparison."""
    have = [n for n in names if any(r.workloads.get(n, {}).get("histogram") for _, r in runs)]
    if not have:
        return None
    single = len(runs) == 1
    panels = [None] if single else have
    if single:
        fig = _fig(8, 3.6, _emulated(runs))
        axes = [fig.subplots()]
    else:
        fig, axes = _grid_fig(len(panels), 3, 2.2, _emulated(runs))
    series = []
    for p, panel in enumerate(panels):
        ax = axes[p]
        for i, (lab, run) in enumerate(runs):
            for j, n in enumerate(have if single else [panel]):
                w = run.workloads.get(n, {})
                xs, ys = model.cdf(w.get("histogram") or {})
                if not xs:
                    continue
                c = _colour(j) if single else _colour(i)
                ax.step([x / 1000.0 for x in xs], ys, where="post", color=c,
                        label=n if single else lab)
                lat = w.get("latency") or {}
                pts = [(lat.get(k), q) for k, q in (("p50_ns", 0.5), ("p90_ns", 0.9),
                                                    ("p99_ns", 0.99)) if is_num(lat.get(k))]
                if pts:
                    ax.plot([a / 1000.0 for a, _ in pts], [q for _, q in pts], "o", ms=3,
                            color=c)
                series.append(_name(lab, n, runs))
        ax.set_xscale("log")
        ax.set_ylim(0, 1.02)
        ax.grid(True, alpha=0.3)
        _lean(ax, 5 if single else 3)
        ax.set_xlabel("latency (us)", fontsize=8)
        ax.set_ylabel("fraction of operations", fontsize=8)
        if not single:
            ax.set_title(panel, fontsize=9)
        ax.legend(fontsize=6 if single else 7, ncol=2 if single and len(have) > 7 else 1)
    return Chart(fig, name, title, series)


def latency_histograms(runs, names, name, title):
    """The latency histograms (four buckets per octave) as shares of each
    workload's operations: every workload on one axes for a single run,
    small multiples per workload with the runs overlaid in a comparison."""
    have = [n for n in names if any(r.workloads.get(n, {}).get("histogram") for _, r in runs)]
    if not have:
        return None
    single = len(runs) == 1
    if single:
        fig = _fig(9, 3.4, _emulated(runs))
        axes = [fig.subplots()] * len(have)
    else:
        fig, axes = _grid_fig(len(have), 3, 2.0, _emulated(runs))
    series = []
    for p, n in enumerate(have):
        ax = axes[p]
        for i, (lab, run) in enumerate(runs):
            h = run.workloads.get(n, {}).get("histogram") or {}
            lo, cnt = h.get("lo_ns") or [], h.get("count") or []
            pts = [(a, c) for a, c in zip(lo, cnt) if is_num(a) and is_num(c) and a > 0 and c >= 0]
            total = sum(c for _, c in pts)
            if not total:
                continue
            xs = [a / 1000.0 for a, _ in pts]
            ws = [a * (2 ** 0.25 - 1) / 1000.0 for a, _ in pts]
            ax.bar(xs, [c / total for _, c in pts], width=ws, align="edge",
                   color=_colour(p if single else i), alpha=0.55,
                   label=n if single else lab)
            series.append(_name(lab, n, runs))
        ax.set_xscale("log")
        ax.grid(True, alpha=0.2)
        _lean(ax, 5 if single else 3)
        if not single:
            ax.set_title(n, fontsize=8)
            ax.tick_params(labelsize=6)
            if p == 0:
                ax.legend(fontsize=6)
    if single:
        ax = axes[0]
        ax.set_xlabel("latency (us)")
        ax.set_ylabel("share of the operations")
        ax.legend(fontsize=6, ncol=2 if len(have) > 7 else 1)
    else:
        fig.supxlabel("latency (us)", fontsize=8)
        fig.supylabel("share of the operations", fontsize=8)
    return Chart(fig, name, title, series)


# --- time series -------------------------------------------------------------

def time_series(runs, names, name, title):
    """MB/s per interval with the worst latency behind it; stalls (worst
    latency >= 4x the workload's median worst) marked in red."""
    have = [n for n in names if any(r.workloads.get(n, {}).get("series") for _, r in runs)]
    if not have:
        return None
    fig, axes = _grid_fig(len(have), 4, 1.7, _emulated(runs))
    series = []
    stall_total = 0
    for p, n in enumerate(have):
        ax = axes[p]
        for i, (lab, run) in enumerate(runs):
            ser = run.workloads.get(n, {}).get("series")
            if not ser:
                continue
            ts, mbs, worst = model.series_points(ser)
            xy = [(t, v) for t, v in zip(ts, mbs) if is_num(v)]
            if not xy:
                continue
            ax.plot([t for t, _ in xy], [v for _, v in xy], color=_colour(i), lw=1,
                    label=lab if len(runs) > 1 else "MB/s")
            st = [k for k in model.stalls(ser) if k < len(ts) and is_num(mbs[k])]
            stall_total += len(st)
            if st:
                ax.plot([ts[k] for k in st], [mbs[k] for k in st], "v", color="#d62728",
                        ms=5, label="stall" if p == 0 and i == 0 else None)
                for k in st:
                    step = ts[0]
                    ax.axvspan(ts[k] - step, ts[k], color="#d62728", alpha=0.12, lw=0)
            series.append(_name(lab, n, runs))
        ax.set_title(n, fontsize=8)
        ax.tick_params(labelsize=6)
        ax.set_ylim(bottom=0)
        ax.grid(True, alpha=0.2)
        _lean(ax, 3)
        if p == 0 and (len(runs) > 1 or stall_total):
            ax.legend(fontsize=6)
    fig.supxlabel("time (s)", fontsize=8)
    fig.supylabel("MB/s per interval", fontsize=8)
    c = Chart(fig, name, title, series)
    c.stalls = stall_total
    return c


# --- phases ------------------------------------------------------------------

def phase_bars(runs, names, name, title):
    """Per-operation time split into phases, as shares of the operation
    (stacked), with the time per operation at the end of each bar; next to
    it the card / bus / host split behind the verdict."""
    rows = []
    for n in names:
        for lab, run in runs:
            ph = run.workloads.get(n, {}).get("phases")
            if ph:
                per = model.phase_per_op(ph)
                if per and sum(per.values()) > 0:
                    ok = model.split_holds(ph, run.workloads[n].get("verdict"))
                    rows.append((_name(lab, n, runs), per, ph if ok else None))
    if not rows:
        return None
    fig = _fig(10, 1.2 + 0.24 * len(rows), _emulated(runs), left=_label_margin([r[0] for r in rows]),
               top=0.75)
    ax, ax2 = fig.subplots(1, 2, sharey=True, gridspec_kw={"width_ratios": [3, 2]})
    ys = list(range(len(rows)))
    left = [0.0] * len(rows)
    for key, label in model.PHASE_PARTS:
        vals = [100.0 * per[key] / sum(per.values()) for _, per, _ in rows]
        ax.barh(ys, vals, left=left, color=PHASE_COLOURS[key], label=label, height=0.75)
        left = [a + b for a, b in zip(left, vals)]
    for y, (_, per, _) in zip(ys, rows):
        # beside the axes (which run 0-100%), not inside them
        ax.text(1.01, y, "%s us/op" % F.num(sum(per.values()), "%.1f"), va="center",
                fontsize=6, transform=ax.get_yaxis_transform(), clip_on=False)
    ax.set_xlim(0, 100)
    fig.subplots_adjust(wspace=0.3)
    ax.set_xlabel("share of the time per operation (%)")
    ax.set_yticks(ys, [r[0] for r in rows], fontsize=7)
    ax.invert_yaxis()
    ax.legend(fontsize=6, ncol=6, loc="lower left", bbox_to_anchor=(0, 1.0), frameon=False)
    left = [0.0] * len(rows)
    for key in ("card", "bus", "host"):
        # no split bar for a "no diagnosis" workload (ph None): the firmware
        # found its split invalid
        vals = [ph.get(key + "_pct") if ph and is_num(ph.get(key + "_pct")) else 0
                for _, _, ph in rows]
        ax2.barh(ys, vals, left=left, color=SPLIT_COLOURS[key], label=key, height=0.75)
        left = [a + b for a, b in zip(left, vals)]
    for y, (_, _, ph) in zip(ys, rows):
        if ph is None:
            ax2.text(2, y, "no diagnosis", va="center", fontsize=6)
    ax2.set_xlim(0, 100)
    ax2.set_xlabel("card / bus / host split (%)")
    ax2.legend(fontsize=6, ncol=3, loc="lower left", bbox_to_anchor=(0, 1.0), frameon=False)
    return Chart(fig, name, title, [r[0] for r in rows])


# --- clock sweep -------------------------------------------------------------

def sweep(runs):
    """MB/s against the SD clock (bus ceilings dashed) and time per
    operation against 1/f with the fit T = a + b/f."""
    fig = _fig(10, 3.8, _emulated(runs))
    ax, ax2 = fig.subplots(1, 2)
    series = []
    k = 0
    for i, (lab, run) in enumerate(runs):
        pts, fits = model.sweep_points(run)
        for key in sorted(pts, key=lambda t: (str(t[0]), F.text(t[1]))):
            op, width = key
            p = [q for q in pts[key] if is_num(q[2])]
            if not p:
                continue
            c = _colour(k)
            k += 1
            name = _name(lab, "%s %s-bit" % (op, F.intg(width)), runs)
            ax.plot([q[0] / 1e6 for q in p], [q[2] for q in p], OP_STYLE.get(op, "-"),
                    marker="o", ms=3, color=c, label=name)
            ceil = [q for q in p if is_num(q[3])]
            if ceil:
                ax.plot([q[0] / 1e6 for q in ceil], [q[3] for q in ceil], ":", color=c, lw=0.8)
            tp = [q for q in p if is_num(q[1])]
            ax2.plot([1e6 / q[0] for q in tp], [q[1] / 1e6 for q in tp], "o", ms=3, color=c,
                     label=name)
            f = fits.get(key)
            if f and is_num(f.get("a_ns")) and model.fit_holds(f) and tp:
                xs = sorted(1e6 / q[0] for q in tp)
                xs = [xs[0], xs[-1]]
                ax2.plot(xs, [(f["a_ns"] + f["b_clocks"] * x * 1e3) / 1e6 for x in xs],
                         OP_STYLE.get(op, "-"), color=c, lw=1)
            series.append(name)
    if not series:
        return None
    ax.set_xlabel("SD clock (MHz)")
    ax.set_ylabel("MB/s (dotted: bus ceiling)")
    ax.set_xscale("log")
    ax.grid(True, alpha=0.3)
    ax.legend(fontsize=6)
    ax2.set_xlabel("1/f (us per clock)")
    ax2.set_ylabel("time per operation (ms); line: a + b/f")
    ax2.grid(True, alpha=0.3)
    return Chart(fig, "sweep", "Clock and bus-width sweep with the fit T = a + b/f", series)


# --- card checks -------------------------------------------------------------

def au_alignment(runs):
    """Alignment read times (pre / on / post boundary) and the straddling
    penalty against the alignment; the detected erase block marked."""
    fig = _fig(9, 3.4, _emulated(runs))
    ax, ax2 = fig.subplots(1, 2)
    series = []
    for i, (lab, run) in enumerate(runs):
        a = run.one("au")
        if not a or not a.get("align_bytes"):
            continue
        al = a["align_bytes"]
        for key, style in (("pre_ns", ":"), ("on_ns", "-"), ("post_ns", "--")):
            v = a.get(key) or []
            xy = [(x, y / 1000.0) for x, y in zip(al, v) if is_num(y)]
            ax.plot([p[0] for p in xy], [p[1] for p in xy], style, marker=".", color=_colour(i),
                    label=_name(lab, key[:-3], runs))
        pre, on, post = (a.get(k) or [] for k in ("pre_ns", "on_ns", "post_ns"))
        pen = [(x, (o - (p + q) / 2) / 1000.0) for x, p, o, q in zip(al, pre, on, post)
               if all(is_num(t) for t in (p, o, q))]
        name = _name(lab, "penalty", runs)
        ax2.plot([p[0] for p in pen], [p[1] for p in pen], marker="o", ms=3, color=_colour(i),
                 label=name)
        if is_num(a.get("measured_bytes")):
            ax2.axvline(a["measured_bytes"], color=_colour(i), ls="--", lw=1)
        series.append(name)
    if not series:
        return None
    for x in (ax, ax2):
        _size_axis(x)
        x.grid(True, alpha=0.3)
        x.set_xlabel("alignment")
        x.legend(fontsize=6)
    ax.set_ylabel("median 4 KiB read (us)")
    ax2.set_ylabel("on - (pre+post)/2 (us)")
    ax2.axhline(0, color="0.5", lw=0.6)
    return Chart(fig, "au", "Erase-block detection: alignment read times", series)


def open_au(runs):
    fig = _fig(6, 3.2, _emulated(runs))
    ax = fig.subplots()
    series = []
    for i, (lab, run) in enumerate(runs):
        o = run.one("open_au")
        if not o:
            continue
        xy = [(n, m) for n, m in zip(o.get("n") or [], o.get("mbs") or []) if is_num(m)]
        if not xy:
            continue
        name = _name(lab, "open AUs", runs)
        ax.plot([p[0] for p in xy], [p[1] for p in xy], marker="o", color=_colour(i), label=name)
        if is_num(o.get("collapse_at")):
            ax.axvline(o["collapse_at"], color=_colour(i), ls="--", lw=1)
        series.append(name)
    if not series:
        return None
    ax.set_xlabel("AUs written round-robin (N)")
    ax.set_ylabel("MB/s")
    ax.set_ylim(bottom=0)
    ax.grid(True, alpha=0.3)
    ax.legend(fontsize=7)
    return Chart(fig, "open-au", "Open AUs: write rate against the number of AUs", series)


def sustained(runs):
    fig = _fig(7, 3.2, _emulated(runs))
    ax = fig.subplots()
    series = []
    for i, (lab, run) in enumerate(runs):
        s = run.one("sustained")
        if not s or not s.get("rate_mbs") or not is_num(s.get("rate_step_bytes")):
            continue
        step = s["rate_step_bytes"]
        xy = [((k + 1) * step / 1048576.0, v) for k, v in enumerate(s["rate_mbs"]) if is_num(v)]
        name = _name(lab, "sustained write", runs)
        ax.plot([p[0] for p in xy], [p[1] for p in xy], marker=".", color=_colour(i), label=name)
        if s.get("knee_found") and is_num(s.get("knee_bytes")):
            ax.axvline(s["knee_bytes"] / 1048576.0, color=_colour(i), ls="--", lw=1,
                       label=_name(lab, "knee (cache full)", runs))
        series.append(name)
    if not series:
        return None
    ax.set_xlabel("written (MiB)")
    ax.set_ylabel("MB/s")
    ax.set_ylim(bottom=0)
    ax.grid(True, alpha=0.3)
    ax.legend(fontsize=7)
    return Chart(fig, "sustained", "Sustained write: rate against the amount written", series)


# --- host comparison ---------------------------------------------------------

def host_comparison(rec, name, title, emulated):
    """One hosts record: MB/s per workload with a bar per configuration
    (controller, data path, bus mode), and beside it each configuration's
    host share (bars, left axis) and CPU time per block (dots, right axis)."""
    from . import hosts as H
    cfgs, wls = H.configs(rec), H.workloads(rec)
    rows = [r for r in H.rows(rec) if H.measured(r)]
    if not rows or not cfgs or not wls:
        return None
    fig = _fig(12, 3.2 + 0.12 * len(cfgs), emulated, left=0.7)
    ax, ax2 = fig.subplots(1, 2, gridspec_kw={"width_ratios": [3, 2]})
    w = 0.8 / len(cfgs)
    # tab10 while it lasts: tab20 pairs a dark and a light shade of one hue
    cmap = matplotlib.colormaps["tab10" if len(cfgs) <= 10 else "tab20"]
    colour = {c: cmap(i % cmap.N) for i, c in enumerate(cfgs)}
    by = {}
    for r in rows:
        by[(H.config_name(r), r.get("workload") if isinstance(r.get("workload"), str)
            else F.text(r.get("workload")))] = r
    for i, c in enumerate(cfgs):
        xs, ys = [], []
        for j, wl in enumerate(wls):
            r = by.get((c, wl))
            if r:
                xs.append(j + (i - (len(cfgs) - 1) / 2.0) * w)
                ys.append(r["mbs"])
        if xs:
            ax.bar(xs, ys, width=w, color=colour[c], label=c)
    ax.set_xticks(range(len(wls)), wls, fontsize=8)
    ax.set_ylabel("MB/s (10^6 B/s)")
    ax.set_ylim(bottom=0)
    ax.grid(True, axis="y", alpha=0.3)
    # below the axes, under the workload names: inside, it covered bars
    ax.legend(fontsize=7, ncol=min(len(cfgs), 4), title="host path mode", title_fontsize=7,
              loc="upper center", bbox_to_anchor=(0.5, -0.09), frameon=False)
    ax.set_title("throughput per workload", fontsize=9)
    share, cpu = H.config_means(rows, cfgs)
    xs = range(len(cfgs))
    b = ax2.bar(xs, [min(max(s, 0), 100) if is_num(s) else 0 for s in share],
                color=[colour[c] for c in cfgs], label="host% (bars, left axis)")
    for x, s in zip(xs, share):
        if not is_num(s):
            ax2.text(x, 2, "no diagnosis", rotation=90, ha="center", va="bottom", fontsize=7)
    ax2.set_ylim(0, 100)
    ax2.set_ylabel("host share of the time, %")
    ax2.set_xticks(list(xs), cfgs, rotation=30, ha="right", fontsize=7)
    ax3 = ax2.twinx()
    pts = [(x, v) for x, v in zip(xs, cpu) if is_num(v)]
    d = None
    if pts:
        d = ax3.plot([p[0] for p in pts], [p[1] for p in pts], "kD", markersize=5,
                     label="CPU ns/blk (dots, right axis)")[0]
        ax3.set_ylim(bottom=0, top=max(max(p[1] for p in pts) * 1.15, 1))
    ax3.set_ylabel("CPU ns per 512-byte block")
    ax2.legend(handles=[b] + ([d] if d else []), fontsize=7, loc="lower center",
               bbox_to_anchor=(0.5, 1.0), ncol=2, frameon=False)
    ax2.set_title("host share and CPU time (mean over the workloads)", fontsize=9, pad=18)
    fig.subplots_adjust(bottom=min(0.45, 1.3 / (3.2 + 0.12 * len(cfgs))), wspace=0.35,
                        right=0.93, top=0.84)
    return Chart(fig, name, title, cfgs)
