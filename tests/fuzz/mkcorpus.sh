#!/bin/sh
# tests/fuzz/mkcorpus.sh - (re)make the seed inputs of the fuzz targets in
# tests/fuzz/corpus/ from real tools (sfdisk, mkfs.vfat, mtools), small on
# purpose. Inputs found by fuzzing (crash-*, regress-*) are kept as they
# are. Each image is stored as fuzz_image.h describes: a 4-byte card size in
# blocks, then the card's first blocks with the trailing zeros cut off.
set -eu
here=$(cd "$(dirname "$0")" && pwd)
out=$here/corpus
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
export MTOOLS_SKIP_CHECK=1
mkdir -p "$out/fuzz_storage" "$out/fuzz_fat" "$out/fuzz_config" "$out/fuzz_sdregs"

# pack IMAGE CARD_BLOCKS OUT: the fuzz image format
pack() {
	/usr/bin/python3 - "$1" "$2" "$3" <<'PY'
import struct, sys
data = open(sys.argv[1], 'rb').read().rstrip(b'\0')
open(sys.argv[3], 'wb').write(struct.pack('<I', int(sys.argv[2])) + data)
PY
}

# a FAT volume file with SDBENCH.TXT and a contiguous SDBENCH.DAT
fatvol() { # FILE MiB MKFS-ARGS DAT-KiB
	rm -f "$1"
	truncate -s "$2M" "$1"
	/usr/sbin/mkfs.vfat $3 -n SDBENCH "$1" >/dev/null
	printf 'suite = quick\nspan = 64M\n# seed\nseed = 0x1234\nverify = off\n' >"$tmp/sdbench.txt"
	mcopy -i "$1" "$tmp/sdbench.txt" ::SDBENCH.TXT
	if [ "$4" != 0 ]; then
		head -c "$(( $4 * 1024 ))" /dev/zero | tr '\0' 'D' >"$tmp/dat"
		mcopy -i "$1" "$tmp/dat" ::SDBENCH.DAT
	fi
	printf 'x\n' >"$tmp/late.txt"
	mcopy -i "$1" "$tmp/late.txt" ::LATE.TXT
}

# ---- FAT volumes (fuzz_fat; the volume at LBA 0) ----
fatvol "$tmp/f12" 2 "-F 12 -s 1" 64
pack "$tmp/f12" 0 "$out/fuzz_fat/seed-fat12"
fatvol "$tmp/f16" 20 "-F 16 -s 4" 17000
/usr/bin/python3 - "$tmp/f16" <<'PY'
# keep only the metadata and the start of the data region: the file data
# itself is 'D' bytes the reader never looks at
import sys
p = sys.argv[1]
d = bytearray(open(p, 'rb').read())
open(p, 'wb').write(bytes(d[:300 * 1024]))
PY
pack "$tmp/f16" 40960 "$out/fuzz_fat/seed-fat16-dat"
fatvol "$tmp/f32" 34 "-F 32 -s 1 -f 1 -R 2" 20
pack "$tmp/f32" 0 "$out/fuzz_fat/seed-fat32"

