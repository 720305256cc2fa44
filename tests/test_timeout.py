"""A hanging test fails instead of blocking the run: pytest-timeout is installed and configured."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

HANG = """
import time


def test_hangs():
    time.sleep(600)
"""


def test_the_suite_has_a_timeout(request: pytest.FixtureRequest) -> None:
    assert request.config.pluginmanager.hasplugin("timeout")
    assert float(request.config.getini("timeout")) > 0


def test_a_hanging_test_fails(tmp_path: Path) -> None:
    (tmp_path / "test_hang.py").write_text(HANG)
    (tmp_path / "pytest.ini").write_text("[pytest]\ntimeout = 2\n")
    result = subprocess.run(
        [
            sys.executable,
            "-m",
            "pytest",
            "-p",
            "pytest_timeout",
            "-p",
            "no:cacheprovider",
            "-q",
            "test_hang.py",
        ],
        cwd=tmp_path,
        env={**os.environ, "PYTEST_DISABLE_PLUGIN_AUTOLOAD": "1"},  # only the plugin under test
        capture_output=True,
        text=True,
        timeout=240,  # the inner timeout must end it long before this
        check=False,
    )
    assert result.returncode != 0
    assert "Timeout" in result.stdout + result.stderr
