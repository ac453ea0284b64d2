"""The class, AU, open-AU, erase and sustained workloads in the quick suite
under QEMU (docs/card-checks.md): each prints its record with consistent
fields, says that the figures are emulated, writes only inside the test
area, and skips its write parts cleanly when writes are off."""
import os

import pytest

import harness

MiB = 1 << 20
SECTOR = 512
EXTRA_TYPES = ("class", "au", "open_au", "erase", "sustained")


def quick_run(tmp_path, machine, sdbench=()):
    img = str(tmp_path / "sd.img")
    harness.make_image(img, size="256M", sdbench=["suite=quick"] + list(sdbench))
    run = harness.boot(machine, img, timeout=600)
    assert not run.timed_out, run.console[-3000:]
    assert not run.bad_records, run.bad_records[:3]
    return run


@pytest.mark.parametrize("machine", ["raspi2b", "raspi0"])
def test_extra_workloads_quick(tmp_path, machine):
    run = quick_run(tmp_path, machine)
    assert run.records[-1]["type"] == "done" and run.records[-1]["errors"] == 0, \
        run.console[-3000:]
    assert run.sd_guest_errors() == []
    area = run.one("test_area")
    assert area["usable"]
    lo, hi = area["first_lba"], area["first_lba"] + area["count"]

    cls = run.one("class")
    assert cls["emulated"] is True
    # QEMU's card has an all-zero SD Status: it claims nothing.
    assert cls["ssr"] is True and cls["app_claim"] == "none"
    assert cls["speed_class_claim"] == 0
    assert cls["app_meets_claim"] is None and cls["speed_meets_claim"] is None
    assert cls["read_iops"] > 0 and cls["write_iops"] > 0 and cls["seq_write_mbs"] > 0
    assert cls["pw_mbs"] > 0 and len(cls["pw_au_mbs"]) >= 1
    assert cls["queue_depth"] == 1 and cls["cq_enabled"] is False
    assert cls["app_text"].startswith("card claims no application class: measured ")
    assert lo <= cls["area_first_lba"] and cls["area_first_lba"] + cls["area_bytes"] // SECTOR <= hi
    for name in ("class-pw", "class-seq-write", "class-rand-read-4k", "class-rand-write-4k"):
        assert [r for r in run.of_type("result") if r["workload"] == name], name

    au = run.one("au")
    n = len(au["align_bytes"])
    assert n >= 2 and all(len(au[k]) == n for k in ("pre_ns", "on_ns", "post_ns", "noise_ns"))
    assert au["align_bytes"] == [16384 << k for k in range(n)]
    assert au["declared_au_bytes"] is None and au["match"] == "unknown"
    assert "emulated" in au["text"]
    # the detector says what it could see; a boundary it names has a
    # positive straddling penalty there (QEMU's reads often have none)
    assert au["threshold_ns"] > 0 and isinstance(au["inconclusive"], bool)
    if au["measured_bytes"] is not None:
        k = au["align_bytes"].index(au["measured_bytes"])
        assert au["on_ns"][k] > (au["pre_ns"][k] + au["post_ns"][k]) / 2, au
    if au["inconclusive"]:
        assert au["text"].startswith("inconclusive (threshold "), au

    oa = run.one("open_au")
    assert oa["n"][:2] == [1, 2] and len(oa["mbs"]) == len(oa["n"])
    assert oa["handled"] >= 1 and lo <= oa["first_lba"] < hi

    er = run.one("erase")
    assert er["count"] >= 1 and er["min_us"] <= er["median_us"] <= er["max_us"]
    assert lo <= er["first_lba"] < hi

    su = run.one("sustained")
    assert su["ops"] >= 4 and su["bytes"] == su["ops"] * su["xfer_bytes"]
    assert su["first_lba"] == lo
    assert su["worst_ns"] >= su["median_op_ns"] > 0
    assert 1 <= len(su["rate_mbs"]) <= 32
    assert (su["knee_bytes"] is None) == (not su["knee_found"])

    for rec in run.of_type("integrity"):
        assert rec["ok"] == rec["blocks"], rec
    assert {"class", "open-au", "sustained-write"} <= \
        {r["workload"] for r in run.of_type("integrity")}


def test_extra_workloads_without_writes(tmp_path):
    run = quick_run(tmp_path, "raspi2b", sdbench=["write_tests=off"])
    skipped = {r["workload"] for r in run.of_type("skipped")}
    assert {"class-write", "open-au", "erase-au", "sustained-write"} <= skipped, skipped
    assert run.of_type("open_au") == [] and run.of_type("erase") == []
    assert run.of_type("sustained") == []
    cls = run.one("class")
    assert cls["read_iops"] > 0 and cls["write_iops"] is None and cls["pw_mbs"] is None
    assert "incomplete" in cls["app_text"]
    assert run.one("au")["align_bytes"]  # the read-only test still runs
    assert not [r for r in run.of_type("result") if r["op"] == "write"]
