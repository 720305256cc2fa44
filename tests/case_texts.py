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
