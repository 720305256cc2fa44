"""SQLite schema migrations: an ordered list of functions, one per version.

Version N is reached by running MIGRATIONS[N-1] on a database at version N-1, each
in its own transaction together with the version bump. A later change is one more
function appended here plus one test that a database of the previous version upgrades.
A step keeps meaning what it meant: what it needs of the engine's rules is copied in beside it
(`_v4_…`, `_v6_…`), so a later change of those rules cannot change how an old file migrates.
"""

from __future__ import annotations

import re
import sqlite3
from collections.abc import Callable

from .. import language as lang_rules

FTS_TOKENIZER = "unicode61 remove_diacritics 0"  # keep ß/ä/é: Python tokens must match FTS terms


def _v1_initial(conn: sqlite3.Connection) -> None:
    """memories and tombstones (docs/design.md §4)."""
    conn.execute(
        """CREATE TABLE memories (
            id TEXT PRIMARY KEY,
            content TEXT NOT NULL,
            kind TEXT NOT NULL,
            language TEXT NOT NULL,
            provenance TEXT NOT NULL,
            scope TEXT NOT NULL,
            owner_id TEXT,
            area_id TEXT,
            subject TEXT,
            predicate TEXT,
            confidence REAL NOT NULL,
            importance REAL NOT NULL,
            sensitive INTEGER NOT NULL,
            status TEXT NOT NULL,
            superseded_by TEXT,
            valid_from TEXT,
            valid_to TEXT,
            source TEXT NOT NULL,
            source_ref TEXT,
            access_count INTEGER NOT NULL DEFAULT 0,
            last_accessed_at TEXT,
            created_at TEXT NOT NULL,
            updated_at TEXT NOT NULL,
            embedding BLOB,
            emb_provider TEXT,
            emb_model TEXT,
            emb_dimension INTEGER
        )"""
    )
    conn.execute("CREATE INDEX memories_scope_owner ON memories(scope, owner_id)")
    conn.execute("CREATE INDEX memories_created ON memories(created_at)")
    conn.execute(
        """CREATE TABLE tombstones (
            id TEXT PRIMARY KEY,
            scope TEXT NOT NULL,
            owner_id TEXT,
            area_id TEXT,
            embedding BLOB NOT NULL,
            emb_provider TEXT NOT NULL,
            emb_model TEXT NOT NULL,
            emb_dimension INTEGER NOT NULL,
            created_at TEXT NOT NULL,
            lifted_at TEXT
        )"""
    )
    conn.execute("CREATE INDEX tombstones_scope_owner ON tombstones(scope, owner_id)")


def _v2_fulltext(conn: sqlite3.Connection) -> None:
    """FTS5 index over content for the lexical recall leg (rowid = memories.rowid), backfilled."""
    conn.execute(f"CREATE VIRTUAL TABLE memories_fts USING fts5(content, tokenize='{FTS_TOKENIZER}')")
    conn.execute("INSERT INTO memories_fts(rowid, content) SELECT rowid, content FROM memories")


def _v3_transcripts(conn: sqlite3.Connection) -> None:
    """Verbatim conversation turns (docs/learning.md); purged by age, never by forgetting."""
    conn.execute(
        """CREATE TABLE transcript_turns (
            conversation_id TEXT NOT NULL,
            turn INTEGER NOT NULL,
            role TEXT NOT NULL,
            text TEXT NOT NULL,
            speaker_id TEXT,
            area_id TEXT,
            language TEXT NOT NULL,
            created_at TEXT NOT NULL,
            PRIMARY KEY (conversation_id, turn)
        )"""
    )
    conn.execute("CREATE INDEX transcript_turns_created ON transcript_turns(created_at)")


# What _v4_fact_values normalises with: facts.fact_subject/fact_predicate as they were when
# version 4 was the newest, frozen here so a later change of facts.py cannot change what
# migrating an old file produces.
_V4_FIRST_PERSON = frozenset({
    "conmigo", "i", "i'", "ich", "im", "io", "j'", "je", "m'", "ma", "me", "mein", "meine", "meinem",
    "meinen", "meiner", "meines", "meins", "mes", "mi", "mia", "mich", "mie", "miei", "mine", "mio",
    "mir", "mis", "moi", "mon", "my", "myself", "mí", "mía", "mías", "mío", "míos", "speaker",
    "the person speaking", "the speaker", "the user", "user", "yo",
})  # fmt: skip
_V4_NON_WORD = re.compile(r"[\W_]+")


