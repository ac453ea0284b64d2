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
    ("write_tests = of", "writes are off: write_tests in sdbench.txt line 3 could not be read"),
    ("write_tests = 1x", "writes are off: write_tests in sdbench.txt line 3 could not be read"),
    ("test_area = most of it", "no test area: nowhere safe to write (see the test-area message)"),
], ids=["write_tests-of", "write_tests-1x", "test_area-garbage"])
def test_a_bad_value_of_a_key_that_gates_writes_means_no_writes(tmp_path, line, reason):
    """The quick suite with a typo in write_tests or test_area: every write
    workload is skipped with the reason, the card is byte for byte what it
    was but for SDBENCH.LOG's clusters, the message names the line, and
    the file holds it too (tests/qemu/test_screen.py: the screen)."""
    img = harness.make_image(str(tmp_path / "sd.img"), size="128M",
                             sdbench=["suite = quick", "span = 8M", line],
                             extra=["--results-file", "1M"])
    before = str(tmp_path / "before.img")
    shutil.copyfile(img, before)
    run = harness.boot("raspi2b", img, timeout=600)
    assert not run.timed_out and run.records[-1]["type"] == "done"
    assert run.records[-1]["errors"] == 0
    msgs = run.one("config")["messages"]
    assert any(m.startswith("config: line 3: ") and m.endswith("; no writes") for m in msgs), msgs
    results = run.of_type("result")
    assert results and all(r["writes"] == 0 for r in results)
    skipped = [s for s in run.of_type("skipped") if s["workload"] == "seq-write"]
    assert skipped and skipped[0]["reason"] == reason, run.of_type("skipped")
    if line.startswith("test_area"):
        ta = run.one("test_area")
        assert ta["usable"] is False and "line 3 could not be read" in ta["reason"]
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
    assert "config: line 2: data_path = d: not one of auto|pio|dma; keeping auto" in msgs
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
