"""Adding runs: one transaction per run, so that a run is stored whole or
not at all, and nothing already stored is touched by a failed add."""
import os
import time

from .. import records
from . import schema
from .backend import DbError, connect
from .extract import NotStorable, extract


class Added:
    """What became of one run of a log: status "added", "known" (stored
    before: same content hash) or "refused" (why in message)."""

    def __init__(self, path, run_index, status, message="", run_id=None):
        self.path = path
        self.run_index = run_index
        self.status = status
        self.message = message
        self.run_id = run_id

    def __repr__(self):
        return "Added(%s, run %s, %s, %s)" % (self.path, self.run_index, self.status,
                                            self.message)


class Store:
    """A database of runs: open(target) for a file path or a postgresql://
    URL; the schema is brought to the latest version on opening."""

    def __init__(self, db):
        self.db = db

    @classmethod
    def open(cls, target, migrate=True):
        db = connect(target)
        try:
            if migrate:
                schema.migrate(db)
            elif schema.current_version(db) != schema.LATEST:
                raise DbError("%s is not at schema version %d" % (target, schema.LATEST))
        except BaseException:
            db.close()
            raise
        return cls(db)

    def close(self):
        self.db.close()

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()

    # --- adding -----------------------------------------------------------
    def add_log(self, path, card=None):
        """Every run of a log file: [Added]. A log that cannot be read or
        holds no records is one refused entry; DbError (the database
        failed) is raised, with nothing of the run it was adding stored."""
        try:
            log = records.read_log(path)
        except OSError as e:
            return [Added(path, None, "refused", "cannot read it: %s" % (e.strerror or e))]
        if not log.runs:
            return [Added(path, None, "refused", "no sdbench records in it (lines starting "
                                                 "with '@ '): not a console log of sdbench")]
        meta = {"log_name": os.path.basename(path), "log_path": os.path.abspath(path),
                "log_mtime": _mtime(path)}
        return [self.add_run(run, dict(meta, run_in_log=run.index), card) for run in log.runs]

    def add_run(self, run, meta, card=None):
        """card: the card (a cards row) of a run without a card record."""
        try:
            crow, rrow, wrows, recs = extract(run, card)
        except NotStorable as e:
            return Added(run.path, run.index, "refused", "%s: not stored: %s"
                         % (run.describe(), e))
        rrow.update(meta)
        rrow["added_at"] = schema.now_utc()
        db = self.db
        db.begin()
        try:
            old = db.row("SELECT id FROM runs WHERE run_hash = ?", (rrow["run_hash"],))
            if old is not None:
                db.rollback()
                return Added(run.path, run.index, "known", "%s: stored before (run %d)"
                             % (run.describe(), old["id"]), old["id"])
            card_id = self._card(crow, rrow["added_at"])
            rrow["card_id"] = card_id
            new = db.row(_insert("runs", rrow) + " ON CONFLICT (run_hash) DO NOTHING "
                         "RETURNING id", list(rrow.values()))
            if new is None:
                db.rollback()
                old = db.row("SELECT id FROM runs WHERE run_hash = ?", (rrow["run_hash"],))
                return Added(run.path, run.index, "known", "%s: stored before (run %s)"
                             % (run.describe(), old and old["id"]), old and old["id"])
            rid = new["id"]
            for w in wrows:
                w["run_id"] = rid
                db.execute(_insert("workloads", w), list(w.values()))
            db.execute("INSERT INTO run_records (run_id, record_count, records) "
                       "VALUES (?, ?, ?)", (rid, len(run.records), recs))
            db.commit()
        except BaseException:
            db.rollback()
            raise
        return Added(run.path, run.index, "added", "%s: stored as run %d (%d workloads)"
                     % (run.describe(), rid, len(wrows)), rid)

    def _card(self, crow, when):
        db = self.db
        have = db.row("SELECT id FROM cards WHERE card_key = ?", (crow["card_key"],))
        if have is not None:
            return have["id"]
        row = dict(crow, first_added=when)
        db.execute(_insert("cards", row) + " ON CONFLICT (card_key) DO NOTHING",
                   list(row.values()))
        return db.row("SELECT id FROM cards WHERE card_key = ?", (crow["card_key"],))["id"]


def _insert(table, row):
    return "INSERT INTO %s (%s) VALUES (%s)" % (table, ", ".join(row),
                                               ", ".join("?" * len(row)))


def _mtime(path):
    try:
        return time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime(os.path.getmtime(path)))
    except OSError:
        return None
