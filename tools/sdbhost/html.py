"""The HTML report: one self-contained file (charts as embedded PNG, inline
CSS, no script, no external reference), for one run or several side by
side. An emulated run is marked in a banner that stays on screen and is
repeated on every printed page, in every section heading and in every
chart."""
import base64
import contextlib
import json
import os

import markupsafe

from . import charts as C
from . import checks
from . import details
from . import fmt as F
from . import headline as HL
from . import hosts as H
from . import model
from . import pages
from .records import is_num

# Section ids and titles, in the order of the report.
SECTIONS = [
    ("overview", "Board, card and test area"),
    ("summary", "Summary and verdicts"),
    ("registers", "Card registers, decoded"),
    ("sequential", "Sequential throughput and latency"),
    ("random", "Random I/O and command variants"),
    ("latency", "Latency distributions"),
    ("series", "Time series"),
    ("phases", "Where the time goes"),
    ("sweep", "Clock and bus-width sweep"),
    ("prediction", "Prediction at another bus setting"),
    ("class", "Application and speed class check"),
    ("au", "Erase block (AU) detection"),
    ("open-au", "Open AUs"),
    ("erase", "Erase time per AU"),
    ("sustained", "Sustained write"),
    ("queue", "Command queue"),
    ("hosts", "Host comparison"),
    ("integrity", "Integrity"),
    ("selftest", "SD stack self-test"),
    ("details", "Set-up and measurement details"),
    ("problems", "Errors, skipped workloads, log warnings"),
]
TITLE = dict(SECTIONS)

# Workloads compared side by side when several runs are reported.
KEY_WORKLOADS = ["rand-read-4k", "rand-write-4k", "mix70-4k"]


def esc(v):
    """A value as the report's templates write it (autoescape)."""
    return str(markupsafe.escape(v if isinstance(v, str) else F.text(v)))


def _text(v):
    return v if isinstance(v, str) else F.text(v)


class Inline:
    """Part of a paragraph or a table cell that is marked up: a span of a
    class ("mark"), bold ("bold") or code ("code"); templates/blocks.html."""

    def __init__(self, kind, text, cls=""):
        self.kind, self.text, self.cls = kind, _text(text), cls


def Mark(cls, text):
    return Inline("mark", text, cls)


def Bold(text):
    return Inline("bold", text)


def Code(text):
    return Inline("code", text)


def _parts(v):
    """A cell or a paragraph as a list of text and Inline parts."""
    if isinstance(v, list):
        return [x if isinstance(x, Inline) else _text(x) for x in v]
    return [v if isinstance(v, Inline) else _text(v)]


class Block(dict):
    """One piece of a section (kind p, h3, table, figure, details, pre) as
    templates/blocks.html draws it; its fields are attributes too."""

    def __init__(self, kind, **fields):
        super().__init__(kind=kind, **fields)
        self.__dict__ = self


