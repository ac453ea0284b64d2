"""Every repository path named in code comments and docs exists.

Scanned: the comments of every C, header and assembler file, every
Markdown file, and the Python, shell and Makefile text (there only paths
that start with one of the repository's top-level folders). A path is
"a/b/c.ext" beginning with a top-level folder (or "../" going out of the
repository, which is refused outright); in comments and Markdown a bare
file name ("wl_basic.c") must also name a file of the repository. Names of
other projects' files and placeholders ("sim/hosts/NAME.txt") are listed
below with the reason.
"""
import os
import re
import subprocess

ROOT = os.path.abspath(os.path.join(os.path.dirname(__file__), ".."))

# Files whose text another change rewrites (issue 21: the card / bus / host
# split); their stale references are fixed there.
EXEMPT_FILES = {
    "tests/test_doc_paths.py",  # its own made-up examples
}

# Bare names that are not this repository's files, and why.
FOREIGN = {
    "hyp-stub.S": "Linux (arch/arm/kernel)",
    "sdhci-iproc.c": "Linux (drivers/mmc/host)",
    "sdhc.h": "Zephyr's SD host API",
    "mmc.c": "Linux (drivers/mmc/core)",
    "string.h": "libc", "stdint.h": "libc", "stdbool.h": "libc", "stdio.h": "libc",
    "stdlib.h": "libc", "stddef.h": "libc", "math.h": "libc", "stdarg.h": "libc",
    "errno.h": "libc", "unistd.h": "libc", "time.h": "libc", "signal.h": "libc",
    "fcntl.h": "libc", "ctype.h": "libc", "limits.h": "libc", "inttypes.h": "libc",
}
# Paths under a folder name this repository also has, but of another
# project (read, never copied), and why.
FOREIGN_PATHS = {
    "drivers/mmc/host/bcm2835.c": "Linux",
    "drivers/mmc/host/sdhci.c": "Linux",
    "drivers/mmc/core/sd.c": "Linux (SD extension registers, cache, command queue)",
    "drivers/mmc/bcm2835_sdhci.c": "U-Boot",
}
# Placeholder components: "sim/hosts/NAME.txt", "drivers/<name>/" written as X.
PLACEHOLDER = re.compile(r"(^|/)(NAME|X|SOC)([._/]|$)")
# Generated at build time.
GENERATED = ("build/",)

PATH = re.compile(r"(?<![\w./$-])((?:\.\./)*(?:[\w.-]+/)+[\w.-]+\.(?:c|h|S|py|md|txt|sh|ld|awk))\b")
BARE = re.compile(r"(?<![\w./$-])([A-Za-z][\w-]*\.(?:c|h|S|md))\b(?![\w(])")
C_COMMENT = re.compile(r"/\*.*?\*/|//[^\n]*", re.S)


def tracked():
    out = subprocess.run(["git", "ls-files"], cwd=ROOT, stdout=subprocess.PIPE, text=True).stdout
    return [f for f in out.split() if os.path.exists(os.path.join(ROOT, f))]


def scanned_text(path):
    text = open(os.path.join(ROOT, path), errors="replace").read()
    if path.endswith((".c", ".h", ".S")):
        return "\n".join(C_COMMENT.findall(text)), True
    if path.endswith(".md"):
        return text, True
    if path.endswith((".py", ".sh", ".awk", ".ld")) or os.path.basename(path) == "Makefile":
        return text, False
    return None, False


def stale_references(files=None, text_of=scanned_text):
    files = tracked() if files is None else files
    have = set(files)
    dirs = {d for f in files for d in (f.rsplit("/", i)[0] for i in range(1, f.count("/") + 1))}
    tops = {f.split("/")[0] for f in files if "/" in f}
    names = {os.path.basename(f) for f in files}
    bad = []
    for path in files:
        if path in EXEMPT_FILES:
            continue
        text, bare_too = text_of(path)
        if text is None:
            continue
        for m in PATH.finditer(text):
            ref = m.group(1)
            if ref.startswith("../"):
                if path.endswith(".md") and os.path.normpath(
                        os.path.join(os.path.dirname(path), ref)) in have:
                    continue  # a Markdown link relative to its own folder
                bad.append("%s: %s points outside the repository" % (path, ref))
                continue
            if ref.split("/")[0] not in tops or ref in have or ref in dirs:
                continue
            if ref in FOREIGN_PATHS or PLACEHOLDER.search(ref) or ref.startswith(GENERATED):
                continue
            if os.path.normpath(os.path.join(os.path.dirname(path), ref)) in have:
                continue
            bad.append("%s: %s does not exist" % (path, ref))
        if not bare_too:
            continue
        for m in BARE.finditer(PATH.sub("", text)):
            name = m.group(1)
            if name in names or name in FOREIGN or PLACEHOLDER.search(name):
                continue
            bad.append("%s: %s names no file of the repository" % (path, name))
    return bad


def test_every_path_named_in_comments_and_docs_exists():
    bad = stale_references()
    assert not bad, "\n".join(bad)


def test_a_broken_reference_is_found():
    files = ["bench/a.c", "bench/b.h", "docs/x.md"]
    texts = {"bench/a.c": "/* see bench/b.h and wl_old.c */ int x = y.c;",
             "bench/b.h": "/* ../outside/notes.md */",
             "docs/x.md": "[b](../bench/b.h), bench/gone.c, sim/hosts/NAME.txt"}
    bad = stale_references(files, lambda p: (
        "\n".join(C_COMMENT.findall(texts[p])) if p.endswith((".c", ".h")) else texts[p], True))
    assert bad == ["bench/a.c: wl_old.c names no file of the repository",
                   "bench/b.h: ../outside/notes.md points outside the repository",
                   "docs/x.md: bench/gone.c does not exist"], bad
