"""sdbreport's HTML report, charts and CSV on the committed logs of real
QEMU runs (tests/data): one self-contained file, every section present and
marked as emulated, every chart holding the series of the records, the
report opened in Debian's chromium (headless) with every image decoded,
and the CSV columns as documented."""
import base64
import copy
import csv
import os
import re
import struct
import subprocess

import pytest

import report_browser
from sdbhost import charts as C
from sdbhost import html, model, records

ROOT = os.path.abspath(os.path.join(os.path.dirname(__file__), ".."))
DATA = os.path.join(ROOT, "tests", "data")
TOOL = os.path.join(ROOT, "build", "host", "sdbreport")
QUICK = os.path.join(DATA, "qemu-raspi2b-quick.log")
QUICK4G = os.path.join(DATA, "qemu-raspi0-quick-4g.log")
SELFTEST = os.path.join(DATA, "qemu-raspi2b-selftest.log")
OUT = os.path.join(ROOT, "build", "test-report")

SUITE_SECTIONS = ["overview", "summary", "registers", "sequential", "random", "latency",
                  "series", "phases", "sweep", "class", "au", "open-au", "erase", "sustained",
                  "integrity", "details", "problems"]
IMG = re.compile(r'<img alt="([^"]*)" src="data:image/png;base64,([A-Za-z0-9+/=]+)">')


def run_of(path):
    return records.read_log(path).runs[-1]


def png_size(data):
    assert data[:8] == b"\x89PNG\r\n\x1a\n" and data[12:16] == b"IHDR"
    return struct.unpack(">II", data[16:24])


@pytest.fixture(scope="module")
def report():
    """The HTML report of the quick-suite log, written by the installed tool."""
    os.makedirs(OUT, exist_ok=True)
    path = os.path.join(OUT, "quick.html")
    p = subprocess.run([TOOL, "--html", path, QUICK], stdout=subprocess.PIPE,
                       stderr=subprocess.PIPE, text=True, timeout=300)
    assert p.returncode == 0, p.stderr
    with open(path, encoding="utf-8") as f:
        return path, f.read(), p.stderr


def test_html_is_one_self_contained_file(report):
    path, page, err = report
    n = int(re.search(r"(\d+) charts", err).group(1))
    imgs = IMG.findall(page)
    assert len(imgs) == n == page.count("<img ") >= 25
    for alt, b64 in imgs:
        w, h = png_size(base64.b64decode(b64))
        assert w >= 300 and h >= 150, alt
    # nothing is fetched: no URL, script, stylesheet link or font
    assert not re.search(r"https?://|<script|<link|@import|url\(|<iframe|<object", page)
    assert "Content-Security-Policy" in page and "default-src 'none'" in page
    assert re.findall(r'src="([^"]{0,22})', page) == ["data:image/png;base64,"] * n


def test_html_sections_and_emulated_marks(report):
    _, page, _ = report
    ids = re.findall(r'<section id="([^"]+)"><h2>([^<]*)(<span class="emu">emulated run'
                     r'</span>)?</h2>', page)
    assert [i for i, _, _ in ids] == SUITE_SECTIONS
    assert all(mark for _, _, mark in ids), "a section without the emulated mark"
    assert 'id="emulated"' in page and "EMULATED RUN (QEMU)" in page
    # every chart carries the mark in its picture: the alt text cannot show
    # it, so check the figures of one chart directly
    run = run_of(QUICK)
    fig = C.seq_throughput([("q", run)]).fig
    assert any(t.get_text() == C.EMULATED_MARK for t in fig.texts)


def test_html_holds_the_records(report):
    _, page, _ = report
    run = run_of(QUICK)
    s = run.one("summary")
    assert "%.3f MB/s at %s" % (s["seq_read"]["mbs"], "1 MiB") in page or \
        "%.3f MB/s" % s["seq_read"]["mbs"] in page
    for name in run.result_workloads():
        r = run.workloads[name]["result"]
        assert re.search(r"<td>%s</td>.*?<td class=\"n\">%.3f</td>" % (re.escape(name), r["mbs"]),
                         page), name
    c = run.one("class")
    assert html.esc(c["app_text"]) in page and html.esc(c["speed_text"]) in page
    assert html.esc(run.one("au")["text"]) in page
    b = run.one("board")
    assert b["model"] in page and b["revision"] in page
    cid = run.one("card")["cid"]
    assert cid["raw"][:31] in page and cid["pnm"] in page
    for i in run.all("integrity"):
        assert "<td>%s</td><td class=\"n\">%d</td>" % (i["workload"], i["blocks"]) in page
    for chart in ("seq-throughput", "seq-latency", "random-rates", "variant-rates", "sweep",
                  "au", "open-au", "sustained"):
        assert 'id="chart-%s"' % chart in page, chart
    for group in ("seq-read", "seq-write", "random", "variant", "checks"):
        for kind in ("cdf", "hist", "series", "phases"):
            assert 'id="chart-%s-%s"' % (kind, group) in page, (kind, group)


