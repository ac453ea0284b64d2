"""make install / make uninstall (tools/sdbcard.py) on a temporary directory
that mimics a mounted Raspberry Pi OS boot partition.

install: copies the kernel as sdbench.img (the card's own kernel*.img stay
untouched), a sample sdbench.txt unless there is one in any letter case,
and appends a marked block to config.txt after saving a backup, leaving
out lines already in effect; a second run changes nothing. uninstall: the
directory back to what it was byte for byte, or, when config.txt was edited
after install, exactly the install's lines removed and every edit kept."""
import os
import subprocess
import sys

import pytest

import harness

ROOT = harness.ROOT
SDBCARD = os.path.join(ROOT, "tools", "sdbcard.py")
SAMPLE = os.path.join(ROOT, "tools", "sdbhost", "sdbench-sample.txt")
sys.path.insert(0, os.path.join(ROOT, "tools"))
import sdbcard  # noqa: E402  (in_effect: what the firmware would apply)

# A Raspberry Pi OS (bookworm) config.txt, shortened, plus two of the lines
# sdbench needs: enable_uart=1 for every board (already in effect, so not
# repeated) and dtoverlay=disable-bt for the Pi 4 only (so it is added).
PIOS_CONFIG = """# For more options and information see
# http://rptl.io/configtxt
dtparam=audio=on
camera_auto_detect=1
display_auto_detect=1
auto_initramfs=1
dtoverlay=vc4-kms-v3d
max_framebuffers=2
disable_fw_kms_setup=1
arm_64bit=1
disable_overscan=1
arm_boost=1
enable_uart=1

[cm4]
otg_mode=1

[pi4]
dtoverlay=disable-bt

[all]
"""
NEEDED = ("kernel=sdbench.img", "arm_64bit=0", "enable_uart=1", "dtoverlay=disable-bt")


def env():
    return {k: v for k, v in os.environ.items() if k not in ("MAKEFLAGS", "MFLAGS", "MAKELEVEL")}


def make(*args, check=True):
    p = subprocess.run(["make", "-s", *args], cwd=ROOT, env=env(), stdout=subprocess.PIPE,
                       stderr=subprocess.STDOUT, text=True, timeout=120)
    if check:
        assert p.returncode == 0, p.stdout
    return p


def sdbcard_cli(*args, check=True):
    p = subprocess.run(["/usr/bin/python3", SDBCARD, *args], cwd=ROOT, stdout=subprocess.PIPE,
                       stderr=subprocess.STDOUT, text=True, timeout=60)
    if check:
        assert p.returncode == 0, p.stdout
    return p


def snapshot(d):
    """Every file under d: relative name -> bytes."""
    out = {}
    for root, _, names in os.walk(d):
        for n in names:
            p = os.path.join(root, n)
            with open(p, "rb") as f:
                out[os.path.relpath(p, d)] = f.read()
    return out


def boot_partition(d, config):
    d.mkdir()
    if config is not None:
        (d / "config.txt").write_bytes(config)
    for n in ("bootcode.bin", "start.elf", "fixup.dat", "start4.elf", "fixup4.dat",
              "bcm2711-rpi-4-b.dtb", "cmdline.txt"):
        (d / n).write_bytes(b"firmware " + n.encode())
    # Raspberry Pi OS's own kernels, kernel.img among them: never touched.
    for n in ("kernel.img", "kernel7.img", "kernel8.img"):
        (d / n).write_bytes(b"linux " + n.encode())
    return str(d)


def effective(text):
    return [l for l in NEEDED if sdbcard.in_effect(text.splitlines(), l)]


# The config.txt section filters each board family matches besides [all]
# (the Raspberry Pi config.txt documentation, "Conditional filters").
FILTERS = {"pi3": {"pi3"}, "pi4": {"pi4"}, "pi400": {"pi4", "pi400"},
           "pi5": {"pi5"}, "cm5": {"pi5", "cm5"}}


