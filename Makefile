# Two commands: `make run` (set up + start the app) and `make test` (set up + run the tests).
# Both are idempotent: .venv is (re)built only when requirements.txt changes.
PYTHON ?= python3
VENV := .venv
STAMP := $(VENV)/.installed-$(shell cat requirements.txt pyproject.toml | sha1sum | cut -c1-12)
# Corpus archives: DKW_ARCHIVES (absolute or relative to this folder) when set, else data/archives;
# missing ones are downloaded on first use (`python -m dkw_core download all`, or the app's buttons).
PORT ?= 8501
# Listen on this machine only; DKW_HOST=0.0.0.0 to listen on every network interface.
DKW_HOST ?= 127.0.0.1
export PORT DKW_HOST

.PHONY: run test lint docs venv bench clean-venv

venv: $(STAMP)

$(STAMP): requirements.txt pyproject.toml
	test -x $(VENV)/bin/python || $(PYTHON) -m venv $(VENV)
	$(VENV)/bin/python -m pip install -q --disable-pip-version-check -r requirements.txt
	$(VENV)/bin/python -m pip install -q --disable-pip-version-check --no-deps -e .
	rm -f $(VENV)/.installed-*
	touch $@

run: $(STAMP)
	$(VENV)/bin/python -m dkw_app.serve

# The tests on TEST_WORKERS pytest-xdist workers (2: the cores `make test` is measured on, README
# "Tests"), a test file whole on one worker, tests/cluster as one unit (tests/support/xdist.py).
TEST_WORKERS ?= 2
test: $(STAMP)
	$(VENV)/bin/python -m pytest -n $(TEST_WORKERS) --dist loadfile

# Lint (ruff: style, pyflakes, import order), types (mypy on dkw_core) and the documentation site
# (MkDocs, --strict: a broken link fails). Settings in pyproject.toml and mkdocs.yml.
lint: $(STAMP)
	$(VENV)/bin/python -m ruff check .
	$(VENV)/bin/python -m mypy
	$(VENV)/bin/python -m mkdocs build --strict --site-dir site

# The documentation site, served on http://127.0.0.1:8000 with live reload.
docs: $(STAMP)
	$(VENV)/bin/python -m mkdocs serve

clean-venv:
	rm -rf $(VENV)
