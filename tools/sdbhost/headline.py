"""The headline of a run: first the verdict on what the card claims (a
counterfeit card's address wrap, then PASS / FAIL per class claim), then
what it measured, what limits each figure and what would help - a few
lines a person can act on, first in every report. Derived from the
records only (card, class, test_area, result, latency, verdict, host,
data_path); a `headline` record the firmware printed is shown next to it.

A figure is the workload's measured rate - its bytes, or its operations,
over its time: the `result` record's `mbs` / `iops`, the figure its table
row and the summary show - with its p99 latency and its operation count.
The "best" sequential rate is the highest such rate, as in the summary
(a figure from fewer than MIN_SAMPLES operations is marked). A verdict the
firmware marks `"valid": false` gives "no diagnosis" with its reason.
A simulated (build/host/sdbsim) or emulated (QEMU) run says so in the
headline's second line."""
import re

from . import fmt as F
from .records import is_num

MIN_SAMPLES = 3
LIMIT_WORDS = {"card-bound": "the card", "bus-bound": "the bus", "host-bound": "the host",
               "mixed": "no single part (the time is shared)"}


class Figure:
    """One measured figure of the headline: value is the workload's measured
    rate (result mbs / iops), p99 its p99 latency in ns."""

    def __init__(self, what, workload, value, unit, ops, p99, verdict, lo=None, hi=None):
        self.what, self.workload, self.value, self.unit = what, workload, value, unit
        self.ops, self.p99, self.verdict = ops, p99, verdict or {}
        self.lo, self.hi = lo, hi       # p90 and fastest operation (median figures only)

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

    def p99_text(self):
        if not is_num(self.p99):
            return "p99 -"
        if self.p99 >= 10e6:
            return "p99 %.1f ms" % (self.p99 / 1e6)
        return "p99 %.0f us" % (self.p99 / 1e3)

    def text(self):
        spec = "%.0f" if self.unit == "IOPS" else "%.2f"
        s = "%s %s %s (%s, " % (self.what, F.num(self.value, spec), self.unit, self.p99_text())
        if self.single:
            s += "1 operation only)"
        else:
            s += "%s operations%s)" % (F.intg(self.ops), "; few samples" if self.few else "")
        return s + ", " + self.limit()


def _rate(res, ns, iops=False):
    """MB/s or IOPS of one operation of latency ns (None if unknown)."""
    if not is_num(ns) or ns <= 0:
        return None
    if iops:
        return 1e9 / ns
    xb = res.get("xfer_bytes")
    return xb / (ns / 1e9) / 1e6 if is_num(xb) and xb > 0 else None


def figure_of(run, name, what, iops=False, median=False):
    """The workload's measured figure (result mbs / iops); with median, the
    median operation's rate instead, with lo / hi the p90 and fastest
    operations' (sdbreport compare: operations against operations)."""
    w = run.workloads.get(name) or {}
    res, lat = w.get("result") or {}, w.get("latency") or {}
    if not res:
        return None
    ops = res.get("ops") if is_num(res.get("ops")) else lat.get("count")
    value = res.get("iops") if iops else res.get("mbs")
    lo = hi = None
    if median:
        value = _rate(res, lat.get("p50_ns"), iops) if is_num(lat.get("p50_ns")) else value
        lo, hi = _rate(res, lat.get("p90_ns"), iops), _rate(res, lat.get("min_ns"), iops)
    if not is_num(value):
        return None
    return Figure(what, name, value, "IOPS" if iops else "MB/s", ops, lat.get("p99_ns"),
                  w.get("verdict"), lo, hi)


def best_seq(run, op):
    """The sequential workload of op with the highest measured rate: the
    summary's best (a figure from few operations is marked, not skipped)."""
    figs = []
    for name in run.result_workloads():
        r = run.workloads[name]["result"]
        if r.get("kind") == "seq" and r.get("op") == op and name.startswith("seq-"):
            f = figure_of(run, name, "sequential %s" % op)
            if f:
                figs.append(f)
    if not figs:
        return None
    best = max(figs, key=lambda f: f.value)
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


WRAP_RE = re.compile(r"seem to wrap at (\d+) MiB")


class Claim:
    """One claim of the card and its result: PASS, FAIL or not checked."""

    def __init__(self, name, result, detail):
        self.name, self.result, self.detail = name, result, detail

    def text(self):
        return "%s %s (%s)" % (self.name, self.result, self.detail)


def wrap_bytes(run):
    """Where the card's addresses wrap (a counterfeit card), else None: the
    test_area record's wrap_bytes, or its reason in logs before it."""
    ta = run.one("test_area") or {}
    if is_num(ta.get("wrap_bytes")) and ta["wrap_bytes"] > 0:
        return ta["wrap_bytes"]
    m = WRAP_RE.search(ta.get("reason") or "") if isinstance(ta.get("reason"), str) else None
    return int(m.group(1)) << 20 if m else None


def _speed(name, need, met, cls):
    pw, ceil = cls.get("pw_mbs"), cls.get("bus_ceiling_mbs")
    if not cls:
        return Claim(name, "not checked", "the class check did not run")
    if not is_num(pw):
        return Claim(name, "not checked", "Pw not measured")
    if is_num(met) and met >= need or pw >= need:
        return Claim(name, "PASS", "Pw %.2f MB/s, needs %d" % (pw, need))
    if is_num(ceil) and 0 < ceil < need:
        return Claim(name, "not checked", "needs %d MB/s, this bus carries %.1f" % (need, ceil))
    return Claim(name, "FAIL", "Pw %.2f MB/s, needs %d" % (pw, need))


