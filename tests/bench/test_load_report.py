"""The reliability benchmarks' judging and rendering (bench/load_ha.py, bench/live_ha.py,
bench/report.py's "Concurrent load" section) on hand-made runs: what counts as a lost, duplicate or
resurfaced memory, when a store's database counts as whole, and that a failing store shows."""

from __future__ import annotations

import json

import live_ha
import load_ha
import report


def _acked(run: load_ha.Run, prefix: str, at: float, forgotten_at: float | None = None) -> load_ha.Item:
    item = run.new(prefix, "Crate {tag} holds the drill.")
    item.acked_at, item.forgotten_at = at, forgotten_at
    return item


def _row(content: str, status: str = "active") -> dict[str, object]:
    return {"content": content, "status": status, "scope": "shared", "owner_id": None, "area_id": None}


def test_judge_counts_what_the_callers_were_told_against_the_listing() -> None:
    run = load_ha.Run(deadline=0.0)
    kept = _acked(run, "KQ", at=1.0)
    lost = _acked(run, "KQ", at=2.0)
    gone = _acked(run, "HQ", at=3.0, forgotten_at=10.0)
    back = _acked(run, "AU", at=4.0, forgotten_at=5.0)
    run.read(9.0, "answer before the forget", f'From memory: "{gone.content}"')  # allowed
    run.read(11.0, "answer after the forget", f'From memory: "{gone.content}"')
    run.read(11.0, "memory/list", json.dumps([kept.content, "an unrelated KQ memory"]))
    rows = [_row(kept.content), _row(kept.content), _row(back.content, "superseded"), _row("other")]

    checks = load_ha.judge(run, rows, rows_before=1)

    assert checks["acknowledged"] == 4 and checks["forgotten"] == 2
    assert checks["missing"] == 1 and checks["missing_samples"] == [lost.tag]
    assert checks["duplicate_current_rows"] == 1  # kept is there twice
    assert checks["forgotten_still_stored"] == 1  # back: still a row, even superseded
    assert checks["forgotten_returned_samples"] == [f"answer after the forget: {gone.tag}"]
    assert checks["rows_expected"] == 1 + 4 - 2 and checks["rows_after"] == 4


def test_a_store_is_whole_only_with_every_row_indexed() -> None:
    whole = {"integrity_check": "ok", "memories": 3, "fts_rows": 3, "terms_rows": 3, "without_fts": 0,
             "without_vector": 0, "duplicate_current_rows": 0}  # fmt: skip
    assert live_ha.store_whole(whole)
    assert not live_ha.store_whole({**whole, "terms_rows": 2})
    assert not live_ha.store_whole({**whole, "integrity_check": "*** in database main ***"})
    assert not live_ha.store_whole({**whole, "without_vector": 1})
    postgres = {"memories": 3, "without_search_columns": 0, "without_vector": 0, "duplicate_current_rows": 0}
    assert live_ha.store_whole(postgres)
    assert not live_ha.store_whole({**postgres, "duplicate_current_rows": 1})


def test_callers_add_up_to_the_concurrency() -> None:
    assert load_ha.workers(50) == {"automation": 10, "admin": 4, "conversation": 36}
    assert sum(load_ha.workers(3).values()) == 3 and min(load_ha.workers(3).values()) == 1


def _store(passed: bool, missing: int) -> dict[str, object]:
    zero = ("missing", "forgotten_still_stored", "duplicate_current_rows", "forgotten_returned",
            "not_found_after_remember")  # fmt: skip
    checks = {"acknowledged": 5, "forgotten": 2, "reads_checked": 7, "rows_before": 10, "rows_after": 13,
              "rows_expected": 13, **dict.fromkeys(zero, 0), "missing": missing}  # fmt: skip
    database = {"memories": 13, "without_search_columns": 0, "without_vector": 0, "duplicate_current_rows": 0,
                "whole": True, "acknowledged_missing": missing, "forgotten_present": 0}  # fmt: skip
    remember = {"n": 3, "p50": 13.0, "p99": 26.5, "max": 30.0, "errors": 0}
    return {"date": "d", "seconds": 60, "concurrency": 50, "callers": {}, "loadavg_before": [1.0],
            "loadavg_after": [2.0], "errors": 0, "checks": checks, "database": database, "passed": passed,
            "ops": {"pipeline: remember": remember}}  # fmt: skip


def test_load_section_shows_each_store_and_a_failing_one() -> None:
    doc = {"command": "bench/load_ha.py", "size": 10000, "stores": {"sqlite": _store(True, 0),
           "postgres": _store(False, 1)}}  # fmt: skip
    text = "\n".join(report.load_section(doc))
    assert "| | SQLite | PostgreSQL |" in text
    assert "| acknowledged memories missing (API) | 0 | 1 |" in text
    assert "| all checks hold | **pass** | **FAIL** |" in text
    assert "| pipeline: remember | 13 / 26.5 (3, 0) | 13 / 26.5 (3, 0) |" in text


def test_committed_load_results_render() -> None:
    """bench/results/load.json (the 'Concurrent load' section of docs/benchmarks.md) still renders."""
    doc = json.loads(report.LOAD_RESULTS.read_text(encoding="utf-8"))
    text = "\n".join(report.load_section(doc))
    assert "## Concurrent load through Home Assistant (issue 26)" in text
    assert "| all checks hold |" in text
