"""kernel_2712.img, the AArch64 build under the name the Pi 5 firmware
loads. No QEMU models a Pi 5 (BCM2712): what can be checked here is that
the image is the same program, finds the board it runs on at run time and
dumps an exception, on QEMU's Cortex-A53 (raspi3b) and Cortex-A72
(raspi4b, QEMU 9.0 and newer) boards. The Pi 5 platform itself runs on the
simulator (tests/test_sdbsim_pi5.py)."""
import os

import pytest

import harness


@pytest.fixture(scope="module")
def image(tmp_path_factory):
    return harness.make_image(str(tmp_path_factory.mktemp("img") / "sd.img"), size="128M",
                              sdbench=["suite = selftest"])


@pytest.mark.parametrize("machine", ("raspi3b", "raspi4b"))
def test_kernel_2712_finds_the_board(machine, image):
    harness.require_machine(machine)
    run = harness.boot(machine, image, kernel=harness.KERNEL_2712, timeout=120)
    assert not run.timed_out, run.console[-2000:]
    assert not run.bad_records, run.bad_records
    board = run.one("board")
    soc, cpu, base = {"raspi3b": ("BCM2837", "Cortex-A53", "0x3f000000"),
                      "raspi4b": ("BCM2711", "Cortex-A72", "0xfe000000")}[machine]
    assert (board["soc"], board["cpu"], board["periph_base"]) == (soc, cpu, base)
    assert board["arch"] == "aarch64" and board["el"] == 1
    assert board["caches"] is True
    assert "not been verified on this hardware" not in run.console
    assert run.records[-1]["type"] == "done" and run.records[-1]["errors"] == 0
    assert run.status == 0
    assert run.sd_guest_errors() == []


def test_kernel_2712_exception_dump():
    run = harness.boot("raspi3b", None, kernel=harness.FAULT_KERNEL_2712, timeout=60)
    assert not run.timed_out, run.console[-2000:]
    exc = run.one("exception")
    assert exc["exception"] == "data abort"
    assert int(exc["esr"], 16) >> 26 == 0x25
    assert int(exc["far"], 16) == 0xdead0000
    assert 0x80000 <= int(exc["pc"], 16) < 0x80000 + os.path.getsize(harness.KERNEL_2712)
    assert run.status == 3