def test_html_in_chromium(report):
    """Debian's chromium loads the report from disk: every image decodes,
    every section is there, the banner says emulated, nothing is fetched,
    the headline comes first; the screenshot is kept in build/test-report/ (docs/report-screenshot.png
    comes from `make screenshot`)."""
    if not report_browser.find_chromium():
        pytest.fail("chromium is missing: tools/install-deps.sh installs it")
    path, page, _ = report
    info = report_browser.check_page(path)
    assert info["images"] == page.count("<img ") and info["decoded"] == info["images"], \
        info["broken"]
    assert info["sections"] == SUITE_SECTIONS and info["marked"] == SUITE_SECTIONS
    assert info["banner"].startswith("EMULATED RUN (QEMU)")
    assert info["resources"] == []
    # the headline is what a reader sees first: on the first screen, above
    # every section, saying what the card is and what limits it
    h = info["headline"]
    assert h and h["top"] < 200 and h["bottom"] < 900, h
    assert h["bottom"] <= h["first_section_top"], h
    assert "card: QEMU!" in h["text"] and "limited by" in h["text"] and "p99" in h["text"]
    assert h["text"].lstrip().startswith("Headline") and "claims:" in h["text"]
    shot = os.path.join(OUT, "screenshot.png")
    if os.path.exists(shot):
        os.unlink(shot)
    report_browser.screenshot(path, shot, 1000, 1200)
    import matplotlib.image
    pix = matplotlib.image.imread(shot)
    assert pix.shape[:2] == (1200, 1000)
    # the banner's pale red at the top, and a page that is not blank
    r, g, b = pix[8, 500][:3]
    assert r > 0.9 and g < 0.95 and b < 0.95, (r, g, b)
    assert pix.std() > 0.05


def test_browser_check_sees_a_broken_image(report, tmp_path):
    """The browser check itself can fail: one image spoiled, one reported."""
    if not report_browser.find_chromium():
        pytest.fail("chromium is missing: tools/install-deps.sh installs it")
    _, page, _ = report
    alt, b64 = IMG.search(page).groups()
    spoiled = base64.b64encode(b"\x89PNG\r\n\x1a\nnot a png").decode()
    bad = tmp_path / "bad.html"
    bad.write_text('<!DOCTYPE html><html><head><meta charset="utf-8"></head><body>'
                   '<section id="a"><img alt="good" src="data:image/png;base64,%s"></section>'
                   '<section id="b"><img alt="spoiled" src="data:image/png;base64,%s"></section>'
                   '</body></html>' % (b64, spoiled))
    info = report_browser.check_page(str(bad))
    assert info["images"] == 2 and info["decoded"] == 1 and info["broken"] == ["spoiled"]
    assert info["sections"] == ["a", "b"] and info["marked"] == []


# --- charts hold the series of the records ------------------------------------

def test_seq_and_latency_charts():
    run = run_of(QUICK)
    ch = C.seq_throughput([("q", run)])
    for ax, op in zip(ch.fig.axes, ("read", "write")):
        line, ceiling = ax.get_lines()
        pts = model.seq_curve(run, op)
        # the bus ceiling at each transfer size, rising with the size
        assert ceiling.get_label() == "bus ceiling" and ceiling.get_linestyle() == "--"
        cy = list(ceiling.get_ydata())
        assert list(ceiling.get_xdata()) == [p[0] for p in pts] and min(cy) > 0
        assert cy[1:] == sorted(cy[1:]), cy
        assert list(line.get_xdata()) == [p[0] for p in pts] and len(pts) == 14
        assert list(line.get_ydata()) == [p[1] for p in pts]
        assert line.get_label() == "seq-" + op
    ch = C.seq_latency([("q", run)])
    p99 = [l for l in ch.fig.axes[0].get_lines() if l.get_label() == "read p99"][0]
    assert list(p99.get_ydata()) == [run.workloads[p[3]]["latency"]["p99_ns"] / 1000.0
                                     for p in model.seq_curve(run, "read")]


