"""Hybrid recall: semantic + exact-anchor lexical, ranked with a factor breakdown (docs/design.md §6).

Pipeline for one query and speaker (visibility and "current only" are applied by the store):
1. semantic leg: top SEMANTIC_POOL visible vectors; admitted at cosine ≥ options.min_similarity,
   plus at most one below it that stands out after hubness calibration (calibrated_best, C08);
2. lexical leg: FTS5 BM25 over the query's exact anchors (lexical.py); a row enters only if it
   really contains an anchor on our own tokens;
3. when the query carries an identifier/number, semantic-only candidates carrying a different
   one of the same shape are dropped (case C07);
4. score = Σ factors (similarity, lexical, provenance, importance, recency), best first;
5. up to ABOUT_SPEAKER_MAX private, non-sensitive memories of the recognised speaker are added (C05);
6. the slate is capped at options.limit hits and options.max_chars characters (case C22).
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from datetime import datetime

import numpy as np

from .api import RecallOptions
from .calibration import Hubness
from .embedding.base import Vectors
from .lexical import Anchor, AnchorKind, conflicts, fts_phrases, matched_anchors, query_anchors
from .models import Hit, Memory, Provenance, Speaker
from .store.base import MemoryStore, Visibility

SEMANTIC_POOL = 50  # nearest vectors considered before thresholds
LEXICAL_POOL = 50  # best BM25 rows considered
# Case C08 ("Where do we live?" -> "Our home address is Lindenstraße 12.", cosine 0.197 with
# USE-m3, below min_similarity): the one best hit under the threshold is admitted when its
# cosine is >= CALIBRATED_FLOOR, its calibrated score (cosine - hubness, calibration.py) is
# >= CALIBRATED_MIN and it leads the next sub-threshold hit's calibrated score (or 0) by
# >= CALIBRATED_MARGIN. Measured en/de/it/fr/es: the address scores 0.085-0.131 and leads by
# >= 0.085; unrelated small talk stays below one of the two bars (docs/architecture.md).
CALIBRATED_FLOOR = 0.15
CALIBRATED_MIN = 0.08
CALIBRATED_MARGIN = 0.06

W_SIMILARITY = 1.0  # cosine in [-1, 1]
W_ANCHOR_EXACT = 0.15  # the memory contains a query identifier/number: worth +0.15 cosine
W_ANCHOR_RARE = 0.08  # it shares only a rare word with the query
W_BM25 = 0.2  # x BM25/(BM25 + BM25_HALF): how well it matches the anchors beyond containing one
BM25_HALF = 2.0  # BM25 at which the BM25 part reaches half its weight
W_PROVENANCE = 0.08  # confirmed 0.08 … inferred 0
W_IMPORTANCE = 0.06  # x importance in [0, 1]
W_RECENCY = 0.04  # x 0.5^(age / RECENCY_HALF_LIFE_DAYS) of updated_at
RECENCY_HALF_LIFE_DAYS = 90.0
ABOUT_SPEAKER_MAX = 2  # the speaker's own memories added to every slate (case C05)
W_ABOUT_SPEAKER = 0.02  # marks why such a hit is there; small so it never outranks a match
# The most the factors read from the memory row (provenance, importance, recency) can add: a
# candidate whose similarity + lexical is further below a settled slate is never read.
MEMORY_FACTORS_MAX = W_PROVENANCE + W_IMPORTANCE + W_RECENCY
FETCH_BATCH_MIN = 8  # memories read per round in bound order (doubling), at least this many


@dataclass(frozen=True, slots=True)
class Candidate:
    memory_id: str
    similarity: float
    anchor: float = 0.0  # W_ANCHOR_EXACT / W_ANCHOR_RARE when in the lexical leg, else 0
    bm25: float = 0.0  # BM25 (higher = better), 0 when not in the lexical leg
    about_speaker: bool = False


def calibrated_best(
    store: MemoryStore, hubness: Hubness, semantic: list[tuple[str, float]], threshold: float
) -> tuple[str, float] | None:
    """C08: the best sub-threshold semantic hit by cosine - hubness, if it clearly stands out.

    semantic: [(id, cosine)] best first. Returns (id, calibrated score) or None.
    """
    below = [(i, s) for i, s in semantic if CALIBRATED_FLOOR <= s < threshold]
    if not below:
        return None
    ids, vecs = store.vectors([i for i, _ in below])
    if not ids:
        return None
    cos = dict(below)
    calibrated = np.array([cos[i] for i in ids], dtype=np.float32) - hubness.of(vecs)
    order = np.argsort(-calibrated)
    best = float(calibrated[order[0]])
    runner_up = max(float(calibrated[order[1]]), 0.0) if len(order) > 1 else 0.0
    if best < CALIBRATED_MIN or best - runner_up < CALIBRATED_MARGIN:
        return None
    return ids[int(order[0])], best


def factors(candidate: Candidate, memory: Memory, now: datetime) -> dict[str, float]:
    """The named contributions to a hit's score (their sum is the score)."""
    age_days = max(0.0, (now - memory.updated_at).total_seconds() / 86400.0)
    out = {
        "similarity": W_SIMILARITY * candidate.similarity,
        "lexical": _lexical(candidate),
        "provenance": W_PROVENANCE * (1.0 - memory.provenance.rank / (len(Provenance) - 1)),
        "importance": W_IMPORTANCE * memory.importance,
        "recency": W_RECENCY * math.pow(0.5, age_days / RECENCY_HALF_LIFE_DAYS),
    }
    if candidate.about_speaker:
        out["about_speaker"] = W_ABOUT_SPEAKER
    return out


