"""Measure, decide, report - apart (bench/engine/workload.h), checked on the
built target objects:

* the decisions (bench/workloads/analysis.c) keep no static state: the
  object defines no writable data (a scratch buffer would show as .bss);
* a reporter (*_report.c, card_report.c too) prints what it is given: it
  calls nothing that talks to the card, reads the clock or runs the engine.
"""
import glob
import os
import re
import subprocess

ROOT = os.path.abspath(os.path.join(os.path.dirname(__file__), ".."))
OBJ = os.path.join(ROOT, "build", "target")
NM = os.environ.get("CROSS", "arm-none-eabi-") + "nm"
# What a reporter must not call: the card layer's commands (its register
# decoders and names are pure and allowed), the write guard's writes and
# erases, the host controller, the clock, the engine's measuring side.
MEASURING = re.compile(r"^(sd_(init|read|write|erase|set|send)|write_guard_(write|erase)|"
                       r"emmc_|sdhci_|bcm2835_emmc|bcm2835_sdhost|bcm2711_emmc2|mmio_|timer_|"
                       r"wl_(ctx_init|do|begin|end|now_ns|rand|should_stop|set_budget|"
                       r"verify_written)$|wlx_(erase|last_lat)$)")


def nm(path, *args):
    return subprocess.run([NM] + list(args) + [path], stdout=subprocess.PIPE, text=True,
                          check=True).stdout


def writable_data(path):
    out = []
    for line in nm(path, "--defined-only").splitlines():
        parts = line.split()
        if len(parts) == 3 and parts[1] in "bBdD":
            out.append(parts[2])
    return out


def report_objects():
    objs = sorted(glob.glob(os.path.join(OBJ, "bench", "**", "*_report.o"), recursive=True))
    return [o for o in objs if os.path.exists(os.path.join(
        ROOT, os.path.relpath(o, OBJ)[:-2] + ".c"))]


def test_analysis_keeps_no_static_state():
    obj = os.path.join(OBJ, "bench", "workloads", "analysis.o")
    assert os.path.exists(obj), "build first (make)"
    assert writable_data(obj) == [], "analysis.c keeps static data"


def test_reporters_only_print():
    objs = report_objects()
    assert len(objs) >= 7, "build first (make): %s" % objs
    bad = []
    for o in objs:
        for sym in nm(o, "-u").split():
            if MEASURING.match(sym):
                bad.append("%s calls %s" % (os.path.relpath(o, OBJ), sym))
    assert not bad, "\n".join(bad)


def test_measuring_pattern_matches_what_it_should():
    assert MEASURING.match("sd_read_blocks") and MEASURING.match("timer_now_us")
    assert MEASURING.match("sd_erase") and MEASURING.match("sd_set_bus")
    assert MEASURING.match("write_guard_write_single") and MEASURING.match("write_guard_erase")
    assert MEASURING.match("wl_do") and not MEASURING.match("wl_report")
    assert not MEASURING.match("wl_report_integrity") and not MEASURING.match("wl_end_x")
    assert not MEASURING.match("sd_ssr_app_perf_name") and not MEASURING.match("sd_csd_decode")
