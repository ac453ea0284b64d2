"""The interactive console under QEMU, driven through the serial port
(tests/qemu/console_session.py): the offer at boot and its timeout, every
command, bad input, line editing, Ctrl-C during a workload, a write workload
without a test area, and end = console|repeat."""
import hashlib
import json
import os
import time

import pytest

import harness
import console_session

MACHINE = "raspi2b"
PROMPT = r"sdbench> "
OFFER = r"press Enter within 3 s for the console"


def records(text):
    out = []
    for line in text.splitlines():
        line = line.rstrip("\r")
        if line.startswith("@ "):
            out.append(json.loads(line[2:]))
    return out


def open_console(img, key="\r"):
    s = console_session.Session(MACHINE, img, timeout=240)
    s.expect(OFFER, 30)
    s.send(key)
    s.expect(r"sdbench console: help lists the commands")
    s.expect(PROMPT)
    return s


def halt(s):
    s.send("halt\r")
    assert s.wait_exit(20) == 0, s.text[-2000:]
    run = s.run()
    assert run.records[-1]["type"] == "done" and run.records[-1]["errors"] == 0
    assert not run.bad_records
    assert run.sd_guest_errors() == [], run.guest_errors
    assert not run.of_type("error"), run.of_type("error")
    return run


def test_every_command_and_bad_input(tmp_path):
    img = harness.make_image(str(tmp_path / "sd.img"), "256M", console_wait=None)
    s = open_console(img)
    try:
        out = s.command("help")
        for name in ("help", "info", "list", "run", "suite", "sweep", "set", "show",
                     "area", "hosts", "halt"):
            assert "\n  " + name in out.replace("\r", ""), (name, out)
        out = s.command("list")
        for name in ("seq-read", "seq-write", "random", "variants", "sweep", "class", "au",
                     "open-au", "erase", "sustained"):
            assert name in out
        out = s.command("info")
        assert "Raspberry Pi 2" in out and "CSD" in out
        assert [r["type"] for r in records(out)] == ["card"]
        out = s.command("area")
        ta = records(out)
        assert [r["type"] for r in ta] == ["test_area"] and ta[0]["usable"]
        out = s.command("hosts")
        assert "emmc at 0x3f300000" in out and "in use" in out
        out = s.command("show")
        assert "span            = 256M" in out and "(default)" in out
        assert "end             = halt" in out and "halt|console|repeat" in out

        # set: the file's validation, all or nothing, show reflects it
        assert "ok" in s.command("set span=1M seed=5")
        out = s.command("show")
        assert "span            = 1M" in out and "(set here)" in out
        assert "seed            = 5" in out
        out = s.command("set span=2M suite=fast")
        assert "suite = fast: not one of quick|full|selftest|hostcost|none" in out
        assert "span            = 1M" in s.command("show")
        assert "unknown key \"colour\"" in s.command("set colour=red")
        assert "out of range" in s.command("set span=1k")
        assert "usage: set key=value" in s.command("set")
        # a set line that cannot be read writes nothing (docs/config.md), here
        # as in sdbench.txt: it may have meant write_tests=off
        out = s.command("set write_test=off")
        assert "unknown key \"write_test\"" in out and "writes are off until set " \
            "write_tests=on" in out, out
        out = s.command("run seq-write profile=quick", timeout=120)
        sk = [r for r in records(out) if r["type"] == "skipped"]
        assert sk and sk[0]["reason"].startswith("writes are off: the console's set line "
                                                 "could not be read"), out
        assert not [r for r in records(out) if r["type"] == "result" and r["writes"]]
        assert "ok" in s.command("set write_tests=on")

        # unknown commands and arguments name the valid choices
        out = s.command("bogus")
        assert "unknown command \"bogus\"" in out and "help, info, list, run" in out
        out = s.command("run")
        assert "usage: run WORKLOAD" in out
        out = s.command("run turbo")
        assert "unknown workload \"turbo\"" in out and "seq-read, seq-write" in out
        out = s.command("run seq-read span=1M")
        assert "seq-read takes no key \"span\"; its keys: profile seed" in out
        assert "span = 12x: not a size" in s.command("run random span=12x")
        assert "profile = fast: not one of quick|full" in s.command("run au profile=fast")
        assert "suite slow: not one of quick|full" in s.command("suite slow")
        assert "usage: halt" in s.command("halt now")

        # line editing: backspace (DEL and BS), Ctrl-C drops the line, CR LF
        out = s.command("shx\x7fo\x08ow")
        assert "configuration" in out
        s.send("halt\x03")
        s.expect(r"\^C")
        s.expect(PROMPT)
        s.send("\r\n")          # an empty line: just the prompt again
        s.expect(PROMPT)

        # the sweep command runs the clock sweep and prints its records
        out = s.command("sweep", timeout=180)
        sw = [r for r in records(out) if r["type"] == "sweep"]
        assert sw and all(r["op"] in ("read", "write") for r in sw)
        types = [r["type"] for r in records(out)]
        # the sweep enters nothing into the summary: no headline after it
        assert types[-1] == "summary", types[-3:]
        halt(s)
    finally:
        s.close()


