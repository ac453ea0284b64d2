"""sdbdb html: one self-contained page, a table of the cards with their
headline figures (the median of each card's runs) and bar charts of
them (python3-matplotlib, embedded as PNG)."""
import base64
import html
import io

from . import queries as Q
from .text import claims, flags

FIGURES = [("seq_read_mbs", "sequential read, MB/s"), ("seq_write_mbs", "sequential write, MB/s"),
           ("rand_read_iops", "random 4 KiB read, IOPS"),
           ("rand_write_iops", "random 4 KiB write, IOPS")]


def _e(v):
    return html.escape("" if v is None else str(v))


def _num(v, fmt):
    return "" if v is None else fmt % v


def label(r):
    return "#%d %s %s%s" % (r["id"], r["pnm"] or "?", r["psn_hex"] or "",
                            "" if r["source"] == "board" else " [%s]" % r["source"])


def chart_png(rows):
    """Horizontal bars of the four headline figures per card; None when no
    card has one."""
    import matplotlib
    matplotlib.use("Agg")
    from matplotlib.figure import Figure
    have = [(k, t) for k, t in FIGURES if any(r[k] is not None for r in rows)]
    if not have:
        return None
    h, left, panel = 0.8 + 0.22 * len(rows), 2.4, 3.0        # inches
    w = left + panel * len(have)
    fig = Figure(figsize=(w, h))
    fig.subplots_adjust(left=left / w, right=1 - 0.15 / w, top=1 - 0.35 / h,
                        bottom=0.45 / h, wspace=0.12)
    labels = [label(r) for r in rows]
    for i, (k, title) in enumerate(have):
        ax = fig.add_subplot(1, len(have), i + 1)
        vals = [r[k] or 0 for r in rows]
        ax.barh(range(len(rows)), vals, color=["C%d" % (j % 10) for j in range(len(rows))])
        ax.set_yticks(range(len(rows)))
        ax.set_yticklabels(labels if i == 0 else [""] * len(rows), fontsize=7)
        ax.invert_yaxis()
        ax.set_title(title, fontsize=8)
        ax.tick_params(axis="x", labelsize=7)
    buf = io.BytesIO()
    fig.savefig(buf, format="png", dpi=80)
    return buf.getvalue()


def render(db, include_emulated=False):
    """(page, number of cards, chart drawn)."""
    rows = Q.cards(db, include_emulated)
    png = chart_png(rows) if rows else None
    body = ["<h1>SD cards tested</h1>",
            "<p>%d card(s) and source(s) from %s; headline figures are the median of each "
            "card's runs. %s</p>" % (len(rows), _e(db.target if not db.target.startswith(
                "postgres") else "a PostgreSQL database"),
                "Runs under QEMU and on the simulator are included and marked: their figures "
                "are not a card's speed." if include_emulated else
                "Only runs measured on a board (--include-emulated adds QEMU and simulator "
                "runs).")]
    body.append("<table><tr><th>card</th><th>manufacturer</th><th>OEM</th><th>product</th>"
                "<th>rev</th><th>serial</th><th>made</th><th>size</th><th>claims</th>"
                "<th>source</th><th>runs</th>" +
                "".join("<th>%s</th>" % _e(t) for _, t in FIGURES) + "<th>flags</th></tr>")
    for r in rows:
        body.append("<tr%s><td>#%d</td><td>%s</td><td>%s</td><td>%s</td><td>%s</td>"
                    "<td>%s</td><td>%s</td><td>%s</td><td>%s</td><td>%s</td><td>%d</td>%s"
                    "</tr>" % (
                        ' class="emulated"' if r["source"] in Q.EMULATED_SOURCES else "", r["id"],
                        _e(r["manufacturer"]), _e(r["oid"]), _e(r["pnm"]), _e(r["prv"]),
                        _e(r["psn_hex"]), _e(r["mdt"]),
                        _num(r["capacity_bytes"] and r["capacity_bytes"] / 1e9, "%.1f GB"),
                        _e(claims(r)), _e(r["source"]), r["runs"],
                        "".join("<td class=n>%s</td>" % _num(r[k], "%.2f" if "mbs" in k
                                                              else "%.0f")
                                for k, _ in FIGURES) + "<td>%s</td>" % _e(flags(r))))
    body.append("</table>")
    if png:
        body.append('<p><img alt="%s" src="data:image/png;base64,%s"></p>' % (
            _e("headline figures per card: " + ", ".join(label(r) for r in rows)),
            base64.b64encode(png).decode()))
    page = ("<!DOCTYPE html>\n<html><head><meta charset=\"utf-8\"><title>sdbench cards"
            "</title><style>body{font-family:sans-serif;margin:1.5em}table{border-collapse:"
            "collapse}td,th{border:1px solid #ccc;padding:2px 6px;font-size:13px}td.n{text-"
            "align:right}tr.emulated{color:#b00020}</style></head><body>\n%s\n</body></html>\n"
            % "\n".join(body))
    return page, len(rows), png is not None
