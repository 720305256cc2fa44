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
        r"prescri\w+",
        r"pills?",
        r"insulin\w*",  # it/es "insulina", fr "insuline"
        r"diabet\w*",
        r"depress\w*",
        r"antidepress\w*",  # also de/it "Antidepressiva"/"antidepressivi"
        r"antidépress\w*",
        r"antidepresiv\w*",
        r"antibioti\w*",  # de "Antibiotikum", it "antibiotico", fr "antibiotique"
        r"psychiatr\w*",
        r"therap\w*",
        r"blood pressure",
        # allergies and intolerances in every language: en/de/it "allerg-", fr "allergie",
        # es/pt "alérgica"/"alergia"; "intolerant", de "Intoleranz"/"Laktoseintoleranz",
        # it "intolleranza", fr "intolérance", es "intolerancia"
        r"\w*all?[eé]rg\w*",
        r"\w*intoll?[eé]ran\w*",
        r"\w*unverträglich\w*",
        r"verträgt (?:kein\w*|nicht)",
        r"(?:non|no) toller\w*",
        r"no tolera\w*",
        r"ne tolère (?:pas|plus)",
        r"can(?:'t|not) tolerate",
        r"an[ae]phyla\w*",  # en/de/fr "anaphylaxis/Anaphylaxie"
        r"anafila\w*",  # it "anafilassi", es "anafilaxia"
        r"epi-?pens?",
        r"c[oœ]?eliac\w*",
        r"zöliakie",
        r"celiachi\w*",
        r"cœliaque",
        r"cel[ií]ac[ao]s?",
        # medication words and dose forms (not en "tablet", a device; not capsules, coffee)
        r"meds",
        r"medicin\w*",
        r"drugs?",
        r"painkill\w*",
        r"blood ?thinners?",
        r"beta ?blockers?",
        r"inhalers?",
        r"(?:sleeping|water|iron|thyroid|heart) (?:pills?|tablets?)",
        r"eye ?drops",
        r"doses",  # not bare "dose": German "Dose" is a tin
        r"(?:a|the|his|her|their|my|daily|double|half|une|la|sa|una|sua|mezza) dose",
        r"dosage",
        r"pillen?",
        r"arznei\w*",
        r"dosis",
        r"dosierung",
        r"(?!spülmaschinen|geschirrspül)\w*tabletten",
        r"schmerzmittel\w*",
        r"blutverdünn\w*",
        r"gerinnungshemm\w*",
        r"betablocker\w*",
        r"inhalator\w*",
        r"asthmaspray",
        r"augentropfen",
        r"pastigli[ae](?! (?:per (?:la )?)?lavastoviglie)",
        r"compresse",
        r"pillol[ae]",
        r"dosaggio",
        r"antidolorific\w*",
        r"anticoagula\w*",  # it/es "anticoagulante", fr "anticoagulant"
        r"betabloccant\w*",
        r"inalator\w*",
        r"collirio",
        r"comprimés?",
        r"gélules?",
        r"pilules?",
        r"posologie",
        r"antidouleurs?",
        r"bêta-?bloquants?",
        r"inhalateurs?",
        r"pastillas?(?! (?:para el |del )?lavavajillas)",
        r"comprimidos?",
        r"píldoras?",
        r"analg[eé]si\w*",
        r"betabloqueantes?",
        r"inhalador\w*",
        r"\d+ ?(?:mg|mcg|µg)",  # a dose in milligrams/micrograms
        # common drugs by name and by their international name stems (-pril, -sartan, -olol ...):
        # "Julian takes Ramipril every morning" names no medication word at all
        r"\w{3,}pril",  # ACE inhibitors; 3+ letters before so "April" is not one
        r"\w+sartan\w*",
        r"\w+olol",
        r"\w+statin\w*",
        r"\w+formin[ae]?",
        r"\w+prazol\w*",
        r"\w+xaban\w*",
        r"\w*heparin\w*",
        r"\w*cillin\w*",
        r"\w+mycin\w*",
        r"\w+floxacin\w*",
        r"\w+dipin\w*",
        r"\w*th?yrox\w*",
        r"\w*tirox\w*",
        r"\w+azepam\w*",
        r"\w+zolam\w*",
        r"\w+triptan\w*",
        r"\w+oxetin\w*",
        r"\w+triptylin\w*",
        r"\w+gliptin\w*",
        r"\w+gliflozin\w*",
        r"\w+glutid\w*",
        r"\w+lukast\w*",
        r"\w+profen\w*",
        r"\w*predni\w*",
        r"\w*[ck]ortison\w*",
        r"\w*methason\w*",
        r"aspirin\w*",
        r"paracetamol\w*",
        r"acetaminophen",
        r"tylenol",
        r"warfarin\w*",
        r"marcumar",
        r"xarelto",
        r"eliquis",
        r"ozempic",
        r"ventolin\w*",
        r"ritalin\w*",
        r"methylphenidat\w*",
        r"morphin\w*",
        r"code[ií]n\w*",
        r"methotrexat\w*",
        r"antihistamin\w*",
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
# Words that are harmless alone but sensitive next to a code-like number: "the garage door
# opens with 1 9 8 4", "Die Alarmanlage schaltet man mit 2580 aus", "Visa ends in 4242".
_NEED_A_NUMBER: dict[Sensitivity, list[str]] = {
    Sensitivity.CREDENTIAL: [
        # en
        r"al?larm\w*",  # also de "Alarmanlage", it "allarme", fr "alarme", es "alarma"
        r"(?:un)?locks?",
        r"(?:un)?locked",
        r"(?:un)?locking",
        r"padlocks?",
        r"disarm\w*",
        r"keypads?",
        r"key ?(?:safe|box|lock)s?",
        r"lock ?box(?:es)?",
        r"safes?",
        r"(?:front |back |side |garage |cellar |basement )?doors?",
        r"(?:garden |front )?gates?",
        r"garages?",
        r"wi-?fi",  # "the wifi is 84729163"; not "router", whose model numbers are no secret
        # de
        r"(?:tür|zahlen|fahrrad|vorhänge|bügel|ketten|sicherheits)?schl(?:oss|össer)",
        r"entsperr\w*",
        r"aufsperr\w*",
        r"aufschließ\w*",
        r"unscharf\w*",
        r"tresor\w*",
        r"schlüssel(?:kasten|tresor|safe|box)\w*",
        r"(?:haus|garten|garagen|hof|keller|wohnungs|eingangs|terrassen|balkon|hinter|seiten|roll)?"
        r"(?:tür|tor)(?:e|en)?",
        r"tastenfeld\w*",
        r"wlan",
        # it
        r"antifurto",
        r"serratur[ae]",
        r"lucchett[oi]",
        r"cassafort[ei]",
        r"cassett[ae] (?:delle |per le )?chiavi",
        r"cancell(?:o|i|etto)",
        r"porton(?:e|cino)",
        r"port[ae]",
        r"basculante",
        r"sblocc\w*",
        r"tastierino",
        # fr
        r"serrures?",
        r"cadenas",
        r"coffres?[- ]forts?",
        r"boîtes? à clés?",
        r"portes?",
        r"portails?",
        r"portillons?",
        r"(?:dé)?verrou\w*",
        # es
        r"cerraduras?",
        r"candados?",
        r"cajas? fuertes?",
        r"cajas? de (?:las )?llaves",
        r"puertas?",
        r"port[oó]n(?:es)?",
        r"verjas?",
        r"garajes?",
        r"cocheras?",
        r"desbloque\w*",
        r"desarm\w*",
    ],
    Sensitivity.PAYMENT: [
        # card brands and cards: the last digits of a card are payment data
        r"visa",
        r"master ?card",
        r"amex",
        r"american express",
        r"maestro",
        r"girocard",
        r"ec[- ]?kart\w*",
        r"bancomat",
        r"postepay",
        r"cards?",
        r"karten?",
        r"cart[ae]",
        r"tarjetas?",
    ],
}
# A code as it is said or typed: 3+ digits, perhaps spaced or dashed ("1 9 8 4", "25-80"), not
# part of a decimal, a time, a date or a word. Ordinary numbers are told apart by their context.
_CODE_NUMBER_RE = re.compile(r"(?<![\w.,:/€$£])\d(?:[ -]?\d){2,}(?!\w|[.,:/]\d)")
# ... a unit after it ("210 cm", "300 euros", "1200 W", "100 years") ...
_NOT_A_CODE_AFTER = re.compile(
    r"\s?(?:[€$£%°\u00d7x]|(?:mm|cm|m|m²|qm|km|km/h|mph|kg|g|mg|ml|l|h|min|sec|uhr|am|pm|o'clock"
    r"|meters?|metres?|meter|metri|mètres|metros|grams?|gramm|grammi|grammes|gramos"
    r"|liters?|litres?|liter|litri|litros|euros?|eur|dollars?|pounds?|francs?|chf"
    r"|percent|prozent|per ?cento|pour ?cent|por ?ciento|degrees?|grad|gradi|degrés|grados"
    r"|w|kw|kwh|watts?|v|volts?|ah|mah|hz|db|lux|ps|hp|mbit\w*|mbps|gb|mb|tb|kcal|calories|ppm|rpm"
    r"|years?|jahre\w*|anni|ans|años|days?|tage\w*|giorni|jours|días|hours?|stunden|ore|heures|horas"
    r"|minutes?|minuten|minuti|minutos|seconds?|sekunden|secondi|secondes|segundos"
    r"|times|mal|volte|fois|veces|pieces?|stück|pezzi|pièces|piezas|pages?|seiten|pagine"
    r"|people|personen|persone|personnes|personas|guests|gäste|ospiti|invités|invitados)(?!\w))",
    re.IGNORECASE,
)
# ... or a word before it that makes it a time, year, date, price or amount ("at 0630",
# "in 2019", "since 1998", "3 May 2024", "costs 1200", "seit 2019", "nel 2019", "depuis 2019"),
# or the number of a flat, room or floor ("flat 104", "Zimmer 204", "interno 12").
_NOT_A_CODE_BEFORE = re.compile(
    r"(?<!\w)(?:at|in|since|from|until|till|by|before|after|for|around|about|of|year|costs?|paid"
    r"|um|ab|bis|seit|im|von|vor|nach|für|gegen|ca\.?|etwa|jahr|kostet|kosten|bezahlt"
    r"|alle|all'|a|nel|nell'|dal|dall'|dalle|del|di|fino a|entro|prima|dopo|per|verso|circa|anno"
    r"|costa|costano|pagato|à|en|depuis|dès|jusqu'à|jusqu'en|avant|après|pour|vers|environ|de|du"
    r"|année|an|coûte|coûtent|payé|a las?|desde|hasta|antes|después|para|hacia|año|cuesta|cuestan"
    r"|pagado|flat|apartment|apt\.?|room|suite|floor|house|wohnung|zimmer|haus|stock|hausnummer"
    r"|appartamento|interno|stanza|piano|civico|appartement|chambre|étage|piso|habitación|planta"
    r"|jan\w*|jän\w*|feb\w*|fév\w*|mar\w*|apr\w*|avr\w*|abr\w*|ma[iy]\w*|mag\w*|juin"
    r"|mär\w*|jun\w*|giu\w*|jul\w*|juil\w*|lug\w*|aug\w*|ago\w*|août|sep\w*|set\w*|oct\w*|okt\w*"
    r"|ott\w*|nov\w*|dec\w*|dez\w*|déc\w*|dic\w*|gen\w*|ene\w*)\s*$",
    re.IGNORECASE,
)
# "ends in 4242", "endet auf", "termina con", "se termine par", "termina en": the last digits of
# a card or code, whatever the preposition before them
_ENDS_IN_RE = re.compile(
    r"(?<!\w)(?:ends?|ending|endet|endend|termina\w*|finisce|finit|se termine)\s+"
    r"(?:in|with|on|auf|mit|con|par|en|por)\s+\d(?:[ -]?\d){2,}",
    re.IGNORECASE,
)
# "opens with 3141", "öffnet mit 2580", "si apre con", "s'ouvre avec", "se abre con": a code
# whatever it opens
_OPENS_WITH_RE = re.compile(
    r"(?<!\w)(?:opens?|opened|unlocks?|unlocked|öffnet|öffnen|geöffnet|aufgeht|si apre|apre"
    r"|si sblocca|s'ouvre|ouvre|se abre|abre)\b[^.!?\d]{0,30}?(?<!\w)(?:with|mit|con|avec)\s+"
    r"[^.!?\d]{0,20}?\d(?:[ -]?\d){2,}",
    re.IGNORECASE,
)
# A password-like token (letters and digits in one word: "sunflower42", "x7Kp9q!") next to a
# key, network or account word: "the key is sunflower42", "das WLAN heißt Fritz7590x".
_TOKEN_RE = re.compile(r"(?<![\w@.-])[\w!#$%&*+?@-]{6,}")
_TOKEN_ANCHOR_RE = re.compile(
    r"(?<!\w)(?:keys?|wi-?fi|wlan|network|ssid|router|log ?in|user ?name|account|schlüssel|netzwerk"
    r"|benutzer\w*|konto|chiav[ei]|rete|utente|clés?|clefs?|réseau|utilisateur|compte|llaves?|usuario"
    r"|cuenta)(?!\w)",
    re.IGNORECASE,
)
_NAMED_BEFORE = re.compile(
    r"(?<!\w)(?:called|named|heißt|nennt sich|chiama|s'appelle|se llama|llamad[ao])\s+(?:\w+\s+)?$",
    re.IGNORECASE,
)
_NUMBER_WITH_UNIT_RE = re.compile(r"\d+[^\W\d_]{1,5}|\d+(?:[-.:/]\d+)+", re.IGNORECASE)


