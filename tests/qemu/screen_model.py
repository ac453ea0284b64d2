"""What sdbench's screen (bench/screen.c) shows during and at the end of a
run, worked out on the host from the run's records and progress lines and
drawn with the same font
(build/gen/font8x16.bin, made by tools/psf2font.py), so a QEMU screendump
can be compared pixel for pixel: not OCR, and not the firmware's code.

The layout is docs/screen.md's: rows at twice the 8x16 font; 0 the board,
1 the card, 2 the test area, 3 the results file, 4 the running step (the
progress line as the serial console shows it) or the end, from row 6 the
finished workloads, at the end the verdict on the card's claims (the
headline record's "verdict" and "card"), the emulated mark and one row per
summary workload with its figure, its limit and a card / bus / host bar
from the workload's phases record. A field is the raw JSON text of the
first "key": in the record.
"""
import json
import os
import re

ROOT = os.path.abspath(os.path.join(os.path.dirname(__file__), "..", ".."))
FONT = os.path.join(ROOT, "build", "gen", "font8x16.bin")
SCALE = 2
CW, CH = 8 * SCALE, 16 * SCALE
# (summary key, label, IOPS or MB/s, the workload when the row names none)
SUMMARY = (("seq_read", "sequential read", False, None),
           ("seq_write", "sequential write", False, None),
           ("rand_read_4k", "random 4 KiB read", True, "rand-read-4k"),
           ("rand_write_4k", "random 4 KiB write", True, "rand-write-4k"),
           ("mix70_4k", "random 70/30 4 KiB", True, "mix70-4k"))
# docs/screen.md: the bars' colours (RGB) and cells; a bar cell is the
# character's cell in its colour, GAP pixels dark above and below.
BAR_CHARS = {"\x01": b"\xf0\xa0\x00", "\x02": b"\x40\xa0\xff", "\x03": b"\xff\x40\x60"}
BAR_CELLS = 20
GAP = 6


