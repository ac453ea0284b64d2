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