def test_ctrl_c_stops_a_workload_and_the_card_stays_usable(tmp_path):
    img = harness.make_image(str(tmp_path / "sd.img"), "256M", console_wait=None)
    s = open_console(img, key="\r")
    try:
        start = s.pos
        s.send("suite\r")
        s.expect(r'"type":"result"', 60)    # the suite is in its first workload
        s.send(b"\x03")
        s.expect(r"card state: (\w+)", 30)
        assert s.text[s.pos - 20:s.pos].rstrip().endswith("tran"), s.text[-1500:]
        s.expect(PROMPT)
        recs = records(s.text[start:s.pos])
        suite = [r for r in recs if r["type"] == "suite"]
        assert len(suite) == 1 and suite[0]["interrupted"] and suite[0]["aborted"]
        assert "interrupted (Ctrl-C)" in s.text[start:s.pos]
        # the card answers: a whole workload runs after the interrupt
        out = s.command("run seq-read seed=3", timeout=60)
        res = [r for r in records(out) if r["type"] == "result"]
        assert res and all(r["errors"] == 0 for r in res)
        assert res[-1]["workload"] == "seq-read-4m"
        halt(s)
    finally:
        s.close()


def test_write_workload_without_test_area_is_refused_as_in_a_configured_run(tmp_path):
    # The partition fills the card: no test area (tests/qemu/test_safety.py).
    img = harness.make_image(str(tmp_path / "sd.img"), "256M", extra=["--part", "68M:188M:83"], console_wait=None)
    before = hashlib.sha256(open(img, "rb").read()).hexdigest()
    s = open_console(img)
    try:
        out = s.command("area")
        assert records(out)[0]["usable"] is False
        out = s.command("run seq-write")
        # the same record as a configured run prints (tests/golden/sim/c10-readonly)
        assert {"type": "skipped", "workload": "seq-write",
                "reason": "no test area: nowhere safe to write (see the test-area message)"} \
            in records(out)
        out = s.command("run sustained")
        assert [r for r in records(out) if r["type"] == "skipped"]
        halt(s)
    finally:
        s.close()
    assert hashlib.sha256(open(img, "rb").read()).hexdigest() == before


def test_no_key_runs_the_configuration(tmp_path):
    img = harness.make_image(str(tmp_path / "sd.img"), "256M", sdbench=["suite = none"], console_wait=None)
    s = console_session.Session(MACHINE, img, timeout=60)
    try:
        s.expect(OFFER, 30)
        t0 = time.monotonic()
        s.expect(r"no Enter: running what sdbench.txt says", 15)
        waited = time.monotonic() - t0
        assert s.wait_exit(20) == 0
        run = s.run()
        assert "sdbench> " not in run.console
        assert run.records[-1]["type"] == "done"
        # bounded by the guest's timer: about 3 s (QEMU follows host time)
        assert 2.0 < waited < 12, waited
    finally:
        s.close()


def test_console_wait_zero_skips_the_offer(tmp_path):
    """console_wait = 0 (what the other QEMU tests use): no offer, no wait,
    and a key typed early does not open the console."""
    img = harness.make_image(str(tmp_path / "sd.img"), "256M", sdbench=["suite = none"],
                             console_wait=0)
    run = harness.boot(MACHINE, img, timeout=60)
    assert "console not offered (console_wait = 0)" in run.console, run.console[-2000:]
    assert "press Enter" not in run.console and "sdbench> " not in run.console
    assert run.one("config")["console_wait"] == 0
    assert run.records[-1]["type"] == "done" and run.records[-1]["errors"] == 0
    assert run.status == 0


