# pbem: `make run` starts the server with embedded defaults, `make test` runs the suite.
# Only Python 3.11+ is needed; everything else is installed into .venv.

PYTHON ?= $(shell for p in python3.13 python3.12 python3.11 python3; do \
	command -v $$p >/dev/null 2>&1 && $$p -c 'import sys; sys.exit(sys.version_info < (3, 11))' 2>/dev/null \
	&& echo $$p && break; done)
VENV := .venv
BIN := $(VENV)/bin
# The server alone (make run), and the test extras on top (make test).
STAMP := $(VENV)/.installed-server
TEST_STAMP := $(VENV)/.installed-test
# Every install is pinned to the versions in constraints.txt (`make lock`
# refreshes them), so a fresh machine runs what the tests ran with.
PIP := $(BIN)/python -m pip install --quiet -c constraints.txt

.PHONY: run test spec errors docs settings readme-pictures i18n fonts lock bench bench-quick bench-engines bench-pipeline bench-replay bench-storage bench-pictures bench-pages bench-stream install clean

# pip is quiet and takes about a minute on a fresh machine: say so first.
$(STAMP): pyproject.toml constraints.txt
	@test -n "$(PYTHON)" || { echo "pbem needs Python 3.11 or newer"; exit 1; }
	@echo "installing pbem's dependencies into $(VENV) (about a minute on a fresh machine)..."
	$(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip
	$(PIP) -e .
	@touch $(STAMP)

$(TEST_STAMP): $(STAMP)
	@echo "installing the test tools into $(VENV) (pytest, playwright, schemathesis...)..."
	$(PIP) -e '.[test]'
	@touch $(TEST_STAMP)

install: $(TEST_STAMP)

run: $(STAMP)
	$(BIN)/python -m pbem.server.run

# The suite in two phases: everything but the `timing` tests (latency and
# speed budgets) on every core (pytest-xdist, TEST_JOBS workers, idle ones
# taking tests from busy ones), then the `timing` tests away from the suite's
# own load: two at a time, each file on one worker (--dist loadfile). Most of
# their time is waiting (whole games by mail on the default mail interval
# and the idle-priority worker, about 35 s of the phase in one file), so the
# other file's budgets hold beside it; one at a time the phase took 67-71 s
# on 2 cores, two at a time about 40 s. It fails if
# either phase fails; both always run. Two workers more than the cores: many
# tests wait on processes, mail, HTTP and browsers (on 2 cores, before the
# suite grew by a fifth: 3 workers 13.2 min,
# 2 workers 17-19 min).
# At most 8: each worker starts its own servers and processes.
TEST_JOBS ?= $(shell n=$$(nproc 2>/dev/null || getconf _NPROCESSORS_ONLN 2>/dev/null || echo 1); n=$$((n + 2)); [ $$n -gt 8 ] && n=8; echo $$n)
# Python's bytecode caches on for the suite even where the machine turns them
# off (PYTHONDONTWRITEBYTECODE): without them every pytest process rewrites
# and compiles all 170 test modules again (about 7 s each).
# The timing phase collects only the files that mark timing tests (their
# text says `mark.timing`; tests/conftest.py stops any collection that meets
# a timing test in a file that does not): collecting all the others only to
# deselect them cost about 3.5 CPU-s (4.4 against 1.0, bytecode caches warm),
# on the serial phase's clock.
TIMING_FILES = $(shell grep -rl --include='test_*.py' 'mark\.timing' tests | sort)
test: export PYTHONDONTWRITEBYTECODE =
test: $(TEST_STAMP)
	@status=0; \
	$(BIN)/python -m pytest -n $(TEST_JOBS) --dist worksteal -m 'not timing' || status=$$?; \
	$(BIN)/python -m pytest -n 2 --dist loadfile -m timing $(TIMING_FILES) || status=$$?; \
	exit $$status

# constraints.txt: the newest versions pyproject.toml allows, resolved in a
# fresh venv (server and test extras), pinned.
LOCK_VENV := .venv-lock
lock:
	@test -n "$(PYTHON)" || { echo "pbem needs Python 3.11 or newer"; exit 1; }
	rm -rf $(LOCK_VENV)
	$(PYTHON) -m venv $(LOCK_VENV)
	$(LOCK_VENV)/bin/python -m pip install --quiet --upgrade pip
	$(LOCK_VENV)/bin/python -m pip install --quiet '.[test]'
	{ echo "# Pinned versions of everything pbem and its tests install (make lock)."; \
	  echo "# Used by make run, make test, CI and the Dockerfile: pip install -c constraints.txt"; \
	  $(LOCK_VENV)/bin/python -m pip freeze --all --exclude-editable | grep -viE '^(pbem|pip|setuptools|wheel)( @ |==)'; \
	} > constraints.txt
	rm -rf $(LOCK_VENV) build

spec: $(STAMP)
	$(BIN)/python -m pbem.api.spec > api_spec/openapi.json

# `make bench` runs every benchmark, then prints a short table (bench/summary.py).
# `make bench-quick`: each of them in its smoke mode (--quick), a minute in
# all; figures that mean nothing, but every benchmark still runs
# (tests/test_bench_smoke.py does the same).
PIPELINE_ARGS ?= --seconds 60

bench: $(STAMP)
	$(BIN)/python bench/summary.py "engines.py" "replay.py" "storage.py" "pictures.py" "pages.py" "pipeline.py $(PIPELINE_ARGS)" "stream.py"

bench-quick: $(STAMP)
	$(BIN)/python bench/summary.py --quick

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

# docs/api.md's error list and docs/errors.md, from the registries (pbem/docgen/error_docs.py).
errors: $(STAMP)
	$(BIN)/python -m pbem.docgen.error_docs

# docs/views/<game>.md from seeded sample games (pbem/docgen/view_docs.py).
docs: $(STAMP)
	$(BIN)/python -m pbem.docgen.view_docs

# docs/operations.md's settings table, from pbem/settings/registry.py (pbem/docgen/settings_docs.py).
settings: $(STAMP)
	$(BIN)/python -m pbem.docgen.settings_docs

# The message catalogs: extract, merge into each language's .po, compile the .mo (pbem/docgen/catalogs.py).
i18n: $(STAMP)
	$(BIN)/python -m pbem.docgen.catalogs

# The pictures' fonts: DejaVu cut to Latin, Noto Sans CJK TC cut to Taiwan's common characters and
# every character of the zh-Hant catalogs, from Debian's packages (pbem/docgen/font_subset.py).
# Run it after adding Chinese messages (tests/pictures/test_fonts.py names missing characters).
fonts: $(STAMP)
	$(BIN)/python -m pbem.docgen.font_subset

# The README's two pictures (a game's page, a turn mail) from a real game in chromium (docs/img/make_pictures.py).
readme-pictures: $(TEST_STAMP)
	$(BIN)/python docs/img/make_pictures.py
