"""What kind of utterance a turn is, per language: a question, a statement, or only fillers.

Rules over words, like HA's own sentence templates: an utterance is a question when it ends with
a question mark or opens with a question word ("where", "wo", "dove", "où", "dónde", or a
request to tell: "tell me", "sag mir"); a statement is anything else of at least
STATEMENT_MIN_WORDS words that is not a device command and not only fillers or pleasantries
("thank you very much").
Languages without a table use the English one (only the question mark then helps).
"""

from __future__ import annotations

import re
import unicodedata
from typing import NamedTuple

from .answers import FALLBACK_LANGUAGE, base_language
from .engine.extraction import is_device_command

_WORD = re.compile(r"\w+(?:['\u2019]\w+)*")

# Words that only point at something, or pad a request ("that", "it", "for me", "please"): a
# remember or forget made of these alone names nothing ("Remember that for me.", "Merk dir das
# bitte."); the agent asks what to remember, and "forget that" means what was just remembered.
_FILLERS: dict[str, frozenset[str]] = {
    "en": frozenset(
        {"that", "this", "it", "one", "something", "so", "for", "to", "me", "us", "please", "now"}
        | {"too", "also", "again", "just", "thanks", "thank", "you", "ok", "okay", "as", "well"}
        | {"all", "later", "everything", "down", "here"}
    ),
    "de": frozenset(
        {"das", "dies", "dieses", "es", "etwas", "hier", "daran", "bitte", "mir", "mich", "uns", "für"}
        | {"doch", "mal", "auch", "noch", "danke", "jetzt", "einfach", "gleich", "dir", "s", "'s", "alles"}
    ),
    "it": frozenset(
        {"questo", "quello", "ciò", "cio", "lo", "la", "qualcosa", "di", "per", "me", "noi", "te"}
        | {"favore", "piacere", "grazie", "ora", "adesso", "anche", "pure", "mi", "ti", "ce", "ne", "tutto"}
    ),
    "fr": frozenset(
        {"ça", "ca", "cela", "ceci", "le", "la", "de", "en", "pour", "moi", "nous", "s'il", "te"}
        | {"plaît", "plait", "merci", "aussi", "maintenant", "stp", "bien", "tout", "ce", "truc"}
    ),
    "es": frozenset(
        {"eso", "esto", "lo", "la", "ello", "algo", "de", "para", "mí", "mi", "nosotros", "por"}
        | {"favor", "gracias", "también", "tambien", "ahora", "me", "te", "nos", "ya", "todo"}
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
        | {"quanta", "quante", "come", "perché", "perche", "sai", "dimmi", "ricordami", "qual", "qual'è"}
        | {"cos'è"}
    ),
    "fr": frozenset(
        {"que", "qu'est", "quoi", "où", "quand", "qui", "quel", "quelle", "quels", "quelles"}
        | {"comment", "pourquoi", "combien", "est", "sais", "dis", "rappelle"}
    ),
    "es": frozenset(
        {"qué", "dónde", "cuándo", "quién", "quiénes", "cuál", "cuáles", "cómo", "cuánto"}
        | {"cuánta", "cuántos", "cuántas", "dime", "recuérdame", "recuerdame", "sabes", "donde"}
        # speech-to-text may drop the accents; not "como", "cuando", "que": they open statements too
        | {"cual", "cuales", "quien", "quienes", "cuanto", "cuanta", "cuantos", "cuantas"}
    ),
}
# Statements that ask all the same ("I can't find the passports." = where are they?).
_ASKING: dict[str, re.Pattern[str]] = {
    "en": re.compile(
        r"^i\s+(?:can't|cannot|can not|couldn't)\s+find\b"
        r"|^i\s+(?:don't|do not)\s+know\s+(?:where|when|what|who|how)\b",
        re.I,
    ),
    "de": re.compile(r"^ich\s+finde\b.*\bnicht\b|^ich\s+weiß\s+nicht,?\s+(?:wo|wann|was|wer|wie)\b", re.I),
    "it": re.compile(r"^non\s+(?:trovo|riesco\s+a\s+trovare|so\s+(?:dove|quando|cosa|chi|come))\b", re.I),
    "fr": re.compile(
        r"^ou\s+(?:est|sont)\b|^je\s+ne\s+(?:trouve|retrouve)\s+pas\b|^je\s+ne\s+sais\s+pas\s+(?:où|quand|qui|comment)\b",
        re.I,
    ),
    "es": re.compile(r"^no\s+(?:encuentro|sé\s+(?:dónde|cuándo|qué|quién|cómo))\b", re.I),
}
# Pleasantries that are no statement of fact ("Thank you very much.", "Gute Nacht!").
_PLEASANTRIES: dict[str, frozenset[str]] = {
    "en": frozenset(
        {"thank", "thanks", "very", "much", "a", "lot", "good", "night", "morning", "evening"}
        | {"hello", "hi", "hey", "bye", "goodbye", "great", "nice", "cool", "sorry", "never", "mind"}
        | {"see", "later", "all", "right", "fine", "perfect", "awesome", "the", "day", "have"}
        | {"that's", "thats", "everyone", "everybody", "cheers", "sure", "go", "ahead", "was", "for"}
    ),
    "de": frozenset(
        {"danke", "schön", "sehr", "vielen", "dank", "gute", "guten", "nacht", "morgen", "abend"}
        | {"hallo", "tschüss", "super", "toll", "prima", "entschuldigung", "egal", "schon", "gut"}
        | {"in", "ordnung", "alles", "tag", "einen", "schönen", "zusammen", "war's", "wars", "klar", "lieben"}
    ),
    "it": frozenset(
        {"grazie", "mille", "tante", "buona", "buonanotte", "notte", "buongiorno", "buonasera"}
        | {"ciao", "perfetto", "ottimo", "scusa", "niente", "fa", "va", "bene", "giornata", "a", "tutti", "è"}
    ),
    "fr": frozenset(
        {"merci", "beaucoup", "bonne", "nuit", "bonjour", "bonsoir", "salut", "super", "parfait"}
        | {"désolé", "pardon", "rien", "très", "bien", "journée", "soirée", "d'accord", "à", "plus"}
        | {"tous", "c'est", "est"}
    ),
    "es": frozenset(
        {"gracias", "muchas", "muchísimas", "buenas", "noches", "buenos", "días", "hola", "adiós"}
        | {"perfecto", "genial", "perdón", "nada", "muy", "bien", "vale", "de", "acuerdo", "a", "todos", "es"}
    ),
}
STATEMENT_MIN_WORDS = 3  # fewer words are an answer or a fragment, not a fact to remember
# A plain yes or no: the only first words that answer a question when more follows ("No, turn on
# the kitchen light."); an acknowledgement there ("Okay, turn on …") answers nothing.
_PLAIN_YES: dict[str, frozenset[str]] = {
    "en": frozenset({"yes", "yeah", "yep", "yup"}),
    "de": frozenset({"ja", "jawohl", "jep"}),
    "it": frozenset({"sì", "si"}),
    "fr": frozenset({"oui", "ouais"}),
    "es": frozenset({"sí", "si"}),
}
_PLAIN_NO: dict[str, frozenset[str]] = {
    "en": frozenset({"no", "nope", "nah"}),
    "de": frozenset({"nein", "nö", "nee"}),
    "it": frozenset({"no"}),
    "fr": frozenset({"non"}),
    "es": frozenset({"no"}),
}
# First words of an answer to a yes/no question ("Yes, forget it.", "Nein, behalte es.").
_YES: dict[str, frozenset[str]] = {
    "en": _PLAIN_YES["en"] | {"sure", "ok", "okay", "correct", "right", "absolutely"},
    "de": _PLAIN_YES["de"] | {"genau", "klar", "gerne", "gern", "ok", "okay", "richtig"},
    "it": _PLAIN_YES["it"] | {"certo", "ok", "okay", "esatto", "procedi", "perfetto", "certamente"},
    "fr": _PLAIN_YES["fr"] | {"d'accord", "ok", "okay", "exactement", "absolument", "volontiers"},
    "es": _PLAIN_YES["es"] | {"claro", "vale", "ok", "okay", "adelante", "exacto", "perfecto"},
}
_NO: dict[str, frozenset[str]] = {
    "en": _PLAIN_NO["en"] | {"cancel", "don't", "dont", "keep"},
    "de": _PLAIN_NO["de"] | {"abbrechen", "behalte", "behalt", "lass", "nicht"},
    "it": _PLAIN_NO["it"] | {"annulla", "lascia", "tienilo", "tienila", "non"},
    "fr": _PLAIN_NO["fr"] | {"annule", "laisse", "garde", "garde-le", "ne"},
    "es": _PLAIN_NO["es"] | {"cancela", "déjalo", "dejalo", "guárdalo", "guardalo"},
}
ANSWER_MAX_WORDS = 8  # a longer reply is a new request, not an answer to the question
# An opening of at most three words set off by punctuation, then more: "No, turn on …", "Yes
# please. Wie spät …", "«Non… allume …»"; a hyphen only with a space before it ("Garde-le").
_OPENING = re.compile(
    r"\s*([¡\"'«„“]?)\s*([^\W\d_][\w'\u2019-]*(?:\s+[^\W\d_][\w'\u2019-]*){0,2}?)"
    r"(?:\s*[,.;:!…\u2013\u2014]+|\s+-)\s*(\S.*)",
    re.DOTALL,
)
_CLOSING_QUOTE = {'"': '"', "'": "'", "«": "»", "„": "“", "“": "”"}
_CLAUSE_END = re.compile(r"[,.;!?…]")  # not ":": "remember this: the bins …" names the bins
# Words that make a memory sentence's content a refusal, not a thing: "merk dir das bitte nicht".
_NEGATIONS: dict[str, frozenset[str]] = {
    "en": frozenset({"not", "nothing", "don't", "dont", "never", "no"}),
    "de": frozenset({"nicht", "nichts", "kein", "keine", "keinen", "nie", "niemals"}),
    "it": frozenset({"non", "niente", "nulla", "mai"}),
    "fr": frozenset({"pas", "rien", "jamais", "ne", "n"}),
    "es": frozenset({"no", "nada", "nunca", "jamás"}),
}
# "Yes, no problem": a plain no before one of these is part of a yes
_NO_IDIOMS = frozenset(
    {"problem", "problems", "worries", "worry", "problema", "problemas", "problème", "problemi"}
)
OPENINGS_MAX = 3  # "No, no, no, turn on …": the same answer said again is still the opening