class Report:
    def __init__(self, runs, labels, logs, dpi=110):
        self.runs = list(zip(labels, runs))
        self.logs = logs
        self.emulated = any(r.emulated for r in runs)
        self.simulated = any(r.simulated for r in runs)
        self.dpi = dpi
        self.sections = []      # Block-like sections: id, title, blocks
        self.open = []          # where blocks go: the open section, a details inside it
        self.present = []       # section ids written
        self.charts = []        # Chart objects embedded (name, series)
        self.png_dir = None     # also write every chart there as NAME.png
        self.png_files = []
        self.pred = None        # a predict.Prediction (sdbreport --predict)

    # --- building blocks -------------------------------------------------
    def add(self, block):
        self.open[-1].append(block)

    def section(self, sid):
        self.present.append(sid)
        sec = {"id": sid, "title": TITLE[sid], "blocks": []}
        self.sections.append(sec)
        self.open = [sec["blocks"]]

    def end(self):
        self.open = []

    @contextlib.contextmanager
    def folded(self, summary, cls=""):
        d = Block("details", summary=_parts(summary), items=[], cls=cls)
        self.add(d)
        self.open.append(d.items)
        try:
            yield d
        finally:
            self.open.pop()

    def h3(self, text):
        self.add(Block("h3", text=_text(text)))

    def pre(self, text):
        self.add(Block("pre", text=text))

    def figure(self, chart, caption=""):
        if chart is None:
            return
        png = chart.png(self.dpi)
        self.charts.append(chart)
        if self.png_dir:
            path = os.path.join(self.png_dir, chart.name + ".png")
            with open(path, "wb") as f:
                f.write(png)
            self.png_files.append(path)
        self.add(Block("figure", name=chart.name, alt=chart.alt, title=chart.title,
                       png=base64.b64encode(png).decode("ascii"), caption=caption))

    def table(self, head, rows, num_cols=(), cls=""):
        self.add(Block("table", head=[_text(h) for h in head] if head else None,
                       rows=[[_parts(c) for c in row] for row in rows],
                       num_cols=tuple(num_cols), cls=cls))

    def kv(self, rows):
        """Rows of (label, function of run) with one column per run."""
        head = [""] + [lab for lab, _ in self.runs] if len(self.runs) > 1 else None
        body = []
        for label, fn in rows:
            body.append([label] + [fn(run) for _, run in self.runs])
        self.table(head, body, cls="kv")

    def p(self, text, cls=""):
        self.add(Block("p", parts=_parts(text), cls=cls))

    def each(self, t):
        """(label, run, record) for every run that has a record of type t."""
        return [(lab, run, run.one(t)) for lab, run in self.runs if run.one(t)]

    def prefix(self, lab):
        return "%s: " % lab if len(self.runs) > 1 else ""

    # --- sections ----------------------------------------------------------
    def overview(self):
        self.section("overview")
        rows = [
            ("log", lambda r: "%s, %s" % (r.path, r.describe())),
            ("emulated", lambda r: "yes: QEMU, every time and rate is emulation speed"
             if r.emulated else "no: simulated (build/host/sdbsim), no real card"
             if r.simulated else "no (real hardware)"),
            ("board", lambda r: "%s (%s), %s %s" % (_ov_board(r, "model"), _ov_board(r, "revision"),
                                                    _ov_board(r, "soc"), _ov_board(r, "cpu"))),
            ("clocks", lambda r: "ARM %s, core %s, EMMC %s" % (
                _ov_board(r, "arm_clock_hz", F.hz), _ov_board(r, "core_clock_hz", F.hz),
                _ov_board(r, "emmc_clock_hz", F.hz))),
            ("memory", lambda r: "%s ARM + %s VideoCore" % (_ov_board(r, "arm_mem_bytes", F.size),
                                                            _ov_board(r, "vc_mem_bytes", F.size))),
            ("timer", _ov_timer),
            ("card", lambda r: _ov_card(r, lambda c: "%s, %s (%s)" % (
                _card_name(c), F.size(c.get("capacity_bytes")),
                F.text((c.get("csd") or {}).get("card_type"))))),
            ("bus", lambda r: _ov_card(r, lambda c: "%s-bit %s at %s (card max %s), CMD23 %s" % (
                F.intg(c.get("width")), F.text(c.get("timing")), F.hz(c.get("clock_hz")),
                F.hz(c.get("max_clock_hz")), F.text(c.get("cmd23"))))),
            ("claims", lambda r: _ov_card(r, _claims)),
            ("layout", _ov_layout),
            ("configuration", _ov_cfg),
            ("test area", _ov_area),
            ("run ended", _ov_ended),
        ]
        self.kv(rows)
        self.end()

    def summary(self):
        runs_with = [(lab, run) for lab, run in self.runs if run.one("summary")
                     or run.result_workloads()]
        if not runs_with:
            return
        self.section("summary")
        parts = [("seq_read", "best sequential read"), ("seq_write", "best sequential write"),
                 ("rand_read_4k", "random 4 KiB read"), ("rand_write_4k", "random 4 KiB write"),
                 ("mix70_4k", "random 70/30 4 KiB")]
        body = []
        for key, label in parts:
            for lab, run in self.runs:
                s = run.one("summary") or {}
                p = s.get(key)
                if not isinstance(p, dict):
                    continue
                fig = "%s MB/s" % F.num(p.get("mbs"))
                if is_num(p.get("iops")):
                    fig = "%s IOPS, %s" % (F.num(p.get("iops"), "%.0f"), fig)
                if is_num(p.get("xfer_bytes")):
                    fig += " at %s" % F.size(p.get("xfer_bytes"))
                body.append([label, lab, fig, _verdict_cell(p.get("verdict"))] if len(self.runs) > 1
                            else [label, fig, _verdict_cell(p.get("verdict"))])
        if body:
            self.table(["", "run", "result", "verdict"] if len(self.runs) > 1
                       else ["", "result", "verdict"], body)
        # Every workload's verdict.
        for lab, run in self.runs:
            if not run.result_workloads():
                continue
            if len(self.runs) > 1:
                self.h3("%s: %s" % (lab, run.path))
            counts = {}
            body = []
            for key, title, names in model.groups(run):
                for n in names:
                    w = run.workloads[n]
                    r, lat, v = w["result"], w.get("latency") or {}, w.get("verdict") or {}
                    b = v.get("bottleneck")
                    counts[b] = counts.get(b, 0) + 1
                    body.append([n, F.size(r.get("xfer_bytes")), F.num(r.get("mbs")),
                                 F.num(r.get("iops"), "%.0f"), F.us_from_ns(lat.get("p50_ns")),
                                 F.us_from_ns(lat.get("p99_ns")),
                                 checks.cell(run, n) or "-",
                                 _verdict_cell(v.get("text"), b)])
            with self.folded("every workload's result and verdict: %d workloads, %s" % (
                    len(body), ", ".join("%s %d" % (F.text(k), n) for k, n in
                                         sorted(counts.items(), key=lambda kv: -kv[1]))),
                    "wide"):
                self.table(["workload", "transfer", "MB/s", "IOPS", "p50 us", "p99 us",
                            "check", "verdict"], body, num_cols=(2, 3, 4, 5))
        self.end()

    def registers(self):
        have = [(lab, run, run.one("card")) for lab, run in self.runs if run.one("card")]
        if not have:
            return
        self.section("registers")
        self.p("Every register as the card layer read and decoded it (SD Physical Layer "
               "Simplified Specification); field names are the specification's.", "note")
        top = [k for k in (have[0][2] or {}) if not isinstance(have[0][2].get(k), dict)
               and k != "type"]
        with self.folded("card layer state"):
            self.kv([(k, (lambda r, k=k: F.text((r.one("card") or {}).get(k)))) for k in top])
        for reg, name in (("ocr", "OCR"), ("cid", "CID"), ("csd", "CSD"), ("scr", "SCR"),
                          ("ssr", "SD Status"), ("switch", "CMD6 switch status")):
            keys = []
            for _, run, c in have:
                for k in (c.get(reg) or {}):
                    if k not in keys:
                        keys.append(k)
            if not keys:
                continue
            raws = ", ".join("%s%s" % (self.prefix(lab), _clip(F.text((c.get(reg) or {})
                                                                      .get("raw")), 34))
                             for lab, _, c in have)
            with self.folded([name + " ", Code(raws)]):
                self.kv([(k, (lambda r, k=k, reg=reg: _cell(((r.one("card") or {}).get(reg)
                                                             or {}).get(k)))) for k in keys])
        self.end()

    def sequential(self):
        if not any(model.seq_curve(r, op) for _, r in self.runs for op in ("read", "write")):
            return
        self.section("sequential")
        self.figure(C.seq_throughput(self.runs), "one transfer size per point; MB = 10^6 B")
        self.figure(C.seq_latency(self.runs), "per operation, issue to completion")
        for op in ("read", "write"):
            names = []
            for _, run in self.runs:
                names += [p[3] for p in model.seq_curve(run, op) if p[3] not in names]
            if names:
                self.h3("sequential %s" % op)
                self.workload_table(names)
        self.end()

    def workload_table(self, names):
        body = []
        for n in names:
            for lab, run in self.runs:
                w = run.workloads.get(n, {})
                r = w.get("result")
                if not r:
                    continue
                lat = w.get("latency") or {}
                row = [n] if len(self.runs) == 1 else [n, lab]
                row += [F.size(r.get("xfer_bytes")), F.text(r.get("cmd")), F.intg(r.get("ops")),
                        F.num(r.get("mbs")), F.num(r.get("mibs")), F.num(r.get("iops"), "%.0f")]
                row += [F.us_from_ns(lat.get(k)) for k in
                        ("min_ns", "p50_ns", "p90_ns", "p99_ns", "p999_ns", "max_ns")]
                body.append(row)
        head = ["workload"] + (["run"] if len(self.runs) > 1 else []) + [
            "transfer", "commands", "ops", "MB/s", "MiB/s", "IOPS", "min us", "p50 us",
            "p90 us", "p99 us", "p99.9 us", "max us"]
        off = 1 if len(self.runs) > 1 else 0
        self.table(head, body, num_cols=tuple(range(3 + off, 14 + off)))

    def names_in(self, key):
        names = []
        for _, run in self.runs:
            for k, _, ns in model.groups(run):
                if k == key:
                    names += [n for n in ns if n not in names]
        return names

    def random(self):
        rnd, var = self.names_in("random"), self.names_in("variant")
        if not rnd and not var:
            return
        self.section("random")
        if rnd:
            self.figure(C.rate_bars(self.runs, rnd, "random-rates",
                                    "Random I/O: IOPS and MB/s"),
                        "aligned, uniformly random offsets, queue depth 1")
            self.workload_table(rnd)
        if var:
            self.figure(C.rate_bars(self.runs, var, "variant-rates",
                                    "Command variants on the same blocks: IOPS and MB/s"))
            self.workload_table(var)
        for lab, run in self.runs:
            for r in run.all("skipped"):
                self.p("%sskipped %s: %s" % (self.prefix(lab), F.text(r.get("workload")),
                                             F.text(r.get("reason"))), "note")
        self.end()

    def chart_groups(self):
        """(key, title, names) of the workload groups to draw per group; in a
        comparison only the key workloads."""
        if len(self.runs) > 1:
            names = [n for n in KEY_WORKLOADS if any(n in r.workloads for _, r in self.runs)]
            for _, run in self.runs:
                s = run.one("summary") or {}
                for part in ("seq_read", "seq_write"):
                    n = (s.get(part) or {}).get("workload") if isinstance(s.get(part), dict) \
                        else None
                    if isinstance(n, str) and n not in names:
                        names.append(n)
            if "sustained-write" in self.names_in("sustained"):
                names.append("sustained-write")
            return [("key", "Key workloads", names)] if names else []
        run = self.runs[0][1]
        out, checks = [], []
        for key, title, names in model.groups(run):
            if key in ("class", "au", "sustained", "other"):
                checks += names
            else:
                out.append((key, title, names))
        if checks:
            out.append(("checks", "Class check, erase-block and sustained workloads", checks))
        return out

    def latency(self):
        groups = self.chart_groups()
        if not any(r.workloads.get(n, {}).get("histogram") for _, _, ns in groups
                   for n in ns for _, r in self.runs):
            return
        self.section("latency")
        self.p("CDFs are drawn from the latency histograms (four buckets per octave, each "
               "point at a bucket's upper edge); dots are the p50, p90 and p99 the firmware "
               "computed from every operation.", "note")
        for key, title, names in groups:
            self.h3(title)
            self.figure(C.latency_cdf(self.runs, names, "cdf-" + key, "Latency CDF: " + title))
            self.figure(C.latency_histograms(self.runs, names, "hist-" + key,
                                             "Latency histograms: " + title))
        self.end()

    def series(self):
        groups = self.chart_groups()
        if not any(r.workloads.get(n, {}).get("series") for _, _, ns in groups
                   for n in ns for _, r in self.runs):
            return
        self.section("series")
        self.p("Throughput per interval of each workload; an interval whose worst latency is "
               "at least %g times the median worst latency of the workload is a stall "
               "(red: garbage collection, a cache flush, ...)." % model.STALL_FACTOR, "note")
        for key, title, names in groups:
            self.h3(title)
            self.figure(C.time_series(self.runs, names, "series-" + key, "Time series: " + title))
        self.end()

    def phases(self):
        groups = self.chart_groups()
        if not any(r.workloads.get(n, {}).get("phases") for _, _, ns in groups
                   for n in ns for _, r in self.runs):
            return
        self.section("phases")
        self.p("Left: each operation's time split into its phases (docs/attribution.md): "
               "command, card access, the data phase (frames on the bus and card stalls, and "
               "the CPU moving the data), busy (programming, CMD12), and host time between "
               "requests. Right: the card / bus / host split the verdict is based on.", "note")
        for key, title, names in groups:
            self.h3(title)
            self.figure(C.phase_bars(self.runs, names, "phases-" + key, "Phases: " + title))
        self.end()

    def sweep(self):
        if not any(r.all("sweep") for _, r in self.runs):
            return
        self.section("sweep")
        self.figure(C.sweep(self.runs), "64 KiB sequential transfers per point")
        body = []
        for lab, run in self.runs:
            _, fits = model.sweep_points(run)
            for (op, width), f in sorted(fits.items(), key=lambda kv: (str(kv[0][0]),
                                                                       F.text(kv[0][1]))):
                row = [] if len(self.runs) == 1 else [lab]
                row += ["%s %s-bit" % (F.text(op), F.intg(width)), F.intg(f.get("points"))]
                if is_num(f.get("a_ns")) and not model.fit_holds(f):
                    # a negative (or zero) bus part is no fit: say so, no figures
                    row += ["no fit: b = %s clocks, not above 0" % F.intg(f.get("b_clocks"))] \
                        + [F.DASH] * 7
                    body.append(row)
                    continue
                row += [F.us_from_ns(f.get("a_ns")), F.intg(f.get("b_clocks")),
                        F.intg(f.get("model_bus_clocks")), F.num(f.get("r2"), "%.4f"),
                        F.us_from_ns(f.get("rms_residual_ns")), F.hz(f.get("fmax_hz")),
                        F.pct(f.get("bus_share_at_fmax_pct"))]
                body.append(row)
        if body:
            off = 0 if len(self.runs) == 1 else 1
            self.table((["run"] if off else []) +
                       ["fit", "points", "a (us)", "b (clocks)", "framing predicts (clocks)",
                        "R^2", "residual (us)", "at clock", "bus share there"], body,
                       num_cols=tuple(range(1 + off, 8 + off)))
            self.p("T(f) = a + b/f: a is the time that does not scale with the clock (card + "
                   "host), b/f the bus.", "note")
        self.end()

    def prediction(self):
        if self.pred is not None:
            from .predict import render_html
            render_html(self, self.pred)

    def card_class(self):
        have = self.each("class")
        if not have:
            return
        self.section("class")
        for lab, run, c in have:
            ok = c.get("app_meets_claim")
            self.p([Bold(self.prefix(lab) + "application class:"),
                    " %s " % _text(c.get("app_text")), _yesno(ok)])
            self.p([Bold(self.prefix(lab) + "speed class:"),
                    " %s " % _text(c.get("speed_text")), _yesno(c.get("speed_meets_claim"))])

        def g(key, f=F.text):
            return lambda r: f((r.one("class") or {}).get(key))
        self.kv([
            ("claimed application class", g("app_claim")),
            ("claimed speed / UHS / video class", lambda r: "C%s / U%s / V%s" % tuple(
                F.intg((r.one("class") or {}).get(k)) for k in
                ("speed_class_claim", "uhs_grade_claim", "video_class_claim"))),
            ("random 4 KiB read IOPS (needs 1500 A1, 4000 A2)", g("read_iops", lambda v: F.num(v, "%.0f"))),
            ("random 4 KiB write IOPS (needs 500 A1, 2000 A2)", g("write_iops", lambda v: F.num(v, "%.0f"))),
            ("IOPS over wall time (read / write)", lambda r: "%s / %s" % (
                F.num((r.one("class") or {}).get("read_iops_wall"), "%.0f"),
                F.num((r.one("class") or {}).get("write_iops_wall"), "%.0f"))),
            ("sequential write MB/s (needs 10)", g("seq_write_mbs", F.num)),
            ("application level measured", g("app_level_measured", F.intg)),
            ("Pw MB/s (worst AU)", g("pw_mbs", F.num)),
            ("Pw per AU", g("pw_au_mbs")),
            ("speed / UHS / video class met", lambda r: "C%s / U%s / V%s" % tuple(
                F.intg((r.one("class") or {}).get(k)) for k in
                ("speed_class_met", "uhs_grade_met", "video_class_met"))),
            ("AU, RU", lambda r: "%s%s, %s" % (
                F.size((r.one("class") or {}).get("au_bytes")),
                "" if (r.one("class") or {}).get("au_declared") else " (not declared)",
                F.size((r.one("class") or {}).get("ru_bytes")))),
            ("area", lambda r: "LBA %s, %s" % (F.intg((r.one("class") or {}).get("area_first_lba")),
                                               F.size((r.one("class") or {}).get("area_bytes")))),
            ("bus and its ceiling", lambda r: "%s-bit at %s: %s MB/s" % (
                F.intg((r.one("class") or {}).get("width")), F.hz((r.one("class") or {}).get("clock_hz")),
                F.num((r.one("class") or {}).get("bus_ceiling_mbs")))),
            ("commands, queue", lambda r: "%s, queue depth %s, command queue %s, cache %s" % tuple(
                F.text((r.one("class") or {}).get(k)) for k in
                ("rand_cmd", "queue_depth", "cq_enabled", "cache_enabled"))),
            ("A2 on the command queue", lambda r: F.text(
                (r.one("class_queue") or {}).get("app_text")
                or "not measured (the full suite's queue workload did not run)")),
        ])
        self.end()

    def au(self):
        have = self.each("au")
        if not have:
            return
        self.section("au")
        for lab, run, a in have:
            self.p([Bold(self.prefix(lab) + "erase block %s:" % (
                F.size(a.get("measured_bytes")) if a.get("measured_bytes") else "not found")),
                    " " + _text(a.get("text"))])
        self.figure(C.au_alignment(self.runs), "4 KiB reads ending at, centred on and starting "
                                               "at boundaries of each alignment")
        self.kv([(k, (lambda r, k=k: F.text((r.one("au") or {}).get(k)))) for k in
                 ("read_bytes", "base_lba", "positions", "measured_bytes", "step_ns",
                  "first_step_bytes", "declared_au_bytes", "match")])
        self.end()

    def open_au(self):
        have = self.each("open_au")
        if not have:
            return
        self.section("open-au")
        for lab, run, o in have:
            if o.get("collapsed"):
                s = "the rate collapses at %s AUs: the card keeps %s AUs open" % (
                    F.intg(o.get("collapse_at")), F.intg(o.get("handled")))
            else:
                s = "no collapse up to %s AUs (stopped by %s)" % (F.intg(o.get("handled")),
                                                                 F.text(o.get("stopped_by")))
            self.p("%s%s; %s writes round-robin into AUs of %s%s" % (
                self.prefix(lab), s, F.size(o.get("chunk_bytes")), F.size(o.get("au_bytes")),
                "" if o.get("au_declared") else " (not declared by the card)"))
        self.figure(C.open_au(self.runs))
        body = []
        for lab, run, o in have:
            for n, m, p in zip(o.get("n") or [], o.get("mbs") or [], o.get("p99_us") or []):
                body.append(([lab] if len(self.runs) > 1 else []) + [F.intg(n), F.num(m), F.intg(p)])
        off = 1 if len(self.runs) > 1 else 0
        self.table((["run"] if off else []) + ["AUs", "MB/s", "p99 us"], body,
                   num_cols=(off, off + 1, off + 2))
        self.end()

    def erase(self):
        if not self.each("erase"):
            return
        self.section("erase")

        def g(key, f):
            return lambda r: f((r.one("erase") or {}).get(key))
        self.kv([
            ("AU erased", lambda r: "%s%s" % (F.size((r.one("erase") or {}).get("au_bytes")),
                                              "" if (r.one("erase") or {}).get("au_declared")
                                              else " (not declared by the card)")),
            ("single-AU erases", g("count", F.intg)),
            ("min / median / max (ms)", lambda r: " / ".join(
                F.ms_from_us((r.one("erase") or {}).get(k)) for k in ("min_us", "median_us", "max_us"))),
            ("several AUs at once", lambda r: "%s AUs in %s ms" % (
                F.intg((r.one("erase") or {}).get("multi_aus")),
                F.ms_from_us((r.one("erase") or {}).get("multi_us")))),
            ("each further AU (ms)", g("per_au_us", F.ms_from_us)),
            ("the SD Status allows for one AU (ms)", lambda r: F.intg(
                (r.one("erase") or {}).get("timeout_ms_1au"))
                if is_num((r.one("erase") or {}).get("timeout_ms_1au")) else "no timeout data"),
        ])
        self.end()

    def queue(self):
        have = [(lab, run) for lab, run in self.runs
                if run.all("queue") or run.all("queue_check") or run.all("class_queue")]
        if not have:
            return
        self.section("queue")
        off = 1 if len(self.runs) > 1 else 0
        body = []
        for lab, run in have:
            for c in run.all("queue_check"):
                self.p("%s%s" % (self.prefix(lab), F.text(c.get("text"))))
            for c in run.all("class_queue"):
                self.p("%s%s" % (self.prefix(lab), F.text(
                    c.get("app_text") if isinstance(c.get("app_text"), str) else
                    "the card claims %s: the queued figures are not a class verdict"
                    % (c.get("app_claim") or "no class"))))
            for q in run.all("queue"):
                body.append(([lab] if off else []) + [
                    "mixed" if q.get("mix") else "write" if q.get("write") else "read",
                    "on" if q.get("cache") else "off",
                    F.intg(q.get("depth")), F.num(q.get("iops"), "%.0f"),
                    F.num(q["p50_ns"] / 1e3, "%.1f") if is_num(q.get("p50_ns")) else "-",
                    F.num(q["p99_ns"] / 1e3, "%.1f") if is_num(q.get("p99_ns")) else "-"])
        if body:
            self.table((["run"] if off else []) + ["direction", "cache", "depth", "IOPS",
                                                   "p50 us", "p99 us"], body,
                       num_cols=(off + 2, off + 3, off + 4, off + 5))
        self.end()

    def sustained(self):
        have = self.each("sustained")
        if not have:
            return
        self.section("sustained")
        for lab, run, s in have:
            if s.get("knee_found"):
                t = "%s MB/s for the first %s, then %s MB/s: the card's cache is full after %s" % (
                    F.num(s.get("initial_mbs")), F.size(s.get("knee_bytes")),
                    F.num(s.get("steady_mbs")), F.size(s.get("knee_bytes")))
            else:
                t = "no knee: %s MB/s throughout" % F.num(s.get("steady_mbs"))
            self.p("%s%s written in %s transfers, %s MB/s overall; %s; worst stall %s ms at %s" % (
                self.prefix(lab), F.size(s.get("bytes")), F.size(s.get("xfer_bytes")),
                F.num(s.get("overall_mbs")), t,
                F.num(s["worst_ns"] / 1e6 if is_num(s.get("worst_ns")) else None, "%.1f"),
                F.size(s.get("worst_at_bytes"))))
        self.figure(C.sustained(self.runs), "dashed: the knee where the card's cache filled")
        self.end()

    def hosts(self):
        have = [(lab, run, rec) for lab, run in self.runs for rec in run.all("hosts")]
        if not have:
            return
        self.section("hosts")
        self.p("The same workloads (same blocks, same seed) through every host configuration "
               "of the board: controller, data path (PIO: the CPU moves every word; DMA: an "
               "engine does) and bus mode. host% is the host's share of the operations' time; "
               "CPU ns/blk the CPU's own time per 512-byte block.", "note")
        for k, (lab, run, rec) in enumerate(have):
            name = "hosts" if len(have) == 1 else "hosts-%d" % (k + 1)
            title = "Host comparison" + (" (%s)" % lab if len(self.runs) > 1 else "") + \
                ("" if len(have) == 1 else " %d" % (k + 1))
            self.figure(C.host_comparison(rec, name, title, run.emulated or
                                          rec.get("emulated") is True))
            self.table(H.HEAD, H.table(rec), num_cols=(4, 5, 6, 7, 8))
        self.end()

    def integrity(self):
        if not any(r.all("integrity") for _, r in self.runs):
            return
        self.section("integrity")
        body = []
        for lab, run in self.runs:
            for r in run.all("integrity"):
                bad = model.integrity_bad(r)
                row = ([lab] if len(self.runs) > 1 else []) + [
                    F.text(r.get("workload")), F.intg(r.get("blocks")), F.intg(r.get("ok")),
                    F.intg(r.get("changed")), F.intg(r.get("overwritten")), F.intg(r.get("stale")),
                    F.intg(r.get("corrupted")), F.intg(r.get("read_errors")),
                    Mark("bad", "%d bad, first LBA %s" % (bad, F.intg(r.get("first_bad_lba"))))
                    if bad else Mark("ok", "all read back as written")]
                body.append(row)
        off = 1 if len(self.runs) > 1 else 0
        self.table((["run"] if off else []) + ["workload", "blocks", "ok", "changed",
                                                "overwritten", "stale", "corrupted",
                                                "read errors", "verdict"], body,
                   num_cols=tuple(range(1 + off, 8 + off)))
        self.p("changed: right block, wrong bytes; overwritten: holds a block written for "
               "another LBA (addresses wrap, as on fake-capacity cards); stale: an older "
               "version of the block; corrupted: no valid block at all.", "note")
        self.end()

    def selftest(self):
        if not any(r.all("selftest") for _, r in self.runs):
            return
        self.section("selftest")
        body = []
        for lab, run in self.runs:
            for r in run.all("selftest"):
                pre = [lab] if len(self.runs) > 1 else []
                if r.get("test") == "read":
                    res = r.get("result") if isinstance(r.get("result"), dict) else {}
                    crc = r.get("crc32") if isinstance(r.get("crc32"), dict) else {}
                    detail = "; ".join("%s %s %s" % (m, F.text(v), F.text(crc.get(m)))
                                       for m, v in res.items())
                    ok = r.get("match") is True
                elif r.get("test") == "write":
                    segs = r.get("segments") or []
                    detail = "; ".join("%s %s" % (F.text(s.get("mode")), F.text(s.get("result")))
                                       for s in segs)
                    e = r.get("erase")
                    if isinstance(e, dict):
                        detail += "; erase %s, reads %s" % (F.text(e.get("result")),
                                                           F.text(e.get("value")))
                    ok = r.get("verify") is True or r.get("write_refused") is True
                else:
                    detail, ok = json.dumps(r), False
                body.append(pre + [F.text(r.get("test")), "%s+%s" % (F.intg(r.get("lba")),
                                                                     F.intg(r.get("count"))),
                                   Mark("ok", "ok") if ok else Mark("bad", "FAILED"), detail])
        self.table((["run"] if len(self.runs) > 1 else []) + ["test", "LBA+count", "result",
                                                              "modes"], body)
        self.end()

    def details(self):
        have = [(lab, run, details.parts(run)) for lab, run in self.runs]
        if not any(p for _, _, p in have):
            return
        self.section("details")
        for lab, run, parts in have:
            for title, head, rows in parts:
                self.h3(self.prefix(lab) + title)
                self.table(head, rows)
        self.end()

    def problems(self):
        self.section("problems")
        any_ = False
        for lab, run in self.runs:
            for e in run.all("error"):
                any_ = True
                self.p("%serror [%s] %s: %s" % (
                    self.prefix(lab), _text(e.get("context")), _text(e.get("code")),
                    _text(e.get("message"))), "bad")
            for e in run.all("exception"):
                any_ = True
                self.p("%sexception: %s at pc %s: the run stopped" % (
                    self.prefix(lab), _text(e.get("exception")), _text(e.get("pc"))), "bad")
            if not run.ended_by:
                any_ = True
                self.p("%sthe run did not finish (no done record): the log was cut short"
                       % self.prefix(lab), "bad")
            for r in run.all("skipped"):
                any_ = True
                self.p("%sskipped %s: %s" % (self.prefix(lab), F.text(r.get("workload")),
                                             F.text(r.get("reason"))))
            for line in checks.lines(run):
                any_ = True
                self.p(self.prefix(lab) + line)
        for log in self.logs:
            if log.warnings:
                any_ = True
                with self.folded("%s: %d warning(s) while reading the log"
                                  % (log.path, len(log.warnings))):
                    self.pre("\n".join("line %d: %s" % w for w in log.warnings[:500]))
        if not any_:
            self.p("none: no errors, nothing skipped, every log line read cleanly.")
        self.end()

    def headlines(self):
        """The headline of every run, first on the page."""
        return [{"label": lab, "lines": HL.headline(run)["lines"]} for lab, run in self.runs]

    # --- the page ----------------------------------------------------------
    def build(self):
        for fn in (self.overview, self.summary, self.registers, self.sequential, self.random,
                   self.latency, self.series, self.phases, self.sweep, self.prediction,
                   self.card_class, self.au, self.open_au, self.erase, self.sustained,
                   self.queue, self.hosts, self.integrity, self.selftest, self.details, self.problems):
            fn()
        if len(self.runs) == 1:
            title = "sdbench report: %s" % self.runs[0][1].path
        else:
            title = "sdbench comparison: " + ", ".join("%s = %s" % (l, r.path)
                                                       for l, r in self.runs)
        return pages.render("report.html",
            title=title, several=len(self.runs) > 1, headlines=self.headlines(),
            emulated=[l for l, r in self.runs if r.emulated],
            simulated=[l for l, r in self.runs if r.simulated], sections=self.sections)


