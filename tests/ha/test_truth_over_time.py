"""Truth over time through explicit remembers (issue 13): a changed fact is asked about and then
replaces the old one, a restatement only confirms it, a mention is no contradiction. Cases C23,
C24, and C09-C12, C15 said with "Remember …", through HA's real conversation component, the
memory agent without an LLM, its intents and the memory.* services.
"""

from __future__ import annotations

from typing import Any

import pytest
from homeassistant.core import HomeAssistant

from custom_components.memory.answers import quote_all, reply
from custom_components.memory.const import CONF_EXTRACTION_ENTITY
from custom_components.memory.engine.models import Memory, Scope, Speaker, Status
from tests.case_texts import C23 as MOVED
from tests.conftest import Resident, async_call, both_stores

from .ai_task_helpers import ScriptedAITask, async_add_ai_task
from .helpers_conversation import async_all_memories, async_say, speech

pytestmark = both_stores  # every test here touches the store: run on SQLite and PostgreSQL

YES = {"en": "yes", "de": "ja", "it": "sì", "fr": "oui", "es": "sí"}
NO = {"en": "no", "de": "nein", "it": "no", "fr": "non", "es": "no"}


async def _current(hass: HomeAssistant, entry: Any) -> list[Memory]:
    return await async_all_memories(hass, entry)


async def _get(hass: HomeAssistant, entry: Any, memory_id: str) -> Memory | None:
    engine = entry.runtime_data.engine
    return await hass.async_add_executor_job(engine.get, memory_id, Speaker.administrator())


@pytest.mark.parametrize("language", list(MOVED))
async def test_c23_a_moved_thing_is_asked_about_and_replaced(
    hass: HomeAssistant, memory_entry: Any, language: str
) -> None:
    """The old memory is named and asked about; "yes" supersedes it (kept in history), and the
    question is answered with the new place only."""
    old_said, new_said, question, old_marker, new_marker = MOVED[language]
    await async_say(hass, memory_entry, old_said, language=language, conversation_id="c23-old")
    (old,) = await _current(hass, memory_entry)
    asked = await async_say(hass, memory_entry, new_said, language=language, conversation_id="c23")
    assert speech(asked) == reply(language, "replace_ask", items=quote_all([old.content]))
    assert len(await _current(hass, memory_entry)) == 2  # stored at once: nothing waits on the answer
    done = await async_say(hass, memory_entry, YES[language], language=language, conversation_id="c23")
    assert speech(done) == reply(language, "replaced")
    (new,) = await _current(hass, memory_entry)
    assert new_marker in new.content
    retired = await _get(hass, memory_entry, old.id)
    assert retired is not None and retired.status is Status.SUPERSEDED and retired.superseded_by == new.id
    history = await async_call(hass, "history", {"memory_id": new.id})
    assert [h["id"] for h in history["history"]] == [new.id, old.id]
    assert history["history"][1]["valid_to"] is not None
    answer = speech(await async_say(hass, memory_entry, question, language=language))
    assert new_marker in answer and old_marker not in answer


@pytest.mark.parametrize("language", ["en", "de"])
async def test_c23_no_keeps_both(hass: HomeAssistant, memory_entry: Any, language: str) -> None:
    old_said, new_said, *_ = MOVED[language]
    await async_say(hass, memory_entry, old_said, language=language, conversation_id="c23-old")
    await async_say(hass, memory_entry, new_said, language=language, conversation_id="c23")
    kept = await async_say(hass, memory_entry, NO[language], language=language, conversation_id="c23")
    assert speech(kept) == reply(language, "kept_both")
    assert len(await _current(hass, memory_entry)) == 2


