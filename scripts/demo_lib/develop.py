"""scripts/develop: a real hass with the integration on a persistent config dir (config-dev/)
at http://127.0.0.1:8123. The first start provisions the demo household (owner, Julian, Anna,
a guest, kitchen and hall satellites, the memory integration, one pipeline per language), so
there is something to click; later starts keep whatever you changed. hass's console output
goes to <config-dir>/hass-console.log (it holds expected tracebacks of components the dev venv
lacks), so the terminal shows only what this script says."""

from __future__ import annotations

import argparse
import asyncio
import json
import signal
import sys
from pathlib import Path

import aiohttp

from .household import PASSWORD, provision
from .server import HassProcess, write_config

ROOT = Path(__file__).resolve().parents[2]
PREFERRED_LANGUAGE = "en"  # the pipeline the UI's Assist dialog uses after provisioning
DEMO_USERS = ("owner", "julian", "anna", "guest")  # what provision() creates (household.py)


def _onboarded(config_dir: Path) -> bool:
    """Whether an owner exists already (HA keeps the finished onboarding steps here)."""
    try:
        done = json.loads((config_dir / ".storage" / "onboarding").read_text())["data"]["done"]
    except OSError, ValueError, KeyError:
        return False
    return "user" in done


def _demo_logins(config_dir: Path) -> list[str]:
    """The provisioned demo users that still exist (HA's own user store), in DEMO_USERS order."""
    try:
        data = json.loads((config_dir / ".storage" / "auth_provider.homeassistant").read_text())["data"]
        names = {user["username"] for user in data["users"]}
    except OSError, ValueError, KeyError, TypeError:
        return []
    return [name for name in DEMO_USERS if name in names]


def _login_hint(config_dir: Path) -> str:
    """The ready line's log-in part: the demo users and their password, when they exist."""
    users = _demo_logins(config_dir)
    return f" — log in as {', '.join(users)} with password {PASSWORD!r}" if users else ""


async def _provision(hass: HassProcess) -> None:
    await hass.wait_ready()
    async with aiohttp.ClientSession() as session:
        household = await provision(session, hass.base_url, lambda t: print(f"[develop] {t}", flush=True))
        try:
            if pipeline := household.pipelines.get(PREFERRED_LANGUAGE):
                await household.owner.ws("assist_pipeline/pipeline/set_preferred", pipeline_id=pipeline)
        finally:
            await household.close()
    print(f"[develop] ready: {hass.base_url}{_login_hint(hass.config_dir)}", flush=True)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--config-dir", type=Path, default=ROOT / "config-dev")
    parser.add_argument("--port", type=int, default=8123)
    parser.add_argument(
        "--bare", action="store_true", help="do not provision on first start (onboard by hand in the browser)"
    )
    args = parser.parse_args()

    write_config(args.config_dir, ROOT, args.port, fresh=False, ui=True)
    hass = HassProcess(ROOT / ".venv", args.config_dir.resolve(), args.port)
    signal.signal(signal.SIGTERM, lambda *_: (_ for _ in ()).throw(KeyboardInterrupt()))
    try:
        hass.start()
        print(
            f"[develop] hass console output: {hass.console_file}\n"
            "[develop]   (tracebacks of met, radio_browser, google_translate and a missing ffmpeg there\n"
            "[develop]   are expected: the dev venv lacks their packages)\n"
            f"[develop] Home Assistant's log: {hass.log_file}",
            flush=True,
        )
        if args.bare or _onboarded(hass.config_dir):
            asyncio.run(hass.wait_ready("/api/", ok=(401,)))
            print(f"[develop] ready: {hass.base_url}{_login_hint(hass.config_dir)}", flush=True)
        else:
            asyncio.run(_provision(hass))
        return hass.wait()
    except KeyboardInterrupt:
        return 0
    except Exception as err:
        print(f"[develop] provisioning failed: {type(err).__name__}: {err}", file=sys.stderr, flush=True)
        return hass.wait()
    finally:
        hass.stop()
        print(f"[develop] hass stopped; log: {hass.log_file}, console: {hass.console_file}", flush=True)


if __name__ == "__main__":
    sys.exit(main())
