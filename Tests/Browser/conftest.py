"""Fixtures for the browser tests: the real server on a free port, Debian's chromium, and a page probe.

Each test starts `.build/debug/scroll-playground --port 0 --public Public` with short latencies, waits
(bounded) for its start line `Scroll Playground on http://127.0.0.1:PORT`, and stops it afterwards.
Playwright drives /usr/bin/chromium: `playwright install` cannot download browsers here.

Physics: every test that opens the page runs under `physics` `ios` (the page's default); the tests of
the modules in BOTH_PHYSICS_MODULES (scrolling, the bounded window, anchoring, jump, chat) run under
`browser` too, with `?physics=browser` in the page's link. `@pytest.mark.physics("browser")` pins a test
about one physics' details; `--physics ios|browser` runs only that setting's runs, and
`--both-physics-everywhere` runs every test under both.

Environment overrides (optional): SCROLL_PLAYGROUND_BIN (server executable), SCROLL_PLAYGROUND_PUBLIC (the
page's directory, e.g. an older checkout's, to see a test fail before a change), CHROMIUM (browser path).
"""

from __future__ import annotations

import os
import re
import subprocess
import threading
from dataclasses import dataclass, field
from pathlib import Path

import pytest
from playwright.sync_api import Browser, Page, sync_playwright

REPO = Path(__file__).resolve().parents[2]
SERVER_BIN = Path(os.environ.get("SCROLL_PLAYGROUND_BIN", REPO / ".build" / "debug" / "scroll-playground"))
PUBLIC = Path(os.environ.get("SCROLL_PLAYGROUND_PUBLIC", REPO / "Public"))
CHROMIUM = os.environ.get("CHROMIUM", "/usr/bin/chromium")
SCREENSHOTS = REPO / ".build" / "screenshots"

START_LINE = re.compile(r"^Scroll Playground on (http://127\.0\.0\.1:(\d+))\s*$")
START_TIMEOUT_S = 20
STOP_TIMEOUT_S = 5

# Short latencies keep every test fast; a test overrides any of them by name.
FAST_SETTINGS = {
    "load-latency-ms": 150,
    "refresh-latency-ms": 250,
    "refresh-hold-ms": 600,
}


class ServerProcess:
    """One running server; `output` keeps every line it printed (shown when a test fails)."""

    def __init__(self, settings: dict[str, object]):
        if not SERVER_BIN.exists():
            pytest.fail(f"{SERVER_BIN} does not exist: build it first (`swift build --product scroll-playground`)")
        args = [str(SERVER_BIN), "--port", "0", "--public", str(PUBLIC)]
        for name, value in settings.items():
            if value is not None:
                args += [f"--{name}", str(value)]
        self.args = args
        self.output: list[str] = []
        self.url: str | None = None
        self._started = threading.Event()
        self.process = subprocess.Popen(
            args, cwd=REPO, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, stdin=subprocess.DEVNULL,
            text=True, bufsize=1,
        )
        # Drain stdout for the whole run: the server logs one line per event and must never block.
        self._reader = threading.Thread(target=self._read, daemon=True)
        self._reader.start()
        if not self._started.wait(START_TIMEOUT_S) or self.url is None:
            self.stop()
            pytest.fail(f"server did not print its start line within {START_TIMEOUT_S}s: {' '.join(args)}\n" + "".join(self.output))

    def _read(self) -> None:
        assert self.process.stdout is not None
        for line in self.process.stdout:
            self.output.append(line)
            if self.url is None:
                match = START_LINE.match(line.strip())
                if match:
                    self.url = match.group(1) + "/"
                    self._started.set()
        self._started.set()  # the process ended: stop waiting

    def stop(self) -> None:
        if self.process.poll() is None:
            self.process.terminate()
            try:
                self.process.wait(STOP_TIMEOUT_S)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait(STOP_TIMEOUT_S)
        self._reader.join(STOP_TIMEOUT_S)


PHYSICS = ("ios", "browser")
# The modules whose tests exercise scrolling, the bounded window, prepend anchoring, jump and chat: they run
# under both physics; the rest (settings, export, audits, the log) under `ios`, the default.
BOTH_PHYSICS_MODULES = {"test_playground", "test_window_and_jump", "test_two_way_chat", "test_failure_policies"}


def pytest_addoption(parser):
    parser.addoption("--physics", choices=["all", *PHYSICS], default="all",
                     help="run only the runs under this page physics (default: all)")
    parser.addoption("--both-physics-everywhere", action="store_true",
                     help="run every test that opens the page under both physics, not only the scrolling ones")


def pytest_configure(config):
    config.addinivalue_line("markers", "physics(name): run this test only under that page physics (ios or browser)")


