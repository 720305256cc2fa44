"""The languages of memories and questions, in one place for every path that reads words: which
language a text is in, how it is cut into words, which words are function words, and how a word
is stemmed. The full-text terms (terms.py), the exact anchors (lexical.py), the fact rules
(facts.py) and both stores' full-text indexes call these functions and nothing else.

Support levels (README "Languages", docs/recall-quality.md):
- full lexical support — words stemmed (Snowball, `snowballstemmer`) with a function-word list:
  en, de, it, fr, es (hand-written short lists, measured on LoCoMo), ru, nl, pt, pl, tr, ar and
  the other Snowball languages (the `stop-words` package's lists where it has one);
- Chinese and Japanese: no spaces between words, so every run of Han/kana characters is cut into
  overlapping character bigrams (as Lucene's CJK analyzer does: no dictionary to install or keep);
- every other language (Korean, …): its words as said, no stemming;
- Thai: no word boundaries and no segmenter we can install everywhere: Thai runs give no terms
  and no anchors, so the lexical legs stay out of the way (vector recall and identifiers/numbers
  still work).

Language detection (`detect`) is py3langid's naive Bayes model restricted to DETECTABLE; a
text's language for its words (`lexical_language`) is the detected one when it is sure, else
the one given.
"""

from __future__ import annotations

import re
import unicodedata
from functools import cache, lru_cache

import snowballstemmer

# The bundled encoder's languages (USE multilingual v3; zh-TW folds into zh): recall works across
# all of them, whatever the lexical support.
ENCODER_LANGUAGES = frozenset(
    ["ar", "zh", "nl", "en", "fr", "de", "it", "ja", "ko", "pl", "pt", "ru", "es", "th", "tr"]
)
# language (ISO 639-1) -> Snowball algorithm
SNOWBALL = {
    "en": "english", "de": "german", "it": "italian", "fr": "french", "es": "spanish",
    "nl": "dutch", "pt": "portuguese", "sv": "swedish", "da": "danish", "nb": "norwegian",
    "no": "norwegian", "fi": "finnish", "ru": "russian", "pl": "polish", "hu": "hungarian",
    "tr": "turkish", "ar": "arabic", "ro": "romanian", "cs": "czech", "el": "greek",
    "ca": "catalan", "id": "indonesian",
}  # fmt: skip
BIGRAM_LANGUAGES = frozenset({"zh", "ja"})  # cut into character bigrams (no spaces between words)
NO_LEXICAL = frozenset({"th"})  # no terms, no anchors: the lexical legs stay out of the way
# What detect() chooses among: the encoder's languages and the stemmed ones (restricted, it is right
# more often on XQuAD: docs/recall-tuning.md "Every language the encoder knows").
DETECTABLE = ENCODER_LANGUAGES | frozenset(SNOWBALL) - {"nb"}
DETECT_MIN_PROBABILITY = 0.9  # below it the given language stands (chosen on XQuAD questions, same section)
DETECT_MIN_LETTERS = 4  # "ok", "HX-4471": too little to tell a language by

