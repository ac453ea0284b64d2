"""Build an SD card image laid out like a real Raspberry Pi card (the
command qemu/mkimage.py; sdbcard image uses it from the installed package).

MBR, a FAT32 boot partition holding kernel.img, config.txt and (optionally)
sdbench.txt and other files, the rest of the card unpartitioned unless more
partitions are asked for. The file is sparse and its size a power of two
(QEMU's SD card model requires that).

Examples:
  qemu/mkimage.py -o build/qemu/sd.img --size 512M --kernel build/kernel.img
  qemu/mkimage.py -o x.img --size 1G --part 72M:256M:83 --sdbench 'suite=quick'
  qemu/mkimage.py -o x.img --size 256M --gpt
"""
import argparse
import os
import struct
import subprocess
import sys
import tempfile

from . import resultsfile

SECTOR = 512

CONFIG_TXT = """# sdbench: boot the 32-bit kernel.img on every Raspberry Pi
kernel=kernel.img
arm_64bit=0
# PL011 UART on GPIO 14/15 at 115200 8N1 (Pi 3/4/Zero W: take it from Bluetooth)
enable_uart=1
dtoverlay=disable-bt
"""


def parse_size(text):
    text = text.strip().upper()
    mult = 1
    for suffix, m in (("K", 1 << 10), ("M", 1 << 20), ("G", 1 << 30)):
        if text.endswith(suffix):
            mult = m
            text = text[:-1]
            break
    return int(text, 0) * mult


def mbr_entry(boot, ptype, start, count):
    # CHS fields are set to the LBA-only marker values (0xFE, 0xFF, 0xFF).
    chs = b"\xfe\xff\xff"
    return struct.pack("<B3sB3sII", 0x80 if boot else 0, chs, ptype, chs, start, count)


def write_mbr(f, parts, disk_id=0x5D8B4E1A):
    mbr = bytearray(SECTOR)
    struct.pack_into("<I", mbr, 440, disk_id)
    for i, (boot, ptype, start, count) in enumerate(parts):
        mbr[446 + 16 * i:446 + 16 * (i + 1)] = mbr_entry(boot, ptype, start, count)
    mbr[510] = 0x55
    mbr[511] = 0xAA
    f.seek(0)
    f.write(mbr)


def make_fat(path, size_bytes, files, sdbench_dat_bytes=0, label="BOOT", results_bytes=0):
    with open(path, "wb") as f:
        f.truncate(size_bytes)
    subprocess.run(["mkfs.vfat", "-F", "32", "-s", "1", "-n", label, path],
                   check=True, stdout=subprocess.DEVNULL)
    env = dict(os.environ, MTOOLS_SKIP_CHECK="1")
    made_dirs = set()
    if sdbench_dat_bytes:
        # First file on a fresh file system: its clusters are contiguous.
        with tempfile.NamedTemporaryFile(delete=False) as t:
            t.truncate(sdbench_dat_bytes)
            tmp = t.name
        try:
            subprocess.run(["mcopy", "-i", path, tmp, "::SDBENCH.DAT"], check=True, env=env)
        finally:
            os.unlink(tmp)
    if results_bytes:
        # Next: contiguous too (the firmware also follows a fragmented one).
        with tempfile.NamedTemporaryFile(delete=False) as t:
            t.write(resultsfile.pattern(results_bytes))
            tmp = t.name
        try:
            subprocess.run(["mcopy", "-i", path, tmp, "::SDBENCH.LOG"], check=True, env=env)
        finally:
            os.unlink(tmp)
    for name, src in files:
        # "overlays/x.dtbo": make the directories first (once each).
        parts = name.split("/")[:-1]
        for i in range(len(parts)):
            d = "/".join(parts[:i + 1])
            if d not in made_dirs:
                subprocess.run(["mmd", "-i", path, "::" + d], check=True, env=env)
                made_dirs.add(d)
        subprocess.run(["mcopy", "-i", path, src, "::" + name], check=True, env=env)