def bar(phases):
    """card, bus and host cells of a phases record: each share's whole per
    cent x 20 / 100, rounded down; none when it is not valid."""
    if not phases or field(phases, "valid") != "true":
        return ""
    out = ""
    for ch, key in zip("\x01\x02\x03", ("card_pct", "bus_pct", "host_pct")):
        v = field(phases, key)
        whole = min(int(v.split(".")[0] or 0), 100)
        out += ch * (whole * BAR_CELLS // 100)
    return out[:BAR_CELLS]


def field(rec, key):
    m = rec.find('"%s":' % key)
    if m < 0:
        return ""
    p = m + len(key) + 3
    out = []
    if rec[p:p + 1] == '"':
        p += 1
        while p < len(rec) and rec[p] != '"':
            if rec[p] == "\\" and p + 1 < len(rec):
                p += 1
            out.append(rec[p])
            p += 1
    else:
        while p < len(rec) and rec[p] not in ",}]":
            out.append(rec[p])
            p += 1
    return "".join(out)


# The engine's progress line (bench/engine/workload.c): the label padded to
# 28 (a longer one whole), the share done, the rate, the time left; nothing
# else on the line.
PROGRESS = re.compile(r"  .{28,}? (?: *\d+%  )? *\d+\.\d\d MB/s(?:  about \d+ s left)?$")


def events(console):
    """("record", text) and ("progress", text or None when it ended), in the
    order the firmware gave them to its screen: a progress line is a part of
    a line between CRs (lib/console.c redraws it in place) that has the
    engine's form; any other text, or the line's end, ends it. Only whole
    lines count as records."""
    out, open_ = [], False
    lines = console.split("\n")
    for i, line in enumerate(lines):
        segs = line.split("\r")
        for k, seg in enumerate(segs):
            if PROGRESS.match(seg.rstrip(" ")):
                out.append(("progress", seg.rstrip(" ")))
                open_ = True
            elif seg and open_ and (i < len(lines) - 1 or k < len(segs) - 1 or not seg.strip()):
                # (the console's last text may be a progress line still
                # being printed: not an end unless it is the blanking)
                out.append(("progress", None))
                open_ = False
        if i == len(lines) - 1:
            break
        if open_:
            out.append(("progress", None))
            open_ = False
        k = line.find("@ {")
        if k >= 0:
            out.append(("record", line[k + 2:].rstrip("\r")))
    return out


def records(console):
    """The raw text of every record, in order."""
    return [t for kind, t in events(console) if kind == "record"]


def progress_row(text):
    """Row 4 while a step runs: "> " and the progress line, its runs of
    spaces made one."""
    return "> " + re.sub(" +", " ", text.strip())


def wrap(text, cols):
    """Lines of at most cols, broken at the last space that fits."""
    out = []
    while len(text) > cols:
        k = cols
        while k > 0 and text[k] != " ":
            k -= 1
        if k == 0:
            k = cols
        out.append(text[:k])
        text = text[k + (1 if text[k] == " " else 0):]
    return out + [text]


def screen_rows(console, rows, cols=80):
    """The text of each row after the console's records and progress
    lines."""
    top = ["sdbench", "", "", "", "", ""]
    body, summary, helps = [], "", []
    claims, verdict, emulated, phases = "", "", False, {}
    writes_off_said = False

    def end_body():
        b = []
        if claims or verdict:
            b += wrap((verdict + ": " if verdict else "") + claims, cols)
        if emulated:
            b.append("EMULATED: timings are QEMU's")
        b.append("")
        b.append("  %-18s %15s  %-15s \x01 card \x02 bus \x03 host" % ("summary", "", "limit"))
        for key, label, iops, wl in SUMMARY:
            i = summary.find('"%s":{' % key)
            if i < 0:
                continue
            o = summary[i:]
            v = field(o, "verdict")
            cut = [i for i in (v.find(" - "), v.find(": ")) if i >= 0]
            v = v[:min(cut)] if cut else v
            b.append("  %-18s %10s %-4s  %-15s %s" % (
                label, field(o, "iops" if iops else "mbs"), "IOPS" if iops else "MB/s", v,
                bar(phases.get(wl or field(o, "workload")))))
        if helps:
            b.append("")
        for h in helps:
            b += wrap("would help: " + h, cols)
        return b

    for kind, rec in events(console):
        if kind == "progress":
            top[4] = progress_row(rec) if rec is not None else ""
            continue
        t = field(rec, "type")
        if t == "board":
            top[0] = "sdbench - " + field(rec, "model")
        elif t == "card":
            top[1] = "card: %s %s, %d MiB" % (field(rec, "manufacturer"), field(rec, "pnm"),
                                              int(field(rec, "capacity_bytes")) >> 20)
        elif t == "test_area":
            top[2] = ("test area: %d MiB, writes go only there" % (int(field(rec, "count")) >> 11)
                      if field(rec, "usable") == "true" else
                      "no test area: " + field(rec, "reason")[:160].split(" (")[0])
        elif t == "skipped" and not writes_off_said and \
                field(rec, "reason").startswith("writes are off"):
            top[2] = field(rec, "reason")[:160]
            writes_off_said = True
        elif t == "results_file":
            top[3] = "results file: SDBENCH.LOG" if field(rec, "usable") == "true" \
                else "results file: none"
        elif t == "result":
            body.append("%-26s %10s MB/s" % (field(rec, "workload"), field(rec, "mbs")))
        elif t == "verdict" and body and body[-1].startswith(field(rec, "workload") + " "):
            body[-1] += "  " + field(rec, "bottleneck")
        elif t == "phases":
            if field(rec, "workload") in phases or len(phases) < 96:
                phases[field(rec, "workload")] = rec
        elif t == "headline":
            claims, verdict = field(rec, "card")[:159], field(rec, "verdict")[:255]
            emulated = emulated or field(rec, "emulated") == "true"
            helps = [h[:199] for h in (json.loads(rec).get("help") or [])[:4]]
            if summary:
                body = end_body()
        elif t == "summary":
            summary = rec
            emulated = emulated or field(rec, "emulated") == "true"
            body = end_body()
        elif t == "suite":
            top[4] = "finished: %s suite in %d s" % (field(rec, "profile"),
                                                     int(field(rec, "elapsed_us")) // 1000000)
        elif t == "done":
            top[4] = "done: %s error(s)" % field(rec, "errors")
    fit = rows - len(top)
    return top + body[-fit:] + [""] * (fit - len(body[-fit:]))


def render(rows_text, width, height):
    """RGB bytes of the screen: white text on black, the bars' cells in
    their colours."""
    font = open(FONT, "rb").read()
    cols, rows = width // CW, height // CH
    img = bytearray(width * height * 3)
    for r, text in enumerate(rows_text[:rows]):
        for c, ch in enumerate(text[:cols]):
            if ch in BAR_CHARS:
                for y in range(GAP, CH - GAP):
                    base = ((r * CH + y) * width + c * CW) * 3
                    img[base:base + 3 * CW] = BAR_CHARS[ch] * CW
                continue
            o = ord(ch) if 0x20 <= ord(ch) <= 0x7E else ord("?")
            g = font[(o - 0x20) * 16:(o - 0x1F) * 16]
            for y in range(CH):
                bits = g[y // SCALE]
                if not bits:
                    continue
                base = ((r * CH + y) * width + c * CW) * 3
                for x in range(CW):
                    if bits & (0x80 >> (x // SCALE)):
                        img[base + 3 * x:base + 3 * x + 3] = b"\xff\xff\xff"
    return bytes(img)


def differing_rows(expected, got, width, height):
    """Text rows whose pixels differ."""
    out = []
    stride = width * 3 * CH
    for r in range(height // CH):
        if expected[r * stride:(r + 1) * stride] != got[r * stride:(r + 1) * stride]:
            out.append(r)
    return out
