"""PostgreSQL schema migrations: an ordered list of functions, one per version.

Version N is reached by running MIGRATIONS[N-1] on a database at version N-1, in one transaction
together with its row in `schema_migrations`. Every step first takes a transaction-level advisory
lock (MIGRATION_LOCK) and re-reads the version under it, so two instances opening one database at
once migrate it once: the second waits, then finds the work done. A later change is one more
function appended here plus a test that a database of the previous version upgrades; what a
step needs of the engine's rules is copied in beside it, so it keeps meaning what it meant.

Every table carries a `household` key (several Home Assistant instances may share one database,
each seeing only its household; store/postgres/ adds the condition to every query). Its default
is the connection's `memory.household` setting, which the store sets on each connection it opens.
Text columns are COLLATE "C": ids and keys compare and sort bytewise, as in SQLite.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable

from psycopg import AsyncConnection

# pg_advisory_xact_lock(classid, objid) keys of this integration ("memo" as a 32-bit integer)
LOCK_CLASS = 0x6D656D6F
MIGRATION_LOCK = 1  # objid: schema changes (migrations, per-dimension vector indexes)
# classid for numbering the turns of one conversation (store/postgres/), objid: a hash of
# household and conversation id (a collision only makes two conversations wait for each other)
TRANSCRIPT_LOCK_CLASS = LOCK_CLASS + 1

_HOUSEHOLD = "household text COLLATE \"C\" NOT NULL DEFAULT current_setting('memory.household')"
_TEXT = 'text COLLATE "C"'

# memory_stats += the per-household sums of a (household, n, c, t) row source: rows, content
# tokens, terms tokens (memory_stats_keep)
_STATS_UPSERT = (
    "INSERT INTO memory_stats AS s (household, docs, content_tokens, terms_tokens) "
    "SELECT household, sum(n), sum(c), sum(t) FROM ({}) AS d(household, n, c, t) GROUP BY household "
    "HAVING sum(n) <> 0 OR sum(c) <> 0 OR sum(t) <> 0 "
    "ON CONFLICT (household) DO UPDATE SET docs = s.docs + excluded.docs, "
    "content_tokens = s.content_tokens + excluded.content_tokens, "
    "terms_tokens = s.terms_tokens + excluded.terms_tokens"
)

# HNSW graph: links per node (pgvector's default) and build candidates (default 64). Memories of
# several languages and sources form clusters the default graph links poorly: at ef_construction
# 64 some queries found none of their exact top-10 (10k and 100k rows, bench/recall_latency.py);
# at 128 recall@10 is ≥ 0.99 with a build about 30 % longer (docs/postgresql.md, "Tuning").
HNSW_M, HNSW_EF_CONSTRUCTION = 16, 128

type Step = Callable[[AsyncConnection], Awaitable[None]]


async def _v1_initial(conn: AsyncConnection) -> None:
    """Every table of the SQLite schema at its version 9 (store/migrations.py), with a household
    key, native types (timestamptz, double precision, boolean, vector, bytea) and the full-text
    columns the store fills from the engine's own tokens (tsvectors, token counts) plus
    `memory_stats`, the per-household row and token totals BM25 needs, kept by a trigger."""
    await conn.execute("CREATE EXTENSION IF NOT EXISTS vector")
    await conn.execute(
        f"""CREATE TABLE memories (
            {_HOUSEHOLD},
            id {_TEXT} NOT NULL,
            seq bigint GENERATED ALWAYS AS IDENTITY,
            content text NOT NULL,
            kind {_TEXT} NOT NULL,
            language {_TEXT} NOT NULL,
            provenance {_TEXT} NOT NULL,
            scope {_TEXT} NOT NULL,
            owner_id {_TEXT},
            area_id {_TEXT},
            subject {_TEXT},
            predicate {_TEXT},
            confidence double precision NOT NULL,
            importance double precision NOT NULL,
            sensitive boolean NOT NULL,
            status {_TEXT} NOT NULL,
            superseded_by {_TEXT},
            valid_from timestamptz,
            valid_to timestamptz,
            source {_TEXT} NOT NULL,
            source_ref {_TEXT},
            access_count integer NOT NULL DEFAULT 0,
            last_accessed_at timestamptz,
            created_at timestamptz NOT NULL,
            updated_at timestamptz NOT NULL,
            value {_TEXT},
            speaker_id {_TEXT},
            embedding vector,
            emb_provider {_TEXT},
            emb_model {_TEXT},
            emb_dimension integer,
            content_tsv tsvector NOT NULL,
            content_len integer NOT NULL,
            terms {_TEXT} NOT NULL,
            terms_tsv tsvector NOT NULL,
            terms_len integer NOT NULL,
            PRIMARY KEY (household, id)
        )"""
    )
    for name, columns in {
        "memories_scope_owner": "household, scope, owner_id",
        "memories_created": "household, created_at",
        "memories_fact_key": "household, predicate, subject, scope, owner_id, area_id, status",
        "memories_source_ref": "household, source_ref, created_at",
        "memories_superseded_by": "household, superseded_by",
    }.items():
        await conn.execute(f"CREATE INDEX {name} ON memories ({columns})")
    await conn.execute(
        "CREATE INDEX memories_speaker ON memories (household, speaker_id) WHERE speaker_id IS NOT NULL"
    )
    await conn.execute("CREATE INDEX memories_content_tsv ON memories USING gin (content_tsv)")
    await conn.execute("CREATE INDEX memories_terms_tsv ON memories USING gin (terms_tsv)")
    await conn.execute(
        f"""CREATE TABLE memory_stats (
            household {_TEXT} PRIMARY KEY,
            docs bigint NOT NULL,
            content_tokens bigint NOT NULL,
            terms_tokens bigint NOT NULL
        )"""
    )
    # Statement-level with transition tables: a bulk insert (COPY) updates a household's totals
    # once, not once a row (repeated updates of one row in one transaction grow a version chain);
    # an update that changes no token count writes nothing.
    await conn.execute(
        f"""CREATE FUNCTION memory_stats_keep() RETURNS trigger LANGUAGE plpgsql AS $$
        BEGIN
            IF TG_OP = 'INSERT' THEN
                {_STATS_UPSERT.format("SELECT household, 1, content_len, terms_len FROM new_rows")};
            ELSIF TG_OP = 'DELETE' THEN
                {_STATS_UPSERT.format("SELECT household, -1, -content_len, -terms_len FROM old_rows")};
            ELSE
                {_STATS_UPSERT.format("SELECT household, 0, content_len, terms_len FROM new_rows UNION ALL "
                                      "SELECT household, 0, -content_len, -terms_len FROM old_rows")};
            END IF;
            RETURN NULL;
        END $$"""
    )  # fmt: skip
    for event, tables in (("INSERT", "NEW TABLE AS new_rows"), ("DELETE", "OLD TABLE AS old_rows"),
                          ("UPDATE", "OLD TABLE AS old_rows NEW TABLE AS new_rows")):  # fmt: skip
        await conn.execute(
            f"CREATE TRIGGER memories_stats_{event.lower()} AFTER {event} ON memories REFERENCING {tables} "
            "FOR EACH STATEMENT EXECUTE FUNCTION memory_stats_keep()"
        )
    # How often a phrase (its lexemes in order) occurs in a tsvector: FTS5's phrase frequency,
    # the tf of BM25 (a one-word phrase: that word's positions).
    await conn.execute(
        """CREATE FUNCTION memory_phrase_tf(doc tsvector, phrase text[]) RETURNS integer
        LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$
            SELECT count(*)::integer
            FROM unnest(doc) AS first(lexeme, positions, weights), unnest(first.positions) AS p(at)
            WHERE first.lexeme = phrase[1] AND NOT EXISTS (
                SELECT 1 FROM generate_subscripts(phrase, 1) AS j(i)
                WHERE j.i > 1 AND NOT EXISTS (
                    SELECT 1 FROM unnest(doc) AS d(lexeme, positions, weights)
                    WHERE d.lexeme = phrase[j.i] AND (p.at + j.i - 1)::smallint = ANY (d.positions)))
        $$"""
    )
    await conn.execute(
        f"""CREATE TABLE tombstones (
            {_HOUSEHOLD},
            id {_TEXT} NOT NULL,
            scope {_TEXT} NOT NULL,
            owner_id {_TEXT},
            area_id {_TEXT},
            embedding vector NOT NULL,
            emb_provider {_TEXT} NOT NULL,
            emb_model {_TEXT} NOT NULL,
            emb_dimension integer NOT NULL,
            created_at timestamptz NOT NULL,
            lifted_at timestamptz,
            anchors {_TEXT},
            PRIMARY KEY (household, id)
        )"""
    )
    await conn.execute("CREATE INDEX tombstones_scope_owner ON tombstones (household, scope, owner_id)")
    await conn.execute(
        f"""CREATE TABLE transcript_turns (
            {_HOUSEHOLD},
            conversation_id {_TEXT} NOT NULL,
            turn integer NOT NULL,
            role {_TEXT} NOT NULL,
            text text NOT NULL,
            speaker_id {_TEXT},
            area_id {_TEXT},
            language {_TEXT} NOT NULL,
            created_at timestamptz NOT NULL,
            speaker_source {_TEXT},
            PRIMARY KEY (household, conversation_id, turn)
        )"""
    )
    await conn.execute("CREATE INDEX transcript_turns_created ON transcript_turns (household, created_at)")
    await conn.execute(
        f"""CREATE TABLE voiceprints (
            {_HOUSEHOLD},
            person_id {_TEXT} NOT NULL,
            vector bytea NOT NULL,
            clips integer NOT NULL,
            embedding {_TEXT} NOT NULL,
            created_at timestamptz NOT NULL,
            updated_at timestamptz NOT NULL,
            PRIMARY KEY (household, person_id)
        )"""
    )
    await conn.execute(
        f"""CREATE TABLE pair_verdicts (
            {_HOUSEHOLD},
            first_id {_TEXT} NOT NULL,
            second_id {_TEXT} NOT NULL,
            relation {_TEXT} NOT NULL,
            judged_at timestamptz NOT NULL,
            PRIMARY KEY (household, first_id, second_id),
            FOREIGN KEY (household, first_id) REFERENCES memories (household, id) ON DELETE CASCADE,
            FOREIGN KEY (household, second_id) REFERENCES memories (household, id) ON DELETE CASCADE
        )"""
    )
    await conn.execute("CREATE INDEX pair_verdicts_second ON pair_verdicts (household, second_id)")


async def _v2_term_postings(conn: AsyncConnection) -> None:
    """`memory_terms`: one row per (memory, distinct term of its terms_tsv) with the term's
    frequency there and the memory's seq and terms_len (postings score and order without reading
    the memories), so term_matches reads only the postings of the query's terms (an index range
    each) instead of matching and unnesting every row's tsvector. Kept by triggers in the same
    transaction as every insert (COPY included: statement-level, transition tables), delete and
    change of terms_tsv; filled here from the existing rows."""
    await conn.execute(
        f"""CREATE TABLE memory_terms (
            household {_TEXT} NOT NULL,
            term {_TEXT} NOT NULL,
            id {_TEXT} NOT NULL,
            seq bigint NOT NULL,
            tf integer NOT NULL,
            len integer NOT NULL,
            PRIMARY KEY (household, term, id) INCLUDE (seq, tf, len)
        )"""
    )
    await conn.execute("CREATE INDEX memory_terms_memory ON memory_terms (household, id)")
    postings = (
        "SELECT r.household, u.lexeme, r.id, r.seq, cardinality(u.positions), r.terms_len "
        "FROM {} r, unnest(r.terms_tsv) u"
    )
    await conn.execute(
        f"""CREATE FUNCTION memory_terms_keep() RETURNS trigger LANGUAGE plpgsql AS $$
        BEGIN
            IF TG_OP = 'INSERT' THEN
                INSERT INTO memory_terms (household, term, id, seq, tf, len) {postings.format("new_rows")};
            ELSIF TG_OP = 'DELETE' THEN
                DELETE FROM memory_terms t USING old_rows o WHERE t.household = o.household AND t.id = o.id;
            ELSE
                DELETE FROM memory_terms t WHERE t.household = OLD.household AND t.id = OLD.id;
                INSERT INTO memory_terms (household, term, id, seq, tf, len)
                    SELECT NEW.household, u.lexeme, NEW.id, NEW.seq, cardinality(u.positions), NEW.terms_len
                    FROM unnest(NEW.terms_tsv) u;
                RETURN NULL;
            END IF;
            RETURN NULL;
        END $$"""
    )
    for event, tables in (("INSERT", "NEW TABLE AS new_rows"), ("DELETE", "OLD TABLE AS old_rows")):
        await conn.execute(
            f"CREATE TRIGGER memories_terms_{event.lower()} AFTER {event} ON memories REFERENCING {tables} "
            "FOR EACH STATEMENT EXECUTE FUNCTION memory_terms_keep()"
        )
    await conn.execute(
        "CREATE TRIGGER memories_terms_update AFTER UPDATE OF id, household, terms_tsv, terms_len "
        "ON memories FOR EACH ROW WHEN (OLD.terms_tsv IS DISTINCT FROM NEW.terms_tsv "
        "OR OLD.id IS DISTINCT FROM NEW.id "
        "OR OLD.household IS DISTINCT FROM NEW.household OR OLD.terms_len IS DISTINCT FROM NEW.terms_len) "
        "EXECUTE FUNCTION memory_terms_keep()"
    )
    await conn.execute(
        f"INSERT INTO memory_terms (household, term, id, seq, tf, len) {postings.format('memories')}"
    )


async def _v3_room_for_access_counts(conn: AsyncConnection) -> None:
    """memories pages keep 20 % free, so recall's access-count updates (no indexed column changes)
    are heap-only (HOT): the new row version stays on its page and no index gets an entry for it
    (otherwise every recalled memory leaves a dead version in the HNSW graph until vacuum).
    Existing pages get the room as they are rewritten (VACUUM FULL)."""
    await conn.execute("ALTER TABLE memories SET (fillfactor = 80)")


async def _v4_denser_vector_graphs(conn: AsyncConnection) -> None:
    """Drop the HNSW indexes built with pgvector's default ef_construction (64): open() builds
    them again with HNSW_EF_CONSTRUCTION (ensure_vector_index)."""
    await _drop_vector_graphs(conn)


async def _drop_vector_graphs(conn: AsyncConnection) -> None:
    """Drop every HNSW index of memories (open() builds the active dimension's again)."""
    cur = await conn.execute(
        "SELECT indexname FROM pg_indexes WHERE schemaname = current_schema() AND tablename = 'memories' "
        "AND indexname LIKE 'memories\\_embedding\\_%'"
    )
    for (name,) in await cur.fetchall():
        await conn.execute(f'DROP INDEX "{name}"')


async def _v5_access_counts_apart(conn: AsyncConnection) -> None:
    """Recall's access counts move to `memory_access` (one small row per memory ever recalled):
    counting an access no longer writes the memories row, whose new version missed the heap-only
    path whenever its page was full and then went into every index, the HNSW graph included (a
    flush of 256 counts took 0.7-1 s at 10k-100k rows, bench/recall_latency.py, 2026-12-01).
    The memories pages need no room kept free for them any more (v3 undone)."""
    await conn.execute(
        f"""CREATE TABLE memory_access (
            {_HOUSEHOLD},
            id {_TEXT} NOT NULL,
            access_count integer NOT NULL,
            last_accessed_at timestamptz,
            PRIMARY KEY (household, id),
            FOREIGN KEY (household, id) REFERENCES memories (household, id) ON DELETE CASCADE
        )"""
    )
    await conn.execute(
        "INSERT INTO memory_access (household, id, access_count, last_accessed_at) "
        "SELECT household, id, access_count, last_accessed_at FROM memories "
        "WHERE access_count <> 0 OR last_accessed_at IS NOT NULL"
    )
    await conn.execute("ALTER TABLE memories DROP COLUMN access_count, DROP COLUMN last_accessed_at")
    await conn.execute("ALTER TABLE memories RESET (fillfactor)")


async def _v6_vectors_in_the_row(conn: AsyncConnection) -> None:
    """Embeddings are kept in the memories row (STORAGE MAIN), not out of line in the TOAST
    table: a 512-d vector is 2 KB, above PostgreSQL's 2 KB TOAST threshold, so every vector a
    search returned was a second index lookup and read (semantic's 200 rows at 10k: 20 → 15 ms
    p50, docs/postgresql.md). Existing vectors are written again (subvector: the same values) with
    the HNSW indexes dropped first, so the rewrite does not walk the graph; open() builds them."""
    await _drop_vector_graphs(conn)
    await conn.execute("ALTER TABLE memories ALTER COLUMN embedding SET STORAGE MAIN")
    await conn.execute(
        "UPDATE memories SET embedding = subvector(embedding, 1, vector_dims(embedding)) "
        "WHERE embedding IS NOT NULL"
    )


async def _v7_anchor_checks(conn: AsyncConnection) -> None:
    """Per household, the check value of the anchor key that keys its tombstone digests
    (forgetting.anchor_check): the first installation to open a household claims it; another
    one sharing the household learns whether it holds the same key (never the key itself)."""
    await conn.execute(
        f"""CREATE TABLE anchor_checks (
            {_HOUSEHOLD} PRIMARY KEY,
            value {_TEXT} NOT NULL,
            claimed_at timestamptz NOT NULL DEFAULT now()
        )"""
    )


async def _v8_terms_of_every_language(conn: AsyncConnection) -> None:
    """The full-text columns made again for every memory (engine/language.py: a text's words in
    its detected language, Chinese/Japanese runs as bigrams, scripts without spaces set apart
    from identifiers); the memory_terms trigger rewrites the postings of each changed row. Today's
    term maker on purpose: the newest rebuild must write what recall reads; a change of it appends
    another rebuild and freezes what this one needs (as store/migrations.py's _v4 and _v6 are)."""
    from .fulltext import TEXT_COLUMNS, fulltext_columns  # noqa: PLC0415 - the one term maker

    cursor = await conn.execute("SELECT household, id, content, language FROM memories")
    rows = await cursor.fetchall()
    sets = ", ".join(f"{c} = %s::tsvector" if c.endswith("_tsv") else f"{c} = %s" for c in TEXT_COLUMNS)
    for household, mid, content, language in rows:
        await conn.execute(
            f"UPDATE memories SET {sets} WHERE household = %s AND id = %s",
            [*fulltext_columns(content, language), household, mid],
        )


MIGRATIONS: list[Step] = [
    _v1_initial,
    _v2_term_postings,
    _v3_room_for_access_counts,
    _v4_denser_vector_graphs,
    _v5_access_counts_apart,
    _v6_vectors_in_the_row,
    _v7_anchor_checks,
    _v8_terms_of_every_language,
]
SCHEMA_VERSION = len(MIGRATIONS)


class SchemaTooNew(Exception):
    """The database was written by a newer version of the integration."""


async def current_version(conn: AsyncConnection) -> int:
    """The database's schema version; 0 for a database this integration never used."""
    cur = await conn.execute("SELECT to_regclass('schema_migrations') IS NOT NULL")
    row = await cur.fetchone()
    if row is None or not row[0]:
        return 0
    cur = await conn.execute("SELECT coalesce(max(version), 0) FROM schema_migrations")
    got = await cur.fetchone()
    return int(got[0]) if got else 0


async def _locked(conn: AsyncConnection) -> None:
    """Take the migration lock for the running transaction (released at its end)."""
    await conn.execute("SELECT pg_advisory_xact_lock(%s, %s)", (LOCK_CLASS, MIGRATION_LOCK))


async def migrate(conn: AsyncConnection, target: int = SCHEMA_VERSION) -> int:
    """Bring the database up to `target` (an autocommit connection); returns the version reached.

    Raises SchemaTooNew when the database is newer than this code; psycopg.Error on failure (the
    failing step is rolled back, earlier steps stay committed)."""
    while True:
        async with conn.transaction():
            await _locked(conn)
            await conn.execute(
                "CREATE TABLE IF NOT EXISTS schema_migrations "
                "(version integer PRIMARY KEY, applied_at timestamptz NOT NULL DEFAULT now())"
            )
            version = await current_version(conn)
            if version > SCHEMA_VERSION:
                raise SchemaTooNew(f"schema {version} > supported {SCHEMA_VERSION}")
            if version >= target:
                return version
            await MIGRATIONS[version](conn)
            await conn.execute("INSERT INTO schema_migrations (version) VALUES (%s)", (version + 1,))


async def ensure_vector_index(conn: AsyncConnection, dimension: int) -> None:
    """The partial HNSW index (cosine) over the embeddings of `dimension`, created when missing
    (under the migration lock, so concurrent opens build it once). Queries use it by ordering on
    `embedding::vector(dimension) <=> q` with `emb_dimension = dimension` (store/postgres/)."""
    dim = int(dimension)
    async with conn.transaction():
        await _locked(conn)
        await conn.execute("SET LOCAL maintenance_work_mem = '256MB'")  # HNSW build fits in memory
        await conn.execute(
            f"CREATE INDEX IF NOT EXISTS memories_embedding_{dim} ON memories USING hnsw "
            f"((embedding::vector({dim})) vector_cosine_ops) "
            f"WITH (m = {HNSW_M}, ef_construction = {HNSW_EF_CONSTRUCTION}) WHERE emb_dimension = {dim}"
        )
