"""The run on HDMI under QEMU: at the end of a quick suite the screen (QEMU's
framebuffer model, read back with the monitor's screendump) shows exactly
what tests/qemu/screen_model.py draws from the run's records with the same
font: board, card, test area, results file, the end line, the card and its
claims, the emulated mark, the summary rows with their card / bus / host bars;
during a run, the running step's progress line with the time left.
"""
import os
import re
import sys
import time

import pytest

import harness
import screen_model

sys.path.insert(0, os.path.join(harness.ROOT, "qemu"))
import screendump  # noqa: E402


@pytest.mark.parametrize("machine,kernel,extra,row2", [
    ("raspi2b", harness.KERNEL, [], "test area: "),
    ("raspi3b", harness.KERNEL8, [], "test area: "),
    # a key that gates writes, misspelt: the screen says why nothing is written
    ("raspi2b", harness.KERNEL, ["write_tests = of"],
     "writes are off: sdbench.txt line 6 could not be read (write_tests = of"),
    ("raspi2b", harness.KERNEL, ["test_area = most of it"],
     "writes are off: sdbench.txt line 6 could not be read (test_area = most of it"),
], ids=["raspi2b-kernel", "raspi3b-kernel8", "write_tests-of", "test_area-garbage"])
def test_end_of_run_on_the_screen(tmp_path, machine, kernel, extra, row2):
    console, ppm = screendump.run(str(tmp_path), machine, kernel, extra=extra)
    assert '"type":"screen","width":1280,"height":720' in console
    w, h, got = screendump.read_ppm(ppm)
    assert (w, h) == (1280, 720)
    rows = screen_model.screen_rows(console, h // screen_model.CH, w // screen_model.CW)
    head = [i for i, r in enumerate(rows) if r.startswith("  summary ")]
    assert rows[0].startswith("sdbench - Raspberry Pi") and len(head) == 1, rows
    assert any("MB/s" in r for r in rows[7:]) and rows[4].startswith("finished: quick"), rows
    assert rows[2].startswith(row2) and (extra or "writes go only there" in rows[2]), rows
    # for a person across the room: the card and its claims first (the
    # headline's), the emulated mark, then a row per summary workload
    assert '"type":"headline"' in console and "unknown QEMU! " in rows[6], rows
    assert "EMULATED: timings are QEMU's" in rows[6:head[0]], rows
    summary = [r for r in rows[head[0] + 1:] if r.startswith("  ") and ("MB/s" in r or "IOPS" in r)]
    # every row of the summary record (reads only when nothing is written)
    rec = [r for r in screen_model.records(console) if '"type":"summary"' in r][-1]
    assert len(summary) == sum('"%s":{' % k in rec for k, *_ in screen_model.SUMMARY), rows
    assert len(summary) >= (2 if extra else 5), rows
    if not extra:
        # a row with a diagnosis has a bar; one without says "no diagnosis"
        # and has none. Under QEMU the data takes no time on the wire, so
        # neither its PIO reads nor its PIO writes need a look the probes
        # did not confirm (docs/silicon.md, read-wire): rows have bars
        for r in summary:
            assert ("no diagnosis" in r) != bool(set(r) & set(screen_model.BAR_CHARS)), r
        assert any(set(r) & set(screen_model.BAR_CHARS) for r in summary), summary
    want = screen_model.render(rows, w, h)
    bad = screen_model.differing_rows(want, got, w, h)
    assert bad == [], "rows %s differ; expected:\n%s" % (bad, "\n".join(rows))


# The full profile: its steps take seconds under QEMU (the first, 32 MiB
# read in 512 B blocks, up to 10 s), so its progress lines show the time left.
DURING = ["suite = full", "seed = 7", "console_wait = 0"]


def _running_step(text):
    return screen_model.screen_rows(text, 22)[4].endswith(" s left")


@pytest.mark.parametrize("machine,kernel", [("raspi2b", harness.KERNEL),
                                            ("raspi3b", harness.KERNEL8)],
                         ids=["raspi2b-kernel", "raspi3b-kernel8"])
def test_progress_line_during_a_run(tmp_path, machine, kernel):
    """While a step runs, row 4 is its progress line (label, share done,
    rate, time left) as the serial console printed it last. The board is
    stopped through the monitor, the console read and the screen dumped at
    that one moment, then it runs on. The moment can fall inside a redraw
    (the UART has the new line, the screen not yet): the next moment is
    tried, up to 30 of them, each checked in full against the host's
    rendering; fewer than 10 may miss."""
    b = screendump.Board(str(tmp_path), machine, kernel, sdbench=DURING)
    ppm = str(tmp_path / "during.ppm")
    seen = []
    try:
        for _ in range(30):
            b.wait_for(_running_step, 300, "a progress line with the time left")
            text = b.frozen_dump(ppm)
            w, h, got = screendump.read_ppm(ppm)
            rows = screen_model.screen_rows(text, h // screen_model.CH,
                                            w // screen_model.CW)
            if rows[4].endswith(" s left"):
                bad = screen_model.differing_rows(screen_model.render(rows, w, h), got, w, h)
                if not bad:
                    break
                seen.append((rows[4], bad))
            else:
                seen.append((rows[4], "no running step at that moment"))
            time.sleep(0.3)
        else:
            pytest.fail("no moment matched the rendering:\n%s" % "\n".join(map(str, seen)))
    finally:
        b.close()
    assert re.match(r"> \S.* \d+% \d+\.\d\d MB/s about \d+ s left$", rows[4]), rows
    assert rows[0].startswith("sdbench - Raspberry Pi") and "summary" not in rows, rows
    assert len(seen) < 10, seen
