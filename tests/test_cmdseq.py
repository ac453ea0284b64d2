"""qemu/linux/cmdseq.py: QEMU's sdcard_* trace lines (the format of QEMU
7.2 and 10, with and without the pid@time prefix) cut into the card's
initialisation and its data requests."""
import os
import sys

ROOT = os.path.abspath(os.path.join(os.path.dirname(__file__), ".."))
sys.path.insert(0, os.path.join(ROOT, "qemu", "linux"))
import cmdseq  # noqa: E402


def cmd(n, arg=0, app=False, prefix=""):
    kind = "app" if app else "normal"
    return "%ssdcard_%s_command %s %20s/ %sCMD%02d arg 0x%08x (state %s)" % (
        prefix, kind, "SD", "NAME", "A" if app else "", n, arg, "transfer")


def blocks(n, op="read"):
    return ["1234@1700000000.000001:sdcard_%s_block addr 0x%x size 0x200" % (op, i * 512)
            for i in range(n)]


TRACE = "\n".join(
    [cmd(0), cmd(8, 0x1aa), cmd(55), cmd(41, 0x40ff8000, app=True), cmd(55),
     cmd(41, 0x40ff8000, app=True), cmd(2), cmd(3), cmd(9), cmd(7, 0x45670000),
     cmd(55), cmd(51, app=True), cmd(6, 0x80fffff1, prefix="99@1.5:")]
    + [cmd(17, 0)] + blocks(1)
    + [cmd(18, 8)] + blocks(8) + [cmd(12)]
    + [cmd(25, 64)] + blocks(8, "write") + [cmd(12), cmd(13, 0x45670000), cmd(13)]
    + ["unrelated line", cmd(7, 0)])


def test_init_and_requests():
    toks = cmdseq.tokens(TRACE)
    init, rest = cmdseq.split_init(toks)
    assert cmdseq.init_summary(init) == ["CMD0", "CMD8", "ACMD41 x2", "CMD2", "CMD3", "CMD9",
                                         "CMD7", "ACMD51", "CMD6"]
    reqs = cmdseq.requests(rest)
    assert [(r.op, r.blocks, r.cmd, r.stop, r.polls) for r in reqs] == [
        ("read", 1, "CMD17", "", 0), ("read", 8, "CMD18", "CMD12", 0),
        ("write", 8, "CMD25", "CMD12", 2)]
    pats = cmdseq.patterns(reqs)
    assert pats[("write", 8)] == {"CMD25 + CMD12, then 2 x CMD13": 1}
    assert cmdseq.other_commands(rest) == {"CMD7": 1}


def test_cmd23_before_a_request():
    toks = cmdseq.tokens("\n".join([cmd(23, 8), cmd(18, 0)] + blocks(8)))
    (r,) = cmdseq.requests(toks)
    assert (r.pre, r.blocks, r.stop) == ("CMD23", 8, "")
    assert cmdseq.describe(r) == "CMD23 + CMD18"
