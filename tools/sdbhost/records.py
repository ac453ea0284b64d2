"""Reading sdbench console logs: the "@ " record lines, robustly.

A console capture can hold serial noise, lines cut or garbled by a bad
link, a run that stopped early, several runs (the board was reset), CR LF
or CR-only line ends and bytes that are not UTF-8. None of that stops the
reading: every line that cannot be used becomes a warning with its line
number, and the rest is kept.

    log = read_log("run.log")        # LogFile: .runs, .warnings
    run = log.runs[-1]               # Run: .records, .by_type, .workloads

Rules (docs/host-tools.md, "Reading logs"):
- a record is "@ " followed by one JSON object with a string "type"; it
  may be preceded by noise on its line (warned) and followed by the next
  record if a line end was lost (both are read);
- a field whose value has the wrong JSON type for its documented meaning
  (a string where a number belongs, a number that is not finite) is warned
  about and treated as missing (null), as the firmware does for a value it
  could not measure; parallel lists of different lengths are cut to the
  shortest;
- a run starts at a "board" record, and also when a record that appears
  once per run (card, config, ...) appears a second time or any record
  follows the run's end (the board restarted and its first lines were
  lost); a run ends at "done" or "exception"; a run without one of them
  was cut short.
"""
import json
import math
import os
import re

from . import resultsfile

# Field kinds: S string, N number, B boolean, LN list of numbers, L list,
# D object, LD list of objects. null is always allowed (not measured).
_N, _S, _B, _LN, _L, _D, _LD = "N", "S", "B", "LN", "L", "D", "LD"

_TIMER = {"source": _S, "freq_hz": _N, "nominal_hz": _N, "resolution_ns": _N,
          "read_cost_ns": _N, "calib_ppm": _N}
_SUMMARY_PART = {"workload": _S, "xfer_bytes": _N, "mbs": _N, "iops": _N, "verdict": _S}
_HEADLINE_PART = {"workload": _S, "xfer_bytes": _N, "ops": _N, "median_mbs": _N,
                  "median_iops": _N, "p90_mbs": _N, "p90_iops": _N, "fastest_mbs": _N,
                  "fastest_iops": _N, "limit": _S, "mbs": _N, "iops": _N, "p99_us": _N}

