import pytest
import sympy as sp

import derive
from derive import matrix, nonzero, positive, real, row

x1, x2, x3 = sp.symbols("x_1 x_2 x_3", real=True)


def test_row():
    assert row("x", 3) == sp.Matrix([[x1, x2, x3]])
    assert row("x", 3).shape == (1, 3)
    assert row("x", 1) == sp.Matrix([[x1]])
    assert isinstance(row("x", 2), sp.ImmutableMatrix)


def test_row_entries_are_real_and_shared_between_calls():
    assert all(e.is_real for e in row("q", 4))
    assert row("x", 2)[1] == x2
    assert row("x", 2) == row("x", 2)
    assert row("x", 2)[0] != sp.Symbol("x_1")  # a plain symbol carries no assumption: a different symbol


def test_matrix():
    K = matrix("K", 2, 3)
    assert K.shape == (2, 3)
    assert K[0, 0] == sp.Symbol("K_{1,1}", real=True)
    assert K[1, 2] == sp.Symbol("K_{2,3}", real=True)
    assert all(e.is_real for e in K)
    assert isinstance(K, sp.ImmutableMatrix)
    assert len(set(K)) == 6
    assert matrix("V", 1, 1) == sp.Matrix([[sp.Symbol("V_{1,1}", real=True)]])


def test_real():
    a, b = real("a b")
    assert a.is_real and b.is_real
    assert a.is_positive is None
    assert real("a") == sp.Symbol("a", real=True)
    assert len(real("a:3")) == 3


def test_positive():
    alpha = positive("alpha")
    assert alpha.is_positive and alpha.is_real and alpha.is_nonzero
    assert positive("alpha") != real("alpha")
    assert all(s.is_positive for s in positive("p q"))


def test_nonzero():
    alpha = nonzero("alpha")
    assert alpha.is_nonzero and alpha.is_real
    assert alpha.is_positive is None
    assert (1 / alpha).is_real


@pytest.mark.parametrize("bad", [0, -1, 2.5, True, "3", None])
def test_row_bad_size(bad):
    with pytest.raises(ValueError, match=f"row: sizes must be positive ints, got {bad!r}"):
        row("x", bad)


@pytest.mark.parametrize("rows, cols", [(0, 2), (2, 0), (-1, 1), (1, 1.0), (False, 2)])
def test_matrix_bad_size(rows, cols):
    with pytest.raises(ValueError, match="matrix: sizes must be positive ints"):
        matrix("K", rows, cols)


@pytest.mark.parametrize("bad", ["", 3, None, sp.Symbol("x")])
def test_bad_name(bad):
    with pytest.raises(TypeError, match="row: name must be a non-empty str"):
        row(bad, 2)
    with pytest.raises(TypeError, match="matrix: name must be a non-empty str"):
        matrix(bad, 2, 2)


def test_public_names():
    assert derive.row is row and derive.matrix is matrix
    assert derive.real is real and derive.positive is positive and derive.nonzero is nonzero
