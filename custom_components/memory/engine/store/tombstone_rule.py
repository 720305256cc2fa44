"""Which tombstones block a new memory: the rule every backend's tombstones_near applies, once.

A tombstone blocks when its vector's cosine with the new one reaches `threshold`, or reaches the
lower `anchor_threshold` while its stored digests (forgetting.anchor_digests, space-separated)
share one of the new text's `anchors`.
"""

from __future__ import annotations

from collections.abc import Collection, Sequence

import numpy as np

from ..embedding.base import Vectors


def blocking(
    sims: Vectors,
    digests: Sequence[str | None],
    threshold: float,
    anchors: Collection[str],
    anchor_threshold: float | None,
) -> list[tuple[int, float]]:
    """(row, cosine) of the blocking tombstones among rows with cosines `sims` (float32[n]) and
    stored digests `digests`, best first."""
    wanted = frozenset(anchors) if anchor_threshold is not None else frozenset()
    out: list[tuple[int, float]] = []
    for row, (sim, stored) in enumerate(zip(np.asarray(sims).tolist(), digests, strict=True)):
        anchored = anchor_threshold is not None and sim >= anchor_threshold and bool(wanted)
        if sim >= threshold or (anchored and not wanted.isdisjoint((stored or "").split())):
            out.append((row, float(sim)))
    out.sort(key=lambda t: -t[1])
    return out
