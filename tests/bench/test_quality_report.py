"""bench/quality_report.py on hand-written result files in bench/locomo.py's and bench/xquad.py's
shapes: the markdown carries the numbers given and each run's command, machine and date (from
bench/runinfo.py's metadata, or the fallbacks for files written before it), and the PNGs are written."""

from __future__ import annotations

import json
from pathlib import Path

import quality_report

PNG_MAGIC = b"\x89PNG\r\n\x1a\n"


def _locomo(conversations: list[int], base: float) -> dict:
    """Per configuration, R@k = base + config offset + k/1000 (distinct, hand-checkable)."""
    offsets = {"engine": 0.2, "vector": 0.0, "bm25": 0.1}
    recall = {}
    for config, off in offsets.items():
        row = {f"R@{k}": round(base + off + k / 1000, 4) for k in (5, 10, 25, 50)}
        recall[config] = {
            **{c: {"n": 3, **row, "R@10": round(base + off + int(c) / 100, 4)} for c in "1234"},
            "overall": {"n": 12, **row},
        }
    return {
        "dataset": {"conversations": conversations},
        "encoder": {"name": "tiny", "identity": "tiny/1"},
        "date": "2026-01-02 03:04 UTC",
        "nproc": 7,
        "seconds": 1.5,
        "recall": recall,
        "adversarial": {"n": 4, "engine_empty": 0.25, "vector_below_threshold": 0.5},
        "engine_recall_ms": {"p50": 2.25, "p95": 9.5},
    }


def _grid(same: float, cross: float) -> dict:
    return {q: {m: same if q == m else cross for m in ("en", "de")} for q in ("en", "de")}


# the held-out file in the current shape (bench/runinfo.py); the tuning half and XQUAD in older ones
RUN_INFO = {
    "command": "scripts/python bench/locomo.py --conversations 5-9 --encoder tiny --data /x/l.json",
    "machine": {"platform": "Linux-test", "cpu": "Test CPU 9000", "nproc": 3, "python": "3.13.5"},
    "date": "2026-02-03 04:05 UTC",
}

XQUAD = {
    "date": "2026-01-02T03:04:05+00:00",
    "command": "bench/xquad.py --questions 2",
    "machine": "test machine",
    "encoder": "bundled",
    "languages": ["en", "de"],
    "memories": 10,
    "questions_per_language": 2,
    "configs": {
        "vector": {
            "map": _grid(0.8125, 0.7725),
            "recall@1": _grid(0.5, 0.25),
            "recall@10": _grid(1.0, 0.75),
            "diagonal_map": 0.8125,
            "off_diagonal_map": 0.7725,
            "gap": -0.04,
        },
    },
}


def test_report_numbers_and_figures(tmp_path: Path) -> None:
    results = tmp_path / "results"
    results.mkdir()
    (results / "locomo-tiny-0-4.json").write_text(json.dumps(_locomo([0, 1, 2, 3, 4], 0.3)))
    held_out = {**_locomo([5, 6, 7, 8, 9], 0.4), **RUN_INFO}
    del held_out["nproc"]  # now in "machine"
    (results / "locomo-tiny-5-9.json").write_text(json.dumps(held_out))
    (results / "xquad-bundled.json").write_text(json.dumps(XQUAD))
    out = tmp_path / "docs" / "recall-quality.md"
    out.parent.mkdir()

    pngs = quality_report.generate(results, out, tmp_path / "docs" / "images")

    assert sorted(p.name for p in pngs) == ["locomo-recall-tiny.png", "xquad-map-bundled.png"]
    for png in pngs:
        assert png.read_bytes()[:8] == PNG_MAGIC
    text = out.read_text()
    # held-out engine row: categories R@10 0.61..0.64, overall R@5/10/25/50 = 0.4 + 0.2 + k/1000
    held_out_engine = (
        "| tiny | engine (hybrid recall) | 5-9 (held out) | 0.610 | 0.620 | 0.630 | 0.640 "
        "| 0.605 | **0.610** | 0.625 | 0.650 |"
    )
    assert held_out_engine in text
    assert (
        "| tiny | vector only | 0-4 | 0.310 | 0.320 | 0.330 | 0.340 | 0.305 | 0.310 | 0.325 | 0.350 |" in text
    )
    assert "| 4 | 0.25 | 0.5 | 2.2 / 9.5 | 2026-01-02 03:04 UTC | 7 | 1.5 |" in text
    assert "| 4 | 0.25 | 0.5 | 2.2 / 9.5 | 2026-02-03 04:05 UTC | 3 | 1.5 |" in text
    # per run: the recorded command (held out), the documented one as fallback (tuning half)
    assert (
        "- `scripts/python bench/locomo.py --conversations 5-9 --encoder tiny --data /x/l.json` — "
        "2026-02-03 04:05 UTC, Test CPU 9000, 3 cores, Linux-test, Python 3.13.5"
    ) in text
    tuning_run = (
        "- `scripts/python bench/locomo.py --conversations 0-4 --encoder tiny` — 2026-01-02 03:04 UTC"
    )
    assert f"{tuning_run}, 7 cores" in text
    # the held-out figure carries its run
    figure = text.split("![LoCoMo recall@k, tiny]")[1].split("## XQuAD")[0]
    assert "Run 2026-02-03 04:05 UTC on Test CPU 9000, 3 cores, Linux-test, Python 3.13.5." in figure
    assert f"Reproduce:\n\n```\n{RUN_INFO['command']}\n```" in figure
    assert "![LoCoMo recall@k, tiny](images/locomo-recall-tiny.png)" in text
    assert "gap **-0.040** (pass)" in text
    assert "| en | 0.812 / 0.500 / 1.000 | 0.772 / 0.250 / 0.750 |" in text
    # an older xquad file: command without the interpreter, machine as a string
    xquad_run = "Run 2026-01-02T03:04:05+00:00 on test machine. Reproduce:"
    assert f"{xquad_run}\n\n```\nscripts/python bench/xquad.py --questions 2\n```" in text
    assert "![XQuAD mAP, bundled](images/xquad-map-bundled.png)" in text
