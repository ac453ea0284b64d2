"""The run on HDMI under QEMU: at the end of a quick suite the screen (QEMU's
framebuffer model, read back with the monitor's screendump) shows exactly
what tests/qemu/screen_model.py draws from the run's records with the same
font: board, card, test area, results file, the end line, the summary.
"""
import os
import sys

import pytest

import harness
import screen_model

sys.path.insert(0, os.path.join(harness.ROOT, "qemu"))
import screendump  # noqa: E402


@pytest.mark.parametrize("machine,kernel", [("raspi2b", harness.KERNEL),
                                            ("raspi3b", harness.KERNEL8)],
                         ids=["raspi2b-kernel", "raspi3b-kernel8"])
def test_end_of_run_on_the_screen(tmp_path, machine, kernel):
    console, ppm = screendump.run(str(tmp_path), machine, kernel)
    assert '"type":"screen","width":1280,"height":720' in console
    w, h, got = screendump.read_ppm(ppm)
    assert (w, h) == (1280, 720)
    rows = screen_model.screen_rows(console, h // screen_model.CH, w // screen_model.CW)
    assert rows[0].startswith("sdbench - Raspberry Pi") and "summary" in rows, rows
    assert any("MB/s" in r for r in rows[7:]) and rows[4].startswith("finished: quick"), rows
    if '"type":"headline"' in console:      # above the summary, wrapped
        assert rows[6] and rows.index("summary") > 7, rows
    want = screen_model.render(rows, w, h)
    bad = screen_model.differing_rows(want, got, w, h)
    assert bad == [], "rows %s differ; expected:\n%s" % (bad, "\n".join(rows))
