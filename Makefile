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

.PHONY: run test test-swift test-browser build deps browser-deps lint format

run: deps
	$(SWIFT) build -c release --product scroll-playground
	@echo "Command line (replay, simulate, check, export): $(CURDIR)/.build/release/scroll-playground --help"
	.build/release/scroll-playground --host $(HOST) --port $(PORT) --log-dir $(LOG_DIR) $(ARGS)

test: deps browser-deps lint
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

# The code's format (.swift-format): `make format` rewrites, `make lint` (part of `make test`) checks.
FORMATTED := Sources Tests Package.swift
lint:
	$(SWIFT) format lint --strict --recursive $(FORMATTED)

format:
	$(SWIFT) format --in-place --recursive $(FORMATTED)

# Hardening (docs/security.md). Each sanitizer builds in its own scratch path, so the normal
# debug build stays valid; the tests that start the server then start the instrumented executable too,
# and fail on any report it prints. lld links the sanitizer runtimes without gold's warnings.
# The tests run one at a time: a sanitized run is several times slower, and in parallel the tests' time limits
# (counted from a test's start) would measure the whole run. SCROLL_PLAYGROUND_SANITIZER tells the tests: the
# differential test runs fewer scenarios, and the tests that only drive the toolchain are skipped.
.PHONY: test-asan test-tsan fuzz-smoke soak
SANITIZER_TOOLSET := --toolset Scripts/lld-toolset.json

# ASan holds freed memory back for reuse checks (256 MB by default), which the servers the tests start count
# as resident: the churn test (SessionBoundsTests), which bounds the server's growth at 64 MB over 2,000
# sessions, saw 370 MB on the starting commit too. 32 MB of quarantine still catches recent use-after-free.
test-asan: deps
	SCROLL_PLAYGROUND_SANITIZER=address ASAN_OPTIONS=quarantine_size_mb=32 LSAN_OPTIONS=suppressions=$(CURDIR)/Scripts/lsan.supp:print_suppressions=0 \
		$(SWIFT) test --no-parallel --sanitize=address --scratch-path .build/sanitize-address $(SANITIZER_TOOLSET)

# TSan sleeps a second at exit by default; the server's "a second signal exits at once" is tested within one.
test-tsan: deps
	SCROLL_PLAYGROUND_SANITIZER=thread TSAN_OPTIONS=atexit_sleep_ms=0 $(SWIFT) test --no-parallel --sanitize=thread --scratch-path .build/sanitize-thread $(SANITIZER_TOOLSET)

# Replays the saved crash inputs, then fuzzes ScrollCore's decoder and reducer for 30 s, the trace reader
# and a fork's rebuild for 30 s, and a hand trial end to end for 30 s (Fuzz/fuzz.sh); last, every command that
# reads a trace (replay, simulate, check) on mutated example traces for 30 s (Fuzz/commands_fuzz.py).
fuzz-smoke:
	Fuzz/fuzz.sh regressions
	Fuzz/fuzz.sh run 30
	Fuzz/fuzz.sh trace 30
	Fuzz/fuzz.sh hand 30
	$(SWIFT) build --product scroll-playground
	python3 Fuzz/commands_fuzz.py --binary .build/debug/scroll-playground --seconds 30

# Churn, a client that never reads and a geometry flood against a release build, on loopback; prints figures.
soak: deps
	$(SWIFT) build -c release --product scroll-playground
	python3 Scripts/soak.py --binary .build/release/scroll-playground

