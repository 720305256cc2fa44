"""Tokens, document frequency and exact anchors for the lexical recall leg.

A memory enters the lexical leg only through an EXACT ANCHOR: a query token it contains
that is an identifier (letters+digits or hyphenated like HX-4471, kept whole), a number,
or a rare word (by document frequency). Common words never pull memories in, so a vague
query ("ticket plan") cannot drag in everything sharing a word.
FTS5's tokenizer splits "HX-4471" into "hx" and "4471"; identifiers are therefore
re-checked here on our own whole tokens.
Identifiers are compared in a normal form: a separator between a letter group and a digit group
is dropped, so "HX-4471", "hx4471" and "HX:4471" are one identifier, and a bare number matches a
digit group of an identifier ("4471" in "HX-4471";
"HX 4471" said with a space is the word "hx" and that number).
"""

from __future__ import annotations

import re
from collections.abc import Collection, Sequence
from dataclasses import dataclass
from enum import StrEnum
from functools import cached_property
from typing import Protocol

from . import language as lang_rules
from .language import TOKEN_RE, tokens

RARE_DF_FRACTION = 0.01  # a word in ≤ 1 % of memories is rare (at least 1 memory)
RARE_MIN_LENGTH = 4  # shorter words are function words in the supported languages
IDENTIFIER_MIN_LENGTH = 3  # "HX-4471", "A12"; shorter alnum bits ("3d") are not identifiers
CONFLICT_MIN_LENGTH = 3  # shorter numbers ("9", "10") differ between facts too often to exclude them
# a separator between letters and digits (either order): dropped in the normal form
_LETTER_DIGIT_SEPARATOR = re.compile(r"(?<=[^\W\d_])[-/.:](?=\d)|(?<=\d)[-/.:](?=[^\W\d_])")
_DIGIT_GROUP = re.compile(r"\d+")
_GROUP = re.compile(r"[^\W\d_]+|\d+")
_SEPARATOR = re.compile(r"[-/.:]")

# Frequent words of ≥ RARE_MIN_LENGTH letters in en/de/it/fr/es: never anchors, even in
# a tiny store where every word is "rare" by count.
STOPWORDS = frozenset(
    """
    what when where which while who whom whose with without would could should shall will have has
    having been being this that these those there their them they then than from into onto about
    your yours ours mine does did doing done just also only very some many much more most such each
    other over under again here status please tell know remember forget
    was ist sind sein seine seiner eine einer eines einem einen dass nicht noch auch aber oder wenn
    wann warum weil wird werden wurde haben hatte habe kann können muss über unter nach mich dich
    sich euch uns unser unsere wir ihr ihre dies diese dieser dieses wie welche welcher bitte
    merk merke vergiss jetzt schon immer
    come dove quando quale quali perché sono della delle dello degli nella nelle questo questa
    quello quella anche ancora molto sempre però cosa essere fatto hanno abbiamo ricorda dimentica
    pour dans avec sont sans sous leur leurs nous vous elle elles mais aussi comme quand quel quelle
    quels quelles cette est-ce être avoir fait très tout tous toute toutes souviens oublie
    para como donde dónde cuando cuándo cuál cuáles porque esta este estos estas esto ellos ellas
    nosotros pero también muy todo todos toda todas tiene tienen hace está están recuerda olvida
    """.split()  # noqa: SIM905 - one word list, kept readable
)


class AnchorKind(StrEnum):
    IDENTIFIER = "identifier"
    NUMBER = "number"
    RARE_WORD = "rare_word"


@dataclass(frozen=True, slots=True)
class Anchor:
    token: str
    kind: AnchorKind


class DocFrequency(Protocol):
    """What the lexical leg needs from a store to judge rarity."""

    def doc_count(self) -> int: ...
    def doc_frequencies(self, terms: Sequence[str], cap: int) -> dict[str, int]: ...


def _has_digit(token: str) -> bool:
    return _DIGIT_GROUP.search(token) is not None  # a C-level scan: this runs for every token of every row


def is_identifier(token: str) -> bool:
    """Letters and digits together (or digits joined by separators), e.g. hx-4471, a12, 12/3:
    a token with a digit that is not all digits (tokens hold only word characters and separators)."""
    return len(token) >= IDENTIFIER_MIN_LENGTH and not token.isdigit() and _has_digit(token)


def is_number(token: str) -> bool:
    return token.isdigit()