# The overview's rows (Report.overview).
def _ov_board(run, key, f=F.text):
    b = run.board() or {}
    return f(b.get(key))

def _ov_timer(run):
    t = (run.board() or {}).get("timer") or {}
    return "%s, %s Hz measured (nominal %s), resolution %s ns, read cost %s ns, " \
           "calibration %s ppm" % (F.text(t.get("source")), F.intg(t.get("freq_hz")),
                                   F.intg(t.get("nominal_hz")),
                                   F.intg(t.get("resolution_ns")),
                                   F.intg(t.get("read_cost_ns")),
                                   F.intg(t.get("calib_ppm")))

def _ov_card(run, f):
    c = run.one("card") or {}
    return f(c)

def _ov_area(run):
    ta = run.one("test_area")
    if not ta:
        return F.DASH
    if not ta.get("usable"):
        return "none: %s %s" % (F.text(ta.get("reason")), F.text(ta.get("hint") or ""))
    first, count = ta.get("first_lba"), ta.get("count")
    last = first + count - 1 if is_num(first) and is_num(count) else None
    return "LBA %s-%s (%s), %s" % (F.intg(first), F.intg(last), F.size(ta.get("bytes")),
                                   F.text(ta.get("reason")))

def _ov_cfg(run):
    c = run.one("config")
    if not c:
        return F.DASH
    s = ("sdbench.txt: " + ", ".join("%s = %s" % (k, F.text(c.get(k)))
                                     for k in c.get("from_file") or []
                                     if isinstance(k, str))) \
        if c.get("file") else "defaults (no sdbench.txt)"
    return "%s; suite %s" % (s, F.text(c.get("suite")))