@pytest.mark.parametrize("language", ["en", "de"])
async def test_c23_service_replaces_without_asking(
    hass: HomeAssistant, memory_entry: Any, language: str
) -> None:
    """memory.remember lists the conflict; called with `replaces` it supersedes at once."""
    old_said, new_said, *_ = MOVED[language]
    old_text, new_text = old_said.split(":", 1)[1].strip(), new_said.split(":", 1)[1].strip()
    first = await async_call(hass, "remember", {"content": old_text, "language": language})
    second = await async_call(hass, "remember", {"content": new_text, "language": language})
    assert [c["id"] for c in second["conflicts"]] == [first["memory"]["id"]]
    assert second["conflicts"][0]["relation"] == "replaces"
    assert second["superseded"] == []
    third = await async_call(
        hass,
        "remember",
        {"content": new_text + " ", "language": language, "replaces": [first["memory"]["id"]]},
    )
    assert third["superseded"] == [first["memory"]["id"]]
    current = {m.id for m in await _current(hass, memory_entry)}
    assert first["memory"]["id"] not in current and third["memory"]["id"] in current


async def test_c23_replaces_an_unknown_id_is_refused(hass: HomeAssistant, memory_entry: Any) -> None:
    from homeassistant.exceptions import ServiceValidationError  # noqa: PLC0415

    with pytest.raises(ServiceValidationError) as err:
        await async_call(hass, "remember", {"content": "The pump is in the cellar.", "replaces": ["nope"]})
    assert err.value.translation_key == "unknown_memory"
    assert err.value.translation_placeholders == {"field": "replaces"}
    assert await _current(hass, memory_entry) == []  # nothing written


# --- C24: a restatement is no second memory -------------------------------------------------

RESTATED = {
    "en": [
        ("en", "Remember: The bins are emptied on Tuesdays."),
        ("en", "Remember: Bin day is Tuesday."),
        ("it", "Ricorda: I bidoni si svuotano il martedì."),
    ],
    "de": [
        ("de", "Merk dir: Die Mülltonnen werden dienstags geleert."),
        ("de", "Merk dir: Die Müllabfuhr kommt am Dienstag."),
    ],
}
ASKED = {
    "en": [
        "When are the bins emptied?",
        "Quando si svuotano i bidoni?",
        "Wann werden die Mülltonnen geleert?",
    ],
    "de": ["Wann werden die Mülltonnen geleert?", "Wann kommt die Müllabfuhr?"],
}


@pytest.mark.parametrize("first", list(RESTATED))
async def test_c24_a_restatement_is_no_second_memory(
    hass: HomeAssistant, memory_entry: Any, first: str
) -> None:
    said = RESTATED[first]
    language, text = said[0]
    await async_say(hass, memory_entry, text, language=language, conversation_id="c24-0")
    (memory,) = await _current(hass, memory_entry)
    for n, (language, text) in enumerate(said[1:], start=1):
        result = await async_say(hass, memory_entry, text, language=language, conversation_id=f"c24-{n}")
        assert speech(result) == reply(language, "remember_known", items=quote_all([memory.content]))
    (kept,) = await _current(hass, memory_entry)
    assert kept.id == memory.id and kept.content == memory.content  # the first wording stays
    assert kept.updated_at > memory.updated_at  # confirmed
    for question in ASKED[first]:
        found = await async_call(hass, "recall", {"query": question})
        assert [m["id"] for m in found["memories"]].count(memory.id) == 1
        assert len(found["memories"]) == 1


# --- C09-C12, C15 through explicit remembers ------------------------------------------------

CHANGED_PREFERENCE = {
    "en": (
        "Remember that I like coffee in the morning.",
        "Remember that I don't drink coffee any more, I drink tea now.",
        "tea",
    ),
    "de": (
        "Merk dir, dass ich morgens gern Kaffee trinke.",
        "Merk dir, dass ich keinen Kaffee mehr trinke, jetzt Tee.",
        "Tee",
    ),
}


@pytest.mark.parametrize("language", list(CHANGED_PREFERENCE))
async def test_c09_a_changed_preference_said_explicitly(
    hass: HomeAssistant, memory_entry: Any, julian: Resident, language: str
) -> None:
    before, after, marker = CHANGED_PREFERENCE[language]
    await async_say(hass, memory_entry, before, language=language, who=julian, conversation_id="c09-a")
    (coffee,) = await _current(hass, memory_entry)
    asked = await async_say(hass, memory_entry, after, language=language, who=julian, conversation_id="c09")
    assert speech(asked) == reply(language, "replace_ask", items=quote_all([coffee.content]))
    await async_say(hass, memory_entry, YES[language], language=language, who=julian, conversation_id="c09")
    (tea,) = await _current(hass, memory_entry)
    assert marker in tea.content and tea.owner_id == julian.person_id
    assert (await _get(hass, memory_entry, coffee.id)).status is Status.SUPERSEDED  # type: ignore[union-attr]