# Scripts written without spaces between words: Han (CJK ideographs, extensions, compatibility),
# hiragana, katakana (and its phonetic extensions, half-width forms), the iteration mark 々; Thai.
_HAN_KANA = (
    "\u3005\u3040-\u30ff\u31f0-\u31ff\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff\uff66-\uff9f"
    "\U00020000-\U0003134f"
)
_THAI = "\u0e00-\u0e7f"
_NO_SPACES = _HAN_KANA + _THAI
# Hangul is written with spaces, but a particle or noun sits right against a Latin or digit run
# ("티켓HX-4471은"): its runs are set apart from letters and digits of other scripts too.
_HANGUL = "\u1100-\u11ff\u3130-\u318f\uac00-\ud7af"
_SET_APART = _NO_SPACES + _HANGUL
SET_APART = _SET_APART  # those scripts' ranges as a regex class body, for the value tokenizer (values.py)
# A word: a run of one set-apart script, or a run of other word characters where hyphen, slash,
# dot or colon joined runs stay one token ("hx-4471", "12.5"); a script change ends a word, so
# "工单HX-4471已关闭" is "工单", "hx-4471", "已关闭".
TOKEN_RE = re.compile(
    rf"[{_HAN_KANA}]+|[{_THAI}]+|[{_HANGUL}]+|[^\W{_SET_APART}]+(?:[-/.:][^\W{_SET_APART}]+)*"
)
_HAN_KANA_RUN = re.compile(rf"[{_HAN_KANA}]+")
_THAI_RUN = re.compile(rf"[{_THAI}]+")
_SET_APART_RUN = re.compile(rf"[{_SET_APART}]+")
_DIGIT = re.compile(r"\d")  # any script's decimal digit (str patterns match Unicode Nd)

STEM_CACHE_SIZE = 20_000  # words x languages; a household's vocabulary fits (~1 MB)


def base(language: str | None) -> str | None:
    """ "de-CH" / "zh_TW" / "ZH-Hant" -> "de" / "zh" / "zh": the ISO 639-1 part, lower-cased; None
    for None or ""."""
    if not language:
        return None
    return language.split("-", maxsplit=1)[0].split("_", maxsplit=1)[0].casefold() or None


def folded(text: str) -> str:
    """`text` as words and numbers are compared: Unicode compatibility forms folded (NFKC:
    full-width letters and digits are ASCII ones, half-width katakana full) and every script's
    decimal digits written as ASCII digits (Arabic-Indic "٤٤٧١", Devanagari … are "4471").
    For matching only, never for what is stored."""
    if text.isascii():
        return text
    text = unicodedata.normalize("NFKC", text)
    return _DIGIT.sub(lambda m: str(unicodedata.digit(m.group(0))), text)


def tokens(text: str) -> list[str]:
    """Lower-cased word tokens (TOKEN_RE) of the folded text: joined runs like "hx-4471" or
    "12.5" stay whole, a run of Han/kana, Thai or Hangul is one token apart from the letters and
    digits around it."""
    return TOKEN_RE.findall(folded(text).lower())


def spaced(text: str) -> str:
    """The folded `text` with a space around every run of a set-apart script, so that a tokenizer
    splitting at spaces and punctuation (SQLite FTS5 unicode61; the PostgreSQL store's copy of
    it) sees "工单HX-4471已关闭" as "工单", "hx", "4471", "已关闭" — what tokens() sees."""
    text = folded(text)
    return _SET_APART_RUN.sub(lambda m: f" {m.group(0)} ", text) if _SET_APART_RUN.search(text) else text


def bigrams(run: str) -> list[str]:
    """Overlapping character bigrams of a Han/kana run ("钥匙在哪" -> "钥匙", "匙在", "在哪"); a
    single character stays itself."""
    return [run] if len(run) < 2 else [run[i : i + 2] for i in range(len(run) - 1)]


def words(text: str) -> list[str]:
    """The text's words as the full-text terms count them: tokens with joined runs split at their
    separators ("hx-4471" -> "hx", "4471"), Han/kana runs cut into bigrams, Thai runs left out
    (NO_LEXICAL)."""
    out: list[str] = []
    for token in tokens(text):
        if _HAN_KANA_RUN.fullmatch(token):
            out.extend(bigrams(token))
        elif not _THAI_RUN.fullmatch(token):
            out.extend(token.replace("-", " ").replace("/", " ").split())
    return out


def has_lexical_words(token: str) -> bool:
    """False for a token of a script the lexical legs leave alone (Thai)."""
    return _THAI_RUN.fullmatch(token) is None


