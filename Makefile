# `make run` and `make test` each create or reuse .venv, install what they need, and run.
PYTHON ?= python3
VENV := .venv
PY := $(VENV)/bin/python
PIP := $(PY) -m pip install --quiet --constraint constraints.txt
STAMP := $(VENV)/.installed

.PHONY: run test lint format bench clean-cache

$(PY):
	$(PYTHON) -m venv $(VENV)
	$(PY) -m pip install --quiet --upgrade pip

$(STAMP): pyproject.toml constraints.txt | $(PY)
	$(PIP) -e ".[dev,train]"
	touch $(STAMP)

run: $(STAMP)
	$(PY) baselines/demo.py

test: $(STAMP)
	$(VENV)/bin/ruff check .
	$(VENV)/bin/ruff format --check .
	$(PY) -m pytest -n 2 tests

lint: $(STAMP)
	$(VENV)/bin/ruff check --fix .
	$(VENV)/bin/ruff format .

bench: $(STAMP)
	$(PIP) -e ".[dev,bench]"
	$(PY) benchmarks/throughput.py

clean-cache:
	find . -name '*.nbi' -o -name '*.nbc' | xargs rm -f
