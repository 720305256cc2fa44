"""The embedded SQLite store (the default backend): SqliteStore, one class made of one part per
concern, all sharing the connections and the concurrency discipline of connection.SqliteConnection.

Every call is blocking and thread-safe (the HA side runs them on executor threads): one writer at
a time through the write gate, reads on their own connections beside it, the in-RAM index changed
only after a commit, inside the same critical section (connection.py). WAL + synchronous=FULL so
an acknowledged write survives a crash; secure_delete so forgotten text is zeroed rather than left
in free pages. Vectors of the active embedding
identity live in an in-memory VectorIndex; the lexical leg uses FTS5 bm25().

Modules (one job each):
- connection.py: open/close (migrations.py, quick_check, the index load), the write gate and
  write transactions, the file-identity check, read connections,
  access counts batched into the next write (touch).
- rows.py: row <-> record codecs; the visibility rule and "current" as this backend's SQL
  (store/sql.py compiles them: where_visible, where_current).
- index.py: the in-RAM vector index: its mode (exact/compact), loading, keeping rows in step.
- records.py: memories (MemoryRecords).
- vector_search.py, fulltext.py: the search legs (SearchLegs) from the index and from SQL.
- tombstones.py: forgetting (TombstoneStore). transcripts.py: TranscriptStore.
- voiceprints.py: VoiceprintStore. transfer.py: StoreTransfer (a move between stores).
- upkeep.py: re-embedding (stale, set_vector) and diagnostics (counts, footprint).

The visibility rule is never restated here: every read that returns memories applies
rows.where_visible (SQL) or VectorIndex.granted (the index), both compiled from
Visibility.grants().
"""

from __future__ import annotations

from ..base import MemoryStore
from .fulltext import SqliteFulltext
from .records import SqliteRecords
from .tombstones import SqliteTombstones
from .transcripts import SqliteTranscripts
from .transfer import SqliteTransfer
from .upkeep import SqliteUpkeep
from .vector_search import SqliteVectorSearch
from .voiceprints import SqliteVoiceprints

__all__ = ["SqliteStore"]


class SqliteStore(
    SqliteRecords,
    SqliteVectorSearch,
    SqliteFulltext,
    SqliteTombstones,
    SqliteTranscripts,
    SqliteVoiceprints,
    SqliteTransfer,
    SqliteUpkeep,
):
    """MemoryStore and StoreTransfer over one SQLite file (see the package docstring).

    SqliteStore(path) is unopened; open(identity) creates/migrates the file and loads the index."""


def _implements_the_protocol(store: SqliteStore) -> MemoryStore:
    """Never called: mypy checks here that SqliteStore is structurally a MemoryStore."""
    return store
