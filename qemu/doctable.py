"""doctable.py - a benchmark's output into its doc: what lies between two
markers of the doc is replaced by a line saying which command printed it
and that output (make bench-qemu / bench-linux / bench-linux-commands
DOC=...), so the figures in docs/ are never typed by hand."""


def rewrite(path, begin, end, intro, text):
    """Between the markers begin and end of the doc at path: intro, a blank
    line and text. The markers stay."""
    with open(path) as f:
        doc = f.read()
    i, j = doc.index(begin), doc.index(end)
    with open(path, "w") as f:
        f.write("%s%s\n%s\n\n%s\n%s" % (doc[:i], begin, intro, text, doc[j:]))
