# Two commands set everything up on a fresh machine: `make run` and `make test`.
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed

.PHONY: run test fuzz lint format bench clean screenshots

# Re-install whenever pyproject.toml changes, so a new dependency is never missed.
$(STAMP): pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip
	$(BIN)/python -m pip install --quiet -e '.[dev]'
	touch $(STAMP)

run: $(STAMP)
	$(BIN)/meeple play

test: $(STAMP)
	$(BIN)/ruff check src tests benchmarks
	$(BIN)/ruff format --check src tests benchmarks
	$(BIN)/pytest

# The fuzzing suite at length (about a hundred times the examples `make test` runs).
fuzz: $(STAMP)
	MEEPLE_FUZZ=long $(BIN)/pytest -m fuzz

# The pages' screenshots that docs/web.md shows (generated into docs/web/, not committed).
screenshots: $(STAMP)
	$(BIN)/pytest tests/web/test_screenshots.py -m screenshots -q

lint: $(STAMP)
	$(BIN)/ruff check src tests benchmarks

format: $(STAMP)
	$(BIN)/ruff format src tests benchmarks
	$(BIN)/ruff check --fix src tests benchmarks

bench: $(STAMP)
	$(BIN)/python benchmarks/edges_agents.py
	$(BIN)/python benchmarks/lab_throughput.py

clean:
	rm -rf $(VENV) .pytest_cache .ruff_cache .hypothesis
