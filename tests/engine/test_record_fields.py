"""The memory record's fields are declared once (models.STORED_FIELDS: every field of Memory a
store keeps). What is derived from it (both stores' column lists and codecs, the move's memory
columns) and what is spelled elsewhere (the stores' schemas, the service and panel shapes, the
panel's TypeScript type, the extraction schema) is checked against it here, so adding a field
fails in this file until every place knows it (docs/architecture.md, "Adding a field to a
memory")."""

from __future__ import annotations

import ast
import json
import re
import sqlite3
from collections.abc import Callable, Iterator
from dataclasses import MISSING, fields, replace
from datetime import UTC, datetime, timedelta
from enum import Enum
from pathlib import Path
from typing import Any, get_args, get_type_hints

import numpy as np
import psycopg
import pytest
import yaml

from custom_components.memory.engine.extraction import (
    CANDIDATE_SCHEMA,
    EXTRACTION_SCHEMA,
    MAX_CANDIDATES,
    ExtractedFact,
)
from custom_components.memory.engine.models import STORED_FIELDS, EmbeddingIdentity, Kind, Memory, Speaker
from custom_components.memory.engine.store.base import TRANSFER_TABLES, MemoryStore, Visibility
from custom_components.memory.engine.store.sqlite import SqliteStore
from custom_components.memory.engine.store.sqlite.rows import memory_values

ROOT = Path(__file__).resolve().parents[2]
IDENTITY = EmbeddingIdentity("test", "random-16", 16)
ADMIN = Visibility.of(Speaker.administrator())
VECTOR_COLUMNS = ("embedding", "emb_provider", "emb_model", "emb_dimension")  # the vector, its identity

# Columns of PostgreSQL's memories table that are no field: the household key, insertion order,
# the vector and the full-text columns made from content and language.
POSTGRES_ROW_ONLY = {"household", "seq", *VECTOR_COLUMNS, "content_tsv", "content_len", "terms",
                     "terms_tsv", "terms_len"}  # fmt: skip

# Stored fields memory.* service responses leave out (responses.memory_dict), and why: a service
# answers an automation or a voice turn with what a memory says, who and where; history_dict adds
# the history, and the panel shows the rest.
SERVICE_NOT_SHOWN = {
    "updated_at", "subject", "predicate", "value", "confidence", "importance", "sensitive",
    "status", "superseded_by", "valid_from", "valid_to", "source", "source_ref",
    "access_count", "last_accessed_at",
}  # fmt: skip
# Recall's bookkeeping on a memory, not something the household told: counted (store.touch),
# never written by an update.
ACCESS_COUNTS = {"access_count", "last_accessed_at"}
# The panel's MemoryView (views.py, frontend/src/api.ts): stored fields shown under another key,
# and those it leaves out.
PANEL_RENAMED = {"speaker_id": "said_by"}
PANEL_NOT_SHOWN = ACCESS_COUNTS
# Answer fields of the extraction schema that are no field of a memory: a hint the writer turns
# into scope, owner and area (extraction.target_bucket).
EXTRACTION_HINTS = {"scope_hint"}


# ---------------------------------------------------------------- a memory unlike the defaults


def _bare(hint: Any) -> type:
    """A field's type with None left aside."""
    types = [t for t in get_args(hint) if t is not type(None)] or [hint]
    return types[0]  # type: ignore[no-any-return]


def unusual_memory() -> Memory:
    """A memory whose every field differs from its default and from every other field's value
    (strings name their field, moments are a second apart with microseconds, each number its
    own), so a field a store drops, swaps or rounds shows. Built from the declaration: a new
    field is covered as soon as it is declared."""
    hints = get_type_hints(Memory)
    base = datetime(2026, 3, 4, 5, 6, 7, 123456, tzinfo=UTC)
    values: dict[str, Any] = {}
    for i, f in enumerate(fields(Memory)):
        kind = _bare(hints[f.name])
        default = None if f.default is MISSING else f.default
        if issubclass(kind, Enum):
            values[f.name] = next(m for m in reversed(list(kind)) if m != default)
        elif kind is datetime:
            values[f.name] = base + timedelta(seconds=i)
        elif kind is bool:
            values[f.name] = not default
        elif kind is int:
            values[f.name] = 100 + i
        elif kind is float:
            values[f.name] = 0.125 + i / 1024
        else:
            values[f.name] = f"{f.name} of the unusual memory"
    return Memory(**values)


