"""What an emulated run may not claim (bench/engine/validity.c): no verdict
above 100% of the bus ceiling, no diagnosis from figures the split's model
cannot explain, and the host comparison's DMA rows flagged, because QEMU's
DMA engine copies inside the CPU's start register write. Shared by the QEMU
tests that run the quick suite; the checks read only records."""
import re

CEILING = re.compile(r"([0-9.]+)% of the [^;]* ceiling")


def assert_honest_verdicts(run):
    """Every verdict is a diagnosis within the bus ceiling or says why it
    is none; the phases record agrees."""
    phases = {r["workload"]: r for r in run.of_type("phases")}
    verdicts = run.of_type("verdict")
    assert verdicts, "no verdict records"
    for v in verdicts:
        text = v["text"]
        m = CEILING.search(text)
        if v["valid"]:
            assert v["bottleneck"] != "none" and v["why"] is None, v
            assert not text.startswith("no diagnosis"), v
            # a diagnosis never puts a rate above what the bus can carry
            assert m is None or float(m.group(1)) <= 100.0, v
        else:
            assert v["bottleneck"] == "none" and v["pct"] is None, v
            assert text == "no diagnosis: " + v["why"] and v["invalid"], v
        p = phases[v["workload"]]
        assert p["valid"] == v["valid"] and p["why"] == v["why"], (p, v)
        assert p["invalid"] == v["invalid"], (p, v)
    # the verdict lines people read say the same
    for line in run.console.splitlines():
        if line.startswith("@ "):
            continue
        m = CEILING.search(line)
        if m and float(m.group(1)) > 100.0:
            # a verdict line, or a flagged row of the host comparison
            assert "no diagnosis: " in line or line.startswith("  ! "), line


def assert_dma_rows_flagged(run):
    """Under QEMU every DMA row of the host comparison is flagged: its CPU
    time holds the whole transfer. Returns the flagged rows."""
    rows = [r for r in run.one("hosts")["rows"] if "error" not in r]
    dma = [r for r in rows if r["data_path"] == "dma"]
    assert dma, "no DMA rows in the host comparison"
    for r in dma:
        assert r["valid"] is False and r["why"], r
    for r in rows:
        assert (r["why"] is None) == r["valid"], r
        assert r["valid"] or r["host"] + " " + r["data_path"] + " " + r["workload"] + ": " \
            + r["why"] in run.console, r
    return dma
