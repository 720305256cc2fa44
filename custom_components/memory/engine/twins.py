"""Translations: which texts in different languages say the same thing (the nearest both ways).

A text's twin in another language is the text of that language nearest to it when it is in turn
that text's nearest among the texts of its own language, at raw cosine >= the embedder's
same-meaning level (calibration.same_meaning_cosine): a translation is its original's nearest in
its language, both ways; a sentence merely on the same topic rarely is when no translation
exists. A language where a text has no twin takes the twin of one of its twins (one step:
Russian-Chinese translations often pair only through the English one). XQuAD tuning half, with
the translation removed: 0.7-1.6 % of sentences get a false twin directly, 0.7 % by the step
(docs/recall-tuning.md "Twins: the nearest both ways").

Recall's rule (step 2c: a match lends its place to its translations). Good enough to lend a place
in a slate, not to merge two memories: in a store with one sentence per language, another thing
in the same frame is as near as a translation (docs/consolidation.md), so the writer asks.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
import numpy.typing as npt


def twin_rows(
    vectors: npt.NDArray[np.float32], languages: Sequence[str], seeds: Sequence[int], level: float
) -> list[tuple[int, int]]:
    """(seed row, twin row) pairs, at most one twin per seed and language. vectors: float32[n, d],
    unit rows; languages: each row's language; seeds: the rows whose twins are wanted; level: the
    raw cosine a twin needs at least."""
    rows_of = {lang: np.flatnonzero(np.array(languages) == lang) for lang in dict.fromkeys(languages)}
    cosines: dict[int, npt.NDArray[np.float32]] = {}

    def cosines_of(r: int) -> npt.NDArray[np.float32]:  # with every row, computed once
        if r not in cosines:
            cosines[r] = vectors @ vectors[r]
        return cosines[r]

    def twins(r: int, done: set[str]) -> dict[str, int]:  # language -> row of r's twin there
        near = cosines_of(r)
        out = {}
        for other, rows in rows_of.items():
            if other in done or other == languages[r]:
                continue
            twin = int(rows[np.argmax(near[rows])])
            # r is the twin's nearest of r's language (r itself among them)
            if (
                near[twin] >= level
                and near[twin] >= float(cosines_of(twin)[rows_of[languages[r]]].max()) - 1e-6
            ):
                out[other] = twin
        return out

    pairs: list[tuple[int, int]] = []
    for seed in seeds:
        found = twins(seed, set())
        for twin in list(found.values()):
            for other, far in twins(twin, {languages[seed], *found}).items():
                found.setdefault(other, far)
        pairs.extend((seed, twin) for twin in found.values())
    return pairs