def test_cdf_and_histogram_charts():
    run = run_of(QUICK)
    names = ["rand-read-4k", "rand-write-4k", "mix70-4k"]
    ch = C.latency_cdf([("q", run)], names, "cdf", "t")
    steps = [l for l in ch.fig.axes[0].get_lines() if l.get_label() in names]
    assert [l.get_label() for l in steps] == names
    for l in steps:
        h = run.workloads[l.get_label()]["histogram"]
        ys = list(l.get_ydata())
        assert ys[-1] == pytest.approx(1.0) and ys == sorted(ys)
        assert list(l.get_xdata())[1:] == pytest.approx([x * 2 ** 0.25 / 1000 for x in h["lo_ns"]])
    ch = C.latency_histograms([("q", run)], names, "hist", "t")
    bars = ch.fig.axes[0].patches
    assert len(bars) == sum(len(run.workloads[n]["histogram"]["count"]) for n in names)
    assert ch.series == names


def test_series_chart_marks_stalls():
    run = copy.deepcopy(run_of(QUICK))
    names = [n for n in run.result_workloads() if "series" in run.workloads[n]]
    assert len(names) >= 40 and len(run.all("series")) == len(names)
    a, b = names[0], names[1]
    ser = run.workloads[a]["series"]
    assert len(ser["mbs"]) >= 4
    ser["worst_ns"] = [1000000] * len(ser["worst_ns"])
    ser["worst_ns"][2] = 9000000                         # one stall, 9x the median
    ch = C.time_series([("q", run)], [a, b], "s", "t")
    assert ch.series == [a, b] and ch.stalls >= 1
    marks = [l for l in ch.fig.axes[0].get_lines() if l.get_marker() == "v"]
    assert len(marks) == 1 and list(marks[0].get_xdata()) == [3 * ser["interval_ns"] / 1e9]
    assert list(ch.fig.axes[0].get_lines()[0].get_ydata()) == ser["mbs"]
    # every series of the group is drawn, one axes each
    ch = C.time_series([("q", run)], names, "s", "t")
    drawn = [ax for ax in ch.fig.axes if ax.get_visible()]
    assert [ax.get_title() for ax in drawn] == names
    for ax, n in zip(drawn, names):
        assert list(ax.get_lines()[0].get_ydata()) == run.workloads[n]["series"]["mbs"]


def test_phase_chart():
    run = run_of(QUICK)
    key, _, names = model.groups(run)[2]
    assert key == "random"
    ch = C.phase_bars([("q", run)], names, "p", "t")
    ax, ax2 = ch.fig.axes
    per_bar = {}
    for patch in ax.patches:
        y = round(patch.get_y(), 3)
        per_bar[y] = per_bar.get(y, 0) + patch.get_width()
    assert len(per_bar) == len(names) and all(v == pytest.approx(100.0) for v in per_bar.values())
    split = {}
    for patch in ax2.patches:
        split.setdefault(round(patch.get_y(), 3), []).append(patch.get_width())
    ph = run.workloads[names[0]]["phases"]
    assert split[min(split)] == [ph["card_pct"], ph["bus_pct"], ph["host_pct"]]


def test_sweep_au_open_au_sustained_charts():
    run = run_of(QUICK)
    ch = C.sweep([("q", run)])
    pts, fits = model.sweep_points(run)
    assert len(ch.series) == 4
    ax, ax2 = ch.fig.axes
    first = [l for l in ax.get_lines() if l.get_label() == "read 1-bit"][0]
    assert list(first.get_xdata()) == [p[0] / 1e6 for p in pts[("read", 1)]]
    f = fits[("read", 1)]
    fitline = [l for l in ax2.get_lines() if l.get_linestyle() == "-"][0]
    x0, x1 = fitline.get_xdata()
    assert fitline.get_ydata()[0] == pytest.approx((f["a_ns"] + f["b_clocks"] * x0 * 1e3) / 1e6)
    a = run.one("au")
    ch = C.au_alignment([("q", run)])
    pen = ch.fig.axes[1].get_lines()[0]
    assert list(pen.get_ydata()) == pytest.approx(
        [(o - (p + q) / 2) / 1000 for p, o, q in zip(a["pre_ns"], a["on_ns"], a["post_ns"])])
    o = run.one("open_au")
    line = C.open_au([("q", run)]).fig.axes[0].get_lines()[0]
    assert list(line.get_xdata()) == o["n"] and list(line.get_ydata()) == o["mbs"]
    s = run.one("sustained")
    line = C.sustained([("q", run)]).fig.axes[0].get_lines()[0]
    assert list(line.get_ydata()) == s["rate_mbs"]
    assert list(line.get_xdata()) == [(i + 1) * s["rate_step_bytes"] / 1048576.0
                                      for i in range(len(s["rate_mbs"]))]


# --- comparison, real hardware, self-test -------------------------------------

