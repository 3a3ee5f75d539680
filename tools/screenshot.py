"""The README's picture: the first screen of the site's index, as a reader opens it, written to a PNG.

Opens ``site/index.html`` (after ``make``) in headless Chromium, offline, waits until MathJax has typeset the
page, and writes the first ``--height`` pixels at ``--width``:

    .venv/bin/python tools/screenshot.py [--page site/index.html] [--out docs/index.png] [--width 1280] [--height 900]
"""
from __future__ import annotations

import argparse
import re
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
CHROMIUM = "/usr/bin/chromium"


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--page", type=Path, default=ROOT / "site" / "index.html")
    parser.add_argument("--out", type=Path, default=ROOT / "docs" / "index.png")
    parser.add_argument("--width", type=int, default=1280)
    parser.add_argument("--height", type=int, default=900)
    args = parser.parse_args(argv)
    if not args.page.is_file():
        print(f"screenshot: no page at {args.page} (run `make` first)", file=sys.stderr)
        return 2
    from playwright.sync_api import sync_playwright

    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=CHROMIUM, args=["--no-sandbox", "--disable-gpu"])
        page = browser.new_page(viewport={"width": args.width, "height": args.height})
        page.route(re.compile(r"^(?!file:|data:)"), lambda route: route.abort())  # offline, as the site is read
        page.goto(args.page.resolve().as_uri())
        page.wait_for_function("window.MathJax && MathJax.startup && MathJax.startup.promise")
        page.evaluate("MathJax.startup.promise.then(() => true)")
        page.screenshot(path=str(args.out))
        browser.close()
    print(f"{args.out}: the first {args.width}×{args.height} px of {args.page}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
