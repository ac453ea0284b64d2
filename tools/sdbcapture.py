#!/usr/bin/python3
"""sdbcapture - record sdbench's serial console into a log file.

Shows the console while it writes every byte to the log, with a status
line (which part of the run, how many parts are left, the time, the log
size) drawn from the records the firmware prints; stops at the run's
"done" record. Ctrl-C stops early and keeps what arrived. Works on any
serial port, a USB adapter or a pseudo-terminal (QEMU -serial pty).

  sdbcapture --port /dev/ttyUSB0 -o run.log      then power the Pi on
  sdbreport --html run.html run.log              the report

Several boards at once: one --port per board; each run goes into its own
log in --dir, named by port and card (sdbench-ttyUSB0-SanDisk-SU04G-
0x1c0c0c0c-20261201-211500.log), and with --db each finished run is added
to a card database (sdbdb) as it ends:

  sdbcapture --port /dev/ttyUSB0 --port /dev/ttyUSB1 --dir logs --db cards.db

Exit status:
  0    the run ended with a done record and no errors
  1    the run ended, but it reported errors or stopped with an exception
  2    bad command line, the log file cannot be written (or exists: use
       --force or --append), or python3-serial is missing
  3    the port cannot be opened (the message says why)
  4    no sdbench output within --wait seconds: nothing arrived (power,
       TX/RX swapped, GND) or only garbage (baud rate)
  5    the run started but was cut short: the port went away or stayed
       silent for --silence seconds; the log keeps what arrived
  6    a finished run could not be added to --db (the log is kept)
  With several ports, the highest status of any port.
  130  interrupted with Ctrl-C; the log keeps what arrived
"""
import argparse
import os
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.realpath(__file__)))

from sdbhost import capture as cap  # noqa: E402
from sdbhost import multicapture  # noqa: E402


def report_command():
    """How to start sdbreport here: the one installed beside this command
    (build/host, a virtual environment's bin), else the one on PATH, else
    the source tree's script."""
    import shutil
    for d in (os.path.dirname(sys.argv[0] or ""), os.path.dirname(os.path.realpath(__file__))):
        for name in ("sdbreport", "sdbreport.py"):
            p = os.path.join(d, name)
            if d and os.path.isfile(p) and os.access(p, os.X_OK):
                return p if shutil.which(name) != os.path.abspath(p) else name
    return "sdbreport" if shutil.which("sdbreport") else \
        os.path.join(os.path.dirname(os.path.realpath(__file__)), "sdbreport.py")


def main(argv=None):
    doc = __doc__.split("\n")
    ap = argparse.ArgumentParser(
        prog="sdbcapture", description=doc[0].split(" - ", 1)[1],
        formatter_class=argparse.RawDescriptionHelpFormatter,
        epilog="\n".join(doc[doc.index("Exit status:"):]))
    ap.add_argument("--port", "-p", required=True, action="append",
                    help="serial port: /dev/ttyUSB0, /dev/ttyACM0, /dev/pts/N ...; "
                         "repeat it to record several boards at once")
    ap.add_argument("--baud", "-b", type=int, default=115200,
                    help="baud rate (sdbench: 115200, the default)")
    ap.add_argument("-o", "--output", metavar="LOG",
                    help="log file (default sdbench-YYYYmmdd-HHMMSS.log)")
    ap.add_argument("-f", "--force", action="store_true", help="overwrite an existing log")
    ap.add_argument("-a", "--append", action="store_true",
                    help="append to an existing log (sdbreport reads each run in it)")
    ap.add_argument("--wait", type=float, default=60, metavar="S",
                    help="give up when sdbench has not spoken S seconds after the port was "
                         "opened (0 = wait for ever; default 60)")
    ap.add_argument("--silence", type=float, default=120, metavar="S",
                    help="give up when a started run sends nothing for S seconds "
                         "(0 = never; default 120; sdbench prints at least every few seconds)")
    ap.add_argument("--progress", choices=("auto", "always", "never"), default="auto",
                    help="the status line: auto = when standard error is a terminal")
    ap.add_argument("-q", "--quiet", action="store_true",
                    help="do not show the console (the log gets everything)")
    ap.add_argument("--dir", metavar="DIR",
                    help="one log per run in DIR, named by port and card (the default with "
                         "several ports: the current directory)")
    ap.add_argument("--db", metavar="FILE|URL",
                    help="add each finished run to this card database (sdbdb: an SQLite "
                         "file or a postgresql:// URL)")
    ap.add_argument("--keep-going", action="store_true",
                    help="with --dir: record run after run on every port (a rig testing "
                         "card after card) until Ctrl-C")
    a = ap.parse_args(argv)
    if a.baud <= 0:
        ap.error("--baud must be positive")
    if len(a.port) > 1 or a.dir or a.keep_going:
        if a.output:
            ap.error("-o names one log; with --dir or several ports each run gets its own")
        return several(a)
    a.port = a.port[0]
    path = a.output or time.strftime("sdbench-%Y%m%d-%H%M%S.log")
    if os.path.exists(path) and os.path.getsize(path) > 0 and not (a.force or a.append):
        sys.stderr.write("sdbcapture: %s exists; --force overwrites it, --append adds to it\n"
                         % path)
        return cap.EXIT_USAGE
    status = a.progress == "always" or (a.progress == "auto" and sys.stderr.isatty())
    con = cap.Console(not a.quiet, status)
    con.message("recording %s at %d baud into %s; stops at the run's end, Ctrl-C stops "
                "earlier" % (a.port, a.baud, path))
    try:
        code, prog = cap.capture(a.port, a.baud, path, "ab" if a.append else "wb",
                                 wait=a.wait, silence=a.silence, console=con)
    except cap.CaptureError as e:
        con.message(str(e))
        return e.code
    except KeyboardInterrupt:
        con.message("interrupted: what arrived is kept in %s (the run had not finished)" % path)
        return cap.EXIT_INTERRUPTED
    if a.db and code in (cap.EXIT_OK, cap.EXIT_RUN_ERRORS):
        note, ok = multicapture.add_to_db(a.db, path)
        con.message(note)
        code = code if ok else multicapture.EXIT_DB
    size = os.path.getsize(path) if os.path.exists(path) else 0
    con.message("%s: %d bytes%s" % (path, size, "; next: %s --html %s.html %s" % (
        report_command(), os.path.splitext(path)[0], path) if code in (0, 1) else ""))
    return code


def several(a):
    """Every port at once, one log per run (multicapture)."""
    outdir = a.dir or "."
    if not os.path.isdir(outdir):
        sys.stderr.write("sdbcapture: --dir %s is not a directory\n" % outdir)
        return cap.EXIT_USAGE
    if len(set(a.port)) != len(a.port):
        sys.stderr.write("sdbcapture: a port is given twice\n")
        return cap.EXIT_USAGE
    sys.stderr.write("sdbcapture: recording %s at %d baud into %s%s; Ctrl-C stops\n" % (
        ", ".join(a.port), a.baud, outdir, ", adding each run to %s" % a.db if a.db else ""))
    try:
        recs = multicapture.record_ports(a.port, a.baud, outdir, a.wait, a.silence, a.db,
                                         a.keep_going)
    except KeyboardInterrupt:
        sys.stderr.write("sdbcapture: interrupted: what arrived is kept in %s\n" % outdir)
        return cap.EXIT_INTERRUPTED
    for r in recs:
        for path, code, _ in r.results:
            sys.stderr.write("sdbcapture: [%s] %s: status %d\n" % (r.label, path, code))
    return max(r.code if r.code is not None else cap.EXIT_USAGE for r in recs)


if __name__ == "__main__":
    sys.exit(main())
