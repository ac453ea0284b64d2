"""sim/captures.py on the public sigrok-dumps SD-mode captures of real cards.

Runs only where the captures and sigrok-cli are present (the captures are not
part of the repository: docs/captures.md says how to get them); otherwise each
test skips and says which is missing. The expected ranges are the SD
Physical Layer Simplified Specification's (Part 1, §4.12 Timing, Timing
Values table: N_CR 2..64 clocks, N_ID exactly 5; §4.9: R2 136 bits, R3 48 bits), written here, not
taken from the simulator or the firmware; what the simulator draws and the
firmware's ACMD41 deadline come from the tool's reading of their source.
"""
import glob
import json
import os
import shutil
import subprocess

import pytest

ROOT = os.path.abspath(os.path.join(os.path.dirname(__file__), ".."))
TOOL = os.path.join(ROOT, "sim", "captures.py")
SDREG = os.path.join(ROOT, "build", "host", "sdreg")
DUMPS = os.environ.get("SDB_SIGROK_DUMPS", os.path.join(ROOT, "build", "sigrok-dumps"))


def _missing():
    if not shutil.which("sigrok-cli"):
        return "sigrok-cli not installed (apt-get install sigrok-cli)"
    if not glob.glob(os.path.join(DUMPS, "**", "*.sr"), recursive=True):
        return ("no SD-mode .sr captures under %s (git clone "
                "https://github.com/sigrokproject/sigrok-dumps there, or set "
                "SDB_SIGROK_DUMPS; docs/captures.md)" % DUMPS)
    if not os.access(SDREG, os.X_OK):
        return "build/host/sdreg not built: run make first"
    return None


@pytest.fixture(scope="module")
def report():
    why = _missing()
    if why:
        pytest.skip(why)
    out = subprocess.run(["/usr/bin/python3", TOOL, DUMPS, "--json"], check=True,
                         capture_output=True, text=True, timeout=900).stdout
    return json.loads(out)


def _all(report, key):
    return [v for c in report["captures"] for v in c.get("timing", {}).get(key, [])]


def test_ncr_in_spec_and_in_the_simulators_draw(report):
    ncr = _all(report, "N_CR")
    assert ncr, "no command-response pair measured"
    assert all(2 <= v <= 64 for v in ncr), ncr
    lo, hi = report["model"]["ncr_gen"]
    assert all(lo <= v <= hi for v in ncr), (ncr, lo, hi)


def test_nid_is_five_clocks(report):
    # N_ID is exactly 5 clocks: an off-by-one in the edge counting shows here.
    nid = _all(report, "N_ID")
    assert nid, "no CMD2 / ACMD41 response measured"
    assert set(nid) == {5}, sorted(set(nid))


def test_nrc_at_least_eight_clocks(report):
    nrc = _all(report, "N_RC")
    assert nrc and min(nrc) >= 8, nrc


def test_response_lengths(report):
    assert _all(report, "R2") and set(_all(report, "R2")) == {136}
    assert _all(report, "R3") and set(_all(report, "R3")) == {48}


def test_acmd41_busy_within_the_firmwares_deadline(report):
    runs = [a for c in report["captures"] for a in c.get("acmd41", [])]
    assert runs, "no ACMD41 power-up measured"
    deadline_ms = int(report["model"]["acmd41_us"]) / 1000.0
    assert max(a["ms"] for a in runs) < deadline_ms, (runs, deadline_ms)


def test_registers_from_the_wire_decode_with_good_crc(report):
    regs = [c["regs"] for c in report["captures"] if c.get("regs")]
    cids = [r for r in regs if r.get("cid")]
    csds = [r for r in regs if r.get("csd")]
    assert cids and csds, regs
    for r in cids + csds:
        assert r["sdreg"].count("CRC ok") >= 1, r["sdreg"]
    # A capture with its DAT lines named must give its SCR (CRC16-checked).
    scr = [c["regs"]["scr"] for c in report["captures"]
           if c.get("dat") and "scr" in c.get("regs", {})]
    assert scr and all(scr), scr
    assert any("SCR  structure 0" in r["sdreg"] for r in regs if r.get("scr"))
