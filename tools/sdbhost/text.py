"""The text report: every record type as a person reads it, and the
side-by-side comparison of several runs."""
from . import checks
from . import details
from . import fmt as F
from . import headline as HL
from . import hosts as H
from . import model
from .records import is_num


def _w(out, s=""):
    out.write(s + "\n")


def board_line(b):
    if not b:
        return "board: (no board record)"
    if b.get("source") == "linux":
        # sdblinux: the device tree's model (none off a Pi), Linux, the device
        model = b.get("model")
        return "board: %s, through Linux %s (%s), device %s" % (
            "no device-tree model" if model in (None, "", "unknown") else model,
            F.text(b.get("kernel")), F.text(b.get("arch")), F.text(b.get("device")))
    t = b.get("timer") or {}
    s = "board: %s (%s), %s %s" % (F.text(b.get("model")), F.text(b.get("revision")),
                                   F.text(b.get("soc")), F.text(b.get("cpu")))
    s += ", timer %s %s Hz" % (F.text(t.get("source")), F.intg(t.get("freq_hz")))
    if b.get("emulated"):
        s += ", EMULATED: timings are QEMU's"
    if b.get("simulated"):
        s += ", SIMULATED: build/host/sdbsim, no real card"
    return s


def card_name(c):
    cid = (c or {}).get("cid") or {}
    maker = cid.get("manufacturer")
    if maker in (None, "unknown") and is_num(cid.get("mid")):
        maker = "MID 0x%02x" % cid["mid"]
    return "%s %s %s" % (F.text(maker), F.text(cid.get("oid")), F.text(cid.get("pnm")))


def card_lines(c):
    if not c:
        return ["card: (no card record)"]
    cap = c.get("capacity_bytes")
    cid, csd = c.get("cid") or {}, c.get("csd") or {}
    scr, ssr = c.get("scr") or {}, c.get("ssr") or {}
    lines = ["card: %s, %s MiB, %s-bit %s at %s Hz" % (
        card_name(c), F.intg(cap / 1048576 if is_num(cap) else None), F.intg(c.get("width")),
        F.text(c.get("timing")), F.intg(c.get("clock_hz")))]
    if not c.get("initialised", True):
        lines.append("      not initialised (present: %s)" % F.text(c.get("present")))
    extra = []
    if cid:
        extra.append("rev %s, serial %s, made %s" % (F.text(cid.get("prv")),
                                                     F.text(cid.get("psn_hex")),
                                                     F.text(cid.get("mdt"))))
    if csd:
        extra.append("%s (CSD %s)" % (F.text(csd.get("card_type")),
                                      F.text(csd.get("csd_version"))))
    if scr:
        extra.append("SD spec %s" % F.text(scr.get("sd_spec")))
    if extra:
        lines.append("      " + "; ".join(extra))
    if ssr:
        lines.append("      claims: speed class %s, UHS grade %s, video class %s, app class %s;"
                     " AU %s" % (F.text(ssr.get("speed_class")), F.text(ssr.get("uhs_grade")),
                                 F.text(ssr.get("video_class")),
                                 F.text(ssr.get("app_perf_class")),
                                 F.size(ssr.get("au_size_bytes")) if ssr.get("au_size_bytes")
                                 else "not declared"))
    lines.append("      max %s Hz, CMD23 %s, high speed %s, write-protected %s" % (
        F.intg(c.get("max_clock_hz")), F.text(c.get("cmd23")), F.text(c.get("hs_supported")),
        F.text(c.get("write_protected"))))
    return lines


def layout_lines(lay):
    if not lay:
        return []
    out = ["layout: %s%s" % (F.text(lay.get("kind")),
                             " - " + lay["reason"] if lay.get("reason") else "")]
    for p in lay.get("partitions") or []:
        first, count = p.get("first_lba"), p.get("count")
        out.append("      partition %s: %s, LBA %s+%s (%s)" % (
            F.text(p.get("number")), F.text(p.get("type_name")), F.intg(first), F.intg(count),
            F.size(count * 512 if is_num(count) else None)))
    return out


def config_line(cfg):
    if not cfg:
        return None
    src = "sdbench.txt" if cfg.get("file") else "defaults (no sdbench.txt)"
    keys = cfg.get("from_file") or []
    s = "config: %s, suite %s" % (src, F.text(cfg.get("suite")))
    if keys:
        s += "; set in the file: " + ", ".join(
            "%s = %s" % (k, F.text(cfg.get(k))) for k in keys if isinstance(k, str))
    for m in cfg.get("messages") or []:
        s += "\n      message: %s" % F.text(m)
    return s


