"""Soundness of the kernel, on the paper's own statements.

(a) Every true identity of steps 1-6, component-wise at small concrete sizes, is proved.
(b) Mutations of them (a wrong transpose, σ on the other factor, α instead of 1/α, ...) are never proved, and
    each is refuted by an exact witness: the recorded witness respects the symbols' assumptions, and
    substituting it again gives a residual that ``certify_nonzero`` certifies on its own and that 50-digit
    mpmath places inside the recorded enclosure.
(c) Property-based tests of the certifier against exact arithmetic and 50-digit mpmath.
"""
from fractions import Fraction

import flint
import mpmath
import pytest
import sympy as sp
from hypothesis import given
from hypothesis import strategies as st

import derive
from derive import Verdict, forms, rules
from derive.kernel.certify import certify_nonzero, enclose
from derive.kernel.witness import components, search, undefined_functions

SIGMA = derive.activation("sigma")
RELU = derive.activation("relu")
IDENTITY = derive.activation("identity")
t = sp.Symbol("t", real=True)
a, b, c = derive.real("a b c")
w = derive.nonzero("w")
alpha = derive.nonzero("alpha")
alpha_pos = derive.positive("alpha")
alpha_neg = sp.Symbol("alpha", negative=True)
d_, m_, r_ = sp.symbols("d m r", positive=True, integer=True)
LINEAR = sp.Lambda(t, c * t)
AFFINE = sp.Lambda(t, t + 1)
SIZES = [(2, 2), (2, 3), (3, 2), (3, 3)]
PROPERTIES = ("positive", "negative", "nonnegative", "nonpositive", "nonzero", "zero", "integer", "real")


# -- small builders -------------------------------------------------------------------------------------------
def layer(d, m):
    """x (1×d), Q, K (m×d) and V (m×d)."""
    return derive.row("x", d), derive.matrix("Q", m, d), derive.matrix("K", m, d), derive.matrix("V", m, d)


def rows(M):
    return [M[j, :] for j in range(M.rows)]


def dot(u, v):
    return (u * v.T)[0, 0]


def weighted(weights, V):
    """Σ_j weights[j] v_j as a 1×n matrix, written out by hand."""
    total = sp.zeros(1, V.cols)
    for weight, v in zip(weights, rows(V)):
        total += weight * v
    return sp.ImmutableMatrix(total)


def unit_maps(d, m, r):
    """Per-unit d×r query and key maps Q_j, K_j."""
    return ([derive.matrix(f"Q{j}", d, r) for j in range(1, m + 1)],
            [derive.matrix(f"K{j}", d, r) for j in range(1, m + 1)])


def S(x, Q, K, V, sigma=SIGMA):
    return forms.symmetric_rank1(x, Q, K, V, sigma)


def G(x, Q, K, V, sigma=SIGMA):
    return forms.gated(x, Q, K, V, sigma)


def sym(A):
    return (A + A.T) / 2


def augmented(x, K):
    """x̃ = [x, 1], the constant query e_{d+1} per unit and the keys k̃_j = [k_j, 0], as bilinear maps."""
    d = x.cols
    x1 = sp.ImmutableMatrix.hstack(x, sp.ImmutableMatrix([[1]]))
    e = sp.ImmutableMatrix([0] * d + [1])
    keys = [sp.ImmutableMatrix.hstack(k, sp.ImmutableMatrix([[0]])).T for k in rows(K)]
    return x1, [e] * K.rows, keys


# -- (a) the true identities ----------------------------------------------------------------------------------
def kv_memories(d, m):  # 1.1
    x, _, K, V = layer(d, m)
    return forms.key_value(x, K, V, SIGMA), weighted([SIGMA(dot(x, k)) for k in rows(K)], V)


def absorb_query(d, m):  # 2.1
    x, _, K, V = layer(d, m)
    Q = derive.matrix("Q", d, d)
    return forms.key_value(x * Q, K, V, SIGMA), forms.key_value(x, K * Q.T, V, SIGMA)


def absorb_identity_query(d, m):  # 2.2
    x, _, K, V = layer(d, m)
    return forms.key_value(x * sp.eye(d), K, V, SIGMA), forms.key_value(x, K, V, SIGMA)


def bilinear_symmetric_part(d, m):  # 3.1, one matrix per unit
    x = derive.row("x", d)
    As = [derive.matrix(f"A{j}", d, d) for j in range(1, m + 1)]
    lhs = sp.ImmutableMatrix([[(x * A * x.T)[0, 0] for A in As]])
    return lhs, sp.ImmutableMatrix([[(x * sym(A) * x.T)[0, 0] for A in As]])