def test_end_console_and_repeat(tmp_path):
    img = harness.make_image(str(tmp_path / "sd.img"), "256M",
                             sdbench=["suite = none", "end = console"],
                             console_wait=None)
    s = console_session.Session(MACHINE, img, timeout=60)
    try:
        s.expect(OFFER, 30)
        s.expect(r"suite: none", 15)
        s.expect(r"end = console")
        s.expect(PROMPT)
        halt(s)
    finally:
        s.close()
    img = harness.make_image(str(tmp_path / "sd2.img"), "256M",
                             sdbench=["suite = none", "end = repeat"],
                             console_wait=None)
    s = console_session.Session(MACHINE, img, timeout=60)
    try:
        for _ in range(2):
            s.expect(OFFER, 30)
            s.expect(r"suite: none", 15)
            s.expect(r"end = repeat: the suite again")
        s.expect(OFFER, 15)
        s.send("\r")
        s.expect(PROMPT)
        halt(s)
    finally:
        s.close()


def test_make_run_terminal_reaches_the_console():
    """qemu/run.sh (make run) on a terminal: typed keys reach the guest,
    Ctrl-C goes to sdbench rather than ending QEMU."""
    import pty
    import select
    env = dict(os.environ, SDB_IMAGE_SIZE="256M", SDB_SDBENCH="suite = none", SDB_TIMEOUT="60")
    harness.require_machine(MACHINE)
    pid, fd = pty.fork()
    if pid == 0:
        os.chdir(harness.ROOT)
        os.execve(os.path.join(harness.ROOT, "qemu", "run.sh"),
                  ["qemu/run.sh", MACHINE], env)
    buf = bytearray()

    def wait_for(pat, timeout=30):
        end = time.monotonic() + timeout
        while time.monotonic() < end:
            if pat in buf:
                return
            r, _, _ = select.select([fd], [], [], 0.1)
            if r:
                try:
                    buf.extend(os.read(fd, 4096))
                except OSError:
                    break
        raise AssertionError("no %r from qemu/run.sh:\n%s" % (pat, buf[-2000:].decode("utf-8", "replace")))

    try:
        wait_for(b"press Enter within 3 s")
        os.write(fd, b"\r")
        wait_for(b"sdbench> ")
        os.write(fd, b"hal\x03")
        wait_for(b"^C")
        os.write(fd, b"hosts\r")
        wait_for(b"in use")
        os.write(fd, b"halt\r")
        wait_for(b"records included: build/qemu/console-")   # run.sh's last line
        _, status = os.waitpid(pid, 0)
        pid = 0
        assert os.WIFEXITED(status) and os.WEXITSTATUS(status) == 0
    finally:
        if pid:
            os.killpg(pid, 9)
            os.waitpid(pid, 0)
        os.close(fd)


@pytest.mark.parametrize("machine", ["raspi0", "raspi3b"])
def test_console_on_other_boards(tmp_path, machine):
    """The same PL011 input on a BCM2835 and, through the AArch64 shim, a BCM2837."""
    img = harness.make_image(str(tmp_path / "sd.img"), "256M", sdbench=["suite = none"], console_wait=None)
    s = console_session.Session(machine, img, timeout=60)
    try:
        s.expect(OFFER, 30)
        s.send("\r")
        s.expect(PROMPT)
        assert "in use" in s.command("hosts")
        halt(s)
    finally:
        s.close()


def test_session_of_three_runs_reads_as_three_runs(tmp_path):
    """A capture of a console session with three measuring commands is read
    by the host tools as one session of three runs (run_start records), with
    no warning: no "board restarted", nothing cut short, every record on a
    line of its own."""
    from sdbhost import records as R
    img = harness.make_image(str(tmp_path / "sd.img"), "256M", console_wait=None)
    s = open_console(img)
    try:
        s.command("run seq-read", timeout=180)
        s.command("run random span=1M", timeout=180)
        s.command("run variants", timeout=180)
        halt(s)
        text = s.text
    finally:
        s.close()
    log = R.read_text(text, "session.log")
    assert log.warnings == []
    assert len(log.runs) == 3, [(r.describe(), r.ended_by, [x["type"] for x in r.records][:10])
                                for r in log.runs]
    starts = [r.one("run_start") for r in log.runs]
    assert [x and (x["n"], x["what"]) for x in starts] == \
        [(1, "seq-read"), (2, "random"), (3, "variants")]
    first = [[n for n in r.result_workloads()][0] for r in log.runs]
    assert first[0].startswith("seq-read") and first[1].startswith("rand") \
        and first[2].startswith("var-"), first
    assert [r.ended_by for r in log.runs] == ["session", "session", "done"]
    for r in log.runs:
        assert r.board() and r.one("card") and r.emulated and r.ok()
    # sdbreport: three runs, the last reported, exit status 0
    p = tmp_path / "session.log"
    p.write_text(text)
    import subprocess
    out = subprocess.run(["/usr/bin/python3", os.path.join(harness.ROOT, "tools", "sdbreport.py"),
                          str(p)], stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                         timeout=120)
    assert out.returncode == 0, out.stderr
    assert "holds 3 runs" in out.stderr and "warning" not in out.stderr


