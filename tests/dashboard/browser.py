"""A live dashboard for browser tests and the screenshot script: the app served by
uvicorn on a free loopback port in a thread, and Debian's chromium driven by Playwright."""

from __future__ import annotations

import os
import shutil
import socket
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

CHROMIUM = "/usr/bin/chromium"
CHROMIUM_ARGS = ["--no-sandbox", "--disable-gpu", "--disable-background-networking"]


def under_ci() -> bool:
    return os.environ.get("CI", "").lower() in ("1", "true", "yes")


def chromium_missing() -> str | None:
    """Why no browser test can run here, or None."""
    try:
        import playwright  # noqa: F401
    except ImportError:
        return "browser tests need playwright: pip install -e '.[dev]'"
    if not (os.path.exists(CHROMIUM) or shutil.which("chromium")):
        return "browser tests need Debian's chromium: apt-get install -y chromium"
    return None


@contextmanager
def serving(app: Any) -> Iterator[str]:
    """`app` on 127.0.0.1 at a free port; yields its base URL."""
    import uvicorn

    sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    sock.bind(("127.0.0.1", 0))
    port = sock.getsockname()[1]
    server = uvicorn.Server(uvicorn.Config(app, log_level="warning", lifespan="off"))
    thread = threading.Thread(target=server.run, kwargs={"sockets": [sock]}, daemon=True)
    thread.start()
    deadline = time.time() + 20
    while not server.started and time.time() < deadline:
        time.sleep(0.05)
    try:
        yield f"http://127.0.0.1:{port}"
    finally:
        server.should_exit = True
        thread.join(10)
        sock.close()


@contextmanager
def browser_page() -> Iterator[Any]:
    """A fresh chromium page that records console errors in `page.errors`."""
    from playwright.sync_api import sync_playwright

    with sync_playwright() as pw:
        browser = pw.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        try:
            page = browser.new_page(viewport={"width": 1280, "height": 860})
            errors: list[str] = []
            page.on("console", lambda m: errors.append(m.text) if m.type == "error" else None)
            page.on("pageerror", lambda e: errors.append(str(e)))
            page.errors = errors
            yield page
        finally:
            browser.close()
