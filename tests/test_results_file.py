"""SDBENCH.LOG on the simulator: the whole program (build/host/sdbsim) runs on
a card image made by qemu/mkimage.py, and the image is compared byte for
byte afterwards. sdbench may change only the results file's data clusters
(as this test's own FAT reader, tests/qemu/fat_image.py, finds them) and
the test area; with a broken or unusable file, only the test area.

The file is read back with mtools (mcopy follows the FAT itself) and
reported by sdbreport.
"""
import os
import subprocess

import pytest

import card_diff
import fat_image
import results_file

ROOT = os.path.abspath(os.path.join(os.path.dirname(__file__), ".."))
SDBSIM = os.path.join(ROOT, "build", "host", "sdbsim")
MKIMAGE = os.path.join(ROOT, "qemu", "mkimage.py")
HEADER = b"# sdbench results file"


@pytest.fixture(scope="module", autouse=True)
def built():
    if not os.path.exists(SDBSIM):
        subprocess.run(["make", "-C", ROOT, "build/host/sdbsim"], check=True,
                       stdout=subprocess.DEVNULL)


def make(tmp_path, sdbench, results="8M", name="card.img"):
    img = str(tmp_path / name)
    args = ["/usr/bin/python3", MKIMAGE, "-o", img, "--size", "128M"]
    if results:
        args += ["--results-file", results]
    for line in sdbench:
        args.append("--sdbench=" + line)
    subprocess.run(args, check=True)
    return img


def run_sim(img, profile="instant-4g"):
    out = img + ".after"
    p = subprocess.run([SDBSIM, "--profile", profile, "--image", img, "--save-image", out],
                       stdout=subprocess.PIPE, stderr=subprocess.PIPE, timeout=300)
    assert p.returncode in (0, 1), p.stderr.decode()
    text = p.stdout.decode("utf-8", "replace")
    recs = [l for l in text.splitlines() if l.startswith("@ ")]
    return out, text, recs


def record(recs, rtype):
    import json
    found = [json.loads(l[2:]) for l in recs if json.loads(l[2:])["type"] == rtype]
    assert len(found) == 1, (rtype, found)
    return found[0]


def area_range(recs):
    ta = record(recs, "test_area")
    return (ta["first_lba"] * 512, (ta["first_lba"] + ta["count"]) * 512) if ta["usable"] \
        else (0, 0)


def check_written(before, after, recs, size_expected=None):
    """The file holds the run's records; nothing else outside the file's
    data and the test area changed."""
    data = results_file.written(before, after, area_range(recs))
    assert data.startswith(HEADER)
    end = data.find(b"\0")
    assert end > 0
    text = data[:end].decode()
    in_file = [l for l in text.splitlines() if l.startswith("@ ")]
    return in_file, data, end


def test_normal_run_written_and_reported(tmp_path):
    img = make(tmp_path, ["suite = quick", "seed = 3", "console_wait = 0"])
    after, text, recs = run_sim(img)
    rf = record(recs, "results_file")
    assert rf["usable"] and rf["bytes"] == 8 << 20 and len(rf["extents"]) == 1, rf
    in_file, data, end = check_written(img, after, recs)
    assert in_file == recs          # every record, in order, up to done
    assert recs[-1].startswith('@ {"type":"done"')
    # After the written end: the NUL padding, then the untouched pattern.
    nxt = (end + 511) // 512 * 512
    assert set(data[end:nxt]) <= {0}
    assert data[nxt:nxt + 64] == b"SDBENCH.LOG: free space for sdbench's console output (not used)\n"
    out, err = results_file.report(data, tmp_path)
    assert b"seq-read" in out and b"run ended: 0 error(s)" in out
    # The clock sweep's progress line runs into its record on every console
    # (not the file's doing): that warning only.
    assert all("noise before the record ignored" in l
               for l in err.decode().splitlines()), err.decode()


def fragment(fat, chain, positions):
    """Route the chain around chain[p + 1] through a free cluster, at each p."""
    used = set(chain)
    free = [c for c in range(chain[-1] + 1, chain[-1] + 4096) if fat.fat(c) == 0 and c not in used]
    for k, p in enumerate(positions):
        f = free[k]
        fat.set_fat(chain[p], f)
        fat.set_fat(f, chain[p + 2])
        fat.set_fat(chain[p + 1], 0)
    return free[:len(positions)]


