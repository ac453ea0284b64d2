"""Boot kernel.img under QEMU and collect what it printed.

Every run is bounded (a wall-clock timeout kills QEMU and fails the test);
records are the "@ " JSON lines of the console (docs/records.md).

Which QEMU: SDB_QEMU (or pytest --qemu, tests/conftest.py) is
  system  the qemu-system-arm / qemu-system-aarch64 on PATH (the default);
  10      a QEMU with raspi4b: the system one if it has it (Debian 13),
          else QEMU 10 from bookworm-backports in build/qemu10
          (tools/fetch-qemu10.sh fetches it when missing);
  PATH    a directory holding qemu-system-arm and qemu-system-aarch64, or a
          prefix the binary name is appended to (e.g. /opt/qemu/bin/).
The tests must pass under every QEMU from 7.2 on: never depend on one
version's incidental details (the RCA, the wording of a guest-error line).
"""
import functools
import json
import os
import re
import subprocess
import tempfile

import pytest

ROOT = os.path.abspath(os.path.join(os.path.dirname(__file__), "..", ".."))
KERNEL = os.path.join(ROOT, "build", "kernel.img")
FAULT_KERNEL = os.path.join(ROOT, "build", "fault", "kernel.img")
# The AArch64 build (Pi 3/4/Zero 2 with arm_64bit=1): on raspi3b/raspi4b
# QEMU's -kernel loads it at 0x80000 and starts core 0 there in EL2, as the
# Pi firmware does; no shim.
KERNEL8 = os.path.join(ROOT, "build", "kernel8.img")
FAULT_KERNEL8 = os.path.join(ROOT, "build", "fault", "kernel8.img")
# The Pi 5 name of the AArch64 build (kernel_2712.img: the same sources,
# tuned for the Cortex-A76). No QEMU models a Pi 5: it is booted on raspi3b
# and raspi4b, where it must find those boards like kernel8.img.
KERNEL_2712 = os.path.join(ROOT, "build", "kernel_2712.img")
FAULT_KERNEL_2712 = os.path.join(ROOT, "build", "fault", "kernel_2712.img")
# The image dimension of the tests that run on the Cortex-A53/A72 boards:
# the 32-bit kernel.img (through the shim) and kernel8.img.
KERNELS = (KERNEL, KERNEL8)
KERNEL_IDS = ("kernel", "kernel8")
FAULT_KERNELS = {KERNEL: FAULT_KERNEL, KERNEL8: FAULT_KERNEL8}
MKIMAGE = os.path.join(ROOT, "qemu", "mkimage.py")
SHIM64 = os.path.join(ROOT, "build", "shim64.bin")
FETCH_QEMU10 = os.path.join(ROOT, "tools", "fetch-qemu10.sh")
MACHINES = ("raspi0", "raspi1ap", "raspi2b")
# Cortex-A53 boards: QEMU starts them only in AArch64, so they boot through
# the shim (qemu/shim/) and are not part of MACHINES (the 32-bit boards every
# test runs on); tests/qemu/test_raspi3.py covers them.
AARCH64_MACHINES = ("raspi3b", "raspi3ap")
# Pi 4 (BCM2711, Cortex-A72): QEMU 9.0 and newer, through the same shim.
# The card goes on EMMC2 (0xFE340000), the SD slot of a real Pi 4, not on
# the legacy EMMC that -drive if=sd would use (on a Pi 4 it serves Wi-Fi).
PI4_MACHINES = ("raspi4b",)
EMMC2_MACHINES = ("raspi4b",)
# Machines whose SD slot the firmware drives: the SD tests run on these
# (raspi4b with the card on EMMC2, under a QEMU that has the machine).
SD_MACHINES = MACHINES + AARCH64_MACHINES + PI4_MACHINES
REVISIONS = {"raspi0": "0x00920092", "raspi1ap": "0x00900021", "raspi2b": "0x00a21041",
             "raspi3b": "0x00a02082", "raspi3ap": "0x009020e0", "raspi4b": "0x00b03115"}


def flavour():
    """SDB_QEMU: "system", "10" or a path (see the module's doc)."""
    return os.environ.get("SDB_QEMU", "") or "system"


