"""The reports keep the firmware's judgement: a host-comparison row the
firmware marks "valid": false says "no diagnosis" with its reason and is
left out of the chart's host-share and CPU means; a workload whose split
is invalid gets no card / bus / host shares, no split bar and no bus
efficiency; a sweep fit whose bus part b is not above 0 is "no fit";
--predict for a bus mode neither the card nor the host offers says so."""
import json

from sdbhost import charts as C
from sdbhost import details, hosts, model, records, text
from sdbhost import predict as P


def _run(recs):
    return records.read_text("\n".join("@ " + json.dumps(r) for r in recs), "t.log").runs[-1]


HOSTS = {"type": "hosts", "emulated": True, "rows": [
    {"host": "emmc", "data_path": "pio", "workload": "seq-read-64k", "bus_mode": "hs",
     "ops": 16, "mbs": 10.0, "iops": 150.0, "p99_ns": 1000000, "host_pct": 40.0,
     "cpu_ns_per_block": 900, "best": False, "valid": True},
    {"host": "emmc", "data_path": "dma", "workload": "seq-read-64k", "bus_mode": "hs",
     "ops": 16, "mbs": 12.0, "iops": 180.0, "p99_ns": 900000, "host_pct": 95.0,
     "cpu_ns_per_block": 5000, "best": True, "valid": False,
     "why": "QEMU copies inside the start register write"},
    {"host": "emmc", "data_path": "dma", "workload": "rand-read-4k", "bus_mode": "hs",
     "ops": 16, "mbs": 2.0, "iops": 500.0, "p99_ns": 900000, "host_pct": 5.0,
     "cpu_ns_per_block": 10, "best": True, "valid": True},
]}


def test_host_comparison_marks_invalid_rows():
    t = hosts.table(HOSTS)
    bad = t[1]
    assert bad[-1] == "fastest; no diagnosis: QEMU copies inside the start register write"
    assert bad[7] == bad[8] == "-"          # no host% or CPU ns/blk
    assert bad[4] == "12.000"               # the throughput is still measured
    assert t[0][-1] == "" and t[0][7] != "-"
    lines = text.hosts_lines(HOSTS)
    assert any("no diagnosis: QEMU copies" in l for l in lines)


def test_host_comparison_means_leave_invalid_rows_out():
    cfgs = hosts.configs(HOSTS)
    share, cpu = hosts.config_means(hosts.rows(HOSTS), cfgs)
    assert cfgs == ["emmc pio hs", "emmc dma hs"]
    assert share == [40.0, 5.0] and cpu == [900, 10]      # not (95 + 5) / 2
    only_bad = {"type": "hosts", "rows": [HOSTS["rows"][1]]}
    assert hosts.config_means(hosts.rows(only_bad), ["emmc dma hs"]) == ([None], [None])
    assert C.host_comparison(only_bad, "h", "t", True) is not None   # still drawn, marked


PH = {"type": "phases", "workload": "seq-read-64k", "ops": 10, "total_ns": 10000000,
      "cmd_ns": 100000, "access_ns": 200000, "data_ns": 9000000, "host_ns": 100000,
      "busy_ns": 0, "gap_ns": 600000, "card_pct": 10.0, "bus_pct": 150.0, "host_pct": 5.0,
      "bus_efficiency_pct": 167.0}


def _split_run(valid):
    ph = dict(PH, valid=valid, **({} if valid else {"why": "the bus would be 150%"}))
    return _run([{"type": "board", "model": "x"},
                 {"type": "result", "workload": "seq-read-64k", "kind": "seq", "op": "read",
                  "xfer_bytes": 65536, "ops": 10, "mbs": 5.0}, ph,
                 {"type": "verdict", "workload": "seq-read-64k", "bottleneck": "bus-bound",
                  "valid": valid}, {"type": "done", "errors": 0}])


def test_no_split_or_efficiency_for_no_diagnosis():
    head, rows = details.workload_detail_table(_split_run(False))
    assert rows[0][1] == "no diagnosis: the bus would be 150%" and rows[0][2] == "-"
    head, rows = details.workload_detail_table(_split_run(True))
    assert rows[0][1] == "10/150/5" and rows[0][2] == "167"


def test_where_the_time_goes_draws_no_split_bar_for_no_diagnosis():
    def split_widths(run):
        ch = C.phase_bars([("A", run)], ["seq-read-64k"], "p", "t")
        ax2 = ch.fig.axes[1]
        return [p.get_width() for p in ax2.patches]
    assert sum(split_widths(_split_run(True))) > 0
    assert sum(split_widths(_split_run(False))) == 0


def _sweep_run(b):
    return _run([{"type": "board", "model": "x"},
                 {"type": "sweep", "op": "read", "width": 4, "clock_hz": 25000000, "mbs": 5.0},
                 {"type": "sweep", "op": "read", "width": 4, "fit": "T = a + b/f", "points": 4,
                  "a_ns": 900000, "b_clocks": b, "model_bus_clocks": 133736, "r2": 0.3,
                  "rms_residual_ns": 1000, "fmax_hz": 50000000,
                  "bus_share_at_fmax_pct": -1.2}, {"type": "done", "errors": 0}])


def test_negative_sweep_fit_is_no_fit():
    lines = text.sweep_lines(_sweep_run(-573))
    fit = [l for l in lines if "fit read" in l][0]
    assert "no fit" in fit and "-573 clocks / f" not in fit
    assert model.fit_holds({"b_clocks": 134000}) and not model.fit_holds({"b_clocks": -573})
    assert not model.fit_holds({"b_clocks": 134000, "fit_holds": False})
    ok = [l for l in text.sweep_lines(_sweep_run(134000)) if "fit read" in l][0]
    assert "134,000 clocks / f" in ok or "134000 clocks / f" in ok


def _pred_run():
    return _run([{"type": "board", "model": "x"},
                 {"type": "host", "name": "emmc", "modes": ["ds", "hs"]},
                 {"type": "card", "host": "emmc", "width": 4, "timing": "HS",
                  "clock_hz": 50000000, "max_clock_hz": 50000000, "hs_supported": True,
                  "uhs_card_modes": ["sdr12", "sdr25"], "uhs_host_modes": []},
                 {"type": "result", "workload": "seq-read-64k", "kind": "seq", "op": "read",
                  "xfer_bytes": 65536, "ops": 10, "mbs": 20.0, "clock_hz": 50000000,
                  "width": 4},
                 {"type": "done", "errors": 0}])


def test_predict_notes_a_mode_neither_side_offers():
    run = _pred_run()
    p = P.predict(run, P.Target(bus_mode="sdr104"))
    assert p.notes and p.notes[0].startswith("bus_mode sdr104 is not on offer: the card "
                                             "offers sdr12, sdr25; the host offers ds, hs")
    p = P.predict(run, P.Target(bus_mode="hs"))
    assert not any("not on offer" in n for n in p.notes)