def area_line(ta):
    if not ta:
        return None
    if ta.get("usable"):
        first, count = ta.get("first_lba"), ta.get("count")
        last = first + count - 1 if is_num(first) and is_num(count) else None
        return "test area: LBA %s-%s (%s), %s" % (F.intg(first), F.intg(last),
                                                  F.size(ta.get("bytes")), F.text(ta.get("reason")))
    s = "test area: none - %s" % F.text(ta.get("reason"))
    if ta.get("hint"):
        s += "\n      hint: %s" % ta["hint"]
    return s


def summary_lines(s):
    out = []
    for key, label in (("seq_read", "sequential read"), ("seq_write", "sequential write")):
        p = s.get(key)
        if isinstance(p, dict):
            out.append("  %-20s best %9s MB/s at %s transfers" % (label, F.num(p.get("mbs")),
                                                                  F.size(p.get("xfer_bytes"))))
            out.append("  %-20s %s" % ("", F.text(p.get("verdict"))))
    for key, label in (("rand_read_4k", "random 4 KiB read"), ("rand_write_4k", "random 4 KiB write"),
                       ("mix70_4k", "random 70/30 4 KiB")):
        p = s.get(key)
        if isinstance(p, dict):
            out.append("  %-20s %9s IOPS %9s MB/s" % (label, F.num(p.get("iops"), "%.0f"),
                                                      F.num(p.get("mbs"))))
            out.append("  %-20s %s" % ("", F.text(p.get("verdict"))))
    return out


def workload_table(run, out):
    _w(out, "%-28s %10s %10s %9s %10s %10s  %-13s %s" % (
        "workload", "MB/s", "MiB/s", "IOPS", "p50 us", "p99 us", "check", "verdict"))
    for key, title, names in model.groups(run):
        for name in names:
            w = run.workloads[name]
            r, lat, v = w.get("result"), w.get("latency") or {}, w.get("verdict") or {}
            _w(out, "%-28s %10s %10s %9s %10s %10s  %-13s %s" % (
                name, F.num(r.get("mbs")), F.num(r.get("mibs")), F.num(r.get("iops"), "%.0f"),
                F.us_from_ns(lat.get("p50_ns")), F.us_from_ns(lat.get("p99_ns")),
                checks.cell(run, name) or "-", F.text(v.get("text")) if v else ""))


def sweep_lines(run):
    pts, fits = model.sweep_points(run)
    out = []
    for key in sorted(set(pts) | set(fits), key=lambda k: (str(k[0]), F.text(k[1]))):
        op, width = key
        for clk, mean_ns, mbs, ceil in pts.get(key, []):
            out.append("  %-6s %s-bit %12s  %9s MB/s  %10s us/op  (bus ceiling %s MB/s)" % (
                F.text(op), F.intg(width), F.hz(clk), F.num(mbs), F.us_from_ns(mean_ns),
                F.num(ceil)))
        f = fits.get(key)
        if f:
            if is_num(f.get("a_ns")) and not model.fit_holds(f):
                out.append("  fit %s %s-bit: no fit - b = %s clocks is not above 0: the time "
                           "does not fall as the clock rises (something other than the bus "
                           "sets it)" % (F.text(op), F.intg(width), F.intg(f.get("b_clocks"))))
            elif is_num(f.get("a_ns")):
                out.append("  fit %s %s-bit: T = %s us + %s clocks / f (framing predicts %s), "
                           "R^2 %s; at %s the bus is %s of the time" % (
                               F.text(op), F.intg(width), F.us_from_ns(f.get("a_ns")),
                               F.intg(f.get("b_clocks")), F.intg(f.get("model_bus_clocks")),
                               F.num(f.get("r2"), "%.4f"), F.hz(f.get("fmax_hz")),
                               F.pct(f.get("bus_share_at_fmax_pct"))))
            else:
                out.append("  fit %s %s-bit: too few points (%s)" % (
                    F.text(op), F.intg(width), F.intg(f.get("points"))))
    return out


