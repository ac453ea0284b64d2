"""Runs every host test program (build/host/tests/test_*: unit tests and the
simulator suite, built by `make`) and fails if any of them fails."""
import glob
import os
import subprocess

import pytest

ROOT = os.path.abspath(os.path.join(os.path.dirname(__file__), ".."))
BINS = sorted(glob.glob(os.path.join(ROOT, "build", "host", "tests", "test_*")))


def test_host_test_programs_were_built():
    assert BINS, "no host test programs in build/host/tests: run make first"


@pytest.mark.parametrize("binary", BINS, ids=[os.path.basename(b) for b in BINS])
def test_host_program(binary):
    p = subprocess.run([binary], stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                       timeout=900)
    out = p.stdout.decode("utf-8", "replace")
    last = [l for l in out.splitlines() if l.strip()][-1:] or [""]
    assert p.returncode == 0, out[-4000:]
    assert last[0].endswith(" 0 failed"), out[-4000:]
