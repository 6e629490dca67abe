# Two commands for a fresh clone: `make demo` and `make test`. Each builds what it needs.
PYTHON ?= python3
VENV ?= .venv
PY := $(VENV)/bin/python
STAMP := $(VENV)/.installed-$(shell cksum < pyproject.toml | cut -d' ' -f1)

.PHONY: demo test lint bench browser clean screenshots

$(STAMP): pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(PY) -m pip install -q --upgrade pip
	$(PY) -m pip install -q -e '.[kiosk,hub,test]'
	rm -f $(VENV)/.installed-*
	touch $@

venv: $(STAMP)

demo: $(STAMP)
	$(PY) -m dipclock demo

browser:
	sh scripts/ensure-chromium.sh

lint: $(STAMP)
	$(PY) -m ruff check .

test: $(STAMP) browser lint
	$(PY) -m pytest -q

bench: $(STAMP)
	$(PY) -m benchmarks.kiosk
	$(PY) -m benchmarks.hub

screenshots: $(STAMP)
	$(PY) -m kiosk.screenshots docs/screenshots

clean:
	rm -rf $(VENV) .pytest_cache .hypothesis .ruff_cache