def bilinear_quadratic_form(d, m):  # 3.1 in the layer: only the symmetric part of A_j = Q_j K_jᵀ matters
    x, _, _, V = layer(d, m)
    Qs, Ks = unit_maps(d, m, 2)
    scores = [(x * sym(Qj * Kj.T) * x.T)[0, 0] for Qj, Kj in zip(Qs, Ks)]
    return forms.bilinear(x, Qs, Ks, V, SIGMA), weighted([SIGMA(s) for s in scores], V)


def bilinear_static_query(d, m):  # 3.3
    x, _, K, V = layer(d, m)
    x1, Qs, Ks = augmented(x, K)
    return forms.bilinear(x1, Qs, Ks, V, SIGMA), forms.key_value(x, K, V, SIGMA)


def rank1_score_factorizes(d, m):  # 4.1, every unit
    x, Q, K, _ = layer(d, m)
    lhs = sp.ImmutableMatrix([[(x * q.T * k * x.T)[0, 0] for q, k in zip(rows(Q), rows(K))]])
    return lhs, sp.ImmutableMatrix([[dot(x, q) * dot(x, k) for q, k in zip(rows(Q), rows(K))]])


def rank1_symmetric_form(d, m):  # 4.2
    x, Q, K, V = layer(d, m)
    return forms.bilinear(x, [q.T for q in rows(Q)], [k.T for k in rows(K)], V, SIGMA), S(x, Q, K, V)


def rank1_bilinear_glu(d, m):  # 4.2 with σ the identity
    x, Q, K, V = layer(d, m)
    return S(x, Q, K, V, IDENTITY), forms.hadamard(x * Q.T, x * K.T) * V


def rankr_score_sum(d, m):  # 4.3 with r = 2
    x, _, _, V = layer(d, m)
    Qs, Ks = unit_maps(d, m, 2)
    scores = [sum(dot(x, Qj[:, s].T) * dot(x, Kj[:, s].T) for s in range(2)) for Qj, Kj in zip(Qs, Ks)]
    return forms.bilinear(x, Qs, Ks, V, SIGMA), weighted([SIGMA(s) for s in scores], V)


def rankr_outer_products(d, m):  # 4.3: A = Q Kᵀ is the sum of the r outer products q_sᵀ k_s (r = m here)
    Q, K = derive.matrix("Q", d, m), derive.matrix("K", d, m)
    return Q * K.T, sp.ImmutableMatrix(sum((Q[:, s] * K[:, s].T for s in range(m)), sp.zeros(d, d)))


def symmetric_exchange(d, m):  # 5.1
    x, Q, K, V = layer(d, m)
    return S(x, Q, K, V), S(x, K, Q, V)


def symmetric_scaling(d, m):  # 5.2
    x, Q, K, V = layer(d, m)
    return S(x, alpha * Q, K / alpha, V), S(x, Q, K, V)


def gated_scaling_into_sigma(d, m):  # 5.4: the scaling moves into σ_α(z) = σ(αz)/α
    x, Q, K, V = layer(d, m)
    return G(x, alpha * Q, K / alpha, V), G(x, Q, K, V, sp.Lambda(t, SIGMA(alpha * t) / alpha))


def gated_exchange_reduces(d, m):  # 5.3: G(Q,K) - G(K,Q) = Σ_j (σ(a_j) b_j - σ(b_j) a_j) v_j
    x, Q, K, V = layer(d, m)
    terms = [SIGMA(dot(x, q)) * dot(x, k) - SIGMA(dot(x, k)) * dot(x, q) for q, k in zip(rows(Q), rows(K))]
    return G(x, Q, K, V) - G(x, K, Q, V), weighted(terms, V)


def gated_exchange_linear(d, m):  # 5.3 / 6.2: a linear σ keeps the exchange symmetry
    x, Q, K, V = layer(d, m)
    return G(x, Q, K, V, LINEAR), G(x, K, Q, V, LINEAR)


def gated_scaling_linear(d, m):  # 5.4: a linear σ keeps every inverse scaling
    x, Q, K, V = layer(d, m)
    return G(x, alpha * Q, K / alpha, V, LINEAR), G(x, Q, K, V, LINEAR)


def gated_relu_scaling_positive(d, m):  # 5.4: ReLU keeps the inverse scaling for α > 0
    x, Q, K, V = layer(d, m)
    return G(x, alpha_pos * Q, K / alpha_pos, V, RELU), G(x, Q, K, V, RELU)


