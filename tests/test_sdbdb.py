"""The card database (build/host/sdbdb, tools/sdbhost/db): every test runs
against SQLite and against a real PostgreSQL server (tests/pgserver.py;
skipped with the reason when it cannot start). Logs are the committed
QEMU logs, simulator runs and made-up logs (tests/dblogs.py) whose
figures the expected ranks were worked out from by hand."""
import json
import os
import subprocess

import pytest

import dblogs
from conftest import SIM_RUNS
from sdbhost import records
from sdbhost.db import DbError, Store
from sdbhost.db import queries as Q
from sdbhost.db import rank as R
from sdbhost.db import schema

ROOT = os.path.abspath(os.path.join(os.path.dirname(__file__), ".."))
TOOL = os.path.join(ROOT, "build", "host", "sdbdb")
DATA = os.path.join(ROOT, "tests", "data")
QUICK = os.path.join(DATA, "qemu-raspi2b-quick.log")
QUICK0 = os.path.join(DATA, "qemu-raspi0-quick-4g.log")
SELFTEST = os.path.join(DATA, "qemu-raspi2b-selftest.log")
EXCEPTION = os.path.join(DATA, "qemu-raspi0-exception.log")


def sdbdb(target, *args):
    p = subprocess.run([TOOL, "--db", target] + [str(a) for a in args],
                       stdout=subprocess.PIPE, stderr=subprocess.PIPE, timeout=120)
    return p.returncode, p.stdout.decode(), p.stderr.decode()


def count(target, table):
    with Store.open(target) as st:
        return st.db.row("SELECT count(*) AS n FROM %s" % table)["n"]


def counts(target):
    return {t: count(target, t) for t in ("cards", "runs", "workloads", "run_records")}


# --- adding real logs ----------------------------------------------------------
def test_add_stores_the_run_as_its_records_say(db_target):
    rc, out, err = sdbdb(db_target, "add", QUICK, SELFTEST)
    assert rc == 0, err
    run = records.read_log(QUICK).runs[-1]
    card = [r for r in run.records if r["type"] == "card"][0]
    with Store.open(db_target) as st:
        c = Q.find_card(st.db, "0xdeadbeef")
        assert (c["mid"], c["manufacturer"], c["oid"], c["pnm"], c["prv"], c["mdt"]) == \
            (card["cid"]["mid"], card["cid"]["manufacturer"], "XY", "QEMU!", "0.1", "2006-02")
        assert c["capacity_bytes"] == card["capacity_bytes"]
        assert c["speed_class"] == card["ssr"]["speed_class"]
        rs = Q.runs(st.db, c["id"])
        assert [r["suite"] for r in rs] == ["quick", "selftest"]
        r = rs[0]
        assert (r["source"], r["measured"], r["family"]) == ("qemu", 0, "Pi 2 (BCM2836)")
        assert (r["bus_mode"], r["clock_hz"], r["ended_by"]) == ("hs", 26000000, "done")
        ws = {w["name"]: w for w in Q.workloads(st.db, r["id"])}
        assert list(ws) == run.result_workloads()
        for name, w in run.workloads.items():
            assert ws[name]["mbs"] == w["result"]["mbs"]
            assert ws[name]["ops"] == w["result"]["ops"]
            assert ws[name]["lat_p99_ns"] == w["latency"]["p99_ns"]
            assert ws[name]["card_pct"] == w["phases"]["card_pct"]
            assert ws[name]["verdict"] == w["verdict"]["text"]
        summ = run.one("summary")
        assert r["seq_read_mbs"] == summ["seq_read"]["mbs"]
        assert r["rand_write_iops"] == summ["rand_write_4k"]["iops"]
        assert Q.run_records(st.db, r["id"]) == run.records      # nothing of the run lost
    rc, out, err = sdbdb(db_target, "show", "QEMU!")
    assert rc == 0, err
    assert "card #1: unknown XY QEMU!, manufacturer ID 0xaa" in out
    assert "qemu (not a card's speed)" in out and "seq-read-64k" in out


