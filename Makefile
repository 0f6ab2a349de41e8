# Two entry points, each installs everything it needs first:
#   make build   -> installs, then builds every game in card_data/ into output/
#   make test    -> installs, then runs the test suite
PYTHON ?= python3
VENV   ?= .venv
BIN    := $(VENV)/bin
FONT_PKGS := fonts-ipaexfont-gothic fonts-ipaexfont-mincho
# The browser test of `cardgen serve` (tests/test_preview_browser.py) drives Debian's chromium
# through its chromedriver (/usr/bin/chromium, /usr/bin/chromedriver); nothing is downloaded by selenium.
BROWSER_PKGS := chromium chromium-driver
# Print-shop output (issue 29): Ghostscript's ICC profiles (libgs-common: the CMYK destination
# profile /usr/share/color/icc/ghostscript/default_cmyk.icc, see docs/printing-shops.md), and the
# tools the tests read shop PDFs with (qpdf --check; poppler-utils: pdffonts, pdfimages, pdftoppm).
PRESS_PKGS := libgs-common qpdf poppler-utils

.PHONY: build test install fonts browser press clean bench-protograf

build: install
	$(BIN)/cardgen build --force

# The suite runs on every core (pytest-xdist, -n auto), each test file on one worker (--dist loadfile),
# so a module's shared build (a module- or session-scoped fixture) is made once, not once per worker
# that runs one of its tests. `python -m pytest tests/DIR` alone still runs in one process.
# --no-loadscope-reorder: the files are handed out in the order tests/conftest.py collects them
# (the longest first, LONGEST_FIRST), not by their number of tests.
test: install browser press
	$(BIN)/python -m pytest -n auto --dist loadfile --no-loadscope-reorder

# cardgen's own modules are byte-compiled here: an editable install leaves that to the first run,
# which cannot write them where PYTHONDONTWRITEBYTECODE is set; then every command compiled ~100
# modules again (`cardgen sheets` of 10 cards: 0.51 s CPU instead of 0.43 s). A module edited
# later is recompiled by the next make (until then, in memory: a stale .pyc is never used).
install: fonts press $(VENV)/.installed
	@$(BIN)/python -m compileall -q cardgen

$(VENV)/.installed: pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install -q --upgrade pip
	$(BIN)/python -m pip install -q -e '.[dev]'
	touch $@

# The default Japanese TrueType font (IPAex, IPA Font License) comes from Debian's archive.
fonts:
	@if [ ! -f /usr/share/fonts/opentype/ipaexfont-gothic/ipaexg.ttf ]; then \
	  if command -v apt-get >/dev/null 2>&1 && [ "$$(id -u)" = 0 ]; then \
	    (apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq $(FONT_PKGS)) >/dev/null; \
	  else \
	    echo "Install the IPAex fonts ($(FONT_PKGS)) or name a font in fonts/fonts.yaml"; \
	  fi; \
	fi

# The CMYK profile and the PDF tools of the print-shop output (apt-get as root, like the fonts).
press:
	@if [ ! -f /usr/share/color/icc/ghostscript/default_cmyk.icc ] || ! command -v qpdf >/dev/null || ! command -v pdffonts >/dev/null; then \
	  if command -v apt-get >/dev/null 2>&1 && [ "$$(id -u)" = 0 ]; then \
	    (apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends $(PRESS_PKGS)) >/dev/null; \
	  else \
	    echo "Install $(PRESS_PKGS) for CMYK print-shop files and their tests"; \
	  fi; \
	fi

# Debian's chromium and its driver, for the browser test (apt-get as root, like the fonts).
browser:
	@if [ ! -x /usr/bin/chromium ] || [ ! -x /usr/bin/chromedriver ]; then \
	  if command -v apt-get >/dev/null 2>&1 && [ "$$(id -u)" = 0 ]; then \
	    (apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends $(BROWSER_PKGS)) >/dev/null; \
	  else \
	    echo "Install $(BROWSER_PKGS) for the browser test of cardgen serve (it is skipped without them)"; \
	  fi; \
	fi

# protograf, for the comparison in benchmarks/run.py (issue 19), in its own venv: it pulls in its
# own Pillow, PyMuPDF, Sphinx…, so it is never installed into $(VENV) and is not a dependency.
# `make test` does not make it; run.py records "skipped" without it.
PROTOGRAF_VENV := benchmarks/.protograf-venv
PROTOGRAF_VERSION ?= 0.5.2

bench-protograf: $(PROTOGRAF_VENV)/.installed

$(PROTOGRAF_VENV)/.installed:
	$(PYTHON) -m venv $(PROTOGRAF_VENV)
	$(PROTOGRAF_VENV)/bin/python -m pip install -q --upgrade pip
	$(PROTOGRAF_VENV)/bin/python -m pip install -q 'protograf==$(PROTOGRAF_VERSION)'
	touch $@

clean:
	rm -rf $(VENV) output/*/
