#!/usr/bin/python3
"""compare_commands.py - the SD commands sdbench and Linux send to the same
emulated card, side by side (`make bench-linux-commands`).

Boots build/kernel8.img (suite = hostcost: reads and writes of 512 B,
4 KiB, 64 KiB and 4 MiB) and Debian's arm64 kernel with `sdblinux --cost`
(the same sizes through O_DIRECT) on raspi3b, on the EMMC and on SDHOST,
with QEMU's sdcard_* trace events (qemu/linux/cmdseq.py). Prints, and with
--doc FILE writes between the markers of FILE (docs/linux-commands.md):
the initialisation sequences; per direction and number of blocks the card
moved, the command pattern each guest used; the other commands. Every
difference must have an explanation in EXPLAINED (why each side is right,
or what was fixed); an unexplained one is printed as such and the script
exits with status 1.
"""
import argparse
import os
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
sys.path.insert(0, os.path.join(HERE, ".."))
import boot  # noqa: E402
import cmdseq  # noqa: E402
import doctable  # noqa: E402
harness = boot.harness

BEGIN = "<!-- linux-commands table begin -->"
END = "<!-- linux-commands table end -->"
EVENTS = ("sdcard_normal_command", "sdcard_app_command", "sdcard_read_block",
          "sdcard_write_block")
TRACE = [a for e in EVENTS for a in ("-trace", e)]
CONTROLLERS = ("emmc", "sdhost")
# A card of the size Pis use (SDHC: block addressing).
CARD_SIZE = "4G"


def sdbench_trace(controller, td):
    img = harness.make_image(os.path.join(td, "sdb-%s.img" % controller), CARD_SIZE,
                             kernel=harness.KERNEL8,
                             sdbench=["suite = hostcost", "seed = 1"]
                             + (["host = sdhost"] if controller == "sdhost" else []))
    run = harness.boot("raspi3b", img, kernel=harness.KERNEL8, timeout=1200, extra=TRACE)
    if run.timed_out or run.status != 0:
        raise SystemExit("compare-commands: sdbench on %s did not finish (status %s):\n%s"
                         % (controller, run.status, run.console[-3000:]))
    toks = cmdseq.tokens(run.guest_errors)
    if controller == "sdhost":
        # sdbench starts on the EMMC and initialises the card again on
        # SDHOST (host = sdhost): keep what follows the last CMD0.
        last0 = max(i for i, t in enumerate(toks) if t[:2] == ("CMD", 0))
        toks = toks[last0:]
    return toks


def linux_trace(controller, td):
    img = harness.make_image(os.path.join(td, "lx-%s.img" % controller), CARD_SIZE,
                             kernel=harness.KERNEL8, sdbench=["seed = 1"])
    run = boot.boot("raspi3b", controller, img, ["--cost", "--emulated"], timeout=1200,
                    trace=EVENTS, icount=False)
    done = run.of_type("done")
    if run.timed_out or not done or done[0]["errors"]:
        raise SystemExit("compare-commands: Linux on %s did not finish:\n%s"
                         % (controller, run.console[-3000:]))
    return cmdseq.tokens(run.trace)


def summarise(toks):
    init, rest = cmdseq.split_init(toks)
    return dict(init=cmdseq.init_summary(init),
                patterns=cmdseq.patterns(cmdseq.requests(rest)),
                other=cmdseq.other_commands(rest))


