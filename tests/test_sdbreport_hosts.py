"""The host comparison (`hosts` record) in every output of sdbreport: the
text report's table, the HTML report's chart and table, one CSV row per
configuration and workload. From tests/data/sim-sdhost-hosts.log (the
simulator through SDHOST by PIO and by DMA, tests/data/regen.sh)."""
import csv
import json
import os
import subprocess

ROOT = os.path.abspath(os.path.join(os.path.dirname(__file__), ".."))
TOOL = os.path.join(ROOT, "tools", "sdbreport.py")
LOG = os.path.join(ROOT, "tests", "data", "sim-sdhost-hosts.log")


def hosts_rows():
    for line in open(LOG, encoding="utf-8"):
        if line.startswith('@ {"type":"hosts"'):
            return json.loads(line[2:])["rows"]
    raise AssertionError("no hosts record in " + LOG)


def sdbreport(*args):
    p = subprocess.run(["/usr/bin/python3", TOOL, "-q"] + [str(a) for a in args],
                       stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, timeout=300)
    assert p.returncode == 0, p.stderr
    return p.stdout


def test_hosts_in_text():
    out = sdbreport(LOG)
    assert "\nhost comparison" in out
    table = out.split("\nhost comparison", 1)[1]
    for r in hosts_rows():
        line = [l for l in table.splitlines()
                if l.split()[:4] == [r["host"], r["data_path"], r["bus_mode"], r["workload"]]]
        assert len(line) == 1, (r, table)
        assert "%.3f" % r["mbs"] in line[0] and "%.1f%%" % r["host_pct"] in line[0]
        assert ("%.0f" % r["cpu_ns_per_block"]) in line[0].split()
        assert ("fastest" in line[0]) == r["best"]
    assert "CPU ns/blk = " in table and "host% = " in table


def test_hosts_in_csv(tmp_path):
    sdbreport("--csv", tmp_path, LOG)
    with open(tmp_path / "hosts.csv", newline="") as f:
        got = list(csv.DictReader(f))
    rows = hosts_rows()
    assert len(got) == len(rows) == 8
    for g, r in zip(got, rows):
        for k in ("host", "data_path", "workload", "bus_mode"):
            assert g[k] == r[k]
        assert float(g["mbs"]) == r["mbs"] and float(g["cpu_ns_per_block"]) == r["cpu_ns_per_block"]
        assert g["best"] == ("true" if r["best"] else "false")


def test_hosts_in_html(tmp_path):
    import sys
    sys.path.insert(0, os.path.join(ROOT, "tools"))
    from sdbhost import html, records
    log = records.read_log(LOG)
    page, rep = html.render([log.runs[-1]], ["a"], [log])
    assert "hosts" in rep.present
    chart = [c for c in rep.charts if c.name == "hosts"]
    assert len(chart) == 1 and chart[0].series == ["sdhost pio hs", "sdhost dma hs"]
    sec = page.split('<section id="hosts">', 1)[1].split("</section>", 1)[0]
    assert 'id="chart-hosts"' in sec and "host% (bars" in "".join(
        t.get_text() for ax in chart[0].fig.axes if ax.get_legend()
        for t in ax.get_legend().get_texts())
    for r in hosts_rows():
        assert "<td class=\"n\">%.3f</td>" % r["mbs"] in sec


def _overlap(a, b):
    return a.x0 < b.x1 and b.x0 < a.x1 and a.y0 < b.y1 and b.y0 < a.y1


def test_hosts_chart_legends_cover_no_bar():
    """The host comparison chart's legends (configurations; host% and CPU
    time) lie outside every bar and dot, on the simulator's log and on a
    make run log with four configurations."""
    import sys
    sys.path.insert(0, os.path.join(ROOT, "tools"))
    from matplotlib.backends.backend_agg import FigureCanvasAgg
    from sdbhost import charts
    for path in (LOG, os.path.join(ROOT, "tests", "data", "qemu-raspi2b-run.log")):
        rec = [json.loads(l[2:]) for l in open(path, encoding="utf-8")
               if l.startswith('@ {"type":"hosts"')][-1]
        fig = charts.host_comparison(rec, "hosts", "hosts", False).fig
        r = FigureCanvasAgg(fig).get_renderer()
        fig.draw(r)
        legends = [ax.get_legend() for ax in fig.axes if ax.get_legend()]
        assert len(legends) == 2, path
        marks = [p.get_window_extent(r) for ax in fig.axes for p in ax.patches] + \
            [l.get_window_extent(r) for ax in fig.axes for l in ax.lines]
        assert len(marks) >= len(rec["rows"])
        for lg in legends:
            box = lg.get_window_extent(r)
            hit = [m for m in marks if _overlap(box, m)]
            assert not hit, (path, box, hit[:3])
            # and on the figure, whole
            assert box.x0 >= 0 and box.y0 >= 0 and box.x1 <= fig.bbox.x1 and \
                box.y1 <= fig.bbox.y1, (path, box, fig.bbox)
