"""The source tree's structure, checked (see docs/layout.md):

* calls go down only: lib/ includes nothing from drivers/, platform/, boot/
  or bench/; drivers/ (devices) nothing from platform/ (boards), boot/ or
  bench/; platform/ nothing from boot/ or bench/; bench/ nothing from boot/
  or platform/ (start-up hands it what it needs, bench/env.h);
* the simulator's models (sim/) include nothing of the firmware's but the
  seams they implement (below) and lib/, and no product code includes
  sim/ or harness/; harness/ is where the two meet (the simulated board
  built from platform/'s tables, the tests' set-ups), used by tests/ and
  tools/ only;
* no include cycles between modules (a module is x.c with its x.h);
* every function a header declares is defined in the .c file of the same
  name (checked on the built objects, host and target).
"""
import os
import re
import subprocess

ROOT = os.path.abspath(os.path.join(os.path.dirname(__file__), ".."))
SRC_DIRS = ("lib", "drivers", "platform", "bench", "boot", "tools", "sim", "harness")
INCLUDE = re.compile(r'^\s*#\s*include\s+"([^"]+)"', re.M)
HOST_ONLY = ("sim/", "harness/")
FORBIDDEN = {"lib": ("drivers/", "platform/", "boot/", "bench/") + HOST_ONLY,
             "drivers": ("platform/", "boot/", "bench/") + HOST_ONLY,
             "platform": ("boot/", "bench/") + HOST_ONLY,
             "bench": ("boot/", "platform/") + HOST_ONLY,
             "boot": HOST_ONLY,
             "sim": ("platform/", "boot/", "bench/", "harness/", "tools/", "tests/"),
             "harness": ("boot/", "tools/", "tests/")}


def sources():
    for d in SRC_DIRS:
        for dirpath, _, files in os.walk(os.path.join(ROOT, d)):
            for f in files:
                if f.endswith((".c", ".h", ".S")):
                    yield os.path.relpath(os.path.join(dirpath, f), ROOT)


def includes(path):
    return INCLUDE.findall(open(os.path.join(ROOT, path)).read())


def upward_includes(paths):
    bad = []
    for path in paths:
        top = path.split("/")[0]
        for inc in includes(path):
            if inc.startswith(FORBIDDEN.get(top, ())):
                bad.append("%s includes %s" % (path, inc))
    return bad


def test_calls_go_down_only():
    files = list(sources())
    assert "sim/sim_core.c" in files and "harness/sim_board.c" in files
    bad = upward_includes(files)
    assert not bad, "\n".join(bad)


def test_the_layering_check_finds_an_upward_include(monkeypatch):
    """The check above fails on a model that reaches into bench/ or
    platform/, and on product code that reaches into the harness."""
    real = includes

    def fake(path):
        extra = {"sim/sim_core.c": ["bench/env.h"], "sim/sim_gpio.c": ["platform/slot.h"],
                 "platform/slot.c": ["harness/sim_board.h"], "drivers/mailbox.c": ["sim/sim.h"]}
        return real(path) + extra.get(path, [])

    monkeypatch.setattr(__import__(__name__), "includes", fake)
    bad = upward_includes(["sim/sim_core.c", "sim/sim_gpio.c", "platform/slot.c",
                           "drivers/mailbox.c", "harness/sim_board.c"])
    assert bad == ["sim/sim_core.c includes bench/env.h", "sim/sim_gpio.c includes platform/slot.h",
                   "platform/slot.c includes harness/sim_board.h",
                   "drivers/mailbox.c includes sim/sim.h"], bad


def module_graph():
    graph = {}
    for path in sources():
        mod = os.path.splitext(path)[0]
        for inc in includes(path):
            dep = os.path.splitext(inc)[0]
            if dep != mod and os.path.exists(os.path.join(ROOT, inc)):
                graph.setdefault(mod, set()).add(dep)
    return graph


def find_cycle(graph):
    state, stack = {}, []

    def visit(n):
        state[n] = 1
        stack.append(n)
        for m in sorted(graph.get(n, ())):
            if state.get(m) == 1:
                return stack[stack.index(m):] + [m]
            if not state.get(m):
                c = visit(m)
                if c:
                    return c
        stack.pop()
        state[n] = 2
        return None

    for n in sorted(graph):
        if not state.get(n):
            c = visit(n)
            if c:
                return c
    return None


def test_no_include_cycles_between_modules():
    cycle = find_cycle(module_graph())
    assert cycle is None, "include cycle: " + " -> ".join(cycle)


def test_cycle_finder_finds_a_cycle():
    assert find_cycle({"a": {"b"}, "b": {"c"}, "c": {"a"}}) == ["a", "b", "c", "a"]
    assert find_cycle({"a": {"b"}, "b": {"c"}}) is None


DECL = re.compile(r"^[A-Za-z_][\w \t\*]*?\b([a-z_][a-z0-9_]*)\s*\([^;{]*\)\s*(__attribute__\s*\(\(.*\)\))?\s*;",
                  re.M)


# Seams: headers whose functions another layer implements on purpose (the
# host build's simulator and console; the target's UART behind the console).
SEAMS = {"drivers/mmio.h": ("sim/",),
         "drivers/timer.h": ("sim/",),
         "lib/console.h": ("lib/host/", "drivers/uart")}