def class_lines(c):
    out = ["  the card claims: application class %s, speed class %s, UHS %s, video %s" % (
        F.text(c.get("app_claim")), _claim("C", c.get("speed_class_claim")),
        _claim("U", c.get("uhs_grade_claim")), _claim("V", c.get("video_class_claim")))]
    out.append("  measured (queue depth %s, %s): %s read IOPS, %s write IOPS (4 KiB random), "
               "%s MB/s sequential write" % (
                   F.intg(c.get("queue_depth")), F.text(c.get("rand_cmd")),
                   F.num(c.get("read_iops"), "%.0f"), F.num(c.get("write_iops"), "%.0f"),
                   F.num(c.get("seq_write_mbs"), "%.2f")))
    out.append("  Pw (speed class): %s MB/s worst AU, %s AUs of %s in %s RUs" % (
        F.num(c.get("pw_mbs")), F.intg(len(c["pw_au_mbs"]) if isinstance(c.get("pw_au_mbs"), list)
                                      else None),
        F.size(c.get("au_bytes")), F.size(c.get("ru_bytes"))))
    out.append("  application class: %s" % F.text(c.get("app_text")))
    out.append("  speed class:       %s" % F.text(c.get("speed_text")))
    return out


def _claim(prefix, v):
    if not is_num(v):
        return F.DASH
    if v == 0:
        return "none"
    if v < 0:
        return "reserved"
    return "%s%d" % (prefix, v)


def au_lines(a):
    out = ["  %8s %10s %10s %10s %10s %10s" % ("align", "pre us", "on us", "post us",
                                              "penalty us", "noise us")]
    al = a.get("align_bytes") or []
    pre, on, post = a.get("pre_ns") or [], a.get("on_ns") or [], a.get("post_ns") or []
    noise = a.get("noise_ns") or []
    for i, size in enumerate(al):
        p, o, q = (x[i] if i < len(x) else None for x in (pre, on, post))
        pen = o - (p + q) / 2 if all(is_num(x) for x in (p, o, q)) else None
        out.append("  %8s %10s %10s %10s %10s %10s" % (
            F.size(size), F.us_from_ns(p), F.us_from_ns(o), F.us_from_ns(q),
            F.us_from_ns(pen), F.us_from_ns(noise[i] if i < len(noise) else None)))
    meas = a.get("measured_bytes")
    out.append("  erase block: %s (declared AU %s; %s)" % (
        F.size(meas) if meas else "no step found",
        F.size(a.get("declared_au_bytes")) if a.get("declared_au_bytes") else "none",
        F.text(a.get("match"))))
    out.append("  %s" % F.text(a.get("text")))
    return out


def open_au_lines(o):
    out = ["  %6s %10s %10s" % ("AUs", "MB/s", "p99 us")]
    ns, mbs, p99 = o.get("n") or [], o.get("mbs") or [], o.get("p99_us") or []
    for i, n in enumerate(ns):
        out.append("  %6s %10s %10s" % (F.intg(n), F.num(mbs[i] if i < len(mbs) else None),
                                       F.intg(p99[i] if i < len(p99) else None)))
    if o.get("collapsed"):
        out.append("  the rate collapses at %s open AUs: the card keeps %s open "
                   "(%s writes into AUs of %s)" % (F.intg(o.get("collapse_at")),
                                                   F.intg(o.get("handled")),
                                                   F.size(o.get("chunk_bytes")),
                                                   F.size(o.get("au_bytes"))))
    else:
        out.append("  no collapse up to %s open AUs (stopped by %s; %s writes into AUs of %s)"
                   % (F.intg(o.get("handled")), F.text(o.get("stopped_by")),
                      F.size(o.get("chunk_bytes")), F.size(o.get("au_bytes"))))
    return out


def erase_lines(e):
    out = ["  one AU of %s: min %s ms, median %s ms, max %s ms over %s erases" % (
        F.size(e.get("au_bytes")), F.ms_from_us(e.get("min_us")),
        F.ms_from_us(e.get("median_us")), F.ms_from_us(e.get("max_us")), F.intg(e.get("count")))]
    if is_num(e.get("multi_aus")):
        out.append("  %s AUs at once: %s ms, %s ms per further AU" % (
            F.intg(e.get("multi_aus")), F.ms_from_us(e.get("multi_us")),
            F.ms_from_us(e.get("per_au_us"))))
    if is_num(e.get("timeout_ms_1au")):
        out.append("  the SD Status allows %s ms for one AU" % F.intg(e.get("timeout_ms_1au")))
    else:
        out.append("  the card gives no erase timeout in its SD Status")
    return out


