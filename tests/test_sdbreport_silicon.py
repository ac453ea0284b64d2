"""The controller's probed behaviour (`silicon` record, docs/silicon.md) in
sdbreport's details: the Block Count column and whether a read's block took
its frame on the wire (`read_wire`), so that a reader of a report sees why
the reads of an emulated run are diagnosed without the Block Count look,
and its writes without the write looks."""
import json

from sdbhost import details, records


def _run(sil):
    return records.read_text("@ " + json.dumps(sil), "t.log").runs[-1]


def _silicon(**kw):
    rec = {"type": "silicon", "host": "emmc", "probed": True, "blkcnt": "drain",
           "blkcnt_look_used": False, "blocks": 4, "cnt_ready": 4, "cnt_full": 4,
           "cnt_drained": 3, "wait_us": 102, "probe_us": 1.0}
    rec.update(kw)
    return rec


def test_the_wire_column_says_what_the_probe_found():
    head, rows = details.silicon_table(_run(_silicon(read_wire="instant", first_us=186.5,
                                                     frame_us=2003.8)))
    col = head.index("a read's block on the wire")
    assert len(rows) == 1 and "no time (emulated)" in rows[0][col]
    head, rows = details.silicon_table(_run(_silicon(read_wire="timed")))
    assert rows[0][col] == "takes its frame"


def test_a_log_from_before_the_wire_probe_shows_a_dash_not_a_guess():
    head, rows = details.silicon_table(_run(_silicon()))
    col = head.index("a read's block on the wire")
    assert "emulated" not in rows[0][col] and "frame" not in rows[0][col]


def test_the_write_looks_column_says_not_needed_only_where_the_wire_takes_no_time():
    w = dict(bwe="slot", dat0="short", write_looks_used=False, write_probe_us=4955.1)
    head, rows = details.silicon_table(_run(_silicon(read_wire="instant", **w)))
    col = head.index("write looks: Buffer Write Enable / DAT[0]")
    assert rows[0][col] == "slot / short, not needed (no time on the wire)", rows
    head, rows = details.silicon_table(_run(_silicon(read_wire="timed", **w)))
    assert rows[0][col] == "slot / short, not used", rows
    w.update(dat0="live", write_looks_used=True)
    head, rows = details.silicon_table(_run(_silicon(read_wire="timed", **w)))
    assert rows[0][col] == "slot / live, used", rows
