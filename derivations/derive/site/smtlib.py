"""The second opinion's confirmed queries as files any SMT solver reads: ``site/smtlib/<claim id>.smt2``.

A claim's record carries some of the queries that confirmed its verdict (:func:`derive.kernel.opinion.smtlib`: at
most :data:`derive.kernel.opinion.SMTLIB_QUERIES` of them and :data:`derive.kernel.opinion.SMTLIB_CHARS`
characters). Its file holds them in the order they were asked, as plain SMT-LIB 2.6: the first line
``; expect:`` lists the answers, one per ``(check-sat)``; each query is ``(set-logic ALL)``, its declarations and
assertions and ``(check-sat)``, a comment naming the engine that answered it, and a ``(reset)`` before the next
one, which begins with its own ``; expect:`` line. So ``z3 FILE`` or ``cvc5 FILE`` prints the answers of the first
line, one per line. The last line says which of the claim's queries the file holds. A claim with no confirmed
query has no file.
"""
from __future__ import annotations

import html
import re
from pathlib import Path
from urllib.parse import quote

__all__ = ["FOLDER", "href", "link_html", "linked_claim", "linked_table", "file_text", "queries", "write"]

#: the site's folder of scripts
FOLDER = "smtlib"


def href(ident: str) -> str:
    """The link to a claim's script, relative to the site's pages (its name percent-encoded).

    >>> href("rank1.σ_scaling")
    'smtlib/rank1.%CF%83_scaling.smt2'
    """
    return f"{FOLDER}/{quote(ident)}.smt2"


def link_html(ident: str) -> str:
    """The link to a claim's script, shown right after its verdict badge.

    >>> link_html("x.a")
    ' <a class="derive-smtlib" href="smtlib/x.a.smt2" title="the queries that confirm this verdict, in SMT-LIB 2.6: z3 FILE or cvc5 FILE re-runs them">SMT-LIB</a>'
    """
    return (f' <a class="derive-smtlib" href="{html.escape(href(ident))}" title="the queries that confirm this '
            f'verdict, in SMT-LIB 2.6: z3 FILE or cvc5 FILE re-runs them">SMT-LIB</a>')


_BADGE = r'<span class="derive-badge[^>]*>[^<]*</span>'


def linked_claim(page: str, ident: str, links) -> str:
    """A claim's output (HTML) with ``links(ident)`` (HTML, or "") right after its verdict badge.

    >>> linked_claim('<div><span class="derive-badge derive-proved">✓ proved</span> x</div>', "x.a", link_html).split("</span>")[1]
    ' <a class="derive-smtlib" href="smtlib/x.a.smt2" title="the queries that confirm this verdict, in SMT-LIB 2.6: z3 FILE or cvc5 FILE re-runs them">SMT-LIB</a> x</div>'
    """
    return re.sub(f"({_BADGE})", lambda m: m.group(1) + links(ident), page, count=1)


def linked_table(page: str, links) -> str:
    """A claim table or a family's (HTML, :func:`derive.present.render.table_html`, :mod:`derive.present.family`)
    with ``links(identifier)`` after the verdict badge of each row."""
    return re.sub(f'(<tr data-id="([^"]*)"[^>]*>(?:(?!</tr>).)*?{_BADGE})',
                  lambda m: m.group(1) + links(html.unescape(m.group(2))), page, flags=re.S)


def _expect(script: str) -> str:
    first = script.splitlines()[0]
    if not first.startswith("; expect: "):
        raise ValueError(f"smtlib: a script must begin with '; expect:', got {first[:40]!r}")
    return first[len("; expect: "):].strip()


def file_text(ident: str, entry: dict) -> str:
    """The file of claim ``ident`` from its record's ``smtlib`` entry (``{"of": n, "kept": [k, …], "scripts":
    [[engine, script], …]}``: the ``k``-th of its ``n`` queries).

    >>> print(file_text("x.a", {"of": 3, "kept": [1, 3], "scripts": [
    ...     ["z3 4", "; expect: unsat\\n(set-logic ALL)\\n(check-sat)\\n"],
    ...     ["cvc5 1", "; expect: sat\\n(set-logic ALL)\\n(check-sat)\\n"]]}))
    ; expect: unsat sat
    (set-logic ALL)
    (check-sat)
    ; answered by z3 4
    (reset)
    ; expect: sat
    (set-logic ALL)
    (check-sat)
    ; answered by cvc5 1
    ; x.a: queries 1, 3 of the 3 that confirm its verdict (derive's second opinion)
    <BLANKLINE>
    """
    scripts = entry["scripts"]
    if not scripts:
        raise ValueError(f"smtlib: claim {ident} has no script")
    blocks = [f"{script.rstrip()}\n; answered by {engine}\n" for engine, script in scripts]
    head = "; expect: " + " ".join(_expect(s) for _, s in scripts) + "\n"
    body = head + blocks[0].split("\n", 1)[1] + "".join("(reset)\n" + b for b in blocks[1:])
    kept, of = entry["kept"], entry["of"]
    if len(kept) != len(scripts):
        raise ValueError(f"smtlib: claim {ident} lists {len(kept)} queries kept and holds {len(scripts)}")
    numbers = ", ".join(map(str, kept))
    which = ("its one query" if of == 1 else f"query {numbers} of the {of}" if len(kept) == 1
             else f"queries {numbers} of the {of}")
    return body + f"; {ident}: {which} that confirm{'s' if of == 1 else ''} its verdict (derive's second opinion)\n"


def queries(text: str) -> list[tuple[str, str, str]]:
    """A file's queries as ``(expected answer, script, engine)``: each a standalone script, ``; expect:`` first.

    >>> [(e, s.splitlines()[0], g) for e, s, g in queries(file_text("x.a", {"of": 1, "kept": [1], "scripts": [
    ...     ["z3 4", "; expect: unsat\\n(set-logic ALL)\\n(check-sat)\\n"]]}))]
    [('unsat', '; expect: unsat', 'z3 4')]
    """
    answers = _expect(text).split()
    parts = re.split(r"^\(reset\)\n", text, flags=re.M)
    if len(parts) != len(answers):
        raise ValueError(f"smtlib: {len(answers)} answers expected, {len(parts)} queries found")
    out = []
    for k, (answer, part) in enumerate(zip(answers, parts)):
        lines = part.splitlines()
        if k == 0:
            lines[0] = f"; expect: {answer}"
        engine = next(ln[len("; answered by "):] for ln in lines if ln.startswith("; answered by "))
        script = "\n".join(ln for ln in lines if not ln.startswith("; answered by ") and
                           not (ln.startswith("; ") and ln.endswith("(derive's second opinion)")))
        out.append((answer, script + "\n", engine))
    return out


def write(site: Path, runs) -> dict[str, str]:
    """Every claim's file under ``site/smtlib/`` from the records of ``runs`` (a claim stated on several pages:
    from the first record that has queries); returns ``{identifier: href}`` of the claims that have one."""
    written: dict[str, str] = {}
    for run in runs:
        for record in run.claims:
            entry = record.get("smtlib")
            if not entry or record["id"] in written:
                continue
            target = Path(site) / FOLDER / f"{record['id']}.smt2"
            target.parent.mkdir(parents=True, exist_ok=True)
            target.write_text(file_text(record["id"], entry), encoding="utf-8")
            written[record["id"]] = href(record["id"])
    return written
