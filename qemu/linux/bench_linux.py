#!/usr/bin/python3
"""bench_linux.py - what a read or write request costs through Linux,
next to what it costs through sdbench, on the same emulated controller
(`make bench-linux`).

Boots Debian's arm64 kernel (tools/fetch-linux-arm64.sh, cached in
build/linux) under QEMU with -icount shift=0,sleep=off and an initramfs
that runs `sdblinux --cost` (tools/sdblinux) on the card: the sizes of
sdbench's hostcost step (512 B, 4 KiB, 64 KiB, 4 MiB) read through
O_DIRECT, then written into the image's test area. With one CPU (nosmp)
that never idles during the run (the idle time of /proc/timer_list is
printed and must stay 0), CLOCK_MONOTONIC nanoseconds are guest
instructions of the whole stack: system call, block layer, MMC core,
host driver, interrupts and DMA callbacks. sdbench's own figures come
from the same boot of build/kernel8.img as `make bench-qemu`
(qemu/bench_qemu.py, suite = hostcost) on the same machine and
controller, on the data path Linux used (its driver says which: SDHOST
"DMA enabled", SDHCI "using PIO/DMA/ADMA").

  --markdown        print the table as Markdown
  --doc FILE        rewrite the table between the markers in FILE
                    (docs/linux-cost.md)

Environment: BENCH_LINUX = comma-separated MACHINE@CONTROLLER (default
raspi3b@sdhost,raspi3b@emmc,raspi4b@emmc2; raspi4b under a QEMU with
that machine, tools/fetch-qemu10.sh).
"""
import argparse
import os
import re
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
sys.path.insert(0, os.path.join(HERE, ".."))
import boot  # noqa: E402
import bench_qemu  # noqa: E402
import doctable  # noqa: E402
harness = boot.harness

DEFAULT = "raspi3b@sdhost,raspi3b@emmc,raspi4b@emmc2"
BEGIN = "<!-- bench-linux table begin -->"
END = "<!-- bench-linux table end -->"
# sdbench.txt's host key for each controller ("" = the board's usual one).
SDB_HOST = {"sdhost": "sdhost", "emmc": "", "emmc2": ""}


def qemu_flavour(machine):
    return "10" if machine in harness.PI4_MACHINES else "system"


def linux_path(console):
    """The data path Linux's driver reported for the card's controller."""
    if re.search(r"sdhost-bcm2835 .*DMA enabled", console):
        return "dma"
    m = re.search(r"mmc\d+: SDHCI controller on \S+ \[\S+\] using (\w+)", console)
    if m:
        return "pio" if m.group(1) == "PIO" else "dma"
    return "?"


def run_linux(machine, controller):
    with tempfile.TemporaryDirectory() as td:
        img = harness.make_image(os.path.join(td, "sd.img"), "256M", kernel=harness.KERNEL8,
                                 sdbench=["seed = 1"])
        t0 = time.time()
        run = boot.boot(machine, controller, img, ["--cost", "--emulated"], timeout=1500)
        wall = time.time() - t0
    done = run.of_type("done")
    if run.timed_out or not done or done[0]["errors"]:
        raise SystemExit("bench-linux: Linux on %s %s did not finish cleanly (status %s):\n%s"
                         % (machine, controller, run.status, run.console[-4000:]))
    if run.sd_guest_errors():
        raise SystemExit("bench-linux: Linux on %s %s: SD guest errors:\n%s"
                         % (machine, controller, "\n".join(run.sd_guest_errors())))
    if run.idle_ns != 0:
        # Idle time would count as instructions (sleep=off jumps the clock).
        raise SystemExit("bench-linux: Linux on %s %s: the CPU idled %s ns during sdblinux's "
                         "run: its nanoseconds are not instructions" % (
                             machine, controller, run.idle_ns))
    return dict(rows=run.of_type("hostcost"), skipped=run.of_type("skipped"),
                idle_ns=run.idle_ns, path=linux_path(run.console), wall=wall,
                kernel=run.one("board")["kernel"])


def run_sdbench(machine, controller):
    spec = "%s:kernel8%s" % (machine, "@" + SDB_HOST[controller] if SDB_HOST[controller] else "")
    return bench_qemu.run_one(spec)


