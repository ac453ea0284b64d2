#!/usr/bin/python3
"""sdbreport - reports, charts, CSV and comparisons of sdbench console logs.

sdbench prints every result as a line "@ " + JSON (docs/records.md); this
tool reads only those lines, so any capture of the serial console works
(sdbcapture, picocom --logfile, screen -L, QEMU's output). Noise, cut or
garbled lines, CR LF line ends and several runs in one file are reported
as warnings with their line numbers and skipped.

  sdbreport run.log                      the run as text: board, card, every result
  sdbreport a.log b.log ...              the runs side by side (same workloads)
  sdbreport compare a.log b.log ...      per workload: the median rates with their sample
                                         counts and spread, the difference, and whether it
                                         is larger than the runs' own spread (one log of
                                         several runs: its runs)
  sdbreport report run.log ...           the same as sdbreport run.log ...: report is the
                                         command when none is named (a log named
                                         compare or report: ./compare)
  sdbreport --html report.html run.log   one self-contained HTML file with charts
  sdbreport --html cmp.html a.log b.log  the comparison as HTML
  sdbreport --csv DIR run.log ...        one CSV per record type (docs/host-tools.md)
  sdbreport --json run.log               everything as JSON
  sdbreport --plot DIR run.log           every chart as a PNG file
  sdbreport --predict --clock 50M --width 4 run.log
                                         the run with what the same card would do at
                                         another clock / width (docs/prediction.md)

A file holding several runs is reported by its last run; --run N picks
another (1 = the first, -2 = the one before the last).

Exit status:
  0  the report was written; every run reported ended with a done record
     and no errors
  1  the report was written, but a run reported errors, was cut short (no
     done record) or was stopped by an exception
  2  bad command line, a log that cannot be read or holds no records, no
     run N, an output that cannot be written, or matplotlib missing for
     --html / --plot (apt-get install python3-matplotlib)
Warnings about log lines go to standard error and do not change the status.
"""
import argparse
import json
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.realpath(__file__)))

from sdbhost import headline, records, text  # noqa: E402
from sdbhost.model import run_label  # noqa: E402
from sdbhost.predict import BUS_MODES, NoPrediction, Target, predict, render_text  # noqa: E402


def parse_hz(s):
    """A frequency as in sdbench.txt: Hz, or with k/kHz, M/MHz."""
    t = s.strip()
    for suf, mul in (("MHz", 1e6), ("kHz", 1e3), ("Hz", 1), ("M", 1e6), ("k", 1e3)):
        if t.endswith(suf):
            t, m = t[:-len(suf)], mul
            break
    else:
        m = 1
    try:
        v = float(t) * m
    except ValueError:
        raise argparse.ArgumentTypeError("not a frequency: %r (e.g. 50M, 25MHz, 400k)" % s)
    if not 100e3 <= v <= 208e6:
        raise argparse.ArgumentTypeError("%s is outside 100 kHz .. 208 MHz" % s)
    return v


def fail(msg):
    sys.stderr.write("sdbreport: %s\n" % msg)
    return 2


def run_json(log, run):
    return {"log": log.path, "run": run.index, "runs_in_file": len(log.runs),
            "headline": headline.as_dict(headline.headline(run)),
            "emulated": run.emulated, "ended_by": run.ended_by,
            "board": run.one("board"), "card": run.one("card"), "done": run.done(),
            "workloads": run.workloads, "errors": run.all("error"),
            "bad_lines": log.bad_lines,
            "warnings": [{"line": n, "text": t} for n, t in log.warnings],
            "records": run.records}


def need_matplotlib(what):
    try:
        import matplotlib  # noqa: F401
    except ImportError:
        sys.stderr.write("sdbreport: %s needs matplotlib (apt-get install python3-matplotlib)\n"
                         % what)
        return False
    return True


class _Intermixed(argparse.ArgumentParser):
    """A command's parser: its options may come before, between or after
    the logs (sdbreport compare A.log --json B.log), as
    parse_intermixed_args allows; argparse's subcommands otherwise take the
    logs only in one piece."""
    _inner = False

    def parse_known_args(self, args=None, namespace=None):
        if self._inner:
            return super().parse_known_args(args, namespace)
        self._inner = True
        try:
            return self.parse_known_intermixed_args(args, namespace)
        finally:
            self._inner = False


