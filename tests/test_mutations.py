"""make bench-mutations (sim/mutations.py) still mutates what it names: each
search text is in its source file exactly once, the replacement differs, and
the test it runs exists; a source that drifted is refused, never run
unmutated. (The mutations themselves run in make bench-mutations: minutes.)"""
import os
import sys

import pytest

ROOT = os.path.abspath(os.path.join(os.path.dirname(__file__), ".."))
sys.path.insert(0, os.path.join(ROOT, "sim"))
import mutations  # noqa: E402


@pytest.mark.parametrize("m", mutations.MUTATIONS, ids=lambda m: m.name)
def test_each_mutation_applies_once_to_the_tree(m):
    assert mutations.check_applies(m, ROOT) >= 1
    assert m.replace != m.search
    for t in m.tests:
        if mutations.is_pytest(t):
            assert os.path.exists(os.path.join(ROOT, t.split("::")[0])), t
        else:
            assert any(os.path.exists(os.path.join(ROOT, "tests", d, t + ".c"))
                       for d in ("unit", "sim")), t


def test_a_drifted_source_is_refused(tmp_path):
    m = mutations.MUTATIONS[0]
    src = open(os.path.join(ROOT, m.path)).read()
    path = tmp_path / m.path
    path.parent.mkdir(parents=True)
    for text in (src.replace(m.search, m.search[:-1] + " "), src + m.search):
        path.write_text(text)
        with pytest.raises(mutations.NotApplicable):
            mutations.apply(m, str(tmp_path))
        assert path.read_text() == text   # left as it was
    path.write_text(src)
    assert mutations.apply(m, str(tmp_path)) == src
    assert path.read_text() == src.replace(m.search, m.replace)


def test_the_accuracy_figures_are_read():
    out = ("  shipped profiles: 862 workloads, 816 within 5 pp (94.7%), 842 within 10 pp "
           "(97.7%), worst 22.22 pp (test-gaps/instant-4g/seq-read-1m); verdicts right 859 "
           "of 862 (99.7%), 0 no diagnosis, 3 wrong\n"
           "    misses (share or verdict) in regime read, shipped pi0+sdhost/sdxc-a2-64g"
           "                           6\n"
           "  FAIL tests/sim/test_bench_accuracy.c:680: share(shipped.within, shipped.pairs)"
           " >= FLOOR_SHIPPED_5\n")
    s = mutations.figures(out)["shipped profiles"]
    assert (s["n"], s["w5"], s["w10"], s["worst"]) == (862, 816, 842, "22.22")
    assert (s["vok"], s["vn"], s["vnd"], s["vwrong"]) == (859, 862, 0, 3)
    assert s["regimes"] == [("read, shipped pi0+sdhost/sdxc-a2-64g", 6)]
    assert mutations.verdict(1, out) == "FAILS (floors FLOOR_SHIPPED_5)"
    assert mutations.verdict(0, out) == "passes"
