"""The records about the set-up and the measurement itself, as the text and
HTML reports show them: host controller, data path, bus calibration,
measurement overhead, the suite's end, the bus modes side by side, the
cost of a request (hostcost), the simulator's wire truth, and per workload
the phase split, latency histogram and time series. Each part is a title
and a table (head, rows of strings); pure Python."""
from . import fmt as F
from . import model
from .records import is_num


def _join(v):
    return F.text(v) if isinstance(v, list) else F.text(v)


def host_table(run):
    rows = []
    for h in run.all("host"):
        rows.append([F.text(h.get("name")), F.text(h.get("base")), F.hz(h.get("base_clock_hz")),
                     "%s - %s" % (F.hz(h.get("f_min_hz")), F.hz(h.get("f_max_hz"))),
                     _join(h.get("data_paths")), F.text(h.get("data_path")),
                     _join(h.get("modes"))])
    return ["controller", "base", "input clock", "SD clock range", "data paths", "in use",
            "bus modes"], rows


def data_path_table(run):
    rows = []
    for d in run.all("data_path"):
        why = d.get("refused") or d.get("no_dma")
        rows.append([F.text(d.get("host")), F.text(d.get("requested")), F.text(d.get("path")),
                     _join(d.get("available")),
                     F.intg(d.get("dma_pio_blocks")) if d.get("dma_pio_blocks") is not None
                     else F.DASH, F.text(why) if why else ""])
    return ["controller", "requested", "runs", "available", "PIO up to blocks", "why"], rows


def bus_table(run):
    rows = []
    for b in run.all("bus"):
        for op in ("read", "write"):
            d = b.get(op)
            if not isinstance(d, dict):
                rows.append(["%s-bit" % F.intg(b.get("width")), F.hz(b.get("clock_hz")), op,
                             F.DASH, F.DASH, F.DASH, "not measured"])
                continue
            rows.append(["%s-bit" % F.intg(b.get("width")), F.hz(b.get("clock_hz")), op,
                         F.intg(d.get("b_clocks")), F.intg(d.get("model_clocks")),
                         F.num(d.get("extra_clocks_per_block"), "%.1f"),
                         "used" if d.get("used") is True else
                         "not used (%s)" % (d.get("why") or "out of bounds")])
    return ["width", "clock", "direction", "bus clocks", "framing predicts",
            "extra per block", ""], rows


BLKCNT_WORDS = {"bus": "falls as each block crosses the bus",
                "drain": "falls as the CPU drains each block",
                "stale": "does not move until the end", "other": "none of the known ways",
                "unprobed": "not probed"}


WIRE_WORDS = {"timed": "takes its frame",
              "instant": "no time (emulated): waits between blocks are the CPU's",
              "unprobed": "not probed"}


def silicon_table(run):
    rows = []
    for s in run.all("silicon"):
        counts = F.DASH
        if s.get("probed") is True:
            counts = "%s: %s / %s / %s" % (F.intg(s.get("blocks")), F.intg(s.get("cnt_ready")),
                                           F.intg(s.get("cnt_full")),
                                           F.intg(s.get("cnt_drained")))
        writes = F.DASH
        if s.get("bwe") is not None:
            writes = "%s / %s, %s" % (F.text(s.get("bwe")), F.text(s.get("dat0")),
                                      "used" if s.get("write_looks_used") is True
                                      else "not needed (no time on the wire)"
                                      if s.get("read_wire") == "instant" else "not used")
        rows.append([F.text(s.get("host")),
                     F.text(BLKCNT_WORDS.get(s.get("blkcnt"), s.get("blkcnt"))), counts,
                     "used" if s.get("blkcnt_look_used") is True else "not used",
                     F.text(WIRE_WORDS.get(s.get("read_wire"), s.get("read_wire"))),
                     F.num(s.get("probe_us"), "%.1f"), writes,
                     F.num(s.get("write_probe_us"), "%.1f")])
    return ["controller", "Block Count during a read", "written: ready / full / drained",
            "the split's look", "a read's block on the wire", "probe us",
            "write looks: Buffer Write Enable / DAT[0]", "write probe us"], rows


