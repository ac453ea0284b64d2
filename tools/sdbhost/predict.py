"""Prediction: what the same card would do at another SD clock and bus width
(and, later, another host or bus mode), from one run's records only.

The model (docs/prediction.md) splits every workload's measured time into
what scales with the SD clock - bus clocks: commands, data frames, CMD12,
the controller's own idle clocks measured by the `bus` calibration - and
what does not: the card's time (access latency, programming busy, stalls)
and the host's (the CPU moving data, controller latency, software between
requests). Inside a multi-block transfer the bus and the CPU work in a
pipeline: the blocks after the first of a request go at the pace of the
slower of the two, so a CPU that sets the pace keeps setting it at a faster
clock, and a bus made slower (1-bit) can take the pace over.

    pred = predict(run, Target(clock_hz=50e6, width=4))
    pred.rows   # one Row per workload: measured and predicted MB/s, IOPS, latency

Pure Python, no dependencies; the reimplementation of the framing is that of
docs/attribution.md section 2 (bench/engine/busmodel.c).
"""
import math

from .records import is_num

BLOCK = 512
CMD_CLOCKS = 98          # command + N_CR + R1 (attribution.md section 2)
STOP_CLOCKS = 98         # CMD12 and its response, as the split counts it
HIDDEN_SHOWS = 0.1       # card time showing past its cover by less: hidden (_pipeline)

# Bus modes: the clock they run at at most and whether data moves on both
# clock edges. The firmware does not switch modes yet: a prediction for
# another mode uses the frame of that mode at the clock given.
BUS_MODES = {
    "ds": (25000000, False), "hs": (50000000, False), "sdr12": (25000000, False),
    "sdr25": (50000000, False), "sdr50": (100000000, False), "ddr50": (50000000, True),
    "sdr104": (208000000, False),
}


def frame_clocks(width, ddr=False, nbytes=BLOCK):
    """Clocks of one data block on the wires: start bit, data, CRC16, end bit
    per line; DDR moves data and CRC on both edges."""
    if ddr:
        return 1 + 8 * nbytes // (2 * width) + 16 + 1
    return 1 + 8 * nbytes // width + 16 + 1


