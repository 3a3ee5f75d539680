"""Running the notebooks: the runner (:mod:`.runner`) and the kernels it forks from a warm server
(:mod:`.kernels`). Imports the presentation and everything below it.
"""
