"""Is this PostgreSQL server fit for the memory store? The config flow's check before it saves a URL.

check_server(url, household) connects once, blocking (run it in an executor), and raises
ServerProblem with one reason the config flow translates; it never leaves anything behind (the
extension test is rolled back). It returns the household's anchor-key check when an installation
has claimed it (store/base.py claim_anchor_check). No message holds the URL or its password.
"""

from __future__ import annotations

from typing import Any

import psycopg
from psycopg.conninfo import conninfo_to_dict, make_conninfo

CHECK_TIMEOUT = 5  # s: connecting (libpq connect_timeout)
MIN_SERVER = 130000  # PostgreSQL 13 (server_version_num): the oldest release still tested with pgvector 0.8
MIN_VECTOR = (0, 8, 0)  # pgvector 0.8.0: hnsw.iterative_scan (filtered searches keep their top-k)
SCHEMES = ("postgresql://", "postgres://")
AUTH_STATES = frozenset({"28P01", "28000"})  # invalid_password, invalid_authorization_specification
REASONS = ("invalid_url", "cannot_connect", "invalid_auth", "extension_missing", "server_too_old")


class ServerProblem(Exception):
    """The server cannot hold the memory store; `reason` is one of REASONS."""

    def __init__(self, reason: str) -> None:
        super().__init__(f"PostgreSQL server check failed: {reason}")
        self.reason = reason


def _version(text: str) -> tuple[int, ...]:
    """'0.8.6' -> (0, 8, 6); non-numeric parts count as 0."""
    return tuple(int(p) if p.isdigit() else 0 for p in text.split("."))


def _server_version(conn: psycopg.Connection[Any]) -> int:
    """The server's version as server_version_num (180006 for 18.6)."""
    row = conn.execute("SELECT current_setting('server_version_num')::integer").fetchone()
    return int(row[0]) if row else 0


def _vector_version(conn: psycopg.Connection[Any]) -> str | None:
    """The vector extension's version, installed or (in a rolled-back transaction) created now.
    None when it is not available on the server or this role may not create it."""
    row = conn.execute("SELECT extversion FROM pg_extension WHERE extname = 'vector'").fetchone()
    if row is not None:
        return str(row[0])
    try:
        with conn.transaction(force_rollback=True):
            conn.execute("CREATE EXTENSION vector")
            row = conn.execute("SELECT extversion FROM pg_extension WHERE extname = 'vector'").fetchone()
    except psycopg.Error:
        return None
    return None if row is None else str(row[0])


def _anchor_check(conn: psycopg.Connection[Any], household: str | None) -> str | None:
    """The household's claimed anchor-key check (schema v7's anchor_checks); None when unclaimed."""
    if household is None:
        return None
    if conn.execute("SELECT to_regclass('anchor_checks')").fetchone() in (None, (None,)):
        return None
    row = conn.execute("SELECT value FROM anchor_checks WHERE household = %s", (household,)).fetchone()
    return None if row is None else str(row[0])


def check_server(url: str, household: str | None = None) -> str | None:
    """Connect to `url` (a postgresql:// or postgres:// URL) and check the server; blocking.
    Returns `household`'s anchor-key check when an installation has claimed it, else None.

    Raises ServerProblem("invalid_url") for anything else, "cannot_connect" when the server does
    not answer (or the database does not exist), "invalid_auth" when it refuses the credentials,
    "server_too_old" below PostgreSQL 13 or pgvector 0.8.0, "extension_missing" when `vector` is
    neither installed nor creatable by this role."""
    if not url.startswith(SCHEMES):
        raise ServerProblem("invalid_url")
    try:
        conninfo_to_dict(url)
        conninfo = make_conninfo(url, connect_timeout=CHECK_TIMEOUT)
    except psycopg.ProgrammingError:
        raise ServerProblem("invalid_url") from None
    try:
        conn = psycopg.connect(conninfo, autocommit=True)
    except psycopg.OperationalError as err:
        text = str(err)
        # libpq reports connection-time refusals as text only (sqlstate None): a wrong password,
        # none given, or a user the server does not know are all "the credentials are refused"
        refused = ("authentication failed", "no password", 'role "')
        auth = err.sqlstate in AUTH_STATES or any(r in text for r in refused)
        raise ServerProblem("invalid_auth" if auth else "cannot_connect") from None
    with conn:
        try:
            if _server_version(conn) < MIN_SERVER:
                raise ServerProblem("server_too_old")
            vector = _vector_version(conn)
            claimed = _anchor_check(conn, household)
        except psycopg.Error:
            raise ServerProblem("cannot_connect") from None
    if vector is None:
        raise ServerProblem("extension_missing")
    if _version(vector) < MIN_VECTOR:
        raise ServerProblem("server_too_old")
    return claimed
