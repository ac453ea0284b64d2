"""build/host/sdreg: the host-side SD register decoder.

Feeds it registers as Linux shows them in /sys/block/mmcblk0/device/
{cid,csd,scr,ssr} and checks the JSON it prints. Expected values come from
a small independent decoder here (Python integers sliced by the spec's bit
numbers) or from the field values the vectors were built from, not from
the C code under test. Bad input must give exit status 2 and a message on
stderr.
"""
import json
import os
import subprocess

import pytest

ROOT = os.path.abspath(os.path.join(os.path.dirname(__file__), ".."))
SDREG = os.path.join(ROOT, "build", "host", "sdreg")


def crc7(data):
    crc = 0
    for byte in data:
        for k in range(7, -1, -1):
            fb = ((crc >> 6) & 1) ^ ((byte >> k) & 1)
            crc = (crc << 1) & 0x7F
            if fb:
                crc ^= 0x09
    return crc


def field(hexstr, msb, lsb):
    """Bits msb..lsb of a register given as big-endian hex."""
    v = int(hexstr, 16)
    return (v >> lsb) & ((1 << (msb - lsb + 1)) - 1)


def run(*args):
    assert os.path.exists(SDREG), "build/host/sdreg missing: run make first"
    return subprocess.run([SDREG, *args], stdout=subprocess.PIPE,
                          stderr=subprocess.PIPE, timeout=30)


def decode(*args):
    p = run("--json", *args)
    assert p.returncode == 0, p.stderr.decode()
    assert p.stderr == b""
    return json.loads(p.stdout)


# QEMU's emulated card (hw/sd/sd.c): CID with its CRC, a 2 GiB CSD v1.0
# (READ_BL_LEN 10), SCR 02 25 00...
QEMU_CID = "aa585951454d552101deadbeef006219"
QEMU_CSD_2G = "002600325f5ae3ffffffdfff92a000b7"
QEMU_SCR = "0225000000000000"

# A 32 GB SanDisk SDHC card as Linux prints it: the SDHCI controller drops
# the CRC byte, so it reads 00. CID: MID 03 "SD" "SC32G" PRV 8.0
# PSN 12345678 MDT 2019-06.
SANDISK_CID = "03534453433332478012345678013600"
SANDISK_CSD = "400e00325b590000ed2b7f800a404000"
SANDISK_SCR = "0235804300000000"
# SD Status of an A2 / V30 / U3 / class 10 card (see tests/unit/test_sd_regs.c).
A2_SSR = ("8000000008000000040090001429391e000400000002fd0002"
          + "00" * 39)

# A 64 GB Samsung SDXC card: MID 1b "SM" "EB1QT" PRV 3.0 PSN a1b2c3d4
# MDT 2021-08; CSD v2.0 with C_SIZE 1dbd3, CCC db7.
SAMSUNG_CID = "1b534d454231515430a1b2c3d4015800"
SAMSUNG_CSD = "400e0032db790001dbd37f800a404000"
SAMSUNG_SCR = "0245848b00000000"


def test_qemu_card():
    d = decode("--cid", QEMU_CID, "--csd", QEMU_CSD_2G, "--scr", QEMU_SCR)
    assert set(d) == {"cid", "csd", "scr"}
    cid, csd, scr = d["cid"], d["csd"], d["scr"]
    assert cid["mid"] == 0xAA
    assert cid["manufacturer"] == "unknown"
    assert cid["oid"] == "XY"
    assert cid["pnm"] == "QEMU!"
    assert cid["prv"] == "0.1"
    assert cid["psn"] == 0xDEADBEEF
    assert cid["mdt"] == "2006-02"
    assert cid["crc_ok"] is True
    assert cid["raw"] == QEMU_CID
    assert (crc7(bytes.fromhex(QEMU_CID)[:15]) << 1 | 1) == 0x19

    assert csd["csd_structure"] == 0
    assert csd["card_type"] == "SDSC"
    assert csd["read_bl_len"] == 10
    assert csd["c_size"] == field(QEMU_CSD_2G, 73, 62) == 4095
    assert csd["c_size_mult"] == field(QEMU_CSD_2G, 49, 47) == 7
    assert csd["capacity_bytes"] == 2 << 30
    assert csd["sectors"] == 4 << 20
    assert csd["taac"] == "1.5ms"
    assert csd["taac_ns"] == 1500000
    assert csd["nsac"] == 0
    assert csd["tran_speed_hz"] == 25000000
    assert csd["ccc"] == "0x5f5"
    assert csd["r2w_factor"] == 4
    assert csd["write_bl_len"] == 10
    assert csd["tmp_write_protect"] is False
    assert csd["perm_write_protect"] is False
    assert csd["crc_ok"] is True

    assert scr["sd_spec"] == "2.00"
    assert scr["bus_widths"] == [1, 4]
    assert scr["sd_security"] == 2
    assert scr["cmd_support"] == []


