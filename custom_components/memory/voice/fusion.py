"""The recogniser's embedding: the d-vector and GE2E legs fused into one vector (docs/voice.md).

A fused vector is [sqrt(w) * d ; sqrt(1 - w) * g] with d the d-vector (network.py, 256 numbers)
and g the GE2E embedding (ge2e.py, 256), each L2-normalised, and w = DVECTOR_WEIGHT: it has unit
length, and the dot product of two fused vectors is w * cosine(d) + (1 - w) * cosine(g), the score
fusion measured in docs/voice.md "Other speaker embedders". Every mean of fused vectors (a
voiceprint, an adapted print, the other clips of an enrolment) is brought back to this form with
`normalised`, each leg on its own: normalising the concatenation as a whole would weigh a leg
by how much its clips agree.
"""

from __future__ import annotations

import numpy as np

from .ge2e import DIM as GE2E_DIM
from .network import DIM as DVECTOR_DIM

# The d-vector's share of the score; chosen on the tuning half of bench/voice_pool.py (the lowest
# mean false-reject rate at 1 % false accepts over its quiet and noisy sessions; bench/voice_ident.py
# --fusion), reported on the held-out half (docs/voice.md "Thresholds").
DVECTOR_WEIGHT = 0.2
DIM = DVECTOR_DIM + GE2E_DIM  # 512
_SCALES = (float(np.sqrt(DVECTOR_WEIGHT)), float(np.sqrt(1.0 - DVECTOR_WEIGHT)))


def _unit(x: np.ndarray) -> np.ndarray:
    return x / (np.linalg.norm(x) + 1e-12)


def fuse(dvector: np.ndarray, ge2e: np.ndarray) -> np.ndarray:
    """float32[DIM], unit length: the two legs (float [256] each, any length) normalised and
    weighted (module docstring)."""
    return np.asarray(np.concatenate([_SCALES[0] * _unit(dvector), _SCALES[1] * _unit(ge2e)]), np.float32)


def normalised(vector: np.ndarray) -> np.ndarray:
    """A sum or mean of fused vectors (float [DIM]) as a fused vector: each leg L2-normalised and
    weighted again. Raises ValueError for another size."""
    if vector.shape != (DIM,):
        raise ValueError(f"a fused vector has {DIM} numbers, not {vector.shape}")
    return fuse(*legs(vector))


def legs(vector: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """The d-vector and GE2E parts of a fused vector (float [DIM]), as stored (scaled)."""
    return vector[:DVECTOR_DIM], vector[DVECTOR_DIM:]


def dvector(vector: np.ndarray) -> np.ndarray:
    """The d-vector leg of a fused vector, L2-normalised (float32 [256]): what enrolment's voice
    checks compare, their thresholds having been measured on d-vector cosines (matching.SAME_VOICE,
    SAME_PERSON)."""
    return np.asarray(_unit(legs(vector)[0]), np.float32)
