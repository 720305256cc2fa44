"""Checks on text a person or a model hands us: the engine's writer/recall and, through them,
the services, intents and LLM tools (one implementation, no Home Assistant imports).

Whitespace alone is not the only "nothing": zero-width spaces, BOMs, word joiners and other
format/control characters are invisible too, and a lone surrogate ("\\ud800") cannot be
encoded at all (SQLite and the encoder would raise UnicodeEncodeError deep inside).
"""

from __future__ import annotations

import functools
import re
import unicodedata
from collections.abc import Mapping

from .values import language_of, scan

# Texts whose wording is kept: every write compares its text with its bucket's nearest memories.
WORDINGS_CACHED = 4096

# Unicode categories that show nothing: controls, format chars (ZWSP, BOM, ZWJ, word joiner),
# the separators (spaces of every width, line/paragraph separators) and unassigned/surrogates.
INVISIBLE_CATEGORIES = frozenset({"Cc", "Cf", "Cs", "Cn", "Co", "Zs", "Zl", "Zp"})


def is_invisible(char: str) -> bool:
    """True for a character that shows nothing (whitespace, format or control)."""
    return char.isspace() or unicodedata.category(char) in INVISIBLE_CATEGORIES


# Tag characters (U+E0020-E007F) end an emoji tag sequence: the flags of England, Scotland and
# Wales are a black flag, tags, CANCEL TAG. Invisible (Cf) alone, part of the emoji after one.
_TAGS = range(0xE0020, 0xE0080)


def strip_invisible(text: str) -> str:
    """`text` without invisible characters at either end (inner ones are kept as said, and so
    are the tags that end an emoji tag sequence at the end of the text)."""
    start, end = 0, len(text)
    while start < end and is_invisible(text[start]):
        start += 1
    tags = end
    while tags > start and ord(text[tags - 1]) in _TAGS:
        tags -= 1
    if tags < end and tags > start and not is_invisible(text[tags - 1]):
        return text[start:end]  # a flag's tag sequence: part of the emoji
    while end > start and is_invisible(text[end - 1]):
        end -= 1
    return text[start:end]


def is_encodable(text: str) -> bool:
    """False when `text` holds lone surrogates (not valid UTF-8; cannot be stored or embedded)."""
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        return False
    return True


def visible_text(text: str) -> str | None:
    """`text` with invisible characters trimmed from both ends, or None when nothing usable
    is left (only invisible characters, or not encodable)."""
    if not is_encodable(text):
        return None
    return strip_invisible(text) or None


@functools.lru_cache(maxsize=WORDINGS_CACHED)
def wording(text: str, language: str | None = None) -> tuple[str, ...]:
    """`text` as compared for "the same text": its words case-folded (NFKC, digits of every script
    as ASCII), its values in canonical form (sign, decimals, grouping: values.py)
    and the symbols that carry meaning (currency, %, °, +, #, emoji), in order; other punctuation,
    whitespace and case are left out. language: the text's (ISO 639-1 or a locale; None: detected)."""
    return scan(text, language_of(text, language)).wording


def same_text(a: str, b: str, language: str | None = None, other_language: str | None = None) -> bool:
    """Equal `wording` (a in `language`, b in `other_language`, default the same): "identical text
    again" — case, whitespace and punctuation aside, never a value ("-5" is not "5",
    "2.5" not "2 5", "5 %" not "5", "€5" not "$5"); "5,5 °C" is "5.5 °C" in German.

    The only write-time duplicate: similarity cannot tell "HX-4471" from "HX-4478", "4711" from
    "4712" or "Montag" from "Dienstag" (≥ 0.92 for USE-m3), and merging keeps one text.
    Paraphrases are left to the fact rules and consolidation, which keep history."""
    return wording(a, language) == wording(b, other_language or language)


# A name set off as a vocative addresses the person ("Hey Caroline!", "Thanks, Anna.",
# "Julian, dinner is ready."): it says nothing about them. LoCoMo: of the turns that name the
# other speaker, 1,071 of 1,081 (conversations 0-4) and 876 of 885 (5-9) do so as a vocative.
_GREETINGS = frozenset({  # and interjections: "Yeah Jon, …", "Sorry Anna, …"
    "hey", "hi", "hello", "dear", "thanks", "congrats", "congratulations", "wow", "oh", "ah", "aw",
    "bye", "yeah", "yep", "yes", "sure", "ok", "okay", "well", "sorry",  # en
    "hallo", "danke", "liebe", "lieber", "ja", "ciao", "grazie", "cara", "caro", "si",  # de, it
    "hola", "gracias", "querida", "querido", "merci", "salut", "bonjour", "cher", "chere", "oui",  # es, fr
})  # fmt: skip
_NAME_TOKENS = re.compile(r"\w+(?:-\w+)*|[,;:.!?\-\u2013\u2014]")  # "Anna-Lena" is one name, not "Anna"
_SENTENCE_END = frozenset({"", ".", "!", "?", ":"})  # "" = the start or end of the text
_AFTER_VOCATIVE = frozenset({"", ",", ".", "!", "?", ";", ":", "-", "\u2013", "\u2014"})  # dashes


