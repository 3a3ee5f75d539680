"""Which symmetries an activation keeps: the input parser (:mod:`.parse`), piecewise activations
(:mod:`.pieces`), the classification itself (:mod:`.classify`) and what it holds (:mod:`.classification`).

Imports the layers and the kernel.
"""
