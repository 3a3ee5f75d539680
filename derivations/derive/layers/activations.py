"""The activation functions as fixed SymPy ``Lambda`` objects of one real variable ``z``.

Each name maps to one ``Lambda`` built once: two layers built with ``activation("silu")`` compare equal.
Constants are exact (GELU-tanh's 0.044715 is the Rational 44715/10⁶).
"""
from __future__ import annotations

import sympy as sp

from ..kernel import printing

__all__ = ["activation", "ACTIVATIONS", "z", "sigma"]

z = sp.Symbol("z", real=True)
#: the generic activation: an undefined real function, for identities that hold for every σ
sigma = sp.Function("sigma", real=True)

_softplus = sp.log(1 + sp.exp(z))

_DEFINITIONS = {
    "sigma": sigma(z),
    "identity": z,
    "relu": sp.Max(0, z),
    "leaky_relu": sp.Max(0, z) + sp.Rational(1, 100) * sp.Min(0, z),
    "abs": sp.Abs(z),
    "relu2": sp.Max(0, z) ** 2,
    "silu": z / (1 + sp.exp(-z)),
    "gelu": z * (1 + sp.erf(z / sp.sqrt(2))) / 2,
    "gelu_tanh": z
    * (1 + sp.tanh(sp.sqrt(2 / sp.pi) * (z + sp.Rational(44715, 10**6) * z**3)))
    / 2,
    "sigmoid": 1 / (1 + sp.exp(-z)),
    "tanh": sp.tanh(z),
    "softplus": _softplus,
    "elu": sp.Piecewise((z, z > 0), (sp.exp(z) - 1, True)),
    "mish": z * sp.tanh(_softplus),
}

#: the names :func:`activation` knows, in a fixed reading order
ACTIVATIONS: tuple[str, ...] = tuple(_DEFINITIONS)
#: each Lambda built once (a dict, not a cache on the argument: an unhashable name must still get a TypeError)
_LAMBDAS = {name: sp.Lambda(z, expr) for name, expr in _DEFINITIONS.items()}


def activation(name: str) -> sp.Lambda:
    """The activation ``name`` as a fixed SymPy ``Lambda`` of one real variable.

    ``"sigma"`` is the generic activation: an undefined function, for identities that hold for every σ.

    Examples
    --------
    >>> from derive import activation
    >>> activation("relu")
    Lambda(z, Max(0, z))
    >>> activation("relu") is activation("relu")
    True
    >>> activation("silu")(2)
    2/(exp(-2) + 1)
    >>> activation("swish")
    Traceback (most recent call last):
    ...
    ValueError: unknown activation 'swish'; known: sigma, identity, relu, leaky_relu, abs, relu2, silu, gelu, gelu_tanh, sigmoid, tanh, softplus, elu, mish
    """
    if not isinstance(name, str):
        raise TypeError(f"activation name must be a str, got {type(name).__name__}")
    if name not in _DEFINITIONS:
        raise ValueError(f"unknown activation {name!r}; known: {', '.join(ACTIVATIONS)}")
    return _LAMBDAS[name]


#: how the named activations print
SIGMA_TEX = {
    "sigma": r"\sigma", "identity": r"\mathrm{id}", "relu": r"\mathrm{ReLU}", "leaky_relu": r"\mathrm{LeakyReLU}",
    "abs": r"\mathrm{abs}", "relu2": r"\mathrm{ReLU}^2", "silu": r"\mathrm{SiLU}", "gelu": r"\mathrm{GELU}",
    "gelu_tanh": r"\mathrm{GELU}_{\tanh}", "sigmoid": r"\mathrm{sigmoid}", "tanh": r"\tanh",
    "softplus": r"\mathrm{softplus}", "elu": r"\mathrm{ELU}", "mish": r"\mathrm{Mish}",
}
printing.NAMES.update({_LAMBDAS[name]: tex for name, tex in SIGMA_TEX.items()})
