"""The questions every output asks (list, show, compare, export, html):
one place, plain dicts out, the same SQL on SQLite and PostgreSQL."""
from . import rank as R
from .backend import DbError

EMULATED_SOURCES = ("qemu", "simulator")
HEADLINE = ("seq_read_mbs", "seq_write_mbs", "rand_read_iops", "rand_write_iops")
CARD_COLS = ("id", "card_key", "cid_raw", "mid", "manufacturer", "oid", "pnm", "prv", "psn",
             "psn_hex", "mdt", "capacity_bytes", "card_type", "sd_spec", "speed_class",
             "uhs_grade", "video_class", "app_class", "au_bytes", "uhs_au_bytes", "first_added")
RUN_COLS = ("id", "card_id", "source", "measured", "board_model", "board_revision", "soc",
            "family", "sim_profile", "sim_host", "host", "data_path", "bus_mode", "clock_hz",
            "width", "signal_mv", "suite", "ended_by", "errors", "elapsed_us",
            "workload_count") + HEADLINE + ("headline", "verdict", "counterfeit",
                                            "failed_claims", "log_name", "run_in_log", "log_mtime",
                                            "added_at", "run_hash", "queue_verdict",
                                            "queue_depth", "queue_broken", "queue_text",
                                            "a2_queued")
WORKLOAD_COLS = ("name", "kind", "op", "cmd", "xfer_bytes", "ops", "bytes", "elapsed_ns",
                 "mbs", "iops", "errors", "data_path", "lat_count", "lat_mean_ns",
                 "lat_p50_ns", "lat_p99_ns", "lat_max_ns", "lat_stddev_ns", "card_pct",
                 "bus_pct", "host_pct", "bottleneck", "verdict_pct", "verdict")


def _cols(alias, cols):
    return ", ".join("%s.%s" % (alias, c) for c in cols)


def method(source):
    """Runs measure the same thing when they share a method: sdbench's
    protocol-level figures, or Linux's through the OS."""
    return "linux" if source == "linux" else "sdbench"


def group_key(run, include_emulated):
    """Runs are comparable when they share this: board family, bus mode,
    method, and (unless emulated runs are asked for) the source."""
    k = (run["family"], run["bus_mode"], method(run["source"]))
    return k if include_emulated else k + (run["source"],)


def card_name(c):
    return "%s %s %s" % (c.get("manufacturer") or "?", c.get("oid") or "?",
                         c.get("pnm") or "?")


def cards(db, include_emulated=True):
    """[card + source + runs + median headline figures], one per card and
    source, best sequential read first."""
    where = "" if include_emulated else " WHERE r.measured = 1"
    rows = db.rows("SELECT %s, r.source, r.id AS run_id, r.counterfeit, r.failed_claims, %s "
                   "FROM cards c JOIN runs r ON r.card_id = c.id%s ORDER BY c.id, r.id"
                   % (_cols("c", CARD_COLS), _cols("r", HEADLINE), where))
    out = {}
    for r in rows:
        k = (r["id"], r["source"])
        e = out.setdefault(k, dict({c: r[c] for c in CARD_COLS}, source=r["source"],
                                   runs=0, counterfeit=False, failed_claims=[],
                                   _h={h: [] for h in HEADLINE}))
        e["runs"] += 1
        # flags: any run found the wrap, every claim any run failed
        e["counterfeit"] = e["counterfeit"] or bool(r["counterfeit"])
        for c in (r["failed_claims"] or "").split():
            if c not in e["failed_claims"]:
                e["failed_claims"].append(c)
        for h in HEADLINE:
            e["_h"][h].append(r[h])
    res = []
    for e in out.values():
        for h, v in e.pop("_h").items():
            e[h] = R.median(v)
        res.append(e)
    res.sort(key=lambda e: (-(e["seq_read_mbs"] or -1), e["id"], e["source"]))
    return res


