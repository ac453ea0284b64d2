"""Several boards at once: one capture per serial port, each in its own
thread, one log per run named by port and card, and each finished run
added to a card database as it ends (sdbcapture --port A --port B ...).

A log is opened as sdbench-PORT-TIME.log and renamed to
sdbench-PORT-CARD-TIME.log when the run's card record arrives (CARD:
manufacturer, product name and serial from the CID), so that a rig's
directory says which card each log measured."""
import os
import re
import threading
import time

from . import capture as cap

EXIT_DB = 6     # a finished run could not be added to the database (its log is kept)


def _safe(s):
    return re.sub(r"[^A-Za-z0-9._+-]+", "_", s).strip("_") or "x"


def port_label(port):
    """/dev/ttyUSB0 -> ttyUSB0, /dev/pts/3 -> pts3."""
    p = port[len("/dev/"):] if port.startswith("/dev/") else os.path.basename(port)
    return _safe(p.replace("/", ""))


def card_label(card):
    cid = card.get("cid") if isinstance(card.get("cid"), dict) else {}
    return _safe("%s-%s-%s" % (cid.get("manufacturer") or "unknown", cid.get("pnm") or "card",
                               cid.get("psn_hex") or "noserial"))


class PortConsole(cap.Console):
    """Messages of one port's capture, prefixed with the port; no echo of
    the console (several boards would interleave) and no status line."""

    lock = threading.Lock()

    def __init__(self, label, err=None):
        cap.Console.__init__(self, False, False, err=err)
        self.label = label

    def message(self, text):
        with self.lock:
            self.err.write("sdbcapture: [%s] %s\n" % (self.label, text))
            self.err.flush()


class PortRecorder(threading.Thread):
    """Records one port: one run, or run after run (keep_going) until the
    port fails or stays silent. results: [(log path, exit code, db note)]."""

    def __init__(self, port, baud, outdir, wait, silence, db=None, keep_going=False,
                 err=None):
        threading.Thread.__init__(self, name="capture " + port, daemon=True)
        self.port, self.baud, self.outdir = port, baud, outdir
        self.wait, self.silence, self.db = wait, silence, db
        self.keep_going = keep_going
        self.label = port_label(port)
        self.con = PortConsole(self.label, err)
        self.results = []
        self.code = None

    def _new_path(self):
        stamp = time.strftime("%Y%m%d-%H%M%S")
        base = os.path.join(self.outdir, "sdbench-%s-%s" % (self.label, stamp))
        path, n = base + ".log", 1
        while os.path.exists(path):
            n += 1
            path = "%s-%d.log" % (base, n)
        return path, stamp

    def run(self):
        wait = self.wait
        while True:
            code = self._one(wait)
            if self.code is not None and code in (cap.EXIT_PORT, cap.EXIT_NOTHING):
                # After finished runs, a port that goes away (the rig is
                # unplugged) ends the recording; it is not a failed run.
                self.con.message("the port is gone after %d run(s): stopped recording it"
                                 % len(self.results))
                return
            self.code = code if self.code is None else max(self.code, code)
            if not (self.keep_going and code in (cap.EXIT_OK, cap.EXIT_RUN_ERRORS)):
                return
            wait = 0            # the next card may take any time to be put in

    def _one(self, wait):
        path, stamp = self._new_path()
        state = {"path": path}

        def on_record(rec):
            if rec.get("type") == "card" and state["path"] == path:
                named = os.path.join(self.outdir, "sdbench-%s-%s-%s.log" % (
                    self.label, card_label(rec), stamp))
                if not os.path.exists(named):
                    try:
                        os.rename(path, named)
                        state["path"] = named
                    except OSError as e:
                        self.con.message("cannot rename %s: %s" % (path, e.strerror or e))
        try:
            code, _ = cap.capture(self.port, self.baud, path, "wb", wait=wait,
                                  silence=self.silence, console=self.con, on_record=on_record)
        except cap.CaptureError as e:
            self.con.message(str(e))
            return e.code
        final = state["path"]
        if _empty(final):
            os.remove(final)    # nothing arrived: no log to keep
            return code
        note = None
        if code in (cap.EXIT_OK, cap.EXIT_RUN_ERRORS) and self.db:
            note, ok = add_to_db(self.db, final)
            self.con.message(note)
            if not ok:
                code = max(code, EXIT_DB)
        self.con.message("log %s" % final)
        self.results.append((final, code, note))
        return code


def _empty(path):
    try:
        return os.path.getsize(path) == 0
    except OSError:
        return False


def add_to_db(target, path):
    """(message, ok) of adding a finished log's runs to the database."""
    from .db import DbError, Store
    try:
        with Store.open(target) as st:
            added = st.add_log(path)
    except DbError as e:
        return "not added to the database: %s (the log is kept: sdbdb add %s)" % (e, path), \
            False
    bad = [a for a in added if a.status == "refused"]
    text = "; ".join(a.message for a in added)
    return "database: %s" % text, not bad


def record_ports(ports, baud, outdir, wait, silence, db=None, keep_going=False, err=None):
    """Record every port at once; returns the recorders when all ended."""
    recs = [PortRecorder(p, baud, outdir, wait, silence, db, keep_going, err) for p in ports]
    for r in recs:
        r.start()
    for r in recs:
        while r.is_alive():
            r.join(0.5)         # a timeout keeps Ctrl-C deliverable to the main thread
    return recs