def test_unusual_memory_sets_every_field_apart() -> None:
    memory = unusual_memory()
    for f in fields(Memory):
        if f.default is not MISSING:
            assert getattr(memory, f.name) != f.default, f.name
    rendered = [v for v in memory_values(memory) if not isinstance(v, bool | int) or v > 1]
    assert len(set(rendered)) == len(rendered)


# ---------------------------------------------------------------- the declaration


def test_stored_fields_are_memory_fields_in_order() -> None:
    names = [f.name for f in fields(Memory)]
    assert list(STORED_FIELDS) == [n for n in names if n in STORED_FIELDS]
    assert STORED_FIELDS[0] == "id"  # the stores' updates write every column after the id


def test_a_field_never_stored_has_a_default() -> None:
    """A store builds a Memory from its columns alone: every other field needs a default."""
    unstored = [f for f in fields(Memory) if f.name not in STORED_FIELDS]
    assert all(f.default is not MISSING or f.default_factory is not MISSING for f in unstored)


# ---------------------------------------------------------------- the stores' schemas


def test_sqlite_memories_table_has_a_column_per_stored_field(tmp_path: Path) -> None:
    store = SqliteStore(tmp_path / "memory.db")
    store.open(IDENTITY)
    store.close()
    with sqlite3.connect(tmp_path / "memory.db") as conn:
        columns = {row[1] for row in conn.execute("PRAGMA table_info(memories)")}
    assert columns - set(VECTOR_COLUMNS) == set(STORED_FIELDS)


def test_postgres_tables_have_a_column_per_stored_field(pg_url: str) -> None:
    """A memory is its memories row and its memory_access counts (migration v5)."""
    from custom_components.memory.engine.store.postgres import PostgresStore  # noqa: PLC0415

    store = PostgresStore(pg_url, household="home")
    store.open(IDENTITY)
    store.close()
    with psycopg.connect(pg_url) as conn:
        columns = {
            table: {r[0] for r in conn.execute(
                "SELECT column_name FROM information_schema.columns WHERE table_name = %s", (table,))}
            for table in ("memories", "memory_access")
        }  # fmt: skip
    row = columns["memories"] - POSTGRES_ROW_ONLY
    access = columns["memory_access"] - {"household", "id"}
    assert row | access == set(STORED_FIELDS) and not row & access


# ---------------------------------------------------------------- the codecs


@pytest.fixture
def store(new_store: Callable[[Path], MemoryStore], tmp_path: Path) -> Iterator[MemoryStore]:
    """An open store of this test's backend, its vectors of IDENTITY."""
    opened = new_store(tmp_path / "memory.db")
    opened.open(IDENTITY)
    yield opened
    opened.close()


def _vector() -> np.ndarray:
    v = np.random.default_rng(7).standard_normal(16).astype(np.float32)
    return v / np.linalg.norm(v)


def _stored(memory: Memory) -> dict[str, Any]:
    return {name: getattr(memory, name) for name in STORED_FIELDS}


def test_every_stored_field_survives_a_write_and_a_read(store: MemoryStore) -> None:
    memory = unusual_memory()
    store.add(memory, _vector())
    back = store.get(memory.id, ADMIN)
    assert back is not None
    assert _stored(back) == _stored(memory)
    unstored = {f.name for f in fields(Memory)} - set(STORED_FIELDS)
    defaults = Memory(**_stored(memory))
    assert {n: getattr(back, n) for n in unstored} == {n: getattr(defaults, n) for n in unstored}


def test_every_stored_field_survives_an_update(store: MemoryStore) -> None:
    first = unusual_memory()
    store.add(replace(first, content="The first wording.", access_count=0, last_accessed_at=None), _vector())
    store.update(first, None)
    back = store.get(first.id, ADMIN)
    assert back is not None
    written = set(STORED_FIELDS) - ACCESS_COUNTS
    assert {k: getattr(back, k) for k in written} == {k: getattr(first, k) for k in written}