# language -> (the preference, its opposite, a word of the opposite)
OPPOSITE = {
    "en": (
        "Remember that I love spicy food.",
        "Remember that I can't stand spicy food any more.",
        "can't stand",
    ),
    "de": (
        "Merk dir, dass ich scharfes Essen liebe.",
        "Merk dir, dass ich scharfes Essen nicht mehr mag.",
        "nicht mehr",
    ),
}
# language -> (a fact, the same fact said again in other case and punctuation)
TWICE = {
    "en": ("Remember: the wifi password is on the fridge.", "Remember: The WiFi password is on the fridge"),
    "de": (
        "Merk dir: Das WLAN-Passwort hängt am Kühlschrank.",
        "Merk dir: das wlan-passwort hängt am kühlschrank",
    ),
}
PARAPHRASES = {
    "en": [
        "Remember that my favourite colour is blue.",
        "Remember that I like blue best.",
        "Remember that blue is my colour.",
        "Remember: my favourite colour: blue.",
    ],
    "de": [
        "Merk dir, dass meine Lieblingsfarbe Blau ist.",
        "Merk dir, dass ich Blau am liebsten mag.",
        "Merk dir, dass Blau meine Farbe ist.",
        "Merk dir: meine Lieblingsfarbe: Blau.",
    ],
}


@pytest.mark.parametrize("language", list(OPPOSITE))
async def test_c10_the_opposite_preference_is_never_neither(
    hass: HomeAssistant, memory_entry: Any, julian: Resident, language: str
) -> None:
    """Asked, and whatever the answer, the new one is stored and current."""
    before, after, marker = OPPOSITE[language]
    await async_say(hass, memory_entry, before, language=language, who=julian, conversation_id="c10-a")
    (old,) = await _current(hass, memory_entry)
    asked = await async_say(hass, memory_entry, after, language=language, who=julian, conversation_id="c10")
    assert speech(asked) == reply(language, "replace_ask", items=quote_all([old.content]))
    assert any(marker in m.content for m in await _current(hass, memory_entry))
    await async_say(hass, memory_entry, YES[language], language=language, who=julian, conversation_id="c10")
    (new,) = await _current(hass, memory_entry)
    assert marker in new.content


@pytest.mark.parametrize("language", list(TWICE))
async def test_c11_the_same_fact_twice(hass: HomeAssistant, memory_entry: Any, language: str) -> None:
    first, again_said = TWICE[language]
    await async_say(hass, memory_entry, first, language=language)
    (memory,) = await _current(hass, memory_entry)
    again = await async_say(hass, memory_entry, again_said, language=language)
    (kept,) = await _current(hass, memory_entry)
    assert speech(again) == reply(language, "remember_known", items=quote_all([kept.content]))
    assert kept.id == memory.id and kept.updated_at > memory.updated_at  # confirmed, no second row


@pytest.mark.parametrize("language", list(PARAPHRASES))
async def test_c12_paraphrases_end_as_one_memory(
    hass: HomeAssistant, memory_entry: Any, julian: Resident, language: str
) -> None:
    """Four wordings in four conversations: each is a restatement or asked about; answering
    "yes" whenever asked leaves one current memory, the others in its history."""
    question_end = reply(language, "replace_ask", items="X").split("X")[1]
    for n, text in enumerate(PARAPHRASES[language]):
        result = await async_say(
            hass, memory_entry, text, language=language, who=julian, conversation_id=f"c12-{n}"
        )
        if speech(result).endswith(question_end):
            await async_say(
                hass, memory_entry, YES[language], language=language, who=julian, conversation_id=f"c12-{n}"
            )
    (current,) = await _current(hass, memory_entry)
    assert "bl" in current.content.casefold()  # blue / Blau


