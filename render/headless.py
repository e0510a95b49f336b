"""Headless Chromium through selenium, to look at the pictures and reports as a browser
shows them: the browser tests and ``scripts/make_screenshots.py`` use it.

The browser gets a fresh profile and no network at all (a proxy that does not exist,
every http/https/ws URL blocked, the connection emulated offline), keeps its console and
network logs, and is found at ``/usr/bin/chromium`` and ``/usr/bin/chromedriver`` (or on
the PATH).  selenium is a test dependency: it is imported only when a browser starts.
"""

from __future__ import annotations

import base64
import json
import shutil
from pathlib import Path
from typing import Any

CHROMIUM_FLAGS = (
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--hide-scrollbars",
    "--proxy-server=127.0.0.1:9",  # nothing listens there: any request would fail
)
BLOCKED_URLS = ["http://*", "https://*", "ws://*", "wss://*", "ftp://*"]
LOCAL_SCHEMES = ("file:", "data:", "about:", "chrome:", "devtools:")


def browser_paths() -> tuple[str, str] | None:
    """``(chromium, chromedriver)`` when both are installed, else None."""
    chromium = shutil.which("chromium") or _existing("/usr/bin/chromium")
    driver = shutil.which("chromedriver") or _existing("/usr/bin/chromedriver")
    return (chromium, driver) if chromium and driver else None


def _existing(path: str) -> str | None:
    return path if Path(path).is_file() else None


def missing_browser() -> str | None:
    """Why a headless browser cannot start here (selenium, chromium or chromedriver
    missing), or None when it can."""
    try:
        import selenium  # noqa: F401
    except ImportError:
        return "selenium is not installed (pip install -e '.[test]')"
    if browser_paths() is None:
        return (
            "chromium and chromedriver are not installed (apt-get install chromium chromium-driver)"
        )
    return None


def start_browser(profile: Path, width: int = 1400, height: int = 1000, scale: float = 1.0) -> Any:
    """A headless Chromium (a selenium ``WebDriver``) with its profile in the new folder
    ``profile``, a window of ``width`` × ``height`` CSS pixels at ``scale`` device pixels
    each, and the network cut off.  Raises ``RuntimeError`` when it cannot start."""
    from selenium import webdriver
    from selenium.webdriver.chrome.service import Service

    paths = browser_paths()
    if paths is None:
        raise RuntimeError(missing_browser() or "no browser")
    chromium, chromedriver = paths
    options = webdriver.ChromeOptions()
    options.binary_location = chromium
    for flag in CHROMIUM_FLAGS:
        options.add_argument(flag)
    options.add_argument(f"--user-data-dir={profile}")
    options.add_argument(f"--window-size={width},{height}")
    options.add_argument(f"--force-device-scale-factor={scale}")
    options.set_capability("goog:loggingPrefs", {"browser": "ALL", "performance": "ALL"})
    driver = webdriver.Chrome(service=Service(chromedriver), options=options)
    try:
        driver.execute_cdp_cmd("Network.enable", {})
        driver.execute_cdp_cmd("Network.setBlockedURLs", {"urls": BLOCKED_URLS})
        driver.execute_cdp_cmd(
            "Network.emulateNetworkConditions",
            {"offline": True, "latency": 0, "downloadThroughput": 0, "uploadThroughput": 0},
        )
    except Exception:
        driver.quit()
        raise
    return driver


def console_errors(driver: Any) -> list[str]:
    """The console's errors since the last call (script errors, failed loads, policy
    violations)."""
    return [entry["message"] for entry in driver.get_log("browser") if entry["level"] == "SEVERE"]


def network_requests(driver: Any) -> list[str]:
    """The URLs the page asked for since the last call that are not local (``file:``,
    ``data:`` …): a self-contained page asks for none."""
    urls = []
    for entry in driver.get_log("performance"):
        message = json.loads(entry["message"])["message"]
        if message.get("method") == "Network.requestWillBeSent":
            url = message["params"]["request"]["url"]
            if not url.startswith(LOCAL_SCHEMES):
                urls.append(url)
    return urls


def screenshot(
    driver: Any,
    page: Path,
    out: Path,
    width: int,
    height: int | None = None,
    fragment: str = "",
    scale: float = 2.0,
) -> None:
    """Open ``page`` (a local file, at ``#fragment`` if given) in a viewport of ``width``
    × ``height`` CSS pixels (default height: the whole page) at ``scale`` device pixels
    each, and save a PNG of it to ``out``."""

    def viewport(h: int) -> None:
        metrics = {"width": width, "height": h, "deviceScaleFactor": scale, "mobile": False}
        driver.execute_cdp_cmd("Emulation.setDeviceMetricsOverride", metrics)

    viewport(height or 800)
    driver.get(page.resolve().as_uri() + (f"#{fragment}" if fragment else ""))
    if height is None:
        viewport(int(driver.execute_script("return document.documentElement.scrollHeight")))
    shot = driver.execute_cdp_cmd("Page.captureScreenshot", {"format": "png"})
    out.write_bytes(base64.b64decode(shot["data"]))
    driver.execute_cdp_cmd("Emulation.clearDeviceMetricsOverride", {})
