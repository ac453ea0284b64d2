"""Hardware in the loop: one sdbench run captured from a serial port.

    make test-hw PORT=/dev/ttyUSB0 [BAUD=115200]

then power the Pi on (or reset it). The card holds kernel.img; its
sdbench.txt chooses what runs: `suite = quick` for the short suite checks,
`suite = selftest` (with `selftest_write = ...` inside the test area) for
the SD stack self-test checks (docs/host-tools.md). The run is captured by
build/host/sdbcapture, the tool a user runs, into build/test-hw/; every
check then reads its records. Environment: SDB_HW_PORT, SDB_HW_BAUD,
SDB_HW_WAIT (seconds to wait for the board, default 120), SDB_HW_SILENCE
(seconds of silence that end a started run, default 120).
"""
import contextlib
import os
import subprocess
import sys
import time

import pytest

from sdbhost import records

ROOT = os.path.abspath(os.path.join(os.path.dirname(__file__), "..", ".."))
HOST = os.path.join(ROOT, "build", "host")
LOGDIR = os.path.join(ROOT, "build", "test-hw")


class HwRun:
    """The captured console: sdbcapture's exit status, the log and its runs."""

    def __init__(self, status, path, output):
        self.status = status
        self.path = path
        self.output = output
        self.log = records.read_log(path)
        self.run = self.log.runs[-1] if self.log.runs else None
        with open(path, "rb") as f:
            self.console = f.read().decode("utf-8", "replace")

    def suite(self):
        cfg = self.run.one("config") if self.run else None
        return cfg.get("suite") if cfg else None


@pytest.fixture(scope="session")
def hw(pytestconfig):
    port = os.environ["SDB_HW_PORT"]
    baud = os.environ.get("SDB_HW_BAUD", "115200")
    wait = os.environ.get("SDB_HW_WAIT", "120")
    silence = os.environ.get("SDB_HW_SILENCE", "120")
    os.makedirs(LOGDIR, exist_ok=True)
    path = os.path.join(LOGDIR, "run-%s.log" % time.strftime("%Y%m%d-%H%M%S"))
    # The capture talks to the terminal (the console, its progress line and
    # "power the Pi on now" once the port is open), so pytest's capturing
    # is suspended while it runs.
    capman = pytestconfig.pluginmanager.getplugin("capturemanager")
    with capman.global_and_fixture_disabled() if capman else contextlib.nullcontext():
        sys.stdout.write("\n")
        sys.stdout.flush()
        status = subprocess.call([os.path.join(HOST, "sdbcapture"), "--port", port,
                                  "--baud", baud, "-o", path, "--force",
                                  "--wait", wait, "--silence", silence],
                                 stdin=subprocess.DEVNULL)
    if not os.path.exists(path):
        pytest.fail("sdbcapture wrote no log (status %d)" % status)
    return HwRun(status, path, "sdbcapture status %d, log %s" % (status, path))
