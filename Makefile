# Two entry points, each installs everything it needs first:
#   make build   -> installs, then builds every game in card_data/ into output/
#   make test    -> installs, then runs the test suite
PYTHON ?= python3
VENV   ?= .venv
BIN    := $(VENV)/bin
FONT_PKGS := fonts-ipaexfont-gothic fonts-ipaexfont-mincho

.PHONY: build test install fonts clean

build: install
	$(BIN)/cardgen build --force

test: install
	$(BIN)/python -m pytest

install: fonts $(VENV)/.installed

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

clean:
	rm -rf $(VENV) output/*/
