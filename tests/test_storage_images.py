"""The storage layer on real card images made by the standard tools.

Images are built with sfdisk (partition tables), mkfs.vfat (FAT12/16/32) and
mtools (files), then examined by build/host/sdarea, which runs the firmware's
own code (bench/storage/: MBR, sdbench.txt, test-area choice) on the image.
Expected values come from the tools, not from our parser: the partition list
is compared with `sfdisk --json`, and a test area inside SDBENCH.DAT is
checked by finding the file's own (random) bytes at the reported LBAs.
"""
import hashlib
import json
import os
import shutil
import subprocess

import pytest

import card_diff

ROOT = os.path.abspath(os.path.join(os.path.dirname(__file__), ".."))
SDAREA = os.path.join(ROOT, "build", "host", "sdarea")
MIB = 1 << 20
SECTOR = 512
ALIGN = 8192            # 4 MiB in blocks
MIN_BLOCKS = 32768      # 16 MiB

TOOLS = ("sfdisk", "mkfs.vfat", "mcopy", "mdel")
pytestmark = pytest.mark.skipif(
    any(shutil.which(t) is None and not os.path.exists("/usr/sbin/" + t) for t in TOOLS),
    reason="needs sfdisk, dosfstools and mtools")

ENV = dict(os.environ, MTOOLS_SKIP_CHECK="1", PATH=os.environ.get("PATH", "") + ":/usr/sbin:/sbin")


@pytest.fixture(scope="module", autouse=True)
def sdarea_built():
    if not os.path.exists(SDAREA):
        subprocess.run(["make", "-C", ROOT, "build/host/sdarea"], check=True,
                       stdout=subprocess.DEVNULL)
    assert os.path.exists(SDAREA)


def run(*cmd, stdin=None):
    p = subprocess.run(cmd, input=stdin, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                       env=ENV)
    assert p.returncode == 0, (cmd, p.stdout, p.stderr)
    return p.stdout


def blank(path, size):
    with open(path, "wb") as f:
        f.truncate(size)


def partition(img, script):
    run("sfdisk", "--no-reread", "--no-tell-kernel", "-q", str(img),
        stdin=script.encode())


def sfdisk_json(img):
    return json.loads(run("sfdisk", "--json", str(img)))["partitiontable"]


def make_fat(path, blocks, fat, files=(), holes=(), sector=512):
    """A FAT file system image of `blocks` 512-byte blocks with `sector`-byte
    logical sectors holding `files` (name, bytes), written in order; names in
    `holes` are deleted afterwards (to fragment later files)."""
    blank(path, blocks * SECTOR)
    run("mkfs.vfat", "-F", str(fat), "-S", str(sector), "-n", "BOOT", str(path))
    for name, data in files:
        src = str(path) + "." + name
        with open(src, "wb") as f:
            f.write(data)
        run("mcopy", "-i", str(path), src, "::" + name)
        os.unlink(src)
        if name in holes:
            run("mdel", "-i", str(path), "::" + name)


def place(img, fs, lba):
    """Copy the file system image into the card image at lba, sparsely."""
    with open(fs, "rb") as src, open(img, "r+b") as dst:
        off = 0
        while True:
            chunk = src.read(MIB)
            if not chunk:
                break
            if chunk.count(0) != len(chunk):
                dst.seek(lba * SECTOR + off)
                dst.write(chunk)
            off += len(chunk)


def sdarea(img):
    before = digest(img)
    p = subprocess.run([SDAREA, "--json", str(img)], stdout=subprocess.PIPE,
                       stderr=subprocess.PIPE)
    assert p.returncode in (0, 1), p.stderr
    out = json.loads(p.stdout)
    assert digest(img) == before, "sdarea changed the image"
    assert (p.returncode == 0) == out["test_area"]["usable"]
    return out


def digest(path):
    """sha256 over the allocated data of a sparse file (holes read as zeros
    and cannot change without becoming data)."""
    h = hashlib.sha256()
    with open(path, "rb") as f:
        for data, hole in card_diff.data_extents(path):
            h.update(data.to_bytes(8, "little"))
            f.seek(data)
            left = hole - data
            while left:
                chunk = f.read(min(left, 4 * MIB))
                h.update(chunk)
                left -= len(chunk)
    return h.hexdigest()