def _noise(s, rng, forced, stop):
    """A byte every second until QEMU ends: random, with forced bytes at
    given seconds (forced: {second: byte})."""
    n = 0
    while not stop.is_set() and s.proc.poll() is None:
        b = forced.get(n, rng.randrange(256))
        try:
            s.send(bytes([b]))
        except (BrokenPipeError, OSError):
            return
        n += 1
        stop.wait(1.0)


@pytest.mark.parametrize("forced", [
    {3: 0x03, 6: 0x03},             # Ctrl-C bytes in the unattended suite
    {0: 0x0d, 1: 0x0d, 2: 0x0d},   # Enter during the offer: the console opens
], ids=["noise", "noise-with-enter"])
def test_a_byte_every_second_cannot_trap_the_suite(tmp_path, forced):
    """Noise on the serial line (an unconnected RX pin): a random byte
    every second from power-on. The suite still finishes and the run ends
    by itself; when an Enter in the noise opened the console, the console
    goes back to the suite after console_idle seconds without a command."""
    import random
    import threading
    img = harness.make_image(str(tmp_path / "sd.img"), "256M",
                             sdbench=["suite = quick", "span = 8M", "console_idle = 4"],
                             console_wait=None)
    s = console_session.Session(MACHINE, img, timeout=600)
    stop = threading.Event()
    t = threading.Thread(target=_noise, args=(s, random.Random(23), forced, stop), daemon=True)
    t.start()
    try:
        assert s.wait_exit(580) == 0, s.text[-3000:]
        run = s.run()
        assert run.records[-1]["type"] == "done" and run.records[-1]["errors"] == 0
        suite = run.of_type("suite")
        assert len(suite) == 1 and not suite[0].get("interrupted"), suite
        assert run.of_type("summary")
        if 0 in forced:
            assert "sdbench console:" in run.console
            assert "no command for 4 s (console_idle): back to what sdbench.txt says" \
                in run.console
        else:
            assert "sdbench console:" not in run.console
            assert "no Enter: running what sdbench.txt says" in run.console
    finally:
        stop.set()
        s.close()


def test_idle_console_returns_to_the_suite(tmp_path):
    """Enter opened the console and nothing followed: after console_idle
    seconds the suite sdbench.txt asks for runs; with end = console the
    console opens again after it, and when that one is left idle too, the
    run ends (exit 0, the done record)."""
    img = harness.make_image(str(tmp_path / "sd.img"), "256M",
                             sdbench=["suite = quick", "span = 8M", "console_idle = 2",
                                      "end = console"], console_wait=None)
    s = console_session.Session(MACHINE, img, timeout=400)
    try:
        s.expect(OFFER, 30)
        s.send("\r")
        s.expect(PROMPT)
        t0 = time.monotonic()
        s.expect(r"no command for 2 s \(console_idle\): back to what sdbench.txt says", 30)
        assert 1.0 < time.monotonic() - t0 < 20
        s.expect(r"suite: quick")
        s.expect(r'"type":"suite"', 300)
        s.expect(r"end = console")
        s.expect(PROMPT)
        s.expect(r"no command for 2 s", 30)
        s.expect(r"the suite has run \(end = console\): the run ends")
        assert s.wait_exit(30) == 0
        run = s.run()
        assert run.records[-1]["type"] == "done" and run.records[-1]["errors"] == 0
        assert len(run.of_type("suite")) == 1
    finally:
        s.close()