def _v4_fact_subject(subject: str | None) -> str | None:
    """The subject casefolded, whitespace collapsed; a first-person form becomes "me"."""
    if subject is None:
        return None
    folded = " ".join(subject.casefold().split())
    if not folded:
        return None
    return "me" if folded in _V4_FIRST_PERSON else folded


def _v4_fact_predicate(predicate: str | None) -> str | None:
    """The predicate casefolded, each run of non-alphanumerics one "_"."""
    if predicate is None:
        return None
    return "_".join(_V4_NON_WORD.sub(" ", predicate.casefold()).split()) or None


def _v4_fact_values(conn: sqlite3.Connection) -> None:
    """The value of a fact (supersession, docs/design.md §6) and an index for finding the current
    memories of one fact key (bucket, subject, predicate); existing keys are normalised so the
    index finds them (_v4_fact_subject/_v4_fact_predicate, both idempotent)."""
    conn.execute("ALTER TABLE memories ADD COLUMN value TEXT")
    rows = conn.execute(
        "SELECT id, subject, predicate FROM memories WHERE subject IS NOT NULL OR predicate IS NOT NULL"
    ).fetchall()
    conn.executemany(
        "UPDATE memories SET subject = ?, predicate = ? WHERE id = ?",
        [(_v4_fact_subject(subject), _v4_fact_predicate(predicate), mid) for mid, subject, predicate in rows],
    )
    conn.execute(
        "CREATE INDEX memories_fact_key ON memories(predicate, subject, scope, owner_id, area_id, status)"
    )


def _v5_tombstone_anchors(conn: sqlite3.Connection) -> None:
    """Keyed digests of a forgotten text's identifiers (forgetting.anchor_digests), space-separated;
    NULL for tombstones made before (their text is gone, nothing to derive them from)."""
    conn.execute("ALTER TABLE tombstones ADD COLUMN anchors TEXT")


def _v6_document_terms(text: str, language: str | None) -> str:
    """terms.document_terms as it was when version 6 was the newest (frozen here, so a change of
    terms.py cannot change what v6 writes): stems of the content words in the text's language.
    The language rules it reads still move (language.py); _v11 writes these rows again."""
    known = lang_rules.lexical_language(text, language)
    function_words = lang_rules.function_words(known)
    words = [w for w in lang_rules.words(text) if w.isdigit() or w not in function_words]
    return " ".join(lang_rules.stem(known, w) for w in words) if known is not None else " ".join(words)


def _v6_terms_and_context(conn: sqlite3.Connection) -> None:
    """Stemmed search terms of each memory (_v6_document_terms, the full-text recall leg) in an
    FTS5 table (rowid = memories.rowid), backfilled; and an index for conversation context
    (memories of one source_ref in time order)."""
    conn.execute(f"CREATE VIRTUAL TABLE memories_terms USING fts5(terms, tokenize='{FTS_TOKENIZER}')")
    rows = conn.execute("SELECT rowid, content, language FROM memories").fetchall()
    conn.executemany(
        "INSERT INTO memories_terms(rowid, terms) VALUES (?, ?)",
        [(rowid, _v6_document_terms(content, language)) for rowid, content, language in rows],
    )
    conn.execute("CREATE INDEX memories_source_ref ON memories(source_ref, created_at)")


def _v7_speaker(conn: sqlite3.Connection) -> None:
    """Who said each memory (provenance: the recognised person's id; recall's "named" factor).
    NULL for memories stored before: who said them was never recorded."""
    conn.execute("ALTER TABLE memories ADD COLUMN speaker_id TEXT")
    conn.execute("CREATE INDEX memories_speaker ON memories(speaker_id) WHERE speaker_id IS NOT NULL")


def _v8_pair_verdicts(conn: sqlite3.Connection) -> None:
    """Verdicts on pairs of memories without a fact key (an AI Task's or a person's: same, replaces,
    adds_detail, unrelated), so consolidation does not report or ask about a judged pair again.
    Ids only, first_id < second_id; a verdict goes with either memory (forgetting, pruning)."""
    conn.execute(
        """CREATE TABLE pair_verdicts (
            first_id TEXT NOT NULL REFERENCES memories(id) ON DELETE CASCADE,
            second_id TEXT NOT NULL REFERENCES memories(id) ON DELETE CASCADE,
            relation TEXT NOT NULL,
            judged_at TEXT NOT NULL,
            PRIMARY KEY (first_id, second_id)
        )"""
    )
    conn.execute("CREATE INDEX pair_verdicts_second ON pair_verdicts(second_id)")


