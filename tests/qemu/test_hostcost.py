"""suite = hostcost under QEMU (raspi2b): the request-path cost step prints
one "hostcost" record per data path the host offers and request size, with
consistent fields, reads only, and the run ends cleanly. The figures
themselves are a benchmark's (make bench-qemu), never asserted here."""
import harness

SIZES = [1, 8, 128, 8192]


def test_hostcost_records(tmp_path):
    img = harness.make_image(str(tmp_path / "sd.img"), size="256M",
                             sdbench=["suite = hostcost"])
    run = harness.boot("raspi2b", img, timeout=300)
    assert not run.timed_out, run.console[-3000:]
    assert not run.bad_records
    assert run.records[-1]["type"] == "done" and run.records[-1]["errors"] == 0, \
        run.console[-3000:]
    assert run.status == 0
    assert run.sd_guest_errors() == []
    assert run.one("suite")["profile"] == "hostcost"
    assert run.one("overhead")["bookkeeping_ns_per_op"] > 0
    # reads only: no workload records, no read-back check
    assert not run.of_type("result") and not run.of_type("integrity")

    rows = run.of_type("hostcost")
    # The host of the card's slot on raspi2b: the EMMC, by PIO today; a
    # data path the host adds shows up as rows of its own.
    paths = sorted({r["path"] for r in rows})
    assert "pio" in paths
    for path in paths:
        got = [r for r in rows if r["path"] == path]
        assert [r["blocks"] for r in got] == SIZES, got
        for r in got:
            assert "error" not in r, r
            assert r["host"] == "emmc" and r["op"] == "read"
            assert r["cmd"] == ("single" if r["blocks"] == 1 else "auto-cmd12")
            assert r["xfer_bytes"] == r["blocks"] * 512
            assert r["requests"] >= 4
            assert r["request_ns"] > 0 and r["driver_request_ns"] > 0
            assert abs(r["block_ns"] * r["blocks"] - r["request_ns"]) <= 0.1 * r["blocks"] + 0.1
            assert abs(r["request_ns"] - r["driver_request_ns"] - r["engine_ns"]) <= 0.2
    assert "request-path cost (emmc)" in run.console
