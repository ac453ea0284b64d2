"""sdblinux inside Debian's arm64 kernel under QEMU (qemu/linux/boot.py):
one boot on raspi3b with the card on SDHOST runs the basic workloads
through the kernel's block layer. The records read in sdbreport without a
warning, every write stays inside the test area (every byte outside it is
the same after the run) and the SD card model saw no protocol error.
Skipped, with the reason, where the kernel package cannot be fetched
(tools/fetch-linux-arm64.sh needs Debian's apt and its archive)."""
import os
import re
import subprocess
import sys

import pytest

import card_diff
import harness
from sdbhost import records

ROOT = os.path.abspath(os.path.join(os.path.dirname(__file__), "..", ".."))
sys.path.insert(0, os.path.join(ROOT, "qemu", "linux"))
import boot  # noqa: E402

SDBENCH_LOG = os.path.join(ROOT, "tests", "data", "qemu-raspi2b-quick.log")


@pytest.fixture(scope="module")
def linux():
    try:
        return boot.fetch()
    except (boot.Unavailable, OSError, subprocess.TimeoutExpired) as e:
        pytest.skip("Debian's arm64 kernel cannot be fetched here: %s" % e)


def test_sdblinux_in_linux_on_sdhost(tmp_path, linux):
    img = str(tmp_path / "sd.img")
    before = card_diff.image_with_user_data(img, 11, kernel=harness.KERNEL8)
    run = boot.boot("raspi3b", "sdhost", img, ["--workloads", "--emulated"], timeout=600,
                    icount=False, linux=linux)
    assert not run.timed_out, run.console[-3000:]
    assert run.sd_guest_errors() == [], run.sd_guest_errors()
    log = records.read_text(run.console, "linux console")
    assert log.warnings == [] and log.bad_lines == 0, log.warnings
    assert len(log.runs) == 1
    done = run.one("done")
    assert done["errors"] == 0 and done["writes_refused"] == 0, run.console[-3000:]
    assert run.one("board")["model"].startswith("Raspberry Pi 3")
    results = {r["workload"]: r for r in run.of_type("result")}
    assert {"seq-read-512", "seq-read-4m", "rand-read-4k", "seq-write-4k",
            "rand-write-4k"} <= set(results), sorted(results)
    assert all(r["source"] == "linux" and r["errors"] == 0 for r in results.values())
    area = run.one("test_area")
    lo, hi = area["first_lba"], area["first_lba"] + area["count"]
    changed = card_diff.changed_blocks(before, img)
    assert changed, "the writes did not reach the card"
    outside = [b for b in changed if not lo <= b < hi]
    assert outside == [], "blocks written outside the test area: %s" % outside[:10]
    # sdbreport compare puts the Linux log next to an sdbench log of QEMU's
    # card (the committed quick-suite run): both figures and the difference
    # for every workload sdblinux ran, no warning.
    lx = tmp_path / "linux.log"
    lx.write_text(run.console)
    p = subprocess.run([os.path.join(ROOT, "build", "host", "sdbreport"), "compare",
                        SDBENCH_LOG, str(lx)],
                       stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, timeout=120)
    assert p.returncode == 0 and p.stderr == "", p.stdout[-2000:] + p.stderr
    for name in ("seq-read-4k", "rand-read-4k", "seq-write-64k"):
        m = re.search(r"^%s\n  A +([\d.]+) (MB/s|IOPS) .*\n  B +([\d.]+) \2 .*\n"
                      r"  B vs A: ([+-][\d.]+)%%" % name, p.stdout, re.M)
        assert m, (name, p.stdout[-3000:])
