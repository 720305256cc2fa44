"""Search terms for the full-text recall leg: content words, stemmed in their language.

A memory is indexed by the Snowball stems (`snowballstemmer`) of its words in the memory's
language, function words left out; a query is turned into the stems of its words in the query's
language, or in every supported language when that is unknown (the one the memory was indexed
in is among them). Ranking those terms with BM25 (the store's FTS5 `bm25()`) is what lets
"Where did Caroline go hiking?" meet "Caroline: We hiked up to the lake" (measured on LoCoMo:
docs/recall-tuning.md "What was tried").

Numbers are always terms (a function-word list must never swallow "10" or "4711").
"""

from __future__ import annotations

from . import language as lang_rules
from .language import stem

# The languages a query's words are stemmed in when its language is unknown (and the word as said).
ANY_LANGUAGE = ("en", "de", "it", "fr", "es")


def _content_words(text: str, function_words: frozenset[str]) -> list[str]:
    """The text's words (language.words) that are no function words; numbers always stay."""
    return [w for w in lang_rules.words(text) if w.isdigit() or w not in function_words]


def document_terms(text: str, language: str | None) -> str:
    """The memory's search terms, space-separated tokens: stems of its content words in its
    language (language.lexical_language: detected, else `language`, ISO 639-1); words as said in
    a language without a stemmer, character bigrams of Chinese/Japanese runs, nothing of Thai
    (language.words). Never raises."""
    return terms_in(text, lang_rules.lexical_language(text, language))


def terms_in(text: str, language: str | None) -> str:
    """document_terms in a language known already (base form, e.g. a stored memory's), not
    detected again; words as said for None."""
    words = _content_words(text, lang_rules.function_words(language))
    return " ".join(stem(language, w) for w in words) if language is not None else " ".join(words)


def query_words(text: str, language: str | None = None) -> list[frozenset[str]]:
    """The query's content words, each as the set of terms that stand for it: its stem in the
    question's language — the detected one and the given one (HA's, which a household may not
    speak in) — and, when no language is given or the rules know neither (language.has_rules),
    its stems in each of ANY_LANGUAGE plus the word itself; in a compounding language also the
    stems of every last part it could end in (language.compound_heads). One set per distinct
    word, in first-seen order."""
    said = (lang_rules.detect(text), lang_rules.base(language))
    languages = list(dict.fromkeys(x for x in said if lang_rules.has_rules(x)))
    if language is None or not languages:  # not said: also as before (names stem alike across them)
        languages = list(dict.fromkeys([*languages, *ANY_LANGUAGE]))
    spoken = [x for x in said if x in languages]  # not ANY_LANGUAGE's guesses: no compounds of those
    skip = frozenset().union(*(lang_rules.function_words(x) for x in languages))
    words = _content_words(text, skip)
    keep_word = len(languages) > 1 or not lang_rules.stems_in(languages[0])
    groups = [
        frozenset(
            {
                *(stem(x, w) for x in languages),
                *((w,) if keep_word else ()),
                # "Werkzeugkasten" also finds "der Kasten" (language.compound_heads)
                *(stem(x, head) for x in spoken for head in lang_rules.compound_heads(w, x)),
            }
        )
        for w in words
    ]
    return list(dict.fromkeys(groups))


def query_terms(text: str, language: str | None = None) -> list[str]:
    """All search terms of the query (query_words flattened), distinct, in first-seen order."""
    return terms_of(query_words(text, language))


def terms_of(words: list[frozenset[str]]) -> list[str]:
    """query_words flattened into distinct search terms, in first-seen order."""
    return list(dict.fromkeys(t for group in words for t in sorted(group)))


def words_matched(words: list[frozenset[str]], held: frozenset[str]) -> int:
    """How many of the query's words (query_words) a memory holds, given the query's terms it holds
    (store.term_matches)."""
    return sum(1 for group in words if group & held)
