"""The activation parser: what it accepts, exactly, and that unsafe text is refused without being evaluated."""
import builtins
import re
import os
import subprocess

import pytest
import sympy as sp

import derive
from derive.classifier.parse import FUNCTIONS, MAX_LENGTH, parse

z = derive.z


# -- what it accepts ------------------------------------------------------------------------------------------
def test_the_variable_and_arithmetic():
    assert parse("z") == z
    assert parse("-z + 2*z - z/4") == 3 * z / 4
    assert parse("+z") == z
    assert parse("(z + 1)**2") == (z + 1) ** 2
    assert parse("z**-2") == z**-2


def test_decimals_are_exact_rationals():
    assert parse("0.1 + 0.2") == sp.Rational(3, 10)
    assert parse("0.044715") == sp.Rational(44715, 10**6)
    assert parse("1e-3 * z") == z / 1000
    assert parse("2.5e2") == 250
    assert parse("1_000") == 1000
    assert not parse("0.1 * z").has(sp.Float)


def test_constants():
    assert parse("pi") == sp.pi
    assert parse("e") == sp.E
    assert parse("2**0.5") == sp.sqrt(2)


def test_functions():
    assert parse("exp(z)") == sp.exp(z)
    assert parse("log(1 + exp(z))") == sp.log(1 + sp.exp(z))
    assert parse("softplus(z)") == sp.log(1 + sp.exp(z))
    assert parse("sigmoid(z)") == 1 / (1 + sp.exp(-z))
    assert parse("relu(z)") == sp.Max(0, z)
    assert parse("max(z, 0)") == sp.Max(0, z)
    assert parse("min(z, 0)") == sp.Min(0, z)
    assert parse("abs(z)") == sp.Abs(z)
    assert parse("sqrt(z**2)") == sp.Abs(z)
    assert parse("erf(z / sqrt(2))") == sp.erf(z / sp.sqrt(2))
    assert parse("tanh(z)") == sp.tanh(z)


def test_named_activations_match_derive():
    for name in ("silu", "gelu", "gelu_tanh", "elu", "mish", "leaky_relu"):
        assert parse(f"{name}(z)") == derive.activation(name)(z)
    assert parse("z * sigmoid(z)") == derive.activation("silu")(z)
    assert parse("z * (1 + erf(z / sqrt(2))) / 2") == derive.activation("gelu")(z)
    assert parse("max(z, 0) + 0.01 * min(z, 0)") == derive.activation("leaky_relu")(z)


def test_whitespace_is_ignored():
    assert parse("  z * 2 \n") == 2 * z


# -- what it refuses ------------------------------------------------------------------------------------------
REFUSED = {
    "__import__('os').system('true')": "attribute access not allowed",
    "__import__('os')": "unknown function '__import__'",
    "open('/etc/passwd')": "unknown function 'open'",
    "eval('1')": "unknown function 'eval'",
    "z.real": "attribute access not allowed",
    "exp.__globals__": "attribute access not allowed",
    "(lambda: 1)()": "lambdas not allowed",
    "z[0]": "subscripts not allowed",
    "[z for z in range(3)]": "comprehensions not allowed",
    "(z for z in ())": "comprehensions not allowed",
    "'z'": "strings not allowed",
    "f'{z}'": "strings not allowed",
    "b'z'": "bytes not allowed",
    "x + 1": "unknown name 'x'",
    "exp": "the function 'exp' must be called",
    "exp(z, 2)": "exp takes 1 argument, got 2",
    "max(z)": "max takes 2 arguments, got 1",
    "exp(z=1)": "keyword arguments not allowed",
    "exp(*[z])": "starred arguments not allowed",
    "z if z else 1": "conditional expressions not allowed",
    "z > 0": "comparisons not allowed",
    "z and 1": "and/or not allowed",
    "(y := 2)": "assignments not allowed",
    "(z, z)": "tuples not allowed",
    "{1: z}": "dicts not allowed",
    "True": "booleans not allowed",
    "None": "this constant not allowed",
    "1j * z": "complex numbers not allowed",
    "z @ z": "the operator MatMult not allowed",
    "z // 2": "the operator FloorDiv not allowed",
    "z % 2": "the operator Mod not allowed",
    "~z": "the operator Invert not allowed",
    "z ** 1000": "exponents beyond 64 not allowed",
    "2**2**2**2**2": "exponents beyond 64 not allowed",
    "((10**20)**60)**2": "powers beyond 4096 bits not allowed",
    "9" * 31: "integers longer than 30 digits not allowed",
    "1e999999999": "decimals of more than 30 digits",
    "1/0": "division by zero not allowed",
    "0**-1": "division by zero not allowed",
    "log(0)": "undefined values",
    "sqrt(-1)": "non-real values not allowed",
    "-" * 60 + "z": "nests deeper than",
    "z +": "not a valid expression",
    "": "the text is empty",
    "z;1": "not a valid expression",
    "import os": "not a valid expression",
}