@cache
def function_words(language: str | None) -> frozenset[str]:
    """The language's function words (lower-case; empty for None or a language without a list):
    the hand-written short list for en/de/it/fr/es (FUNCTION_WORDS), the `stop-words` package's
    for the others it knows."""
    if language is None:
        return frozenset()
    if language in FUNCTION_WORDS:
        return FUNCTION_WORDS[language]
    if language in BIGRAM_LANGUAGES or language not in SNOWBALL:
        return frozenset()
    from stop_words import LANGUAGE_MAPPING, get_stop_words  # noqa: PLC0415 - read once, on first use

    if language not in LANGUAGE_MAPPING:
        return frozenset()
    return frozenset(w.lower() for w in get_stop_words(language))


def stems_in(language: str | None) -> bool:
    """True when `language` has a Snowball stemmer."""
    return language in SNOWBALL


def has_rules(language: str | None) -> bool:
    """True when the lexical rules know `language`: a Snowball stemmer or bigram cutting."""
    return language in SNOWBALL or language in BIGRAM_LANGUAGES


@lru_cache(maxsize=STEM_CACHE_SIZE)
def stem(language: str, word: str) -> str:
    """The word's Snowball stem in `language` (a SNOWBALL key; any other language: the word).
    Cached: the pure-Python stemmer takes ~80 µs a word."""
    if language not in SNOWBALL:
        return word
    return str(_stemmer(SNOWBALL[language]).stemWord(word))


@cache
def _stemmer(algorithm: str) -> snowballstemmer.stemmer:
    return snowballstemmer.stemmer(algorithm)


@cache
def _identifier():  # type: ignore[no-untyped-def]  # py3langid ships no type hints
    """py3langid's model restricted to DETECTABLE (loaded once, ~1.5 s: the model decompresses)."""
    from py3langid.langid import MODEL_FILE, LanguageIdentifier  # noqa: PLC0415 - loaded on first use

    identifier = LanguageIdentifier.from_model_file(MODEL_FILE, norm_probs=True)
    identifier.set_languages(sorted(DETECTABLE & set(identifier.labels)))
    return identifier


@lru_cache(maxsize=1024)
def detect(text: str) -> str | None:
    """The language `text` is in (ISO 639-1, one of DETECTABLE) when the detector is at least
    DETECT_MIN_PROBABILITY sure, else None (also for texts with fewer than DETECT_MIN_LETTERS
    letters). Never raises; ~0.1-0.6 ms for a sentence."""
    if sum(c.isalpha() for c in text) < DETECT_MIN_LETTERS:
        return None
    try:
        language, probability = _identifier().classify(text)
    except Exception:
        return None
    return str(language) if probability >= DETECT_MIN_PROBABILITY else None


def said_in(text: str, given: str) -> str:
    """The language a memory is stored with: the detected one when the detector is sure (a
    service or an LLM tool passes HA's configured language, whatever the text was said in), else
    the given one."""
    return detect(text) or given


def lexical_language(text: str, given: str | None) -> str | None:
    """The language whose rules read the words of `text` (base form): said_in, or None when
    neither the detector nor the caller knows it."""
    return base(said_in(text, given or ""))


# Function words: what every sentence has and no fact is about. Short on purpose: a long list removes
# content words too (docs/recall-tuning.md "What was tried").
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


# ---------------------------------------------------------------------------- compounds
# Languages that write a compound as one word (German Werkzeugkasten, Dutch gereedschapskist,
# Swedish verktygslåda, Finnish työkalupakki): its last part names the thing, and a later
# "der Kasten" speaks of the same thing.
COMPOUNDING = frozenset({"de", "nl", "sv", "da", "nb", "no", "fi", "is", "af"})
COMPOUND_PART_MIN = 3  # letters of the head and of what comes before it ("Kellertür" / "Tür")
COMPOUND_HEAD_MAX = 24  # letters of a last part looked up: longer is no word, and bounds hostile input