def board_view(text, board):
    """The settings as the firmware of one board family applies them: the
    last value of each key in the sections that apply to it."""
    applies, out = True, {}
    for line in text.splitlines():
        sec = sdbcard.section(line)
        if sec is not None:
            applies = sec == "all" or sec in FILTERS[board]
            continue
        kv = sdbcard.setting(line)
        if kv and applies:
            out[kv[0]] = kv[1]
    return out


def assert_boards_get_their_images(text):
    """Pi 0-3: the 32-bit image; Pi 4 family and Pi 5 family: their 64-bit
    images at 0x80000; the Pi 5 without the device-tree check."""
    pi3 = board_view(text, "pi3")
    assert (pi3["kernel"], pi3["arm_64bit"]) == ("sdbench.img", "0")
    assert "kernel_address" not in pi3
    for b in ("pi4", "pi400"):
        v = board_view(text, b)
        assert (v["kernel"], v["arm_64bit"], v["kernel_address"]) == \
            ("sdbench8.img", "1", "0x80000")
        assert v.get("os_check") != "0"
    for b in ("pi5", "cm5"):
        v = board_view(text, b)
        assert (v["kernel"], v["arm_64bit"], v["kernel_address"], v["os_check"]) == \
            ("sdbench_2712.img", "1", "0x80000", "0")
    for b in FILTERS:
        v = board_view(text, b)
        assert (v["enable_uart"], v["dtoverlay"]) == ("1", "disable-bt")


def read(path):
    with open(path, "rb") as f:
        return f.read()


