# The two commands of the README:  `make` (the main job)  and  `make test` (every test).
# Both create .venv and install everything they need on first use.
PYTHON ?= python3
VENV   := .venv
BIN    := $(VENV)/bin
STAMP  := $(VENV)/.installed
JOBS   ?= 2
# V=1 lists every claim, one line each (default: one line per notebook, then the summary)
VERBOSE := $(if $(V),--verbose)
# the site's assets: MathJax 3 from npm (copied into site/), Debian's graphviz (dot lays out the blueprint) and
# chromium (prints site/derive.pdf, and runs the site's test)
MATHJAX  := build/vendor/node_modules/mathjax/es5/tex-chtml-full.js
# the try page's kernel: Pyodide (CPython 3.14 in WebAssembly, ABI pyemscripten_2026_0) from npm, and the wheels it
# loads, pinned: SymPy and mpmath (pure), python-flint and Z3 built for Pyodide (derive's own wheel is zipped by
# derive build)
PYODIDE_VERSION := 314.0.8
PYODIDE  := build/vendor/node_modules/pyodide/pyodide.asm.wasm
WHEELS   := build/vendor/wheels/.downloaded
PURE_WHEELS := sympy==1.14.0 mpmath==1.3.0
WASM_WHEELS := python-flint==0.9.0 z3-solver==5.3.3.0
CHROMIUM := /usr/bin/chromium
DOT      := /usr/bin/dot
LAB      := $(VENV)/.lab-installed
MUTMUT   := $(VENV)/.mutation-installed
ROOT     := $(filter 0,$(shell id -u))
SUDO     := $(if $(ROOT),,sudo)

.PHONY: all site check test refresh lab clean bench mutation

all: site

$(STAMP): pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip
	$(BIN)/python -m pip install --quiet -e '.[test]'
	touch $@

# the main job: re-run every notebook, print the verdicts (failing on any unexpected one, failed notebook or
# claim not run), and write site/ from that same run, never from a failed one
site: $(STAMP) $(MATHJAX) $(PYODIDE) $(WHEELS) $(DOT) $(CHROMIUM)
	$(BIN)/derive build --jobs $(JOBS) $(VERBOSE)

# the verification alone, without the site
check: $(STAMP)
	$(BIN)/derive check --jobs $(JOBS) $(VERBOSE)

$(MATHJAX):
	npm install --prefix build/vendor --no-audit --no-fund --loglevel=error mathjax@3.2.2

$(PYODIDE):
	npm install --prefix build/vendor --no-audit --no-fund --loglevel=error pyodide@$(PYODIDE_VERSION)

$(WHEELS): $(STAMP) $(PYODIDE)
	rm -rf $(@D) && mkdir -p $(@D)
	$(BIN)/python -m pip download --quiet --no-deps -d $(@D) $(PURE_WHEELS)
	$(BIN)/python -m pip download --quiet --no-deps --only-binary=:all: --platform pyemscripten_2026_0_wasm32 \
		--python-version 3.14 -d $(@D) $(WASM_WHEELS)
	node derivations/derive/site/precompile_wheels.mjs $(CURDIR)/$(dir $(PYODIDE)) $(CURDIR)/$(@D) \
		sympy-1.14.0-py3-none-any.whl mpmath-1.3.0-py3-none-any.whl
	touch $@

$(CHROMIUM):
	$(SUDO) apt-get update -qq
	DEBIAN_FRONTEND=noninteractive $(SUDO) apt-get install -y -qq chromium >/dev/null

$(DOT):
	$(SUDO) apt-get update -qq
	DEBIAN_FRONTEND=noninteractive $(SUDO) apt-get install -y -qq graphviz >/dev/null

test: $(STAMP) $(MATHJAX) $(PYODIDE) $(WHEELS) $(CHROMIUM) $(DOT)
	$(BIN)/python -m pytest -n $(JOBS) --dist loadfile --no-loadscope-reorder --nbval --nbval-current-env \
		--doctest-modules derivations/derive tests notebooks

# developer command: re-execute the notebooks in place so their committed outputs are fresh
refresh: $(STAMP)
	$(BIN)/derive refresh --jobs $(JOBS)

# open the notebooks in JupyterLab (its extra is installed on first use only: it slows every import of nbformat)
lab: $(LAB)
	$(BIN)/jupyter lab --ServerApp.ip=127.0.0.1 --ServerApp.root_dir=notebooks $(if $(ROOT),--allow-root)

$(LAB): $(STAMP)
	$(BIN)/python -m pip install --quiet -e '.[test,lab]'
	touch $@

clean:
	rm -rf build site

# benchmarks: prints figures (kernel vs naive simplify, suite vs floor, scaling in d, cold start), writes a plot
bench: $(STAMP)
	$(BIN)/python bench/run.py --jobs $(JOBS)

# mutation testing of the kernel (strategies, witness, certify, claims, chains, rules) against its unit and
# soundness tests and doctests; not part of `make test`. Configured in pyproject.toml's [tool.mutmut], run in
# build/mutation by tools/mutation.py, which prints killed / total and the time. mutmut is installed on first use.
mutation: $(MUTMUT)
	$(BIN)/python tools/mutation.py --max-children $(JOBS)

$(MUTMUT): $(STAMP)
	$(BIN)/python -m pip install --quiet -e '.[test,mutation]'
	touch $@
