# Two commands do everything on a fresh clone: `make run` and `make test`.
PY ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed

.PHONY: run test install native lint fmt bench clean

$(BIN)/python:
	$(PY) -m venv $(VENV)

$(STAMP): $(BIN)/python pyproject.toml
	$(BIN)/python -m pip install --quiet --upgrade pip
	$(BIN)/python -m pip install --quiet -e '.[dev]'
	touch $(STAMP)

install: native

# The compiled engine (src/eighteen/native.py, native_build.py): the modules changed since the last build are
# compiled with Cython (with GCC, guided by the profile of a training run); where that cannot
# be done the engine runs from its sources.
native: $(STAMP)
	@$(BIN)/eighteen native --build || echo "make: the engine runs from its sources"

run: native
	$(BIN)/eighteen validate
	$(BIN)/eighteen compile
	$(BIN)/eighteen play 1830 --players 4 --seed 7 --bots greedy --save .run-game.json
	$(BIN)/eighteen render .run-game.json --out out/

test: native
	$(BIN)/ruff check .
	$(BIN)/ruff format --check .
	$(BIN)/mypy
	$(BIN)/eighteen schema --check
	$(BIN)/eighteen validate
	$(BIN)/eighteen compile --check
	$(BIN)/eighteen fmt --check
	$(BIN)/pytest -n 2 --dist worksteal

lint: $(STAMP)
	$(BIN)/ruff check .
	$(BIN)/ruff format --check .

fmt: $(STAMP)
	$(BIN)/ruff format .
	$(BIN)/ruff check --fix .

bench: native
	for b in bench/*.py; do echo "== $$b"; $(BIN)/python $$b; done

clean:
	rm -rf $(VENV) .pytest_cache src/eighteen/_native
