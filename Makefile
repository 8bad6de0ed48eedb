# pbem: `make run` starts the server with embedded defaults, `make test` runs the suite.
# Only Python 3.11+ is needed; everything else is installed into .venv.

PYTHON ?= $(shell for p in python3.13 python3.12 python3.11 python3; do \
	command -v $$p >/dev/null 2>&1 && $$p -c 'import sys; sys.exit(sys.version_info < (3, 11))' 2>/dev/null \
	&& echo $$p && break; done)
VENV := .venv
BIN := $(VENV)/bin
# The server needs only the package; the suite also needs the test extras
# (pytest, hypothesis, schemathesis, playwright), installed by `make test`.
STAMP := $(VENV)/.installed-stamp
TEST_STAMP := $(VENV)/.test-installed-stamp

.PHONY: run test spec errors docs bench bench-engines bench-pipeline bench-replay bench-storage bench-pictures bench-pages bench-stream install clean

$(STAMP): pyproject.toml
	@test -n "$(PYTHON)" || { echo "pbem needs Python 3.11 or newer"; exit 1; }
	$(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip
	$(BIN)/python -m pip install --quiet -e .
	@touch $(STAMP)

$(TEST_STAMP): $(STAMP)
	$(BIN)/python -m pip install --quiet -e '.[test]'
	@touch $(TEST_STAMP)

# A development setup: the package and the test extras.
install: $(TEST_STAMP)

run: $(STAMP)
	$(BIN)/python -m pbem.run

test: $(TEST_STAMP)
	$(BIN)/python -m pytest

spec: $(STAMP)
	$(BIN)/python -m pbem.api.spec > api_spec/openapi.json

# `make bench` runs every benchmark, then prints a short table (bench/summary.py).
PIPELINE_ARGS ?= --seconds 60

bench: $(STAMP)
	$(BIN)/python bench/summary.py "engines.py" "replay.py" "storage.py" "pictures.py" "pages.py" "pipeline.py $(PIPELINE_ARGS)" "stream.py"

bench-engines: $(STAMP)
	$(BIN)/python bench/engines.py

bench-pipeline: $(STAMP)
	$(BIN)/python bench/pipeline.py $(PIPELINE_ARGS)

bench-replay: $(STAMP)
	$(BIN)/python bench/replay.py

bench-storage: $(STAMP)
	$(BIN)/python bench/storage.py

bench-pictures: $(STAMP)
	$(BIN)/python bench/pictures.py

bench-stream: $(STAMP)
	$(BIN)/python bench/stream.py

bench-pages: $(STAMP)
	$(BIN)/python bench/pages.py

clean:
	rm -rf $(VENV) .pytest_cache

# README.md's error list and docs/errors.md, from the registries (pbem/error_docs.py).
errors: $(STAMP)
	$(BIN)/python -m pbem.error_docs

# docs/views/<game>.md from seeded sample games (pbem/view_docs.py).
docs: $(STAMP)
	$(BIN)/python -m pbem.view_docs
