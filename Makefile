# Two commands set everything up on a fresh machine: `make run` and `make test`.
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed

.PHONY: run test check durations fuzz lint format bench clean screenshots

# Re-install whenever pyproject.toml changes, so a new dependency is never missed.
$(STAMP): pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip
	$(BIN)/python -m pip install --quiet -e '.[dev]'
	touch $(STAMP)

run: $(STAMP)
	$(BIN)/meeple play

# Both cores (pytest-xdist): `make test JOBS=1` runs the suite in one process.
JOBS ?= auto
PYTEST := $(BIN)/pytest -n $(JOBS) --dist worksteal

test: $(STAMP)
	$(BIN)/ruff check src tests benchmarks
	$(BIN)/ruff format --check src tests benchmarks
	$(PYTEST)

# The quick subset for the edit-test loop: no servers, browsers or long property runs.
check: $(STAMP)
	$(BIN)/ruff check src tests benchmarks
	$(PYTEST) -m "not slow" -q

# The whole suite with the 40 slowest tests named (what SLOW in tests/conftest.py is from).
durations: $(STAMP)
	$(PYTEST) -q --durations=40

# The fuzzing suite at length (about a hundred times the examples `make test` runs).
fuzz: $(STAMP)
	MEEPLE_FUZZ=long $(PYTEST) -m fuzz

# The pages' screenshots that docs/web.md shows (generated into docs/web/, committed).
screenshots: $(STAMP)
	$(BIN)/pytest tests/web/test_screenshots.py tests/web/test_hints.py tests/web/test_review_page.py -m screenshots -q

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