def queue_dir(q):
    """read, write or mixed (70/30) of a queue record."""
    return "mixed" if q.get("mix") else "write" if q.get("write") else "read"


def queue_lines(run):
    """The command queue's depth table, its checks' verdict and the A2
    verdict on its figures (class_queue)."""
    out = []
    for q in run.all("queue"):
        out.append("  %-5s cache %-3s depth %2s: %s IOPS, p50 %s us, p99 %s us%s" % (
            queue_dir(q), "on" if q.get("cache") else "off",
            F.intg(q.get("depth")), F.num(q.get("iops"), "%.0f"),
            F.num((q.get("p50_ns") or 0) / 1e3, "%.1f") if is_num(q.get("p50_ns")) else "-",
            F.num((q.get("p99_ns") or 0) / 1e3, "%.1f") if is_num(q.get("p99_ns")) else "-",
            " (stopped by an error)" if q.get("error") else ""))
    for c in run.all("queue_check"):
        out.append("  %s" % F.text(c.get("text")))
    for c in run.all("class_queue"):
        if isinstance(c.get("app_text"), str):
            out.append("  %s" % F.text(c.get("app_text")))
        else:
            out.append("  (the card claims %s: the queued figures are not a class verdict)"
                       % F.text(c.get("app_claim") or "no class"))
    return out


def sustained_lines(s):
    out = ["  %s written in %s transfers (%s operations, stopped by %s): %s MB/s overall" % (
        F.size(s.get("bytes")), F.size(s.get("xfer_bytes")), F.intg(s.get("ops")),
        F.text(s.get("stopped_by")), F.num(s.get("overall_mbs")))]
    if s.get("knee_found"):
        out.append("  knee: %s MB/s for the first %s, then %s MB/s (the card's cache is full)" % (
            F.num(s.get("initial_mbs")), F.size(s.get("knee_bytes")), F.num(s.get("steady_mbs"))))
    else:
        out.append("  no knee: the rate stays at %s MB/s" % F.num(s.get("steady_mbs")))
    out.append("  median operation %s ms, worst %s ms at %s" % (
        F.num(s["median_op_ns"] / 1e6 if is_num(s.get("median_op_ns")) else None, "%.2f"),
        F.num(s["worst_ns"] / 1e6 if is_num(s.get("worst_ns")) else None, "%.2f"),
        F.size(s.get("worst_at_bytes"))))
    return out


def hosts_lines(rec):
    fmt = "  %-7s %-4s %-6s %-14s %9s %9s %10s %6s %10s  %s"
    out = [(fmt % tuple(H.HEAD)).rstrip()]
    for row in H.table(rec):
        out.append((fmt % tuple(row)).rstrip())
    if not H.rows(rec):
        out.append("  (no rows)")
    out.append("  host% = the host's share of the operations' time; CPU ns/blk = the CPU's "
               "own time moving one 512-byte block")
    return out


def integrity_lines(recs):
    out = ["  %-22s %8s %8s %8s %11s %6s %9s %11s" % (
        "workload", "blocks", "ok", "changed", "overwritten", "stale", "corrupted",
        "read errors")]
    for r in recs:
        out.append("  %-22s %8s %8s %8s %11s %6s %9s %11s%s" % (
            F.text(r.get("workload")), F.intg(r.get("blocks")), F.intg(r.get("ok")),
            F.intg(r.get("changed")), F.intg(r.get("overwritten")), F.intg(r.get("stale")),
            F.intg(r.get("corrupted")), F.intg(r.get("read_errors")),
            "  first bad LBA %s" % F.intg(r.get("first_bad_lba")) if model.integrity_bad(r) else ""))
    return out


