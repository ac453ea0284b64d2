"""Several capture rigs adding to one database at once: 8 sdbdb processes
add 200 different runs (50 cards, 4 runs each) to a database none of them
has created yet, and each also adds 5 of its neighbour's logs at the same
time as the neighbour: every run is stored, none twice. Against SQLite
and PostgreSQL; the time it took is printed (pytest -s shows it)."""
import os
import subprocess
import time

import dblogs
from sdbhost.db import Store, schema

ROOT = os.path.abspath(os.path.join(os.path.dirname(__file__), ".."))
TOOL = os.path.join(ROOT, "build", "host", "sdbdb")
WRITERS, RUNS, CARDS, SHARED = 8, 200, 50, 5


def test_eight_writers_store_every_run_once(db_target, tmp_path):
    logs = []
    for i in range(RUNS):
        serial = 1000 + i % CARDS
        vals = {"seq-read-64k": 10.0 + i, "seq-write-64k": 5.0 + i / 10.0,
                "rand-read-4k": 2.0 + i / 100.0, "rand-write-4k": 0.5}
        logs.append(dblogs.write(tmp_path / ("run%03d.log" % i), serial, vals, nonce=i))
    per = RUNS // WRITERS
    t0 = time.monotonic()
    procs = []
    for w in range(WRITERS):
        mine = logs[w * per:(w + 1) * per]
        # first the neighbour's first logs, which it adds first too: the same
        # runs are added by two processes at the same moment
        theirs = logs[((w + 1) % WRITERS) * per:][:SHARED]
        procs.append(subprocess.Popen([TOOL, "--db", db_target, "add", "-q"] + theirs + mine,
                                      stdout=subprocess.PIPE, stderr=subprocess.PIPE))
    outs = [p.communicate(timeout=600) for p in procs]
    took = time.monotonic() - t0
    for p, (out, err) in zip(procs, outs):
        assert p.returncode == 0, err.decode()
    with Store.open(db_target) as st:
        n = st.db.row("SELECT count(*) AS runs, count(DISTINCT run_hash) AS hashes, "
                      "count(DISTINCT log_name) AS logs FROM runs")
        assert (n["runs"], n["hashes"], n["logs"]) == (RUNS, RUNS, RUNS)
        assert st.db.row("SELECT count(*) AS n FROM cards")["n"] == CARDS
        assert st.db.row("SELECT count(*) AS n FROM workloads")["n"] == RUNS * 4
        assert st.db.row("SELECT count(*) AS n FROM run_records")["n"] == RUNS
        assert st.db.row("SELECT count(*) AS n FROM schema_version")["n"] == schema.LATEST
    print("\n%d writers, %d runs (+%d added twice at once) into %s: %.2f s" % (
        WRITERS, RUNS, WRITERS * SHARED, db_target.split(":")[0] if "://" in db_target
        else "sqlite", took))
