"""Never lose a user's data: on several card layouts, a whole benchmark run
writes only inside the test area sdbench chose, and every byte outside it
(the MBR, every partition, the FAT file system around SDBENCH.DAT) is the
same after the run as before. Cards with no safe place get no writes at all.
"""
import os
import shutil
import subprocess

import pytest

import harness
from card_diff import fill_random

MiB = 1 << 20
SECTOR = 512


def diff_ranges(a, b, chunk=4 * MiB):
    """Byte ranges [start, end) where files a and b differ (coarse: 512 B)."""
    out = []
    with open(a, "rb") as fa, open(b, "rb") as fb:
        off = 0
        while True:
            x = fa.read(chunk)
            y = fb.read(chunk)
            if not x and not y:
                break
            if x != y:
                for s in range(0, max(len(x), len(y)), SECTOR):
                    if x[s:s + SECTOR] != y[s:s + SECTOR]:
                        st = off + s
                        if out and out[-1][1] == st:
                            out[-1][1] = st + SECTOR
                        else:
                            out.append([st, st + SECTOR])
            off += chunk
    return out


def run_layout(tmp_path, size, extra, sdbench=(), machine="raspi2b", seed_area=None,
               kernel=harness.KERNEL):
    img = str(tmp_path / "sd.img")
    harness.make_image(img, size=size, sdbench=list(sdbench), extra=list(extra))
    # User data everywhere a user could have some: fill every partition's
    # tail and the unpartitioned space with recognisable random bytes.
    total = os.path.getsize(img)
    fill_random(img, total - 8 * MiB, 8 * MiB, 1)
    if seed_area:
        for off, ln in seed_area:
            fill_random(img, off, ln, off)
    before = str(tmp_path / "before.img")
    shutil.copyfile(img, before)
    run = harness.boot(machine, img, kernel=kernel, timeout=600)
    assert not run.timed_out, run.console[-3000:]
    return img, before, run


def assert_only_in_area(run, img, before):
    area = run.one("test_area")
    changed = diff_ranges(before, img)
    if not area["usable"]:
        assert changed == [], "the card changed although no test area was usable: %r" % changed[:5]
        return area, changed
    lo = area["first_lba"] * SECTOR
    hi = lo + area["count"] * SECTOR
    outside = [r for r in changed if r[0] < lo or r[1] > hi]
    assert outside == [], "bytes changed outside the test area %d..%d: %r" % (lo, hi, outside[:5])
    return area, changed


# raspi2b with kernel.img; raspi3b with the AArch64 kernel8.img (its own
# start-up, MMU and compiler, the same write guard).
LAYOUT_CASES = [("raspi2b", harness.KERNEL), ("raspi3b", harness.KERNEL8)]


@pytest.mark.parametrize("machine,kernel", LAYOUT_CASES,
                         ids=["%s-%s" % (m, os.path.basename(k)[:-4]) for m, k in LAYOUT_CASES])
def test_pi_os_like_layout(tmp_path, machine, kernel):
    """Boot FAT32 + a Linux root partition, free space after it: the test
    area is the unpartitioned space; both partitions and the MBR stay intact."""
    img, before, run = run_layout(tmp_path, "512M", ["--part", "72M:256M:83"],
                                  seed_area=[(72 * MiB, 256 * MiB)], machine=machine,
                                  kernel=kernel)
    area, changed = assert_only_in_area(run, img, before)
    assert area["usable"] and area["source"] == "unpartitioned"
    assert area["first_lba"] * SECTOR >= (72 + 256) * MiB
    assert changed, "the write workloads wrote nothing"
    assert run.of_type("integrity"), "write workloads were not verified"
    for rec in run.of_type("integrity"):
        assert rec["ok"] == rec["blocks"], rec
    assert run.records[-1]["type"] == "done" and run.records[-1]["errors"] == 0


def test_full_card_with_sdbench_dat(tmp_path):
    """No free space, but a contiguous SDBENCH.DAT in the boot partition:
    writes stay inside the file's blocks; the FAT, the directory and every
    other file are untouched."""
    img, before, run = run_layout(tmp_path, "256M",
                                  ["--boot-size", "96M", "--sdbench-dat", "40M",
                                   "--part", "100M:156M:83"],
                                  seed_area=[(100 * MiB, 156 * MiB)])
    area, changed = assert_only_in_area(run, img, before)
    assert area["usable"] and area["source"] == "file"
    assert changed


def test_full_card_without_room(tmp_path):
    """Partitions fill the card and there is no SDBENCH.DAT: every write
    workload is skipped with a reason, reads still run, nothing changes."""
    img, before, run = run_layout(tmp_path, "256M", ["--part", "68M:188M:83"],
                                  seed_area=[(68 * MiB, 188 * MiB)])
    area, changed = assert_only_in_area(run, img, before)
    assert not area["usable"]
    assert area["hint"]
    assert run.of_type("skipped")
    assert any(r["op"] == "read" for r in run.of_type("result"))
    assert "no test area" in run.console


def test_gpt_card(tmp_path):
    """A GPT card: no writes at all (sdbench only trusts an MBR), reads run."""
    img, before, run = run_layout(tmp_path, "256M", ["--gpt"])
    area, changed = assert_only_in_area(run, img, before)
    assert not area["usable"]
    assert "GPT" in area["reason"]
    assert any(r["op"] == "read" for r in run.of_type("result"))


def test_explicit_range_overlapping_a_partition_is_refused(tmp_path):
    """test_area in sdbench.txt that overlaps the root partition is refused
    (with the partition named) and then there is no test area at all: the
    free space after it is not used in its place (docs/test-area.md), and
    the card is byte for byte what it was."""
    img, before, run = run_layout(tmp_path, "512M", ["--part", "72M:128M:83"],
                                  sdbench=["test_area = 150M+64M"],
                                  seed_area=[(72 * MiB, 128 * MiB)])
    area, changed = assert_only_in_area(run, img, before)
    assert not area["usable"] and area["source"] == "none" and changed == []
    assert "partition 2" in area.get("note", "") and "never guessed" in area["reason"]


def test_inconsistent_partition_table(tmp_path):
    """Overlapping partitions: the table cannot be trusted, so nothing is
    written; the reason is printed; reads still run."""
    img, before, run = run_layout(tmp_path, "256M", ["--part", "40M:64M:83"])
    layout = run.one("layout")
    assert layout["kind"] == "inconsistent" and layout["reason"]
    area, changed = assert_only_in_area(run, img, before)
    assert not area["usable"]
    assert any(r["op"] == "read" for r in run.of_type("result"))
    assert run.records[-1]["type"] == "done"
