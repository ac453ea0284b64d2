"""`sdbreport --predict` checked on the simulator: a card profile runs under
build/host/sdbsim at one bus setting, the prediction for another setting is
made from that run's records alone, the other setting runs, and every
workload's MB/s, IOPS and mean latency are compared (sim/simpredict.py:
the cases, CPU-paced and fast hosts, slow and fast cards, 1-bit and 4-bit).
Sequential and random 4 KiB workloads must be within 10% both ways (a row
the predictor flags as an upper bound too: beyond, it is a miss, at most
BOUND_MISSES per case); the others are printed. The command line's own checks need no simulator."""
import json
import os
import subprocess
import sys

import pytest

sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", "sim"))
sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", "tools"))
import simpredict  # noqa: E402

CASES = simpredict.CASES
# Checked rows flagged as upper bounds and more than 10% off (a row is right
# only within 10% both ways, upper bound or not), per case: what the code
# met when set. A Pi 1 predicting a Pi 2: the large sequential reads, whose
# card delays hid behind the Pi 1's CPU, are predicted 11-12% too fast
# (docs/prediction.md). Every other case: none.
BOUND_MISSES = {"pi1->pi2/sdhc-c10-16g 50M": 7}


@pytest.mark.parametrize("case", CASES, ids=[c.id for c in CASES])
def test_prediction_against_the_run(case, tmp_path):
    # one test per case, no shared fixture: under pytest-xdist (make test)
    # the cases spread over the workers and each runs once
    if not os.path.exists(simpredict.SDBSIM) or not os.path.exists(simpredict.SDBREPORT):
        pytest.skip("build/host/sdbsim not built: run make first")
    silent = []
    clock, width, notes, rows = simpredict.do_case(case, str(tmp_path), silent=silent)
    if case.width4:
        assert width == 4
    for n in notes:
        print("note:", n)
    names = {r["workload"] for r in rows}
    # the quick suite's sequential sizes and the random 4 KiB workloads are all
    # there: predicted, or left without a prediction because the firmware gave
    # them no diagnosis (right or silent: the predictor rests on the split)
    assert {"seq-read-4k", "seq-write-4k", "rand-read-4k", "rand-write-4k",
            "seq-read-1m", "seq-write-1m"} <= names | set(silent)
    bad, bad_bound = [], []
    for r in rows:
        e = simpredict.worst(r)
        line = "%-22s %-10s %-9s %8.3f MB/s -> predicted %8.3f, ran %8.3f: MB/s %+.1f%% " \
               "IOPS %+.1f%% latency %+.1f%%" % (
                   r["workload"], r["method"], r["pace"], r["mbs"], r["p_mbs"], r["a_mbs"],
                   r["err_mbs"], r["err_iops"], r["err_lat"])
        if r["bound"]:
            line += " (upper bound)"
        print(("   " if e <= simpredict.TOL_PCT else "!! ") + line)
        if r["checked"] and not e <= simpredict.TOL_PCT:   # NaN fails too
            (bad_bound if r["bound"] else bad).append(line)
    checked = [r for r in rows if r["checked"]]
    # 19 on the Pi 1 case once the arrivals' bound left 17 of its workloads
    # without a diagnosis (and so without a prediction); 20 and more elsewhere
    # but on test-gaps: no authority bounds its controller's idle clocks, so
    # its reads whose clock-paced wait may be them have none (8 checked)
    assert len(checked) >= (8 if case.host == "test-gaps" else 15)
    # never above what the wires carry: clock x width bits, before framing
    for r in rows:
        assert r["p_mbs"] <= clock * width / 8 / 1e6, r
    if case.to_host == "pi2":
        # CPU-paced Pi 1 to a bus-paced Pi 2: the large sequential reads are
        # the upper bounds the predictor must say they are
        assert any(r["bound"] for r in rows if r["workload"] == "seq-read-1m")
    elif any(r["bound"] for r in rows):
        assert any("upper bounds" in n for n in notes)
    nb, nb_ok = simpredict.bound_rows([r for r in rows if r["checked"]])
    print("%s: %d checked rows, %d within %.0f%% both ways; upper bounds %d, %d of them within"
          " %.0f%%" % (case.id, len(checked), len(checked) - len(bad) - len(bad_bound),
                       simpredict.TOL_PCT, nb, nb_ok, simpredict.TOL_PCT))
    assert not bad, "%s at %.0f Hz %d-bit, beyond %.0f%%:\n%s" % (
        case.id, clock, width, simpredict.TOL_PCT, "\n".join(bad))
    # an upper bound is right only within 10% both ways too: the ones
    # beyond are misses, at most as many as the code had when this was set
    assert len(bad_bound) <= BOUND_MISSES.get(case.id, 0), \
        "%s at %.0f Hz %d-bit, upper bounds beyond %.0f%% (at most %d):\n%s" % (
            case.id, clock, width, simpredict.TOL_PCT, BOUND_MISSES.get(case.id, 0),
            "\n".join(bad_bound))


