"""The database schema as ordered migration steps.

schema_version holds one row per step applied. Opening a database applies
the steps it lacks, in order, in one transaction under a lock (SQLite's
write lock, a PostgreSQL advisory lock), so that writers starting at the
same time on a new database migrate it once. A step is never edited once
released: a change of schema is a new step at the end (docs/database.md).
"""
import time

from .backend import DbError

# (version, what it does, [DDL with {id} {float} {text} {bigint}])
MIGRATIONS = [
    (1, "cards, runs, their workloads and records", [
        """CREATE TABLE cards (
            id {id},
            card_key TEXT NOT NULL UNIQUE,
            cid_raw TEXT, mid INTEGER, manufacturer TEXT, oid TEXT, pnm TEXT, prv TEXT,
            psn {bigint}, psn_hex TEXT, mdt TEXT,
            capacity_bytes {bigint}, card_type TEXT, sd_spec TEXT,
            speed_class INTEGER, uhs_grade INTEGER, video_class INTEGER, app_class TEXT,
            au_bytes {bigint}, uhs_au_bytes {bigint},
            first_added TEXT NOT NULL)""",
        """CREATE TABLE runs (
            id {id},
            run_hash TEXT NOT NULL UNIQUE,
            card_id {bigint} NOT NULL REFERENCES cards(id),
            source TEXT NOT NULL, measured INTEGER NOT NULL,
            board_model TEXT, board_revision TEXT, soc TEXT, family TEXT, board_serial TEXT,
            sim_profile TEXT, sim_host TEXT,
            host TEXT, data_path TEXT, bus_mode TEXT, clock_hz {bigint}, width INTEGER,
            signal_mv INTEGER, suite TEXT, ended_by TEXT, errors INTEGER, elapsed_us {bigint},
            workload_count INTEGER,
            seq_read_mbs {float}, seq_write_mbs {float},
            rand_read_iops {float}, rand_write_iops {float},
            summary TEXT, headline TEXT,
            log_name TEXT, log_path TEXT, run_in_log INTEGER, log_mtime TEXT,
            added_at TEXT NOT NULL)""",
        """CREATE TABLE workloads (
            run_id {bigint} NOT NULL REFERENCES runs(id) ON DELETE CASCADE,
            seq INTEGER NOT NULL,
            name TEXT NOT NULL, kind TEXT, op TEXT, cmd TEXT, xfer_bytes {bigint},
            ops {bigint}, bytes {bigint}, elapsed_ns {bigint}, mbs {float}, iops {float},
            errors INTEGER, data_path TEXT,
            lat_count {bigint}, lat_mean_ns {float}, lat_p50_ns {float}, lat_p99_ns {float},
            lat_max_ns {float}, lat_stddev_ns {float},
            card_pct {float}, bus_pct {float}, host_pct {float},
            bottleneck TEXT, verdict_pct {float}, verdict TEXT,
            PRIMARY KEY (run_id, name))""",
        """CREATE TABLE run_records (
            run_id {bigint} PRIMARY KEY REFERENCES runs(id) ON DELETE CASCADE,
            record_count INTEGER NOT NULL,
            records TEXT NOT NULL)""",
    ]),
    (2, "indexes for the comparisons", [
        "CREATE INDEX runs_card ON runs(card_id)",
        "CREATE INDEX runs_group ON runs(family, bus_mode, source)",
        "CREATE INDEX workloads_name ON workloads(name)",
        "CREATE INDEX cards_model ON cards(mid, oid, pnm)",
    ]),
    (3, "the headline's verdict on the card's claims: counterfeit, failed claims", [
        "ALTER TABLE runs ADD COLUMN verdict TEXT",
        "ALTER TABLE runs ADD COLUMN counterfeit INTEGER",
        "ALTER TABLE runs ADD COLUMN failed_claims TEXT",
    ]),
    (4, "the command queue's verdict per run (queue_check and class_queue records)", [
        "ALTER TABLE runs ADD COLUMN queue_verdict TEXT",
        "ALTER TABLE runs ADD COLUMN queue_depth INTEGER",
        "ALTER TABLE runs ADD COLUMN queue_broken TEXT",
        "ALTER TABLE runs ADD COLUMN queue_text TEXT",
        "ALTER TABLE runs ADD COLUMN a2_queued TEXT",
    ]),
]

LATEST = MIGRATIONS[-1][0]
OUR_TABLES = {"schema_version", "cards", "runs", "workloads", "run_records"}


def current_version(db):
    """The highest step applied; 0 for an empty database."""
    tables = db.tables()
    if "schema_version" not in tables:
        if tables:
            raise DbError("%s holds tables that are not sdbench's (%s); refusing to add ours "
                          "to it" % (db.target, ", ".join(sorted(tables)[:5])))
        return 0
    r = db.row("SELECT max(version) AS v FROM schema_version")
    return r["v"] or 0


def migrate(db, upto=LATEST):
    """Bring the database to version upto; returns the steps applied."""
    db.begin()
    try:
        db.lock_schema()
        have = current_version(db)
        if have > LATEST:
            raise DbError("%s has schema version %d, newer than this sdbdb knows (%d): use "
                          "a newer sdbdb" % (db.target, have, LATEST))
        if have == 0:
            db.execute("CREATE TABLE schema_version (version INTEGER PRIMARY KEY, "
                       "description TEXT NOT NULL, applied_at TEXT NOT NULL)")
        done = []
        for version, what, steps in MIGRATIONS:
            if have < version <= upto:
                for ddl in steps:
                    db.execute(db.ddl(ddl))
                db.execute("INSERT INTO schema_version (version, description, applied_at) "
                           "VALUES (?, ?, ?)", (version, what, now_utc()))
                done.append(version)
        db.commit()
        return done
    except BaseException:
        db.rollback()
        raise


def now_utc():
    return time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime())