def selftest_lines(recs):
    out = []
    for r in recs:
        if r.get("test") == "read":
            res = r.get("result") if isinstance(r.get("result"), dict) else {}
            crc = r.get("crc32") if isinstance(r.get("crc32"), dict) else {}
            modes = ", ".join("%s %s%s" % (m, F.text(v), " " + F.text(crc.get(m))
                                           if v == "ok" else "") for m, v in res.items())
            out.append("  read LBA %s+%s: %s; %s" % (
                F.intg(r.get("lba")), F.intg(r.get("count")),
                "all modes read the same data" if r.get("match") else "MODES DISAGREE", modes))
        elif r.get("test") == "write":
            if r.get("write_protected"):
                out.append("  write: card write-protected, write %s (%s)" % (
                    "refused" if r.get("write_refused") else "NOT refused", F.text(r.get("code"))))
                continue
            segs = r.get("segments") or []
            out.append("  write LBA %s+%s: %s; read back %s" % (
                F.intg(r.get("lba")), F.intg(r.get("count")),
                ", ".join("%s %s" % (F.text(s.get("mode")), F.text(s.get("result")))
                          for s in segs),
                "identical" if r.get("verify") else "DIFFERENT"))
            e = r.get("erase")
            if isinstance(e, dict):
                out.append("        erase LBA %s+%s: %s, reads %s" % (
                    F.intg(e.get("lba")), F.intg(e.get("count")), F.text(e.get("result")),
                    F.text(e.get("value"))))
    return out


def _setup_lines(run, out):
    """The run's set-up: board, card, layout, configuration, test area and
    measurement overhead (render_run)."""
    _w(out, board_line(run.board()))
    b = run.board() or {}
    if b and b.get("source") != "linux":
        t = b.get("timer") or {}
        _w(out, "       ARM %s, %s + %s VC memory, firmware %s; timer resolution %s ns, "
                "read cost %s ns, calibration %s ppm" % (
                    F.hz(b.get("arm_clock_hz")), F.size(b.get("arm_mem_bytes")),
                    F.size(b.get("vc_mem_bytes")), F.text(b.get("firmware")),
                    F.intg(t.get("resolution_ns")), F.intg(t.get("read_cost_ns")),
                    F.intg(t.get("calib_ppm"))))
    for line in card_lines(run.one("card")):
        _w(out, line)
    for line in layout_lines(run.one("layout")):
        _w(out, line)
    for line in (config_line(run.one("config")), area_line(run.one("test_area"))):
        if line:
            _w(out, line)
    ov = run.one("overhead")
    if ov:
        _w(out, "overhead: %s ns per timestamp (%s), %s ns of bookkeeping per operation" % (
            F.intg(ov.get("timestamp_ns")), F.text(ov.get("timer")),
            F.intg(ov.get("bookkeeping_ns_per_op"))))


def _closing_lines(run, out):
    """The run's problems (checks, skipped workloads, errors, exceptions)
    and how it ended (render_run)."""
    for line in details.text_lines(run):
        _w(out, line)
    for line in checks.lines(run):
        _w(out, line)
    for r in run.all("skipped"):
        _w(out, "skipped: %s - %s" % (F.text(r.get("workload")), F.text(r.get("reason"))))
    for e in run.all("error"):
        _w(out, "error [%s]: %s (%s)" % (F.text(e.get("context")), F.text(e.get("message")),
                                        F.text(e.get("code"))))
    for e in run.all("exception"):
        _w(out, "EXCEPTION: %s at pc %s (spsr %s): the run stopped" % (
            F.text(e.get("exception")), F.text(e.get("pc")), F.text(e.get("spsr"))))
    d = run.done()
    suite = run.one("suite")
    if suite and suite.get("aborted"):
        _w(out, "the card stopped answering: the suite was aborted")
    if d:
        _w(out, "\nrun ended: %s error(s), %s" % (F.intg(d.get("errors")),
                                                  F.duration_us(d.get("elapsed_us"))))
    elif run.ended_by == "exception":
        _w(out, "\nrun stopped by an exception (no done record)")
    else:
        _w(out, "\nrun did not finish (no done record)")