SCHEMA = {
    "board": {"model": _S, "revision": _S, "soc": _S, "cpu": _S, "midr": _S,
              "periph_base": _S, "arm_clock_hz": _N, "core_clock_hz": _N,
              "emmc_clock_hz": _N, "uart_clock_hz": _N, "arm_mem_bytes": _N,
              "vc_mem_bytes": _N, "board_mem_mib": _N, "maker": _S, "firmware": _S,
              "mac": _S, "serial": _S, "temp_mc": _N, "timer": _TIMER, "caches": _B,
              "emulated": _B, "simulated": _B, "mailbox": _S},
    "error": {"context": _S, "code": _S, "message": _S, "workload": _S},
    "exception": {"exception": _S, "pc": _S, "spsr": _S},
    "done": {"errors": _N, "elapsed_us": _N},
    "card": {"present": _B, "initialised": _B, "rca": _S, "capacity_bytes": _N,
             "blocks": _N, "v2": _B, "high_capacity": _B, "width": _N, "timing": _S,
             "clock_hz": _N, "max_clock_hz": _N, "cmd23": _B, "hs_supported": _B,
             "write_protected": _B, "erase_timeout_us_per_au": _N, "init_us": _N,
             "ocr": _D, "cid": _D, "csd": _D, "scr": _D, "ssr": _D, "switch": _D,
             "ext": _D},
    "layout": {"kind": _S, "reason": _S, "total_blocks": _N, "used_end": _N,
               "partitions": _LD, "used_extents": _LD},
    "config": {"file": _B, "suite": _S, "from_file": _L, "messages": _L},
    "screen": {"width": _N, "height": _N},
    "led": {"led": _S, "kind": _S, "line": _N, "active_low": _B, "driven": _B,
            "reason": _S, "code": _S, "flashes": _N},
    "results_file": {"name": _S, "usable": _B, "reason": _S, "bytes": _N, "extents": _L},
    "test_area": {"usable": _B, "source": _S, "first_lba": _N, "count": _N, "bytes": _N, "wrap_bytes": _N,
                  "reason": _S, "note": _S, "hint": _S, "write_protected": _B},
    "overhead": {"timer": _S, "timestamp_ns": _N, "resolution_ns": _N,
                 "bookkeeping_ns_per_op": _N, "timestamps_per_op": _N},
    "host": {"name": _S, "base": _S, "version": _S, "caps": _S, "base_clock_hz": _N,
             "f_min_hz": _N, "f_max_hz": _N, "data_paths": _L, "data_path": _S,
             "modes": _L},
    "data_path": {"host": _S, "requested": _S, "path": _S, "available": _L,
                  "refused": _S, "no_dma": _S, "dma_pio_blocks": _N},
    "bus": {"width": _N, "clock_hz": _N, "cal_clocks_hz": _LN, "xfer_bytes": _N,
            "read": _D, "write": _D},
    "silicon": {"host": _S, "probed": _B, "error": _N, "blkcnt": _S, "blkcnt_look_used": _B,
                "read_wire": _S, "first_us": _N, "frame_us": _N, "wire_clock_hz": _N,
                "blocks": _N, "cnt_ready": _N, "cnt_full": _N, "cnt_drained": _N,
                "wait_us": _N, "probe_us": _N, "bwe": _S, "dat0": _S,
                "write_looks_used": _B, "write_probe_error": _N, "bwe_first": _B,
                "dat0_low": _B, "busy_us": _N, "dat0_late_us": _N, "tol_us": _N,
                "write_probe_us": _N},
    "hosts": {"emulated": _B, "rows": _LD},
    "hostcost": {"host": _S, "path": _S, "op": _S, "cmd": _S, "blocks": _N,
                 "xfer_bytes": _N, "requests": _N, "request_ns": _N, "block_ns": _N,
                 "driver_request_ns": _N, "driver_block_ns": _N, "engine_ns": _N,
                 "moved_by": _S, "pio_requests": _N},
    "modes": {"xfer_bytes": _N, "bytes_per_mode": _N, "modes": _LD, "restored": _S,
              "restore_ok": _B},
    "truth": {"workload": _S, "ops": _N, "window_ns": _N, "card_pct": _N, "bus_pct": _N,
              "host_pct": _N, "wire_pct": _D, "crit_pct": _D},
    "result": {"workload": _S, "kind": _S, "op": _S, "cmd": _S, "xfer_bytes": _N,
               "ops": _N, "reads": _N, "writes": _N, "bytes": _N, "elapsed_ns": _N,
               "mbs": _N, "mibs": _N, "iops": _N, "clock_hz": _N, "width": _N,
               "errors": _N, "emulated": _B},
    "latency": {"workload": _S, "count": _N, "min_ns": _N, "mean_ns": _N, "p50_ns": _N,
                "p90_ns": _N, "p99_ns": _N, "p999_ns": _N, "max_ns": _N, "stddev_ns": _N},
    "histogram": {"workload": _S, "lo_ns": _LN, "count": _LN},
    "series": {"workload": _S, "interval_ns": _N, "mbs": _LN, "worst_ns": _LN},
    "phases": {"workload": _S, "ops": _N, "total_ns": _N, "cmd_ns": _N, "access_ns": _N,
               "data_ns": _N, "host_ns": _N, "busy_ns": _N, "gap_ns": _N, "card_pct": _N,
               "bus_pct": _N, "host_pct": _N, "bus_efficiency_pct": _N, "valid": _B,
               "why": _S, "invalid": _L},
    "verdict": {"workload": _S, "bottleneck": _S, "pct": _N, "text": _S, "emulated": _B,
                "valid": _B, "why": _S, "invalid": _L},
    "integrity": {"workload": _S, "blocks": _N, "ok": _N, "changed": _N, "overwritten": _N,
                  "stale": _N, "corrupted": _N, "read_errors": _N, "first_bad_lba": _N,
                  "partial": _B},
    "skipped": {"workload": _S, "reason": _S},
    "check": {"workload": _S, "kind": _S, "verdict": _S, "predicted_ns": _N,
              "predicted_hi_ns": _N, "measured_ns": _N, "tolerance_ns": _N, "baseline_ns": _N,
              "drift_ns": _N, "ops": _N, "clock_hz": _N, "cf_clock_hz": _N, "cf_width": _N,
              "delay_ns_per_block": _N, "cost_us": _N, "reason": _S, "emulated": _B},
    "checks": {"confirmed": _N, "contradicted": _N, "not_run": _N, "elapsed_us": _N,
               "emulated": _B},
    "sweep": {"op": _S, "width": _N, "clock_hz": _N, "requested_hz": _N, "xfer_bytes": _N,
              "ops": _N, "mean_ns": _N, "mbs": _N, "ceiling_mbs": _N, "fit": _S,
              "points": _N, "a_ns": _N, "b_clocks": _N, "model_bus_clocks": _N, "r2": _N,
              "rms_residual_ns": _N, "fmax_hz": _N, "bus_share_at_fmax_pct": _N, "fit_holds": _B,
              "emulated": _B},
    "class": {"ssr": _B, "app_claim": _S, "speed_class_claim": _N, "uhs_grade_claim": _N,
              "video_class_claim": _N, "cq_depth": _N, "cache_support": _B,
              "area_first_lba": _N, "area_bytes": _N, "rand_bytes": _N, "rand_cmd": _S,
              "queue_depth": _N, "read_iops": _N, "write_iops": _N, "read_iops_wall": _N,
              "write_iops_wall": _N, "seq_write_mbs": _N, "app_level_measured": _N,
              "app_meets_claim": _B, "app_text": _S, "au_bytes": _N, "au_declared": _B,
              "ru_bytes": _N, "pw_erased": _B, "pw_mbs": _N, "pw_au_mbs": _LN,
              "speed_class_met": _N, "uhs_grade_met": _N, "video_class_met": _N,
              "speed_meets_claim": _B, "speed_text": _S, "bus_ceiling_mbs": _N,
              "clock_hz": _N, "width": _N, "emulated": _B},
    "au": {"read_bytes": _N, "base_lba": _N, "positions": _N, "align_bytes": _LN,
           "pre_ns": _LN, "on_ns": _LN, "post_ns": _LN, "noise_ns": _LN,
           "measured_bytes": _N, "step_ns": _N, "first_step_bytes": _N,
           "declared_au_bytes": _N, "match": _S, "text": _S, "emulated": _B},
    "open_au": {"au_bytes": _N, "au_declared": _B, "chunk_bytes": _N, "first_lba": _N,
                "n": _LN, "mbs": _LN, "p99_us": _LN, "handled": _N, "collapsed": _B,
                "collapse_at": _N, "stopped_by": _S, "emulated": _B},
    "erase": {"au_bytes": _N, "au_declared": _B, "first_lba": _N, "count": _N,
              "min_us": _N, "median_us": _N, "max_us": _N, "multi_aus": _N, "multi_us": _N,
              "per_au_us": _N, "timeout_ms_1au": _N, "emulated": _B},
    "sustained": {"xfer_bytes": _N, "first_lba": _N, "area_bytes": _N, "budget_bytes": _N,
                  "bytes": _N, "ops": _N, "stopped_by": _S, "overall_mbs": _N,
                  "knee_found": _B, "knee_bytes": _N, "knee_op": _N, "initial_mbs": _N,
                  "steady_mbs": _N, "median_op_ns": _N, "worst_ns": _N,
                  "worst_at_bytes": _N, "rate_step_bytes": _N, "rate_mbs": _LN,
                  "emulated": _B},
    "queue": {"depth": _N, "write": _B, "cache": _B, "mix": _B, "reads": _N, "writes": _N,
              "xfer_bytes": _N, "tasks": _N, "elapsed_ns": _N, "iops": _N, "p50_ns": _N,
              "p99_ns": _N, "error": _N},
    "queue_check": {"queue": _B, "cq_depth": _N, "read_after_write": _B, "task_status": _B,
                    "no_timeout": _B, "flush_commits": _B, "flush_order": _B, "cmd44": _B,
                    "broken": _S, "evidence": _S, "text": _S},
    "class_queue": {"app_claim": _S, "queue": _S, "depth": _N, "cache": _B, "read_iops": _N,
                    "write_iops": _N, "mixed_iops": _N, "read_iops_d1": _N,
                    "write_iops_d1": _N, "seq_write_mbs": _N, "app_meets_claim": _B,
                    "app_text": _S, "detail": _S},
    "summary": {"emulated": _B, "seq_read": _SUMMARY_PART, "seq_write": _SUMMARY_PART,
                "rand_read_4k": _SUMMARY_PART, "rand_write_4k": _SUMMARY_PART,
                "mix70_4k": _SUMMARY_PART},
    "suite": {"profile": _S, "elapsed_us": _N, "aborted": _B, "emulated": _B},
    "run_start": {"n": _N, "source": _S, "what": _S},
    "headline": {"card": _S, "min_ops": _N, "seq_read": _HEADLINE_PART,
                 "seq_write": _HEADLINE_PART, "rand_read_4k": _HEADLINE_PART,
                 "rand_write_4k": _HEADLINE_PART, "sustained": _HEADLINE_PART, "text": _S,
                 "emulated": _B, "simulated": _B, "verdict": _S, "claims": _LD,
                 "failed_claims": _L, "counterfeit": _B, "wrap_bytes": _N},
    "selftest": {"test": _S, "lba": _N, "count": _N, "match": _B, "host_ns": _N,
                 "host_ns_per_block": _N, "data_ns": _N, "unaligned_host_ns": _N,
                 "write_protected": _B, "write_refused": _B, "code": _S,
                 "segments": _LD, "verify": _B, "erase": _D},
}

