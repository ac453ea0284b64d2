"""CSV export: one file per record type (docs/host-tools.md, "CSV files").

Columns: log (file name), run (1-based run in that file), line (of the
record), then the record's fields in the order the firmware prints them.
Nested objects are flattened with dots (timer.freq_hz, cid.pnm). Records
made of parallel lists (histogram, series, au, open_au, sustained's rate
list) become one row per point, with an index column "i" and the list
fields holding that point's value (series adds t_s, the end of the
interval in seconds; sustained adds written_bytes). The host comparison
(hosts) is one row per configuration and workload, and modes one row per
bus mode: index "i", then the row object's fields. Any other list is one
cell, its items separated by spaces; a list of objects is one cell of
JSON. Booleans are true/false, a missing or null value is an empty cell.

headline.csv is the host's headline (tools/sdbhost/headline.py), one row
per figure with the documented columns; the firmware's own `headline`
records go to headline_record.csv (their columns are the record's).
"""
import csv
import json
import os
import zlib

from .records import PARALLEL

# Point-per-row lists beyond PARALLEL.
EXPLODE = dict(PARALLEL)
EXPLODE["sustained"] = ("rate_mbs",)
# Lists of objects that become one row per object (the object's fields as
# columns): the host comparison, one row per configuration and workload;
# the bus modes, one row per mode.
ROWS = {"hosts": "rows", "modes": "modes"}

SKIP = ("type",)
# Record types written under another file name: headline.csv is the host's
# headline (HEADLINE_COLS), so the firmware's record has a file of its own.
FILE_OF = {"headline": "headline_record"}
HEADLINE_COLS = ["log", "run", "card", "what", "workload", "value", "unit", "ops", "p99_ns",
                 "single_sample", "few_samples", "limit", "help", "verdict", "counterfeit",
                 "failed_claims", "simulated", "emulated"]


def _cell(v):
    if v is None:
        return ""
    if isinstance(v, bool):
        return "true" if v else "false"
    if isinstance(v, float):
        return repr(v)
    if isinstance(v, list):
        if any(isinstance(x, (dict, list)) for x in v):
            return json.dumps(v, separators=(",", ":"))
        return " ".join(_cell(x) for x in v)
    if isinstance(v, dict):
        return json.dumps(v, separators=(",", ":"))
    return str(v)


def _flatten(rec, prefix="", out=None):
    out = {} if out is None else out
    for k, v in rec.items():
        if not prefix and k in SKIP:
            continue
        key = prefix + k
        if isinstance(v, dict):
            _flatten(v, key + ".", out)
        else:
            out[key] = v
    return out


def rows_of(rtype, rec):
    """The rows (ordered dicts) one record gives."""
    key = ROWS.get(rtype)
    if key and isinstance(rec.get(key), list) and rec[key]:
        rest = _flatten({k: v for k, v in rec.items() if k != key})
        rows = []
        for i, item in enumerate(rec[key]):
            row = dict(rest)
            row["i"] = i
            row.update(_flatten(item) if isinstance(item, dict) else {key: item})
            rows.append(row)
        return rows
    flat = _flatten(rec)
    lists = [k for k in EXPLODE.get(rtype, ()) if isinstance(flat.get(k), list)]
    if not lists:
        return [flat]
    n = min(len(flat[k]) for k in lists)
    rows = []
    for i in range(n):
        row = {}
        for k, v in flat.items():
            if k == lists[0]:
                row["i"] = i
                if rtype == "series":
                    step = flat.get("interval_ns")
                    row["t_s"] = (i + 1) * step / 1e9 if isinstance(step, (int, float)) else None
                if rtype == "sustained":
                    step = flat.get("rate_step_bytes")
                    row["written_bytes"] = (i + 1) * step if isinstance(step, (int, float)) \
                        else None
            row[k] = v[i] if k in lists else v
        rows.append(row)
    return rows


def write_csv(dirpath, items):
    """items: [(log_name, run)]. Writes DIR/<type>.csv for every record type
    present; returns {type: (path, columns, rows)}."""
    os.makedirs(dirpath, exist_ok=True)
    table = {}
    for log_name, run in items:
        for rec, line in zip(run.records, run.lines):
            t = rec["type"]
            cols, rows = table.setdefault(FILE_OF.get(t, t), ([], []))
            for row in rows_of(t, rec):
                full = {"log": log_name, "run": run.index, "line": line}
                full.update(row)
                for k in full:
                    if k not in cols:
                        cols.append(k)
                rows.append(full)
    # The headline of each run: one row per figure (docs/host-tools.md).
    from .headline import as_dict, headline
    hrows = []
    for log_name, run in items:
        h = as_dict(headline(run))
        for f in h["figures"] or [{}]:
            row = {"log": log_name, "run": run.index, "card": h["card"],
                   "help": "; ".join(h["help"]), "verdict": h["verdict"],
                   "counterfeit": h["counterfeit"], "failed_claims": h["failed_claims"],
                   "simulated": run.simulated, "emulated": run.emulated}
            row.update(f)
            hrows.append(row)
    table["headline"] = (list(HEADLINE_COLS), hrows)
    out = {}
    for t, (cols, rows) in table.items():
        safe = "".join(ch if ch.isalnum() or ch in "-_" else "_" for ch in t)
        if len(safe) > 64:
            # a garbled type from a damaged log: keep the file name legal
            # (and distinct) on every file system
            safe = "%s_%08x" % (safe[:48], zlib.crc32(t.encode("utf-8", "replace")))
        path = os.path.join(dirpath, safe + ".csv")
        with open(path, "w", newline="", encoding="utf-8") as f:
            w = csv.writer(f)
            w.writerow(cols)
            for row in rows:
                w.writerow([_cell(row.get(c)) for c in cols])
        out[t] = (path, cols, len(rows))
    return out
