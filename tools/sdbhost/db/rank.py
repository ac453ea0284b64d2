"""Rank and percentile of one card among comparable ones (pure).

Each card counts once per workload, with the median of its runs in the
group. rank = 1 + the number of cards strictly better; percentile = the
share of the other cards this one is strictly better than, in percent
(100: better than every other, 0: better than none; cards that tie are
neither better nor worse); None when the card is alone in its group.
"""


def median(values):
    s = sorted(v for v in values if v is not None)
    if not s:
        return None
    m = len(s) // 2
    return s[m] if len(s) % 2 else (s[m - 1] + s[m]) / 2.0


def per_card(rows, key="card_id", value="value"):
    """{card: median of its rows' values} (rows without a value left out)."""
    by = {}
    for r in rows:
        if r.get(value) is not None:
            by.setdefault(r[key], []).append(r[value])
    return {k: median(v) for k, v in by.items()}


def rank(values, me, higher_better=True):
    """(rank, n, percentile) of values[me] among values {card: value}."""
    if me not in values:
        return None, len(values), None
    mine = values[me]
    others = [v for k, v in values.items() if k != me]
    if higher_better:
        better = sum(1 for v in others if v > mine)
        worse = sum(1 for v in others if v < mine)
    else:
        better = sum(1 for v in others if v < mine)
        worse = sum(1 for v in others if v > mine)
    pct = 100.0 * worse / len(others) if others else None
    return 1 + better, len(others) + 1, pct


def quartile_word(pct):
    """'top quarter' / 'bottom quarter' / None for a percentile."""
    if pct is None:
        return None
    if pct >= 75:
        return "top quarter"
    if pct < 25:
        return "bottom quarter"
    return None
