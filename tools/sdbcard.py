#!/usr/bin/python3
"""sdbcard - put sdbench on an SD card.

  sdbcard.py image -o build/sdbench.img [--firmware DIR|IMAGE] [--build build]
      A whole card image to flash: MBR, a FAT32 boot partition (kernel.img,
      config.txt, a commented sdbench.txt and, with --firmware, the Raspberry
      Pi boot firmware copied from a Raspberry Pi OS boot partition or image),
      the rest unpartitioned: sdbench's write test area.

  sdbcard.py install --boot DIR [--build build]
      Add sdbench to a mounted boot partition that already boots (Raspberry
      Pi OS): copies the kernel as sdbench.img (the card's own kernel*.img
      stay untouched), a sample sdbench.txt unless there is one, and appends
      a marked block to config.txt after saving config.txt.sdbench-backup.
      Run it again to update; it never adds a line twice.

  sdbcard.py uninstall --boot DIR
      Undo install: config.txt back to the original byte for byte when it
      was not edited since; otherwise only the lines install added are
      removed (the user's later edits stay). The files install added are
      removed unless they were changed since.

  sdbcard.py config-txt [--build build]   (no build/: the lines for every kernel)
      Print the lines config.txt needs, for adding them by hand.

  sdbcard.py extract IMAGE NAME OUT
      Copy a file out of a card image's boot partition (qemu/run.sh boots
      the kernel.img found on build/sdbench.img this way).

Why a marked block rather than restoring the backup: a user may edit
config.txt while sdbench is installed (Raspberry Pi OS tools and updates
edit it too). Restoring a backup would silently undo those edits;
removing exactly the lines install added keeps them. The byte-for-byte
restore from the backup is used only when config.txt is still exactly what
install left, where both ways give the same file.

Python 3 standard library plus mtools (image, firmware from an image file).
"""
import argparse
import fnmatch
import glob
import hashlib
import json
import os
import re
import struct
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.realpath(__file__)))
import sdbhost  # noqa: E402
from sdbhost import mkimage, resultsfile  # noqa: E402


# The sample sdbench.txt ships in the package, next to the image maker
# (sdbhost/mkimage.py): an installed sdbcard needs no source tree.
SAMPLE = os.path.join(os.path.dirname(os.path.abspath(sdbhost.__file__)), "sdbench-sample.txt")

# The kernel images sdbench builds: file in the build directory, its name on
# a card made by `image`, its name when installed next to another system
# (never a name the Raspberry Pi OS kernels use), the config.txt section
# that selects it, and whether the firmware must start it in 64-bit mode.
KERNELS = (
    ("kernel.img", "kernel.img", "sdbench.img", "all", False),
    ("kernel8.img", "kernel8.img", "sdbench8.img", "pi4", True),
    ("kernel_2712.img", "kernel_2712.img", "sdbench_2712.img", "pi5", True),
)

# What the Raspberry Pi firmware needs to start a bare-metal kernel, per
# board family (from the Raspberry Pi boot-folder and config.txt
# documentation; the Pi 5 keeps its firmware in EEPROM).
FIRMWARE_NEEDED = (
    ("Pi Zero, Zero W, Zero 2 W, 1, 2, 3",
     ("bootcode.bin", "start.elf", "fixup.dat")),
    ("Pi 4, 400, CM4",
     ("start4.elf", "fixup4.dat", "bcm2711-rpi-4-b.dtb")),
)
# Copied from a Raspberry Pi OS boot partition with --firmware: the needed
# files above, the start*.elf/fixup*.dat variants (gpu_mem=16, start_x=1 and
# start_debug=1 select them), every Broadcom device tree (the Pi 4, 400 and
# CM4 firmware loads its own), the overlay config.txt names (disable-bt) and
# the firmware licence. Never a Linux kernel, cmdline.txt or config.txt.
FIRMWARE_PATTERNS = ("bootcode.bin", "start*.elf", "fixup*.dat", "bcm27*.dtb",
                     "overlays/disable-bt.dtbo", "overlays/overlay_map.dtb",
                     "LICENCE.broadcom")

