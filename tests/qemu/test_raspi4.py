"""The 32-bit kernel.img (and, for the board record and the exception
dump, the AArch64 kernel8.img, entered by QEMU at 0x80000 in EL2) on QEMU's raspi4b (BCM2711, Cortex-A72; QEMU 9.0
and newer, so these tests run in the SDB_QEMU=10 pass and are skipped
under QEMU 7.2), started through the AArch64 shim like raspi3b, with the
card on EMMC2 as on a real Pi 4: the board record, the card found on EMMC2
(never on the legacy EMMC, which serves Wi-Fi on a Pi 4), a clean end of
the run, parked secondary cores, the exception dump, `make run
MACHINE=raspi4b` (qemu/run.sh), the quick suite and a whole benchmark run
that writes only inside its test area (byte-compare of the whole image).
raspi4b is in harness.SD_MACHINES: the self-test's read/write checks run
there too (tests/qemu/test_sd_stack.py)."""
import os
import subprocess

import pytest

import harness
import test_raspi3
import test_safety
import test_sd_stack

MACHINE = "raspi4b"


def check_board(run, kernel=harness.KERNEL):
    assert not run.timed_out, run.console[-2000:]
    assert run.console.count("sdbench 0.1 - SD card benchmark") == 1
    assert "*** EXCEPTION" not in run.console, run.console[-2000:]
    assert not run.bad_records, run.bad_records
    board = run.one("board")
    assert board["revision"] == harness.REVISIONS[MACHINE] == "0x00b03115"
    assert board["model"] == "Raspberry Pi 4 Model B"
    assert board["soc"] == "BCM2711" and board["periph_base"] == "0xfe000000"
    assert board["cpu"] == "Cortex-A72"
    assert board["emulated"] is True and board["mailbox"] == "ok"
    assert board["caches"] is True
    # The mailbox's EMMC2 clock (id 12), reported on a BCM2711 only.
    assert isinstance(board["emmc2_clock_hz"], int), board
    if harness.is_aarch64_image(kernel):
        assert board["arch"] == "aarch64" and board["el"] == 1
    else:
        # kernel.img's board record is unchanged: no "arch" means AArch32.
        assert "arch" not in board and "el" not in board
    # The generic timer from EL1 (after the shim, or kernel8.img's own
    # EL2 exit); the measured rate agrees with CNTFRQ to 1%.
    t = board["timer"]
    assert t["source"] == "cntpct"
    harness.assert_timer_calibrated(t)
    return board


def check_on_emmc2(run):
    """The card was driven through EMMC2 at 0xFE340000, with its quirk set."""
    assert "host: emmc2 at 0xfe340000" in run.console, run.console[-3000:]
    assert "host: emmc at" not in run.console


@pytest.mark.parametrize("kernel", harness.KERNELS, ids=harness.KERNEL_IDS)
def test_boot_board_record(tmp_path, kernel):
    img = harness.make_image(str(tmp_path / "sd.img"), size="128M", sdbench=["suite = none"])
    run = harness.boot(MACHINE, img, kernel=kernel, timeout=60)
    check_board(run, kernel)
    assert MACHINE in harness.SD_MACHINES
    assert run.one("card")["initialised"] is True
    check_on_emmc2(run)
    # The run ends with `done` and QEMU exits by itself with its status.
    assert run.records[-1]["type"] == "done" and run.records[-1]["errors"] == 0
    assert run.status == 0
    assert run.guest_errors == "", run.guest_errors[:2000]
    # The Pi 4 B's ACT LED: GPIO 42, lit when high (bcm2711-rpi-4-b.dts).
    led = run.records[-2]
    assert led["type"] == "led" and led["driven"] is True, led
    assert (led["kind"], led["line"], led["active_low"]) == ("gpio", 42, False), led


def test_secondary_cores_parked(tmp_path):
    """As on raspi3b: cores 1-3 go through the shim into kernel.img and
    sleep in start.S's WFI park loop while core 0 runs to the end."""
    harness.require_machine(MACHINE)
    img = harness.make_image(str(tmp_path / "card.img"), size="128M", sdbench=["suite = none"])
    test_raspi3.check_secondary_cores_parked(tmp_path, img, MACHINE)


