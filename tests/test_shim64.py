"""The AArch64 shim (qemu/shim/aarch64_shim.S) is written as .word constants
with the instruction in a comment next to each word. When an AArch64
assembler is installed (Debian: binutils-aarch64-linux-gnu; not a project
dependency), assemble the comments and check that they give the same words
and that build/shim64.bin holds them in order."""
import os
import re
import shutil
import struct
import subprocess

import pytest

ROOT = os.path.abspath(os.path.join(os.path.dirname(__file__), ".."))
SRC = os.path.join(ROOT, "qemu", "shim", "aarch64_shim.S")
BIN = os.path.join(ROOT, "build", "shim64.bin")
AS = "aarch64-linux-gnu-as"
OBJCOPY = "aarch64-linux-gnu-objcopy"

WORD = re.compile(r"^\s*\.word\s+(0x[0-9a-fA-F]{8})\s*/\*\s*(.*?)\s*\*/\s*$")
LABEL = re.compile(r"^([A-Za-z_][A-Za-z0-9_]*):\s*$")


def parse():
    words, lines = [], []
    for line in open(SRC):
        m = WORD.match(line)
        if m:
            words.append(int(m.group(1), 16))
            lines.append("\t" + m.group(2))
            continue
        m = LABEL.match(line)
        if m:
            lines.append(m.group(1) + ":")
    return words, lines


def test_binary_holds_the_words():
    words, _ = parse()
    assert len(words) >= 10
    data = open(BIN, "rb").read()
    assert list(struct.unpack("<%dI" % (len(data) // 4), data)) == words


@pytest.mark.skipif(shutil.which(AS) is None, reason="no AArch64 assembler installed")
def test_words_match_their_instructions(tmp_path):
    words, lines = parse()
    src = tmp_path / "shim.s"
    src.write_text("\t.text\n" + "\n".join(lines) + "\n")
    obj, raw = tmp_path / "shim.o", tmp_path / "shim.bin"
    subprocess.run([AS, str(src), "-o", str(obj)], check=True)
    subprocess.run([OBJCOPY, "-O", "binary", "-j", ".text", str(obj), str(raw)], check=True)
    data = raw.read_bytes()
    assert list(struct.unpack("<%dI" % (len(data) // 4), data)) == words
