"""What every benchmark result file records about its own run: the command that reproduces it,
the machine and the date (one shape for bench/locomo.py, bench/xquad.py, bench/recall_latency.py)."""

from __future__ import annotations

import os
import platform
import shlex
import subprocess
import sys
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

REPO = Path(__file__).resolve().parent.parent
PYTHON = "scripts/python"  # the repo's venv, as every command in bench/README.md is written
DATE_FORMAT = "%Y-%m-%d %H:%M UTC"


def command(argv: list[str] | None = None) -> str:
    """`scripts/python bench/<script>.py <args>` for `argv` (default sys.argv): the script as a
    path relative to the repository when it lies inside it, the arguments shell-quoted."""
    argv = list(sys.argv if argv is None else argv)
    script = Path(argv[0]).resolve()
    shown = script.relative_to(REPO).as_posix() if script.is_relative_to(REPO) else argv[0]
    return shlex.join([PYTHON, shown, *argv[1:]])


def cpu_model(cpuinfo: Path = Path("/proc/cpuinfo")) -> str:
    """The first `model name` of /proc/cpuinfo, else platform.processor(), else "?"."""
    try:
        for line in cpuinfo.read_text(encoding="utf-8", errors="replace").splitlines():
            if line.startswith("model name") and ":" in line:
                return line.split(":", 1)[1].strip()
    except OSError:
        pass
    return platform.processor() or "?"


def commit() -> str:
    """The repository's short HEAD commit ("?" outside a git checkout)."""
    git = subprocess.run(["git", "rev-parse", "--short", "HEAD"], cwd=REPO, capture_output=True, text=True,
                         check=False)  # fmt: skip
    return git.stdout.strip() or "?"


def machine() -> dict[str, Any]:
    """{"platform": platform.platform(), "cpu": model name, "nproc": logical cores, "python": version}."""
    return {
        "platform": platform.platform(),
        "cpu": cpu_model(),
        "nproc": os.cpu_count(),
        "python": platform.python_version(),
    }


def run_info(argv: list[str] | None = None) -> dict[str, Any]:
    """{"command", "machine", "date"} to merge into a results JSON; date in UTC, DATE_FORMAT."""
    return {"command": command(argv), "machine": machine(), "date": datetime.now(UTC).strftime(DATE_FORMAT)}


def describe(data: dict[str, Any], default_command: str | None = None) -> tuple[str, str, str]:
    """(command, machine, date) as text from a results JSON, also from files written before
    run_info existed: a command without the interpreter gets it, a missing one is
    `default_command` (the script's documented invocation), a machine string is shown as stored,
    an older top-level "nproc" as the core count; anything else missing is "not recorded"."""
    missing = "not recorded"
    cmd = data.get("command") or default_command or missing
    if cmd != missing and not cmd.startswith(PYTHON):
        cmd = f"{PYTHON} {cmd}"
    mach = data.get("machine")
    if isinstance(mach, dict):
        mach = (f"{mach.get('cpu', '?')}, {mach.get('nproc', '?')} cores, {mach.get('platform', '?')}, "
                f"Python {mach.get('python', '?')}")  # fmt: skip
    elif not mach and data.get("nproc"):
        mach = f"{data['nproc']} cores"
    return cmd, str(mach or missing), str(data.get("date") or missing)
