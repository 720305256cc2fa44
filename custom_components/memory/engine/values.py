"""The values a text carries, read in one place: what, beside its words, makes two texts different.

Every path that merges or confirms reads texts through `scan`: "the same text" (text.wording /
text.same_text: the writer's duplicate, the import's, a fact key's value in facts.same_value) and
the fact rules' readings (facts.Reading's values, which the writer's restatements, extraction and
consolidation compare through facts.relation). So "the temperature is -5 degrees" is never the
same as "... 5 degrees", in any of them.

A value is
- a number with its sign ("-5", the minus sign U+2212, "minus 5", "5 degrees below zero",
  "5 Minusgrade", "零下5度" are all -5; "+5" keeps its "+"; "9 - 17" is a range, no sign), its
  decimals and digit grouping read as the text's language writes them (`_number`: "2,5" is 2.5
  everywhere, "1,234" is 1234 in English and 1.234 in German; "1 234" (any space) and "1'234"
  are 1234 everywhere) and its unit (UNITS: "5 km", "5 %", "€5" / "5 EUR", "5 °C", "3rd"; the unit words of
  en/de/it/fr/es are mapped to one unit, so "5 Grad" and "5 degrees" agree);
- an identifier: letters and digits together, compared in lexical.normal_identifier form
  ("HX-4471", "hx4471" -> "hx4471"; its digit groups count as numbers too, so "HX 4478" said with
  a space still differs from "HX-4471");
- a code: digits joined by separators that make no number, such as dates, times and fractions
  ("1.2.2026", "9:30", "3/4", "47-11"), kept as written.
Two writings are one value only where that is safe: what depends on the language is read in it
(an ambiguous "1,234" in a text of unknown language stays as written), zeros are kept ("2.50" is
not "2.5", "007" not "7"), and spelled-out numbers are words.
"""

from __future__ import annotations

import re
import unicodedata
from dataclasses import dataclass, field
from enum import StrEnum
from functools import lru_cache
from itertools import pairwise
from typing import NamedTuple

from . import language as lang_rules
from .lexical import normal_identifier

SCAN_CACHE_SIZE = 4096  # texts; the writer reads a bucket's 8 nearest and a consolidation pass each


class ValueKind(StrEnum):
    """What a token of a text is (Token.kind)."""

    WORD = "word"
    NUMBER = "number"
    IDENTIFIER = "identifier"
    CODE = "code"
    SYMBOL = "symbol"


# Languages whose decimal mark is the comma (digits grouped by "." or a space) and the point (grouped
# by ","), after CLDR; any other language reads only what is unambiguous.
COMMA_DECIMAL = frozenset(
    {"de", "it", "fr", "es", "pt", "nl", "ru", "pl", "tr", "ro", "cs", "el", "ca", "id", "sv", "da",
     "nb", "no", "fi", "hu"}
)  # fmt: skip
POINT_DECIMAL = frozenset({"en", "zh", "ja", "ko", "th"})

