"""Reading console logs robustly (tools/sdbhost/records.py): the committed
logs of real QEMU runs (tests/data, `make fixtures`), the same logs with
serial noise, garbled and truncated lines, lost line ends, other line
ends, runs cut short and several runs in one file. Every problem is a
warning with its line number; nothing crashes a report."""
import io
import json
import os
import random
import re
import subprocess

import pytest

from sdbhost import csvout, records, text

ROOT = os.path.abspath(os.path.join(os.path.dirname(__file__), ".."))
DATA = os.path.join(ROOT, "tests", "data")
TOOL = os.path.join(ROOT, "build", "host", "sdbreport")
QUICK = os.path.join(DATA, "qemu-raspi2b-quick.log")
QUICK4G = os.path.join(DATA, "qemu-raspi0-quick-4g.log")
SELFTEST = os.path.join(DATA, "qemu-raspi2b-selftest.log")
EXCEPTION = os.path.join(DATA, "qemu-raspi0-exception.log")


def raw(path):
    with open(path, "rb") as f:
        return f.read()


def record_lines(data):
    """(line number, record) of every '@ ' line, read naively."""
    out = []
    for n, line in enumerate(data.decode().split("\n"), 1):
        if line.startswith("@ "):
            out.append((n, json.loads(line[2:].rstrip("\r"))))
    return out


def sdbreport(*args):
    return subprocess.run([TOOL] + [str(a) for a in args], stdout=subprocess.PIPE,
                          stderr=subprocess.PIPE, text=True, timeout=120)


@pytest.mark.parametrize("path,ended", [(QUICK, "done"), (QUICK4G, "done"), (SELFTEST, "done"),
                                        (EXCEPTION, "exception")])
def test_committed_qemu_logs_read_cleanly(path, ended):
    log = records.read_log(path)
    naive = record_lines(raw(path))
    assert log.warnings == [] and log.bad_lines == 0
    assert len(log.runs) == 1
    run = log.runs[0]
    assert run.ended_by == ended and run.emulated is True
    assert [r for r in run.records] == [r for _, r in naive]
    assert run.lines == [n for n, _ in naive]
    assert run.first_line == naive[0][0] and run.records[0]["type"] == "board"


def test_quick_log_workloads():
    run = records.read_log(QUICK).runs[0]
    names = run.result_workloads()
    assert len(names) == 50 and names[0] == "seq-read-512" and "mix70-4k" in names
    for n in names:
        assert set(run.workloads[n]) == {"result", "latency", "histogram", "series", "phases",
                                         "verdict"} or "series" not in run.workloads[n]
    assert run.ok() and run.error_count == 0


@pytest.mark.parametrize("ends", ["\n", "\r", "\r\r\n"])
def test_line_ends(ends):
    data = raw(QUICK).decode()
    lines = data.replace("\r\n", "\n").split("\n")
    log = records.read_text(ends.join(lines), "x.log")
    ref = records.read_log(QUICK)
    assert log.warnings == []
    assert log.runs[0].records == ref.runs[0].records
    if ends != "\r":   # CR-only: the firmware's own CRs (progress lines) count as line ends
        assert log.runs[0].lines == ref.runs[0].lines


