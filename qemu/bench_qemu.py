#!/usr/bin/python3
"""bench_qemu.py - what a read or write request costs the CPU, in guest
instructions (`make bench-qemu`).

Boots build/kernel.img (and build/kernel8.img on raspi3b) under QEMU with
-icount shift=0,sleep=off, where every guest instruction is 1 ns of guest
time and the SD controller models answer without delay, with
"suite = hostcost" in sdbench.txt. The firmware times each request size
with its own clock over many requests (bench/workloads/hostcost.c) and
prints "overhead" and "hostcost" records (docs/records.md); this script
only collects them into one table: per machine, image, data path (every
path the host offers: the rows follow host->data_paths), direction (reads,
then writes into the test area of the image) and request size, the
instructions per whole request, per 512-byte block, of the card layer and
host driver alone, what the engine adds per operation, and what actually
moved the data (the DMA path moves small requests by PIO: "moved by").
The targets apply to reads.

  --markdown        print the table as Markdown
  --doc FILE        rewrite the table between the markers in FILE
                    (docs/request-cost.md)

Environment: SDB_QEMU (which QEMU, see tests/qemu/harness.py),
BENCH_QEMU_MACHINES = comma-separated MACHINE[:kernel8][@HOST] (HOST: the
sdbench.txt "host" key, e.g. sdhost; default the board's usual controller;
default list raspi0,raspi2b,raspi3b,raspi3b:kernel8,raspi0@sdhost,
raspi2b@sdhost,raspi3b:kernel8@sdhost).
"""
import argparse
import os
import sys
import tempfile
import time

ROOT = os.path.abspath(os.path.join(os.path.dirname(__file__), ".."))
sys.path.insert(0, os.path.join(ROOT, "tests", "qemu"))
import harness  # noqa: E402
import doctable  # noqa: E402

DEFAULT = ("raspi0,raspi2b,raspi3b,raspi3b:kernel8,"
           "raspi0@sdhost,raspi2b@sdhost,raspi3b:kernel8@sdhost")
# The targets of the request path (instructions).
TARGET_SINGLE = 1000      # a whole single-block read request
TARGET_BLOCK = 250        # per block, requests of 64 KiB and more
BEGIN = "<!-- bench-qemu table begin -->"
END = "<!-- bench-qemu table end -->"


def size_name(nbytes):
    if nbytes >= 1 << 20:
        return "%d MiB" % (nbytes >> 20)
    if nbytes >= 1 << 10:
        return "%d KiB" % (nbytes >> 10)
    return "%d B" % nbytes


def run_one(spec):
    spec_m, _, host = spec.partition("@")
    machine, _, image = spec_m.partition(":")
    kernel = harness.KERNEL8 if image == "kernel8" else harness.KERNEL
    keys = ["suite = hostcost", "seed = 1"] + (["host = " + host] if host else [])
    with tempfile.TemporaryDirectory() as td:
        img = harness.make_image(os.path.join(td, "sd.img"), "256M", kernel=kernel,
                                 sdbench=keys)
        t0 = time.time()
        run = harness.boot(machine, img, kernel=kernel,
                           extra=["-icount", "shift=0,sleep=off"], timeout=900)
        wall = time.time() - t0
    if run.timed_out or run.status != 0:
        raise SystemExit("bench-qemu: %s did not finish cleanly (status %s):\n%s"
                         % (spec, run.status, run.console[-3000:]))
    if run.sd_guest_errors():
        raise SystemExit("bench-qemu: %s: SD guest errors:\n%s"
                         % (spec, "\n".join(run.sd_guest_errors())))
    over = run.one("overhead")
    rows = run.of_type("hostcost")
    if not rows or any("error" in r for r in rows):
        raise SystemExit("bench-qemu: %s: no valid hostcost records:\n%s"
                         % (spec, run.console[-3000:]))
    hosts = run.of_type("host")
    skipped = [r["reason"] for r in run.of_type("skipped") if r["workload"] == "hostcost-write"]
    return dict(machine=machine, image=os.path.basename(kernel), overhead=over,
                rows=rows, wall=wall, host=hosts[-1]["name"] if hosts else "?",
                skipped=skipped)


