"""Boot kernel.img under QEMU and collect what it printed.

Every run is bounded (a wall-clock timeout kills QEMU and fails the test);
records are the "@ " JSON lines of the console (docs/records.md).
"""
import json
import os
import subprocess
import tempfile

ROOT = os.path.abspath(os.path.join(os.path.dirname(__file__), "..", ".."))
KERNEL = os.path.join(ROOT, "build", "kernel.img")
FAULT_KERNEL = os.path.join(ROOT, "build", "fault", "kernel.img")
MKIMAGE = os.path.join(ROOT, "qemu", "mkimage.py")
SHIM64 = os.path.join(ROOT, "build", "shim64.bin")
MACHINES = ("raspi0", "raspi1ap", "raspi2b")
# Cortex-A53 boards: QEMU starts them only in AArch64, so they boot through
# the shim (qemu/shim/) and are not part of MACHINES (the 32-bit boards every
# test runs on); tests/qemu/test_raspi3.py covers them.
AARCH64_MACHINES = ("raspi3b", "raspi3ap")
REVISIONS = {"raspi0": "0x00920092", "raspi1ap": "0x00900021", "raspi2b": "0x00a21041",
             "raspi3b": "0x00a02082", "raspi3ap": "0x009020e0"}


def qemu_command(machine, kernel=KERNEL):
    """The QEMU binary and the options that load kernel (raw, at 0x8000)."""
    if machine in AARCH64_MACHINES:
        return ["qemu-system-aarch64", "-M", machine, "-kernel", SHIM64,
                "-device", "loader,file=%s,addr=0x8000,force-raw=on" % kernel]
    return ["qemu-system-arm", "-M", machine, "-bios", kernel]


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


def make_image(path, size="64M", kernel=KERNEL, sdbench=(), extra=()):
    args = ["/usr/bin/python3", MKIMAGE, "-o", path, "--size", size, "--kernel", kernel]
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
            args += ["-drive", "file=%s,if=sd,format=raw%s" % (image, drive_opts)]
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
