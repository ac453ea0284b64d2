"""No function of the Python host tools (tools/, its package sdbhost
included) is over 80 lines, counted from its def line to its last line
(Python's own parser, ast). A longer one is split into parts whose names
say what each computes."""
import ast
import os

ROOT = os.path.abspath(os.path.join(os.path.dirname(__file__), ".."))
LIMIT = 80


def functions(source):
    """(name, first line, length in lines) of every function and method."""
    return [(n.name, n.lineno, n.end_lineno - n.lineno + 1) for n in ast.walk(ast.parse(source))
            if isinstance(n, (ast.FunctionDef, ast.AsyncFunctionDef))]


def long_functions():
    bad = []
    for dirpath, _, files in os.walk(os.path.join(ROOT, "tools")):
        for f in sorted(files):
            if f.endswith(".py"):
                path = os.path.join(dirpath, f)
                with open(path, encoding="utf-8") as src:
                    for name, line, n in functions(src.read()):
                        if n > LIMIT:
                            bad.append("%s:%d %s is %d lines" % (
                                os.path.relpath(path, ROOT), line, name, n))
    return bad


def test_no_tool_function_over_80_lines():
    bad = long_functions()
    assert not bad, "\n".join(bad)


def test_scan_measures_a_function():
    body = "".join("    x += %d\n" % i for i in range(80))
    src = "class A:\n    def f(self):\n        '''doc'''\n%s\n\ndef g():\n    pass\n" % (
        body.replace("    x", "        x"))
    assert functions(src) == [("g", 86, 2), ("f", 2, 82)]
