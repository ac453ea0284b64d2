"""sdbsim --host on each real board (its host profile's `soc` key) builds
the simulated board from that SoC's table in platform/ (harness/sim_board.c
sim_soc_place, then the firmware's slot builder): the board record names the
table, the host record the controller at that SoC's address, and data_path =
auto moves data as on the board (the Pi 0-3's EMMC and SDHOST by the DMA
engine, as Linux's bcm2835-mmc and bcm2835 sdhost drivers do; the Pi 4's
EMMC2 and the Pi 5's sdio1 by PIO, their tables' choice). A short run (the
selftest suite: reads in every mode) ends without errors or protocol
violations. The expected addresses are the SoCs' own (BCM2835 ARM
Peripherals §1.2.3 and §5: EMMC at 0x7E300000 bus, SDHOST 0x7E202000;
BCM2711 ARM Peripherals §1.2.4 and the EMMC2 at +0x340000 of its
bcm2711.dtsi; bcm2712.dtsi sdio1 at 0x10_00FF_F000), not read from the
tables."""
import json
import os
import subprocess

import pytest

ROOT = os.path.abspath(os.path.join(os.path.dirname(__file__), ".."))
SDBSIM = os.path.join(ROOT, "build", "host", "sdbsim")

BOARDS = [
    # host, controller, SoC table, controller name, its address, auto path
    ("pi0", None, "BCM2835", "emmc", "0x20300000", "dma"),
    ("pi1", "sdhost", "BCM2835", "sdhost", "0x20202000", "dma"),
    ("pi2", None, "BCM2836", "emmc", "0x3f300000", "dma"),
    ("pi3", None, "BCM2837", "emmc", "0x3f300000", "dma"),
    ("pi3", "sdhost", "BCM2837", "sdhost", "0x3f202000", "dma"),
    ("pi4-emmc2", None, "BCM2711", "emmc2", "0xfe340000", "pio"),
    ("pi5", None, "BCM2712", "sdio1", "0x1000fff000", "pio"),
]


def run(host, controller, tmp_path, suite="selftest"):
    if not os.path.exists(SDBSIM):
        pytest.skip("build/host/sdbsim not built: run make first")
    cfg = tmp_path / "sdbench.txt"
    cfg.write_text("suite = %s\n" % suite)
    args = [SDBSIM, "--profile", "sdhc-c10-16g", "--host", host, "--config", str(cfg)]
    if controller:
        args += ["--controller", controller]
    return subprocess.run(args, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True,
                          timeout=300)


@pytest.mark.parametrize("host, controller, soc, name, base, path", BOARDS)
def test_a_real_board_is_built_from_its_soc_table(tmp_path, host, controller, soc, name,
                                                   base, path):
    p = run(host, controller, tmp_path)
    assert p.returncode == 0, p.stdout[-3000:]
    assert "sim:" not in p.stdout, "protocol violations:\n" + p.stdout[-3000:]
    recs = [json.loads(l[2:]) for l in p.stdout.splitlines() if l.startswith("@ ")]
    assert recs[-1]["type"] == "done" and recs[-1]["errors"] == 0, recs[-1]
    board = next(r for r in recs if r["type"] == "board")
    assert board["soc_table"] == soc
    h = next(r for r in recs if r["type"] == "host")
    assert (h["name"], h["base"]) == (name, base)
    dp = next(r for r in recs if r["type"] == "data_path")
    assert (dp["requested"], dp["path"]) == ("auto", path), dp
    selftests = [r for r in recs if r["type"] == "selftest"]
    assert selftests and all(s["match"] for s in selftests)


def test_a_controller_the_soc_lacks_is_refused(tmp_path):
    """The Pi 4's slot is EMMC2's alone (bcm2711.c): no SDHOST there."""
    p = run("pi4-emmc2", "sdhost", tmp_path, suite="none")
    assert p.returncode == 2
    assert "the BCM2711's SD slot has no controller sdhost" in p.stdout


def test_a_generic_host_keeps_the_simulated_board(tmp_path):
    """The simulator's own hosts name no SoC: no soc_table, the generic
    board (harness/sim_board.c sim_board_desc), as the goldens have it."""
    p = run("sim", None, tmp_path, suite="none")
    assert p.returncode == 0, p.stdout[-3000:]
    recs = [json.loads(l[2:]) for l in p.stdout.splitlines() if l.startswith("@ ")]
    board = next(r for r in recs if r["type"] == "board")
    assert "soc_table" not in board
