"""The Pi 5 platform on the simulator (build/host/sdbsim --host pi5): the
real firmware code with the BCM2712 quirk set against the simulator's
BCM2712 platform (controller above 4 GiB, cfg block, forced card presence).
No emulator models a Pi 5 and nothing here is measured on one: this is
where kernel_2712.img's SD path runs. The workload split of the quick suite
on pi5 is judged against the wire truth in tests/test_sdbsim.py."""
import os
import sys

import pytest

sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", "sim"))
import simtruth  # noqa: E402


def run(card, suite, host="pi5"):
    if not os.path.exists(simtruth.SDBSIM):
        pytest.skip("build/host/sdbsim not built: run make first")
    code, recs, out = simtruth.run(card, host, config="suite = %s\nseed = 1\n" % suite)
    return code, recs, out


def check_platform(recs, out, host="pi5"):
    board = next(r for r in recs if r["type"] == "board")
    assert board["host"] == host and board["platform"] == "bcm2712"
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
    # a card without UHS-I: the modes step has DS and HS at 3.3 V only
    card = next(r for r in recs if r["type"] == "card")
    assert card["bus_mode"] == "hs" and card["signal_mv"] == 3300
    modes = next(r for r in recs if r["type"] == "modes")
    assert [m["mode"] for m in modes["modes"]] == ["ds", "hs"]
    assert all(m["ok"] and m["signal_mv"] == 3300 for m in modes["modes"])
    assert modes["restore_ok"] is True


# The modes step on a UHS-I card (the quick suite of sim/uhs-quick.txt):
# every mode both sides accept, SDR104 at 200 MHz with CMD19 tuning.
EXPECT_MODES = [("ds", 25000000, 3300), ("hs", 50000000, 3300),
                ("sdr12", 25000000, 1800), ("sdr25", 50000000, 1800),
                ("sdr50", 100000000, 1800), ("ddr50", 50000000, 1800),
                ("sdr104", 200000000, 1800)]


def test_modes_step_reaches_sdr104_on_pi5():
    code, recs, out = run("uhs-sdr104-a2-64g", "quick")
    assert code == 0, out[-3000:]
    check_platform(recs, out)
    card = next(r for r in recs if r["type"] == "card")
    assert card["uhs_host_modes"] == ["sdr12", "sdr25", "sdr50", "sdr104", "ddr50"]
    assert card["bus_mode"] == "sdr104" and card["signal_mv"] == 1800
    assert card["clock_hz"] == 200000000 and 0 < card["tuning_tries"] <= 40
    modes = next(r for r in recs if r["type"] == "modes")
    got = [(m["mode"], m["clock_hz"], m["signal_mv"]) for m in modes["modes"]]
    assert got == EXPECT_MODES
    for m in modes["modes"]:
        assert m["ok"] and m["ran"] == m["mode"] and m["note"] is None, m
        assert 0 < m["read_mbs"] <= m["bus_ceiling_mbs"], m
        assert (m["tuning_tries"] > 0) == (m["mode"] == "sdr104"), m
    assert modes["restored"] == "auto" and modes["restore_ok"] is True


def test_modes_step_falls_back_when_the_regulator_does_not_switch(tmp_path):
    # the pi5 host with AON GPIO 3 stuck: the 1.8 V switch fails at the
    # card's initialisation, the card is power-cycled and runs HS at 3.3 V;
    # the modes step then offers DS and HS only
    text = open(os.path.join(simtruth.ROOT, "sim", "hosts", "pi5.txt")).read()
    host = tmp_path / "pi5-stuck.txt"
    host.write_text(text.replace("name = pi5", "name = pi5-stuck") +
                    "io_regulator_stuck = yes\n")
    code, recs, out = run("uhs-sdr104-a2-64g", "quick", host=str(host))
    assert code == 0, out[-3000:]
    check_platform(recs, out, host="pi5-stuck")
    card = next(r for r in recs if r["type"] == "card")
    assert card["bus_mode"] == "hs" and card["signal_mv"] == 3300
    assert "regulator did not switch" in card["bus_mode_note"]
    assert "power-cycled" in card["bus_mode_note"]
    modes = next(r for r in recs if r["type"] == "modes")
    assert [(m["mode"], m["signal_mv"], m["ok"]) for m in modes["modes"]] == \
        [("ds", 3300, True), ("hs", 3300, True)]
    assert modes["restore_ok"] is True


