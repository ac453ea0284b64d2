#!/usr/bin/python3
"""Boot sdbench under QEMU, let the quick suite run and take a screendump of
the emulated HDMI output through QEMU's monitor at its end.

  qemu/screendump.py -o docs/screen.png [--machine raspi2b] [--kernel build/kernel.img]

The card's sdbench.txt ends the suite in the console (end = console,
console_idle = 0), so the board is still running and its screen still
shows the end of the run when the monitor's screendump is taken; QEMU is
then told to quit. -o NAME.ppm keeps QEMU's own dump, NAME.png converts it
(zlib only). tests/qemu/test_screen.py uses run() and compares the dump with
tests/qemu/screen_model.py's rendering of the run's records; during a run
it uses Board.frozen_dump(): the board stopped, console and screen taken at
that one moment, then running on.
"""
import argparse
import os
import socket
import struct
import subprocess
import sys
import tempfile
import time
import zlib

HERE = os.path.dirname(os.path.realpath(__file__))
ROOT = os.path.abspath(os.path.join(HERE, ".."))
sys.path.insert(0, os.path.join(ROOT, "tests", "qemu"))

import harness  # noqa: E402

SDBENCH = ["suite = quick", "seed = 7", "console_wait = 0", "end = console",
           "console_idle = 0"]


def _monitor(path, command, timeout=30):
    s = socket.socket(socket.AF_UNIX)
    end = time.monotonic() + timeout
    while True:
        try:
            s.connect(path)
            break
        except OSError:
            if time.monotonic() > end:
                raise
            time.sleep(0.1)
    s.settimeout(timeout)

    def prompt():
        buf = b""
        while b"(qemu)" not in buf:
            b = s.recv(4096)
            if not b:
                return      # QEMU closed the monitor (quit)
            buf += b

    prompt()
    s.sendall(command.encode() + b"\n")
    prompt()
    s.close()


class Board:
    """QEMU booted from a fresh card with sdbench.txt lines sdbench: the
    serial output goes to a file, the monitor listens on a socket."""

    def __init__(self, workdir, machine="raspi2b", kernel=harness.KERNEL, sdbench=SDBENCH):
        img = os.path.join(workdir, "sd.img")
        harness.make_image(img, size="256M", kernel=kernel, sdbench=sdbench, console_wait=None)
        self.mon, self.out = (os.path.join(workdir, n) for n in ("mon.sock", "console.txt"))
        args = harness.qemu_command(machine, kernel) + [
            "-display", "none", "-monitor", "unix:%s,server,nowait" % self.mon,
            "-serial", "file:" + self.out, "-semihosting"] + harness.card_options(machine, img)
        self.proc = subprocess.Popen(args, stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL,
                                     stderr=subprocess.DEVNULL)

    def console(self):
        if not os.path.exists(self.out):
            return ""
        return open(self.out, "rb").read().decode("utf-8", "replace")

    def wait_for(self, found, timeout, what):
        """Poll the console until found(text) is true; the text."""
        end = time.monotonic() + timeout
        while True:
            text = self.console()
            if found(text):
                return text
            if time.monotonic() > end or self.proc.poll() is not None:
                raise RuntimeError("no %s on the console:\n%s" % (what, text[-3000:]))
            time.sleep(0.2)

    def monitor(self, command):
        _monitor(self.mon, command)

    def frozen_dump(self, ppm):
        """The board stopped, the console as far as it got and the screen
        at that same moment, then running again: the console text."""
        self.monitor("stop")
        try:
            text = self.console()
            self.monitor("screendump " + ppm)
        finally:
            self.monitor("cont")
        return text

    def close(self):
        try:
            if self.proc.poll() is None:
                self.monitor("quit")
                self.proc.wait(timeout=30)
        finally:
            if self.proc.poll() is None:
                self.proc.kill()
                self.proc.wait()


def run(workdir, machine="raspi2b", kernel=harness.KERNEL, timeout=300, until='"type":"suite"',
        extra=()):
    """Boot, wait for the suite record, screendump; (console text, ppm path).
    extra: more sdbench.txt lines."""
    ppm = os.path.join(workdir, "screen.ppm")
    b = Board(workdir, machine, kernel, sdbench=SDBENCH + list(extra))
    try:
        b.wait_for(lambda t: until in t, timeout, until)
        time.sleep(1)   # the records after it (none draws) and the prompt
        b.monitor("screendump " + ppm)
    finally:
        b.close()
    return b.console(), ppm


def read_ppm(path):
    """(width, height, RGB bytes) of a binary PPM (P6, maxval 255)."""
    data = open(path, "rb").read()
    fields, pos = [], 0
    while len(fields) < 4:
        while data[pos:pos + 1].isspace():
            pos += 1
        start = pos
        while not data[pos:pos + 1].isspace():
            pos += 1
        fields.append(data[start:pos])
    assert fields[0] == b"P6" and fields[3] == b"255", fields
    w, h = int(fields[1]), int(fields[2])
    return w, h, data[pos + 1:pos + 1 + w * h * 3]


def write_png(path, w, h, rgb):
    def chunk(t, b):
        return struct.pack(">I", len(b)) + t + b + struct.pack(">I", zlib.crc32(t + b))
    raw = b"".join(b"\0" + rgb[y * w * 3:(y + 1) * w * 3] for y in range(h))
    with open(path, "wb") as f:
        f.write(b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", struct.pack(">IIBBBBB", w, h, 8, 2, 0, 0, 0))
                + chunk(b"IDAT", zlib.compress(raw, 9)) + chunk(b"IEND", b""))


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("-o", "--output", required=True)
    ap.add_argument("--machine", default="raspi2b")
    ap.add_argument("--kernel", default=harness.KERNEL)
    a = ap.parse_args(argv)
    with tempfile.TemporaryDirectory() as td:
        _, ppm = run(td, a.machine, a.kernel)
        if a.output.endswith(".ppm"):
            os.replace(ppm, a.output)
        else:
            write_png(a.output, *read_ppm(ppm))
    print("wrote %s" % a.output)
    return 0


if __name__ == "__main__":
    sys.exit(main())
