"""A statement laid out for its column (derive.present.layout) and shown readably where nothing typesets it."""
import re

import sympy as sp

import derive
from derive.present import layout
from derive.present.render import statement_html

a = sp.symbols("a_1:40", real=True)


def _rows_text(rows):
    return re.sub(r"&|\\quad|\\qquad|\s+", "", "".join(rows))


def test_a_statement_that_fits_is_left_alone():
    assert layout.broken("a = b") == ["a = b"] and layout.fits(["a = b"])


def test_a_long_sum_breaks_at_its_relation_and_top_level_plus_keeping_every_term():
    tex = derive.kernel.printing.equation(sp.Add(*a), sp.Add(*a[::-1]) * 2)
    rows = layout.broken(tex)
    assert len(rows) > 2 and layout.fits(rows)
    assert rows[0].startswith("&") and any(r.startswith("&=") for r in rows)
    assert _rows_text(rows) == re.sub(r"\s+", "", tex)  # the rows, read in order, are the statement


def test_a_term_wider_than_the_column_folds_with_its_first_row_in_view():
    wide = r"\left[\begin{matrix}" + " + ".join(["a_{1}"] * 80) + r"\end{matrix}\right]"
    out = statement_html("G = " + wide)
    assert "<details" in out and "show in full" in out and r"\cdots" in out


def test_a_chain_moves_its_long_justifications_under_its_steps():
    why = r"\text{instantiate }" + r",\ ".join(f"u_{{{k}}} := a_{{{k}}} + a_{{{k + 1}}}" for k in range(12))
    tex = "\\begin{aligned}\n& x = y \\\\\n\\Longrightarrow\\ & z = w && " + why + r"\ \checkmark" + "\n\\end{aligned}"
    rows = layout.broken(tex)
    assert layout.fits(rows) and rows[:2] == ["& x = y", r"\Longrightarrow\ & z = w"]
    assert all(r.startswith(r"&\qquad") for r in rows[2:]) and len(rows) > 3


def test_a_statement_breaks_before_its_definitions_never_at_their_equals():
    sigma, z, alpha, N, d = sp.Function("sigma"), *sp.symbols("z alpha N d", real=True)
    tex = (derive.kernel.printing.equation(sigma(a[0] * alpha), alpha * sigma(a[0])) + r"\quad \text{where } "
           + r",\ ".join([derive.kernel.printing.equation(sigma(z), sp.Max(0, z)), "N = 12", "d = 2"]))
    rows = layout.broken(tex, 36)
    assert len(rows) > 1 and layout.fits(rows, 36)
    assert not any(r.lstrip("&").startswith("=") for r in rows[1:]), rows  # no row opens with a definition's "="
    assert r"\text{where }" in rows[1] and all(r"\text{where" not in r for r in rows[:1] + rows[2:])
    spaced = lambda t: t.replace("\\ ", " ")  # noqa: E731  (a space between definitions gives way to a row break)
    assert _rows_text([spaced(r) for r in rows]).replace(r"\;", "") == re.sub(r"\s+|\\quad", "", spaced(tex))


def test_a_long_domain_breaks_after_its_commas_keeping_every_condition():
    defined = [sp.Eq(sp.Symbol(f"b_{k}", real=True), sp.Add(*a[k:k + 6])) for k in range(8)]
    c = derive.claim("layout.domain", a[0] * (a[1] + a[2]), a[0] * a[1] + a[0] * a[2], assume=defined)
    tex = c.record()["scope_tex"]
    assert layout.width(tex) > layout.COLUMN
    shown = layout.listed(tex)
    rows = shown.split(r" \\" + "\n")
    assert len(rows) > 2 and all(layout.width(r) <= layout.COLUMN for r in rows)
    assert re.sub(r"\\(begin|end)\{aligned\}|\\\\|&|\\quad|,\\ |,|\s+", "", shown) == \
        re.sub(r",\\ |,|\s+", "", tex)  # every condition, in order
    assert layout.listed(r"\text{for } a \in X") == r"\text{for } a \in X"


def test_the_html_carries_a_unicode_text_and_hides_it_where_math_is_typeset():
    x, K, V = sp.MatrixSymbol("x", 1, 3), sp.MatrixSymbol("K", 2, 3), sp.MatrixSymbol("V", 2, 3)
    kv = derive.forms.key_value(x, K, V, derive.sigma)
    c = derive.claim("test.layout.kv", sp.MatAdd(kv, kv), 2 * kv, expect="proved").prove()
    page = c._repr_mimebundle_()[0]["text/html"]
    plain = re.search(r'<div class="derive-plain tex2jax_ignore">(.*?)</div>', page).group(1)
    assert plain == "σ(x Kᵀ) V + σ(x Kᵀ) V = 2 σ(x Kᵀ) V" and "$" not in plain
    assert ":has(mjx-container" in page and ".derive-plain { display: none" not in page.split(":has(")[0]
    assert c._repr_mimebundle_()[0]["text/plain"].endswith("σ(x Kᵀ) V + σ(x Kᵀ) V = 2 σ(x Kᵀ) V")