# The sizes sdblinux --cost and sdbench's hostcost step request, in blocks.
SIZES = (1, 8, 128, 8192)
# Why each kind of difference is right, or what was fixed. A difference
# whose key is missing here is reported as unexplained.
EXPLAINED = {
    "init-extra:linux:CMD52": (
        "Linux's mmc_rescan tries an SDIO card first: CMD52 writes the I/O abort/reset "
        "bit of the CCCR (SDIO spec 4.4), and an SD memory card does not answer. sdbench "
        "drives SD memory cards only and has nothing to probe. Right for both."),
    "init-extra:linux:CMD5": (
        "The same SDIO probe: CMD5 (IO_SEND_OP_COND) asks for an I/O OCR, sent four times "
        "(the MMC core's 3 retries of a command that timed out); a memory card stays "
        "silent and Linux goes on with SD. Right for both."),
    "init-count:CMD0": (
        "After the SDIO probe Linux resets the card again (CMD0) before the SD "
        "initialisation proper (mmc_attach_sd: mmc_sd_init_card starts with GO_IDLE). "
        "sdbench resets once. Both are allowed (CMD0 is valid in any state but inactive)."),
    "init-count:CMD8": (
        "Each of Linux's two starts sends CMD8 after CMD0, as it must (Physical Layer "
        "4.2.2: CMD8 before the first ACMD41 to announce a v2 host). sdbench starts once."),
    "init-count:ACMD41": (
        "Linux's first ACMD41 has a voltage window of 0: an inquiry that only reads the "
        "OCR (Physical Layer 4.2.3.1), so it can pick a voltage; the second one starts "
        "the card's power-up. sdbench sends its window at once and repeats until the card "
        "is ready (QEMU's card is ready at the first). Right for both."),
    "init-order": (
        "Linux reads the SD Status (ACMD13) and the switch function status (CMD6 mode 0) "
        "on the 1-bit bus, switches to high speed (CMD6 mode 1) and widens to 4 bits "
        "(ACMD6) last (mmc_sd_init_card); sdbench widens first (ACMD6 right after "
        "ACMD51) and then reads CMD6's 64-byte and ACMD13's 64-byte status on 4 bits. "
        "Every one of these commands is valid in the transfer state at either width. "
        "Right for both."),
    "other:linux:CMD7": (
        "At power-off Linux deselects the card (CMD7 with RCA 0: mmc_bus_shutdown, the "
        "card back to stand-by); sdbench ends its run with the card selected and leaves "
        "power-off to the board. Right for both: the card tolerates power loss in either "
        "state when no write is pending."),
    "split:read:8192": (
        "Linux cuts a 4 MiB request into 512 KiB commands (the host's max_req_size, "
        "524288 bytes in both drivers: 1024 blocks per CMD18); sdbench reads 4 MiB with "
        "one CMD18, which the spec allows (an open-ended multiple read runs until CMD12) "
        "and which measures the card's streaming without the gaps between requests. "
        "Right for both; the per-request cost table (linux-cost.md) shows the gaps' price."),
    "split:write:8192": (
        "The same 512 KiB limit on writes: 8 x CMD25 of 1024 blocks, each followed by its "
        "busy wait and CMD13, where sdbench writes 4 MiB with one CMD25. Right for both."),
    "only:linux:1024": (
        "The 512 KiB commands of Linux's split 4 MiB requests (above)."),
    "only:linux:other": (
        "Reads Linux makes on its own: the partition table scan at boot, through the "
        "page cache (pages and readahead windows), before sdblinux runs."),
    "only:linux:split-pair": (
        "A few of the 512 KiB pieces reach the card as two commands whose blocks add up to "
        "1024 (1016 + 8 or 1008 + 16, varying from boot to boot; a small part of a "
        "size sdbench also uses is counted in that size's row): the block layer also splits a request at the "
        "queue's segment limits (SDHOST's driver declares 128 segments), and sdblinux's "
        "buffer pages fall differently in memory from boot to boot. Which limit cut these "
        "was not traced. Each part is a complete CMD18/CMD25 transaction: right for both, "
        "at the price of one more command."),
    "minor:linux:CMD13": (
        "Linux's SDHOST driver declares MMC_CAP_NEEDS_POLL (no card-detect line): the MMC "
        "core asks once a second whether the card is still there (mmc_sd_detect sends "
        "CMD13), and a poll that falls right after a request shows up as extra CMD13s. "
        "The EMMC node is non-removable: no polling there. "
        "sdbench never polls: it owns the card for the run. Right for both."),
}


def init_diffs(a, b):
    """Difference keys between two init summaries (sdbench a, Linux b)."""
    def counts(seq):
        c = {}
        for item in seq:
            name, _, n = item.partition(" x")
            c[name] = c.get(name, 0) + int(n or 1)
        return c
    ca, cb = counts(a), counts(b)
    keys = ["init-extra:linux:%s" % n for n in cb if n not in ca]
    keys += ["init-extra:sdbench:%s" % n for n in ca if n not in cb]
    keys += ["init-count:%s" % n for n in ca if n in cb and ca[n] != cb[n]]
    order_a = [n for n in (i.partition(" x")[0] for i in a) if n in cb]
    order_b = [n for n in (i.partition(" x")[0] for i in b) if n in ca]
    dedup = lambda seq: [n for k, n in enumerate(seq) if n not in seq[:k]]  # noqa: E731
    if dedup(order_a) != dedup(order_b):
        keys.append("init-order")
    return keys