TRUE_IDENTITIES = {
    "kv.memories": kv_memories,
    "absorb.query": absorb_query,
    "absorb.identity_query": absorb_identity_query,
    "bilinear.symmetric_part": bilinear_symmetric_part,
    "bilinear.quadratic_form": bilinear_quadratic_form,
    "bilinear.static_query": bilinear_static_query,
    "rank1.score_factorizes": rank1_score_factorizes,
    "rank1.symmetric_form": rank1_symmetric_form,
    "rank1.bilinear_glu": rank1_bilinear_glu,
    "rankr.score_sum": rankr_score_sum,
    "rankr.outer_products": rankr_outer_products,
    "symmetric.exchange": symmetric_exchange,
    "symmetric.scaling": symmetric_scaling,
    "gated.scaling_into_sigma": gated_scaling_into_sigma,
    "gated.exchange_reduces": gated_exchange_reduces,
    "gated.exchange_linear": gated_exchange_linear,
    "gated.scaling_linear": gated_scaling_linear,
    "gated.relu_scaling_positive": gated_relu_scaling_positive,
}


@pytest.mark.parametrize("size", SIZES, ids=[f"d{d}m{m}" for d, m in SIZES])
@pytest.mark.parametrize("name", list(TRUE_IDENTITIES))
def test_true_identity_is_proved(name, size):
    lhs, rhs = TRUE_IDENTITIES[name](*size)
    claim = derive.claim(name, lhs, rhs).prove()
    assert claim.verdict is Verdict.PROVED, claim.evidence.attempts
    assert claim.evidence.strategy


SCALAR_IDENTITIES = {
    # 3.2: m(2dr + d) parameters; at full rank r = d that is m(2d² + d), 2d² per unit for the score
    "bilinear.parameters_full_rank": ((m_ * (2 * d_ * r_ + d_)).subs(r_, d_), m_ * 2 * d_**2 + m_ * d_),
    # 5.4 ⇔ σ(αa)/α = σ(a): true for ReLU when α > 0
    "gated.relu_scaling_scalar": (RELU(alpha_pos * a) / alpha_pos, RELU(a)),
    # 6.2: σ(z) = c z satisfies σ(a) b = σ(b) a
    "lemma.linear_exchange": (SIGMA(a) * b, SIGMA(b) * a, {SIGMA: LINEAR}),  # as written: c a b, twice, once put in
    # B1 (used by 5.4): ReLU, LeakyReLU, |z| and the identity are positively homogeneous
    "lemma.relu_homogeneous": (RELU(alpha_pos * a), alpha_pos * RELU(a)),
    "lemma.leaky_relu_homogeneous": (derive.activation("leaky_relu")(alpha_pos * a),
                                     alpha_pos * derive.activation("leaky_relu")(a)),
    "lemma.abs_homogeneous": (SIGMA(alpha_pos * a), alpha_pos * SIGMA(a), {SIGMA: sp.Lambda(t, abs(t))}),
}


@pytest.mark.parametrize("name", list(SCALAR_IDENTITIES))
def test_scalar_identity_is_proved(name):
    lhs, rhs, *where = SCALAR_IDENTITIES[name]  # where: what σ stands for, when SymPy would make the sides one
    claim = derive.claim(name, lhs, rhs, where=where[0] if where else None).prove()
    assert claim.verdict is Verdict.PROVED, claim.evidence.attempts


def test_absorption_dimension_free_is_proved():
    d, m, n = sp.symbols("d m n", positive=True, integer=True)
    x, Q = sp.MatrixSymbol("x", 1, d), sp.MatrixSymbol("Q", d, d)
    K, V = sp.MatrixSymbol("K", m, d), sp.MatrixSymbol("V", m, n)
    claim = derive.claim("absorb.query_dimension_free", forms.key_value(x * Q, K, V, SIGMA),  # σ(x (K Qᵀ)ᵀ) V:
                         forms.elementwise(SIGMA, sp.MatMul(x, sp.Transpose(sp.MatMul(K, Q.T)))) * V).prove()
    assert claim.verdict is Verdict.PROVED
    assert claim.evidence.strategy == "structural"


def _any_size():
    d, m, n = sp.symbols("d m n", positive=True, integer=True)
    return sp.MatrixSymbol("x", 1, d), sp.MatrixSymbol("Q", m, d), sp.MatrixSymbol("K", m, d), sp.MatrixSymbol("V", m, n)


