"""Figures of the activations and the layers: where a reader would rather look than read.

Each function takes activation names (as in :data:`derive.ACTIVATIONS`) and returns a matplotlib ``Figure``
built without ``pyplot`` (no global figure state; a notebook shows the returned figure once). The numbers
come from :func:`derive.numeric.activation_fn`, so a figure draws the same activations the claims are about.
Figures are illustrations: floating point, never evidence for a verdict.
"""
from __future__ import annotations

import sympy as sp

from ..layers.activations import activation

try:
    import numpy as np
    from matplotlib.colors import AsinhNorm
    from matplotlib.figure import Figure

    from ..layers import numeric
except ImportError as _exc:  # a machine without them (the browser's Pyodide): the labels work, a figure says why not
    if _exc.name not in ("numpy", "matplotlib"):
        raise
    np = AsinhNorm = Figure = numeric = None
    MISSING = _exc.name
else:
    MISSING = None

__all__ = ["LABELS", "label", "exchange_asymmetry", "sigma_over_z", "scaling_orbit", "verdict_grid"]

#: how an activation's name is printed on a figure
LABELS = {
    "identity": "identity",
    "relu": "ReLU",
    "leaky_relu": "LeakyReLU",
    "abs": "|z|",
    "relu2": "ReLU²",
    "silu": "SiLU",
    "gelu": "GELU (erf)",
    "gelu_tanh": "GELU (tanh)",
    "sigmoid": "sigmoid",
    "tanh": "tanh",
    "softplus": "softplus",
    "elu": "ELU",
    "mish": "Mish",
}

#: width of a figure in inches: legible at the width of a notebook page
PAGE_WIDTH = 11.0


def label(name: str) -> str:
    """The printed name of activation ``name``.

    >>> from derive.present.plots import label
    >>> label("gelu_tanh")
    'GELU (tanh)'
    """
    return LABELS.get(name, name)


def _drawable(where: str) -> None:
    """Raise a one-line ImportError when the figure ``where`` cannot be drawn here (numpy or Matplotlib missing)."""
    if MISSING:
        raise ImportError(f"derive.plots.{where} needs {MISSING}, which is not installed here (the site shows the "
                          "figure)", name=MISSING)


def _functions(where: str, names) -> list:
    """``[(name, numpy function), ...]`` for a name or a sequence of activation names."""
    if isinstance(names, str):
        names = [names]
    if not isinstance(names, (list, tuple)) or not names:
        raise TypeError(f"{where}: names must be a non-empty list of activation names, got {names!r:.60}")
    out = []
    for name in names:
        if not isinstance(name, str):
            raise TypeError(f"{where}: activation names must be str, got {type(name).__name__}")
        if name == "sigma":
            raise ValueError(f"{where}: the generic σ has no values to draw; pick concrete activations")
        out.append((name, numeric.activation_fn(activation(name))))
    return out


