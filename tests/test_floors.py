"""Figures the suite has reached, held as floors: read from the committed notebooks' outputs (which nbval checks
are those of a fresh run), so a change that lowers one fails here and says by how much."""
from pathlib import Path

import nbformat
import pytest

from derive.present.audit import audit
from derive.run.runner import claims_of, find_notebooks

NOTEBOOKS = Path(__file__).resolve().parent.parent / "notebooks"
#: the share of proved claims an independent engine confirms (the issue asked for 90 %; 92.1 % was reached, 422 of
#: 458, and 92.6 % once matrices at a size were written out part by part, 424 of 458)
CONFIRMED_FLOOR = 0.92
#: the items the paper states for every size that are proved at every size in every direction
EVERY_SIZE_BOTH_WAYS = ["1.1", "2.1", "2.2", "3.1", "3.3", "4.1", "4.2", "4.3", "5.1", "5.2", "5.3", "5.4", "B1", "B2", "B3"]
#: the proved claims whose scope is every size (B3 at every rank r brought it to 104)
EVERY_SIZE_PROVED_FLOOR = 104


@pytest.fixture(scope="module")
def records():
    return [r for path in find_notebooks(NOTEBOOKS) for r in claims_of(nbformat.read(path, as_version=4))]


def test_independent_engines_confirm_at_least_the_share_reached_and_none_disagrees(records):
    proved = [r for r in records if r["verdict"] == "proved"]
    results = [(r.get("second_opinion") or {}).get("result") for r in proved]
    assert "disagrees" not in results
    share = results.count("agrees") / len(proved)
    assert share >= CONFIRMED_FLOOR, f"{share:.1%} of {len(proved)} proved claims confirmed"


def test_the_paper_items_stated_for_every_size_stay_proved_at_every_size_both_ways(records):
    rows = {r["item"]: r for r in audit(records).json()}
    for item in EVERY_SIZE_BOTH_WAYS:
        row = rows[item]
        assert row["scope"] == "every size", (item, row["scope"])
        assert all(d["status"] == "yes" for d in row["directions"].values()), (item, row["directions"])


def test_the_proved_claims_at_every_size_do_not_fall_below_their_floor(records):
    every = [r["id"] for r in records if r["verdict"] == "proved" and r.get("scope") == "every size"]
    assert len(every) >= EVERY_SIZE_PROVED_FLOOR, f"{len(every)} proved claims at every size"


def test_6_1_and_6_2_are_proved_both_ways(records):
    rows = {r["item"]: r for r in audit(records).json()}
    for item in ("6.1", "6.2"):
        assert [d["status"] for d in rows[item]["directions"].values()] == ["yes", "yes"], item


def test_no_proved_claim_reads_x_equals_x(records):
    # a claim whose two sides, as shown, are one expression shows nothing: it is stated before σ or a count is
    # evaluated (where=), so that what is shown is what the paper writes
    same = [r["id"] for r in records if r["verdict"] == "proved" and r.get("reads_same")]
    assert not same, same