def test_symmetric_form_symmetries_at_every_size_are_proved():  # 5.1 and 5.2 with d, m, n symbols
    x, Q, K, V = _any_size()
    alpha = derive.nonzero("alpha")
    identity = derive.activation("identity")
    for name, lhs, rhs in [("exchange", S(x, Q, K, V), S(x, K, Q, V)),
                           ("scaling", S(x, alpha * Q, K / alpha, V), S(x, Q, K, V)),
                           ("bilinear_scaling", G(x, alpha * Q, K / alpha, V, identity), G(x, Q, K, V, identity))]:
        claim = derive.claim(f"symmetric.{name}_any_size", lhs, rhs).prove()
        assert claim.verdict is Verdict.PROVED, claim.evidence.attempts
        assert claim.evidence.strategy == "structural"


def test_lemma_sigma_is_linear_chain_is_proved():  # 6.1: b = 1, then z ≠ 0, then divide by z
    ch = (derive.chain("lemma.sigma_linear", (derive.sigma(a) * b, derive.sigma(b) * a))
          .step((derive.sigma(a), derive.sigma(1) * a), rules.instantiate({b: 1}))
          .step((derive.sigma(w), derive.sigma(1) * w), rules.instantiate({a: w}))
          .step((derive.sigma(w) / w, derive.sigma(1)), rules.divide(w)))
    assert ch.verdict is Verdict.PROVED


def test_lemma_sigma_vanishes_at_zero_chain_is_proved():  # 6.1: a = 0, b = 1
    ch = derive.chain("lemma.sigma_zero", (derive.sigma(a) * b, derive.sigma(b) * a))
    ch.step((derive.sigma(0), sp.Integer(0)), rules.instantiate({a: 0, b: 1}))
    assert ch.verdict is Verdict.PROVED


