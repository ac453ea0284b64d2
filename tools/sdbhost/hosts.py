"""The host comparison (`hosts` record, docs/records.md): its rows as the
reports show them - one line per host configuration (controller, data path,
bus mode) and workload. Pure Python; the text, HTML and CSV outputs use it."""
from . import fmt as F
from .records import is_num

WORKLOAD_ORDER = ["seq-read-64k", "seq-write-64k", "rand-read-4k", "rand-write-4k"]


def rows(rec):
    """The usable rows of a hosts record (objects only), in record order."""
    rs = rec.get("rows") if isinstance(rec, dict) else None
    return [r for r in rs if isinstance(r, dict)] if isinstance(rs, list) else []


def config_name(r):
    """host / path / mode, e.g. "emmc dma hs"."""
    return " ".join(F.text(r.get(k)) for k in ("host", "data_path", "bus_mode")
                    if r.get(k) is not None) or F.DASH


def configs(rec):
    """The configurations in record order (names)."""
    out = []
    for r in rows(rec):
        n = config_name(r)
        if n not in out:
            out.append(n)
    return out


def workloads(rec):
    """The workloads in the suite's order, then any others as they come."""
    seen = []
    for r in rows(rec):
        w = r.get("workload")
        w = w if isinstance(w, str) else F.text(w)
        if w not in seen:
            seen.append(w)
    return [w for w in WORKLOAD_ORDER if w in seen] + [w for w in seen if w not in WORKLOAD_ORDER]


def measured(r):
    return r.get("error") is None and is_num(r.get("mbs"))


def diagnosed(r):
    """Measured, and its split holds: the firmware did not mark the row
    `"valid": false` (then its host% and CPU ns/blk describe no host, and
    they are left out of the table's columns and the chart's means)."""
    return measured(r) and r.get("valid") is not False


def table(rec):
    """[(host, path, mode, workload, MB/s, IOPS, p99 us, host%, CPU ns/blk,
    note)] as strings, one per row: "fastest" marks the best configuration
    of a workload, "not measured: why" a configuration that could not run,
    "no diagnosis: why" a row whose split the firmware found invalid (its
    host% and CPU ns/blk are not shown)."""
    out = []
    for r in rows(rec):
        base = [F.text(r.get("host")), F.text(r.get("data_path")), F.text(r.get("bus_mode")),
                F.text(r.get("workload"))]
        if not measured(r):
            why = r.get("reason") if r.get("reason") is not None else r.get("error")
            out.append(base + [F.DASH] * 5 + ["not measured: %s" % F.text(why)])
            continue
        ok = diagnosed(r)
        note = ["fastest"] if r.get("best") is True else []
        if not ok:
            note.append("no diagnosis: %s" % F.text(r.get("why") or "the split does not hold"))
        out.append(base + [F.num(r.get("mbs")), F.num(r.get("iops"), "%.1f"),
                           F.us_from_ns(r.get("p99_ns")),
                           F.pct(r.get("host_pct")) if ok else F.DASH,
                           F.num(r.get("cpu_ns_per_block"), "%.0f") if ok else F.DASH,
                           "; ".join(note)])
    return out


HEAD = ["host", "path", "mode", "workload", "MB/s", "IOPS", "p99 us", "host%", "CPU ns/blk", ""]


def config_means(rs, cfgs):
    """([host%], [CPU ns/blk]) per configuration of cfgs: the mean over its
    workloads whose split holds (diagnosed); None where none does - a "no
    diagnosis" row's host share and CPU time describe no host."""
    share, cpu = [], []
    for c in cfgs:
        mine = [r for r in rs if config_name(r) == c and diagnosed(r)]
        hp = [r.get("host_pct") for r in mine if is_num(r.get("host_pct"))]
        cp = [r.get("cpu_ns_per_block") for r in mine if is_num(r.get("cpu_ns_per_block"))]
        share.append(sum(hp) / len(hp) if hp else None)
        cpu.append(sum(cp) / len(cp) if cp else None)
    return share, cpu