# Lists that belong together: one entry per point.
PARALLEL = {
    "histogram": ("lo_ns", "count"),
    "series": ("mbs", "worst_ns"),
    "au": ("align_bytes", "pre_ns", "on_ns", "post_ns", "noise_ns"),
    "open_au": ("n", "mbs", "p99_us"),
}

# Records with a "workload" field that describe one measured workload.
WORKLOAD_TYPES = ("result", "latency", "histogram", "series", "phases", "verdict")
# Records a run prints at most once: a second one means the board restarted.
# ("card" repeats legitimately: a card initialised again on another host,
# in a pinned bus mode or by the host comparison prints it again.)
ONCE_TYPES = ("layout", "config", "test_area", "overhead", "summary", "suite")
END_TYPES = ("done", "exception")
# The session's set-up records: a run started by run_start (a console
# command, end = repeat) reports with the ones before it.
SESSION_TYPES = ("board", "card", "layout", "config", "test_area", "host", "data_path",
                 "results_file")
# Records of a measurement: a run_start after one of them starts a new run.
MEASURE_TYPES = WORKLOAD_TYPES + ("sweep", "class", "au", "open_au", "erase", "sustained",
                                  "integrity", "skipped", "summary", "suite", "hosts",
                                  "hostcost", "selftest", "modes", "headline", "truth", "bus",
                                  "silicon", "check", "checks", "queue", "queue_check",
                                  "class_queue")


