"""sdbdb html: one self-contained page, a table of the cards with their
headline figures (the median of each card's runs) and bar charts of
them (python3-matplotlib, embedded as PNG)."""
import base64
import io

from .. import pages
from . import queries as Q
from .text import claims, flags

FIGURES = [("seq_read_mbs", "sequential read, MB/s"), ("seq_write_mbs", "sequential write, MB/s"),
           ("rand_read_iops", "random 4 KiB read, IOPS"),
           ("rand_write_iops", "random 4 KiB write, IOPS")]


def _t(v):
    return "" if v is None else str(v)


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


def _row(r):
    """A card's row as the page shows it (every value text; None as empty)."""
    cells = {k: _t(r[k]) for k in ("manufacturer", "oid", "pnm", "prv", "psn_hex", "mdt",
                                   "source")}
    cells.update(id="%d" % r["id"], runs="%d" % r["runs"], claims=_t(claims(r)), flags=_t(flags(r)),
                 emulated=r["source"] in Q.EMULATED_SOURCES,
                 size=_num(r["capacity_bytes"] and r["capacity_bytes"] / 1e9, "%.1f GB"),
                 figures=[_num(r[k], "%.2f" if "mbs" in k else "%.0f") for k, _ in FIGURES])
    return cells


def render(db, include_emulated=False):
    """(page, number of cards, chart drawn)."""
    rows = Q.cards(db, include_emulated)
    png = chart_png(rows) if rows else None
    page = pages.render(
        "cards.html", cards=[_row(r) for r in rows], include_emulated=include_emulated,
        target=db.target if not db.target.startswith("postgres") else "a PostgreSQL database",
        figures=[t for _, t in FIGURES], png=base64.b64encode(png).decode() if png else None,
        alt="headline figures per card: " + ", ".join(label(r) for r in rows))
    return page, len(rows), png is not None
