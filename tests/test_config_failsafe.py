"""A configuration sdbench cannot read whole writes nothing (docs/config.md,
"When a line cannot be read"): one rule for the firmware, sdarea and
sdblinux, all three through bench/storage (config.c, storage.c).

Every line here has been typed by a user who meant "no writes" or "write
only there": a misspelt key, a ':' or a space instead of '=', an unknown
key. The firmware runs the quick suite on the simulator (build/host/sdbsim
--image/--save-image) and the card is compared byte for byte: nothing but
the results file's clusters changes, and those hold the line's message.
sdarea reports no test area, and sdblinux writes nothing. A clean file
still writes (the same card, the same suite)."""
import os
import subprocess

import pytest

import card_diff
import harness
import results_file

ROOT = os.path.abspath(os.path.join(os.path.dirname(__file__), ".."))
SDBSIM = os.path.join(ROOT, "build", "host", "sdbsim")
SDAREA = os.path.join(ROOT, "build", "host", "sdarea")
SDBLINUX = os.path.join(ROOT, "build", "host", "sdblinux")

# The lines of the report that found the hole, and their neighbours.
LINES = [
    "write_test = off",
    "write-tests = off",
    "write_tests: off",
    "write_tests off",
    "test_aera = 600000+8192",
    "test_area: 600000+8192",
    "colour = blue",
    "span = 8 M",
    "= off",
]
# Lines the user's results file is turned off by (they look like results_file).
RESULTS_LIKE = ["results-file = off", "result_file: off"]


def card(tmp_path, line, results="1M"):
    img = str(tmp_path / "sd.img")
    sdbench = ["suite = quick", "span = 8M", "seed = 3"] + ([line] if line else [])
    before = card_diff.image_with_user_data(img, 11, kernel=harness.KERNEL, sdbench=sdbench,
                                            extra=["--results-file", results] if results else [])
    return img, before


def sim(img, profile="instant-4g"):
    after = img + ".after"
    p = subprocess.run([SDBSIM, "--profile", profile, "--image", img, "--save-image", after],
                       stdout=subprocess.PIPE, stderr=subprocess.PIPE, timeout=600)
    assert p.returncode == 0, p.stderr.decode()[-2000:]
    run = harness.Run(0, p.stdout.decode("utf-8", "replace"), "", False)
    assert run.records[-1]["type"] == "done" and run.records[-1]["errors"] == 0
    return after, run


@pytest.mark.parametrize("line", LINES)
def test_a_line_the_firmware_cannot_read_writes_nothing(tmp_path, line):
    img, before = card(tmp_path, line)
    after, run = sim(img)
    cfg = run.one("config")
    assert cfg["fully_read"] is False and cfg["unread_line"] == 4, cfg
    assert "line 4 could not be read" in cfg["no_writes_why"]
    assert "NOTHING IS WRITTEN THIS RUN" in run.console
    assert run.one("test_area")["usable"] is False
    results = run.of_type("result")
    assert results and all(r["writes"] == 0 for r in results)
    skipped = [s for s in run.of_type("skipped") if s["workload"] == "seq-write"]
    assert skipped and "line 4 could not be read" in skipped[0]["reason"], skipped
    # Byte for byte: only SDBENCH.LOG's clusters changed, and the file names
    # the line.
    text = results_file.written(before, after, (0, 0)).split(b"\0")[0].decode()
    assert "line 4 could not be read" in text


@pytest.mark.parametrize("line", RESULTS_LIKE)
def test_a_line_like_results_file_turns_the_file_off_too(tmp_path, line):
    img, before = card(tmp_path, line)
    after, run = sim(img)
    assert run.one("config")["fully_read"] is False
    assert card_diff.changed_blocks(before, after) == []


def test_a_clean_file_still_writes(tmp_path):
    img, before = card(tmp_path, "write_tests = on")
    after, run = sim(img)
    assert run.one("config")["fully_read"] is True
    area = run.one("test_area")
    assert area["usable"]
    assert sum(r["writes"] for r in run.of_type("result")) > 0
    lo, hi = area["first_lba"] * 512, (area["first_lba"] + area["count"]) * 512
    results_file.written(before, after, (lo, hi))
    assert card_diff.changed_blocks(before, after), "the clean file wrote nothing"


def test_a_refused_test_area_means_no_area(tmp_path):
    """A range the rules refuse (it overlaps the boot partition) is no
    area, not the automatic one: the writes never go elsewhere."""
    img, before = card(tmp_path, "test_area = 8192+100")
    after, run = sim(img)
    ta = run.one("test_area")
    assert ta["usable"] is False and "refused" in ta["note"], ta
    assert all(r["writes"] == 0 for r in run.of_type("result"))
    results_file.written(before, after, (0, 0))


@pytest.mark.parametrize("line", LINES[:6] + ["test_area = 8192+100"])
def test_sdarea_shows_no_area(tmp_path, line):
    img, _ = card(tmp_path, line, results=None)
    p = subprocess.run([SDAREA, img], stdout=subprocess.PIPE, text=True, timeout=60)
    assert p.returncode == 1, p.stdout
    assert "write test area: none" in p.stdout and "no writes" in p.stdout, p.stdout


@pytest.mark.parametrize("line", ["write_test = off", "write_tests: off", "test_aera = 600000+8192",
                                  "test_area = 8192+100"])
def test_sdblinux_writes_nothing(tmp_path, line):
    img, before = card(tmp_path, line, results=None)
    p = subprocess.run([SDBLINUX, img], stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                       text=True, timeout=300)
    assert p.returncode == 0, p.stdout[-2000:] + p.stderr
    assert card_diff.changed_blocks(before, img) == [], line
    assert "NOTHING IS WRITTEN THIS RUN" in p.stdout or "refused" in p.stdout, p.stdout[:3000]
    run = harness.Run(0, p.stdout, "", False)
    assert run.one("test_area")["usable"] is False
    assert not [r for r in run.of_type("result") if r["op"] == "write"]
