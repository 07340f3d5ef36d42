"""Browser tests: a real ``tafelrunde serve`` on a free port with a temp SQLite file, driven by
Debian's chromium through Playwright's sync API at a phone viewport (360×640).

Without chromium the tests skip with a reason, except under ``CI`` where that is a failure.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import time
import urllib.error
import urllib.request
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest

from tests.conftest import ServerFactory

CHROMIUM_ARGS = ["--no-sandbox", "--disable-gpu", "--disable-background-networking",
                 "--disable-component-update", "--no-first-run", "--disable-sync"]
PHONE = {"width": 360, "height": 640}


def qr_link(code: Any, image: Path) -> str:
    """What a camera reads from a ``.qr`` code on the screen (zbar, from a screenshot), once its
    image, which the server draws, has arrived."""
    code.locator("img").evaluate("image => image.decode()")
    code.screenshot(path=str(image))
    return subprocess.run(["zbarimg", "--nodbus", "-q", "--raw", str(image)],
                          capture_output=True, text=True, check=True).stdout.strip()


def box_of(element: Any, timeout: float = 5.0) -> dict[str, float]:
    """Where an element is on the screen. A live screen draws itself again with each event, and
    Playwright finds an element and measures it in two steps: one replaced in between has no box
    (None), so the element is found and measured again."""
    deadline = time.monotonic() + timeout
    while (box := element.bounding_box()) is None:
        assert time.monotonic() < deadline, f"{element} has no box on the screen"
        time.sleep(0.05)
    found: dict[str, float] = box
    return found


@dataclass(frozen=True, slots=True)
class Server:
    base: str

    def get(self, path: str, token: str | None = None) -> Any:
        request = urllib.request.Request(self.base + path)
        if token:
            request.add_header("Authorization", f"Bearer {token}")
        with urllib.request.urlopen(request, timeout=10) as response:
            return json.load(response)

    def post(self, path: str, body: Any, token: str | None = None) -> Any:
        request = urllib.request.Request(self.base + path, data=json.dumps(body).encode(),
                                         method="POST",
                                         headers={"Content-Type": "application/json"})
        if token:
            request.add_header("Authorization", f"Bearer {token}")
        with urllib.request.urlopen(request, timeout=10) as response:
            return json.load(response)


# Session scope: one server per xdist worker for every browser module. Each test makes the
# matches, tournaments and clubs it needs and reads them by their own ids (the API lists nothing
# across them), so the modules cannot see each other's data. A test that needs other settings, a
# copy of the app or a restart starts a server of its own (test_service_worker, test_board).
@pytest.fixture(scope="session")
def server(tmp_path_factory: pytest.TempPathFactory, serve: ServerFactory) -> Iterator[Server]:
    workdir = tmp_path_factory.mktemp("server")
    with serve(workdir, f"sqlite+aiosqlite:///{workdir / 'e2e.db'}") as base:
        yield Server(base)


class Chromium:
    """Playwright and one Debian chromium, started when a browser test needs them and kept
    for the browser tests that follow on this worker: every test gets a browser context of its
    own (`new_phone`), so no cookie, storage or service worker passes from one to the next.

    Playwright's sync API leaves its event loop set as the thread's running loop, so no
    asyncio test (nor `asyncio.run`) can run until it has stopped: `pytest_runtest_teardown`
    below closes both before the worker moves on to a test outside this folder.
    """

    def __init__(self, executable: str) -> None:
        self.executable = executable
        self._manager: Any = None
        self._playwright: Any = None
        self._browser: Any = None

    def launch(self, *args: str) -> Any:
        """A chromium of its own, with command-line switches added to the usual ones."""
        if self._playwright is None:
            from playwright.sync_api import sync_playwright

            self._manager = sync_playwright()
            self._playwright = self._manager.__enter__()
        return self._playwright.chromium.launch(executable_path=self.executable,
                                                args=[*CHROMIUM_ARGS, *args])

    def browser(self) -> Any:
        """The chromium that the browser tests share."""
        if self._browser is None:
            self._browser = self.launch()
        return self._browser

    def close(self) -> None:
        if self._browser is not None:
            self._browser.close()
            self._browser = None
        if self._manager is not None:
            self._manager.__exit__(None, None, None)
            self._manager = self._playwright = None


RUNNING_CHROMIUM = pytest.StashKey[Chromium]()


@pytest.fixture(scope="session")
def chromium(pytestconfig: pytest.Config) -> Iterator[Chromium]:
    executable = shutil.which("chromium") or shutil.which("chromium-browser")
    if executable is None:
        if os.environ.get("CI"):
            pytest.fail("chromium is not installed, but CI needs the browser tests to run")
        pytest.skip("chromium is not installed (Debian package `chromium`)")
    made = pytestconfig.stash[RUNNING_CHROMIUM] = Chromium(executable)
    yield made
    made.close()


@pytest.hookimpl(wrapper=True)
def pytest_runtest_teardown(item: pytest.Item, nextitem: pytest.Item | None) -> Iterator[None]:
    """After the test's own teardown: stop chromium and Playwright when the next test on this
    worker is not a browser test (see `Chromium`)."""
    yield
    if nextitem is None or nextitem.path.parent != item.path.parent:
        running = item.config.stash.get(RUNNING_CHROMIUM, None)
        if running is not None:
            running.close()


@pytest.fixture(scope="module")
def browser(chromium: Chromium) -> Any:
    return chromium.browser()


@dataclass
class Phone:
    """A browser context at phone size with page errors collected (any error fails the test)."""

    context: Any
    page: Any
    base: str
    errors: list[str] = field(default_factory=list)

    def open(self, hash_route: str = "#/") -> None:
        self.page.goto(f"{self.base}/{hash_route}")
        self.page.wait_for_selector("body[data-ready]")

    def wait_for_service_worker(self) -> None:
        # wait_for_function evaluates a string, which the app's CSP forbids: poll instead.
        deadline = time.monotonic() + 15
        while not self.page.evaluate("() => navigator.serviceWorker.controller !== null"):
            if time.monotonic() > deadline:
                raise AssertionError("the service worker never took control of the page")
            time.sleep(0.1)


def new_phone(browser: Any, server: Server, locale: str = "en-US",
              viewport: dict[str, int] | None = None) -> Phone:
    """A phone (360×640, touch) or, given a `viewport`, a screen such as a projector's."""
    screen = viewport is not None
    context = browser.new_context(viewport=viewport or PHONE, locale=locale, device_scale_factor=1,
                                  has_touch=not screen, is_mobile=not screen)
    context.set_default_timeout(10000)
    page = context.new_page()
    phone = Phone(context, page, server.base)
    page.on("pageerror", lambda error: phone.errors.append(str(error)))
    page.on("console", lambda message: phone.errors.append(message.text)
            if message.type == "error" and "Failed to load resource" not in message.text else None)
    return phone