def test_over_long_line_is_refused_not_cut(tmp_path):
    img = harness.make_image(str(tmp_path / "sd.img"), "256M", sdbench=["suite = none"],
                             console_wait=None)
    s = open_console(img)
    try:
        out = s.command("set span=64M" + " " * 250 + "seed=3").replace("\r", "")
        assert "line longer than 160 characters: refused, nothing run" in out
        assert "\nok\n" not in out
        show = s.command("show")
        assert "span            = 256M" in show and "seed            = -" in show
        # a command with idle and a short line still works afterwards
        assert "ok" in s.command("set seed=4")
        halt(s)
    finally:
        s.close()


def test_ctrl_c_in_sustained_reports_the_user_and_verifies_what_was_written(tmp_path):
    """Ctrl-C during run sustained profile=full: stopped_by "user", the
    blocks written (and only those) verified, the summary names what
    finished; then set write_tests=off makes run seq-write say writes are
    off, not that there is no test area."""
    img = harness.make_image(str(tmp_path / "sd.img"), "256M", console_wait=None)
    s = open_console(img)
    try:
        start = s.pos
        s.send("run sustained profile=full seed=5\r")
        s.expect(r"sustained write", 60)
        time.sleep(3)
        s.send(b"\x03")
        s.expect(r"interrupted \(Ctrl-C\)", 60)
        s.expect(PROMPT, 60)
        out = s.text[start:s.pos]
        sus = [r for r in records(out) if r["type"] == "sustained"]
        assert len(sus) == 1 and sus[0]["stopped_by"] == "user", sus
        assert sus[0]["ops"] > 0 and sus[0]["bytes"] == sus[0]["ops"] * sus[0]["xfer_bytes"]
        integ = [r for r in records(out) if r["type"] == "integrity"]
        assert len(integ) == 1 and integ[0]["workload"] == "sustained-write", integ
        # every block written is read back once: the unmeasured 256 KiB
        # probe lies under the first measured transfer (it was read back a
        # second time)
        assert sus[0]["xfer_bytes"] > 256 * 1024, sus
        assert integ[0]["blocks"] == sus[0]["bytes"] // 512 and \
            integ[0]["ok"] == integ[0]["blocks"], (integ, sus)
        summ = [r for r in records(out) if r["type"] == "summary"]
        assert summ and summ[-1]["finished"] == ["sustained-write"], summ
        assert "sustained-write" in out[out.index("summary"):]
        assert "card state: tran" in out

        assert "ok" in s.command("set write_tests=off")
        out = s.command("run seq-write")
        assert {"type": "skipped", "workload": "seq-write",
                "reason": "writes are off (write_tests = off)"} in records(out)
        halt(s)
    finally:
        s.close()


def test_ctrl_c_twice_stops_the_unattended_suite(tmp_path):
    """The configured suite, nobody at the console: one Ctrl-C byte (with
    another byte after it) only says that a second stops the run, and the
    suite goes on; two in a row stop it as Ctrl-C does in the console (the
    summary of what finished, what was written verified), then the console
    opens for whoever pressed them and, left idle, ends the run."""
    img = harness.make_image(str(tmp_path / "sd.img"), "256M",
                             sdbench=["suite = full", "console_idle = 3"])
    s = console_session.Session(MACHINE, img, timeout=400)
    try:
        s.expect(r"benchmark: full profile", 60)
        s.expect(r"sequential read, transfer-size sweep", 60)
        s.send(b"\x03x")
        s.expect(r"Ctrl-C: press it again to stop the run \(one alone may be noise", 30)
        s.expect(r'"type":"result"', 120)          # the suite went on
        s.send(b"\x03\x03")
        s.expect(r"interrupted \(Ctrl-C\): the remaining workloads were skipped", 60)
        s.expect(r'"type":"suite"', 60)
        s.expect(r"stopped by Ctrl-C: the console opens", 30)
        s.expect(PROMPT)
        s.expect(r"no command for 3 s \(console_idle\)", 30)
        s.expect(r"the suite has run \(stopped by Ctrl-C\): the run ends")
        assert s.wait_exit(30) == 0
        run = s.run()
        suite = run.one("suite")
        assert suite["interrupted"] and suite["aborted"], suite
        summ = run.of_type("summary")
        assert summ and summ[-1]["finished"], summ
        assert "sustained-write" not in summ[-1]["finished"], summ
        for rec in run.of_type("integrity"):
            assert rec["ok"] == rec["blocks"], rec
        assert run.records[-1]["type"] == "done" and run.records[-1]["errors"] == 0
        assert run.sd_guest_errors() == [], run.guest_errors
    finally:
        s.close()
