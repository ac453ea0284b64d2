"""SDBENCH.LOG under QEMU: the firmware writes its console output into the
file's data clusters and nowhere else outside the test area (byte compare
of the whole card image; the clusters come from tests/qemu/fat_image.py's
own FAT reader), sdbreport reports the file as read back with mtools; a
chain broken by hand gets no file output and not one byte changes; a
console command's output is in the file before the next prompt.
tests/test_results_file.py runs more cases on the simulator.
"""
import json
import shutil

import pytest

import card_diff
import fat_image
import harness
import results_file

# A write into the test area too: the self-test's write check.
WRITE_SELFTEST = ["suite = selftest", "selftest_write = 200000+64"]


def image(tmp_path, sdbench, kernel=harness.KERNEL):
    img = str(tmp_path / "sd.img")
    harness.make_image(img, size="128M", kernel=kernel, sdbench=sdbench,
                       extra=["--results-file", "1M"])
    return img


def boot(tmp_path, img, machine, kernel=harness.KERNEL):
    before = str(tmp_path / "before.img")
    shutil.copyfile(img, before)
    r = harness.boot(machine, img, kernel=kernel, timeout=300)
    assert not r.timed_out and r.status is not None, r.console[-2000:]
    assert r.sd_guest_errors() == [], r.guest_errors
    return before, r


def area(r):
    ta = r.one("test_area")
    return (ta["first_lba"] * 512, (ta["first_lba"] + ta["count"]) * 512)


def console_records(r):
    return [json.dumps(x, separators=(",", ":")) for x in r.records]


@pytest.mark.parametrize("machine,kernel", [("raspi2b", harness.KERNEL),
                                            ("raspi3b", harness.KERNEL8)],
                         ids=["raspi2b-kernel", "raspi3b-kernel8"])
def test_output_in_the_file_and_nowhere_else(tmp_path, machine, kernel):
    img = image(tmp_path, WRITE_SELFTEST, kernel)
    fat = fat_image.Fat32(img)
    first, _ = fat.file()
    chain = fat.chain(first)
    if machine == "raspi2b":
        # Fragmented by hand, early in the file: the firmware follows it.
        free = [c for c in range(chain[-1] + 1, chain[-1] + 4096) if fat.fat(c) == 0]
        for k, p in enumerate((3, 9)):
            fat.set_fat(chain[p], free[k])
            fat.set_fat(free[k], chain[p + 2])
            fat.set_fat(chain[p + 1], 0)
    before, r = boot(tmp_path, img, machine, kernel)
    rf = r.one("results_file")
    assert rf["usable"] and len(rf["extents"]) == (5 if machine == "raspi2b" else 1), rf
    assert r.one("done")["errors"] == 0
    data = results_file.written(before, img, area(r))
    assert card_diff.changed_outside(before, img, [area(r)]) != []   # the file did change
    end = data.index(b"\0")
    assert end > 12 * 512       # across both detours
    in_file = [json.dumps(json.loads(l[2:]), separators=(",", ":"))
               for l in data[:end].decode().splitlines() if l.startswith("@ ")]
    assert in_file == console_records(r)
    out, _ = results_file.report(data, tmp_path)
    assert b"run ended: 0 error(s)" in out


@pytest.mark.parametrize("case", ["truncated", "shorter"])
def test_broken_chain_no_output_no_change(tmp_path, case):
    img = image(tmp_path, ["suite = none"])
    fat = fat_image.Fat32(img)
    first, _ = fat.file()
    fat.set_fat(fat.chain(first)[700], 0 if case == "truncated" else fat_image.EOC)
    before, r = boot(tmp_path, img, "raspi0")
    rf = r.one("results_file")
    want = "broken after 701 of 2048" if case == "truncated" else \
        "shorter than its directory entry says: the chain ends after 701 of 2048"
    assert not rf["usable"] and want in rf["reason"], rf
    assert "results file: none: " in r.console
    assert card_diff.changed_outside(before, img, []) == []


def test_console_command_is_in_the_file_before_the_next_prompt(tmp_path):
    """A console command's output reaches SDBENCH.LOG when the command ends,
    not when the 64 KiB buffer fills or the run ends: the card image, read
    while the board waits at the next prompt, holds every record printed so
    far (and nothing changed outside the file and the test area)."""
    import console_session
    img = image(tmp_path, ["suite = quick", "console_wait = 3"])
    before = str(tmp_path / "before.img")
    shutil.copyfile(img, before)
    s = console_session.Session("raspi2b", img, timeout=240)
    try:
        s.expect(r"press Enter within 3 s for the console", 30)
        s.send("\r")
        s.expect(r"sdbench> ")
        s.command("run seq-write", timeout=120)
        run = s.run()
        assert run.of_type("result") and run.of_type("integrity"), run.console[-2000:]
        now = str(tmp_path / "now.img")
        shutil.copyfile(img, now)
        data = results_file.written(before, now, area(run))
        in_file = [json.dumps(json.loads(l[2:]), separators=(",", ":"))
                   for l in data.split(b"\0")[0].decode("utf-8", "replace").splitlines()
                   if l.startswith("@ ")]
        assert in_file == console_records(run)
        s.send("halt\r")
        assert s.wait_exit(30) == 0
    finally:
        s.close()
