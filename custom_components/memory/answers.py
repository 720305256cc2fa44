"""Spoken replies of the memory sentences, per language (en, de, it, fr, es).

Replies stay in code (like HA's intent response templates) so an intent handler can
answer in the conversation's language without a round trip through translations.
`reply(language, key, **values)` formats one; unknown languages fall back to English.
"""

from __future__ import annotations

from collections.abc import Sequence
from datetime import date

FALLBACK_LANGUAGE = "en"

REPLIES: dict[str, dict[str, str]] = {
    "en": {
        "remember_known": "I knew that already: {items}",
        "replace_ask": "Noted. I also have {items} — should this replace it?",
        "replaced": "Done, the new one replaces it.",
        "kept_both": "Okay, I'll keep both.",
        "turn_failed": "Sorry, something went wrong. Please try again.",
        "busy": "I'm still answering the last question here. Please ask again in a moment.",
        "not_your_conversation": "This conversation was started by someone else. Please start a new one.",
        "from_memory_dated": "On {date}, I noted: {items}",
        "from_memory_by_dated": "On {date}, {name} told me: {items}",
        "withheld": "I can't tell you that here: it's sensitive, and I don't know who you are.",
        "withheld_item": "something sensitive I can't read out here",
        "needs_recognition": (
            "I can't answer that from what the household shared. Private memories need a "
            "recognised voice or a personal device, like your phone."
        ),
        "too_long": "That's too long for me. Please say it in fewer words.",
        "remember_offer": "Should I remember that?",
        "remember_declined": "Okay, I won't remember it.",
        "noted": "Okay, noted.",
        "forget_what": "What should I forget?",
        "remembered_shared": "Got it, I'll remember that.",
        "remembered_private": "Got it, I'll remember that for you.",
        "remembered_room": "Got it, I'll remember that for this room.",
        "remember_no_room": "I don't know which room this is, so I can't remember that for this room.",
        "remember_invalid": "Sorry, I can't remember that.",
        "remember_what": "What should I remember?",
        "store_unavailable": "Sorry, my memory isn't available right now.",
        "remember_failed": "Sorry, I couldn't store that: my memory isn't available right now.",
        "forget_ask": "Should I forget: {items}?",
        "forget_none": "I don't remember anything like that.",
        "forgot": "Done, I've forgotten it.",
        "forgot_many": "Done, I've forgotten {count} things.",
        "forget_cancelled": "Okay, I'll keep it.",
        "forget_nothing_pending": "There's nothing waiting to be forgotten.",
        "forget_not_yours": "Only the person who asked can answer that.",
        "about_me_unknown": "I don't know who you are, so I can't forget anything about you.",
        "about_me_unconfirmed": (
            "I couldn't confirm by your voice who is speaking, so I won't forget "
            "anything about you. Please ask from your phone or the app."
        ),
        "about_me_none": "I don't have anything private about you.",
        "about_me_ask": "Should I forget all {count} private things I know about you?",
        "about_me_done": "Done, I've forgotten {count} private things about you.",
        "know_nothing": "I don't know anything about that.",
        "know_list": "Here's what I know: {items}",
        "from_memory": "From memory: {items}",
        "from_memory_by": "{name} told me: {items}",
    },
    "de": {
        "remember_known": "Das wusste ich schon: {items}",
        "replace_ask": "Notiert. Ich habe auch {items} \u2013 soll das neue es ersetzen?",
        "replaced": "Erledigt, das neue ersetzt es.",
        "kept_both": "Gut, ich behalte beides.",
        "turn_failed": "Entschuldigung, da ist etwas schiefgegangen. Versuch es bitte noch einmal.",
        "busy": "Ich beantworte hier noch die letzte Frage. Frag bitte gleich noch einmal.",
        "not_your_conversation": "Dieses Gespräch hat jemand anderes begonnen. Fang bitte ein neues an.",
        "from_memory_dated": "Am {date} habe ich notiert: {items}",
        "from_memory_by_dated": "Am {date} hat mir {name} gesagt: {items}",
        "withheld": "Das kann ich dir hier nicht sagen: Es ist vertraulich, und ich weiß nicht, wer du bist.",
        "withheld_item": "etwas Vertrauliches, das ich hier nicht vorlese",
        "needs_recognition": (
            "Das kann ich aus dem, was der Haushalt teilt, nicht beantworten. Private Erinnerungen "
            "brauchen eine erkannte Stimme oder ein persönliches Gerät, etwa dein Handy."
        ),
        "too_long": "Das ist mir zu lang. Sag es bitte mit weniger Worten.",
        "remember_offer": "Soll ich mir das merken?",
        "remember_declined": "Gut, ich merke es mir nicht.",
        "noted": "Okay, notiert.",
        "forget_what": "Was soll ich vergessen?",
        "remembered_shared": "Alles klar, ich merke es mir.",
        "remembered_private": "Alles klar, ich merke es mir für dich.",
        "remembered_room": "Alles klar, ich merke es mir für diesen Raum.",
        "remember_no_room": "Ich weiß nicht, welcher Raum das ist, also merke ich es mir nicht für ihn.",
        "remember_invalid": "Das kann ich mir leider nicht merken.",
        "remember_what": "Was soll ich mir merken?",
        "store_unavailable": "Mein Gedächtnis ist gerade nicht erreichbar.",
        "remember_failed": "Das konnte ich mir nicht merken: Mein Gedächtnis ist gerade nicht erreichbar.",
        "forget_ask": "Soll ich vergessen: {items}?",
        "forget_none": "Daran erinnere ich mich nicht.",
        "forgot": "Erledigt, ich habe es vergessen.",
        "forgot_many": "Erledigt, ich habe {count} Dinge vergessen.",
        "forget_cancelled": "Gut, ich behalte es.",
        "forget_nothing_pending": "Es gibt nichts, das auf das Vergessen wartet.",
        "forget_not_yours": "Das kann nur beantworten, wer gefragt hat.",
        "about_me_unknown": "Ich weiß nicht, wer du bist, deshalb kann ich nichts über dich vergessen.",
        "about_me_unconfirmed": (
            "Ich konnte an der Stimme nicht sicher erkennen, wer spricht, deshalb vergesse "
            "ich nichts über dich. Bitte frag über dein Handy oder die App."
        ),
        "about_me_none": "Ich weiß nichts Privates über dich.",
        "about_me_ask": "Soll ich alle {count} privaten Dinge vergessen, die ich über dich weiß?",
        "about_me_done": "Erledigt, ich habe {count} private Dinge über dich vergessen.",
        "know_nothing": "Darüber weiß ich nichts.",
        "know_list": "Das weiß ich: {items}",
        "from_memory": "Ich habe mir gemerkt: {items}",
        "from_memory_by": "{name} hat mir gesagt: {items}",
    },
    "it": {
        "remember_known": "Lo sapevo già: {items}",
        "replace_ask": "Annotato. Ho anche {items}: devo sostituirlo con il nuovo?",
        "replaced": "Fatto, il nuovo lo sostituisce.",
        "kept_both": "Va bene, li tengo entrambi.",
        "turn_failed": "Scusa, qualcosa è andato storto. Riprova, per favore.",
        "busy": "Sto ancora rispondendo alla domanda precedente. Chiedimelo di nuovo tra un momento.",
        "not_your_conversation": (
            "Questa conversazione l'ha iniziata qualcun altro. Iniziane una nuova, per favore."
        ),
        "from_memory_dated": "Ho annotato {date}: {items}",
        "from_memory_by_dated": "{name} mi ha detto {date}: {items}",
        "withheld": "Non posso dirtelo qui: è riservato e non so chi sei.",
        "withheld_item": "una cosa riservata che qui non posso leggere",
        "needs_recognition": (
            "Non posso rispondere con ciò che la casa condivide. I ricordi privati richiedono "
            "una voce riconosciuta o un dispositivo personale, come il tuo telefono."
        ),
        "too_long": "È troppo lungo per me. Dillo con meno parole, per favore.",
        "remember_offer": "Devo ricordarlo?",
        "remember_declined": "Va bene, non lo ricorderò.",
        "noted": "Ok, preso nota.",
        "forget_what": "Cosa devo dimenticare?",
        "remembered_shared": "Va bene, me lo ricorderò.",
        "remembered_private": "Va bene, me lo ricorderò per te.",
        "remembered_room": "Va bene, me lo ricorderò per questa stanza.",
        "remember_no_room": "Non so quale stanza sia questa, quindi non posso ricordarlo per questa stanza.",
        "remember_invalid": "Mi dispiace, non posso ricordarlo.",
        "remember_what": "Cosa devo ricordare?",
        "store_unavailable": "Mi dispiace, la mia memoria non è disponibile adesso.",
        "remember_failed": "Mi dispiace, non ho potuto memorizzarlo: la memoria non è disponibile adesso.",
        "forget_ask": "Devo dimenticare: {items}?",
        "forget_none": "Non ricordo niente del genere.",
        "forgot": "Fatto, l'ho dimenticato.",
        "forgot_many": "Fatto, ho dimenticato {count} cose.",
        "forget_cancelled": "Va bene, lo tengo.",
        "forget_nothing_pending": "Non c'è niente in attesa di essere dimenticato.",
        "forget_not_yours": "Può rispondere solo chi ha chiesto.",
        "about_me_unknown": "Non so chi sei, quindi non posso dimenticare niente su di te.",
        "about_me_unconfirmed": (
            "Non sono riuscito a confermare dalla voce chi sta parlando, quindi "
            "non dimentico niente su di te. Chiedilo dal telefono o dall'app."
        ),
        "about_me_none": "Non ho niente di privato su di te.",
        "about_me_ask": "Devo dimenticare tutte le {count} cose private che so su di te?",
        "about_me_done": "Fatto, ho dimenticato {count} cose private su di te.",
        "know_nothing": "Non ne so niente.",
        "know_list": "Ecco cosa so: {items}",
        "from_memory": "Ecco cosa ricordo: {items}",
        "from_memory_by": "{name} mi ha detto: {items}",
    },
    "fr": {
        "remember_known": "Je le savais déjà : {items}",
        "replace_ask": "C'est noté. J'ai aussi {items} : est-ce que ça le remplace ?",
        "replaced": "C'est fait, le nouveau le remplace.",
        "kept_both": "D'accord, je garde les deux.",
        "turn_failed": "Désolé, quelque chose s'est mal passé. Réessaie, s'il te plaît.",
        "busy": "Je réponds encore à la question précédente. Redemande-moi dans un instant.",
        "not_your_conversation": (
            "Quelqu'un d'autre a commencé cette conversation. Commence-en une nouvelle, s'il te plaît."
        ),
        "from_memory_dated": "J'ai noté le {date} : {items}",
        "from_memory_by_dated": "{name} m'a dit le {date} : {items}",
        "withheld": "Je ne peux pas te le dire ici : c'est confidentiel et je ne sais pas qui tu es.",
        "withheld_item": "une chose confidentielle que je ne peux pas lire ici",
        "needs_recognition": (
            "Je ne peux pas répondre avec ce que le foyer partage. Les souvenirs privés demandent "
            "une voix reconnue ou un appareil personnel, comme ton téléphone."
        ),
        "too_long": "C'est trop long pour moi. Dis-le en moins de mots, s'il te plaît.",
        "remember_offer": "Dois-je m'en souvenir ?",
        "remember_declined": "D'accord, je ne m'en souviendrai pas.",
        "noted": "D'accord, c'est noté.",
        "forget_what": "Que dois-je oublier ?",
        "remembered_shared": "D'accord, je m'en souviendrai.",
        "remembered_private": "D'accord, je m'en souviendrai pour toi.",
        "remembered_room": "D'accord, je m'en souviendrai pour cette pièce.",
        "remember_no_room": "Je ne sais pas quelle pièce c'est, donc je ne peux pas le retenir pour elle.",
        "remember_invalid": "Désolé, je ne peux pas retenir cela.",
        "remember_what": "De quoi dois-je me souvenir ?",
        "store_unavailable": "Désolé, ma mémoire n'est pas disponible pour le moment.",
        "remember_failed": "Désolé, je n'ai pas pu l'enregistrer : ma mémoire n'est pas disponible.",
        "forget_ask": "Dois-je oublier : {items} ?",
        "forget_none": "Je ne me souviens de rien de tel.",
        "forgot": "C'est fait, je l'ai oublié.",
        "forgot_many": "C'est fait, j'ai oublié {count} choses.",
        "forget_cancelled": "D'accord, je le garde.",
        "forget_nothing_pending": "Rien n'attend d'être oublié.",
        "forget_not_yours": "Seule la personne qui a demandé peut répondre.",
        "about_me_unknown": "Je ne sais pas qui tu es, je ne peux donc rien oublier sur toi.",
        "about_me_unconfirmed": (
            "Je n'ai pas pu confirmer à la voix qui parle, je n'oublie donc rien "
            "sur toi. Demande-le depuis ton téléphone ou l'application."
        ),
        "about_me_none": "Je n'ai rien de privé sur toi.",
        "about_me_ask": "Dois-je oublier les {count} choses privées que je sais sur toi ?",
        "about_me_done": "C'est fait, j'ai oublié {count} choses privées sur toi.",
        "know_nothing": "Je n'en sais rien.",
        "know_list": "Voici ce que je sais : {items}",
        "from_memory": "Voici ce dont je me souviens : {items}",
        "from_memory_by": "{name} m'a dit : {items}",
    },
    "es": {
        "remember_known": "Ya lo sabía: {items}",
        "replace_ask": "Anotado. También tengo {items}: ¿lo reemplazo por esto?",
        "replaced": "Hecho, lo nuevo lo reemplaza.",
        "kept_both": "Vale, me quedo con los dos.",
        "turn_failed": "Lo siento, algo ha fallado. Inténtalo de nuevo, por favor.",
        "busy": "Todavía estoy respondiendo a la pregunta anterior. Vuelve a preguntar en un momento.",
        "not_your_conversation": "Esta conversación la empezó otra persona. Empieza una nueva, por favor.",
        "from_memory_dated": "Anoté el {date}: {items}",
        "from_memory_by_dated": "{name} me dijo el {date}: {items}",
        "withheld": "No puedo decírtelo aquí: es confidencial y no sé quién eres.",
        "withheld_item": "algo confidencial que no puedo leer aquí",
        "needs_recognition": (
            "No puedo responder con lo que comparte la casa. Los recuerdos privados necesitan "
            "una voz reconocida o un dispositivo personal, como tu teléfono."
        ),
        "too_long": "Es demasiado largo para mí. Dilo con menos palabras, por favor.",
        "remember_offer": "¿Debo recordarlo?",
        "remember_declined": "De acuerdo, no lo recordaré.",
        "noted": "Vale, anotado.",
        "forget_what": "¿Qué debo olvidar?",
        "remembered_shared": "Entendido, lo recordaré.",
        "remembered_private": "Entendido, lo recordaré para ti.",
        "remembered_room": "Entendido, lo recordaré para esta habitación.",
        "remember_no_room": "No sé qué habitación es esta, así que no puedo recordarlo para esta habitación.",
        "remember_invalid": "Lo siento, no puedo recordar eso.",
        "remember_what": "¿Qué debo recordar?",
        "store_unavailable": "Lo siento, mi memoria no está disponible ahora.",
        "remember_failed": "Lo siento, no pude guardarlo: mi memoria no está disponible ahora.",
        "forget_ask": "¿Debo olvidar: {items}?",
        "forget_none": "No recuerdo nada parecido.",
        "forgot": "Hecho, lo he olvidado.",
        "forgot_many": "Hecho, he olvidado {count} cosas.",
        "forget_cancelled": "De acuerdo, lo guardo.",
        "forget_nothing_pending": "No hay nada pendiente de olvidar.",
        "forget_not_yours": "Solo puede responder quien lo pidió.",
        "about_me_unknown": "No sé quién eres, así que no puedo olvidar nada sobre ti.",
        "about_me_unconfirmed": (
            "No he podido confirmar por la voz quién habla, así que no "
            "olvido nada sobre ti. Pídelo desde tu teléfono o la app."
        ),
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


def quote_all(
    contents: list[str], tellers: Sequence[str | None] = (), dates: Sequence[str | None] = ()
) -> str:
    """Memory texts quoted for speech: '"A"; Julian: "B" (Monday, 30 November)' — the teller's
    name before a memory another person told, the day it was said after one from another day
    (tellers, dates: one value or None per text; none given: none)."""
    names = list(tellers) or [None] * len(contents)
    days = list(dates) or [None] * len(contents)
    return "; ".join(
        (f'{name}: "{text.strip()}"' if name else f'"{text.strip()}"') + (f" ({day})" if day else "")
        for text, name, day in zip(contents, names, days, strict=True)
    )


# Weekdays (Monday first) and months per language, for the day a memory was said.
_WEEKDAYS: dict[str, tuple[str, ...]] = {
    "en": ("Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday", "Sunday"),
    "de": ("Montag", "Dienstag", "Mittwoch", "Donnerstag", "Freitag", "Samstag", "Sonntag"),
    "it": ("lunedì", "martedì", "mercoledì", "giovedì", "venerdì", "sabato", "domenica"),
    "fr": ("lundi", "mardi", "mercredi", "jeudi", "vendredi", "samedi", "dimanche"),
    "es": ("lunes", "martes", "miércoles", "jueves", "viernes", "sábado", "domingo"),
}
_MONTHS: dict[str, tuple[str, ...]] = {
    "en": ("January", "February", "March", "April", "May", "June", "July", "August", "September",
           "October", "November", "December"),
    "de": ("Januar", "Februar", "März", "April", "Mai", "Juni", "Juli", "August", "September",
           "Oktober", "November", "Dezember"),
    "it": ("gennaio", "febbraio", "marzo", "aprile", "maggio", "giugno", "luglio", "agosto",
           "settembre", "ottobre", "novembre", "dicembre"),
    "fr": ("janvier", "février", "mars", "avril", "mai", "juin", "juillet", "août", "septembre",
           "octobre", "novembre", "décembre"),
    "es": ("enero", "febrero", "marzo", "abril", "mayo", "junio", "julio", "agosto", "septiembre",
           "octubre", "noviembre", "diciembre"),
}  # fmt: skip
_DATE_FORMATS = {
    "en": "{weekday}, {day} {month}",
    "de": "{weekday}, {day}. {month}",
    "it": "{weekday} {day} {month}",
    "fr": "{weekday} {day} {month}",
    "es": "{weekday} {day} de {month}",
}


def spoken_date(day: date, language: str | None, today: date) -> str | None:
    """The day a memory was said, for speech ("Monday, 30 November"; the year when it is not
    today's year), or None when it was said today: a memory from another day is read back with
    its day, so "tomorrow" in it is not taken as tomorrow from now."""
    if day == today:
        return None
    lang = base_language(language)
    if lang not in _DATE_FORMATS:
        lang = FALLBACK_LANGUAGE
    text = _DATE_FORMATS[lang].format(
        weekday=_WEEKDAYS[lang][day.weekday()], day=day.day, month=_MONTHS[lang][day.month - 1]
    )
    return text if day.year == today.year else f"{text} {day.year}"


def reply(language: str | None, key: str, **values: object) -> str:
    """The reply `key` in `language` (English when the language has none)."""
    table = REPLIES.get(base_language(language), REPLIES[FALLBACK_LANGUAGE])
    return table[key].format(**values)
