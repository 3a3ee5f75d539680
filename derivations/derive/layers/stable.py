"""The named activations in numpy, in forms that stay accurate over the whole float range.

Each function takes a 1-D float64 array and agrees with the exact value of its definition (the SymPy ``Lambda``
of :func:`derive.activation`) to a few units in the last place on [-1000, 1000]:

- ``exp`` is taken of non-positive arguments only, so nothing overflows (softplus(1000) = 1000);
- ``1 + erf``, ``1 + tanh`` and ``log(1 + e^z)`` are rewritten without cancellation (erfc, a sigmoid, log1p);
- GELU and GELU-tanh compute the argument that an exponential amplifies (z²/2, 2√(2/π)(z + 0.044715 z³)) in
  double-double arithmetic, since rounding it alone would cost |argument| units in the last place;
- a result below the normal range is rounded once: ``e^z`` is taken as ``e^(z/2) · e^(z/2)``, the last product
  done last.

>>> import numpy as np
>>> from derive.layers.stable import softplus, mish
>>> softplus(np.array([1000.0, -800.0])).tolist(), bool(mish(np.array([-37.0]))[0] < 0)
([1000.0, 0.0], True)
"""
from __future__ import annotations

import math
from fractions import Fraction

import mpmath
import numpy as np

__all__ = ["FORMS", "evaluate", "sigmoid", "silu", "softplus", "mish", "gelu", "gelu_tanh", "elu", "leaky_relu"]


def _pair(value) -> tuple[float, float]:
    """An mpmath value as a double-double ``hi + lo``."""
    hi = float(value)
    return hi, float(value - hi)


with mpmath.workdps(60):
    _RSQRT2 = _pair(1 / mpmath.sqrt(2))                       # 1/√2
    _TWO_C = _pair(2 * mpmath.sqrt(2 / mpmath.pi))            # 2√(2/π), GELU-tanh's factor doubled
_K = (0.044715, float(Fraction(44715, 10**6) - Fraction(0.044715)))  # 44715/10⁶ exactly, as hi + lo
_TWO_OVER_SQRT_PI = 2 / math.sqrt(math.pi)
_SPLIT = 134217729.0  # 2**27 + 1: Dekker's split of a double into two halves of 26 bits
_erfc = np.vectorize(math.erfc, otypes=[float])


def _two_prod(a, b):
    """``a · b`` as ``p + e`` exactly (Dekker): ``p`` the rounded product, ``e`` its rounding error."""
    p = a * b

    def split(x):
        c = _SPLIT * x
        hi = c - (c - x)
        return hi, x - hi

    (ah, al), (bh, bl) = split(a), split(b)
    return p, ((ah * bh - p) + ah * bl + al * bh) + al * bl


def _two_sum(a, b):
    """``a + b`` as ``s + e`` exactly (Knuth)."""
    s = a + b
    v = s - a
    return s, (a - (s - v)) + (b - v)


def _dd_mul(a, b):
    """The product of two double-doubles, as a double-double (to about 2⁻¹⁰⁴ relative)."""
    p, e = _two_prod(a[0], b[0])
    return _two_sum(p, e + a[0] * b[1] + a[1] * b[0])


def _exp_tail(hi, lo, *scale):
    """``scale · e^(hi + lo)`` for ``hi ≤ 0``, the one product that may leave the normal range done last."""
    half = np.exp(hi / 2)
    out = half * (1 + lo)
    for s in scale:
        out = out * s
    return out * half


def sigmoid(z):
    """``1 / (1 + e^(-z))``."""
    out = np.empty_like(z)
    pos = z >= 0
    out[pos] = 1 / (1 + np.exp(-z[pos]))
    n = z[~pos]
    out[~pos] = _exp_tail(n, 0.0, 1 / (1 + np.exp(n)))
    return out


def silu(z):
    """``z / (1 + e^(-z))``."""
    out = np.empty_like(z)
    pos = z >= 0
    out[pos] = z[pos] / (1 + np.exp(-z[pos]))
    n = z[~pos]
    out[~pos] = _exp_tail(n, 0.0, n / (1 + np.exp(n)))
    return out


def softplus(z):
    """``log(1 + e^z)`` as ``max(z, 0) + log1p(e^(-|z|))``; ``e^z`` itself where ``log1p`` would return it."""
    out = np.empty_like(z)
    pos = z > 0
    out[pos] = z[pos] + np.log1p(np.exp(-z[pos]))
    n = z[~pos]
    tiny = n < -40  # e^z < 5e-18: log1p(e^z) = e^z to the last place
    out[~pos] = np.where(tiny, _exp_tail(n, 0.0), np.log1p(np.exp(np.maximum(n, -40))))
    return out


