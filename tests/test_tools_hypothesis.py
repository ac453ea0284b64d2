"""Property tests (python3-hypothesis): no input makes a host tool raise.

Logs are generated from the record schema the reader checks
(tools/sdbhost/records.py SCHEMA, which tests/test_sdblog.py ties to
docs/records.md) and from the committed logs (tests/data, tests/golden/sim):
records of every documented type with each field either of its documented
kind or any JSON value (huge and non-finite numbers, lone surrogates,
nesting), real records with fields replaced, noise, progress lines, CR,
lost bytes, then byte-level garbage and truncation of real logs. Every
output runs on every example, through sdbreport's own main() with standard
output and error encoding strictly as UTF-8: text, the comparison, JSON,
CSV, --predict, `sdbreport compare`, and sdbcapture's line reader;
HTML (matplotlib: slower) on a smaller number.

The settings profile "sdbench" is derandomized with a bounded number of
examples (SDB_HYPOTHESIS_EXAMPLES, default 60 per test) so that make test
stays well under a minute here; REGRESSIONS holds every crash found so far.
Each test counts the examples it ran (printed with -s, and in the report
of the fuzzing below)."""
import contextlib
import io
import json
import os
import sys
import tempfile

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import sdbreport
from sdbhost import capture, records

ROOT = os.path.abspath(os.path.join(os.path.dirname(__file__), ".."))
EXAMPLES = int(os.environ.get("SDB_HYPOTHESIS_EXAMPLES", "60"))
# SDB_HYPOTHESIS_EXPLORE=1: new random examples each run (looking for bugs).
settings.register_profile(
    "sdbench", derandomize=not os.environ.get("SDB_HYPOTHESIS_EXPLORE"), max_examples=EXAMPLES, deadline=None, database=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large,
                           HealthCheck.filter_too_much])
PROFILE = settings.get_profile("sdbench")
RAN = {}


def _count(name):
    RAN[name] = RAN.get(name, 0) + 1


def _logs():
    out = []
    for d in (os.path.join(ROOT, "tests", "data"), os.path.join(ROOT, "tests", "golden", "sim")):
        for f in sorted(os.listdir(d)):
            if f.endswith((".log", ".records")):
                with open(os.path.join(d, f), "rb") as fh:
                    out.append(fh.read().decode("utf-8", "replace"))
    return out


LOGS = _logs()
REAL = []
for _log in LOGS:
    for _line in _log.splitlines():
        if _line.startswith("@ {") and len(_line) < 4000:
            REAL.append(_line[2:])
REAL = sorted(set(REAL))[::7]   # a spread of every type, kept small

# Crashes found by this test and by hand (kept as regression inputs).
REGRESSIONS = [
    # TypeError in read_text: the last record's workload is not a string
    '@ {"type":"board"}\n@ {"type":"truth","workload":5}\n',
    '@ {"type":"board"}\n@ {"type":"foo","workload":[1]}\n',
    # OverflowError: a number beyond a float
    '@ {"type":"result","workload":"w","mbs":%s,"kind":"seq","op":"read",'
    '"xfer_bytes":%s}\n@ {"type":"done","errors":0}\n' % ("1" + "0" * 400, "9" * 400),
    '@ {"type":"hosts","rows":[{"host":"emmc","workload":"w","mbs":%s,"iops":1e308,'
    '"host_pct":-1e308,"cpu_ns_per_block":%s}]}\n' % ("1" + "0" * 400, "-" + "9" * 300),
    # UnicodeEncodeError: a lone surrogate in a workload name and a key
    '@ {"type":"result","workload":"seq-\\ud800","kind":"seq","op":"read","mbs":1}\n'
    '@ {"type":"verdict","workload":"seq-\\ud800","text":"\\udfff","\\ud801":1}\n',
    # nesting deeper than the decoder or the outputs go
    '@ {"type":"card","cid":' + "[" * 5000 + "]" * 5000 + '}\n',
    '@ {"type":"card","cid":' + '{"a":' * 200 + "1" + "}" * 200 + '}\n',
    # a summary part that is not an object, a verdict that is a list
    '@ {"type":"summary","seq_read":5,"rand_read_4k":{"iops":"x","verdict":[1]}}\n',
    # the sweep and modes with odd points
    '@ {"type":"sweep","op":[1],"width":{},"clock_hz":1e-300,"mbs":1}\n'
    '@ {"type":"sweep","op":"read","width":4,"fit":"T","a_ns":1,"points":-1}\n'
    '@ {"type":"modes","modes":[{"mode":1,"read_mbs":"x"},{}]}\n',
    # TypeError sorting two sweep points of one clock, one ceiling null
    '@ {"type":"sweep","op":"read","width":1,"clock_hz":26000000,"mean_ns":1,"mbs":0.7,'
    '"ceiling_mbs":3.2}\n@ {"type":"sweep","op":"read","width":1,"clock_hz":26000000,'
    '"mean_ns":1,"mbs":0.7,"ceiling_mbs":null}\n',
    # the same for two sequential workloads of one size and rate, one IOPS null
    '@ {"type":"result","workload":"seq-read-a","kind":"seq","op":"read","xfer_bytes":4096,'
    '"mbs":1,"iops":null}\n@ {"type":"result","workload":"seq-read-b","kind":"seq",'
    '"op":"read","xfer_bytes":4096,"mbs":1,"iops":5}\n',
]

