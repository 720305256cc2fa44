"""The store protocol's parts (store/base.py) split the whole without overlap, and each backend
implements every part with the protocol's own signatures (names, kinds and defaults of the
parameters): engine call sites work on any store."""

from __future__ import annotations

import inspect
from collections.abc import Callable
from pathlib import Path

import pytest

from custom_components.memory.engine.store import base
from custom_components.memory.engine.store.base import MemoryStore

PARTS: tuple[type, ...] = (
    base.MemoryRecords,
    base.SearchLegs,
    base.TombstoneStore,
    base.TranscriptStore,
    base.VoiceprintStore,
    base.StoreTransfer,
)
LIFECYCLE = {
    "open",
    "close",
    "schema_version",
    "pause_writes",
    "resume_writes",
    "bulk_writes",
    "stale",
    "set_vector",
    "counts",
}


def _methods(protocol: type) -> set[str]:
    """The methods a protocol class itself declares."""
    return {
        name
        for name, value in vars(protocol).items()
        if inspect.isfunction(value) and not name.startswith("_")
    }


def _shape(function: Callable[..., object]) -> list[tuple[str, object, object]]:
    return [(p.name, p.kind, p.default) for p in inspect.signature(function).parameters.values()]


def test_the_parts_split_the_store_without_overlap() -> None:
    declared = [_methods(part) for part in PARTS]
    assert sum(map(len, declared)) == len(set().union(*declared))  # no method in two parts
    every = {name for name in dir(MemoryStore) if not name.startswith("_")}
    assert every == set().union(*declared) | LIFECYCLE == _methods(MemoryStore) | set().union(*declared)
    assert all(part in MemoryStore.__mro__ for part in PARTS)


@pytest.mark.parametrize("part", [*PARTS, MemoryStore], ids=lambda p: p.__name__)
def test_the_backend_implements_each_part(
    part: type, new_store: Callable[[Path], MemoryStore], tmp_path: Path
) -> None:
    store = new_store(tmp_path / "memory.db")  # unopened: only its class is looked at
    for name in _methods(part):
        assert _shape(getattr(type(store), name)) == _shape(getattr(part, name)), name