def measure(spec):
    machine, _, controller = spec.partition("@")
    if (machine, controller) not in boot.CONTROLLERS:
        raise SystemExit("bench-linux: unknown MACHINE@CONTROLLER %r (known: %s)" % (
            spec, ", ".join("%s@%s" % k for k in boot.CONTROLLERS)))
    old = os.environ.get("SDB_QEMU")
    os.environ["SDB_QEMU"] = qemu_flavour(machine)
    try:
        res = dict(machine=machine, controller=controller, qemu=harness.describe())
        res["linux"] = run_linux(machine, controller)
        res["sdbench"] = run_sdbench(machine, controller)
    finally:
        if old is None:
            os.environ.pop("SDB_QEMU", None)
        else:
            os.environ["SDB_QEMU"] = old
    return res


def rows_of(res):
    """(op, bytes, linux row, sdbench row on Linux's data path or None)."""
    lx = res["linux"]
    sdb = {(r["op"], r["xfer_bytes"]): r for r in res["sdbench"]["rows"]
           if r["path"] == lx["path"] and "error" not in r}
    for r in lx["rows"]:
        if "error" in r:
            continue
        yield r["op"], r["xfer_bytes"], r, sdb.get((r["op"], r["xfer_bytes"]))


def table(results, markdown):
    head = ["machine", "controller", "path", "op", "request", "Linux instr/request",
            "Linux instr/block", "sdbench instr/request", "sdbench instr/block",
            "Linux - sdbench per request", "Linux / sdbench"]
    lines = []
    for res in results:
        for op, nbytes, lx, sd in rows_of(res):
            f = lambda v, d=0: ("%%.%df" % d) % v if v is not None else "-"  # noqa: E731
            sreq = sd["request_ns"] if sd else None
            lines.append([res["machine"], res["controller"], res["linux"]["path"], op,
                          bench_qemu.size_name(nbytes), f(lx["request_ns"]),
                          f(lx["block_ns"], 1), f(sreq), f(sd["block_ns"] if sd else None, 1),
                          f(lx["request_ns"] - sreq if sd else None),
                          f(lx["request_ns"] / sreq if sd else None, 1)])
    out = bench_qemu.format_rows(head, lines, markdown, lambda i: i >= 5)
    out.append("")
    for res in results:
        lx = res["linux"]
        out.append("%s %s: Linux %s under %s; CPU idle during sdblinux's run: %s ns; "
                   "boot %.0f s" % (res["machine"], res["controller"], lx["kernel"], res["qemu"],
                                    lx["idle_ns"] if lx["idle_ns"] is not None else "?",
                                    lx["wall"]))
        for s in lx["skipped"]:
            out.append("%s %s: Linux %s skipped: %s" % (res["machine"], res["controller"],
                                                       s["workload"], s["reason"]))
    return "\n".join(out)


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--markdown", action="store_true")
    ap.add_argument("--doc")
    a = ap.parse_args()
    try:
        boot.fetch()
    except boot.Unavailable as e:
        raise SystemExit("bench-linux: the arm64 kernel cannot be fetched here:\n%s" % e)
    results, notes = [], []
    for spec in [s for s in os.environ.get("BENCH_LINUX", DEFAULT).split(",") if s]:
        machine = spec.partition("@")[0]
        try:
            res = measure(spec)
        except (SystemExit, RuntimeError) as e:
            if machine not in harness.PI4_MACHINES:
                raise
            # The Pi 4 needs QEMU 9.0 or newer: say why it is missing.
            notes.append("%s: not measured: %s" % (spec, str(e).strip()[-600:]))
            print("bench-linux: %s" % notes[-1], file=sys.stderr)
            continue
        print("bench-linux: %s: Linux %.0f s, sdbench %.0f s" % (
            spec, res["linux"]["wall"], res["sdbench"]["wall"]), file=sys.stderr)
        results.append(res)
    text = table(results, a.markdown or bool(a.doc))
    if notes:
        text += "\n" + "\n".join(notes)
    print("instructions per request, Linux (sdblinux, O_DIRECT) and sdbench (hostcost), "
          "-icount shift=0,sleep=off")
    print(text)
    if a.doc:
        doctable.rewrite(a.doc, BEGIN, END, "Output of `make bench-linux DOC=%s`:" % a.doc, text)
        print("bench-linux: rewrote the table in %s" % a.doc, file=sys.stderr)


if __name__ == "__main__":
    main()