def test_sandisk_sdhc_sysfs_strings():
    d = decode("--cid", SANDISK_CID, "--csd", SANDISK_CSD,
               "--scr", SANDISK_SCR, "--ssr", A2_SSR)
    cid, csd, scr, ssr = d["cid"], d["csd"], d["scr"], d["ssr"]
    assert cid["mid"] == field(SANDISK_CID, 127, 120) == 3
    assert cid["manufacturer"] == "SanDisk"
    assert cid["oid"] == "SD"
    assert cid["pnm"] == "SC32G"
    assert cid["prv"] == "8.0"
    assert cid["psn"] == field(SANDISK_CID, 55, 24) == 0x12345678
    assert cid["mdt"] == "2019-06"
    assert cid["crc_ok"] == "absent"

    c_size = field(SANDISK_CSD, 69, 48)
    assert csd["csd_structure"] == 1
    assert csd["card_type"] == "SDHC"
    assert csd["c_size"] == c_size
    assert csd["capacity_bytes"] == (c_size + 1) * 512 * 1024 == 31832670208
    assert csd["taac"] == "1ms"
    assert csd["tran_speed_hz"] == 25000000
    assert csd["read_bl_len"] == 9 and csd["write_bl_len"] == 9
    assert csd["r2w_factor"] == 2
    assert csd["crc_ok"] == "absent"

    assert scr["sd_spec"] == "5.xx"
    assert scr["cmd_support"] == ["CMD20", "CMD23"]
    assert scr["sd_security"] == 3
    assert scr["bus_widths"] == [1, 4]

    assert ssr["dat_bus_width"] == 4
    assert ssr["speed_class"] == 10
    assert ssr["uhs_grade"] == 3
    assert ssr["video_class"] == 30
    assert ssr["app_perf_class"] == "A2"
    assert ssr["au_size_bytes"] == 4 << 20
    assert ssr["uhs_au_size_bytes"] == 4 << 20
    assert ssr["erase_size"] == 20
    assert ssr["erase_timeout"] == 10
    assert ssr["erase_offset"] == 1
    assert ssr["vsc_au_size"] == 4
    assert ssr["performance_enhance"] == {
        "cq_depth": 32, "cache": True, "host_maintenance": False,
        "card_maintenance": True}
    assert ssr["discard_support"] is True
    assert ssr["fule_support"] is False
    assert ssr["raw"] == A2_SSR


def test_samsung_sdxc():
    d = decode("--cid", SAMSUNG_CID, "--csd", SAMSUNG_CSD, "--scr", SAMSUNG_SCR)
    assert d["cid"]["manufacturer"] == "Samsung"
    assert d["cid"]["pnm"] == "EB1QT"
    assert d["cid"]["mdt"] == "2021-08"
    c_size = field(SAMSUNG_CSD, 69, 48)
    assert c_size == 0x1DBD3
    assert d["csd"]["card_type"] == "SDXC"
    assert d["csd"]["capacity_bytes"] == (c_size + 1) * 512 * 1024
    assert d["csd"]["ccc"] == "0x%03x" % field(SAMSUNG_CSD, 95, 84)
    # SD_SPEC 2, SPEC3 1, SPEC4 1, SPECX 2 -> 6.xx; CMD20/23/58-59.
    assert d["scr"]["sd_spec"] == "6.xx"
    assert d["scr"]["sd_security"] == 4
    assert d["scr"]["cmd_support"] == ["CMD20", "CMD23", "CMD58/59"]