def render_run(run, out, log=None):
    """The report of one run."""
    if log is not None and len(log.runs) > 1:
        _w(out, "%s holds %d runs; this is %s" % (log.path, len(log.runs), run.describe()))
    _w(out, "HEADLINE")
    for line in HL.headline(run)["lines"]:
        _w(out, "  " + line)
    _w(out)
    if run.emulated:
        _w(out, "EMULATED RUN (QEMU): every time and rate below is emulation speed, "
                "not a card's")
    if run.simulated:
        _w(out, "SIMULATED RUN (build/host/sdbsim): every time and rate below is the "
                "simulator's model of a card and host, not a measurement")
    _setup_lines(run, out)
    s = run.one("summary")
    if s:
        _w(out, "\nsummary (MB = 10^6 B)")
        for line in summary_lines(s):
            _w(out, line)
    if run.result_workloads():
        _w(out)
        workload_table(run, out)
    if run.all("sweep"):
        _w(out, "\nclock and bus-width sweep")
        for line in sweep_lines(run):
            _w(out, line)
    sections = (("class", "application and speed class check", class_lines),
                ("au", "erase-block (AU) detection by alignment reads", au_lines),
                ("open_au", "open AUs", open_au_lines),
                ("erase", "erase (CMD38) time per AU", erase_lines),
                ("sustained", "sustained sequential write", sustained_lines))
    for t, title, fn in sections:
        for r in run.all(t):
            _w(out, "\n%s" % title)
            for line in fn(r):
                _w(out, line)
    if run.all("queue") or run.all("queue_check") or run.all("class_queue"):
        _w(out, "\ncommand queue (random 4 KiB tasks by queue depth)")
        for line in queue_lines(run):
            _w(out, line)
    for rec in run.all("hosts"):
        _w(out, "\nhost comparison (the same workloads on every host configuration%s)"
           % (": emulation speed" if rec.get("emulated") else ""))
        for line in hosts_lines(rec):
            _w(out, line)
    if run.all("integrity"):
        _w(out, "\nintegrity (every written block read back)")
        for line in integrity_lines(run.all("integrity")):
            _w(out, line)
    if run.all("selftest"):
        _w(out, "\nSD stack self-test")
        for line in selftest_lines(run.all("selftest")):
            _w(out, line)
    _closing_lines(run, out)


def render_compare(runs, labels, out):
    """Several runs side by side: the same workloads in columns."""
    for lab, run in zip(labels, runs):
        c = run.one("card") or {}
        b = run.board() or {}
        cap = c.get("capacity_bytes")
        _w(out, "%s = %s, %s: %s; %s, %s%s" % (
            lab, run.path, run.describe(), F.text(b.get("model")), card_name(c),
            F.size(cap), ", EMULATED" if run.emulated else ", SIMULATED" if run.simulated
            else ""))
    _w(out)
    names = []
    for run in runs:
        for n in run.result_workloads():
            if n not in names:
                names.append(n)
    width = 12
    head = "%-28s" % "workload" + "".join("%*s" % (width, "MB/s " + l) for l in labels)
    head += "".join("%*s" % (8, "%s/%s" % (l, labels[0])) for l in labels[1:])
    head += "".join("%*s" % (width, "IOPS " + l) for l in labels)
    _w(out, head)
    for n in names:
        rs = [run.workloads.get(n, {}).get("result") or {} for run in runs]
        row = "%-28s" % n + "".join("%*s" % (width, F.num(r.get("mbs"))) for r in rs)
        row += "".join("%*s" % (8, F.num(F.ratio(rs[0].get("mbs"), r.get("mbs")), "%.2f"))
                       for r in rs[1:])
        row += "".join("%*s" % (width, F.num(r.get("iops"), "%.0f")) for r in rs)
        _w(out, row)
    # The card-level checks side by side.
    rows = [
        ("application class", lambda r: _get(r, "class", "app_text")),
        ("speed class", lambda r: _get(r, "class", "speed_text")),
        ("A2 on the queue", lambda r: _get(r, "class_queue", "detail")),
        ("command queue", lambda r: _get(r, "queue_check", "text")),
        ("erase block", lambda r: _get(r, "au", "text")),
        ("open AUs handled", lambda r: F.intg(_get(r, "open_au", "handled", raw=True))),
        ("erase ms per AU", lambda r: F.ms_from_us(_get(r, "erase", "median_us", raw=True))),
        ("sustained MB/s", lambda r: F.num(_get(r, "sustained", "steady_mbs", raw=True))),
        ("errors", lambda r: "%d%s" % (r.error_count, "" if r.finished else " (not finished)")),
    ]
    _w(out)
    for title, fn in rows:
        for lab, run in zip(labels, runs):
            _w(out, "%-20s %s: %s" % (title if lab == labels[0] else "", lab, fn(run)))


def _get(run, t, key, raw=False):
    r = run.one(t)
    v = r.get(key) if r else None
    return v if raw else F.text(v)


def render_warnings(log, out):
    for line, text in log.warnings:
        out.write("%s:%d: warning: %s\n" % (log.path, line, text))