def dominant(counter):
    return counter.most_common(1)[0] if counter else (None, 0)


def request_diffs(pa, pb):
    """(rows, keys): rows (op, blocks, sdbench pattern, Linux pattern)."""
    rows, keys = [], []
    for key in sorted(set(pa) | set(pb), key=lambda k: (k[0], k[1])):
        op, blocks = key
        da, db = dominant(pa.get(key)), dominant(pb.get(key))
        rows.append((op, blocks, da, db))
        if da[0] is None:
            if blocks == 1024:
                keys.append("only:linux:1024")
            elif 512 < blocks < 1024 or (op, 1024 - blocks) in pb:
                keys.append("only:linux:split-pair")
            else:
                keys.append("only:linux:other")
        elif db[0] is None:
            keys.append("split:%s:%d" % (op, blocks) if blocks == 8192
                        else "only:sdbench:%s:%d" % (op, blocks))
        elif da[0] != db[0]:
            keys.append("pattern:%s:%d" % (op, blocks))
        for side, pat in (("linux", pb.get(key)), ("sdbench", pa.get(key))):
            for desc, _ in (pat or {}).items():
                if pat and desc != dominant(pat)[0] and "CMD13" in desc:
                    keys.append("minor:%s:CMD13" % side)
    return rows, keys


def report(res):
    """(markdown text, unexplained keys)."""
    out, unexplained, diffs = [], [], []
    out.append("### Initialisation\n")
    out.append("| controller | guest | commands in order (CMD55 folded into the ACMD after it) |")
    out.append("|---|---|---|")
    for c in CONTROLLERS:
        for g in ("sdbench", "linux"):
            out.append("| %s | %s | %s |" % (c, g, ", ".join(res[(g, c)]["init"])))
    out.append("\n### Data requests\n")
    out.append("Per direction and number of blocks one command moved: the most frequent "
               "pattern and how often it came (of all commands of that kind).\n")
    out.append("| controller | op | blocks | sdbench | Linux |")
    out.append("|---|---|---|---|---|")
    for c in CONTROLLERS:
        a, b = res[("sdbench", c)], res[("linux", c)]
        keys = init_diffs(a["init"], b["init"])
        rows, rk = request_diffs(a["patterns"], b["patterns"])
        keys += rk
        for op, blocks, da, db in rows:
            cell = lambda d, tot: ("%s (%d of %d)" % (d[0], d[1], tot) if d[0]  # noqa: E731
                                   else "-")
            out.append("| %s | %s | %d | %s | %s |" % (
                c, op, blocks, cell(da, sum(a["patterns"].get((op, blocks), {}).values())),
                cell(db, sum(b["patterns"].get((op, blocks), {}).values()))))
        for g, other in (("sdbench", a["other"]), ("linux", b["other"])):
            keys += ["other:%s:%s" % (g, n) for n in other]
        for k in dict.fromkeys(keys):
            diffs.append((c, k))
    out.append("\n### Differences\n")
    out.append("| controller | difference | why |")
    out.append("|---|---|---|")
    for c, k in diffs:
        why = EXPLAINED.get(k)
        if why is None:
            unexplained.append("%s %s" % (c, k))
            why = "**unexplained**"
        out.append("| %s | %s | %s |" % (c, k, why))
    return "\n".join(out), unexplained


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--doc")
    a = ap.parse_args()
    linux = boot.fetch()
    res = {}
    with tempfile.TemporaryDirectory() as td:
        for c in CONTROLLERS:
            res[("sdbench", c)] = summarise(sdbench_trace(c, td))
            res[("linux", c)] = summarise(linux_trace(c, td))
            print("compare-commands: %s traced" % c, file=sys.stderr)
    text, unexplained = report(res)
    print(text)
    if a.doc:
        version = open(os.path.join(linux, "version")).read().split()[-1]
        doctable.rewrite(a.doc, BEGIN, END,
                         "Output of `make bench-linux-commands DOC=%s` (QEMU: %s, Linux %s):"
                         % (a.doc, harness.describe(), version), text)
        print("compare-commands: rewrote the tables in %s" % a.doc, file=sys.stderr)
    if unexplained:
        print("compare-commands: unexplained differences: %s" % ", ".join(unexplained),
              file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
