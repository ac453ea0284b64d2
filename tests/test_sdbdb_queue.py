"""The card database keeps each run's command-queue verdict (the
queue_check and class_queue records, docs/records.md) and `sdbdb queue-ok`
lists the cards (CIDs) whose queue passed every check on a board: a card
broken once is never listed, one not measured (writes off) or without a
queue is not, the simulator's only with --include-emulated. Against
SQLite and PostgreSQL (conftest.db_target)."""
import json
import os
import subprocess

import dblogs
from sdbhost.db import Store

ROOT = os.path.abspath(os.path.join(os.path.dirname(__file__), ".."))
TOOL = os.path.join(ROOT, "build", "host", "sdbdb")

OK = dict(type="queue_check", queue=True, cq_depth=32, read_after_write=True,
          task_status=True, no_timeout=True, flush_commits=True, flush_order=True, cmd44=True,
          broken=None, evidence=None, text="command queue OK (depth 32)")
BROKEN = dict(OK, flush_commits=False, broken="flush commits nothing",
              evidence="a flush of 128 cached blocks took 708 us, an empty one 1075 us",
              text="command queue BROKEN: flush commits nothing: a flush of ...")
WRITES_OFF = dict(OK, queue=False, read_after_write=None, task_status=None, no_timeout=None,
                  flush_commits=None, flush_order=None, cmd44=None,
                  text="command queue not measured: writes are off (write_tests = off)")
NONE = dict(WRITES_OFF, cq_depth=0, text="no command queue: the SCR lists no CMD48/49")


def a2(ok):
    return dict(type="class_queue", app_claim="A2", queue="measured", depth=32, cache=True,
                read_iops=4043.4, write_iops=2309.7, mixed_iops=3247.4, read_iops_d1=2834.2,
                write_iops_d1=949.1, seq_write_mbs=20.0, app_meets_claim=ok,
                app_text="A2 at queue depth 32, ...", detail="depth 32 with cache: ...")


def log(tmp_path, name, serial, recs, nonce, **kw):
    """A made-up run with these records before its end."""
    text = dblogs.log_text(serial, {"seq-read-64k": 20.0}, nonce=nonce, app="A2", **kw)
    lines = text.splitlines()
    extra = [dblogs.rec(**r) for r in recs]
    lines = lines[:-1] + extra + lines[-1:]
    p = tmp_path / name
    p.write_text("\n".join(lines) + "\n")
    return str(p)


def sdbdb(target, *args):
    p = subprocess.run([TOOL, "--db", target] + list(args), stdout=subprocess.PIPE,
                       stderr=subprocess.PIPE, text=True, timeout=120)
    return p.returncode, p.stdout, p.stderr


def fill(target, tmp_path):
    logs = [log(tmp_path, "a1.log", 0x101, [OK, a2(True)], 1, pnm="SR64G", prv="8.6",
                mdt="2022-07"),
            log(tmp_path, "a2.log", 0x101, [OK, a2(True)], 2, pnm="SR64G", prv="8.6",
                mdt="2022-07"),
            log(tmp_path, "b1.log", 0x202, [OK, a2(True)], 3, pnm="SB32G"),
            log(tmp_path, "b2.log", 0x202, [BROKEN, a2(False)], 4, pnm="SB32G"),
            log(tmp_path, "c.log", 0x303, [WRITES_OFF], 5, pnm="SC32G"),
            log(tmp_path, "d.log", 0x404, [NONE], 6, pnm="SD32G"),
            log(tmp_path, "e.log", 0x505, [OK], 7, pnm="SE32G", simulated=True),
            log(tmp_path, "f.log", 0x606, [], 8, pnm="SF32G")]
    rc, out, err = sdbdb(target, "add", *logs)
    assert rc == 0, err


def test_each_run_keeps_its_queue_verdict(db_target, tmp_path):
    fill(db_target, tmp_path)
    with Store.open(db_target) as st:
        got = {(r["pnm"], r["log_name"]): (r["queue_verdict"], r["queue_depth"],
                                           r["queue_broken"], r["a2_queued"])
               for r in st.db.rows("SELECT c.pnm, r.log_name, r.queue_verdict, "
                                   "r.queue_depth, r.queue_broken, r.a2_queued FROM runs r "
                                   "JOIN cards c ON c.id = r.card_id")}
    assert got == {
        ("SR64G", "a1.log"): ("ok", 32, None, "PASS"),
        ("SR64G", "a2.log"): ("ok", 32, None, "PASS"),
        ("SB32G", "b1.log"): ("ok", 32, None, "PASS"),
        ("SB32G", "b2.log"): ("broken", 32, "flush commits nothing", "FAIL"),
        ("SC32G", "c.log"): ("not measured", 32, None, None),
        ("SD32G", "d.log"): ("none", 0, None, None),
        ("SE32G", "e.log"): ("ok", 32, None, None),
        ("SF32G", "f.log"): (None, None, None, None),
    }
    rc, out, _ = sdbdb(db_target, "export", "--format", "json")
    runs = [r for c in json.loads(out)["cards"] for r in c["runs"]]
    assert sorted(r["queue_verdict"] or "" for r in runs).count("ok") == 4


def test_queue_ok_lists_only_cards_that_passed_on_a_board(db_target, tmp_path):
    fill(db_target, tmp_path)
    rc, out, err = sdbdb(db_target, "queue-ok")
    assert rc == 0, err
    lines = [l for l in out.splitlines() if not l.startswith("#")]
    # as Linux's sysfs shows the CID: manfid, oemid ("SD"), name, hwrev, fwrev, date
    assert lines == ["0x000003 0x5344 SR64G 0x8 0x6 07/2022  # SanDisk serial 0x00000101, "
                     "queue depth 32, 2 run(s), A2 on the queue: PASS, CID %s"
                     % dblogs.card(0x101)["cid"]["raw"]]
    rc, out, _ = sdbdb(db_target, "queue-ok", "--format", "json", "--include-emulated")
    rows = json.loads(out)
    assert [r["name"] for r in rows] == ["SR64G", "SE32G"]
    assert rows[0]["oemid"] == "0x5344" and rows[0]["runs"] == 2
    rc, out, _ = sdbdb(db_target, "queue-ok", "--format", "csv")
    assert out.splitlines()[0].startswith("manfid,oemid,name,hwrev,fwrev,date,")
    assert len(out.splitlines()) == 2


def test_queue_ok_on_an_empty_database(tmp_path):
    target = str(tmp_path / "empty.db")
    Store.open(target).close()
    rc, out, _ = sdbdb(target, "queue-ok", "--format", "csv")
    assert rc == 0 and out.splitlines() == [
        "manfid,oemid,name,hwrev,fwrev,date,manufacturer,serial,depth,runs,a2,cid"]


def test_show_names_each_runs_queue_verdict(db_target, tmp_path):
    fill(db_target, tmp_path)
    rc, out, err = sdbdb(db_target, "show", "SB32G")
    assert rc == 0, err
    assert "command queue OK (depth 32) (A2 on the queue: PASS)" in out
    assert "command queue BROKEN: flush commits nothing: a flush of ... " \
        "(A2 on the queue: FAIL)" in out
    rc, out, err = sdbdb(db_target, "show", "SC32G")
    assert "command queue not measured: writes are off (write_tests = off)" in out
    rc, out, err = sdbdb(db_target, "show", "SF32G")
    assert "command queue" not in out
