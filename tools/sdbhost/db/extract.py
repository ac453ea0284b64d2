"""What the database keeps of one run, taken from its records (read by
sdbhost.records; nothing here parses a log). Pure: a Run in, dicts out."""
import hashlib
import json

from ..records import is_num

SOURCES = ("board", "qemu", "simulator", "linux")

# Board families: runs on the same SoC share the host controller, the CPU
# that moves the data and the bus modes on offer.
FAMILY = {"BCM2835": "Pi 0/1 (BCM2835)", "BCM2836": "Pi 2 (BCM2836)",
          "BCM2837": "Pi 3 (BCM2837)", "BCM2711": "Pi 4 (BCM2711)",
          "BCM2712": "Pi 5 (BCM2712)"}


# A board record without "soc" (the Linux companion's: the device tree's
# model string): the SoC from the model's name, most specific first.
MODEL_SOC = [("Pi 5", "BCM2712"), ("Pi 500", "BCM2712"), ("Compute Module 5", "BCM2712"),
             ("Pi 4", "BCM2711"), ("Pi 400", "BCM2711"), ("Compute Module 4", "BCM2711"),
             ("Pi 3", "BCM2837"), ("Zero 2", "BCM2837"), ("Compute Module 3", "BCM2837"),
             ("Pi 2", "BCM2836"), ("Pi Zero", "BCM2835"), ("Pi Model", "BCM2835"),
             ("Compute Module", "BCM2835")]
CARD_FIELDS = ("card_key", "cid_raw", "mid", "manufacturer", "oid", "pnm", "prv", "psn",
               "psn_hex", "mdt", "capacity_bytes", "card_type", "sd_spec", "speed_class",
               "uhs_grade", "video_class", "app_class", "au_bytes", "uhs_au_bytes")


def soc_of_model(model):
    for key, soc in MODEL_SOC:
        if model and key in model:
            return soc
    return None


class NotStorable(Exception):
    """A run the database cannot take, with the reason for people."""


def run_hash(run):
    """Content hash of the run: its records as canonical JSON. The same run
    added from two copies of a log (or a log that grew another run) has
    the same hash; any measured difference gives another."""
    h = hashlib.sha256()
    for rec in run.records:
        h.update(json.dumps(rec, sort_keys=True, separators=(",", ":")).encode())
        h.update(b"\n")
    return h.hexdigest()


def source_of(run):
    """board, qemu, simulator or linux (the companion tool marks its
    records "source": "linux")."""
    if any(r.get("source") == "linux" for r in run.records):
        return "linux"
    b = run.board() or {}
    if b.get("simulated") is True:
        return "simulator"
    if run.emulated:
        return "qemu"
    return "board"


def suite_card(run):
    """The card record in force when the suite ran: the last one before the
    first result (the card is initialised again for other hosts or bus
    modes later), else the last one."""
    card = None
    for r in run.records:
        if r["type"] == "result" and card is not None:
            return card
        if r["type"] == "card":
            card = r
    return card


def _num(v, cast=None):
    if not is_num(v):
        return None
    return cast(v) if cast else v


def _str(v):
    return v if isinstance(v, str) else None


def card_key(cid):
    """What identifies one physical card: the CID's fields (the CRC byte
    left out: SDHCI controllers drop it)."""
    return "%s:%s:%s:%s:%s:%s" % (cid.get("mid"), cid.get("oid"), cid.get("pnm"),
                                  cid.get("prv"), cid.get("psn"), cid.get("mdt_raw"))


def card_row(card):
    cid = card.get("cid")
    if not isinstance(cid, dict) or cid.get("mid") is None or cid.get("psn") is None:
        raise NotStorable("its card record has no decoded CID: the card's identity is unknown")
    ssr = card.get("ssr") if isinstance(card.get("ssr"), dict) else {}
    csd = card.get("csd") if isinstance(card.get("csd"), dict) else {}
    scr = card.get("scr") if isinstance(card.get("scr"), dict) else {}
    return {
        "card_key": card_key(cid), "cid_raw": _str(cid.get("raw")),
        "mid": _num(cid.get("mid"), int), "manufacturer": _str(cid.get("manufacturer")),
        "oid": _str(cid.get("oid")), "pnm": _str(cid.get("pnm")), "prv": _str(cid.get("prv")),
        "psn": _num(cid.get("psn"), int), "psn_hex": _str(cid.get("psn_hex")),
        "mdt": _str(cid.get("mdt")),
        "capacity_bytes": _num(card.get("capacity_bytes"), int),
        "card_type": _str(csd.get("card_type")), "sd_spec": _str(scr.get("sd_spec")),
        "speed_class": _num(ssr.get("speed_class"), int),
        "uhs_grade": _num(ssr.get("uhs_grade"), int),
        "video_class": _num(ssr.get("video_class"), int),
        "app_class": _str(ssr.get("app_perf_class")),
        "au_bytes": _num(ssr.get("au_size_bytes"), int),
        "uhs_au_bytes": _num(ssr.get("uhs_au_size_bytes"), int),
    }


