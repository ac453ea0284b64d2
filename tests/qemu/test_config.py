"""sdbench.txt: bad values and unknown keys are reported with their line
numbers, the keys keep their defaults (or, for the keys that gate writes,
writes are off), and the run carries on; good values take effect."""
import shutil

import pytest

import harness
import results_file


def test_bad_values_are_reported_and_the_run_continues(tmp_path):
    img = harness.make_image(str(tmp_path / "sd.img"), size="128M", sdbench=[
        "# a user's file",
        "suite = none",
        "span = 12x",
        "colour = blue",
        "write_tests = perhaps",
    ])
    run = harness.boot("raspi0", img, timeout=120)
    assert not run.timed_out
    cfg = run.one("config")
    assert cfg["file"] is True
    msgs = " | ".join(cfg["messages"])
    assert "line 3" in msgs and "span" in msgs
    assert "line 4" in msgs and "colour" in msgs
    assert "line 5" in msgs and "write_tests" in msgs
    assert cfg["span"] == 256 * 1024 * 1024      # the default stands
    assert cfg["write_tests"] is False           # a key that gates writes: no writes
    assert cfg["suite"] == "none"                # the good line took effect
    for m in cfg["messages"]:
        assert m in run.console                   # printed for people too
    assert run.records[-1]["type"] == "done"
    assert run.status == 0


def test_write_tests_off_skips_every_write(tmp_path):
    img = harness.make_image(str(tmp_path / "sd.img"), size="128M",
                             sdbench=["suite = quick", "write_tests = off"])
    run = harness.boot("raspi2b", img, timeout=300)
    assert not run.timed_out
    results = run.of_type("result")
    assert results and all(r["writes"] == 0 for r in results)
    assert run.of_type("skipped")
    assert run.records[-1]["type"] == "done" and run.records[-1]["errors"] == 0


@pytest.mark.parametrize("line,reason", [
    ("write_tests = of", "writes are off: sdbench.txt line 3 could not be read "
     "(write_tests = of: not on or off)"),
    ("write_tests: off", "writes are off: sdbench.txt line 3 could not be read "
     "(expected key = value)"),
    ("test_aera = 600000+8192", "writes are off: sdbench.txt line 3 could not be read "
     "(unknown key \"test_aera\")"),
    ("test_area = most of it", "writes are off: sdbench.txt line 3 could not be read "
     "(test_area = most of it: not a range (START+COUNT or START-END))"),
], ids=["write_tests-of", "write_tests-colon", "test_aera", "test_area-garbage"])
def test_a_line_that_cannot_be_read_means_no_writes(tmp_path, line, reason):
    """The quick suite with a line sdbench cannot read whole (a bad value, a
    ':' for '=', a misspelt key): every write workload is skipped with the
    reason, there is no test area, the card is byte for byte what it was
    but for SDBENCH.LOG's clusters, the message names the line, the file
    holds it too (tests/qemu/test_screen.py: the screen) and the LED
    flashes code 7 (docs/led.md)."""
    img = harness.make_image(str(tmp_path / "sd.img"), size="128M",
                             sdbench=["suite = quick", "span = 8M", line],
                             extra=["--results-file", "1M"])
    before = str(tmp_path / "before.img")
    shutil.copyfile(img, before)
    run = harness.boot("raspi2b", img, timeout=600)
    assert not run.timed_out and run.records[-1]["type"] == "done"
    assert run.records[-1]["errors"] == 0
    cfg = run.one("config")
    assert any(m.startswith("config: line 3: ") and m.endswith("no writes this run")
               for m in cfg["messages"]), cfg["messages"]
    assert cfg["fully_read"] is False and cfg["unread_line"] == 3
    results = run.of_type("result")
    assert results and all(r["writes"] == 0 for r in results)
    skipped = [s for s in run.of_type("skipped") if s["workload"] == "seq-write"]
    assert skipped and skipped[0]["reason"] == reason, run.of_type("skipped")
    ta = run.one("test_area")
    assert ta["usable"] is False and "line 3 could not be read" in ta["reason"]
    led = run.one("led")
    assert led["code"] == "config_unread" and led["flashes"] == 7, led
    data = results_file.written(before, img, (0, 0))
    text = data.split(b"\0")[0].decode("utf-8", "replace")
    assert reason in text and "config: line 3: " in text


def test_enum_values_match_whole_words(tmp_path):
    """data_path = d is an error (no prefix match): the default stays and
    the message says so."""
    img = harness.make_image(str(tmp_path / "sd.img"), size="128M",
                             sdbench=["suite = none", "data_path = d", "bus_mode = sdr"])
    run = harness.boot("raspi2b", img, timeout=120)
    assert run.records[-1]["type"] == "done" and run.records[-1]["errors"] == 0
    msgs = run.one("config")["messages"]
    assert "config: line 2: data_path = d: not one of auto|pio|dma; keeping auto; no writes " \
        "this run" in msgs
    assert any(m.startswith("config: line 3: bus_mode = sdr: not one of") for m in msgs)
    assert run.one("data_path")["requested"] == "auto"


def test_a_refused_test_area_names_its_line(tmp_path):
    img = harness.make_image(str(tmp_path / "sd.img"), size="128M",
                             sdbench=["suite = none", "# the area", "test_area = 0+100"])
    run = harness.boot("raspi2b", img, timeout=120)
    assert run.records[-1]["type"] == "done" and run.records[-1]["errors"] == 0
    ta = run.one("test_area")
    assert ta["note"] == "test_area 0+100 from sdbench.txt line 3 refused: it includes " \
        "LBA 0 (the MBR)", ta
