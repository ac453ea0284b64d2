"""The text of sdbdb's list, show and compare (from sdbhost.db.queries)."""
from . import queries as Q


def _f(v, fmt="%.2f", none="-"):
    return none if v is None else fmt % v


def claims(c):
    parts = []
    if c.get("speed_class"):
        parts.append("C%d" % c["speed_class"])
    if c.get("uhs_grade"):
        parts.append("U%d" % c["uhs_grade"])
    if c.get("video_class"):
        parts.append("V%d" % c["video_class"])
    if c.get("app_class") and c["app_class"] not in ("none", "reserved"):
        parts.append(c["app_class"])
    return " ".join(parts) or "none"


def _au(c):
    b = c.get("au_bytes")
    if not b:
        return "AU not declared"
    return "AU %s" % ("%d MiB" % (b >> 20) if b >= 1 << 20 else "%d KiB" % (b >> 10))


def _gb(b):
    return "-" if b is None else "%.1f GB" % (b / 1e9)


def _src(source):
    return source if source in ("board", "linux") else source + " (not a card's speed)"


def render_list(rows, out):
    if not rows:
        out.write("no runs stored yet (sdbdb add LOG...)\n")
        return
    # the claims whole: "C10 U3 V30 A2" is 13 characters
    width = max([13] + [len(claims(r)) for r in rows])
    out.write("%4s  %-28s %-11s %-7s %-*s %-9s %4s  %8s %8s %8s %8s  %s\n" % (
        "card", "manufacturer OEM product", "serial", "made", width, "claims", "source", "runs",
        "seqR MB/s", "seqW MB/s", "rndR IOPS", "rndW IOPS", "flags"))
    for r in rows:
        out.write(("%4d  %-28s %-11s %-7s %-*s %-9s %4d  %8s %8s %8s %8s  %s" % (
            r["id"], Q.card_name(r)[:28], r["psn_hex"] or "-", r["mdt"] or "-",
            width, claims(r), r["source"], r["runs"], _f(r["seq_read_mbs"]),
            _f(r["seq_write_mbs"]), _f(r["rand_read_iops"], "%.0f"),
            _f(r["rand_write_iops"], "%.0f"), flags(r))).rstrip() + "\n")


def flags(r):
    """COUNTERFEIT (the addresses wrap), FAIL and the claims a run failed,
    SIMULATED / EMULATED for runs on no real card."""
    out = []
    if r.get("counterfeit"):
        out.append("COUNTERFEIT")
    if r.get("failed_claims"):
        fc = r["failed_claims"]
        out.append("FAIL " + (" ".join(fc) if isinstance(fc, list) else fc))
    if r.get("source") == "simulator":
        out.append("SIMULATED")
    elif r.get("source") == "qemu":
        out.append("EMULATED")
    return ", ".join(out)


def render_card(c, out):
    out.write("card #%d: %s, manufacturer ID 0x%02x, revision %s, serial %s, made %s\n" % (
        c["id"], Q.card_name(c), c["mid"] or 0, c["prv"] or "?", c["psn_hex"] or "?",
        c["mdt"] or "?"))
    out.write("  %s %s, SD spec %s; claims %s, %s\n" % (
        _gb(c["capacity_bytes"]), c["card_type"] or "?", c["sd_spec"] or "?", claims(c),
        _au(c)))


def render_run(r, out):
    how = "%s, %s, %s, %s" % (r["host"] or "?", r["data_path"] or "?", r["bus_mode"] or "?",
                              "%.2f MHz" % (r["clock_hz"] / 1e6) if r["clock_hz"] else "?")
    board = r["board_model"] or "?"
    if r["source"] == "simulator":
        board = "simulator, host %s, profile %s" % (r["sim_host"], r["sim_profile"])
    out.write("run %d: %s, %s; %s; suite %s; %s, %s error(s); %s run %s, added %s\n" % (
        r["id"], _src(r["source"]), board, how, r["suite"] or "?",
        "ended" if r["ended_by"] == "done" else "stopped by an exception", r["errors"],
        r["log_name"], r["run_in_log"], r["added_at"]))
    if flags(r):
        out.write("  flags: %s\n" % flags(r))
    if r.get("verdict"):
        out.write("  %s\n" % r["verdict"])
    text = _headline_text(r.get("headline"))
    if text:
        out.write("  %s\n" % text)
    if r.get("queue_text"):
        # the queue_check record's text, and the A2 verdict on the queued figures
        a2 = " (A2 on the queue: %s)" % r["a2_queued"] if r.get("a2_queued") else ""
        out.write("  %s%s\n" % (r["queue_text"], a2))
    out.write("  figures: seq read %s MB/s, seq write %s MB/s, random 4 KiB read %s IOPS, "
              "write %s IOPS\n" % (_f(r["seq_read_mbs"]), _f(r["seq_write_mbs"]),
                                   _f(r["rand_read_iops"], "%.0f"),
                                   _f(r["rand_write_iops"], "%.0f")))