# Canonical unit -> how it is written after a number (casefolded; symbols, SI abbreviations and
# the words of en/de/it/fr/es): "5 Kilometer" and "5 km" are one value, "5 km" and "5 m" two.
UNITS = {
    unit: words.split()
    for unit, words in {
        "%": "% pct percent prozent percento pourcent porciento porcento",
        "‰": "‰ promille",
        "°": "° degree degrees grad grade gradi grado grados degré degrés degre degres градус градуса "
        "градусов",
        "°c": "°c celsius",
        "°f": "°f fahrenheit",
        "€": "€ eur euro euros",
        "$": "$ usd dollar dollars dólar dólares dollaro dollari",
        "£": "£ gbp",
        "chf": "chf franken franchi",
        "¥": "¥ jpy yen",
        "ct": "ct cent cents centesimo centesimi céntimo céntimos centime centimes",
        "mm": "mm millimeter millimeters millimetre millimetres millimetro millimetri millimètre "
        "millimètres milímetro milímetros",
        "cm": "cm centimeter centimeters centimetre centimetres centimetro centimetri centimètre "
        "centimètres centímetro centímetros",
        "m": "m meter meters metre metres metro metri mètre mètres metros",
        "km": "km kilometer kilometers kilometre kilometres kilometro kilometri chilometro chilometri "
        "kilomètre kilomètres kilómetro kilómetros км",
        "inch": "inch inches zoll pollice pollici pouce pouces pulgada pulgadas",
        "ft": "ft foot feet",
        "mile": "mile miles meile meilen miglio miglia milla millas",
        "mg": "mg milligram milligrams milligramm milligramme milligrammes milligrammo milligrammi "
        "miligramo miligramos",
        "g": "g gram grams gramm gramme grammes grammo grammi gramo gramos",
        "kg": "kg kilo kilos kilogram kilograms kilogramm kilogramme kilogrammes chilo chili "
        "chilogrammo chilogrammi kilogramo kilogramos кг",
        "t": "t ton tons tonne tonnes tonnen tonnellata tonnellate tonelada toneladas",
        "lb": "lb lbs pound pounds",
        "oz": "oz ounce ounces",
        "ml": "ml milliliter milliliters millilitre millilitres millilitro millilitri mililitro "
        "mililitros мл",
        "cl": "cl centiliter centilitre centilitro centilitri",
        "dl": "dl deciliter decilitre",
        "l": "l liter liters litre litres litro litri litros л",
        "s": "s sec secs second seconds sekunde sekunden secondo secondi seconde secondes segundo "
        "segundos",
        "min": "min mins minute minutes minuten minuto minuti minutos",
        "h": "h hr hrs hour hours std stunde stunden ora ore heure heures hora horas",
        "day": "day days tag tage tagen giorno giorni jour jours día días dia dias",
        "week": "week weeks woche wochen settimana settimane semaine semaines semana semanas",
        "month": "month months monat monate monaten mese mesi mois mes meses",
        "year": "year years jahr jahre jahren anno anni an ans année années año años",
        "kwh": "kwh", "wh": "wh", "kw": "kw", "w": "w watt watts", "v": "v volt volts",
        "mah": "mah", "hz": "hz", "khz": "khz", "mhz": "mhz", "ghz": "ghz",
        "kb": "kb", "mb": "mb", "gb": "gb", "tb": "tb", "km/h": "km/h kmh kph", "mph": "mph",
        "bar": "bar mbar", "psi": "psi", "hpa": "hpa", "db": "db",
    }.items()
}  # fmt: skip
# Units only one language writes after a number ("um 7 am Bahnhof" is no time of day in German).
UNITS_IN = {"en": {"am": "am", "a.m": "am", "pm": "pm", "p.m": "pm"}}
_UNIT = {word: unit for unit, words in UNITS.items() for word in words}
_UNIT_PAIRS = {  # two words, one unit
    ("per", "cent"): "%", ("per", "cento"): "%", ("pour", "cent"): "%", ("por", "ciento"): "%",
    ("por", "cento"): "%",
}  # fmt: skip
_TEMPERATURE = {"c": "°c", "celsius": "°c", "f": "°f", "fahrenheit": "°f"}  # after "°" / "degrees"
CURRENCY_CODES = frozenset({"eur", "usd", "gbp", "chf", "jpy"})  # also before the number: "EUR 5"
# Words before a number that make it negative ("minus 5"), per language; "minus" in every one.
MINUS_WORDS = {
    "fr": {"moins"}, "it": {"meno"}, "es": {"menos"}, "pt": {"menos"}, "nl": {"min"},
    "ru": {"минус"}, "tr": {"eksi"}, "fi": {"miinus"}, "hu": {"mínusz"}, "el": {"μείον"},
    "ca": {"menys"}, "ko": {"영하", "마이너스"},
}  # fmt: skip
# Written right before the digits in scripts without spaces: 负5 / 零下5 (zh), マイナス5 / 氷点下5 (ja).
MINUS_PREFIXES = ("负", "負", "零下", "マイナス", "氷点下", "영하", "마이너스")
# Words after a number and its unit that make it negative ("5 degrees below zero").
BELOW_ZERO = (
    ("below", "zero"), ("below", "freezing"), ("unter", "null"), ("sotto", "zero"), ("sous", "zéro"),
    ("sous", "zero"), ("bajo", "cero"), ("abaixo", "de", "zero"), ("onder", "nul"), ("ниже", "нуля"),
)  # fmt: skip
_BELOW_ZERO_FROM = {p[0]: [q for q in BELOW_ZERO if q[0] == p[0]] for p in BELOW_ZERO}  # by first word
NEGATIVE_UNITS = {"minusgrad": "°", "minusgrade": "°", "minusgraden": "°"}  # de: "5 Minusgrade"
# Ordinal endings written on the digits ("3rd", "3e", "3º" -> NFKC "3o"), per language; the English
# ones in every language ("3rd" says nothing else anywhere).
ORDINAL_SUFFIXES = {
    "fr": {"e", "er", "re", "ère", "ème", "eme", "es", "ers", "res"},
    "it": {"o", "a"}, "es": {"o", "a", "os", "as"}, "pt": {"o", "a", "os", "as"},
    "nl": {"e", "ste", "de"},
}  # fmt: skip
_ENGLISH_ORDINALS = frozenset({"st", "nd", "rd", "th"})
ORDINAL = "ord"  # the unit of an ordinal: "3rd" -> "3 ord"

