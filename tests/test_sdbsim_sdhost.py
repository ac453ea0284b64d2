"""The whole program on the simulator's SDHOST controller (build/host/sdbsim
--controller sdhost): the quick suite and the host comparison through the
real SDHOST driver, no errors, no protocol violations, the host and card
records name SDHOST (the comparison moves the card to the EMMC and back), a wire-truth record per workload (their accuracy is
checked by tests/test_sdbsim.py); the
comparison has SDHOST's PIO and DMA rows (the simulated DMA engine with
DREQ 13) and the EMMC's, the quick suite itself runs by the DMA engine
(data_path = auto: the Pi 3's table, platform/bcm2836.c)."""
import json
import os
import subprocess

import pytest

ROOT = os.path.abspath(os.path.join(os.path.dirname(__file__), ".."))
SDBSIM = os.path.join(ROOT, "build", "host", "sdbsim")


def records(out):
    return [json.loads(l[2:]) for l in out.splitlines() if l.startswith("@ ")]


def test_quick_suite_on_sdhost(tmp_path):
    if not os.path.exists(SDBSIM):
        pytest.skip("build/host/sdbsim not built: run make first")
    cfg = tmp_path / "sdbench.txt"
    cfg.write_text("suite = quick\nspan = 16M\ncompare_hosts = on\n")
    p = subprocess.run([SDBSIM, "--profile", "sdhc-c10-16g", "--host", "pi3",
                        "--controller", "sdhost", "--config", str(cfg)],
                       stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, timeout=300)
    assert p.returncode == 0, p.stdout[-3000:]
    assert "sim:" not in p.stdout, "protocol violations:\n" + p.stdout[-3000:]
    recs = records(p.stdout)
    assert recs[-1]["type"] == "done" and recs[-1]["errors"] == 0
    hosts = [r for r in recs if r["type"] == "host"]
    # the comparison moves the card to the simulated board's other
    # controller (harness/sim_board.c: the EMMC beside SDHOST) and back
    assert [h["name"] for h in hosts] == ["sdhost", "emmc", "sdhost"]
    assert hosts[0]["base_clock_hz"] == 250000000 and hosts[0]["auto_cmd12"] is True
    card = [r for r in recs if r["type"] == "card"][0]
    assert card["host"] == "sdhost" and card["clock_hz"] == 50000000  # 250 MHz / (3 + 2)
    res = [r for r in recs if r["type"] == "result"]
    assert len(res) > 30 and all(r["errors"] == 0 for r in res)
    truth = [r for r in recs if r["type"] == "truth" and r["result_printed"]]
    assert len(truth) >= 30
    for t in truth:
        assert abs(t["card_pct"] + t["bus_pct"] + t["host_pct"] - 100.0) < 0.1
        assert t["clock_hz"] == 50000000 and t["width"] == 4
    table = [r for r in recs if r["type"] == "hosts"][0]
    assert {r["workload"] for r in table["rows"]} == {
        "seq-read-64k", "seq-write-64k", "rand-read-4k", "rand-write-4k"}
    assert all(r["mbs"] > 0 for r in table["rows"])
    assert sorted((r["host"], r["data_path"]) for r in table["rows"][::4]) == [
        ("emmc", "dma"), ("emmc", "pio"), ("sdhost", "dma"), ("sdhost", "pio")]
    assert hosts[0]["data_paths"] == ["pio", "dma"]
    # The CPU's own time per block: PIO moves every word, the engine moves
    # the words of a DMA row (the CPU sets it up and reads a read's last 3).
    cpu = {(r["data_path"], r["workload"]): r["cpu_ns_per_block"] for r in table["rows"]
           if r["host"] == "sdhost"}
    for wl in ("seq-read-64k", "seq-write-64k", "rand-read-4k", "rand-write-4k"):
        assert 0 < cpu[("dma", wl)] < cpu[("pio", wl)] / 4, (wl, cpu)
        # at least the 128 port accesses the simulated pi3 charges a block
        # (sim/hosts/pi3.txt: data_read 100 ns, data_write 50 ns)
        assert cpu[("pio", wl)] >= 128 * (100 if "read" in wl else 50), (wl, cpu)
    assert {r["data_path"] for r in res} == {"dma"}
    integ = [r for r in recs if r["type"] == "integrity" and r["workload"] == "host-comparison"]
    assert integ and integ[0]["ok"] == integ[0]["blocks"] > 0


def test_bad_controller_is_refused():
    if not os.path.exists(SDBSIM):
        pytest.skip("build/host/sdbsim not built: run make first")
    p = subprocess.run([SDBSIM, "--profile", "sdhc-c10-16g", "--controller", "pl180"],
                       stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    assert p.returncode == 2 and "emmc or sdhost" in p.stdout
