"""What a run changed on a card image: the tests' own byte compare of the
image before and after, and the user data they put on it first so that a
stray write shows. Shared by the sdbench (QEMU, simulator) and sdblinux
tests; the firmware's write decision (bench/storage) is not used here.
"""
import os
import random
import shutil

import harness

SECTOR = 512
MiB = 1 << 20
# qemu/mkimage.py's boot partition ends here (4 MiB + 64 MiB).
BOOT_END = (4 + 64) * MiB


def fill_random(path, offset, length, seed, chunk=64 * 1024, stride=MiB):
    """User data: chunk random bytes at the start of every stride of the
    range (dense enough that any stray write of a block lands near some)."""
    rnd = random.Random(seed)
    with open(path, "r+b") as f:
        for off in range(offset, offset + length, stride):
            f.seek(off)
            f.write(rnd.randbytes(min(chunk, offset + length - off)))


def image_with_user_data(img, seed, size="128M", **make_image):
    """A card image (harness.make_image), 4 KiB of user data at the start of
    every MiB after its boot partition, and a copy of it taken then: the
    copy's path."""
    harness.make_image(img, size, **make_image)
    fill_random(img, BOOT_END, os.path.getsize(img) - BOOT_END, seed, chunk=4096)
    before = os.path.join(os.path.dirname(img), "before.img")
    shutil.copyfile(img, before)
    return before


def data_extents(path):
    """[start, end) byte ranges that hold data (the rest are holes)."""
    out = []
    with open(path, "rb") as f:
        fd = f.fileno()
        end = os.fstat(fd).st_size
        off = 0
        while off < end:
            try:
                start = os.lseek(fd, off, os.SEEK_DATA)
            except OSError:
                break
            stop = os.lseek(fd, start, os.SEEK_HOLE)
            out.append((start, stop))
            off = stop
    return out


def changed_blocks(a, b):
    """LBAs whose content differs between image files a and b. Only the
    data extents of either file are read: outside them both are zeros."""
    ranges = sorted(data_extents(a) + data_extents(b))
    merged = []
    for s, e in ranges:
        s -= s % SECTOR
        if merged and s <= merged[-1][1]:
            merged[-1][1] = max(merged[-1][1], e)
        else:
            merged.append([s, e])
    out = []
    with open(a, "rb") as fa, open(b, "rb") as fb:
        for s, e in merged:
            off = s
            while off < e:
                n = min(4 * MiB, e - off)
                fa.seek(off)
                fb.seek(off)
                x, y = fa.read(n), fb.read(n)
                if x != y:
                    for k in range(0, n, SECTOR):
                        if x[k:k + SECTOR] != y[k:k + SECTOR]:
                            out.append((off + k) // SECTOR)
                off += n
    return out


def changed_outside(a, b, allowed):
    """Byte offsets (the first few) where images a and b differ outside the
    allowed byte ranges [lo, hi)."""
    def inside(lo, hi):
        return any(alo <= lo and hi <= ahi for alo, ahi in allowed)

    bad = []
    with open(a, "rb") as fa, open(b, "rb") as fb:
        off = 0
        while True:
            x, y = fa.read(1 << 20), fb.read(1 << 20)
            if not x and not y:
                break
            if x != y and not inside(off, off + max(len(x), len(y))):
                for blk in range(0, max(len(x), len(y)), SECTOR):
                    bx, by = x[blk:blk + SECTOR], y[blk:blk + SECTOR]
                    if bx == by or inside(off + blk, off + blk + SECTOR):
                        continue
                    bad += [off + blk + i for i in range(max(len(bx), len(by)))
                            if bx[i:i + 1] != by[i:i + 1] and not inside(off + blk + i,
                                                                           off + blk + i + 1)]
                    if len(bad) >= 10:
                        return bad[:10]
            off += max(len(x), len(y))
    return bad