def check(r):
    if r.get("op", "read") != "read":
        return ""
    if r["blocks"] == 1:
        return "ok" if r["request_ns"] <= TARGET_SINGLE else "over"
    if r["xfer_bytes"] >= 65536:
        return "ok" if r["block_ns"] <= TARGET_BLOCK else "over"
    return ""


def step(r):
    """The clock's step per request (older records lack it): each figure is
    within it, the engine's part (a difference) within twice it."""
    res = r.get("resolution_ns")
    if res is None:
        return "?"
    return "+-%.1f%s" % (res, " coarse" if r.get("below_resolution") else "")


def format_rows(head, lines, markdown, numeric):
    """The table's lines: Markdown, or columns padded to their widest cell
    with the columns numeric(i) says hold numbers right-aligned."""
    out = []
    if markdown:
        out.append("| " + " | ".join(head) + " |")
        out.append("|" + "|".join("---" for _ in head) + "|")
        out += ["| " + " | ".join(l) + " |" for l in lines]
    else:
        w = [max(len(h), *(len(l[i]) for l in lines)) for i, h in enumerate(head)]
        out.append("  ".join(h.ljust(w[i]) for i, h in enumerate(head)))
        out += ["  ".join(c.rjust(w[i]) if numeric(i) else c.ljust(w[i])
                          for i, c in enumerate(l))
                for l in lines]
    return out


def table(results, markdown):
    head = ["machine", "image", "host", "path", "op", "request", "instr/request",
            "instr/block", "driver instr/request", "engine instr/op", "moved by", "target",
            "clock step"]
    lines = []
    for res in results:
        for r in res["rows"]:
            lines.append([res["machine"], res["image"], res["host"], r["path"], r["op"],
                          size_name(r["xfer_bytes"]),
                          "%.0f" % r["request_ns"], "%.1f" % r["block_ns"],
                          "%.0f" % r["driver_request_ns"], "%.0f" % r["engine_ns"],
                          r["moved_by"], check(r), step(r)])
    out = format_rows(head, lines, markdown, lambda i: 6 <= i <= 9)
    out.append("")
    books = ", ".join("%s %s %s: %s ns (%s)" % (r["machine"], r["image"], r["host"],
                                            r["overhead"]["bookkeeping_ns_per_op"],
                                            r["overhead"]["timer"]) for r in results)
    out.append("engine bookkeeping per operation (overhead record, bookkeeping_ns_per_op): "
               + books)
    for r in results:
        for why in r["skipped"]:
            out.append("%s %s %s: write rows skipped: %s" % (r["machine"], r["image"],
                                                            r["host"], why))
    out.append("clock step: the timer's resolution over the requests timed together; "
               "instr/request and driver instr/request are within it, engine instr/op "
               "within twice it; coarse: it moves a figure of the row by more than 10%")
    out.append("targets (reads): a whole single-block read <= %d instructions, <= %d per "
               "block at 64 KiB and above" % (TARGET_SINGLE, TARGET_BLOCK))
    return "\n".join(out)


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--markdown", action="store_true")
    ap.add_argument("--doc")
    a = ap.parse_args()
    specs = [s for s in os.environ.get("BENCH_QEMU_MACHINES", DEFAULT).split(",") if s]
    results = []
    for spec in specs:
        res = run_one(spec)
        print("bench-qemu: %s %s %s: %d rows, %.0f s" % (res["machine"], res["image"],
                                                         res["host"], len(res["rows"]),
                                                         res["wall"]),
              file=sys.stderr)
        results.append(res)
    ver = harness.describe()
    text = table(results, a.markdown or bool(a.doc))
    print("hostcost: instructions per request under %s, -icount shift=0,sleep=off" % ver)
    print(text)
    if a.doc:
        doctable.rewrite(a.doc, BEGIN, END,
                         "Output of `make bench-qemu DOC=%s` under %s:" % (a.doc, ver), text)
        print("bench-qemu: rewrote the table in %s" % a.doc, file=sys.stderr)


if __name__ == "__main__":
    main()