# The host comparison on a host that runs UHS-I (the Pi 4's EMMC2, the Pi
# 5's SD slot): every data path in every bus mode both sides accept, the
# same workloads in each, and the card back in its mode afterwards.
@pytest.mark.parametrize("host,card,paths,modes", [
    ("pi5", "uhs-sdr104-a2-64g", ["pio", "dma"],
     ["ds", "hs", "sdr12", "sdr25", "sdr50", "ddr50", "sdr104"]),
    ("pi4-uhs", "uhs-sdr50-16g", ["pio"], ["ds", "hs", "sdr12", "sdr25", "sdr50"]),
    ("pi5", "sdhc-c10-16g", ["pio", "dma"], ["ds", "hs"]),
])
def test_compare_hosts_bus_modes(host, card, paths, modes):
    if not os.path.exists(simtruth.SDBSIM):
        pytest.skip("build/host/sdbsim not built: run make first")
    code, recs, out = simtruth.run(card, host, config="suite = quick\nspan = 16M\n"
                                   "compare_hosts = on\nseed = 1\n")
    assert code == 0, out[-3000:]
    assert [l for l in out.splitlines() if l.startswith("sim:")] == []
    assert not [r for r in recs if r["type"] == "error"], out[-3000:]
    assert recs[-1]["type"] == "done" and recs[-1]["errors"] == 0
    rows = next(r for r in recs if r["type"] == "hosts")["rows"]
    assert next(r for r in recs if r["type"] == "host")["data_paths"] == paths
    got = [(r["data_path"], r["bus_mode"]) for r in rows[::4]]
    assert got == [(p, m) for p in paths for m in modes]
    assert all(r["mbs"] > 0 and r["ops"] > 0 for r in rows), rows
    # The sequential read follows the bus: every faster mode reads faster.
    seq = {(r["data_path"], r["bus_mode"]): r["mbs"] for r in rows
           if r["workload"] == "seq-read-64k"}
    for p in paths:
        order = [m for m in ("ds", "hs", "sdr50", "sdr104") if m in modes]
        speeds = [seq[(p, m)] for m in order]
        assert speeds == sorted(speeds) and speeds[0] < speeds[-1], (p, seq)
    integ = [r for r in recs if r["type"] == "integrity" and r["workload"] == "host-comparison"]
    assert integ and integ[0]["ok"] == integ[0]["blocks"] > 0
    assert "could not initialise the card again" not in out


def test_compare_hosts_measures_the_pi5_sdhci_slot():
    """The host comparison measures what the board's description
    (harness/sim_board.c after platform/bcm2712.c) says the slot has: on the
    Pi 5 its own SDHCI, not the Pi 0-3 controllers EMMC and SDHOST."""
    if not os.path.exists(simtruth.SDBSIM):
        pytest.skip("build/host/sdbsim not built: run make first")
    code, recs, out = simtruth.run("sdhc-c10-16g", "pi5", config="suite = quick\nspan = 16M\n"
                                   "compare_hosts = on\nseed = 1\n")
    assert code == 0, out[-3000:]
    assert not [r for r in recs if r["type"] == "error"], out[-3000:]
    assert [r["name"] for r in recs if r["type"] == "host"] == ["sdio1"]
    rows = next(r for r in recs if r["type"] == "hosts")["rows"]
    assert rows and {r["host"] for r in rows} == {"sdio1"}
    assert {r["data_path"] for r in rows} == {"pio", "dma"}
    assert "host = emmc" not in out and "host = sdhost" not in out


@pytest.mark.parametrize("host, accepted", [("pi5", True), ("pi3", False)])
def test_host_key_names_the_pi5_slot(host, accepted):
    """`host = sdio1` (the Pi 5's SDHCI, named in its driver header) is a
    value sdbench.txt accepts: applied on the Pi 5, refused with the reason
    on a board whose slot has no such controller."""
    if not os.path.exists(simtruth.SDBSIM):
        pytest.skip("build/host/sdbsim not built: run make first")
    code, recs, out = simtruth.run("sdhc-c10-16g", host,
                                   config="host = sdio1\nsuite = selftest\nseed = 1\n")
    assert code == 0, out[-3000:]
    assert next(r for r in recs if r["type"] == "config")["host"] == "sdio1"
    assert "not one of" not in out and "invalid" not in out.lower(), out[-3000:]
    names = [r["name"] for r in recs if r["type"] == "host"]
    if accepted:
        assert names == ["sdio1"] and "refused" not in out, out[-3000:]
    else:
        assert "sdio1" not in names and "host = sdio1 (sdbench.txt line 1) refused" in out