BEGIN_MARK = "# >>> sdbench"
BEGIN = BEGIN_MARK + ": added by `make install`; `make uninstall` removes these lines"
END = "# <<< sdbench"
BACKUP = "config.txt.sdbench-backup"
MANIFEST = "sdbench-install.json"
SDBENCH_TXT = "sdbench.txt"
# The results file: the firmware writes its console output into it
# (docs/results-file.md); created at full size, filled with a pattern.
RESULTS = "SDBENCH.LOG"

# The 64-bit boards' extra lines, per config.txt section. Pi 4/400/CM4: the
# 64-bit image (its firmware's own default mode). Pi 5/CM5/500: 64-bit only.
# kernel_address: the firmware loads a 64-bit kernel at 0x200000 unless told
# otherwise; sdbench's images are linked for 0x80000. os_check=0: the Pi 5
# firmware otherwise refuses a partition without a Pi 5 device tree.
# uart_2ndstage=1: the Pi 5 firmware's own messages on the debug UART (the
# Pi 5 has never run sdbench: they show whether kernel_2712.img was loaded).
SECTION_EXTRA = {
    "pi4": ["kernel_address=0x80000"],
    "pi5": ["kernel_address=0x80000", "os_check=0", "uart_2ndstage=1"],
}

COMMENTS = {
    "arm_64bit=0": "# Pi 0-3, Zero 2 W: the 32-bit image (the Pi 4 and 5 get theirs below)",
    "arm_64bit=1": "# the 64-bit image for this board family",
    "kernel_address=0x80000": "# where sdbench's 64-bit images are linked (default 0x200000)",
    "os_check=0": "# no Pi 5 device tree on the card: boot anyway",
    "uart_2ndstage=1": "# the firmware's boot messages on the debug UART (the 3-pin "
                       "connector), where sdbench prints on a Pi 5",
    "enable_uart=1": "# the serial console on GPIO 14/15 (pins 8 and 10), 115200 8N1",
    "dtoverlay=disable-bt": "# Pi 3, 4, Zero W, Zero 2 W: that UART on the pins, not on Bluetooth",
}
KNOWN_SETTINGS = ("kernel=sdbench*.img", "arm_64bit=0|1", "enable_uart=1",
                  "dtoverlay=disable-bt", "kernel_address=0x80000", "os_check=0",
                  "uart_2ndstage=1")
# Keys that may be given many times (each line adds something).
CUMULATIVE = ("dtoverlay", "dtparam", "include")


class Fail(Exception):
    pass


def say(msg):
    print("sdbcard: " + msg)


def sha256(data):
    return hashlib.sha256(data).hexdigest()


def read_bytes(path):
    with open(path, "rb") as f:
        return f.read()


def write_bytes(path, data):
    """Write a file so that it is either the old or the new one, on disk."""
    tmp = path + ".sdbench-tmp"
    with open(tmp, "wb") as f:
        f.write(data)
        f.flush()
        os.fsync(f.fileno())
    os.replace(tmp, path)


def fsync_dir(path):
    try:
        fd = os.open(path, os.O_RDONLY)
    except OSError:
        return
    try:
        os.fsync(fd)
    except OSError:
        pass
    finally:
        os.close(fd)


def built_kernels(build):
    """[(build file path, card name, installed name, section, 64-bit)]."""
    found = []
    for src, card, inst, section, is64 in KERNELS:
        path = os.path.join(build, src)
        if os.path.isfile(path):
            found.append((path, card, inst, section, is64))
    if not found or found[0][1] != "kernel.img":
        raise Fail("%s not found: run `make` first" % os.path.join(build, "kernel.img"))
    return found


# ---- config.txt ---------------------------------------------------------

