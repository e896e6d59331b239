PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin

.PHONY: play test lint clean

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
	$(BIN)/mypy engine saves
	SDL_VIDEODRIVER=dummy SDL_AUDIODRIVER=dummy $(BIN)/python -m pytest -n 2 -p no:cacheprovider --doctest-modules tests engine saves
	$(BIN)/ruff check engine saves app tests

lint: $(VENV)/.installed-dev
	$(BIN)/ruff check engine saves app tests

clean:
	rm -rf $(VENV)
