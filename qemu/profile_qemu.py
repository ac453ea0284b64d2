#!/usr/bin/python3
"""profile_qemu.py - where the instructions of a read request go, per
function (the flat profile behind docs/request-cost.md).

Boots an image with "suite = hostcost" (as make bench-qemu does) under
QEMU with -d in_asm,exec,nochain, and counts from the log the guest
instructions each function executed while the hostcost step measured one
request size: first the loop through the card layer alone, then the same
requests through the engine (wl_begin .. wl_end), each divided by the
number of requests. Without -icount: there QEMU translates the blocks that
touch a device register again for every access, and the log would count
those twice. Guest time then follows the host, so time-dependent paths
(the series' interval changes, the progress line) run more often than
under make bench-qemu; the request path itself is the same.

  qemu/profile_qemu.py [--machine raspi0] [--kernel build/kernel.img]
                       [--size 0..3] [--func NAME]

--size: 0 = 1 block (default), 1 = 8, 2 = 128, 3 = 8192 (the hostcost
sizes, PIO path). --func NAME also prints NAME's translation blocks (start
address, executions per request, instructions). The log (about 100 MB) is
written to a temporary directory and removed afterwards.
"""
import argparse
import bisect
import collections
import os
import re
import subprocess
import sys
import tempfile
import time

ROOT = os.path.abspath(os.path.join(os.path.dirname(__file__), ".."))
sys.path.insert(0, os.path.join(ROOT, "tests", "qemu"))
import harness  # noqa: E402

SIZES = (1, 8, 128, 8192)
# Core 0 only: the others wait on the spin table (raspi3b, raspi4b).
TRACE = re.compile(r"Trace 0: \S+ \[[0-9a-f]+/([0-9a-f]+)/")


def requests_for(blocks):
    """As bench/workloads/hostcost.c."""
    return max(4, 2048 // blocks)


def symbols(elf):
    nm = "aarch64-linux-gnu-nm" if harness.is_aarch64_image(elf[:-4] + ".img") else \
        "arm-none-eabi-nm"
    syms = []
    out = subprocess.run([nm, "-n", elf], capture_output=True, text=True, check=True).stdout
    for line in out.splitlines():
        p = line.split()
        if len(p) == 3 and p[1] in "tTwW":
            syms.append((int(p[0], 16), p[2]))
    return syms


def run(machine, kernel, size, log, console, extra=()):
    """Boot until the hostcost record of the size after the one profiled
    is printed (the log then holds the whole of it), or the run ends."""
    img = harness.make_image(os.path.join(os.path.dirname(log), "sd.img"), "256M",
                             kernel=kernel, sdbench=["suite = hostcost", "seed = 1"] + list(extra))
    args = harness.qemu_command(machine, kernel) + [
        "-display", "none", "-monitor", "none", "-serial", "file:" + console,
        "-semihosting", "-d", "in_asm,exec,nochain", "-D", log] + \
        harness.card_options(machine, img)
    p = subprocess.Popen(args, stdin=subprocess.DEVNULL)
    t0 = time.time()
    try:
        while p.poll() is None and time.time() - t0 < 900:
            time.sleep(1)
            try:
                text = open(console, errors="replace").read()
            except OSError:
                continue
            if text.count('"type":"hostcost"') > size + 1:
                break
    finally:
        if p.poll() is None:
            p.kill()
        p.wait()


def profile(elf, log, size, func):
    syms = symbols(elf)
    addrs = [a for a, _ in syms]
    byname = {n: a for a, n in syms}

    def fn(pc):
        i = bisect.bisect_right(addrs, pc) - 1
        return syms[i][1] if i >= 0 else "?"

    a_hc, a_beg, a_end, a_row, a_rd = (byname[n] for n in
                                       ("wl_hostcost", "wl_begin", "wl_end",
                                        "hostcost_report_row", "sd_read_blocks"))
    nins = {}          # translation block start -> instructions (latest translation)
    cur = None
    rows, seg, started = 0, -1, False
    ins = [collections.Counter(), collections.Counter()]
    calls = [collections.Counter(), collections.Counter()]
    tbs = [collections.Counter(), collections.Counter()]
    with open(log, errors="replace") as f:
        for line in f:
            if line.startswith("IN:"):
                cur = None
                continue
            if line.startswith("0x") and ":  " in line[:24]:
                pc = int(line.split(":")[0], 16)
                if cur is None:
                    cur, n = pc, 0
                n += 1
                nins[cur] = n
                continue
            m = TRACE.match(line)
            if not m:
                continue
            cur = None
            pc = int(m.group(1), 16)
            # The card-layer loop starts at its first sd_read_blocks
            # after the previous size's record (printed, not measured).
            if pc == a_hc:
                started = True
            elif not started:
                continue
            elif pc == a_row:
                rows += 1
                if seg == 1:
                    break
            elif pc == a_rd and seg < 0 and rows == size:
                seg = 0
            elif pc == a_beg and seg == 0:
                seg = 1
            elif pc == a_end and seg == 1:
                break
            if seg >= 0:
                name = fn(pc)
                ins[seg][name] += nins.get(pc, 0)
                if name == func:
                    tbs[seg][pc] += 1
                if byname.get(name) == pc:
                    calls[seg][name] += 1
    return ins, calls, tbs, nins


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--machine", default="raspi0")
    ap.add_argument("--kernel", default=harness.KERNEL)
    ap.add_argument("--size", type=int, default=0, choices=range(len(SIZES)))
    ap.add_argument("--func")
    ap.add_argument("--host", choices=("emmc", "sdhost"), default="emmc",
                    help="the controller (sdbench.txt host key)")
    a = ap.parse_args()
    elf = a.kernel[:-4] + ".elf"
    n = requests_for(SIZES[a.size])
    with tempfile.TemporaryDirectory() as td:
        log = os.path.join(td, "exec.log")
        run(a.machine, a.kernel, a.size, log, os.path.join(td, "console.txt"),
            ["host = %s" % a.host] if a.host != "emmc" else [])
        ins, calls, tbs, nins = profile(elf, log, a.size, a.func)
    if not sum(ins[1].values()):
        raise SystemExit("profile-qemu: the hostcost step was not seen in the log")
    print("%s %s, %d-block reads, %d requests; instructions per request:"
          % (a.machine, os.path.basename(a.kernel), SIZES[a.size], n))
    for s, name in enumerate(("card layer and driver alone", "through the engine (wl_do)")):
        print("== %s: %.1f" % (name, sum(ins[s].values()) / n))
        for f, c in ins[s].most_common():
            if c / n < 0.5:
                break
            print("%10.1f %8.2f calls  %s" % (c / n, calls[s][f] / n, f))
        for pc in sorted(tbs[s]):
            print("      %x: %.2f x %d" % (pc, tbs[s][pc] / n, nins.get(pc, 0)))


if __name__ == "__main__":
    main()