def _words(text: str | None) -> list[str]:
    return [w.casefold() for w in _WORD.findall((text or "").replace("\u2019", "'"))]


def _table(tables: dict[str, frozenset[str]], language: str) -> frozenset[str]:
    return tables.get(base_language(language), tables[FALLBACK_LANGUAGE])


def is_filler(content: str | None, language: str) -> bool:
    """True when `content` names nothing: no words, or only fillers ("that for me", "das bitte")."""
    fillers = _table(_FILLERS, language)
    return all(word in fillers for word in _words(content))


def names_something(content: str | None, language: str) -> bool:
    """True when a memory sentence's `content` names something before its first punctuation
    mark (a colon goes on): not "it" in "forget it, I don't need that key anymore", nor "das
    bitte" in "merk dir das bitte, das ist wichtig" (is_filler), nor anything negated ("merk dir
    das bitte nicht, …", "remember nothing about that")."""
    clause = _CLAUSE_END.split(content or "", maxsplit=1)[0]
    negations = _table(_NEGATIONS, language)
    return not is_filler(clause, language) and not any(w in negations for w in _words(clause))


def is_question(text: str, language: str) -> bool:
    """True when `text` asks something: it ends with a question mark (also a full-width one,
    or opens with "¿"), its first word is a question word of `language` ("Where …", "Sag mir …"), or it says
    it cannot find or does not know something ("I can't find the passports.")."""
    stripped = text.strip().rstrip(".!…\"'»” ")
    if stripped.endswith(("?", "\uff1f")) or stripped.startswith("¿"):
        return True
    words = _words(stripped)
    if words and words[0] in _table(_QUESTION_WORDS, language):
        return True
    asking = _ASKING.get(base_language(language), _ASKING[FALLBACK_LANGUAGE])
    return bool(asking.search(stripped.replace("\u2019", "'")))