def test_same_run_twice_is_stored_once(db_target, tmp_path):
    assert sdbdb(db_target, "add", QUICK)[0] == 0
    before = counts(db_target)
    twice = tmp_path / "twice.log"          # the same run again in one file, and a copy
    twice.write_bytes(open(QUICK, "rb").read() * 2)
    rc, out, err = sdbdb(db_target, "add", QUICK, twice)
    assert rc == 0, err
    assert out.count("stored before (run 1)") == 3
    assert counts(db_target) == before
    rc, out, err = sdbdb(db_target, "add", QUICK0)      # another run of the same card
    assert rc == 0 and "stored as run 2" in out
    assert count(db_target, "cards") == 1 and count(db_target, "runs") == 2


def test_simulator_runs_are_stored_as_such(db_target, sim_logs):
    rc, out, err = sdbdb(db_target, "add", *sim_logs.values())
    assert rc == 0, err
    with Store.open(db_target) as st:
        for profile, path in sim_logs.items():
            run = records.read_log(path).runs[-1]
            cid = run.one("card")["cid"]
            c = Q.find_card(st.db, cid["psn_hex"])
            assert c["pnm"] == cid["pnm"] and c["manufacturer"] == cid["manufacturer"]
            assert c["app_class"] == run.one("card")["ssr"]["app_perf_class"]
            (r,) = Q.runs(st.db, c["id"])
            assert (r["source"], r["measured"], r["sim_profile"]) == ("simulator", 0, profile)
            assert r["workload_count"] == len(run.result_workloads())
            assert r["suite"] == dict(SIM_RUNS)[profile]
        assert Q.cards(st.db, include_emulated=False) == []     # none measured on a board


# --- rank and percentile ---------------------------------------------------------
def test_rank_of_made_up_values():
    vals = {1: 20.0, 2: 10.0, 3: 30.0, 4: 10.0, 5: 40.0}
    # card 1: cards 3 and 5 are better (rank 3), it beats 2 and 4: 2 of 4 others
    assert R.rank(vals, 1) == (3, 5, 50.0)
    assert R.rank(vals, 2) == (4, 5, 0.0)       # ties with 4: neither is better
    assert R.rank(vals, 5) == (1, 5, 100.0)
    assert R.rank({7: 3.0}, 7) == (1, 1, None)
    assert R.rank(vals, 2, higher_better=False) == (1, 5, 75.0)
    assert R.per_card([{"card_id": 3, "value": 28}, {"card_id": 3, "value": 32},
                       {"card_id": 5, "value": 36}, {"card_id": 5, "value": 90},
                       {"card_id": 5, "value": 40}]) == {3: 30.0, 5: 40}


def test_quarter_words_need_a_difference_beyond_the_spread():
    vals = {1: 20.0, 2: 20.32}                  # 1.6% apart
    tight = {1: (19.99, 20.01), 2: (20.31, 20.33)}
    wide = {1: (19.0, 21.0), 2: (19.3, 21.3)}   # 5% spread each
    assert R.quarter(vals, tight, 2) == "top quarter"
    assert R.quarter(vals, tight, 1) == "bottom quarter"
    assert R.quarter(vals, wide, 2) is None and R.quarter(vals, wide, 1) is None
    assert R.quarter(vals, {1: (19.99, 20.01), 2: None}, 1) is None   # spread unknown
    assert R.quarter({1: 20.0}, {1: (20, 20)}, 1) is None
    # 3 in 4 beaten beyond the spread: top; one inside it is not beaten
    vals = {1: 40.0, 2: 10.0, 3: 11.0, 4: 12.0, 5: 39.0}
    spans = {k: (v * 0.99, v * 1.01) for k, v in vals.items()}
    assert R.quarter(vals, spans, 1) == "top quarter"
    spans[5] = (38.0, 40.5)
    assert R.quarter(vals, spans, 1) == "top quarter"      # 3 of 4 still
    assert R.quarter(vals, spans, 2, higher_better=True) == "bottom quarter"
    rows = [{"card_id": 1, "value": 20.0, "lat_mean_ns": 1000, "lat_stddev_ns": 50},
            {"card_id": 1, "value": 22.0, "lat_mean_ns": 1000, "lat_stddev_ns": 100},
            {"card_id": 2, "value": 5.0, "lat_mean_ns": 1000, "lat_stddev_ns": None}]
    b = R.bands(rows)
    assert b[2] is None and abs(b[1][0] - 19.0) < 1e-9 and abs(b[1][1] - 24.2) < 1e-9