def mish(z):
    """``z · tanh(log(1 + e^z))`` as ``z · w(w + 2) / (w(w + 2) + 2)`` with ``w = e^z`` (no tanh, no log)."""
    out = np.empty_like(z)
    pos = z > 0
    v = np.exp(-z[pos])  # tanh(softplus(z)) = (1 + 2v) / (1 + 2v + 2v²) with v = e^(-z)
    out[pos] = z[pos] * (1 + 2 * v) / (1 + 2 * v * (1 + v))
    n = z[~pos]
    w = np.exp(n)
    out[~pos] = _exp_tail(n, 0.0, n * (w + 2) / (w * (w + 2) + 2))
    return out


def _erfcx_large(x):
    """``e^(x²) erfc(x)`` for ``x ≥ 19``: its asymptotic series, 16 terms (the first omitted below 1e-27)."""
    t = 1 / (2 * x * x)
    total = np.ones_like(x)
    for k in range(15, 0, -1):  # 1 - t(1 - 3t(1 - 5t(...)))
        total = 1 - (2 * k - 1) * t * total
    return total / (x * math.sqrt(math.pi))


def gelu(z):
    """``z (1 + erf(z/√2)) / 2`` as ``z · erfc(x) / 2`` with ``x = -z/√2`` carried to double-double precision."""
    out = np.empty_like(z)
    far = z < -27  # x > 19: the asymptotic erfcx and the exact exponent z²/2
    near = z[~far]
    x_hi, x_err = _two_prod(-near, _RSQRT2[0])
    x_lo = x_err - near * _RSQRT2[1]
    # erfc(x_hi + x_lo) = erfc(x_hi) - x_lo · 2/√π · e^(-x_hi²), to first order (x_lo/x_hi is below 1e-16)
    erfc = _erfc(x_hi) - x_lo * _TWO_OVER_SQRT_PI * np.exp(-x_hi * x_hi)
    out[~far] = near * erfc / 2
    f = z[far]
    sq_hi, sq_lo = _two_prod(f, f)
    out[far] = _exp_tail(-sq_hi / 2, -sq_lo / 2, f / 2 * _erfcx_large(-f * _RSQRT2[0]))
    return out


def gelu_tanh(z):
    """``z (1 + tanh(u)) / 2`` with ``u = √(2/π)(z + 0.044715 z³)``, as ``z · sigmoid(2u)``, 2u in double-double."""
    sq = _two_prod(z, z)
    cube = _two_prod(z, sq[0])
    cube = (cube[0], cube[1] + z * sq[1])
    inner = _dd_mul(_K, cube)
    s, e = _two_sum(z, inner[0])
    v_hi, v_lo = _dd_mul(_TWO_C, _two_sum(s, e + inner[1]))
    out = np.empty_like(z)
    pos = v_hi >= 0  # sigmoid(v) there is well conditioned: v_hi alone is enough
    out[pos] = z[pos] / (1 + np.exp(-v_hi[pos]))
    n, lo = v_hi[~pos], v_lo[~pos]
    out[~pos] = _exp_tail(n, lo, z[~pos] / (1 + np.exp(n)))
    return out


def elu(z):
    """``z`` for ``z > 0``, else ``e^z - 1`` (as ``expm1``)."""
    return np.where(z > 0, z, np.expm1(np.minimum(z, 0)))


def leaky_relu(z):
    """``max(0, z) + min(0, z)/100``: one rounding (``z/100``, not ``0.01·z``)."""
    return np.where(z > 0, z, z / 100)


def _named() -> dict:
    from .activations import activation

    return {activation(name): fn for name, fn in {
        "identity": lambda z: z.copy(), "relu": lambda z: np.maximum(z, 0), "leaky_relu": leaky_relu,
        "abs": np.abs, "relu2": lambda z: np.maximum(z, 0) ** 2, "silu": silu, "gelu": gelu, "gelu_tanh": gelu_tanh,
        "sigmoid": sigmoid, "tanh": np.tanh, "softplus": softplus, "elu": elu, "mish": mish}.items()}


#: each named activation's ``Lambda`` -> its stable numpy form
FORMS: dict = _named()


def evaluate(fn, a):
    """``fn`` of ``a`` (any shape, or a number) as a float array of the shape of ``a``.

    >>> import numpy as np
    >>> evaluate(sigmoid, np.array([[0.0, 800.0]])).tolist()
    [[0.5, 1.0]]
    """
    a = np.asarray(a, dtype=float)
    with np.errstate(over="ignore", under="ignore", invalid="ignore"):
        return fn(a.reshape(-1)).reshape(a.shape)