def _ov_layout(run):
    lay = run.one("layout")
    if not lay:
        return F.DASH
    parts = ["%s %s LBA %s+%s" % (F.text(p.get("number")), F.text(p.get("type_name")),
                                  F.intg(p.get("first_lba")), F.intg(p.get("count")))
             for p in lay.get("partitions") or []]
    return "%s%s" % (F.text(lay.get("kind")), (": " + "; ".join(parts)) if parts else "")

def _ov_ended(run):
    d = run.done()
    if d:
        return "%s error(s), %s" % (F.intg(d.get("errors")),
                                    F.duration_us(d.get("elapsed_us")))
    return "stopped by an exception" if run.ended_by == "exception" \
        else "did not finish (no done record)"


def _clip(s, n):
    return s if len(s) <= n else s[:n - 3] + "..."


def _card_name(c):
    from .text import card_name
    return card_name(c)


def _claims(c):
    ssr = c.get("ssr") or {}
    if not ssr:
        return "SD Status not read"
    au = ssr.get("au_size_bytes")
    return "speed class %s, UHS %s, video %s, application %s, AU %s" % (
        F.text(ssr.get("speed_class")), F.text(ssr.get("uhs_grade")),
        F.text(ssr.get("video_class")), F.text(ssr.get("app_perf_class")),
        F.size(au) if au else "not declared")


