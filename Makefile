# Every target installs what it needs into .venv first, so a fresh clone needs only Python >= 3.11.
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed
TEST_STAMP := $(VENV)/.installed-test-extras
# pip install -e, as a plain path .pth (setuptools' "compat" mode) and not setuptools' default editable
# finder, which every Python process of the venv would import at start-up (pathlib, urllib, re...:
# 15 ms of each command's and each agent process's start). If a later setuptools drops that mode, the
# default one is installed instead: slower to start, the same behaviour.
EDITABLE = $(BIN)/python -m pip install --quiet --config-settings editable_mode=compat -e '$(1)' 2>/dev/null \
	|| $(BIN)/python -m pip install --quiet -e '$(1)'

.PHONY: install test test-slow check docs demo bench clean

# showdown-checkout.pth puts the checkout on sys.path as a folder, so that the package is found there
# before any folder named showdown (the clone itself, seen from the folder holding it) can pass for an
# empty namespace package ("module 'showdown' has no attribute 'run_match'")
$(STAMP): pyproject.toml Makefile
	$(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip
	$(call EDITABLE,.[test])
	$(BIN)/python -c "import pathlib, sysconfig; pathlib.Path(sysconfig.get_path('purelib'), 'showdown-checkout.pth').write_text(str(pathlib.Path.cwd()) + '\n')"
	-$(call EDITABLE,.[fast]) || echo "note: uvloop did not install; showdown uses asyncio's own event loop (about 20% slower)"
	$(BIN)/python -c 'from showdown.solvers.warm_up import compile_kernels; compile_kernels()'  # once: numba caches them
	touch $(STAMP)

# the extras some tests exercise for real: pictures (matplotlib), a Ray cluster, the browser view,
# pokerkit (checks our PHH), PettingZoo/Gymnasium (the environment) and OpenSpiel (the bridge)
TEST_EXTRAS := plot,cluster,view,phh,env,openspiel,lp
$(TEST_STAMP): $(STAMP)
	$(call EDITABLE,.[$(TEST_EXTRAS)])
	touch $(TEST_STAMP)

install: $(STAMP)

check: $(TEST_STAMP)
	$(BIN)/ruff check showdown tests benchmarks examples docs
	$(BIN)/python -m mypy
	$(BIN)/python docs/build_api.py build/api

# the API reference, generated from the docstrings (pdoc): build/api/index.html
docs: $(TEST_STAMP)
	$(BIN)/python docs/build_api.py build/api

# one test process a core (pytest-xdist): the default run on 2 cores in half the time of one process
test: $(TEST_STAMP)
	$(BIN)/python -m pytest -q -n auto --durations=5

test-slow: $(TEST_STAMP)
	$(BIN)/python -m pytest -q -m slow

demo: $(STAMP)
	$(BIN)/showdown games
	@echo
	$(BIN)/showdown match kuhn equilibrium rules --hands 5000 --seed 1 --out out/demo --force

bench: $(STAMP)
	@for b in benchmarks/bench_*.py; do echo "== $$b"; $(BIN)/python $$b || exit 1; done

clean:
	rm -rf $(VENV) build *.egg-info .pytest_cache .mypy_cache .ruff_cache