def find_card(db, spec):
    """The card CARD names: its number (#12, or 12 when no card has the
    serial 12), its serial (0x1c0c0c0c or decimal), its CID as hex, or a
    product name when only one card has it. DbError lists the candidates
    when several match."""
    s = spec.strip()
    if s.startswith("#") and s[1:].isdigit():  # #12: the card's number only
        ids = [r["id"] for r in db.rows("SELECT id FROM cards WHERE id = ?", (int(s[1:]),))]
        if not ids:
            raise DbError("no card %s in the database (sdbdb list shows the cards)" % s)
        return card(db, ids[0])
    found = []
    if s.isdigit():
        found = db.rows("SELECT id FROM cards WHERE id = ? OR psn = ?", (int(s), int(s)))
    if not found and s.lower().startswith("0x"):
        found = db.rows("SELECT id FROM cards WHERE lower(psn_hex) = ?", (s.lower(),))
    if not found:
        found = db.rows("SELECT id FROM cards WHERE lower(cid_raw) = ? OR card_key = ?",
                        (s.lower(), s))
    if not found:
        found = db.rows("SELECT id FROM cards WHERE lower(pnm) = ? ORDER BY id", (s.lower(),))
    ids = sorted({r["id"] for r in found})
    if not ids:
        raise DbError("no card %r in the database (sdbdb list shows the cards)" % spec)
    if len(ids) > 1:
        cs = [card(db, i) for i in ids]
        raise DbError("%r names %d cards: %s; give the card's number as #N" % (
            spec, len(ids), "; ".join("#%d %s serial %s" % (c["id"], card_name(c),
                                                            c["psn_hex"]) for c in cs)))
    return card(db, ids[0])


def card(db, card_id):
    return db.row("SELECT %s FROM cards c WHERE c.id = ?" % _cols("c", CARD_COLS), (card_id,))


def runs(db, card_id=None, include_emulated=True):
    conds, params = [], []
    if card_id is not None:
        conds.append("r.card_id = ?")
        params.append(card_id)
    if not include_emulated:
        conds.append("r.measured = 1")
    where = (" WHERE " + " AND ".join(conds)) if conds else ""
    return db.rows("SELECT %s FROM runs r%s ORDER BY r.id" % (_cols("r", RUN_COLS), where),
                   params)


def workloads(db, run_id):
    return db.rows("SELECT %s FROM workloads w WHERE w.run_id = ? ORDER BY w.seq"
                   % _cols("w", WORKLOAD_COLS), (run_id,))


def run_records(db, run_id):
    import json
    r = db.row("SELECT records FROM run_records WHERE run_id = ?", (run_id,))
    return json.loads(r["records"]) if r else None


def _group_where(key):
    """SQL conditions (on runs r) and parameters of a group of comparable runs."""
    family, bus_mode, meth = key[:3]
    conds, params = [], []
    for col, v in (("r.family", family), ("r.bus_mode", bus_mode)):
        if v is None:
            conds.append("%s IS NULL" % col)
        else:
            conds.append("%s = ?" % col)
            params.append(v)
    conds.append("r.source %s 'linux'" % ("=" if meth == "linux" else "<>"))
    if len(key) > 3:            # without --include-emulated: one source only
        conds.append("r.source = ?")
        params.append(key[3])
    return conds, params


def _group_values(db, key, workload):
    """[{card_id, run_id, value}] of a workload's MB/s in one group."""
    conds, params = _group_where(key)
    return db.rows("SELECT r.card_id, r.id AS run_id, w.mbs AS value, w.lat_mean_ns, "
                   "w.lat_stddev_ns FROM runs r JOIN "
                   "workloads w ON w.run_id = r.id WHERE w.name = ? AND w.mbs IS NOT NULL "
                   "AND " + " AND ".join(conds), [workload] + params)


def compare(db, c, include_emulated=False):
    """The card against the others, per group of comparable runs: [{group,
    runs, workloads: [{name, value, rank, n, percentile, quarter}],
    batches, batch_names}]; runs that are emulated or simulated are ranked
    only among their own source unless include_emulated."""
    mine = runs(db, c["id"])
    groups = {}
    for r in mine:
        groups.setdefault(group_key(r, include_emulated), []).append(r)
    out = []
    for key, rs in groups.items():
        names = []
        for r in rs:
            for w in workloads(db, r["id"]):
                if w["mbs"] is not None and w["name"] not in names:
                    names.append(w["name"])
        rows = []
        for name in names:
            group = _group_values(db, key, name)
            vals = R.per_card(group)
            rk, n, pct = R.rank(vals, c["id"])
            # the word only beyond the spread (rank.quarter)
            rows.append({"name": name, "value": vals.get(c["id"]), "rank": rk, "n": n,
                         "percentile": pct,
                         "quarter": R.quarter(vals, R.bands(group), c["id"]),
                         "best": max(vals.values()) if vals else None,
                         "median": R.median(list(vals.values()))})
        batches, bnames = model_batches(db, c, key)
        out.append({"family": key[0], "bus_mode": key[1], "method": key[2],
                    "source": key[3] if len(key) > 3 else "any",
                    "measured": all(r["measured"] for r in rs),
                    "runs": [r["id"] for r in rs], "workloads": rows,
                    "batches": batches, "batch_names": bnames})
    return out