def is_num(v):
    """A JSON number that can be computed with (not a boolean, finite, and
    within a float's range: 10**400 parses as a Python int but fits none)."""
    if not isinstance(v, (int, float)) or isinstance(v, bool):
        return False
    try:
        return math.isfinite(v) and abs(v) <= _NUM_MAX
    except OverflowError:
        return False


# Larger numbers are not measurements (and overflow float arithmetic).
_NUM_MAX = 1e300
# Records nested deeper than this are not sdbench's (its deepest is 4).
MAX_DEPTH = 24


def _kind_ok(kind, v):
    if v is None:
        return True
    if isinstance(kind, dict):
        return isinstance(v, dict)
    if kind == _N:
        return is_num(v)
    if kind == _S:
        return isinstance(v, str)
    if kind == _B:
        return isinstance(v, bool)
    if kind == _LN:
        return isinstance(v, list) and all(is_num(x) for x in v)
    if kind == _L:
        return isinstance(v, list)
    if kind == _D:
        return isinstance(v, dict)
    if kind == _LD:
        return isinstance(v, list) and all(isinstance(x, dict) for x in v)
    return True


_KIND_NAMES = {_N: "a number", _S: "a string", _B: "true or false", _LN: "a list of numbers",
               _L: "a list", _D: "an object", _LD: "a list of objects"}


