"""Screenshots of every dashboard page into docs/dashboard/, against the test corpus
indexed with the real model, as `ctxhub dashboard` serves it.

    python scripts/dashboard_screenshots.py [--out docs/dashboard]

Needs Debian's chromium (`apt-get install -y chromium`) and playwright (the dev extra).
A temporary home: the three corpus sources and two memory records of dashboard_seed.py
(what the dashboard tests see) and a rating, then
`ctxhub dashboard --port 0` in a subprocess and one headless chromium page per screen.
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import httpx

from ctxhub.config import Settings
from ctxhub.session import HubSession
from ctxhub.tools.run import call
from dashboard_seed import seed

ROOT = Path(__file__).resolve().parents[1]
CHROMIUM = "/usr/bin/chromium"
ARGS = ["--no-sandbox", "--disable-gpu", "--disable-background-networking"]


def build_home(home: Path) -> None:
    settings = Settings(home=home)
    seed(settings)
    with HubSession(settings) as hub:
        hits = call(hub, "search", query="reconnect the websocket").data["hits"]
        call(hub, "rate", id=hits[0]["id"], worked=False, query="reconnect the websocket")


def start_dashboard(home: Path) -> tuple[subprocess.Popen[str], str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith("CTXHUB_")}
    env["CTXHUB_HOME"] = str(home)
    proc = subprocess.Popen(
        [sys.executable, "-m", "ctxhub", "dashboard", "--port", "0"],
        env=env,
        cwd=home,
        stderr=subprocess.PIPE,
        text=True,
    )
    assert proc.stderr is not None
    url = proc.stderr.readline().split(" at ", 1)[1].split()[0]
    for _ in range(200):
        try:
            httpx.get(f"{url}api/overview", timeout=10)
            break
        except httpx.ConnectError:
            time.sleep(0.1)
    return proc, url


def shoot(url: str, out: Path) -> list[Path]:
    from playwright.sync_api import sync_playwright

    out.mkdir(parents=True, exist_ok=True)
    taken = []
    with sync_playwright() as pw:
        browser = pw.chromium.launch(executable_path=CHROMIUM, args=ARGS)
        page = browser.new_page(viewport={"width": 1280, "height": 860})
        page.goto(f"{url}#overview")
        page.wait_for_selector("#sources tr[data-source]")
        taken.append(out / "overview.png")
        page.screenshot(path=taken[-1], full_page=True)
        page.goto(f"{url}#search?q=TTSService%20run_tts%20audio")
        page.wait_for_selector(".hit")
        taken.append(out / "search.png")
        page.screenshot(path=taken[-1])
        page.goto(f"{url}#map")
        page.wait_for_function("window.ctxhubMap !== undefined")
        page.fill("#map-query", "TTSService run_tts audio")
        page.click("form.filters button.primary")
        page.wait_for_function("document.getElementById('map-count').textContent.includes('hit')")
        taken.append(out / "map.png")
        page.screenshot(path=taken[-1])
        page.goto(f"{url}#memory")
        page.wait_for_selector("#records tr[data-id]")
        taken.append(out / "memory.png")
        page.screenshot(path=taken[-1])
        page.goto(f"{url}#feedback")
        page.wait_for_selector("[data-query]")
        taken.append(out / "feedback.png")
        page.screenshot(path=taken[-1])
        browser.close()
    return taken


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", type=Path, default=ROOT / "docs" / "dashboard")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory(prefix="ctxhub-shots-") as tmp:
        home = Path(tmp)
        build_home(home)
        proc, url = start_dashboard(home)
        try:
            for path in shoot(url, args.out):
                print(path.relative_to(ROOT) if path.is_relative_to(ROOT) else path)
        finally:
            proc.terminate()
            proc.wait(10)


if __name__ == "__main__":
    main()
