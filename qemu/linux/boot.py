"""boot.py - boot Debian's arm64 kernel (tools/fetch-linux-arm64.sh) under
QEMU with an initramfs that runs sdblinux on the SD card, and collect what
it printed (the same Run as tests/qemu/harness.py's boots).

Controllers (CONTROLLERS): on raspi3b the stock device tree puts the SD
slot on SDHOST (Linux muxes GPIO 48-53 to ALT0 and QEMU moves the card
there); for the Arasan EMMC a copy of the tree has the SDHOST node
disabled and the EMMC's Wi-Fi parts removed (its mmc-pwrseq fails under
QEMU). On raspi4b (QEMU 9.0 and newer) the card is on EMMC2, as on a
board. The kernel's MMC core and block driver are built in; sdhci,
sdhci-pltfm, sdhci-iproc (the Arasan EMMC and EMMC2) and bcm2835 (SDHOST)
are modules, loaded in that order, and bcm2835_wdt provides the power-off
that ends QEMU (-no-reboot).
"""
import os
import re
import shutil
import subprocess
import sys
import tempfile

ROOT = os.path.abspath(os.path.join(os.path.dirname(__file__), "..", ".."))
sys.path.insert(0, os.path.join(ROOT, "tests", "qemu"))
import harness  # noqa: E402
from initramfs import Archive  # noqa: E402

FETCH = os.path.join(ROOT, "tools", "fetch-linux-arm64.sh")
SDBLINUX = os.path.join(ROOT, "build", "sdblinux", "sdblinux-arm64")
MODULES = ("sdhci", "sdhci-pltfm", "sdhci-iproc", "bcm2835", "bcm2835_wdt")
APPLETS = ("sh", "mount", "insmod", "sleep", "grep", "dmesg", "poweroff", "cat", "sync",
           "head", "tail")
# quiet: the kernel's own info messages stay in its ring buffer (the init
# script prints dmesg's mmc lines itself) instead of landing on the console
# in the middle of a record line of sdblinux's.
APPEND = "console=ttyAMA0 nosmp panic=-1 quiet"
# The console from the first line on (a fault before the PL011 driver
# registers would otherwise leave the log empty).
EARLYCON = {"raspi3b": "earlycon=pl011,mmio32,0x3f201000",
            "raspi4b": "earlycon=pl011,mmio32,0xfe201000"}
# (machine, controller): the device tree and how the tree is changed.
CONTROLLERS = {
    ("raspi3b", "sdhost"): ("bcm2837-rpi-3-b.dtb", []),
    ("raspi3b", "emmc"): ("bcm2837-rpi-3-b.dtb", [
        ["fdtput", "-t", "s", "{dtb}", "/soc/mmc@7e202000", "status", "disabled"],
        ["fdtput", "-d", "{dtb}", "/soc/mmc@7e300000", "mmc-pwrseq"],
        ["fdtput", "-d", "{dtb}", "/soc/mmc@7e300000", "pinctrl-0"],
        ["fdtput", "-d", "{dtb}", "/soc/mmc@7e300000", "pinctrl-names"],
        ["fdtput", "-r", "{dtb}", "/soc/mmc@7e300000/wifi@1"],
    ]),
    # EMMC2's regulators sit on the firmware's GPIO expander, which QEMU
    # does not model: the MMC core then takes the voltages from the host.
    # The HDMI block at 0x7ef00000 is not modelled either (its interrupt
    # controller's and I2C drivers' first register access faults and kills
    # init): every /soc node there is disabled ("disable-under").
    ("raspi4b", "emmc2"): ("bcm2711-rpi-4-b.dtb", [
        ["disable-under", "/soc", "@7ef0"],
        ["fdtput", "-t", "s", "{dtb}", "/soc/mmc@7e300000", "status", "disabled"],
        ["fdtput", "-d", "{dtb}", "/emmc2bus/mmc@7e340000", "vqmmc-supply"],
        ["fdtput", "-d", "{dtb}", "/emmc2bus/mmc@7e340000", "vmmc-supply"],
    ]),
}


class Unavailable(Exception):
    """The kernel cannot be had here (no network, not Debian): skip."""


def fetch():
    """build/linux, fetched when missing; Unavailable with the script's
    message when that is not possible."""
    p = subprocess.run(["nice", "-n", "15", FETCH], stdout=subprocess.PIPE,
                       stderr=subprocess.PIPE, stdin=subprocess.DEVNULL, timeout=1200)
    if p.returncode != 0:
        raise Unavailable(p.stderr.decode("utf-8", "replace").strip())
    return p.stdout.decode().strip()


