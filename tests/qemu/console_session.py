"""An interactive session with sdbench under QEMU through its serial port.

QEMU's -serial stdio on pipes: what the test writes reaches the PL011's
receiver, what the firmware prints comes back. Every wait is bounded
(expect() fails with the console so far); close() ends QEMU.
"""
import os
import re
import subprocess
import tempfile
import threading
import time

import harness


class Session:
    def __init__(self, machine, image, timeout=60):
        self._td = tempfile.TemporaryDirectory()
        self.ge_log = os.path.join(self._td.name, "ge.log")
        args = harness.qemu_command(machine) + [
            "-display", "none", "-monitor", "none", "-serial", "stdio",
            "-d", "guest_errors", "-D", self.ge_log, "-semihosting"]
        args += harness.card_options(machine, image)
        self.proc = subprocess.Popen(args, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                     stderr=subprocess.STDOUT)
        self._buf = bytearray()
        self._lock = threading.Lock()
        self._deadline = time.monotonic() + timeout
        self.pos = 0    # expect() searches from here
        threading.Thread(target=self._reader, daemon=True).start()

    def _reader(self):
        while True:
            b = self.proc.stdout.read1(4096)
            if not b:
                return
            with self._lock:
                self._buf += b

    @property
    def text(self):
        with self._lock:
            return self._buf.decode("utf-8", "replace")

    def expect(self, pattern, timeout=20):
        """Wait for pattern after the last match; returns the match."""
        rx = re.compile(pattern)
        end = min(time.monotonic() + timeout, self._deadline)
        while True:
            t = self.text
            m = rx.search(t, self.pos)
            if m:
                self.pos = m.end()
                return m
            if time.monotonic() > end or self.proc.poll() is not None:
                raise AssertionError("no %r on the console; it shows:\n%s"
                                     % (pattern, t[-3000:]))
            time.sleep(0.02)

    def send(self, data):
        if isinstance(data, str):
            data = data.encode()
        self.proc.stdin.write(data)
        self.proc.stdin.flush()

    def command(self, line, until=r"sdbench> ", timeout=30):
        """Type line and Enter; the console up to the next prompt."""
        start = self.pos
        self.send(line + "\r")
        self.expect(until, timeout)
        return self.text[start:self.pos]

    def wait_exit(self, timeout=20):
        try:
            return self.proc.wait(timeout)
        except subprocess.TimeoutExpired:
            return None

    def guest_errors(self):
        return open(self.ge_log).read() if os.path.exists(self.ge_log) else ""

    def close(self):
        if self.proc.poll() is None:
            self.proc.kill()
            self.proc.wait()
        self._td.cleanup()

    def run(self):
        """The whole console so far as a harness.Run (records parsed)."""
        return harness.Run(self.proc.poll(), self.text, self.guest_errors(), False)
