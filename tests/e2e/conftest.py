"""Browser tests: a real ``tafelrunde serve`` on a free port with a temp SQLite file, driven by
Debian's chromium through Playwright's sync API at a phone viewport (360×640).

Without chromium the tests skip with a reason, except under ``CI`` where that is a failure.
"""

from __future__ import annotations

import json
import os
import shutil
import time
import urllib.error
import urllib.request
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from typing import Any

import pytest

from tests.conftest import ServerFactory

CHROMIUM_ARGS = ["--no-sandbox", "--disable-gpu", "--disable-background-networking",
                 "--disable-component-update", "--no-first-run", "--disable-sync"]
PHONE = {"width": 360, "height": 640}


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


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory, serve: ServerFactory) -> Iterator[Server]:
    workdir = tmp_path_factory.mktemp("server")
    with serve(workdir, f"sqlite+aiosqlite:///{workdir / 'e2e.db'}") as base:
        yield Server(base)


# Module scope: Playwright's sync API holds an event loop in this thread while it runs, which
# must be gone before the asyncio tests of other folders start.
@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    executable = shutil.which("chromium") or shutil.which("chromium-browser")
    if executable is None:
        if os.environ.get("CI"):
            pytest.fail("chromium is not installed, but CI needs the browser tests to run")
        pytest.skip("chromium is not installed (Debian package `chromium`)")
    from playwright.sync_api import sync_playwright

    with sync_playwright() as playwright:
        launched = playwright.chromium.launch(executable_path=executable, args=CHROMIUM_ARGS)
        yield launched
        launched.close()


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
