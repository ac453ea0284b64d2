"""SDBENCH.LOG, the results file on the card (docs/results-file.md).

make image and make install create it at full size, every block filled with
PATTERN; at each boot the firmware writes from its start: HEADER, the
console output, then NUL bytes to the end of the last block written. A
reader stops at the first NUL byte: what follows is the pattern, or an
earlier, longer run.
"""

# The firmware's first line (bench/results_log.h, RESULTS_LOG_HEADER).
HEADER = b"# sdbench results file: the console output of the last run"
# One 64-byte line, eight to a 512-byte block.
LINE = b"SDBENCH.LOG: free space for sdbench's console output (not used)\n"
assert len(LINE) == 64
DEFAULT_SIZE = 8 << 20


def pattern(size):
    """The contents of a fresh results file of size bytes."""
    reps = (size + len(LINE) - 1) // len(LINE)
    return (LINE * reps)[:size]


def classify(data):
    """("written", text) for a file the firmware wrote (up to the first
    NUL), ("fresh", b"") for one still holding the pattern, or (None, data)
    when data is not a results file (an ordinary console log)."""
    if data.startswith(HEADER):
        end = data.find(b"\0")
        return "written", data if end < 0 else data[:end]
    if data.startswith(LINE):
        return "fresh", b""
    return None, data