def shape(token: str) -> str:
    """Letters → a, digits → 9, separators kept: HX-4471 → aa-9999 (identifiers of one kind)."""
    return "".join("a" if c.isalpha() else "9" if c.isdigit() else c for c in token)


def normal_identifier(token: str) -> str:
    """The identifier without separators between letter and digit groups: hx-4471 → hx4471
    (12.5 and 10:30 keep theirs: between digits a separator is part of the value)."""
    return _LETTER_DIGIT_SEPARATOR.sub("", token)


def fts_phrases(anchors: list[Anchor]) -> list[str]:
    """FTS5 phrases finding every spelling of the anchors: FTS5 splits "HX-4471" into
    "hx 4471" but keeps "hx4471" whole, so an identifier is searched both ways."""
    out: list[str] = []
    for a in anchors:
        if a.kind is AnchorKind.IDENTIFIER:
            out.extend(dict.fromkeys([" ".join(_GROUP.findall(a.token)), a.token]))
        else:
            out.append(a.token)
    return out


class _Carried:
    """What a text carries for exact matching: tokens, normal identifiers, digit groups, parts.

    Built for every row a lexical leg returns, so each field is worked out on first use only:
    rare-word anchors, the most common, never need the digit groups or identifiers."""

    def __init__(self, content: str, *, fold: bool = True) -> None:
        self.text = (lang_rules.folded(content) if fold else content).lower()  # as compared

    @cached_property
    def tokens(self) -> frozenset[str]:
        return frozenset(TOKEN_RE.findall(self.text))

    @cached_property
    def digit_groups(self) -> frozenset[str]:
        return frozenset(_DIGIT_GROUP.findall(self.text))  # digits only occur inside tokens

    @cached_property
    def identifiers(self) -> frozenset[str]:
        """Identifiers in normal form (normal_identifier)."""
        if not self.digit_groups:
            return frozenset()
        return frozenset(normal_identifier(t) for t in self.tokens if is_identifier(t))

    @cached_property
    def parts(self) -> frozenset[str]:
        """The tokens with every joined run split at its separators ("hx-4471" -> "hx", "4471")."""
        joined = [t for t in self.tokens if _SEPARATOR.search(t)] if _SEPARATOR.search(self.text) else []
        return self.tokens.difference(joined).union(p for t in joined for p in _SEPARATOR.split(t))


def exact_kind(token: str) -> AnchorKind | None:
    """IDENTIFIER or NUMBER for tokens that anchor regardless of frequency, else None."""
    if is_identifier(token):
        return AnchorKind.IDENTIFIER
    if is_number(token):
        return AnchorKind.NUMBER
    return None


def anchor_candidates(query: str) -> list[Anchor | str]:
    """The query's anchors before the store is asked, in the query's order: its identifiers and
    numbers (Anchor), and the words that are anchors if rare in the store (str: letters only, ≥
    RARE_MIN_LENGTH, no stop word nor function word of the query's language: language.detect)."""
    found: list[Anchor | str] = []
    seen: set[str] = set(lang_rules.function_words(lang_rules.detect(query)))
    for tok in tokens(query):
        if tok in seen:
            continue
        seen.add(tok)
        kind = exact_kind(tok)
        if kind is AnchorKind.IDENTIFIER:
            found.append(Anchor(normal_identifier(tok), kind))
        elif kind is not None:
            found.append(Anchor(tok, kind))
        elif (
            tok.isalpha()
            and len(tok) >= RARE_MIN_LENGTH
            and tok not in STOPWORDS
            and lang_rules.has_lexical_words(tok)
        ):
            found.append(tok)
    return found


def rare_cap(doc_count: int) -> int:
    """The most memories a rare word is in (RARE_DF_FRACTION of them, at least 1)."""
    return max(1, int(doc_count * RARE_DF_FRACTION))


def query_anchors(query: str, store: DocFrequency) -> list[Anchor]:
    """The query's anchors: identifiers and numbers always, words only when rare in the store
    (anchor_candidates; their document frequencies are counted up to rare_cap + 1, in one round
    trip for all)."""
    found = anchor_candidates(query)
    words = [w for w in found if isinstance(w, str)]
    cap = rare_cap(store.doc_count()) if words else 0
    df = store.doc_frequencies(words, cap + 1) if words else {}
    return [
        w if isinstance(w, Anchor) else Anchor(w, AnchorKind.RARE_WORD)
        for w in found
        if isinstance(w, Anchor) or 0 < df[w] <= cap
    ]


