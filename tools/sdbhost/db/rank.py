"""Rank and percentile of one card among comparable ones (pure).

Each card counts once per workload, with the median of its runs in the
group. rank = 1 + the number of cards strictly better; percentile = the
share of the other cards this one is strictly better than, in percent
(100: better than every other, 0: better than none; cards that tie are
neither better nor worse); None when the card is alone in its group.
The words "top quarter" / "bottom quarter" need more: a difference beyond
both cards' spread (quarter()).
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


def bands(rows, key="card_id", value="value"):
    """{card: (low, high)}: the span of its runs' figures, each widened by
    its own spread, one standard deviation of the operation time relative
    to the mean (value x stddev / mean: the rate of an operation one
    standard deviation slower or faster); None for a card with a run
    whose spread is not known."""
    spans = {}
    for r in rows:
        v, sd, mean = r.get(value), r.get("lat_stddev_ns"), r.get("lat_mean_ns")
        if v is None:
            continue
        span = (v * (1 - sd / mean), v * (1 + sd / mean)) if sd is not None and mean else None
        spans.setdefault(r[key], []).append(span)
    return {k: None if None in s else (min(lo for lo, _ in s), max(hi for _, hi in s))
            for k, s in spans.items()}


def quarter(values, spans, me, higher_better=True):
    """'top quarter' when this card is better than at least 3 in 4 of the
    others beyond both cards' spread (bands: the two spans do not
    overlap), 'bottom quarter' when at least 3 in 4 are better so; else
    None. A card whose spread is not known gets no word; one within the
    spread of another neither beats it nor loses to it."""
    mine = spans.get(me)
    if me not in values or mine is None or len(values) < 2:
        return None
    above = below = 0
    for k in values:
        b = spans.get(k)
        if k == me or b is None:
            continue
        if b[0] > mine[1]:
            above += 1
        elif b[1] < mine[0]:
            below += 1
    better, worse = (above, below) if higher_better else (below, above)
    others = len(values) - 1
    if 4 * worse >= 3 * others:
        return "top quarter"
    if 4 * better >= 3 * others:
        return "bottom quarter"
    return None
