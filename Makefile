# The two commands: `make run` serves the playground, `make test` runs every test.
# Both install what is missing first (Debian packages via apt, a Python venv for the browser tests).

SHELL := /bin/bash
export PATH := /opt/swift/usr/bin:$(PATH)

SWIFT ?= swift
VENV := .venv
REQUIREMENTS := Tests/Browser/requirements.txt
SUDO := $(shell [ "$$(id -u)" = 0 ] || echo sudo)
APT_INSTALL := $(SUDO) env DEBIAN_FRONTEND=noninteractive apt-get install -y -q --no-install-recommends
HOST ?= 127.0.0.1
PORT ?= 8080
# Sessions are recorded here, so the page's "download trace" and `replay` work out of the box.
LOG_DIR ?= logs

.PHONY: run test test-swift test-browser build deps browser-deps

run: deps
	$(SWIFT) build -c release --product scroll-playground
	.build/release/scroll-playground --host $(HOST) --port $(PORT) --log-dir $(LOG_DIR) $(ARGS)

test: deps browser-deps
	$(SWIFT) build --build-tests
	$(SWIFT) test --skip-build
	$(VENV)/bin/pytest Tests/Browser -q

test-swift: deps
	$(SWIFT) test

test-browser: deps browser-deps
	$(SWIFT) build --product scroll-playground
	$(VENV)/bin/pytest Tests/Browser -q

build: deps
	$(SWIFT) build

# libwebsockets (and pkg-config, which SwiftPM uses to find it).
deps:
	@if ! command -v pkg-config >/dev/null || ! pkg-config --exists libwebsockets; then \
		echo "Installing libwebsockets-dev and pkg-config"; \
		$(SUDO) apt-get update -q && $(APT_INSTALL) libwebsockets-dev pkg-config; \
	fi

# Debian's chromium and a venv with the pinned pytest + playwright.
browser-deps: $(VENV)/.installed
	@if [ ! -x /usr/bin/chromium ]; then \
		echo "Installing chromium"; \
		$(SUDO) apt-get update -q && $(APT_INSTALL) chromium; \
	fi

$(VENV)/.installed: $(REQUIREMENTS)
	@if ! python3 -c 'import venv, ensurepip' 2>/dev/null; then \
		$(SUDO) apt-get update -q && $(APT_INSTALL) python3-venv; \
	fi
	rm -rf $(VENV)
	python3 -m venv $(VENV)
	$(VENV)/bin/pip install -q --disable-pip-version-check -r $(REQUIREMENTS)
	touch $@
