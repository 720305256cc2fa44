"""The voice benchmark's pool of human-derived voices (issue 28): who says what, in which session.

Voices recorded from real speakers, not formant synthesis: every MBROLA diphone voice of a language
below (Debian's mbrola-XX packages, through espeak-ng `-v mb-XX`), the CMU ARCTIC voices of flite
(awb, rms, slt, and kal16) and Festival's own diphone voices (don, rab; Italian lp, pc) — 52 voices,
each speaking its own language. Installed by `scripts/voice-pool` (scripts/lib.sh VOICE_POOL_DEBS on
top of the test voices). One speaker is one voice: Festival's kal and slt voices are flite's kal16
and slt again and are not in the pool.

Sessions per voice (tests/speech.py `say`, `in_room`):
- enrol: 3 sentences as synthesised (a quiet room);
- sentence: 5 other sentences — 2 as synthesised, one slower (tempo 0.85), one faster (1.15), one at
  another pitch (+-150 cents);
- command: 6 commands of about 2 s — 3 as synthesised, faster, slower, another pitch;
- room_sentence / room_command: the same clips in a room (sox reverb, pink or brown noise at 15 dB
  SNR, a different room per clip);
- room_enrol: the enrolment sentences in a room (enrolment at the satellite itself).

How a clip reaches the recogniser (`Clip.pcm(form)`, FORMS): "synth" as the synthesiser wrote it
(with its own short pauses; the room sessions: `in_room` of that); "trimmed": cut close to the
speech, as a satellite's VAD may deliver it (TRIM_BELOW_DB); "stream": the trimmed speech with
STREAM_BEFORE / STREAM_AFTER seconds of the room around it, as a pipeline's stream carries it;
"padded": with PAD seconds around it. The room sessions' trimmed, stream and padded forms are cut
from one recording of the padded speech in the room (noise ROOM_SNR_DB below the trimmed speech),
so they differ only in where the cut is.

`split(voices, seed)` halves the pool (tuning, held out); thresholds are chosen on the first half only.
"""

from __future__ import annotations

import random
import sys
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "tests"))

import numpy as np
from speech import SAMPLE_RATE, in_room, say, silence

ROOM_SNR_DB = 15.0
FORMS = ("synth", "trimmed", "stream", "padded")
# A VAD's cut: the first to the last 10-ms frame within this of the clip's 95th-percentile frame
# (tighter than the recogniser's own 30-dB span, stream.ACTIVE_BELOW_PEAK, so the two do not agree
# by construction).
TRIM_BELOW_DB = 25.0
STREAM_BEFORE, STREAM_AFTER = 0.3, 0.7  # seconds: what a pipeline's stream carries around speech
PAD = 1.0  # seconds each side


