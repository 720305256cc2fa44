"""What the household says in the CASES.md cases that both test layers play (engine and HA)."""

from __future__ import annotations

# C09 a changed preference: (old sentence, its value, new sentence, its value, the question).
C09: dict[str, tuple[str, str, str, str, str]] = {
    "en": (
        "I like coffee in the morning.",
        "coffee",
        "I don't drink coffee any more, I drink tea now.",
        "tea",
        "What do I like to drink?",
    ),
    "en-reverse": (
        "I like coffee in the morning.",
        "coffee",
        "Now it's tea, not coffee.",
        "tea",
        "What do I like to drink?",
    ),
    "de": (
        "Ich trinke morgens gerne Kaffee.",
        "Kaffee",
        "Ich trinke keinen Kaffee mehr, jetzt trinke ich Tee.",
        "Tee",
        "Was trinke ich gerne?",
    ),
    "it": (
        "La mattina bevo volentieri il caffè.",
        "caffè",
        "Non bevo più caffè, ora bevo il tè.",
        "tè",
        "Cosa mi piace bere?",
    ),
}


# C23 a moved thing, said explicitly: language -> (remember the old place, remember the new place,
# the question, the old place, the new place).
C23: dict[str, tuple[str, str, str, str, str]] = {
    "en": (
        "Remember: the bike pump is in the garage.",
        "Remember: I put the bike pump in the cellar now.",
        "Where is the bike pump?",
        "garage",
        "cellar",
    ),
    "de": (
        "Merk dir: Die Luftpumpe ist in der Garage.",
        "Merk dir: Die Luftpumpe ist jetzt im Keller.",
        "Wo ist die Luftpumpe?",
        "Garage",
        "Keller",
    ),
    "it": (
        "Ricorda: la pompa della bici è in garage.",
        "Ricorda: ho messo la pompa della bici in cantina.",
        "Dov'è la pompa della bici?",
        "garage",
        "cantina",
    ),
    "fr": (
        "Retiens : la pompe à vélo est dans le garage.",
        "Retiens : la pompe à vélo est maintenant dans la cave.",
        "Où est la pompe à vélo ?",
        "garage",
        "cave",
    ),
    "es": (
        "Recuerda: el inflador de la bici está en el garaje.",
        "Recuerda: ahora el inflador de la bici está en el sótano.",
        "¿Dónde está el inflador de la bici?",
        "garaje",
        "sótano",
    ),
}

# Secrets an admin might type into an edit (the panel) or say to memory.remember: (language,
# harmless text it replaces, the text with the secret). The sensitive filter flags each; a memory
# learned automatically may not hold one (engine/writer.checked_content).
SECRET_EDITS: list[tuple[str, str, str]] = [
    ("en", "The front door has a keypad.", "The front door code is 4711."),
    ("en", "The wifi router is in the hall.", "The wifi password is sunflower22."),
    ("en", "My bank card is in the desk.", "My PIN is 1234."),
    ("en", "We pay the rent by transfer.", "Our IBAN is DE89 3704 0044 0532 0130 00."),
    ("de", "Die Haustür hat ein Tastenfeld.", "Der Türcode ist 4711."),
    ("de", "Der WLAN-Router steht im Flur.", "Das WLAN-Passwort ist Sonnenblume22."),
    ("de", "Meine Bankkarte liegt im Schreibtisch.", "Meine PIN ist 1234."),
    ("de", "Die Miete zahlen wir per Überweisung.", "Unsere IBAN lautet DE89 3704 0044 0532 0130 00."),
]