# ---- card images (fuzz_storage) ----
# Pi-like: a small FAT16 boot partition at LBA 64, the rest free
fatvol "$tmp/boot" 2 "-F 12 -s 1" 0
mkcard() { # NAME CARD_BLOCKS SFDISK-SCRIPT [KEEP-BLOCKS]
	rm -f "$tmp/card"
	truncate -s 8M "$tmp/card"
	printf '%s' "$3" | /usr/sbin/sfdisk -q --no-reread --no-tell-kernel "$tmp/card" >/dev/null
	if [ -z "${4:-}" ]; then
		dd if="$tmp/boot" of="$tmp/card" bs=512 seek=64 conv=notrunc status=none
	else
		truncate -s "$(( $4 * 512 ))" "$tmp/card"
	fi
	pack "$tmp/card" "$2" "$out/fuzz_storage/$1"
}
mkcard seed-pi 524288 'label: dos
start=64, size=4096, type=c
start=4160, size=8000, type=83
'
mkcard seed-pi-full 12160 'label: dos
start=64, size=4096, type=c
start=4160, size=8000, type=83
'
mkcard seed-logical 524288 'label: dos
start=64, size=40, type=c
start=128, size=600, type=5
start=130, size=100, type=83
start=240, size=100, type=82
start=350, size=100, type=83
' 600
mkcard seed-gpt 524288 'label: gpt
first-lba: 34
start=64, size=4096, type=EBD0A0A2-B9E5-4433-87C0-68B6B72699C7
' 40
# a whole-card FAT (superfloppy)
fatvol "$tmp/sf" 2 "-F 12 -s 1" 0
pack "$tmp/sf" 65536 "$out/fuzz_storage/seed-superfloppy"
# a hybrid MBR: the Pi layout with a 0xEE entry added
/usr/bin/python3 - "$out/fuzz_storage/seed-pi" "$out/fuzz_storage/seed-hybrid" <<'PY'
import struct, sys
d = bytearray(open(sys.argv[1], 'rb').read())
e = 4 + 446 + 2 * 16
d[e:e + 16] = bytes([0, 0, 2, 0, 0xEE, 0, 0, 0]) + struct.pack('<II', 1, 63)
open(sys.argv[2], 'wb').write(bytes(d))
PY
# a card whose file area is SDBENCH.DAT (no free space after the partition)
rm -f "$tmp/card"
truncate -s 21M "$tmp/card"
printf 'label: dos\nstart=64, size=40896, type=6\n' |
	/usr/sbin/sfdisk -q --no-reread --no-tell-kernel "$tmp/card" >/dev/null
fatvol "$tmp/p16" 19 "-F 16 -s 4" 17000
dd if="$tmp/p16" of="$tmp/card" bs=512 seek=64 conv=notrunc status=none
/usr/bin/python3 - "$tmp/card" <<'PY'
import sys
p = sys.argv[1]
d = open(p, 'rb').read()
open(p, 'wb').write(d[:(64 + 600) * 512])
PY
pack "$tmp/card" 40960 "$out/fuzz_storage/seed-file-area"

# ---- sdbench.txt (fuzz_config) ----
cp "$here/../../tools/sdbhost/sdbench-sample.txt" "$out/fuzz_config/seed-sample"
printf 'suite = full\ntest_area = 8192+32768\nspan = 1GiB\nwrite_tests = no\nverify = 1\nmax_clock_hz = 25MHz\nseed = 42\nselftest_lbas = 0, 8:4 2048\nselftest_write = 16M-32M\n' >"$out/fuzz_config/seed-all-keys"
printf 'SUITE=Quick\r\n  span=0x100000 # bytes\r\n"x" = 3\nunknown = 1\n=\n' >"$out/fuzz_config/seed-odd"

# ---- card registers (fuzz_sdregs: CID, CSD, SCR, SSR, CMD6, OCR) ----
/usr/bin/python3 - "$out/fuzz_sdregs" <<'PY'
import sys
o = sys.argv[1]
cid = bytes.fromhex('035344534331364780b1d2e3f4013d00')
csd2 = bytes.fromhex('400e00325b590000e6bf7f800a400000')
csd1 = bytes.fromhex('002600325f5a83ae3db6db7f800a8000')
scr = bytes.fromhex('0235800300000000')
ssr = bytes.fromhex('80000000080000000400900000000000') + bytes(48)
sw = bytes.fromhex('00c880038003800380038003800380030000000000000000000000000000000000') + bytes(31)
ocr = bytes.fromhex('ff80c0')[::-1] + b'\xc0'
open(o + '/seed-sdhc', 'wb').write(cid + csd2 + scr + ssr + sw[:64] + ocr)
open(o + '/seed-sdsc', 'wb').write(cid + csd1 + scr + ssr + sw[:64] + ocr)
open(o + '/seed-hex', 'wb').write(b'400e00325b590000e6bf7f800a400000')
PY
du -sh "$out"
