"""Capturing sdbench's serial console (python3-serial).

The bytes from the port go to the log file unchanged (the log is the
console, byte for byte) and to the terminal; a status line under the
console text says which part of the run is going, how many parts are
left, the time and the size of the log. The records in the stream drive
it: the progress line, the end of the run (the "done" record) and the
diagnosis of a port that stays silent or delivers garbage.
"""
import errno
import os
import sys
import time

from . import records

# Exit status of sdbcapture (also in its --help and docs/host-tools.md).
EXIT_OK = 0            # the run ended with a done record and no errors
EXIT_RUN_ERRORS = 1    # the run ended but reported errors, or stopped with an exception
EXIT_USAGE = 2         # bad command line, output file problem, python3-serial missing
EXIT_PORT = 3          # the port cannot be opened
EXIT_NOTHING = 4       # no sdbench output within --wait seconds (silence or garbage)
EXIT_CUT = 5           # the run started but was cut short (port gone, or silent)
EXIT_INTERRUPTED = 130  # Ctrl-C: what arrived is kept

HINT_AFTER_S = 10      # first hint about a silent port
GARBAGE_MIN_BYTES = 48
GARBAGE_SHARE = 0.25   # share of non-text bytes that makes a stream garbage
DRAIN_AFTER_DONE_S = 1.0   # the text after the done record ("stopped ... power off")

# The parts of the suite, in the order bench/suite.c runs them.
SUITE_STAGES = [
    ("seq-read", "sequential read"),
    ("seq-write", "sequential write"),
    ("random", "random I/O"),
    ("variant", "command variants"),
    ("sweep", "clock sweep"),
    ("class", "class check"),
    ("au", "erase-block detection"),
    ("open_au", "open AUs"),
    ("erase", "erase time"),
    ("sustained", "sustained write"),
]
STAGE_INDEX = {k: i for i, (k, _) in enumerate(SUITE_STAGES)}


def stage_of(rec):
    """The suite stage a record belongs to, or None."""
    t = rec.get("type")
    if t in ("sweep", "open_au", "erase", "sustained", "class", "au"):
        return t
    if t in ("result", "latency", "histogram", "series", "phases", "verdict"):
        w = rec.get("workload") or ""
        if w.startswith("seq-read"):
            return "seq-read"
        if w.startswith("seq-write"):
            return "seq-write"
        if w.startswith(("rand-", "mix")):
            return "random"
        if w.startswith("var-"):
            return "variant"
        if w.startswith("class-"):
            return "class"
        if w.startswith("au-"):
            return "au"
        if w.startswith("sustained"):
            return "sustained"
    return None


class Progress:
    """What the records say so far, as one status line."""

    def __init__(self):
        self.phase = "waiting for sdbench"
        self.stage = None
        self.last_workload = None
        self.workloads = 0
        self.errors = 0
        self.records = 0
        self.selftests = 0
        self.board = None
        self.done = None
        self.exception = None
        self.on_record = None       # called with every record (multi-port capture)

    def feed(self, rec):
        self.records += 1
        if self.on_record:
            self.on_record(rec)
        t = rec.get("type")
        if t == "board":
            self.board = rec.get("model")
            self.phase = "card"
        elif t in ("card", "layout", "config", "test_area"):
            self.phase = "card and layout"
        elif t == "overhead":
            self.phase = "suite"
        elif t == "selftest":
            self.selftests += 1
            self.phase = "self-test"
        elif t == "error":
            self.errors += 1
        elif t == "summary":
            self.phase = "summary"
        elif t == "done":
            self.done = rec
            self.phase = "done"
        elif t == "exception":
            self.exception = rec
            self.phase = "exception"
        if t == "result":
            self.workloads += 1
            self.last_workload = rec.get("workload")
        st = stage_of(rec)
        if st and (self.stage is None or STAGE_INDEX[st] >= STAGE_INDEX[self.stage]):
            self.stage = st
            self.phase = "suite"

    def line(self, elapsed_s, nbytes):
        m, s = divmod(int(elapsed_s), 60)
        parts = ["%d:%02d" % (m, s)]
        if self.phase == "suite" and self.stage:
            i = STAGE_INDEX[self.stage]
            parts.append("%s (part %d of %d, %d left)" % (
                SUITE_STAGES[i][1], i + 1, len(SUITE_STAGES), len(SUITE_STAGES) - i - 1))
        elif self.phase == "self-test":
            parts.append("self-test, %d check(s)" % self.selftests)
        else:
            parts.append(self.phase)
        if self.last_workload:
            parts.append("last %s" % self.last_workload)
        if self.workloads:
            parts.append("%d workloads" % self.workloads)
        parts.append("%d error(s)" % self.errors)
        parts.append("%s" % _kib(nbytes))
        return " | ".join(parts)


def _kib(n):
    return "%d B" % n if n < 1024 else "%.0f KiB" % (n / 1024.0)


def nontext_share(data):
    """Share of bytes that sdbench never sends (it prints ASCII text)."""
    if not data:
        return 0.0
    bad = sum(1 for b in data if not (32 <= b < 127 or b in (9, 10, 13)))
    return bad / float(len(data))