def overhead_table(run):
    rows = []
    for o in run.all("overhead"):
        rows.append([F.text(o.get("timer")), F.intg(o.get("timestamp_ns")),
                     F.intg(o.get("resolution_ns")), F.intg(o.get("bookkeeping_ns_per_op")),
                     F.intg(o.get("timestamps_per_op"))])
    return ["timer", "timestamp ns", "resolution ns", "bookkeeping ns/op", "timestamps/op"], rows


def suite_table(run):
    rows = []
    for s in run.all("suite"):
        how = "aborted (Ctrl-C)" if s.get("interrupted") is True else \
            "aborted (the card stopped answering)" if s.get("aborted") is True else "complete"
        rows.append([F.text(s.get("profile")), F.duration_us(s.get("elapsed_us")), how])
    return ["suite", "time", "how it ended"], rows


def modes_table(run):
    rows = []
    for m in run.all("modes"):
        for e in m.get("modes") or []:
            if not isinstance(e, dict):
                continue
            rows.append([F.text(e.get("mode")), F.text(e.get("ran")),
                         "yes" if e.get("ok") is True else "no: %s" % F.text(e.get("error")),
                         F.hz(e.get("clock_hz")), F.intg(e.get("width")),
                         F.num(e.get("read_mbs")), F.num(e.get("bus_ceiling_mbs")),
                         F.text(e.get("note")) if e.get("note") is not None else ""])
        rows.append(["(then %s)" % F.text(m.get("restored")), "", "yes" if m.get("restore_ok")
                     is True else "no", "", "", "", "", "mode the suite went on in"])
    return ["mode", "ran", "ok", "clock", "width", "read MB/s", "bus ceiling MB/s", "note"], rows


def hostcost_table(run):
    rows = []
    for h in run.all("hostcost"):
        if h.get("error") is not None:
            rows.append([F.text(h.get("host")), F.text(h.get("path")), F.text(h.get("op")),
                         F.text(h.get("cmd")), F.intg(h.get("blocks")), F.DASH, F.DASH, F.DASH,
                         "error %s" % F.text(h.get("error"))])
            continue
        rows.append([F.text(h.get("host")), F.text(h.get("path")), F.text(h.get("op")),
                     F.text(h.get("cmd")), F.intg(h.get("blocks")),
                     F.num(h.get("request_ns"), "%.0f"), F.num(h.get("block_ns"), "%.1f"),
                     F.num(h.get("driver_block_ns"), "%.1f"), F.text(h.get("moved_by"))])
    return ["host", "path", "op", "command", "blocks", "ns/request", "ns/block",
            "driver ns/block", "moved by"], rows


def truth_table(run):
    rows = []
    for t in run.all("truth"):
        v = run.workloads.get(t.get("workload"), {}).get("verdict") if \
            isinstance(t.get("workload"), str) else None
        rows.append([F.text(t.get("workload")), F.intg(t.get("ops")),
                     "/".join(F.num(t.get(k), "%.0f") for k in ("card_pct", "bus_pct",
                                                                  "host_pct")),
                     "/".join(F.num(t.get(k), "%.0f") for k in ("crit_card_pct", "crit_bus_pct",
                                                                  "crit_host_pct")),
                     F.text((v or {}).get("bottleneck")) if v else ""])
    return ["workload", "ops", "wire card/bus/host %", "critical path card/bus/host %",
            "verdict"], rows