# A short benchmark (about 2.5 min once built; BENCHMARKS.md has the full runs): start to first page,
# 100 sessions × 60 Hz for 10 s, 1,000 idle sessions, the in-process codec, then last a short comparison
# (one round of 5 s) with the floor and the reference peers: the ratio table. Prints the tables.
# `make bench-compare` is the full comparison behind BENCHMARKS.md's summary (3 rounds of 8 s, ≈ 8 min);
# COMPARE_ARGS adds to either (e.g. COMPARE_ARGS="--duration 5").
.PHONY: bench bench-compare bench-deps
bench: bench-deps
	$(SWIFT) build -c release --product scroll-playground
	$(SWIFT) build -c release --product scroll-bench
	.build/release/scroll-bench startup --runs 3
	.build/release/scroll-bench load --sessions 100 --rate 60 --duration 10 --warmup 3
	.build/release/scroll-bench idle --sessions 1000 --hold 2
	.build/release/scroll-bench codec --messages 20000 --runs 3
	$(COMPARE) --runs 1 --duration 5 --warmup 2 $(COMPARE_ARGS)

bench-compare: bench-deps
	$(SWIFT) build -c release --product scroll-playground
	$(SWIFT) build -c release --product scroll-bench
	$(COMPARE) $(COMPARE_ARGS)

# Instructions per geometry message of the release server under valgrind's callgrind, with and without
# --log-dir, split into parts (Scripts/callgrind-server.py --parts; BENCHMARKS.md "Instructions per geometry
# message"). Counts, not times: they hold on a busy machine. About 3 min. CALLGRIND_ARGS adds to both runs.
.PHONY: callgrind
callgrind: deps
	$(SWIFT) build -c release --product scroll-playground
	$(SWIFT) build -c release --product scroll-bench
	python3 Scripts/callgrind-server.py --parts $(CALLGRIND_ARGS) .build/release/scroll-playground
	python3 Scripts/callgrind-server.py --parts --log-dir $(CALLGRIND_ARGS) .build/release/scroll-playground

# The page's frames during a touch fling in chromium (Scripts/bench_page.py; BENCHMARKS.md "The page's frames"):
# ios and browser physics, 1,000 and 2,000 rows, with and without a 4× CPU throttle, median of 3 flings each
# (≈ 5 min). PAGE_ARGS adds to it, e.g. PAGE_ARGS="--public /tmp/before/Public" for an older page.
.PHONY: bench-page
bench-page: deps browser-deps
	$(SWIFT) build -c release --product scroll-playground
	$(VENV)/bin/python Scripts/bench_page.py --binary .build/release/scroll-playground $(PAGE_ARGS)

# The reference peers of `compare`, read from shared/peers beside the repository (PEERS=DIR elsewhere), never
# copied into it: Scripts/bench-peers.sh installs Debian's golang-go and golang-github-gorilla-websocket-dev,
# builds goref into .build/peers, and makes .build/peers/venv with Python's websockets for pyref.
PEERS ?= $(abspath $(CURDIR)/../shared/peers)
PEER_BUILD := .build/peers
COMPARE = .build/release/scroll-bench compare --goref $(PEER_BUILD)/goref --pyref $(PEERS)/pyref/server.py \
	--python $(PEER_BUILD)/venv/bin/python
bench-deps: deps
	Scripts/bench-peers.sh $(PEERS) $(PEER_BUILD)

# libwebsockets (and pkg-config, which SwiftPM uses to find it), and the libev loop it runs on: the build
# needs <ev.h> and libev.so (libev-dev), the server at run time lws's plugin libwebsockets-evlib_ev.so
# (libwebsockets-evlib-ev, which lws loads from its library directory) and libev.so.4. libwebsockets-dev
# depends on all of them in Debian 12; they are named here so that a missing one is installed too.
deps:
	@if ! command -v pkg-config >/dev/null || ! pkg-config --exists libwebsockets || [ ! -f /usr/include/ev.h ] \
		|| [ ! -f "$$(pkg-config --variable=libdir libwebsockets)/libwebsockets-evlib_ev.so" ]; then \
		echo "Installing libwebsockets-dev, libev-dev, libwebsockets-evlib-ev and pkg-config"; \
		$(SUDO) apt-get update -q && $(APT_INSTALL) libwebsockets-dev libev-dev libwebsockets-evlib-ev pkg-config; \
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
