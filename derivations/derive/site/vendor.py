"""The site's local copy of MathJax 3, so that no page fetches anything from the network.

MathJax comes from the npm package ``mathjax@3``, which ``make`` installs with
``npm install --prefix build/vendor mathjax@3``; only the ``tex-chtml-full.js`` bundle, its woff fonts and the
licence are copied into the site.
"""
from __future__ import annotations

import os
import shutil
from pathlib import Path

__all__ = ["ENV", "find_mathjax", "copy_mathjax"]

#: environment variable naming the folder of the npm package mathjax@3
ENV = "DERIVE_MATHJAX"
BUNDLE = Path("es5") / "tex-chtml-full.js"
FONTS = Path("es5") / "output" / "chtml" / "fonts" / "woff-v2"
#: MathJax's lazy typesetting: math is typeset as it scrolls into view (the claims page holds about a thousand)
LAZY = Path("es5") / "ui" / "lazy.js"
#: MathJax's filter of what TeX may put in a page: no ``javascript:`` link from ``\\href``, no class or style
SAFE = Path("es5") / "ui" / "safe.js"
_NPM = Path("build") / "vendor" / "node_modules" / "mathjax"


def _candidates(path):
    if path is not None:
        yield Path(path)
        return
    if os.environ.get(ENV):
        yield Path(os.environ[ENV])
        return
    yield Path.cwd() / _NPM
    yield Path(__file__).resolve().parents[3] / _NPM  # the repository, for an editable install


def find_mathjax(path: str | os.PathLike | None = None) -> Path:
    """The folder of the npm package ``mathjax@3``: ``path``, else ``$DERIVE_MATHJAX``, else ``build/vendor``.

    Raises FileNotFoundError, saying how to fetch it, when no candidate holds ``es5/tex-chtml-full.js``.
    """
    if path is not None and not isinstance(path, (str, os.PathLike)):
        raise TypeError(f"find_mathjax: path must be a str or a path, got {type(path).__name__}")
    tried = []
    for folder in _candidates(path):
        if (folder / BUNDLE).is_file() and (folder / FONTS).is_dir() and (folder / LAZY).is_file() \
                and (folder / SAFE).is_file():
            return folder
        tried.append(str(folder))
    raise FileNotFoundError(f"MathJax 3 not found in {' or '.join(tried)}: "
                            "run `make` (it runs npm install --prefix build/vendor mathjax@3)")


def copy_mathjax(source: Path, dest: Path) -> Path:
    """Copy the bundle, its fonts, the lazy-typesetting and safe extensions and the licence from ``source`` into ``dest``."""
    source, dest = Path(source), Path(dest)
    dest.mkdir(parents=True, exist_ok=True)
    shutil.copy2(source / BUNDLE, dest / BUNDLE.name)
    (dest / LAZY.parent.name).mkdir(exist_ok=True)
    for extension in (LAZY, SAFE):
        shutil.copy2(source / extension, dest / extension.relative_to("es5"))
    fonts = dest / FONTS.relative_to("es5")
    fonts.mkdir(parents=True, exist_ok=True)
    for font in sorted((source / FONTS).glob("*.woff")):
        shutil.copy2(font, fonts / font.name)
    if (source / "LICENSE").is_file():
        shutil.copy2(source / "LICENSE", dest / "LICENSE")
    return dest
