"""The PostgreSQL + pgvector store: SqliteStore's behaviour on a server several households share.

Blocking API over psycopg 3 async: the store owns one private event loop on one daemon thread
(LoopThread: started by open(), stopped and joined by close()); every method submits a coroutine
to it and waits with a timeout. Connections come from a psycopg_pool.AsyncConnectionPool that
checks each connection before lending it, so after a server restart it reconnects by itself.
Every connection, timeout or server error becomes StoreUnavailable, with a message that never
holds the URL or the password.

Tenancy: every table has a `household` column, set from the connection's `memory.household`
(each pooled connection is configured with the store's household) and `_mine(alias)` is the one
condition every query carries. Visibility is store/sql.py's compilation (mark "%s"), nothing else.

Vectors: `embedding vector` without a fixed dimension, with the embedding identity on each row; for
the active identity's dimension d a partial HNSW index on `embedding::vector(d)` (cosine) is made
at open, searched with `hnsw.iterative_scan = relaxed_order`, so filtered searches (visibility,
current, household) still fill their top-k; the rows are re-sorted by their exact distance.

Full text: the engine tokenises (fts_tokens: the tokens of SQLite FTS5's unicode61 tokenizer) and
the store keeps tsvectors of those tokens (positions kept) for the content (anchors: lexical) and
for terms.document_terms (term_matches); both score with FTS5's bm25() formula over the
household's rows (counts kept in memory_stats by a trigger), so ranks equal SQLite's.

Deleting: a deleted row leaves every query at once and the disk at the next (auto)vacuum;
PostgreSQL has no secure_delete (SqliteStore zeroes freed pages), its WAL and backups keep old
pages as long as the server's settings say.

Modules (one job each, as in store/sqlite/):
- connection.py: the loop bridge (LoopThread), the pool, open/close (migrations.py), write
  transactions, reads, access counts batched into the next write (touch).
- rows.py: row <-> record codecs, the memory columns, the tenancy condition (mine).
- records.py: memories (MemoryRecords).
- vector_search.py, fulltext.py: the search legs (SearchLegs) from pgvector and from full text.
- recall_batch.py: a recall's reads in two round trips (BatchedReads), from those legs' statements.
- tombstones.py: forgetting (TombstoneStore). transcripts.py: TranscriptStore.
- voiceprints.py: VoiceprintStore. transfer.py: StoreTransfer (a move between stores).
- upkeep.py: re-embedding (stale, set_vector) and diagnostics (counts).
- migrations.py: the versioned schema. check.py: the config flow's server check.
"""

from __future__ import annotations

from ..base import MemoryStore
from .recall_batch import PostgresRecallBatch
from .records import PostgresRecords
from .tombstones import PostgresTombstones
from .transcripts import PostgresTranscripts
from .transfer import PostgresTransfer
from .upkeep import PostgresUpkeep
from .voiceprints import PostgresVoiceprints

__all__ = ["PostgresStore"]


class PostgresStore(
    PostgresRecords,
    PostgresRecallBatch,
    PostgresTombstones,
    PostgresTranscripts,
    PostgresVoiceprints,
    PostgresTransfer,
    PostgresUpkeep,
):
    """MemoryStore (with VoiceprintStore and StoreTransfer) on PostgreSQL with pgvector; see the
    package docstring.

    PostgresStore(url, household=...) is unopened; open(identity) migrates and opens the pool."""


def _implements_the_protocol(store: PostgresStore) -> MemoryStore:
    """Never called: mypy checks here that PostgresStore is structurally a MemoryStore."""
    return store
