"""The headline: the firmware's `headline` record (docs/records.md) in the
simulator's behaviour baselines, checked against the run's own result and
latency records; and sdbreport's headline, first in the text, with sample
counts, the single-operation mark and "no diagnosis" for a verdict the
firmware marks invalid."""
import io
import json
import os

import pytest

from sdbhost import headline, records, text

ROOT = os.path.abspath(os.path.join(os.path.dirname(__file__), ".."))
GOLDEN = os.path.join(ROOT, "tests", "golden", "sim")
QUICK_RUNS = ["c10-quick", "a2-quick", "slow-writer-quick", "sdsc-v1-quick", "c10-readonly"]


def golden(name):
    with open(os.path.join(GOLDEN, name + ".records"), encoding="utf-8") as f:
        return [json.loads(l) for l in f if l.strip()]


@pytest.mark.parametrize("name", QUICK_RUNS)
def test_firmware_headline_agrees_with_the_records(name):
    recs = golden(name)
    heads = [r for r in recs if r["type"] == "headline"]
    assert len(heads) == 1, name
    h = heads[0]
    res = {r["workload"]: r for r in recs if r["type"] == "result"}
    lat = {r["workload"]: r for r in recs if r["type"] == "latency"}
    ver = {r["workload"]: r for r in recs if r["type"] == "verdict"}
    contra = {r["workload"] for r in recs if r["type"] == "check" and
              r["verdict"] == "contradicted"}

    def limit(w):
        # a verdict a counterfactual check contradicted is no diagnosis
        # (bench/engine/confirm.c), as the summary says
        return "no diagnosis" if w in contra else ver[w]["bottleneck"]

    def median(w, iops=False):
        ns = lat[w]["p50_ns"]
        return 1e9 / ns if iops else res[w]["xfer_bytes"] / ns * 1e3

    summ = [r for r in recs if r["type"] == "summary"][-1]
    for op in ("read", "write"):
        part = h.get("seq_" + op)
        cands = [w for w in res if w.startswith("seq-%s-" % op)]
        if not cands:
            assert part is None
            continue
        # the figure is the workload's measured rate, the summary's best
        # (records round to 0.001 MB/s: a tie there is decided by the
        # firmware's unrounded figures, so any workload at the top will do)
        top = max(res[w]["mbs"] for w in cands)
        best = part["workload"]
        assert best == summ["seq_" + op]["workload"], (name, op)
        assert best in cands and res[best]["mbs"] >= top - 0.0011, (name, op, best)
        assert part["ops"] == res[best]["ops"]
        assert part["mbs"] == pytest.approx(res[best]["mbs"], abs=0.0015)
        assert part["p99_us"] == pytest.approx(lat[best]["p99_ns"] / 1e3, abs=0.06)
        assert part["median_mbs"] == pytest.approx(median(best), abs=0.0015)
        assert part["p90_mbs"] <= part["median_mbs"] <= part["fastest_mbs"] + 0.001
        assert part["limit"] == limit(best)
    for key, w in (("rand_read_4k", "rand-read-4k"), ("rand_write_4k", "rand-write-4k")):
        if w in res:
            assert h[key]["iops"] == pytest.approx(res[w]["iops"], abs=0.06)
            assert h[key]["median_iops"] == pytest.approx(median(w, True), abs=0.06)
            assert h[key]["ops"] == res[w]["ops"] and h[key]["limit"] == limit(w)
        else:
            assert key not in h
    # the verdict on the claims: the host's reading of the class and
    # test_area records gives the same claims and results
    run = records.read_text("\n".join("@ " + json.dumps(r) for r in recs), name).runs[-1]
    assert [(c["claim"], c["result"]) for c in h["claims"]] == \
        [(c.name, c.result) for c in headline.claims(run)], name
    assert h["text"].startswith(h["verdict"] + "; " + h["card"])
    assert h["simulated"] is True and h["counterfeit"] is False
    card = [r for r in recs if r["type"] == "card"][-1]
    assert h["card"].startswith("%s %s " % (card["cid"]["manufacturer"], card["cid"]["pnm"]))
    assert ("C%d" % card["ssr"]["speed_class"]) in h["card"] if card.get("ssr") and \
        card["ssr"]["speed_class"] else True
    # what would help: a line for each limit a valid figure found, none for others
    limits = {h[k]["limit"] for k in ("seq_read", "seq_write", "rand_read_4k",
                                      "rand_write_4k", "sustained") if k in h}
    helps = h["help"]
    assert any(x.startswith("another card") for x in helps) == ("card-bound" in limits)
    assert any(x.startswith(("DMA", "a faster host")) for x in helps) == \
        ("host-bound" in limits)
    assert any(x.startswith(("a faster bus", "a faster clock", "the 4-bit")) for x in helps) \
        == ("bus-bound" in limits), (name, helps, limits)
    # the record comes after the summary: the last thing a suite prints
    types = [r["type"] for r in recs]
    assert types.index("headline") > types.index("summary")