def test_compare_does_not_rank_two_cards_apart_within_their_spread(db_target, tmp_path):
    """Two cards 1.6% apart whose operation times vary by 5%: neither is
    "top" nor "bottom quarter"; with a spread of a few ns they are."""
    def add(stddev):
        paths = []
        for serial, v in ((301, 20.0), (302, 20.32)):
            p = dblogs.write(tmp_path / ("s%d-%d.log" % (serial, stddev)), serial,
                             {"seq-read-64k": v}, nonce=stddev)
            text = open(p).read().replace('"stddev_ns":12', '"stddev_ns":%d' % stddev)
            open(p, "w").write(text)
            paths.append(p)
        rc, out, err = sdbdb(db_target, "add", *paths)
        assert rc == 0, err
    add(164000)                                 # 5% of a 3.28 ms operation
    for serial in ("301", "302"):
        rc, out, err = sdbdb(db_target, "compare", serial)
        assert rc == 0, err
        assert "1 of 2" in out or "2 of 2" in out, out
        assert "quarter" not in out, out


def _rank_example(tmp_path, target):
    """Cards 101..105 on a Pi 4 in HS: seq-read-64k 20; 10; 28 and 32
    (median 30); 10; 36, 40 and 90 (median 40). 106 is QEMU's Pi 4 at 100,
    107 ran in SDR50 at 1000, and 101 also ran through Linux at 5."""
    runs = [(101, 20.0, {}), (102, 10.0, {}), (103, 28.0, {}), (103, 32.0, {}),
            (104, 10.0, {}), (105, 36.0, {}), (105, 40.0, {}), (105, 90.0, {}),
            (106, 100.0, {"board": dblogs.PI4_QEMU, "pnm": "QEMU!"}),
            (107, 1000.0, {"bus_mode": "sdr50", "pnm": "EB32G"})]
    paths = []
    for i, (serial, v, kw) in enumerate(runs):
        mdt = "2014-09" if serial in (101, 102) else "2015-03"
        vals = {"seq-read-64k": v, "rand-read-4k": {101: 2.0, 102: 3.0}.get(serial, 1.0)}
        paths.append(dblogs.write(tmp_path / ("r%d.log" % i), serial, vals, nonce=i,
                                  mdt=mdt, **kw))
    rc, out, err = sdbdb(target, "add", *paths)
    assert rc == 0, err
    linux = dblogs.write_linux(tmp_path / "linux.log", {"seq-read-64k": 5.0})
    rc, out, err = sdbdb(target, "add", "--card", "101", linux)
    assert rc == 0, err
    assert count(target, "runs") == len(runs) + 1


def _group(groups, method="sdbench", bus_mode="hs"):
    (g,) = [g for g in groups if g["method"] == method and g["bus_mode"] == bus_mode]
    return {w["name"]: w for w in g["workloads"]}, g


def test_rank_and_percentile_hand_computed(db_target, tmp_path):
    _rank_example(tmp_path, db_target)
    with Store.open(db_target) as st:
        c1 = Q.find_card(st.db, "101")
        ws, g = _group(Q.compare(st.db, c1))
        assert g["family"] == "Pi 4 (BCM2711)" and g["source"] == "board"
        w = ws["seq-read-64k"]
        assert (w["value"], w["rank"], w["n"], w["percentile"]) == (20.0, 3, 5, 50.0)
        assert (w["median"], w["best"]) == (20.0, 40.0)
        w = ws["rand-read-4k"]                  # 101: 2.0 among 3.0, 1.0, 1.0, 1.0
        assert (w["rank"], w["n"], w["percentile"]) == (2, 5, 75.0)
        ws, g = _group(Q.compare(st.db, c1), method="linux", bus_mode=None)
        assert (g["family"], g["source"]) == ("Pi 4 (BCM2711)", "linux")
        assert (ws["seq-read-64k"]["value"], ws["seq-read-64k"]["rank"],
                ws["seq-read-64k"]["n"]) == (5.0, 1, 1)
        w = _group(Q.compare(st.db, Q.find_card(st.db, "102")))[0]["seq-read-64k"]
        assert (w["rank"], w["percentile"], w["quarter"]) == (4, 0.0, "bottom quarter")
        w = _group(Q.compare(st.db, Q.find_card(st.db, "105")))[0]["seq-read-64k"]
        assert (w["value"], w["rank"], w["percentile"], w["quarter"]) == \
            (40.0, 1, 100.0, "top quarter")
        w = _group(Q.compare(st.db, Q.find_card(st.db, "107")), bus_mode="sdr50")[0]
        assert (w["seq-read-64k"]["rank"], w["seq-read-64k"]["n"]) == (1, 1)
    rc, out, err = sdbdb(db_target, "compare", "101")
    assert rc == 0, err
    assert "seq-read-64k                       20.00    3 of 5        50" in out


