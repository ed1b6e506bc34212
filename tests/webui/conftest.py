"""Fixtures for the dashboard tests: an app on a fresh record, a real waitress server, Chromium."""

from __future__ import annotations

import threading
from pathlib import Path

import pytest

from tests.webui.support import CHROMIUM, CHROMIUM_ARGS, PHONE, PIN, TABLET, FakeClock
from webui import create_app, make_server
from webui.serving import stop_server


@pytest.fixture
def clock() -> FakeClock:
    return FakeClock()


@pytest.fixture
def app(tmp_path, clock):
    return create_app({"DATABASE": str(tmp_path / "record.sqlite3"), "PIN": PIN, "API_TOKEN": "token-for-tests",
                       "PIN_CLOCK": clock, "SSE_LIFETIME": 2.0})


@pytest.fixture
def client(app):
    return app.test_client()


@pytest.fixture
def camera(table_frame):
    from tests.webui.support import RenderedCamera

    return RenderedCamera(table_frame)


@pytest.fixture
def camera_app(app, camera):
    """The app of a running referee: the camera page shows ``camera``."""
    app.config["CAMERA"] = camera
    return app


@pytest.fixture
def server(app):
    """A real waitress server on 127.0.0.1 and a free port, in a thread."""
    httpd = make_server(app, host="127.0.0.1", port=0)
    thread = threading.Thread(target=httpd.run, daemon=True)
    thread.start()
    yield f"http://127.0.0.1:{httpd.effective_port}"
    stop_server(httpd, thread)


@pytest.fixture(scope="session")
def browser():
    """Headless Debian Chromium through Playwright; missing Chromium is a failure, not a skip."""
    if not Path(CHROMIUM).exists():
        pytest.fail(f"browser tests need Chromium at {CHROMIUM}: apt-get install -y chromium")
    from playwright.sync_api import sync_playwright

    with sync_playwright() as playwright:
        chromium = playwright.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        yield chromium
        chromium.close()


def _device(browser, viewport: dict, scale: int):
    """A touch device's page in its own browser context (cookies, session), closed after the test."""
    context = browser.new_context(viewport=viewport, device_scale_factor=scale, is_mobile=True, has_touch=True)
    yield context.new_page()
    context.close()


@pytest.fixture(scope="session")
def table_frame():
    """A rendered camera frame of a table (markers, felt, seven cards face up), BGR 1280x720."""
    from tests.webui.support import render_table

    return render_table()


@pytest.fixture(scope="session")
def recognizer():
    from vision.recognizer import Recognizer

    return Recognizer()


@pytest.fixture
def phone(browser):
    yield from _device(browser, PHONE, 2)


@pytest.fixture
def tablet(browser):
    yield from _device(browser, TABLET, 1)