def test_predict_command_line(tmp_path):
    sdbreport = [sys.executable, os.path.join(simpredict.ROOT, "tools", "sdbreport.py")]
    log = os.path.join(simpredict.ROOT, "tests", "data", "qemu-raspi2b-quick.log")
    p = subprocess.run(sdbreport + ["--clock", "50M", log], stdout=subprocess.PIPE,
                       stderr=subprocess.PIPE)
    assert p.returncode == 2 and b"go with --predict" in p.stderr
    p = subprocess.run(sdbreport + ["--predict", "--clock", "fast", log],
                       stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    assert p.returncode == 2 and b"not a frequency" in p.stderr
    p = subprocess.run(sdbreport + ["--predict", "--clock", "300M", log],
                       stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    assert p.returncode == 2 and b"outside 100 kHz" in p.stderr
    p = subprocess.run(sdbreport + ["-q", "--predict", "--clock", "50M", "--width", "4", log],
                       stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    assert p.returncode in (0, 1)
    out = p.stdout.decode()
    assert "Prediction: " in out and "-> 50 MHz 4-bit" in out
    assert "note: emulated run" in out
    row = next(l for l in out.splitlines() if l.split()[:1] == ["seq-read-4k"])
    assert len(row.split()) >= 7 and float(row.split()[2]) > 0


def test_predict_in_the_html_report(tmp_path):
    pytest.importorskip("matplotlib")
    sdbreport = [sys.executable, os.path.join(simpredict.ROOT, "tools", "sdbreport.py")]
    log = os.path.join(simpredict.ROOT, "tests", "data", "qemu-raspi2b-quick.log")
    page = tmp_path / "r.html"
    p = subprocess.run(sdbreport + ["-q", "--predict", "--width", "1", "--html", str(page), log],
                       stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    assert p.returncode in (0, 1), p.stderr.decode()
    html = page.read_text()
    sec = html[html.index('<section id="prediction">'):]
    sec = sec[:sec.index("</section>")]
    assert "predicted at" in sec and "1-bit" in sec and "<td>rand-read-4k</td>" in sec
    # without --predict the section is absent
    p = subprocess.run(sdbreport + ["-q", "--html", str(page), log], stdout=subprocess.PIPE,
                       stderr=subprocess.PIPE)
    assert 'id="prediction"' not in page.read_text()


def _log_with(tmp_path, edit):
    """The committed emulated log with one change made by edit(records)."""
    src = os.path.join(simpredict.ROOT, "tests", "data", "qemu-raspi2b-quick.log")
    out = []
    recs = []
    for line in open(src, encoding="utf-8", errors="replace"):
        if line.startswith("@ "):
            recs.append(json.loads(line[2:]))
    edit(recs)
    for r in recs:
        out.append("@ " + json.dumps(r))
    path = tmp_path / "edited.log"
    path.write_text("\n".join(out) + "\n")
    return str(path)


def _sdbreport(*args):
    cmd = [sys.executable, os.path.join(simpredict.ROOT, "tools", "sdbreport.py"), "-q"]
    return subprocess.run(cmd + list(args), stdout=subprocess.PIPE, stderr=subprocess.PIPE)


def test_predict_refuses_an_emulated_run_whose_model_does_not_hold(tmp_path):
    # the firmware said so: one workload's phases "valid": false
    def invalid(recs):
        ph = next(r for r in recs if r["type"] == "phases" and r["workload"] == "seq-read-64k")
        ph.update(valid=False, why="the DMA transfer ended inside the CPU's own work",
                  invalid=["dma_inside_register_write"])
    p = _sdbreport("--predict", "--clock", "50M", _log_with(tmp_path, invalid))
    err = p.stderr.decode()
    assert p.returncode == 2 and "no prediction from" in err and "emulated run" in err, err
    assert "seq-read-64k: the DMA transfer ended inside the CPU's own work" in err, err
    assert b"Prediction:" not in p.stdout

    # a log from before the check: a rate the bus cannot carry at its own clock
    def too_fast(recs):
        res = next(r for r in recs if r["type"] == "result" and r["workload"] == "seq-read-64k")
        res["mbs"] = 27.5   # 26 MHz 4-bit carries 12.7 MB/s at most
    p = _sdbreport("--predict", "--clock", "50M", _log_with(tmp_path, too_fast))
    err = p.stderr.decode()
    assert p.returncode == 2 and "above the" in err and "26 MHz 4-bit" in err, err


def test_predict_leaves_out_a_workload_of_a_card_run_whose_model_does_not_hold(tmp_path):
    def card_run(recs):
        for r in recs:
            if "emulated" in r:
                r["emulated"] = False
            if r["type"] == "board":
                r["mac"], r["serial"] = "b8:27:eb:00:00:01", "0x00000000deadbeef"
        ph = next(r for r in recs if r["type"] == "phases" and r["workload"] == "seq-read-64k")
        ph.update(valid=False, why="the phases do not add up", invalid=["phases_do_not_add_up"])
    p = _sdbreport("--json", "--predict", "--clock", "50M", _log_with(tmp_path, card_run))
    assert p.returncode in (0, 1), p.stderr.decode()
    pred = json.loads(p.stdout.decode())["prediction"]
    rows = {w["workload"]: w for w in pred["workloads"]}
    assert rows["seq-read-64k"]["p_mbs"] is None
    assert rows["seq-read-64k"]["note"] == "no prediction: the phases do not add up"
    assert rows["seq-read-4k"]["p_mbs"] > 0
    assert any("1 workload(s) without a prediction" in n for n in pred["notes"])


def test_predict_never_goes_above_the_target_bus_ceiling():
    # the reference table of docs/attribution.md (its rows in tests/unit/test_busmodel.c):
    # 64 KiB multi-block reads at HS 50 MHz 4-bit carry 24.5020 MB/s at most
    from sdbhost.predict import Row, _cap
    row = Row("seq-read-64k", "seq", "read", 65536)
    row.p_mbs, row.p_iops, row.p_mean_ns = 42.0, 42.0e6 / 65536, 65536 / 42.0 * 1e3
    assert _cap(row, {"xfer_bytes": 65536, "op": "read"}, (50e6, 4, False, 1.0)) == 1
    assert row.capped and abs(row.p_mbs - 24.5020) < 0.0005, row.p_mbs
    assert abs(row.p_iops - 24.5020e6 / 65536) < 0.01
    assert row.p_mean_ns >= 65536 / 24.5020 * 1e3 - 1
    assert "at the bus ceiling (model 42.000)" in row.note
    # a prediction under the ceiling is left as it is
    row = Row("seq-read-64k", "seq", "read", 65536)
    row.p_mbs = 20.0
    assert _cap(row, {"xfer_bytes": 65536, "op": "read"}, (50e6, 4, False, 1.0)) == 0
    assert row.p_mbs == 20.0 and not row.capped
