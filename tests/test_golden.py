"""Behaviour baselines (tests/golden/golden.py): a fixed run prints the same
records as the committed baseline. A refactoring must pass unchanged; a
deliberate change of behaviour regenerates the baseline (make golden) and
the diff is reviewed in the commit."""
import difflib
import json
import os
import sys

import pytest

sys.path.insert(0, os.path.join(os.path.dirname(__file__), "golden"))
import golden  # noqa: E402


def _diff(want, got, label):
    d = list(difflib.unified_diff(want, got, "baseline", "now", n=1, lineterm=""))
    return "%s differs from tests/golden (make golden regenerates it):\n%s" % (
        label, "\n".join(d[:60]))


@pytest.mark.parametrize("name,profile,lines", golden.SIM_CASES, ids=[c[0] for c in golden.SIM_CASES])
def test_sim_records_match_baseline(name, profile, lines):
    want = open(golden.sim_path(name)).read().splitlines()
    _, out = golden.run_sim(profile, lines)
    got = golden.records(out)
    assert got and json.loads(got[-1])["type"] == "done"
    assert got == want, _diff(want, got, name)


@pytest.mark.parametrize("name,machine,size,lines", golden.QEMU_CASES,
                         ids=[c[0] for c in golden.QEMU_CASES])
def test_qemu_records_match_baseline(name, machine, size, lines):
    want = open(golden.qemu_path(name)).read().splitlines()
    run = golden.run_qemu(machine, size, lines)
    got = [json.dumps(golden.normalise(r), sort_keys=True) for r in run.records]
    assert got == want, _diff(want, got, name)


def test_normalise_masks_measurements_and_keeps_structure():
    r = {"type": "result", "workload": "seq-read-4k", "mbs": 1.5, "xfer_bytes": 4096,
         "elapsed_ns": 123, "emulated": True}
    n = golden.normalise(r)
    assert n["mbs"] == "#" and n["elapsed_ns"] == "#"
    assert n["xfer_bytes"] == 4096 and n["workload"] == "seq-read-4k" and n["emulated"] is True
