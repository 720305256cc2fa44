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
