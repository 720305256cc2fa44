"""bench/report.py on a hand-written saved latency run (bench/recall_latency.py's JSON shape): the
plot holds the given p50/p95 per store size on a log axis with the p50 targets, the markdown
links it and carries the numbers, and a run re-renders from the saved JSON alone."""

from __future__ import annotations

import json
from pathlib import Path

import report

PNG_MAGIC = b"\x89PNG\r\n\x1a\n"


def _size(p50: float, p95: float, rows: int) -> dict:
    """One measured size; every time distinct so a swapped or missing value shows."""
    pct = {"p50": p50, "p95": p95}
    return {
        "setup": {"rows": rows, "store_open_s": 0.1, "encoder_warm_s": 0.9},
        "recall_all": pct,
        "semantic_pool": {"p50": p50 / 4, "p95": p95 / 4},
        "recall": {
            "known": {"p50": p50 + 0.01, "p95": p95 + 0.01},
            "unknown": {"p50": p50 - 0.01, "p95": p95},
        },
        "recall_end_to_end": {"p50": p50 + 3, "p95": p95 + 3},
        "embed": {"p50": 3.1, "p95": 4.2},
        "remember": {"p50": 5.5, "p95": 8.5},
        "rss": {
            "before_open_mb": 34.0,
            "store_delta_mb": 5.0,
            "encoder_delta_mb": 110.0,
            "loaded_after_recalls_mb": 150.0,
            "after_remember_mb": 150.5,
            "peak_mb": 151.0,
            "index_mb": 3.0,
        },
        "index_dims": 512,
        "breakdown": {"semantic()": 0.2, "gather()": 0.5, "read+rank+slate": 0.1},
        "load": [0.5, 0.6],
        "hits_per_query": {"known": 4.5, "unknown": 3.5},
    }


DOC = {
    "machine": {
        "date": "2026-01-02 03:04 UTC",
        "commit": "abc1234",
        "cpu": "Test CPU",
        "nproc": 3,
        "python": "3.13.5",
        "numpy": "2.3.2",
        "blas": [],
        "openblas_env": {},
    },
    "command": "scripts/python bench/recall_latency.py --sizes 1000,10000 --turn-size 0",
    # keys as JSON stores them: strings
    "results": {"1000": _size(0.75, 1.25, 1000), "10000": _size(6.5, 9.25, 10000)},
    "builds": {
        "1000": {"seconds": 0.2, "by_scope": {"shared": 1000}},
        "10000": {"seconds": 1.5, "by_scope": {}},
    },
    "turn": None,
    "corpus": {"sentences": 123, "queries": 4, "locomo_queries": 3, "xquad_queries": 1},
    "recipe": {
        "held_out": 7,
        "buckets": 2,
        "areas": ["kitchen"],
        "persons": ["person.x"],
        "span_days": 9,
        "not_active_share": 0.03,
    },
}


def test_latency_plot_draws_the_given_points(tmp_path: Path) -> None:
    results = {1000: _size(0.75, 1.25, 1000), 10000: _size(6.5, 9.25, 10000)}

    drawn = report.plot_latency(results, tmp_path / "plot.png")

    assert (tmp_path / "plot.png").read_bytes()[:8] == PNG_MAGIC
    assert drawn["xscale"] == "log"
    assert drawn["series"] == {
        "recall p50": [(1000.0, 0.75), (10000.0, 6.5)],
        "recall p95": [(1000.0, 1.25), (10000.0, 9.25)],
    }
    # each size's target: TARGET_RECALL_TO_SEMANTIC x its own vector search p50 (here a quarter)
    assert drawn["targets"] == [(1000, 1.5 * 0.75 / 4), (10000, 1.5 * 6.5 / 4)]


def test_saved_run_renders_markdown_linking_the_plot(tmp_path: Path) -> None:
    saved = tmp_path / "latency.json"
    saved.write_text(json.dumps(DOC))
    out = tmp_path / "docs" / "benchmarks.md"
    out.parent.mkdir()

    written = report.generate(report.load(saved), out, tmp_path / "docs" / "images")

    png = tmp_path / "docs" / "images" / report.LATENCY_PLOT
    assert written == [png, out]
    assert png.read_bytes()[:8] == PNG_MAGIC
    text = out.read_text()
    assert "![Recall latency p50 / p95 against store size](images/latency-vs-store-size.png)" in text
    assert "| recall, all queries \u00d7 speakers | 0.75 / 1.25 | 6.5 / 9.25 |" in text
    assert (
        "| SQLite recall p50 at 10k (query embedding excluded) / its vector search p50 (store.semantic, "
        "recall's pool and visibility) | ≤ 1.5\u00d7 | 6.5 / 1.625 ms = 4.00\u00d7 | **FAIL** |"
    ) in text
    assert DOC["command"] in text
    assert "123 distinct sentences" in text
    assert "Queries: 4 real questions — 3 LoCoMo (en) and 1 XQuAD" in text
    assert "## One Assist turn" not in text  # turn None: the section is left out


def test_committed_latency_results_render() -> None:
    """bench/results/latency.json (what docs/benchmarks.md is generated from) still renders."""
    doc = report.load(report.LATENCY_RESULTS)
    text = report.render(doc, "images/x.png")
    measured = doc["results"][10000]
    p50, semantic = measured["recall_all"]["p50"], measured["semantic_pool"]["p50"]
    assert "| SQLite recall p50 at 10k (query embedding excluded) / its vector search p50" in text
    assert f"| {p50} / {semantic} ms = {p50 / semantic:.2f}\u00d7 |" in text
