"""sdbcapture recording several boards at once: each pseudo-terminal
stands for a board's serial port and is fed a simulator run
(build/host/sdbsim) while the capture records every port into its own
log, named by port and card, and adds each finished run to a card
database (SQLite and PostgreSQL)."""
import os
import re
import subprocess
import time

from sdbhost import records
from sdbhost.db import Store
from sdbhost.db import queries as Q
from sdbhost.multicapture import card_label, port_label
from test_sdbcapture import Board, finish, interactive_signals

ROOT = os.path.abspath(os.path.join(os.path.dirname(__file__), ".."))
TOOL = os.path.join(ROOT, "build", "host", "sdbcapture")


def start(ports, *args):
    cmd = [TOOL] + sum((["--port", b.path] for b in ports), []) + [str(a) for a in args]
    return subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                            stdin=subprocess.DEVNULL, preexec_fn=interactive_signals)


def holds(proc, path):
    fd = "/proc/%d/fd" % proc.pid
    try:
        return any(os.readlink(os.path.join(fd, f)) == path for f in os.listdir(fd))
    except OSError:
        return False


def wait_until(cond, proc, what, timeout=30):
    deadline = time.monotonic() + timeout
    while not cond():
        assert proc.poll() is None, finish(proc)
        assert time.monotonic() < deadline, what
        time.sleep(0.05)


def log_name(board, path):
    cid = records.read_log(path).runs[-1].one("card")["cid"]
    return "sdbench-%s-%s-" % (port_label(board.path), card_label({"cid": cid}))


def test_three_boards_at_once_each_run_into_the_database(db_target, sim_logs, tmp_path):
    out = tmp_path / "logs"
    out.mkdir()
    boards = [Board() for _ in sim_logs]
    try:
        p = start(boards, "--dir", out, "--db", db_target, "--wait", 60, "--quiet")
        for b in boards:
            wait_until(lambda b=b: holds(p, b.path), p, "the capture did not open " + b.path)
        feeds = {}
        for b, (profile, path) in zip(boards, sim_logs.items()):
            feeds[b.path] = (profile, path, open(path, "rb").read())
            b.feed(feeds[b.path][2])
        code, stdout, err = finish(p, timeout=120)
    finally:
        for b in boards:
            b.close()
    assert code == 0, err
    assert stdout == ""
    made = sorted(os.listdir(out))
    assert len(made) == 3, made
    with Store.open(db_target) as st:
        assert st.db.row("SELECT count(*) AS n FROM runs")["n"] == 3
        for b in boards:
            profile, path, data = feeds[b.path]
            prefix = log_name(b, path)
            (name,) = [m for m in made if m.startswith(prefix)]
            assert (out / name).read_bytes() == data          # the console, byte for byte
            assert "[%s] log %s" % (port_label(b.path), out / name) in err
            cid = records.read_log(path).runs[-1].one("card")["cid"]
            c = Q.find_card(st.db, cid["psn_hex"])
            (r,) = Q.runs(st.db, c["id"])
            assert (c["pnm"], r["sim_profile"], r["log_name"]) == (cid["pnm"], profile, name)
    assert err.count("stored as run") == 3


def test_keep_going_records_card_after_card_on_one_port(sim_logs, tmp_path):
    out = tmp_path / "logs"
    out.mkdir()
    db = str(tmp_path / "cards.db")
    b = Board()
    runs = list(sim_logs.values())[1:]          # two cards, one after the other
    try:
        p = start([b], "--dir", out, "--db", db, "--keep-going", "--quiet")
        for i, path in enumerate(runs):
            # the capture of run i has the port open: its log file exists
            wait_until(lambda: holds(p, b.path) and len(os.listdir(out)) == i + 1, p,
                       "no capture for run %d" % (i + 1))
            b.feed(open(path, "rb").read())
            b.wait_fed()
            wait_until(lambda: any(f.startswith(log_name(b, path)) for f in os.listdir(out)),
                       p, "run %d's log was not named by its card" % (i + 1))
        wait_until(lambda: len(os.listdir(out)) == 3, p, "no capture after the last run")
        os.close(b.master)                      # the rig is unplugged
        b.master = -1
        code, _, err = finish(p, timeout=60)
    finally:
        b.close()
    assert code == 0, err
    assert "the port is gone after 2 run(s): stopped recording it" in err
    logs = sorted(os.listdir(out))          # the third capture got nothing: no log
    assert len(logs) == 2
    with Store.open(db) as st:
        assert st.db.row("SELECT count(*) AS n FROM runs")["n"] == 2
        assert sorted(r["log_name"] for r in Q.runs(st.db)) == logs


def test_one_port_adds_its_run_and_a_database_that_fails_keeps_the_log(sim_logs, tmp_path):
    data = open(sim_logs["sdhc-a1-32g"], "rb").read()
    for db, status in ((tmp_path / "cards.db", 0), (tmp_path / "notadb.db", 6)):
        if status:
            db.write_bytes(b"not a database\n" * 100)
        log = tmp_path / ("run%d.log" % status)
        b = Board()
        try:
            p = start([b], "-o", log, "--db", db, "--quiet")
            wait_until(lambda: holds(p, b.path), p, "the capture did not open " + b.path)
            b.feed(data)
            code, _, err = finish(p)
        finally:
            b.close()
        assert code == status, err
        assert log.read_bytes() == data
        if status:
            assert "not added to the database: %s is not an sdbench database" % db in err
            assert "(the log is kept: sdbdb add %s)" % log in err
        else:
            # The run's lines end at its done record (the firmware's records
            # change; the range the database names must follow them).
            done = max(i for i, line in enumerate(data.decode("utf-8", "replace").splitlines(), 1)
                       if '"type":"done"' in line.replace(" ", ""))
            assert re.search(r"database: run 1 \(lines \d+-%d\): stored as run 1 \(0 workloads\)"
                             % done, err), err


def test_several_ports_bad_command_lines(tmp_path):
    for args, msg in ((["--port", "/dev/null", "--port", "/dev/null"], "a port is given twice"),
                      (["--port", "/dev/a", "--port", "/dev/b", "-o", tmp_path / "x.log"],
                       "-o names one log; with --dir or several ports each run gets its own"),
                      (["--port", "/dev/a", "--dir", tmp_path / "nodir"],
                       "is not a directory")):
        p = subprocess.run([TOOL] + [str(a) for a in args], stdout=subprocess.PIPE,
                           stderr=subprocess.PIPE, stdin=subprocess.DEVNULL, timeout=30)
        assert p.returncode == 2 and msg in p.stderr.decode(), p.stderr