@contextmanager
def phone_in_use(browser: Any, server: Server, locale: str = "en-US",
                 viewport: dict[str, int] | None = None) -> Iterator[Phone]:
    """A phone (or screen) for one test; no page error or console error may have happened on it."""
    made = new_phone(browser, server, locale, viewport)
    yield made
    made.context.close()
    assert made.errors == []


@pytest.fixture
def phone(browser: Any, server: Server) -> Iterator[Phone]:
    with phone_in_use(browser, server) as made:
        yield made


@pytest.fixture
def second_phone(browser: Any, server: Server) -> Iterator[Phone]:
    with phone_in_use(browser, server) as made:
        yield made


PHONES = {"de": "de-CH", "fr": "fr-CH", "it": "it-CH"}
"""Each language the app speaks besides English, with the region of a Swiss phone set to it."""


@pytest.fixture(params=sorted(PHONES))
def lang(request: pytest.FixtureRequest) -> str:
    return str(request.param)


@pytest.fixture
def local_phone(browser: Any, server: Server, lang: str) -> Iterator[Phone]:
    """A phone set to German, French or Italian (each test runs once per language)."""
    with phone_in_use(browser, server, locale=PHONES[lang]) as made:
        yield made


@pytest.fixture
def german_phone(browser: Any, server: Server) -> Iterator[Phone]:
    with phone_in_use(browser, server, locale="de-CH") as made:
        yield made
