"""The committed panel (custom_components/memory/frontend/memory-panel.js) is what frontend/
builds: a copy of the sources, `npm ci` from the lock file and `npm run build` into a temporary
folder give the same bytes; and the panel's texts exist in all five languages."""

from __future__ import annotations

import json
import re
import shutil
import subprocess
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
FRONTEND = ROOT / "frontend"
BUILT = ROOT / "custom_components" / "memory" / "frontend" / "memory-panel.js"
SOURCES = ("package.json", "package-lock.json", "tsconfig.json", "build.mjs", "src")
LANGUAGES = ("en", "de", "fr", "it", "es")  # the integration's languages
BUILD_TIMEOUT = 600  # seconds per npm step: a first npm ci on a slow line downloads ~30 MB
STALE = (
    "custom_components/memory/frontend/memory-panel.js is not what frontend/ builds: run "
    "`cd frontend && npm ci && npm run build` and commit the file"
)


def _npm(*args: str, cwd: Path) -> None:
    npm = shutil.which("npm")
    assert npm, "npm is needed to build the panel (scripts/test installs Node.js when it is missing)"
    result = subprocess.run(
        [npm, *args], cwd=cwd, capture_output=True, text=True, timeout=BUILD_TIMEOUT, check=False
    )
    assert result.returncode == 0, f"npm {' '.join(args)} failed:\n{result.stdout}\n{result.stderr}"


@pytest.mark.timeout(2 * BUILD_TIMEOUT + 60)
def test_committed_panel_is_the_build_of_its_sources(tmp_path: Path) -> None:
    work = tmp_path / "frontend"
    work.mkdir()
    for name in SOURCES:
        source = FRONTEND / name
        if source.is_dir():
            shutil.copytree(source, work / name)
        else:
            shutil.copy2(source, work / name)
    # scripts/test ran npm ci in frontend/ already: the packages come from npm's cache
    _npm("ci", "--prefer-offline", "--no-audit", "--no-fund", "--loglevel=error", cwd=work)
    out = tmp_path / "memory-panel.js"
    _npm("run", "build", "--", str(out), cwd=work)
    assert out.read_bytes() == BUILT.read_bytes(), STALE


def _placeholders(text: str) -> set[str]:
    return set(re.findall(r"\{(\w+)\}", text))


@pytest.mark.parametrize("language", LANGUAGES[1:])
def test_panel_texts_in_every_language(language: str) -> None:
    folder = FRONTEND / "src" / "translations"
    english = json.loads((folder / "en.json").read_text(encoding="utf-8"))
    texts = json.loads((folder / f"{language}.json").read_text(encoding="utf-8"))
    assert texts.keys() == english.keys()
    for key, text in texts.items():
        assert text.strip(), key
        assert _placeholders(text) == _placeholders(english[key]), key


def test_every_text_the_panel_asks_for_exists() -> None:
    english = json.loads((FRONTEND / "src" / "translations" / "en.json").read_text(encoding="utf-8"))
    asked = {
        key
        for source in (FRONTEND / "src").rglob("*.ts")
        for key in re.findall(r"""\bt\(\s*"([a-z_]+\.[a-z_.]+)\"""", source.read_text(encoding="utf-8"))
    }
    assert asked, "no t(...) calls found: the pattern no longer matches the sources"
    assert sorted(asked - english.keys()) == []