def _summary_figures(summary):
    s = summary or {}

    def part(key, field):
        p = s.get(key)
        return _num(p.get(field)) if isinstance(p, dict) else None
    return {"seq_read_mbs": part("seq_read", "mbs"), "seq_write_mbs": part("seq_write", "mbs"),
            "rand_read_iops": part("rand_read_4k", "iops"),
            "rand_write_iops": part("rand_write_4k", "iops")}


def _host(run, card):
    """The controller: the card record's host (older logs: the last host
    record printed before it)."""
    if _str(card.get("host")):
        return card["host"]
    name = None
    for r in run.records:
        if r is card:
            break
        if r["type"] == "host" and _str(r.get("name")):
            name = r["name"]
    return name


def _data_path(run, card):
    dp = run.one("data_path")
    if dp and _str(dp.get("path")):
        return dp["path"]
    for h in run.all("host"):
        if h.get("name") == _host(run, card) and _str(h.get("data_path")):
            return h["data_path"]
    for name in run.result_workloads():
        p = _str(run.workloads[name]["result"].get("data_path"))
        if p:
            return p
    return None


def _dumps(v):
    return json.dumps(v, sort_keys=True, separators=(",", ":")) if v is not None else None


def run_row(run, card):
    b = run.board() or {}
    src = source_of(run)
    soc = _str(b.get("soc"))
    if b.get("simulated") is True:
        family = "simulator (%s host)" % (b.get("host") or "?")
    else:
        family = FAMILY.get(soc or soc_of_model(_str(b.get("model"))), soc or "unknown board")
    suite = run.one("suite") or {}
    cfg = run.one("config") or {}
    done = run.done() or {}
    row = {
        "source": src, "measured": 1 if src in ("board", "linux") and not run.emulated else 0,
        "board_model": _str(b.get("model")), "board_revision": _str(b.get("revision")),
        "soc": soc, "family": family, "board_serial": _str(b.get("serial")),
        "sim_profile": _str(b.get("profile")), "sim_host": _str(b.get("host")),
        "host": _host(run, card), "data_path": _data_path(run, card),
        "bus_mode": _str(card.get("bus_mode")) or (_str(card.get("timing")) or "").lower() or None,
        "clock_hz": _num(card.get("clock_hz"), int), "width": _num(card.get("width"), int),
        "signal_mv": _num(card.get("signal_mv"), int),
        "suite": _str(suite.get("profile")) or _str(cfg.get("suite")),
        "ended_by": run.ended_by, "errors": run.error_count,
        "elapsed_us": _num(done.get("elapsed_us"), int),
        "workload_count": len(run.result_workloads()),
        "summary": _dumps(run.one("summary")), "headline": _dumps(run.one("headline")),
    }
    row.update(_summary_figures(run.one("summary")) if run.one("summary")
               else _result_figures(run))
    row.update(_claims(run))
    row.update(queue_of(run))
    return row


def queue_of(run):
    """The command queue's verdict (the queue_check record, docs/records.md):
    queue_verdict "ok", "broken", "none" (the card has no queue) or "not
    measured" (writes off, CMD49 failed), None when the queue workload did
    not run; the depth the card lists; the failed check; the line; and the
    A2 verdict on the queued figures (class_queue): PASS, FAIL, not checked,
    None without an A2 claim."""
    qc = run.one("queue_check")
    if not qc:
        return {"queue_verdict": None, "queue_depth": None, "queue_broken": None,
                "queue_text": None, "a2_queued": None}
    text = _str(qc.get("text")) or ""
    if qc.get("queue") is not True:
        verdict = "none" if text.startswith("no command queue") else "not measured"
    else:
        verdict = "broken" if _str(qc.get("broken")) else "ok"
    cq = run.one("class_queue") or {}
    ok = cq.get("app_meets_claim")
    a2 = None
    if isinstance(cq.get("app_text"), str):
        a2 = "PASS" if ok is True else "FAIL" if ok is False else "not checked"
    return {"queue_verdict": verdict, "queue_depth": _num(qc.get("cq_depth"), int),
            "queue_broken": _str(qc.get("broken")), "queue_text": text or None,
            "a2_queued": a2}


