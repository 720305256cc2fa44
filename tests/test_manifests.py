"""What Home Assistant and its Marketplace read from the repository's manifests: the integration's
`manifest.json` categories (2026.11) and `hacs.json` (the Marketplace, HACS built into HA from
2026.11). Checked against the running release's own lists where it has them."""

from __future__ import annotations

import ast
import json
import re
from pathlib import Path

import homeassistant
import pytest

ROOT = Path(__file__).resolve().parents[1]
MANIFEST = json.loads((ROOT / "custom_components" / "memory" / "manifest.json").read_text(encoding="utf-8"))
HACS = json.loads((ROOT / "hacs.json").read_text(encoding="utf-8"))
HA = Path(homeassistant.__file__).parent
CATEGORIES = HA / "generated" / "integration_categories.json"
MARKETPLACE_MANIFEST = HA / "components" / "marketplace" / "repositories" / "base.py"


def test_hacs_json_declares_the_oldest_release_the_suite_runs_on() -> None:
    """The Marketplace (and HACS) refuse an install on an older Home Assistant than `homeassistant`:
    that minimum is the release requirements/ha.txt pins, the oldest one tested."""
    pinned = re.search(r"^homeassistant==(\S+)$", (ROOT / "requirements" / "ha.txt").read_text(), re.M)
    assert pinned is not None
    assert HACS["homeassistant"] == pinned[1]
    assert HACS["name"] == MANIFEST["name"]


def test_hacs_json_holds_only_what_the_marketplace_reads() -> None:
    """Every key of hacs.json is a field of the Marketplace's RepositoryManifest (read from its
    source: the Marketplace imports packages this venv need not have)."""
    if not MARKETPLACE_MANIFEST.exists():
        pytest.skip("this Home Assistant has no Marketplace (before 2026.11)")
    tree = ast.parse(MARKETPLACE_MANIFEST.read_text(encoding="utf-8"))
    manifest = next(
        node for node in tree.body if isinstance(node, ast.ClassDef) and node.name == "RepositoryManifest"
    )
    read = {
        node.target.id
        for node in manifest.body
        if isinstance(node, ast.AnnAssign) and isinstance(node.target, ast.Name)
    } - {"manifest"}  # what from_dict collects, not a key of hacs.json
    assert {"homeassistant", "name"} <= read  # the fields found are the Marketplace's
    assert set(HACS) <= read, f"the Marketplace ignores {sorted(set(HACS) - read)}"


def test_manifest_categories_are_home_assistants() -> None:
    """Each category is a category or `category.subcategory` of HA's list, the primary first."""
    if not CATEGORIES.exists():
        pytest.skip("this Home Assistant has no integration categories (before 2026.11)")
    known: set[str] = set()
    for category in json.loads(CATEGORIES.read_text(encoding="utf-8")):
        known.add(category["slug"])
        known |= {f"{category['slug']}.{sub['slug']}" for sub in category["subcategories"]}
    assert MANIFEST["categories"], "no category"
    assert set(MANIFEST["categories"]) <= known, sorted(set(MANIFEST["categories"]) - known)
    assert len(set(MANIFEST["categories"])) == len(MANIFEST["categories"])
