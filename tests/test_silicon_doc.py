"""docs/silicon.md lists every belief about the hardware that a driver
look, a wait or the split relies on, each as a heading "### `ID`: ...".
The code marks the place that relies on one with a comment tag
[silicon:ID]. Both ways: every belief is tagged somewhere in the code (a
belief nothing uses is not one, or its tag was lost when the code moved),
and every tag names a belief of the page (a new look must be written down
with its authority before it is used)."""
import os
import re

ROOT = os.path.abspath(os.path.join(os.path.dirname(__file__), ".."))
DOC = os.path.join(ROOT, "docs", "silicon.md")
CODE_DIRS = ("drivers", "bench", "sim", "platform", "lib", "boot")
HEADING = re.compile(r"^### `([a-z0-9-]+)`", re.M)
TAG = re.compile(r"\[silicon:([a-z0-9-]+)\]")
SECTION_FIELDS = ("**Authorities.**", "**What the code assumes.**", "**Handling: ")


def doc_beliefs(text):
    return HEADING.findall(text)


def code_tags():
    tags = {}
    for d in CODE_DIRS:
        for dirpath, _, files in os.walk(os.path.join(ROOT, d)):
            for f in files:
                if f.endswith((".c", ".h", ".S")):
                    path = os.path.join(dirpath, f)
                    for t in TAG.findall(open(path, errors="replace").read()):
                        tags.setdefault(t, set()).add(os.path.relpath(path, ROOT))
    return tags


def mismatches(beliefs, tags):
    out = ["belief %s is tagged nowhere in the code" % b for b in beliefs if b not in tags]
    out += ["%s tags [silicon:%s], which docs/silicon.md does not list" % (sorted(w)[0], t)
            for t, w in sorted(tags.items()) if t not in beliefs]
    return out


def sections(text):
    parts = re.split(r"^### ", text, flags=re.M)[1:]
    return {HEADING.match("### " + p).group(1): p for p in parts}


def test_every_belief_is_tagged_and_every_tag_is_a_belief():
    text = open(DOC).read()
    beliefs = doc_beliefs(text)
    assert len(beliefs) >= 12
    assert len(set(beliefs)) == len(beliefs), "a belief listed twice"
    bad = mismatches(beliefs, code_tags())
    assert not bad, "\n".join(bad)


def test_every_belief_says_its_authority_assumption_and_handling():
    for bid, body in sections(open(DOC).read()).items():
        for field in SECTION_FIELDS:
            assert field in body, "%s: no %s" % (bid, field)


def test_the_block_count_belief_is_probed():
    body = sections(open(DOC).read())["blkcnt-bus"]
    assert "**Handling: probed at run time.**" in body


def test_the_check_finds_an_untagged_belief_and_an_unlisted_tag():
    tags = {"a-b": {"drivers/X.c"}, "stray": {"sim/X.c"}}
    bad = mismatches(["a-b", "c-d"], tags)
    assert "belief c-d is tagged nowhere in the code" in bad
    assert "sim/X.c tags [silicon:stray], which docs/silicon.md does not list" in bad