def gather(
    store: MemoryStore,
    qvec: Vectors,
    semantic: list[tuple[str, float]],
    *,
    query: str,
    vis: Visibility,
    min_similarity: float,
    hubness: Hubness,
) -> tuple[dict[str, Candidate], list[Anchor]]:
    """Steps 1-3: the admitted candidates by id, and the query's anchors.

    semantic: the store's top visible [(id, cosine)], best first.
    """
    admitted = {i: s for i, s in semantic if s >= min_similarity}
    extra = calibrated_best(store, hubness, semantic, min_similarity)
    if extra is not None:
        admitted[extra[0]] = dict(semantic)[extra[0]]

    anchors = query_anchors(query, store)
    lexical: dict[str, tuple[float, float]] = {}  # id -> (anchor weight, bm25)
    if anchors:
        for row in store.lexical(fts_phrases(anchors), vis, LEXICAL_POOL):
            matched = matched_anchors(row.content, anchors)
            if matched:
                exact = any(a.kind is not AnchorKind.RARE_WORD for a in matched)
                lexical[row.id] = (W_ANCHOR_EXACT if exact else W_ANCHOR_RARE, max(row.bm25, 0.0))
            elif row.id in admitted and conflicts(row.content, anchors):
                del admitted[row.id]
        # semantic-only candidates whose text we have not seen yet: check for a conflicting id
        unseen = [i for i in admitted if i not in lexical]
        if unseen and any(a.kind is not AnchorKind.RARE_WORD for a in anchors):
            for mid, memory in store.get_many(unseen, vis).items():
                if conflicts(memory.content, anchors):
                    del admitted[mid]

    lexical_sims = store.similarities([i for i in lexical if i not in admitted], qvec)
    out: dict[str, Candidate] = {}
    for mid, sim in admitted.items():
        out[mid] = Candidate(mid, sim, *lexical.get(mid, (0.0, 0.0)))
    for mid, (anchor, bm25) in lexical.items():
        if mid not in out:
            out[mid] = Candidate(mid, lexical_sims.get(mid, 0.0), anchor, bm25)
    return out, anchors


