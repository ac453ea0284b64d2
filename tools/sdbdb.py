#!/usr/bin/python3
"""sdbdb - a database of sdbench runs: add logs, list and compare cards.

Runs are kept in an SQLite file (default ./sdbench.db, or $SDBDB) or on a
PostgreSQL server (--db postgresql://user@host/dbname, python3-psycopg2).
Each run is stored once (its records' content hash) with the card's CID
identity and claims, the board, host, data path, bus mode and every
workload (docs/database.md).

  sdbdb add run.log ...          store every run of the logs
  sdbdb list                     the cards, one line per card and source
  sdbdb show CARD                a card and its runs (CARD: its number #12,
                                 serial 0x1c0c0c0c, CID hex or product name)
  sdbdb compare CARD             rank and percentile per workload among the
                                 cards run on the same board family and bus mode,
                                 and the same model's batches
  sdbdb export --format csv      everything as CSV (or json) on stdout or -o FILE
  sdbdb html -o cards.html       a page with the cards' headline figures and charts
  sdbdb queue-ok                 the cards (CIDs) whose SD command queue passed every
                                 check on a board, as the kernel's sysfs shows them
                                 (manfid, oemid, name, hwrev, fwrev, date): a list for
                                 a quirk table of cards with a known-good queue

Runs under QEMU or on the simulator are stored as such and ranked only
among their own kind; --include-emulated ranks them with board runs.

Exit status:
  0  done (add: every run stored, or stored before)
  1  add: a log or a run was refused (not a log, no card record, cut short);
     the others were stored
  2  bad command line, a database that cannot be opened or used (not an
     sdbench database, server unreachable or gone: nothing of the run being
     added is stored), an unknown card, an output that cannot be written
"""
import argparse
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.realpath(__file__)))

from sdbhost.db import DbError, Store, is_url  # noqa: E402
from sdbhost.db import export, queries as Q, text  # noqa: E402

DEFAULT_DB = "sdbench.db"


def fail(msg):
    sys.stderr.write("sdbdb: %s\n" % msg)
    return 2


def cmd_add(st, a):
    refused = 0
    card = Q.find_card(st.db, a.card) if a.card else None
    for path in a.logs:
        try:
            results = st.add_log(path, card)
        except DbError as e:
            return fail("%s: not stored: %s (runs added before it are kept)" % (path, e))
        for r in results:
            if r.status == "refused":
                refused += 1
                sys.stderr.write("sdbdb: %s: %s\n" % (path, r.message))
            elif not a.quiet:
                print("%s: %s" % (path, r.message))
    return 1 if refused else 0


def cmd_list(st, a):
    text.render_list(Q.cards(st.db, not a.measured_only), sys.stdout)
    return 0


def cmd_show(st, a):
    c = Q.find_card(st.db, a.card)
    text.render_show(c, Q.runs(st.db, c["id"]), lambda rid: Q.workloads(st.db, rid),
                     sys.stdout, a.all)
    return 0


def cmd_compare(st, a):
    c = Q.find_card(st.db, a.card)
    text.render_compare(c, Q.compare(st.db, c, a.include_emulated), sys.stdout)
    return 0


def _output(path):
    if not path or path == "-":
        return sys.stdout
    return open(path, "w", encoding="utf-8", newline="")


def cmd_export(st, a):
    out = _output(a.output)
    try:
        if a.format == "csv":
            export.write_csv(st.db, out, not a.measured_only)
        else:
            export.write_json(st.db, out, not a.measured_only)
    finally:
        if out is not sys.stdout:
            out.close()
    return 0


def _date(mdt):
    """CID date "2022-07" as Linux's sysfs date "07/2022"."""
    if isinstance(mdt, str) and len(mdt) == 7 and mdt[4] == "-":
        return "%s/%s" % (mdt[5:], mdt[:4])
    return mdt or "-"


def _hexf(v, fmt):
    return fmt % v if isinstance(v, int) else "-"


def queue_ok_rows(cards):
    """The cards of Q.queue_passed as flat rows, the CID fields as Linux's
    sysfs prints them (drivers/mmc/core/sd.c: manfid 0x%06x, oemid 0x%04x,
    hwrev and fwrev 0x%x, date MM/YYYY)."""
    return [{"manfid": _hexf(c["mid"], "0x%06x"), "oemid": _hexf(c["oemid"], "0x%04x"),
             "name": c["pnm"] or "-", "hwrev": _hexf(c["hwrev"], "0x%x"),
             "fwrev": _hexf(c["fwrev"], "0x%x"), "date": _date(c["mdt"]),
             "manufacturer": c["manufacturer"] or "-", "serial": c["psn_hex"] or "-",
             "depth": c["depth"], "runs": c["runs_ok"], "a2": " ".join(c["a2"]) or "-",
             "cid": c["cid_raw"] or "-"} for c in cards]


