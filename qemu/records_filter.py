#!/usr/bin/python3
"""Copy the firmware's console from stdin to stdout without its records.

qemu/run.sh (make run) pipes QEMU's serial output through this when the
output is a terminal: lines that start with "@ " (one JSON record each,
docs/records.md) are left out, everything else passes at once, byte by
byte as it comes (the console's prompt, "sdbench> ", has no newline). The
whole console, records included, is in the log file QEMU writes beside it
(qemu/run.sh names it), which sdbreport and the capture tools read.

    qemu/records_filter.py            stdin -> stdout
    qemu/records_filter.py --count    and "N records" on stderr at the end
"""
import os
import sys

MARK = b"@ "


class Filter:
    """Line-start state machine: at the start of a line up to two bytes
    are held until they say whether the line is a record."""

    def __init__(self):
        self.at_start = True   # the next byte starts a line
        self.held = b""        # bytes of a line start not yet decided
        self.dropping = False  # inside a record line
        self.records = 0

    def feed(self, data):
        out = bytearray()
        for i in range(len(data)):
            b = data[i:i + 1]
            if self.dropping:
                if b == b"\n":
                    self.dropping = False
                    self.at_start = True
                continue
            if self.at_start or self.held:
                self.held += b
                if MARK.startswith(self.held):
                    if self.held == MARK:
                        self.held = b""
                        self.at_start = False
                        self.dropping = True
                        self.records += 1
                    else:
                        self.at_start = False
                    continue
                out += self.held
                self.at_start = b == b"\n"
                self.held = b""
                continue
            out += b
            self.at_start = b == b"\n"
        return bytes(out)

    def flush(self):
        held, self.held = self.held, b""
        return held


def main(argv):
    f = Filter()
    fin, fout = sys.stdin.fileno(), sys.stdout.fileno()
    while True:
        try:
            data = os.read(fin, 4096)
        except InterruptedError:
            continue
        if not data:
            break
        out = f.feed(data)
        if out:
            os.write(fout, out)
    os.write(fout, f.flush())
    if "--count" in argv:
        sys.stderr.write("%d records\n" % f.records)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
