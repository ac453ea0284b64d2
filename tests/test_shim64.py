"""The AArch64 shim (qemu/shim/aarch64_shim.S) is A64 source assembled by
the AArch64 toolchain into build/shim64.bin, a raw image that QEMU loads at
0x80000 without linking: the object must carry no relocation (an
unresolved adr would be silently zero in the binary), and the binary must
disassemble to the source's instructions, in order. That the shim starts
kernel.img is tested by booting it (tests/qemu/test_raspi3.py,
test_raspi4.py)."""
import os
import re
import subprocess

ROOT = os.path.abspath(os.path.join(os.path.dirname(__file__), ".."))
SRC = os.path.join(ROOT, "qemu", "shim", "aarch64_shim.S")
BIN = os.path.join(ROOT, "build", "shim64.bin")
OBJ = os.path.join(ROOT, "build", "shim", "aarch64_shim.o")
OBJDUMP = "aarch64-linux-gnu-objdump"

INSN = re.compile(r"^\t([a-z][a-z0-9.]*)\b")


def source_mnemonics():
    """The instruction of every code line of the source (after the
    comment block), in order."""
    out, in_code = [], False
    for line in open(SRC):
        if line.startswith("\t.section"):
            in_code = True
            continue
        if not in_code:
            continue
        m = INSN.match(line)
        if m and not m.group(1).startswith("."):
            out.append(m.group(1))
    return out


def binary_mnemonics():
    out = subprocess.run([OBJDUMP, "-D", "-b", "binary", "-m", "aarch64", BIN], check=True,
                         stdout=subprocess.PIPE).stdout.decode()
    return [l.split("\t")[2].split()[0] for l in out.splitlines()
            if re.match(r"^\s+[0-9a-f]+:\t[0-9a-f]{8} \t", l)]


def test_no_relocations():
    out = subprocess.run([OBJDUMP, "-r", OBJ], check=True,
                         stdout=subprocess.PIPE).stdout.decode()
    assert "RELOCATION RECORDS" not in out, out


def test_binary_holds_the_source():
    src = source_mnemonics()
    assert len(src) >= 10
    assert os.path.getsize(BIN) == 4 * len(src) <= 0x1000
    assert binary_mnemonics() == src


def test_adr_resolves_to_the_entry():
    """The release address core 0 writes for cores 1-3 is the shim's
    entry (offset 0), not whatever an unresolved relocation left."""
    out = subprocess.run([OBJDUMP, "-D", "-b", "binary", "-m", "aarch64", BIN], check=True,
                         stdout=subprocess.PIPE).stdout.decode()
    adr = [l for l in out.splitlines() if "\tadr\t" in l]
    assert len(adr) == 1 and adr[0].rstrip().endswith("x1, 0x0"), adr