def test_emulated_runs_are_ranked_with_board_runs_only_when_asked(db_target, tmp_path):
    _rank_example(tmp_path, db_target)
    with Store.open(db_target) as st:
        c1 = Q.find_card(st.db, "101")
        w = _group(Q.compare(st.db, c1, include_emulated=True))[0]["seq-read-64k"]
        # QEMU's 100 joins: 30, 40 and 100 better, 10 and 10 worse of 5 others
        assert (w["rank"], w["n"], w["percentile"]) == (4, 6, 40.0)
        ws, g = _group(Q.compare(st.db, Q.find_card(st.db, "106")))
        assert g["source"] == "qemu" and ws["seq-read-64k"]["n"] == 1
        assert [c["id"] for c in Q.cards(st.db, include_emulated=False)
                if c["source"] == "qemu"] == []
    rc, out, err = sdbdb(db_target, "compare", "101")
    assert "3 of 5" in out and "4 of 6" not in out
    rc, out, err = sdbdb(db_target, "compare", "101", "--include-emulated")
    assert "4 of 6" in out


def test_same_model_across_batches(db_target, tmp_path):
    _rank_example(tmp_path, db_target)
    with Store.open(db_target) as st:
        c1 = Q.find_card(st.db, "101")
        _, g = _group(Q.compare(st.db, c1))
        b = {x["mdt"]: x for x in g["batches"]}
        # 2014-09: cards 101 (20) and 102 (10); 2015-03: 103 (30), 104 (10), 105 (40);
        # 107 is another product, 106 QEMU and the Linux run other groups
        assert sorted(b) == ["2014-09", "2015-03"]
        assert (b["2014-09"]["cards"], b["2014-09"]["runs"], b["2014-09"]["this"]) == \
            (2, 2, True)
        assert (b["2015-03"]["cards"], b["2015-03"]["runs"]) == (3, 6)
        assert b["2014-09"]["workloads"]["seq-read-64k"] == 15.0
        assert b["2015-03"]["workloads"]["seq-read-64k"] == 30.0
    rc, out, err = sdbdb(db_target, "compare", "101")
    assert "the same model (SanDisk SD SU04G) by batch" in out
    batch_table = out[out.index("the same model"):].splitlines()
    line = [x for x in batch_table if x.strip().startswith("seq-read-64k")][0]
    assert line.split() == ["seq-read-64k", "15.00", "30.00", "+100%"]


# --- outputs ---------------------------------------------------------------------
def test_list_export_and_html_come_from_the_same_rows(db_target, tmp_path):
    _rank_example(tmp_path, db_target)
    assert sdbdb(db_target, "add", QUICK)[0] == 0
    rc, out, err = sdbdb(db_target, "list")
    assert rc == 0, err
    lines = out.splitlines()[1:]
    assert len(lines) == 9      # 7 cards; 101 on a board and through Linux; QEMU's card
    assert lines[0].split()[0] == "7"           # best sequential read first
    rc, out, err = sdbdb(db_target, "list", "--measured-only")
    assert len(out.splitlines()) == 1 + 7
    rc, out, err = sdbdb(db_target, "export", "--format", "json")
    assert rc == 0, err
    doc = json.loads(out)
    assert doc["schema_version"] == schema.LATEST
    assert sum(len(r["workloads"]) for c in doc["cards"] for r in c["runs"]) == \
        count(db_target, "workloads")
    csvf = tmp_path / "all.csv"
    rc, out, err = sdbdb(db_target, "export", "--format", "csv", "-o", csvf)
    assert rc == 0, err
    rows = csvf.read_text().splitlines()
    assert len(rows) == 1 + count(db_target, "workloads")
    assert rows[0].startswith("card_id,card_cid_raw,card_mid,")
    page = tmp_path / "cards.html"
    rc, out, err = sdbdb(db_target, "html", "-o", page)
    assert rc == 0 and "(7 cards, a chart)" in err, err
    text = page.read_text()
    assert text.count("<tr") == 1 + 7 and "QEMU!" not in text
    assert "data:image/png;base64," in text
    from sdbhost.db import page as P         # the same, in this process (faster)
    with Store.open(db_target) as st:
        text, n, chart = P.render(st.db, include_emulated=True)
    assert (n, chart) == (9, True) and text.count('class="emulated"') == 2


