"""Foundation: kernel.img boots on every QEMU Pi, describes the board in a
`board` record, ends with a `done` record and makes QEMU exit by itself."""
import json
import os
import subprocess

import pytest

import harness


@pytest.fixture(scope="module")
def image(tmp_path_factory):
    return harness.make_image(str(tmp_path_factory.mktemp("img") / "sd.img"), size="128M",
                              sdbench=["suite = none"])


@pytest.mark.parametrize("machine", harness.MACHINES)
def test_boot_board_record(machine, image):
    run = harness.boot(machine, image)
    assert not run.timed_out, run.console[-2000:]
    assert "sdbench 0.1 - SD card benchmark" in run.console
    assert not run.bad_records, run.bad_records
    board = run.one("board")
    assert board["revision"] == harness.REVISIONS[machine]
    assert board["emulated"] is True
    assert board["caches"] is True
    assert board["mailbox"] == "ok"
    t = board["timer"]
    assert t["freq_hz"] >= 1000000
    assert t["resolution_ns"] >= 1
    if machine == "raspi2b":
        # The generic timer: nominal 62.5 MHz under QEMU; the measured rate
        # must agree with it to 1% (the calibration works).
        assert t["source"] == "cntpct"
        harness.assert_timer_calibrated(t)
        assert board["soc"] == "BCM2836" and board["periph_base"] == "0x3f000000"
    else:
        assert board["soc"] == "BCM2835" and board["periph_base"] == "0x20000000"
    # Every record is an object with a type; the run ends with `done`.
    assert all(isinstance(r.get("type"), str) for r in run.records)
    assert run.records[-1]["type"] == "done"
    assert run.status == (1 if run.records[-1]["errors"] else 0)
    # The ACT LED of each board's device tree (docs/led.md), set up with no
    # guest error; its record comes just before done.
    led = run.records[-2]
    assert led["type"] == "led", led
    want = {"raspi0": 47, "raspi1ap": 47, "raspi2b": 47}[machine]
    assert (led["kind"], led["line"], led["driven"]) == ("gpio", want, True), led
    assert led["active_low"] is (machine == "raspi0"), led  # Zero: lit when low
    assert led["code"] == "pass" and led["flashes"] == 1, led
    assert "status LED: ACT" in run.console
    assert run.guest_errors == "", run.guest_errors[:2000]


def test_exception_dump():
    """A deliberate data abort prints a readable dump and ends the run
    (no hang, no reboot loop: exactly one banner)."""
    run = harness.boot("raspi2b", None, kernel=harness.FAULT_KERNEL, timeout=60)
    assert not run.timed_out, run.console[-2000:]
    assert "*** EXCEPTION: data abort" in run.console
    assert "DFAR dead0000" in run.console
    exc = run.one("exception")
    assert exc["exception"] == "data abort"
    assert run.console.count("sdbench 0.1") == 1
    assert run.status == 3


def test_without_semihosting_stops_cleanly():
    """Without -semihosting (as on hardware) the firmware says it stopped
    and idles; QEMU has to be killed by the timeout, but nothing loops."""
    run = harness.boot("raspi0", None, timeout=8, semihosting=False)
    assert run.timed_out
    assert "stopped (status 1)" in run.console  # no card: one error
    # ...and then shows the no-card code on the LED (docs/led.md), the one
    # place under QEMU where the end code plays.
    led = [r for r in run.records if r["type"] == "led"]
    assert led and led[0]["code"] == "no_card" and led[0]["flashes"] == 5, led
    assert led[0]["driven"] is True
    assert "*** EXCEPTION" not in run.console, run.console[-2000:]
    assert run.console.count("sdbench 0.1") == 1


def test_run_script_main_job():
    """qemu/run.sh, what `make run` calls: makes its own SD image, boots it,
    prints to the terminal and exits by itself with the run's status. Its
    default sdbench.txt runs the quick suite and the host comparison."""
    env = dict(os.environ, SDB_IMAGE_SIZE="128M", SDB_TIMEOUT="300")
    env.pop("SDB_SDBENCH", None)
    p = subprocess.run([os.path.join(harness.ROOT, "qemu", "run.sh"), "raspi0"],
                       stdout=subprocess.PIPE, stderr=subprocess.PIPE, stdin=subprocess.DEVNULL,
                       env=env, timeout=180, cwd=harness.ROOT)
    out = p.stdout.decode("utf-8", "replace")
    assert p.returncode == 0, out[-2000:] + p.stderr.decode()[-2000:]
    assert "sdbench 0.1 - SD card benchmark" in out
    assert '@ {"type":"done","errors":0' in out
    assert "QEMU reported guest errors" not in p.stderr.decode()
    recs = [json.loads(l[2:]) for l in out.splitlines() if l.startswith("@ ")]
    assert [r["profile"] for r in recs if r["type"] == "suite"] == ["quick"]
    rows = [r for r in recs if r["type"] == "hosts"][0]["rows"]
    # raspi0: EMMC and SDHOST, each by PIO and DMA, four workloads each
    assert sorted({(r["host"], r["data_path"]) for r in rows}) == [
        ("emmc", "dma"), ("emmc", "pio"), ("sdhost", "dma"), ("sdhost", "pio")]
    assert len(rows) == 16 and all(r.get("mbs", 0) > 0 for r in rows), rows
    assert "host comparison (QEMU" in out
    assert os.path.getsize(os.path.join(harness.ROOT, "build", "qemu", "sd-raspi0.img")) == 128 << 20
