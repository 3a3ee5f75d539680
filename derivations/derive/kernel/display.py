"""How the kernel's objects show themselves in a notebook: the kernel holds the hook, the presentation fills it.

A claim, a chain or a classification answers IPython's ``_repr_mimebundle_`` through :func:`bundle`, which asks
the renderer registered for its class (:mod:`derive.present` registers them when ``derive`` is imported). With no
renderer the object shows as plain text, so the kernel never imports what presents it.

>>> class Thing:
...     def __str__(self):
...         return "a thing"
>>> bundle(Thing())
({'text/plain': 'a thing'}, {})
>>> register(Thing, lambda thing: ({"text/html": "<b>a thing</b>"}, {}))
>>> bundle(Thing())[0]["text/html"]
'<b>a thing</b>'
"""
from __future__ import annotations

__all__ = ["register", "bundle"]

#: class -> function(object) -> (data, metadata)
_RENDERERS: dict = {}


def register(cls: type, render) -> None:
    """Show instances of ``cls`` (and of its subclasses) with ``render(obj) -> (data, metadata)``."""
    if not isinstance(cls, type) or not callable(render):
        raise TypeError("register: expected a class and a function of one object")
    _RENDERERS[cls] = render


def bundle(obj) -> tuple[dict, dict]:
    """IPython's ``(data, metadata)`` for ``obj``: its class's renderer, else its plain text."""
    for cls in type(obj).__mro__:
        if cls in _RENDERERS:
            return _RENDERERS[cls](obj)
    return {"text/plain": str(obj)}, {}
