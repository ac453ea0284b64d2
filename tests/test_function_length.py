"""No function in product code (boot/ drivers/ platform/ bench/ lib/) is
over 80 lines, counted from the line of its opening brace to the line of
its closing brace with a brace-counting scan (comments and strings
removed first). A longer function is split into stages whose names say
what each computes."""
import os
import re

ROOT = os.path.abspath(os.path.join(os.path.dirname(__file__), ".."))
PRODUCT = ("boot", "drivers", "platform", "bench", "lib")
LIMIT = 80
# Functions (path:name) over the limit for now, each entry with its reason.
EXEMPT = set()

COMMENT = re.compile(r"/\*.*?\*/|//[^\n]*", re.S)
STRING = re.compile(r'"(?:\\.|[^"\\\n])*"|\'(?:\\.|[^\'\\\n])*\'')
NAME = re.compile(r"(\w+)\s*\([^()]*(?:\([^()]*\)[^()]*)*\)\s*$", re.S)


def functions(text):
    """(name, first line, length in lines) of every top-level brace block
    that follows a parameter list."""
    text = COMMENT.sub(lambda m: "\n" * m.group(0).count("\n"), text)
    text = STRING.sub('""', text)
    out, depth, start, name = [], 0, None, None
    for pos, ch in enumerate(text):
        if ch == "{":
            if depth == 0:
                head = text[max(0, pos - 400):pos].rstrip()
                m = NAME.search(head) if head.endswith(")") else None
                start, name = (pos, m.group(1)) if m else (None, None)
            depth += 1
        elif ch == "}":
            depth -= 1
            if depth == 0 and start is not None:
                first = text.count("\n", 0, start) + 1
                out.append((name, first, text.count("\n", start, pos) + 1))
                start = None
    return out


def long_functions():
    bad = []
    for top in PRODUCT:
        for dirpath, _, files in os.walk(os.path.join(ROOT, top)):
            for f in files:
                if not f.endswith(".c"):
                    continue
                path = os.path.relpath(os.path.join(dirpath, f), ROOT)
                for name, line, n in functions(open(os.path.join(ROOT, path)).read()):
                    if n > LIMIT and "%s:%s" % (path, name) not in EXEMPT:
                        bad.append("%s:%d %s is %d lines" % (path, line, name, n))
    return bad


def test_no_product_function_over_80_lines():
    bad = long_functions()
    assert not bad, "\n".join(bad)


def test_exemptions_are_needed():
    # an exemption for a function that is gone, or is short now, must go too
    long_ones = set()
    for entry in EXEMPT:
        path, fn = entry.split(":")
        full = os.path.join(ROOT, path)
        if os.path.exists(full):
            long_ones |= {"%s:%s" % (path, name) for name, _, n in
                          functions(open(full).read()) if n > LIMIT}
    assert EXEMPT <= long_ones, sorted(EXEMPT - long_ones)


def test_scan_measures_a_function():
    body = "\n".join("\tx++; /* { */" for _ in range(LIMIT + 1))
    text = 'static int f(int a)\n{\n%s\n\treturn "}";\n}\nstruct s { int a; };\n' % body
    assert functions(text) == [("f", 2, LIMIT + 4)]