def _claims(run):
    """The headline's verdict (tools/sdbhost/headline.py): its first line,
    whether the card's addresses wrap, the claims it fails (space-separated)."""
    from .. import headline as HL
    h = HL.as_dict(HL.headline(run))
    return {"verdict": h["verdict"], "counterfeit": 1 if h["counterfeit"] else 0,
            "failed_claims": " ".join(h["failed_claims"]) or None}


def _result_figures(run):
    """The summary's four figures from the result records, for a run
    without a summary record (sdblinux prints none): the best sequential
    read and write rate, as the firmware's summary takes them, and the
    random 4 KiB read and write IOPS."""
    rs = [run.workloads[n]["result"] for n in run.result_workloads()]

    def best(op):
        v = [_num(r.get("mbs")) for r in rs if r.get("kind") == "seq" and r.get("op") == op]
        v = [x for x in v if x is not None]
        return max(v) if v else None

    def iops(op):
        v = [_num(r.get("iops")) for r in rs if r.get("kind") == "random" and
             r.get("op") == op and r.get("xfer_bytes") == 4096]
        return v[0] if v and v[0] is not None else None
    return {"seq_read_mbs": best("read"), "seq_write_mbs": best("write"),
            "rand_read_iops": iops("read"), "rand_write_iops": iops("write")}


def workload_rows(run):
    out = []
    for i, name in enumerate(run.result_workloads()):
        w = run.workloads[name]
        r, lat = w["result"], w.get("latency") or {}
        ph, v = w.get("phases") or {}, w.get("verdict") or {}
        out.append({
            "seq": i, "name": name, "kind": _str(r.get("kind")), "op": _str(r.get("op")),
            "cmd": _str(r.get("cmd")), "xfer_bytes": _num(r.get("xfer_bytes"), int),
            "ops": _num(r.get("ops"), int), "bytes": _num(r.get("bytes"), int),
            "elapsed_ns": _num(r.get("elapsed_ns"), int), "mbs": _num(r.get("mbs")),
            "iops": _num(r.get("iops")), "errors": _num(r.get("errors"), int),
            "data_path": _str(r.get("data_path")),
            "lat_count": _num(lat.get("count"), int), "lat_mean_ns": _num(lat.get("mean_ns")),
            "lat_p50_ns": _num(lat.get("p50_ns")), "lat_p99_ns": _num(lat.get("p99_ns")),
            "lat_max_ns": _num(lat.get("max_ns")), "lat_stddev_ns": _num(lat.get("stddev_ns")),
            "card_pct": _num(ph.get("card_pct")), "bus_pct": _num(ph.get("bus_pct")),
            "host_pct": _num(ph.get("host_pct")),
            "bottleneck": _str(v.get("bottleneck")), "verdict_pct": _num(v.get("pct")),
            "verdict": _str(v.get("text")),
        })
    return out


def extract(run, known=None):
    """(card row, run row, workload rows, records JSON) of a run, or
    NotStorable saying why the run cannot be stored. known: the card
    (a row of the cards table) a run without a card record is of (the
    Linux companion reads no CID); a run whose card record names another
    card is refused."""
    if not run.ended_by:
        raise NotStorable("it was cut short (no done record): the capture stopped or the "
                          "board restarted before the end")
    card = suite_card(run)
    if card is None and known is None:
        raise NotStorable("it has no card record: the card's identity is unknown (no card, "
                          "or the log starts after the card was read%s)" % (
                              "; the Linux companion reads no CID: --card CARD names the "
                              "card in the database" if source_of(run) == "linux" else ""))
    if card is None:
        crow = {k: known.get(k) for k in CARD_FIELDS}
    else:
        crow = card_row(card)
        if known is not None and crow["card_key"] != known["card_key"]:
            raise NotStorable("its card record is of another card (serial %s, not %s)"
                              % (crow["psn_hex"], known["psn_hex"]))
    rrow = run_row(run, card or {})
    rrow["run_hash"] = run_hash(run)
    recs = json.dumps(run.records, sort_keys=True, separators=(",", ":"))
    return crow, rrow, workload_rows(run), recs
