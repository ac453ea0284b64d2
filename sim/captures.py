#!/usr/bin/python3
"""Real SD-mode wire captures as a check on the simulator and the firmware.

Reads the public sigrok-dumps logic-analyzer captures of real cards in SD
mode (sdcard/sd_mode/*/*.sr), decodes the CMD line with sigrok-cli's
sdcard_sd decoder, and prints, side by side:

  - what the real card did: N_CR (command end bit to response start bit),
    N_ID (the same for CMD2 and ACMD41), N_RC (response end bit to the next
    command's start bit) and the response lengths (R2 136 bits, R3 48);
  - what the simulator does, read from its own source (sim/) as it defines
    it, and the SD Physical Layer Simplified Specification's allowed range
    (Part 1, §4.12 Timing, its Timing Values table: N_CR 2..64, N_ID 5,
    N_RC >= 8, N_CC >= 8 clocks; §4.9 "Responses": R2 136 bits, R1/R3/R6/R7 48);
  - how long the card answered ACMD41 "busy" after the first ACMD41 against
    the firmware's ACMD41 deadline (drivers/sd/sd.c);
  - the CID and CSD from the R2 responses' bits and the SCR / SSR from the
    data blocks on DAT0-3 (sampled here at the rising CLK edges and checked
    with their CRC16), each run through the register decoder build/host/sdreg.

Clock counts are rising CLK edges counted in the raw samples (the .sr file
is a zip of little-endian sample words), not times divided by a period:
a host may stop the clock between tokens.

The measurement owns no simulator or firmware constant: the values it
compares with are read from the source text and printed as found (or as
"not found").

Usage: captures.py [DIR] [--json]   DIR defaults to $SDB_SIGROK_DUMPS or
build/sigrok-dumps (a sigrok-dumps checkout or any directory of .sr files).
"""
import configparser
import glob
import json
import os
import re
import shutil
import statistics
import subprocess
import sys
import zipfile

import numpy

ROOT = os.path.abspath(os.path.join(os.path.dirname(__file__), ".."))
DEFAULT_DIR = os.path.join(ROOT, "build", "sigrok-dumps")
SDREG = os.path.join(ROOT, "build", "host", "sdreg")

# SD Physical Layer Simplified Specification, Part 1, §4.12 Timing (Timing
# Values table; "the card response ... starts after exactly N_ID clock cycles").
SPEC = {"N_CR": (2, 64), "N_ID": (5, 5), "N_RC": (8, None), "N_CC": (8, None)}


# ---- the capture file ------------------------------------------------------

