"""Voiceprints: enrol, list, forget — a part of the engine (engine/engine.py)."""

from __future__ import annotations

import numpy as np

from .. import inputs
from ..api import InvalidInput
from ..core import Part
from ..embedding.base import Vectors
from ..models import Voiceprint


class Voices(Part):
    """Voiceprints. Blocking; thread-safe (writes under the core's write lock)."""

    def enroll_voice(self, person_id: str, vector: Vectors, clips: int, embedding: str) -> Voiceprint:
        """Store person_id's voiceprint: `vector` (float32[d], the mean of `clips` enrolment
        clips' speaker embeddings; stored unit length) made by the voice model `embedding`.
        Re-enrolment replaces it (created_at kept, updated_at now). Committed; returns the row.
        Raises InvalidInput("person_id", "unknown_speaker") for an empty id,
        ("vector", "invalid_vector") for an empty/non-finite/zero vector, ("clips", "too_small")
        for clips < 1, ("embedding", "empty")."""
        inputs.check_voiceprint(person_id, vector, clips, embedding)
        self._require_open()
        if not person_id:
            raise InvalidInput("person_id", "unknown_speaker")
        unit = np.asarray(vector, dtype=np.float32)
        norm = float(np.linalg.norm(unit)) if unit.ndim == 1 and unit.size else 0.0
        if not np.isfinite(norm) or norm <= 0.0:
            raise InvalidInput("vector", "invalid_vector")
        if clips < 1:
            raise InvalidInput("clips", "too_small")
        if not embedding:
            raise InvalidInput("embedding", "empty")
        now = self._clock()
        with self._writes:
            try:
                return self.store.put_voiceprint(
                    Voiceprint(person_id, unit / norm, clips, embedding, created_at=now, updated_at=now)
                )
            finally:
                self._core.voice_generation += 1

    def voiceprints(self) -> list[Voiceprint]:
        """Every enrolled voiceprint, by person id. Vectors are for the matcher only: never in
        diagnostics or service responses."""
        self._require_open()
        return self.store.voiceprints()

    def forget_voice(self, person_id: str) -> bool:
        """Delete person_id's voiceprint; True when there was one."""
        inputs.check_id("person_id", person_id)
        self._require_open()
        with self._writes:
            try:
                return self.store.delete_voiceprint(person_id)
            finally:
                self._core.voice_generation += 1