def _short(v, n=40):
    s = json.dumps(v) if not isinstance(v, str) else repr(v)
    return s if len(s) <= n else s[:n - 3] + "..."


def _has_surrogate(s):
    return any(0xD800 <= ord(ch) <= 0xDFFF for ch in s)


def _clean_text(s):
    return "".join("\ufffd" if 0xD800 <= ord(ch) <= 0xDFFF else ch for ch in s)


def sanitize(v, where, warn, depth=0):
    """The value with every lone surrogate (a "\\ud800" escape, which no
    output encoding accepts) replaced by U+FFFD, warned with its field;
    raises ValueError when nested deeper than MAX_DEPTH."""
    if depth > MAX_DEPTH:
        raise ValueError("nested deeper than %d levels" % MAX_DEPTH)
    if isinstance(v, str):
        if _has_surrogate(v):
            warn("%s: a lone surrogate (\\ud800-\\udfff) in the text, replaced by U+FFFD"
                 % where)
            return _clean_text(v)
        return v
    if isinstance(v, list):
        return [sanitize(x, "%s[%d]" % (where, i), warn, depth + 1) for i, x in enumerate(v)]
    if isinstance(v, dict):
        out = {}
        for k, x in v.items():
            if _has_surrogate(k):
                warn("%s: a lone surrogate in a field name, replaced by U+FFFD" % where)
                k = _clean_text(k)
            out[k] = sanitize(x, "%s.%s" % (where, k), warn, depth + 1)
        return out
    return v


def _check_fields(rec, schema, where, warn):
    """Set every field of the wrong kind to None (warned); recurse into objects."""
    for key, kind in schema.items():
        if key not in rec:
            continue
        v = rec[key]
        if not _kind_ok(kind, v):
            name = "an object" if isinstance(kind, dict) else _KIND_NAMES[kind]
            warn("%s: field %r is %s, not %s; treated as missing" % (where, key, _short(v), name))
            rec[key] = None
        elif isinstance(kind, dict) and isinstance(v, dict):
            _check_fields(v, kind, "%s.%s" % (where, key), warn)


def validate(rec, warn):
    """Check a decoded record in place; returns False when it cannot be used."""
    t = rec.get("type")
    if not isinstance(t, str) or not t:
        warn("record without a \"type\" string, skipped")
        return False
    schema = SCHEMA.get(t)
    if schema:
        _check_fields(rec, schema, t + " record", warn)
    if t in WORKLOAD_TYPES and not isinstance(rec.get("workload"), str):
        warn("%s record without a workload name, skipped" % t)
        return False
    par = PARALLEL.get(t)
    if par:
        lists = [rec.get(k) for k in par if isinstance(rec.get(k), list)]
        if lists and len({len(x) for x in lists}) > 1:
            n = min(len(x) for x in lists)
            warn("%s record: lists %s have different lengths; cut to %d points"
                 % (t, "/".join(par), n))
            for k in par:
                if isinstance(rec.get(k), list):
                    rec[k] = rec[k][:n]
    return True