def cmd_queue_ok(st, a):
    import csv
    import json
    rows = queue_ok_rows(Q.queue_passed(st.db, a.include_emulated))
    out = _output(a.output)
    try:
        if a.format == "json":
            json.dump(rows, out, indent=1)
            out.write("\n")
        elif a.format == "csv":
            w = csv.writer(out, lineterminator="\n")
            cols = list(rows[0]) if rows else list(queue_ok_rows([_EMPTY])[0])
            w.writerow(cols)
            for r in rows:
                w.writerow([r[k] for k in cols])
        else:
            out.write("# cards whose SD command queue passed every sdbench check (%s runs): "
                      "manfid oemid name hwrev fwrev date, then what sdbench saw\n"
                      % ("all" if a.include_emulated else "board"))
            for r in rows:
                out.write("%(manfid)s %(oemid)s %(name)s %(hwrev)s %(fwrev)s %(date)s  "
                          "# %(manufacturer)s serial %(serial)s, queue depth %(depth)s, "
                          "%(runs)s run(s), A2 on the queue: %(a2)s, CID %(cid)s\n" % r)
    finally:
        if out is not sys.stdout:
            out.close()
    return 0


_EMPTY = {"mid": None, "oemid": None, "pnm": None, "hwrev": None, "fwrev": None, "mdt": None,
          "manufacturer": None, "psn_hex": None, "depth": None, "runs_ok": 0, "a2": [],
          "cid_raw": None}


def cmd_html(st, a):
    try:
        import matplotlib  # noqa: F401
    except ImportError:
        return fail("html needs matplotlib (apt-get install python3-matplotlib)")
    from sdbhost.db import page
    doc, n, chart = page.render(st.db, a.include_emulated)
    with open(a.output, "w", encoding="utf-8") as f:
        f.write(doc)
    sys.stderr.write("sdbdb: wrote %s (%d cards%s)\n" % (a.output, n,
                                                        ", a chart" if chart else ""))
    return 0


def parser():
    doc = __doc__.split("\n")
    common = argparse.ArgumentParser(add_help=False)
    # SUPPRESS: --db may come before or after the command, and a
    # subcommand's default must not override the value given before it.
    common.add_argument("--db", metavar="FILE|URL", default=argparse.SUPPRESS,
                        help="SQLite file or postgresql:// URL (default $SDBDB or %s)"
                             % DEFAULT_DB)
    ap = argparse.ArgumentParser(
        prog="sdbdb", description=doc[0].split(" - ", 1)[1], parents=[common],
        formatter_class=argparse.RawDescriptionHelpFormatter,
        epilog="\n".join(doc[2:]))
    sub = ap.add_subparsers(dest="cmd", metavar="COMMAND")
    sub.required = True
    p = sub.add_parser("add", parents=[common], help="store the runs of sdbench logs")
    p.add_argument("logs", nargs="+", metavar="LOG")
    p.add_argument("-q", "--quiet", action="store_true", help="only problems")
    p.add_argument("--card", metavar="CARD",
                   help="the card (in the database) of runs without a card record: the "
                        "Linux companion's logs; a run whose card record names another "
                        "card is refused")
    p.set_defaults(fn=cmd_add)
    p = sub.add_parser("list", parents=[common], help="the cards")
    p.add_argument("--measured-only", action="store_true",
                   help="leave out runs under QEMU and on the simulator")
    p.set_defaults(fn=cmd_list)
    p = sub.add_parser("show", parents=[common], help="a card and its runs")
    p.add_argument("card", metavar="CARD")
    p.add_argument("--all", action="store_true", help="the workloads of every run "
                                                      "(default: of the last one)")
    p.set_defaults(fn=cmd_show)
    p = sub.add_parser("compare", parents=[common], help="a card against the others")
    p.add_argument("card", metavar="CARD")
    p.add_argument("--include-emulated", action="store_true",
                   help="rank QEMU and simulator runs together with board runs")
    p.set_defaults(fn=cmd_compare)
    p = sub.add_parser("export", parents=[common], help="everything as CSV or JSON")
    p.add_argument("--format", choices=("csv", "json"), default="json")
    p.add_argument("-o", "--output", metavar="FILE", help="default: standard output")
    p.add_argument("--measured-only", action="store_true",
                   help="leave out runs under QEMU and on the simulator")
    p.set_defaults(fn=cmd_export)
    p = sub.add_parser("html", parents=[common], help="a page of the cards with charts")
    p.add_argument("-o", "--output", metavar="FILE", required=True)
    p.add_argument("--include-emulated", action="store_true",
                   help="add QEMU and simulator runs (marked)")
    p.set_defaults(fn=cmd_html)
    p = sub.add_parser("queue-ok", parents=[common],
                       help="the cards whose command queue passed every check")
    p.add_argument("--format", choices=("text", "csv", "json"), default="text")
    p.add_argument("-o", "--output", metavar="FILE", help="default: standard output")
    p.add_argument("--include-emulated", action="store_true",
                   help="also the simulator's cards (not for a kernel's table)")
    p.set_defaults(fn=cmd_queue_ok)
    return ap


def main(argv=None):
    a = parser().parse_args(argv)
    target = getattr(a, "db", None) or os.environ.get("SDBDB") or DEFAULT_DB
    if a.cmd != "add" and not is_url(target) and not os.path.exists(target):
        return fail("no database %s (sdbdb add LOG... creates it; --db names another)"
                    % target)
    try:
        st = Store.open(target)
    except DbError as e:
        return fail(str(e))
    try:
        return a.fn(st, a)
    except DbError as e:
        return fail(str(e))
    except BrokenPipeError:
        # the reader stopped early (sdbdb list | head): not an error
        sys.stderr.close()
        return 0
    except OSError as e:
        return fail("%s: %s" % (getattr(e, "filename", None) or "output", e.strerror or e))
    finally:
        st.close()


if __name__ == "__main__":
    sys.exit(main())
