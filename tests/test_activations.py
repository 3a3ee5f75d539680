import pytest
import sympy as sp

import derive
from derive import activation, forms
from derive.layers.activations import z

a = sp.Symbol("a", real=True)
half = sp.Rational(1, 2)


def test_names_in_reading_order():
    assert derive.ACTIVATIONS == ("sigma", "identity", "relu", "leaky_relu", "abs", "relu2", "silu", "gelu",
                                  "gelu_tanh", "sigmoid", "tanh", "softplus", "elu", "mish")


@pytest.mark.parametrize("name", derive.ACTIVATIONS)
def test_every_activation_is_a_fixed_exact_lambda_of_one_variable(name):
    sigma = activation(name)
    assert isinstance(sigma, sp.Lambda)
    assert len(sigma.variables) == 1
    assert sigma is activation(name)
    assert not sigma(z).has(sp.Float)
    assert sigma(z).free_symbols == {z}


@pytest.mark.parametrize("name", derive.ACTIVATIONS)
def test_every_activation_is_real_on_the_reals(name):
    assert activation(name)(a).is_real


@pytest.mark.parametrize("name", derive.ACTIVATIONS)
def test_fixed_lambda_makes_identical_layers_compare_equal(name):
    x, K, V = derive.row("x", 2), derive.matrix("K", 2, 2), derive.matrix("V", 2, 2)
    assert forms.key_value(x, K, V, activation(name)) == forms.key_value(x, K, V, activation(name))


def test_z_is_real():
    assert z.is_real
    assert z is derive.z


def test_sigma_is_the_undefined_real_function():
    assert activation("sigma")(a) == derive.sigma(a)
    assert activation("sigma")(a).func is derive.sigma
    assert derive.sigma(a).is_real


def test_definitions():
    assert activation("identity")(z) == z
    assert activation("relu")(z) == sp.Max(0, z)
    assert activation("leaky_relu")(z) == sp.Max(0, z) + sp.Min(0, z) / 100
    assert activation("abs")(z) == sp.Abs(z)
    assert activation("relu2")(z) == sp.Max(0, z) ** 2
    assert activation("silu")(z) == z / (1 + sp.exp(-z))
    assert activation("gelu")(z) == z * (1 + sp.erf(z / sp.sqrt(2))) / 2
    assert activation("sigmoid")(z) == 1 / (1 + sp.exp(-z))
    assert activation("tanh")(z) == sp.tanh(z)
    assert activation("softplus")(z) == sp.log(1 + sp.exp(z))
    assert activation("elu")(z) == sp.Piecewise((z, z > 0), (sp.exp(z) - 1, True))
    assert activation("mish")(z) == z * sp.tanh(sp.log(1 + sp.exp(z)))


def test_gelu_tanh_constant_is_exact():
    inner = sp.sqrt(2 / sp.pi) * (z + sp.Rational(44715, 10**6) * z**3)
    assert activation("gelu_tanh")(z) == z * (1 + sp.tanh(inner)) / 2
    assert sp.Rational(44715, 10**6) in activation("gelu_tanh")(z).atoms(sp.Rational)


def test_values_at_exact_points():
    assert activation("identity")(-3) == -3
    assert activation("relu")(-2) == 0
    assert activation("relu")(3) == 3
    assert activation("leaky_relu")(-100) == -1
    assert activation("leaky_relu")(5) == 5
    assert activation("abs")(-3) == 3
    assert activation("relu2")(-1) == 0
    assert activation("relu2")(3) == 9
    assert activation("silu")(0) == 0
    assert activation("silu")(2) == 2 / (1 + sp.exp(-2))
    assert activation("gelu")(0) == 0
    assert activation("gelu")(1) == (1 + sp.erf(1 / sp.sqrt(2))) / 2
    assert activation("gelu_tanh")(0) == 0
    assert activation("sigmoid")(0) == half
    assert activation("tanh")(0) == 0
    assert activation("softplus")(0) == sp.log(2)
    assert activation("elu")(2) == 2
    assert activation("elu")(-1) == sp.exp(-1) - 1
    assert activation("elu")(0) == 0
    assert activation("mish")(0) == 0


def test_symbolic_values():
    assert activation("relu")(a) == sp.Max(0, a)
    assert activation("abs")(-a) == sp.Abs(a)
    assert activation("identity")(a + 1) == a + 1


def test_unknown_name_is_a_value_error_naming_it():
    with pytest.raises(ValueError, match=r"unknown activation 'swish'; known: sigma, identity, relu"):
        activation("swish")
    with pytest.raises(ValueError, match="'RELU'"):
        activation("RELU")
    with pytest.raises(ValueError, match="''"):
        activation("")


@pytest.mark.parametrize("bad", [3, None, 1.5, b"relu", sp.Symbol("relu")])
def test_non_str_name_is_a_type_error(bad):
    with pytest.raises(TypeError, match="activation name must be a str, got"):
        activation(bad)


@pytest.mark.parametrize("bad", [["relu"], {"relu": 1}])
def test_unhashable_name_is_a_type_error_saying_what_came(bad):
    with pytest.raises(TypeError, match=f"activation name must be a str, got {type(bad).__name__}"):
        activation(bad)
