"""Draft for notebook 05: the gated form's two symmetries, both directions, at every size d, m, n ≥ 1.

Run with the worktree's interpreter: ``.venv/bin/python notebooks/_draft_5_every_size.py``. Each chain is printed
with its verdict, how it was obtained, the second opinion and the time the kernel took.
"""
import time

import sympy as sp

import derive
from derive import forms, rules

sigma = derive.activation("sigma")  # an arbitrary σ: an undefined real function
s = derive.sigma
a, b, z, c = derive.real("a b z c")
alpha = derive.nonzero("alpha")  # α ≠ 0

d, m, n = sp.symbols("d m n", integer=True, positive=True)  # every size d, m, n ≥ 1
X, Q, K, V = (sp.MatrixSymbol("x", 1, d), sp.MatrixSymbol("Q", m, d), sp.MatrixSymbol("K", m, d),
              sp.MatrixSymbol("V", m, n))
G = lambda x, Q, K, V: forms.gated(x, Q, K, V, sigma)
ZERO = sp.ZeroMatrix(1, n)

# weights supported on one entry: the layer collapses to its first unit, read at its first input and output
i, k = sp.symbols("i k", integer=True)
j = sp.Symbol("j", integer=True)  # stands for the index of the sum over the units


def selector(value, rows, cols):
    """The rows×cols matrix with ``value`` at entry (1, 1) and zeros elsewhere (any size)."""
    return sp.FunctionMatrix(rows, cols, sp.Lambda((i, k), value * sp.KroneckerDelta(i, 0) * sp.KroneckerDelta(k, 0)))


e1 = selector(1, 1, d)  # the token x = e₁
a_j, b_j = (X * Q.T)[0, j], (X * K.T)[0, j]  # the gate input a_j = x·q_j and the linear factor b_j = x·k_j


def per_unit(term):
    return forms.unit_sum(sp.Lambda((a, b), term(a, b)), X, Q, K, V)


def shown(statement, started):
    print(statement)
    print(f"  second opinion: {statement.second_opinion.result if statement.second_opinion else None}"
          f" ({statement.second_opinion.why if statement.second_opinion else ''})")
    print(f"  {time.perf_counter() - started:.2f} s\n")
    return statement


# -- the reduction identities (as in notebook 05, cell "any size") -------------------------------------------------
started = time.perf_counter()
exchange_per_unit = shown(derive.claim(
    "gated.exchange_per_unit.any_size", G(X, Q, K, V) - G(X, K, Q, V), per_unit(lambda a, b: s(a) * b - s(b) * a),
    expect="proved", paper="5.3", title="the exchange reduces to the unit identity, at every size",
).prove(), started)
started = time.perf_counter()
scaling_per_unit = shown(derive.claim(
    "gated.scaling_per_unit.any_size", G(X, alpha * Q, K / alpha, V) - G(X, Q, K, V),
    per_unit(lambda a, b: (s(alpha * a) / alpha - s(a)) * b),
    expect="proved", paper="5.4", title="the scaling changes G by Σ_j (σ(α a_j)/α − σ(a_j)) b_j v_j, at every size",
).prove(), started)

# -- 5.3 ⇒ ---------------------------------------------------------------------------------------------------------
started = time.perf_counter()
one_unit = {X: e1, Q: selector(a, m, d), K: selector(b, m, d), V: selector(1, m, n)}
exchange_only_if = derive.chain(
    "gated.exchange.every_size.only_if", (G(X, Q, K, V), G(X, K, Q, V)), paper=("5.3",),
    title="if G(x; Q, K) = G(x; K, Q) for every x, Q, K, V (any d, m, n ≥ 1), then σ(a) b = σ(b) a for all a, b",
    expect="proved",
)
exchange_only_if.step(tuple(side.xreplace(one_unit) for side in exchange_only_if.start), rules.instantiate(one_unit))
exchange_only_if.step((s(a) * b, s(b) * a), rules.entry(0, 0))
shown(exchange_only_if, started)