def setting(line):
    """(key, value) of a config.txt setting line, None for anything else."""
    s = line.strip().lstrip("\ufeff\xef\xbb\xbf").strip()
    if not s or s.startswith("#") or s.startswith("["):
        return None
    if "=" in s:
        k, v = s.split("=", 1)
    else:                      # "initramfs initrd.img followkernel"
        k, _, v = s.partition(" ")
    return k.strip().lower(), v.strip()


def section(line):
    s = line.strip()
    if s.startswith("[") and "]" in s:
        return s[1:s.index("]")].strip().lower()
    return None


def in_effect(lines, want):
    """True when the setting line `want` already applies on every board in
    lines: given in the [all] context (before any section or after [all])
    and not changed by a later line in any section."""
    wk, wv = setting(want)
    ctx_all = True
    found = False
    for line in lines:
        sec = section(line)
        if sec is not None:
            ctx_all = sec == "all"
            continue
        kv = setting(line)
        if kv is None:
            continue
        k, v = kv
        if wk in CUMULATIVE:
            if (k, v) == (wk, wv) and ctx_all:
                found = True
        elif k == wk:
            if ctx_all:
                found = v == wv
            elif v != wv:
                found = False      # changed for some boards
    return found


def wanted_sections(kernels, installed):
    """[(section, [setting lines])] config.txt needs for these kernels."""
    name = (lambda k: k[2]) if installed else (lambda k: k[1])
    main = kernels[0]
    secs = [("all", ["kernel=" + name(main), "arm_64bit=0", "enable_uart=1",
                     "dtoverlay=disable-bt"])]
    for k in kernels[1:]:
        secs.append((k[3], ["kernel=" + name(k), "arm_64bit=%d" % int(k[4])] +
                     SECTION_EXTRA.get(k[3], [])))
    return secs


def make_block(kernels, installed, user_lines=(), marked=True):
    """The lines to append (without line ends), and the [all] lines left out
    because the user's config.txt already has them in effect."""
    out, skipped = [], []
    if marked:
        out.append(BEGIN)
    for sec, settings in wanted_sections(kernels, installed):
        body = []
        for s in settings:
            if sec == "all" and in_effect(user_lines, s):
                skipped.append(s)
                continue
            if s in COMMENTS:
                body.append(COMMENTS[s])
            body.append(s)
        if body or sec == "all":
            out.append("[%s]" % sec)
            out.extend(body)
    if out[-1] != "[all]" and any(sec != "all" for sec, _ in wanted_sections(kernels, installed)):
        out.append("[all]")        # leave the file in the [all] context
    if marked:
        out.append(END)
    return out, skipped


def split_lines(text):
    """The file's lines, each with its own line end (so that every line that
    is not sdbench's is written back byte for byte), and the line end the
    file mostly uses (for the lines sdbench adds)."""
    lines = re.findall(r"[^\n]*\n|[^\n]+$", text)
    crlf = sum(1 for l in lines if l.endswith("\r\n"))
    return lines, ("\r\n" if crlf * 2 > len(lines) else "\n")


def bare(line):
    return line.rstrip("\r\n")


def find_block(lines):
    """(begin, end) indexes of the marked block, or None. The marker lines
    are recognised by their start, in case their comment was edited."""
    begins = [i for i, l in enumerate(lines) if bare(l).strip().startswith(BEGIN_MARK)]
    ends = [i for i, l in enumerate(lines) if bare(l).strip().startswith(END)]
    if not begins and not ends:
        return None
    if len(begins) != 1 or len(ends) != 1 or ends[0] < begins[0]:
        raise Fail("config.txt: the lines \"%s\" and \"%s\" that enclose sdbench's lines "
                   "are not there once each, in that order; fix config.txt by hand (the "
                   "sdbench lines are %s) and run again"
                   % (BEGIN_MARK, END, ", ".join(KNOWN_SETTINGS)))
    return begins[0], ends[0]


