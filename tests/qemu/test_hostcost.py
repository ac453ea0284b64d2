"""suite = hostcost under QEMU (raspi2b): the request-path cost step prints
one "hostcost" record per data path the host offers, direction and request
size, with consistent fields, and the run ends cleanly. Reads come first,
then writes, which go only into the test area through the write guard: the
whole image is compared before and after (as tests/qemu/test_safety.py
does), every changed byte inside the test area. The figures themselves are
a benchmark's (make bench-qemu), never asserted here."""
import harness
import test_safety as safety

SIZES = [1, 8, 128, 8192]
MiB = safety.MiB


def test_hostcost_records(tmp_path):
    # A Pi OS-like card: FAT boot partition, a Linux partition holding
    # user data, free space after it (the test area).
    img, before, run = safety.run_layout(tmp_path, "512M", ["--part", "72M:256M:83"],
                                         sdbench=["suite = hostcost"],
                                         seed_area=[(72 * MiB, 256 * MiB)])
    assert not run.bad_records
    assert run.records[-1]["type"] == "done" and run.records[-1]["errors"] == 0, \
        run.console[-3000:]
    assert run.status == 0
    assert run.sd_guest_errors() == []
    assert run.one("suite")["profile"] == "hostcost"
    assert run.one("overhead")["bookkeeping_ns_per_op"] > 0
    # no workload records, no read-back check
    assert not run.of_type("result") and not run.of_type("integrity")
    assert not run.of_type("skipped")
    # the writes stayed inside the test area, and there were some
    area, changed = safety.assert_only_in_area(run, img, before)
    assert area["usable"] and changed, "the write rows wrote nothing"

    rows = run.of_type("hostcost")
    # The host of the card's slot on raspi2b: the EMMC, by PIO and by the
    # DMA engine; every path has its read rows, then its write rows.
    paths = []
    for r in rows:
        if r["path"] not in paths:
            paths.append(r["path"])
    assert paths == ["pio", "dma"], paths
    for path in paths:
        got = [r for r in rows if r["path"] == path]
        assert [(r["op"], r["blocks"]) for r in got] == \
            [(op, b) for op in ("read", "write") for b in SIZES], got
        for r in got:
            assert "error" not in r, r
            assert r["host"] == "emmc"
            assert r["cmd"] == ("single" if r["blocks"] == 1 else "auto-cmd12")
            assert r["xfer_bytes"] == r["blocks"] * 512
            assert r["requests"] >= 4
            assert r["request_ns"] > 0 and r["driver_request_ns"] > 0
            assert abs(r["block_ns"] * r["blocks"] - r["request_ns"]) <= 0.1 * r["blocks"] + 0.1
            assert abs(r["request_ns"] - r["driver_request_ns"] - r["engine_ns"]) <= 0.2
            # what moved the data: PIO on the PIO path; on the DMA path a
            # one-block request by PIO (dma_pio_blocks = 1), the rest by DMA
            if path == "pio" or r["blocks"] == 1:
                assert r["moved_by"] == "pio", r
            else:
                assert r["moved_by"] == "dma" and r["pio_requests"] == 0, r
            if path == "dma" and r["blocks"] == 1:
                assert r["pio_requests"] == 2 * r["requests"], r
    assert "request-path cost (emmc)" in run.console


def test_hostcost_write_rows_skipped_without_a_test_area(tmp_path):
    """write_tests = off: read rows only, a "skipped" record says why, and
    the card is unchanged."""
    img, before, run = safety.run_layout(tmp_path, "256M", [],
                                         sdbench=["suite = hostcost", "write_tests = off"])
    assert run.records[-1]["type"] == "done" and run.records[-1]["errors"] == 0, \
        run.console[-3000:]
    assert run.sd_guest_errors() == []
    rows = run.of_type("hostcost")
    assert rows and {r["op"] for r in rows} == {"read"}, rows
    skipped = [r for r in run.of_type("skipped") if r["workload"] == "hostcost-write"]
    assert len(skipped) == 1 and skipped[0]["reason"], run.of_type("skipped")
    assert "hostcost-write" in run.console and "skipped" in run.console
    assert safety.diff_ranges(before, img) == []
