"""A throwaway PostgreSQL server for the tests (Debian's postgresql
package): initdb in a temporary directory, listening only on a Unix
socket there (no TCP port to collide with), fsync off; each test gets a
database of its own. PostgreSQL refuses to run as root, so where the
tests run as root (CI) the server runs as the postgres user (or nobody)
through runuser. Server.start() returns None or the reason it could not
start, for the tests to skip with."""
import glob
import os
import pwd
import shutil
import subprocess
import tempfile
import urllib.parse

SUPERUSER = "sdbtest"


def _bindir():
    dirs = sorted(glob.glob("/usr/lib/postgresql/*/bin"),
                  key=lambda d: int(d.split("/")[-2]) if d.split("/")[-2].isdigit() else 0)
    return dirs[-1] if dirs and os.path.exists(os.path.join(dirs[-1], "initdb")) else None


def _run_as():
    """The user to run the server as: ourselves, or when root an
    unprivileged one."""
    if os.geteuid() != 0:
        return None
    for name in ("postgres", "nobody"):
        try:
            return pwd.getpwnam(name)
        except KeyError:
            continue
    return None


class Server:
    def __init__(self):
        self.dir = None
        self.bindir = None
        self.user = None
        self.running = False
        self.count = 0

    def _cmd(self, args):
        if self.user is not None:
            return ["runuser", "-u", self.user.pw_name, "--"] + args
        return args

    def _call(self, args, timeout=60):
        p = subprocess.run(self._cmd(args), stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                           stdin=subprocess.DEVNULL, timeout=timeout)
        return p.returncode, p.stdout.decode("utf-8", "replace")

    def start(self):
        try:
            import psycopg2  # noqa: F401
        except ImportError:
            return "python3-psycopg2 is not installed (tools/install-deps.sh installs it)"
        self.bindir = _bindir()
        if not self.bindir:
            return "PostgreSQL is not installed (no /usr/lib/postgresql/*/bin/initdb; " \
                   "tools/install-deps.sh installs the postgresql package)"
        if os.geteuid() == 0:
            self.user = _run_as()
            if self.user is None:
                return "running as root and no unprivileged user (postgres, nobody) to " \
                       "run the server as"
            if not shutil.which("runuser"):
                return "running as root and runuser (util-linux) is missing"
        self.dir = tempfile.mkdtemp(prefix="sdb-pg-")
        if self.user is not None:
            os.chown(self.dir, self.user.pw_uid, self.user.pw_gid)
        data = os.path.join(self.dir, "data")
        rc, out = self._call([os.path.join(self.bindir, "initdb"), "-D", data, "-A", "trust",
                              "-U", SUPERUSER, "-E", "UTF8", "--locale=C", "--no-sync"])
        if rc != 0:
            return "initdb failed (%d): %s" % (rc, out.strip()[-500:])
        return self.launch()

    def launch(self):
        """Start the server (again); None or why it did not start."""
        data = os.path.join(self.dir, "data")
        rc, out = self._call([os.path.join(self.bindir, "pg_ctl"), "-D", data, "-l",
                              os.path.join(self.dir, "server.log"), "-w", "-t", "60", "-o",
                              "-k %s -c listen_addresses='' -F -c max_connections=60 "
                              "-c shared_buffers=16MB"
                              % self.dir, "start"])
        if rc != 0:
            log = ""
            try:
                with open(os.path.join(self.dir, "server.log")) as f:
                    log = f.read()[-800:]
            except OSError:
                pass
            return "the server did not start (%d): %s %s" % (rc, out.strip()[-300:], log)
        self.running = True
        return None

    def url(self, dbname):
        q = urllib.parse.urlencode({"host": self.dir, "user": SUPERUSER})
        return "postgresql:///%s?%s" % (dbname, q)

    def admin(self):
        import psycopg2
        c = psycopg2.connect(self.url("postgres"))
        c.autocommit = True
        return c

    def new_database(self):
        """A fresh, empty database; its postgresql:// URL."""
        self.count += 1
        name = "t%d" % self.count
        c = self.admin()
        try:
            c.cursor().execute("CREATE DATABASE %s" % name)
        finally:
            c.close()
        return self.url(name)

    def halt(self):
        """Stop the server (fast shutdown: sessions are ended, open
        transactions rolled back), keeping its data."""
        if self.running:
            self._call([os.path.join(self.bindir, "pg_ctl"), "-D",
                        os.path.join(self.dir, "data"), "-m", "fast", "-w", "stop"])
            self.running = False

    def stop(self):
        self.halt()
        if self.dir:
            shutil.rmtree(self.dir, ignore_errors=True)
            self.dir = None