def model_batches(db, c, key):
    """The same model (manufacturer, OEM, product name) across batches, in
    one group of comparable runs: [{prv, mdt, cards, runs, first, last,
    this, workloads: {name: median over the batch's cards of each card's
    median MB/s}}], oldest batch first, and the workload names in order."""
    conds, params = _group_where(key)
    rows = db.rows(
        "SELECT c.id AS card_id, c.prv, c.mdt, r.id AS run_id, r.added_at, r.log_mtime, "
        "w.name, w.mbs FROM cards c JOIN runs r ON r.card_id = c.id JOIN workloads w ON "
        "w.run_id = r.id WHERE c.mid = ? AND c.oid = ? AND c.pnm = ? AND w.mbs IS NOT NULL "
        "AND " + " AND ".join(conds) + " ORDER BY c.mdt, c.prv, r.id",
        [c["mid"], c["oid"], c["pnm"]] + params)
    batches, names = {}, []
    for r in rows:
        b = batches.setdefault((r["mdt"], r["prv"]), {
            "mdt": r["mdt"], "prv": r["prv"], "cards": set(), "runs": set(), "dates": [],
            "this": False, "_w": {}})
        b["cards"].add(r["card_id"])
        b["runs"].add(r["run_id"])
        b["dates"].append((r["log_mtime"] or r["added_at"])[:10])
        b["this"] = b["this"] or r["card_id"] == c["id"]
        b["_w"].setdefault(r["name"], {}).setdefault(r["card_id"], []).append(r["mbs"])
        if r["name"] not in names:
            names.append(r["name"])
    out = []
    for b in batches.values():
        per = b.pop("_w")
        b["workloads"] = {n: R.median([R.median(v) for v in per[n].values()]) for n in per}
        b["first"], b["last"] = min(b["dates"]), max(b["dates"])
        del b["dates"]
        b["cards"], b["runs"] = len(b["cards"]), len(b["runs"])
        out.append(b)
    return out, names


def stats(db):
    r = db.row("SELECT (SELECT count(*) FROM cards) AS cards, (SELECT count(*) FROM runs) "
               "AS runs, (SELECT count(*) FROM workloads) AS workloads, (SELECT max(version) "
               "FROM schema_version) AS schema_version")
    return r


def oemid(c):
    """The CID's OEM/application ID as the 16-bit number Linux shows
    (sysfs oemid): from the raw CID (bits 119:104), else the two ASCII
    characters of oid; None when neither is there."""
    raw = c.get("cid_raw")
    if isinstance(raw, str) and len(raw) >= 6:
        try:
            return int(raw[2:6], 16)
        except ValueError:
            pass
    oid = c.get("oid")
    if isinstance(oid, str) and len(oid) == 2:
        return ord(oid[0]) << 8 | ord(oid[1])
    return None


def queue_passed(db, include_emulated=False):
    """The cards whose command queue passed every check: at least one run
    with queue_verdict "ok" and none "broken" (a card that failed once is
    never listed). One dict per card: its CID fields, oemid (number),
    hwrev/fwrev (prv's two digits), depth (the queue depth its runs list),
    runs_ok, and a2 (the A2 verdicts on the queued figures, e.g. "PASS").
    Board runs only unless include_emulated."""
    where = "" if include_emulated else " AND r.measured = 1"
    rows = db.rows("SELECT %s, r.queue_verdict, r.queue_depth, r.a2_queued FROM cards c "
                   "JOIN runs r ON r.card_id = c.id WHERE r.queue_verdict IS NOT NULL%s "
                   "ORDER BY c.id, r.id" % (_cols("c", CARD_COLS), where))
    out = {}
    for r in rows:
        e = out.setdefault(r["id"], dict({c: r[c] for c in CARD_COLS}, runs_ok=0,
                                         broken=False, depth=None, a2=[]))
        e["broken"] = e["broken"] or r["queue_verdict"] == "broken"
        if r["queue_verdict"] == "ok":
            e["runs_ok"] += 1
            e["depth"] = r["queue_depth"]
            if r["a2_queued"] and r["a2_queued"] not in e["a2"]:
                e["a2"].append(r["a2_queued"])
    keep = [e for e in out.values() if e["runs_ok"] and not e["broken"]]
    for e in keep:
        del e["broken"]
        e["oemid"] = oemid(e)
        prv = (e.get("prv") or "").split(".")
        e["hwrev"], e["fwrev"] = (int(prv[0]), int(prv[1])) if len(prv) == 2 and \
            all(x.isdigit() for x in prv) else (None, None)
    return keep