def is_statement(text: str, language: str) -> bool:
    """True when `text` states something that could be remembered: no question, no device
    command ("Turn on the garage light": engine.extraction.is_device_command), at least
    STATEMENT_MIN_WORDS words, not only fillers and pleasantries."""
    if is_question(text, language) or is_device_command(text):
        return False
    words = _words(text)
    ignorable = _table(_FILLERS, language) | _table(_PLEASANTRIES, language)
    return len(words) >= STATEMENT_MIN_WORDS and not all(word in ignorable for word in words)


def _answer_word(word: str, language: str, *, plain: bool = False) -> str | None:
    """ "yes" / "no" when `word` answers a question (only a plain yes or no when `plain`)."""
    if word in _table(_PLAIN_YES if plain else _YES, language):
        return "yes"
    if word in _table(_PLAIN_NO if plain else _NO, language):
        return "no"
    return None


def yes_or_no(text: str, language: str) -> str | None:
    """ "yes" or "no" when `text` answers a yes/no question by its first word ("Yes, forget it.",
    "Ja, bitte merken.", "No, tienilo."), in at most ANSWER_MAX_WORDS words; None otherwise, and
    when it says a plain yes and a plain no ("Yeah, no.", "Sì, cioè no, tienilo": _mixed)."""
    words = _words(text)
    if not words or len(words) > ANSWER_MAX_WORDS or _mixed(words, language):
        return None
    return _answer_word(words[0], language)