def parser():
    ap = argparse.ArgumentParser(description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("-o", "--output", required=True)
    ap.add_argument("--size", default="512M", help="card size, a power of two (default 512M)")
    ap.add_argument("--boot-start", default="4M", help="boot partition start (default 4M)")
    ap.add_argument("--boot-size", default="64M", help="boot partition size (default 64M)")
    ap.add_argument("--kernel", help="kernel.img to install")
    ap.add_argument("--config-txt", help="config.txt to install instead of the default")
    ap.add_argument("--sdbench", action="append", default=[],
                    help="a line for sdbench.txt (repeatable)")
    ap.add_argument("--file", action="append", default=[],
                    help="NAME=PATH: add a file to the boot partition (NAME may "
                         "contain directories: overlays/x.dtbo)")
    ap.add_argument("--label", default="BOOT", help="FAT volume label (default BOOT)")
    ap.add_argument("--sdbench-dat", default=None,
                    help="preallocate a contiguous SDBENCH.DAT of this size")
    ap.add_argument("--results-file", default=None,
                    help="create SDBENCH.LOG of this size, filled with the results file's "
                         "pattern (docs/results-file.md)")
    ap.add_argument("--part", action="append", default=[],
                    help="START:SIZE[:TYPE]: another primary partition (TYPE hex, default 83)")
    ap.add_argument("--gpt", action="store_true", help="use a GPT partition table instead")
    ap.add_argument("--no-boot", action="store_true", help="no boot partition at all")
    return ap


def main(argv=None):
    a = parser().parse_args(argv)

    size = parse_size(a.size)
    if size <= 0 or size & (size - 1):
        sys.exit("mkimage: --size must be a power of two (QEMU's SD card needs it)")
    boot_start = parse_size(a.boot_start) // SECTOR
    boot_count = parse_size(a.boot_size) // SECTOR

    if not a.no_boot and (boot_start + boot_count) * SECTOR > size:
        sys.exit("mkimage: the boot partition (%s at %s) does not fit on a %s card"
                 % (a.boot_size, a.boot_start, a.size))
    os.makedirs(os.path.dirname(os.path.abspath(a.output)), exist_ok=True)
    with open(a.output, "wb") as f:
        f.truncate(size)

    parts = []
    if not a.no_boot:
        files = []
        if a.kernel:
            files.append(("kernel.img", a.kernel))
        with tempfile.TemporaryDirectory() as td:
            cfg = a.config_txt
            if not cfg:
                cfg = os.path.join(td, "config.txt")
                with open(cfg, "w") as c:
                    c.write(CONFIG_TXT)
            files.append(("config.txt", cfg))
            if a.sdbench:
                sb = os.path.join(td, "sdbench.txt")
                with open(sb, "w") as c:
                    c.write("\n".join(a.sdbench) + "\n")
                files.append(("sdbench.txt", sb))
            for item in a.file:
                name, _, src = item.partition("=")
                files.append((name, src))
            fat = os.path.join(td, "boot.fat")
            make_fat(fat, boot_count * SECTOR, files,
                     parse_size(a.sdbench_dat) if a.sdbench_dat else 0, a.label,
                     parse_size(a.results_file) if a.results_file else 0)
            subprocess.run(["dd", "if=" + fat, "of=" + a.output, "bs=1M",
                            "seek=%d" % (boot_start * SECTOR), "oflag=seek_bytes",
                            "conv=notrunc,sparse", "status=none"], check=True)
        parts.append((True, 0x0C, boot_start, boot_count))
    for p in a.part:
        fields = p.split(":")
        start = parse_size(fields[0]) // SECTOR
        count = parse_size(fields[1]) // SECTOR
        ptype = int(fields[2], 16) if len(fields) > 2 else 0x83
        parts.append((False, ptype, start, count))
    for _, _, s, c in parts:
        if (s + c) * SECTOR > size:
            sys.exit("mkimage: a partition ends past the end of the card")
    if len(parts) > 4:
        sys.exit("mkimage: at most 4 primary partitions")

    if a.gpt:
        script = "label: gpt\n" + "".join(
            "start=%d, size=%d, type=%s\n" % (s, c, "EBD0A0A2-B9E5-4433-87C0-68B6B72699C7")
            for _, _, s, c in parts)
        subprocess.run(["sfdisk", "--no-reread", "--no-tell-kernel", "-q", a.output],
                       input=script.encode(), check=True)
    else:
        with open(a.output, "r+b") as f:
            write_mbr(f, parts)
    return 0
