"""initramfs.py - a gzip'd cpio archive (the kernel's "newc" format,
Documentation/driver-api/early-userspace/buffer-format.rst) built in
memory, without root and without the cpio tool: directories, files,
symlinks and the one device node the kernel needs before /dev is mounted
(/dev/console, for init's output)."""
import gzip
import stat

_MAGIC = b"070701"


class Archive:
    def __init__(self):
        self._out = bytearray()
        self._ino = 1
        self._seen = set()

    def _entry(self, name, mode, data=b"", rdev=(0, 0)):
        name = name.lstrip("/")
        fields = (self._ino, mode, 0, 0, 2 if stat.S_ISDIR(mode) else 1, 0, len(data),
                  0, 0, rdev[0], rdev[1], len(name) + 1, 0)
        self._ino += 1
        self._out += _MAGIC + b"".join(b"%08x" % f for f in fields)
        self._out += name.encode() + b"\0"
        self._pad()
        self._out += data
        self._pad()

    def _pad(self):
        self._out += b"\0" * (-len(self._out) % 4)

    def _parents(self, path):
        parts = path.strip("/").split("/")[:-1]
        for i in range(len(parts)):
            self.dir("/".join(parts[:i + 1]))

    def dir(self, path):
        path = path.strip("/")
        if path and path not in self._seen:
            self._seen.add(path)
            self._parents(path)
            self._entry(path, stat.S_IFDIR | 0o755)

    def file(self, path, data, mode=0o644):
        self._parents(path)
        self._entry(path, stat.S_IFREG | mode, bytes(data))

    def symlink(self, path, target):
        self._parents(path)
        self._entry(path, stat.S_IFLNK | 0o777, target.encode())

    def chardev(self, path, major, minor):
        self._parents(path)
        self._entry(path, stat.S_IFCHR | 0o600, rdev=(major, minor))

    def gzipped(self):
        end = Archive()
        end._entry("TRAILER!!!", 0)
        return gzip.compress(bytes(self._out + end._out), compresslevel=6, mtime=0)