def matched_anchors(content: str, anchors: list[Anchor]) -> list[Anchor]:
    """Anchors the content really contains, on our own tokens: identifiers in normal form (so
    HX-4471 = hx4471 ≠ HX-4478), numbers as a token or a digit group of one (4471 in HX-4471),
    rare words as tokens or token parts."""
    carried = _Carried(content)
    # a word or number the text holds is in its text: most texts hold none (no tokenising then);
    # an identifier may be written otherwise (hx-4471 for hx4471)
    if all(a.kind is not AnchorKind.IDENTIFIER and a.token not in carried.text for a in anchors):
        return []
    out = []
    for a in anchors:
        if a.kind is AnchorKind.RARE_WORD:
            found = a.token in carried.tokens or a.token in carried.parts
        elif a.kind is AnchorKind.IDENTIFIER:
            found = normal_identifier(a.token) in carried.identifiers
        else:
            found = a.token in carried.tokens or a.token in carried.digit_groups
        if found:
            out.append(a)
    return out


def conflicts(content: str, anchors: list[Anchor]) -> bool:
    """True when the content carries an identifier/number of the same shape as one the query
    asks about but not that one ("HX-4478" when asked about "HX-4471" or "4471")."""
    wanted = [a for a in anchors if a.kind is not AnchorKind.RARE_WORD]
    wanted = [a for a in wanted if len(a.token) >= CONFLICT_MIN_LENGTH]
    if not wanted:
        return False
    carried = _Carried(content)
    for a in wanted:
        token = normal_identifier(a.token)
        # a number's shape is all digits: only digit groups and all-digit tokens can share it
        # (str.isdigit also holds for "²", which the \d of the digit groups does not match)
        have = (
            carried.identifiers
            if a.kind is AnchorKind.IDENTIFIER
            else carried.digit_groups | {t for t in carried.tokens if t.isdigit()}
        )
        if another_value(token, have):
            return True
    return False


def another_value(value: str, have: Collection[str]) -> bool:
    """`have` lacks `value` but holds another value of its shape ("hx4478" for "hx4471")."""
    return value not in have and any(shape(t) == shape(value) for t in have)


IDENTITY_MIN_DIGITS = 3  # "4711", "HX-4471"'s 4471; "at 8" or "2 cats" identify nothing
# Digit groups one space (also no-break or thin), hyphen, dot, comma or apostrophe apart, no word
# between: "47 11", "4-7-1-1", "4.7.1.1" are 4711 as said or dictated, and a number is the same
# however a language groups or marks it ("158,349" / "158 349" / "158.349" / "158'349",
# "43.3" / "43,3"). Times ("8 30" → 830) and dates ("29.11.2026" → 29112026) are joined too:
# harmless, as an anchor only blocks together with TOMBSTONE_ANCHOR_SIMILARITY. Spelled-out
# numbers ("four seven one one", "forty-seven eleven") are out of scope: only similarity catches
# those.
_SPLIT_NUMBER = re.compile(r"(?<!\w)\d+(?:[ \u00a0\u202f.,'\u2019-]\d+)+(?!\w)")


def identity_anchors(text: str, *, fold: bool = True) -> frozenset[str]:
    """What identifies a fact by itself, in normal form: identifiers (hx-4471 → hx4471) and
    numbers/digit groups of ≥ IDENTITY_MIN_DIGITS digits (4711; 4471 of HX-4471, so a bare
    "4471" meets "HX-4471"), plus split numbers joined ("47 11", "4-7-1-1" → 4711; the groups
    stay too). Ordinary words are never in it. Tombstones keep these keyed
    (forgetting.anchor_digests) to recognise a forgotten code said in other words. Read from the
    folded text (language.folded: Arabic-Indic "٤٤٧١" and full-width digits are 4471);
    fold=False reads the digits as written, as versions before the folding did."""
    carried = _Carried(text, fold=fold)
    joined = (re.sub(r"\D", "", m) for m in _SPLIT_NUMBER.findall(carried.text))
    numbers = (d for d in (*carried.digit_groups, *joined) if len(d) >= IDENTITY_MIN_DIGITS)
    return frozenset(carried.identifiers) | frozenset(numbers)


def other_values(a: str, b: str) -> bool:
    """One text carries a number/identifier (identity_anchors) of a shape the other has another
    value of: "0171 5551234" / "0171 5559999". A number written differently ("17.786.419" /
    "17,786,419") or missing on one side is no other value."""
    ours, theirs = identity_anchors(a), identity_anchors(b)
    return any(another_value(x, theirs) for x in ours) or any(another_value(x, ours) for x in theirs)