def pytest_generate_tests(metafunc):
    """Gives `physics` (and so `open_page`) its settings: see the module docstring."""
    if "physics" not in metafunc.fixturenames:
        return
    marker = metafunc.definition.get_closest_marker("physics")
    if marker is not None:
        settings = list(marker.args)
    elif (metafunc.module.__name__.rsplit(".", 1)[-1] in BOTH_PHYSICS_MODULES
          or metafunc.config.getoption("--both-physics-everywhere")):
        settings = list(PHYSICS)
    else:
        settings = ["ios"]
    only = metafunc.config.getoption("--physics")
    if only != "all":
        settings = [name for name in settings if name == only]
    metafunc.parametrize("physics", settings, ids=[f"physics={name}" for name in settings])


@pytest.fixture
def start_server():
    """Starts the real server: `start_server(preset="refreshable", max_items=20)` (kebab-case flags)."""
    servers: list[ServerProcess] = []

    def start(**overrides) -> ServerProcess:
        settings = dict(FAST_SETTINGS)
        settings.update({name.replace("_", "-"): value for name, value in overrides.items()})
        server = ServerProcess(settings)
        servers.append(server)
        return server

    yield start
    for server in servers:
        server.stop()
        # pytest shows this only for a failing test ("Captured stdout teardown").
        print(f"--- server output ({' '.join(server.args)}) ---\n" + "".join(server.output[-120:]))


@pytest.fixture(scope="session")
def browser() -> Browser:
    if not Path(CHROMIUM).exists():
        pytest.fail(f"{CHROMIUM} is missing: apt-get install -y chromium")
    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=CHROMIUM, headless=True, args=["--no-sandbox"])
        yield browser
        browser.close()


@dataclass
class Probe:
    """What a page said that a person would worry about."""

    console_errors: list[str] = field(default_factory=list)
    console_warnings: list[str] = field(default_factory=list)
    failed_requests: list[str] = field(default_factory=list)
    bad_responses: list[str] = field(default_factory=list)
    page_errors: list[str] = field(default_factory=list)
    # Which document issued each request: one navigation of the tab (a reload, a goto) after another.
    documents: int = 0
    issued_by: dict = field(default_factory=dict)

    def problems(self) -> list[str]:
        return self.console_errors + self.failed_requests + self.bad_responses + self.page_errors

    def note_request(self, request) -> None:
        if request.is_navigation_request() and request.frame.parent_frame is None:
            self.documents += 1
        self.issued_by[request] = self.documents

    def note_failure(self, request) -> None:
        # A fetch still under way when the tab navigates is cancelled with its document: not a failure.
        cancelled = request.failure == "net::ERR_ABORTED" and self.issued_by.get(request, self.documents) < self.documents
        if not cancelled and not request.url.startswith("blob:"):
            self.failed_requests.append(f"failed: {request.url} ({request.failure})")


def with_physics(query: str, physics: str) -> str:
    """The page's link for a physics: `ios` is the page's default and adds nothing; a link's own choice stays."""
    if physics == "ios" or "physics=" in query:
        return query
    return f"{query}{'&' if query.startswith('?') else '?'}physics={physics}"


@pytest.fixture
def open_page(browser, physics):
    """Opens the playground of a server in a fresh context: `page, probe = open_page(server, ...)`."""
    contexts = []

    def open_(server: ServerProcess, *, width=1440, height=900, touch=False, query="", reduced_motion=None) -> tuple[Page, Probe]:
        options = {"viewport": {"width": width, "height": height}, "accept_downloads": True}
        if touch:
            options.update(has_touch=True)
        if reduced_motion:
            options.update(reduced_motion=reduced_motion)
        context = browser.new_context(**options)
        context.set_default_timeout(10_000)
        contexts.append(context)
        page = context.new_page()
        probe = Probe()
        def on_console(message):
            if message.type == "error":
                probe.console_errors.append(f"error: {message.text} at {message.location}")
            elif message.type == "warning":
                probe.console_warnings.append(f"warning: {message.text}")

        page.on("console", on_console)
        page.on("pageerror", lambda error: probe.page_errors.append(f"pageerror: {error}"))
        page.on("request", probe.note_request)
        page.on("requestfailed", probe.note_failure)
        page.on("response", lambda response: probe.bad_responses.append(f"{response.status}: {response.url}")
                if response.status >= 400 else None)
        page.goto(server.url + with_physics(query, physics))
        # A function, not an expression string: the CSP forbids the eval() Playwright would use for one.
        page.wait_for_function("() => window.playground && window.playground.status === 'open' && window.playground.rev !== null")
        return page, probe

    yield open_
    for context in contexts:
        context.close()
