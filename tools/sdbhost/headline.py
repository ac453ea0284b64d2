"""The headline of a run: what the card is, what it measured, what limits
each figure and what would help - a few lines a person can act on, first in
every report. Derived from the records only (card, result, latency,
verdict, sustained, host, data_path, hosts); a `headline` record the
firmware printed is shown as it is next to it.

Figures carry their sample counts and spread: a rate is the median
operation's (transfer size over the median latency, p50), with the range
from the p90 to the fastest operation; "best" sequential rates are the
highest such median among workloads with at least MIN_SAMPLES operations
(a single-operation figure is used only when nothing else was measured,
and marked). A verdict the firmware marks `"valid": false` gives "no
diagnosis" with its reason."""
from . import fmt as F
from .records import is_num

MIN_SAMPLES = 3
LIMIT_WORDS = {"card-bound": "the card", "bus-bound": "the bus", "host-bound": "the host",
               "mixed": "no single part (the time is shared)"}


class Figure:
    """One measured figure of the headline."""

    def __init__(self, what, workload, value, unit, ops, lo, hi, verdict):
        self.what, self.workload, self.value, self.unit = what, workload, value, unit
        self.ops, self.lo, self.hi, self.verdict = ops, lo, hi, verdict or {}

    @property
    def single(self):
        return not is_num(self.ops) or self.ops < 2

    @property
    def few(self):
        return not is_num(self.ops) or self.ops < MIN_SAMPLES

    def limit(self):
        v = self.verdict
        if v.get("valid") is False:
            return "no diagnosis (%s)" % F.text(v.get("reason") or "the model does not hold")
        b = v.get("bottleneck")
        return "limited by %s" % LIMIT_WORDS[b] if b in LIMIT_WORDS else "no diagnosis"

    def text(self):
        spec = "%.0f" if self.unit == "IOPS" else "%.2f"
        s = "%s %s %s" % (self.what, F.num(self.value, spec), self.unit)
        if self.single:
            s += " (1 operation only: not a measurement of spread)"
        else:
            s += " (median of %s operations, %s-%s%s)" % (
                F.intg(self.ops), F.num(self.lo, spec), F.num(self.hi, spec),
                "; few samples" if self.few else "")
        return s + ", " + self.limit()


def _rate(res, lat, ns, iops=False):
    """MB/s or IOPS of one operation of latency ns (None if unknown)."""
    if not is_num(ns) or ns <= 0:
        return None
    if iops:
        return 1e9 / ns
    xb = res.get("xfer_bytes")
    return xb / (ns / 1e9) / 1e6 if is_num(xb) and xb > 0 else None


def figure_of(run, name, what, iops=False):
    w = run.workloads.get(name) or {}
    res, lat = w.get("result") or {}, w.get("latency") or {}
    if not res:
        return None
    ops = res.get("ops") if is_num(res.get("ops")) else lat.get("count")
    med = _rate(res, lat, lat.get("p50_ns"), iops)
    if med is None:   # no latency record: the workload's own average
        med = res.get("iops") if iops else res.get("mbs")
    lo = _rate(res, lat, lat.get("p90_ns"), iops)
    hi = _rate(res, lat, lat.get("min_ns"), iops)
    if not is_num(med):
        return None
    return Figure(what, name, med, "IOPS" if iops else "MB/s", ops, lo, hi, w.get("verdict"))


def best_seq(run, op):
    """The sequential workload of op with the highest median rate among
    those with enough operations (else among all, then marked)."""
    figs = []
    for name in run.result_workloads():
        r = run.workloads[name]["result"]
        if r.get("kind") == "seq" and r.get("op") == op and name.startswith("seq-"):
            f = figure_of(run, name, "sequential %s" % op)
            if f:
                figs.append(f)
    enough = [f for f in figs if not f.few]
    pool = enough or figs
    if not pool:
        return None
    best = max(pool, key=lambda f: f.value)
    best.what += " (best at %s transfers)" % F.size(
        (run.workloads[best.workload]["result"]).get("xfer_bytes"))
    return best


