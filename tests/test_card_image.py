"""make image (tools/sdbcard.py on top of qemu/mkimage.py): the card image
to flash. Its partition table is read back with sfdisk, its files with
mtools, its file system checked with fsck.vfat, its sdbench.txt and test
area with build/host/sdarea (the firmware's own code), and the image boots
under QEMU with the kernel.img found on it and runs to a `done` record.
The sample sdbench.txt is checked against config_keys.h: every key
documented, no other key, and every example value valid."""
import glob
import json
import os
import re
import shutil
import subprocess

import pytest

import harness
import results_file

ROOT = harness.ROOT
SDBCARD = os.path.join(ROOT, "tools", "sdbcard.py")
SAMPLE = os.path.join(ROOT, "tools", "sdbhost", "sdbench-sample.txt")

SDAREA = os.path.join(ROOT, "build", "host", "sdarea")
MIB = 1 << 20
BOOT_LBA = 4 * MIB // 512               # the boot partition: 4 MiB ...
BOOT_BLOCKS = 256 * MIB // 512          # ... 256 MiB long
CARD_BLOCKS = 512 * MIB // 512          # a 512 MiB image
NEEDED_FIRMWARE = ("bootcode.bin", "start.elf", "fixup.dat", "start4.elf", "fixup4.dat",
                   "bcm2711-rpi-4-b.dtb")


def env():
    # A make started by `make test` must not inherit its jobserver.
    e = {k: v for k, v in os.environ.items() if k not in ("MAKEFLAGS", "MFLAGS", "MAKELEVEL")}
    e["MTOOLS_SKIP_CHECK"] = "1"
    return e


def run(*cmd, check=True):
    p = subprocess.run(cmd, cwd=ROOT, env=env(), stdout=subprocess.PIPE,
                       stderr=subprocess.STDOUT, text=True, timeout=120)
    if check:
        assert p.returncode == 0, "%s failed (%d):\n%s" % (" ".join(cmd), p.returncode, p.stdout)
    return p


def files_on(img, d="::/"):
    """The names in a directory of the image's boot partition (mtools)."""
    out = run("mdir", "-b", "-i", "%s@@%d" % (img, BOOT_LBA * 512), d).stdout.split()
    return sorted(n[len(d):] for n in out)


def read_on(img, name):
    return subprocess.run(["mtype", "-i", "%s@@%d" % (img, BOOT_LBA * 512), "::/" + name],
                          env=env(), stdout=subprocess.PIPE, check=True).stdout


def config_keys():
    (path,) = glob.glob(os.path.join(ROOT, "bench", "**", "config_keys.h"), recursive=True)
    with open(path) as f:
        return re.findall(r'^CONFIG_KEY\(\w+,\s*"(\w+)"', f.read(), re.M)


def sample_examples():
    """The sample's example settings: lines '#key = value'."""
    with open(SAMPLE) as f:
        return re.findall(r"^#(\w+) = (.+)$", f.read(), re.M)


def sdarea(img):
    assert os.path.exists(SDAREA), "build/host/sdarea missing: run make first"
    p = subprocess.run([SDAREA, "--json", img], stdout=subprocess.PIPE, timeout=30)
    return json.loads(p.stdout)


@pytest.fixture(scope="module")
def image(tmp_path_factory):
    img = str(tmp_path_factory.mktemp("image") / "sdbench.img")
    p = run("make", "-s", "image", "IMAGE=" + img)
    return img, p.stdout


def test_partition_table(image):
    img, _ = image
    assert os.path.getsize(img) == CARD_BLOCKS * 512       # a power of two for QEMU
    table = json.loads(run("sfdisk", "--json", img).stdout)["partitiontable"]
    assert table["label"] == "dos"
    assert table["sectorsize"] == 512
    (part,) = table["partitions"]                            # one partition, the rest free
    assert part["start"] == BOOT_LBA and part["size"] == BOOT_BLOCKS
    assert part["type"] == "c" and part["bootable"] is True  # FAT32 (LBA), active