def test_the_headline_record_is_kept(db_target, tmp_path):
    head = {"card": "SanDisk SD SU04G", "text": "card-bound: a faster card would help",
            "parts": [{"what": "sequential read", "limit": "card"}]}
    log = dblogs.write(tmp_path / "h.log", 9, {"seq-read-64k": 20.0}, headline=head)
    assert sdbdb(db_target, "add", log)[0] == 0
    rc, out, err = sdbdb(db_target, "show", "9")
    assert "  card-bound: a faster card would help\n  figures: seq read 20.00 MB/s" in out
    rc, out, err = sdbdb(db_target, "export")
    (run,) = json.loads(out)["cards"][0]["runs"]
    assert run["headline"] == dict(head, type="headline")


def test_card_names(db_target, tmp_path):
    _rank_example(tmp_path, db_target)
    rc, out, err = sdbdb(db_target, "show", "SU04G")
    assert rc == 2 and "'SU04G' names 5 cards" in err
    rc, out, err = sdbdb(db_target, "show", "0x0000006b")
    assert rc == 0 and "card #" in out and "EB32G" in out
    # card #3, and the serial 3 of the card added next (#8)
    assert sdbdb(db_target, "add", dblogs.write(tmp_path / "s3.log", 3, {"x": 1.0}))[0] == 0
    rc, out, err = sdbdb(db_target, "show", "3")
    assert rc == 2 and "'3' names 2 cards: #3 SanDisk SD SU04G serial 0x00000067; #8 " in err
    rc, out, err = sdbdb(db_target, "show", "#3")
    assert rc == 0 and out.startswith("card #3: SanDisk SD SU04G")
    rc, out, err = sdbdb(db_target, "show", "nosuchcard")
    assert rc == 2 and "no card 'nosuchcard' in the database" in err


# --- bad input ---------------------------------------------------------------------
def test_a_log_that_does_not_parse(db_target, tmp_path):
    assert sdbdb(db_target, "add", QUICK)[0] == 0
    before = counts(db_target)
    junk = tmp_path / "junk.log"
    junk.write_bytes(os.urandom(3000) + b"\n@ {\"type\": \"card\", \"cid\": \n")
    rc, out, err = sdbdb(db_target, "add", junk, QUICK0)
    assert rc == 1
    assert "junk.log: no sdbench records in it" in err
    assert "stored as run 2" in out                 # the next log is still stored
    assert count(db_target, "runs") == before["runs"] + 1
    rc, out, err = sdbdb(db_target, "add", tmp_path / "missing.log")
    assert rc == 1 and "cannot read it: No such file or directory" in err


def test_linux_runs_need_the_card_named(db_target, tmp_path):
    linux = dblogs.write_linux(tmp_path / "linux.log", {"seq-read-64k": 5.0})
    rc, out, err = sdbdb(db_target, "add", linux)
    assert rc == 1 and "not stored: it has no card record" in err
    assert "the Linux companion reads no CID: --card CARD names the card" in err
    assert sdbdb(db_target, "add", QUICK)[0] == 0
    rc, out, err = sdbdb(db_target, "add", "--card", "0x00000001", linux)
    assert rc == 2 and "no card '0x00000001' in the database" in err
    other = dblogs.write(tmp_path / "other.log", 77, {"seq-read-64k": 5.0})
    rc, out, err = sdbdb(db_target, "add", "--card", "0xdeadbeef", linux, other)
    assert rc == 1 and "not stored: its card record is of another card (serial " \
                       "0x0000004d, not 0xdeadbeef)" in err
    with Store.open(db_target) as st:
        (r,) = [r for r in Q.runs(st.db) if r["source"] == "linux"]
        assert (r["measured"], r["family"], r["board_model"], r["bus_mode"]) == \
            (1, "Pi 4 (BCM2711)", "Raspberry Pi 4 Model B Rev 1.4", None)
        assert Q.card(st.db, r["card_id"])["pnm"] == "QEMU!"
        assert [w["mbs"] for w in Q.workloads(st.db, r["id"])] == [5.0]