def image_config_txt(kernels):
    lines = ["# config.txt of an SD card that boots sdbench, the SD card benchmark.",
             "# The Raspberry Pi firmware reads this file; sdbench's own settings",
             "# are in sdbench.txt."]
    block, _ = make_block(kernels, installed=False, marked=False)
    return "\n".join(lines + block) + "\n"


# ---- firmware ----------------------------------------------------------

def mtools_env():
    return dict(os.environ, MTOOLS_SKIP_CHECK="1")


def first_partition_offset(image):
    with open(image, "rb") as f:
        mbr = f.read(512)
    if len(mbr) < 512 or mbr[510:512] != b"\x55\xaa":
        raise Fail("%s: no MBR partition table (not a card image?)" % image)
    for i in range(4):
        ptype = mbr[446 + 16 * i + 4]
        start = struct.unpack_from("<I", mbr, 446 + 16 * i + 8)[0]
        if ptype in (0x01, 0x04, 0x06, 0x0B, 0x0C, 0x0E) and start:
            return start * 512
    raise Fail("%s: no FAT partition in its partition table" % image)


def firmware_from_image(image, dest):
    """Copy the firmware files out of the FAT boot partition of a card image
    (e.g. a Raspberry Pi OS .img) into dest."""
    off = first_partition_offset(image)
    spec = "%s@@%d" % (image, off)
    names = []
    for d in ("", "overlays/"):
        p = subprocess.run(["mdir", "-i", spec, "-b", "::/" + d], env=mtools_env(),
                           stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
        if p.returncode and not d:
            raise Fail("%s: cannot read its boot partition: %s" % (image, p.stderr.strip()))
        for full in p.stdout.split():
            names.append(full[3:] if full.startswith("::/") else full.lstrip(":/"))
    for name in names:
        if any(fnmatch.fnmatchcase(name, pat) for pat in FIRMWARE_PATTERNS):
            os.makedirs(os.path.dirname(os.path.join(dest, name)), exist_ok=True)
            subprocess.run(["mcopy", "-n", "-i", spec, "::/" + name, os.path.join(dest, name)],
                           check=True, env=mtools_env())
    return dest


def firmware_files(src):
    """[(name on the card, path)] of the firmware files in directory src."""
    out = []
    for pat in FIRMWARE_PATTERNS:
        for path in sorted(glob.glob(os.path.join(src, pat))):
            if os.path.isfile(path):
                out.append((os.path.relpath(path, src).replace(os.sep, "/"), path))
    return out


def missing_firmware(names):
    """[(boards, [missing files])] for the board families that cannot boot."""
    have = set(names)
    out = []
    for boards, needed in FIRMWARE_NEEDED:
        miss = [n for n in needed if n not in have]
        if miss:
            out.append((boards, miss))
    return out


def firmware_message(missing, card_names=()):
    """What to add for the boards in missing; card_names: the kernels the
    card holds (what is said about the Pi 5 follows from them)."""
    lines = ["the Raspberry Pi boot firmware is not on the card yet; it boots only",
             "  with these files added to its boot partition:"]
    for boards, miss in missing:
        lines.append("    %-36s %s" % (boards + ":", " ".join(miss)))
    lines += ["  Copy them from a Raspberry Pi OS boot partition or image:",
              "    make image FIRMWARE=/media/$USER/bootfs   (or FIRMWARE=raspios.img)",
              "  or from https://github.com/raspberrypi/firmware (directory boot/)."]
    if "kernel_2712.img" in card_names:
        lines.append("  The Pi 5 keeps its firmware in EEPROM: it needs none of these to "
                     "start kernel_2712.img (never run on a Pi 5).")
    else:
        lines.append("  The Pi 5 keeps its firmware in EEPROM; this card has no "
                     "kernel_2712.img for it (build it: make build/kernel_2712.img).")
    return "\n".join(lines)


# ---- image ---------------------------------------------------------------

def make_image(args):
    """sdbhost/mkimage.py (qemu/mkimage.py's command line) in this process."""
    try:
        mkimage.main(args)
    except SystemExit as e:
        if e.code:
            raise Fail("the card image: %s" % e.code)
    except (OSError, subprocess.CalledProcessError) as e:
        raise Fail("the card image: %s" % e)

def cmd_image(a):
    kernels = built_kernels(a.build)
    fw = []
    with tempfile.TemporaryDirectory() as td:
        if a.firmware:
            src = a.firmware
            if os.path.isfile(src):
                src = firmware_from_image(src, os.path.join(td, "fw"))
            elif not os.path.isdir(src):
                raise Fail("FIRMWARE=%s: no such directory or image file" % a.firmware)
            fw = firmware_files(src)
            if not fw:
                raise Fail("FIRMWARE=%s holds none of the firmware files (%s): is it a "
                           "Raspberry Pi OS boot partition?" % (a.firmware,
                                                                ", ".join(FIRMWARE_PATTERNS)))
        cfg = os.path.join(td, "config.txt")
        with open(cfg, "w") as f:
            f.write(image_config_txt(kernels))
        args = ["-o", a.output, "--size", a.size,
                "--boot-start", a.boot_start, "--boot-size", a.boot_size, "--label", "SDBENCH",
                "--config-txt", cfg, "--file", "sdbench.txt=" + SAMPLE,
                "--results-file", str(resultsfile.DEFAULT_SIZE)]
        for path, card, _, _, _ in kernels:
            args += ["--file", "%s=%s" % (card, path)]
        for name, path in fw:
            args += ["--file", "%s=%s" % (name, path)]
        make_image(args)
    size = os.path.getsize(a.output)
    say("%s: %d MiB card image (MBR, FAT32 boot partition \"SDBENCH\" of %s at %s, "
        "the rest unpartitioned)" % (a.output, size >> 20, a.boot_size, a.boot_start))
    say("  kernels: %s; config.txt; sdbench.txt (every setting commented out); %s "
        "(%d MiB for the results of a run: sdbreport %s)"
        % (", ".join(k[1] for k in kernels), RESULTS, resultsfile.DEFAULT_SIZE >> 20, RESULTS))
    if fw:
        say("  firmware from %s: %d files (%s)" % (a.firmware, len(fw),
                                                   ", ".join(n for n, _ in fw[:6]) +
                                                   (", ..." if len(fw) > 6 else "")))
    missing = missing_firmware([n for n, _ in fw])
    if missing:
        say(firmware_message(missing, [k[1] for k in kernels]))
    say("  write it to a card: sudo dd if=%s of=/dev/sdX bs=4M conv=fsync status=progress"
        % a.output)
    say("  (check /dev/sdX with lsblk first: everything on that card is replaced)")
    return 0


# ---- install / uninstall ----------------------------------------------------

def load_manifest(boot):
    path = os.path.join(boot, MANIFEST)
    if not os.path.exists(path):
        return None
    try:
        with open(path) as f:
            m = json.load(f)
    except (OSError, ValueError) as e:
        raise Fail("%s is unreadable (%s); remove it to continue" % (path, e))
    if not isinstance(m, dict) or m.get("version") != 1:
        raise Fail("%s: unknown format; remove it to continue" % path)
    return m


def save_manifest(boot, m):
    write_bytes(os.path.join(boot, MANIFEST),
                (json.dumps(m, indent=1, sort_keys=True) + "\n").encode())


def existing_name(boot, name):
    """The entry of boot whose name is name in any letter case (FAT is
    case-insensitive), or None."""
    for e in os.listdir(boot):
        if e.lower() == name.lower():
            return e
    return None


def looks_like_boot(boot):
    pats = ("config.txt", "bootcode.bin", "start*.elf", "fixup*.dat", "kernel*.img", MANIFEST)
    return any(glob.glob(os.path.join(boot, p)) for p in pats)


def _install_kernels(boot, kernels, files, changes):
    """The kernels, under names no other system uses."""
    for path, _, inst, _, _ in kernels:
        data = read_bytes(path)
        dest = os.path.join(boot, inst)
        if os.path.exists(dest):
            old = read_bytes(dest)
            if inst not in files and old != data:
                raise Fail("%s exists and was not put there by sdbench; nothing done "
                           "(rename it and run again)" % dest)
            if old == data:
                files[inst] = sha256(data)
                changes.append("%s: up to date" % inst)
                continue
        write_bytes(dest, data)
        files[inst] = sha256(data)
        changes.append("%s: copied from %s" % (inst, path))


def _install_sample(boot, files, changes):
    """sdbench.txt: the user's own is never replaced."""
    sample = read_bytes(SAMPLE)
    have = existing_name(boot, SDBENCH_TXT)
    if have is None:
        write_bytes(os.path.join(boot, SDBENCH_TXT), sample)
        files[SDBENCH_TXT] = sha256(sample)
        changes.append("sdbench.txt: sample copied (every setting commented out)")
    elif have in files and sha256(read_bytes(os.path.join(boot, have))) == files[have]:
        if read_bytes(os.path.join(boot, have)) != sample:
            write_bytes(os.path.join(boot, have), sample)
            files[have] = sha256(sample)
            changes.append("%s: sample updated (it was unchanged since install)" % have)
        else:
            changes.append("%s: up to date" % have)
    else:
        files.pop(have, None)       # the user's file: never touched, never removed
        changes.append("%s: kept yours" % have)


def _install_results(boot, files, changes):
    """SDBENCH.LOG: made once; a run's output in it is never replaced."""
    have = existing_name(boot, RESULTS)
    if have is None:
        data = resultsfile.pattern(resultsfile.DEFAULT_SIZE)
        write_bytes(os.path.join(boot, RESULTS), data)
        files[RESULTS] = sha256(data)
        changes.append("%s: created (%d MiB; sdbench writes its results there)"
                       % (RESULTS, resultsfile.DEFAULT_SIZE >> 20))
    else:
        changes.append("%s: kept (it is there already)" % have)


def _install_config(boot, kernels, m, changes):
    """config.txt: a marked block at the end, after a backup."""
    cpath = os.path.join(boot, "config.txt")
    existed = os.path.exists(cpath)
    raw = read_bytes(cpath) if existed else b""
    text = raw.decode("latin-1")          # any bytes, written back unchanged
    lines, eol = split_lines(text)
    blk = find_block(lines)
    cfg = m.get("config")
    if blk is None:
        # A fresh install: save the original first.
        bpath = os.path.join(boot, BACKUP)
        if existed:
            if os.path.exists(bpath) and read_bytes(bpath) != raw:
                changes.append("%s: replaced (it was from an earlier install)" % BACKUP)
            write_bytes(bpath, raw)
        block, skipped = make_block(kernels, True, [bare(l) for l in lines])
        sep = bool(text) and not text.endswith("\n")
        new = text + (eol if sep else "") + "".join(l + eol for l in block)
        cfg = {"existed": existed, "original_sha256": sha256(raw), "added_eol": sep}
        what = "added"
    else:
        b, e = blk
        block, skipped = make_block(kernels, True,
                                    [bare(l) for l in lines[:b] + lines[e + 1:]])
        if cfg is None:            # the record is gone: the whole block counts as ours
            cfg = {"existed": True, "original_sha256": None, "added_eol": False}
        ours = set(cfg.get("block") or [bare(l) for l in lines[b:e + 1]])
        # Lines the user put inside the block stay, in their place before the end.
        theirs = [l for l in lines[b + 1:e] if bare(l) not in ours]
        new = "".join(lines[:b] + [l + eol for l in block[:-1]] + theirs +
                      [block[-1] + eol] + lines[e + 1:])
        what = "updated" if new != text else "unchanged"
    added = [l for l in block if setting(l) is not None]
    if new != text:
        write_bytes(cpath, new.encode("latin-1"))
    cfg["block"] = block
    cfg["installed_sha256"] = sha256(new.encode("latin-1"))
    m["config"] = cfg
    if what == "unchanged":
        changes.append("config.txt: already has the sdbench lines, unchanged")
    else:
        changes.append("config.txt: %s at the end, in a marked block: %s"
                       % (what, ", ".join(added)))
        if what == "added" and existed:
            changes.append("config.txt: the original is saved as %s" % BACKUP)
    if skipped:
        changes.append("config.txt: already in effect there, not repeated: %s"
                       % ", ".join(skipped))


def cmd_install(a):
    boot = a.boot
    if not os.path.isdir(boot):
        raise Fail("BOOT=%s is not a directory (the mounted boot partition, e.g. "
                   "/media/$USER/bootfs or /boot/firmware)" % boot)
    if not looks_like_boot(boot):
        raise Fail("%s does not look like a Raspberry Pi boot partition (no config.txt, "
                   "start*.elf or kernel*.img); nothing done" % boot)
    kernels = built_kernels(a.build)
    m = load_manifest(boot) or {"version": 1, "files": {}}
    files = m["files"]
    changes = []

    _install_kernels(boot, kernels, files, changes)
    _install_sample(boot, files, changes)
    _install_results(boot, files, changes)
    _install_config(boot, kernels, m, changes)
    save_manifest(boot, m)
    fsync_dir(boot)
    for c in changes:
        say(c)
    missing = missing_firmware(os.listdir(boot))
    if missing:
        for boards, miss in missing:
            say("note: no %s on this card: it does not boot a %s" % (", ".join(miss), boards))
    say("done: with this card the Pi boots sdbench; `make uninstall BOOT=%s` undoes it" % boot)
    return 0


def cmd_uninstall(a):
    boot = a.boot
    if not os.path.isdir(boot):
        raise Fail("BOOT=%s is not a directory" % boot)
    m = load_manifest(boot)
    changes = []
    cpath = os.path.join(boot, "config.txt")
    bpath = os.path.join(boot, BACKUP)
    cfg = (m or {}).get("config") or {}
    raw = read_bytes(cpath) if os.path.exists(cpath) else None
    if raw is not None and cfg.get("installed_sha256") == sha256(raw) and (
            not cfg.get("existed") or (os.path.exists(bpath) and
                                       sha256(read_bytes(bpath)) == cfg.get("original_sha256"))):
        # Untouched since install: the original, byte for byte.
        if cfg.get("existed"):
            write_bytes(cpath, read_bytes(bpath))
            os.unlink(bpath)
            changes.append("config.txt: restored the original from %s (removed)" % BACKUP)
        else:
            os.unlink(cpath)
            changes.append("config.txt: removed (install had created it)")
    elif raw is not None:
        text = raw.decode("latin-1")
        lines, eol = split_lines(text)
        blk = find_block(lines)
        if blk is None:
            changes.append("config.txt: no sdbench block found, unchanged")
        else:
            b, e = blk
            ours = set(cfg.get("block") or [bare(l) for l in lines[b:e + 1]])
            inner = lines[b + 1:e]
            kept = [l for l in inner if bare(l) not in ours]
            new_lines = lines[:b] + kept + lines[e + 1:]
            if cfg.get("added_eol") and b > 0 and not kept and not lines[e + 1:] \
                    and new_lines[-1].endswith(eol):
                # the line end install put after the user's last line
                new_lines[-1] = new_lines[-1][:-len(eol)]
            write_bytes(cpath, "".join(new_lines).encode("latin-1"))
            changes.append("config.txt: removed the %d lines install added; your changes "
                           "since install are kept" % (2 + len(inner) - len(kept)))
            if kept:
                changes.append("config.txt: kept the lines you added inside the block: %s"
                               % ", ".join(bare(l) for l in kept))
            if os.path.exists(bpath):
                changes.append("config.txt: %s (your config.txt from before the install) "
                               "is kept; delete it when you no longer need it" % BACKUP)
    else:
        if cfg.get("existed") and os.path.exists(bpath):
            write_bytes(cpath, read_bytes(bpath))
            os.unlink(bpath)
            changes.append("config.txt: it was missing; restored the original from %s" % BACKUP)
    if m is None and changes == ["config.txt: no sdbench block found, unchanged"]:
        changes = ["no sdbench install found in %s (no %s, no sdbench lines in config.txt); "
                   "nothing changed" % (boot, MANIFEST)]
    elif m is None:
        changes.append("%s not found: only config.txt was looked at; remove sdbench.img "
                       "and sdbench.txt by hand if you want them gone" % MANIFEST)
    else:
        for name, digest in sorted(m.get("files", {}).items()):
            path = os.path.join(boot, name)
            if not os.path.exists(path):
                continue
            if sha256(read_bytes(path)) == digest:
                os.unlink(path)
                changes.append("%s: removed" % name)
            elif name == RESULTS:
                changes.append("%s: kept (it holds a run's results); delete it when you no "
                               "longer need them" % name)
            else:
                changes.append("%s: kept (changed since install)" % name)
        os.unlink(os.path.join(boot, MANIFEST))
    fsync_dir(boot)
    for c in changes:
        say(c)
    return 0


def cmd_extract(a):
    """Copy one file out of a card image's boot partition."""
    off = first_partition_offset(a.image)
    r = subprocess.run(["mcopy", "-n", "-o", "-i", "%s@@%d" % (a.image, off), "::/" + a.name,
                        a.out], env=mtools_env())
    if r.returncode:
        raise Fail("%s: no %s in its boot partition" % (a.image, a.name))
    return 0


def cmd_config_txt(a):
    if a.build is None and not os.path.isfile(os.path.join("build", "kernel.img")):
        # no build here (installed with pip, run anywhere): the lines for
        # every kernel `make` builds, which is what make image puts on a card
        kernels = list(KERNELS)
        sys.stderr.write("sdbcard: no build/kernel.img here: the lines for %s (--build DIR "
                         "for the kernels of a build)\n" % ", ".join(k[1] for k in KERNELS))
    else:
        kernels = built_kernels(a.build or "build")
    print("\n".join(make_block(kernels, installed=False, marked=False)[0]))
    return 0


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    sub = ap.add_subparsers(dest="cmd", required=True)
    p = sub.add_parser("image", help="build a card image to flash")
    p.add_argument("-o", "--output", default="build/sdbench.img")
    p.add_argument("--build", default="build", help="where kernel*.img are (default build)")
    p.add_argument("--firmware", help="a Raspberry Pi OS boot partition (directory) or card "
                   "image to copy the boot firmware from")
    p.add_argument("--size", default="512M",
                   help="image size, a power of two for QEMU (default 512M)")
    p.add_argument("--boot-start", default="4M")
    p.add_argument("--boot-size", default="256M")
    p.set_defaults(fn=cmd_image)
    p = sub.add_parser("install", help="add sdbench to a mounted boot partition")
    p.add_argument("--boot", required=True)
    p.add_argument("--build", default="build")
    p.set_defaults(fn=cmd_install)
    p = sub.add_parser("uninstall", help="undo install")
    p.add_argument("--boot", required=True)
    p.set_defaults(fn=cmd_uninstall)
    p = sub.add_parser("extract", help="copy a file out of a card image's boot partition")
    p.add_argument("image")
    p.add_argument("name")
    p.add_argument("out")
    p.set_defaults(fn=cmd_extract)
    p = sub.add_parser("config-txt", help="print the lines config.txt needs")
    p.add_argument("--build", help="where kernel*.img are (default build, and without "
                   "one, every kernel make builds)")
    p.set_defaults(fn=cmd_config_txt)
    a = ap.parse_args(argv)
    try:
        return a.fn(a)
    except Fail as e:
        print("sdbcard: error: %s" % e, file=sys.stderr)
        return 1


if __name__ == "__main__":
    sys.exit(main())
