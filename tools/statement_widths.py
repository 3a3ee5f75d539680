"""How many statements on the site's claims page are wider than their column, at 1280 px and on a 390 px phone.

Builds the site from the notebooks as committed (no re-execution; the way ``tests/sitecheck.py`` builds the suite
site), opens ``claims.html`` in headless Chromium with every expression typeset, and counts, at each width, the
claim cards whose statement (any of its typeset pieces, folded parts left out while folded) is wider than the
box it sits in, the cards that fold their statement, and how far the page itself scrolls sideways.

    .venv/bin/python tools/statement_widths.py [--site build/widths-site] [--json] [--list N]
"""
from __future__ import annotations

import argparse
import json
import shutil
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
CHROMIUM = "/usr/bin/chromium"
ARGS = ["--no-sandbox", "--disable-gpu", "--disable-background-networking", "--disable-component-update",
        "--no-first-run", "--disable-sync"]
WIDTHS = (1280, 390)

#: per claim card: is its statement wider than its column (the statement box, a piece of it or a formula scrolls)?
MEASURE = """() => {
  const shown = (el) => el.getClientRects().length > 0 && !el.closest('details:not([open])');
  const wide = (el) => el.scrollWidth > el.clientWidth + 1;
  const cards = [...document.querySelectorAll('article.claim-card')];
  const out = cards.map(card => {
    const st = card.querySelector('.cc-statement');
    const boxes = [...st.querySelectorAll('.cc-piece, .derive-eq, mjx-container')]
      .filter(e => getComputedStyle(e).display !== 'inline');  // an inline element has no width of its own
    const parts = [st, ...boxes].filter(shown);
    const widest = Math.max(0, ...parts.map(e => e.scrollWidth - e.clientWidth));
    return {id: card.dataset.id, wide: parts.some(wide), by: widest,
            folded: st.querySelector('details') !== null};
  });
  return {cards: out, page_overflow: document.documentElement.scrollWidth - window.innerWidth};
}"""


def build_site(out: Path) -> Path:
    from derive.run.runner import find_notebooks
    from derive.site import build, runs_from_files
    from derive.site.vendor import find_mathjax

    if out.exists():
        shutil.rmtree(out)
    build(runs_from_files(find_notebooks(ROOT / "notebooks")), out, mathjax=find_mathjax(), pdf=False)
    return out


def measure(site: Path) -> dict:
    from playwright.sync_api import sync_playwright

    found = {}
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=CHROMIUM, args=ARGS)
        for width in WIDTHS:
            page = browser.new_page(viewport={"width": width, "height": 900 if width > 500 else 844})
            page.set_default_timeout(300_000)
            page.goto((site / "claims.html").as_uri() + "?typeset=all")
            page.wait_for_function("window.MathJax && MathJax.startup && MathJax.startup.promise")
            page.evaluate("MathJax.startup.promise.then(() => true)")
            page.wait_for_timeout(200)
            found[width] = page.evaluate(MEASURE)
            page.close()
        browser.close()
    return found


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--site", default=str(ROOT / "build" / "widths-site"), help="where to build the site")
    ap.add_argument("--no-build", action="store_true", help="measure the site already at --site")
    ap.add_argument("--json", action="store_true")
    ap.add_argument("--list", type=int, default=0, help="list the N widest statements at each width")
    args = ap.parse_args(argv)
    site = Path(args.site)
    if not args.no_build:
        build_site(site)
    found = measure(site)
    if args.json:
        json.dump(found, sys.stdout, indent=1)
        return 0
    for width, got in found.items():
        cards = got["cards"]
        wide = [c for c in cards if c["wide"]]
        share = 100 * len(wide) / max(1, len(cards))
        print(f"{width} px: {len(wide)} of {len(cards)} statements wider than their column ({share:.1f}%), "
              f"{sum(c['folded'] for c in cards)} folded; the page scrolls sideways by {max(0, got['page_overflow'])} px")
        for c in sorted(wide, key=lambda c: -c["by"])[:args.list]:
            print(f"    {c['id']}: {c['by']} px too wide")
    return 0


if __name__ == "__main__":
    sys.exit(main())
