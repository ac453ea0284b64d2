"""The basic workloads of the quick suite under QEMU (raspi1ap, the machine
the other suite tests do not use): every workload the suite promises
prints its records, the records agree with each other, the numbers are
labelled as emulated, and the run ends without errors or protocol
violations."""
import harness
import honest

SIZES = ["512", "1k", "2k", "4k", "8k", "16k", "32k", "64k", "128k", "256k", "512k",
         "1m", "2m", "4m"]


def test_quick_suite_records(tmp_path):
    img = harness.make_image(str(tmp_path / "sd.img"), size="512M", sdbench=["suite=quick"])
    run = harness.boot("raspi1ap", img, timeout=600)
    assert not run.timed_out, run.console[-3000:]
    assert not run.bad_records
    assert run.records[-1]["type"] == "done" and run.records[-1]["errors"] == 0, \
        run.console[-3000:]
    assert run.status == 0
    assert run.sd_guest_errors() == [] and run.guest_errors == ""
    assert run.one("suite")["profile"] == "quick" and run.one("suite")["emulated"] is True

    res = {r["workload"]: r for r in run.of_type("result")}
    lat = {r["workload"]: r for r in run.of_type("latency")}
    ph = {r["workload"]: r for r in run.of_type("phases")}
    ver = {r["workload"]: r for r in run.of_type("verdict")}
    hist = {r["workload"]: r for r in run.of_type("histogram")}

    expected = ["seq-%s-%s" % (op, s) for op in ("read", "write") for s in SIZES]
    expected += ["rand-%s-%s" % (op, s) for op in ("read", "write")
                 for s in ("4k", "512", "16k", "64k")]
    expected += ["mix70-4k", "var-read-cmd17", "var-read-cmd18-cmd12", "var-read-auto12",
                 "var-write-cmd24", "var-write-cmd25-cmd12", "var-write-auto12",
                 "var-write-acmd23"]
    for name in expected:
        assert name in res, name
        r = res[name]
        assert r["emulated"] is True and r["errors"] == 0
        assert r["ops"] >= 1 and r["bytes"] == r["ops"] * r["xfer_bytes"]
        # MB and MiB: the same bytes over the same time
        assert abs(r["mbs"] / r["mibs"] - 1.048576) < 0.01, r
        assert name in lat and name in ph and name in ver and name in hist, name
        l = lat[name]
        assert l["count"] == r["ops"]
        assert l["min_ns"] <= l["p50_ns"] <= l["p90_ns"] <= l["p99_ns"] <= l["p999_ns"] <= l["max_ns"]
        assert sum(hist[name]["count"]) == r["ops"]
        p = ph[name]
        assert abs(p["card_pct"] + p["bus_pct"] + p["host_pct"] - 100.0) < 0.5, p
        assert ver[name]["bottleneck"] in ("card-bound", "bus-bound", "host-bound", "mixed",
                                           "none")
        assert ver[name]["text"]
    # no verdict above the bus ceiling: QEMU's figures are no diagnosis
    honest.assert_honest_verdicts(run)
    assert res["seq-read-4m"]["xfer_bytes"] == 4 << 20
    assert res["mix70-4k"]["op"] == "mixed"
    assert res["mix70-4k"]["reads"] > res["mix70-4k"]["writes"] > 0
    assert res["var-read-cmd17"]["cmd"] == "single"
    assert res["var-write-acmd23"]["cmd"] == "acmd23+auto-cmd12"
    # QEMU's card has no CMD23 in its SCR: the CMD23 variants are skipped with a reason.
    skipped = {r["workload"]: r["reason"] for r in run.of_type("skipped")}
    assert "CMD23" in skipped["var-read-cmd23"]

    # Clock sweep: at least four clocks per width and a fit per op and width.
    points = [r for r in run.of_type("sweep") if "fit" not in r]
    fits = [r for r in run.of_type("sweep") if "fit" in r]
    for op in ("read", "write"):
        for width in (1, 4):
            clocks = {p["clock_hz"] for p in points if p["op"] == op and p["width"] == width}
            assert len(clocks) >= 4 and min(clocks) <= 400000, (op, width, clocks)
            f = [x for x in fits if x["op"] == op and x["width"] == width]
            assert len(f) == 1 and f[0]["points"] >= 4 and f[0]["model_bus_clocks"] > 0

    summ = run.one("summary")
    best = max((r for n, r in res.items() if n.startswith("seq-read-")), key=lambda r: r["mbs"])
    assert summ["seq_read"]["workload"] == best["workload"]
    assert summ["seq_read"]["mbs"] == best["mbs"]
    assert summ["rand_write_4k"]["iops"] == res["rand-write-4k"]["iops"]
    assert summ["mix70_4k"]["verdict"] == ver["mix70-4k"]["text"]

    # QEMU's SDHCI counts a block down only when the CPU has drained it
    # (hw/sd/sdhci.c; docs/silicon.md, blkcnt-bus): the probe must not
    # confirm the look, and the split must not use it.
    sil = run.one("silicon")
    assert sil["host"] == "emmc" and sil["probed"] is True, sil
    assert sil["blkcnt"] != "bus" and sil["blkcnt_look_used"] is False, sil
    assert sil["cnt_full"] == sil["blocks"], sil  # nothing moved before a drain
    # ... and its card and bus take no time: a read's block is ready sooner
    # than half its frame after the command (docs/silicon.md, read-wire), so
    # the read split needs no look and no read verdict is silent for it.
    assert sil["read_wire"] == "instant" and sil["first_us"] < sil["frame_us"] / 2, sil
    assert not [v for v in run.of_type("verdict")
                if "Block Count was not seen to count" in v["text"]]
    assert "silicon: emmc Block Count during a read" in run.console
    # Its card takes a written block at once and is never busy: the write
    # probe cannot see DAT[0] show a busy, so the write looks are not used
    # (docs/silicon.md, dat0-level, buf-write-enable); nor are they needed,
    # a written block takes no time on the wire either (read-wire).
    assert sil["dat0"] in ("short", "none") and sil["write_looks_used"] is False, sil
    assert "silicon: emmc Buffer Write Enable" in run.console
    assert not [v for v in run.of_type("verdict")
                if "write looks (DAT[0] level, Buffer Write Enable)" in v["text"]]

    ov = run.one("overhead")
    assert ov["timestamp_ns"] > 0 and ov["bookkeeping_ns_per_op"] > 0
    for rec in run.of_type("integrity"):
        assert rec["ok"] == rec["blocks"] and rec["blocks"] > 0, rec
    assert "emulation speed" in run.console