# ---------------------------------------------------------------- the move between stores


def test_transfer_memory_columns_are_the_stored_fields_and_the_vector() -> None:
    assert TRANSFER_TABLES["memories"] == (*STORED_FIELDS, *VECTOR_COLUMNS)


def test_every_stored_field_leaves_in_the_export_as_sqlite_stores_it(store: MemoryStore) -> None:
    memory = unusual_memory()
    store.add(memory, _vector())
    (record,) = [r for batch in store.export_records("memories") for r in batch]
    assert tuple(record) == TRANSFER_TABLES["memories"]
    assert [record[c] for c in STORED_FIELDS] == list(memory_values(memory))


def test_every_stored_field_survives_a_move_to_postgres(tmp_path: Path, pg_url: str) -> None:
    from custom_components.memory.engine.store.postgres import PostgresStore  # noqa: PLC0415

    memory = unusual_memory()
    source, target = SqliteStore(tmp_path / "memory.db"), PostgresStore(pg_url, household="home")
    source.open(IDENTITY)
    target.open(IDENTITY)
    try:
        source.add(memory, _vector())
        for batch in source.export_records("memories"):
            target.import_records("memories", batch)
        back = target.get(memory.id, ADMIN)
        assert back is not None and _stored(back) == _stored(memory)
    finally:
        source.close()
        target.close()


# ---------------------------------------------------------------- what the doors show


def _renderings(value: Any) -> set[Any]:
    """The forms a serializer may give a value: as is, an enum's value, a moment's ISO text."""
    out = {value}
    if isinstance(value, Enum):
        out.add(value.value)
    if isinstance(value, datetime):
        out.add(value.isoformat())
    return out


def _leaves(shape: Any) -> set[Any]:
    """Every plain value in a JSON-like shape, nested ones too."""
    if isinstance(shape, dict):
        return set().union(*map(_leaves, shape.values()))
    if isinstance(shape, list | tuple):
        return set().union(*map(_leaves, shape))
    return {shape}


def test_service_responses_show_each_stored_field_or_say_they_do_not() -> None:
    """responses.memory_dict (the services' shape of a memory), read as it is now: a stored field
    is shown when its value comes out (under any key), else it is in SERVICE_NOT_SHOWN. The memory
    is one told to the caller (its unstored fields at their defaults: nothing withheld)."""
    from custom_components.memory.responses import memory_dict  # noqa: PLC0415 - the HA side

    memory = Memory(**_stored(unusual_memory()))
    said = _leaves(memory_dict(memory))
    shown = {name for name in STORED_FIELDS if _renderings(getattr(memory, name)) & said}
    assert shown | SERVICE_NOT_SHOWN >= set(STORED_FIELDS), "show a new field or add it to SERVICE_NOT_SHOWN"
    assert not shown & SERVICE_NOT_SHOWN, "shown now: take it out of SERVICE_NOT_SHOWN"


def _ts_interface(name: str) -> set[str]:
    """The member names of `export interface <name>` in the panel's frontend/src/api.ts."""
    source = (ROOT / "frontend" / "src" / "api.ts").read_text(encoding="utf-8")
    body = re.search(rf"export interface {name} \{{(.*?)\n\}}", source, re.S)
    assert body is not None, name
    return set(re.findall(r"^  (\w+)\??:", body.group(1), re.M))


def _view_keys() -> tuple[set[str], set[str]]:
    """The keys of the MemoryView views.py renders (its `view` function's dict) and of its
    said_by."""
    tree = ast.parse((ROOT / "custom_components" / "memory" / "views.py").read_text(encoding="utf-8"))
    view = next(n for n in ast.walk(tree) if isinstance(n, ast.FunctionDef) and n.name == "view")
    shape = next(n.value for n in ast.walk(view) if isinstance(n, ast.Return))
    assert isinstance(shape, ast.Dict)
    keys = {k.value for k in shape.keys if isinstance(k, ast.Constant)}
    nested = next(v for k, v in zip(shape.keys, shape.values, strict=True)
                  if isinstance(k, ast.Constant) and k.value == "said_by")  # fmt: skip
    assert isinstance(nested, ast.Dict)
    return keys, {k.value for k in nested.keys if isinstance(k, ast.Constant)}


