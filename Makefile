# Two commands for a fresh clone: `make demo` and `make test`. Each builds what it needs.
PYTHON ?= python3
VENV ?= .venv
PY := $(VENV)/bin/python
STAMP := $(VENV)/.installed-$(shell cksum < pyproject.toml | cut -d' ' -f1)

.PHONY: demo test test-slow lint bench browser clean screenshots wheelhouse debs bench-pi mutations card \
	card-test hall-test i18n

$(STAMP): pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(PY) -m pip install -q --upgrade pip
	$(PY) -m pip install -q -e '.[kiosk,hub,test]'
	rm -f $(VENV)/.installed-*
	touch $@

venv: $(STAMP)

# the catalogues brought up to date with the code: extract, merge into each language's .po,
# compile the .mo the code reads (scripts/catalogues.py; exit 1 while a string waits for a
# translation, which `make test` then fails on too)
i18n: $(STAMP)
	$(PY) -m scripts.catalogues

# make demo PORT=8080: the hub on that port (default 8000, or a free one if 8000 is taken)
demo: $(STAMP)
	$(PY) -m dipclock demo $(if $(PORT),--port $(PORT))

browser:
	sh scripts/ensure-test-tools.sh

# ruff, and mypy (strict on the core: pyproject's [tool.mypy]); no cache, so two runs of the
# suite in one checkout never share one
lint: $(STAMP)
	$(PY) -m ruff check .
	$(PY) -m mypy --cache-dir=/dev/null

# a test file to a worker, two workers per core (most tests spend their time waiting on a
# real hub, kiosk or browser: 541 s against 593 s with one per core): each file's real
# hubs and browser stay together, and every test already passes on a machine busy with
# others
test: $(STAMP) browser lint
	$(PY) -m pytest -q -n 4 --dist loadfile $(addprefix --ignore=,$(SLOW_TESTS))

# The installer's and the packages' own checks (each builds virtualenvs and installs wheels
# offline) and the benchmarks run small (the hall harness's quick cycle, the hub's, the
# results desk's and the seating's): about four minutes on 2 cores. CI runs them after
# `make test` (.ci/run).
SLOW_TESTS := tests/deploy/test_wheelhouse.py tests/deploy/test_packaging.py \
	tests/deploy/test_install.py tests/deploy/test_offline_packages.py tests/deploy/test_sdl.py \
	tests/bench
test-slow: $(STAMP) browser
	$(PY) -m pytest -q -n 4 --dist loadfile $(SLOW_TESTS)

# Figures, not tests; about 14 minutes. The last line is the hall harness's JSON summary
# (benchmarks/hall.py: 100 simulated kiosks and 3 real ones on one real hub, bad links,
# hub and kiosk kills, clock steps, 500 kiosks' load, 100,000 presses, slow clients).
bench: $(STAMP)
	$(PY) -m benchmarks.kiosk
	$(PY) -m benchmarks.hub
	$(PY) -m benchmarks.results
	$(PY) -m benchmarks.seating
	$(PY) -m benchmarks.legibility
	$(PY) -m benchmarks.hall

# Every wheel a table or the hub needs, for a venue with no internet: wheelhouse/ARCH
# (make wheelhouse ARCH=aarch64 for 64-bit Raspberry Pi OS, CPython 3.11 and 3.13 for
# Bookworm and Trixie; default: this machine and its Python).
wheelhouse:
	PYTHON=$(PYTHON) bash scripts/wheelhouse.sh $(if $(ARCH),--arch $(ARCH))

# The operating system's packages the installer asks apt for, for a Pi with no internet:
# debs/SUITE-DEB_ARCH (default trixie, arm64; make debs SUITE=bookworm for Raspberry Pi OS
# Legacy). On the Pi: install.sh kiosk|hub --wheelhouse ... --debs debs/trixie-arm64
debs:
	$(PYTHON) scripts/debs.py $(if $(SUITE),--suite $(SUITE)) $(if $(DEB_ARCH),--arch $(DEB_ARCH))

# Benchmark-class, not part of `make test`: the installer end to end in an arm64 Debian root
# (proot + qemu), to the kiosk's first frame. Prints one JSON line of timings.
bench-pi:
	$(PYTHON) -m benchmarks.pi_install

# The card image for every table and the hub: dist/dipclock-card-arm64.img.xz, from Debian's
# arm64 packages and PyPI's wheels, on this machine (docs/card.md). About 30 minutes the
# first time (the Debian layer is then cached in CARD_CACHE, default ~/.cache/dipclock-card),
# about 18 after (the wheels and the image itself). BASE=raspios-lite.img.xz: the same
# layers on Raspberry Pi OS Lite (64-bit, Bookworm or Trixie), offline, into
# dist/dipclock-card-raspios-arm64.img.xz.
card: $(STAMP)
	sh card/ensure-tools.sh
	$(PY) -m card.build $(if $(BASE),--base $(BASE))

# Benchmark-class, not part of `make test`: the built image booted in qemu-system-aarch64
# (virt, a virtio-gpu screen, a hub on this machine) and on the Pi 3's own boot path
# (raspi3b); about 45 minutes on two cores. The last line is one JSON object (docs/card.md).
card-test: $(STAMP)
	sh card/ensure-tools.sh
	$(PY) -m benchmarks.card_test $(if $(IMAGE),--image $(IMAGE))

# Benchmark-class, not part of `make test`: the hall in a box (docs/hall-test.md). The same
# image booted as a hub card and table cards (hub = auto) on one emulated LAN of their own
# (a network namespace: a bridge, the router's DHCP, the TD's phone), which this machine is
# not part of: found by mDNS, paired, a press, a pause, the hub's power cut, the hub
# replaced from its backup, a wrong line and no network told on screen. Needs root; about
# an hour on two cores. IMAGE= another image (.img.xz or .img); the last line is one JSON
# object. `python -m benchmarks.hall_test --steps 1,3` runs some of the steps.
hall-test: $(STAMP)
	sh card/ensure-tools.sh
	$(PY) -m benchmarks.hall_test $(if $(IMAGE),--image $(IMAGE))

# Break the code in each way a review once found the tests did not notice, and show the
# test that now fails (not part of `make test`: a check of the tests themselves).
mutations: $(STAMP)
	$(PY) scripts/mutations.py

# The kiosk at each stage, then the dashboard (phone, desktop) and the hall clock at each
# stage of a round on a real hub in headless Chromium: look at every one.
screenshots: $(STAMP) browser
	$(PY) -m kiosk.screenshots docs/screenshots
	$(PY) -m kiosk.hubscreen --screenshot docs/screenshots/hub-card-screen.png --example \
		--size 1280x720
	$(PY) scripts/page_screenshots.py docs/screenshots

clean:
	rm -rf $(VENV) .pytest_cache .hypothesis .ruff_cache
