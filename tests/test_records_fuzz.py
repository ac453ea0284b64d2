"""Bounded random-mutation fuzzing of the host tools' record parser
(tools/sdbhost/records.py) and the text, comparison and CSV outputs, over
the committed logs in tests/data (the HTML report, --predict, JSON and
sdbcapture's reader: tests/test_tools_hypothesis.py).

Where tests/test_sdblog.py spoils whole lines, this mutates inside the
records: values replaced by values of every other JSON type, numbers made
huge, negative, fractional, NaN or infinite, lists emptied, lengthened or
made ragged, keys deleted or renamed, records duplicated or reordered, and
bytes flipped inside the JSON text. The reader must never raise: every
problem is a warning. Deterministic (fixed seeds); SDB_RECFUZZ_ITERS sets
the number of mutated logs (default 150)."""
import io
import json
import os
import random

import pytest

from sdbhost import csvout, records, text

ROOT = os.path.abspath(os.path.join(os.path.dirname(__file__), ".."))
DATA = os.path.join(ROOT, "tests", "data")
LOGS = sorted(os.path.join(DATA, f) for f in os.listdir(DATA) if f.endswith(".log"))
ITERS = int(os.environ.get("SDB_RECFUZZ_ITERS", "150"))

ODD_VALUES = [None, True, False, 0, -1, 1e308, -1e308, 2 ** 64, -(2 ** 63), 0.5, "", "x",
              "\u0000\uffff\u202e", "9" * 400, [], [None], [1, "a", None], {}, {"a": {}},
              float("nan"), float("inf"), float("-inf")]


def _odd(rng):
    v = rng.choice(ODD_VALUES)
    return v if not isinstance(v, (list, dict)) else json.loads(json.dumps(v))


def _mutate_value(v, rng, depth=0):
    r = rng.random()
    if r < 0.25 or depth > 6:
        return _odd(rng)
    if isinstance(v, dict) and v:
        k = rng.choice(list(v))
        op = rng.random()
        if op < 0.2:
            del v[k]
        elif op < 0.3:
            v[k + rng.choice(["", "_", "X"])] = v.pop(k)
        else:
            v[k] = _mutate_value(v[k], rng, depth + 1)
        return v
    if isinstance(v, list):
        op = rng.random()
        if op < 0.2:
            return []
        if op < 0.4 and v:
            return v * rng.randint(2, 50)
        if op < 0.6 and v:
            del v[rng.randrange(len(v)):]
            return v
        if v:
            i = rng.randrange(len(v))
            v[i] = _mutate_value(v[i], rng, depth + 1)
        return v
    if isinstance(v, (int, float)) and not isinstance(v, bool):
        return rng.choice([v * -1, v * 1e12, v + 0.5, 0, v // 3 if isinstance(v, int) else v])
    if isinstance(v, str):
        return rng.choice([v[::-1], v * 3, v[:1], str(rng.random()), "null"])
    return _odd(rng)


def _mutate_log(base, rng):
    out = []
    for line in base.splitlines():
        if not line.startswith("@ ") or rng.random() > 0.15:
            out.append(line)
            continue
        try:
            rec = json.loads(line[2:])
        except ValueError:
            out.append(line)
            continue
        op = rng.random()
        if op < 0.6:
            for _ in range(rng.randint(1, 4)):
                rec = _mutate_value(rec, rng)
            if not isinstance(rec, dict) or rng.random() < 0.9:
                rec = rec if isinstance(rec, dict) else {}
                rec.setdefault("type", json.loads(line[2:])["type"])
            s = json.dumps(rec, allow_nan=True)
        elif op < 0.8:
            s = line[2:]
            b = bytearray(s.encode())
            for _ in range(rng.randint(1, 6)):
                b[rng.randrange(len(b))] = rng.randrange(256)
            s = b.decode("utf-8", "replace")
        else:
            s = line[2:]
            out.append("@ " + s)  # a duplicate
        out.append("@ " + s)
    if rng.random() < 0.2:
        rng.shuffle(out)
    return "\n".join(out)


@pytest.mark.parametrize("chunk", range(5))
def test_mutated_records_never_raise(chunk, tmp_path):
    bases = [open(p, "rb").read().decode("utf-8", "replace") for p in LOGS]
    assert bases, "no committed logs in tests/data"
    warned = 0
    for i in range(chunk, ITERS, 5):
        rng = random.Random(1000 + i)
        log = records.read_text(_mutate_log(rng.choice(bases), rng), "mutated.log")
        warned += len(log.warnings)
        for run in log.runs:
            text.render_run(run, io.StringIO(), log)
            csvout.write_csv(str(tmp_path / ("csv%d-%d" % (i, run.index))),
                             [("mutated.log", run)])
            json.dumps(run.records)
        text.render_warnings(log, io.StringIO())
        if len(log.runs) > 1:
            text.render_compare(log.runs, ["r%d" % k for k in range(len(log.runs))],
                                io.StringIO())
    # the mutations reach the checks (a fuzzer that changes nothing proves nothing)
    assert warned > 0