def _name_tokens(text: str) -> list[tuple[str, bool]]:
    """(token, capitalised) for the words and punctuation of `text`; words case-folded with
    diacritics dropped ("Zoë" -> "zoe"), hyphenated ones whole."""
    plain = (  # ASCII has no diacritics to drop (the character loop is most of the cost)
        text
        if text.isascii()
        else "".join(c for c in unicodedata.normalize("NFKD", text) if not unicodedata.combining(c))
    )
    return [(t.casefold(), t[:1].isupper()) for t in _NAME_TOKENS.findall(plain)]


@functools.lru_cache(maxsize=256)
def names_key(name: str) -> tuple[str, ...]:
    """The words of a name as names_in compares them ("Zoë Weber" -> ("zoe", "weber")); cached:
    recall compares the same few household names with every candidate it reads."""
    return tuple(t for t, _ in _name_tokens(name) if t not in _AFTER_VOCATIVE)


def _name_spans(
    text: str, names: Mapping[str, str], *, any_case: bool = False
) -> tuple[list[str], list[tuple[int, int, str]]]:
    """The tokens of `text`, and (start, end, name) of every name it says: whole words, the last
    also with a genitive "s"; capitalised, unless the text has no capitals at all ("bills" does
    not say "Bill", "what did julian say" says "Julian") or `any_case`; where matches overlap
    only the longest."""
    tokens = _name_tokens(text)
    words = [t for t, _ in tokens]
    cased = not any_case and any(c.isupper() for c in text)
    said = set(words)  # a name whose last word the text lacks is not looked for word by word
    spans: set[tuple[int, int, str]] = set()
    for name in names:
        parts = names_key(name)
        if not parts or (parts[-1] not in said and parts[-1] + "s" not in said):
            continue
        n, head, ends = len(parts), list(parts[:-1]), (parts[-1], parts[-1] + "s")
        for i in range(len(words) - n + 1):
            if words[i : i + n - 1] == head and words[i + n - 1] in ends and (tokens[i][1] or not cased):
                spans.add((i, i + n, name))
    # drop a span inside a longer one: by start, the longer first; contained if an earlier span
    # (another extent) already reaches as far
    kept, reach, last = [], -1, (-1, -1)
    for a, b, name in sorted(spans, key=lambda s: (s[0], -s[1], s[2])):
        if (a, b) != last and reach >= b:
            continue
        if (a, b) != last:
            reach, last = max(reach, b), (a, b)
        kept.append((a, b, name))
    return words, kept


def names_in(text: str, names: Mapping[str, str], *, any_case: bool = False) -> dict[str, str]:
    """The names of `names` (name -> id, e.g. "Julian" -> "person.julian") that `text` says, with
    their ids: whole words up to case and diacritics, the last word also with a genitive "s"
    ("Julians Zahnarzt"; "Julian's" is two words anyway), capitalised unless the text has no
    capitals or `any_case` (names of places: "the kitchen window" says "Kitchen"); where matches
    overlap only the longest counts ("Anna Schmidt" does not also say "Anna"); "Juliana" does
    not say "Julian"."""
    return {name: names[name] for _, _, name in _name_spans(text, names, any_case=any_case)[1]}


def mentions(text: str, names: Mapping[str, str]) -> bool:
    """True when `text` says one of `names` (as names_in) other than as a vocative: "Julian's
    dentist is Dr. Hoffmann" and "I met Anna, Julian and Leo" mention Julian; "Hey Julian!",
    "Thanks, Julian." and "Julian, dinner is ready." only address him."""
    words, spans = _name_spans(text, names)
    for start, end, _ in spans:
        before = words[start - 1] if start else ""
        after = words[end] if end < len(words) else ""
        vocative = (
            before in _GREETINGS
            or after == "!"
            or (before == "," and after in _AFTER_VOCATIVE)
            or (before in _SENTENCE_END and after == ",")
        )
        if not vocative:
            return True
    return False
