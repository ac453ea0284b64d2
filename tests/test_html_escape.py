"""The HTML pages (sdbreport --html, sdbdb html) come from Jinja2 templates
with autoescape on: a card name, a board model, a workload name or an
error message holding markup (<script>, &, quotes) is shown as text, never
read as HTML. The values come from the card's CID and the console log, so
a page must not trust them."""
import html.parser
import os

import pytest

import dblogs
from sdbhost import charts as C
from sdbhost import html as H
from sdbhost import records

EVIL = '<script>alert("x")</script>'
TAGS_OF_THE_REPORT = {"html", "head", "meta", "title", "style", "body", "main", "div", "h1",
                      "h2", "h3", "p", "b", "ul", "li", "nav", "a", "section", "span",
                      "table", "tr", "th", "td", "details", "summary", "code", "pre",
                      "figure", "img", "figcaption"}
TINY_PNG = bytes.fromhex("89504e470d0a1a0a0000000d4948445200000001000000010806000000"
                         "1f15c4890000000d49444154789c63f8cfc0f01f0005050200")


class Tags(html.parser.HTMLParser):
    """Every start tag of a page and its text."""

    def __init__(self, page):
        super().__init__(convert_charrefs=True)
        self.tags, self.text = [], []
        self.feed(page)
        self.close()

    def handle_starttag(self, tag, attrs):
        self.tags.append(tag)

    def handle_data(self, data):
        self.text.append(data)


def evil_log(path):
    """A run whose card, board, workload and error carry markup."""
    board = dict(dblogs.PI4, model="Pi & " + EVIL)
    text = dblogs.log_text(7, {"seq-read-64k": 20.0, "rand-<b>read</b>&4k": 5.0}, board=board,
                           pnm=EVIL, manufacturer="Tom & Jerry's")
    text = text.replace(dblogs.rec(type="done", errors=0, elapsed_us=1000000),
                        dblogs.rec(type="error", context="<i>ctx</i>", code="E&1",
                                   message="a \"quoted\" <img src=x> & more") +
                        "\n" + dblogs.rec(type="done", errors=1, elapsed_us=1000000))
    with open(path, "w") as f:
        f.write(text)
    return str(path)


def check_escaped(page, texts):
    assert "<script" not in page.lower() and "<img src=x>" not in page
    assert "&lt;script&gt;" in page
    assert "<i>" not in page and "<b>read</b>" not in page
    t = Tags(page)
    assert set(t.tags) <= TAGS_OF_THE_REPORT, set(t.tags) - TAGS_OF_THE_REPORT
    shown = "".join(t.text)
    for s in texts:         # each value reads back as the text it was
        assert s in shown, s


def test_report_escapes_every_value(tmp_path, monkeypatch):
    monkeypatch.setattr(C.Chart, "png", lambda self, dpi=80: TINY_PNG)
    log = records.read_log(evil_log(tmp_path / "evil.log"))
    page, rep = H.render([log.runs[-1]], ["a&b"], [log])
    assert "overview" in rep.present and "problems" in rep.present
    check_escaped(page, [EVIL, "Pi & " + EVIL, "rand-<b>read</b>&4k", "Tom & Jerry's",
                         'a "quoted" <img src=x> & more', "<i>ctx</i>"])
    assert "Tom &amp; Jerry&#39;s" in page


def test_report_labels_in_a_comparison_are_escaped(tmp_path, monkeypatch):
    monkeypatch.setattr(C.Chart, "png", lambda self, dpi=80: TINY_PNG)
    log = records.read_log(evil_log(tmp_path / "evil.log"))
    run = log.runs[-1]
    page, _ = H.render([run, run], ["<u>A</u>", "B&"], [log])
    check_escaped(page, ["Headline <u>A</u>", "B&"])
    assert "<u>" not in page and 'id="headline-&lt;u&gt;A&lt;/u&gt;"' in page


def test_cards_page_escapes_every_value(tmp_path):
    pytest.importorskip("matplotlib")
    from sdbhost.db import Store
    from sdbhost.db import page as P
    db = str(tmp_path / "cards.db")
    with Store.open(db) as st:
        (r,) = st.add_log(evil_log(tmp_path / "evil.log"))
        assert r.status == "added", r.message
        page, n, _ = P.render(st.db)
    assert n == 1
    check_escaped(page, [EVIL, "Tom & Jerry's"])
    assert os.path.basename(db) in page