# -- (b) mutations: never proved, always refuted by a certified witness --------------------------------------
def _mutants():
    x, Q, K, V = layer(2, 2)
    q, k = rows(Q)[0], rows(K)[0]
    Qd, A = derive.matrix("Q", 2, 2), derive.matrix("A", 2, 2)
    Qs, Ks = unit_maps(2, 2, 2)
    swapped = sp.ImmutableMatrix.vstack(V[1, :], V[0, :])
    kv = forms.key_value(x, K, V, SIGMA)
    x1, e_last, keys = augmented(x, K)
    out = {
        # step 1: the key-value view
        "kv.sigma_on_values": (kv, (x * K.T) * forms.elementwise(SIGMA, V), (), RELU),
        "kv.sigma_outside": (kv, forms.elementwise(SIGMA, x * K.T * V), (), RELU),
        "kv.neighbour_key": (kv, weighted([SIGMA(dot(x, k)) for k in rows(K)[::-1]], V), (), RELU),
        "kv.keys_for_values": (kv, forms.key_value(x, V, K, SIGMA), (), RELU),
        "kv.dropped_term": (kv, weighted([SIGMA(dot(x, rows(K)[0]))], V[:1, :]), (), RELU),
        "kv.swapped_value_rows": (kv, forms.key_value(x, K, swapped, SIGMA), (), RELU),
        "kv.relu_claimed_linear": (forms.key_value(x, K, V, RELU), x * K.T * V, (), None),
        # step 2: query absorption
        "absorb.no_transpose": (forms.key_value(x * Qd, K, V, SIGMA), forms.key_value(x, K * Qd, V, SIGMA), (), RELU),
        "absorb.transposed_query": (forms.key_value(x * Qd.T, K, V, SIGMA),
                                    forms.key_value(x, K * Qd.T, V, SIGMA), (), RELU),
        "absorb.into_values": (forms.key_value(x * Qd, K, V, SIGMA), forms.key_value(x, K, V * Qd.T, SIGMA), (), RELU),
        "absorb.doubled_query": (forms.key_value(2 * x, K, V, SIGMA), kv, (), RELU),
        # step 3: bilinear attention
        "bilinear.antisymmetric_part": (x * A * x.T, x * ((A - A.T) / 2) * x.T, (), None),
        "bilinear.missing_half": (x * A * x.T, x * (A + A.T) * x.T, (), None),
        "bilinear.neighbour_key": (forms.bilinear(x, Qs, Ks, V, SIGMA),
                                   forms.bilinear(x, Qs, Ks[::-1], V, SIGMA), (), RELU),
        "bilinear.parameters_as_mlp": (m_ * (2 * d_ * d_ + d_), 2 * m_ * d_, (), None),
        "bilinear.static_query_padded_one": (
            forms.bilinear(x1, e_last, [sp.ImmutableMatrix([*k[:-1], 1]) for k in keys], V, SIGMA), kv, (), RELU),
        "bilinear.static_query_first_axis": (
            forms.bilinear(x1, [sp.ImmutableMatrix([1, 0, 0])] * 2, keys, V, SIGMA), kv, (), RELU),
        # step 4: rank 1 and rank r
        "rank1.trace_confusion": (x * q.T * k * x.T, sp.ImmutableMatrix([[dot(q, k) * dot(x, x)]]), (), None),
        "rank1.sigma_distributed": (S(x, Q, K, V), forms.hadamard(forms.elementwise(SIGMA, x * Q.T),
                                                                  forms.elementwise(SIGMA, x * K.T)) * V, (), RELU),
        "rank1.symmetric_is_gated": (S(x, Q, K, V), G(x, Q, K, V), (), RELU),
        "gated.sigma_on_key_factor": (G(x, Q, K, V), forms.hadamard(x * Q.T, forms.elementwise(SIGMA, x * K.T)) * V,
                                      (), sp.Lambda(t, t**3)),
        "rank1.glu_same_factor": (S(x, Q, K, V, IDENTITY), forms.hadamard(x * Q.T, x * Q.T) * V, (), None),
        "rankr.mismatched_columns": (
            forms.bilinear(x, Qs, Ks, V, SIGMA),
            weighted([SIGMA(sum(dot(x, Qj[:, s].T) * dot(x, Kj[:, 1 - s].T) for s in range(2)))
                      for Qj, Kj in zip(Qs, Ks)], V), (), RELU),
        "rankr.score_matrix_symmetric": (Qs[0] * Ks[0].T, Ks[0] * Qs[0].T, (), None),
        # step 5: the symmetries of S and G
        "symmetric.alpha_not_inverse": (S(x, alpha * Q, alpha * K, V), S(x, Q, K, V), (), RELU),
        "symmetric.missing_inverse": (S(x, alpha * Q, K, V), S(x, Q, K, V), (), RELU),
        "symmetric.sign_flip": (S(x, -Q, K, V), S(x, Q, K, V), (), RELU),
        "gated.exchange_generic": (G(x, Q, K, V), G(x, K, Q, V), (), sp.Lambda(t, t**2)),
        "gated.relu_scaling_negative": (G(x, alpha_neg * Q, K / alpha_neg, V, RELU), G(x, Q, K, V, RELU), (), None),
        "gated.relu_scaling_nonzero": (G(x, alpha * Q, K / alpha, V, RELU), G(x, Q, K, V, RELU), (), None),
        "gated.relu_alpha_not_inverse": (G(x, alpha_pos * Q, alpha_pos * K, V, RELU), G(x, Q, K, V, RELU), (), None),
        "gated.relu_scaling_assumed_negative": (G(x, c * Q, K / c, V, RELU), G(x, Q, K, V, RELU), (c < 0,), None),
        "gated.scaling_dropped_inverse": (G(x, alpha * Q, K, V), G(x, Q, K, V), (), RELU),
        # step 6: the σ(z)/z lemma
        "lemma.affine_claimed_linear": (AFFINE(a + b), AFFINE(a) + AFFINE(b), (), None),
        "lemma.relu_claimed_linear": (RELU(a + b), RELU(a) + RELU(b), (), None),
        "lemma.relu_multiple_of_z": (RELU(a), RELU(1) * a, (), None),
        "lemma.conclusion_without_hypothesis": (derive.sigma(a), derive.sigma(1) * a, (), RELU),
        "lemma.softplus_vanishes_at_zero": (derive.activation("softplus")(0), sp.Integer(0), (), None),
        "lemma.sigmoid_vanishes_at_zero": (derive.activation("sigmoid")(0), sp.Integer(0), (), None),
        "lemma.silu_ratio_constant": (derive.activation("silu")(w) / w, derive.activation("silu")(1), (), None),
        "lemma.affine_exchange": (AFFINE(a) * b, AFFINE(b) * a, (), None),
    }
    # 5.3: the exchange symmetry of G, broken by every non-linear σ (one unit, d = 2, keeps prove() quick)
    x, Q, K, V = layer(2, 1)
    for name in [*derive.ACTIVATIONS[2:], "affine"]:
        sigma = AFFINE if name == "affine" else derive.activation(name)
        out[f"gated.exchange_{name}"] = (G(x, Q, K, V, sigma), G(x, K, Q, V, sigma), (), None)
    # 5.4: the inverse scaling of G, broken by non-homogeneous σ even for α > 0, and by ReLU-likes for α < 0
    for name, scale in [("silu", alpha_pos), ("gelu", alpha_pos), ("gelu_tanh", alpha_pos), ("softplus", alpha_pos),
                        ("tanh", alpha_pos), ("leaky_relu", alpha_neg), ("abs", alpha_neg), ("relu2", alpha_pos)]:
        sigma = derive.activation(name)
        out[f"gated.scaling_{name}"] = (G(x, scale * Q, K / scale, V, sigma), G(x, Q, K, V, sigma), (), None)
    return out


