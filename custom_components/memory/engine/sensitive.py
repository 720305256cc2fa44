"""Sensitive content: credentials/access codes, payment data, health data (en/de/it/fr/es).

Flagged memories are stored flagged (never sent to a cloud model; extraction never
stores them, invariant 7). Keyword lists are deliberately broad: a false positive only
keeps a memory local, a false negative leaks it.
"""

from __future__ import annotations

import re
from enum import StrEnum


class Sensitivity(StrEnum):
    CREDENTIAL = "credential"
    PAYMENT = "payment"
    HEALTH = "health"


_KEYWORDS: dict[Sensitivity, list[str]] = {
    Sensitivity.CREDENTIAL: [
        # en
        r"pass ?words?",
        r"passcodes?",
        r"pin",
        r"pin ?codes?",
        r"codes?",
        r"access codes?",
        r"alarm codes?",
        r"log ?ins?",
        r"credentials?",
        r"secret",
        r"combination",
        r"safe code",
        r"wi-?fi key",
        r"api key",
        # de
        r"passw[oö]rt(er)?",
        r"kennw[oö]rt(er)?",
        r"zugangs\w*",
        r"geheimzahl",
        r"zahlencode",
        r"tür ?code",
        r"\w*codes?",
        r"zugangsdaten",
        r"wlan-?schlüssel",
        # it
        r"codice",
        r"codici",
        r"parola d'ordine",
        r"credenziali",
        r"combinazione",
        # fr
        r"mots? de passe",
        r"code d'accès",
        r"identifiants?",
        r"digicode",
        # es
        r"contraseñas?",
        r"claves?",
        r"código",
        r"códigos",
        r"credenciales",
        r"combinación",
    ],
    Sensitivity.PAYMENT: [
        r"credit ?cards?",
        r"debit ?cards?",
        r"card numbers?",
        r"cvc",
        r"cvv",
        r"iban",
        r"bic",
        r"bank account",
        r"account number",
        r"kreditkarten?\w*",
        r"kartennummer",
        r"bankkonto",
        r"kontonummer",
        r"carta di credito",
        r"numero di carta",
        r"conto corrente",
        r"carte (bancaire|de crédit|bleue)",
        r"numéro de carte",
        r"compte bancaire",
        r"tarjeta( de crédito)?",
        r"número de tarjeta",
        r"cuenta bancaria",
    ],
    Sensitivity.HEALTH: [
        r"diagnos\w*",
        r"medication\w*",
        r"medicine",
        r"prescri\w+",
        r"pills?",
        r"insulin",
        r"diabet\w*",
        r"depress\w*",
        r"antidepress\w*",  # also de/it "Antidepressiva"/"antidepressivi"
        r"antidépress\w*",
        r"antidepresiv\w*",
        r"antibioti\w*",  # de "Antibiotikum", it "antibiotico", fr "antibiotique"
        r"psychiatr\w*",
        r"therap\w*",
        r"blood pressure",
        r"allerg\w*",
        r"cancer",
        r"disease",
        r"illness",
        r"surgery",
        r"chemo\w*",
        r"hiv",
        r"asthma",
        r"epilep\w*",
        r"pregnan\w*",
        r"medikament\w*",
        r"tabletten",
        r"krankheit\w*",
        r"blutdruck",
        r"rezept\w*",
        r"krebs",
        r"schwanger\w*",
        r"farmac\w*",
        r"medicin\w*",
        r"malattia",
        r"pressione sanguigna",
        r"ricetta medica",
        r"incinta",
        r"médicament\w*",
        r"maladie",
        r"tension artérielle",
        r"ordonnance",
        r"enceinte",
        r"medicamento\w*",
        r"enfermedad\w*",
        r"presión arterial",
        r"receta médica",
        r"embarazada",
    ],
}
_PATTERNS = {
    kind: re.compile(r"(?<!\w)(?:" + "|".join(words) + r")(?!\w)", re.IGNORECASE)
    for kind, words in _KEYWORDS.items()
}
_CARD_RE = re.compile(r"(?<!\d)(?:\d[ -]?){12,18}\d(?!\d)")
_IBAN_RE = re.compile(r"\b[A-Z]{2}\d{2}(?: ?[A-Z0-9]{4}){2,7}(?: ?[A-Z0-9]{1,4})?\b", re.IGNORECASE)


def luhn_valid(digits: str) -> bool:
    """The Luhn checksum of a card number (digits only)."""
    total = 0
    for i, ch in enumerate(reversed(digits)):
        d = int(ch)
        if i % 2:
            d *= 2
            if d > 9:
                d -= 9
        total += d
    return total % 10 == 0


def iban_valid(candidate: str) -> bool:
    """ISO 13616 mod-97 check."""
    s = candidate.replace(" ", "").upper()
    if not 15 <= len(s) <= 34:
        return False
    moved = s[4:] + s[:4]
    try:
        number = int("".join(str(int(c, 36)) for c in moved))
    except ValueError:
        return False
    return number % 97 == 1


def classify(text: str) -> frozenset[Sensitivity]:
    """Which kinds of sensitive data the text carries (empty when none)."""
    found = {kind for kind, pattern in _PATTERNS.items() if pattern.search(text)}
    for m in _CARD_RE.finditer(text):
        digits = re.sub(r"\D", "", m.group())
        if 13 <= len(digits) <= 19 and luhn_valid(digits):
            found.add(Sensitivity.PAYMENT)
    if any(iban_valid(m.group()) for m in _IBAN_RE.finditer(text)):
        found.add(Sensitivity.PAYMENT)
    return frozenset(found)


def is_sensitive(text: str) -> bool:
    """True when the text carries credentials/codes, payment or health data."""
    return bool(classify(text))