@pytest.mark.parametrize("kernel", harness.KERNELS, ids=harness.KERNEL_IDS)
def test_exception_dump(kernel):
    run = harness.boot(MACHINE, None, kernel=harness.FAULT_KERNELS[kernel], timeout=60)
    assert not run.timed_out, run.console[-2000:]
    assert ("FAR_EL1 00000000dead0000" if harness.is_aarch64_image(kernel)
            else "DFAR dead0000") in run.console
    assert run.one("exception")["exception"] == "data abort"
    assert run.console.count("sdbench 0.1") == 1
    assert run.status == 3


def test_run_script(tmp_path):
    """qemu/run.sh raspi4b, what `make run MACHINE=raspi4b` calls: boots
    kernel.img with its own SD image on EMMC2, prints the board and exits
    by itself with the run's status."""
    harness.require_machine(MACHINE)
    env = dict(os.environ, SDB_QEMU=harness.flavour(), SDB_SDBENCH="suite = none",
               SDB_IMAGE_SIZE="128M", SDB_TIMEOUT="120")
    p = subprocess.run([os.path.join(harness.ROOT, "qemu", "run.sh"), MACHINE],
                       stdout=subprocess.PIPE, stderr=subprocess.PIPE, stdin=subprocess.DEVNULL,
                       env=env, timeout=180, cwd=harness.ROOT)
    out, err = p.stdout.decode("utf-8", "replace"), p.stderr.decode("utf-8", "replace")
    assert p.returncode == 0, out[-2000:] + err[-2000:]
    run = harness.Run(p.returncode, out, "", False)
    check_board(run)
    assert run.records[-1]["type"] == "done" and run.records[-1]["errors"] == 0
    assert "QEMU reported guest errors" not in err
    assert os.path.getsize(os.path.join(harness.ROOT, "build", "qemu", "sd-raspi4b.img")) == 128 << 20


def test_quick_suite(tmp_path):
    """The full card report and the quick suite on EMMC2, through PIO: no
    errors, every write verified, no SD line in QEMU's guest errors."""
    img = str(tmp_path / "sd.img")
    harness.make_image(img, size="256M", sdbench=["suite=quick"])
    run = harness.boot(MACHINE, img, timeout=300)
    assert not run.timed_out, run.console[-3000:]
    assert not run.bad_records, run.bad_records[:3]
    done = run.records[-1]
    assert done["type"] == "done" and done["errors"] == 0, run.console[-3000:]
    assert run.status == 0
    assert run.sd_guest_errors() == [], run.guest_errors[:2000]
    assert run.guest_errors == "", run.guest_errors[:2000]
    check_on_emmc2(run)
    assert run.one("board")["soc"] == "BCM2711"
    test_sd_stack.assert_qemu_card(run.one("card"), 256 << 20)
    results = run.of_type("result")
    assert results and all(r["emulated"] is True and r["errors"] == 0 for r in results)
    assert run.of_type("integrity"), "write workloads were not verified"
    for rec in run.of_type("integrity"):
        assert rec["ok"] == rec["blocks"], rec


def test_writes_only_in_test_area(tmp_path):
    """As tests/qemu/test_safety.py on raspi2b: a Pi OS-like card (boot FAT32
    + a Linux partition filled with user data, free space after it); a
    whole quick run on EMMC2 changes no byte of the image outside the test
    area it chose."""
    harness.require_machine(MACHINE)
    img, before, run = test_safety.run_layout(
        tmp_path, "512M", ["--part", "72M:256M:83"], sdbench=["suite=quick"],
        machine=MACHINE, seed_area=[(72 << 20, 256 << 20)])
    check_on_emmc2(run)
    area, changed = test_safety.assert_only_in_area(run, img, before)
    assert area["usable"] and area["source"] == "unpartitioned"
    assert area["first_lba"] * 512 >= (72 + 256) << 20
    assert changed, "the write workloads wrote nothing"
    for rec in run.of_type("integrity"):
        assert rec["ok"] == rec["blocks"], rec
    assert run.records[-1]["type"] == "done" and run.records[-1]["errors"] == 0
    assert run.sd_guest_errors() == [], run.guest_errors[:2000]
