#!/usr/bin/python3
"""Behaviour baselines: the records a fixed run prints, kept in the repository.

A change that only moves code (a refactoring) must not change what sdbench
does. Two baselines show it:

* sim/*.records: the whole program on the simulator (build/host/sdbsim) with
  a fixed seed, every record byte for byte. The simulator's clock depends
  only on what the driver does on the bus and in registers, never on host
  instruction counts, so these are exact.
* qemu/*.json: a quick suite under QEMU with a fixed seed and a
  deterministic guest clock (-icount shift=0,sleep=off), with every
  measured time, rate and timing-derived figure masked (normalise()):
  what remains is which records appear in which order, their fields, and
  every decoded, configured or counted value.

When a change is meant to change behaviour, regenerate and review the diff:

    /usr/bin/python3 tests/golden/golden.py --regen      (or: make golden)
"""
import json
import os
import re
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.abspath(os.path.join(HERE, "..", ".."))
SDBSIM = os.path.join(ROOT, "build", "host", "sdbsim")
sys.path.insert(0, os.path.join(ROOT, "tests", "qemu"))

# (name, profile, sdbench.txt lines)
SIM_CASES = [
    ("c10-quick", "sdhc-c10-16g", ["suite = quick", "seed = 42"]),
    ("a2-quick", "sdxc-a2-64g", ["suite = quick", "seed = 7"]),
    ("slow-writer-quick", "sdhc-slow-writer-8g", ["suite = quick", "seed = 3"]),
    ("sdsc-v1-quick", "sdsc-v1-128m", ["suite = quick", "seed = 5"]),
    ("c4-selftest", "sdhc-c4-8g", ["suite = selftest"]),
    ("c4-selftest-write", "sdhc-c4-8g",
     ["suite = selftest", "seed = 5", "selftest_write = 140000+100"]),
    ("c10-readonly", "sdhc-c10-16g", ["suite = quick", "seed = 9", "write_tests = off"]),
]

QEMU_CASES = [
    ("raspi2b-quick", "raspi2b", "256M", ["suite = quick", "seed = 7"]),
]

# Keys whose values are measured (times, rates, shares) or follow from
# measured values; masked in the QEMU baseline.
TIMING_KEY = re.compile(
    r"(_ns|_us|_ms|_s|_pct|_ppm)$|^(a|b|r2|mbs|mibs|iops|valid|invalid)$|"
    r"mbs|iops|elapsed|latency|verdict|evidence|message|reason|why|note|fit|slope|knee|worst|series")
# Per record type: fields that are measured although their names do not say so.
MEASURED = {
    "board": {"timer", "temp_mc", "firmware"},
    "card": {"rca", "init_us"},
    "histogram": {"count", "lo_ns"},
    "sweep": {"points"},
    "au": None,        # every value of these is derived from timing
    "open_au": None,
    "erase": None,
    "sustained": None,
    "class": None,
    "summary": None,
    "check": {"workload"},   # the best sequential workload is chosen by its rate
    "headline": None,
    "verdict": None,
    "overhead": None,
    "suite": {"elapsed_us"},
    "done": {"elapsed_us"},
}


def _mask(v):
    if isinstance(v, bool) or v is None:
        return v
    if isinstance(v, (int, float)):
        return "#"
    if isinstance(v, str):
        return re.sub(r"\d+(\.\d+)?", "#", v)
    if isinstance(v, list):
        # how many measured values there are can itself follow from timing
        # (histogram buckets, points until a budget ran out)
        return "[#]"
    if isinstance(v, dict):
        return {k: _mask(x) for k, x in v.items()}
    return v


def normalise(rec):
    """A record with every measured value masked (structure and the rest kept)."""
    rtype = rec.get("type")
    measured = MEASURED.get(rtype, set())
    out = {}
    for k, v in rec.items():
        if measured is None and k not in ("type", "workload"):
            out[k] = _mask(v)
        elif (measured and k in measured) or TIMING_KEY.search(k):
            out[k] = _mask(v)
        else:
            out[k] = v
    return out


def records(text):
    out = []
    for line in text.splitlines():
        line = line.rstrip("\r")
        if line.startswith("@ "):
            out.append(line[2:])
    return out


def run_sim(profile, lines):
    with tempfile.NamedTemporaryFile("w", suffix=".txt", delete=False) as f:
        f.write("\n".join(lines) + "\n")
        cfg = f.name
    try:
        p = subprocess.run([SDBSIM, "--profile", profile, "--config", cfg],
                           stdout=subprocess.PIPE, stderr=subprocess.PIPE, timeout=300)
    finally:
        os.unlink(cfg)
    return p.returncode, p.stdout.decode("utf-8", "replace")


def run_qemu(machine, size, lines):
    import harness
    with tempfile.TemporaryDirectory() as td:
        img = harness.make_image(os.path.join(td, "sd.img"), size, sdbench=lines)
        run = harness.boot(machine, img, extra=["-icount", "shift=0,sleep=off"], timeout=900)
    assert not run.timed_out, "QEMU run timed out"
    return run


def sim_path(name):
    return os.path.join(HERE, "sim", name + ".records")


def qemu_path(name):
    return os.path.join(HERE, "qemu", name + ".json")


def regen(which):
    if which in ("all", "sim"):
        os.makedirs(os.path.join(HERE, "sim"), exist_ok=True)
        for name, profile, lines in SIM_CASES:
            _, out = run_sim(profile, lines)
            with open(sim_path(name), "w") as f:
                f.write("\n".join(records(out)) + "\n")
            print("wrote", sim_path(name))
    if which in ("all", "qemu"):
        os.makedirs(os.path.join(HERE, "qemu"), exist_ok=True)
        for name, machine, size, lines in QEMU_CASES:
            run = run_qemu(machine, size, lines)
            with open(qemu_path(name), "w") as f:
                for r in run.records:
                    f.write(json.dumps(normalise(r), sort_keys=True) + "\n")
            print("wrote", qemu_path(name))


if __name__ == "__main__":
    if len(sys.argv) >= 2 and sys.argv[1] == "--regen":
        regen(sys.argv[2] if len(sys.argv) > 2 else "all")
    else:
        print(__doc__)
        sys.exit(2)