@pytest.mark.parametrize(
    ("language", "first", "second"),
    [
        ("en", "Remember: Anna works night shifts on Tuesdays.", "Remember: Anna's bike is in the garage."),
        (
            "de",
            "Merk dir: Anna arbeitet dienstags Nachtschicht.",
            "Merk dir: Annas Fahrrad steht in der Garage.",
        ),
    ],
)
async def test_c15_a_mention_is_no_contradiction(
    hass: HomeAssistant, memory_entry: Any, language: str, first: str, second: str
) -> None:
    await async_say(hass, memory_entry, first, language=language, conversation_id="c15-a")
    stored = await async_say(hass, memory_entry, second, language=language, conversation_id="c15-b")
    assert speech(stored) == reply(language, "remembered_shared")  # no question
    assert len(await _current(hass, memory_entry)) == 2


# --- found by trying to break it: a recognised speaker's "I moved it", scope, bad ids ----------


@pytest.mark.parametrize("language", ["en", "de"])
async def test_c23_a_recognised_speakers_move_replaces_the_households_memory(
    hass: HomeAssistant, memory_entry: Any, julian: Resident, anna: Resident, language: str
) -> None:
    """Julian's "I put …" is stored as his, the garage note is the household's: he is still asked,
    and "yes" makes the new place the household's (seen by everyone who saw the old one)."""
    old_said, new_said, question, old_marker, new_marker = MOVED[language]
    await async_say(hass, memory_entry, old_said, language=language, who=julian, conversation_id="a")
    (old,) = await _current(hass, memory_entry)
    asked = await async_say(hass, memory_entry, new_said, language=language, who=julian, conversation_id="b")
    assert speech(asked) == reply(language, "replace_ask", items=quote_all([old.content]))
    await async_say(hass, memory_entry, YES[language], language=language, who=julian, conversation_id="b")
    (new,) = await _current(hass, memory_entry)
    assert new_marker in new.content and new.scope is Scope.SHARED
    answer = speech(await async_say(hass, memory_entry, question, language=language, who=anna))
    assert new_marker in answer and old_marker not in answer


async def test_replaces_never_hides_the_households_fact_behind_a_private_one(
    hass: HomeAssistant, memory_entry: Any, julian: Resident
) -> None:
    from homeassistant.exceptions import ServiceValidationError  # noqa: PLC0415

    shared = await async_call(hass, "remember", {"content": "The ladder is in the shed."})
    with pytest.raises(ServiceValidationError) as err:
        await async_call(
            hass,
            "remember",
            {
                "content": "I moved the ladder to the basement.",
                "scope": "private",
                "replaces": [shared["memory"]["id"]],
            },
            context=julian.context,
        )
    assert err.value.translation_key == "replaces_wider_scope"
    assert err.value.translation_placeholders == {"field": "replaces"}
    assert [m.content for m in await _current(hass, memory_entry)] == ["The ladder is in the shed."]


@pytest.mark.parametrize("replaces", [[""], "", ["  "]])
async def test_replaces_with_an_empty_id_is_refused(
    hass: HomeAssistant, memory_entry: Any, replaces: Any
) -> None:

    from homeassistant.exceptions import ServiceValidationError  # noqa: PLC0415

    with pytest.raises(ServiceValidationError) as err:
        await async_call(hass, "remember", {"content": "The ladder is in the shed.", "replaces": replaces})
    assert err.value.translation_placeholders == {"field": "replaces"}
    assert await _current(hass, memory_entry) == []


HOUSEHOLD_DE = (
    "Die Waschmaschine läuft am besten nachts.",
    "Das Fahrrad von Anna hat einen Platten.",
    "Der Rasenmäher braucht neues Öl.",
    "Oma hat am 3. Mai Geburtstag.",
    "Die Mülltonnen kommen dienstags raus.",
    "Der Hund bekommt morgens eine halbe Dose Futter.",
    "Das WLAN im Gästezimmer ist schwach.",
    "Die Heizung im Bad wird im Oktober gewartet.",
    "Julian spielt donnerstags Fußball.",
    "Die Katze darf nicht auf das Sofa.",
    "Die Blumen auf dem Balkon brauchen jeden zweiten Tag Wasser.",
    "Das Auto muss im März zum TÜV.",
    "Der Nachbar heißt Herr Becker.",
    "Die Ersatzbirnen liegen in der Kommode im Flur.",
    "Anna mag keinen Koriander.",
    "Der Zahnarzttermin ist am Freitag um neun.",
)