INIT = r"""#!/bin/sh
export PATH=/bin
mount -t proc proc /proc
mount -t sysfs sysfs /sys
mount -t devtmpfs devtmpfs /dev
for m in {modules}; do
	insmod /lib/modules/$m.ko || echo "sdb-init: insmod $m failed"
done
# The card is probed after the host driver loads: wait at most 20 s.
i=0
while [ ! -b /dev/mmcblk0 ] && [ $i -lt 200 ]; do sleep 0.1; i=$((i+1)); done
if [ -b /dev/mmcblk0 ]; then
	dmesg | grep -i -E 'mmc|sdhci|sdhost'
	echo "sdb-idle before: $(grep -m1 idle_sleeptime /proc/timer_list)"
	/bin/sdblinux {args} /dev/mmcblk0
	echo "sdb-init: sdblinux exit status $?"
	echo "sdb-idle after: $(grep -m1 idle_sleeptime /proc/timer_list)"
else
	echo "sdb-init: no /dev/mmcblk0 after 20 s"
	dmesg | tail -n 40
fi
sync
poweroff -f
"""


def make_initramfs(path, linux, sdblinux, args):
    a = Archive()
    for d in ("dev", "proc", "sys", "bin", "lib/modules"):
        a.dir(d)
    a.chardev("dev/console", 5, 1)
    a.file("bin/busybox", open(os.path.join(linux, "busybox"), "rb").read(), 0o755)
    for ap in APPLETS:
        a.symlink("bin/" + ap, "busybox")
    a.file("bin/sdblinux", open(sdblinux, "rb").read(), 0o755)
    kos = {}
    for dirpath, _, files in os.walk(os.path.join(linux, "modules")):
        for f in files:
            if f.endswith(".ko"):
                kos.setdefault(f[:-3], os.path.join(dirpath, f))
    for m in MODULES:
        if m not in kos:
            raise Unavailable("module %s.ko is not in %s" % (m, linux))
        a.file("lib/modules/%s.ko" % m, open(kos[m], "rb").read())
    a.file("init", INIT.format(modules=" ".join(MODULES), args=" ".join(args)).encode(),
           0o755)
    with open(path, "wb") as f:
        f.write(a.gzipped())


def make_dtb(path, linux, machine, controller):
    name, edits = CONTROLLERS[(machine, controller)]
    shutil.copyfile(os.path.join(linux, "dtbs", "broadcom", name), path)
    todo = []
    for cmd in edits:
        if cmd[0] != "disable-under":
            todo.append(cmd)
            continue
        nodes = subprocess.run(["fdtget", "-l", path, cmd[1]], stdout=subprocess.PIPE,
                               check=True).stdout.decode().split()
        todo += [["fdtput", "-t", "s", "{dtb}", "%s/%s" % (cmd[1], n), "status", "disabled"]
                 for n in nodes if cmd[2] in n]
    for cmd in todo:
        p = subprocess.run([c.format(dtb=path) for c in cmd], stdout=subprocess.PIPE,
                           stderr=subprocess.STDOUT)
        if p.returncode != 0:
            raise RuntimeError("%s: %s" % (" ".join(cmd), p.stdout.decode().strip()))


def boot(machine, controller, image, args, timeout=900, trace=(), icount=True,
         linux=None, sdblinux=SDBLINUX):
    """Boot the kernel with sdblinux ARGS on image; a harness.Run. trace:
    QEMU trace events to enable (e.g. sdcard_normal_command); they go to
    run.trace (text) with the guest errors."""
    linux = linux or fetch()
    harness.require_machine(machine)
    binary = harness.qemu_binary("qemu-system-aarch64")
    with tempfile.TemporaryDirectory() as td:
        dtb, rd, log = (os.path.join(td, n) for n in ("sd.dtb", "initrd.gz", "ge.log"))
        make_dtb(dtb, linux, machine, controller)
        make_initramfs(rd, linux, sdblinux, args)
        cmd = [binary, "-M", machine, "-kernel", os.path.join(linux, "Image"),
               "-dtb", dtb, "-initrd", rd, "-append", APPEND + " " + EARLYCON[machine],
               "-no-reboot",
               "-display", "none", "-monitor", "none", "-serial", "stdio",
               "-d", "guest_errors", "-D", log]
        cmd += harness.card_options(machine if controller == "emmc2" else "raspi3b", image)
        if icount:
            cmd += ["-icount", "shift=0,sleep=off"]
        for event in trace or ():
            cmd += ["-trace", event]
        timed_out = False
        try:
            p = subprocess.run(["nice", "-n", "15"] + cmd, stdout=subprocess.PIPE,
                               stderr=subprocess.STDOUT, stdin=subprocess.DEVNULL,
                               timeout=timeout)
            out, status = p.stdout, p.returncode
        except subprocess.TimeoutExpired as e:
            out, status, timed_out = e.stdout or b"", None, True
        ge = open(log, errors="replace").read() if os.path.exists(log) else ""
    run = harness.Run(status, out.decode("utf-8", "replace"), ge, timed_out)
    run.trace = ge
    run.idle_ns = idle_ns(run.console)
    return run


def idle_ns(console):
    """CPU 0's idle time during sdblinux's run (/proc/timer_list), or None."""
    v = {}
    for when in ("before", "after"):
        m = re.search(r"sdb-idle %s: .*?(\d+) nsecs" % when, console)
        if not m:
            return None
        v[when] = int(m.group(1))
    return v["after"] - v["before"]