def test_noise_garbled_and_truncated_lines():
    lines = raw(QUICK).decode().split("\n")
    recs = [i for i, l in enumerate(lines) if l.startswith("@ ")]
    i_noise, i_cut, i_merge, i_type, i_bad, i_notype = recs[10], recs[20], recs[30], recs[40], \
        recs[50], recs[60]
    cut_rec = json.loads(lines[i_cut][2:])
    merged = json.loads(lines[i_merge + 1][2:])
    lines[i_noise] = "\x00\xff\x13~" + lines[i_noise]                 # noise before a record
    lines[i_cut] = lines[i_cut][:len(lines[i_cut]) // 2]              # truncated
    lines[i_merge] = lines[i_merge].rstrip("\r")[:40] + lines[i_merge + 1]   # lost line end
    lines[i_merge + 1] = "garbage \x7f\x01 text that is not a record"
    typed = json.loads(lines[i_type][2:])
    key = next(k for k, v in typed.items() if isinstance(v, (int, float))
               and not isinstance(v, bool) and k in records.SCHEMA.get(typed["type"], {}))
    typed[key] = "fast"
    lines[i_type] = "@ " + json.dumps(typed) + "\r"
    lines[i_bad] = "@ [1, 2, 3]\r"                                   # not an object
    lines[i_notype] = '@ {"workload": "x"}\r'                         # no type
    lines.insert(5, "\ufffd\ufffd garbled text line \x1b[2J")       # garbage between lines
    log = records.read_text("\n".join(lines), "noisy.log")
    w = {n: t for n, t in log.warnings}
    # line numbers are 1-based and shifted by the inserted line
    assert "noise before the record" in w[i_noise + 2]
    assert "garbled or truncated record" in w[i_cut + 2]
    assert "cut short by the next record" in w[i_merge + 2]
    assert "field %r is 'fast', not a number; treated as missing" % key in w[i_type + 2]
    assert "record line without a JSON object skipped" in w[i_bad + 2]
    assert "without a \"type\"" in w[i_notype + 2]
    assert len(log.warnings) == 6 and log.bad_lines == 4
    run = log.runs[0]
    assert len(log.runs) == 1 and run.ended_by == "done"
    n_ref = len(records.read_log(QUICK).runs[0].records)
    assert len(run.records) == n_ref - 4     # cut, cut by the merge, not an object, no type
    assert cut_rec not in run.records
    assert merged in run.records             # the record after the lost line end is kept
    assert any(r.get(key, 0) is None and r.get("workload") == typed.get("workload")
               for r in run.all(typed["type"]))
    # the reports still work and the CLI prints the warnings with file:line
    out = io.StringIO()
    text.render_run(run, out, log)
    assert "run ended: 0 error(s)" in out.getvalue()


def test_noisy_log_through_the_cli(tmp_path):
    data = raw(QUICK).split(b"\n")
    data[100] = data[100][:25]
    data.insert(3, bytes(b for b in range(256) if b != 10))      # every byte but LF
    p = tmp_path / "noisy.log"
    p.write_bytes(b"\n".join(data))
    r = sdbreport(p)
    assert r.returncode == 0, r.stderr
    assert re.search(r"noisy\.log:102: warning: garbled or truncated record skipped", r.stderr)
    assert "run ended: 0 error(s)" in r.stdout


def test_run_cut_short(tmp_path):
    data = raw(QUICK)
    cut = data[:int(len(data) * 0.6)]
    log = records.read_text(cut.decode(), "cut.log")
    run = log.runs[0]
    assert run.ended_by is None and not run.ok()
    last_line = cut.decode().count("\n") + 1
    assert any("was cut short" in t for _, t in log.warnings)
    (tmp_path / "cut.log").write_bytes(cut)
    r = sdbreport(tmp_path / "cut.log")
    assert r.returncode == 1
    assert "run did not finish (no done record)" in r.stdout
    assert "cut.log:%d: warning: garbled or truncated record skipped" % last_line in r.stderr \
        or "was cut short" in r.stderr


def test_two_runs_in_one_file(tmp_path):
    p = tmp_path / "two.log"
    p.write_bytes(raw(SELFTEST) + raw(QUICK))
    log = records.read_log(str(p))
    assert [r.ended_by for r in log.runs] == ["done", "done"]
    assert log.warnings == []
    n1 = raw(SELFTEST).decode().count("\n")
    assert log.runs[1].first_line > n1 >= log.runs[0].last_line
    r = sdbreport(p)
    assert r.returncode == 0
    assert "holds 2 runs; reporting run 2" in r.stderr and "seq-read-512" in r.stdout
    r = sdbreport("--run", 1, p)
    assert r.returncode == 0 and "SD stack self-test" in r.stdout and "seq-read" not in r.stdout
    assert sdbreport("--run", 3, p).returncode == 2
    # the first run cut short: the second board record says the board restarted
    cut = raw(SELFTEST)[:len(raw(SELFTEST)) // 2]
    log = records.read_text((cut + b"\n" + raw(QUICK)).decode(), "x")
    assert len(log.runs) == 2 and log.runs[0].ended_by is None
    assert any("the board restarted" in t for _, t in log.warnings)


def test_restart_without_board_record():
    """The board record of the second run was lost: its second layout record
    (or any record after a done) starts a new run. (A second card record
    does not: a run prints one again when it initialises the card on
    another host or in a pinned bus mode.)"""
    a = raw(SELFTEST).decode().split("\n")
    b = [l for l in raw(QUICK).decode().split("\n") if '"type":"board"' not in l]
    cut = [l for l in a if '"type":"done"' not in l]
    log = records.read_text("\n".join(cut + b), "x")
    assert len(log.runs) == 2 and log.runs[1].ended_by == "done"
    assert any("second layout record" in t for _, t in log.warnings)
    log = records.read_text("\n".join(a + b), "x")
    assert len(log.runs) == 2
    assert any("after the end of run 1" in t for _, t in log.warnings)


def test_parallel_lists_of_different_lengths():
    rec = {"type": "histogram", "workload": "w", "lo_ns": [1, 2, 3], "count": [5, 6]}
    warns = []
    assert records.validate(rec, warns.append)
    assert rec["lo_ns"] == [1, 2] and "cut to 2 points" in warns[0]


def _mutate(data, rng):
    """One of the ways a serial link or a capture spoils a log."""
    lines = data.split("\n")
    for _ in range(rng.randint(1, 12)):
        i = rng.randrange(len(lines))
        how = rng.randrange(7)
        if how == 0:
            lines[i] = lines[i][:rng.randrange(len(lines[i]) + 1)]
        elif how == 1 and lines[i]:
            j = rng.randrange(len(lines[i]))
            lines[i] = lines[i][:j] + chr(rng.randrange(1, 0x3000)) + lines[i][j + 1:]
        elif how == 2:
            del lines[i]
        elif how == 3:
            lines.insert(i, lines[rng.randrange(len(lines))])
        elif how == 4 and i + 1 < len(lines):
            lines[i] = lines[i] + lines.pop(i + 1)
        elif how == 5:
            lines[i] = re.sub(r":(-?\d+(\.\d+)?|true|false|null|\[[^\]]*\])",
                              lambda m: ":" + rng.choice(['"x"', "null", "[]", "{}", "-1",
                                                          "0", "1e308", "[0]", "true"]),
                              lines[i], count=rng.randint(1, 5))
        else:
            lines.insert(i, "".join(chr(rng.randrange(0, 256)) for _ in range(40)))
    if rng.random() < 0.3:
        lines = lines[:rng.randrange(len(lines))]
    return "\n".join(lines)


@pytest.mark.parametrize("seed", range(40))
def test_spoiled_logs_never_crash_the_text_csv_and_json(seed, tmp_path):
    rng = random.Random(seed)
    base = raw(rng.choice([QUICK, QUICK4G, SELFTEST, EXCEPTION])).decode()
    log = records.read_text(_mutate(base, rng), "spoiled.log")
    for run in log.runs:
        text.render_run(run, io.StringIO(), log)
        csvout.write_csv(str(tmp_path / ("csv%d" % run.index)), [("spoiled.log", run)])
        json.dumps(run.records)
    if len(log.runs) > 1:
        text.render_compare(log.runs, ["A", "B", "C", "D", "E"][:len(log.runs)], io.StringIO())


def test_every_documented_record_type_has_a_schema():
    """A record type documented in docs/records.md and unknown to the host
    tools would make test-hw and the reports treat a good run as noisy."""
    import re
    with open(os.path.join(ROOT, "docs", "records.md")) as f:
        documented = set(re.findall(r"^## `(\w+)`", f.read(), re.M))
    assert documented and documented - set(records.SCHEMA) == set()


def test_what_a_serial_line_does_to_a_record():
    """A record after a progress line's '\\r', CR LF line ends, a record whose
    '@' or space was lost on the link: each is read (the lost byte with a
    warning naming its line), none skipped; a console session's run_start
    records make separate runs without any warning."""
    recs = ['{"type":"board","model":"Pi"}', '{"type":"card","width":4}',
            '{"type":"result","workload":"seq-read-4k","kind":"seq","op":"read","mbs":1.5}',
            '{"type":"result","workload":"seq-read-8k","kind":"seq","op":"read","mbs":2.5}',
            '{"type":"done","errors":0,"elapsed_us":1}']
    lines = ["@ " + recs[0], "@ " + recs[1],
             "\r  seq-read-4k   50%   1.00 MB/s\r@ " + recs[2],     # after a redraw
             "@" + recs[3],                                          # the space lost
             recs[4]]                                                # the '@' lost
    log = records.read_text("\r\n".join(lines) + "\r\n", "l.log")
    assert [r["type"] for r in log.runs[0].records] == \
        ["board", "card", "result", "result", "done"]
    assert [(n, "lost byte" in t) for n, t in log.warnings] == [(4, True), (5, True)]
    assert "'@' was lost" in log.warnings[1][1] and "space" in log.warnings[0][1]
    # a session: three runs, the later ones with the session's board and card
    s = [recs[0], recs[1]]
    for i, w in enumerate(("seq-read", "random", "variants"), 1):
        s.append('{"type":"run_start","n":%d,"source":"console","what":"%s"}' % (i, w))
        s.append('{"type":"result","workload":"%s-x","kind":"seq","op":"read","mbs":%d}'
                 % (w, i))
        s.append('{"type":"summary","emulated":false}')
    s.append(recs[4])
    log = records.read_text("\n".join("@ " + r for r in s), "s.log")
    assert log.warnings == [] and len(log.runs) == 3
    assert [r.ended_by for r in log.runs] == ["session", "session", "done"]
    assert all(r.board()["model"] == "Pi" and r.ok() for r in log.runs)
    assert [r.result_workloads() for r in log.runs] == [["seq-read-x"], ["random-x"],
                                                        ["variants-x"]]
