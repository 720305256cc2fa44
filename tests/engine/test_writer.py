"""remember(): validation, sensitive flag, dedup (C11/C12), tombstone lifting (C04)."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace

import pytest

from custom_components.memory.engine.api import (
    MAX_CONTENT_CHARS,
    InvalidInput,
    MemoryDraft,
    MemoryEdit,
    WriteAction,
)
from custom_components.memory.engine.engine import MemoryEngine
from custom_components.memory.engine.models import Memory, Provenance, Scope, Speaker, Status
from custom_components.memory.engine.sensitive import Sensitivity, classify, iban_valid, luhn_valid
from tests.case_texts import SECRET_EDITS

from .conftest import ANNA, JULIAN, KITCHEN

# every case in both vector index modes (exact matrix / compact projection + exact re-rank)
pytestmark = pytest.mark.usefixtures("index_mode")

GUEST = Speaker()
ADMIN = Speaker.administrator()


@pytest.mark.parametrize(
    ("content", "scope", "speaker", "field", "reason"),
    [
        ("", Scope.SHARED, GUEST, "content", "empty"),
        ("   \n\t", Scope.SHARED, GUEST, "content", "empty"),
        ("x" * (MAX_CONTENT_CHARS + 1), Scope.SHARED, GUEST, "content", "too_long"),
        ("I like tea.", Scope.PRIVATE, GUEST, "scope", "scope_needs_person"),
        ("The window sticks.", Scope.ROOM, Speaker(person_id=JULIAN), "scope", "scope_needs_area"),
    ],
)
def test_invalid_input_writes_nothing(  # noqa: PLR0917 - parametrized
    engine: MemoryEngine, content: str, scope: Scope, speaker: Speaker, field: str, reason: str
) -> None:
    with pytest.raises(InvalidInput) as err:
        engine.remember(MemoryDraft(content, speaker=speaker, scope=scope))
    assert (err.value.field, err.value.reason) == (field, reason)
    assert engine.stats().memories == 0


def test_scope_defaults_come_from_the_speaker(engine: MemoryEngine) -> None:
    julian = Speaker(person_id=JULIAN, area_id=KITCHEN)
    private = engine.remember(
        MemoryDraft("I like short answers.", speaker=julian, scope=Scope.PRIVATE)
    ).memory
    room = engine.remember(
        MemoryDraft("The window sticks, lift it first.", speaker=julian, scope=Scope.ROOM)
    ).memory
    shared = engine.remember(
        MemoryDraft("The bins go out on Thursday.", speaker=julian, scope=Scope.SHARED)
    ).memory
    assert (private.owner_id, private.area_id) == (JULIAN, None)
    assert (room.owner_id, room.area_id) == (None, KITCHEN)
    assert (shared.owner_id, shared.area_id) == (None, None)
    assert (
        engine.remember(
            MemoryDraft("Anna likes jazz.", speaker=julian, scope=Scope.PRIVATE, owner_id=ANNA)
        ).memory.owner_id
        == ANNA
    )


SENSITIVE = [
    ("en", "the code for the garden gate is 4711", Sensitivity.CREDENTIAL),
    ("en", "The wifi password is sunflower22.", Sensitivity.CREDENTIAL),
    ("en", "My PIN is 1234.", Sensitivity.CREDENTIAL),
    ("de", "Der Code für das Gartentor ist 4711.", Sensitivity.CREDENTIAL),
    ("de", "Das WLAN-Passwort steht auf dem Router.", Sensitivity.CREDENTIAL),
    ("it", "Il codice del cancello è 4711.", Sensitivity.CREDENTIAL),
    ("fr", "Le mot de passe du wifi est tournesol.", Sensitivity.CREDENTIAL),
    ("es", "La contraseña del wifi es girasol.", Sensitivity.CREDENTIAL),
    ("en", "My card number is 4111 1111 1111 1111.", Sensitivity.PAYMENT),
    ("de", "Unsere IBAN ist DE89 3704 0044 0532 0130 00.", Sensitivity.PAYMENT),
    ("en", "Julian takes blood pressure medication every morning.", Sensitivity.HEALTH),
    ("de", "Oma nimmt Tabletten gegen Diabetes.", Sensitivity.HEALTH),
    ("it", "Il nonno prende un farmaco per il cuore.", Sensitivity.HEALTH),
    ("fr", "Anna a une ordonnance pour un médicament.", Sensitivity.HEALTH),
    ("es", "Mia toma un medicamento para la alergia.", Sensitivity.HEALTH),
    ("en", "I take antidepressants every morning.", Sensitivity.HEALTH),  # adversarial review
    ("de", "Papa nimmt seit Montag ein Antibiotikum.", Sensitivity.HEALTH),
    ("fr", "Elle prend des antidépresseurs.", Sensitivity.HEALTH),
]
NOT_SENSITIVE = [
    "The spare key is in the blue tin in the hall.",
    "Die Mülltonnen kommen am Donnerstag raus.",
    "Il gatto si chiama Luna.",
    "Order 4111 1111 1111 1112 is the sofa.",  # fails Luhn
    "The tablet charges in the kitchen.",
]


@pytest.mark.parametrize(("lang", "text", "kind"), SENSITIVE)
def test_sensitive_content_is_flagged(engine: MemoryEngine, lang: str, text: str, kind: Sensitivity) -> None:
    assert kind in classify(text)
    result = engine.remember(MemoryDraft(text, speaker=GUEST, scope=Scope.SHARED, language=lang))
    assert result.sensitive and result.memory.sensitive
    assert engine.get(result.memory.id, GUEST).sensitive  # type: ignore[union-attr]


@pytest.mark.parametrize("text", NOT_SENSITIVE)
def test_ordinary_content_is_not_flagged(text: str) -> None:
    assert classify(text) == frozenset()


def test_checksums() -> None:
    assert luhn_valid("4111111111111111") and not luhn_valid("4111111111111112")
    assert iban_valid("DE89 3704 0044 0532 0130 00") and not iban_valid("DE89 3704 0044 0532 0130 01")


@pytest.mark.parametrize(
    ("lang", "text"),
    [
        ("en", "Remember the spare key is in the blue tin."),
        ("de", "Der Ersatzschlüssel liegt in der blauen Dose."),
        ("it", "La chiave di riserva è nella scatola blu."),
    ],
)
def test_c11_same_fact_twice(engine: MemoryEngine, lang: str, text: str) -> None:
    first = engine.remember(MemoryDraft(text, speaker=GUEST, scope=Scope.SHARED, language=lang))
    again = engine.remember(MemoryDraft(text, speaker=GUEST, scope=Scope.SHARED, language=lang))
    assert (first.action, again.action) == (WriteAction.CREATED, WriteAction.MERGED)
    assert again.memory.id == first.memory.id and again.memory.content == text
    assert again.memory.updated_at >= first.memory.updated_at
    assert engine.stats().memories == 1


def test_dedup_keeps_the_stronger_provenance_else_the_newer_text(engine: MemoryEngine) -> None:
    confirmed = engine.remember(
        MemoryDraft("The spare key is in the blue tin.", speaker=GUEST, scope=Scope.SHARED)
    )
    weaker = engine.remember(
        MemoryDraft(
            "The spare key is in the blue tin!",
            speaker=GUEST,
            scope=Scope.SHARED,
            provenance=Provenance.EXTRACTED,
        )
    )
    assert weaker.action is WriteAction.MERGED
    assert weaker.memory.content == "The spare key is in the blue tin."
    assert weaker.memory.provenance is Provenance.CONFIRMED
    newer = engine.remember(
        MemoryDraft("The spare key is in the blue tin!", speaker=GUEST, scope=Scope.SHARED)
    )
    assert newer.action is WriteAction.MERGED and newer.memory.id == confirmed.memory.id
    assert newer.memory.content == "The spare key is in the blue tin!"
    assert engine.recall("spare key", GUEST)[0].memory.content == "The spare key is in the blue tin!"
    assert engine.stats().memories == 1


def test_dedup_only_within_the_same_owner_and_scope(engine: MemoryEngine) -> None:
    text = "I like short answers."
    engine.remember(MemoryDraft(text, speaker=Speaker(person_id=JULIAN), scope=Scope.PRIVATE))
    assert (
        engine.remember(MemoryDraft(text, speaker=Speaker(person_id=ANNA), scope=Scope.PRIVATE)).action
        is WriteAction.CREATED
    )
    assert engine.remember(MemoryDraft(text, speaker=GUEST, scope=Scope.SHARED)).action is WriteAction.CREATED
    # said again for the kitchen: the shared memory everyone sees already says it (confirmed)
    kitchen = engine.remember(MemoryDraft(text, speaker=Speaker(area_id=KITCHEN), scope=Scope.ROOM))
    assert (kitchen.action, kitchen.memory.scope) == (WriteAction.CONFIRMED, Scope.SHARED)
    assert engine.stats().memories == 3


# Pairs that USE-m3 embeds ≥ 0.92 apart from one token: never one memory (data loss otherwise)
DIFFERENT_FACTS = {
    "en": [
        (
            "The boiler service ticket is HX-4471, waiting for a part.",
            "Ticket HX-4478 was the dishwasher, closed.",
        ),
        ("Ticket HX-4471 is open.", "Ticket HX-4478 is open."),
        ("The garage code is 4711.", "The garage code is 4712."),
        ("Julian's birthday is on 3 May.", "Anna's birthday is on 3 May."),
        ("Locker 12 has the tools.", "Locker 14 has the tools."),
        ("I like tea.", "I don't like tea."),
    ],
    "de": [
        ("Der Müll wird am Montag abgeholt.", "Der Müll wird am Dienstag abgeholt."),
        ("Der Torcode ist 4711.", "Der Torcode ist 4712."),
    ],
    "it": [
        ("La riunione è alle 9.", "La riunione è alle 10."),
        ("Il codice del cancello è 4711.", "Il codice del cancello è 4712."),
    ],
    "fr": [
        ("Le rendez-vous chez le dentiste est mardi.", "Le rendez-vous chez le dentiste est jeudi."),
        ("Le code du portail est 4711.", "Le code du portail est 4712."),
    ],
    "es": [
        ("La llave está en el cajón azul.", "La llave está en el cajón rojo."),
        ("El código de la puerta es 4711.", "El código de la puerta es 4712."),
    ],
}


@pytest.mark.parametrize(
    ("lang", "first", "second"), [(lang, *pair) for lang, pairs in DIFFERENT_FACTS.items() for pair in pairs]
)
def test_different_facts_are_not_merged(engine: MemoryEngine, lang: str, first: str, second: str) -> None:
    a = engine.remember(MemoryDraft(first, speaker=GUEST, scope=Scope.SHARED, language=lang))
    b = engine.remember(MemoryDraft(second, speaker=GUEST, scope=Scope.SHARED, language=lang))
    assert (a.action, b.action) == (WriteAction.CREATED, WriteAction.CREATED)
    stored = sorted(m.content for m in engine.list_memories(Speaker.administrator()))
    assert stored == sorted([first, second])  # the older text is never overwritten


@pytest.mark.parametrize(
    ("lang", "text", "again"),
    [
        ("en", "The spare key is in the blue tin.", "the spare key is in the blue tin"),
        ("de", "Der Schlüssel liegt im Flur.", "der schlüssel liegt im flur"),
        ("it", "La chiave è nel cassetto.", "la chiave è nel cassetto!"),
        ("fr", "La clé est dans le tiroir.", "La clé est dans le tiroir"),
        ("es", "La llave está en el cajón.", "  la llave  está en el cajón.  "),
    ],
)
def test_c11_same_fact_twice_case_punctuation_whitespace(
    engine: MemoryEngine, lang: str, text: str, again: str
) -> None:
    first = engine.remember(MemoryDraft(text, speaker=GUEST, scope=Scope.SHARED, language=lang))
    second = engine.remember(MemoryDraft(again, speaker=GUEST, scope=Scope.SHARED, language=lang))
    assert (second.action, second.memory.id) == (WriteAction.MERGED, first.memory.id)
    assert engine.stats().memories == 1


@pytest.mark.parametrize(
    "content",
    ["\u200b\u200b\u2060\ufeff", " \u00a0\u2028 ", "\u200b \t"],
    ids=["zero-width", "nbsp-ls", "mixed"],
)
def test_invisible_only_content_is_empty(engine: MemoryEngine, content: str) -> None:
    with pytest.raises(InvalidInput) as err:
        engine.remember(MemoryDraft(content, speaker=GUEST, scope=Scope.SHARED))
    assert (err.value.field, err.value.reason) == ("content", "empty")
    assert engine.find_to_forget(content, GUEST) == [] and engine.recall(content, GUEST) == []
    assert engine.stats().memories == 0


def test_invisible_edges_are_trimmed(engine: MemoryEngine) -> None:
    stored = engine.remember(
        MemoryDraft("\ufeff\u200bThe bins go out on Thursday.\u200b", speaker=GUEST, scope=Scope.SHARED)
    )
    assert stored.memory.content == "The bins go out on Thursday."


@pytest.mark.parametrize("text", ["key \ud800 here", "\udfff", "Schlüssel \udc80"])
def test_lone_surrogate_is_invalid_text(
    engine: MemoryEngine, text: str, caplog: pytest.LogCaptureFixture
) -> None:
    """Text that cannot be encoded (a lone surrogate from JSON) is refused before SQLite or the
    encoder see it; queries with one find nothing, without an error in the log."""
    engine.remember(MemoryDraft("The spare key is here.", speaker=GUEST, scope=Scope.SHARED))
    with pytest.raises(InvalidInput) as err:
        engine.remember(MemoryDraft(text, speaker=GUEST, scope=Scope.SHARED))
    assert (err.value.field, err.value.reason) == ("content", "invalid_text")
    assert engine.recall(text, GUEST) == [] and engine.find_to_forget(text, GUEST) == []
    assert not [r for r in caplog.records if r.levelname == "ERROR"]
    assert engine.stats().memories == 1


def test_c04_confirmed_remember_lifts_the_tombstone(engine: MemoryEngine) -> None:
    gate = "the code for the garden gate is 4711"
    first = engine.remember(MemoryDraft(gate, speaker=GUEST, scope=Scope.SHARED))
    engine.forget(first.memory.id, GUEST)
    assert engine.is_tombstoned(gate, scope=Scope.SHARED)
    assert engine.is_tombstoned("The garden gate code is 4711.", scope=Scope.SHARED)
    assert not engine.is_tombstoned(gate, scope=Scope.PRIVATE, owner_id=JULIAN)  # other bucket
    with pytest.raises(InvalidInput) as refused:  # a learned memory never holds a code (invariant 7)
        engine.remember(MemoryDraft(gate, speaker=GUEST, scope=Scope.SHARED, provenance=Provenance.EXTRACTED))
    assert (refused.value.field, refused.value.reason) == ("content", "sensitive")
    assert engine.is_tombstoned(gate, scope=Scope.SHARED)
    again = engine.remember(MemoryDraft(gate, speaker=GUEST, scope=Scope.SHARED))  # explicit: CONFIRMED
    assert again.lifted_tombstones == 1 and again.action is WriteAction.CREATED
    assert not engine.is_tombstoned(gate, scope=Scope.SHARED)
    assert engine.recall("What is the garden gate code?", GUEST)[0].memory.id == again.memory.id


def test_c04_a_learned_remember_lifts_no_tombstone(engine: MemoryEngine) -> None:
    gate = "The garden gate sticks in wet weather."
    first = engine.remember(MemoryDraft(gate, speaker=GUEST, scope=Scope.SHARED))
    engine.forget(first.memory.id, GUEST)
    extracted = engine.remember(
        MemoryDraft(gate, speaker=GUEST, scope=Scope.SHARED, provenance=Provenance.EXTRACTED)
    )
    assert extracted.lifted_tombstones == 0 and engine.is_tombstoned(gate, scope=Scope.SHARED)
    engine.forget(extracted.memory.id, GUEST)
    again = engine.remember(MemoryDraft(gate, speaker=GUEST, scope=Scope.SHARED))  # explicit: CONFIRMED
    assert again.lifted_tombstones == 2 and again.action is WriteAction.CREATED
    assert not engine.is_tombstoned(gate, scope=Scope.SHARED)


def test_pending_memory_is_recalled_only_after_approval(
    engine: MemoryEngine, julian_kitchen: Speaker, anna_hall: Speaker
) -> None:
    """remember(status=PENDING) lands awaiting review in one write; approve() makes it current,
    and only for a speaker who can see it."""
    pending = engine.remember(
        MemoryDraft(
            "Julian's bike is in the garage.",
            speaker=julian_kitchen,
            scope=Scope.PRIVATE,
            provenance=Provenance.EXTRACTED,
            status=Status.PENDING,
        )
    ).memory
    assert pending.status is Status.PENDING
    assert engine.recall("Where is the bike?", julian_kitchen) == []

    with pytest.raises(InvalidInput):
        engine.approve(pending.id, anna_hall)  # not hers to see
    approved = engine.approve(pending.id, julian_kitchen)
    assert approved.status is Status.ACTIVE
    assert [h.memory.id for h in engine.recall("Where is the bike?", julian_kitchen)] == [pending.id]
    with pytest.raises(InvalidInput):
        engine.approve(pending.id, julian_kitchen)  # no longer pending


@pytest.mark.parametrize("provenance", [Provenance.CONFIRMED, Provenance.EXTRACTED])
@pytest.mark.parametrize(("lang", "before", "secret"), SECRET_EDITS, ids=[s for _, _, s in SECRET_EDITS])
def test_remember_and_edit_follow_one_rule(
    engine: MemoryEngine, provenance: Provenance, lang: str, before: str, secret: str
) -> None:
    """A secret gets the same answer remembered as a new memory or edited into one: flagged
    sensitive when a person stated it, refused when the memory was learned automatically
    (writer.checked_content, the one rule both call)."""

    def outcome(write: Callable[[], Memory]) -> bool | tuple[str, str]:
        try:
            return write().sensitive
        except InvalidInput as err:
            return (err.field, err.reason)

    expected = ("content", "sensitive") if provenance is Provenance.EXTRACTED else True
    draft = MemoryDraft(secret, speaker=GUEST, scope=Scope.SHARED, language=lang, provenance=provenance)
    assert outcome(lambda: engine.remember(draft).memory) == expected
    held = engine.remember(replace(draft, content=before)).memory
    assert not held.sensitive and held.provenance is provenance
    assert outcome(lambda: engine.edit(held.id, MemoryEdit(content=secret), ADMIN)) == expected
    kept = engine.get(held.id, ADMIN)
    assert kept is not None
    assert (kept.content, kept.sensitive) == ((secret, True) if expected is True else (before, False))


def test_me_outside_a_private_bucket_keys_the_person(engine: MemoryEngine) -> None:
    """A fact key's subject "me" is the speaker: in their private bucket it stays "me"; told shared,
    it is keyed to the person (Julian's and Anna's own drinks are two keys, neither supersedes the
    other), and a guest's gives no key at all."""
    julian, anna = Speaker(person_id=JULIAN), Speaker(person_id=ANNA)

    def told(text: str, speaker: Speaker, scope: Scope = Scope.SHARED) -> Memory:
        draft = MemoryDraft(text, speaker=speaker, scope=scope, subject="me", predicate="drinks", value=text)
        return engine.remember(draft).memory

    tea = told("I drink tea in the morning.", julian)
    coffee = told("I drink coffee in the morning.", anna)
    guest = told("I drink water in the morning.", GUEST)
    mine = told("I drink green tea in the evening.", julian, Scope.PRIVATE)
    assert (tea.subject, coffee.subject, guest.subject, mine.subject) == (JULIAN, ANNA, None, "me")
    assert {m.id: m.status for m in (engine.get(tea.id, ADMIN), engine.get(coffee.id, ADMIN))} == {
        tea.id: Status.ACTIVE,
        coffee.id: Status.ACTIVE,
    }


def test_a_keyed_draft_replacing_a_named_memory_still_supersedes_its_keys_value(engine: MemoryEngine) -> None:
    """replaces= names one memory; the draft's fact key has another current value: both are
    superseded — a key never has two current values."""
    julian = Speaker(person_id=JULIAN)

    def keyed(text: str, value: str, **more: object) -> Memory:
        draft = MemoryDraft(
            text,
            speaker=julian,
            scope=Scope.SHARED,
            subject="bins",
            predicate="collection_day",
            value=value,
            **more,
        )
        return engine.remember(draft).memory

    tuesday = keyed("The bins go out on Tuesday.", "tuesday")
    note = engine.remember(
        MemoryDraft("Bin day moved, ask the council.", speaker=julian, scope=Scope.SHARED)
    ).memory
    wednesday = keyed("The bins go out on Wednesday.", "wednesday", replaces=[note.id])
    statuses = {m: engine.get(m.id, ADMIN).status for m in (tuesday, note, wednesday)}  # type: ignore[union-attr]
    assert list(statuses.values()) == [Status.SUPERSEDED, Status.SUPERSEDED, Status.ACTIVE]
