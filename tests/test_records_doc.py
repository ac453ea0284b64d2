"""docs/records.md against the firmware and the host tools.

The record types and their fields come from docs/records.md itself (each
"## `type`" section and the `names` in it). Then:
- every record the firmware printed in the committed runs (tests/golden/sim,
  tests/data: the simulator and QEMU) has a documented type, and each of
  its fields, and each field of the objects in its lists (hosts rows, bus
  modes, summary parts), is named in that type's section; the verdict's
  `bottleneck` values are the documented ones;
- every documented type is known to the reader's schema, and every field
  the schema checks is documented;
- every documented type reaches every output of sdbreport: the text
  report and the HTML report change when a run holds such a record, CSV
  writes its file, JSON carries it.
"""
import io
import json
import os
import re

import pytest

from sdbhost import csvout, html, records, text

ROOT = os.path.abspath(os.path.join(os.path.dirname(__file__), ".."))
DOC = os.path.join(ROOT, "docs", "records.md")


def doc_sections():
    """{type: section text} from the "## `type`" headings."""
    out, cur = {}, None
    for line in open(DOC, encoding="utf-8"):
        m = re.match(r"^## `([a-z_]+)`\s*$", line)
        if m:
            cur = m.group(1)
            out[cur] = ""
        elif line.startswith("## "):
            cur = None
        elif cur:
            out[cur] += line
    return out


SECTIONS = doc_sections()


def named(section):
    """Every name inside a `code span` (`{number, type, count}` names three)."""
    out = set()
    for span in re.findall(r"`([^`]+)`", section):
        out |= set(re.findall(r"[A-Za-z_][A-Za-z0-9_-]*", span))
    return out


def config_keys():
    """The sdbench.txt keys of docs/config.md (the config record prints each)."""
    doc = open(os.path.join(ROOT, "docs", "config.md"), encoding="utf-8").read()
    return set(re.findall(r"^\| `([a-z_0-9]+)` \|", doc, re.M))


def doc_names(t):
    return named(SECTIONS[t]) | (config_keys() if t == "config" else set())


def printed_records():
    """(source, record) of every record in the committed firmware output."""
    out = []
    for d in (os.path.join(ROOT, "tests", "golden", "sim"), os.path.join(ROOT, "tests", "data")):
        for f in sorted(os.listdir(d)):
            if not f.endswith((".records", ".log")):
                continue
            for line in open(os.path.join(d, f), encoding="utf-8", errors="replace"):
                i = line.find("@ {")
                if i >= 0:
                    try:
                        out.append((f, json.loads(line[i + 2:])))
                    except ValueError:
                        pass
    return out


PRINTED = printed_records()


def test_doc_has_the_types():
    assert len(SECTIONS) >= 30, sorted(SECTIONS)
    for t in ("board", "card", "done", "hosts", "verdict", "headline", "run_start"):
        assert t in SECTIONS, t


def test_printed_records_are_documented():
    missing = set()
    for src, rec in PRINTED:
        t = rec["type"]
        assert t in SECTIONS, "%s prints an undocumented record type %r" % (src, t)
        doc = doc_names(t)
        for k, v in rec.items():
            if k != "type" and k not in doc:
                missing.add("%s.%s" % (t, k))
            items = v if isinstance(v, list) else [v] if isinstance(v, dict) and \
                t in ("summary", "headline") else []
            for item in items:
                if isinstance(item, dict):
                    for kk in item:
                        if kk not in doc:
                            missing.add("%s.%s.%s" % (t, k, kk))
    assert not missing, "fields the firmware prints that docs/records.md does not name: %s" \
        % sorted(missing)
    seen = {t for _, r in PRINTED for t in [r["type"]]}
    assert {"hosts", "verdict", "result", "truth", "modes", "bus"} <= seen


def test_verdict_values_are_documented():
    doc = named(SECTIONS["verdict"])
    values = {r.get("bottleneck") for _, r in PRINTED if r["type"] == "verdict"}
    assert values and values <= doc, values - doc


def test_reader_schema_matches_the_doc():
    for t in SECTIONS:
        assert t in records.SCHEMA, "the reader does not know documented type %r" % t
    for t, fields in records.SCHEMA.items():
        assert t in SECTIONS, t
        extra = set(fields) - doc_names(t)
        assert not extra, "the reader checks undocumented %s fields %s" % (t, sorted(extra))


# ---- every type in every output -----------------------------------------
BASE = [{"type": "board", "model": "Raspberry Pi 3 Model B", "emulated": False},
        {"type": "card", "capacity_bytes": 1 << 30}]


def samples(t):
    """Up to three printed records of type t (their workloads' result records
    too), or a record made from the documented field names."""
    recs = [r for _, r in PRINTED if r["type"] == t]
    recs = recs[:1] if t in records.ONCE_TYPES + records.END_TYPES + ("board",) else recs[:3]
    if not recs:
        recs = [{"type": t}]
        if t == "headline":
            recs = [{"type": "headline", "card": "SanDisk SD SC32G", "text": "a headline",
                     "parts": [{"what": "sequential read", "limit": "bus"}]}]
        elif t in ("error", "exception"):
            recs = [dict({"type": t}, **{k: "x" for k in named(SECTIONS[t]) if k != "type"})]
    extra = []
    for r in recs:
        w = r.get("workload")
        if t in records.WORKLOAD_TYPES and t != "result":
            res = next((x for _, x in PRINTED if x["type"] == "result" and
                        x.get("workload") == w), None)
            if res and res not in extra:
                extra.append(res)
    return extra, recs


def run_of(recs, t=None):
    """A one-run log: board, card, the records, done (the board, done or
    exception records under test take their own place)."""
    base = [r for r in BASE if r["type"] != t]
    end = [] if t in ("done", "exception") else [{"type": "done", "errors": 0}]
    order = recs + base + end if t == "board" else base + recs + end
    lines = ["@ " + json.dumps(r) for r in order]
    log = records.read_text("\n".join(lines), "t.log")
    assert len(log.runs) == 1, log.warnings
    return log, log.runs[0]


@pytest.mark.parametrize("t", sorted(SECTIONS))
def test_every_output_shows_every_type(t, tmp_path):
    extra, recs = samples(t)
    log0, run0 = run_of(extra, t)
    log1, run1 = run_of(extra + recs, t)
    assert run1.all(t), "the reader dropped the %s record: %s" % (t, log1.warnings)
    # text
    a, b = io.StringIO(), io.StringIO()
    text.render_run(run0, a, log0)
    text.render_run(run1, b, log1)
    assert a.getvalue() != b.getvalue(), "the text report ignores %s records" % t
    # HTML
    p0, _ = html.render([run0], ["a"], [log0])
    p1, _ = html.render([run1], ["a"], [log1])
    assert p0 != p1, "the HTML report ignores %s records" % t
    # CSV and JSON
    made = csvout.write_csv(str(tmp_path), [("t.log", run1)])
    assert t in made and made[t][2] >= 1
    assert any(r.get("type") == t for r in json.loads(json.dumps(run1.records)))
