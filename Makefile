PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
ifeq ($(OS),Windows_NT)
BIN := $(VENV)/Scripts
endif

.PHONY: play test lint clean wheel-check dist

$(BIN)/python:
	$(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip

$(VENV)/.installed: pyproject.toml | $(BIN)/python
	$(BIN)/python -m pip install --quiet -e .
	touch $@

$(VENV)/.installed-dev: pyproject.toml | $(BIN)/python
	$(BIN)/python -m pip install --quiet -e ".[dev]"
	touch $@ $(VENV)/.installed

play: $(VENV)/.installed
	$(BIN)/python -m app

test: $(VENV)/.installed-dev
	$(BIN)/mypy engine saves net app
	SDL_VIDEODRIVER=dummy SDL_AUDIODRIVER=dummy $(BIN)/python -m pytest -n 2 -p no:cacheprovider --doctest-modules tests engine saves
	$(BIN)/ruff check engine saves app net tests
	$(MAKE) --no-print-directory wheel-check

lint: $(VENV)/.installed-dev
	$(BIN)/ruff check engine saves app net tests

# The wheel as a user gets it: built, installed into a fresh venv in a temporary folder outside the checkout,
# then the installed `cardtable --version` and `cardtable --selftest` run there (pip's cache keeps it quick).
wheel-check: $(VENV)/.installed-dev
	rm -rf build/lib build/bdist.*
	@tmp=$$(mktemp -d) && trap 'rm -rf "$$tmp"' EXIT && set -e && \
	$(BIN)/python -m build --wheel --outdir "$$tmp/wheel" . >"$$tmp/build.log" 2>&1 || { cat "$$tmp/build.log"; exit 1; }; \
	{ grep -i -E "warning|deprecat" "$$tmp/build.log" | grep -v "byte-compiling is disabled" || true; }; \
	$(PYTHON) -m venv "$$tmp/venv" && \
	"$$tmp/venv/bin/python" -m pip install --quiet --disable-pip-version-check "$$tmp"/wheel/cardtable-*.whl && \
	cd "$$tmp" && env -u PYTHONPATH "$$tmp/venv/bin/cardtable" --version && \
	env -u PYTHONPATH "$$tmp/venv/bin/cardtable" --selftest

$(VENV)/.installed-dist: pyproject.toml | $(BIN)/python
	$(BIN)/python -m pip install --quiet -e ".[dist]"
	touch $@ $(VENV)/.installed

# A standalone one-folder bundle (no Python needed to run it) for the platform this runs on: see docs/install.md.
dist: $(VENV)/.installed-dist
	$(BIN)/python packaging/build_dist.py

clean:
	rm -rf $(VENV)
