"""sdbcapture through pseudo-terminal pairs: the test writes into the
master side what a board would send (the committed QEMU logs, garbage,
nothing), the installed tool reads the slave side as it reads a USB
serial adapter."""
import os
import signal
import subprocess
import threading
import time
import tty

import pytest

from sdbhost import capture, records

ROOT = os.path.abspath(os.path.join(os.path.dirname(__file__), ".."))
TOOL = os.path.join(ROOT, "build", "host", "sdbcapture")
DATA = os.path.join(ROOT, "tests", "data")
QUICK = os.path.join(DATA, "qemu-raspi2b-quick.log")
SELFTEST = os.path.join(DATA, "qemu-raspi2b-selftest.log")
EXCEPTION = os.path.join(DATA, "qemu-raspi0-exception.log")


def raw(path):
    with open(path, "rb") as f:
        return f.read()


class Board:
    """A pseudo-terminal pair: the test is the board on the master side."""

    def __init__(self):
        self.master, self.slave = os.openpty()
        tty.setraw(self.slave)
        self.path = os.ttyname(self.slave)
        self.threads = []

    def send(self, data, chunk=4096, pause=0.002):
        for i in range(0, len(data), chunk):
            os.write(self.master, data[i:i + chunk])
            time.sleep(pause)

    def feed(self, data):
        """Send in the background (the capture's output pipes are read
        meanwhile by finish(), else both sides would wait on full buffers)."""
        t = threading.Thread(target=self._feed, args=(data,), daemon=True)
        t.start()
        self.threads.append(t)

    def _feed(self, data):
        try:
            self.send(data)
        except OSError:
            pass

    def wait_fed(self, timeout=30):
        for t in self.threads:
            t.join(timeout)

    def close(self):
        for fd in (self.master, self.slave):
            try:
                os.close(fd)
            except OSError:
                pass


@pytest.fixture
def board():
    b = Board()
    yield b
    b.close()


def interactive_signals():
    """As from a shell: Ctrl-C delivered. A pytest-xdist worker ignores
    SIGINT and a child inherits that; Python then installs no
    KeyboardInterrupt handler and the capture would never see the Ctrl-C."""
    signal.signal(signal.SIGINT, signal.SIG_DFL)


def start(board, log, *args):
    return subprocess.Popen([TOOL, "--port", board.path, "-o", str(log), "--force"] +
                            [str(a) for a in args], stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, stdin=subprocess.DEVNULL,
                            preexec_fn=interactive_signals)


def opened(board, proc, timeout=20):
    """Wait until the capture has the port open (it says so)."""
    fd = "/proc/%d/fd" % proc.pid
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        try:
            if any(os.readlink(os.path.join(fd, f)) == board.path for f in os.listdir(fd)):
                return
        except OSError:
            pass
        assert proc.poll() is None, proc.communicate()
        time.sleep(0.05)
    raise AssertionError("the capture did not open " + board.path)


def finish(proc, timeout=60):
    out, err = proc.communicate(timeout=timeout)
    return proc.returncode, out.decode("utf-8", "replace"), err.decode("utf-8", "replace")


def test_whole_run_is_captured_and_stops_at_done(board, tmp_path):
    log = tmp_path / "run.log"
    p = start(board, log, "--progress", "always")
    opened(board, p)
    data = raw(QUICK)
    board.feed(data)
    code, out, err = finish(p)
    assert code == 0, err
    assert log.read_bytes() == data                       # the console, byte for byte
    assert out == data.decode()                           # shown while recorded
    assert "is open: power the Pi on now" in err
    assert "the run ended: 0 error(s), 50 workloads" in err
    status = [s.strip() for s in err.replace("\x1b[K", "").split("\r") if s.strip()]
    parts = [s for s in status if "(part " in s]
    assert any("sequential read (part 1 of 10, 9 left)" in s for s in parts)
    assert any("random I/O (part 3 of 10, 7 left)" in s for s in parts)
    assert any("sustained write (part 10 of 10, 0 left)" in s for s in parts)
    assert any(s.startswith("0:") and "| done |" in s and "50 workloads" in s for s in status)
    # the hint names a command that exists (here: the sdbreport beside it)
    import re
    import shutil
    cmd = re.search(r"next: (\S+) --html", err).group(1)
    assert shutil.which(cmd) or (os.path.isfile(cmd) and os.access(cmd, os.X_OK)), cmd
    assert os.path.basename(cmd).startswith("sdbreport")


def test_nothing_after_done_is_waited_for(board, tmp_path):
    log = tmp_path / "run.log"
    p = start(board, log, "-q")
    opened(board, p)
    board.feed(raw(SELFTEST))
    code, out, err = finish(p)
    assert code == 0 and out == ""
    assert log.read_bytes() == raw(SELFTEST)
    assert "self-test records" in err


def test_exception_ends_the_capture_with_status_1(board, tmp_path):
    log = tmp_path / "run.log"
    p = start(board, log, "-q")
    opened(board, p)
    board.feed(raw(EXCEPTION))
    code, _, err = finish(p)
    assert code == 1 and "stopped with an exception (data abort at pc 0x" in err
    assert log.read_bytes() == raw(EXCEPTION)