def _v9_voice(conn: sqlite3.Connection) -> None:
    """Enrolled voices (one voiceprint per person: the unit float32 vector as little-endian bytes,
    the clip count and the voice model's identity; deleted with the person) and how the speaker
    of each transcript turn was recognised (NULL for turns recorded before: never recorded)."""
    conn.execute(
        """CREATE TABLE voiceprints (
            person_id TEXT PRIMARY KEY,
            vector BLOB NOT NULL,
            clips INTEGER NOT NULL,
            embedding TEXT NOT NULL,
            created_at TEXT NOT NULL,
            updated_at TEXT NOT NULL
        )"""
    )
    conn.execute("ALTER TABLE transcript_turns ADD COLUMN speaker_source TEXT")


def _v10_anchor_check(conn: sqlite3.Connection) -> None:
    """The check value of the anchor key that keys this file's tombstone digests (one row;
    forgetting.anchor_check), so an installation opening the file with another key knows."""
    conn.execute("CREATE TABLE anchor_check (id INTEGER PRIMARY KEY CHECK (id = 1), value TEXT NOT NULL)")


def _v11_terms_of_every_language(conn: sqlite3.Connection) -> None:
    """Both FTS5 tables made again for every memory (engine/language.py: a text's words in its
    detected language, Chinese/Japanese runs as bigrams, scripts without spaces set apart from
    identifiers so FTS5 sees "hx", "4471" inside a Chinese sentence). Today's indexer on purpose:
    the newest rebuild must write what recall reads; a change of the indexer appends another
    rebuild and freezes what this one needs, as _v4 and _v6 are."""
    from .sqlite.fulltext import fts_drop, fts_put_text  # noqa: PLC0415 - the one indexer

    rows = conn.execute("SELECT rowid, content, language, id FROM memories").fetchall()
    for rowid, content, language, memory_id in rows:  # the postings are loaded after migrating
        fts_drop(conn, rowid)
        fts_put_text(conn, rowid, content, language, memory_id)


MIGRATIONS: list[Callable[[sqlite3.Connection], None]] = [
    _v1_initial,
    _v2_fulltext,
    _v3_transcripts,
    _v4_fact_values,
    _v5_tombstone_anchors,
    _v6_terms_and_context,
    _v7_speaker,
    _v8_pair_verdicts,
    _v9_voice,
    _v10_anchor_check,
    _v11_terms_of_every_language,
]
SCHEMA_VERSION = len(MIGRATIONS)


class SchemaTooNew(Exception):
    """The file was written by a newer version of the integration."""


def current_version(conn: sqlite3.Connection) -> int:
    """The database's schema version; 0 for a new file."""
    row = conn.execute(
        "SELECT name FROM sqlite_master WHERE type='table' AND name='schema_version'"
    ).fetchone()
    if row is None:
        return 0
    got = conn.execute("SELECT max(version) FROM schema_version").fetchone()
    return int(got[0] or 0)


def migrate(conn: sqlite3.Connection, target: int = SCHEMA_VERSION) -> int:
    """Bring the database (autocommit connection) up to `target`; returns the version reached.

    Raises SchemaTooNew when the file is newer than this code; sqlite3.Error on failure
    (the failing step is rolled back, earlier steps stay committed).
    """
    version = current_version(conn)
    if version > SCHEMA_VERSION:
        raise SchemaTooNew(f"schema {version} > supported {SCHEMA_VERSION}")
    if version == 0:
        conn.execute("CREATE TABLE IF NOT EXISTS schema_version (version INTEGER NOT NULL)")
    while version < target:
        step = MIGRATIONS[version]
        conn.execute("BEGIN IMMEDIATE")
        try:
            step(conn)
            conn.execute("DELETE FROM schema_version")
            conn.execute("INSERT INTO schema_version(version) VALUES (?)", (version + 1,))
        except BaseException:
            conn.execute("ROLLBACK")
            raise
        conn.execute("COMMIT")
        version += 1
    return version
