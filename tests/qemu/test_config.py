"""sdbench.txt: bad values and unknown keys are reported with their line
numbers, the keys keep their defaults, and the run carries on; good values
take effect."""
import harness


def test_bad_values_are_reported_and_the_run_continues(tmp_path):
    img = harness.make_image(str(tmp_path / "sd.img"), size="128M", sdbench=[
        "# a user's file",
        "suite = none",
        "span = 12x",
        "colour = blue",
        "write_tests = perhaps",
    ])
    run = harness.boot("raspi0", img, timeout=120)
    assert not run.timed_out
    cfg = run.one("config")
    assert cfg["file"] is True
    msgs = " | ".join(cfg["messages"])
    assert "line 3" in msgs and "span" in msgs
    assert "line 4" in msgs and "colour" in msgs
    assert "line 5" in msgs and "write_tests" in msgs
    assert cfg["span"] == 256 * 1024 * 1024      # the default stands
    assert cfg["write_tests"] is True
    assert cfg["suite"] == "none"                # the good line took effect
    for m in cfg["messages"]:
        assert m in run.console                   # printed for people too
    assert run.records[-1]["type"] == "done"
    assert run.status == 0


def test_write_tests_off_skips_every_write(tmp_path):
    img = harness.make_image(str(tmp_path / "sd.img"), size="128M",
                             sdbench=["suite = quick", "write_tests = off"])
    run = harness.boot("raspi2b", img, timeout=300)
    assert not run.timed_out
    results = run.of_type("result")
    assert results and all(r["writes"] == 0 for r in results)
    assert run.of_type("skipped")
    assert run.records[-1]["type"] == "done" and run.records[-1]["errors"] == 0
