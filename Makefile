# The two commands of the README: `make run` (set up, start the dashboard) and `make test`.
# The virtualenv gets the test and training extras (torch, CPU build) so that the recognizer's
# training code is tested too; the installed product needs neither.
PYTHON ?= python3
VENV ?= .venv
BIN := $(VENV)/bin

.PHONY: setup run test bench

$(BIN)/rummyref: pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(BIN)/pip install -q --upgrade pip
	$(BIN)/pip install -q -e '.[test,train]'
	touch $@

setup: $(BIN)/rummyref

run: setup
	$(BIN)/rummyref dashboard

test: setup
	$(BIN)/python -m pytest -q engine vision hardware rummyref webui tests

bench: setup
	$(BIN)/python benchmarks/bench_engine.py