def compound_heads(word: str, language: str | None) -> list[str]:
    """Every last part `word` (casefolded) could end in as a compound in a COMPOUNDING language
    (Werkzeugkasten / Kasten, Kellertür / Tür, gereedschapskist / kist), longest first; [] in
    any other language. Without a lexicon every split point counts: what
    is no word finds nothing in the index. At most COMPOUND_HEAD_MAX - COMPOUND_PART_MIN + 1 parts,
    however long the word."""
    if base(language) not in COMPOUNDING or not word.isalpha():
        return []
    first = max(COMPOUND_PART_MIN, len(word) - COMPOUND_HEAD_MAX)
    return [word[i:] for i in range(first, len(word) - COMPOUND_PART_MIN + 1)]


# ---------------------------------------------------------------------------- speaking of oneself
# The first person singular per language, the one list every rule reads (the writer's scope, the
# fact rules' reading, a fact key's subject). Italian and Spanish drop the pronoun ("sono
# allergico", "tengo cita"), so the common verb forms that can only be "I" count too. Curated
# lists, not endings: "-o" would take "il cassetto" for a verb. Tokens keep a trailing apostrophe
# ("j'ai" -> "j'", "ai"). Wrongly private is a small harm, wrongly shared a leak
# (docs/privacy.md), so doubtful forms lean private.
SELF_PRONOUNS: dict[str, frozenset[str]] = {
    "en": frozenset({"i", "i'", "im", "my", "me", "mine", "myself"}),
    "de": frozenset({"ich", "mir", "mich", "mein", "meine", "meinen", "meinem", "meiner", "meines", "meins"}),
    "it": frozenset({"io", "mi", "me", "m'", "mio", "mia", "miei", "mie"}),
    "fr": frozenset({"je", "j'", "moi", "me", "m'", "mon", "ma", "mes"}),
    "es": frozenset({"yo", "mi", "mí", "mis", "me", "conmigo", "mío", "mía", "míos", "mías"}),
}  # fmt: skip
SELF_VERBS: dict[str, frozenset[str]] = {
    "de": frozenset({"bin", "hab", "hab'", "habe"}),  # only "ich": "bin allergisch", "hab's im Keller"
    "it": frozenset(
        {"ho", "sto", "vado", "faccio", "devo", "posso", "voglio", "preferisco", "abito", "mangio"}
        | {"bevo", "adoro", "amo", "odio", "so", "conosco", "ero", "avevo", "sarò", "avrò", "soffro"}
        | {"prendo", "parlo", "leggo", "dormo", "esco", "torno", "ricevo", "pago", "vorrei"}
        | {"tengo", "metto", "lascio", "guardo", "conservo"}
    ),
    "fr": frozenset({"suis"}),
    "es": frozenset(
        {"soy", "estoy", "tengo", "prefiero", "voy", "hago", "quiero", "necesito", "puedo", "debo"}
        | {"sé", "conozco", "he", "estuve", "fui", "tuve", "odio", "adoro", "amo", "duermo", "salgo"}
        | {"vuelvo", "bebo", "quisiera", "tomo", "guardo", "pongo", "dejo"}
    ),
}  # fmt: skip
# Forms that are also a plural verb, a 3rd-person form or a noun ("le chiavi sono …", "il
# lavoro", "el trabajo", "la casa era …"): first person only when no article or determiner
# comes before them in the same clause.
SELF_VERBS_UNLESS_AFTER_ARTICLE: dict[str, frozenset[str]] = {
    "it": frozenset({"sono", "lavoro", "studio", "vivo", "corro", "gioco", "uso", "arrivo", "parto"}),
    "es": frozenset(
        {"vivo", "trabajo", "estudio", "juego", "pago", "uso", "era", "estaba", "tenía", "corro"}
    ),
}  # fmt: skip
ARTICLES: dict[str, frozenset[str]] = {
    "it": frozenset(
        {"il", "lo", "la", "i", "gli", "le", "l'", "un", "un'", "uno", "una", "del", "dello"}
        | {"della", "dell'", "dei", "degli", "delle", "questo", "questa", "quest'", "questi"}
        | {"queste", "quel", "quell'", "quello", "quella", "quei", "quegli", "quelle", "tuo", "tua"}
        | {"suo", "sua", "loro", "nostro", "nostra", "nostri", "nostre", "ci"}  # "ci sono" = there are
    ),
    "es": frozenset(
        {"el", "la", "los", "las", "un", "una", "unos", "unas", "del", "al", "este", "esta"}
        | {"estos", "estas", "ese", "esa", "esos", "esas", "su", "sus", "tu", "tus", "nuestro", "nuestra"}
    ),
}  # fmt: skip
_CLAUSE = re.compile(r"[,;:.!?()\n]+")
_SELF_TOKEN = re.compile(r"\w+'?")