def _alternation(words: list[str]) -> re.Pattern[str]:
    return re.compile(r"(?<!\w)(?:" + "|".join(words) + r")(?!\w)", re.IGNORECASE)


_PATTERNS = {kind: _alternation(words) for kind, words in _KEYWORDS.items()}
_NUMBER_ANCHORS = {kind: _alternation(words) for kind, words in _NEED_A_NUMBER.items()}
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


_CONTEXT = 40  # characters before a number or token that decide what it is


def _has_code_number(text: str) -> bool:
    """A number that reads as a code rather than a time, year, date, price or measure."""
    if _ENDS_IN_RE.search(text):
        return True
    for m in _CODE_NUMBER_RE.finditer(text):
        if _NOT_A_CODE_AFTER.match(text, m.end()) or _NOT_A_CODE_BEFORE.search(
            text, max(0, m.start() - _CONTEXT), m.start()
        ):
            continue
        return True
    return False


def _has_password_token(text: str) -> bool:
    for m in _TOKEN_RE.finditer(text):
        if _NAMED_BEFORE.search(text, max(0, m.start() - _CONTEXT), m.start()):
            continue  # "the wifi is called Graufuchs55": a network's name is no secret
        token = m.group().strip("-!?")
        digits = sum(c.isdigit() for c in token)
        letters = sum(c.isalpha() for c in token)
        if digits and letters >= 2 and len(token) >= 6 and not _NUMBER_WITH_UNIT_RE.fullmatch(token):
            return True
    return False


def classify(text: str) -> frozenset[Sensitivity]:
    """Which kinds of sensitive data the text carries (empty when none)."""
    found = {kind for kind, pattern in _PATTERNS.items() if pattern.search(text)}
    if _has_code_number(text):
        found.update(kind for kind, pattern in _NUMBER_ANCHORS.items() if pattern.search(text))
    if _OPENS_WITH_RE.search(text) or (_TOKEN_ANCHOR_RE.search(text) and _has_password_token(text)):
        found.add(Sensitivity.CREDENTIAL)
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
