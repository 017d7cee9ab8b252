"""A real headless browser (Debian's chromium) for the audit's HTML page."""

import shutil
import subprocess
import tempfile
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

CHROMIUM = shutil.which("chromium") or "/usr/bin/chromium"
FLAGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]


def have_chromium() -> bool:
    """Whether the browser is installed (``.ci/run`` installs it)."""
    return Path(CHROMIUM).is_file()


def needs_chromium(test: Callable[..., Any]) -> Callable[..., Any]:
    """Mark a test that reads a page in the browser: slow, as a browser starts.

    It runs with ``pytest -m slow`` and is skipped where chromium is missing.
    """
    skip = pytest.mark.skipif(
        not have_chromium(), reason="chromium is not installed (.ci/run installs it)"
    )
    return pytest.mark.slow(skip(test))


def chromium(page: Path, *args: str, fragment: str = "") -> str:
    """Run chromium on `page` (a file), with a fresh profile; its stdout."""
    with tempfile.TemporaryDirectory(prefix="empty-migrate-chromium-") as profile:
        command = [CHROMIUM, *FLAGS, f"--user-data-dir={profile}", *args]
        command.append(page.resolve().as_uri() + fragment)
        result = subprocess.run(command, capture_output=True, text=True, timeout=120)
    assert result.returncode == 0, result.stderr[-2000:]
    return result.stdout


def dump_dom(page: Path, fragment: str = "") -> str:
    """The DOM after the page's script ran."""
    return chromium(page, "--dump-dom", fragment=fragment)


def screenshot(page: Path, out: Path, fragment: str = "") -> Path:
    """A 1600x1000 screenshot of `page`, written to `out`."""
    chromium(page, f"--screenshot={out}", "--window-size=1600,1000", fragment=fragment)
    assert out.is_file() and out.stat().st_size > 10_000
    return out