def recall(
    store: MemoryStore,
    qvec: Vectors,
    *,
    query: str,
    speaker: Speaker,
    options: RecallOptions,
    now: datetime,
    hubness: Hubness,
) -> list[Hit]:
    """The slate for one query: best first, ≤ options.limit hits, ≤ options.max_chars of content.

    May raise (store/embedder errors); the engine facade turns that into [].
    """
    if options.limit <= 0:
        return []
    vis = Visibility.of(speaker)
    owned_k = ABOUT_SPEAKER_MAX + options.limit if options.include_about_speaker else 0
    semantic, owned = store.semantic(qvec, vis, SEMANTIC_POOL, owned_k=owned_k)
    candidates, _ = gather(
        store, qvec, semantic, query=query, vis=vis, min_similarity=options.min_similarity, hubness=hubness
    )

    about = [Candidate(mid, sim, about_speaker=True) for mid, sim in owned if mid not in candidates]
    owned_memories = store.get_many([c.memory_id for c in about], vis)
    # the speaker's own memories ride along unasked: never their secrets (they come when asked for)
    extra = [h for h in _hits(about, owned_memories, now) if not h.memory.sensitive][:ABOUT_SPEAKER_MAX]
    return cap_slate(_ranked_prefix(store, candidates, extra, vis, options=options, now=now), extra, options)


def bound(candidate: Candidate) -> float:
    """Upper bound of a candidate's score before its memory is read: similarity + lexical
    are known, the memory-dependent factors add at most MEMORY_FACTORS_MAX."""
    return W_SIMILARITY * candidate.similarity + _lexical(candidate) + MEMORY_FACTORS_MAX


def _ranked_prefix(
    store: MemoryStore,
    candidates: dict[str, Candidate],
    extra: list[Hit],
    vis: Visibility,
    *,
    options: RecallOptions,
    now: datetime,
) -> list[Hit]:
    """The ranked hits cap_slate needs, reading memories in bound order until the slate is settled.

    The hits scoring above every unread candidate's bound are the head of the final ranking;
    once cap_slate fills options.limit places from that head alone, no unread candidate could
    change the slate (even with the char cap skipping long ones), so the rest is never read.
    """
    order = sorted(candidates.values(), key=lambda c: (-bound(c), c.memory_id))
    fetched: list[Hit] = []
    start, batch = 0, max(FETCH_BATCH_MIN, 2 * options.limit)
    while start < len(order):
        chunk = order[start : start + batch]
        start += len(chunk)
        fetched = _merge_sorted(fetched, _hits(chunk, store.get_many([c.memory_id for c in chunk], vis), now))
        if start >= len(order):
            break
        ceiling = bound(order[start])
        settled = [h for h in fetched if h.score > ceiling]
        if len(cap_slate(settled, extra, options)) >= options.limit:
            return settled
        batch *= 2
    return fetched


def _merge_sorted(a: list[Hit], b: list[Hit]) -> list[Hit]:
    return sorted([*a, *b], key=lambda h: (-h.score, h.memory.id))


def _lexical(candidate: Candidate) -> float:
    return candidate.anchor + W_BM25 * candidate.bm25 / (candidate.bm25 + BM25_HALF)


def _hits(cands: list[Candidate], memories: dict[str, Memory], now: datetime) -> list[Hit]:
    hits = []
    for c in cands:
        memory = memories.get(c.memory_id)
        if memory is None:
            continue
        f = factors(c, memory, now)
        hits.append(Hit(memory=memory, score=sum(f.values()), similarity=c.similarity, factors=f))
    hits.sort(key=lambda h: (-h.score, h.memory.id))
    return hits


def cap_slate(ranked: list[Hit], about: list[Hit], options: RecallOptions) -> list[Hit]:
    """Top hits within options.limit and options.max_chars (summed content length); the
    speaker's own memories (`about`) take up to ABOUT_SPEAKER_MAX of the places."""
    reserve = min(len(about), ABOUT_SPEAKER_MAX, options.limit)
    slate: list[Hit] = []
    taken: set[str] = set()
    used = 0

    def take(hits: list[Hit], room: int) -> None:
        nonlocal used
        for hit in hits:
            if room <= 0 or len(slate) >= options.limit:
                return
            if hit.memory.id in taken:
                continue
            size = len(hit.memory.content)
            if used + size > options.max_chars:
                continue
            slate.append(hit)
            taken.add(hit.memory.id)
            used += size
            room -= 1

    take(ranked, options.limit - reserve)
    take(about, reserve)
    take(ranked, options.limit - len(slate))  # unused about places go back to matches
    slate.sort(key=lambda h: -h.score)
    return slate