def _common():
    """The options of every command, also accepted before the command
    (sdbreport --json compare A B). SUPPRESS: a command's default must not
    undo the value given before it (defaults are set in parse())."""
    c = argparse.ArgumentParser(add_help=False)
    c.add_argument("--json", action="store_true", default=argparse.SUPPRESS,
                   help="print the run(s) as JSON")
    c.add_argument("--run", type=int, metavar="N", default=argparse.SUPPRESS,
                   help="the run to report from each file (1 = first, -1 = last; default last)")
    c.add_argument("-q", "--quiet", action="store_true", default=argparse.SUPPRESS,
                   help="no warnings about log lines")
    return c


def _report_options(p):
    p.add_argument("logs", nargs="+", metavar="LOG", help="console log(s) of sdbench runs")
    p.add_argument("--html", metavar="FILE", help="write a self-contained HTML report")
    p.add_argument("--csv", metavar="DIR", help="write one CSV file per record type into DIR")
    p.add_argument("--plot", metavar="DIR", help="write every chart as a PNG file into DIR")
    p.add_argument("--text", action="store_true",
                   help="print the text report also when writing files")
    p.add_argument("--predict", action="store_true",
                   help="add what the same card would do at --clock / --width / --bus-mode "
                        "(one run; docs/prediction.md)")
    p.add_argument("--clock", metavar="HZ", type=parse_hz,
                   help="SD clock to predict for (50M, 25MHz, 400k; default the run's)")
    p.add_argument("--width", type=int, choices=(1, 4), help="bus width to predict for")
    p.add_argument("--bus-mode", choices=sorted(BUS_MODES),
                   help="bus mode to predict for: its framing, and its clock unless --clock")
    p.add_argument("--cpu-factor", type=float, metavar="X",
                   help="the CPU's time moving data times X (another host; about 0 for DMA)")


def parser():
    """sdbreport [options] COMMAND ...: the commands report (the default:
    sdbreport LOG... is sdbreport report LOG...) and compare."""
    doc = __doc__.split("\n")
    common = _common()
    ap = argparse.ArgumentParser(
        prog="sdbreport", description=doc[0].split(" - ", 1)[1], parents=[common],
        formatter_class=argparse.RawDescriptionHelpFormatter, exit_on_error=False,
        epilog="\n".join(doc[2:]))
    sub = ap.add_subparsers(dest="command", metavar="COMMAND", parser_class=_Intermixed)
    rep = sub.add_parser(
        "report", parents=[common], formatter_class=argparse.RawDescriptionHelpFormatter,
        help="the run(s) as text, HTML, CSV, JSON or charts (the default command: "
             "sdbreport LOG... is sdbreport report LOG...)",
        epilog="\n".join(doc[doc.index("Exit status:"):]))
    _report_options(rep)
    cmp = sub.add_parser(
        "compare", parents=[common], formatter_class=argparse.RawDescriptionHelpFormatter,
        help="per workload: median rates, sample counts, spread, the difference and "
             "whether it exceeds the spread (one log of several runs: its runs)",
        epilog="\n".join(doc[doc.index("Exit status:"):]))
    cmp.add_argument("logs", nargs="+", metavar="LOG", help="two logs or more, or one log of "
                     "several runs")
    return ap


def parse(argv):
    """(parser, arguments): a command line without a command word is the
    report command's (sdbreport --html r.html run.log)."""
    ap = parser()
    try:
        a = ap.parse_args(argv)
    except argparse.ArgumentError:
        a = None            # the first word is a log, not a command
    if a is None or a.command is None:
        try:
            a = ap.parse_args(["report"] + argv)
        except argparse.ArgumentError as e:
            ap.error(str(e))
    for k, v in (("json", False), ("run", None), ("quiet", False)):
        if not hasattr(a, k):
            setattr(a, k, v)
    if a.run == 0:
        ap.error("--run counts from 1 (or from -1 for the last)")
    if a.command == "report" and not a.predict and (
            a.clock or a.width or a.bus_mode or a.cpu_factor is not None):
        ap.error("--clock, --width, --bus-mode and --cpu-factor go with --predict")
    return ap, a


def load(a):
    """(logs, runs) of the command line's logs, or the exit status when one
    cannot be read."""
    logs, runs = [], []
    for p in a.logs:
        try:
            log = records.read_log(p)
        except OSError as e:
            return fail("%s: %s" % (p, e.strerror or e))
        if not a.quiet:
            text.render_warnings(log, sys.stderr)
        if not log.runs:
            return fail("%s: no sdbench records (lines starting with '@ ')" % p)
        run = log.selected(a.run)
        if run is None:
            return fail("%s: no run %d (the file holds %d)" % (p, a.run, len(log.runs)))
        if len(log.runs) > 1 and not a.quiet:
            sys.stderr.write("sdbreport: %s holds %d runs; reporting %s%s\n" % (
                p, len(log.runs), run.describe(),
                "" if a.run else " (--run N for another)"))
        logs.append(log)
        runs.append(run)
    return logs, runs