def ceiling_clocks(xfer_bytes, width, write, ddr=False):
    """The fewest clocks one request of xfer_bytes can take on the bus
    (docs/attribution.md section 2): command, each block at its minimum
    pitch, the CMD12 of a multi-block request, the 8 trailing clocks. A
    read's data may start while the response is still on CMD (48 + 2);
    a write's waits for the response (98)."""
    n = max(int(xfer_bytes) // BLOCK, 1)
    c = (CMD_CLOCKS if write else 48 + 2) + n * pitch_clocks(width, write, ddr) + 8
    if n > 1:
        c += 48
    if not write:
        c -= 2          # pitch_clocks counts N_AC before every block, the first is above
    return c


def ceiling_mbs(xfer_bytes, width, clock_hz, write, ddr=False):
    """What the bus can carry at most for requests of xfer_bytes, 10^6 B/s."""
    return xfer_bytes / (ceiling_clocks(xfer_bytes, width, write, ddr) / clock_hz) / 1e6


def pitch_clocks(width, write, ddr=False):
    """Model clocks per block inside a multi-block transfer: read N_AC 2 +
    frame; write N_WR 2 + frame + 2 + CRC status token 5."""
    f = frame_clocks(width, ddr)
    return f + 9 if write else f + 2


class Target:
    """What to predict for. clock_hz / width: the SD bus; bus_mode: a name of
    BUS_MODES (its framing; its clock when clock_hz is not given);
    cpu_factor: the CPU time moving data times this (another board: its
    per-word cost over this one's; a DMA path: about 0), None = this host."""

    def __init__(self, clock_hz=None, width=None, bus_mode=None, cpu_factor=None):
        self.clock_hz = clock_hz
        self.width = width
        self.bus_mode = bus_mode
        self.cpu_factor = cpu_factor

    def resolve(self, clock_hz, width):
        """(clock, width, ddr, cpu_factor) given the run's clock and width."""
        ddr = False
        clk = self.clock_hz
        if self.bus_mode:
            mclk, ddr = BUS_MODES[self.bus_mode]
            if clk is None:
                clk = mclk
        return (float(clk or clock_hz), int(self.width or width), ddr,
                1.0 if self.cpu_factor is None else float(self.cpu_factor))

    def describe(self, clock_hz, width):
        clk, w, ddr, cpu = self.resolve(clock_hz, width)
        s = "%s %d-bit" % (fmt_hz(clk), w)
        if self.bus_mode:
            s += " " + self.bus_mode.upper()
        if self.cpu_factor is not None:
            s += ", CPU x%.2f" % cpu
        return s


def fmt_hz(hz):
    if hz >= 1e6:
        return ("%.2f" % (hz / 1e6)).rstrip("0").rstrip(".") + " MHz"
    return "%.0f kHz" % (hz / 1e3)


class NoPrediction(Exception):
    """The run's figures do not fit the model a prediction rests on."""


def _impossible(run):
    """Why the run's figures cannot feed a prediction, or None: the
    firmware said its model does not hold for a workload (phases "valid":
    false), or a workload ran faster than the bus can carry at its own
    clock and width (logs from before the firmware checked)."""
    bad = []
    for name in run.result_workloads():
        wl = run.workloads[name]
        res, ph = wl.get("result") or {}, wl.get("phases") or {}
        if ph.get("valid") is False:
            bad.append((name, ph.get("why") or "the model does not hold"))
            continue
        f, w, x = res.get("clock_hz"), res.get("width"), res.get("xfer_bytes")
        if is_num(f) and is_num(w) and is_num(x) and is_num(res.get("mbs")) and f > 0 \
                and res.get("op") in ("read", "write") and w in (1, 4):
            cap = ceiling_mbs(x, int(w), f, res["op"] == "write")
            if res["mbs"] > cap * 1.0001:
                bad.append((name, "%.3f MB/s, above the %.3f MB/s the bus carries at %s "
                                  "%d-bit" % (res["mbs"], cap, fmt_hz(f), w)))
    return bad


class Row:
    """One workload: measured and predicted figures, and how."""

    def __init__(self, name, kind, op, xfer_bytes):
        self.workload, self.kind, self.op, self.xfer_bytes = name, kind, op, xfer_bytes
        self.mbs = self.iops = self.mean_ns = None
        self.p_mbs = self.p_iops = self.p_mean_ns = None
        self.method = ""       # "pipeline" (the detailed model) or "shares"
        self.paced_by = ""     # who sets the pace of the pipeline: bus / cpu / -
        self.p_paced_by = ""
        self.note = ""
        self.bound = False     # the prediction is an upper bound (see predict())
        self.capped = False    # cut to the target's bus ceiling

    def as_dict(self):
        return {k: getattr(self, k) for k in (
            "workload", "kind", "op", "xfer_bytes", "mbs", "iops", "mean_ns", "p_mbs",
            "p_iops", "p_mean_ns", "method", "paced_by", "p_paced_by", "note", "bound",
            "capped")}


class Prediction:
    def __init__(self):
        self.rows = []
        self.notes = []
        self.from_setting = ""
        self.to_setting = ""
        self.clock_hz = self.width = None
        self.fits = []    # (op, width, measured mbs at fmax, predicted mbs at target)

    def as_dict(self):
        return {"from": self.from_setting, "to": self.to_setting, "clock_hz": self.clock_hz,
                "width": self.width, "notes": self.notes,
                "workloads": [r.as_dict() for r in self.rows],
                "sweep_fits": [dict(zip(("op", "width", "xfer_bytes", "fit_clock_hz",
                                         "fit_mbs", "clock_hz", "p_mbs"), f))
                               for f in self.fits]}


def _n(rec, key):
    v = rec.get(key) if rec else None
    return float(v) if is_num(v) else 0.0


def _bus_extra(phases):
    """Clocks the controller adds per block after the first of a request,
    as the workload's split used them (0 with the framing model alone)."""
    if phases.get("bus_source") == "measured" and is_num(phases.get("bus_extra_clocks")):
        return float(phases["bus_extra_clocks"])
    return 0.0


def _calibrated_extra(run, width, write):
    for b in run.all("bus"):
        if b.get("width") == width:
            d = b.get("write" if write else "read")
            if isinstance(d, dict) and d.get("used") and is_num(d.get("extra_clocks_per_block")):
                return float(d["extra_clocks_per_block"])
    return None


def _wait(a, mu):
    """E[max(a, T)] for the card's own time T exponential with mean mu
    (what a mean alone says about a spread of waits): a + mu exp(-a/mu)."""
    if mu <= 0:
        return max(a, 0.0)
    if a <= 0:
        return mu
    return a + mu * math.exp(-a / mu)


def _block(bf, c, cc, mu, fifo):
    """Mean time per pipelined block: the frame bf, then the card waits the
    longer of its clock-counted idle cc and its own time T (mean mu: a card
    controller counting clocks while its flash works), while the CPU moves
    the next block in c: max(c, bf + max(cc, T)) = bf + max(c - bf, cc, T).
    fifo: a controller whose buffer holds less than a block (SDHOST's 16
    words): the CPU moves a block only while it is on the bus, so the card's
    wait adds to it: max(c, bf) + max(cc, T)."""
    if fifo:
        return max(c, bf) + _wait(cc, mu)
    return bf + _wait(max(c - bf, cc), mu)


def _card_mean(bf, c, cc, p, fifo):
    """The mean mu of the card's own time T that makes _block give the
    measured time per block p; 0 when the frame, the CPU and the
    clock-counted wait explain p (T hid behind them)."""
    if p <= _block(bf, c, cc, 0.0, fifo) * (1 + 1e-9):
        return 0.0
    lo, hi = 0.0, p
    for _ in range(100):
        mid = (lo + hi) / 2
        if _block(bf, c, cc, mid, fifo) < p:
            lo = mid
        else:
            hi = mid
    return (lo + hi) / 2


def _fifo_host(run):
    """Whether the run's controller buffers less than a block: the
    BCM2835 SDHOST (a 16-word FIFO; the SDHCI controllers buffer two
    blocks)."""
    h = run.one("host") or {}
    return h.get("name") == "sdhost"


def _later_blocks(run, m, bp, bp2, extra, extra2, f, f2, cpu_work, cpu, pipe):
    """(time before, time at the target, pace before, pace after, card time
    hidden) of the m blocks after the first of each request (_pipeline)."""
    before = after = 0.0
    pace = pace2 = "-"
    hidden = False
    if m > 0:
        # per block after the first of a request: the frames (a calibration
        # below the model shortens them), the card's clock-counted idle (a
        # calibration above it), the CPU, and the card's own time fitted to
        # what the run measured (docs/prediction.md)
        bf, bf2 = bp / m, bp2 / m
        cc, cc2 = max(extra, 0.0) * 1e9 / f, max(extra2, 0.0) * 1e9 / f2
        bf -= cc
        bf2 -= cc2
        c1, c2 = cpu_work / m, cpu_work * cpu / m
        fifo = _fifo_host(run)
        cover, cover2 = (cc, cc2) if fifo else (max(c1 - bf, cc), max(c2 - bf2, cc2))
        shows = pipe / m - _block(bf, c1, cc, 0.0, fifo)
        if cover2 < 0.99 * cover and shows < HIDDEN_SHOWS * cover:
            # The card's own time showed past the wait that covered it
            # (the CPU's or the clock-counted one) by less than a tenth of
            # that wait, or not at all, and the wait is shorter at the
            # target: the run cannot tell a steady time mostly hidden from
            # rare stalls that add the same at any pace. Taken as the
            # latter, the fastest: an upper bound.
            mu, hidden = 0.0, True
            before = m * _block(bf, c1, cc, 0.0, fifo) + max(shows, 0.0) * m
            after = m * _block(bf2, c2, cc2, 0.0, fifo) + max(shows, 0.0) * m
        else:
            mu, hidden = _card_mean(bf, c1, cc, pipe / m, fifo), False
            before = m * _block(bf, c1, cc, mu, fifo)
            after = m * _block(bf2, c2, cc2, mu, fifo)
        pace = "cpu" if c1 - bf >= (0.0 if fifo else max(cc, mu)) else "bus"
        pace2 = "cpu" if c2 - bf2 >= (0.0 if fifo else max(cc2, mu)) else "bus"
    return before, after, pace, pace2, hidden


def _pipeline(run, res, ph, tgt):
    """Predicted (total_ns, per-op latency change ns, pace before, pace after)
    of a read or write workload from its phases; None if it does not fit."""
    f, w = float(res["clock_hz"]), int(res["width"])
    f2, w2, ddr2, cpu = tgt
    write = res.get("op") == "write"
    nreq = _n(ph, "ops")
    nblk = _n(res, "bytes") / BLOCK
    if nreq <= 0 or nblk < nreq:
        return None
    bpr = nblk / nreq
    multi = bpr > 1
    cmd, acc, data = _n(ph, "cmd_ns"), _n(ph, "access_ns"), _n(ph, "data_ns")
    host, busy, gap = _n(ph, "host_ns"), _n(ph, "busy_ns"), _n(ph, "gap_ns")
    total = _n(ph, "total_ns")
    extra = _bus_extra(ph)
    extra2 = extra
    if w2 != w:
        cal = _calibrated_extra(run, w2, write)
        extra2 = cal if cal is not None else extra
    # the bus at the run's setting and at the target, ns
    cmd_bus = min(nreq * CMD_CLOCKS * 1e9 / f, cmd)
    cmd_bus2 = nreq * CMD_CLOCKS * 1e9 / f2
    first = nreq * pitch_clocks(w, write) * 1e9 / f
    first2 = nreq * pitch_clocks(w2, write, ddr2) * 1e9 / f2
    bp = (nblk - nreq) * (pitch_clocks(w, write) + extra) * 1e9 / f
    bp2 = (nblk - nreq) * (pitch_clocks(w2, write, ddr2) + extra2) * 1e9 / f2
    stop = nreq * STOP_CLOCKS * 1e9 / f if multi else 0.0
    stop2 = nreq * STOP_CLOCKS * 1e9 / f2 if multi else 0.0
    hs = host / bpr                    # the CPU's one block per request (first fill / last drain)
    if write:
        host_ser = min(hs, acc + data)
        pipe = acc + data - host_ser
        first = min(first, busy)       # the last block's frame goes out in the tail
        stop = min(stop, max(busy - first, 0.0))
    else:
        first = min(first, acc)
        host_ser = min(hs, data)
        pipe = data - host_ser
        stop = min(stop, busy)
    cpu_work = min(max(host - hs, 0.0), pipe)
    m = nblk - nreq
    before, after, pace, pace2, hidden = _later_blocks(run, m, bp, bp2, extra, extra2, f, f2,
                                                       cpu_work, cpu, pipe)
    x = acc + data + busy
    x2 = x - before + after - first + first2 - stop + stop2 - host_ser + host_ser * cpu
    cmd2 = cmd - cmd_bus + cmd_bus2
    gap2 = gap
    if res.get("cmd") == "cmd23":   # the explicit CMD23 before each request, in the gap
        gap2 += nreq * CMD_CLOCKS * 1e9 * (1 / f2 - 1 / f)
    total2 = total - (cmd + x + gap) + (cmd2 + x2 + gap2)
    return total2, ((cmd2 + x2) - (cmd + x)) / max(_n(res, "ops"), 1), pace, pace2, hidden


def _shares(res, ph, tgt):
    """Fallback for workloads the pipeline model does not describe (mixed
    reads and writes): the bus share scales with the clocks per operation."""
    f, w = float(res["clock_hz"]), int(res["width"])
    f2, w2, ddr2, cpu = tgt
    total = _n(ph, "total_ns")
    bus = total * _n(ph, "bus_pct") / 100.0
    hostt = total * _n(ph, "host_pct") / 100.0
    nblk = max(_n(res, "xfer_bytes") / BLOCK, 1)
    write_frac = _n(res, "writes") / max(_n(res, "ops"), 1)

    def clocks(width, ddr):
        r = CMD_CLOCKS + nblk * pitch_clocks(width, False, ddr) + (STOP_CLOCKS if nblk > 1 else 0)
        wr = CMD_CLOCKS + nblk * pitch_clocks(width, True, ddr) + (STOP_CLOCKS if nblk > 1 else 0)
        return r * (1 - write_frac) + wr * write_frac
    bus2 = bus * (clocks(w2, ddr2) / f2) / (clocks(w, False) / f)
    total2 = total - bus + bus2 - hostt + hostt * cpu
    return total2, (total2 - total) / max(_n(res, "ops"), 1)


def _cap(row, res, tgt):
    """Never above the target's bus ceiling: a predicted rate beyond it is
    cut to it (the latency to the bus time); returns 1 when it was."""
    x, op = res.get("xfer_bytes"), res.get("op")
    if not is_num(row.p_mbs) or not is_num(x) or x <= 0:
        return 0
    f2, w2, ddr2, _ = tgt
    if op in ("read", "write"):
        cap = ceiling_mbs(x, w2, f2, op == "write", ddr2)
    else:   # mixed: the faster direction bounds both
        cap = ceiling_mbs(x, w2, f2, False, ddr2)
    if row.p_mbs <= cap:
        return 0
    scale = cap / row.p_mbs
    row.note = (row.note + "; " if row.note else "") + "at the bus ceiling (model %.3f)" % row.p_mbs
    row.p_mbs = cap
    if is_num(row.p_iops):
        row.p_iops *= scale
    if is_num(row.p_mean_ns):
        row.p_mean_ns = max(row.p_mean_ns, x / cap * 1e3)
    row.capped = True
    return 1


def _finish(row, res, ph, total2, dlat):
    el2 = res["elapsed_ns"] - ph["total_ns"] + total2
    if el2 > 0:
        row.p_mbs = _n(res, "bytes") / el2 * 1e3
        row.p_iops = _n(res, "ops") / el2 * 1e9
        if is_num(row.mean_ns):
            row.p_mean_ns = max(row.mean_ns + dlat, 0.0)


UHS_MODES = ("sdr50", "ddr50", "sdr104")


def _names(v):
    return [x for x in v if isinstance(x, str)] if isinstance(v, list) else None


def mode_not_offered(run, card, mode):
    """Why the card or the host of run does not offer bus mode `mode` (from
    the card record: hs_supported, uhs_card_modes, uhs_host_modes; the host
    record: modes), or None when both do or the records do not say."""
    host = next((h for h in run.all("host") if h.get("name") == card.get("host")),
                run.one("host") or {})
    host_modes = _names(host.get("modes"))
    card_uhs, host_uhs = _names(card.get("uhs_card_modes")), _names(card.get("uhs_host_modes"))
    out = []
    if mode == "hs" and card.get("hs_supported") is False:
        out.append("the card has no high speed")
    if mode in UHS_MODES:
        if card_uhs is not None and mode not in card_uhs:
            out.append("the card offers %s" % (", ".join(card_uhs) or "no UHS-I mode"))
        if host_uhs is not None and mode not in host_uhs and \
                (host_modes is None or mode not in host_modes):
            out.append("the host offers %s" % (", ".join(host_modes or host_uhs) or
                                               "no UHS-I mode"))
    elif host_modes is not None and mode not in host_modes and mode in ("ds", "hs"):
        out.append("the host offers %s" % ", ".join(host_modes))
    return "; ".join(out) or None


def _setting_notes(p, run, card, target, tgt, w0):
    """Notes on the run and the target setting: emulated, a mode, width or
    clock the card or host does not offer, no calibration at the width."""
    if run.emulated:
        p.notes.append("emulated run: its times are emulation speed, and so is the prediction")
    if target.bus_mode:
        why = mode_not_offered(run, card, target.bus_mode)
        if why:
            p.notes.insert(0, "bus_mode %s is not on offer: %s; this predicts a setting this "
                           "card and host cannot run" % (target.bus_mode, why))
    widths = (card.get("scr") or {}).get("bus_widths") if isinstance(card.get("scr"), dict) else None
    if isinstance(widths, list) and tgt[1] not in widths:
        p.notes.append("the card's SCR does not offer the %d-bit bus" % tgt[1])
    if is_num(card.get("max_clock_hz")) and tgt[0] > card["max_clock_hz"] * 1.0001 \
            and not target.bus_mode:
        p.notes.append("%s is above the card's maximum for its timing (%s)" % (
            fmt_hz(tgt[0]), fmt_hz(card["max_clock_hz"])))
    if tgt[1] != w0 and not any(b.get("width") == tgt[1] for b in run.all("bus")):
        p.notes.append("no bus calibration at %d-bit: the controller's extra clocks per "
                       "block are taken from %d-bit" % (tgt[1], w0))


def _rows(p, run, names, bad, tgt):
    """A Row per workload with result and phases: the pipeline model for
    reads and writes, then the others from them (_later_rows)."""
    deltas = {}   # (op, xfer_bytes) of random workloads: change of time per operation
    later = []
    for name in names:
        wl = run.workloads[name]
        res, ph, lat = wl.get("result"), wl.get("phases"), wl.get("latency")
        if not res or not ph:
            continue
        row = Row(name, res.get("kind"), res.get("op"), res.get("xfer_bytes"))
        row.mbs, row.iops = res.get("mbs"), res.get("iops")
        row.mean_ns = lat.get("mean_ns") if lat else None
        p.rows.append(row)
        if name in bad:
            row.note = "no prediction: " + bad[name]
            continue
        if not is_num(res.get("clock_hz")) or not is_num(res.get("width")) \
                or not is_num(res.get("elapsed_ns")) or res["elapsed_ns"] <= 0 \
                or not is_num(ph.get("total_ns")) or not ph["total_ns"]:
            row.note = "nothing measured"
            continue
        got = None
        if res.get("op") in ("read", "write"):
            got = _pipeline(run, res, ph, tgt)
        if not got:
            later.append((row, res, ph))
            continue
        total2, dlat, row.paced_by, row.p_paced_by, hidden = got
        row.method = "pipeline"
        if hidden:
            # The card's own time between blocks never showed: it hid behind
            # the CPU (the controller's buffer was full) or behind the card's
            # clock-counted wait, and either is shorter at the target, where
            # it may show. The prediction takes it as none: an upper bound.
            row.bound = True
            row.note = "%s -> %s, upper bound" % (row.paced_by, row.p_paced_by)
        if res.get("kind") == "random" and is_num(res.get("ops")) and res["ops"] > 0:
            deltas.setdefault((res.get("op"), res.get("xfer_bytes")),
                              (total2 - ph["total_ns"]) / res["ops"])
        _finish(row, res, ph, total2, dlat)
    _later_rows(later, deltas, tgt)


def _later_rows(later, deltas, tgt):
    """Workloads the pipeline model does not describe: mixed ones from the
    random reads and writes of their size, the rest by their shares."""
    for row, res, ph in later:
        dr = deltas.get(("read", res.get("xfer_bytes")))
        dw = deltas.get(("write", res.get("xfer_bytes")))
        if dr is not None and dw is not None and is_num(res.get("reads")) \
                and is_num(res.get("writes")):
            # mixed reads and writes: each operation changes as the random
            # reads and writes of the same size do
            d = res["reads"] * dr + res["writes"] * dw
            total2 = ph["total_ns"] + d
            dlat = d / max(_n(res, "ops"), 1)
            row.method = "random r/w"
        else:
            total2, dlat = _shares(res, ph, tgt)
            row.method = "shares"
        _finish(row, res, ph, total2, dlat)


def _closing_notes(p, run, bad, tgt):
    """Notes on the rows: workloads without a prediction, predictions cut to
    the bus's ceiling, upper bounds."""
    if bad:
        if len(bad) == len(p.rows):
            raise NoPrediction("no workload's figures fit the model (e.g. %s: %s)"
                               % next(iter(bad.items())))
        p.notes.append("%d workload(s) without a prediction: the firmware found their figures "
                       "outside its model" % len(bad))
    capped = 0
    for row in p.rows:
        capped += _cap(row, run.workloads[row.workload].get("result") or {}, tgt)
    if capped:
        p.notes.append("%d prediction(s) above what the bus can carry at %s were cut to "
                       "that ceiling" % (capped, p.to_setting))
    nb = sum(1 for r in p.rows if r.bound)
    if nb:
        p.notes.append("%d workload(s) whose card delays between blocks hid in this run (behind "
                       "the CPU or the card's clock-counted wait, both shorter at the target): "
                       "their predictions are upper bounds" % nb)


def _sweep_fits(p, run, tgt):
    """The clock sweep's fit T(f) = a + b/f, where it was made at the target
    width, at the target clock."""
    for s in run.all("sweep"):
        if "fit" in s and s.get("width") == tgt[1] and is_num(s.get("a_ns")) \
                and is_num(s.get("b_clocks")) and is_num(s.get("fmax_hz")):
            n = 65536
            t_max = s["a_ns"] + s["b_clocks"] * 1e9 / s["fmax_hz"]
            t2 = s["a_ns"] + s["b_clocks"] * 1e9 / tgt[0]
            p.fits.append((s.get("op"), s["width"], n, s["fmax_hz"], n / t_max * 1e3,
                           tgt[0], n / t2 * 1e3))


def predict(run, target):
    """A Prediction for every workload of run that printed result and phases.
    Raises NoPrediction when the run is emulated and its figures break the
    model; in a run from a card, a workload whose model does not hold gets
    no prediction (its row says why)."""
    p = Prediction()
    bad = dict(_impossible(run))
    if bad and run.emulated:
        name, why = next(iter(bad.items()))
        raise NoPrediction("an emulated run whose figures the model cannot explain "
                           "(%d workloads, e.g. %s: %s): its times are the emulator's, "
                           "not a card's and a bus's" % (len(bad), name, why))
    card = run.one("card") or {}
    names = run.result_workloads()
    if not names:
        p.notes.append("no workload results in this run")
        return p
    r0 = run.workloads[names[0]]["result"]
    f0, w0 = r0.get("clock_hz"), r0.get("width")
    if not is_num(f0) or not is_num(w0) or f0 <= 0:
        p.notes.append("the run's results carry no clock and width")
        return p
    tgt = target.resolve(f0, w0)
    p.clock_hz, p.width = tgt[0], tgt[1]
    p.from_setting = "%s %d-bit" % (fmt_hz(f0), w0)
    p.to_setting = target.describe(f0, w0)
    _setting_notes(p, run, card, target, tgt, w0)
    _rows(p, run, names, bad, tgt)
    _closing_notes(p, run, bad, tgt)
    _sweep_fits(p, run, tgt)
    return p


def _f(v, fmt, none="-"):
    return fmt % v if is_num(v) else none


def render_text(p, out):
    """The prediction table for people."""
    out.write("\nPrediction: %s -> %s (docs/prediction.md)\n" % (p.from_setting, p.to_setting))
    for n in p.notes:
        out.write("  note: %s\n" % n)
    out.write("  %-22s %9s %9s %9s %9s %10s %10s  %s\n" % (
        "workload", "MB/s", "pred", "IOPS", "pred", "mean us", "pred", "paced by"))
    for r in p.rows:
        out.write("  %-22s %9s %9s %9s %9s %10s %10s  %s\n" % (
            r.workload[:22], _f(r.mbs, "%.3f"), _f(r.p_mbs, "%.3f"), _f(r.iops, "%.1f"),
            _f(r.p_iops, "%.1f"), _f(r.mean_ns and r.mean_ns / 1e3, "%.1f"),
            _f(r.p_mean_ns and r.p_mean_ns / 1e3, "%.1f"),
            r.note or (("%s -> %s" % (r.paced_by, r.p_paced_by) if r.paced_by != "-" else "-") if r.method == "pipeline"
                       else "(%s)" % r.method)))
    for op, w, n, ffit, mfit, f2, m2 in p.fits:
        out.write("  sweep fit, %s %d-bit 64 KiB: %.3f MB/s at %s -> %.3f MB/s at %s "
                  "(T = a + b/f; does not know a CPU that sets the pace)\n" % (
                      op, w, mfit, fmt_hz(ffit), m2, fmt_hz(f2)))


def render_html(rep, p):
    """The prediction section of the HTML report (html.Report)."""
    rep.section("prediction")
    rep.p("Measured at %s, predicted at %s from this run's records alone "
          "(docs/prediction.md): bus clocks scale with the clock and width, card and "
          "host time do not, and the block pipeline goes at the pace of the slower of "
          "bus and CPU." % (p.from_setting, p.to_setting))
    for n in p.notes:
        rep.p("note: " + n, "note")
    body = []
    for r in p.rows:
        body.append([r.workload, _f(r.mbs, "%.3f"), _f(r.p_mbs, "%.3f"), _f(r.iops, "%.1f"),
                     _f(r.p_iops, "%.1f"), _f(r.mean_ns and r.mean_ns / 1e3, "%.1f"),
                     _f(r.p_mean_ns and r.p_mean_ns / 1e3, "%.1f"),
                     r.note or (("%s -> %s" % (r.paced_by, r.p_paced_by)
                                 if r.paced_by != "-" else "-")
                                if r.method == "pipeline" else r.method)])
    rep.table(["workload", "MB/s", "predicted", "IOPS", "predicted", "mean latency (us)",
               "predicted", "pace set by"], body, num_cols=(1, 2, 3, 4, 5, 6))
    for op, w, n, ffit, mfit, f2, m2 in p.fits:
        rep.p("Sweep fit, %s %d-bit 64 KiB: %.3f MB/s at %s, %.3f MB/s at %s (T = a + b/f; "
              "it does not know a CPU that sets the pace)." % (op, w, mfit, fmt_hz(ffit), m2,
                                                               fmt_hz(f2)), "note")
    rep.end()