class Capture:
    """Random access to one .sr file's samples (sigrok session format: a
    zip with 'metadata' and chunks '<capturefile>-1', '-2', ...; each sample
    is `unitsize` bytes, channel k in bit k%8 of byte k/8)."""

    def __init__(self, path):
        self.path = path
        self.zip = zipfile.ZipFile(path)
        meta = configparser.ConfigParser()
        meta.read_string(self.zip.read("metadata").decode())
        dev = meta["device 1"]
        self.rate = parse_rate(dev["samplerate"])
        self.unit = int(dev["unitsize"])
        self.chan = {}
        for key, name in dev.items():
            m = re.fullmatch(r"probe(\d+)", key)
            if m:
                self.chan[name] = int(m.group(1)) - 1
        prefix = dev["capturefile"] + "-"
        names = [n for n in self.zip.namelist() if n.startswith(prefix)]
        names.sort(key=lambda n: int(n[len(prefix):]))
        self.chunks, start = [], 0
        for n in names:
            count = self.zip.getinfo(n).file_size // self.unit
            self.chunks.append((start, start + count, n))
            start += count
        self.total = start

    def words(self, a, b):
        """Sample words a..b-1."""
        parts = []
        for s, e, n in self.chunks:
            if e <= a or s >= b:
                continue
            w = numpy.frombuffer(self.zip.read(n), dtype=numpy.uint8)
            w = w.reshape(-1, self.unit)
            parts.append(w[max(a, s) - s:min(b, e) - s])
        if not parts:
            return numpy.zeros((0, self.unit), numpy.uint8)
        return numpy.concatenate(parts)

    def line(self, w, name):
        """One channel of sample words (bytes, little-endian)."""
        ch = self.chan[name]
        return ((w[:, ch // 8] >> (ch % 8)) & 1).astype(numpy.int8)

    def rising(self, a, b):
        """Sample numbers of the rising CLK edges in a..b-1."""
        lo = max(a - 1, 0)
        clk = self.line(self.words(lo, b), "CLK")
        idx = numpy.nonzero((clk[1:] == 1) & (clk[:-1] == 0))[0] + 1 + lo
        return idx[idx >= a]


def parse_rate(text):
    m = re.fullmatch(r"\s*([\d.]+)\s*([kMG]?)Hz\s*", text)
    return float(m.group(1)) * {"": 1, "k": 1e3, "M": 1e6, "G": 1e9}[m.group(2)]


# ---- the CMD line, decoded by sigrok-cli -----------------------------------

def sigrok_tokens(cap):
    """Tokens on CMD as sigrok-cli's sdcard_sd decoder delimits them: each a
    list of (first sample, bit) for its bits, in order."""
    pins = ["cmd=CMD", "clk=CLK"] + ["dat%d=DAT%d" % (i, i) for i in range(4)
                                     if "DAT%d" % i in cap.chan]
    out = subprocess.run(
        ["sigrok-cli", "-i", cap.path, "-P", "sdcard_sd:" + ":".join(pins),
         "--protocol-decoder-samplenum"],
        check=True, capture_output=True, text=True).stdout
    tokens, bits = [], []
    for ln in out.splitlines():
        m = re.match(r"(\d+)-(\d+) sdcard_sd-1: (.*)$", ln)
        if not m:
            continue
        text = m.group(3)
        if text in ("0", "1"):
            bits.append((int(m.group(1)), int(text)))
        elif text == "Start bit":
            # The decoder puts a token's bits before its "Start bit".
            tokens.append(bits)
            bits = []
    return tokens


def crc7(bits):
    crc = 0
    for b in bits:
        fb = ((crc >> 6) & 1) ^ b
        crc = (crc << 1) & 0x7F
        if fb:
            crc ^= 0x09
    return crc


def crc16(bits):
    crc = 0
    for b in bits:
        fb = ((crc >> 15) & 1) ^ b
        crc = (crc << 1) & 0xFFFF
        if fb:
            crc ^= 0x1021
    return crc


def to_int(bits):
    v = 0
    for b in bits:
        v = (v << 1) | b
    return v


def classify(tokens):
    """Commands and responses with their checks passed (CRC7, end bit,
    lengths); garbage the decoder found at clocks the capture cannot resolve
    is dropped. Each: dict(kind, index, app, arg, bits, t0, tend)."""
    out, app = [], False
    for tok in tokens:
        bits = [b for _, b in tok]
        n = len(bits)
        if n not in (48, 136) or bits[0] != 0 or bits[-1] != 1:
            continue
        rec = {"t0": tok[0][0], "tend": tok[-1][0], "bits": bits, "len": n}
        if bits[1] == 1 and n == 48:
            if crc7(bits[:40]) != to_int(bits[40:47]):
                continue
            rec.update(kind="cmd", index=to_int(bits[2:8]), app=app,
                       arg=to_int(bits[8:40]))
            app = rec["index"] == 55
        elif bits[1] == 0 and n == 136:
            reg = bits[8:136]
            if to_int(bits[2:8]) != 63 or crc7(reg[:120]) != to_int(reg[120:127]):
                continue
            rec.update(kind="r2", reg=to_int(reg))
        elif bits[1] == 0:
            r3 = to_int(bits[2:8]) == 63 and to_int(bits[40:47]) == 127
            if not r3 and crc7(bits[:40]) != to_int(bits[40:47]):
                continue
            rec.update(kind="r3" if r3 else "r48", index=to_int(bits[2:8]),
                       arg=to_int(bits[8:40]))
        else:
            continue
        out.append(rec)
    return out


def name(c):
    return ("ACMD%d" if c["app"] else "CMD%d") % c["index"]


# ---- timing ----------------------------------------------------------------

def edges_between(cap, a, b):
    """Rising CLK edges strictly between the edges that sampled two bits
    (counted a block of samples at a time: gaps can last seconds)."""
    step, n = 1 << 22, 0
    for lo in range(a + 1, b, step):
        n += len(cap.rising(lo, min(lo + step, b)))
    return n


def timing(cap, toks):
    """N_CR / N_ID per command-response pair, N_RC after each response,
    N_CC after each command without one, and the response lengths."""
    m = {"N_CR": [], "N_ID": [], "N_RC": [], "N_CC": [], "R2": [], "R3": []}
    prev = None
    for t in toks:
        if t["kind"] == "cmd":
            if prev is not None and prev["kind"] != "cmd":
                m["N_RC"].append(edges_between(cap, prev["tend"], t["t0"]))
            elif prev is not None:
                m["N_CC"].append(edges_between(cap, prev["tend"], t["t0"]))
        elif prev is not None and prev["kind"] == "cmd":
            ident = (prev["index"] == 2 and not prev["app"]) or \
                    (prev["index"] == 41 and prev["app"])
            m["N_ID" if ident else "N_CR"].append(
                edges_between(cap, prev["tend"], t["t0"]))
            if t["kind"] == "r2":
                m["R2"].append(t["len"])
            elif t["kind"] == "r3":
                m["R3"].append(t["len"])
        prev = t
    return m


def acmd41_busy(cap, toks):
    """Per power-up (a CMD0 starts one): from the first ACMD41's start bit to
    the end bit of the first R3 with the busy bit (OCR bit 31) set."""
    runs, first, polls = [], None, 0
    for i, t in enumerate(toks):
        if t["kind"] == "cmd" and t["index"] == 0:
            first, polls = None, 0
        elif t["kind"] == "cmd" and t["app"] and t["index"] == 41:
            polls += 1
            if first is None:
                first = t["t0"]
        elif t["kind"] == "r3" and first is not None and t["arg"] >> 31:
            runs.append({"ms": (t["tend"] - first) / cap.rate * 1e3,
                         "at_s": first / cap.rate, "polls": polls,
                         "ocr": t["arg"]})
            first, polls = None, 0
    return runs


# ---- data blocks on DAT0-3 ---------------------------------------------------

def data_block(cap, after, nbits, width):
    """The first read data block after sample `after`: nbits of data, 4-bit
    or 1-bit bus, sampled at the rising CLK edges, each line's CRC16 and end
    bit checked (SD Physical Layer §4.5: on a 4-bit bus each line carries its
    own CRC16). Returns an integer, or None when no good block is found."""
    lines = ["DAT%d" % i for i in range(width)]
    if any(x not in cap.chan for x in lines):
        return None
    # Twice the read timeout a host must allow (100 ms, SD Physical Layer
    # §4.6.2.1): a block that starts later is not looked for.
    span = int(cap.rate * 0.2)
    w = cap.words(after, min(after + span, cap.total))
    clk = cap.line(w, "CLK")
    edges = numpy.nonzero((clk[1:] == 1) & (clk[:-1] == 0))[0] + 1
    dat = numpy.array([cap.line(w, x)[edges] for x in lines])
    low = numpy.nonzero((dat == 0).all(axis=0))[0]
    if not len(low):
        return None
    s = low[0] + 1
    per = nbits // width
    if s + per + 17 > dat.shape[1]:
        return None
    for k in range(width):
        body = dat[k, s:s + per + 16].tolist()
        if crc16(body[:per]) != to_int(body[per:]) or dat[k, s + per + 16] != 1:
            return None
    v = 0
    for j in range(s, s + per):
        for k in range(width - 1, -1, -1):
            v = (v << 1) | int(dat[k, j])
    return v


def registers(cap, toks):
    """CID / CSD from the R2 after CMD2 / CMD9 (the first of each), SCR after
    ACMD51 (64 bits) and SSR after ACMD13 (512 bits), bus width following
    ACMD6 (argument 2 = 4-bit; 1-bit after CMD0)."""
    regs, width, last = {}, 1, None
    for t in toks:
        if t["kind"] == "cmd":
            last = t
            if t["index"] == 0:
                width = 1
            continue
        if last is None:
            continue
        key = {(False, 2): "cid", (False, 9): "csd", (True, 51): "scr",
               (True, 13): "ssr", (True, 6): "width"}.get((last["app"], last["index"]))
        if key in ("cid", "csd") and t["kind"] == "r2" and key not in regs:
            regs[key] = "%032x" % t["reg"]
        elif key in ("scr", "ssr") and key not in regs:
            v = data_block(cap, last["tend"], 64 if key == "scr" else 512, width)
            regs[key] = None if v is None else ("%016x" if key == "scr" else "%0128x") % v
        elif key == "width":
            width = 4 if (last["arg"] & 3) == 2 else 1
        last = None
    return regs


def sdreg(regs):
    args = []
    for k in ("cid", "csd", "scr", "ssr"):
        if regs.get(k):
            args += ["--" + k, regs[k]]
    if not args or not os.access(SDREG, os.X_OK):
        return None
    r = subprocess.run([SDREG] + args, capture_output=True, text=True)
    return r.stdout + r.stderr


# ---- what the simulator and the firmware say --------------------------------

def grep(path, pattern, every=False):
    try:
        with open(os.path.join(ROOT, path)) as f:
            text = f.read()
    except OSError:
        return None
    if every:
        return re.findall(pattern, text)
    m = re.search(pattern, text)
    return m.group(1) if m else None


def model():
    """The simulator's and the firmware's values, read from their source."""
    prof = set()
    for p in glob.glob(os.path.join(ROOT, "sim", "profiles", "*.txt")):
        prof.update(int(x) for x in grep(p, r"(?m)^ncr_clocks\s*=\s*(\d+)", True))
    gen = grep("sim/sim_gen.c", r"ncr_clocks = \(uint16_t\)uni\(r, (\d+, \d+)\)")
    srcs = "".join(open(p).read() for p in glob.glob(os.path.join(ROOT, "sim", "*.c")))
    hosts = set()
    for p in glob.glob(os.path.join(ROOT, "sim", "hosts", "*.txt")):
        hosts.update(int(x) for x in grep(p, r"(?m)^cmd_gap_clocks\s*=\s*(\d+)", True))
    ncr = "ncr_clocks: profiles %s, generated %s" % (
        sorted(prof) or "not found", ("uni(%s)" % gen) if gen else "not found")
    return {
        "N_CR": ncr,
        "N_ID": (ncr + " (no N_ID of its own)") if not re.search(r"\bN_ID\b|nid_clock", srcs)
        else "see sim/ (N_ID modelled)",
        "N_RC": "cmd_gap_clocks >= W_NRC_MIN_CLOCKS = %s; hosts %s" % (
            grep("sim/sim_internal.h", r"#define W_NRC_MIN_CLOCKS (\d+)u") or "not found",
            sorted(hosts) or "not found"),
        "N_CC": "the same gap as N_RC",
        "R2": "W_R136_BITS = %s" % (grep("sim/sim_sdhci.h", r"#define W_R136_BITS\s+(\d+)u")
                                     or "not found"),
        "R3": "W_R48_BITS = %s" % (grep("sim/sim_sdhci.h", r"#define W_R48_BITS\s+(\d+)u")
                                    or "not found"),
        "ncr_gen": [int(x) for x in gen.split(",")] if gen else None,
        "acmd41_us": grep("drivers/sd/sd.c", r"#define SD_ACMD41_TIMEOUT_US (\d+)u"),
    }


# ---- report ------------------------------------------------------------------

def summary(vals):
    if not vals:
        return "-"
    if min(vals) == max(vals):
        return "%d (x%d)" % (vals[0], len(vals))
    return "%d..%d median %g (n=%d)" % (min(vals), max(vals),
                                          statistics.median(vals), len(vals))


def spec_text(key):
    if key in ("R2", "R3"):
        return {"R2": "136 bits", "R3": "48 bits"}[key]
    lo, hi = SPEC[key]
    return "%d..%d" % (lo, hi) if hi is not None and hi != lo else \
        ("%d" % lo if hi == lo else ">= %d" % lo)


def in_spec(key, vals):
    if key in ("R2", "R3"):
        want = 136 if key == "R2" else 48
        return all(v == want for v in vals)
    lo, hi = SPEC[key]
    return all(v >= lo and (hi is None or v <= hi) for v in vals)


def analyse(path):
    cap = Capture(path)
    if "CMD" not in cap.chan or "CLK" not in cap.chan:
        return {"file": path, "skipped": "no channels named CMD and CLK"}
    toks = classify(sigrok_tokens(cap))
    regs = registers(cap, toks)
    edges = cap.rising(0, min(cap.total, 1 << 20))
    clk_hz = cap.rate / statistics.median(numpy.diff(edges)) if len(edges) > 2 else 0.0
    return {"file": path, "rate_hz": cap.rate, "samples": cap.total, "clk_hz": clk_hz,
            "tokens": len(toks), "timing": timing(cap, toks),
            "acmd41": acmd41_busy(cap, toks), "regs": regs,
            "dat": "DAT0" in cap.chan}


def print_one(r, mdl, base):
    print("== %s" % os.path.relpath(r["file"], base))
    if "skipped" in r:
        print("   skipped: %s" % r["skipped"])
        return
    print("   %.0f MHz sampling, %d samples, %d tokens with good CRC7"
          % (r["rate_hz"] / 1e6, r["samples"], r["tokens"]))
    if not r["tokens"]:
        print("   nothing measured: CLK %.1f MHz at %.1f samples per clock "
              "(too few to place the bits)" % (r["clk_hz"] / 1e6, r["rate_hz"] / r["clk_hz"]))
    for key in ("N_CR", "N_ID", "N_RC", "N_CC", "R2", "R3"):
        vals = r["timing"][key]
        if not vals:
            continue
        print("   %-5s real %-28s spec %-9s %-7s sim %s" % (
            key, summary(vals), spec_text(key),
            "ok" if in_spec(key, vals) else "OUTSIDE", mdl[key]))
    dl = mdl["acmd41_us"]
    for a in r["acmd41"]:
        margin = "deadline not found" if dl is None else \
            "firmware deadline %.0f ms, margin %.0f ms (%.1fx)" % (
                int(dl) / 1e3, int(dl) / 1e3 - a["ms"], int(dl) / 1e3 / a["ms"])
        print("   ACMD41 at %.3f s: busy %.1f ms over %d polls (OCR 0x%08x); %s"
              % (a["at_s"], a["ms"], a["polls"], a["ocr"], margin))
    for k in ("cid", "csd", "scr", "ssr"):
        if k in r["regs"]:
            print("   %s %s" % (k.upper(), r["regs"][k] or "not decoded (%s)" % (
                "no DAT0 channel named in the capture" if not r["dat"] else
                "no data block with good CRC16 found")))
    out = sdreg(r["regs"])
    if out is not None:
        print("   sdreg:")
        for ln in out.rstrip().splitlines():
            print("     " + ln)
    elif any(r["regs"].values()):
        print("   sdreg: %s not built (make build/host/sdreg)" % SDREG)


def sd_mode_files(base):
    """The .sr files under a sd_mode directory (a sigrok-dumps checkout holds
    captures of many other buses); in a plain directory of .sr files, all."""
    every = sorted(glob.glob(os.path.join(base, "**", "*.sr"), recursive=True))
    sd = [p for p in every if "sd_mode" in os.path.relpath(p, base).split(os.sep)]
    return sd or every


def main(argv):
    want_json = "--json" in argv
    args = [a for a in argv if a != "--json"]
    base = args[0] if args else os.environ.get("SDB_SIGROK_DUMPS", DEFAULT_DIR)
    if not shutil.which("sigrok-cli"):
        print("captures: sigrok-cli not found; install it with "
              "'apt-get install sigrok-cli'", file=sys.stderr)
        return 2
    files = sd_mode_files(base)
    if not files:
        print("captures: no .sr files under %s; get them with\n"
              "  git clone https://github.com/sigrokproject/sigrok-dumps %s\n"
              "or set SDB_SIGROK_DUMPS (see docs/captures.md)" % (base, DEFAULT_DIR),
              file=sys.stderr)
        return 2
    mdl = model()
    res = [analyse(f) for f in files]
    if want_json:
        for r in res:
            r["file"] = os.path.relpath(r["file"], base)
            r.get("regs", {}).update(
                {"sdreg": sdreg(r.get("regs", {}))} if r.get("regs") else {})
        print(json.dumps({"model": mdl, "captures": res}))
        return 0
    shown = os.path.relpath(base, ROOT) if os.path.abspath(base).startswith(ROOT + os.sep) \
        else base
    print("SD-mode captures under %s; clocks are rising CLK edges counted in the samples"
          % shown)
    for r in res:
        print_one(r, mdl, base)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