MUTANTS = _mutants()


def test_there_are_at_least_forty_mutants():
    assert len(MUTANTS) >= 40


def _substitute(expr, values):
    for f, lam in values.items():
        if not isinstance(f, sp.Symbol):
            expr = expr.replace(f, lam)
    return expr.xreplace({k: v for k, v in values.items() if isinstance(k, sp.Symbol)})


def assert_certified_refutation(claim):
    """The recorded witness is exact and admissible, and re-substituting it gives a certified nonzero residual."""
    assert claim.verdict is Verdict.REFUTED
    evidence = claim.evidence
    assert evidence.strategy == "exact witness"
    symbols = {str(s): s for s in claim.symbols()}
    functions = {f.__name__: f for f in undefined_functions(claim.difference)}
    assert set(evidence.witness) == set(symbols) | set(functions)
    values = {}
    for name, text in evidence.witness.items():
        value = sp.sympify(text)
        if name in functions:
            assert isinstance(value, sp.Lambda)
            values[functions[name]] = value
            continue
        assert value.is_number and not value.has(sp.Float)
        for prop in PROPERTIES:
            if getattr(symbols[name], f"is_{prop}"):
                assert getattr(value, f"is_{prop}") is True, (name, value, prop)
        values[symbols[name]] = value
    for cond in claim.assume:
        assert _substitute(cond, values) is sp.true
    residuals = [_substitute(e, values) for _, e in components(claim.difference)]
    certified = [r for r in residuals if certify_nonzero(r) is not None]
    assert certified
    recorded = [r for r in certified if sp.sstr(r) == evidence.residual]
    assert recorded or evidence.residual.endswith("...")
    residual = recorded[0] if recorded else certified[0]
    value = sp.N(residual, 50)
    assert value != 0
    if evidence.enclosure:
        ball = flint.arb(evidence.enclosure)
        assert ball.contains(flint.arb(str(value)))
        assert bool(ball > 0) == bool(value > 0)
    else:
        assert residual.is_Rational and sp.sstr(residual) == evidence.residual


@pytest.mark.parametrize("name", list(MUTANTS))
def test_mutation_is_refuted_never_proved(name):
    lhs, rhs, assume, sigma_witness = MUTANTS[name]
    claim = derive.claim(name, lhs, rhs, assume=assume)
    assert claim.prove().verdict is not Verdict.PROVED
    if undefined_functions(claim.difference):
        instance = _substitute(claim.difference, {derive.sigma: sigma_witness})
        found = search(instance, claim.symbols(), claim.assume, seed_text=name)
        assert found is not None
        claim.refute({derive.sigma: sigma_witness, **found.witness})
    else:
        assert sigma_witness is None
        claim.refute()
    assert_certified_refutation(claim)


@pytest.mark.parametrize("name", ["gated.exchange_generic", "kv.neighbour_key", "rank1.symmetric_is_gated"])
def test_refutation_found_by_the_numeric_check_is_certified(name):
    lhs, rhs, assume, _ = MUTANTS[name]
    claim = derive.claim(name, lhs, rhs, assume=assume).check()
    assert_certified_refutation(claim)


def _dimension_free():
    d, m, n = sp.symbols("d m n", positive=True, integer=True)
    x, Q = sp.MatrixSymbol("x", 1, d), sp.MatrixSymbol("Q", d, d)
    Qm, K, V = sp.MatrixSymbol("Q", m, d), sp.MatrixSymbol("K", m, d), sp.MatrixSymbol("V", m, n)
    alpha = derive.nonzero("alpha")
    return {
        "absorb.no_transpose": (forms.key_value(x * Q, K, V, SIGMA), forms.key_value(x, K * Q, V, SIGMA)),
        "absorb.transposed_query": (forms.key_value(x * Q.T, K, V, SIGMA), forms.key_value(x, K * Q.T, V, SIGMA)),
        "gated.exchange": (G(x, Qm, K, V), G(x, K, Qm, V)),
        "rank1.symmetric_is_gated": (S(x, Qm, K, V), G(x, Qm, K, V)),
        "gated.relu_exchange": (G(x, Qm, K, V, RELU), G(x, K, Qm, V, RELU)),
        "gated.scaling": (G(x, alpha * Qm, K / alpha, V), G(x, Qm, K, V)),
        "gated.relu_scaling_any_sign": (G(x, alpha * Qm, K / alpha, V, RELU), G(x, Qm, K, V, RELU)),
        "symmetric.scaling_not_inverse": (S(x, alpha * Qm, K * alpha, V), S(x, Qm, K, V)),
        "symmetric.scaling_one_side": (S(x, 2 * Qm, K, V), S(x, Qm, K, V)),
        "symmetric.queries_for_keys": (S(x, Qm, Qm, V), S(x, Qm, K, V)),
    }


