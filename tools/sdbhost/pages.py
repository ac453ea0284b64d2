"""The HTML pages' templates (tools/sdbhost/templates, Jinja2: Debian's
python3-jinja2): sdbreport's report (html.py) and sdbdb's page of cards
(db/page.py). Autoescape is on: every value a template writes is escaped,
so a card name or a log line holding <script> or & shows as text."""
import functools
import os

import jinja2

TEMPLATES = os.path.join(os.path.dirname(os.path.abspath(__file__)), "templates")


@functools.lru_cache(maxsize=None)
def env():
    return jinja2.Environment(
        loader=jinja2.FileSystemLoader(TEMPLATES), autoescape=True,
        trim_blocks=True, lstrip_blocks=True, keep_trailing_newline=True,
        undefined=jinja2.StrictUndefined)


def render(name, **values):
    return env().get_template(name).render(**values)
