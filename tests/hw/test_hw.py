"""Checks that make sense on a real board, run on one captured run
(tests/hw/conftest.py): the run ends, its records are well formed, the
board and card reports are plausible, the test area overlaps nothing, and
- depending on the card's sdbench.txt - the self-test or the suite gave
consistent results. The same checks run in `make test` against QEMU
through a pseudo-terminal (tests/test_hw_pty.py)."""
import os
import re
import subprocess

import pytest

from sdbhost import records

HOST = os.path.join(os.path.dirname(__file__), "..", "..", "build", "host")
SOCS = ("BCM2835", "BCM2836", "BCM2837", "BCM2711")


def test_capture_ends_with_the_run(hw):
    """sdbcapture stopped at the done record of one run without errors."""
    assert hw.run is not None, "no sdbench records arrived:\n" + hw.output
    assert hw.status == 0, "sdbcapture status %d:\n%s\n%s" % (hw.status, hw.output,
                                                             hw.console[-3000:])
    assert hw.run.ended_by == "done", hw.console[-3000:]
    assert hw.run.records[-1]["type"] == "done"
    assert len(hw.log.runs) == 1, [r.describe() for r in hw.log.runs]
    errors = hw.run.all("error")
    assert hw.run.done()["errors"] == len(errors) == 0, errors


def test_records_well_formed(hw):
    """Every record line arrived intact (a noisy link shows here first):
    JSON objects with a known type and fields of the documented kinds."""
    assert hw.log.warnings == [], hw.log.warnings[:20]
    assert hw.log.bad_lines == 0
    unknown = {r["type"] for r in hw.run.records} - set(records.SCHEMA)
    assert not unknown, unknown
    assert "sdbench" in hw.console and "SD card benchmark" in hw.console
    # The console's line ends are CR LF, as the firmware sends them.
    assert "\r\n@ {\"type\":\"board\"" in hw.console


def test_board_record(hw):
    b = hw.run.one("board")
    assert b, "no board record"
    assert re.fullmatch(r"0x[0-9a-f]{8}", b["revision"]), b["revision"]
    assert b["soc"] in SOCS and b["model"].startswith("Raspberry Pi")
    assert b["mailbox"] == "ok"
    assert b["arm_clock_hz"] > 0 and b["arm_mem_bytes"] > 0
    t = b["timer"]
    assert t["freq_hz"] > 0 and t["resolution_ns"] > 0 and t["read_cost_ns"] > 0
    if t["nominal_hz"]:
        assert abs(t["freq_hz"] - t["nominal_hz"]) < 0.01 * t["nominal_hz"], t
    assert isinstance(b["emulated"], bool)
    if b["emulated"]:
        # sdbench recognises QEMU by its MAC prefix and a zero serial
        assert b["mac"].lower().startswith("52:54:00")


def test_card_report(hw):
    c = hw.run.one("card")
    assert c, "no card record"
    assert c["present"] and c["initialised"], c
    assert c["capacity_bytes"] == c["blocks"] * 512 > 0
    assert c["width"] in (1, 4) and 0 < c["clock_hz"] <= c["max_clock_hz"]
    for reg in ("cid", "csd", "scr", "ssr", "ocr"):
        assert isinstance(c[reg], dict) and re.fullmatch(r"(0x)?[0-9a-f]+", c[reg]["raw"]), reg
    assert c["csd"]["capacity_bytes"] == c["capacity_bytes"]
    for reg in ("cid", "csd"):
        assert c[reg]["crc_ok"] in (True, "absent"), (reg, c[reg]["crc_ok"])
    assert c["ocr"]["powered_up"] is True
    assert "card: ready" in hw.console


def test_layout_and_test_area(hw):
    """The test area, where every write goes, overlaps no partition."""
    lay, ta = hw.run.one("layout"), hw.run.one("test_area")
    assert lay and ta and hw.run.one("config")
    card = hw.run.one("card")
    if not ta["usable"]:
        assert ta["reason"] and ta["hint"]
        return
    first, end = ta["first_lba"], ta["first_lba"] + ta["count"]
    assert 0 < first < end <= card["blocks"]
    for ext in lay.get("used_extents") or []:
        assert end <= ext["first_lba"] or ext["first_lba"] + ext["count"] <= first, ext


def test_selftest(hw):
    if hw.suite() != "selftest":
        pytest.skip("the card's sdbench.txt says suite = %s; suite = selftest runs the "
                    "self-test checks" % hw.suite())
    reads = [r for r in hw.run.all("selftest") if r["test"] == "read"]
    assert reads, "no self-test read records"
    for r in reads:
        assert r["match"] is True, r
        for mode, res in r["result"].items():
            assert res in ("ok", "unsupported by card"), (r["lba"], mode, res)
        assert re.fullmatch(r"0x[0-9a-f]{8}", r["crc32"]["cmd18"])
    for w in (r for r in hw.run.all("selftest") if r["test"] == "write"):
        if w.get("write_protected"):
            assert w["write_refused"] and w["code"] == "EROFS"
            continue
        assert w["verify"] is True, w
        for s in w["segments"]:
            assert s["result"] in ("ok", "unsupported by card"), s
        assert w["erase"]["result"] == "ok" and w["erase"]["value"] in ("0x00", "0xff")


def test_suite(hw):
    if hw.suite() not in ("quick", "full"):
        pytest.skip("the card's sdbench.txt says suite = %s; suite = quick runs the short "
                    "suite checks" % hw.suite())
    run = hw.run
    assert run.one("suite")["profile"] == hw.suite() and run.one("suite")["aborted"] is False
    names = run.result_workloads()
    assert any(n.startswith("seq-read-") for n in names), names
    for n in names:
        w = run.workloads[n]
        r, lat, ph = w["result"], w["latency"], w["phases"]
        assert r["errors"] == 0 and r["ops"] >= 1, r
        assert r["bytes"] == r["ops"] * r["xfer_bytes"]
        assert abs(r["mbs"] / r["mibs"] - 1.048576) < 0.01, r
        assert lat["count"] == r["ops"]
        assert lat["min_ns"] <= lat["p50_ns"] <= lat["p99_ns"] <= lat["max_ns"]
        assert sum(w["histogram"]["count"]) == r["ops"]
        assert abs(ph["card_pct"] + ph["bus_pct"] + ph["host_pct"] - 100.0) < 0.5, ph
        assert w["verdict"]["text"]
        assert r["emulated"] == run.emulated
    assert run.one("summary")
    for i in run.all("integrity"):
        assert i["ok"] == i["blocks"] > 0, i


def test_report_tools_read_the_run(hw, tmp_path):
    """What the user does next: the text report, HTML and CSV of this log."""
    p = subprocess.run([os.path.join(HOST, "sdbreport"), hw.path], stdout=subprocess.PIPE,
                       stderr=subprocess.PIPE, text=True, timeout=120)
    assert p.returncode == 0 and p.stderr == "", p.stderr
    assert "run ended: 0 error(s)" in p.stdout
    p = subprocess.run([os.path.join(HOST, "sdbreport"), "--csv", str(tmp_path / "csv"),
                        hw.path], stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                       timeout=120)
    assert p.returncode == 0, p.stderr
    assert os.path.exists(tmp_path / "csv" / "board.csv")
    assert os.path.exists(tmp_path / "csv" / "done.csv")