def _self_language(language: str | None) -> str:
    """The language whose first-person lists read a text: `language`'s base, English without one."""
    lang = base(language) or "en"
    return lang if lang in SELF_PRONOUNS else "en"


def speaks_as_self(text: str, language: str | None) -> bool:
    """True when `text` speaks in the first person singular ("I …", "my …", "mein …", and
    pronoun-less verb forms such as "sono …", "tengo …"), by `language`'s lists (English's for a
    language without its own)."""
    lang = _self_language(language)
    markers = SELF_PRONOUNS[lang] | SELF_VERBS.get(lang, frozenset())
    ambiguous = SELF_VERBS_UNLESS_AFTER_ARTICLE.get(lang, frozenset())
    articles = ARTICLES.get(lang, frozenset())
    for clause in _CLAUSE.split(text.replace("\u2019", "'")):
        words = [w.casefold() for w in _SELF_TOKEN.findall(clause)]
        for index, word in enumerate(words):
            if word in markers:
                return True
            if word in ambiguous and not articles.intersection(words[:index]):
                return True
    return False


# The "me" of a request to be told ("tell me where the key is", "sag mir …", "dis-moi …", "mi dici
# …", "me dices …"): it addresses the assistant and asks nothing about the speaker. ("dimmi",
# "dime", "ricordami" are one word and name no first person of SELF_PRONOUNS anyway.)
_TELL_ME: dict[str, re.Pattern[str]] = {
    "en": re.compile(r"\b(?:tell|show|give|remind|let)\s+me\b"),
    "de": re.compile(
        r"\b(?:sag|sage|zeig|zeige|erzähl|erzähle|nenn|nenne|verrat|verrate)\s+mir\b"
        r"|\b(?:kannst|könntest|kann|weißt)\s+du\s+mir\b"
    ),
    "it": re.compile(r"\bmi\s+(?:dici|dica|sai|puoi|potresti|ricordi)\b"),
    "fr": re.compile(
        r"\b(?:dis|dites|montre|montrez|rappelle|rappelez)-moi\b"
        r"|\b(?:peux|pourrais|pouvez|pourriez)[- ](?:tu|vous)\s+me\b|\b(?:tu|vous)\s+me\s+(?:dis|dites)\b"
    ),
    "es": re.compile(r"\bme\s+(?:dices|dice|puedes|podrías|podrias|recuerdas|dirías|dirias)\b"),
}


def asks_about_self(question: str, language: str | None) -> bool:
    """True when `question` asks about the speaker themself: it speaks in the first person
    singular (speaks_as_self, the words that make a recognised person's memory private) once
    the "me" of a request to be told is set aside ("Tell me when the bins go out" asks about the
    bins; "Tell me what I like", "Was mag ich?", "¿Qué me gusta?" about the speaker). A generic
    "I" still counts ("How do I clean the filter?"): the words cannot tell it from a personal one."""
    lang = _self_language(language)
    folded = question.replace("\u2019", "'").casefold()
    return speaks_as_self(_TELL_ME[lang].sub(" ", folded), lang)
