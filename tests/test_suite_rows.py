"""Suites as data (bench/workloads/table.c): each workload row names the
suites that run it, so a row added to one suite changes no other suite's
behaviour baseline.

In a copy of the tree (its build/host with it, so that only the edited
table is compiled again), one row is added to the full suite; the host
simulator is built there, and every simulator baseline of another suite
(tests/golden/golden.py's SIM_CASES: quick and selftest) must come out
byte for byte as committed. That the row is live, and the check could
fail: the same row added to the quick suite instead changes the quick
baseline, with the row's own results in it."""
import json
import os
import re
import shutil
import subprocess
import sys

import pytest

sys.path.insert(0, os.path.join(os.path.dirname(__file__), "golden"))
import golden  # noqa: E402

ROOT = golden.ROOT
NEW_ROW = ('\t{ "seq-read-again", "sequential reads once more", false, KEYS,\n'
           '\t  false, %s, seq_read },\n')
# The row goes before the last one ("modes" must stay last: it initialises
# the card again in every mode).
ANCHOR = "\t/* Last: it initialises the card again in every mode. */\n"


def _suite(lines):
    for line in lines:
        m = re.match(r"\s*suite\s*=\s*(\w+)", line)
        if m:
            return m.group(1)
    return "quick"   # the default of sdbench.txt's suite key (config_keys.h)


def _copy_tree(dst):
    files = subprocess.run(["git", "ls-files", "-co", "--exclude-standard", "-z"], cwd=ROOT,
                           stdout=subprocess.PIPE, check=True).stdout.decode().split("\0")
    for rel in filter(None, files):
        src = os.path.join(ROOT, rel)
        if not os.path.isfile(src):
            continue          # deleted in the working tree
        os.makedirs(os.path.dirname(os.path.join(dst, rel)), exist_ok=True)
        shutil.copy2(src, os.path.join(dst, rel))   # mtimes kept: make rebuilds only the edit
    shutil.copytree(os.path.join(ROOT, "build", "host"), os.path.join(dst, "build", "host"),
                    symlinks=True)


def _tree_with_row(tmp_path_factory, suites):
    """A built copy of the tree whose table has the new row in suites;
    the path of its sdbsim."""
    if not os.path.exists(golden.SDBSIM):
        pytest.skip("build/host/sdbsim not built (make)")
    dst = str(tmp_path_factory.mktemp("suite-rows"))
    _copy_tree(dst)
    table = os.path.join(dst, "bench", "workloads", "table.c")
    text = open(table).read()
    assert text.count(ANCHOR) == 1, "table.c's last row moved: update NEW_ROW's anchor"
    open(table, "w").write(text.replace(ANCHOR, NEW_ROW % suites + ANCHOR))
    p = subprocess.run(["make", "-j2", "build/host/sdbsim"], cwd=dst,
                       stdout=subprocess.PIPE, stderr=subprocess.STDOUT, timeout=600)
    assert p.returncode == 0, p.stdout.decode()[-3000:]
    return os.path.join(dst, "build", "host", "sdbsim")


@pytest.fixture(scope="module")
def sim_row_in_full(tmp_path_factory):
    return _tree_with_row(tmp_path_factory, "WL_SUITE_FULL")


OTHER = [c for c in golden.SIM_CASES if _suite(c[2]) != "full"]


@pytest.mark.parametrize("name,profile,lines", OTHER, ids=[c[0] for c in OTHER])
def test_other_suites_keep_their_baseline(sim_row_in_full, name, profile, lines, monkeypatch):
    monkeypatch.setattr(golden, "SDBSIM", sim_row_in_full)
    want = open(golden.sim_path(name)).read().splitlines()
    _, out = golden.run_sim(profile, lines)
    got = golden.records(out)
    assert got == want, "%s changed when a row was added to the full suite only" % name


def test_some_baseline_is_of_another_suite():
    assert OTHER, "no simulator baseline outside the full suite: the check above checks nothing"


def test_the_row_in_the_quick_suite_changes_its_baseline(tmp_path_factory, monkeypatch):
    """The check's counterpart: the same row in the quick suite runs (its
    sequential reads a second time, between "sustained" and "modes"), so
    the quick baseline differs and a table that ignored the suites column
    would fail the test above."""
    monkeypatch.setattr(golden, "SDBSIM", _tree_with_row(tmp_path_factory, "WL_SUITE_QUICK"))
    name, profile, lines = next(c for c in golden.SIM_CASES if _suite(c[2]) == "quick")
    want = open(golden.sim_path(name)).read().splitlines()
    _, out = golden.run_sim(profile, lines)
    got = golden.records(out)
    assert got != want
    reads = [json.loads(r) for r in got if '"seq-read-4k"' in r]
    assert sum(r["type"] == "result" for r in reads) == 2 * sum(
        '"type":"result"' in r and '"seq-read-4k"' in r for r in want)