def test_panel_type_shows_each_stored_field_or_says_it_does_not() -> None:
    members = _ts_interface("MemoryView")
    shown = {name for name in STORED_FIELDS if PANEL_RENAMED.get(name, name) in members}
    assert shown | PANEL_NOT_SHOWN >= set(STORED_FIELDS), "new field: add it to MemoryView in api.ts"
    assert not shown & PANEL_NOT_SHOWN


def test_panel_type_is_what_the_websocket_api_sends() -> None:
    keys, said_by = _view_keys()
    assert keys == _ts_interface("MemoryView")
    assert said_by == _ts_interface("SaidBy")


# ---------------------------------------------------------------- the extraction schema


def test_extraction_schema_asks_for_memory_fields_the_parser_reads() -> None:
    asked = set(CANDIDATE_SCHEMA["properties"])
    assert asked - EXTRACTION_HINTS <= set(STORED_FIELDS)
    assert asked == {f.name for f in fields(ExtractedFact)}
    kinds = CANDIDATE_SCHEMA["properties"]["kind"]["enum"]
    assert kinds == [k.value for k in Kind if k is not Kind.EPISODE]  # an episode is never extracted


def test_extraction_structure_is_the_schema() -> None:
    """The AI Task's structure (extraction_job, HA selectors) asks what EXTRACTION_SCHEMA asks;
    the limit is one constant in schema, structure and prompt."""
    from custom_components.memory.extraction_job import (  # noqa: PLC0415 - the HA side
        EXTRACTION_STRUCTURE,
        instructions,
    )

    keys = {str(k): k for k in EXTRACTION_STRUCTURE.schema}
    assert set(keys) == set(EXTRACTION_SCHEMA["properties"])
    fields_ = EXTRACTION_STRUCTURE.schema[keys["memories"]].config["fields"]
    assert list(fields_) == list(CANDIDATE_SCHEMA["properties"])
    assert {f for f, spec in fields_.items() if spec["required"]} == set(CANDIDATE_SCHEMA["required"])
    assert EXTRACTION_SCHEMA["properties"]["memories"]["maxItems"] == MAX_CANDIDATES
    assert f"at most {MAX_CANDIDATES}" in keys["memories"].description.lower()
    assert f"at most {MAX_CANDIDATES}" in instructions("I like tea.", "en").lower()


# ---------------------------------------------------------------- the kinds


def test_every_kind_is_offered_and_named_wherever_kinds_are_listed() -> None:
    """Kind is enumerated in code (`[k.value for k in Kind]`); the lists outside Python name each
    kind too: the panel's KINDS and its labels, the remember service's choices and their names in
    every language (docs/architecture.md, "Adding a kind")."""
    kinds = {k.value for k in Kind}
    panel = re.search(
        r"export const KINDS = \[(.*?)\]", (ROOT / "frontend/src/api.ts").read_text(encoding="utf-8")
    )
    assert panel is not None and set(re.findall(r'"(\w+)"', panel.group(1))) == kinds
    for labels in sorted((ROOT / "frontend/src/translations").glob("*.json")):
        named = {
            k.removeprefix("kind.")
            for k in json.loads(labels.read_text(encoding="utf-8"))
            if k.startswith("kind.")
        }
        assert named == kinds, labels.name
    services = yaml.safe_load((ROOT / "custom_components/memory/services.yaml").read_text(encoding="utf-8"))
    assert set(services["remember"]["fields"]["kind"]["selector"]["select"]["options"]) == kinds
    component = ROOT / "custom_components/memory"
    for strings in [component / "strings.json", *sorted((component / "translations").glob("*.json"))]:
        names = json.loads(strings.read_text(encoding="utf-8"))["selector"]["kind"]["options"]
        assert set(names) == kinds, strings.name
