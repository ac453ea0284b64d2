"""suite = hostcost on the simulator: every data path the host offers gets
its rows, without being named anywhere in the step (host->data_paths): the
Pi 4 EMMC2 profile with ADMA2 gives PIO and DMA rows, the Pi 2 profile PIO
only, SDHOST PIO and DMA (the BCM2835 DMA engine). Each path has read rows
and then write rows (into the test area, through the write guard); without
writes (write_tests = off) the write rows are skipped with a record saying
why. Each row says what moved the data: on SDHOST's DMA path a one-block
request moves by PIO (dma_pio_blocks, 1 by default), unless dma_pio_blocks
= 0. Figures are not asserted (make bench-qemu reports them)."""
import json
import os
import subprocess
import tempfile

ROOT = os.path.abspath(os.path.dirname(os.path.dirname(__file__)))
SDBSIM = os.path.join(ROOT, "build", "host", "sdbsim")
SIZES = [1, 8, 128, 8192]


def run(host, extra=(), controller=None):
    with tempfile.NamedTemporaryFile("w", suffix=".txt", delete=False) as f:
        f.write("suite = hostcost\n" + "".join(l + "\n" for l in extra))
        cfg = f.name
    args = [SDBSIM, "--host", host, "--profile", "sdhc-c10-16g", "--config", cfg]
    if controller:
        args += ["--controller", controller]
    try:
        p = subprocess.run(args, stdout=subprocess.PIPE, stderr=subprocess.PIPE, timeout=600)
    finally:
        os.unlink(cfg)
    recs = [json.loads(l[2:]) for l in p.stdout.decode().splitlines() if l.startswith("@ ")]
    assert recs and recs[-1]["type"] == "done" and recs[-1]["errors"] == 0, recs[-3:]
    return recs


def rows_of(recs):
    return [r for r in recs if r["type"] == "hostcost"]


def check_rows(rows, paths, ops=("read", "write")):
    assert [(r["path"], r["op"], r["blocks"]) for r in rows] == \
        [(p, op, b) for p in paths for op in ops for b in SIZES], rows
    for r in rows:
        assert "error" not in r, r
        assert r["cmd"] == ("single" if r["blocks"] == 1 else "auto-cmd12")
        assert r["xfer_bytes"] == r["blocks"] * 512
        assert r["request_ns"] > 0 and r["driver_request_ns"] > 0
        assert r["moved_by"] in ("pio", "dma", "mixed")
        assert 0 <= r["pio_requests"] <= 2 * r["requests"]
        if r["path"] == "pio":
            assert r["moved_by"] == "pio" and r["pio_requests"] == 0, r


def test_every_data_path_gets_rows():
    """The Pi 4's EMMC2 by PIO and ADMA2; the Pi 2's EMMC by PIO and the
    DMA engine (its SoC's table attaches the engine, DREQ 11)."""
    for host in ("pi4-emmc2", "pi2"):
        recs = run(host)
        rows = rows_of(recs)
        check_rows(rows, ["pio", "dma"])
        for r in rows:
            if r["path"] == "dma" and host == "pi4-emmc2":
                # ADMA2 has no small-request threshold: every DMA row by DMA
                assert r["moved_by"] == "dma" and r["pio_requests"] == 0, r
            elif r["path"] == "dma" and r["blocks"] > 1:
                assert r["moved_by"] == "dma", r
        assert not [r for r in recs if r["type"] == "skipped"]


def test_sdhost_dma_rows_say_what_moved_the_data():
    rows = rows_of(run("pi2", controller="sdhost"))
    check_rows(rows, ["pio", "dma"])
    for r in rows:
        if r["path"] == "dma":
            # the driver's default: one-block requests by PIO, the rest by DMA
            want = "pio" if r["blocks"] == 1 else "dma"
            assert r["moved_by"] == want, r
            assert r["pio_requests"] == (2 * r["requests"] if r["blocks"] == 1 else 0), r
    rows = rows_of(run("pi2", ["dma_pio_blocks = 0"], controller="sdhost"))
    check_rows(rows, ["pio", "dma"])
    for r in rows:
        if r["path"] == "dma":
            assert r["moved_by"] == "dma" and r["pio_requests"] == 0, r


def test_write_rows_skipped_without_writes():
    recs = run("pi2", ["write_tests = off"])
    check_rows(rows_of(recs), ["pio", "dma"], ops=("read",))
    skipped = [r for r in recs if r["type"] == "skipped"]
    assert [r["workload"] for r in skipped] == ["hostcost-write"], skipped
    assert skipped[0]["reason"]
