#!/usr/bin/python3
"""sdbreport - summarise, compare and plot sdbench console logs.

sdbench prints every result as a "@ " + JSON record line (docs/records.md);
this tool reads only those lines, so it works on any capture of the serial
console (picocom --logfile, screen -L, QEMU's stdout).

  sdbreport run.log                 board, card, one line per workload, verdicts
  sdbreport old.log new.log         the same workloads side by side (MB/s, IOPS)
  sdbreport --json run.log          everything as one JSON object
  sdbreport --plot DIR run.log      PNG charts (needs Debian's python3-matplotlib)

Exit status: 0, 1 when the run reported errors or did not finish, 2 for a
bad command line or an unreadable file.
"""
import argparse
import json
import os
import sys


def read_records(path):
    recs, bad = [], 0
    with open(path, "r", encoding="utf-8", errors="replace") as f:
        for line in f:
            line = line.rstrip("\r\n")
            i = line.find("@ {")
            if i < 0:
                continue
            try:
                recs.append(json.loads(line[i + 2:]))
            except ValueError:
                bad += 1
    return recs, bad


class Run:
    def __init__(self, path):
        self.path = path
        self.records, self.bad_lines = read_records(path)
        self.by_type = {}
        for r in self.records:
            self.by_type.setdefault(r.get("type"), []).append(r)
        self.workloads = {}
        for t in ("result", "latency", "phases", "verdict"):
            for r in self.by_type.get(t, []):
                self.workloads.setdefault(r["workload"], {})[t] = r

    def one(self, t):
        v = self.by_type.get(t)
        return v[-1] if v else None

    def done(self):
        return self.one("done")


def fmt_us(ns):
    return "%.1f" % (ns / 1000.0) if ns is not None else "-"


def summary(run, out):
    b, c, d = run.one("board"), run.one("card"), run.done()
    if b:
        out.write("board: %s (%s), %s, timer %s %s Hz%s\n" % (
            b.get("model"), b.get("revision"), b.get("soc"), b["timer"]["source"],
            b["timer"]["freq_hz"], ", EMULATED: timings are QEMU's" if b.get("emulated") else ""))
    if c:
        cid = c.get("cid") or {}
        out.write("card: %s %s %s, %d MiB, %d-bit %s at %d Hz\n" % (
            cid.get("manufacturer"), cid.get("oid"), cid.get("pnm"),
            c.get("capacity_bytes", 0) >> 20, c.get("width", 0), c.get("timing"),
            c.get("clock_hz", 0)))
    ta = run.one("test_area")
    if ta:
        out.write("test area: %s\n" % (ta["reason"] if ta.get("usable") else "none - " + ta.get("reason", "")))
    out.write("\n%-28s %10s %10s %9s %10s %10s  %s\n" % (
        "workload", "MB/s", "MiB/s", "IOPS", "p50 us", "p99 us", "verdict"))
    for name, w in run.workloads.items():
        r, lat, v = w.get("result"), w.get("latency"), w.get("verdict")
        if not r:
            continue
        out.write("%-28s %10.3f %10.3f %9.0f %10s %10s  %s\n" % (
            name, r["mbs"] or 0, r["mibs"] or 0, r["iops"] or 0,
            fmt_us(lat and lat["p50_ns"]), fmt_us(lat and lat["p99_ns"]),
            v["text"] if v else ""))
    for t in ("class", "au", "open_au", "sustained", "integrity", "skipped"):
        for r in run.by_type.get(t, []):
            rest = {k: v for k, v in r.items() if k != "type"}
            out.write("%s: %s\n" % (t, json.dumps(rest, sort_keys=True)))
    for e in run.by_type.get("error", []):
        out.write("error [%s]: %s (%s)\n" % (e.get("context"), e.get("message"), e.get("code")))
    if d:
        out.write("\nrun ended: %d error(s), %.1f s\n" % (d["errors"], d["elapsed_us"] / 1e6))
    else:
        out.write("\nrun did not finish (no done record)\n")


