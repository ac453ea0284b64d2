"""sdblinux (tools/sdblinux) on image files, on the host: it writes only
inside the test area that sdbench's decision code chose, and nothing at all
where that code chose none or sdbench.txt turns writes off; its log reads
in sdbreport without a warning. (Under QEMU, inside the Debian kernel:
tests/qemu/test_linux.py.)"""
import os
import subprocess

import pytest

import card_diff
import harness
from sdbhost import records

ROOT = os.path.abspath(os.path.join(os.path.dirname(__file__), ".."))
TOOL = os.path.join(ROOT, "build", "host", "sdblinux")


def card(tmp_path, sdbench=(), extra=()):
    """A card image with user data in its unused space, and its copy."""
    img = str(tmp_path / "sd.img")
    before = card_diff.image_with_user_data(img, 7, kernel=harness.KERNEL8,
                                            sdbench=list(sdbench), extra=list(extra))
    return img, before


# The builds for the Pi's own OS, run on the host by QEMU's user-mode
# emulation (qemu-user): the same checks as the host build.
BUILDS = {"host": [TOOL],
          "armhf": ["qemu-arm", os.path.join(ROOT, "build", "sdblinux", "sdblinux-armhf")],
          "arm64": ["qemu-aarch64", os.path.join(ROOT, "build", "sdblinux", "sdblinux-arm64")]}


def run(img, *args, build="host"):
    p = subprocess.run(BUILDS[build] + list(args) + [img], stdout=subprocess.PIPE,
                       stderr=subprocess.PIPE, text=True, timeout=300)
    assert p.returncode == 0, p.stdout[-3000:] + p.stderr
    log = records.read_text(p.stdout, "sdblinux")
    assert log.warnings == [] and log.bad_lines == 0, log.warnings
    assert len(log.runs) == 1 and log.runs[0].ended_by
    return p.stdout, log.runs[0]


def of_type(out, t):
    return [r for r in harness.Run(0, out, "", False).records if r["type"] == t]


@pytest.mark.parametrize("build", sorted(BUILDS))
def test_writes_stay_inside_the_test_area(tmp_path, build):
    img, before = card(tmp_path)
    out, _ = run(img, build=build)
    area = of_type(out, "test_area")[0]
    assert area["usable"], area
    lo, hi = area["first_lba"], area["first_lba"] + area["count"]
    changed = card_diff.changed_blocks(before, img)
    # It did write (every write workload and the cost step ran) ...
    assert changed, "no block changed: the writes did not happen"
    assert {r["workload"] for r in of_type(out, "result") if r["op"] == "write"} == {
        "seq-write-512", "seq-write-4k", "seq-write-64k", "seq-write-4m", "rand-write-4k"}
    assert [r["op"] for r in of_type(out, "hostcost")].count("write") == 4
    # ... and only inside the area.
    outside = [b for b in changed if not lo <= b < hi]
    assert outside == [], "blocks written outside the test area: %s" % outside[:10]
    for r in of_type(out, "result") + of_type(out, "hostcost") + of_type(out, "done"):
        assert r["source"] == "linux", r
    done = of_type(out, "done")[0]
    assert done["errors"] == 0 and done["writes_refused"] == 0, done


@pytest.mark.parametrize("build", sorted(BUILDS))
def test_a_test_area_past_4_gib_is_written_there(tmp_path, build):
    """Byte offsets past 4 GiB: on 32-bit Linux (armhf) only a build with
    64-bit file offsets reaches them; a 32-bit one would write 4 GiB lower.
    An 8 GiB sparse card whose sdbench.txt puts the test area at 5 GiB gets
    its writes there and nowhere else."""
    img, before = str(tmp_path / "sd.img"), str(tmp_path / "before.img")
    harness.make_image(img, "8G", kernel=harness.KERNEL8,
                       sdbench=["test_area = %d+65536" % (5 << 21)])
    subprocess.run(["cp", "--sparse=always", img, before], check=True)
    out, _ = run(img, "--workloads", build=build)
    area = of_type(out, "test_area")[0]
    assert area["usable"] and area["first_lba"] == 5 << 21, area
    changed = card_diff.changed_blocks(before, img)
    assert changed, "the writes did not reach the card"
    outside = [b for b in changed if not area["first_lba"] <= b < area["first_lba"] + 65536]
    assert outside == [], "blocks written outside the test area: %s" % outside[:10]


@pytest.mark.parametrize("why,sdbench,extra,args", [
    ("gpt", (), ("--gpt",), ()),
    ("write_tests off", ("write_tests = off",), (), ()),
    ("--no-writes", (), (), ("--no-writes",)),
])
def test_no_area_no_writes(tmp_path, why, sdbench, extra, args):
    img, before = card(tmp_path, sdbench, extra)
    out, _ = run(img, *args)
    assert card_diff.changed_blocks(before, img) == [], why
    assert not [r for r in of_type(out, "result") if r["op"] == "write"]
    assert not [r for r in of_type(out, "hostcost") if r["op"] == "write"]
    skipped = {r["workload"] for r in of_type(out, "skipped")}
    assert {"hostcost-write", "seq-write", "rand-write"} <= skipped, out[-2000:]
    # The reads still ran.
    assert {r["workload"] for r in of_type(out, "result")} >= {"seq-read-4k", "rand-read-4k"}


def test_bad_device_is_a_clear_error(tmp_path):
    p = subprocess.run([TOOL, str(tmp_path / "missing.img")], stdout=subprocess.PIPE,
                       stderr=subprocess.PIPE, text=True, timeout=60)
    assert p.returncode == 2 and "missing.img" in p.stderr and "No such file" in p.stderr

