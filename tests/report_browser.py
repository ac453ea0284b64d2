#!/usr/bin/python3
"""Open sdbreport's HTML in Debian's chromium, headless, from disk.

Used by tests/test_sdbreport_html.py (every image decoded, every section
present) and by `make screenshot`, which regenerates the README's
screenshot from a committed log of an emulated run:

  tests/report_browser.py --screenshot docs/report-screenshot.png LOG
"""
import argparse
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile

ROOT = os.path.abspath(os.path.join(os.path.dirname(__file__), ".."))
SDBREPORT = os.path.join(ROOT, "build", "host", "sdbreport")

FLAGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking",
         "--disable-component-update", "--disable-sync", "--no-first-run",
         "--disable-default-apps", "--disable-extensions", "--mute-audio", "--hide-scrollbars",
         "--force-device-scale-factor=1"]

# Appended to a copy of the report (the report itself has no script): when
# the page has loaded, write what it holds into <pre id="selfcheck">.
CHECK_SCRIPT = """<script>
window.addEventListener("load", function () {
  var imgs = Array.prototype.slice.call(document.images);
  var secs = Array.prototype.slice.call(document.querySelectorAll("section"));
  var r = {
    images: imgs.length,
    decoded: imgs.filter(function (i) { return i.complete && i.naturalWidth > 0; }).length,
    broken: imgs.filter(function (i) { return !(i.complete && i.naturalWidth > 0); })
                .map(function (i) { return i.alt; }),
    sections: secs.map(function (s) { return s.id; }),
    marked: secs.filter(function (s) { return s.querySelector("h2 .emu") !== null; })
                .map(function (s) { return s.id; }),
    banner: document.getElementById("emulated") ? document.getElementById("emulated").textContent : null,
    headline: (function () {
      var h = document.querySelector(".headline");
      var s = document.querySelector("section");
      return h ? {top: h.getBoundingClientRect().top, bottom: h.getBoundingClientRect().bottom,
                  text: h.textContent,
                  first_section_top: s ? s.getBoundingClientRect().top : null} : null;
    })(),
    resources: performance.getEntriesByType("resource").map(function (e) { return e.name; })
  };
  var pre = document.createElement("pre");
  pre.id = "selfcheck";
  pre.textContent = JSON.stringify(r);
  document.body.appendChild(pre);
});
</script>"""


def find_chromium():
    for name in ("chromium", "chromium-browser"):
        p = shutil.which(name)
        if p:
            return p
    return None


def run_chromium(args, timeout=120):
    exe = find_chromium()
    if not exe:
        raise RuntimeError("chromium is not installed (tools/install-deps.sh installs it)")
    with tempfile.TemporaryDirectory(prefix="sdb-chromium-") as profile:
        cmd = [exe] + FLAGS + ["--user-data-dir=" + profile] + args
        p = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                           stdin=subprocess.DEVNULL, timeout=timeout)
    return p


def check_page(html_path):
    """Load the report in chromium; returns what the page reported about
    itself (images decoded, sections, emulated markers, resources)."""
    with open(html_path, encoding="utf-8") as f:
        page = f.read()
    # The report's Content-Security-Policy forbids scripts; the copy drops
    # it so that the check can run (the copy is otherwise the same page).
    page = re.sub(r'<meta http-equiv="Content-Security-Policy"[^>]*>', "", page, count=1)
    page = page.replace("</body>", CHECK_SCRIPT + "\n</body>", 1)
    with tempfile.TemporaryDirectory(prefix="sdb-page-") as td:
        copy = os.path.join(td, "report.html")
        with open(copy, "w", encoding="utf-8") as f:
            f.write(page)
        p = run_chromium(["--virtual-time-budget=20000", "--dump-dom", "file://" + copy])
    dom = p.stdout.decode("utf-8", "replace")
    m = re.search(r'<pre id="selfcheck">(.*?)</pre>', dom, re.S)
    if not m:
        raise RuntimeError("chromium did not run the page check (status %d): %s" % (
            p.returncode, p.stderr.decode("utf-8", "replace")[-2000:]))
    text = m.group(1).replace("&quot;", '"').replace("&lt;", "<").replace("&gt;", ">") \
        .replace("&amp;", "&")
    return json.loads(text)


def screenshot(html_path, png_path, width=1200, height=1500):
    p = run_chromium(["--window-size=%d,%d" % (width, height),
                      "--screenshot=" + os.path.abspath(png_path),
                      "file://" + os.path.abspath(html_path)])
    if not os.path.exists(png_path):
        raise RuntimeError("chromium wrote no screenshot (status %d): %s" % (
            p.returncode, p.stderr.decode("utf-8", "replace")[-2000:]))
    return png_path


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--screenshot", metavar="PNG", required=True)
    ap.add_argument("--width", type=int, default=1200)
    ap.add_argument("--height", type=int, default=1500)
    ap.add_argument("log")
    a = ap.parse_args()
    with tempfile.TemporaryDirectory() as td:
        html = os.path.join(td, "report.html")
        subprocess.run([SDBREPORT, "-q", "--html", html, a.log], check=False)
        if not os.path.exists(html):
            sys.exit("report_browser: sdbreport wrote no HTML")
        info = check_page(html)
        if info["decoded"] != info["images"]:
            sys.exit("report_browser: images not decoded: %s" % info["broken"])
        screenshot(html, a.screenshot, a.width, a.height)
    print("%s: %d sections, %d images decoded" % (a.screenshot, len(info["sections"]),
                                                  info["decoded"]))


if __name__ == "__main__":
    main()
