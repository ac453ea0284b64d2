"""SDBENCH.LOG as the tests check it after a run, on the simulator and under
QEMU: the byte compare of the card image (card_diff) against the file's
data clusters as this project's test FAT reader finds them (fat_image), the
file read back with mtools (which follows the FAT itself), and sdbreport
on what was read back.
"""
import os
import subprocess

import card_diff
import fat_image

SDBREPORT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "tools",
                         "sdbreport.py")


def written(before, after, area):
    """SDBENCH.LOG as mtools reads it back from the image after a run,
    once the byte compare shows that nothing changed outside the file's
    data clusters (where they are in the image before) and the byte range
    area [lo, hi) (the test area)."""
    fat = fat_image.Fat32(before)
    first, size = fat.file()
    allowed = fat.data_ranges(fat.chain(first), size) + [area]
    assert card_diff.changed_outside(before, after, allowed) == []
    return subprocess.run(["mcopy", "-n", "-i", "%s@@%d" % (after, fat.part_lba * fat_image.SECTOR),
                           "::SDBENCH.LOG", "-"],
                          stdout=subprocess.PIPE, env=dict(os.environ, MTOOLS_SKIP_CHECK="1"),
                          check=True).stdout


def report(data, tmp_path):
    """sdbreport on the file's bytes (saved as tmp_path/SDBENCH.LOG): it must
    read them without an error; its output (stdout, stderr) as bytes."""
    log = str(tmp_path / "SDBENCH.LOG")
    with open(log, "wb") as f:
        f.write(data)
    p = subprocess.run(["/usr/bin/python3", SDBREPORT, log], stdout=subprocess.PIPE,
                       stderr=subprocess.PIPE)
    assert p.returncode == 0, p.stderr.decode()
    return p.stdout, p.stderr