@pytest.mark.parametrize("name", list(_dimension_free()))
def test_dimension_free_mutation_is_never_proved(name):
    lhs, rhs = _dimension_free()[name]
    assert derive.claim(name, lhs, rhs).prove().verdict is not Verdict.PROVED


def test_mutant_expected_proved_raises_with_its_identifier():
    lhs, rhs, _, _ = MUTANTS["gated.exchange_relu"]
    with pytest.raises(derive.ExpectationError, match=r"gated\.exchange_relu: expected proved, got unproven"):
        derive.claim("gated.exchange_relu", lhs, rhs, expect=Verdict.PROVED).prove()


# -- (c) the certifier, property-based ------------------------------------------------------------------------
rationals = st.fractions(min_value=-50, max_value=50, max_denominator=1000)
nonzero_rationals = rationals.filter(lambda f: f != 0)
positive_rationals = st.fractions(min_value=Fraction(1, 1000), max_value=50, max_denominator=1000)


def Q_(f):
    return sp.Rational(f.numerator, f.denominator)


def sign_of(ball):
    assert ball > 0 or ball < 0
    return 1 if ball > 0 else -1


@given(rationals, rationals)
def test_rational_difference_certified_exactly_iff_unequal(p, q):
    cert = certify_nonzero(Q_(p) - Q_(q))
    assert (cert is not None) == (p != q)
    if cert is not None:
        assert cert.method == "exact"
        assert sp.Rational(cert.value) == Q_(p - q)


@given(rationals, rationals)
def test_unevaluated_rational_difference_certified_by_arb_iff_unequal(p, q):
    expr = sp.Add(Q_(p), -Q_(q), evaluate=False)
    cert = certify_nonzero(expr)
    assert (cert is not None) == (p != q)


@given(positive_rationals)
def test_exp_of_log_minus_itself_is_not_certified(r):
    assert certify_nonzero(sp.exp(sp.log(Q_(r))) - Q_(r)) is None
    unevaluated = sp.Add(sp.exp(sp.log(Q_(r)), evaluate=False), -Q_(r), evaluate=False)
    assert certify_nonzero(unevaluated) is None


@given(rationals)
def test_hidden_zeros_are_not_certified(r):
    u = Q_(r)
    assert certify_nonzero(sp.tanh(u) ** 2 + 1 / sp.cosh(u) ** 2 - 1) is None
    assert certify_nonzero(sp.Add(sp.sinh(u) ** 2, 1, -sp.cosh(u) ** 2, evaluate=False)) is None


@given(nonzero_rationals)
def test_erf_sign_matches_argument(r):
    cert = certify_nonzero(sp.erf(Q_(r)))
    assert cert is not None and cert.method.startswith("arb")
    assert sign_of(flint.arb(cert.enclosure)) == (1 if r > 0 else -1)


@given(rationals)
def test_tanh_and_exp_minus_one_signs(r):
    for expr in (sp.tanh(Q_(r)), sp.exp(Q_(r)) - 1):
        cert = certify_nonzero(expr)
        if r == 0:
            assert cert is None
        else:
            assert cert is not None
            assert sign_of(flint.arb(cert.enclosure)) == (1 if r > 0 else -1)


def _mp(f):
    return mpmath.mpf(f.numerator) / f.denominator


ENCLOSED = {
    "erf": (lambda u: sp.erf(u), lambda v: mpmath.erf(v)),
    "tanh": (lambda u: sp.tanh(u), lambda v: mpmath.tanh(v)),
    "exp_minus_one": (lambda u: sp.exp(u) - 1, lambda v: mpmath.expm1(v)),
    "softplus": (lambda u: sp.log(1 + sp.exp(u)), lambda v: mpmath.log1p(mpmath.exp(v))),
    # (1 + tanh u)/2 = 1/(1 + exp(-2u)): the same value without the cancellation for large negative u
    "gelu_tanh": (derive.activation("gelu_tanh"),
                  lambda v: v / (1 + mpmath.exp(-2 * mpmath.sqrt(2 / mpmath.pi) * (v + mpmath.mpf(44715) / 10**6 * v**3)))),
    "silu": (derive.activation("silu"), lambda v: v / (1 + mpmath.exp(-v))),
    "atan_sqrt": (lambda u: sp.atan(u) + sp.sqrt(2) * u, lambda v: mpmath.atan(v) + mpmath.sqrt(2) * v),
}