def test_garbage_says_baud_rate(board, tmp_path):
    log = tmp_path / "run.log"
    p = start(board, log, "-q", "--wait", "2", "--baud", "9600")
    opened(board, p)
    noise = bytes((i * 97 + 13) % 256 for i in range(600))
    stop = threading.Event()

    def jabber():
        while not stop.is_set() and p.poll() is None:
            try:
                os.write(board.master, noise[:60])
            except OSError:
                return
            time.sleep(0.1)
    t = threading.Thread(target=jabber)
    t.start()
    try:
        code, _, err = finish(p)
    finally:
        stop.set()
        t.join()
    assert code == capture.EXIT_NOTHING
    assert "not text: the baud rate is probably wrong" in err
    assert "115200 8N1; this port is set to 9600" in err
    assert "only garbage arrived" in err
    assert log.stat().st_size > 0


def test_silent_port_says_power_and_wiring(board, tmp_path):
    log = tmp_path / "run.log"
    p = start(board, log, "-q", "--wait", "1.5")
    code, _, err = finish(p)
    assert code == capture.EXIT_NOTHING
    assert "nothing arrived" in err and "swap the two wires" in err and "powered" in err
    assert "enable_uart=1" in err
    assert log.read_bytes() == b""


def test_board_goes_silent_mid_run(board, tmp_path):
    log = tmp_path / "run.log"
    p = start(board, log, "-q", "--silence", "1.5")
    opened(board, p)
    half = raw(QUICK)[:50000]
    board.feed(half)
    code, _, err = finish(p)
    assert code == capture.EXIT_CUT
    assert "the board went silent" in err and "What arrived is kept" in err
    assert log.read_bytes() == half
    assert records.read_log(str(log)).runs[0].ended_by is None


def test_port_goes_away_mid_run(board, tmp_path):
    log = tmp_path / "run.log"
    p = start(board, log, "-q")
    opened(board, p)
    half = raw(QUICK)[:30000]
    board.feed(half)
    board.wait_fed()
    time.sleep(0.5)
    os.close(board.master)          # the adapter is unplugged
    code, _, err = finish(p)
    assert code == capture.EXIT_CUT and "the port stopped answering" in err
    assert log.read_bytes() == half


def test_ctrl_c_keeps_what_arrived(board, tmp_path):
    log = tmp_path / "run.log"
    p = start(board, log, "-q")
    opened(board, p)
    part = raw(QUICK)[:20000]
    board.feed(part)
    deadline = time.monotonic() + 20
    while (not log.exists() or log.stat().st_size < len(part)) and time.monotonic() < deadline:
        time.sleep(0.05)
    p.send_signal(signal.SIGINT)
    code, _, err = finish(p)
    assert code == 130 and "interrupted: what arrived is kept" in err
    assert log.read_bytes() == part


def test_board_restart_is_reported(board, tmp_path):
    log = tmp_path / "run.log"
    p = start(board, log, "-q")
    opened(board, p)
    first = raw(SELFTEST)[:4000]
    board.feed(first + raw(QUICK))
    code, _, err = finish(p)
    assert code == 0
    assert "a new board record before the run ended: the board restarted" in err
    assert len(records.read_log(str(log)).runs) == 2


def test_ports_that_cannot_be_opened(board, tmp_path):
    p = subprocess.run([TOOL, "--port", str(tmp_path / "ttyUSB9"), "-o", str(tmp_path / "a")],
                       stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, timeout=30)
    assert p.returncode == capture.EXIT_PORT and "no such port" in p.stderr
    assert not os.path.exists(tmp_path / "a")
    f = tmp_path / "plain"
    f.write_text("x")
    p = subprocess.run([TOOL, "--port", str(f), "-o", str(tmp_path / "a")],
                       stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, timeout=30)
    assert p.returncode == capture.EXIT_PORT and "not a serial port" in p.stderr
    # the port is opened exclusively: a second capture is told who has it
    first = start(board, tmp_path / "1.log", "-q", "--wait", "20")
    opened(board, first)
    p = subprocess.run([TOOL, "--port", board.path, "-o", str(tmp_path / "2.log")],
                       stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, timeout=30)
    first.send_signal(signal.SIGINT)
    finish(first)
    assert p.returncode == capture.EXIT_PORT and "in use by another program" in p.stderr


def test_existing_log_is_kept(tmp_path):
    log = tmp_path / "old.log"
    log.write_text("an earlier capture\n")
    p = subprocess.run([TOOL, "--port", "/dev/null", "-o", str(log)], stdout=subprocess.PIPE,
                       stderr=subprocess.PIPE, text=True, timeout=30)
    assert p.returncode == capture.EXIT_USAGE and "--force overwrites it" in p.stderr
    assert log.read_text() == "an earlier capture\n"


def test_help_documents_exit_status():
    p = subprocess.run([TOOL, "--help"], stdout=subprocess.PIPE, text=True, timeout=30)
    assert p.returncode == 0
    for code in ("0 ", "1 ", "2 ", "3 ", "4 ", "5 ", "130"):
        assert "\n  %s" % code in p.stdout, code


def test_progress_follows_the_suite():
    prog = capture.Progress()
    seen = []
    for rec in records.read_log(QUICK).runs[0].records:
        prog.feed(rec)
        if prog.stage and (not seen or seen[-1] != prog.stage):
            seen.append(prog.stage)
    # every part of the suite, in order (erase and sustained print no
    # workload records between them, so erase shows only briefly)
    assert seen == [k for k, _ in capture.SUITE_STAGES]
    assert prog.done and prog.workloads == 50 and prog.errors == 0
    line = prog.line(75.4, 99176)
    assert line.startswith("1:15 | done | last sustained-write | 50 workloads | 0 error(s) | 97 KiB")
