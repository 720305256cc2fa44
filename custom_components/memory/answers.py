"""Spoken replies of the memory sentences, per language (en, de, it, fr, es).

Replies stay in code (like HA's intent response templates) so an intent handler can
answer in the conversation's language without a round trip through translations.
`reply(language, key, **values)` formats one; unknown languages fall back to English.
"""

from __future__ import annotations

from collections.abc import Sequence

FALLBACK_LANGUAGE = "en"

REPLIES: dict[str, dict[str, str]] = {
    "en": {
        "remembered_shared": "Got it, I'll remember that.",
        "remembered_private": "Got it, I'll remember that for you.",
        "remembered_room": "Got it, I'll remember that for this room.",
        "remember_no_room": "I don't know which room this is, so I can't remember that for this room.",
        "remember_invalid": "Sorry, I can't remember that.",
        "remember_what": "What should I remember?",
        "store_unavailable": "Sorry, my memory isn't available right now.",
        "forget_ask": "Should I forget: {items}?",
        "forget_none": "I don't remember anything like that.",
        "forgot": "Done, I've forgotten it.",
        "forgot_many": "Done, I've forgotten {count} things.",
        "forget_cancelled": "Okay, I'll keep it.",
        "forget_nothing_pending": "There's nothing waiting to be forgotten.",
        "forget_not_yours": "Only the person who asked can answer that.",
        "about_me_unknown": "I don't know who you are, so I can't forget anything about you.",
        "about_me_none": "I don't have anything private about you.",
        "about_me_ask": "Should I forget all {count} private things I know about you?",
        "about_me_done": "Done, I've forgotten {count} private things about you.",
        "know_nothing": "I don't know anything about that.",
        "know_list": "Here's what I know: {items}",
        "from_memory": "From memory: {items}",
        "from_memory_by": "{name} told me: {items}",
    },
    "de": {
        "remembered_shared": "Alles klar, ich merke es mir.",
        "remembered_private": "Alles klar, ich merke es mir für dich.",
        "remembered_room": "Alles klar, ich merke es mir für diesen Raum.",
        "remember_no_room": "Ich weiß nicht, welcher Raum das ist, also merke ich es mir nicht für ihn.",
        "remember_invalid": "Das kann ich mir leider nicht merken.",
        "remember_what": "Was soll ich mir merken?",
        "store_unavailable": "Mein Gedächtnis ist gerade nicht erreichbar.",
        "forget_ask": "Soll ich vergessen: {items}?",
        "forget_none": "Daran erinnere ich mich nicht.",
        "forgot": "Erledigt, ich habe es vergessen.",
        "forgot_many": "Erledigt, ich habe {count} Dinge vergessen.",
        "forget_cancelled": "Gut, ich behalte es.",
        "forget_nothing_pending": "Es gibt nichts, das auf das Vergessen wartet.",
        "forget_not_yours": "Das kann nur beantworten, wer gefragt hat.",
        "about_me_unknown": "Ich weiß nicht, wer du bist, deshalb kann ich nichts über dich vergessen.",
        "about_me_none": "Ich weiß nichts Privates über dich.",
        "about_me_ask": "Soll ich alle {count} privaten Dinge vergessen, die ich über dich weiß?",
        "about_me_done": "Erledigt, ich habe {count} private Dinge über dich vergessen.",
        "know_nothing": "Darüber weiß ich nichts.",
        "know_list": "Das weiß ich: {items}",
        "from_memory": "Ich habe mir gemerkt: {items}",
        "from_memory_by": "{name} hat mir gesagt: {items}",
    },
    "it": {
        "remembered_shared": "Va bene, me lo ricorderò.",
        "remembered_private": "Va bene, me lo ricorderò per te.",
        "remembered_room": "Va bene, me lo ricorderò per questa stanza.",
        "remember_no_room": "Non so quale stanza sia questa, quindi non posso ricordarlo per questa stanza.",
        "remember_invalid": "Mi dispiace, non posso ricordarlo.",
        "remember_what": "Cosa devo ricordare?",
        "store_unavailable": "Mi dispiace, la mia memoria non è disponibile adesso.",
        "forget_ask": "Devo dimenticare: {items}?",
        "forget_none": "Non ricordo niente del genere.",
        "forgot": "Fatto, l'ho dimenticato.",
        "forgot_many": "Fatto, ho dimenticato {count} cose.",
        "forget_cancelled": "Va bene, lo tengo.",
        "forget_nothing_pending": "Non c'è niente in attesa di essere dimenticato.",
        "forget_not_yours": "Può rispondere solo chi ha chiesto.",
        "about_me_unknown": "Non so chi sei, quindi non posso dimenticare niente su di te.",
        "about_me_none": "Non ho niente di privato su di te.",
        "about_me_ask": "Devo dimenticare tutte le {count} cose private che so su di te?",
        "about_me_done": "Fatto, ho dimenticato {count} cose private su di te.",
        "know_nothing": "Non ne so niente.",
        "know_list": "Ecco cosa so: {items}",
        "from_memory": "Ecco cosa ricordo: {items}",
        "from_memory_by": "{name} mi ha detto: {items}",
    },
    "fr": {
        "remembered_shared": "D'accord, je m'en souviendrai.",
        "remembered_private": "D'accord, je m'en souviendrai pour toi.",
        "remembered_room": "D'accord, je m'en souviendrai pour cette pièce.",
        "remember_no_room": "Je ne sais pas quelle pièce c'est, donc je ne peux pas le retenir pour elle.",
        "remember_invalid": "Désolé, je ne peux pas retenir cela.",
        "remember_what": "De quoi dois-je me souvenir ?",
        "store_unavailable": "Désolé, ma mémoire n'est pas disponible pour le moment.",
        "forget_ask": "Dois-je oublier : {items} ?",
        "forget_none": "Je ne me souviens de rien de tel.",
        "forgot": "C'est fait, je l'ai oublié.",
        "forgot_many": "C'est fait, j'ai oublié {count} choses.",
        "forget_cancelled": "D'accord, je le garde.",
        "forget_nothing_pending": "Rien n'attend d'être oublié.",
        "forget_not_yours": "Seule la personne qui a demandé peut répondre.",
        "about_me_unknown": "Je ne sais pas qui tu es, je ne peux donc rien oublier sur toi.",
        "about_me_none": "Je n'ai rien de privé sur toi.",
        "about_me_ask": "Dois-je oublier les {count} choses privées que je sais sur toi ?",
        "about_me_done": "C'est fait, j'ai oublié {count} choses privées sur toi.",
        "know_nothing": "Je n'en sais rien.",
        "know_list": "Voici ce que je sais : {items}",
        "from_memory": "Voici ce dont je me souviens : {items}",
        "from_memory_by": "{name} m'a dit : {items}",
    },
    "es": {
        "remembered_shared": "Entendido, lo recordaré.",
        "remembered_private": "Entendido, lo recordaré para ti.",
        "remembered_room": "Entendido, lo recordaré para esta habitación.",
        "remember_no_room": "No sé qué habitación es esta, así que no puedo recordarlo para esta habitación.",
        "remember_invalid": "Lo siento, no puedo recordar eso.",
        "remember_what": "¿Qué debo recordar?",
        "store_unavailable": "Lo siento, mi memoria no está disponible ahora.",
        "forget_ask": "¿Debo olvidar: {items}?",
        "forget_none": "No recuerdo nada parecido.",
        "forgot": "Hecho, lo he olvidado.",
        "forgot_many": "Hecho, he olvidado {count} cosas.",
        "forget_cancelled": "De acuerdo, lo guardo.",
        "forget_nothing_pending": "No hay nada pendiente de olvidar.",
        "forget_not_yours": "Solo puede responder quien lo pidió.",
        "about_me_unknown": "No sé quién eres, así que no puedo olvidar nada sobre ti.",
        "about_me_none": "No tengo nada privado sobre ti.",
        "about_me_ask": "¿Debo olvidar las {count} cosas privadas que sé sobre ti?",
        "about_me_done": "Hecho, he olvidado {count} cosas privadas sobre ti.",
        "know_nothing": "No sé nada de eso.",
        "know_list": "Esto es lo que sé: {items}",
        "from_memory": "Esto es lo que recuerdo: {items}",
        "from_memory_by": "{name} me dijo: {items}",
    },
}


def base_language(language: str | None) -> str:
    """'de-CH' -> 'de'; None or empty -> the fallback language."""
    if not language:
        return FALLBACK_LANGUAGE
    return language.replace("_", "-").split("-")[0].lower()


def quote_all(contents: list[str], tellers: Sequence[str | None] = ()) -> str:
    """Memory texts quoted for speech: '"A"; Julian: "B"' — the teller's name before a memory
    another person told (tellers: one name or None per text; none given: no names)."""
    names = list(tellers) or [None] * len(contents)
    return "; ".join(
        f'{name}: "{text.strip()}"' if name else f'"{text.strip()}"'
        for text, name in zip(contents, names, strict=True)
    )


def reply(language: str | None, key: str, **values: object) -> str:
    """The reply `key` in `language` (English when the language has none)."""
    table = REPLIES.get(base_language(language), REPLIES[FALLBACK_LANGUAGE])
    return table[key].format(**values)
