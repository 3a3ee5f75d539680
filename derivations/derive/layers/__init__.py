"""The paper's mathematics: the forms (:mod:`.forms`), the activations (:mod:`.activations`), symbols and explicit
matrices (:mod:`.symbols`), and numerics that are stable in floating point (:mod:`.stable`, :mod:`.numeric`).

Imports the kernel only; each form registers with the kernel how it prints.
"""
