"""Start and stop a real `hass` on a fresh config directory."""

from __future__ import annotations

import asyncio
import contextlib
import ctypes
import json
import os
import shutil
import signal
import socket
import subprocess
from pathlib import Path

import aiohttp

STARTUP_TIMEOUT = 180  # seconds until hass answers on /api/ (first start compiles translations)
STOP_TIMEOUT = 30  # seconds to wait for a clean stop before killing

CONFIGURATION_YAML = """\
homeassistant:
  name: Household Memory demo
  latitude: 52.52
  longitude: 13.40
  elevation: 34
  unit_system: metric
  time_zone: Europe/Berlin
  country: DE
  language: en
  # Enrolment clips (memory.enroll_voice) are media-source files: media-source://media_source/local/<name>.
  # Named explicitly: without it HA picks /media when it believes it runs in a container.
  media_dirs:
    local: {media}
{extra}api:
config:
diagnostics:
onboarding:
person:
conversation:
assist_pipeline:
intent:
media_source:
memory_dev:
logger:
  default: warning
  logs:
    custom_components.memory: debug
    custom_components.memory_dev: debug
    custom_components.memory_local_llm: info
    homeassistant.components.assist_pipeline: info
"""
# scripts/develop: what a person clicking around needs beyond the demo's APIs.
UI_YAML = """\
frontend:
history:
logbook:
system_log:
"""


def free_port() -> int:
    """A TCP port on 127.0.0.1 that is free right now."""
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def write_config(
    config_dir: Path, root: Path, port: int, *, fresh: bool, ui: bool = False, llm: bool = False
) -> None:
    """Write configuration.yaml and the HTTP settings (http_store: 127.0.0.1:`port`) and link the
    integrations into custom_components/.

    fresh=True wipes config_dir first (the demo); False keeps what is there (scripts/develop)
    and only writes configuration.yaml and the HTTP settings when configuration.yaml is missing.
    ui=True adds the frontend and the panels one clicks around in. llm=True also links the
    development-only local LLM
    (dev/custom_components/memory_local_llm; set up later through its config flow).
    The media folder (config_dir/media, media_source's "local" directory) is created too.
    """
    if fresh and config_dir.exists():
        shutil.rmtree(config_dir)
    components = config_dir / "custom_components"
    components.mkdir(parents=True, exist_ok=True)
    media = media_dir(config_dir)
    media.mkdir(exist_ok=True)
    linked = ["memory_dev", "memory_local_llm"] if llm else ["memory_dev"]
    for name, source in (
        ("memory", root / "custom_components" / "memory"),
        *((dev, root / "dev" / "custom_components" / dev) for dev in linked),
    ):
        link = components / name
        if not link.is_symlink() and not link.exists():
            link.symlink_to(source, target_is_directory=True)
    yaml_file = config_dir / "configuration.yaml"
    if fresh or not yaml_file.exists():
        extra = UI_YAML if ui else ""
        yaml_file.write_text(
            CONFIGURATION_YAML.format(extra=extra, media=json.dumps(str(media))), encoding="utf-8"
        )
        storage = config_dir / ".storage"
        storage.mkdir(exist_ok=True)
        (storage / "http").write_text(json.dumps(http_store(port), indent=2), encoding="utf-8")


def http_store(port: int) -> dict[str, object]:
    """Home Assistant's stored HTTP settings (.storage/http) for a hass on 127.0.0.1:`port`, in
    HA's own shape (its schema's defaults, its storage version). Since 2026.10 HA keeps these in
    storage: an `http:` YAML section is deprecated and migrated once as a trial that a person must
    confirm in the UI within five minutes, or HA restarts on its previous settings."""
    from homeassistant.components.http import config as http_config  # noqa: PLC0415 - the venv's HA
    from homeassistant.util import dt as dt_util  # noqa: PLC0415

    stable = {
        **http_config.HTTP_STORAGE_SCHEMA({"server_host": ["127.0.0.1"], "server_port": port}),
        http_config.HTTP_CONFIG_CREATED_AT: dt_util.utcnow().isoformat(),
        http_config.HTTP_CONFIG_ERROR: None,
        http_config.HTTP_CONFIG_ERROR_MESSAGE: None,
    }
    return {
        "version": http_config.STORAGE_VERSION,
        "minor_version": http_config.STORAGE_MINOR_VERSION,
        "key": http_config.STORAGE_KEY,
        "data": {
            http_config.KEY_STABLE: stable,
            http_config.KEY_PENDING: None,
            http_config.KEY_YAML_MIGRATION_DONE: True,
        },
    }