class Run:
    """The records of one run (board record to done record), in order."""

    def __init__(self, path, index):
        self.path = path
        self.index = index          # 1-based position in its file
        self.records = []
        self.lines = []             # line number of each record
        self.by_type = {}
        self.workloads = {}         # name -> {type: record}, in order of appearance
        self.ended_by = None        # "done", "exception", "session" (the session's
        #                             next run_start) or None (cut short)
        self.inherited = {}         # type -> the session's record before this run

    # --- building --------------------------------------------------------
    def add(self, rec, line):
        self.records.append(rec)
        self.lines.append(line)
        t = rec["type"]
        self.by_type.setdefault(t, []).append(rec)
        if t in WORKLOAD_TYPES:
            self.workloads.setdefault(rec["workload"], {})[t] = rec
        if t in END_TYPES:
            self.ended_by = t

    # --- reading ---------------------------------------------------------
    @property
    def first_line(self):
        return self.lines[0] if self.lines else 0

    @property
    def last_line(self):
        return self.lines[-1] if self.lines else 0

    def all(self, t):
        return self.by_type.get(t, [])

    def one(self, t):
        """The last record of type t (for a later run of a session, the
        session's set-up record before it), or None."""
        v = self.by_type.get(t)
        return v[-1] if v else self.inherited.get(t)

    def measured(self):
        """True when the run holds a measurement (not only the session's set-up)."""
        return any(t in MEASURE_TYPES for t in self.by_type)

    def done(self):
        return self.one("done")

    def board(self):
        return self.one("board")

    @property
    def emulated(self):
        """True when the board (or any record) says the run was under QEMU."""
        b = self.board()
        if b and b.get("emulated") is True:
            return True
        return any(r.get("emulated") is True for r in self.records)

    @property
    def simulated(self):
        """True when the board (or any record) says the run was on the
        simulator (build/host/sdbsim): no card at all."""
        b = self.board()
        if b and b.get("simulated") is True:
            return True
        return any(r.get("simulated") is True for r in self.records)

    @property
    def finished(self):
        return self.ended_by in ("done", "session")

    @property
    def error_count(self):
        d = self.by_type.get("done")
        n = d[-1].get("errors") if d else None
        return int(n) if is_num(n) else len(self.all("error"))

    def ok(self):
        """The run ended normally and reported no errors."""
        return self.finished and self.error_count == 0

    def result_workloads(self):
        """Workload names that have a result record, in order."""
        return [n for n, w in self.workloads.items() if "result" in w]

    def describe(self):
        return "run %d (lines %d-%d)" % (self.index, self.first_line, self.last_line)


class LogFile:
    """A console log read into runs; warnings are (line, text)."""

    def __init__(self, path):
        self.path = path
        self.runs = []
        self.warnings = []
        self.lines = 0
        self.bad_lines = 0          # lines with a record that could not be used

    def warn(self, line, text):
        self.warnings.append((line, text))

    def selected(self, which=None):
        """The run to report: which (1-based, negative from the end) or the last."""
        if not self.runs:
            return None
        if which is None:
            return self.runs[-1]
        i = which - 1 if which > 0 else which
        if -len(self.runs) <= i < len(self.runs):
            return self.runs[i]
        return None


def split_lines(text):
    """Lines of a console capture: LF or CR LF ends; a file with CR ends only
    (some terminal loggers) is split on CR."""
    if "\n" not in text and text.count("\r") > 1:
        return text.split("\r")
    return text.split("\n")


def _records_in_line(line):
    """Yield (column, object or None, problem) for every "@ {" in a line."""
    dec = json.JSONDecoder()
    pos = line.find("@ {")
    while pos >= 0:
        nxt = line.find("@ {", pos + 2)
        try:
            obj, end = dec.raw_decode(line, pos + 2)
        except (ValueError, RecursionError):
            # (RecursionError: brackets nested deeper than the decoder goes)
            # Cut short: by the line end, or by the next record whose
            # line end was lost.
            yield pos, None, "cut" if nxt < 0 else "cut-by-next"
            pos = nxt
            continue
        rest = line[end:]
        j = rest.find("@ {")
        tail = rest if j < 0 else rest[:j]
        yield pos, obj, "trailing" if tail.strip() else None
        pos = end + j if j >= 0 else -1


_LOST_SPACE = re.compile(r'@\{"type"')
_LOST_AT = re.compile(r'^(\r*) ?\{"type"\s*:')


def repair_line(line):
    """A record line that lost one byte on the serial link: "@{" (the
    space) or a line starting with {"type": (the "@"). Returns the line
    with the marker restored and what was repaired, or (line, None)."""
    if _LOST_SPACE.search(line):
        return _LOST_SPACE.sub('@ {"type"', line), "the space after '@' was lost"
    m = _LOST_AT.match(line)
    if m and "@ {" not in line:
        return m.group(1) + "@ " + line[m.end(1):].lstrip(" "), "the '@' was lost"
    return line, None


def _printable_prefix(s):
    """True when the text before a record is only line-start debris
    (spaces, CR, a progress line the firmware overwrote with CR)."""
    return s.strip() == "" or s.endswith("\r")


def _new_run(log, path):
    r = Run(path, len(log.runs) + 1)
    log.runs.append(r)
    return r


