"""The trusted kernel: what decides a verdict, and nothing else.

Claims and chains (:mod:`.claims`, :mod:`.chains`), the chain rules (:mod:`.rules`), the proof strategies
(:mod:`.strategies`), witnesses and their certificates (:mod:`.witness`, :mod:`.certify`), the definedness check
(:mod:`.wellformed`, :mod:`.inverses`), time budgets (:mod:`.budget`), verdicts (:mod:`.verdict`), the registry of
statements (:mod:`.registry`), argument checks (:mod:`.validate`), and how a statement prints and describes itself
(:mod:`.printing`, :mod:`.describe`, :mod:`.display`). It imports SymPy and :mod:`derive.second`, never a layer
above it: a form registers how it prints, the presentation how a claim shows.
"""
