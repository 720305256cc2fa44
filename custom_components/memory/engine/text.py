"""Checks on text a person or a model hands us: the engine's writer/recall and, through them,
the services, intents and LLM tools (one implementation, no Home Assistant imports).

Whitespace alone is not the only "nothing": zero-width spaces, BOMs, word joiners and other
format/control characters are invisible too, and a lone surrogate ("\\ud800") cannot be
encoded at all (SQLite and the encoder would raise UnicodeEncodeError deep inside).
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Mapping

# Unicode categories that show nothing: controls, format chars (ZWSP, BOM, ZWJ, word joiner),
# the separators (spaces of every width, line/paragraph separators) and unassigned/surrogates.
INVISIBLE_CATEGORIES = frozenset({"Cc", "Cf", "Cs", "Cn", "Co", "Zs", "Zl", "Zp"})
_WORDS = re.compile(r"\w+")
_NAME_TOKENS = re.compile(r"\w+(?:-\w+)*|[,!]")  # "Anna-Lena" is one name, not "Anna"


def is_invisible(char: str) -> bool:
    """True for a character that shows nothing (whitespace, format or control)."""
    return char.isspace() or unicodedata.category(char) in INVISIBLE_CATEGORIES


def strip_invisible(text: str) -> str:
    """`text` without invisible characters at either end (inner ones are kept as said)."""
    start, end = 0, len(text)
    while start < end and is_invisible(text[start]):
        start += 1
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


def wording(text: str) -> list[str]:
    """The words of `text`, case-folded and NFC-normalised: what stays of it when case,
    whitespace and punctuation are ignored."""
    return _WORDS.findall(unicodedata.normalize("NFC", text).casefold())


def same_text(a: str, b: str) -> bool:
    """Equal up to case, whitespace and punctuation: "identical text again" (case C11).

    The only write-time duplicate: similarity cannot tell "HX-4471" from "HX-4478", "4711" from
    "4712" or "Montag" from "Dienstag" (≥ 0.92 for USE-m3), and merging keeps one text.
    Paraphrases (C12) are left to consolidation, which keeps history.
    """
    return wording(a) == wording(b)


# A name set off by a comma or "!", or right after a greeting, addresses the person ("Hey
# Caroline!", "Thanks, Anna."): it says nothing about them. LoCoMo conversations 0-4: 1,106 of
# the 1,108 turns that name the other speaker do so in address.
_GREETINGS = frozenset({
    "hey", "hi", "hello", "dear", "thanks", "congrats", "congratulations", "wow", "oh", "bye",  # en
    "hallo", "danke", "liebe", "lieber", "ciao", "grazie", "cara", "caro",  # de, it
    "hola", "gracias", "querida", "querido", "merci", "salut", "bonjour", "cher", "chere",  # es, fr
})  # fmt: skip
_ADDRESS_MARKS = frozenset({",", "!"})


def _name_tokens(text: str) -> list[str]:
    """Words (case-folded, diacritics dropped: "Zoë" = "zoe"; "Anna-Lena" one word) and the
    commas and exclamation marks between them."""
    decomposed = unicodedata.normalize("NFKD", text.casefold())
    return _NAME_TOKENS.findall("".join(c for c in decomposed if not unicodedata.combining(c)))


def _name_spans(tokens: list[str], names: Mapping[str, str]) -> list[tuple[int, int, str]]:
    """(start, end, name) of every name said in `tokens`, the last word also with a genitive "s";
    where matches overlap only the longest."""
    spans: list[tuple[int, int, str]] = []
    for name in names:
        parts = _name_tokens(name)
        n = len(parts)
        if not parts or any(p in _ADDRESS_MARKS for p in parts):
            continue
        for i in range(len(tokens) - n + 1):
            if tokens[i : i + n - 1] == parts[:-1] and tokens[i + n - 1] in (parts[-1], parts[-1] + "s"):
                spans.append((i, i + n, name))
    return [
        (a, b, name)
        for a, b, name in spans
        if not any(c <= a and b <= d and d - c > b - a for c, d, _ in spans)
    ]


def names_in(text: str, names: Mapping[str, str]) -> dict[str, str]:
    """The names of `names` (name -> id, e.g. "Julian" -> "person.julian") that `text` says, with
    their ids: whole words, up to case and diacritics, the last word also with a genitive "s"
    ("Julians Zahnarzt"; "Julian's" is two words anyway). Where matches overlap only the longest
    counts ("Anna Schmidt" does not also say "Anna"); "Juliana" does not say "Julian"."""
    return {name: names[name] for _, _, name in _name_spans(_name_tokens(text), names)}


def mentions(text: str, names: Mapping[str, str]) -> bool:
    """True when `text` says one of `names` (as names_in) other than in address: "Julian's dentist
    is Dr. Hoffmann" mentions Julian, "Thanks, Julian!" and "Hey Julian!" do not."""
    tokens = _name_tokens(text)
    for start, end, _ in _name_spans(tokens, names):
        before = tokens[start - 1] if start else ""
        after = tokens[end] if end < len(tokens) else ""
        if not (before in _ADDRESS_MARKS or before in _GREETINGS or after in _ADDRESS_MARKS):
            return True
    return False
