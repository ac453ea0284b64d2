"""The two database engines behind one small interface.

SQLite (Python's sqlite3) for a file, PostgreSQL (Debian's
python3-psycopg2) for a postgresql:// URL. Queries are written once with
"?" placeholders in the SQL both engines accept (ON CONFLICT ... DO
NOTHING and RETURNING need SQLite 3.35, Debian 12 has 3.40); the few DDL
words that differ are filled in by ddl(). Every error of an engine comes
out as a DbError whose message says what happened and what to do."""
import os
import re

SQLITE_BUSY_S = 60          # how long a writer waits for another one's transaction


class DbError(Exception):
    """A database problem, with a message for people; lost is True when
    the connection or the server went away."""

    def __init__(self, message, lost=False):
        Exception.__init__(self, message)
        self.lost = lost


def is_url(target):
    return re.match(r"^postgres(ql)?://", target or "") is not None


def describe(target):
    """The target without a password, for messages."""
    return re.sub(r"(://[^:/@]*:)[^@]*@", r"\1***@", target)


class Backend:
    """What the store needs of an engine: execute with "?" placeholders,
    transactions, error translation."""

    name = None
    types = {}

    def __init__(self, target):
        self.target = target
        self.conn = None

    def ddl(self, sql):
        """DDL with {id}, {float}, {text}, {bigint} filled in for this engine."""
        return sql.format(**self.types)

    def sql(self, query):
        return query

    def execute(self, query, params=()):
        try:
            cur = self.conn.cursor()
            cur.execute(self.sql(query), tuple(params))
        except Exception as e:          # each engine's errors, translated
            raise self.translate(e)
        return cur

    def rows(self, query, params=()):
        cur = self.execute(query, params)
        cols = [d[0] for d in cur.description]
        return [dict(zip(cols, r)) for r in cur.fetchall()]

    def row(self, query, params=()):
        r = self.rows(query, params)
        return r[0] if r else None

    def close(self):
        if self.conn is not None:
            try:
                self.conn.close()
            except Exception:   # already gone: nothing to release
                pass
            self.conn = None


class SQLite(Backend):
    name = "sqlite"
    types = {"id": "INTEGER PRIMARY KEY AUTOINCREMENT", "float": "REAL",
             "text": "TEXT", "bigint": "INTEGER"}

    def connect(self):
        import sqlite3
        self.mod = sqlite3
        path = self.target
        if os.path.isdir(path):
            raise DbError("%s is a directory, not a database file" % path)
        d = os.path.dirname(os.path.abspath(path))
        if not os.path.isdir(d):
            raise DbError("cannot create %s: no directory %s" % (path, d))
        try:
            # isolation_level None: transactions only where begin() says.
            self.conn = sqlite3.connect(path, timeout=SQLITE_BUSY_S, isolation_level=None)
            self.conn.execute("PRAGMA foreign_keys = ON")
            # Reading the schema fails here when the file is not SQLite.
            self.conn.execute("SELECT count(*) FROM sqlite_master").fetchone()
        except sqlite3.Error as e:
            self.close()
            raise self.translate(e)
        return self

    def begin(self):
        # IMMEDIATE: take the write lock now, so that two writers never
        # both read and then both try to upgrade (a deadlock SQLite
        # resolves by failing one of them).
        self.execute("BEGIN IMMEDIATE")

    def commit(self):
        self.execute("COMMIT")

    def rollback(self):
        try:
            if self.conn is not None and self.conn.in_transaction:
                self.conn.execute("ROLLBACK")
        except self.mod.Error:
            pass                # a closed connection: SQLite has dropped the transaction

    def lock_schema(self):
        pass                    # BEGIN IMMEDIATE already holds the write lock

    def tables(self):
        return {r["name"] for r in self.rows(
            "SELECT name FROM sqlite_master WHERE type = 'table'")}

    def translate(self, e):
        if isinstance(e, DbError):
            return e
        sqlite3 = self.mod
        text = str(e)
        if isinstance(e, sqlite3.DatabaseError) and ("not a database" in text
                                                      or "malformed" in text):
            return DbError("%s is not an sdbench database (not an SQLite file, or a damaged "
                           "one: %s); nothing was changed" % (self.target, text))
        if isinstance(e, sqlite3.OperationalError) and "locked" in text:
            return DbError("%s: the database stayed locked by another writer for %d s "
                           "(%s)" % (self.target, SQLITE_BUSY_S, text))
        if isinstance(e, sqlite3.OperationalError) and "unable to open" in text:
            return DbError("cannot open %s: %s" % (self.target, text))
        if isinstance(e, sqlite3.ProgrammingError) and "closed" in text:
            return DbError("%s: the database connection was closed (%s)" % (self.target, text),
                           lost=True)
        return DbError("%s: %s" % (self.target, text))


class PostgreSQL(Backend):
    name = "postgresql"
    types = {"id": "BIGSERIAL PRIMARY KEY", "float": "DOUBLE PRECISION",
             "text": "TEXT", "bigint": "BIGINT"}
    SCHEMA_LOCK = 0x5db0db      # advisory lock key: one migrating writer at a time

    def connect(self):
        try:
            import psycopg2
        except ImportError:
            raise DbError("a PostgreSQL URL needs python3-psycopg2 (apt-get install "
                          "python3-psycopg2)")
        self.mod = psycopg2
        try:
            self.conn = psycopg2.connect(self.target, connect_timeout=15)
            # Transactions only where begin() says, as with SQLite: a query
            # outside one never leaves the session idle in a transaction.
            self.conn.autocommit = True
        except psycopg2.Error as e:
            raise DbError("cannot connect to %s: %s" % (describe(self.target),
                                                        str(e).strip()), lost=True)
        return self

    def sql(self, query):
        # psycopg2 takes %s; a literal % must be doubled.
        return query.replace("%", "%%").replace("?", "%s")

    def begin(self):
        self.execute("BEGIN")

    def commit(self):
        self.execute("COMMIT")

    def rollback(self):
        from psycopg2 import extensions
        if self.conn is not None and not self.conn.closed and \
                self.conn.info.transaction_status != extensions.TRANSACTION_STATUS_IDLE:
            try:
                self.conn.cursor().execute("ROLLBACK")
            except self.mod.Error:
                pass

    def lock_schema(self):
        self.execute("SELECT pg_advisory_xact_lock(?)", (self.SCHEMA_LOCK,))

    def tables(self):
        return {r["table_name"] for r in self.rows(
            "SELECT table_name FROM information_schema.tables "
            "WHERE table_schema = current_schema()")}

    def translate(self, e):
        if isinstance(e, DbError):
            return e
        psycopg2 = self.mod
        text = str(e).strip().splitlines()[0] if str(e).strip() else type(e).__name__
        lost = isinstance(e, (psycopg2.OperationalError, psycopg2.InterfaceError)) and \
            (self.conn is None or self.conn.closed != 0 or "terminat" in text or
             "closed" in text or "connection" in text)
        if lost:
            return DbError("the PostgreSQL server %s went away (%s); the transaction was "
                           "not committed" % (describe(self.target), text), lost=True)
        return DbError("%s: %s" % (describe(self.target), text))


def connect(target):
    """A connected backend for a file path or a postgresql:// URL."""
    b = PostgreSQL(target) if is_url(target) else SQLite(target)
    return b.connect()