async def test_c35_a_compound_and_its_head_word_are_one_thing(hass: HomeAssistant, memory_entry: Any) -> None:
    """C35: "Der Werkzeugkasten ist im Keller." then "Der Kasten ist jetzt in der Garage." — the
    head word names the same thing as the compound: the move is asked about; "ja" replaces it,
    and the question about the toolbox is answered with the new place."""
    for other in HOUSEHOLD_DE:  # a household's store holds more than the toolbox
        await async_call(hass, "remember", {"content": other, "language": "de"})
    await async_say(hass, memory_entry, "Merk dir: Der Werkzeugkasten ist im Keller.", language="de")
    (old,) = [m for m in await _current(hass, memory_entry) if "Werkzeugkasten" in m.content]
    said = "Merk dir: Der Kasten ist jetzt in der Garage."
    asked = await async_say(hass, memory_entry, said, language="de", conversation_id="c35")
    assert speech(asked) == reply("de", "replace_ask", items=quote_all([old.content]))
    done = await async_say(hass, memory_entry, YES["de"], language="de", conversation_id="c35")
    assert speech(done) == reply("de", "replaced")
    (new,) = [m for m in await _current(hass, memory_entry) if "Kasten" in m.content]
    assert "Garage" in new.content
    answer = speech(await async_say(hass, memory_entry, "Wo ist der Werkzeugkasten?", language="de"))
    assert "Garage" in answer and "Keller" not in answer


@pytest.mark.parametrize(
    ("first", "again"),
    [
        (
            ("de", "Merk dir: Die Gießkanne steht im Schuppen."),
            ("en", "Remember: the watering can is in the shed."),
        ),
        (
            ("it", "Ricorda: la chiave di riserva è sotto lo zerbino."),
            ("de", "Merk dir: Der Ersatzschlüssel liegt unter der Fußmatte."),
        ),
    ],
)
async def test_c35_the_same_fact_in_another_language_is_asked_about(
    hass: HomeAssistant,
    memory_entry: Any,
    *,
    julian: Resident,
    anna: Resident,
    first: tuple[str, str],
    again: tuple[str, str],
) -> None:
    """C35: Julian tells a fact in one language, Anna the same in another (another conversation):
    asked whether it replaces his — the encoder cannot tell a translation from another thing in the
    same sentence — and on her yes one current memory, his telling kept in its history."""
    for other in HOUSEHOLD_DE:
        await async_call(hass, "remember", {"content": other, "language": "de"})
    before = len(await _current(hass, memory_entry))
    await async_say(hass, memory_entry, first[1], language=first[0], who=julian)
    (told,) = [m for m in await _current(hass, memory_entry) if m.speaker_id == julian.person_id]
    asked = await async_say(hass, memory_entry, again[1], language=again[0], who=anna, conversation_id="c35t")
    assert speech(asked) == reply(again[0], "replace_ask", items=quote_all([told.content]))
    done = await async_say(
        hass, memory_entry, YES[again[0]], language=again[0], who=anna, conversation_id="c35t"
    )
    assert speech(done) == reply(again[0], "replaced")
    current = await _current(hass, memory_entry)
    assert len(current) == before + 1
    (kept,) = [m for m in current if m.speaker_id == anna.person_id]
    engine = memory_entry.runtime_data.engine
    history = await hass.async_add_executor_job(engine.history, kept.id, Speaker(admin=True))
    assert [m.speaker_id for m in history] == [anna.person_id, julian.person_id]


async def _with_judge(hass: HomeAssistant, entry: Any) -> ScriptedAITask:
    """The entry with a (scripted) AI Task configured: the judge of pairs the rules cannot settle."""
    task, entity_id = await async_add_ai_task(hass)
    hass.config_entries.async_update_entry(
        entry, options={**entry.options, CONF_EXTRACTION_ENTITY: entity_id}
    )
    await hass.config_entries.async_reload(entry.entry_id)
    await hass.async_block_till_done()
    return task


