# The two commands of the README:  `make` (the main job)  and  `make test` (every test).
# Both create .venv and install everything they need on first use.
PYTHON ?= python3
VENV   := .venv
BIN    := $(VENV)/bin
STAMP  := $(VENV)/.installed
JOBS   ?= 2

.PHONY: all check test refresh lab clean

all: check

$(STAMP): pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip
	$(BIN)/python -m pip install --quiet -e '.[test]'
	touch $@

check: $(STAMP)
	$(BIN)/derive check --jobs $(JOBS)

test: $(STAMP)
	$(BIN)/python -m pytest -n $(JOBS) --dist loadfile --nbval --nbval-current-env \
		--doctest-modules derivations/derive tests notebooks

# developer command: re-execute the notebooks in place so their committed outputs are fresh
refresh: $(STAMP)
	$(BIN)/derive refresh --jobs $(JOBS)

clean:
	rm -rf build site
