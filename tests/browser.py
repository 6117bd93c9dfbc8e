"""What the browser tests need from the machine: Debian's Chromium (never a downloaded browser
build) and fonts for the scripts of the TyDi examples (without Noto's Bengali and Korean faces
Chromium draws empty boxes, which the layout checks would measure). ``scripts/test.sh`` installs
both where the user may; elsewhere the browser tests are skipped, and it says so in its last
line. Where ``CI`` is set they fail instead: CI runs them all."""

from __future__ import annotations

import os
import shutil
import subprocess

import pytest

PACKAGES = "chromium fonts-noto-core fonts-noto-cjk"


def _has_font(language: str) -> bool:
    try:
        listed = subprocess.run(
            ["fc-list", f":lang={language}", "family"], capture_output=True, text=True, timeout=60
        )
    except (OSError, subprocess.SubprocessError):
        return False
    return bool(listed.stdout.strip())


def missing() -> list[str]:
    """What the browser tests lack on this machine (an empty list: nothing)."""
    lacking = [] if shutil.which("chromium") else ["chromium"]
    if not (_has_font("bn") and _has_font("ko")):
        lacking.append("Noto fonts for Bengali and Korean")
    return lacking


def chromium() -> str:
    """The path of Chromium, or the test skipped (failed under CI) naming what is missing."""
    lacking = missing()
    if lacking:
        message = f"{' and '.join(lacking)} not installed (apt-get install {PACKAGES})"
        if os.environ.get("CI"):
            pytest.fail(message)
        pytest.skip(message)
    return shutil.which("chromium")
