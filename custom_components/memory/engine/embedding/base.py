"""The embedder protocol and vector helpers shared by every encoder."""

from __future__ import annotations

from typing import Protocol, runtime_checkable

import numpy as np
import numpy.typing as npt

from ..models import EmbeddingIdentity

type Vectors = npt.NDArray[np.float32]


class Embedder(Protocol):
    """Turns texts into unit vectors of one embedding space.

    identity: which space the vectors live in; stored beside every vector.
    embed(texts): float32 array of shape [len(texts), identity.dimension], each row
    L2-normalised. Blocking (model inference); may raise EncoderUnavailable on first use.
    Optional attribute `unrelated_cosine: float`: what unrelated texts score in this space
    (measured; recall rescales cosines by it, calibration.Hubness.scale); absent = 0.
    Optional attribute `same_meaning_cosine: float`: the cosine from which two texts in different
    languages count as translations of each other (measured; recall step 2c); absent =
    calibration.SAME_MEANING_DEFAULT on the recall scale.
    """

    @property
    def identity(self) -> EmbeddingIdentity: ...

    def embed(self, texts: list[str]) -> Vectors: ...


@runtime_checkable
class QueryEmbedder(Embedder, Protocol):
    """An asymmetric embedder (E5-style): embed() is for what is stored (memories, passages),
    embed_queries() for what is searched with (recall and forget queries). Same shape, space
    and errors as embed()."""

    def embed_queries(self, texts: list[str]) -> Vectors: ...


def embed_queries(embedder: Embedder, texts: list[str]) -> Vectors:
    """Search-side vectors: embedder.embed_queries(texts) when it has one, else embed(texts).

    float32[len(texts), identity.dimension], unit rows; raises what the embedder raises.
    Symmetric embedders (bundled, fastembed) need no change.
    """
    if isinstance(embedder, QueryEmbedder):
        return embedder.embed_queries(texts)
    return embedder.embed(texts)


def normalise(vectors: npt.ArrayLike) -> Vectors:
    """Rows scaled to unit length (zero rows stay zero), as contiguous float32."""
    arr = np.ascontiguousarray(vectors, dtype=np.float32)
    if arr.ndim == 1:
        arr = arr.reshape(1, -1)
    norms = np.linalg.norm(arr, axis=1, keepdims=True)
    norms[norms == 0] = 1.0
    return np.ascontiguousarray(arr / norms, dtype=np.float32)


def to_blob(vector: Vectors) -> bytes:
    """A vector as the little-endian float32 bytes stored in SQLite."""
    return np.asarray(vector, dtype="<f4").tobytes()


def from_blob(blob: bytes) -> Vectors:
    """Inverse of to_blob."""
    return np.frombuffer(blob, dtype="<f4").astype(np.float32)