def silence_hint(port):
    return ("nothing received from %s. Check: the Pi is powered and booting sdbench (it "
            "prints at once after power-on: power-cycle or reset it now); the adapter's RX "
            "goes to GPIO14/TXD (pin 8) and its TX to GPIO15/RXD (pin 10) - swap the two "
            "wires if unsure - and GND to pin 6; config.txt has enable_uart=1 (and "
            "dtoverlay=disable-bt on a Pi 3, 4, Zero W); kernel.img is on the card's boot "
            "partition." % port)


def garbage_hint(port, baud):
    return ("bytes arrive on %s but they are not text: the baud rate is probably wrong "
            "(sdbench talks at 115200 8N1; this port is set to %d). Other causes: an "
            "RS-232 or 5 V adapter instead of a 3.3 V TTL one, no GND wire, or a floating "
            "RX line picking up noise." % (port, baud))


class CaptureError(Exception):
    def __init__(self, code, message):
        Exception.__init__(self, message)
        self.code = code


def open_port(port, baud, timeout=0.2):
    """Open the serial port, or raise CaptureError(EXIT_PORT) saying why."""
    try:
        import serial
    except ImportError:
        raise CaptureError(EXIT_USAGE, "python3-serial is missing (apt-get install "
                                       "python3-serial)")
    try:
        return serial.Serial(port, baud, timeout=timeout, exclusive=True)
    except (serial.SerialException, OSError, ValueError) as e:
        code = getattr(e, "errno", None)
        text = str(e)
        if code == errno.ENOENT or (not os.path.exists(port)):
            why = ("no such port. Is the USB-serial adapter plugged in? "
                   "See `ls /dev/ttyUSB* /dev/ttyACM*` and `dmesg | tail`.")
        elif code in (errno.EACCES, errno.EPERM):
            why = ("permission denied. Add yourself to the dialout group "
                   "(sudo adduser $USER dialout, then log in again).")
        elif code == errno.EBUSY or "lock" in text.lower():
            why = ("the port is in use by another program (picocom, screen, minicom, "
                   "another sdbcapture, ModemManager?).")
        elif code == errno.ENOTTY or "inappropriate ioctl" in text.lower():
            why = "this is not a serial port."
        elif isinstance(e, ValueError):
            why = "bad setting: %s" % text
        else:
            why = text
        raise CaptureError(EXIT_PORT, "cannot open %s: %s" % (port, why))


class Console:
    """Echo of the console on stdout and the status line on stderr.

    Whole lines are echoed at once; the start of a line waits up to
    HOLD_S for its end, so that the status line can be drawn between
    lines. A line that takes longer (the firmware's own progress line,
    redrawn with CR) is shown as it comes."""

    HOLD_S = 0.2

    def __init__(self, echo, status, out=None, err=None, clock=time.monotonic):
        self.echo = echo
        self.status = status
        self.out = out or sys.stdout
        self.err = err or sys.stderr
        self.clock = clock
        self.at_line_start = True
        self.shown = False
        self.last = ""
        self.pending = ""
        self.pending_since = 0.0

    def write(self, text):
        if not self.echo or not text:
            return
        text = self.pending + text
        cut = text.rfind("\n") + 1
        if cut:
            self._emit(text[:cut])
        if not self.pending:
            self.pending_since = self.clock()
        self.pending = text[cut:]
        self.tick()

    def tick(self):
        """Show a line start that has waited long enough for its end."""
        if self.pending and self.clock() - self.pending_since >= self.HOLD_S:
            self._emit(self.pending)
            self.pending = ""

    def flush(self):
        if self.pending:
            self._emit(self.pending)
            self.pending = ""

    def _emit(self, text):
        self.clear()
        self.out.write(text)
        self.out.flush()
        self.at_line_start = text.endswith("\n")

    def clear(self):
        if self.shown:
            self.err.write("\r\x1b[K")
            self.err.flush()
            self.shown = False

    def show(self, line):
        """Draw the status line when the console is at the start of a line
        (a firmware progress line being redrawn with CR stays visible)."""
        if not self.status or (self.echo and not self.at_line_start):
            return
        self.err.write("\r\x1b[K" + line)
        self.err.flush()
        self.shown = True
        self.last = line

    def message(self, text):
        """A message of sdbcapture's own, on its own line."""
        self.flush()
        self.clear()
        if not self.at_line_start and self.echo:
            self.out.write("\n")
            self.out.flush()
            self.at_line_start = True
        self.err.write("sdbcapture: %s\n" % text)
        self.err.flush()