# Symbols that are part of what a text says (currency, %, °, +, emoji, …); other punctuation is not.
_KEPT_PUNCTUATION = frozenset("%‰‱#&@\u2032\u2033")  # and the primes: feet/inches, minutes/seconds
_DASHES = str.maketrans(dict.fromkeys("\u2212\u2012\u2013\ufe63\uff0d", "-"))  # minus sign, figure/en dash
# Arabic decimal and thousands marks; superscript digits stay an exponent ("10²" is not "102", which
# NFKC would make of it; subscripts may fold: "CO₂" is "CO2").
_BEFORE_FOLDING = str.maketrans(
    {"\u066b": ".", "\u066c": "'"}
    | {c: f"^{unicodedata.digit(c)}" for c in "\u2070\u00b9\u00b2\u00b3\u2074\u2075\u2076\u2077\u2078\u2079"}
)
_SA = lang_rules.SET_APART
_TOKEN = re.compile(
    rf"[{_SA}]+"  # a run of a script without spaces (or Hangul): one token
    rf"|[^\W{_SA}]+(?:(?:[-/.:]|(?<=\d)[,'](?=\d))[^\W{_SA}]+)*"  # words, numbers, identifiers
    r"|[^\w\s]"  # one symbol or punctuation mark
)
_WORDISH = re.compile(rf"[^\W{_SA}]")
_NUMBER_RUN = re.compile(r"\d+(?:[.,']\d+)*")
_CODE_RUN = re.compile(r"\d+(?:[-/.:,']\d+)*")
_NUMBER_THEN_LETTERS = re.compile(r"(\d+(?:[.,']\d+)*)([^\W\d_]+(?:[./][^\W\d_]+)?)")  # "5km", "9a.m"
_DIGITS = re.compile(r"\d+")
_DIGIT = re.compile(r"\d")
_GROUPS = re.compile(r"[^\W\d]+|\d+")  # "snake_case" stays one word, as \w+ read it
_MARKS = re.compile(r"([.,'])")


class Token(NamedTuple):
    """One word, value or symbol of a text. said: as the wording compares it (words casefolded,
    numbers in canonical form "-2.5"; several for a joined run: "hx-4471" -> "hx", "4471");
    value: what the fact rules compare for a value (a number with its unit "-5 °c", an
    identifier's normal form "hx4471", a code as written "1.2.2026"); "" for words and symbols."""

    kind: ValueKind
    said: tuple[str, ...]
    value: str = ""
    digits: tuple[str, ...] = ()  # an identifier's or code's digit groups


@dataclass(frozen=True, slots=True)
class Scan:
    """A text as sameness reads it: its tokens in order, and the words read as part of a value
    (units, "minus", "below zero"), which say nothing about the topic."""

    tokens: tuple[Token, ...]
    value_words: frozenset[str] = field(default=frozenset())
    sign_in_words: bool = False  # a minus said in words on no digits ("minus five"): a value too

    @property
    def wording(self) -> tuple[str, ...]:
        """Words, numbers and kept symbols in order: what two texts with the same wording share."""
        return tuple(s for t in self.tokens for s in t.said)

    @property
    def numbers(self) -> frozenset[str]:
        """Every number with its unit, and the digit groups of identifiers and codes."""
        out = {t.value for t in self.tokens if t.kind is ValueKind.NUMBER}
        return frozenset(out.union(*(t.digits for t in self.tokens)))

    @property
    def identifiers(self) -> frozenset[str]:
        """Identifiers (normal form) and codes (as written)."""
        return frozenset(t.value for t in self.tokens if t.kind in {ValueKind.IDENTIFIER, ValueKind.CODE})