@pytest.mark.parametrize("scr,version", [
    ("0005000000000000", "1.0x"),
    ("0105000000000000", "1.10"),
    ("0205000000000000", "2.00"),
    ("0205800000000000", "3.0x"),
    ("0205840000000000", "4.xx"),
    ("0205804000000000", "5.xx"),
    ("0205808000000000", "6.xx"),
    ("020580c000000000", "7.xx"),
    ("0205810000000000", "8.xx"),
    ("0205814000000000", "9.xx"),
    ("0205818000000000", "reserved"),
    ("0305000000000000", "reserved"),
])
def test_scr_versions(scr, version):
    # Cross-check the vector itself against the spec's bit numbers.
    fields = (field(scr, 59, 56), field(scr, 47, 47), field(scr, 42, 42),
              field(scr, 41, 38))
    assert decode("--scr", scr)["scr"]["sd_spec"] == version, fields


def test_crc_states():
    assert decode("--cid", QEMU_CID)["cid"]["crc_ok"] is True
    bad = QEMU_CID[:-2] + "1b"
    assert decode("--cid", bad)["cid"]["crc_ok"] is False
    absent = QEMU_CID[:-2] + "00"
    assert decode("--cid", absent)["cid"]["crc_ok"] == "absent"
    assert decode("--csd", QEMU_CSD_2G[:-2] + "00")["csd"]["crc_ok"] == "absent"
    assert decode("--csd", QEMU_CSD_2G[:-2] + "b5")["csd"]["crc_ok"] is False


def test_reserved_values_are_reported_not_guessed():
    # CSD v1 with READ_BL_LEN 12 (reserved) and TAAC time value 0.
    csd = "000000325f5ce3ffffffdfff92a00000"
    d = decode("--csd", csd)["csd"]
    assert d["read_bl_bytes"] == "reserved"
    assert d["capacity_bytes"] is None
    assert d["taac"] == "reserved"
    assert d["taac_ns"] is None
    # CSD_STRUCTURE 3.
    d = decode("--csd", "c" + "0" * 31)["csd"]
    assert d["csd_version"] == "reserved"
    assert "capacity_bytes" not in d
    # SSR: speed class code 5, UHS grade 2, video class 20, app class 3.
    ssr = bytearray(64)
    ssr[8] = 5
    ssr[14] = 0x20
    ssr[15] = 20
    ssr[21] = 3
    d = decode("--ssr", ssr.hex())["ssr"]
    assert d["speed_class"] == "reserved"
    assert d["uhs_grade"] == "reserved"
    assert d["video_class"] == "reserved"
    assert d["app_perf_class"] == "reserved"
    assert d["au_size_bytes"] is None


def test_input_forms():
    # Upper case, a trailing newline (as read from a sysfs file), --opt=HEX.
    d = decode("--cid=" + QEMU_CID.upper() + "\n")
    assert d["cid"]["pnm"] == "QEMU!"


def test_human_output():
    p = run("--cid", SANDISK_CID, "--csd", SANDISK_CSD, "--scr", SANDISK_SCR,
            "--ssr", A2_SSR)
    assert p.returncode == 0
    out = p.stdout.decode()
    assert "SanDisk" in out
    assert "SDHC" in out
    assert "31832670208 bytes" in out
    assert "SD spec 5.xx" in out
    assert "app class A2" in out
    with pytest.raises(ValueError):
        json.loads(out)


@pytest.mark.parametrize("args,message", [
    ([], "no register given"),
    (["--json"], "no register given"),
    (["--cid", QEMU_CID[:-1]], "expected 32 hex digits, got 31"),
    (["--cid", QEMU_CID + "00"], "expected 32 hex digits, got 34"),
    (["--csd", "0x" + QEMU_CSD_2G[2:]], "not a hex digit"),
    (["--scr", "02250000 0000000"], "not a hex digit"),
    (["--scr", "zz25000000000000"], "not a hex digit"),
    (["--ssr", "00" * 63], "expected 128 hex digits, got 126"),
    (["--scr", ""], "empty"),
    (["--cid"], "needs a hex value"),
    (["--bogus"], "unknown option"),
    (["--cid", QEMU_CID, "--cid", QEMU_CID], "given twice"),
    # A bad register spoils the whole command, even with good ones around.
    (["--json", "--cid", QEMU_CID, "--scr", "0225"], "expected 16 hex digits, got 4"),
])
def test_bad_input_exit_2(args, message):
    p = run(*args)
    assert p.returncode == 2
    assert message in p.stderr.decode()
    assert p.stdout == b""