def workload_detail_table(run):
    """Per workload: the phase split, the histogram's extent, the series."""
    rows = []
    for name, w in run.workloads.items():
        ph, hi, se = w.get("phases"), w.get("histogram"), w.get("series")
        if not (ph or hi or se):
            continue
        ok = model.split_holds(ph, w.get("verdict"))
        split = "/".join(F.num((ph or {}).get(k), "%.0f") for k in
                         ("card_pct", "bus_pct", "host_pct")) if ph and ok else F.DASH
        if ph and not ok:
            # the firmware's judgement: no shares, no efficiency (docs/attribution.md)
            split = "no diagnosis: %s" % F.text((ph or {}).get("why") or
                                                (w.get("verdict") or {}).get("why") or
                                                "the split does not hold")
        hist = F.DASH
        if hi:
            cnt = [c for c in (hi.get("count") or []) if is_num(c)]
            hist = "%s ops in %d buckets" % (F.intg(sum(cnt)), len(cnt))
        ser = F.DASH
        if se:
            ts, mbs, _ = model.series_points(se)
            vals = [v for v in mbs if is_num(v)]
            ser = "%d intervals of %s ms: %s-%s MB/s, %d stall(s)" % (
                len(ts), F.num(se["interval_ns"] / 1e6 if is_num(se.get("interval_ns")) else None,
                               "%g"),
                F.num(min(vals)) if vals else F.DASH, F.num(max(vals)) if vals else F.DASH,
                len(model.stalls(se)))
        rows.append([name, split, F.num((ph or {}).get("bus_efficiency_pct"), "%.0f")
                     if ok else F.DASH, hist, ser])
    return ["workload", "card/bus/host %", "bus efficiency %", "latency histogram",
            "time series"], rows


def results_file_table(run):
    rows = []
    for r in run.all("results_file"):
        ext = r.get("extents") if isinstance(r.get("extents"), list) else []
        rows.append([F.text(r.get("name")), "yes" if r.get("usable") is True else "no",
                     F.size(r.get("bytes")) if r.get("usable") is True else F.DASH,
                     "%d extent(s)" % len(ext) if ext else F.DASH,
                     F.text(r.get("reason")) if r.get("reason") is not None else ""])
    return ["file", "written", "room", "extents", "why not"], rows


def screen_table(run):
    rows = [["HDMI framebuffer", "%s x %s" % (F.intg(r.get("width")), F.intg(r.get("height")))]
            for r in run.all("screen")]
    return ["screen", "pixels"], rows


def led_table(run):
    rows = []
    for r in run.all("led"):
        where = F.DASH
        if r.get("kind") not in (None, "none"):
            where = "%s %s, lit when %s" % (F.text(r.get("kind")), F.intg(r.get("line")),
                                            "low" if r.get("active_low") is True else "high")
        rows.append([F.text(r.get("led")), where,
                     "yes" if r.get("driven") is True else "no",
                     "%s (%s flash(es))" % (F.text(r.get("code")), F.intg(r.get("flashes"))),
                     F.text(r.get("reason")) if r.get("reason") is not None else ""])
    return ["LED", "line", "driven", "end code", "why not"], rows


def run_start_table(run):
    rows = [[F.intg(r.get("n")), F.text(r.get("source")), F.text(r.get("what"))]
            for r in run.all("run_start")]
    return ["run since boot", "started by", "what"], rows


# (record types, title, table function), in the order of the reports.
PARTS = [
    (("run_start",), "this run in the session (one boot, several runs)", run_start_table),
    (("host",), "host controllers", host_table),
    (("data_path",), "data path", data_path_table),
    (("results_file",), "console output also written to the card", results_file_table),
    (("screen",), "console output also drawn on a screen", screen_table),
    (("led",), "status LED (the outcome it shows until power-off)", led_table),
    (("silicon",), "controller behaviour, probed (docs/silicon.md)", silicon_table),
    (("bus",), "bus calibration (bus clocks per 64 KiB transfer)", bus_table),
    (("overhead",), "cost of measuring", overhead_table),
    (("modes",), "bus modes side by side", modes_table),
    (("hostcost",), "cost of one request (hostcost)", hostcost_table),
    (("phases", "histogram", "series"), "per workload: split, latency histogram, time series",
     workload_detail_table),
    (("truth",), "simulator's wire truth (not from a Pi)", truth_table),
    (("suite",), "suite", suite_table),
]


def parts(run):
    """[(title, head, rows)] for the parts the run has records for."""
    out = []
    for types, title, fn in PARTS:
        if any(run.all(t) for t in types):
            head, rows = fn(run)
            if rows:
                out.append((title, head, rows))
    return out


def text_lines(run):
    out = []
    for title, head, rows in parts(run):
        out.append("")
        out.append(title)
        widths = [max(len(str(x)) for x in col) for col in zip(head, *rows)]
        for r in [head] + rows:
            out.append(("  " + "  ".join(str(x).ljust(wd) for x, wd in zip(r, widths))).rstrip())
    return out
