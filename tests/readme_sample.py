#!/usr/bin/python3
"""The README's sample output, cut from a committed console log of `make run`
(tests/data/qemu-raspi2b-run.log, which `make fixtures` makes with today's
firmware): what the terminal shows (no "@ " record lines), the start and
the end, "..." where blocks are left out.

  tests/readme_sample.py                 print the sample
  tests/readme_sample.py --write README.md   put it between the README's markers
  tests/readme_sample.py --check README.md   status 1 when the README's differs

`make readme-sample` runs --write; tests/test_readme_sample.py runs --check.
"""
import argparse
import json
import os
import sys

ROOT = os.path.abspath(os.path.join(os.path.dirname(__file__), ".."))
LOG = os.path.join(ROOT, "tests", "data", "qemu-raspi2b-run.log")
BEGIN = "<!-- sample output: make readme-sample (tests/readme_sample.py) -->"
END = "<!-- end of sample output -->"

# The blocks (a block runs to the next empty line) the sample keeps, by how
# their first line starts.
KEEP = ("sdbench 0.", "board:", "test area", "data path:", "sequential read,", "summary",
        "host comparison (", "headline", "status LED", "sdbench: stopped")


def blocks(text):
    """The console's text lines (records left out) in blocks."""
    out, cur = [], []
    for line in text.replace("\r", "").split("\n"):
        if line.startswith("@ "):
            continue
        if not line.strip():
            if cur:
                out.append(cur)
            cur = []
        else:
            cur.append(line.rstrip())
    if cur:
        out.append(cur)
    return out


def sample(text):
    lines, skipped = [], False
    for b in blocks(text):
        if b[0].startswith(KEEP):
            if skipped and lines:
                lines += ["...", ""]
            lines += b + [""]
            skipped = False
        else:
            skipped = True
    while lines and not lines[-1]:
        lines.pop()
    return "\n".join(lines) + "\n"


def readme_block(text):
    """The sample as the README holds it: between the markers, fenced."""
    return BEGIN + "\n```\n" + text + "```\n" + END


def replace(readme, block):
    i, j = readme.find(BEGIN), readme.find(END)
    if i < 0 or j < i:
        raise SystemExit("readme_sample.py: no %r ... %r markers" % (BEGIN, END))
    return readme[:i] + block + readme[j + len(END):]


def diagnosed(text):
    """How many of the log's verdict records are a diagnosis (issue 30's figure)."""
    v = [json.loads(l[2:]) for l in text.splitlines() if l.startswith('@ {"type":"verdict"')]
    return "%d of %d verdicts a diagnosis" % (sum(1 for r in v if r.get("valid")), len(v))


def main(argv):
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("--log", default=LOG)
    g = p.add_mutually_exclusive_group()
    g.add_argument("--write", metavar="README")
    g.add_argument("--check", metavar="README")
    a = p.parse_args(argv)
    with open(a.log, errors="replace") as f:
        text = f.read()
    block = readme_block(sample(text))
    sys.stderr.write("readme_sample.py: %s: %s\n" % (os.path.relpath(a.log, ROOT),
                                                       diagnosed(text)))
    if not a.write and not a.check:
        sys.stdout.write(block + "\n")
        return 0
    path = a.write or a.check
    with open(path) as f:
        old = f.read()
    new = replace(old, block)
    if a.check:
        if new != old:
            sys.stderr.write("readme_sample.py: %s's sample output is not what %s gives "
                             "(make readme-sample)\n" % (path, os.path.relpath(a.log, ROOT)))
            return 1
        return 0
    if new != old:
        with open(path, "w") as f:
            f.write(new)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
