"""Hybrid recall: semantic + exact-anchor lexical, ranked with a factor breakdown (docs/design.md §6).

Pipeline for one query and speaker (visibility and "current only" are applied by the store; a
query naming an area sees its room memories too: RecallOptions.named_areas, Visibility.of; a
recall "as of" a moment searches the memories current then: RecallOptions.as_of):
1. semantic leg: top SEMANTIC_POOL visible vectors; admitted at cosine ≥ options.min_similarity,
   plus at most one below it that stands out after hubness calibration (calibrated_best);
2. lexical legs: (a) exact anchors (identifiers, numbers, rare words; lexical.py), a row
   counting only if it really contains one on our own tokens — an identifier or number admits
   it (searched for in every visible memory: store.lexical), a rare word only lifts it (looked
   for in the memories the other legs found only: store.containing); (b) full text: BM25 over the
   stemmed content words (terms.py), a row entering by it alone when its BM25 is at least
   TERMS_ADMIT_SHARE of the best and TERMS_ADMIT_MIN;
   (c) translations: a memory in another language that says what one of the best full-text
   matches says — one that matches as an answer would, by enough words or an anchor — (each the
   other's nearest in its language, at cosine ≥ Hubness.same_meaning; looked for among the
   TRANSLATION_POOL nearest vectors) borrows that match's BM25 and, when the match was admitted,
   enters with it — words only match in the language they were said in, and a fact should not
   rank lower for having been told in another one (XQuAD, bench/xquad.py);
3. when the query carries an identifier/number, candidates carrying a different one of the same
   shape are dropped;
4. score = Σ factors (similarity, lexical, provenance, importance, recency, and "named" for a
   memory concerning a person the question names: RecallOptions.named_persons), best first;
5. conversation context: the memories told right before/after a hit in the same conversation
   (same source_ref, ≤ CONTEXT_WINDOW places away) gain a share of its score (factor "context"),
   and enter the ranking if they were no candidates — what answers a question often sits in the
   turn next to the one that matches it; then the hits of a conversation gain a share of its best
   hit's score (factor "conversation");
6. up to ABOUT_SPEAKER_MAX private, non-sensitive memories of the recognised speaker are added;
7. the slate is capped at options.limit hits and options.max_chars characters;
8. truth over time (mark_outdated): a hit the fact rules say a clearly newer hit of the slate
   likely replaces (facts.outdates) is marked `outdated_by` that hit, which moves up to directly
   ahead of it (factor "newer"); nothing leaves the slate, no other hit moves.

The full-text and context constants were chosen on LoCoMo conversations 0-4 only and are
reported on 5-9 (bench/locomo.py, docs/recall-quality.md).
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from dataclasses import dataclass, replace
from datetime import datetime
from types import MappingProxyType

import numpy as np

from . import facts
from .api import RecallOptions
from .calibration import Hubness
from .embedding.base import Vectors
from .lexical import (
    Anchor,
    AnchorKind,
    conflicts,
    fts_phrases,
    matched_anchors,
    other_values,
    query_anchors,
)
from .models import Hit, Memory, Provenance, Speaker
from .reads import RecallReads, RecallStore
from .store.base import Visibility
from .terms import query_words, terms_of, words_matched
from .text import mentions
from .twins import twin_rows

SEMANTIC_POOL = 50  # nearest vectors considered before thresholds
LEXICAL_POOL = 50  # best BM25 rows considered
# The one best sub-threshold hit is admitted (calibrated_best) when it passes all three bars, set on
# "Where do we live?" -> the address in en/de/it/fr/es (docs/architecture.md step 2, C08).
CALIBRATED_FLOOR = 0.15  # its cosine is at least this ...
CALIBRATED_MIN = 0.08  # ... its calibrated score (cosine - hubness, calibration.py) at least this ...
CALIBRATED_MARGIN = 0.06  # ... and it leads the next sub-threshold hit's calibrated score (or 0) by this

W_SIMILARITY = 1.0  # cosine in [-1, 1]
W_ANCHOR_EXACT = 0.15  # the memory contains a query identifier/number: worth +0.15 cosine
W_ANCHOR_RARE = 0.08  # it shares only a rare word with the query
TERMS_POOL = 50  # best full-text (BM25) rows considered
# Full text adds W_TERMS x BM25 / (best BM25 + TERMS_HALF): much where the words are rare, ~0 where they
# are everywhere; chosen on LoCoMo 0-4 (docs/recall-tuning.md "What was tried").
W_TERMS = 1.0
TERMS_HALF = 2.0
TERMS_ADMIT_SHARE = 0.4  # a row enters by full text alone at ≥ 40 % of the best BM25 ...
TERMS_ADMIT_MIN = 2.0  # ... and BM25 ≥ 2 (one word in ≤ ~12 % of memories, or two commoner ones)
# ... and sharing ≥ 2 of the query's words (all when fewer): one shared word ("like") admits nothing,
# anchors still do (docs/recall-tuning.md "Made safe for a household store").
TERMS_ADMIT_WORDS = 2
# Step 2c: the TRANSLATION_SEEDS best full-text matches lend their BM25 to their twins among the query's
# TRANSLATION_POOL nearest vectors; chosen on XQuAD (docs/recall-tuning.md "Cross-lingual").
TRANSLATION_SEEDS = 3
TRANSLATION_POOL = 200
# Conversation context (step 5): a neighbour d places away gains W_CONTEXT x CONTEXT_DECAY^(d-1) x the
# hit's score; chosen on LoCoMo 0-4 (docs/recall-tuning.md "What was tried").
W_CONTEXT = 0.5
CONTEXT_WINDOW = 2
CONTEXT_DECAY = 0.5
# ... and every hit of a conversation gains W_CONVERSATION x its conversation's best score (one that
# answers well floats up together); chosen on LoCoMo 0-4 (docs/recall-tuning.md "What was tried").
W_CONVERSATION = 0.2
# A neighbour that was no candidate enters by context only at similarity ≥ this: facts learned in one
# conversation are no dialogue (docs/recall-tuning.md "Made safe for a household store").
CONTEXT_ADMIT_SIMILARITY = 0.15
W_PROVENANCE = 0.08  # confirmed 0.08 … inferred 0
W_IMPORTANCE = 0.06  # x importance in [0, 1]
W_RECENCY = 0.04  # x 0.5^(age / RECENCY_HALF_LIFE_DAYS) of updated_at
RECENCY_HALF_LIFE_DAYS = 90.0
# A candidate told by, owned by, keyed on or speaking about a person the query names gains W_NAMED (it
# admits nothing); chosen on LoCoMo 0-4 and a household store (docs/recall-tuning.md "Who said it").
W_NAMED = 0.4
NOBODY: Mapping[str, str] = MappingProxyType({})  # a query that names no one
ABOUT_SPEAKER_MAX = 2  # the speaker's own memories added to every slate
W_ABOUT_SPEAKER = 0.02  # marks why such a hit is there; small so it never outranks a match
# The most the factors read from the memory row (provenance, importance, recency) can add: a
# candidate whose similarity + lexical is further below a settled slate is never read.
MEMORY_FACTORS_MAX = W_PROVENANCE + W_IMPORTANCE + W_RECENCY
# How far a newer value is lifted above the hit it outdates (step 8): the smallest step the
# services' rounded scores (4 decimals) still show.
NEWER_AHEAD = 1e-4
# A newer value is lifted only when its similarity to the query is at most this far below the one it
# outdates: lifting every one flooded LoCoMo's top 10 (docs/recall-tuning.md "Truth over time").
NEWER_ANSWERS_GAP = 0.10
NEWER_WITHIN = 3  # ... and only from at most this many places behind it (same section)
FETCH_BATCH_MIN = 8  # memories read per round in bound order (doubling), at least this many


@dataclass(frozen=True, slots=True)
class RetrievalCandidate:
    memory_id: str
    similarity: float
    anchor: float = 0.0  # W_ANCHOR_EXACT / W_ANCHOR_RARE when it carries a query anchor, else 0
    terms: float = 0.0  # BM25 / (best BM25 + TERMS_HALF) in [0, 1), 0 when no term matched
    translation: float = 0.0  # the same share borrowed from a full-text match it translates (2c)
    about_speaker: bool = False
    context: float = 0.0  # the conversation-context share (step 5)
    by_terms_only: bool = False  # admitted by full text alone (a sensitive memory is then left out)


def calibrated_best(
    store: RecallStore, hubness: Hubness, semantic: list[tuple[str, float]], threshold: float
) -> tuple[str, float] | None:
    """The best sub-threshold semantic hit by cosine - hubness, if it clearly stands out.

    semantic: [(id, cosine)] best first. Returns (id, calibrated score) or None.
    """
    below = [(i, s) for i, s in semantic if CALIBRATED_FLOOR <= s < threshold]
    if not below:
        return None
    ids, vecs = store.vectors([i for i, _ in below])
    if not ids:
        return None
    cos = dict(below)
    hub = np.array([hubness.scale(float(h)) for h in hubness.of(vecs)], dtype=np.float32)
    calibrated = np.array([cos[i] for i in ids], dtype=np.float32) - hub
    order = np.argsort(-calibrated)
    best = float(calibrated[order[0]])
    runner_up = max(float(calibrated[order[1]]), 0.0) if len(order) > 1 else 0.0
    if best < CALIBRATED_MIN or best - runner_up < CALIBRATED_MARGIN:
        return None
    return ids[int(order[0])], best


def concerns(memory: Memory, named: Mapping[str, str]) -> bool:
    """The memory was told by (speaker_id), belongs to (owner_id), is keyed on (subject) or speaks
    about (its text, text.mentions: not "Thanks, Julian!") one of the named persons (name ->
    person id): "Julian's dentist is Dr. Hoffmann", told by Anna, concerns Julian as much as his
    own "My dentist is on Thursday"."""
    if not named:
        return False
    ids = set(named.values())
    return bool({memory.speaker_id, memory.owner_id, memory.subject} & ids) or bool(
        mentions(memory.content, named)
    )


def factors(
    candidate: RetrievalCandidate, memory: Memory, now: datetime, named: Mapping[str, str] = NOBODY
) -> dict[str, float]:
    """The named contributions to a hit's score (their sum is the score); `named`: the persons
    the query names (RecallOptions.named_persons), never lifting a sensitive memory."""
    age_days = max(0.0, (now - memory.updated_at).total_seconds() / 86400.0)
    out = {
        "similarity": W_SIMILARITY * candidate.similarity,
        "lexical": candidate.anchor + W_TERMS * candidate.terms,
        "provenance": W_PROVENANCE * (1.0 - memory.provenance.rank / (len(Provenance) - 1)),
        "importance": W_IMPORTANCE * memory.importance,
        "recency": W_RECENCY * math.pow(0.5, age_days / RECENCY_HALF_LIFE_DAYS),
    }
    if candidate.translation > candidate.terms:
        out["translation"] = W_TERMS * (candidate.translation - candidate.terms)
    if not memory.sensitive and concerns(memory, named):
        out["named"] = W_NAMED
    if candidate.about_speaker:
        out["about_speaker"] = W_ABOUT_SPEAKER
    if candidate.context:
        out["context"] = candidate.context
    return out


def gather(
    store: RecallStore,
    qvec: Vectors,
    semantic: list[tuple[str, float]],
    *,
    query: str,
    vis: Visibility,
    options: RecallOptions,
    hubness: Hubness,
) -> tuple[dict[str, RetrievalCandidate], list[Anchor]]:
    """Steps 1-3: the admitted candidates by id, and the query's anchors.

    semantic: the store's top visible [(id, cosine)], best first (TRANSLATION_POOL of them; the
    first SEMANTIC_POOL are candidates), cosines on the recall scale (hubness.scale); every
    similarity here is on that scale.
    """
    wide, semantic = semantic, semantic[:SEMANTIC_POOL]
    admitted = {i: s for i, s in semantic if s >= options.min_similarity}
    extra = calibrated_best(store, hubness, semantic, options.min_similarity)
    if extra is not None:
        admitted[extra[0]] = dict(semantic)[extra[0]]

    words = query_words(query, options.language)
    matches = store.term_matches(terms_of(words), vis, TERMS_POOL)
    bm25 = {mid: score for mid, (score, _) in matches.items()}
    best = max(bm25.values(), default=0.0)
    need = min(TERMS_ADMIT_WORDS, len(words))
    by_terms = set()  # admitted by full text alone: never a sensitive memory (checked when read)
    lenders = {}  # matches that answer like an answer would (by enough words, or an anchor) lend (2c)
    for mid, (score, terms) in matches.items():
        if score >= max(TERMS_ADMIT_SHARE * best, TERMS_ADMIT_MIN) and words_matched(words, terms) >= need:
            lenders[mid] = score
            if mid not in admitted:
                admitted[mid] = float("nan")  # similarity looked up below
                by_terms.add(mid)
    anchors = query_anchors(query, store)
    anchored: dict[str, float] = {}  # id -> anchor weight; an exact anchor (identifier/number) admits
    rare: dict[str, float] = {}  # a rare word only lifts what is admitted otherwise (full text decides)
    if anchors:
        exact = [a for a in anchors if a.kind is not AnchorKind.RARE_WORD]
        rare_words = [a for a in anchors if a.kind is AnchorKind.RARE_WORD]
        texts: dict[str, str] = {}
        if exact:  # an identifier/number admits: searched for in every visible memory
            texts.update(
                (row.id, row.content) for row in store.lexical(fts_phrases(exact), vis, LEXICAL_POOL)
            )
        if rare_words:  # a rare word only lifts: looked for among what the other legs found
            found = [i for i in dict.fromkeys([*admitted, *bm25]) if i not in texts]
            texts.update(store.containing(fts_phrases(rare_words), found, vis))
        for mid, content in texts.items():
            matched = matched_anchors(content, anchors)
            if _has_exact(matched):
                anchored[mid] = W_ANCHOR_EXACT
            elif matched:
                rare[mid] = W_ANCHOR_RARE
            elif mid in admitted and conflicts(content, anchors):
                del admitted[mid]
        # candidates whose text we have not seen yet: check for a conflicting id
        unseen = [i for i in admitted if i not in anchored]
        if unseen and _has_exact(anchors):
            for mid in _conflicting(store.get_many(unseen, vis), anchors):
                del admitted[mid]

    lenders.update((mid, bm25[mid]) for mid in {*anchored, *rare} if mid in bm25)
    borrowed = translations(store, lenders, dict(wide), vis, hubness, anchors=anchors)
    for mid, (seed, _) in borrowed.items():
        if (seed in admitted or seed in anchored) and mid not in admitted:
            admitted[mid] = float("nan")
            by_terms.add(mid)  # it entered by words it does not contain
    lent = {mid: score for mid, (_, score) in borrowed.items()}

    missing = [i for i in {*admitted, *anchored} if i not in admitted or math.isnan(admitted[i])]
    sims = _similarities(store, missing, qvec, hubness)
    out: dict[str, RetrievalCandidate] = {}
    for mid in {*admitted, *anchored}:
        sim = admitted.get(mid, math.nan)
        out[mid] = RetrievalCandidate(
            mid,
            sims.get(mid, 0.0) if math.isnan(sim) else sim,
            anchored.get(mid, rare.get(mid, 0.0)),
            bm25.get(mid, 0.0) / (best + TERMS_HALF),
            lent.get(mid, 0.0) / (best + TERMS_HALF),
            by_terms_only=mid in by_terms and mid not in anchored,
        )
    return out, anchors


def translations(
    store: RecallStore,
    bm25: dict[str, float],
    similarity: dict[str, float],
    vis: Visibility,
    hubness: Hubness,
    *,
    anchors: list[Anchor],
) -> dict[str, tuple[str, float]]:
    """Step 2c: memories that translate one of the TRANSLATION_SEEDS best full-text matches (by
    similarity + full-text share, as they rank) among those that match as an answer would —
    strong enough to enter by their words alone, or carrying one of the query's anchors (an
    identifier, number or rare word) — (`bm25`; one the conflict check with `anchors`, the
    query's, excludes or a sensitive one lends nothing): a match by one common word ("key") would
    lend its place to every copy of it in a household of several languages, ahead of the memory
    that answers. Looked for
    among `similarity`'s memories (the query's TRANSLATION_POOL nearest: id -> similarity on the
    recall scale) and the matches. A twin (same_meaning_pairs) is in another language, carries
    no number/identifier the match has another value of (lexical.other_values), no conflicting
    one and is not sensitive.

    bm25: id -> BM25 of those matches. Returns id -> (the match it translates, that match's
    BM25), the best such match per id; {} when nothing qualifies (at once, without any vector
    work, when every memory looked at is in one language).
    """
    language = store.languages([*similarity, *bm25])
    if len(set(language.values())) < 2:
        return {}

    best = max(bm25.values(), default=0.0)

    def rank(mid: str) -> tuple[float, str]:  # a match out of the pool is far from the query: 0
        return (-(similarity.get(mid, 0.0) + bm25[mid] / (best + TERMS_HALF)), mid)

    seeds = sorted((i for i in bm25 if i in language), key=rank)[:TRANSLATION_SEEDS]
    pairs = same_meaning_pairs(store, seeds, list(language), language, hubness.same_meaning)
    memories = store.get_many(list({i for pair in pairs for i in pair}), vis) if pairs else {}
    excluded = set(_conflicting(memories, anchors)) | {i for i, m in memories.items() if m.sensitive}
    out: dict[str, tuple[str, float]] = {}
    for seed, mid in pairs:
        if seed not in memories or mid not in memories or {seed, mid} & excluded:
            continue
        if bm25[seed] <= out.get(mid, ("", 0.0))[1]:
            continue
        if not other_values(memories[seed].content, memories[mid].content):
            out[mid] = (seed, bm25[seed])
    return out


def same_meaning_pairs(
    store: RecallStore, seeds: list[str], among: list[str], language: Mapping[str, str], level: float
) -> list[tuple[str, str]]:
    """(seed, twin) pairs by the nearest-both-ways rule (twins.twin_rows) among `among` (ids with
    a language; forgotten ones are skipped) at raw cosine >= `level` (Hubness.same_meaning).
    Reads their vectors."""
    if not seeds:
        return []
    ids, vectors = store.vectors(list(dict.fromkeys([*seeds, *among])))
    if not ids:
        return []
    row = {mid: k for k, mid in enumerate(ids)}
    pairs = twin_rows(vectors, [language[i] for i in ids], [row[s] for s in seeds if s in row], level)
    return [(ids[seed], ids[twin]) for seed, twin in pairs]


def recall(
    store: RecallStore,
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
    reads = RecallReads(store)  # each memory and vector read once in this recall (reads.py)
    # as of a moment: the memories current then, ranked as then (recency counted up to it)
    vis = Visibility.of(speaker, named_areas=options.named_areas, as_of=options.as_of)
    now = options.as_of or now
    owned_k = ABOUT_SPEAKER_MAX + options.limit if options.include_about_speaker else 0
    reads.prefetch(qvec, vis, query=query, language=options.language, k=TRANSLATION_POOL, owned_k=owned_k,
                   terms_limit=TERMS_POOL, phrases_limit=LEXICAL_POOL)  # fmt: skip
    semantic, owned = (
        [(i, hubness.scale(c)) for i, c in leg]
        for leg in reads.semantic(qvec, vis, TRANSLATION_POOL, owned_k=owned_k)
    )
    candidates, anchors = gather(
        reads, qvec, semantic, query=query, vis=vis, options=options, hubness=hubness
    )

    about = [RetrievalCandidate(mid, sim, about_speaker=True) for mid, sim in owned if mid not in candidates]
    owned_memories = reads.get_many([c.memory_id for c in about], vis)
    # the speaker's own memories ride along unasked: never their secrets (they come when asked
    # for), and for who asks, not for whom the question names (no "named" share)
    extra = [h for h in _hits(about, owned_memories, now) if not h.memory.sensitive][:ABOUT_SPEAKER_MAX]
    ranked = _ranked_prefix(reads, candidates, extra, vis, options=options, now=now)
    lifted = with_context(
        reads,
        qvec,
        ranked,
        candidates,
        anchors,
        vis=vis,
        now=now,
        hubness=hubness,
        named=options.named_persons,
    )
    return mark_outdated(reads, cap_slate(lifted, extra, options), hubness)


def mark_outdated(store: RecallStore, slate: list[Hit], hubness: Hubness) -> list[Hit]:
    """Step 8 on the capped slate (≤ options.limit hits, so pairwise is cheap): for each pair of
    hits where the newer likely replaces the older (facts.outdates, their similarity on the
    recall scale) the older is marked `outdated_by` the newest such hit, however the question was
    put (a rephrased one may score the older higher: it still holds no longer); and when the two
    answer the question about as well (the newer's query similarity at most NEWER_ANSWERS_GAP
    lower) the newer ranks ahead of the older when it is at most NEWER_WITHIN places behind —
    lifted to NEWER_AHEAD above it when it was behind (factor "newer"). The older stays in the
    slate (nobody settled it: it may still hold); other hits keep their scores and order. Best
    first."""
    pairs = [(old, new) for old in slate for new in slate if facts.may_outdate(old.memory, new.memory)]
    if not pairs:
        return slate
    ids, vecs = store.vectors(list({h.memory.id for pair in pairs for h in pair}))
    row = {mid: k for k, mid in enumerate(ids)}
    outdating: list[tuple[Hit, Hit]] = []
    for old, new in pairs:
        a, b = row.get(old.memory.id), row.get(new.memory.id)
        # a memory without a vector yet (re-embedding) is compared by its fact key only
        similarity = hubness.scale(float(vecs[a] @ vecs[b])) if a is not None and b is not None else 0.0
        if facts.outdates(old.memory, new.memory, similarity):
            outdating.append((old, new))
    if not outdating:
        return slate
    score = {h.memory.id: h.score for h in slate}
    place = {h.memory.id: k for k, h in enumerate(slate)}
    # oldest first: an older value's place is final before a newer one is set ahead of it
    for hit in sorted(
        {new.memory.id: new for _, new in outdating}.values(), key=lambda h: h.memory.created_at
    ):
        answered = [
            score[old.memory.id]
            for old, new in outdating
            if new.memory.id == hit.memory.id
            and new.similarity >= old.similarity - NEWER_ANSWERS_GAP
            and place[new.memory.id] - place[old.memory.id] <= NEWER_WITHIN
        ]
        if answered:
            score[hit.memory.id] = max(score[hit.memory.id], max(answered) + NEWER_AHEAD)
    newest: dict[str, Memory] = {}
    for old, new in outdating:
        held = newest.get(old.memory.id)
        if held is None or facts.precedence(new.memory) > facts.precedence(held):
            newest[old.memory.id] = new.memory
    out = []
    for hit in slate:
        gain = score[hit.memory.id] - hit.score
        moved = _boosted(hit, "newer", gain) if gain > 0 else hit
        out.append(replace(moved, outdated_by=newest[hit.memory.id].id) if hit.memory.id in newest else moved)
    out.sort(key=lambda h: -h.score)  # stable: hits that were not lifted keep their order
    return out


def answer_hit(hit: Hit, slate: list[Hit]) -> Hit:
    """The hit of `slate` that holds for `hit`: the newer value that outdates it when that is in the
    slate (following a chain of newer values), else `hit` itself."""
    by_id = {h.memory.id: h for h in slate}
    seen = {hit.memory.id}
    while hit.outdated_by in by_id and hit.outdated_by not in seen:
        hit = by_id[hit.outdated_by]
        seen.add(hit.memory.id)
    return hit


def with_context(
    store: RecallStore,
    qvec: Vectors,
    ranked: list[Hit],
    candidates: dict[str, RetrievalCandidate],
    anchors: list[Anchor],
    *,
    vis: Visibility,
    now: datetime,
    hubness: Hubness,
    named: Mapping[str, str] = NOBODY,
) -> list[Hit]:
    """Step 5 on the ranked head: every hit's conversation neighbours gain
    W_CONTEXT x CONTEXT_DECAY^(distance-1) x the hit's score (the best such share, never a share
    of a share); neighbours that were not ranked yet are read and scored on their own first.
    Then every hit with a source_ref gains W_CONVERSATION x the best score of its conversation.
    Returns the hits re-ranked, best first."""
    if not ranked:
        return ranked
    scores = {h.memory.id: _own(h) for h in ranked}
    share: dict[str, float] = {}
    for seed, near in store.neighbours(list(scores), vis, CONTEXT_WINDOW).items():
        for mid, distance in near:
            gain = W_CONTEXT * CONTEXT_DECAY ** (distance - 1) * max(scores[seed], 0.0)
            share[mid] = max(share.get(mid, 0.0), gain)
    new = [mid for mid in share if mid not in scores]
    sims = _similarities(store, [m for m in new if m not in candidates], qvec, hubness)
    fresh = [candidates.get(m) or RetrievalCandidate(m, sims.get(m, 0.0)) for m in new]
    fresh = [c for c in fresh if c.memory_id in candidates or c.similarity >= CONTEXT_ADMIT_SIMILARITY]
    memories = store.get_many([c.memory_id for c in fresh], vis)
    for mid in _conflicting(memories, anchors):  # the conflict check holds for neighbours too
        del memories[mid]
    lifted = [_boosted(h, "context", share[h.memory.id]) if h.memory.id in share else h for h in ranked]
    added = _hits([replace(c, context=share[c.memory_id]) for c in fresh], memories, now, named)
    hits = [*lifted, *added]
    best: dict[str, float] = {}  # source_ref -> its best hit's score
    for h in hits:
        if h.memory.source_ref is not None:
            best[h.memory.source_ref] = max(best.get(h.memory.source_ref, 0.0), _own(h))
    hits = [
        _boosted(h, "conversation", W_CONVERSATION * best[h.memory.source_ref])
        if h.memory.source_ref in best
        else h
        for h in hits
    ]
    return _best_first(hits)


def _borrowed(hit: Hit) -> float:
    """What the hit's score owes to a translated match's words (step 2c): such a place is filled
    last (cap_slate) and lends nothing to its conversation (with_context)."""
    return hit.factors.get("translation", 0.0)


def _own(hit: Hit) -> float:
    """What the hit lends its conversation: its score without borrowed words and without the
    named person's share (it says who the hit concerns, not what its neighbours say; measured:
    docs/recall-tuning.md "Who said it")."""
    return hit.score - _borrowed(hit) - hit.factors.get("named", 0.0)


def _has_exact(anchors: list[Anchor]) -> bool:
    """The query carries an identifier or number (what the conflict check compares)."""
    return any(a.kind is not AnchorKind.RARE_WORD for a in anchors)


def _conflicting(memories: dict[str, Memory], anchors: list[Anchor]) -> list[str]:
    """Ids of the memories carrying another identifier/number of the shape the query asks about."""
    if not _has_exact(anchors):
        return []
    return [mid for mid, memory in memories.items() if conflicts(memory.content, anchors)]


def _boosted(hit: Hit, factor: str, gain: float) -> Hit:
    """The hit with one more named factor (added to its score)."""
    return replace(hit, score=hit.score + gain, factors={**hit.factors, factor: gain})


def bound(candidate: RetrievalCandidate, named: Mapping[str, str] = NOBODY) -> float:
    """Upper bound of a candidate's score before its memory is read: similarity + lexical
    are known, the memory-dependent factors add at most MEMORY_FACTORS_MAX (+ W_NAMED when
    the query names someone)."""
    most = MEMORY_FACTORS_MAX + (W_NAMED if named else 0.0)
    return W_SIMILARITY * candidate.similarity + _lexical(candidate) + most


def _ranked_prefix(
    store: RecallStore,
    candidates: dict[str, RetrievalCandidate],
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
    named = options.named_persons
    order = sorted(candidates.values(), key=lambda c: (-bound(c, named), c.memory_id))
    fetched: list[Hit] = []
    start, batch = 0, max(FETCH_BATCH_MIN, 2 * options.limit)
    while start < len(order):
        chunk = order[start : start + batch]
        start += len(chunk)
        fetched = _best_first(
            [*fetched, *_hits(chunk, store.get_many([c.memory_id for c in chunk], vis), now, named)]
        )
        if start >= len(order):
            break
        ceiling = bound(order[start], named)
        settled = [h for h in fetched if h.score > ceiling]
        # only hits that answer on their own settle it: borrowed-word places are filled last
        own = [h for h in settled if not _borrowed(h)]
        if len(cap_slate(own, extra, options)) >= options.limit:
            return settled
        batch *= 2
    return fetched


def _similarities(store: RecallStore, ids: list[str], qvec: Vectors, hubness: Hubness) -> dict[str, float]:
    """Cosines of the given memories with the query, on the recall scale (hubness.scale)."""
    return {i: hubness.scale(c) for i, c in store.similarities(ids, qvec).items()}


def _best_first(hits: list[Hit]) -> list[Hit]:
    return sorted(hits, key=lambda h: (-h.score, h.memory.id))


def _lexical(candidate: RetrievalCandidate) -> float:
    """Anchor + full text (own words, or a translated match's when more; factors() names the
    borrowed part "translation")."""
    return candidate.anchor + W_TERMS * max(candidate.terms, candidate.translation)


def _hits(
    cands: list[RetrievalCandidate],
    memories: dict[str, Memory],
    now: datetime,
    named: Mapping[str, str] = NOBODY,
) -> list[Hit]:
    hits = []
    for c in cands:
        memory = memories.get(c.memory_id)
        if memory is None or (c.by_terms_only and memory.sensitive):
            continue
        f = factors(c, memory, now, named)
        hits.append(Hit(memory=memory, score=sum(f.values()), similarity=c.similarity, factors=f))
    hits.sort(key=lambda h: (-h.score, h.memory.id))
    return hits


def cap_slate(ranked: list[Hit], about: list[Hit], options: RecallOptions) -> list[Hit]:
    """Top hits within options.limit and options.max_chars (summed content length); the
    speaker's own memories (`about`) take up to ABOUT_SPEAKER_MAX of the places; hits lifted by a
    translation's borrowed words (factor "translation") take only places left over."""
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

    # a place won by borrowed words (step 2c) is filled last: a twin repeats a fact whose match is
    # usually in the slate already, and must not push out a memory that answers on its own
    take([h for h in ranked if not _borrowed(h)], options.limit - reserve)
    take(about, reserve)
    take(ranked, options.limit - len(slate))  # unused about places go back to matches
    slate.sort(key=lambda h: -h.score)
    return slate