def _mixed(words: list[str], language: str) -> bool:
    """True when `words` hold both a plain yes and a plain no: an answer not to act on ("no
    problem", "no hay problema" is no "no": _NO_IDIOMS in the next two words)."""
    said = {
        _answer_word(w, language, plain=True)
        for i, w in enumerate(words)
        if _NO_IDIOMS.isdisjoint(words[i + 1 : i + 3])
    }
    return {"yes", "no"} <= said


class Opening(NamedTuple):
    """How an utterance opens with an answer word (answer_then): answer "yes" / "no" (as
    yes_or_no reads the word), plain: it is a plain yes or no (not "Okay", "Klar", "Keep"),
    rest: what follows the opening."""

    answer: str
    plain: bool
    rest: str


def answer_then(text: str, language: str) -> Opening | None:
    """The Opening when `text` opens with an answer word set off by punctuation and goes on
    ("No, turn on the kitchen light.", "Ja bitte. Wie spät ist es?", "Okay, turn on …");
    courtesy words may follow the word ("No thanks, …") and the opening may be said again
    ("No, no, …", up to OPENINGS_MAX). None when `text` does not open so, or says a plain yes
    and a plain no anywhere (_mixed). The punctuation is what tells "No, turn off the light"
    from "Don't turn off the light"."""
    if _mixed(_words(text), language):  # "Yeah, no, …", "Yes, I mean no, …": nothing to act on
        return None
    courtesy = _table(_FILLERS, language) | _table(_PLEASANTRIES, language)
    rest, opening = text, None
    for _ in range(OPENINGS_MAX):
        if (match := _OPENING.match(rest)) is None:
            break
        first, *more = _words(match[2]) or [""]
        if (answer := _answer_word(first, language)) is None or any(
            w not in courtesy and _answer_word(w, language) is None for w in more
        ):
            break
        rest = match[3].strip()
        closing = _CLOSING_QUOTE.get(match[1])
        if closing and rest.endswith(closing):  # a quoted answer: its own closing quote only
            rest = rest.removesuffix(closing).strip()
        plain = _answer_word(first, language, plain=True) is not None
        if opening is None or (plain and not opening.plain):  # "Okay, yes, …" answers yes
            opening = Opening(answer, plain, rest)
        opening = opening._replace(rest=rest)
    return opening


# What an emoji sequence joins or ends with (format characters that are part of the emoji): the
# zero-width joiner after a pictograph (its skin tone, its variation selector) and tag characters
# (a flag's "gbsct" + CANCEL TAG).
_ZWJ = "\u200d"
_EMOJI_BEFORE_JOINER = frozenset({"So", "Sk", "Mn"})
_TAGS = range(0xE0020, 0xE0080)


def for_matching(text: str) -> str:
    """`text` without format characters (zero-width spaces, BOMs, direction marks: Unicode "Cf"),
    which show nothing but stop sentence templates from matching ("Remember:\u200b …"); the
    joiners and tags inside an emoji sequence stay (what is remembered is taken from this text,
    verbatim)."""
    kept: list[str] = []
    for char in text:
        if unicodedata.category(char) == "Cf":
            before = kept[-1] if kept else ""
            joins = char == _ZWJ and before and unicodedata.category(before) in _EMOJI_BEFORE_JOINER
            tags = (
                ord(char) in _TAGS
                and before
                and (ord(before) in _TAGS or unicodedata.category(before) == "So")
            )
            if not (joins or tags):
                continue
        kept.append(char)
    return "".join(kept).strip()
