# The two commands of the README: `make run` (set up, start the demo: a rendered Gin game refereed
# live on http://localhost:8000) and `make test`.
# `make run` installs the product alone; `make test` adds the test and training extras (torch,
# CPU build) so that the recognizer's training code is tested too.
PYTHON ?= python3
VENV ?= .venv
BIN := $(VENV)/bin

.PHONY: setup run test bench

$(BIN)/python:
	$(PYTHON) -m venv $(VENV)
	$(BIN)/pip install -q --upgrade pip

$(VENV)/.installed: pyproject.toml | $(BIN)/python
	$(BIN)/pip install -q -e .
	touch $@

$(VENV)/.installed-test: pyproject.toml $(VENV)/.installed
	$(BIN)/pip install -q -e '.[test,train]'
	touch $@

setup: $(VENV)/.installed

run: setup
	$(BIN)/rummyref demo

test: $(VENV)/.installed-test
	$(BIN)/python -m pytest -q engine vision hardware rummyref webui tests

bench: setup
	$(BIN)/python benchmarks/bench_engine.py