def test_boot_partition_files(image, tmp_path):
    img, _ = image
    assert files_on(img) == ["SDBENCH.LOG", "config.txt", "kernel.img", "kernel8.img",
                             "kernel_2712.img", "sdbench.txt"]
    # The results file: 8 MiB of the pattern, one run of clusters.
    log = read_on(img, "SDBENCH.LOG")
    assert len(log) == 8 << 20 and log[:64] * (len(log) // 64) == log
    assert log.startswith(b"SDBENCH.LOG: free space")
    for name, path in (("kernel.img", harness.KERNEL), ("kernel8.img", harness.KERNEL8),
                       ("kernel_2712.img", harness.KERNEL_2712)):
        with open(path, "rb") as f:
            assert read_on(img, name) == f.read(), name
    with open(SAMPLE, "rb") as f:
        assert read_on(img, "sdbench.txt") == f.read()
    info = run("minfo", "-i", "%s@@%d" % (img, BOOT_LBA * 512), "::").stdout
    assert re.search(r"disk type=\"FAT32", info), info
    assert "SDBENCH" in info
    # The file system is clean (fsck.vfat reads the partition on its own).
    part = str(tmp_path / "boot.fat")
    run("dd", "if=" + img, "of=" + part, "bs=1M", "skip=4", "count=256", "status=none")
    run("fsck.vfat", "-n", part)


def test_config_txt(image):
    img, _ = image
    text = read_on(img, "config.txt").decode()
    lines = [l for l in text.splitlines() if l and not l.startswith("#")]
    # Pi 0-3 and Zero 2 W: kernel.img in 32-bit mode, the PL011 on GPIO
    # 14/15; Pi 4/400/CM4 and Pi 5/CM5/500: their 64-bit images at the
    # address they are linked for; the Pi 5 without a device tree check.
    assert lines == EXPECTED_CONFIG


EXPECTED_CONFIG = ["[all]", "kernel=kernel.img", "arm_64bit=0", "enable_uart=1",
                   "dtoverlay=disable-bt",
                   "[pi4]", "kernel=kernel8.img", "arm_64bit=1", "kernel_address=0x80000",
                   "[pi5]", "kernel=kernel_2712.img", "arm_64bit=1", "kernel_address=0x80000",
                   "os_check=0", "uart_2ndstage=1",
                   "[all]"]


def test_says_which_firmware_to_add(image):
    _, out = image
    for name in NEEDED_FIRMWARE:
        assert name in out
    assert "FIRMWARE=" in out
    # what it says of the Pi 5 agrees with the kernels it put on the card
    assert "kernel_2712.img" in out.split("kernels:")[1].splitlines()[0]
    assert "it needs none of these to start kernel_2712.img" in out
    assert "no sdbench image" not in out and "has no kernel_2712.img" not in out


def test_sdbench_txt_and_test_area_as_the_firmware_reads_them(image):
    img, _ = image
    r = sdarea(img)
    assert r["config"]["found"] is True
    assert r["config"]["messages"] == []
    assert r["config"]["values"]["from_file"] == []          # every line a comment
    area = r["test_area"]
    assert area["usable"] and area["source"] == "unpartitioned"
    assert area["first_lba"] == BOOT_LBA + BOOT_BLOCKS
    assert area["count"] == CARD_BLOCKS - BOOT_LBA - BOOT_BLOCKS


def test_image_boots_under_qemu(image, tmp_path):
    img, _ = image
    card = str(tmp_path / "card.img")
    run("cp", "--sparse=always", img, card)  # the run writes into the test area
    kernel = str(tmp_path / "kernel.img")
    run("/usr/bin/python3", SDBCARD, "extract", card, "kernel.img", kernel)
    r = harness.boot("raspi2b", card, kernel=kernel, timeout=120)
    assert not r.timed_out, r.console[-2000:]
    cfg = r.one("config")
    assert cfg["file"] is True and cfg["messages"] == []
    assert cfg["suite"] == "quick"           # chosen because it runs under QEMU
    assert cfg["from_file"] == []
    area = r.one("test_area")
    assert area["usable"] and area["source"] == "unpartitioned"
    assert area["first_lba"] == BOOT_LBA + BOOT_BLOCKS
    results = r.of_type("result")
    assert results and any(x["writes"] for x in results)      # writes did run
    assert r.records[-1]["type"] == "done" and r.records[-1]["errors"] == 0
    assert r.sd_guest_errors() == [], r.guest_errors
    assert r.status == 0
    # The README shows the start of such a run: those lines still look the
    # same (numbers aside).
    console = [l.rstrip("\r") for l in r.console.splitlines()]
    for line in readme_run_excerpt():
        words = [re.sub(r"[0-9]+(?:\\\.[0-9]+)?", "[0-9.]+", re.escape(w))
                 for w in line.split()]
        pat = r"\s+".join(words)
        assert any(re.fullmatch(pat, c.strip()) for c in console), line
    # Nothing outside the test area changed but the results file's data:
    # the MBR and the boot partition.
    assert r.one("results_file")["usable"]
    data = results_file.written(img, card, ((BOOT_LBA + BOOT_BLOCKS) * 512,
                                                os.path.getsize(img)))
    assert data.startswith(b"# sdbench results file")


def readme():
    with open(os.path.join(ROOT, "README.md")) as f:
        return f.read()


def readme_run_excerpt():
    """The README's QEMU output example (tests/readme_sample.py cuts it from
    make run's log): its start, from the banner to the data path, which
    every run prints (the end is make run's own: its host comparison)."""
    text = readme()
    block = text[text.index("```", text.index("What it looks like")) + 3:]
    lines = block[:block.index("```")].splitlines()[1:]
    out = []
    for l in lines:
        if l.strip() and l.strip() != "...":
            out.append(l)
        if l.startswith("data path:"):
            break
    assert len(out) > 8
    return out


def test_readme_config_lines_are_the_tools():
    text = readme()
    block = text[text.index("```ini", text.index("**C. By hand**")) + 6:]
    shown = block[:block.index("```")].split()
    printed = run("/usr/bin/python3", SDBCARD, "config-txt").stdout.splitlines()
    assert shown == [l for l in printed if not l.startswith("#")]


def test_sample_documents_exactly_the_firmware_keys():
    keys = config_keys()
    assert keys, "no CONFIG_KEY lines found in config_keys.h"
    examples = [k for k, _ in sample_examples()]
    assert sorted(examples) == sorted(keys)                  # each once, no other
    with open(os.path.join(ROOT, "docs", "config.md")) as f:
        keys_section = f.read().split("\n## Keys", 1)[1].split("\n## ", 1)[0]
    documented = re.findall(r"^\| `(\w+)` \|", keys_section, re.M)
    assert sorted(documented) == sorted(keys)
    with open(SAMPLE, "rb") as f:
        data = f.read()
    assert len(data) <= 8192 and all(len(l) <= 200 for l in data.split(b"\n"))


def test_sample_examples_are_valid_values(tmp_path):
    """Uncommenting every example gives a file the firmware accepts."""
    with open(SAMPLE) as f:
        text = re.sub(r"^#(\w+ = )", r"\1", f.read(), flags=re.M)
    path = tmp_path / "sdbench.txt"
    path.write_text(text)
    img = str(tmp_path / "card.img")
    run("/usr/bin/python3", harness.MKIMAGE, "-o", img, "--size", "32G", "--boot-size", "256M",
        "--file", "sdbench.txt=%s" % path)
    r = sdarea(img)
    assert r["config"]["messages"] == []
    assert sorted(r["config"]["values"]["from_file"]) == sorted(config_keys())


def fake_firmware(d):
    """A boot partition as Raspberry Pi OS has it (files with dummy contents)."""
    names = ["bootcode.bin", "start.elf", "fixup.dat", "start_cd.elf", "fixup_cd.dat",
             "start4.elf", "fixup4.dat", "start4x.elf", "fixup4x.dat",
             "bcm2708-rpi-zero-w.dtb", "bcm2710-rpi-3-b.dtb", "bcm2711-rpi-4-b.dtb",
             "bcm2711-rpi-400.dtb", "bcm2712-rpi-5-b.dtb", "LICENCE.broadcom",
             "overlays/disable-bt.dtbo", "overlays/overlay_map.dtb",
             # never copied: Linux and its settings
             "kernel.img", "kernel7.img", "kernel8.img", "kernel_2712.img", "cmdline.txt",
             "config.txt", "issue.txt", "initramfs8", "overlays/vc4-kms-v3d.dtbo",
             "overlays/README"]
    for n in names:
        p = os.path.join(d, n)
        os.makedirs(os.path.dirname(p), exist_ok=True)
        with open(p, "w") as f:
            f.write("dummy %s\n" % n)
    return names[:17]


@pytest.mark.parametrize("source", ["directory", "image"])
def test_firmware_copied_from_a_raspberry_pi_os_boot_partition(tmp_path, source):
    fw = str(tmp_path / "bootfs")
    wanted = fake_firmware(fw)
    src = fw
    if source == "image":
        # The same files in the FAT partition of a card image (a Pi OS .img).
        src = str(tmp_path / "raspios.img")
        args = ["/usr/bin/python3", harness.MKIMAGE, "-o", src, "--size", "64M",
                "--boot-size", "48M", "--config-txt", os.path.join(fw, "config.txt")]
        for root, _, names in os.walk(fw):
            for n in names:
                rel = os.path.relpath(os.path.join(root, n), fw)
                if rel != "config.txt":
                    args += ["--file", "%s=%s" % (rel, os.path.join(root, n))]
        run(*args)
    img = str(tmp_path / "sdbench.img")
    out = run("make", "-s", "image", "IMAGE=" + img, "FIRMWARE=" + src).stdout
    top = [n for n in wanted if "/" not in n]
    assert files_on(img) == sorted(top + ["config.txt", "kernel.img", "kernel8.img",
                                          "kernel_2712.img", "sdbench.txt", "overlays/",
                                          "SDBENCH.LOG"])
    assert files_on(img, "::/overlays/") == ["disable-bt.dtbo", "overlay_map.dtb"]
    assert read_on(img, "start4.elf") == b"dummy start4.elf\n"
    for k in ("kernel.img", "kernel8.img", "kernel_2712.img"):
        assert read_on(img, k) != ("dummy %s\n" % k).encode()    # sdbench's, not Linux's
    assert "not on the card yet" not in out
    assert sdarea(img)["test_area"]["usable"]


def test_partial_firmware_names_what_is_missing(tmp_path):
    fw = tmp_path / "fw"
    fw.mkdir()
    for n in ("bootcode.bin", "start.elf", "fixup.dat"):
        (fw / n).write_text("dummy")
    out = run("/usr/bin/python3", SDBCARD, "image", "-o", str(tmp_path / "x.img"),
              "--firmware", str(fw)).stdout
    missing = out[out.index("not on the card yet"):]
    assert "start4.elf" in missing and "fixup4.dat" in missing
    assert "bootcode.bin" not in missing


def test_a_directory_without_firmware_is_refused(tmp_path):
    (tmp_path / "photos").mkdir()
    p = run("/usr/bin/python3", SDBCARD, "image", "-o", str(tmp_path / "x.img"),
            "--firmware", str(tmp_path / "photos"), check=False)
    assert p.returncode != 0 and "none of the firmware files" in p.stdout
    assert not os.path.exists(tmp_path / "x.img")


def test_64bit_kernels_get_their_own_sections(tmp_path):
    build = tmp_path / "build"
    build.mkdir()
    shutil.copyfile(harness.KERNEL, build / "kernel.img")
    (build / "kernel8.img").write_bytes(b"\0" * 4096)
    (build / "kernel_2712.img").write_bytes(b"\1" * 4096)
    img = str(tmp_path / "x.img")
    run("/usr/bin/python3", SDBCARD, "image", "-o", img, "--build", str(build))
    assert files_on(img) == ["SDBENCH.LOG", "config.txt", "kernel.img", "kernel8.img",
                             "kernel_2712.img", "sdbench.txt"]
    # The results file: 8 MiB of the pattern, one run of clusters.
    log = read_on(img, "SDBENCH.LOG")
    assert len(log) == 8 << 20 and log[:64] * (len(log) // 64) == log
    assert log.startswith(b"SDBENCH.LOG: free space")
    lines = [l for l in read_on(img, "config.txt").decode().splitlines()
             if l and not l.startswith("#")]
    assert lines == EXPECTED_CONFIG


def test_a_32bit_only_build_gets_only_the_all_section(tmp_path):
    build = tmp_path / "build"
    build.mkdir()
    shutil.copyfile(harness.KERNEL, build / "kernel.img")
    img = str(tmp_path / "x.img")
    out = run("/usr/bin/python3", SDBCARD, "image", "-o", img, "--build", str(build)).stdout
    assert files_on(img) == ["SDBENCH.LOG", "config.txt", "kernel.img", "sdbench.txt"]
    assert "this card has no kernel_2712.img" in out and "start kernel_2712.img" not in out
    lines = [l for l in read_on(img, "config.txt").decode().splitlines()
             if l and not l.startswith("#")]
    assert lines == EXPECTED_CONFIG[:5]