TINY_PNG = base64.b64decode(
    "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8DwHwAFBQIAX8jx0gAAAABJRU5ErkJggg==")


def test_compare_html(monkeypatch):
    """Several runs side by side (the charts are built, but drawn as a
    1-pixel PNG here: drawing is tested on the single-run report)."""
    monkeypatch.setattr(C.Chart, "png", lambda self, dpi=80: TINY_PNG)
    a, b = run_of(QUICK), run_of(QUICK4G)
    runs = [("A", a), ("B", b)]
    ch = C.seq_throughput(runs)
    assert ch.series == ["A seq-read", "B seq-read", "A seq-write", "B seq-write"]
    ch = C.latency_cdf(runs, ["rand-read-4k"], "c", "t")
    assert [l.get_label() for l in ch.fig.axes[0].get_lines() if l.get_label() in "AB"] == \
        ["A", "B"]
    page, rep = html.render([a, b], ["A", "B"], [])
    assert rep.present == SUITE_SECTIONS
    assert "<th>A</th><th>B</th>" in page                 # side-by-side tables
    assert "536870912" in page and "4294967296" in page   # both cards' capacities
    assert all(len(set(s.split(" ")[0] for s in c.series)) == 2 for c in rep.charts), \
        [(c.name, c.series) for c in rep.charts]


def _strip_emulated(recs):
    for r in recs:
        if "emulated" in r:
            r["emulated"] = False
    return recs


def test_real_hardware_run_is_not_marked():
    run = copy.deepcopy(run_of(SELFTEST))
    _strip_emulated(run.records)
    assert not run.emulated
    page, rep = html.render([run], ["x"], [])
    assert "<td>no (real hardware)</td>" in page and "EMULATED" not in page
    assert 'class="emu"' not in page and 'id="emulated"' not in page
    assert "Measured on real hardware" in page
    assert rep.present == ["overview", "registers", "selftest", "problems"]


def test_selftest_report_section():
    page, rep = html.render([run_of(SELFTEST)], ["x"], [])
    assert "selftest" in rep.present and "FAILED" not in page
    assert page.count('<span class="ok">ok</span>') == 4        # three reads, one write


# --- CSV ----------------------------------------------------------------------

def documented_columns():
    """{type: [columns]} from docs/host-tools.md ("CSV files")."""
    with open(os.path.join(ROOT, "docs", "host-tools.md"), encoding="utf-8") as f:
        doc = f.read()
    return {m.group(1): [c.strip().strip("`") for c in m.group(2).split(",")]
            for m in re.finditer(r"^\| `(\w+)\.csv` \| ([^|]+) \|", doc, re.M)}


def test_csv_files_and_documented_columns(tmp_path):
    p = subprocess.run([TOOL, "--csv", str(tmp_path), QUICK, QUICK4G], stdout=subprocess.PIPE,
                       stderr=subprocess.PIPE, text=True, timeout=120)
    assert p.returncode == 0, p.stderr
    runs = [run_of(QUICK), run_of(QUICK4G)]
    types = {r["type"] for run in runs for r in run.records}
    # the firmware's headline records have a file of their own: headline.csv
    # is the host's headline with its documented columns
    # (tests/test_headline_truth.py: logs that hold it)
    files = {"headline_record" if t == "headline" else t for t in types}
    assert sorted(os.listdir(tmp_path)) == sorted(t + ".csv" for t in files | {"headline"})
    docs = documented_columns()
    assert len(docs) >= 16
    tables = {}
    for t in files | {"headline"}:
        with open(tmp_path / (t + ".csv"), newline="") as f:
            rows = list(csv.reader(f))
        tables[t] = rows
        if t in docs:
            assert rows[0] == docs[t], t
    # one row per record, or per point for the list records
    assert len(tables["result"]) - 1 == sum(len(r.all("result")) for r in runs) == 100
    assert len(tables["histogram"]) - 1 == sum(len(h["lo_ns"]) for r in runs
                                               for h in r.all("histogram"))
    assert len(tables["series"]) - 1 == sum(len(s["mbs"]) for r in runs for s in r.all("series"))
    head = tables["result"][0]
    first = dict(zip(head, tables["result"][1]))
    r0 = runs[0].all("result")[0]
    assert first["log"] == os.path.basename(QUICK) and first["run"] == "1"
    assert int(first["line"]) == runs[0].lines[runs[0].records.index(r0)]
    assert float(first["mbs"]) == r0["mbs"] and first["emulated"] == "true"
    board = dict(zip(tables["board"][0], tables["board"][1]))
    assert board["timer.freq_hz"] == str(runs[0].one("board")["timer"]["freq_hz"])