def _cell(v):
    if isinstance(v, (dict, list)) and v and any(isinstance(x, (dict, list)) for x in
                                                  (v.values() if isinstance(v, dict) else v)):
        return json.dumps(v)
    if isinstance(v, dict):
        return ", ".join("%s %s" % (k, F.text(x)) for k, x in v.items())
    return F.text(v)


def _verdict_cell(text, bottleneck=None):
    if bottleneck is None and isinstance(text, str):
        bottleneck = text.split(" ", 1)[0]
    cls = bottleneck if bottleneck in ("card-bound", "bus-bound", "host-bound", "mixed") else ""
    if not cls:
        return F.text(text)
    return [Mark("tag " + cls, cls), " " + _text(
        text[len(cls):].lstrip(" -") if isinstance(text, str) and text.startswith(cls)
        else text)]


def _yesno(v):
    if v is True:
        return Mark("ok", "(meets the claim)")
    if v is False:
        return Mark("bad", "(does not meet the claim)")
    return ""


def render(runs, labels, logs, dpi=110, prediction=None):
    """The HTML text and the Report (sections present, charts embedded)."""
    rep = Report(runs, labels, logs, dpi)
    rep.pred = prediction
    return rep.build(), rep


def write_pngs(dirpath, runs, labels, dpi=110):
    """Every chart of the report as DIR/NAME.png; returns the paths."""
    os.makedirs(dirpath, exist_ok=True)
    rep = Report(runs, labels, [], dpi)
    rep.png_dir = dirpath
    rep.build()
    return rep.png_files
