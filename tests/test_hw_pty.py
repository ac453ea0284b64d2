"""`make test-hw PORT=...` against QEMU standing in for a Pi: QEMU's
console is a pseudo-terminal (-serial pty), and the hardware checks
(tests/hw) capture it with sdbcapture exactly as they capture a USB serial
adapter. As on hardware there is no semihosting: the board idles after its
run and QEMU is stopped by the test.

QEMU starts paused (-S) and is let go once the capture has opened the
port, as a user powers the Pi on after starting the capture (QEMU drops
console output while nobody has the pty open)."""
import os
import re
import subprocess
import time

import harness

ROOT = harness.ROOT


def _opened_by_other(path, qemu_pid):
    """True when a process other than QEMU has the pty's slave open."""
    for pid in os.listdir("/proc"):
        if not pid.isdigit() or int(pid) == qemu_pid:
            continue
        fd_dir = "/proc/%s/fd" % pid
        try:
            for fd in os.listdir(fd_dir):
                if os.readlink(os.path.join(fd_dir, fd)) == path:
                    return True
        except OSError:
            continue
    return False


def _make_test_hw(image, timeout=300):
    qemu = subprocess.Popen(
        harness.qemu_command("raspi2b") + [
            "-S", "-display", "none", "-monitor", "stdio", "-serial", "pty",
            "-drive", "file=%s,if=sd,format=raw" % image],
        stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.STDOUT)
    make = None
    try:
        # "char device redirected to /dev/pts/N (label serial0)"
        out, deadline = b"", time.monotonic() + 20
        while not re.search(rb"/dev/pts/\d+", out):
            assert time.monotonic() < deadline and qemu.poll() is None, out
            out += os.read(qemu.stdout.fileno(), 4096)
        pty = re.search(rb"/dev/pts/\d+", out).group(0).decode()
        env = {k: v for k, v in os.environ.items()
               if k not in ("MAKEFLAGS", "MFLAGS", "MAKELEVEL")}
        env.update(SDB_HW_WAIT="60", SDB_HW_SILENCE="60")
        make = subprocess.Popen(["make", "-s", "test-hw", "PORT=" + pty], cwd=ROOT, env=env,
                                stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                                stdin=subprocess.DEVNULL)
        deadline = time.monotonic() + 60
        while not _opened_by_other(pty, qemu.pid):
            assert make.poll() is None, make.stdout.read().decode()
            assert time.monotonic() < deadline, "the capture never opened " + pty
            time.sleep(0.1)
        qemu.stdin.write(b"cont\n")      # power on
        qemu.stdin.flush()
        text = make.communicate(timeout=timeout)[0].decode("utf-8", "replace")
        return make.returncode, text
    finally:
        if make and make.poll() is None:
            make.kill()
            make.wait()
        if qemu.poll() is None:
            try:
                qemu.stdin.write(b"quit\n")
                qemu.stdin.flush()
                qemu.wait(10)
            except (OSError, subprocess.TimeoutExpired):
                qemu.kill()
                qemu.wait()


def _report(text):
    """The checks' own report: what follows the console the capture showed."""
    return text[text.rfind("sdbcapture: "):]


def _summary(text):
    """pytest's closing line ("7 passed, 1 skipped in 1.40s") as
    {'passed': 7, 'skipped': 1}."""
    lines = re.findall(r"^=*\s*(\d+ \w+(?:, \d+ \w+)*) in [\d.]+s", text, re.M)
    assert lines, text[-3000:]
    return {k: int(n) for n, k in re.findall(r"(\d+) (\w+)", lines[-1])}


def test_hw_checks_quick_suite_through_pty(tmp_path):
    img = harness.make_image(str(tmp_path / "sd.img"), size="512M", sdbench=["suite = quick"])
    status, text = _make_test_hw(img)
    assert status == 0, _report(text)
    # every check ran except the self-test's (this card's sdbench.txt asks for the suite)
    assert _summary(text) == {"passed": 7, "skipped": 1}, _report(text)
    assert "suite = selftest runs the self-test checks" in text


def test_hw_checks_selftest_through_pty(tmp_path):
    img = harness.make_image(str(tmp_path / "sd.img"), size="512M", sdbench=[
        "suite = selftest", "selftest_lbas = 0:1, 8192:8", "selftest_write = 139264+64"])
    status, text = _make_test_hw(img)
    assert status == 0, _report(text)
    assert _summary(text) == {"passed": 7, "skipped": 1}, _report(text)
    assert "suite = quick runs the short suite checks" in text
