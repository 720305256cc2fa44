"""Translations: which texts in different languages say the same thing (the nearest both ways).

A text's twin in another language is the text of that language nearest to it when it is in turn
that text's nearest among the texts of its own language, at raw cosine >= the embedder's
same-meaning level (calibration.same_meaning_cosine): a translation is its original's nearest in
its language, both ways; a sentence merely on the same topic rarely is when no translation
exists. A language where a text has no twin takes the twin of one of its twins (one step:
Russian-Chinese translations often pair only through the English one). XQuAD tuning half, with
the translation removed: 0.7-1.6 % of sentences get a false twin directly, 0.7 % by the step
(docs/recall-tuning.md "Twins: the nearest both ways").

Recall (step 2c: a match lends its place to its translations) takes a twin per language. The
writer, which merges what it takes for the same fact, asks the strict form (translation_of): the
nearest both ways across every other language at once, so a sentence about another thing in the
same place ("the spare umbrella …" for "the spare key …") is no translation where the store holds
anything closer to either of them in a third language.
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


def translation_of(
    vectors: npt.NDArray[np.float32], languages: Sequence[str], row: int, level: float
) -> int | None:
    """The row `row` translates, by the strict nearest-both-ways rule, else None: the row of
    another language nearest to `row`, when `row` is in turn that row's nearest among all rows
    not of its language, at raw cosine >= `level` — and a translation of that row's own twins in
    the other languages (twin_rows) too: translations of one sentence are each other's, so a row
    far from them is about something else. vectors: float32[n, d], unit rows; languages: each
    row's language."""
    lang = np.array(languages)
    near = vectors @ vectors[row]
    foreign = np.flatnonzero(lang != lang[row])
    if not foreign.size:
        return None
    twin = int(foreign[np.argmax(near[foreign])])
    if near[twin] < level:
        return None
    back = vectors @ vectors[twin]
    if near[twin] < float(back[np.flatnonzero(lang != lang[twin])].max()) - 1e-6:
        return None
    others = [other for _, other in twin_rows(vectors, languages, [twin], level) if other != row]
    return twin if all(near[other] >= level for other in others) else None
