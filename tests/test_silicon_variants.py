"""The generated pairs under each SDHCI behaviour the simulator models
besides the default (docs/silicon.md): Block Count drain (QEMU's) and
stale (blkcnt-bus), Buffer Write Enable only when the buffer is empty
(buf-write-enable), a DAT[0] level that lags or never shows the busy
(dat0-level), SDHOST's FIFO fill in SDEDM lagging or moving in steps
(sdhost-edm-fifo), and all of them drawn per host. tests/sim/test_bench_accuracy with
SIM_ACCURACY_VARIANT runs the engine's workloads against the wire truth;
it fails when a diagnosed workload is off by more than 5 points
(confidently wrong) or when fewer than 90% are diagnosed on hosts whose
probe confirmed the look. A few dozen pairs here; make bench-silicon runs
200 per variant."""
import os
import re
import subprocess

import pytest

ROOT = os.path.abspath(os.path.join(os.path.dirname(__file__), ".."))
ACCURACY = os.path.join(ROOT, "build", "host", "tests", "test_bench_accuracy")
PAIRS = 24
LINE = re.compile(r"generated pairs, Block Count ([\w-]+): (\d+) workloads, (\d+) no diagnosis, "
                  r"(\d+) confidently wrong")
# The write looks matter to the SDHCI PIO writes only: those pairs alone.
WRITE_ONLY = ":sdhci"
# The SDHOST fill matters to the SDHOST pairs only.
FILL_ONLY = ":sdhost"


@pytest.mark.parametrize("variant", ["drain", "stale", "drawn", "bwe-empty", "dat0-lag",
                                     "dat0-none", "fill-lag", "fill-stepped"])
def test_right_or_silent_under_each_variant(variant):
    if not os.path.exists(ACCURACY):
        pytest.skip("build first (make)")
    only = WRITE_ONLY if variant.startswith(("bwe-", "dat0-")) else \
        FILL_ONLY if variant.startswith("fill-") else "gen-host"
    env = dict(os.environ, SIM_ACCURACY_VARIANT=variant, SIM_ACCURACY_ONLY=only,
               SIM_ACCURACY_GEN=str(PAIRS))
    p = subprocess.run([ACCURACY], stdout=subprocess.PIPE, stderr=subprocess.STDOUT, env=env,
                       timeout=1800)
    out = p.stdout.decode("utf-8", "replace")
    m = LINE.search(out)
    assert m, out[-3000:]
    name, total, nodiag, wrong = m.group(1), int(m.group(2)), int(m.group(3)), int(m.group(4))
    assert name == variant
    least = {WRITE_ONLY: 4 * PAIRS, FILL_ONLY: 2 * PAIRS}.get(only, 8 * PAIRS)
    assert total >= least and wrong == 0, m.group(0)
    if variant != "drawn":
        # the look is never confirmed: the CPU-paced PIO reads (or the
        # PIO writes) go silent
        assert nodiag > 0, m.group(0)
    assert p.returncode == 0, out[-3000:]
