"""Formatting shared by the text, HTML and CSV outputs.

Every function accepts None or a value of the wrong type (a record field
that was missing or unusable) and prints "-" for it: a report never fails
on a missing number.
"""
from .records import is_num

DASH = "-"


def num(v, spec="%.3f"):
    return spec % v if is_num(v) else DASH


def intg(v):
    return "%d" % v if is_num(v) else DASH


def text(v):
    if v is None:
        return DASH
    if isinstance(v, bool):
        return "yes" if v else "no"
    if isinstance(v, float):
        return "%g" % v
    if isinstance(v, list):
        return ", ".join(text(x) for x in v) if v else "none"
    return str(v)


def size(b):
    """Bytes as people write them: 512 B, 4 KiB, 1.5 MiB, 32 GiB."""
    if not is_num(b):
        return DASH
    b = float(b)
    for unit, div in (("GiB", 1 << 30), ("MiB", 1 << 20), ("KiB", 1 << 10)):
        if abs(b) >= div:
            v = b / div
            return ("%d %s" % (v, unit)) if v == int(v) else ("%.1f %s" % (v, unit))
    return "%d B" % b


def hz(f):
    """A clock: 400 kHz, 26 MHz, 4.333 MHz."""
    if not is_num(f):
        return DASH
    for unit, div in (("GHz", 1e9), ("MHz", 1e6), ("kHz", 1e3)):
        if abs(f) >= div:
            v = f / div
            return ("%d %s" % (v, unit)) if v == int(v) else ("%.3g %s" % (v, unit))
    return "%d Hz" % f


def us_from_ns(ns, spec="%.1f"):
    return spec % (ns / 1000.0) if is_num(ns) else DASH


def ms_from_us(us, spec="%.3f"):
    return spec % (us / 1000.0) if is_num(us) else DASH


def duration_us(us):
    """A run time: 850 ms, 13.5 s, 9 min 12 s."""
    if not is_num(us):
        return DASH
    s = us / 1e6
    if s < 1:
        return "%.0f ms" % (us / 1000.0)
    if s < 120:
        return "%.1f s" % s
    return "%d min %02d s" % (s // 60, s % 60)


def pct(v):
    return "%.1f%%" % v if is_num(v) else DASH


def ratio(a, b):
    """b / a, or None when it cannot be computed."""
    if is_num(a) and is_num(b) and a:
        return b / a
    return None


def safe_div(a, b):
    return a / b if is_num(a) and is_num(b) and b else None


def hex_or_text(v):
    return text(v)