# ---- strategies --------------------------------------------------------
_SURROGATES = st.characters(min_codepoint=0xD800, max_codepoint=0xDFFF)
_TEXT = st.text(st.one_of(st.characters(), _SURROGATES), max_size=12)
_NUMS = st.one_of(
    st.integers(), st.integers(min_value=-10 ** 450, max_value=10 ** 450),
    st.floats(allow_nan=True, allow_infinity=True), st.sampled_from([0, -1, 1, 1e308, -0.0]))
_SCALAR = st.one_of(st.none(), st.booleans(), _NUMS, _TEXT)
JSON = st.recursive(_SCALAR, lambda kids: st.one_of(
    st.lists(kids, max_size=4), st.dictionaries(_TEXT, kids, max_size=4)), max_leaves=12)

_KIND = {"N": _NUMS, "S": _TEXT, "B": st.booleans(), "LN": st.lists(_NUMS, max_size=6),
         "L": st.lists(_SCALAR, max_size=4), "D": st.dictionaries(_TEXT, _SCALAR, max_size=4),
         "LD": st.lists(st.dictionaries(_TEXT, _SCALAR, max_size=4), max_size=4)}
# Fields the outputs read that the reader does not type-check (nested rows).
_EXTRA = {
    "hosts": {"rows": st.lists(st.fixed_dictionaries({}, optional={
        "host": st.one_of(_TEXT, JSON), "data_path": st.sampled_from(["pio", "dma"]),
        "workload": st.sampled_from(["seq-read-64k", "rand-write-4k"]), "bus_mode": JSON,
        "mbs": _NUMS, "iops": _NUMS, "p99_ns": _NUMS, "host_pct": _NUMS,
        "cpu_ns_per_block": _NUMS, "best": JSON, "error": JSON, "reason": JSON,
        "ops": JSON}), max_size=6)},
    "verdict": {"bottleneck": st.sampled_from(["card-bound", "bus-bound", "host-bound",
                                               "mixed", "x"]), "valid": JSON, "reason": JSON},
    "modes": {"modes": st.lists(st.dictionaries(
        st.sampled_from(["mode", "ran", "ok", "read_mbs", "bus_ceiling_mbs", "clock_hz",
                         "width", "note"]), JSON), max_size=4)},
}


def _value(kind):
    if isinstance(kind, dict):
        return st.one_of(_record_fields(kind), JSON)
    return st.one_of(_KIND[kind], JSON, _KIND[kind])


def _record_fields(schema):
    return st.fixed_dictionaries({}, optional={k: _value(v) for k, v in schema.items()})


@st.composite
def schema_record(draw):
    t = draw(st.one_of(st.sampled_from(sorted(records.SCHEMA) + ["headline", "console"]),
                       _TEXT))
    rec = draw(_record_fields(records.SCHEMA.get(t, {})))
    for k, s in _EXTRA.get(t, {}).items():
        if draw(st.booleans()):
            rec[k] = draw(s)
    if t in records.WORKLOAD_TYPES and draw(st.integers(0, 3)):
        rec["workload"] = draw(st.sampled_from(["seq-read-4k", "seq-write-64k", "rand-read-4k",
                                                "sustained-write", "w\u202e"]))
    rec = {"type": t, **rec} if draw(st.integers(0, 9)) else rec
    return rec


@st.composite
def real_record(draw):
    rec = json.loads(draw(st.sampled_from(REAL)))
    for _ in range(draw(st.integers(0, 3))):
        # a value at any depth (card.cid.pnm, hosts.rows[2].mbs) replaced
        node = rec
        while True:
            keys = list(range(len(node))) if isinstance(node, list) else sorted(node)
            if not keys:
                break
            k = draw(st.sampled_from(keys))
            if isinstance(node[k], (dict, list)) and node[k] and draw(st.booleans()):
                node = node[k]
                continue
            node[k] = draw(JSON)
            break
    return rec


def _dump(rec, draw):
    return json.dumps(rec, ensure_ascii=draw(st.booleans()), allow_nan=True)