def _claimed(run, cls):
    """(speed class, UHS grade, video class, app class "A1"/"A2"/None)."""
    if cls:
        app = cls.get("app_claim")
        return (cls.get("speed_class_claim"), cls.get("uhs_grade_claim"),
                cls.get("video_class_claim"), app if app in ("A1", "A2") else None)
    ssr = (run.one("card") or {}).get("ssr")
    ssr = ssr if isinstance(ssr, dict) else {}
    app = ssr.get("app_perf_class")
    return (ssr.get("speed_class"), ssr.get("uhs_grade"), ssr.get("video_class"),
            app if app in ("A1", "A2") else None)


def claims(run):
    """[Claim]: speed class, UHS grade, video class (the class check's Pw
    against SD Physical Layer 4.13's thresholds: Cn and Vn n MB/s, U1 10,
    U3 30), application class (the class record's app_meets_claim; for A2
    the class_queue record's, when the queue workload ran), and
    the capacity (the test area's wrap check)."""
    cls = run.one("class") or {}
    sc, uhs, vc, app = _claimed(run, cls)
    out = []
    if is_num(sc) and sc > 0:
        out.append(_speed("C%d" % sc, sc, cls.get("speed_class_met"), cls))
    if uhs in (1, 3):
        out.append(_speed("U%d" % uhs, 30 if uhs == 3 else 10, cls.get("uhs_grade_met"), cls))
    if is_num(vc) and vc > 0:
        out.append(_speed("V%d" % vc, vc, cls.get("video_class_met"), cls))
    cq = run.one("class_queue") or {}
    if app == "A2" and cq and isinstance(cq.get("detail"), str):
        # A2 on the command queue's figures (the class_queue record: the
        # depth the card offers, cache on; SD Physical Layer 6.00 4.16)
        ok = cq.get("app_meets_claim")
        out.append(Claim(app, "PASS" if ok is True else "FAIL" if ok is False else
                         "not checked", cq["detail"]))
    elif app:
        ok = cls.get("app_meets_claim")
        out.append(Claim(app, "PASS" if ok is True else "FAIL" if ok is False else
                         "not checked", "the class check's verdict" if isinstance(ok, bool)
                         else "the class check did not run" if not cls else
                         "not verifiable here"))
    wb = wrap_bytes(run)
    ta = run.one("test_area") or {}
    if wb:
        out.append(Claim("capacity", "FAIL", "addresses wrap at %s" % F.size(wb)))
    elif ta.get("source") in ("config", "unpartitioned"):
        # the firmware reads the card through before it uses these areas
        # (bench/storage/test_area.c, wrap_check)
        out.append(Claim("capacity", "PASS", "no address wrap"))
    return out


def verdict_line(run, cl):
    """The first line: COUNTERFEIT first, then each claim's result."""
    s = ""
    wb = wrap_bytes(run)
    if wb:
        cap = (run.one("card") or {}).get("capacity_bytes")
        s = "COUNTERFEIT: addresses wrap at %s (the card reports %s); " % (
            F.size(wb), F.size(cap) if is_num(cap) else "more")
    return s + "claims: " + (", ".join(c.text() for c in cl) if cl else "none to check")


def run_mark(run):
    """SIMULATED / EMULATED line, or None for a run on a card."""
    if run.simulated:
        return "SIMULATED: build/host/sdbsim's model of a card and host, not a measurement"
    if run.emulated:
        return "EMULATED: every figure is QEMU's speed, not the card's"
    return None


def headline(run):
    """{"verdict": first line, "claims": [Claim], "counterfeit": bool,
    "card": line, "figures": [Figure], "help": [lines], "mark": line or None,
    "firmware": record or None, "lines": [every line]}."""
    figs = [f for f in (best_seq(run, "read"), best_seq(run, "write"),
                        figure_of(run, "rand-read-4k", "random 4 KiB read", iops=True),
                        figure_of(run, "rand-write-4k", "random 4 KiB write", iops=True),
                        figure_of(run, "sustained-write", "sustained write")) if f]
    cl = claims(run)
    verdict = verdict_line(run, cl)
    mark = run_mark(run)
    card = card_line(run)
    lines = [verdict] + ([mark] if mark else []) + [card]
    if figs:
        lines += ["measured: " + f.text() for f in figs]
    else:
        lines.append("measured: nothing (no sequential, random or sustained workload)")
    h = helps(run, figs)
    lines += ["would help: " + x for x in h] if h else \
        ["would help: no suggestion (nothing limits these figures clearly)"] if figs else []
    fw = run.one("headline")
    if fw and isinstance(fw.get("text"), str):
        lines.append("the firmware's headline: " + fw["text"])
    return {"verdict": verdict, "claims": cl, "counterfeit": bool(wrap_bytes(run)),
            "card": card, "figures": figs, "help": h, "mark": mark, "firmware": fw,
            "lines": lines}


def as_dict(h):
    """The headline as JSON (sdbreport --json, the CSV file)."""
    return {"verdict": h["verdict"], "counterfeit": h["counterfeit"], "mark": h["mark"],
            "claims": [{"claim": c.name, "result": c.result, "detail": c.detail}
                       for c in h["claims"]],
            "failed_claims": [c.name for c in h["claims"] if c.result == "FAIL"],
            "card": h["card"], "help": h["help"], "lines": h["lines"],
            "figures": [{"what": f.what, "workload": f.workload, "value": f.value,
                         "unit": f.unit, "ops": f.ops, "p99_ns": f.p99,
                         "single_sample": f.single, "few_samples": f.few,
                         "limit": f.limit()} for f in h["figures"]]}