@given(st.sampled_from(sorted(ENCLOSED)), rationals, st.sampled_from([64, 128, 256]))
def test_enclosure_contains_the_50_digit_value(name, r, bits):
    symbolic, numeric = ENCLOSED[name]
    with mpmath.workdps(50):
        value = numeric(_mp(r))
        # 50 working digits, computed without cancellation; the last few digits are not trusted
        text, radius = mpmath.nstr(value, 50), mpmath.nstr(abs(value) * mpmath.mpf(10) ** -45 + mpmath.mpf(10) ** -60, 5)
    ball = enclose(symbolic(Q_(r)), bits)
    old = flint.ctx.prec
    flint.ctx.prec = 400
    try:
        reference = flint.arb(text, radius)  # the 50-digit value, widened by its possible error
        assert ball.overlaps(reference)
        if ball.rad() > 1000 * reference.rad():  # a ball far wider than the reference holds all of it
            assert ball.contains(reference)
    finally:
        flint.ctx.prec = old


# -- finite sums in normal form, and summand-wise proofs at every size --------------------------------------------
_d, _m, _n = sp.symbols("d m n", integer=True, positive=True)
_X1, _X2 = sp.MatrixSymbol("x", 1, _d), sp.MatrixSymbol("X", 2, _d)
_A = sp.MatrixSymbol("A", _d, _d)
_Q, _K, _V = sp.MatrixSymbol("Q", _m, _d), sp.MatrixSymbol("K", _m, _d), sp.MatrixSymbol("V", _m, _n)
_i, _j, _N = sp.symbols("i j N", integer=True)
_N0 = sp.Symbol("N", integer=True, nonnegative=True)  # (a range 0 … N that may run backwards is refused)
_f, _g = sp.Function("f"), sp.Function("g")
_neg = sp.Symbol("alpha", negative=True)


def test_every_size_truths_are_proved():
    for lhs, rhs in [(_X1 * _A.T * _X1.T, _X1 * _A * _X1.T), (_X1 * _A * _X1.T, _X1 * ((_A + _A.T) / 2) * _X1.T),
                     (forms.gated(_X1, derive.positive("alpha") * _Q, _K / derive.positive("alpha"), _V, RELU),
                      forms.gated(_X1, _Q, _K, _V, RELU))]:
        assert derive.claim("sound.every_size_true", lhs, rhs).prove().verdict is Verdict.PROVED


@pytest.mark.parametrize("lhs, rhs", [
    # a matrix with two rows: the transpose trick needs i = j, which only a 1×1 form gives
    (_X2 * _A.T * _X2.T, _X2 * _A * _X2.T),
    # ReLU with a negative scaling, and the exchange of the gated layer, at every size
    (forms.gated(_X1, _neg * _Q, _K / _neg, _V, RELU), forms.gated(_X1, _Q, _K, _V, RELU)),
    (forms.gated(_X1, _Q, _K, _V, RELU), forms.gated(_X1, _K, _Q, _V, RELU)),
    # the order of a triangular double sum cannot be swapped like that of a rectangular one
    (sp.Sum(sp.Sum(_f(_i, _j), (_j, 0, _i)), (_i, 0, _N0)), sp.Sum(sp.Sum(_f(_j, _i), (_j, 0, _i)), (_i, 0, _N0))),
    # a product of sums is not a double sum over a triangle
    (sp.Sum(_f(_i), (_i, 0, _N0)) * sp.Sum(_g(_j), (_j, 0, _N0)), sp.Sum(sp.Sum(_f(_i) * _g(_j), (_j, 0, _i)), (_i, 0, _N0))),
    # the same summand over different ranges
    (sp.Sum(_f(_i), (_i, 0, _N0)), sp.Sum(_f(_i), (_i, 1, _N0))),
    # a factor that depends on the index cannot leave the sum
    (sp.Sum(_i * _f(_i), (_i, 0, _N0)), _N0 * sp.Sum(_f(_i), (_i, 0, _N0))),
])
def test_every_size_falsehoods_are_not_proved(lhs, rhs):
    assert derive.claim("sound.every_size_false", lhs, rhs).prove().verdict is Verdict.UNPROVEN