def _panels(n: int, ncols, aspect: float):
    """A constrained-layout figure with a grid of ``n`` panels; returns ``(fig, axes)``.

    ``ncols=None`` picks 4 or 5 columns, whichever leaves fewer empty places in the last row; each row is
    ``aspect`` times as tall as one column is wide (at most 3.2 inches).
    """
    if ncols is None:
        ncols = min((4, 5), key=lambda c: (-n % c, c))
    if isinstance(ncols, bool) or not isinstance(ncols, int) or ncols < 1:
        raise ValueError(f"ncols must be a positive int or None, got {ncols!r}")
    ncols = min(ncols, n)
    nrows = -(-n // ncols)
    width = PAGE_WIDTH if ncols > 2 else 0.6 * PAGE_WIDTH
    row = min(width / ncols * aspect, 3.2)
    fig = Figure(figsize=(width, row * nrows + 0.5), layout="constrained")
    grid = fig.add_gridspec(nrows, ncols)
    axes = [fig.add_subplot(grid[k // ncols, k % ncols]) for k in range(n)]
    return fig, axes


def _limit(where: str, name: str, value) -> float:
    if isinstance(value, bool) or not isinstance(value, (int, float)) or not value > 0:
        raise ValueError(f"{where}: {name} must be a positive number, got {value!r}")
    return float(value)


def exchange_asymmetry(names, *, lim: float = 3.0, n: int = 201, ncols: int | None = 4) -> Figure:
    """The exchange asymmetry ``σ(a)·b − σ(b)·a`` over the square ``[-lim, lim]²``, one panel per activation.

    A diverging colour map centred at 0 (blue below, red above); each panel has its own symmetric scale, shown
    by its colour bar, stretched near 0 (``asinh``) so that small values keep their colour; the black lines
    are where the asymmetry vanishes. It vanishes everywhere exactly when σ is linear (the σ(z)/z lemma):
    the diagonal ``a = b`` is always on the zero set, a non-linear σ leaves the rest of the square coloured.

    >>> from derive.present.plots import exchange_asymmetry
    >>> fig = exchange_asymmetry(["identity", "relu"], n=21)
    >>> [ax.get_title() for ax in fig.axes if ax.get_title()]
    ['identity', 'ReLU']
    """
    _drawable("exchange_asymmetry")
    fns = _functions("exchange_asymmetry", names)
    lim = _limit("exchange_asymmetry", "lim", lim)
    grid = np.linspace(-lim, lim, int(n))
    A, B = np.meshgrid(grid, grid)  # a along the horizontal axis, b along the vertical one
    fig, axes = _panels(len(fns), ncols, aspect=0.92)
    for ax, (name, fn) in zip(axes, fns):
        D = fn(A) * B - fn(B) * A
        top = float(np.max(np.abs(D)))
        scale = top if top > 1e-12 else 1.0
        D[np.abs(D) <= 1e-12 * scale] = 0.0  # rounding noise where the asymmetry is exactly zero
        norm = AsinhNorm(linear_width=scale / 10, vmin=-scale, vmax=scale)
        image = ax.pcolormesh(A, B, D, cmap="RdBu_r", norm=norm, shading="auto", rasterized=True)
        if top > 1e-12:
            ax.contour(A, B, D, levels=[0.0], colors="black", linewidths=0.8)
        else:
            ax.text(0.5, 0.5, "zero\neverywhere", transform=ax.transAxes, ha="center", va="center", fontsize=9)
        ax.set_title(label(name))
        ax.set_xlabel("$a$")
        ax.set_ylabel("$b$")
        ax.set_aspect("equal")
        ax.locator_params(nbins=5)
        ticks = [-scale, -scale / 10, 0.0, scale / 10, scale]
        fig.colorbar(image, ax=ax, shrink=0.85, ticks=ticks, format="%.2g")
    fig.suptitle(r"Exchange asymmetry $\sigma(a)\,b - \sigma(b)\,a$ (black: where it is zero)", wrap=True)
    return fig


def sigma_over_z(names, *, lim: float = 4.0, n: int = 400, ncols: int | None = None) -> Figure:
    """``σ(z)/z`` for ``0 < |z| ≤ lim``, one panel per activation, against the constant ``σ(1)`` (dashed).

    The σ(z)/z lemma: σ keeps the exchange symmetry only if ``σ(z)/z = σ(1)`` for every ``z ≠ 0``, so the
    curve must lie on the dashed line. The value at ``z = 0`` is left out. The vertical range follows the
    curve on ``|z| ≥ lim/8``; where σ(z)/z blows up near 0 it leaves the panel.

    >>> from derive.present.plots import sigma_over_z
    >>> fig = sigma_over_z(["identity", "silu"], n=40)
    >>> [ax.get_title() for ax in fig.axes]
    ['identity', 'SiLU']
    """
    _drawable("sigma_over_z")
    fns = _functions("sigma_over_z", names)
    lim = _limit("sigma_over_z", "lim", lim)
    zs = _without_zero(lim, n)
    fig, axes = _panels(len(fns), ncols, aspect=0.8)
    for ax, (name, fn) in zip(axes, fns):
        ratio = fn(zs) / zs
        level = float(fn(np.array([1.0]))[0])
        far = ratio[np.abs(zs) >= lim / 8]
        low, high = min(np.nanmin(far), level), max(np.nanmax(far), level)
        pad = max(0.15 * (high - low), 0.1)
        ax.plot(zs, ratio, color="tab:blue", linewidth=2.2, label=r"$\sigma(z)/z$")
        ax.axhline(level, color="tab:orange", linestyle="--", linewidth=1.4, label=r"$\sigma(1)$")
        ax.axvline(0.0, color="0.8", linewidth=0.8, zorder=0)
        ax.set_ylim(low - pad, high + pad)
        ax.set_xlim(-lim, lim)
        ax.set_title(label(name))
        ax.set_xlabel("$z$")
        ax.grid(True, alpha=0.3)
    axes[0].set_ylabel(r"$\sigma(z)/z$")
    axes[0].legend(loc="best", fontsize=8)
    fig.suptitle(r"$\sigma(z)/z$ (blue) against $\sigma(1)$ (dashed): equal for all $z \neq 0$ only for linear $\sigma$", wrap=True)
    return fig


def _without_zero(lim: float, n) -> np.ndarray:
    """``n`` points on each side of 0 up to ``±lim``, and a NaN between them: no line is drawn across 0."""
    half = np.linspace(lim / (2 * int(n)), lim, int(n))
    return np.concatenate([-half[::-1], [np.nan], half])


def _array(where: str, name: str, M) -> np.ndarray:
    if isinstance(M, sp.MatrixBase):
        M = numeric.to_numpy(M)
    if not isinstance(M, np.ndarray) or M.ndim != 2:
        raise TypeError(f"{where}: {name} must be a 2-D numpy array or a numeric SymPy Matrix, got {type(M).__name__}")
    return M.astype(float)


def scaling_orbit(names, x, Q, K, V, *, lim: float = 4.0, n: int = 400, output: int = 0, ncols: int | None = None) -> Figure:
    """Both layers along the inverse-scaling orbit ``(αQ, K/α)``, one panel per activation.

    Plots ``f(x; αQ, K/α, V) − f(x; Q, K, V)`` (output component ``output``) against ``α`` in
    ``[-lim, lim]`` (``α = 0`` left out) for the symmetric rank-1 form ``S`` (dashed) and the gated form ``G``
    (solid). A layer keeps the symmetry exactly when its curve stays on 0; both start at 0 at ``α = 1``.
    ``x`` is 1×d, ``Q`` and ``K`` are m×d, ``V`` is m×n_out (numpy arrays or numeric SymPy matrices).

    >>> import numpy as np
    >>> from derive.present.plots import scaling_orbit
    >>> x, Q, K, V = np.array([[1.0, -1.0]]), np.eye(2), np.eye(2), np.ones((2, 1))
    >>> fig = scaling_orbit(["relu", "silu"], x, Q, K, V, n=20)
    >>> [ax.get_title() for ax in fig.axes]
    ['ReLU', 'SiLU']
    """
    _drawable("scaling_orbit")
    where = "scaling_orbit"
    fns = _functions(where, names)
    x, Q, K, V = (_array(where, k, M) for k, M in (("x", x), ("Q", Q), ("K", K), ("V", V)))
    if x.shape[0] != 1:
        raise ValueError(f"{where}: x must be one token (1×d), got shape {x.shape[0]}x{x.shape[1]}")
    if isinstance(output, bool) or not isinstance(output, int) or not 0 <= output < V.shape[1]:
        raise ValueError(f"{where}: output must be an index below {V.shape[1]}, got {output!r}")
    lim = _limit(where, "lim", lim)
    alphas = _without_zero(lim, n)
    fig, axes = _panels(len(fns), ncols, aspect=0.95)
    for ax, (name, fn) in zip(axes, fns):
        sigma = activation(name)
        curves = {}
        for form in ("symmetric_rank1", "gated"):
            layer = getattr(numeric, form)
            start = layer(x, Q, K, V, sigma)[0, output]
            values = [layer(x, a * Q, K / a, V, sigma)[0, output] - start if np.isfinite(a) else np.nan
                      for a in alphas]
            curves[form] = np.array(values)
        ax.axhline(0.0, color="0.8", linewidth=0.8, zorder=0)
        ax.axvline(0.0, color="0.8", linewidth=0.8, zorder=0)
        ax.plot(alphas, curves["gated"], color="tab:red", linewidth=2.6, label="gated $G$")
        ax.plot(alphas, curves["symmetric_rank1"], color="tab:blue", linestyle="--", linewidth=1.8,
                label="symmetric $S$")
        ax.plot([1.0], [0.0], "o", color="black", markersize=4, label=r"$\alpha = 1$")
        ax.set_xlim(-lim, lim)
        ax.set_title(label(name))
        ax.set_xlabel(r"$\alpha$")
        ax.grid(True, alpha=0.3)
    axes[0].set_ylabel(r"$f(\alpha Q, K/\alpha) - f(Q, K)$")
    axes[0].legend(loc="best", fontsize=8)
    fig.suptitle(r"Output along the scaling orbit $(\alpha Q,\ K/\alpha)$: a symmetry keeps the curve at 0", wrap=True)
    return fig


def verdict_grid(results, *, title: str | None = None) -> Figure:
    """The verdicts of several :func:`derive.classify` results as a grid: one row per activation, one column per
    symmetry of the gated layer, each cell coloured by its verdict and naming its certificate.

    Green cells are proved (the unit identity by the named strategy, then the layer unit by unit), orange
    cells refuted (at the named unit witness, certified on the whole layer), grey cells undecided.

    >>> import derive
    >>> from derive.present.plots import verdict_grid
    >>> fig = verdict_grid([derive.classify("relu", name="doc_grid")])
    >>> [t.get_text() for t in fig.axes[0].get_yticklabels()]
    ['doc_grid']
    """
    _drawable("verdict_grid")
    from matplotlib.colors import to_rgb

    from ..classifier.classification import SYMMETRIES, Classification
    from .render import STYLE
    from ..kernel.verdict import Verdict

    results = list(results) if isinstance(results, (list, tuple)) else results
    if not isinstance(results, list) or not results:
        raise TypeError(f"verdict_grid: results must be a non-empty list of classifications, got {results!r:.60}")
    for r in results:
        if not isinstance(r, Classification):
            raise TypeError(f"verdict_grid: results must hold Classification objects, got {type(r).__name__}")
    columns = ["exchange\nQ ↔ K", "scaling, α > 0\n(αQ, K/α)", "scaling, α ≠ 0\n(αQ, K/α)"]
    colours = np.array([[to_rgb(STYLE[r[key].verdict][1]) for key in SYMMETRIES] for r in results])
    fig = Figure(figsize=(PAGE_WIDTH * 0.75, 0.42 * len(results) + 1.6), layout="constrained")
    ax = fig.add_subplot()
    ax.imshow(colours, aspect="auto")
    for i, r in enumerate(results):
        for j, key in enumerate(SYMMETRIES):
            f = r[key]
            if f.verdict is Verdict.PROVED:
                note = f.unit.evidence.strategy.replace("structural", "as built").replace("-", " ")
            elif f.verdict is Verdict.REFUTED:
                note = "at " + ", ".join(f"{'α' if k == 'alpha' else k} = {v}" for k, v in f.unit.evidence.witness.items())
            else:
                note = "undecided"
            ax.text(j, i, f"{STYLE[f.verdict][0]} {f.verdict.value}: {note}", ha="center", va="center",
                    color="white", fontsize=9)
    ax.set_xticks(range(len(SYMMETRIES)), columns)
    ax.set_yticks(range(len(results)), [r.label for r in results])
    ax.xaxis.tick_top()
    ax.set_xticks(np.arange(-0.5, len(SYMMETRIES)), minor=True)
    ax.set_yticks(np.arange(-0.5, len(results)), minor=True)
    ax.grid(which="minor", color="white", linewidth=2)
    ax.tick_params(which="both", length=0)
    for side in ax.spines.values():
        side.set_visible(False)
    ax.set_title(title or "Symmetries of the gated layer G: proved (green), refuted (orange), undecided (grey)")
    return fig