def check_partitions_match_sfdisk(img, out):
    ours = [p for p in out["mbr"]["partitions"]]
    theirs = sfdisk_json(img)["partitions"]
    assert len(ours) == len(theirs)
    by_number = {p["number"]: p for p in ours}
    for t in theirs:
        num = int(t["node"].rsplit("img", 1)[-1].lstrip("p"))
        p = by_number[num]
        assert p["first_lba"] == t["start"], (p, t)
        assert p["count"] == t["size"], (p, t)
        assert int(p["type"], 16) == int(t["type"], 16), (p, t)


def area_inside_file(img, out, data):
    """The reported area holds exactly consecutive bytes of the file."""
    ta = out["test_area"]
    first, count = ta["first_lba"], ta["count"]
    with open(img, "rb") as f:
        f.seek(first * SECTOR)
        region = f.read(count * SECTOR)
    k = data.find(region[:SECTOR])
    assert k >= 0 and k % SECTOR == 0, "area does not start inside SDBENCH.DAT"
    assert data[k:k + count * SECTOR] == region, "area is not the file's blocks"
    assert k + count * SECTOR <= len(data)
    return k


def pios_card(tmp_path, size_mib, root_mib, boot_files=(), fat=32, boot_mib=256, holes=(),
              sector=512):
    img = tmp_path / "card.img"
    blank(img, size_mib * MIB)
    boot_blocks = boot_mib * MIB // SECTOR
    script = "label: dos\nstart=8192, size=%d, type=c, bootable\n" % boot_blocks
    if root_mib:
        script += "start=%d, size=%d, type=83\n" % (8192 + boot_blocks, root_mib * MIB // SECTOR)
    elif root_mib is None:
        script += "start=%d, type=83\n" % (8192 + boot_blocks)   # to the end
    partition(img, script)
    fs = tmp_path / "boot.fs"
    make_fat(fs, boot_blocks, fat, boot_files, holes, sector)
    place(img, fs, 8192)
    return img


def test_pios_layout_free_space_and_config(tmp_path):
    cfg = (b"# sdbench\r\nsuite = full\r\nspan = 12x\r\n\r\ncolour = blue\r\n"
           b"max_clock_hz = 25MHz\r\n")
    img = pios_card(tmp_path, 1024, 512, [("SDBENCH.TXT", cfg), ("KERNEL.IMG", b"\0" * 5000)])
    out = sdarea(img)
    assert out["mbr"]["kind"] == "MBR"
    check_partitions_match_sfdisk(img, out)
    c = out["config"]
    assert c["found"]
    assert c["values"]["suite"] == "full"
    assert c["values"]["span"] == 256 * MIB            # bad value: default kept
    assert c["values"]["max_clock_hz"] == 25000000
    assert any(m.startswith("config: line 3: span = 12x: not a size") for m in c["messages"])
    assert any(m.startswith('config: line 5: unknown key "colour"') for m in c["messages"])
    assert len(c["messages"]) == 2
    # Lines that could not be read: no test area (docs/config.md).
    ta = out["test_area"]
    assert not ta["usable"] and "line 3 could not be read" in ta["reason"], ta
    # The same card with a clean file: the free space after the root.
    img = pios_card(tmp_path, 1024, 512, [("SDBENCH.TXT", b"suite = full\r\n"),
                                          ("KERNEL.IMG", b"\0" * 5000)])
    out = sdarea(img)
    ta = out["test_area"]
    end = 8192 + 768 * MIB // SECTOR
    start = -(-end // ALIGN) * ALIGN
    assert ta["usable"] and ta["source"] == "unpartitioned"
    assert ta["first_lba"] == start
    assert ta["count"] == 1024 * MIB // SECTOR - start


def test_full_card_contiguous_sdbench_dat(tmp_path):
    data = os.urandom(40 * MIB)
    img = pios_card(tmp_path, 512, None, [("SDBENCH.DAT", data)])
    out = sdarea(img)
    check_partitions_match_sfdisk(img, out)
    ta = out["test_area"]
    assert ta["usable"] and ta["source"] == "file", ta
    assert ta["first_lba"] % ALIGN == 0
    assert ta["count"] >= MIN_BLOCKS
    k = area_inside_file(img, out, data)
    # Only the alignment was given away, nothing else of the file.
    assert k < ALIGN * SECTOR
    assert k + ta["count"] * SECTOR == len(data) // SECTOR * SECTOR
    boot_end = 8192 + 256 * MIB // SECTOR
    assert 8192 <= ta["first_lba"] and ta["first_lba"] + ta["count"] <= boot_end


def test_full_card_fragmented_sdbench_dat(tmp_path):
    # 64 MiB boot partition: A (20 MiB) and B (30 MiB) fill it but ~13 MiB;
    # with A deleted, no free run holds the 24 MiB SDBENCH.DAT.
    files = [("A.BIN", os.urandom(20 * MIB)), ("B.BIN", os.urandom(30 * MIB)),
             ("SDBENCH.DAT", os.urandom(24 * MIB))]
    img = pios_card(tmp_path, 512, None, files, boot_mib=64, holes=("A.BIN",))
    out = sdarea(img)
    ta = out["test_area"]
    assert not ta["usable"]
    assert "fragmented" in ta["reason"], ta
    assert "contiguous" in ta["hint"]


def test_full_card_without_file(tmp_path):
    img = pios_card(tmp_path, 512, None, [("SDBENCH.TXT", b"suite=quick\n")])
    out = sdarea(img)
    ta = out["test_area"]
    assert not ta["usable"] and ta["source"] == "none"
    assert "SDBENCH.DAT not found" in ta["reason"]
    for word in ("GParted", "fallocate", "fsutil file createnew", "mkfile"):
        assert word in ta["hint"]


@pytest.mark.parametrize("fat,boot_mib", [(16, 128), (12, 8)])
def test_fat16_fat12_boot_partitions(tmp_path, fat, boot_mib):
    data = os.urandom(20 * MIB) if fat == 16 else b""
    files = [("SDBENCH.TXT", b"seed = 42\nwrite_tests = off\n")]
    if data:
        files.append(("SDBENCH.DAT", data))
    img = pios_card(tmp_path, 256, None, files, fat=fat, boot_mib=boot_mib)
    out = sdarea(img)
    assert out["config"]["found"]
    assert out["config"]["values"]["seed"] == 42
    assert out["config"]["values"]["write_tests"] is False
    if data:
        assert out["test_area"]["source"] == "file"
        area_inside_file(img, out, data)
    else:
        assert not out["test_area"]["usable"]


@pytest.mark.parametrize("sector", [1024, 2048, 4096])
@pytest.mark.parametrize("fat", [16, 32])
def test_large_logical_sectors(tmp_path, fat, sector):
    """FAT volumes with 1, 2 and 4 KiB logical sectors (mkfs.vfat -S)."""
    data = os.urandom(20 * MIB)
    files = [("SDBENCH.TXT", b"seed = 5\n"), ("SDBENCH.DAT", data)]
    img = pios_card(tmp_path, 1024, None, files, fat=fat, boot_mib=512, sector=sector)
    out = sdarea(img)
    assert out["config"]["values"]["seed"] == 5
    assert out["test_area"]["source"] == "file", out["test_area"]
    area_inside_file(img, out, data)


def test_explicit_test_area(tmp_path):
    # 1 GiB card, boot 256 MiB, root 512 MiB, free space after 776 MiB.
    free_first = 8192 + 768 * MIB // SECTOR
    root_first = 8192 + 256 * MIB // SECTOR
    good = "test_area = %d+64M\n" % (free_first + 8192)
    img = pios_card(tmp_path, 1024, 512, [("SDBENCH.TXT", good.encode())])
    out = sdarea(img)
    ta = out["test_area"]
    assert ta["source"] == "config"
    assert ta["first_lba"] == free_first + 8192 and ta["count"] == 64 * MIB // SECTOR

    bad = "test_area = %d-%d\n" % (root_first + 100, root_first + 199)
    img2 = pios_card(tmp_path, 1024, 512, [("SDBENCH.TXT", bad.encode())])
    out = sdarea(img2)
    ta = out["test_area"]
    assert "refused" in ta["note"] and "partition 2 (Linux, type 0x83" in ta["note"]
    # Refused: no area at all, never the automatic one in its place.
    assert ta["source"] == "none" and not ta["usable"]


def test_extended_partitions_match_sfdisk(tmp_path):
    img = tmp_path / "card.img"
    blank(img, 1024 * MIB)
    partition(img, "label: dos\n"
                   "start=8192, size=131072, type=c, bootable\n"
                   "start=139264, size=131072, type=83\n"
                   "start=270336, size=65536, type=82\n"
                   "start=335872, size=1048576, type=f\n"
                   "size=262144, type=83\n"
                   "size=131072, type=82\n"
                   "size=65536, type=83\n")
    out = sdarea(img)
    assert out["mbr"]["kind"] == "MBR"
    check_partitions_match_sfdisk(img, out)
    parts = out["mbr"]["partitions"]
    assert [p["number"] for p in parts] == [1, 2, 3, 4, 5, 6, 7]
    assert out["mbr"]["used_extents"] == [{"first_lba": 0, "count": 1},
                                          {"first_lba": 8192, "count": 335872 + 1048576 - 8192}]
    assert parts[3]["extended"] and all(p["logical"] for p in parts[4:])
    ta = out["test_area"]
    assert ta["source"] == "unpartitioned"
    end = 335872 + 1048576
    assert ta["first_lba"] == -(-end // ALIGN) * ALIGN
    # Free space inside the extended container is not offered.
    cfg_img = tmp_path / "boot.fs"
    make_fat(cfg_img, 131072, 32,
             [("SDBENCH.TXT", b"test_area = %d+100\n" % (335872 + 1048576 - 1000))])
    place(img, cfg_img, 8192)
    out = sdarea(img)
    assert "refused" in out["test_area"]["note"]
    assert "partition 4 (extended (LBA)" in out["test_area"]["note"]


def test_gpt_card(tmp_path):
    img = tmp_path / "card.img"
    blank(img, 256 * MIB)
    partition(img, "label: gpt\nstart=2048, size=131072, type=uefi\n")
    out = sdarea(img)
    assert out["mbr"]["kind"] == "GPT"
    assert not out["test_area"]["usable"]
    assert "GPT" in out["test_area"]["reason"]


def test_corrupt_tables(tmp_path):
    img = tmp_path / "card.img"
    blank(img, 256 * MIB)
    partition(img, "label: dos\nstart=8192, size=65536, type=c\nstart=73728, size=65536, type=83\n")
    mbr = bytearray(open(img, "rb").read(SECTOR))

    def with_mbr(m):
        with open(img, "r+b") as f:
            f.write(bytes(m))
        return sdarea(img)

    m = bytearray(mbr)
    m[510] = 0
    out = with_mbr(m)
    assert out["mbr"]["kind"] == "none"
    assert not out["test_area"]["usable"]

    m = bytearray(mbr)
    m[446 + 16 + 8:446 + 16 + 12] = (8192 + 1000).to_bytes(4, "little")   # p2 into p1
    out = with_mbr(m)
    assert out["mbr"]["kind"] == "inconsistent" and "overlap" in out["mbr"]["reason"]
    assert not out["test_area"]["usable"]

    m = bytearray(mbr)
    m[446 + 16 + 12:446 + 16 + 16] = (256 * MIB // SECTOR).to_bytes(4, "little")
    out = with_mbr(m)
    assert "past the card's end" in out["mbr"]["reason"]
    assert not out["test_area"]["usable"]

    out = with_mbr(mbr)
    assert out["test_area"]["usable"]


def test_superfloppy_card(tmp_path):
    img = tmp_path / "card.img"
    data = os.urandom(24 * MIB)
    make_fat(img, 256 * MIB // SECTOR, 32, [("SDBENCH.DAT", data)])
    out = sdarea(img)
    assert out["mbr"]["kind"] == "superfloppy"
    assert out["test_area"]["source"] == "file"
    area_inside_file(img, out, data)


def test_qemu_image_builder_layout(tmp_path):
    """The image the QEMU tests boot: the firmware must find free space."""
    img = tmp_path / "sd.img"
    run("/usr/bin/python3", os.path.join(ROOT, "qemu", "mkimage.py"), "-o", str(img),
        "--size", "512M", "--sdbench", "suite=quick")
    out = sdarea(img)
    assert out["config"]["values"]["suite"] == "quick"
    assert out["test_area"]["source"] == "unpartitioned"
    check_partitions_match_sfdisk(img, out)


def test_qemu_image_builder_full_card_with_sdbench_dat(tmp_path):
    """The full-card image of the QEMU safety tests: the area is the file."""
    img = tmp_path / "sd.img"
    run("/usr/bin/python3", os.path.join(ROOT, "qemu", "mkimage.py"), "-o", str(img),
        "--size", "512M", "--part", "68M:444M:83", "--sdbench-dat", "32M")
    out = sdarea(img)
    ta = out["test_area"]
    assert ta["source"] == "file", ta
    boot = out["mbr"]["partitions"][0]
    assert boot["first_lba"] <= ta["first_lba"]
    assert ta["first_lba"] + ta["count"] <= boot["first_lba"] + boot["count"]
    assert ta["count"] >= MIN_BLOCKS