# -- 5.3 ⇐ ---------------------------------------------------------------------------------------------------------
started = time.perf_counter()
exchange_if = derive.chain(
    "gated.exchange.every_size.if", (s(a) * b, s(b) * a), paper=("5.3",), uses=[exchange_per_unit],
    title="if σ(a) b = σ(b) a for all a, b, then G(x; Q, K) = G(x; K, Q) at every size", expect="proved",
)
exchange_if.step((per_unit(lambda a, b: s(a) * b - s(b) * a), ZERO), rules.termwise({a: a_j, b: b_j}, index=j))
exchange_if.step((G(X, Q, K, V) - G(X, K, Q, V), ZERO), rules.using(exchange_per_unit))
exchange_if.step((G(X, Q, K, V), G(X, K, Q, V)), rules.rearrange())
shown(exchange_if, started)

# -- 5.4 ⇒ ---------------------------------------------------------------------------------------------------------
started = time.perf_counter()
scaled_unit = {X: e1, Q: selector(a, m, d), K: selector(1, m, d), V: selector(1, m, n)}
scaling_only_if = derive.chain(
    "gated.scaling.every_size.only_if", (G(X, alpha * Q, K / alpha, V), G(X, Q, K, V)), paper=("5.4",),
    title="if G(x; αQ, K/α) = G(x; Q, K) for every x, Q, K, V (any d, m, n ≥ 1), then σ(αa)/α = σ(a) for all a",
    expect="proved",
)
scaling_only_if.step(tuple(side.xreplace(scaled_unit) for side in scaling_only_if.start), rules.instantiate(scaled_unit))
scaling_only_if.step((s(alpha * a) / alpha, s(a)), rules.entry(0, 0))
shown(scaling_only_if, started)

# -- 5.4 ⇐ ---------------------------------------------------------------------------------------------------------
started = time.perf_counter()
scaling_if = derive.chain(
    "gated.scaling.every_size.if", (s(alpha * a) / alpha, s(a)), paper=("5.4",), uses=[scaling_per_unit],
    title="if σ(αa)/α = σ(a) for all a, then G(x; αQ, K/α) = G(x; Q, K) at every size", expect="proved",
)
scaling_if.step((per_unit(lambda a, b: (s(alpha * a) / alpha - s(a)) * b), ZERO), rules.termwise({a: a_j}, index=j))
scaling_if.step((G(X, alpha * Q, K / alpha, V) - G(X, Q, K, V), ZERO), rules.using(scaling_per_unit))
scaling_if.step((G(X, alpha * Q, K / alpha, V), G(X, Q, K, V)), rules.rearrange())
shown(scaling_if, started)

# -- σ linear ⇒ G keeps both symmetries ----------------------------------------------------------------------------
linear = (s(z), c * z)  # σ(z) = c z for all real z, one real c
started = time.perf_counter()
linear_exchange = derive.chain(
    "gated.linear_keeps_both.every_size.exchange", linear, paper=("6.2",), uses=[exchange_per_unit],
    title="if σ(z) = c z for all z, then G(x; Q, K) = G(x; K, Q) at every size", expect="proved",
)
linear_exchange.step((per_unit(lambda a, b: s(a) * b - s(b) * a), ZERO),
                     rules.termwise([{z: a_j}, {z: b_j}], index=j))
linear_exchange.step((G(X, Q, K, V) - G(X, K, Q, V), ZERO), rules.using(exchange_per_unit))
linear_exchange.step((G(X, Q, K, V), G(X, K, Q, V)), rules.rearrange())
shown(linear_exchange, started)

started = time.perf_counter()
linear_scaling = derive.chain(
    "gated.linear_keeps_both.every_size.scaling", linear, paper=("6.2",), uses=[scaling_per_unit],
    title="if σ(z) = c z for all z, then G(x; αQ, K/α) = G(x; Q, K) at every size, for every α ≠ 0",
    expect="proved",
)
linear_scaling.step((per_unit(lambda a, b: (s(alpha * a) / alpha - s(a)) * b), ZERO),
                    rules.termwise([{z: alpha * a_j}, {z: a_j}], index=j))
linear_scaling.step((G(X, alpha * Q, K / alpha, V) - G(X, Q, K, V), ZERO), rules.using(scaling_per_unit))
linear_scaling.step((G(X, alpha * Q, K / alpha, V), G(X, Q, K, V)), rules.rearrange())
shown(linear_scaling, started)

everything = [exchange_only_if, exchange_if, scaling_only_if, scaling_if, linear_exchange, linear_scaling]
assert all(ch.verdict is derive.Verdict.PROVED for ch in everything), [ch.identifier for ch in everything
                                                                        if ch.verdict is not derive.Verdict.PROVED]
print(derive.claim_table())