@st.composite
def log_text(draw):
    lines = []
    if draw(st.booleans()):
        lines.append('@ {"type":"board","model":"Raspberry Pi 3 Model B","emulated":false}')
    for _ in range(draw(st.integers(0, 14))):
        c = draw(st.integers(0, 9))
        if c < 4:
            lines.append("@ " + _dump(draw(schema_record()), draw))
        elif c < 7:
            lines.append("@ " + _dump(draw(real_record()), draw))
        elif c == 7:
            lines.append(draw(_TEXT))
        elif c == 8:
            # a progress line, CR, a lost byte before a record
            lines.append(draw(st.sampled_from(["\r  seq-read-4k  42%  1.00 MB/s ", "@", "@{",
                                               "\r", ""])) + "@ " + _dump(draw(real_record()), draw))
        else:
            lines.append('@ {"type":"done","errors":%s}' % _dump(draw(_SCALAR), draw))
    return draw(st.sampled_from(["\n", "\r\n", "\r"])).join(lines)


@st.composite
def damaged_real_log(draw):
    """A committed log cut, spliced or with bytes changed."""
    data = bytearray(draw(st.sampled_from(LOGS)).encode("utf-8", "surrogatepass"))
    n = len(data)
    for _ in range(draw(st.integers(1, 6))):
        op = draw(st.integers(0, 3))
        i = draw(st.integers(0, max(n - 1, 0)))
        if op == 0:
            data = data[:i]
        elif op == 1 and data:
            data[i % len(data)] = draw(st.integers(0, 255))
        elif op == 2:
            data[i:i] = draw(st.binary(max_size=40))
        else:
            j = draw(st.integers(0, max(n - 1, 0)))
            data = data[:min(i, j)] + data[max(i, j):]
        n = len(data) or 1
    return bytes(data)


# ---- running every output ---------------------------------------------
class _Strict(io.TextIOWrapper):
    """Standard output as a terminal with UTF-8 gives it: an encoding
    error raises, as it would for the user."""

    def __init__(self):
        super().__init__(io.BytesIO(), encoding="utf-8", errors="strict")


def sdbreport_main(args):
    out, err = _Strict(), _Strict()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        try:
            code = sdbreport.main([str(a) for a in args])
        except SystemExit as e:   # argparse: bad command line only
            code = e.code
        out.flush()
        err.flush()
    assert code in (0, 1, 2), (args, code)
    return code, out.buffer.getvalue().decode(), err.buffer.getvalue().decode()


def every_text_output(data, tmp, html=False):
    """Write the log (bytes) and run every output of sdbreport on it."""
    a = os.path.join(tmp, "a.log")
    b = os.path.join(tmp, "b.log")
    with open(a, "wb") as f:
        f.write(data)
    with open(b, "wb") as f:
        f.write(LOGS[0].encode())
    codes = []
    for args in ([a], ["--json", a], [a, b], ["--json", a, b], ["--csv", os.path.join(tmp, "csv"), a],
                 ["--predict", a], ["--predict", "--json", "--clock", "50M", "--width", "4", a],
                 ["compare", a, b], ["--run", "1", a]):
        codes.append(sdbreport_main(args)[0])
    if html:
        codes.append(sdbreport_main(["--html", os.path.join(tmp, "r.html"), a])[0])
        codes.append(sdbreport_main(["--html", os.path.join(tmp, "c.html"), "--predict", a])[0])
    # sdbcapture's reader: the progress fed line by line
    prog = capture.Progress()
    con = capture.Console(False, True, out=_Strict(), err=_Strict())
    for i, raw in enumerate(data.split(b"\n"), 1):
        capture._line(raw, prog, con, i)
        prog.line(1.0, len(raw))
    return codes


def check_log_bytes(data, html=False):
    _count("html" if html else "text")
    with tempfile.TemporaryDirectory() as tmp:
        codes = every_text_output(data, tmp, html)
    log = records.read_text(data.decode("utf-8", "replace"))
    for line, text in log.warnings:
        assert isinstance(line, int) and line >= 1 and text, (line, text)
    return codes


@pytest.mark.parametrize("i", range(len(REGRESSIONS)))
def test_regression_inputs(i):
    check_log_bytes(REGRESSIONS[i].encode("utf-8", "surrogatepass"), html=True)


@PROFILE
@given(log_text())
def test_generated_logs(text):
    check_log_bytes(text.encode("utf-8", "surrogatepass"))


@PROFILE
@given(damaged_real_log())
def test_damaged_real_logs(data):
    check_log_bytes(data)


@PROFILE
@given(st.binary(max_size=600))
def test_byte_garbage(data):
    check_log_bytes(data)


@settings(PROFILE, max_examples=max(EXAMPLES // 6, 4))
@given(log_text())
def test_generated_logs_html(text):
    check_log_bytes(text.encode("utf-8", "surrogatepass"), html=True)


def test_examples_ran():
    """The property tests above ran (a skipped property proves nothing);
    prints how many examples each kind ran."""
    sys.stderr.write("hypothesis examples run: %s\n" % RAN)
    if RAN:
        assert sum(RAN.values()) >= len(REGRESSIONS)