def _headline_text(stored):
    """The text of the run's headline record (stored as JSON), if any."""
    import json
    try:
        h = json.loads(stored) if stored else None
    except ValueError:
        return None
    return h.get("text") if isinstance(h, dict) and isinstance(h.get("text"), str) else None


def render_workloads(ws, out):
    out.write("  %-30s %9s %9s %7s %10s  %s\n" % ("workload", "MB/s", "IOPS", "samples",
                                                  "p99 us", "verdict"))
    for w in ws:
        out.write("  %-30s %9s %9s %7s %10s  %s\n" % (
            w["name"][:30], _f(w["mbs"]), _f(w["iops"], "%.0f"), _f(w["ops"], "%d"),
            _f(w["lat_p99_ns"] and w["lat_p99_ns"] / 1e3, "%.1f"), w["verdict"] or "-"))


def render_show(c, runs, workloads_of, out, all_workloads=False):
    """The card, its runs, and the workloads of the last run that has
    some (of every run with all_workloads)."""
    render_card(c, out)
    last = max((r["id"] for r in runs if r["workload_count"]), default=None)
    for r in runs:
        render_run(r, out)
        if r["workload_count"] and (all_workloads or r["id"] == last):
            render_workloads(workloads_of(r["id"]), out)


def render_compare(c, groups, out):
    render_card(c, out)
    for g in groups:
        src = "every source" if g["source"] == "any" else _src(g["source"])
        out.write("\namong runs on %s in bus mode %s, %s figures, %s (this card's runs %s):\n"
                  % (g["family"], g["bus_mode"] or "?", g["method"], src,
                     ", ".join(str(i) for i in g["runs"])))
        out.write("  %-30s %9s %9s %9s %9s %11s\n" % ("workload", "MB/s", "rank", "pctile",
                                                      "median", "best"))
        for w in g["workloads"]:
            out.write("  %-30s %9s %9s %9s %9s %11s%s\n" % (
                w["name"][:30], _f(w["value"]), "%d of %d" % (w["rank"], w["n"]),
                _f(w["percentile"], "%.0f"), _f(w["median"]), _f(w["best"]),
                "  " + w["quarter"] if w["quarter"] else ""))
        bs = g["batches"]
        if bs and (len(bs) > 1 or bs[0]["cards"] > 1):
            render_batches(c, bs, g["batch_names"], out)


def render_batches(c, batches, names, out):
    """Workloads down, batches across: each batch's median MB/s and its
    change against this card's batch."""
    mine = next((b for b in batches if b["this"]), None)
    out.write("\nthe same model (%s) by batch (revision and manufacturing date): median MB/s "
              "of each batch's cards, change against this card's batch\n" % Q.card_name(c))
    for b in batches:
        out.write("  batch %s %s: %d card(s), %d run(s), tested %s..%s%s\n" % (
            b["prv"] or "?", b["mdt"] or "?", b["cards"], b["runs"], b["first"], b["last"],
            "  (this card's)" if b["this"] else ""))
    out.write("  %-30s" % "workload" + "".join(" %16s" % ("%s %s" % (b["prv"], b["mdt"]))
                                               for b in batches) + "\n")
    for n in names:
        ref = mine["workloads"].get(n) if mine else None
        cells = []
        for b in batches:
            v = b["workloads"].get(n)
            ch = "" if v is None or b is mine or not ref else " %+.0f%%" % (
                100.0 * (v - ref) / ref)
            cells.append(" %16s" % (_f(v) + ch))
        out.write("  %-30s" % n[:30] + "".join(cells) + "\n")
