"""Export and import of the household's memories — a part of the engine (engine/engine.py)."""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from concurrent.futures import ThreadPoolExecutor

from .. import facts, forgetting, inputs, writer
from ..api import (
    Export,
    ImportReport,
    InvalidInput,
    Lineage,
    MemoryDraft,
    WriteAction,
)
from ..core import Core, Part, tallied, windowed
from ..embedding.base import Vectors
from ..models import Memory, Scope, Speaker, Status
from ..store.base import Bucket, MemoryFilter, Visibility
from ..text import same_text, wording
from .memories import Memories

EXPORT_BATCH = 500  # memories read per page while exporting
IMPORT_BATCH = 64  # drafts embedded in one call while importing (USE-m3: 4.8 ms a text alone, 2.4 in 16+)


class Transfer(Part):
    """The engine's export and import of the household's memories. Blocking; thread-safe (writes
    under the core's write lock). Reads and writes memories through `memories` (the same rules
    as every other write)."""

    def __init__(self, core: Core, memories: Memories) -> None:
        super().__init__(core)
        self._memories = memories

    def export(self) -> Export:
        """Every current memory with its history, the pending ones, tombstone counts."""
        self._require_open()
        admin = Speaker.administrator()
        vis = Visibility.of(admin)
        current = [
            Lineage(windowed(m), self._memories.older(m.id, vis)) for m in self._all(admin, Status.ACTIVE)
        ]
        return Export(
            current=tuple(current),
            pending=tuple(self._all(admin, Status.PENDING)),
            tombstones_by_scope=tallied(self.store.counts(), "tombstone_scope"),
        )

    def _all(self, speaker: Speaker, status: Status) -> list[Memory]:
        """Every memory of `status` visible to speaker, newest first, read page by page."""
        out: list[Memory] = []
        while True:
            page, total = self._memories.find(
                speaker, MemoryFilter(status=status), limit=EXPORT_BATCH, offset=len(out)
            )
            out += page
            if not page or len(out) >= total:
                return out

    def import_memories(
        self, drafts: Sequence[MemoryDraft], *, progress: Callable[[int, int], None] | None = None
    ) -> ImportReport:
        """Remember each draft in order by remember's own rules (dedup, restatements: counted
        as duplicates), committed one by one. Also a duplicate: a draft saying what was said
        here and has been replaced since (the same wording, superseded or archived in its bucket;
        the value its key's current memory holds) — never current again. Rejected, nothing
        written for it: what remember refuses (the InvalidInput reason), what a tombstone blocks
        ("forgotten": forgetting stays until someone remembers it explicitly), a fact whose key
        holds another value now ("conflict": the household's current value is never superseded
        by an import; also when the key's last value here was replaced by a memory told without
        the key) and a SYSTEM-scope draft ("scope_reserved": the integration's own notes).

        Each draft is embedded once, IMPORT_BATCH at a time (the encoder is ~2x faster per text
        in a batch), the next batch on a worker thread while this one is written (the encoder's
        numpy work runs beside the store's); progress(done, total) is called after each batch
        (drafts handled so far). The drafts' writes are durable when it returns
        (store.bulk_writes), each committed on its own."""
        if isinstance(drafts, str | bytes) or not isinstance(drafts, Sequence):
            raise InvalidInput("drafts", "wrong_type")
        self._require_open()
        created = duplicates = 0
        rejected: list[tuple[int, str]] = []
        refusals: dict[int, InvalidInput] = {}
        replaced = self._replaced_wordings()
        # one wait for the disk at the end instead of one per draft: the report acknowledges them
        with self.store.bulk_writes(), ThreadPoolExecutor(1, thread_name_prefix="memory-import") as encoder:
            upcoming = encoder.submit(self._embedded, drafts, 0)
            for start in range(0, len(drafts), IMPORT_BATCH):
                batch = upcoming.result()
                upcoming = encoder.submit(self._embedded, drafts, start + IMPORT_BATCH)  # [] past the end
                for index, embedded in batch:
                    outcome = self._import_embedded(index, embedded, replaced, refusals)
                    if outcome is WriteAction.CREATED:
                        created += 1
                    elif isinstance(outcome, WriteAction):
                        duplicates += 1
                    else:
                        rejected.append((index, outcome))
                if progress is not None:
                    progress(min(start + IMPORT_BATCH, len(drafts)), len(drafts))
        return ImportReport(created, duplicates, tuple(rejected), refusals)

    def _import_embedded(
        self,
        index: int,
        embedded: tuple[MemoryDraft, str, Vectors] | InvalidInput,
        replaced: Mapping[tuple[Bucket, tuple[str, ...]], list[str | None]],
        refusals: dict[int, InvalidInput],
    ) -> WriteAction | str:
        """One draft of an import, checked and embedded (_embedded): what _import_one did with
        it, or the reason it was refused (kept in `refusals` by index)."""
        if isinstance(embedded, InvalidInput):
            refusals[index] = embedded
            return embedded.reason
        with self._writes:
            try:
                return self._import_one(*embedded, replaced)
            except InvalidInput as err:
                refusals[index] = err
                return err.reason

    def _embedded(
        self, drafts: Sequence[MemoryDraft], start: int
    ) -> list[tuple[int, tuple[MemoryDraft, str, Vectors] | InvalidInput]]:
        """The IMPORT_BATCH drafts from `start`, each checked
        (inputs.check_draft, its text cleaned) with its clean text and vector — or the refusal —
        the batch embedded in one call."""
        checked: dict[int, tuple[MemoryDraft, str] | InvalidInput] = {}
        for index in range(start, min(start + IMPORT_BATCH, len(drafts))):
            try:
                draft = inputs.check_draft(drafts[index])
                checked[index] = (draft, writer.clean_content(draft.content))
            except InvalidInput as err:
                checked[index] = err
        valid = {i: c for i, c in checked.items() if not isinstance(c, InvalidInput)}
        texts = [writer.embedding_text(text) for _, text in valid.values()]
        vector_of = dict(zip(valid, self.embedder.embed(texts), strict=True)) if texts else {}
        return [(i, c if isinstance(c, InvalidInput) else (*c, vector_of[i])) for i, c in checked.items()]

    def _replaced_wordings(self) -> dict[tuple[Bucket, tuple[str, ...]], list[str | None]]:
        """Every SUPERSEDED or ARCHIVED memory's (bucket, wording) with who told it: what was
        said here and has been replaced since (an import's duplicates, never current again)."""
        admin = Speaker.administrator()
        out: dict[tuple[Bucket, tuple[str, ...]], list[str | None]] = {}
        for status in (Status.SUPERSEDED, Status.ARCHIVED):
            for m in self._all(admin, status):
                key = (Bucket.of(m.scope, m.owner_id, m.area_id), tuple(wording(m.content)))
                out.setdefault(key, []).append(m.speaker_id)
        return out

    def _import_one(
        self,
        draft: MemoryDraft,
        text: str,
        vector: Vectors,
        replaced: Mapping[tuple[Bucket, tuple[str, ...]], list[str | None]],
    ) -> WriteAction | str:
        """Import one draft: what remember did, or why it may not be imported ("forgotten",
        "conflict", "scope_reserved"); InvalidInput for what remember refuses. Counted as a
        duplicate (MERGED, nothing written), because remember compares with current memories
        only: a pending draft whose wording waits for review already in its bucket; a draft
        whose wording was said here in its bucket and has been replaced since (`replaced`:
        already known, and not current any more); a keyed draft whose value is the one its key's
        current memory holds through a replacement. A keyed ACTIVE draft whose key holds another
        value now — its ACTIVE memories, or the current memory that replaced its last value
        here — is a "conflict"."""
        if Scope(draft.scope) is Scope.SYSTEM:  # the integration's own notes, seen by every speaker
            return "scope_reserved"
        bucket = writer.resolve_bucket(draft.scope, draft.speaker, draft.owner_id, draft.area_id)
        if forgetting.is_tombstoned(
            self.store, self.embedder, vector, scope=bucket.scope, owner_id=bucket.owner_id,
            area_id=bucket.area_id, text=text, anchor_key=self._anchor_key,
        ):  # fmt: skip
            return "forgotten"
        if draft.status is Status.PENDING:
            waiting = self._all(Speaker.administrator(), Status.PENDING)
            if any(Bucket.of(m.scope, m.owner_id, m.area_id) == bucket and same_text(m.content, text)
                   for m in waiting):  # fmt: skip
                return WriteAction.MERGED
        tellers = replaced.get((bucket, tuple(wording(text))), [])
        if any(facts.same_teller(teller, draft.speaker.person_id) for teller in tellers):
            return WriteAction.MERGED
        subject, predicate = facts.fact_subject(draft.subject), facts.fact_predicate(draft.predicate)
        if draft.status is Status.ACTIVE and subject is not None and predicate is not None:
            held = self.store.current_by_key(bucket, subject, predicate, [Status.ACTIVE])
            if held:
                if not any(facts.same_value(m, draft) for m in held):
                    return "conflict"
            elif holders := self._key_replacers(bucket, subject, predicate):
                return WriteAction.MERGED if any(facts.same_value(m, draft) for m in holders) else "conflict"
        return self._memories.remember_embedded(draft, vector).action

    def _key_replacers(self, bucket: Bucket, subject: str, predicate: str) -> list[Memory]:
        """The current (ACTIVE) memories that replaced the key's replaced values (each followed
        along superseded_by): who holds a key none of whose ACTIVE memories carries it any more
        (a value replaced by a memory told without the key)."""
        everything = Visibility.of(Speaker.administrator())
        heads: dict[str, Memory] = {}
        old = self.store.current_by_key(bucket, subject, predicate, [Status.SUPERSEDED, Status.ARCHIVED])
        for memory in old:
            link: Memory | None = memory
            seen = {memory.id}
            while link is not None and link.superseded_by is not None and link.superseded_by not in seen:
                seen.add(link.superseded_by)
                link = self.store.get(link.superseded_by, everything)
            if link is not None and link.status is Status.ACTIVE:
                heads[link.id] = link
        return list(heads.values())