@functools.lru_cache(maxsize=None)
def _qemu_prefix(flav):
    if flav == "system":
        return ""
    if flav == "10":
        p = subprocess.run([FETCH_QEMU10], stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                           stdin=subprocess.DEVNULL, timeout=600)
        if p.returncode != 0:
            raise RuntimeError("SDB_QEMU=10: tools/fetch-qemu10.sh failed:\n"
                               + p.stderr.decode("utf-8", "replace"))
        return p.stdout.decode().strip() + "/"
    if os.path.isdir(flav):
        return os.path.join(os.path.abspath(flav), "")
    return flav


def qemu_binary(name):
    """The path of qemu-system-arm or qemu-system-aarch64 of this flavour."""
    return _qemu_prefix(flavour()) + name


@functools.lru_cache(maxsize=None)
def _version(binary):
    try:
        out = subprocess.run([binary, "--version"], stdout=subprocess.PIPE,
                             stderr=subprocess.STDOUT, timeout=30).stdout.decode()
    except OSError as e:
        return None, str(e)
    m = re.search(r"version (\d+)\.(\d+)\.(\d+)", out)
    return (tuple(int(x) for x in m.groups()) if m else None), out.splitlines()[0] if out else ""


def qemu_version():
    """(major, minor, micro) of the selected qemu-system-aarch64, or None."""
    return _version(qemu_binary("qemu-system-aarch64"))[0]


def describe():
    """One line for the pytest header: flavour, binary and version."""
    try:
        binary = qemu_binary("qemu-system-aarch64")
    except RuntimeError as e:
        return "QEMU %s: not available: %s" % (flavour(), str(e).strip().splitlines()[-1])
    ver, line = _version(binary)
    return "QEMU %s: %s (%s)" % (flavour(), line or "not found", binary)


@functools.lru_cache(maxsize=None)
def _machines(binary):
    try:
        out = subprocess.run([binary, "-M", "help"], stdout=subprocess.PIPE,
                             stderr=subprocess.DEVNULL, timeout=30).stdout.decode()
    except OSError:
        return frozenset()
    return frozenset(l.split()[0] for l in out.splitlines()[1:] if l.strip())


def binary_for(machine):
    return "qemu-system-aarch64" if machine in AARCH64_MACHINES + PI4_MACHINES \
        else "qemu-system-arm"


def require_machine(machine):
    """Skip when the system QEMU lacks machine (QEMU 7.2 has no raspi4b:
    those tests run in the SDB_QEMU=10 pass); with any other flavour a
    missing machine is a failure."""
    binary = qemu_binary(binary_for(machine))
    if machine in _machines(binary):
        return
    ver = _version(binary)[1]
    if flavour() == "system":
        pytest.skip("%s has no %s (run with SDB_QEMU=10)" % (ver or binary, machine))
    pytest.fail("SDB_QEMU=%s: %s has no machine %s" % (flavour(), ver or binary, machine))


def is_aarch64_image(kernel):
    """kernel8.img or kernel_2712.img (or a fault build): an AArch64 image."""
    return os.path.basename(kernel) in ("kernel8.img", "kernel_2712.img")


# An AArch64 image loaded with -kernel leaves cores 1-3 in QEMU's spin-table
# stub, a WFE loop (hw/arm/raspi.c, write_smpboot64), and QEMU implements
# WFE as a yield, not a halt (target/arm/tcg/op_helper.c, HELPER(wfe)): with
# one host thread per core (multi-threaded TCG, the default) each of the
# three spins at 100% of a host core and takes it from core 0, which runs
# the program (a quick suite took 37 s instead of 9.5 s). One thread
# running the cores in turn gives a yielding core up at once; what the
# guest executes is the same. (kernel.img parks its cores with WFI: a
# halt.) Every QEMU from 7.2 on has -accel tcg,thread=single.
SINGLE_THREAD_TCG = ["-accel", "tcg,thread=single"]


def qemu_command(machine, kernel=KERNEL):
    """The QEMU binary and the options that load kernel (kernel.img raw at
    0x8000, through the shim on the AArch64 machines; kernel8.img with
    -kernel at 0x80000)."""
    require_machine(machine)
    binary = qemu_binary(binary_for(machine))
    if is_aarch64_image(kernel):
        assert machine in AARCH64_MACHINES + PI4_MACHINES, machine
        return [binary, "-M", machine, "-kernel", kernel] + SINGLE_THREAD_TCG
    if machine in AARCH64_MACHINES + PI4_MACHINES:
        return [binary, "-M", machine, "-kernel", SHIM64,
                "-device", "loader,file=%s,addr=0x8000,force-raw=on" % kernel]
    return [binary, "-M", machine, "-bios", kernel]