def test_a_run_without_a_card_record_or_an_end(db_target, tmp_path):
    nocard = dblogs.write(tmp_path / "nocard.log", 1, {"seq-read-64k": 5.0}, with_card=False)
    cut = dblogs.write(tmp_path / "cut.log", 2, {"seq-read-64k": 5.0}, end=False)
    rc, out, err = sdbdb(db_target, "add", EXCEPTION, nocard, cut, SELFTEST)
    assert rc == 1
    assert "qemu-raspi0-exception.log: run 1 (lines 8-18): not stored: it has no card " \
           "record" in err
    assert "nocard.log: run 1 (lines 2-9): not stored: it has no card record" in err
    assert "cut.log: run 1 (lines 2-9): not stored: it was cut short (no done record)" in err
    assert counts(db_target) == {"cards": 1, "runs": 1, "workloads": 0, "run_records": 1}


@pytest.mark.parametrize("content", [b"this is not a database\n" * 50, b"SQLite format 3\0" +
                                     b"\xff" * 4080])
def test_a_file_that_is_not_a_database(tmp_path, content):
    path = tmp_path / "cards.db"
    path.write_bytes(content)
    for args in (["add", QUICK], ["list"]):
        rc, out, err = sdbdb(str(path), *args)
        assert rc == 2
        assert "is not an sdbench database (not an SQLite file, or a damaged one" in err
        assert "nothing was changed" in err
    assert path.read_bytes() == content


def test_an_sqlite_database_of_something_else(tmp_path):
    import sqlite3
    path = tmp_path / "other.db"
    c = sqlite3.connect(str(path))
    c.execute("CREATE TABLE photos (id INTEGER, name TEXT)")
    c.commit()
    c.close()
    before = path.read_bytes()
    rc, out, err = sdbdb(str(path), "add", QUICK)
    assert rc == 2 and "holds tables that are not sdbench's (photos)" in err
    assert path.read_bytes() == before


def test_a_newer_schema_is_refused(db_target):
    with Store.open(db_target) as st:
        st.db.execute("INSERT INTO schema_version (version, description, applied_at) "
                      "VALUES (?, ?, ?)", (schema.LATEST + 1, "future", "2030-01-01T00:00:00Z"))
    rc, out, err = sdbdb(db_target, "add", QUICK)
    assert rc == 2 and "newer than this sdbdb knows" in err
    assert count_raw(db_target, "runs") == 0


def count_raw(target, table):
    """Without Store.open: it would refuse the newer schema."""
    from sdbhost.db.backend import connect
    db = connect(target)
    try:
        return db.row("SELECT count(*) AS n FROM %s" % table)["n"]
    finally:
        db.close()


def test_migrations_apply_in_order(db_target):
    from sdbhost.db.backend import connect
    db = connect(db_target)
    try:
        assert schema.migrate(db, upto=1) == [1]
        assert "runs" in db.tables()
    finally:
        db.close()
    with Store.open(db_target) as st:
        vs = st.db.rows("SELECT version FROM schema_version ORDER BY version")
        assert [v["version"] for v in vs] == [m[0] for m in schema.MIGRATIONS]
        assert schema.migrate(st.db) == []          # nothing left to do
    assert [m[0] for m in schema.MIGRATIONS] == list(range(1, schema.LATEST + 1))


def _break_before_records(st, how):
    """Make the connection fail when the run's records are about to be
    written: the run's card, run and workload rows are in the transaction."""
    real = st.db.execute

    def execute(query, params=()):
        if query.startswith("INSERT INTO run_records"):
            how()
        return real(query, params)
    st.db.execute = execute


def test_the_connection_lost_mid_add_stores_nothing_of_the_run(db_target, tmp_path):
    with Store.open(db_target) as st:
        assert [a.status for a in st.add_log(QUICK)] == ["added"]
    before = counts(db_target)
    st = Store.open(db_target)
    if db_target.startswith("postgresql"):
        pid = st.db.row("SELECT pg_backend_pid() AS p")["p"]

        def how():      # the server ends this connection, as when it goes down
            import psycopg2
            c = psycopg2.connect(db_target)
            c.autocommit = True
            c.cursor().execute("SELECT pg_terminate_backend(%s)", (pid,))
            c.close()
        expect = "went away"
    else:
        def how():      # the file's connection is gone (the process losing it)
            st.db.conn.close()
        expect = "connection was closed"
    _break_before_records(st, how)
    log = dblogs.write(tmp_path / "new.log", 555,
                       {"seq-read-64k": 12.0, "rand-read-4k": 3.0})
    with pytest.raises(DbError) as e:
        st.add_log(log)
    assert expect in str(e.value) and e.value.lost
    st.close()
    assert counts(db_target) == before          # no card, run or workload of it
    rc, out, err = sdbdb(db_target, "add", log)  # and it can be added afterwards
    assert rc == 0 and "stored as run" in out


