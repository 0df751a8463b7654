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


def set_viewport(driver, size: tuple[int, int]) -> None:
    """Make the page's viewport exactly ``size`` (width, height) CSS pixels, a phone's
    (touch, mobile layout) under 600 wide: a headless window's size includes its frame and
    has a minimum width, so it cannot give 390×844."""
    width, height = size
    driver.execute_cdp_cmd(
        "Emulation.setDeviceMetricsOverride",
        {"width": width, "height": height, "deviceScaleFactor": 1, "mobile": width < 600},
    )
    driver.execute_cdp_cmd("Emulation.setTouchEmulationEnabled", {"enabled": width < 600})
