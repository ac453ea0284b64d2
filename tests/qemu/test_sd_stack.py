"""The SD stack under QEMU (issue 3): the Arasan EMMC driver and the card
protocol layer identify QEMU's card, decode its capacity, read back data the
test put into the image with every command and termination mode, write only
where they were told to, and never trip QEMU's SD protocol checks.

The firmware's self-test (bench/selftest.c, sdbench.txt "suite=selftest")
prints one `selftest` record per read range (a CRC-32 per mode) and one for
the write range (run id, segments, read-back verdict); the tests compute the
expected values from the image file independently.
"""
import os
import random
import re
import struct
import subprocess
import zlib

import pytest

import harness
from card_diff import changed_blocks

SECTOR = 512
MiB = 1 << 20
BOOT_END_LBA = (4 + 64) * MiB // SECTOR     # mkimage: boot partition 4M + 64M
PATTERN_MAGIC = 0x31424453                 # "SDB1", bench/engine/pattern.h
M32 = 0xFFFFFFFF
READ_MODES = ("cmd17", "cmd18", "auto12", "unaligned")


def put_random(path, lba, count, seed):
    data = random.Random(seed).randbytes(count * SECTOR)
    with open(path, "r+b") as f:
        f.seek(lba * SECTOR)
        f.write(data)
    return data


def sparse_copy(src, dst):
    subprocess.run(["cp", "--sparse=always", src, dst], check=True)


def read_blocks(path, lba, count):
    with open(path, "rb") as f:
        f.seek(lba * SECTOR)
        return f.read(count * SECTOR)


def _mix32(h):
    h ^= h >> 16
    h = (h * 0x7feb352d) & M32
    h ^= h >> 15
    h = (h * 0x846ca68b) & M32
    return h ^ (h >> 16)


