"""Benchmark-harness tests: bench/ is a directory of scripts, not a package, so put it on sys.path
(the scripts import each other the same way) and let tests import `metrics`, `locomo`, ...

The real integration package is imported first: run as scripts, the bench modules register a bare
`custom_components.memory` (bench/engine_import.py, so the engine loads without Home Assistant);
inside the test session that stand-in would hide the integration from the HA tests that follow.
"""

from __future__ import annotations

import sys
from pathlib import Path

import custom_components.memory  # noqa: F401 - the real package, before bench/engine_import.py runs

BENCH = Path(__file__).resolve().parents[2] / "bench"
if str(BENCH) not in sys.path:
    sys.path.insert(0, str(BENCH))