def card_options(machine, image, drive_opts=""):
    """The options that insert image as the SD card of machine's SD slot."""
    if machine in EMMC2_MACHINES:
        # The drive id must not be sd0: raspi4b has a device of that id.
        return ["-drive", "if=none,id=card0,file=%s,format=raw%s" % (image, drive_opts),
                "-device", "sd-card,drive=card0,bus=/generic-sdhci/sd-bus"]
    return ["-drive", "file=%s,if=sd,format=raw%s" % (image, drive_opts)]


# QEMU's guest-error line when a v1.x card (sd-card.spec_version=1) rejects
# CMD8. A host must send CMD8 and a v1 card treats it as illegal: it is the
# expected probe, not a violation. The wording is QEMU's own and changes
# between versions (7.2: "SD: CMD8 in a wrong state: idle", 10: "SD: Unknown
# CMD8 for spec v1.10"); only the card model and the command are relied on.
V1_CMD8_PROBE = re.compile(r"SD: .*\bCMD8\b")


class Run:
    def __init__(self, status, console, guest_errors, timed_out):
        self.status = status
        self.console = console
        self.guest_errors = guest_errors
        self.timed_out = timed_out
        self.records = []
        self.bad_records = []
        for line in console.splitlines():
            line = line.rstrip("\r")
            if line.startswith("@ "):
                try:
                    self.records.append(json.loads(line[2:]))
                except ValueError:
                    self.bad_records.append(line)

    def of_type(self, rtype):
        return [r for r in self.records if r.get("type") == rtype]

    def one(self, rtype):
        found = self.of_type(rtype)
        assert len(found) == 1, "expected one %r record, got %d:\n%s" % (
            rtype, len(found), self.console[-3000:])
        return found[0]

    def sd_guest_errors(self):
        """Lines of the guest-error log that come from the SD card model."""
        return [l for l in self.guest_errors.splitlines()
                if l.startswith("SD") or "sd_" in l or "sdhci" in l.lower()
                or "bcm2835_sdhost" in l]


def assert_timer_calibrated(t):
    """The measured timestamp rate of a board record's `timer` agrees with
    the nominal rate to 1%. The firmware averages two calibration windows
    against the 1 MHz system timer; both clocks follow host time, so a host
    that deschedules QEMU during one window moves that window, and the
    average by half the difference: the spread between the two
    (calib_ppm) is added to the tolerance. A wrong calibration, where both
    windows agree, still fails."""
    tol = t["nominal_hz"] / 100 + t["freq_hz"] * t["calib_ppm"] / 1e6
    assert abs(t["freq_hz"] - t["nominal_hz"]) < tol, t


def make_image(path, size="64M", kernel=KERNEL, sdbench=(), extra=(), console_wait=0):
    """An SD image (qemu/mkimage.py). Unless the test is about the console
    (console_wait=None), sdbench.txt gets "console_wait = 0": a test boot
    does not wait 3 s for a key nobody presses."""
    args = ["/usr/bin/python3", MKIMAGE, "-o", path, "--size", size, "--kernel", kernel]
    sdbench = list(sdbench)
    if console_wait is not None and not any(l.replace(" ", "").startswith("console_wait=")
                                            for l in sdbench):
        sdbench.append("console_wait = %d" % console_wait)
    for line in sdbench:
        args.append("--sdbench=" + line)
    args.extend(extra)
    subprocess.run(args, check=True)
    return path


def boot(machine, image=None, kernel=KERNEL, drive_opts="", timeout=120,
         extra=(), semihosting=True):
    """Boot kernel on machine with image as the SD card (None: no card)."""
    with tempfile.TemporaryDirectory() as td:
        log = os.path.join(td, "ge.log")
        args = qemu_command(machine, kernel) + [
                "-display", "none", "-monitor", "none", "-serial", "stdio",
                "-d", "guest_errors", "-D", log]
        if semihosting:
            args.append("-semihosting")
        if image:
            args += card_options(machine, image, drive_opts)
        args += list(extra)
        timed_out = False
        try:
            p = subprocess.run(args, stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                               stdin=subprocess.DEVNULL, timeout=timeout)
            out, status = p.stdout, p.returncode
        except subprocess.TimeoutExpired as e:
            out, status, timed_out = e.stdout or b"", None, True
        ge = open(log).read() if os.path.exists(log) else ""
    return Run(status, out.decode("utf-8", "replace"), ge, timed_out)
