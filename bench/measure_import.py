"""Import rate into a fresh SQLite store, in a fresh process (issue 30: 10,000 memories in ≤ 60 s).

Usage (run by recall_latency.py): measure_import.py WORK_JSON OUT_JSON
WORK_JSON: {"drafts": [[text, language], ...]}. The drafts go to engine.import_memories in one call
(what the panel's memory/import does), cycling through the shared scope, Julian's private memories
and the kitchen; the progress callback is counted. OUT_JSON: {"drafts", "seconds", "per_s",
"created", "duplicates", "rejected", "progress_calls"}.
"""

from __future__ import annotations

import json
import sys
import tempfile
import time
from pathlib import Path

import engine_import

engine_import.install()
from custom_components.memory.engine.api import MemoryDraft  # noqa: E402
from custom_components.memory.engine.factory import build_engine  # noqa: E402
from custom_components.memory.engine.models import Scope, Speaker  # noqa: E402

ADMIN = Speaker.administrator()
BUCKETS = ((Scope.SHARED, None, None), (Scope.PRIVATE, "person.julian", None), (Scope.ROOM, None, "kitchen"))


def main(work_path: Path, out_path: Path) -> None:
    said = json.loads(work_path.read_text())["drafts"]
    drafts = [
        MemoryDraft(text, speaker=ADMIN, scope=scope, owner_id=owner, area_id=area, language=language)
        for n, (text, language) in enumerate(said)
        for scope, owner, area in [BUCKETS[n % len(BUCKETS)]]
    ]
    with tempfile.TemporaryDirectory() as tmp:
        engine = build_engine(str(Path(tmp) / "import.db"))
        engine.open()  # the encoder loaded and warm, as in a running HA
        calls = []
        started = time.perf_counter()
        report = engine.import_memories(drafts, progress=lambda done, total: calls.append(done))
        seconds = time.perf_counter() - started
        engine.close()
    out = {
        "drafts": len(drafts),
        "seconds": round(seconds, 2),
        "per_s": round(len(drafts) / seconds),
        "created": report.created,
        "duplicates": report.duplicates,
        "rejected": len(report.rejected),
        "progress_calls": len(calls),
    }
    out_path.write_text(json.dumps(out, indent=1))


if __name__ == "__main__":
    main(Path(sys.argv[1]), Path(sys.argv[2]))
