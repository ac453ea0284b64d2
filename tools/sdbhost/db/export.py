"""sdbdb export: the whole database (or the board-measured part) as JSON
(cards > runs > workloads) or CSV (one row per workload of a run, with
its card and run columns)."""
import csv
import json

from . import queries as Q

CARD_FIELDS = [c for c in Q.CARD_COLS if c != "card_key"]
RUN_FIELDS = [c for c in Q.RUN_COLS if c not in ("card_id", "headline")]


def tree(db, include_emulated=True):
    cards = {}
    for r in Q.runs(db, include_emulated=include_emulated):
        c = cards.get(r["card_id"])
        if c is None:
            c = cards[r["card_id"]] = dict(Q.card(db, r["card_id"]), runs=[])
        run = {k: r[k] for k in RUN_FIELDS}
        run["headline"] = json.loads(r["headline"]) if r["headline"] else None
        run["workloads"] = Q.workloads(db, r["id"])
        c["runs"].append(run)
    return {"schema_version": Q.stats(db)["schema_version"],
            "cards": [cards[k] for k in sorted(cards)]}


def write_json(db, out, include_emulated=True):
    json.dump(tree(db, include_emulated), out, indent=1, sort_keys=True)
    out.write("\n")


def write_csv(db, out, include_emulated=True):
    cols = (["card_" + c for c in CARD_FIELDS] + ["run_" + c for c in RUN_FIELDS] +
            ["workload_" + c for c in Q.WORKLOAD_COLS])
    w = csv.writer(out, lineterminator="\n")
    w.writerow(cols)
    rows = 0
    for c in tree(db, include_emulated)["cards"]:
        cpart = [c[k] for k in CARD_FIELDS]
        for r in c["runs"]:
            rpart = [r[k] for k in RUN_FIELDS]
            for wl in r["workloads"]:
                w.writerow([_cell(v) for v in cpart + rpart +
                            [wl[k] for k in Q.WORKLOAD_COLS]])
                rows += 1
    return rows


def _cell(v):
    if v is None:
        return ""
    if isinstance(v, float):
        return repr(v)
    return str(v)