def language_of(text: str, language: str | None) -> str | None:
    """The language whose conventions read the numbers of `text`: the given one (base form: a
    stored memory's language is already the detected one, writer.remember), else the detected one
    (language.detect), else None (then only unambiguous numbers are read)."""
    return lang_rules.base(language) or lang_rules.detect(text)


@lru_cache(maxsize=SCAN_CACHE_SIZE)
def scan(text: str, language: str | None) -> Scan:
    """The tokens of `text` with its values read in `language` (a base language code, or None:
    only unambiguous numbers; see language_of). Never raises."""
    prepared = unicodedata.normalize("NFC", text).translate(_BEFORE_FOLDING)
    folded = lang_rules.folded(prepared).casefold().translate(_DASHES)  # NFKC: every space is " "
    raw = [(m.start(), m.end(), m.group(0)) for m in _TOKEN.finditer(folded)]
    if len(raw) > 1:
        raw = _space_grouped(raw, folded)
    return _Reader(folded, raw, language).read()


_GROUP_HEAD = re.compile(r"\d{1,3}(?:'\d{3})*")
_GROUP_NEXT = re.compile(r"\d{3}(?:[.,]\d+)?")


def _space_grouped(raw: list[tuple[int, int, str]], text: str) -> list[tuple[int, int, str]]:
    """Digit groups one plain space apart joined as one number ("1 234 567", "1 234,5"): a first
    group of 1-3 digits, then groups of exactly 3 (the last may carry decimals). In every language:
    the space is CLDR's group mark in French, Russian, Polish, the Nordic languages …, the SI's
    and DIN 5008's everywhere, and never a decimal mark ("0171 5551234" stays two numbers)."""
    out: list[tuple[int, int, str]] = []
    for start, end, run in raw:
        if (
            out
            and text[out[-1][1] : start] == " "
            and _GROUP_HEAD.fullmatch(out[-1][2])
            and _GROUP_NEXT.fullmatch(run)
        ):
            out[-1] = (out[-1][0], end, f"{out[-1][2]}'{run}")
        else:
            out.append((start, end, run))
    return out


def _number(run: str, language: str | None) -> str | None:
    """The canonical form of digits with marks ("1.234,5" -> "1234.5" in German, "1'234" ->
    "1234"), or None when they make no number in `language`: a date "1.2.2026", or "1,234" (1234
    or 1.234) in a language we do not know. One mark before other than 3 digits is a decimal mark
    in every language ("2,5" and "2.5" are 2.5)."""
    parts = _MARKS.split(run)
    groups, marks = parts[0::2], parts[1::2]
    decimal: str | None = None
    kinds = set(marks) - {"'"}
    if len(kinds) == 2:  # "1.234,5" / "1,234.5": the last mark, said once, is the decimal one
        decimal = marks[-1]
        if decimal == "'" or marks.count(decimal) != 1 or not _decimal_mark_of(language, decimal):
            return None
    elif kinds and marks.count(mark := next(iter(kinds))) == 1:
        if marks[-1] != mark:
            return None  # "1.234'567": a decimal mark before a grouping one
        if len(groups[-1]) != 3:
            decimal = mark
        elif language in POINT_DECIMAL or language in COMMA_DECIMAL:
            decimal = mark if _decimal_mark_of(language, mark) else None
        else:
            return None
    whole, joins = (groups[:-1], marks[:-1]) if decimal else (groups, marks)
    if decimal in joins or (
        len(whole) > 1 and (not 1 <= len(whole[0]) <= 3 or any(len(g) != 3 for g in whole[1:]))
    ):
        return None
    integer = "".join(whole)
    return f"{integer}.{groups[-1]}" if decimal else integer


