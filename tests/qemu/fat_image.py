"""A card image's FAT32 boot partition as the tests see it: where a file's
clusters are, and hand edits of the FAT (both copies) and of a directory
entry, to make broken file systems.

Written from the FAT specification for the tests alone (the firmware's
reader is bench/storage/fat.c): the BPB at fixed offsets, 28-bit FAT32
entries, 32-byte 8.3 directory entries in the root directory (one cluster
is enough for the images qemu/mkimage.py makes). The results file read
back after a run goes through mtools, which follows the FAT itself.
"""
import struct

SECTOR = 512
EOC = 0x0FFFFFFF


class Fat32:
    def __init__(self, path):
        self.path = path
        with open(path, "rb") as f:
            mbr = f.read(SECTOR)
            self.part_lba = struct.unpack_from("<I", mbr, 446 + 8)[0]
            f.seek(self.part_lba * SECTOR)
            bs = f.read(SECTOR)
        (self.bps,) = struct.unpack_from("<H", bs, 11)
        self.spc = bs[13]
        (self.rsvd,) = struct.unpack_from("<H", bs, 14)
        self.nfats = bs[16]
        (self.fat_sz,) = struct.unpack_from("<I", bs, 36)
        (self.root_clus,) = struct.unpack_from("<I", bs, 44)
        assert self.bps == SECTOR and self.fat_sz, "a FAT32 volume with 512-byte sectors"
        self.fat_off = (self.part_lba + self.rsvd) * SECTOR
        self.data_off = (self.part_lba + self.rsvd + self.nfats * self.fat_sz) * SECTOR
        self.clus_bytes = self.spc * SECTOR

    def _rw(self, off, n=None, data=None):
        with open(self.path, "rb" if data is None else "r+b") as f:
            f.seek(off)
            if data is None:
                return f.read(n)
            f.write(data)
            return None

    def fat(self, c):
        return struct.unpack("<I", self._rw(self.fat_off + 4 * c, 4))[0] & 0x0FFFFFFF

    def set_fat(self, c, v):
        for i in range(self.nfats):
            self._rw(self.fat_off + i * self.fat_sz * SECTOR + 4 * c,
                     data=struct.pack("<I", v))

    def cluster_off(self, c):
        return self.data_off + (c - 2) * self.clus_bytes

    def _entry(self, name83):
        root = self._rw(self.cluster_off(self.root_clus), self.clus_bytes)
        for off in range(0, len(root), 32):
            if root[off:off + 11] == name83:
                return self.cluster_off(self.root_clus) + off, root[off:off + 32]
        raise KeyError(name83)

    def file(self, name83=b"SDBENCH LOG"):
        """(first cluster, size) of a root-directory file."""
        _, e = self._entry(name83)
        hi, lo, size = struct.unpack_from("<H", e, 20)[0], struct.unpack_from("<H", e, 26)[0], \
            struct.unpack_from("<I", e, 28)[0]
        return (hi << 16) | lo, size

    def set_size(self, size, name83=b"SDBENCH LOG"):
        off, _ = self._entry(name83)
        self._rw(off + 28, data=struct.pack("<I", size))

    def chain(self, first, limit=1 << 20):
        out, c = [], first
        while 2 <= c < 0x0FFFFFF7 and len(out) < limit:
            out.append(c)
            c = self.fat(c)
        return out

    def data_ranges(self, clusters, size):
        """Byte ranges [a, b) of the image holding the file's data: its
        clusters, trimmed to size."""
        out, left = [], size
        for c in clusters:
            n = min(self.clus_bytes, left)
            if n <= 0:
                break
            out.append((self.cluster_off(c), self.cluster_off(c) + n))
            left -= n
        return out

