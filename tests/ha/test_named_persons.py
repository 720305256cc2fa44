"""The persons a question names, read off HA's person registry (speaker.persons_named), rank
what they told first — through the real memory.* services."""

from __future__ import annotations

from homeassistant.components import person
from homeassistant.core import HomeAssistant

from custom_components.memory.engine import recall as recall_mod
from custom_components.memory.speaker import persons_named
from tests.conftest import async_call

CELLO = "I started the cello in September."
PIANO = "I started playing the piano last year."  # nearer to both questions in meaning and words


async def test_persons_named_reads_the_person_registry(household: HomeAssistant, julian, anna) -> None:
    await person.async_create_person(household, "Anna Schmidt")
    await person.async_create_person(household, "Leo Weber")
    await household.async_block_till_done()
    by_name = {state.name: state.entity_id for state in household.states.async_all("person")}
    leo, anna_schmidt = by_name["Leo Weber"], by_name["Anna Schmidt"]
    assert persons_named(household, "What did Julian start?") == {"Julian": julian.person_id}
    assert persons_named(household, "what's julian's favourite colour") == {"Julian": julian.person_id}
    assert persons_named(household, "Does Leo like pasta?") == {"Leo": leo}  # a unique first name
    assert persons_named(household, "Wann hat Leos Lehrerin Zeit?") == {"Leo": leo}
    assert persons_named(household, "Did Leo Weber call?") == {"Leo Weber": leo}
    # "Anna" is a person's whole name and another person's first name: it names the person "Anna"
    assert persons_named(household, "Where is Anna?") == {"Anna": anna.person_id}
    assert persons_named(household, "Where is Anna Schmidt?") == {"Anna Schmidt": anna_schmidt}
    assert persons_named(household, "Where are the keys?") == {}


async def test_a_name_two_persons_share_names_no_one(household: HomeAssistant) -> None:
    for name in ("Sam Weber", "Sam Weber", "Zoë Klein", "Zoe Brandt", "Noah"):
        await person.async_create_person(household, name)
    await household.async_block_till_done()
    by_name = {state.name: state.entity_id for state in household.states.async_all("person")}
    assert persons_named(household, "Where is Sam Weber?") == {}  # the same full name twice
    assert persons_named(household, "Where is Zoe?") == {}  # Zoë and Zoe: one first name, diacritics aside
    assert persons_named(household, "Where is Zoe Brandt?") == {"Zoe Brandt": by_name["Zoe Brandt"]}
    assert persons_named(household, "Is Noah home?") == {"Noah": by_name["Noah"]}
    assert persons_named(household, "Did Noahs bike get fixed?") == {"Noah": by_name["Noah"]}


async def test_what_a_named_person_told_ranks_first(
    household: HomeAssistant, memory_entry, julian, anna
) -> None:
    """Julian and Anna each told the household what they started; asked about Julian, his cello
    comes first although Anna's piano is nearer in meaning and words and neither says a name."""
    await async_call(household, "remember", {"content": CELLO, "scope": "shared"}, context=julian.context)
    await async_call(household, "remember", {"content": PIANO, "scope": "shared"}, context=anna.context)

    recalled = await async_call(household, "recall", {"query": "Which instrument did Julian start playing?"})
    assert [m["content"] for m in recalled["memories"]][:2] == [CELLO, PIANO]
    assert recalled["memories"][0]["factors"]["named"] == recall_mod.W_NAMED

    unnamed = await async_call(household, "recall", {"query": "Which instrument did someone start playing?"})
    assert unnamed["memories"][0]["content"] == PIANO
    assert all("named" not in m["factors"] for m in unnamed["memories"])