def defined_symbols():
    """symbol -> set of source paths (without extension) whose object defines it."""
    out = {}
    for objroot in ("build/host/obj", "build/target"):
        base = os.path.join(ROOT, objroot)
        objs = []
        for dirpath, _, files in os.walk(base):
            for f in files:
                if not f.endswith(".o"):
                    continue
                obj = os.path.relpath(os.path.join(dirpath, f), base)
                if not any(os.path.exists(os.path.join(ROOT, os.path.splitext(obj)[0] + e))
                           for e in (".c", ".S")):
                    continue  # a stale object of a moved or deleted file
                objs.append(obj)
        # One nm for many objects (-A: each line starts with "OBJECT:"); one
        # process per object took most of this test's time.
        for i in range(0, len(objs), 200):
            nm = subprocess.run(["nm", "--defined-only", "-A"] + objs[i:i + 200], cwd=base,
                                stdout=subprocess.PIPE, text=True).stdout
            for line in nm.splitlines():
                obj, _, sym = line.partition(":")
                parts = sym.split()
                if len(parts) == 3 and parts[1] in "TDBR":
                    out.setdefault(parts[2], set()).add(os.path.splitext(obj)[0])
    return out


def test_each_header_declares_only_what_its_c_file_defines():
    defs = defined_symbols()
    assert defs, "no built objects: run make first"
    bad = []
    for path in sources():
        # sim/sim.h is the simulator's one interface over its sim_*.c files
        if not path.endswith(".h") or path.startswith(("tools/", "sim/")):
            continue
        mod = os.path.splitext(path)[0]
        text = re.sub(r"/\*.*?\*/", "", open(os.path.join(ROOT, path)).read(), flags=re.S)
        for m in DECL.finditer(text):
            fn = m.group(1)
            where = defs.get(fn)
            if not where or mod in where:
                continue  # inline, macro, or host/target-only variant not built
            if path in SEAMS and all(w.startswith(SEAMS[path]) for w in where):
                continue
            bad.append("%s declares %s, defined in %s" % (path, fn, ", ".join(sorted(where))))
    assert not bad, "\n".join(bad)


CARD_WRITES = re.compile(r"\b(sd_write_blocks|sd_write_single|sd_erase|sd_ext_write_byte|"
                         r"sd_cache_set|sd_cq_set|sd_cache_flush|sd_cq_queue)\s*\(")


def test_only_the_write_guard_writes_to_the_card():
    """In bench/, the card layer's writes and erase are called from the write
    guard alone (bench/storage/write_guard.c); everything else asks it."""
    bad = []
    for path in sources():
        if not path.startswith("bench/") or path == "bench/storage/write_guard.c":
            continue
        text = re.sub(r"/\*.*?\*/", "", open(os.path.join(ROOT, path)).read(), flags=re.S)
        for m in CARD_WRITES.finditer(text):
            bad.append("%s calls %s" % (path, m.group(1)))
    assert not bad, "\n".join(bad)


# The simulator checks the drivers: its models share no register map with
# them (a wrong bit in a shared header would be invisible to every check).
# A model (any sim/ file; the harness, which wires the real drivers to the
# models, is harness/) may include from drivers/ only the seams it
# implements or serves; nothing under sim/ or harness/ may reach a
# driver's register header (drivers/**/*_regs.h), directly or through
# another header.
SIM_SEAM_HEADERS = {"drivers/mmio.h", "drivers/timer.h", "drivers/dma/dma_addr.h",
                    "drivers/dma/cache.h"}
REG_HEADER = re.compile(r"^drivers/.*_regs\.h$")


def reached_includes(path, seen=None):
    """Every project header path includes, transitively."""
    seen = set() if seen is None else seen
    for inc in includes(path):
        if inc not in seen and os.path.exists(os.path.join(ROOT, inc)):
            seen.add(inc)
            reached_includes(inc, seen)
    return seen


def sim_include_violations(files):
    bad = []
    for path in files:
        for inc in includes(path):
            if (inc.startswith("drivers/") and path.startswith("sim/") and
                    inc not in SIM_SEAM_HEADERS):
                bad.append("%s (a simulator model) includes %s" % (path, inc))
        for inc in sorted(reached_includes(path)):
            if REG_HEADER.match(inc):
                bad.append("%s reaches the driver register header %s" % (path, inc))
    return bad


def sim_sources():
    for d in ("sim", "harness"):
        for f in sorted(os.listdir(os.path.join(ROOT, d))):
            if f.endswith((".c", ".h")):
                yield d + "/" + f


def test_no_simulator_model_shares_a_driver_register_header():
    files = list(sim_sources())
    assert "sim/sim_sdhost.c" in files and "harness/sim_harness.c" in files
    bad = sim_include_violations(files)
    assert not bad, "\n".join(bad)


def test_the_simulator_include_check_finds_a_shared_header(tmp_path, monkeypatch):
    """The check above fails on a model that includes a driver header."""
    real = includes

    def fake(path):
        if path == "sim/sim_sdhost.c":
            return real(path) + ["drivers/sdhost/bcm2835_sdhost_regs.h"]
        if path == "sim/sim_sdhci.c":
            return real(path) + ["drivers/sdhci/sdhci.h"]
        return real(path)

    monkeypatch.setattr(__import__(__name__), "includes", fake)
    bad = sim_include_violations(["sim/sim_sdhost.c", "sim/sim_sdhci.c"])
    assert any("sim_sdhost.c reaches the driver register header" in b for b in bad), bad
    assert any("sim_sdhci.c (a simulator model) includes drivers/sdhci/sdhci.h" in b
               for b in bad), bad
