"""suite = hostcost on the simulator: every data path the host offers gets
its rows, without being named anywhere in the step (host->data_paths): the
Pi 4 EMMC2 profile with ADMA2 gives PIO and DMA rows, the Pi 2 profile PIO
only. Figures are not asserted (make bench-qemu reports them)."""
import json
import os
import subprocess
import tempfile

ROOT = os.path.abspath(os.path.dirname(os.path.dirname(__file__)))
SDBSIM = os.path.join(ROOT, "build", "host", "sdbsim")


def run(host):
    with tempfile.NamedTemporaryFile("w", suffix=".txt", delete=False) as f:
        f.write("suite = hostcost\n")
        cfg = f.name
    try:
        p = subprocess.run([SDBSIM, "--host", host, "--profile", "sdhc-c10-16g", "--config", cfg],
                           stdout=subprocess.PIPE, stderr=subprocess.PIPE, timeout=600)
    finally:
        os.unlink(cfg)
    recs = [json.loads(l[2:]) for l in p.stdout.decode().splitlines() if l.startswith("@ ")]
    assert recs and recs[-1]["type"] == "done" and recs[-1]["errors"] == 0, recs[-3:]
    return [r for r in recs if r["type"] == "hostcost"]


def test_every_data_path_gets_rows():
    for host, paths in (("pi4-emmc2", ["pio", "dma"]), ("pi2", ["pio"])):
        rows = run(host)
        assert [r["path"] for r in rows] == [p for p in paths for _ in range(4)], (host, rows)
        for r in rows:
            assert "error" not in r and r["blocks"] in (1, 8, 128, 8192)
            assert r["request_ns"] > 0 and r["driver_request_ns"] > 0