def media_dir(config_dir: Path) -> Path:
    """The folder media_source serves as media-source://media_source/local/ (absolute)."""
    return config_dir.resolve() / "media"


def _die_with_parent() -> None:
    """In the child before exec: on Linux, get SIGTERM when the script dies, even by SIGKILL,
    so no hass is left behind."""
    with contextlib.suppress(OSError, AttributeError):
        libc = ctypes.CDLL(None, use_errno=True)
        libc.prctl(PR_SET_PDEATHSIG, signal.SIGTERM)


PR_SET_PDEATHSIG = 1  # <linux/prctl.h>


class HassProcess:
    """A `hass` child process; `stop()` is safe to call more than once."""

    def __init__(
        self,
        venv: Path,
        config_dir: Path,
        port: int,
        *,
        console_to_file: bool = True,
        prefix: tuple[str, ...] = (),
        env: dict[str, str] | None = None,
    ) -> None:
        """prefix: a command that execs hass with the arguments after it (e.g. `unshare … sh -c
        '…; exec "$@"' sh`: hass in a mount namespace of its own). env: variables set for hass on
        top of this process's (e.g. ha_log.PYTHON_WARNINGS)."""
        self.config_dir = config_dir
        self.port = port
        self.base_url = f"http://127.0.0.1:{port}"
        self.log_file = config_dir / "home-assistant.log"
        self.console_file = config_dir / "hass-console.log"
        self._cmd = [*prefix, str(venv / "bin" / "hass"), "-c", str(config_dir), "--skip-pip"]
        self._proc: subprocess.Popen[bytes] | None = None
        self._console_to_file = console_to_file
        self._env = {**os.environ, **env} if env else None

    def start(self) -> None:
        """Spawn hass in its own process group (so Ctrl-C in the terminal reaches only us)."""
        if not self._console_to_file:
            self._proc = subprocess.Popen(
                self._cmd,
                start_new_session=True,
                preexec_fn=_die_with_parent,  # noqa: PLW1509 - no threads yet
                env=self._env,
            )
            return
        with self.console_file.open("wb") as console:
            self._proc = subprocess.Popen(
                self._cmd,
                stdout=console,
                stderr=subprocess.STDOUT,
                start_new_session=True,
                preexec_fn=_die_with_parent,  # noqa: PLW1509 - started before any thread
                env=self._env,
            )

    @property
    def pid(self) -> int | None:
        """The running process's id (None when not started or exited)."""
        return self._proc.pid if self._proc is not None and self._proc.poll() is None else None

    def wait(self) -> int:
        """Block until hass exits by itself; returns its exit status."""
        return self._proc.wait() if self._proc is not None else 0

    async def wait_ready(self, path: str = "/api/onboarding", ok: tuple[int, ...] = (200,)) -> None:
        """Wait until `path` answers with a status in `ok`. The default suits a fresh config
        dir: onboarding answers. An onboarded hass has no /api/onboarding; use
        path="/api/", ok=(401,) (the API is up, and we have no token)."""
        loop = asyncio.get_running_loop()
        deadline = loop.time() + STARTUP_TIMEOUT
        async with aiohttp.ClientSession() as session:
            while loop.time() < deadline:
                if self._proc is None or self._proc.poll() is not None:
                    raise RuntimeError(f"hass exited early; see {self.console_file}")
                with contextlib.suppress(aiohttp.ClientError, OSError):
                    async with session.get(self.base_url + path) as resp:
                        if resp.status in ok:
                            return
                await asyncio.sleep(0.5)
        raise TimeoutError(f"hass did not answer within {STARTUP_TIMEOUT}s; see {self.console_file}")

    def _signal(self, sig: signal.Signals) -> subprocess.Popen[bytes] | None:
        """Send `sig` to the running hass's process group; the process (None if none ran).
        Either way hass counts as stopped from now on."""
        proc, self._proc = self._proc, None
        if proc is None or proc.poll() is not None:
            return None
        with contextlib.suppress(ProcessLookupError):
            os.killpg(proc.pid, sig)
        return proc

    def kill(self) -> None:
        """SIGKILL hass's process group at once (a crash: nothing is flushed or closed)."""
        if (proc := self._signal(signal.SIGKILL)) is not None:
            proc.wait()

    def stop(self) -> None:
        """SIGTERM (hass stops cleanly), then SIGKILL after STOP_TIMEOUT."""
        proc = self._signal(signal.SIGTERM)
        if proc is None:
            return
        try:
            proc.wait(STOP_TIMEOUT)
        except subprocess.TimeoutExpired:
            with contextlib.suppress(ProcessLookupError):
                os.killpg(proc.pid, signal.SIGKILL)
            proc.wait()