def _decimal_mark_of(language: str | None, mark: str) -> bool:
    """`mark` is the decimal mark of `language` ("," in COMMA_DECIMAL, "." in POINT_DECIMAL; either
    when the language is not known)."""
    if language in COMMA_DECIMAL:
        return mark == ","
    if language in POINT_DECIMAL:
        return mark == "."
    return True


def _currency(word: str) -> bool:
    return len(word) == 1 and unicodedata.category(word) == "Sc"


def _minus_prefix(run: str) -> str | None:
    return next((p for p in MINUS_PREFIXES if run.endswith(p)), None)


class _Reader:
    """One pass over a text's raw tokens (start, end, text): each classified, every number given
    its sign and unit; the words read into a value's sign are dropped from the wording."""

    def __init__(self, text: str, raw: list[tuple[int, int, str]], language: str | None) -> None:
        self.text, self.raw, self.language = text, raw, language
        self.tokens: list[Token | None] = [None] * len(raw)
        self.dropped: set[int] = set()
        self.value_words: set[str] = set()
        self.minus = {"minus"} | MINUS_WORDS.get(language or "", set())
        self.ordinals = _ENGLISH_ORDINALS | ORDINAL_SUFFIXES.get(language or "", set())
        self.units = UNITS_IN.get(language or "", {})

    def read(self) -> Scan:
        for i, (_, _, run) in enumerate(self.raw):
            if self.tokens[i] is None:  # (a plain word without a method call: most tokens are one)
                self.tokens[i] = Token(ValueKind.WORD, (run,)) if run.isalpha() else self._token(i, run)
        kept = tuple(t for i, t in enumerate(self.tokens) if t is not None and i not in self.dropped)
        tokens = tuple(t for t in kept if t.said or t.value)
        return Scan(tokens, frozenset(self.value_words), self._sign_in_words(tokens))

    def _sign_in_words(self, tokens: tuple[Token, ...]) -> bool:
        """A minus said in words on no digits: "minus five", "five below zero", "零下五度"."""
        words = [w for t in tokens if t.kind is ValueKind.WORD for w in t.said]
        if any(w in self.minus or w in NEGATIVE_UNITS or any(p in w for p in MINUS_PREFIXES) for w in words):
            return True
        pairs = set(pairwise(words))
        return any(phrase[:2] in pairs for phrase in BELOW_ZERO)  # ("abaixo de" for "abaixo de zero")

    def _token(self, i: int, run: str) -> Token:
        if not _DIGIT.search(run):  # a word or a mark (the pattern's marks are single characters)
            if _WORDISH.match(run):  # joined: "rendez-vous", "a.m"
                return Token(ValueKind.WORD, tuple(_GROUPS.findall(run)))
            if len(run) > 1 or run.isalnum():  # a run of a script without spaces (Thai vowel marks)
                return Token(ValueKind.WORD, (run,))
            kept = unicodedata.category(run)[0] == "S" or run in _KEPT_PUNCTUATION or self._grade_mark(i)
            return Token(ValueKind.SYMBOL, (run,) if kept else ())
        if _NUMBER_RUN.fullmatch(run) and (number := _number(run, self.language)) is not None:
            return self._number_token(i, number, None, ())
        if _CODE_RUN.fullmatch(run):
            return Token(ValueKind.CODE, (run,), run, tuple(_DIGITS.findall(run)))
        joined = _NUMBER_THEN_LETTERS.fullmatch(run)
        if joined and (number := _number(joined[1], self.language)) is not None:
            letters = joined[2]
            unit = ORDINAL if letters in self.ordinals else self._unit(letters)
            if unit is not None:  # "5km", "3rd"
                return self._number_token(i, number, unit, (letters,))
        digits = tuple(_DIGITS.findall(run))
        return Token(ValueKind.IDENTIFIER, tuple(_GROUPS.findall(run)), normal_identifier(run), digits)

    def _grade_mark(self, i: int) -> bool:
        """A "-" written on the end of a word ("A-", "B-" grades); "+" is a symbol anyway."""
        start, end, run = self.raw[i]
        after = self.text[end : end + 1]
        return (
            run == "-"
            and start > 0
            and bool(_WORDISH.match(self.text[start - 1]))
            and not _WORDISH.match(after)
        )

    def _unit(self, word: str) -> str | None:
        return _UNIT.get(word) or self.units.get(word) or NEGATIVE_UNITS.get(word)

    def _word(self, j: int) -> str:
        return self.raw[j][2] if 0 <= j < len(self.raw) else ""

    def _adjacent(self, i: int, j: int) -> bool:
        """Raw tokens i < j exist with nothing but whitespace between them."""
        return 0 <= i < j < len(self.raw) and not self.text[self.raw[i][1] : self.raw[j][0]].strip()

    def _number_token(self, i: int, number: str, unit: str | None, letters: tuple[str, ...]) -> Token:
        """Number i (`unit`/`letters` written on its digits, "5km") with its unit and sign."""
        unit, after = (unit, i + 1) if unit is not None else self._unit_after(i)
        if unit == "°" and self._adjacent(after - 1, after) and self._word(after) in _TEMPERATURE:
            unit = _TEMPERATURE[self._word(after)]
            self.value_words.add(self._word(after))
            after += 1
        sign = self._sign(i, after)
        said = f"{sign}{number}"
        return Token(ValueKind.NUMBER, (said, *letters), f"{said} {unit}" if unit else said)

    def _unit_after(self, i: int) -> tuple[str | None, int]:
        """The unit written after number i, or a currency right before it when none follows, and
        the index of the token after the number and its unit."""
        word, then = self._word(i + 1), self._word(i + 2)
        if self._adjacent(i, i + 1):
            if self._adjacent(i + 1, i + 2) and (pair := _UNIT_PAIRS.get((word, then))):
                self.value_words.update((word, then))
                return pair, i + 3
            if (unit := self._unit(word)) or _currency(word):
                self.value_words.add(word)
                return unit or word, i + 2
        signed = self._word(i - 1) in {"-", "+"} and self.raw[i - 1][1] == self.raw[i][0]  # "€-50"
        j = i - 2 if signed else i - 1
        before = self._word(j)
        if self._adjacent(j, i - 1 if signed else i) and (_currency(before) or before in CURRENCY_CODES):
            self.value_words.add(before)
            return _UNIT.get(before, before), i + 1
        return None, i + 1

    def _sign(self, i: int, after: int) -> str:
        """The sign of number i: a "-"/"+" written on it (not between two numbers: "9 - 17" is a
        range), a minus word or prefix right before it, or "below zero" (or "Minusgrade") after
        it and its unit (token `after` on); before a currency written before it ("-€50")."""
        first = i - 1 if i and self.raw[i - 1][1] == self.raw[i][0] and _currency(self._word(i - 1)) else i
        start = self.raw[first][0]
        mark = self.text[start - 1] if start else ""
        written = mark in {"-", "+"} and (start < 2 or not _WORDISH.match(self.text[start - 2]))
        if written and not self._number_before(start - 1):
            self.dropped.add(first - 1)
            return mark
        word = self._word(first - 1)
        if (
            self._adjacent(first - 1, first)
            and word in self.minus
            and not self._number_before(self.raw[first - 1][0])
        ):
            self.dropped.add(first - 1)
            self.value_words.add(word)
            return "-"
        if i and self.raw[i - 1][1] == start and (prefix := _minus_prefix(self._word(i - 1))):
            rest = self._word(i - 1)[: -len(prefix)]
            self.tokens[i - 1] = Token(ValueKind.WORD, (rest,) if rest else ())
            return "-"
        if after - 1 > i and self._word(after - 1) in NEGATIVE_UNITS:
            return "-"
        for phrase in _BELOW_ZERO_FROM.get(self._word(after), ()):
            span = range(after, after + len(phrase))
            if all(
                self._word(k) == w and self._adjacent(k - 1, k) for k, w in zip(span, phrase, strict=True)
            ):
                self.dropped.update(span)
                self.value_words.update(phrase)
                return "-"
        return ""

    def _number_before(self, position: int) -> bool:
        """A digit is the last thing before `position`, whitespace aside."""
        before = self.text[:position].rstrip()
        return bool(before) and before[-1].isdigit()
