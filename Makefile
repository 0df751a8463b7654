# `make run` and `make test` each create or reuse .venv, install what they need, and run.
# `make docs` builds the documentation site into site/.
PYTHON ?= python3
VENV := .venv
PY := $(VENV)/bin/python
# --no-compile: bytecode is written on first import instead of for every installed file
# (torch and Ray ship thousands), which is most of an install's time otherwise.
PIP := $(PY) -m pip install --quiet --no-compile --constraint constraints.txt
STAMP := $(VENV)/.installed
# A second venv for the [rllib] and [tianshou] extras: Ray pins gymnasium 1.2.2 (.venv has the
# newest), so the integration tests run against both ends of the supported gymnasium range.
RLLIB_VENV := .venv-rllib
RLLIB_PY := $(RLLIB_VENV)/bin/python
RLLIB_STAMP := $(RLLIB_VENV)/.installed

.PHONY: run test test-fast test-suites play lab test-rllib test-wheel docs lint format bench clean-cache

$(PY):
	$(PYTHON) -m venv $(VENV)
	$(PY) -m pip install --quiet --upgrade pip

$(STAMP): pyproject.toml constraints.txt | $(PY)
	$(PIP) -e ".[dev,train,openspiel,docs,lab,ray]"
	touch $(STAMP)

$(RLLIB_STAMP): pyproject.toml constraints.txt
	$(PYTHON) -m venv $(RLLIB_VENV)
	$(RLLIB_PY) -m pip install --quiet --upgrade pip
	$(RLLIB_PY) -m pip install --quiet --no-compile --constraint constraints.txt -e ".[dev,train,rllib,tianshou]"
	touch $(RLLIB_STAMP)

run: $(STAMP)
	$(PY) baselines/demo.py

# You at P1 of Présages, your partner the heuristic, the other team the shipped PPO agent
# (seated where the deal put the teams).
play: $(STAMP)
	$(PY) -m presages_env play presages --seat 0 --partner heuristic --opponents ppo

# The human–AI table on http://127.0.0.1:8000/ (docs/lab.md), its SQLite file under runs/.
lab: $(STAMP)
	$(PY) -m presages_env serve --host 127.0.0.1

# The two venvs install side by side (mostly downloading and unpacking). Then the suites run
# while the wheel smoke (one process compiling every game afresh in its own venv) runs beside
# them at the lowest CPU priority, on the cycles they leave idle.
test:
	$(MAKE) --no-print-directory -j 2 $(STAMP) $(RLLIB_STAMP)
	$(VENV)/bin/ruff check .
	$(VENV)/bin/ruff format --check .
	$(MAKE) --no-print-directory docs
	$(MAKE) --no-print-directory -j 2 test-suites test-wheel NICE="nice -n 19"

# The compiled OpenSpiel games are built first (C++, a few seconds; cached under
# ~/.cache/presages_env), so their tests run rather than skip. PRESAGES_REQUIRE_EXTRAS
# (tests/extras.py) names what each venv must have: a missing extra fails its tests instead
# of skipping them. .ci/run adds to REQUIRE_EXTRAS what CI installs from the system.
REQUIRE_EXTRAS ?= train,openspiel,native,lab,ray
test-suites: $(STAMP)
	$(PY) -m presages_env.integrations.openspiel_native
	PRESAGES_REQUIRE_EXTRAS=$(REQUIRE_EXTRAS) $(PY) -m pytest -n 2 --dist loadgroup \
		--no-loadscope-reorder --durations=25 tests
	$(MAKE) --no-print-directory test-rllib

# The working loop (its time: docs/architecture.md, "Two loops"): the core tests and the
# exemplar game. The other registered games' folders and cases (their names read from the
# registry) are left to `make test`; -rs lists what was skipped and why.
FAST_GAME ?= kuhn_poker
FAST_DESELECT = $(shell $(PY) -c "import presages_env; \
	print(' and '.join('not ' + g for g in presages_env.list_games() if g != '$(FAST_GAME)'))")
test-fast: $(STAMP)
	$(PY) -m pytest -n 2 --dist loadgroup --durations=10 -rs tests/core tests/$(FAST_GAME) \
		-k "$(FAST_DESELECT)"

# Ray/RLlib, Tianshou and gymnasium 1.2.2: the integration tests again, in the extras' venv
# (after the main suite, whose numba cache they reuse).
test-rllib: $(RLLIB_STAMP)
	PRESAGES_REQUIRE_EXTRAS=train,rllib,tianshou $(RLLIB_PY) -m pytest -p no:xdist \
		--durations=25 tests/integrations

# The built wheel alone in a clean venv (no torch, no Ray): every game plays. Built by the dev
# venv's setuptools, without build isolation: the build fetches nothing.
test-wheel: $(STAMP)
	PYTHON=$(PYTHON) BUILD_PYTHON=$(PY) $(NICE) bash .ci/wheel_smoke.sh

# The site of mkdocs.yml into site/, warnings as errors: a broken link, anchor or API
# reference fails the build (and `make test`). NO_MKDOCS_2_WARNING silences Material's banner
# about MkDocs 2.0, which is not a warning about this site.
docs: $(STAMP)
	NO_MKDOCS_2_WARNING=1 $(VENV)/bin/mkdocs build --strict

lint: $(STAMP)
	$(VENV)/bin/ruff check --fix .
	$(VENV)/bin/ruff format .

bench: $(STAMP)
	$(PIP) -e ".[dev,bench]"
	$(PY) benchmarks/throughput.py

clean-cache:
	find . -name '*.nbi' -o -name '*.nbc' | xargs rm -f
