"""The Pi 5 platform on the simulator (build/host/sdbsim --host pi5): the
real firmware code with the BCM2712 quirk set against the simulator's
BCM2712 platform (controller above 4 GiB, cfg block, forced card presence).
No emulator models a Pi 5 and nothing here is measured on one: this is
where kernel_2712.img's SD path runs. The workload split of the quick suite
on pi5 is judged against the wire truth in tests/test_sdbsim.py."""
import os
import sys

import pytest

sys.path.insert(0, os.path.join(os.path.dirname(__file__), "sim"))
import simtruth  # noqa: E402


def run(card, suite):
    if not os.path.exists(simtruth.SDBSIM):
        pytest.skip("build/host/sdbsim not built: run make first")
    code, recs, out = simtruth.run(card, "pi5", config="suite = %s\n" % suite)
    return code, recs, out


def check_platform(recs, out):
    board = next(r for r in recs if r["type"] == "board")
    assert board["host"] == "pi5" and board["platform"] == "bcm2712"
    assert board["host_base"] == "0x1000fff000"
    assert "host: sdio1 at 0x1000fff000, base clock 200000000 Hz" in out
    assert "no emulator models one" in out
    # no protocol violation of the simulated controller or card
    assert [l for l in out.splitlines() if l.startswith("sim:")] == []
    assert recs[-1]["type"] == "done" and recs[-1]["errors"] == 0


@pytest.mark.parametrize("card", ["sdhc-c10-16g", "sdsc-v1-128m"])
def test_selftest_on_pi5(card):
    code, recs, out = run(card, "selftest")
    assert code == 0, out[-3000:]
    check_platform(recs, out)
    st = [r for r in recs if r["type"] == "selftest"]
    assert st and all(r.get("match", True) for r in st)


def test_quick_suite_on_pi5():
    code, recs, out = run("sdhc-c10-16g", "quick")
    assert code == 0, out[-3000:]
    check_platform(recs, out)
    suite = [r for r in recs if r["type"] == "suite"]
    assert len(suite) == 1 and suite[0]["aborted"] is False
    assert len([r for r in recs if r["type"] == "result"]) >= 10
