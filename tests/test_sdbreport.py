"""sdbreport: the host tool that reads sdbench console logs (records only)."""
import json
import os
import re
import subprocess

import pytest

ROOT = os.path.abspath(os.path.join(os.path.dirname(__file__), ".."))
TOOL = os.path.join(ROOT, "build", "host", "sdbreport")


def rec(**kw):
    return "@ " + json.dumps(kw, separators=(",", ":"))


def write_log(path, mbs_read=20.0, errors=0, done=True, extra=()):
    lines = [
        "sdbench 0.1 - SD card benchmark at the protocol layer",
        rec(type="board", model="Raspberry Pi 3 Model B", revision="0x00a02082", soc="BCM2837",
            timer={"source": "cntpct", "freq_hz": 19200000}, emulated=False),
        "some text for people",
        rec(type="card", capacity_bytes=32 << 30, width=4, timing="HS", clock_hz=50000000,
            cid={"manufacturer": "SanDisk", "oid": "SD", "pnm": "SC32G"}),
        rec(type="result", workload="seq-read-1m", kind="seq", op="read", mbs=mbs_read,
            mibs=mbs_read / 1.048576, iops=mbs_read, xfer_bytes=1 << 20),
        rec(type="latency", workload="seq-read-1m", p50_ns=50000000, p99_ns=52000000),
        rec(type="verdict", workload="seq-read-1m", text="bus-bound - 95.0% of the 50 MHz 4-bit ceiling"),
        rec(type="result", workload="rand-write-4k", kind="random", op="write", mbs=1.2,
            mibs=1.14, iops=293.0, xfer_bytes=4096),
        "@ {broken json",
    ]
    lines += [rec(**r) for r in extra]
    if errors:
        lines.append(rec(type="error", context="rand-write-4k", code="ETIMEDOUT",
                         message="write of LBA 1+8 failed"))
    if done:
        lines.append(rec(type="done", errors=errors, elapsed_us=600000000))
    with open(path, "w") as f:
        f.write("\r\n".join(lines) + "\r\n")
    return str(path)


def run(*args):
    return subprocess.run([TOOL] + [str(a) for a in args], stdout=subprocess.PIPE,
                          stderr=subprocess.PIPE, text=True, timeout=60)


def test_summary(tmp_path):
    p = run(write_log(tmp_path / "a.log"))
    assert p.returncode == 0, p.stderr
    assert "Raspberry Pi 3 Model B" in p.stdout
    assert "SanDisk SD SC32G, 32768 MiB" in p.stdout
    row = [l for l in p.stdout.splitlines() if l.startswith("seq-read-1m")][0]
    assert "20.000" in row and "19.073" in row and "50000.0" in row and "bus-bound" in row
    assert "run ended: 0 error(s), 10 min 00 s" in p.stdout
    # the broken line is reported with its line number, and skipped
    assert "a.log:9: warning: garbled or truncated record skipped" in p.stderr


def test_errors_and_unfinished_runs_exit_1(tmp_path):
    p = run(write_log(tmp_path / "e.log", errors=1))
    assert p.returncode == 1
    assert "error [rand-write-4k]: write of LBA 1+8 failed (ETIMEDOUT)" in p.stdout
    p = run(write_log(tmp_path / "u.log", done=False))
    assert p.returncode == 1
    assert "did not finish" in p.stdout


def test_compare(tmp_path):
    p = run(write_log(tmp_path / "a.log", 20.0), write_log(tmp_path / "b.log", 10.0))
    row = [l for l in p.stdout.splitlines() if l.startswith("seq-read-1m")][0]
    assert row.split()[1:4] == ["20.000", "10.000", "0.50"]


def test_json(tmp_path):
    p = run("--json", write_log(tmp_path / "a.log"))
    d = json.loads(p.stdout)
    assert d["workloads"]["seq-read-1m"]["result"]["mbs"] == 20.0
    assert d["bad_lines"] == 1
    assert d["done"]["errors"] == 0


def test_bad_input(tmp_path):
    assert run(tmp_path / "missing.log").returncode == 2
    empty = tmp_path / "empty.log"
    empty.write_text("no records here\n")
    p = run(empty)
    assert p.returncode == 2 and "no sdbench records" in p.stderr


def test_plot(tmp_path):
    pytest.importorskip("matplotlib")
    log = write_log(tmp_path / "a.log", extra=[
        dict(type="result", workload="seq-read-4k", kind="seq", op="read", mbs=5.0, mibs=4.77,
             iops=1220.0, xfer_bytes=4096),
        dict(type="series", workload="seq-read-1m", interval_ns=100000000,
             mbs=[20.1, 19.8, 3.0, 20.0], worst_ns=[1, 2, 3, 4])])
    p = run("--plot", tmp_path / "png", log)
    assert p.returncode == 0, p.stderr
    pngs = sorted(os.listdir(tmp_path / "png"))
    # the records of this log give the transfer-size curve, the latency of
    # seq-read-1m, the random-I/O bars (rand-write-4k) and one time series
    assert pngs == ["random-rates.png", "seq-latency.png", "seq-throughput.png",
                    "series-seq-read.png"], pngs
    assert sorted(p.stdout.split()) == sorted(str(tmp_path / "png" / n) for n in pngs)
    for name in pngs:
        with open(tmp_path / "png" / name, "rb") as f:
            assert f.read(8) == b"\x89PNG\r\n\x1a\n"