def trim(pcm: bytes) -> bytes:
    """`pcm` (16-bit mono 16 kHz) from its first to its last 10-ms frame within TRIM_BELOW_DB of
    its 95th-percentile frame's power."""
    hop = SAMPLE_RATE // 100
    samples = np.frombuffer(pcm, "<i2").astype(np.float64)
    frames = samples[: len(samples) // hop * hop].reshape(-1, hop)
    power = 10 * np.log10((frames**2).mean(axis=1) + 1e-3)
    active = np.flatnonzero(power > np.percentile(power, 95) - TRIM_BELOW_DB)
    return pcm[2 * hop * int(active[0]) : 2 * hop * (int(active[-1]) + 1)]


def _loud_rms(pcm: bytes) -> float:
    """RMS of the louder half of 20-ms frames (as tests/speech.py in_room levels its noise)."""
    samples = np.frombuffer(pcm, "<i2").astype(np.float64)
    power = np.sort((samples[: len(samples) // 320 * 320].reshape(-1, 320) ** 2).mean(axis=1))
    return float(np.sqrt(power[len(power) // 2 :].mean()))


# (voice, language): language codes as in TEXTS.
VOICES: tuple[tuple[str, str], ...] = (
    *((f"mb-{v}", "en") for v in ("us1", "us2", "us3", "en1")),
    *((f"flite:{v}", "en") for v in ("awb", "rms", "slt", "kal16")),
    ("festival:don_diphone", "en"),
    ("festival:rab_diphone", "en"),
    *((f"mb-de{i}", "de") for i in range(1, 9)),
    *((f"mb-fr{i}", "fr") for i in range(1, 8)),
    *((f"mb-{v}", "es") for v in ("es1", "es2", "es3", "es4", "mx1", "mx2", "vz1")),
    *((f"mb-it{i}", "it") for i in range(1, 5)),
    ("festival:lp_diphone", "it"),
    ("festival:pc_diphone", "it"),
    *((f"mb-nl{i}", "nl") for i in range(1, 4)),
    *((f"mb-{v}", "pt") for v in ("pt1", "br1", "br2", "br3", "br4")),
    ("mb-pl1", "pl"),
    ("mb-sw1", "sv"),
    ("mb-sw2", "sv"),
    ("mb-cz2", "cs"),
    ("mb-ro1", "ro"),
    ("mb-hu1", "hu"),
)

# Per language: 8 sentences (3 enrolment + 5 tests, rotated by voice) and 6 short commands.
TEXTS: dict[str, tuple[tuple[str, ...], tuple[str, ...]]] = {
    "en": (
        (
            "My sister is coming to visit us next weekend with her two children.",
            "We usually buy our vegetables at the market near the old church.",
            "The spare key for the garden shed hangs on the hook behind the door.",
            "I started learning the piano last winter and I practise every evening.",
            "Our neighbour repairs bicycles in his garage on Saturday mornings.",
            "The heating makes a strange noise when it turns on in the morning.",
            "Please remember that the dentist moved my appointment to Thursday.",
            "Last summer we drove along the coast and stayed in a small village.",
        ),
        (
            "What do I like to eat?",
            "Turn on the light in the kitchen.",
            "Where did I put my keys?",
            "What is on my shopping list today?",
            "Remind me about the dentist tomorrow.",
            "Who is coming for dinner tonight?",
        ),
    ),
    "de": (
        (
            "Meine Schwester besucht uns nächstes Wochenende mit ihren beiden Kindern.",
            "Wir kaufen unser Gemüse meistens auf dem Markt neben der alten Kirche.",
            "Der Ersatzschlüssel für den Gartenschuppen hängt hinter der Tür am Haken.",
            "Ich habe letzten Winter mit dem Klavier angefangen und übe jeden Abend.",
            "Unser Nachbar repariert samstags morgens Fahrräder in seiner Garage.",
            "Die Heizung macht ein seltsames Geräusch, wenn sie morgens anspringt.",
            "Denk bitte daran, dass der Zahnarzt meinen Termin auf Donnerstag verschoben hat.",
            "Letzten Sommer sind wir die Küste entlang gefahren und in einem Dorf geblieben.",
        ),
        (
            "Was esse ich eigentlich gern?",
            "Mach bitte das Licht in der Küche an.",
            "Wo habe ich meine Schlüssel hingelegt?",
            "Was steht heute auf meiner Einkaufsliste?",
            "Erinnere mich morgen an den Zahnarzt.",
            "Wer kommt heute Abend zum Essen?",
        ),
    ),
    "fr": (
        (
            "Ma sœur vient nous rendre visite le week-end prochain avec ses deux enfants.",
            "Nous achetons nos légumes au marché près de la vieille église.",
            "La clé de secours de l'abri de jardin est accrochée derrière la porte.",
            "J'ai commencé le piano l'hiver dernier et je m'exerce tous les soirs.",
            "Notre voisin répare des vélos dans son garage le samedi matin.",
            "Le chauffage fait un bruit étrange quand il se met en marche le matin.",
            "N'oublie pas que le dentiste a déplacé mon rendez-vous à jeudi.",
            "L'été dernier nous avons longé la côte et dormi dans un petit village.",
        ),
        (
            "Qu'est-ce que j'aime manger ?",
            "Allume la lumière dans la cuisine.",
            "Où est-ce que j'ai mis mes clés ?",
            "Qu'y a-t-il sur ma liste de courses ?",
            "Rappelle-moi le dentiste demain.",
            "Qui vient dîner ce soir ?",
        ),
    ),
    "es": (
        (
            "Mi hermana viene a visitarnos el próximo fin de semana con sus dos hijos.",
            "Solemos comprar la verdura en el mercado junto a la iglesia vieja.",
            "La llave de repuesto del cobertizo cuelga detrás de la puerta.",
            "Empecé a aprender piano el invierno pasado y practico todas las noches.",
            "Nuestro vecino arregla bicicletas en su garaje los sábados por la mañana.",
            "La calefacción hace un ruido extraño cuando se enciende por la mañana.",
            "Recuerda que el dentista cambió mi cita al jueves.",
            "El verano pasado recorrimos la costa y nos quedamos en un pueblo pequeño.",
        ),
        (
            "¿Qué es lo que me gusta comer?",
            "Enciende la luz de la cocina, por favor.",
            "¿Dónde he puesto mis llaves?",
            "¿Qué hay hoy en mi lista de la compra?",
            "Recuérdame mañana lo del dentista.",
            "¿Quién viene a cenar esta noche?",
        ),
    ),
    "it": (
        (
            "Mia sorella viene a trovarci il prossimo fine settimana con i suoi due figli.",
            "Di solito compriamo la verdura al mercato vicino alla vecchia chiesa.",
            "La chiave di riserva della casetta in giardino è appesa dietro la porta.",
            "Ho cominciato a studiare il pianoforte l'inverno scorso e suono ogni sera.",
            "Il nostro vicino ripara le biciclette nel suo garage il sabato mattina.",
            "Il riscaldamento fa un rumore strano quando si accende la mattina.",
            "Ricordati che il dentista ha spostato il mio appuntamento a giovedì.",
            "L'estate scorsa abbiamo viaggiato lungo la costa e dormito in un paesino.",
        ),
        (
            "Che cosa mi piace mangiare?",
            "Accendi la luce in cucina, per favore.",
            "Dove ho messo le mie chiavi?",
            "Cosa c'è oggi sulla mia lista della spesa?",
            "Ricordami domani il dentista.",
            "Chi viene a cena stasera?",
        ),
    ),
    "nl": (
        (
            "Mijn zus komt volgend weekend met haar twee kinderen bij ons op bezoek.",
            "Wij kopen onze groenten meestal op de markt bij de oude kerk.",
            "De reservesleutel van het tuinhuis hangt aan de haak achter de deur.",
            "Ik ben vorige winter met piano begonnen en ik oefen elke avond.",
            "Onze buurman repareert op zaterdagochtend fietsen in zijn garage.",
            "De verwarming maakt een vreemd geluid als hij 's ochtends aanslaat.",
            "Denk eraan dat de tandarts mijn afspraak naar donderdag heeft verzet.",
            "Vorige zomer reden we langs de kust en sliepen we in een klein dorp.",
        ),
        (
            "Wat eet ik eigenlijk graag?",
            "Doe het licht in de keuken aan, alsjeblieft.",
            "Waar heb ik mijn sleutels gelaten?",
            "Wat staat er vandaag op mijn boodschappenlijst?",
            "Herinner me morgen aan de tandarts.",
            "Wie komt er vanavond eten?",
        ),
    ),
    "pt": (
        (
            "A minha irmã vem nos visitar no próximo fim de semana com os dois filhos.",
            "Costumamos comprar os legumes no mercado ao lado da igreja velha.",
            "A chave reserva do barracão está pendurada atrás da porta.",
            "Comecei a aprender piano no inverno passado e pratico todas as noites.",
            "O nosso vizinho conserta bicicletas na garagem aos sábados de manhã.",
            "O aquecimento faz um barulho estranho quando liga de manhã.",
            "Lembra que o dentista mudou a minha consulta para quinta-feira.",
            "No verão passado viajamos pela costa e ficamos numa aldeia pequena.",
        ),
        (
            "Do que é que eu gosto de comer?",
            "Acende a luz da cozinha, por favor.",
            "Onde é que eu deixei as minhas chaves?",
            "O que há hoje na minha lista de compras?",
            "Lembra-me amanhã do dentista.",
            "Quem vem jantar hoje à noite?",
        ),
    ),
    "pl": (
        (
            "Moja siostra odwiedzi nas w przyszły weekend razem z dwójką dzieci.",
            "Warzywa kupujemy zwykle na targu obok starego kościoła.",
            "Zapasowy klucz do szopy w ogrodzie wisi na haczyku za drzwiami.",
            "Zeszłej zimy zacząłem uczyć się gry na pianinie i ćwiczę co wieczór.",
            "Nasz sąsiad naprawia rowery w swoim garażu w sobotnie poranki.",
            "Ogrzewanie wydaje dziwny dźwięk, kiedy włącza się rano.",
            "Pamiętaj, że dentysta przełożył moją wizytę na czwartek.",
            "Zeszłego lata jechaliśmy wzdłuż wybrzeża i nocowaliśmy w małej wsi.",
        ),
        (
            "Co właściwie lubię jeść?",
            "Włącz proszę światło w kuchni.",
            "Gdzie położyłem moje klucze?",
            "Co mam dziś na liście zakupów?",
            "Przypomnij mi jutro o dentyście.",
            "Kto przychodzi dziś na kolację?",
        ),
    ),
    "sv": (
        (
            "Min syster kommer och hälsar på oss nästa helg med sina två barn.",
            "Vi brukar köpa våra grönsaker på torget vid den gamla kyrkan.",
            "Reservnyckeln till förrådet hänger på kroken bakom dörren.",
            "Jag började spela piano i vintras och jag övar varje kväll.",
            "Vår granne lagar cyklar i sitt garage på lördagsmorgnarna.",
            "Elementen låter konstigt när värmen sätts på på morgonen.",
            "Kom ihåg att tandläkaren flyttade min tid till torsdag.",
            "I somras körde vi längs kusten och bodde i en liten by.",
        ),
        (
            "Vad tycker jag om att äta?",
            "Tänd lampan i köket, tack.",
            "Var har jag lagt mina nycklar?",
            "Vad står på min inköpslista i dag?",
            "Påminn mig om tandläkaren i morgon.",
            "Vem kommer på middag i kväll?",
        ),
    ),
    "cs": (
        (
            "Moje sestra nás příští víkend navštíví se svými dvěma dětmi.",
            "Zeleninu obvykle kupujeme na trhu vedle starého kostela.",
            "Náhradní klíč od zahradní kůlny visí na háčku za dveřmi.",
            "Minulou zimu jsem se začal učit na klavír a cvičím každý večer.",
            "Náš soused opravuje v sobotu ráno kola ve své garáži.",
            "Topení vydává divný zvuk, když se ráno zapíná.",
            "Nezapomeň, že zubař přesunul moji návštěvu na čtvrtek.",
            "Loni v létě jsme jeli podél pobřeží a spali v malé vesnici.",
        ),
        (
            "Co vlastně rád jím?",
            "Rozsviť prosím světlo v kuchyni.",
            "Kam jsem dal své klíče?",
            "Co mám dnes na nákupním seznamu?",
            "Připomeň mi zítra zubaře.",
            "Kdo dnes přijde na večeři?",
        ),
    ),
    "ro": (
        (
            "Sora mea vine să ne viziteze weekendul viitor cu cei doi copii ai ei.",
            "De obicei cumpărăm legumele de la piața de lângă biserica veche.",
            "Cheia de rezervă de la magazia din grădină stă în cui după ușă.",
            "Am început să învăț la pian iarna trecută și exersez în fiecare seară.",
            "Vecinul nostru repară biciclete în garajul lui sâmbăta dimineața.",
            "Centrala face un zgomot ciudat când pornește dimineața.",
            "Nu uita că dentistul mi-a mutat programarea pe joi.",
            "Vara trecută am mers de-a lungul coastei și am stat într-un sat mic.",
        ),
        (
            "Ce îmi place să mănânc?",
            "Aprinde lumina din bucătărie, te rog.",
            "Unde mi-am pus cheile?",
            "Ce am azi pe lista de cumpărături?",
            "Amintește-mi mâine de dentist.",
            "Cine vine la cină diseară?",
        ),
    ),
    "hu": (
        (
            "A húgom a jövő hétvégén meglátogat minket a két gyerekével.",
            "A zöldséget általában a régi templom melletti piacon vesszük.",
            "A kerti fészer pótkulcsa az ajtó mögötti kampón lóg.",
            "Tavaly télen kezdtem zongorázni tanulni, és minden este gyakorolok.",
            "A szomszédunk szombat délelőttönként biciklit javít a garázsában.",
            "A fűtés furcsa hangot ad, amikor reggel bekapcsol.",
            "Ne felejtsd el, hogy a fogorvos csütörtökre tette át az időpontomat.",
            "Tavaly nyáron végigautóztunk a parton, és egy kis faluban aludtunk.",
        ),
        (
            "Mit szeretek enni?",
            "Kapcsold fel a villanyt a konyhában, kérlek.",
            "Hova tettem a kulcsaimat?",
            "Mi van ma a bevásárlólistámon?",
            "Emlékeztess holnap a fogorvosra.",
            "Ki jön ma este vacsorára?",
        ),
    ),
}

ENROL = 3
SESSIONS = ("enrol", "sentence", "command", "room_enrol", "room_sentence", "room_command")


@dataclass(frozen=True, slots=True)
class Clip:
    """One clip of the pool: voice, session (SESSIONS), index within the session, text and how it
    was said (tempo, cents, room seed or None)."""

    voice: str
    session: str
    index: int
    text: str
    tempo: float = 1.0
    cents: int = 0
    room: int | None = None

    @property
    def key(self) -> str:
        return f"{self.voice}|{self.text}|{self.tempo}|{self.cents}|{self.room}"

    def pcm(self, form: str = "synth") -> bytes:
        """16-bit mono 16 kHz PCM in `form` (FORMS; synthesised once, cached by tests/speech.py)."""
        clean = say(self.text, self.voice, tempo=self.tempo, cents=self.cents)
        if form == "synth":
            return clean if self.room is None else in_room(clean, snr_db=ROOM_SNR_DB, seed=self.room)
        speech, padded = _padded(clean, self.room)
        pad = 2 * int(PAD * SAMPLE_RATE)
        before, after = {
            "trimmed": (0.0, 0.0),
            "stream": (STREAM_BEFORE, STREAM_AFTER),
            "padded": (PAD, PAD),
        }[form]
        start, end = pad - 2 * int(before * SAMPLE_RATE), pad + speech + 2 * int(after * SAMPLE_RATE)
        return padded[start:end]


def _padded(clean: bytes, room: int | None) -> tuple[int, bytes]:
    """(bytes of trimmed speech, the speech with PAD seconds each side, in its room if any)."""
    speech = trim(clean)
    padded = silence(PAD) + speech + silence(PAD)
    if room is not None:
        # in_room levels its noise on the whole clip, pauses included: lowered by as much as the
        # padding lowers the level, so the noise is ROOM_SNR_DB below the speech itself.
        snr = ROOM_SNR_DB + 20 * float(np.log10(_loud_rms(padded) / _loud_rms(speech)))
        padded = in_room(padded, snr_db=round(snr, 2), seed=room)
    return len(speech), padded


_SENTENCE_STYLES = ((1.0, 0), (1.0, 0), (0.85, 0), (1.15, 0), (1.0, 150))
_COMMAND_STYLES = ((1.0, 0), (1.0, 0), (1.0, 0), (1.15, 0), (0.9, 0), (1.0, -150))


def clips(voice: str, language: str, number: int) -> Iterator[Clip]:
    """Every clip of `voice` (the `number`th voice of the pool: rotates its sentences and seeds)."""
    sentences, commands = TEXTS[language]
    order = [sentences[(number * 3 + k) % len(sentences)] for k in range(len(sentences))]
    for k, text in enumerate(order[:ENROL]):
        yield Clip(voice, "enrol", k, text)
        yield Clip(voice, "room_enrol", k, text, room=number * 100 + k)
    for k, text in enumerate(order[ENROL:]):
        tempo, cents = _SENTENCE_STYLES[k]
        cents = cents if number % 2 else -cents
        yield Clip(voice, "sentence", k, text, tempo, cents)
        yield Clip(voice, "room_sentence", k, text, tempo, cents, room=number * 100 + 10 + k)
    for k, text in enumerate(commands):
        tempo, cents = _COMMAND_STYLES[k]
        yield Clip(voice, "command", k, text, tempo, cents)
        yield Clip(voice, "room_command", k, text, tempo, cents, room=number * 100 + 20 + k)


def pool() -> list[Clip]:
    """Every clip of every voice in VOICES."""
    return [
        clip for number, (voice, language) in enumerate(VOICES) for clip in clips(voice, language, number)
    ]


def split(voices: list[str], seed: int = 28) -> tuple[list[str], list[str]]:
    """(tuning half, held-out half) of `voices`, seeded."""
    shuffled = sorted(voices)
    random.Random(seed).shuffle(shuffled)
    middle = len(shuffled) // 2
    return sorted(shuffled[:middle]), sorted(shuffled[middle:])
