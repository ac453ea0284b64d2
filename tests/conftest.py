"""pytest configuration shared by every test under tests/.

Makes the QEMU harness (tests/qemu/harness.py) importable as `harness` and
the host tools' package (tools/sdbhost) as `sdbhost`.
Run from the repository root: /usr/bin/python3 -m pytest -q tests

Which QEMU the QEMU tests use: --qemu=system|10|PATH, or the environment
variable SDB_QEMU (same values; see tests/qemu/harness.py). The selected
QEMU and its version are printed at the start of the run.
"""
import os
import sys

import pytest

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "qemu"))
sys.path.insert(0, os.path.join(HERE, "..", "tools"))

import harness  # noqa: E402

# tests/hw talks to a board on a serial port (make test-hw PORT=...); it is
# collected only when a port is given. tests/test_hw_pty.py runs it against
# QEMU through a pseudo-terminal.
if not os.environ.get("SDB_HW_PORT"):
    collect_ignore = ["hw"]


def pytest_addoption(parser):
    parser.addoption("--qemu", default=None, metavar="system|10|PATH",
                     help="QEMU for the QEMU tests: the system one, QEMU 10 "
                          "(tools/fetch-qemu10.sh) or a directory; default $SDB_QEMU or system")


def pytest_configure(config):
    flav = config.getoption("--qemu")
    if flav:
        # The environment carries it to the harness and to qemu/run.sh.
        os.environ["SDB_QEMU"] = flav


def pytest_report_header(config):
    return harness.describe()


def pytest_sessionstart(session):
    # -q hides the header: print the QEMU line anyway.
    tr = session.config.pluginmanager.get_plugin("terminalreporter")
    if tr is not None and tr.verbosity < 0:
        tr.write_line(harness.describe())


# The card database's tests run against SQLite and a real PostgreSQL
# server (tests/pgserver.py), started once per test session (once per
# pytest-xdist worker) when a test first asks for it and stopped at the end.
@pytest.fixture(scope="session")
def pg_server():
    import pgserver
    srv = pgserver.Server()
    why = srv.start()
    try:
        yield srv if why is None else why
    finally:
        srv.stop()


@pytest.fixture(params=["sqlite", "postgresql"])
def db_target(request, tmp_path):
    """A fresh database: an SQLite file, or a database on the test server."""
    if request.param == "sqlite":
        return str(tmp_path / "cards.db")
    srv = request.getfixturevalue("pg_server")
    if isinstance(srv, str):
        pytest.skip("PostgreSQL: " + srv)
    return srv.new_database()


# Card profiles and suites of the simulator runs the database and the
# multi-port capture are fed with: one with workloads (a card that refuses
# writes runs the quick suite in a few seconds), two with the card alone.
SIM_RUNS = (("csd-tmp-wp-4g", "quick"), ("sdhc-a1-32g", "none"), ("sdxc-u3-128g", "none"))


@pytest.fixture(scope="session")
def sim_logs(tmp_path_factory):
    """{profile: log} of build/host/sdbsim runs (made once per session,
    side by side)."""
    import subprocess
    d = tmp_path_factory.mktemp("simlogs")
    tool = os.path.join(HERE, "..", "build", "host", "sdbsim")
    procs = {}
    for p, suite in SIM_RUNS:
        cfg = d / (p + ".txt")
        cfg.write_text("suite = %s\n" % suite)
        f = open(d / (p + ".log"), "wb")
        procs[p] = (subprocess.Popen([tool, "--profile", p, "--config", str(cfg)], stdout=f,
                                     stderr=subprocess.PIPE), f)
    out = {}
    for p, (proc, f) in procs.items():
        err = proc.communicate(timeout=300)[1]
        f.close()
        assert proc.returncode == 0, err.decode()
        out[p] = str(d / (p + ".log"))
    return out
