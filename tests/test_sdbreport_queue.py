"""The command queue in every report (sdbreport text, HTML, CSV): the depth
table with the 70/30 mix's rows, the queue's verdict, the A2 verdict on the
queued figures (class_queue), and the headline's A2 claim taken from it
(docs/records.md)."""
import csv
import json
import os
import subprocess

ROOT = os.path.abspath(os.path.join(os.path.dirname(__file__), ".."))
TOOL = os.path.join(ROOT, "build", "host", "sdbreport")


def rec(**kw):
    return "@ " + json.dumps(kw, separators=(",", ":"))


def queue(depth, write, mix, iops):
    return dict(type="queue", depth=depth, write=write, cache=True, mix=mix,
                reads=45 if mix else (0 if write else 64), writes=19 if mix else
                (64 if write else 0), xfer_bytes=4096, tasks=64, elapsed_ns=int(64e9 / iops),
                iops=iops, p50_ns=400000, p99_ns=900000, error=0)


def write_log(path, a2_ok):
    recs = [dict(type="board", model="Raspberry Pi 5 Model B", soc="BCM2712", emulated=False),
            dict(type="card", capacity_bytes=64 << 30, width=4, timing="SDR104",
                 clock_hz=100000000, cid={"manufacturer": "SanDisk", "oid": "SD",
                                          "pnm": "SR64G"},
                 ssr={"speed_class": 10, "uhs_grade": 3, "video_class": 30,
                      "app_perf_class": "A2"}),
            dict(type="class", workload="class", ssr=True, app_claim="A2",
                 speed_class_claim=10, uhs_grade_claim=3, video_class_claim=30,
                 queue_depth=1, read_iops=2834.0, write_iops=949.0, seq_write_mbs=20.0,
                 app_meets_claim=None, app_text="card claims A2 (needs command queue + cache,"
                 " not enabled by this host): ...", pw_mbs=31.0, speed_class_met=10,
                 uhs_grade_met=3, video_class_met=30, bus_ceiling_mbs=80.0),
            queue(1, False, False, 2834.0), queue(32, False, False, 4043.0),
            queue(1, True, False, 2332.0), queue(32, True, False, 2310.0),
            queue(1, False, True, 1767.0), queue(32, False, True, 3247.0),
            dict(type="queue_check", queue=True, cq_depth=32, read_after_write=True,
                 task_status=True, no_timeout=True, flush_commits=True, flush_order=True,
                 cmd44=True, broken=None, evidence=None, text="command queue OK (depth 32)"),
            dict(type="class_queue", app_claim="A2", queue="measured", depth=32, cache=True,
                 read_iops=4043.0, write_iops=2310.0 if a2_ok else 969.0, mixed_iops=3247.0,
                 read_iops_d1=2834.0, write_iops_d1=949.0, seq_write_mbs=20.0,
                 app_meets_claim=a2_ok, app_text="A2 at queue depth 32, command queue and "
                 "cache on: card claims A2: measured ... -> %s A2" % (
                     "meets" if a2_ok else "does not meet"),
                 detail="depth 32 with cache: 4043 read, %d write IOPS"
                 % (2310 if a2_ok else 969)),
            dict(type="done", errors=0, elapsed_us=1000000)]
    path.write_text("\n".join(rec(**r) for r in recs) + "\n")
    return str(path)


def run(*args):
    p = subprocess.run([TOOL] + [str(a) for a in args], stdout=subprocess.PIPE,
                       stderr=subprocess.PIPE, text=True, timeout=60)
    assert p.returncode == 0, p.stderr
    return p.stdout


def test_text_shows_the_depth_table_the_mix_and_the_a2_verdict(tmp_path):
    out = run(write_log(tmp_path / "a.log", True))
    assert "  mixed cache on  depth 32: 3247 IOPS, p50 400.0 us, p99 900.0 us" in out
    assert "  write cache on  depth 32: 2310 IOPS" in out
    assert "  command queue OK (depth 32)" in out
    assert "  A2 at queue depth 32, command queue and cache on: card claims A2: " in out
    assert "A2 PASS (depth 32 with cache: 4043 read, 2310 write IOPS)" in out
    out = run(write_log(tmp_path / "b.log", False))
    assert "A2 FAIL (depth 32 with cache: 4043 read, 969 write IOPS)" in out
    # side by side: the A2 verdict on the queue and the queue's own
    out = run(tmp_path / "a.log", tmp_path / "b.log")
    lines = out.splitlines()
    i = [n for n, l in enumerate(lines) if l.startswith("A2 on the queue ")]
    assert len(i) == 1
    assert lines[i[0]].endswith("A: depth 32 with cache: 4043 read, 2310 write IOPS")
    assert lines[i[0] + 1].endswith("B: depth 32 with cache: 4043 read, 969 write IOPS")
    assert lines[i[0] + 2].startswith("command queue ")
    assert lines[i[0] + 2].endswith("A: command queue OK (depth 32)")


def test_html_shows_the_depth_table_the_mix_and_the_a2_verdict(tmp_path):
    html = tmp_path / "r.html"
    run("--html", html, write_log(tmp_path / "a.log", False))
    doc = html.read_text()
    assert "<td>mixed</td>" in doc
    # the class check's table names it too
    assert "A2 on the command queue" in doc
    assert "A2 at queue depth 32, command queue and cache on" in doc
    assert "A2 FAIL (depth 32 with cache: 4043 read, 969 write IOPS)" in doc


def test_csv_has_the_depth_table_and_the_a2_verdict(tmp_path):
    run("--csv", tmp_path / "csv", write_log(tmp_path / "a.log", True))
    with open(tmp_path / "csv" / "queue.csv") as f:
        rows = list(csv.DictReader(f))
    assert [(r["depth"], r["write"], r["mix"], r["iops"]) for r in rows] == [
        ("1", "false", "false", "2834.0"), ("32", "false", "false", "4043.0"),
        ("1", "true", "false", "2332.0"), ("32", "true", "false", "2310.0"),
        ("1", "false", "true", "1767.0"), ("32", "false", "true", "3247.0")]
    assert rows[-1]["reads"] == "45" and rows[-1]["writes"] == "19"
    with open(tmp_path / "csv" / "class_queue.csv") as f:
        cq = list(csv.DictReader(f))
    assert cq[0]["app_meets_claim"] == "true" and cq[0]["depth"] == "32"
    with open(tmp_path / "csv" / "headline.csv") as f:
        h = list(csv.DictReader(f))
    assert "A2 PASS (depth 32" in h[0]["verdict"]
