"""Import the memory engine WITHOUT custom_components/memory/__init__.py (which imports Home
Assistant): the engine is a plain library, and the RSS figures must be the engine's alone."""

from __future__ import annotations

import sys
import types
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent


def install() -> None:
    """Register custom_components.memory as a bare package so `...memory.engine` imports alone."""
    if "custom_components.memory" in sys.modules:
        return
    for name, path in (
        ("custom_components", REPO / "custom_components"),
        ("custom_components.memory", REPO / "custom_components" / "memory"),
    ):
        module = types.ModuleType(name)
        module.__path__ = [str(path)]
        sys.modules[name] = module