def card_line(run):
    c = run.one("card") or {}
    if not c:
        return "card: no card record"
    cid, csd, ssr = c.get("cid") or {}, c.get("csd") or {}, c.get("ssr") or {}
    maker = cid.get("manufacturer") if isinstance(cid, dict) else None
    name = " ".join(F.text(x) for x in (maker, cid.get("pnm") if isinstance(cid, dict) else None)
                    if x not in (None, "unknown"))
    cap = c.get("capacity_bytes")
    s = "%s %s (%s)" % (name or "an unidentified card", F.size(cap) if is_num(cap) else "",
                        F.text(csd.get("card_type") if isinstance(csd, dict) else None))
    claims = []
    if isinstance(ssr, dict) and ssr:
        if is_num(ssr.get("speed_class")) and ssr["speed_class"]:
            claims.append("class %s" % F.intg(ssr["speed_class"]))
        if is_num(ssr.get("uhs_grade")) and ssr["uhs_grade"]:
            claims.append("U%s" % F.intg(ssr["uhs_grade"]))
        if is_num(ssr.get("video_class")) and ssr["video_class"]:
            claims.append("V%s" % F.intg(ssr["video_class"]))
        if ssr.get("app_perf_class") not in (None, "none"):
            claims.append(F.text(ssr.get("app_perf_class")))
    s += ", claims %s" % (" ".join(claims) if claims else "no speed class")
    s += "; runs %s-bit %s at %s" % (F.intg(c.get("width")), F.text(c.get("timing")),
                                     F.hz(c.get("clock_hz")))
    return "card: " + " ".join(s.split())


def helps(run, figs):
    """What would help, from the limits found and what card and host offer."""
    c = run.one("card") or {}
    host = run.one("host") or {}
    dp = run.one("data_path") or {}
    limits = {f.verdict.get("bottleneck") for f in figs
              if f.verdict.get("valid") is not False}
    out = []
    if "bus-bound" in limits:
        card_modes = c.get("uhs_card_modes") if isinstance(c.get("uhs_card_modes"), list) else []
        host_modes = c.get("uhs_host_modes") if isinstance(c.get("uhs_host_modes"), list) else []
        both = [m for m in card_modes if m in host_modes]
        if card_modes and not both:
            out.append("a faster bus mode: the card offers UHS-I (%s) but this host runs "
                       "none; a board with a 1.8 V SD interface (Pi 4, Pi 5)" % F.text(card_modes))
        elif both:
            out.append("a faster bus mode (bus_mode = %s in sdbench.txt)" % both[-1])
        else:
            out.append("a faster bus: the card runs at its highest clock for this host")
    if "host-bound" in limits:
        paths = host.get("data_paths") if isinstance(host.get("data_paths"), list) else []
        path = dp.get("path") or host.get("data_path")
        if path == "pio" and "dma" in paths:
            out.append("DMA: data_path = dma in sdbench.txt (the CPU moves every word now)")
        else:
            out.append("a faster host: the CPU's time per request sets the pace")
    if "card-bound" in limits:
        out.append("another card: this one's own access and programming times set the pace "
                   "(a higher application or speed class)")
    return out


def headline(run):
    """{"card": line, "figures": [Figure], "help": [lines], "firmware": record
    or None, "lines": [every line]}."""
    figs = [f for f in (best_seq(run, "read"), best_seq(run, "write"),
                        figure_of(run, "rand-read-4k", "random 4 KiB read", iops=True),
                        figure_of(run, "rand-write-4k", "random 4 KiB write", iops=True),
                        figure_of(run, "sustained-write", "sustained write")) if f]
    lines = [card_line(run)]
    if figs:
        lines += ["measured: " + f.text() for f in figs]
    else:
        lines.append("measured: nothing (no sequential, random or sustained workload)")
    h = helps(run, figs)
    lines += ["would help: " + x for x in h] if h else \
        ["would help: no suggestion (nothing limits these figures clearly)"] if figs else []
    if run.emulated:
        lines.append("EMULATED: every figure is QEMU's speed, not the card's")
    fw = run.one("headline")
    if fw and isinstance(fw.get("text"), str):
        lines.append("the firmware's headline: " + fw["text"])
    return {"card": lines[0], "figures": figs, "help": h, "firmware": fw, "lines": lines}


def as_dict(h):
    """The headline as JSON (sdbreport --json, the CSV file)."""
    return {"card": h["card"], "help": h["help"], "lines": h["lines"],
            "figures": [{"what": f.what, "workload": f.workload, "value": f.value,
                         "unit": f.unit, "ops": f.ops, "low": f.lo, "high": f.hi,
                         "single_sample": f.single, "few_samples": f.few,
                         "limit": f.limit()} for f in h["figures"]]}
