"""storage.py: the database URL shown without its password (logs, diagnostics, the reconfigure
form) and a masked password submitted back keeping the stored one."""

from __future__ import annotations

import pytest

from custom_components.memory.storage import (
    PASSWORD_MASK,
    StoreSettings,
    mask_password,
    redact_url,
    restore_password,
)

URL = "postgresql://ha:p%40ss:w0rd@db.lan:5432/memory?sslmode=require"


@pytest.mark.parametrize(
    ("url", "redacted"),
    [
        (URL, "postgresql://db.lan:5432/memory"),
        ("postgresql://postgres:secret@/memory?host=/run/pg", "postgresql:///memory?host=/run/pg"),
        ("postgres://u@h/db", "postgres://h/db"),
        ("postgresql://[broken", "(invalid URL)"),
    ],
)
def test_redact_url_keeps_scheme_host_and_database_only(url: str, redacted: str) -> None:
    assert redact_url(url) == redacted
    assert "p%40ss" not in redact_url(url) and "secret" not in redact_url(url)


def test_masked_password_round_trip() -> None:
    shown = mask_password(URL)
    assert shown == f"postgresql://ha:{PASSWORD_MASK}@db.lan:5432/memory?sslmode=require"
    assert restore_password(shown, URL) == URL  # kept
    changed = shown.replace("db.lan", "db2.lan")
    assert restore_password(changed, URL) == URL.replace("db.lan", "db2.lan")  # host changed, password kept
    new = "postgresql://ha:other@db.lan:5432/memory"
    assert restore_password(new, URL) == new  # a typed password wins
    assert mask_password("postgresql://postgres:@/m?host=/s") == "postgresql://postgres:@/m?host=/s"  # none


def test_settings_switch_drops_the_other_backends_keys() -> None:
    data = {"storage": "sqlite", "db_path": "household_memory.db", "encoder": "bundled", "anchor_key": "ab"}
    pg = StoreSettings("postgresql", db_url=URL, household="home")
    moved = pg.entry_data(data)
    assert moved == {"storage": "postgresql", "db_url": URL, "household": "home", "encoder": "bundled",
                     "anchor_key": "ab"}  # fmt: skip
    assert StoreSettings.of(moved) == pg
    assert StoreSettings("sqlite", db_path="back.db").entry_data(moved) == {**data, "db_path": "back.db"}
    assert "p%40ss" not in pg.describe() and "home" in pg.describe()
