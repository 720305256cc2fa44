"""Real sentences and questions from the public datasets, read in place (never copied into the repo).

- LoCoMo (locomo/locomo10.json): dialogue turns (text, and the photo's blip_caption when a turn
  shares one), observation facts, per-session event summaries -> English memories; the QA
  questions -> English queries.
- XQuAD (xquad/xquad.{en,de,es}.json): context paragraphs split into sentences -> en/de/es
  memories; the questions -> en/de/es queries.

Everything is deterministic (sorted, seeded) so a cache key over the files' bytes is enough.
"""

from __future__ import annotations

import hashlib
import json
import random
import re
from dataclasses import dataclass
from pathlib import Path

DATASET_FILES = (
    "locomo/locomo10.json",
    "xquad/xquad.en.json",
    "xquad/xquad.de.json",
    "xquad/xquad.es.json",
)
XQUAD_LANGUAGES = ("en", "de", "es")
MIN_CHARS, MAX_CHARS = 12, 400  # shorter is noise ("Wow!"), longer is a paragraph, not a memory
_SENTENCE_END = re.compile(r"(?<=[.!?])\s+(?=[\"“¿¡(]?[A-ZÀ-ÖØ-Þ0-9])")


@dataclass(frozen=True, slots=True)
class Sentence:
    text: str
    language: str
    origin: str  # "turn", "caption", "observation", "event", "xquad"


@dataclass(frozen=True, slots=True)
class Query:
    text: str
    language: str
    origin: str  # "locomo" or "xquad"


def dataset_hash(root: Path) -> str:
    """sha256 over the dataset files' bytes (the cache key of everything derived from them)."""
    digest = hashlib.sha256()
    for name in DATASET_FILES:
        digest.update(name.encode())
        digest.update((root / name).read_bytes())
    return digest.hexdigest()[:16]


def split_sentences(paragraph: str) -> list[str]:
    return [s.strip() for s in _SENTENCE_END.split(paragraph) if s.strip()]


def _keep(text: str) -> bool:
    return MIN_CHARS <= len(text) <= MAX_CHARS


def load_sentences(root: Path) -> list[Sentence]:
    """Distinct memory sentences (first occurrence wins), in a fixed order."""
    out: list[Sentence] = []
    seen: set[str] = set()

    def add(text: str, language: str, origin: str) -> None:
        text = " ".join(str(text).split())
        if _keep(text) and text not in seen:
            seen.add(text)
            out.append(Sentence(text, language, origin))

    for sample in json.loads((root / "locomo/locomo10.json").read_text()):
        conv = sample["conversation"]
        for key in sorted(k for k in conv if re.fullmatch(r"session_\d+", k)):
            for turn in conv[key]:
                add(turn.get("text", ""), "en", "turn")
                if turn.get("blip_caption"):
                    add(f"{turn['speaker']} shared a photo: {turn['blip_caption']}.", "en", "caption")
        for session in sample["observation"].values():
            for facts in session.values():
                for fact in facts:
                    add(fact[0], "en", "observation")
        for session in sample["event_summary"].values():
            for who, events in session.items():
                if who != "date":
                    for event in events:
                        add(event, "en", "event")
    for lang in XQUAD_LANGUAGES:
        data = json.loads((root / f"xquad/xquad.{lang}.json").read_text())["data"]
        for article in data:
            for para in article["paragraphs"]:
                for sentence in split_sentences(para["context"]):
                    add(sentence, lang, "xquad")
    return out


def load_queries(root: Path, *, locomo: int, per_xquad_language: int, seed: int = 7) -> list[Query]:
    """A seeded sample of LoCoMo questions (en) and XQuAD questions (en/de/es)."""
    rng = random.Random(seed)
    loc = sorted(
        {qa["question"] for s in json.loads((root / "locomo/locomo10.json").read_text()) for qa in s["qa"]}
    )
    out = [Query(q, "en", "locomo") for q in rng.sample(loc, min(locomo, len(loc)))]
    for lang in XQUAD_LANGUAGES:
        data = json.loads((root / f"xquad/xquad.{lang}.json").read_text())["data"]
        qs = sorted({qa["question"] for a in data for p in a["paragraphs"] for qa in p["qas"]})
        out += [Query(q, lang, "xquad") for q in rng.sample(qs, min(per_xquad_language, len(qs)))]
    return out