@pytest.mark.parametrize("text", sorted(REFUSED))
def test_refused_with_a_one_line_message(text):
    with pytest.raises(ValueError) as info:
        parse(text)
    message = str(info.value)
    assert REFUSED[text] in message
    assert message.startswith("parse: ")
    assert "\n" not in message


def test_overlong_input():
    with pytest.raises(ValueError, match=f"at most {MAX_LENGTH} are read"):
        parse("z + " * 200 + "z")


def test_not_a_string():
    with pytest.raises(TypeError, match="expected the activation as a str, got int"):
        parse(3)


def test_every_function_checks_its_arity():
    for name, (arity, _) in FUNCTIONS.items():
        args = ", ".join(["z"] * (arity + 1))
        with pytest.raises(ValueError, match=f"{name} takes {arity} argument"):
            parse(f"{name}({args})")


# -- nothing is evaluated -------------------------------------------------------------------------------------
class Boom(Exception):
    pass


def _forbid(*args, **kwargs):
    raise Boom("evaluated")


@pytest.fixture
def no_evaluation(monkeypatch):
    """Make every way of evaluating Python (and SymPy's string parsers) raise, and record os.system calls."""
    calls = []
    monkeypatch.setattr(builtins, "eval", _forbid)
    monkeypatch.setattr(builtins, "exec", _forbid)
    monkeypatch.setattr(os, "system", lambda *a: calls.append(a) or 0)
    monkeypatch.setattr(subprocess, "Popen", _forbid)
    import sympy.parsing.sympy_parser as sympy_parser

    monkeypatch.setattr(sympy_parser, "parse_expr", _forbid)
    monkeypatch.setattr(sympy_parser, "eval_expr", _forbid)
    return calls


def test_accepted_text_is_read_without_evaluation(no_evaluation):
    assert parse("z * sigmoid(z) + 0.5 * max(z, 0)") == derive.activation("silu")(z) + sp.Max(0, z) / 2
    assert no_evaluation == []


@pytest.mark.parametrize("text", [
    "__import__('os').system('touch /tmp/derive_parse_pwned')",
    "exp.__class__.__base__.__subclasses__()",
    "open('/tmp/derive_parse_pwned', 'w')",
    "eval(\"__import__('os').system('true')\")",
    "(lambda: __import__('os').system('true'))()",
])
def test_unsafe_text_is_refused_without_evaluation(no_evaluation, text, tmp_path):
    with pytest.raises(ValueError):
        parse(text)
    assert no_evaluation == []
    assert not os.path.exists("/tmp/derive_parse_pwned")


def test_sentinel_function_is_never_called(monkeypatch):
    """A name bound in builtins is not reachable from the text: the parser only knows its own table."""
    called = []
    monkeypatch.setattr(builtins, "sentinel", lambda *a: called.append(a), raising=False)
    with pytest.raises(ValueError, match="unknown function 'sentinel'"):
        parse("sentinel(z)")
    with pytest.raises(ValueError, match="unknown name 'sentinel'"):
        parse("sentinel")
    assert called == []


# -- arbitrary text -------------------------------------------------------------------------------------------
from hypothesis import given, settings, strategies as st  # noqa: E402