def cmd_compare(a, logs, runs):
    from sdbhost import compare as cmp
    if len(runs) == 1 and len(logs[0].runs) > 1 and a.run is None:
        runs = list(logs[0].runs)    # one session of several runs
    if len(runs) < 2:
        return fail("compare needs two runs or more (two logs, or one log of several runs)")
    labels = [run_label(r, i, len(runs)) for i, r in enumerate(runs)]
    if a.json:
        json.dump(cmp.as_json(runs, labels), sys.stdout, indent=1, sort_keys=True)
        sys.stdout.write("\n")
    else:
        cmp.render_text(runs, labels, sys.stdout)
    return 0 if all(r.ok() for r in runs) else 1


def print_report(a, logs, runs, labels, pred):
    """The report on standard output: JSON, or text unless only files are
    asked for."""
    if a.json:
        objs = [run_json(l, r) for l, r in zip(logs, runs)]
        if pred:
            objs[0]["prediction"] = pred.as_dict()
        json.dump(objs[0] if len(objs) == 1 else objs, sys.stdout, indent=1, sort_keys=True)
        sys.stdout.write("\n")
    elif a.text or not (a.html or a.csv or a.plot):
        if len(runs) == 1:
            text.render_run(runs[0], sys.stdout, logs[0])
            if pred:
                render_text(pred, sys.stdout)
        else:
            text.render_compare(runs, labels, sys.stdout)


def write_files(a, logs, runs, labels, pred):
    """--csv, --html, --plot; the exit status when one cannot be written."""
    if a.csv:
        from sdbhost import csvout
        try:
            made = csvout.write_csv(a.csv, [(os.path.basename(r.path), r) for r in runs])
        except OSError as e:
            return fail("%s: %s" % (a.csv, e.strerror or e))
        sys.stderr.write("sdbreport: %d CSV files in %s\n" % (len(made), a.csv))
    if a.html:
        if not need_matplotlib("--html"):
            return 2
        from sdbhost import html
        page, rep = html.render(runs, labels, logs, prediction=pred)
        try:
            with open(a.html, "w", encoding="utf-8") as f:
                f.write(page)
        except OSError as e:
            return fail("%s: %s" % (a.html, e.strerror or e))
        sys.stderr.write("sdbreport: wrote %s (%d sections, %d charts%s)\n" % (
            a.html, len(rep.present), len(rep.charts),
            ", emulated run" if rep.emulated else ""))
    if a.plot:
        if not need_matplotlib("--plot"):
            return 2
        from sdbhost import html
        try:
            made = html.write_pngs(a.plot, runs, labels)
        except OSError as e:
            return fail("%s: %s" % (a.plot, e.strerror or e))
        for p in made:
            print(p)
    return None


def cmd_report(a, logs, runs):
    labels = [run_label(r, i, len(runs)) for i, r in enumerate(runs)] if len(runs) > 1 \
        else [os.path.basename(runs[0].path)]
    pred = None
    if a.predict:
        if len(runs) != 1:
            return fail("--predict takes one run")
        try:
            pred = predict(runs[0], Target(a.clock, a.width, a.bus_mode, a.cpu_factor))
        except NoPrediction as e:
            return fail("--predict: no prediction from %s: %s" % (runs[0].path, e))
    print_report(a, logs, runs, labels, pred)
    code = write_files(a, logs, runs, labels, pred)
    if code is not None:
        return code
    return 0 if all(r.ok() for r in runs) else 1


def main(argv=None):
    _, a = parse(list(sys.argv[1:] if argv is None else argv))
    loaded = load(a)
    if isinstance(loaded, int):
        return loaded
    if a.command == "compare":
        return cmd_compare(a, *loaded)
    return cmd_report(a, *loaded)


def entry():
    """The console command (pyproject.toml); a closed pipe (| head) is not
    an error."""
    try:
        code = main()
        sys.stdout.flush()
    except BrokenPipeError:
        # the reader went away: nothing more to say, and no traceback
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
        code = 0
    return code


if __name__ == "__main__":
    sys.exit(entry())
