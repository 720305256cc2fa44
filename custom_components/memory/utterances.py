"""What kind of utterance a turn is, per language: a question, a statement, or only fillers.

Rules over words, like HA's own sentence templates: an utterance is a question when it ends with
a question mark or opens with a question word ("where", "wo", "dove", "où", "dónde", or a
request to tell: "tell me", "sag mir"); a statement is anything else of at least
STATEMENT_MIN_WORDS words that is not only fillers or pleasantries ("thank you very much").
Languages without a table use the English one (only the question mark then helps).
"""

from __future__ import annotations

import re

from .answers import FALLBACK_LANGUAGE, base_language

_WORD = re.compile(r"\w+(?:['\u2019]\w+)*")

# Words that only point at something, or pad a request ("that", "it", "for me", "please"): a
# remember or forget made of these alone names nothing ("Remember that for me.", "Merk dir das
# bitte."); the agent asks what to remember, and "forget that" means what was just remembered.
_FILLERS: dict[str, frozenset[str]] = {
    "en": frozenset(
        {"that", "this", "it", "one", "something", "so", "for", "to", "me", "us", "please", "now"}
        | {"too", "also", "again", "just", "thanks", "thank", "you", "ok", "okay", "as", "well"}
    ),
    "de": frozenset(
        {"das", "dies", "dieses", "es", "etwas", "hier", "daran", "bitte", "mir", "mich", "uns", "für"}
        | {"doch", "mal", "auch", "noch", "danke", "jetzt", "einfach", "gleich", "dir", "s", "'s"}
    ),
    "it": frozenset(
        {"questo", "quello", "ciò", "cio", "lo", "la", "qualcosa", "di", "per", "me", "noi", "te"}
        | {"favore", "piacere", "grazie", "ora", "adesso", "anche", "pure", "mi", "ti", "ce", "ne"}
    ),
    "fr": frozenset(
        {"ça", "ca", "cela", "ceci", "le", "la", "de", "en", "pour", "moi", "nous", "s'il", "te"}
        | {"plaît", "plait", "merci", "aussi", "maintenant", "stp", "bien", "tout", "ce", "truc"}
    ),
    "es": frozenset(
        {"eso", "esto", "lo", "la", "ello", "algo", "de", "para", "mí", "mi", "nosotros", "por"}
        | {"favor", "gracias", "también", "tambien", "ahora", "me", "te", "nos", "ya"}
    ),
}


# First words that open a question (or ask to be told something).
_QUESTION_WORDS: dict[str, frozenset[str]] = {
    "en": frozenset(
        {"what", "what's", "whats", "where", "where's", "wheres", "when", "when's", "who", "who's"}
        | {"whom", "whose", "which", "how", "how's", "why", "is", "are", "was", "were", "do", "does"}
        | {"did", "can", "could", "will", "would", "should", "shall", "has", "have", "had", "am"}
        | {"tell", "remind"}
    ),
    "de": frozenset(
        {"was", "wo", "wohin", "woher", "wann", "wer", "wem", "wen", "wessen", "welche", "welcher"}
        | {"welches", "welchen", "welchem", "wie", "warum", "wieso", "weshalb", "ist", "sind", "hat"}
        | {"hast", "haben", "kann", "kannst", "gibt", "weißt", "weisst", "war", "wird", "muss", "soll"}
        | {"sag", "sage", "erinnere"}
    ),
    "it": frozenset(
        {"cosa", "che", "chi", "dove", "dov'è", "quando", "quale", "quali", "quanto", "quanti"}
        | {"quanta", "quante", "come", "perché", "perche", "sai", "dimmi", "ricordami"}
    ),
    "fr": frozenset(
        {"que", "qu'est", "quoi", "où", "quand", "qui", "quel", "quelle", "quels", "quelles"}
        | {"comment", "pourquoi", "combien", "est", "sais", "dis", "rappelle"}
    ),
    "es": frozenset(
        {"qué", "dónde", "cuándo", "quién", "quiénes", "cuál", "cuáles", "cómo", "cuánto"}
        | {"cuánta", "cuántos", "cuántas", "dime", "recuérdame", "recuerdame", "sabes"}
    ),
}
# Pleasantries that are no statement of fact ("Thank you very much.", "Gute Nacht!").
_PLEASANTRIES: dict[str, frozenset[str]] = {
    "en": frozenset(
        {"thank", "thanks", "very", "much", "a", "lot", "good", "night", "morning", "evening"}
        | {"hello", "hi", "hey", "bye", "goodbye", "great", "nice", "cool", "sorry", "never", "mind"}
        | {"see", "later", "all", "right", "fine", "perfect", "awesome", "the", "day", "have"}
    ),
    "de": frozenset(
        {"danke", "schön", "sehr", "vielen", "dank", "gute", "guten", "nacht", "morgen", "abend"}
        | {"hallo", "tschüss", "super", "toll", "prima", "entschuldigung", "egal", "schon", "gut"}
        | {"in", "ordnung", "alles", "tag", "einen", "schönen"}
    ),
    "it": frozenset(
        {"grazie", "mille", "tante", "buona", "buonanotte", "notte", "buongiorno", "buonasera"}
        | {"ciao", "perfetto", "ottimo", "scusa", "niente", "fa", "va", "bene", "giornata"}
    ),
    "fr": frozenset(
        {"merci", "beaucoup", "bonne", "nuit", "bonjour", "bonsoir", "salut", "super", "parfait"}
        | {"désolé", "pardon", "rien", "très", "bien", "journée", "soirée", "d'accord", "à", "plus"}
    ),
    "es": frozenset(
        {"gracias", "muchas", "muchísimas", "buenas", "noches", "buenos", "días", "hola", "adiós"}
        | {"perfecto", "genial", "perdón", "nada", "muy", "bien", "vale", "de", "acuerdo"}
    ),
}
STATEMENT_MIN_WORDS = 3  # fewer words are an answer or a fragment, not a fact to remember


def _words(text: str | None) -> list[str]:
    return [w.casefold() for w in _WORD.findall((text or "").replace("\u2019", "'"))]


def _table(tables: dict[str, frozenset[str]], language: str) -> frozenset[str]:
    return tables.get(base_language(language), tables[FALLBACK_LANGUAGE])


def is_filler(content: str | None, language: str) -> bool:
    """True when `content` names nothing: no words, or only fillers ("that for me", "das bitte")."""
    fillers = _table(_FILLERS, language)
    return all(word in fillers for word in _words(content))


def is_question(text: str, language: str) -> bool:
    """True when `text` asks something: it ends with a question mark (also a full-width one, or opens with
    "¿") or its first word is a question word of `language` ("Where …", "Sag mir …")."""
    stripped = text.strip().rstrip(".!…\"'»” ")
    if stripped.endswith(("?", "\uff1f")) or stripped.startswith("¿"):
        return True
    words = _words(stripped)
    return bool(words) and words[0] in _table(_QUESTION_WORDS, language)


def is_statement(text: str, language: str) -> bool:
    """True when `text` states something that could be remembered: no question, at least
    STATEMENT_MIN_WORDS words, not only fillers and pleasantries."""
    if is_question(text, language):
        return False
    words = _words(text)
    ignorable = _table(_FILLERS, language) | _table(_PLEASANTRIES, language)
    return len(words) >= STATEMENT_MIN_WORDS and not all(word in ignorable for word in words)
