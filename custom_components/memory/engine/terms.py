"""Search terms for the full-text recall leg: content words, stemmed in their language.

A memory is indexed by the Snowball stems (`snowballstemmer`) of its words in the memory's
language, function words left out; a query is turned into the stems of its words in the query's
language, or in every supported language when that is unknown (the one the memory was indexed
in is among them). Ranking those terms with BM25 (the store's FTS5 `bm25()`) is what lets
"Where did Caroline go hiking?" meet "Caroline: We hiked up to the lake" — the measured gain
on LoCoMo is in docs/recall-quality.md (plain word BM25 0.497 → stemmed, function words out,
0.601 recall@10 on the held-out conversations).

Numbers are always terms (a function-word list must never swallow "10" or "4711").
"""

from __future__ import annotations

from functools import cache, lru_cache

import snowballstemmer

from .lexical import tokens

# memory/query language (ISO 639-1, as stored on memories) -> Snowball algorithm
SNOWBALL = {
    "en": "english", "de": "german", "it": "italian", "fr": "french", "es": "spanish",
    "nl": "dutch", "pt": "portuguese", "sv": "swedish", "da": "danish", "nb": "norwegian",
    "no": "norwegian", "fi": "finnish", "ru": "russian", "pl": "polish", "hu": "hungarian",
}  # fmt: skip
# Function words per language: articles, pronouns, auxiliaries, prepositions, conjunctions and
# question words — what every sentence has and no fact is about. Short on purpose: a long list
# (the stop-words package's 1333 English words) removes content words too and measured worse
# on LoCoMo (0.632 vs 0.679 recall@10 held-out).
FUNCTION_WORDS: dict[str, frozenset[str]] = {
    lang: frozenset(words.split())
    for lang, words in {
        "en": """a an the and or but nor so yet if then than as of at by for from in into on onto to
            with without about over under up down out off after before during since until again once
            i me my mine myself we us our ours you your yours he him his she her hers it its they them
            their theirs this that these those there here who whom whose which what when where why how
            is are was were be been being am do does did doing done have has had having will would
            shall should can could might must not no yes all any both each few more most other some
            such only own same too very just also really s t ll ve re d m don didn doesn isn wasn aren
            let lets tell know remember forget please""",
        "de": """der die das den dem des ein eine einer eines einem einen und oder aber doch wenn dann
            als wie so auch noch schon nur sehr nicht kein keine ich mich mir mein meine du dich dir
            dein deine er ihn ihm sein seine sie ihr ihre es wir uns unser unsere euch euer man ist sind
            war waren bin bist sein habe hast hat haben hatte hatten wird werden wurde kann können muss
            soll will zu zum zur im in an am auf aus bei mit nach von vor über unter für um durch bis
            was wer wen wem wo wann warum wieso welche welcher welches dass ob bitte merk merke vergiss""",
        "it": """il lo la i gli le un uno una e ed o ma se che chi cui di del della dei delle degli
            dello a al alla ai alle da dal dalla in nel nella nei nelle su sul sulla per con tra fra
            non io me mi mio mia tu te ti tuo tua lui lei gli suo sua noi ci nostro nostra voi vi loro
            è sono sei era erano essere ho hai ha abbiamo hanno avere come dove quando quale quali
            perché cosa anche molto più già ancora questo questa quello quella ricorda dimentica""",
        "fr": """le la les l un une des du de d et ou mais si que qu qui quoi dont à au aux en dans
            sur sous par pour avec sans chez je j me m moi mon ma mes tu te t toi ton ta tes il elle on
            nous vous ils elles lui leur leurs son sa ses ce c cet cette ces est sont suis es était
            être ai as a avons avez ont avoir ne pas plus très aussi comme où quand quel quelle quels
            quelles pourquoi comment souviens oublie""",
        "es": """el la los las lo un una unos unas y e o u pero si que qué quien quién de del a al en
            con sin por para sobre entre yo me mi mis mío tú te ti tu tus él ella le les nos nosotros
            vosotros ellos ellas su sus es son soy eres era eran ser estar está están he has ha hemos
            han tener tiene no muy más también como cómo donde dónde cuando cuándo cuál cuáles porque
            por qué este esta estos estas ese esa eso recuerda olvida""",
    }.items()
}  # fmt: skip
_ALL_FUNCTION_WORDS = frozenset().union(*FUNCTION_WORDS.values())


STEM_CACHE_SIZE = 20_000  # words x languages; a household's vocabulary fits (~1 MB)


@cache
def _stemmer(algorithm: str) -> snowballstemmer.stemmer:
    return snowballstemmer.stemmer(algorithm)


@lru_cache(maxsize=STEM_CACHE_SIZE)
def _stem(lang: str, word: str) -> str:
    """The word's Snowball stem in lang (a SNOWBALL key). Cached: the pure-Python stemmer takes
    ~80 µs a word, five languages per word when the query's language is unknown."""
    return str(_stemmer(SNOWBALL[lang]).stemWord(word))


def _base(language: str | None) -> str | None:
    """ "de-CH" -> "de" when supported, else None."""
    if not language:
        return None
    base = language.split("-")[0].split("_")[0].lower()
    return base if base in SNOWBALL else None


def _content_words(text: str, function_words: frozenset[str]) -> list[str]:
    """Word tokens (lexical.tokens, joined runs split at separators) that are no function words."""
    words = [part for token in tokens(text) for part in token.replace("-", " ").replace("/", " ").split()]
    return [w for w in words if w.isdigit() or w not in function_words]


def document_terms(text: str, language: str) -> str:
    """The memory's search terms, space-separated: stems of its content words in `language`
    (ISO 639-1; unsupported languages keep the lower-cased words). Never raises."""
    lang = _base(language)
    words = _content_words(text, FUNCTION_WORDS.get(lang or "", frozenset()))
    if lang is None:
        return " ".join(words)
    return " ".join(_stem(lang, w) for w in words)


def query_words(text: str, language: str | None = None) -> list[frozenset[str]]:
    """The query's content words, each as the set of terms that stand for it: its stem in
    `language`, or — when that is unknown or unsupported — its stems in each of en/de/it/fr/es plus
    the word itself. One set per distinct word, in first-seen order."""
    lang = _base(language)
    if lang is not None:
        words = _content_words(text, FUNCTION_WORDS.get(lang, frozenset()))
        groups = [frozenset({_stem(lang, w)}) for w in words]
    else:
        words = _content_words(text, _ALL_FUNCTION_WORDS)
        groups = [frozenset({w, *(_stem(code, w) for code in FUNCTION_WORDS)}) for w in words]
    return list(dict.fromkeys(groups))


def query_terms(text: str, language: str | None = None) -> list[str]:
    """All search terms of the query (query_words flattened), distinct, in first-seen order."""
    return terms_of(query_words(text, language))


def terms_of(words: list[frozenset[str]]) -> list[str]:
    """query_words flattened into distinct search terms, in first-seen order."""
    return list(dict.fromkeys(t for group in words for t in sorted(group)))


def words_matched(words: list[frozenset[str]], terms: str) -> int:
    """How many of the query's words (query_words) a memory's terms (document_terms) contain."""
    have = set(terms.split())
    return sum(1 for group in words if group & have)
