"""cmdseq.py - the SD commands a guest sent, from QEMU's sdcard_* trace
events (-trace sdcard_normal_command, sdcard_app_command, sdcard_read_block,
sdcard_write_block), cut into the card's initialisation and its data
requests, so that two guests (sdbench and Linux) can be compared command
by command.

The trace says what the card received, whoever sent it: an Auto-CMD12 of
an SDHCI controller appears as the CMD12 it is."""
import collections
import re

_CMD = re.compile(r"sdcard_(normal|app)_command\b.*?\b(A?CMD)\s*(\d+) arg 0x([0-9a-fA-F]+)")
_BLK = re.compile(r"sdcard_(read|write)_block\b")
DATA_CMDS = {17: "read", 18: "read", 24: "write", 25: "write"}


def tokens(trace):
    """[(kind, number, arg)]: ("CMD", 17, arg), ("ACMD", 41, arg), ("BLK", "read", 0)."""
    out = []
    for line in trace.splitlines():
        m = _CMD.search(line)
        if m:
            out.append((m.group(2), int(m.group(3)), int(m.group(4), 16)))
            continue
        m = _BLK.search(line)
        if m:
            out.append(("BLK", m.group(1), 0))
    return out


def split_init(toks):
    """(init tokens, the rest): initialisation ends at the first read or
    write command (CMD17/18/24/25); a later CMD0 starts another
    initialisation (sdbench moving to a second controller), whose
    commands join the init list as a second pass."""
    for i, t in enumerate(toks):
        if t[0] == "CMD" and t[1] in DATA_CMDS:
            return toks[:i], toks[i:]
    return toks, []


def init_summary(init):
    """The init commands in order, repeats collapsed: ["CMD0", "CMD8",
    "CMD55+ACMD41 x2", ...]; CMD55 is folded into the ACMD after it."""
    names = []
    for kind, num, _ in init:
        if kind == "BLK" or (kind == "CMD" and num == 55):
            continue
        names.append("%s%d" % (kind, num))
    out = []
    for n in names:
        if out and out[-1][0] == n:
            out[-1][1] += 1
        else:
            out.append([n, 1])
    return ["%s x%d" % (n, c) if c > 1 else n for n, c in out]


Request = collections.namedtuple("Request", "op blocks pre cmd stop polls")


def requests(rest):
    """Every data command after the initialisation as a Request: the
    CMD23 right before it (pre), the blocks it moved, the CMD12 after it
    (stop) and the CMD13s that followed before the next other command."""
    out = []
    i, n = 0, len(rest)
    while i < n:
        kind, num, arg = rest[i]
        if kind != "CMD" or num not in DATA_CMDS:
            i += 1
            continue
        prev = rest[i - 1] if i else None
        pre = "CMD23" if prev and prev[0] == "CMD" and prev[1] == 23 else (
            "ACMD23" if prev and prev[0] == "ACMD" and prev[1] == 23 else "")
        j, blocks = i + 1, 0
        while j < n and rest[j][0] == "BLK":
            blocks += 1
            j += 1
        stop = ""
        if j < n and rest[j][:2] == ("CMD", 12):
            stop = "CMD12"
            j += 1
        polls = 0
        while j < n and rest[j][:2] == ("CMD", 13):
            polls += 1
            j += 1
        out.append(Request(DATA_CMDS[num], blocks, pre, "CMD%d" % num, stop, polls))
        i = j
    return out


def patterns(reqs):
    """{(op, blocks): Counter of "CMD23 + CMD18 + CMD12, 1 x CMD13"}."""
    out = collections.defaultdict(collections.Counter)
    for r in reqs:
        out[(r.op, r.blocks)][describe(r)] += 1
    return out


def describe(r):
    parts = [p for p in (r.pre, r.cmd, r.stop) if p]
    s = " + ".join(parts)
    if r.polls:
        s += ", then %d x CMD13" % r.polls
    return s


def other_commands(rest):
    """Commands after the initialisation that belong to no data request
    (CMD13 status checks not right after a request, CMD6, ACMD13, ...):
    Counter of their names."""
    c = collections.Counter()
    prev_data = False
    for kind, num, _ in rest:
        if kind == "BLK":
            continue
        if kind == "CMD" and num in DATA_CMDS:
            prev_data = True
            continue
        if (kind, num) in (("CMD", 12), ("CMD", 23), ("CMD", 55), ("ACMD", 23)):
            continue
        if (kind, num) == ("CMD", 13) and prev_data:
            continue
        prev_data = False
        c["%s%d" % (kind, num)] += 1
    return c