def capture(port, baud, path, mode="wb", echo=True, status=False, wait=60.0,
            silence=120.0, console=None, clock=time.monotonic, on_record=None):
    """Record the console of port into path until the done record.
    Returns (exit code, Progress). Ctrl-C is the caller's (the file is
    flushed after every read, so what arrived is on disk). on_record, when
    given, is called with every record as it arrives."""
    con = console or Console(echo, status)
    ser = open_port(port, baud)
    try:
        f = open(path, mode)
    except OSError as e:
        ser.close()
        raise CaptureError(EXIT_USAGE, "cannot write %s: %s" % (path, e.strerror or e))
    con.message("%s is open: power the Pi on now (or reset it)" % port)
    prog = Progress()
    prog.on_record = on_record
    state = {"code": None}
    try:
        _loop(ser, f, con, prog, port, baud, wait, silence, clock, state)
    finally:
        f.close()
        ser.close()
        con.flush()
        con.clear()
    return state["code"], prog


def _loop(ser, f, con, prog, port, baud, wait, silence, clock, state):
    import serial
    t0 = last_rx = last_draw = clock()
    total = 0
    head = bytearray()          # what arrived before sdbench was recognised
    started = False
    hinted_silence = hinted_garbage = False
    partial = b""
    lineno = 0
    end_at = None
    while True:
        try:
            data = ser.read(1)
            if data and ser.in_waiting:
                data += ser.read(ser.in_waiting)
        except (serial.SerialException, OSError) as e:
            f.flush()
            if prog.done or prog.exception:
                break
            con.message("the port stopped answering (%s): unplugged, or the board lost "
                        "power? %s" % (e, "The run was cut short." if started else ""))
            state["code"] = EXIT_CUT if started else EXIT_NOTHING
            return
        now = clock()
        if data:
            f.write(data)
            f.flush()
            total += len(data)
            last_rx = now
            con.write(data.decode("utf-8", errors="replace"))
            if not started:
                head += data
            partial += data
            *lines, partial = partial.split(b"\n")
            for raw in lines:
                lineno += 1
                started = _line(raw, prog, con, lineno) or started
            if not started and len(head) >= GARBAGE_MIN_BYTES and not hinted_garbage \
                    and nontext_share(bytes(head)) > GARBAGE_SHARE:
                con.message(garbage_hint(port, baud))
                hinted_garbage = True
            if (prog.done or prog.exception) and end_at is None:
                end_at = now + DRAIN_AFTER_DONE_S
        if end_at is not None and (now >= end_at or (not data and now - last_rx > 0.3)):
            break
        if not started:
            if total == 0 and not hinted_silence and now - t0 >= HINT_AFTER_S:
                con.message(silence_hint(port))
                hinted_silence = True
            if wait and now - t0 >= wait:
                con.message(_gave_up(port, baud, wait, total, bytes(head), hinted_silence,
                                     hinted_garbage))
                state["code"] = EXIT_NOTHING
                return
        elif silence and now - last_rx >= silence:
            con.message("the board went silent: nothing for %g s after %d bytes, the run "
                        "was cut short (power lost, a crash, or a loose wire). What arrived "
                        "is kept." % (silence, total))
            state["code"] = EXIT_CUT
            return
        con.tick()
        if now - last_draw >= 0.5 or data:
            con.show(prog.line(now - t0, total))
            last_draw = now
    if partial:
        lineno += 1
        _line(partial, prog, con, lineno)
    state["code"] = _ended(prog, con)


def _gave_up(port, baud, wait, total, head, hinted_silence, hinted_garbage):
    """Why the capture gave up waiting for sdbench after wait seconds."""
    if total == 0:
        return "gave up after %g s: nothing arrived. %s" % (
            wait, "" if hinted_silence else silence_hint(port))
    if nontext_share(head) > GARBAGE_SHARE:
        return "gave up after %g s: only garbage arrived (%d bytes). %s" % (
            wait, total, "" if hinted_garbage else garbage_hint(port, baud))
    return ("gave up after %g s: %d bytes of text arrived, but no sdbench output (another "
            "program on this port, or the Pi booted Linux instead of sdbench: check "
            "config.txt's kernel= line)." % (wait, total))


def _ended(prog, con):
    """The closing message of a run that ended; its exit status."""
    if prog.exception:
        con.message("the run stopped with an exception (%s at pc %s)" % (
            prog.exception.get("exception"), prog.exception.get("pc")))
        return EXIT_RUN_ERRORS
    n = prog.done.get("errors")
    what = ("%d workloads" % prog.workloads if prog.workloads else
            "%d self-test records" % prog.selftests if prog.selftests else "no workloads")
    con.message("the run ended: %s error(s), %s" % (n, what))
    return EXIT_OK if n == 0 else EXIT_RUN_ERRORS


def _line(raw, prog, con, lineno):
    """Feed one console line's records to the progress; True when the line
    shows that sdbench is talking."""
    text = raw.decode("utf-8", errors="replace").rstrip("\r")
    talking = "SD card benchmark" in text and "sdbench" in text
    for _, obj, _ in records._records_in_line(text):
        if isinstance(obj, dict) and isinstance(obj.get("type"), str):
            talking = True
            if obj["type"] == "board" and prog.records and not (prog.done or prog.exception):
                con.message("line %d: a new board record before the run ended: the board "
                            "restarted (power glitch?)" % lineno)
            try:
                prog.feed(obj)
            except (TypeError, KeyError, ValueError, AttributeError):
                pass
    return talking