def pattern_block(lba, run_id, seq):
    """The test block the self-test writes (bench/engine/pattern.c,
    pattern_fill; seq = index in the written range), written again here from
    its description: little-endian magic, lba, run id, seq, zlib CRC-32 of
    those 16 bytes, then an xorshift32 stream seeded from (lba, run id, seq)."""
    x = _mix32(lba ^ _mix32(run_id ^ _mix32((seq + 0x9e3779b9) & M32))) or 0x6d2b79f5
    hdr = struct.pack("<4I", PATTERN_MAGIC, lba, run_id, seq)
    hdr += struct.pack("<I", zlib.crc32(hdr))
    words = []
    for _ in range((SECTOR - len(hdr)) // 4):
        x ^= (x << 13) & M32
        x ^= x >> 17
        x ^= (x << 5) & M32
        words.append(x)
    return hdr + struct.pack("<%dI" % len(words), *words)


def test_pattern_block_matches_the_firmware_vectors():
    """The same vectors as tests/unit/test_pattern.c (known_blocks): this
    Python description and the firmware's pattern_fill() agree."""
    for (lba, run_id, seq), hdr, payload_crc in [
            ((100, 0x1234abcd, 1), "5344423164000000cdab341201000000124ab985", 0x44996ad5),
            ((0, 0, 0), "534442310000000000000000000000002b2e9537", 0xaa22095d),
            ((0xFFFFFFFF, 7, 0xFFFFFFFF), "53444231ffffffff07000000ffffffff413ec167",
             0x38e81fc1)]:
        b = pattern_block(lba, run_id, seq)
        assert len(b) == SECTOR
        assert b[:20].hex() == hdr
        assert zlib.crc32(b[20:]) == payload_crc


def card_blocks(size):
    return harness_size_bytes(size) // SECTOR


def harness_size_bytes(size):
    mult = {"M": MiB, "G": 1 << 30}[size[-1]]
    return int(size[:-1]) * mult


def assert_clean(run, allowed=None):
    """allowed: a compiled pattern for SD guest-error lines that are expected."""
    assert not run.timed_out, run.console[-3000:]
    assert not run.bad_records, run.bad_records
    assert run.records and run.records[-1]["type"] == "done", run.console[-3000:]
    assert [l for l in run.sd_guest_errors()
            if not (allowed and allowed.match(l))] == [], run.guest_errors


def assert_qemu_card(card, size_bytes):
    assert card["present"] and card["initialised"]
    cid = card["cid"]
    assert cid["mid"] == 0xAA
    assert cid["oid"] == "XY"
    assert cid["pnm"] == "QEMU!"
    # The RCA is the card's choice (QEMU 7.2: 0x4567, QEMU 10: random):
    # a published RCA is 16 bits and never 0 (0 deselects every card).
    assert re.fullmatch(r"0x[0-9a-f]{4}", card["rca"]) and int(card["rca"], 16) != 0, card["rca"]
    assert card["capacity_bytes"] == size_bytes
    assert card["blocks"] == size_bytes // SECTOR
    assert card["csd"]["capacity_bytes"] == size_bytes
    # QEMU: CSD v1 (byte addressing) up to 2 GiB, v2 (block) above.
    sdhc = size_bytes > (2 << 30)
    assert card["high_capacity"] == sdhc
    assert card["csd"]["csd_structure"] == (1 if sdhc else 0)
    # 4-bit and high speed, the clock is what the divider really gives
    # from QEMU's 52 MHz base clock (52 / (2 * 1)).
    assert card["width"] == 4
    assert card["timing"] == "HS"
    assert card["clock_hz"] == 26000000
    # QEMU's SCR has no CMD_SUPPORT bits: no CMD23.
    assert card["cmd23"] is False
    assert card["write_protected"] is False


def selftest_run(tmp_path, machine, size, reads, write=None, seed=None, extra=(),
                 kernel=harness.KERNEL):
    """Image with test data at the read ranges, boot, return (run, image,
    pristine copy, {range: data})."""
    img = str(tmp_path / ("sd-%s-%s.img" % (machine, size)))
    lines = ["suite=selftest",
             "selftest_lbas=" + ",".join("%d:%d" % r for r in reads)]
    if write:
        lines.append("selftest_write=%d+%d" % write)
    if seed is not None:
        lines.append("seed=%d" % seed)
    harness.make_image(img, size=size, sdbench=lines)
    expect = {}
    for i, (lba, count) in enumerate(reads):
        if lba >= BOOT_END_LBA:
            expect[(lba, count)] = put_random(img, lba, count, 1000 + i)
        else:
            expect[(lba, count)] = read_blocks(img, lba, count)
    before = img + ".before"
    sparse_copy(img, before)
    run = harness.boot(machine, img, kernel=kernel, timeout=120, extra=list(extra))
    return run, img, before, expect


def check_reads(run, expect):
    recs = [r for r in run.of_type("selftest") if r["test"] == "read"]
    assert len(recs) == len(expect), run.console[-3000:]
    for r in recs:
        data = expect[(r["lba"], r["count"])]
        want = "0x%08x" % zlib.crc32(data)
        for mode in READ_MODES:
            assert r["result"][mode] == "ok", r
            assert r["crc32"][mode] == want, (mode, r, want)
        # QEMU's card does not support CMD23: said, not faked.
        assert r["result"]["cmd23"] == "unsupported by card"
        assert r["crc32"]["cmd23"] is None
        assert r["match"] is True


def check_write(run, img, before, write):
    lba, count = write
    rec = [r for r in run.of_type("selftest") if r["test"] == "write"]
    assert len(rec) == 1, run.console[-3000:]
    rec = rec[0]
    assert rec["verify"] is True, rec
    assert rec["lba"] == lba and rec["count"] == count
    segs = {s["mode"]: s for s in rec["segments"]}
    for mode in ("cmd24", "cmd25", "auto12", "unaligned"):
        assert segs[mode]["result"] == "ok" and segs[mode]["count"] > 0, rec
    assert segs["cmd23"]["result"] == "unsupported by card"
    assert sum(s["count"] for s in rec["segments"]) == count
    run_id = rec["run_id"]
    # The self-test erases the last blocks of the range (CMD32/33/38):
    # they must read back as the one value the firmware saw, all others as
    # the pattern.
    er = rec["erase"]
    assert er["result"] == "ok", rec
    assert er["lba"] + er["count"] == lba + count and 0 < er["count"] < count
    assert er["value"] in ("0x00", "0xff")
    erased = bytes([int(er["value"], 16)]) * SECTOR
    got = read_blocks(img, lba, count)
    for i in range(count):
        want = erased if lba + i >= er["lba"] else pattern_block(lba + i, run_id, i)
        assert got[i * SECTOR:(i + 1) * SECTOR] == want, \
            "block %d of the written range" % i
    # Nothing else in the whole image changed.
    changed = changed_blocks(before, img)
    assert changed, "the firmware wrote nothing"
    assert min(changed) >= lba and max(changed) < lba + count, \
        "writes outside %d+%d: %s" % (lba, count, changed[:20])


# Every machine whose slot is driven, with kernel.img, and the Cortex-A53/A72
# boards with the AArch64 kernel8.img too (the same drivers built for AArch64).
SELFTEST_CASES = ([(m, harness.KERNEL) for m in harness.SD_MACHINES]
                  + [(m, harness.KERNEL8) for m in harness.AARCH64_MACHINES[:1] + harness.PI4_MACHINES])


@pytest.mark.parametrize("machine,kernel", SELFTEST_CASES,
                         ids=["%s-%s" % (m, os.path.basename(k)[:-4]) for m, k in SELFTEST_CASES])
def test_selftest_every_machine(tmp_path, machine, kernel):
    """Card identified, reads in every mode agree with the image, the
    written pattern (and the erase of its tail) lands exactly in its range,
    no SD guest errors."""
    size = "128M"
    blocks = card_blocks(size)
    reads = [(0, 1), (BOOT_END_LBA + 100, 40), (blocks - 17, 17)]
    write = (BOOT_END_LBA + 2048, 48)
    run, img, before, expect = selftest_run(tmp_path, machine, size, reads, write,
                                            kernel=kernel)
    assert_clean(run)
    assert run.records[-1]["errors"] == 0, run.console[-3000:]
    assert run.status == 0
    assert_qemu_card(run.one("card"), harness_size_bytes(size))
    check_reads(run, expect)
    check_write(run, img, before, write)


@pytest.mark.parametrize("size", ["512M", "2G", "4G"])
def test_capacity_and_addressing(tmp_path, size):
    """Decoded capacity equals the image size; reads at the start, the test
    area and the very end of the card, and a write, with byte (SDSC, CSD v1,
    2G with READ_BL_LEN 10) and block (SDHC, CSD v2) addressing."""
    blocks = card_blocks(size)
    reads = [(BOOT_END_LBA + 7, 9), (blocks // 2 + 3, 64), (blocks - 5, 5)]
    write = (blocks - 300, 37)
    run, img, before, expect = selftest_run(tmp_path, "raspi2b", size, reads, write)
    assert_clean(run)
    assert run.records[-1]["errors"] == 0, run.console[-3000:]
    card = run.one("card")
    assert_qemu_card(card, harness_size_bytes(size))
    if size == "2G":
        assert card["csd"]["read_bl_len"] == 10
    check_reads(run, expect)
    check_write(run, img, before, write)


def test_v1_card(tmp_path):
    """A version 1.x card (QEMU: sd-card.spec_version=1) does not answer
    CMD8: the v1 path (no HCS, byte addressing) must still read and write
    correctly. The CMD8 probe itself is the one SD line QEMU logs (the spec
    requires the host to send it; a v1 card treats it as illegal), in
    whatever words this QEMU uses (harness.V1_CMD8_PROBE)."""
    size = "128M"
    blocks = card_blocks(size)
    reads = [(0, 2), (BOOT_END_LBA + 5, 24), (blocks - 3, 3)]
    write = (BOOT_END_LBA + 4096, 40)
    run, img, before, expect = selftest_run(
        tmp_path, "raspi0", size, reads, write,
        extra=["-global", "sd-card.spec_version=1"])
    assert_clean(run, allowed=harness.V1_CMD8_PROBE)
    assert run.records[-1]["errors"] == 0, run.console[-3000:]
    card = run.one("card")
    assert card["v2"] is False
    assert card["high_capacity"] is False
    assert card["capacity_bytes"] == harness_size_bytes(size)
    check_reads(run, expect)
    check_write(run, img, before, write)


def test_write_outside_test_area_is_refused(tmp_path):
    """A selftest_write range inside the boot partition is refused with a
    clear error and the image is not touched at all."""
    size = "128M"
    run, img, before, expect = selftest_run(
        tmp_path, "raspi0", size, [(0, 2)], write=(8192 + 100, 8))
    assert_clean(run)
    errs = [e for e in run.of_type("error") if e["context"] == "selftest"]
    assert errs and "not inside the test area" in errs[0]["message"], run.console[-2000:]
    assert changed_blocks(before, img) == []


def test_no_card(tmp_path):
    """No -drive: a clear "no card" message, the run ends by itself."""
    run = harness.boot("raspi2b", None, timeout=60)
    assert not run.timed_out, run.console[-2000:]
    assert run.sd_guest_errors() == [], run.guest_errors
    err = [e for e in run.of_type("error") if e["code"] == "ENOMEDIUM"]
    assert len(err) == 1, run.console[-2000:]
    assert "no SD card" in err[0]["message"]
    assert run.records[-1]["type"] == "done" and run.records[-1]["errors"] == 1
    assert run.status == 1
    assert not run.of_type("card")


def test_readonly_drive(tmp_path):
    """readonly=on: the firmware must report the write protection and
    refuse writes. The SD card model of QEMU 7.2 and 10 refuses a read-only
    drive outright ("Cannot use read-only drive as SD card"), so there the
    test can only check that QEMU says so; the refusal itself is covered by
    tests/unit/test_sd_card.c (EROFS before any command reaches the card)."""
    size = "128M"
    img = str(tmp_path / "ro.img")
    harness.make_image(img, size=size, sdbench=[
        "suite=selftest", "selftest_lbas=0:1",
        "selftest_write=%d+%d" % (BOOT_END_LBA + 8, 8)])
    before = img + ".before"
    sparse_copy(img, before)
    run = harness.boot("raspi2b", img, drive_opts=",readonly=on", timeout=60)
    assert not run.timed_out
    if "Cannot use read-only drive as SD card" in run.console:
        assert changed_blocks(before, img) == []
        pytest.skip("QEMU %s cannot present a read-only SD card"
                    % ".".join(map(str, harness.qemu_version() or ("?",))))
    assert_clean(run)
    card = run.one("card")
    assert card["write_protected"] is True
    wr = [r for r in run.of_type("selftest") if r["test"] == "write"]
    assert len(wr) == 1 and wr[0]["write_refused"] is True and wr[0]["code"] == "EROFS"
    assert "writes refused" in run.console
    assert changed_blocks(before, img) == []