@pytest.mark.parametrize("style", ["lf", "crlf-no-final-newline"])
def test_install_twice_then_uninstall_restores_every_byte(tmp_path, style):
    config = PIOS_CONFIG.encode()
    if style != "lf":
        config = config.replace(b"\n", b"\r\n").rstrip(b"\r\n")
    boot = boot_partition(tmp_path / "bootfs", config)
    before = snapshot(boot)
    assert effective(config.decode()) == ["enable_uart=1"]

    out = make("install", "BOOT=" + boot).stdout
    after = snapshot(boot)
    new = after["config.txt"]
    # The user's file is still all there, unchanged, at the start.
    assert new.startswith(config)
    added = new[len(config):].decode()
    for line in ("kernel=sdbench.img", "arm_64bit=0", "dtoverlay=disable-bt"):
        assert line in added and line in out
    assert "enable_uart=1" not in added              # already in effect: not repeated
    assert "not repeated: enable_uart=1" in out
    # the UART lines apply to every board; kernel= and arm_64bit= per family
    assert effective(new.decode()) == ["enable_uart=1", "dtoverlay=disable-bt"]
    assert_boards_get_their_images(new.decode())
    if style != "lf":
        assert b"\r\n" in new[len(config):] and b"\n" not in new[len(config):].replace(b"\r\n", b"")
    assert after["config.txt.sdbench-backup"] == config
    assert after["sdbench.img"] == read(harness.KERNEL)
    assert after["sdbench8.img"] == read(harness.KERNEL8)
    assert after["sdbench_2712.img"] == read(harness.KERNEL_2712)
    assert after["sdbench.txt"] == read(SAMPLE)
    for name, data in before.items():                # nothing else changed
        if name != "config.txt":
            assert after[name] == data, name
    assert set(after) - set(before) == {"sdbench.img", "sdbench8.img", "sdbench_2712.img",
                                        "sdbench.txt", "config.txt.sdbench-backup",
                                        "sdbench-install.json", "SDBENCH.LOG"}
    log = after["SDBENCH.LOG"]
    assert len(log) == 8 << 20 and log[:64] * (len(log) // 64) == log

    out2 = make("install", "BOOT=" + boot).stdout
    assert snapshot(boot) == after                   # idempotent, byte for byte
    assert "unchanged" in out2 and "up to date" in out2

    out3 = make("uninstall", "BOOT=" + boot).stdout
    assert snapshot(boot) == before
    assert "restored the original" in out3


def test_user_edits_after_install_are_kept(tmp_path):
    boot = boot_partition(tmp_path / "bootfs", PIOS_CONFIG.encode())
    before = snapshot(boot)
    make("install", "BOOT=" + boot)
    cfg = os.path.join(boot, "config.txt")
    text = read(cfg).decode()
    # The user edits config.txt while sdbench is installed: changes one of
    # their lines, adds one inside sdbench's block and one after it, and
    # edits the sample sdbench.txt.
    text = text.replace("dtparam=audio=on", "dtparam=audio=off")
    text = text.replace("arm_64bit=0\n", "arm_64bit=0\nhdmi_safe=1\n")
    text += "gpu_mem=64\n"
    with open(cfg, "w") as f:
        f.write(text)
    with open(os.path.join(boot, "sdbench.txt"), "a") as f:
        f.write("suite = quick\n")

    out = make("uninstall", "BOOT=" + boot).stdout
    after = snapshot(boot)
    expected = PIOS_CONFIG.replace("dtparam=audio=on", "dtparam=audio=off") + \
        "hdmi_safe=1\ngpu_mem=64\n"
    assert after["config.txt"].decode() == expected
    assert "kept the lines you added inside the block: hdmi_safe=1" in out
    # The user's edited sdbench.txt stays; sdbench.img goes; the backup of
    # the config.txt from before the install stays, and the output says so.
    assert after["sdbench.txt"] == read(SAMPLE) + b"suite = quick\n"
    assert "sdbench.txt: kept (changed since install)" in out
    assert "sdbench.img" not in after and "sdbench-install.json" not in after
    assert after["config.txt.sdbench-backup"] == PIOS_CONFIG.encode()
    assert "config.txt.sdbench-backup" in out
    for name, data in before.items():
        if name != "config.txt":
            assert after[name] == data, name


def test_an_existing_sdbench_txt_is_never_replaced_or_removed(tmp_path):
    boot = boot_partition(tmp_path / "bootfs", PIOS_CONFIG.encode())
    mine = b"suite = selftest\n"
    with open(os.path.join(boot, "SDBENCH.TXT"), "wb") as f:   # FAT: any letter case
        f.write(mine)
    before = snapshot(boot)
    out = make("install", "BOOT=" + boot).stdout
    assert "SDBENCH.TXT: kept yours" in out
    assert "sdbench.txt" not in snapshot(boot)
    assert snapshot(boot)["SDBENCH.TXT"] == mine
    make("uninstall", "BOOT=" + boot)
    assert snapshot(boot) == before


def test_no_config_txt_yet(tmp_path):
    boot = boot_partition(tmp_path / "bootfs", None)
    before = snapshot(boot)
    make("install", "BOOT=" + boot)
    text = read(os.path.join(boot, "config.txt")).decode()
    assert effective(text) == ["enable_uart=1", "dtoverlay=disable-bt"]
    assert_boards_get_their_images(text)
    assert "config.txt.sdbench-backup" not in snapshot(boot)
    out = make("uninstall", "BOOT=" + boot).stdout
    assert "install had created it" in out
    assert snapshot(boot) == before


def test_a_new_build_is_installed_over_the_old_one(tmp_path):
    boot = boot_partition(tmp_path / "bootfs", PIOS_CONFIG.encode())
    before = snapshot(boot)
    build = tmp_path / "build"
    build.mkdir()
    (build / "kernel.img").write_bytes(b"old build")
    sdbcard_cli("install", "--boot", boot, "--build", str(build))
    installed_config = read(os.path.join(boot, "config.txt"))
    (build / "kernel.img").write_bytes(b"new build")
    out = sdbcard_cli("install", "--boot", boot, "--build", str(build)).stdout
    assert "sdbench.img: copied" in out
    assert read(os.path.join(boot, "sdbench.img")) == b"new build"
    assert read(os.path.join(boot, "config.txt")) == installed_config
    sdbcard_cli("uninstall", "--boot", boot)
    assert snapshot(boot) == before


def test_a_64bit_image_adds_a_pi4_section_and_uninstall_removes_it(tmp_path):
    boot = boot_partition(tmp_path / "bootfs", PIOS_CONFIG.encode())
    before = snapshot(boot)
    build = tmp_path / "build"
    build.mkdir()
    (build / "kernel.img").write_bytes(b"32")
    sdbcard_cli("install", "--boot", boot, "--build", str(build))
    (build / "kernel8.img").write_bytes(b"64")
    out = sdbcard_cli("install", "--boot", boot, "--build", str(build)).stdout
    assert "updated" in out
    text = read(os.path.join(boot, "config.txt")).decode()
    block = text[len(PIOS_CONFIG):].splitlines()
    settings = [l for l in block if not l.startswith("#")]
    assert settings == ["[all]", "kernel=sdbench.img", "arm_64bit=0", "dtoverlay=disable-bt",
                        "[pi4]", "kernel=sdbench8.img", "arm_64bit=1",
                        "kernel_address=0x80000", "[all]"]
    assert read(os.path.join(boot, "sdbench8.img")) == b"64"
    assert read(os.path.join(boot, "config.txt.sdbench-backup")) == PIOS_CONFIG.encode()
    sdbcard_cli("uninstall", "--boot", boot)
    assert snapshot(boot) == before


def test_refusals_change_nothing(tmp_path):
    # Not a boot partition (a mistyped BOOT=): nothing is written.
    home = tmp_path / "home"
    home.mkdir()
    (home / "notes.txt").write_text("mine")
    p = make("install", "BOOT=" + str(home), check=False)
    assert p.returncode != 0 and "does not look like a Raspberry Pi boot partition" in p.stdout
    assert snapshot(str(home)) == {"notes.txt": b"mine"}
    # No BOOT= at all.
    p = make("install", check=False)
    assert p.returncode != 0 and "BOOT=" in p.stdout
    # A file called sdbench.img that sdbench did not put there.
    boot = boot_partition(tmp_path / "bootfs", PIOS_CONFIG.encode())
    with open(os.path.join(boot, "sdbench.img"), "wb") as f:
        f.write(b"someone else's")
    before = snapshot(boot)
    p = make("install", "BOOT=" + boot, check=False)
    assert p.returncode != 0 and "was not put there by sdbench" in p.stdout
    assert snapshot(boot) == before


def test_uninstall_without_the_record_removes_only_the_block(tmp_path):
    boot = boot_partition(tmp_path / "bootfs", PIOS_CONFIG.encode())
    make("install", "BOOT=" + boot)
    os.unlink(os.path.join(boot, "sdbench-install.json"))
    out = make("uninstall", "BOOT=" + boot).stdout
    assert read(os.path.join(boot, "config.txt")) == PIOS_CONFIG.encode()
    assert "sdbench-install.json not found" in out
    assert os.path.exists(os.path.join(boot, "sdbench.img"))   # said so, left alone


def test_in_effect_follows_config_txt_sections():
    lines = ["enable_uart=1", "[pi4]", "arm_64bit=1", "[all]", "dtoverlay=disable-bt",
             "[pi3]", "enable_uart=0", "[all]"]
    assert not sdbcard.in_effect(lines, "enable_uart=1")      # changed on a Pi 3 later
    assert sdbcard.in_effect(lines, "dtoverlay=disable-bt")
    assert not sdbcard.in_effect(lines, "arm_64bit=1")        # only on a Pi 4
    assert not sdbcard.in_effect(["[pi4]", "dtoverlay=disable-bt"], "dtoverlay=disable-bt")
    assert sdbcard.in_effect(["kernel=a.img", "kernel=sdbench.img"], "kernel=sdbench.img")
    assert not sdbcard.in_effect(["kernel=sdbench.img", "kernel=a.img"], "kernel=sdbench.img")


def test_a_damaged_block_is_reported_not_duplicated(tmp_path):
    boot = boot_partition(tmp_path / "bootfs", PIOS_CONFIG.encode())
    make("install", "BOOT=" + boot)
    cfg = os.path.join(boot, "config.txt")
    text = read(cfg).decode().replace("# <<< sdbench\n", "")   # the end marker deleted
    with open(cfg, "w") as f:
        f.write(text)
    before = snapshot(boot)
    for target in ("install", "uninstall"):
        p = make(target, "BOOT=" + boot, check=False)
        assert p.returncode != 0 and "fix config.txt by hand" in p.stdout
        assert snapshot(boot) == before


def test_edited_config_without_final_newline_keeps_its_style(tmp_path):
    # Edited after install, so uninstall removes the block line by line; the
    # line end install put after the user's last line goes too.
    config = PIOS_CONFIG.rstrip("\n")
    boot = boot_partition(tmp_path / "bootfs", config.encode())
    make("install", "BOOT=" + boot)
    cfg = os.path.join(boot, "config.txt")
    with open(cfg, "rb") as f:
        text = f.read().replace(b"camera_auto_detect=1", b"camera_auto_detect=0")
    with open(cfg, "wb") as f:
        f.write(text)
    make("uninstall", "BOOT=" + boot)
    assert read(cfg).decode() == config.replace("camera_auto_detect=1", "camera_auto_detect=0")


def test_uninstall_where_nothing_was_installed(tmp_path):
    boot = boot_partition(tmp_path / "bootfs", PIOS_CONFIG.encode())
    before = snapshot(boot)
    out = make("uninstall", "BOOT=" + boot).stdout
    assert "no sdbench install found" in out
    assert snapshot(boot) == before


def test_the_pi5_image_gets_its_section_and_uninstall_removes_it(tmp_path):
    boot = boot_partition(tmp_path / "bootfs", PIOS_CONFIG.encode())
    before = snapshot(boot)
    build = tmp_path / "build"
    build.mkdir()
    (build / "kernel.img").write_bytes(b"32")
    (build / "kernel_2712.img").write_bytes(b"2712")
    sdbcard_cli("install", "--boot", boot, "--build", str(build))
    text = read(os.path.join(boot, "config.txt")).decode()
    block = text[len(PIOS_CONFIG):].splitlines()
    settings = [l for l in block if not l.startswith("#")]
    # No kernel8.img built: the Pi 4 keeps the 32-bit image of [all]; the
    # Pi 5 boots only 64-bit kernels and gets its own, under a name no
    # Raspberry Pi OS kernel uses.
    assert settings == ["[all]", "kernel=sdbench.img", "arm_64bit=0", "dtoverlay=disable-bt",
                        "[pi5]", "kernel=sdbench_2712.img", "arm_64bit=1",
                        "kernel_address=0x80000", "os_check=0", "uart_2ndstage=1", "[all]"]
    assert read(os.path.join(boot, "sdbench_2712.img")) == b"2712"
    assert not os.path.exists(os.path.join(boot, "kernel_2712.img"))
    sdbcard_cli("uninstall", "--boot", boot)
    assert snapshot(boot) == before


def test_a_written_results_file_outlives_uninstall(tmp_path):
    """SDBENCH.LOG that a run wrote is the user's result: uninstall keeps it
    and says so; install again keeps it too."""
    boot = boot_partition(tmp_path / "bootfs", PIOS_CONFIG.encode())
    make("install", "BOOT=" + boot)
    path = os.path.join(boot, "SDBENCH.LOG")
    with open(path, "r+b") as f:
        f.write(b"# sdbench results file: the console output of the last run\n\0")
    written = read(path)
    out = make("install", "BOOT=" + boot).stdout
    assert "SDBENCH.LOG: kept" in out and read(path) == written
    out = make("uninstall", "BOOT=" + boot).stdout
    assert "SDBENCH.LOG: kept (it holds a run's results)" in out
    assert read(path) == written