def test_fragmented_chain_followed(tmp_path):
    img = make(tmp_path, ["suite = selftest", "console_wait = 0"])
    fat = fat_image.Fat32(img)
    first, size = fat.file()
    old = fat.chain(first)
    # Early in the file: the run's output crosses both detours.
    moved = fragment(fat, old, (5, 12))
    new = fat.chain(first)
    assert len(new) == len(old) and moved[0] in new and old[6] not in new
    after, text, recs = run_sim(img)
    rf = record(recs, "results_file")
    assert rf["usable"] and len(rf["extents"]) == 5, rf
    in_file, _, end = check_written(img, after, recs)
    assert in_file == recs and end > 14 * 512


def refused(tmp_path, img, why, profile="instant-4g"):
    after, text, recs = run_sim(img, profile)
    rf = record(recs, "results_file")
    assert not rf["usable"] and why in rf["reason"], rf
    assert "results file: none: " + rf["reason"] in text
    # suite = none: not one byte of the card changed.
    assert card_diff.changed_outside(img, after, []) == []
    return rf


NONE = ["suite = none", "console_wait = 0"]


def test_too_fragmented_refused(tmp_path):
    img = make(tmp_path, NONE)
    fat = fat_image.Fat32(img)
    first, _ = fat.file()
    fragment(fat, fat.chain(first), range(100, 2100, 100))
    refused(tmp_path, img, "fragmented into more than 16 pieces")


def test_truncated_chain_refused(tmp_path):
    img = make(tmp_path, NONE)
    fat = fat_image.Fat32(img)
    first, _ = fat.file()
    fat.set_fat(fat.chain(first)[500], 0)
    refused(tmp_path, img, "broken after 501 of 16384 clusters (a free cluster)")


def test_file_shorter_than_entry_refused(tmp_path):
    img = make(tmp_path, NONE)
    fat = fat_image.Fat32(img)
    first, _ = fat.file()
    fat.set_fat(fat.chain(first)[500], fat_image.EOC)
    refused(tmp_path, img, "shorter than its directory entry says: the chain ends after 501")


def test_chain_longer_than_entry_refused(tmp_path):
    img = make(tmp_path, NONE)
    fat = fat_image.Fat32(img)
    _, size = fat.file()
    fat.set_size(size - 4096)
    refused(tmp_path, img, "goes on past the 16376 clusters")


def test_cross_linked_refused(tmp_path):
    img = make(tmp_path, NONE)
    fat = fat_image.Fat32(img)
    first, _ = fat.file()
    chain = fat.chain(first)
    free = next(c for c in range(chain[-1] + 1, chain[-1] + 4096) if fat.fat(c) == 0)
    fat.set_fat(free, chain[300])
    refused(tmp_path, img, "cross-linked")


def test_missing_too_small_off_write_protected(tmp_path):
    refused(tmp_path, make(tmp_path, NONE, results=None, name="a.img"),
            "SDBENCH.LOG not found")
    refused(tmp_path, make(tmp_path, NONE, results="16K", name="b.img"),
            "SDBENCH.LOG is only 16384 bytes")
    refused(tmp_path, make(tmp_path, NONE + ["results_file = off"], name="c.img"),
            "results_file is off")
    # It gates writes: a value that cannot be read is off, not the default.
    refused(tmp_path, make(tmp_path, NONE + ["results_file = of"], name="e.img"),
            "results_file is off")
    refused(tmp_path, make(tmp_path, NONE, name="d.img"), "write-protected",
            profile="csd-tmp-wp-4g")


def test_full_file_stops_at_its_end(tmp_path):
    """A 64 KiB file and more output than that: the file ends in one NUL
    byte, nothing past its clusters is written, the console says so."""
    img = make(tmp_path, ["suite = quick", "seed = 3", "console_wait = 0"], results="64K")
    after, text, recs = run_sim(img)
    assert "results file: SDBENCH.LOG is full after 65535 bytes" in text
    in_file, data, end = check_written(img, after, recs)
    assert len(data) == 65536 and end == 65535
    n = len(in_file)
    assert n > 10 and in_file[:-1] == recs[:n - 1] and recs[n - 1].startswith(in_file[-1])


def test_a_results_file_not_written_yet_points_at_the_run_image_copy(tmp_path):
    """SDBENCH.LOG taken from the image make run-image was given (not the
    copy it booted) still holds its pattern: sdbreport says so and where the
    written copy is."""
    import sys
    sys.path.insert(0, os.path.join(ROOT, "tools"))
    from sdbhost import resultsfile
    log = tmp_path / "SDBENCH.LOG"
    log.write_bytes(resultsfile.pattern(64 << 10))
    p = subprocess.run([os.path.join(ROOT, "build", "host", "sdbreport"), str(log)],
                       stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    assert "SDBENCH.LOG is a results file that sdbench has not written yet" in p.stdout
    assert "make run-image boots a copy of the image and writes the copy, " \
        "build/qemu/sd-MACHINE.img" in p.stdout, p.stdout