def _log(extra_verdict=None, ops=64):
    lines = [
        {"type": "board", "model": "Raspberry Pi 3 Model B"},
        {"type": "card", "width": 4, "timing": "HS", "clock_hz": 50000000,
         "capacity_bytes": 32 << 30, "uhs_card_modes": ["sdr25"], "uhs_host_modes": [],
         "cid": {"manufacturer": "SanDisk", "pnm": "SC32G"}, "ssr": {"speed_class": 10}},
        {"type": "host", "name": "emmc", "data_paths": ["pio", "dma"], "data_path": "pio"},
        {"type": "result", "workload": "seq-read-1m", "kind": "seq", "op": "read",
         "xfer_bytes": 1 << 20, "ops": 1, "mbs": 22.0},
        {"type": "latency", "workload": "seq-read-1m", "count": 1, "p50_ns": 47662545,
         "p90_ns": 47662545, "min_ns": 47662545},
        {"type": "verdict", "workload": "seq-read-1m", "bottleneck": "bus-bound"},
        {"type": "result", "workload": "rand-read-4k", "kind": "random", "op": "read",
         "xfer_bytes": 4096, "ops": ops, "iops": 2000.0},
        {"type": "latency", "workload": "rand-read-4k", "count": ops, "p50_ns": 400000,
         "p90_ns": 625000, "min_ns": 300000, "p99_ns": 900000},
        dict({"type": "verdict", "workload": "rand-read-4k", "bottleneck": "host-bound"},
             **(extra_verdict or {})),
        {"type": "done", "errors": 0},
    ]
    return records.read_text("\n".join("@ " + json.dumps(r) for r in lines), "h.log")


def test_sdbreport_headline_first_with_counts_and_marks():
    log = _log()
    out = io.StringIO()
    text.render_run(log.runs[0], out, log)
    lines = out.getvalue().splitlines()
    assert lines[0] == "HEADLINE"
    # the verdict on the claims first: no class check in this run
    assert lines[1] == "  claims: C10 not checked (the class check did not run)"
    assert lines[2] == "  card: SanDisk SC32G 32 GiB (-), claims class 10; runs 4-bit HS at 50 MHz"
    seq = [l for l in lines[:8] if "sequential read" in l][0]
    # one operation: used (nothing else), and marked
    assert "22.00 MB/s (p99 -, 1 operation only" in seq and "limited by the bus" in seq
    rnd = [l for l in lines[:8] if "random 4 KiB read" in l][0]
    # the workload's measured figure (result iops), not the median operation's
    assert "2000 IOPS (p99 900 us, 64 operations), limited by the host" in rnd
    helps = [l for l in lines[:10] if "would help" in l]
    assert any("UHS-I (sdr25)" in l for l in helps) and any("data_path = dma" in l for l in helps)


def test_invalid_verdict_gives_no_diagnosis():
    log = _log({"valid": False, "reason": "the operations overlap"})
    h = headline.headline(log.runs[0])
    rnd = [f for f in h["figures"] if f.workload == "rand-read-4k"][0]
    assert rnd.limit() == "no diagnosis (the operations overlap)"
    assert not any("DMA" in x for x in h["help"])      # no advice from an invalid verdict


def test_few_samples_are_marked_and_not_best():
    log = _log(ops=2)
    f = [f for f in headline.headline(log.runs[0])["figures"]
         if f.workload == "rand-read-4k"][0]
    assert "few samples" in f.text() and f.few


def test_qemu_headline_is_emulated_not_simulated():
    """The QEMU baseline's headline record: an emulated run, never marked as
    the host simulator's (the firmware's bench_env on a Pi or QEMU)."""
    path = os.path.join(ROOT, "tests", "golden", "qemu", "raspi2b-quick.json")
    with open(path, encoding="utf-8") as f:
        recs = [json.loads(l) for l in f if l.startswith("{")]
    heads = [r for r in recs if r["type"] == "headline"]
    assert len(heads) == 1
    assert heads[0]["emulated"] is True and heads[0]["simulated"] is False
    assert "SIMULATED" not in heads[0]["text"]