def _line_records(log, n, line):
    """The records of log line n that can be used; what is wrong with the
    line is warned about and counted."""
    after_cut = False
    for col, obj, problem in _records_in_line(line):
        if obj is None:
            log.bad_lines += 1
            after_cut = True
            if problem == "cut-by-next":
                log.warn(n, "record cut short by the next record (a lost line end) "
                            "skipped: %s" % _short(line[col:], 60))
            else:
                log.warn(n, "garbled or truncated record skipped: %s"
                         % _short(line[col:], 60))
            continue
        if col > 0 and not after_cut and not _printable_prefix(line[:col]):
            log.warn(n, "noise before the record ignored: %s" % _short(line[:col]))
        if problem == "trailing":
            log.warn(n, "text after the record ignored")
        if not isinstance(obj, dict):
            log.bad_lines += 1
            log.warn(n, "record is not a JSON object, skipped")
            continue
        try:
            obj = sanitize(obj, "record", lambda msg, n=n: log.warn(n, msg))
        except ValueError as e:
            log.bad_lines += 1
            log.warn(n, "record %s, skipped" % e)
            continue
        if not validate(obj, lambda msg, n=n: log.warn(n, msg)):
            log.bad_lines += 1
            continue
        yield obj


def _run_of(log, cur, t, n, path):
    """The run a record of type t on line n belongs to: the current one, or
    a new one when this record starts another run (warned about when the
    current one did not end)."""
    if t == "run_start" and cur is not None and not cur.ended_by and cur.measured():
        # the next run of the same session (console, end = repeat)
        prev = cur
        prev.ended_by = "session"
        cur = _new_run(log, path)
        cur.inherited = {k: prev.one(k) for k in SESSION_TYPES if prev.one(k)}
    if cur is None:
        cur = _new_run(log, path)
        if t != "board":
            log.warn(n, "the log starts in the middle of a run (no board record "
                        "before this %s record)" % t)
    elif t == "board" and cur.records:
        if not cur.ended_by:
            log.warn(n, "a new run starts here (board record) but %s never ended: "
                        "the board restarted" % cur.describe())
        cur = _new_run(log, path)
    elif cur.ended_by:
        log.warn(n, "%s record after the end of %s: a new run whose first lines "
                    "are missing" % (t, cur.describe()))
        cur = _new_run(log, path)
    elif t in ONCE_TYPES and t in cur.by_type:
        log.warn(n, "second %s record in %s: the board restarted (its board record "
                    "is missing)" % (t, cur.describe()))
        cur = _new_run(log, path)
    return cur


def read_text(text, path="<log>"):
    log = LogFile(path)
    cur = None
    lines = split_lines(text)
    log.lines = len(lines)
    for n, raw in enumerate(lines, 1):
        line = raw.rstrip("\r")
        line, lost = repair_line(line)
        if lost:
            log.warn(n, "a record marker with a lost byte (%s): read as a record" % lost)
        if "@ {" not in line:
            if "@ " in line and line.lstrip("\r").startswith("@ "):
                log.warn(n, "record line without a JSON object skipped: %s" % _short(line))
                log.bad_lines += 1
            continue
        for obj in _line_records(log, n, line):
            cur = _run_of(log, cur, obj["type"], n, path)
            cur.add(obj, n)
    for r in log.runs:
        if not r.ended_by:
            last = r.records[-1]
            wl = last.get("workload")
            what = last["type"] + (" " + wl if isinstance(wl, str) else "")
            log.warn(r.last_line, "%s was cut short: no done record after its last record "
                                  "(%s)" % (r.describe(), what))
    return log


def read_log(path):
    """Read a console log file (any bytes), or SDBENCH.LOG from a card (up to
    its written end, resultsfile.py); raises OSError when unreadable."""
    with open(path, "rb") as f:
        data = f.read()
    kind, data = resultsfile.classify(data)
    log = read_text(data.decode("utf-8", errors="replace"), path)
    if kind == "fresh":
        log.warn(1, "%s is a results file that sdbench has not written yet (it still "
                    "holds the pattern it was made with): no run wrote it, or the run "
                    "refused it (its console says why). make run-image boots a copy of "
                    "the image and writes the copy, build/qemu/sd-MACHINE.img (named at "
                    "the end of the run): read SDBENCH.LOG from there "
                    "(docs/results-file.md)" % os.path.basename(path))
    return log