def test_help_documents_exit_status():
    p = run("--help")
    assert p.returncode == 0
    text = p.stdout[p.stdout.index("Exit status:"):]
    for code in ("0", "1", "2"):
        assert "\n  %s  " % code in text, code


def _cmp_log(path, p50_a, p50_b, ops_b=64):
    def wl(name, p50, ops):
        return [rec(type="result", workload=name, kind="seq", op="read", xfer_bytes=65536,
                    ops=ops, mbs=65536 / p50 * 1e3),
                rec(type="latency", workload=name, count=ops, min_ns=int(p50 * 0.95),
                    p50_ns=p50, p90_ns=int(p50 * 1.05), p99_ns=int(p50 * 1.2))]
    lines = [rec(type="board", model="Raspberry Pi 3 Model B")] + wl("seq-read-64k", p50_a, 64) \
        + wl("seq-read-4m", p50_b, ops_b) + [rec(type="done", errors=0)]
    with open(path, "w") as f:
        f.write("\n".join(lines) + "\n")
    return str(path)


def test_compare_command(tmp_path):
    """sdbreport compare: medians with sample counts and spread; a
    difference beyond both runs' spread is "yes", one inside it "no", and a
    workload with a single operation "too few samples"."""
    a = _cmp_log(tmp_path / "a.log", 4000000, 200000000, ops_b=1)
    b = _cmp_log(tmp_path / "b.log", 3000000, 100000000, ops_b=1)   # 33% faster
    c = _cmp_log(tmp_path / "c.log", 4080000, 200000000, ops_b=1)   # 2% slower
    p = run("-q", "compare", a, b, c)
    assert p.returncode == 0, p.stderr
    out = p.stdout
    blk = out.split("seq-read-64k\n", 1)[1].split("seq-read-4m", 1)[0]
    assert "A   16.38 MB/s n=64 (15.60-17.25)" in blk
    assert "B vs A: +33.3%, beyond the spread: yes" in blk
    assert "C vs A: -2.0%, beyond the spread: no" in blk
    assert "beyond the spread: too few samples" in out.split("seq-read-4m", 1)[1]
    d = json.loads(run("-q", "--json", "compare", a, b).stdout)
    w = {x["workload"]: x for x in d["workloads"]}
    assert w["seq-read-64k"]["beyond_spread"] == [True]
    assert w["seq-read-64k"]["figures"][0]["ops"] == 64


def test_compare_options_after_the_word_and_workloads_in_one_run_only(tmp_path):
    """sdbreport compare --json A B (options after "compare") works as
    --json compare A B does; a workload only one run has is "only in A" /
    "only in B", never "too few samples"."""
    a = _cmp_log(tmp_path / "a.log", 4000000, 200000000)
    b = _cmp_log(tmp_path / "b.log", 3000000, 100000000)
    with open(b) as f:
        lines = f.read().splitlines()
    extra = [l.replace("seq-read-64k", "seq-read-1m") for l in lines if "seq-read-64k" in l]
    gone = [l for l in lines if "seq-read-4m" not in l]
    with open(b, "w") as f:
        f.write("\n".join(gone[:-1] + extra + gone[-1:]) + "\n")
    p = run("-q", "compare", "--json", a, b)
    assert p.returncode == 0, p.stderr
    d = json.loads(p.stdout)
    assert d == json.loads(run("-q", "--json", "compare", a, b).stdout)
    w = {x["workload"]: x for x in d["workloads"]}
    assert w["seq-read-4m"]["only_in"] == ["A"] and w["seq-read-4m"]["beyond_spread"] == [None]
    assert w["seq-read-1m"]["only_in"] == ["B"]
    assert w["seq-read-64k"]["only_in"] == [None] and w["seq-read-64k"]["beyond_spread"] == [True]
    out = run("-q", "compare", a, b).stdout
    assert "B vs A: only in A\n" in out.split("seq-read-4m\n", 1)[1]
    assert "B vs A: only in B\n" in out.split("seq-read-1m\n", 1)[1]
    assert "too few samples" not in out


def test_commands_are_argparse_subcommands(tmp_path):
    """sdbreport's commands (report, the default, and compare) are
    subcommands: --help lists both, `report LOG` is `LOG`, and options go
    before the command, after it or between the logs."""
    a = _cmp_log(tmp_path / "a.log", 4000000, 200000000)
    b = _cmp_log(tmp_path / "b.log", 3000000, 100000000)
    h = run("--help")
    assert h.returncode == 0 and "COMMAND" in h.stdout, h.stderr
    assert re.search(r"^ +report +the run", h.stdout, re.M) and \
        re.search(r"^ +compare +per workload", h.stdout, re.M), h.stdout
    assert run("report", "-q", a).stdout == run("-q", a).stdout != ""
    want = run("-q", "--json", "compare", a, b)
    assert want.returncode == 0, want.stderr
    for args in (("compare", a, "--json", b, "-q"), ("-q", "compare", "--json", a, b)):
        p = run(*args)
        assert p.returncode == 0 and p.stdout == want.stdout, (args, p.stderr)
    p = run("compare", "--html", str(tmp_path / "x.html"), a, b)
    assert p.returncode == 2 and "unrecognized arguments: --html" in p.stderr
    p = run("-q")
    assert p.returncode == 2 and "the following arguments are required: LOG" in p.stderr