def compare(a, b, out):
    out.write("%-28s %12s %12s %8s   %10s %10s\n" % (
        "workload", "MB/s " + "A", "MB/s B", "B/A", "IOPS A", "IOPS B"))
    for name in a.workloads:
        ra, rb = a.workloads[name].get("result"), b.workloads.get(name, {}).get("result")
        if not ra or not rb:
            continue
        ratio = (rb["mbs"] / ra["mbs"]) if ra["mbs"] else float("nan")
        out.write("%-28s %12.3f %12.3f %8.2f   %10.0f %10.0f\n" % (
            name, ra["mbs"], rb["mbs"], ratio, ra["iops"], rb["iops"]))
    out.write("A = %s\nB = %s\n" % (a.path, b.path))


def plot(run, outdir):
    try:
        import matplotlib
        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError:
        sys.stderr.write("sdbreport: --plot needs matplotlib (apt-get install python3-matplotlib)\n")
        return 2
    os.makedirs(outdir, exist_ok=True)
    made = []
    for op in ("read", "write"):
        pts = sorted((w["result"]["xfer_bytes"], w["result"]["mbs"])
                     for n, w in run.workloads.items()
                     if n.startswith("seq-%s-" % op) and "result" in w)
        if pts:
            fig, ax = plt.subplots()
            ax.semilogx([p[0] for p in pts], [p[1] for p in pts], marker="o", base=2)
            ax.set_xlabel("transfer size (bytes)")
            ax.set_ylabel("MB/s (10^6 B/s)")
            ax.set_title("sequential %s" % op)
            ax.grid(True)
            path = os.path.join(outdir, "seq-%s.png" % op)
            fig.savefig(path)
            plt.close(fig)
            made.append(path)
    for r in run.by_type.get("series", []):
        fig, ax = plt.subplots()
        step = r["interval_ns"] / 1e9
        xs = [i * step for i in range(len(r["mbs"]))]
        ax.plot(xs, r["mbs"])
        ax.set_xlabel("time (s)")
        ax.set_ylabel("MB/s")
        ax.set_title(r["workload"])
        ax.grid(True)
        path = os.path.join(outdir, "series-%s.png" % r["workload"])
        fig.savefig(path)
        plt.close(fig)
        made.append(path)
    for p in made:
        print(p)
    return 0


def main(argv=None):
    ap = argparse.ArgumentParser(prog="sdbreport", description=__doc__.split("\n")[0])
    ap.add_argument("logs", nargs="+", help="console log(s) of sdbench runs")
    ap.add_argument("--json", action="store_true", help="print one JSON object")
    ap.add_argument("--plot", metavar="DIR", help="write PNG charts into DIR")
    a = ap.parse_args(argv)
    if len(a.logs) > 2:
        ap.error("at most two logs (one to summarise, two to compare)")
    runs = []
    for p in a.logs:
        try:
            runs.append(Run(p))
        except OSError as e:
            sys.stderr.write("sdbreport: %s: %s\n" % (p, e.strerror))
            return 2
        if not runs[-1].records:
            sys.stderr.write("sdbreport: %s: no sdbench records (lines starting with '@ ')\n" % p)
            return 2
    if a.json:
        r = runs[0]
        json.dump({"board": r.one("board"), "card": r.one("card"), "done": r.done(),
                   "workloads": r.workloads, "errors": r.by_type.get("error", []),
                   "bad_lines": r.bad_lines}, sys.stdout, indent=1, sort_keys=True)
        sys.stdout.write("\n")
    elif len(runs) == 2:
        compare(runs[0], runs[1], sys.stdout)
    else:
        summary(runs[0], sys.stdout)
    if a.plot:
        rc = plot(runs[0], a.plot)
        if rc:
            return rc
    d = runs[0].done()
    return 0 if d and d["errors"] == 0 else 1


if __name__ == "__main__":
    sys.exit(main())
