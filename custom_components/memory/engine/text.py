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


def names_in(text: str, names: Mapping[str, str]) -> frozenset[str]:
    """The ids whose name occurs in `text` as whole words, up to case (wording): `names` maps a
    name ("Julian", "Julian Weber") to an id ("person.julian"); a name of several words must
    occur as that run of words. "Julian's" names Julian, "Juliana" does not."""
    said = wording(text)
    found = set()
    for name, ident in names.items():
        parts = wording(name)
        if parts and any(said[i : i + len(parts)] == parts for i in range(len(said) - len(parts) + 1)):
            found.add(ident)
    return frozenset(found)
