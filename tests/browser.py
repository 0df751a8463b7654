"""A headless Chromium driven by Selenium, for the tests of the pages (the replay page, the
lab): Debian's chromium and chromium-driver, the ``browser`` extra of tests/extras.py."""

from __future__ import annotations

import shutil

from extras import require

FLAGS = (
    "--headless=new",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
)


def chromium(window: tuple[int, int]):
    """A headless Chromium of ``window`` (width, height) that keeps the page's console log,
    or the test skipped saying why (a failure where the ``browser`` extra is required)."""
    require("browser")
    from selenium import webdriver

    options = webdriver.ChromeOptions()
    options.binary_location = shutil.which("chromium") or shutil.which("chromium-browser")
    for flag in (*FLAGS, f"--window-size={window[0]},{window[1]}"):
        options.add_argument(flag)
    options.set_capability("goog:loggingPrefs", {"browser": "ALL"})
    service = webdriver.ChromeService(executable_path=shutil.which("chromedriver"))
    return webdriver.Chrome(options=options, service=service)
