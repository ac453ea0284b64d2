"""The EMMC's DMA data path under QEMU: `data_path = dma` in sdbench.txt moves
every request's data with the BCM2835 DMA engine (drivers/dma/bcm2835_dma.c,
DREQ 11, bus addresses) instead of the CPU. The self-test's read and write
checks, the quick suite with its integrity checks and the safety byte-compare
must pass through it with zero SD lines in -d guest_errors, on raspi0
(BCM2835: memory alias 0x40000000), raspi2b and raspi3b (0xC0000000; the
AArch64 kernel8.img too); the quick suite and the byte-compare also on
raspi1ap (BCM2835, the Model A+ board). QEMU's DMA model ignores DREQ and has no caches,
so the ordering and the cache maintenance are tested on the simulator
(tests/sim/test_dma.c); this checks the addresses, the control blocks and
the data against QEMU's engine and card.
"""
import os

import pytest

import harness
import honest
import test_safety as safety
import test_sd_stack as sds

DMA_CASES = [("raspi0", harness.KERNEL), ("raspi2b", harness.KERNEL),
             ("raspi3b", harness.KERNEL), ("raspi3b", harness.KERNEL8)]
IDS = ["%s-%s" % (m, os.path.basename(k)[:-4]) for m, k in DMA_CASES]


def data_path_record(run):
    return run.one("data_path")


@pytest.mark.parametrize("machine,kernel", DMA_CASES, ids=IDS)
def test_selftest_through_dma(tmp_path, machine, kernel):
    """Reads in every mode agree with the image, the written pattern and
    the erase land exactly in their range; the odd-address runs (which the
    engine cannot maintain safely) go by PIO and agree too."""
    size = "128M"
    blocks = sds.card_blocks(size)
    reads = [(0, 1), (sds.BOOT_END_LBA + 100, 40), (blocks - 17, 17)]
    write = (sds.BOOT_END_LBA + 2048, 48)
    img = str(tmp_path / "sd.img")
    # dma_pio_blocks = 0: the single-block read goes through the engine
    # too (by default a request of one block moves by PIO on the DMA path)
    harness.make_image(img, size=size, sdbench=[
        "suite=selftest", "data_path = dma", "dma_pio_blocks = 0",
        "selftest_lbas=" + ",".join("%d:%d" % r for r in reads),
        "selftest_write=%d+%d" % write])
    expect = {}
    for i, (lba, count) in enumerate(reads):
        if lba >= sds.BOOT_END_LBA:
            expect[(lba, count)] = sds.put_random(img, lba, count, 1000 + i)
        else:
            expect[(lba, count)] = sds.read_blocks(img, lba, count)
    before = img + ".before"
    sds.sparse_copy(img, before)
    run = harness.boot(machine, img, kernel=kernel, timeout=120)
    sds.assert_clean(run)
    assert run.records[-1]["errors"] == 0, run.console[-3000:]
    dp = data_path_record(run)
    assert dp["path"] == "dma" and dp["requested"] == "dma", dp
    assert dp["available"] == ["pio", "dma"] and dp["host"] == "emmc"
    assert dp["dma_pio_blocks"] == 0, dp
    assert "data path: DMA" in run.console
    sds.check_reads(run, expect)
    sds.check_write(run, img, before, write)


QUICK_CASES = [("raspi0", harness.KERNEL), ("raspi1ap", harness.KERNEL), ("raspi2b", harness.KERNEL),
               ("raspi3b", harness.KERNEL8)]


@pytest.mark.parametrize("machine,kernel", QUICK_CASES,
                         ids=["%s-%s" % (m, os.path.basename(k)[:-4]) for m, k in QUICK_CASES])
def test_quick_suite_and_safety_through_dma(tmp_path, machine, kernel):
    """The quick suite on a Pi OS-like card, every byte outside the test
    area compared before and after; every workload verified, every result
    says it ran through DMA."""
    MiB = safety.MiB
    img, before, run = safety.run_layout(tmp_path, "512M", ["--part", "72M:256M:83"],
                                         sdbench=["data_path = dma"],
                                         seed_area=[(72 * MiB, 256 * MiB)],
                                         machine=machine, kernel=kernel)
    sds.assert_clean(run)
    area, changed = safety.assert_only_in_area(run, img, before)
    assert area["usable"] and changed, "the write workloads wrote nothing"
    integ = run.of_type("integrity")
    assert integ, "write workloads were not verified"
    for rec in integ:
        assert rec["ok"] == rec["blocks"], rec
    results = run.of_type("result")
    assert results and {r["data_path"] for r in results} == {"dma"}
    assert any(r["op"] == "write" for r in results)
    assert data_path_record(run)["path"] == "dma"
    assert run.records[-1]["errors"] == 0, run.console[-3000:]
    # every multi-block workload moved by DMA inside the CPU's start write:
    # no diagnosis, and none above the bus ceiling
    honest.assert_honest_verdicts(run)
    ver = {r["workload"]: r for r in run.of_type("verdict")}
    assert "dma_inside_register_write" in ver["seq-read-64k"]["invalid"], ver["seq-read-64k"]


def test_data_path_choices(tmp_path):
    """auto under QEMU takes PIO although the host has DMA (QEMU's DMA
    engine copies inside the start register write, which hides the split),
    and says why in one line; pio is what runs when asked for."""
    img = str(tmp_path / "sd.img")
    harness.make_image(img, size="128M", sdbench=["suite = none"])
    run = harness.boot("raspi2b", img, timeout=60)
    sds.assert_clean(run)
    dp = data_path_record(run)
    assert dp["requested"] == "auto" and dp["path"] == "pio", dp
    assert dp["available"] == ["pio", "dma"], dp
    assert "copies inside the start register write" in dp["auto_note"], dp
    assert "data path: PIO (auto): under QEMU, whose DMA model copies inside the start " \
        "register write" in run.console
    harness.make_image(img, size="128M", sdbench=["suite = selftest", "data_path = pio",
                                                 "selftest_lbas=0:64"])
    run = harness.boot("raspi2b", img, timeout=60)
    sds.assert_clean(run)
    assert data_path_record(run)["path"] == "pio"
    rec = [r for r in run.of_type("selftest") if r["test"] == "read"][0]
    assert rec["match"] is True, rec
