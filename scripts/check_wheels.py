"""Checks that the integration's manifest requirements install on Home Assistant OS and Container
(Alpine, musl) for aarch64 and x86_64, at the Python and package versions the venv's Home
Assistant pins: `scripts/python scripts/check_wheels.py`.

For each platform it runs `pip download --only-binary=:all: --platform musllinux_1_2_<arch>` for
the manifest's requirements under HA's package_constraints.txt, so a requirement with no musl
wheel, or one whose pins clash with HA's, fails. Requirements that one of HA's own components
also requires (pymicro-vad: assist_pipeline) are left to Home Assistant's wheel index, which
builds every HA requirement for those platforms; they are listed, not downloaded. Exit 0 when
every platform resolves; prints the wheels chosen.
"""

from __future__ import annotations

import json
import re
import subprocess
import sys
import tempfile
from pathlib import Path

import homeassistant
from homeassistant.const import __version__ as HA_VERSION

ROOT = Path(__file__).resolve().parent.parent
PLATFORMS = ("musllinux_1_2_x86_64", "musllinux_1_2_aarch64")


def _name(requirement: str) -> str:
    return re.split(r"[\[=<>~! ;]", requirement, maxsplit=1)[0].lower().replace("_", "-")


def ha_requirements() -> set[str]:
    """Names of the packages Home Assistant's own components require."""
    names: set[str] = set()
    for manifest in (Path(homeassistant.__file__).parent / "components").glob("*/manifest.json"):
        names.update(_name(r) for r in json.loads(manifest.read_text()).get("requirements", []))
    return names


def main() -> int:
    manifest = json.loads((ROOT / "custom_components/memory/manifest.json").read_text())
    constraints = Path(homeassistant.__file__).parent / "package_constraints.txt"
    by_ha = ha_requirements()
    ours = [r for r in manifest["requirements"] if _name(r) not in by_ha]
    left = [r for r in manifest["requirements"] if _name(r) in by_ha]
    python = f"{sys.version_info.major}{sys.version_info.minor}"
    print(f"Home Assistant {HA_VERSION}, constraints: {constraints}")
    print(f"left to Home Assistant's wheel index (its own components require them): {', '.join(left) or '-'}")
    failed = False
    for platform in PLATFORMS:
        with tempfile.TemporaryDirectory() as dest:
            result = subprocess.run(
                [
                    sys.executable,
                    "-m",
                    "pip",
                    "download",
                    "-q",
                    "-d",
                    dest,
                    "--only-binary=:all:",
                    "--platform",
                    platform,
                    "--python-version",
                    python,
                    "--implementation",
                    "cp",
                    "--abi",
                    f"cp{python}",
                    "-c",
                    str(constraints),
                    *ours,
                ],
                capture_output=True,
                text=True,
                check=False,
            )
            wheels = sorted(p.name for p in Path(dest).glob("*.whl"))
        status = "ok" if result.returncode == 0 else "FAILED"
        failed |= result.returncode != 0
        print(f"{platform} cp{python}: {status}")
        for wheel in wheels:
            print(f"  {wheel}")
        if result.returncode:
            print("\n".join(line for line in result.stderr.splitlines() if line.startswith("ERROR")))
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
