"""Benchmark-harness tests: bench/ is a directory of scripts, not a package, so put it on sys.path
(the scripts import each other the same way) and let tests import `metrics`, `locomo`, ..."""

from __future__ import annotations

import sys
from pathlib import Path

BENCH = Path(__file__).resolve().parents[2] / "bench"
if str(BENCH) not in sys.path:
    sys.path.insert(0, str(BENCH))