def test_the_server_shut_down_mid_add_stores_nothing_of_the_run(pg_server, tmp_path):
    if isinstance(pg_server, str):
        pytest.skip("PostgreSQL: " + pg_server)
    url = pg_server.new_database()
    with Store.open(url) as st:
        assert [a.status for a in st.add_log(QUICK)] == ["added"]
    before = counts(url)
    st = Store.open(url)
    _break_before_records(st, pg_server.halt)
    log = dblogs.write(tmp_path / "new.log", 556, {"seq-read-64k": 12.0})
    try:
        with pytest.raises(DbError) as e:
            st.add_log(log)
    finally:
        st.close()
        assert pg_server.launch() is None
    assert "the PostgreSQL server postgresql:///" in str(e.value)
    assert "went away" in str(e.value) and "the transaction was not committed" in str(e.value)
    assert counts(url) == before
    rc, out, err = sdbdb(url, "add", log)     # (PostgreSQL's ids are not reused)
    assert rc == 0 and "stored as run" in out


def test_reading_a_database_that_does_not_exist_creates_none(tmp_path):
    path = tmp_path / "typo.db"
    for args in (["list"], ["show", "1"], ["export"]):
        rc, out, err = sdbdb(str(path), *args)
        assert rc == 2 and "no database %s (sdbdb add LOG... creates it" % path in err
    assert not path.exists()


def test_an_unreachable_server(tmp_path):
    url = "postgresql:///cards?host=%s&user=nobody" % (tmp_path / "nosuchdir")
    rc, out, err = sdbdb(url, "add", QUICK)
    assert rc == 2 and "sdbdb: cannot connect to postgresql:///cards?host=" in err


def test_list_shows_whole_claims_and_linux_figures(db_target, tmp_path):
    """sdbdb list: the claims are never cut ("C10 U3 V30 A2", not "...
    A"); a run of the Linux companion (no summary record) shows its
    figures from its results, and sdbreport names its board and kernel."""
    a = dblogs.write(tmp_path / "a.log", 501, {"seq-read-64k": 20.0}, app="A2",
                     uhs_grade=3, video_class=30)
    linux = dblogs.write_linux(tmp_path / "linux.log",
                               {"seq-read-64k": 5.0, "seq-read-4m": 7.5,
                                "seq-write-64k": (3.0, 65536, "write"),
                                "rand-read-4k": (2.0, 4096, "read")})
    rc, out, err = sdbdb(db_target, "add", a)
    assert rc == 0, err
    rc, out, err = sdbdb(db_target, "add", "--card", "501", linux)
    assert rc == 0, err
    rc, out, err = sdbdb(db_target, "list")
    assert rc == 0, err
    rows = {l.split()[-6]: l for l in out.splitlines()[1:]}
    assert " C10 U3 V30 A2 " in rows["board"], out
    cells = rows["linux"].split()[-4:]
    # best sequential read and write MB/s, random 4 KiB read IOPS (the
    # made-up result's), no random write
    rr = [json.loads(l[2:]) for l in open(linux) if l.startswith("@ ") and
          '"rand-read-4k"' in l and '"result"' in l][0]
    assert cells == ["7.50", "3.00", "%.0f" % rr["iops"], "-"], out
    p = subprocess.run([os.path.join(ROOT, "build", "host", "sdbreport"), "-q", linux],
                       stdout=subprocess.PIPE, text=True)
    assert "board: Raspberry Pi 4 Model B Rev 1.4, through Linux 6.1.0-rpi7-rpi-v8 " \
        "(aarch64), device /dev/mmcblk0\n" in p.stdout, p.stdout
    assert "board: unknown (-)" not in p.stdout and "ARM -" not in p.stdout