_PIECES = st.sampled_from(["z", "1", "0.5", "2", "e", "pi", "+", "-", "*", "/", "**", "(", ")", ",", " ",
                           "exp(", "max(", "relu(", "sigmoid(", "x", "'", ".", "[", "]", "lambda", ":", "_"])


@settings(max_examples=300, deadline=None)
@given(st.one_of(st.text(max_size=60), st.lists(_PIECES, max_size=25).map("".join)))
def test_any_text_gives_an_expression_or_a_value_error(text):
    try:
        out = parse(text)
    except ValueError as exc:
        assert str(exc).startswith("parse: ") and "\n" not in str(exc)
    else:
        assert isinstance(out, sp.Expr) and out.free_symbols <= {z}


# -- SymPy's spelling and hints for common slips ------------------------------------------------------------------
def test_sympys_spelling():
    assert parse("Abs(z)") == sp.Abs(z)
    assert parse("Max(0, z)") == sp.Max(0, z) and parse("Min(0, z)/100") == sp.Min(0, z) / 100
    assert parse("Max(0, z, z - 1)") == sp.Max(0, z)
    assert parse("Heaviside(z)") == sp.Heaviside(z)
    assert parse("sign(z)") == sp.sign(z)
    assert parse("E*z") == sp.E * z
    assert parse("Piecewise((z, z > 0), (exp(z) - 1, True))") == derive.activation("elu")(z)
    assert parse("Piecewise((z, (z > 0) & (z < 1)), (0, True))") == sp.Piecewise(
        (z, sp.And(z > 0, z < 1)), (0, True))
    assert parse("Piecewise((z, 0 < z <= 1), (0, True))") == sp.Piecewise((z, sp.And(z > 0, z <= 1)), (0, True))
    assert parse("Piecewise((1, Eq(z, 0)), (z, Ne(z, 1) | (z < 0)), (0, True))") == sp.Piecewise(
        (1, sp.Eq(z, 0)), (z, sp.Or(sp.Ne(z, 1), z < 0)), (0, True))


def test_every_named_activation_prints_as_text_the_parser_reads_back():
    for name in derive.ACTIVATIONS:
        if name == "sigma":
            continue
        expr = derive.activation(name)(z)
        assert parse(sp.sstr(expr)) == expr, name


HINTS = {
    "z^2": "write powers with **",
    "2^z": "write powers with **",
    "(z+1)^3": "write powers with **",
    "|z|": "write abs(z) for |z|",
    "|z| + 1": "write abs(z) for |z|",
    "z*|z|": "write abs(z) for |z|",
    "torch.relu(z)": "write relu(...) without the module prefix",
    "F.silu(z)": "write silu(...) without the module prefix",
    "np.tanh(z)": "write tanh(...) without the module prefix",
    "torch.nn.functional.gelu(z)": "write gelu(...) without the module prefix",
    "math.exp(z)": "write exp(...) without the module prefix",
    "ReLU(z)": "did you mean relu?",
    "swish(z)": "did you mean silu?",
    "ln(1 + z**2)": "did you mean log?",
}


@pytest.mark.parametrize("text", sorted(HINTS))
def test_a_common_slip_gets_a_one_line_hint(text):
    with pytest.raises(ValueError) as info:
        parse(text)
    message = str(info.value)
    assert HINTS[text] in message and message.startswith("parse: ") and "\n" not in message


@pytest.mark.parametrize("text, message", [
    ("Piecewise()", "at least one (value, condition) pair"),
    ("Piecewise(z)", "Piecewise arguments other than (value, condition) pairs"),
    ("Piecewise((z, z == 0), (0, True))", "comparisons other than"),
    ("Piecewise((z, __import__('os')), (0, True))", "this Piecewise condition"),
    ("Max(z)", "Max takes at least 2 arguments"),
    ("z > 0", "comparisons not allowed"),
    ("(z > 0) & (z < 1)", "the operator BitAnd not allowed"),
])
def test_piecewise_and_variadic_refusals(text, message):
    with pytest.raises(ValueError, match=re.escape(message)):
        parse(text)