TRANSLATED_PAIRS = [  # (first telling, the same in another language), each (language, said)
    (
        ("de", "Merk dir: Die Gießkanne steht im Schuppen."),
        ("en", "Remember: the watering can is in the shed."),
    ),
    (("es", "Recuerda: el paraguas está en la entrada."), ("it", "Ricorda: l'ombrello è nell'ingresso.")),
]


@pytest.mark.parametrize("pair", TRANSLATED_PAIRS)
async def test_c35_with_an_ai_task_the_judge_merges_a_translation(
    hass: HomeAssistant, memory_entry: Any, *, julian: Resident, anna: Resident, pair: Any
) -> None:
    """C35 with an AI Task configured: the same fact in another language is put to the judge
    before anyone is asked; its "same" leaves one current memory, confirmed by both tellers, and
    the reply says it was known. The judge is told both texts."""
    first, again = pair
    task = await _with_judge(hass, memory_entry)
    for other in HOUSEHOLD_DE:
        await async_call(hass, "remember", {"content": other, "language": "de"})
    before = {m.id for m in await _current(hass, memory_entry)}
    await async_say(hass, memory_entry, first[1], language=first[0], who=julian)
    (told,) = [m for m in await _current(hass, memory_entry) if m.speaker_id == julian.person_id]
    task.script.append({"relation": "same"})
    said = await async_say(hass, memory_entry, again[1], language=again[0], who=anna, conversation_id="c35j")
    (judged,) = task.calls
    assert told.content in judged.instructions
    assert again[1].split(": ", 1)[1].rstrip(".").casefold() in judged.instructions.casefold()
    current = await _current(hass, memory_entry)
    (kept,) = [m for m in current if m.id not in before]
    assert speech(said) == reply(again[0], "remember_known", items=quote_all([kept.content]))
    engine = memory_entry.runtime_data.engine
    history = await hass.async_add_executor_job(engine.history, kept.id, Speaker(admin=True))
    assert {m.speaker_id for m in history} == {julian.person_id, anna.person_id}


@pytest.mark.parametrize(("verdict", "asked"), [("unrelated", False), ("replaces", True), ("maybe", True)])
async def test_c35_the_judge_only_merges_or_keeps_a_replacement_is_the_persons(
    hass: HomeAssistant, memory_entry: Any, *, julian: Resident, anna: Resident, verdict: str, asked: bool
) -> None:
    """The write-time judge settles "same" and "unrelated" (both stay, nobody asked); "replaces"
    or an answer that is none of the four is left to the person, asked as without a judge."""
    task = await _with_judge(hass, memory_entry)
    await async_say(
        hass, memory_entry, "Merk dir: Die Gießkanne steht im Schuppen.", language="de", who=julian
    )
    (told,) = await _current(hass, memory_entry)
    task.script.append({"relation": verdict})
    said = await async_say(
        hass,
        memory_entry,
        "Remember: the wheelbarrow is in the shed.",
        language="en",
        who=anna,
        conversation_id="j",
    )
    assert len(task.calls) == 1
    if asked:
        assert speech(said) == reply("en", "replace_ask", items=quote_all([told.content]))
    else:
        assert speech(said) != reply("en", "replace_ask", items=quote_all([told.content]))
        assert "remember_known" not in speech(said)
    assert len(await _current(hass, memory_entry)) == 2


async def test_c35_one_language_is_not_put_to_the_judge(
    hass: HomeAssistant, memory_entry: Any, *, julian: Resident
) -> None:
    """In one language the rules decide (C23: a move is asked about); the judge is not called."""
    task = await _with_judge(hass, memory_entry)
    await async_say(hass, memory_entry, "Remember: the ladder is in the garage.", who=julian)
    (told,) = await _current(hass, memory_entry)
    said = await async_say(
        hass, memory_entry, "Remember: the ladder is in the cellar now.", who=julian, conversation_id="o"
    )
    assert speech(said) == reply("en", "replace_ask", items=quote_all([told.content]))
    assert task.calls == []
