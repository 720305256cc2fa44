"""bench/runinfo.py: the command recorded reproduces the run from the repository root, the CPU
model comes from /proc/cpuinfo's format, and older result files still describe themselves."""

from __future__ import annotations

from pathlib import Path

import runinfo


def test_command_is_repo_relative_and_quoted() -> None:
    script = str(runinfo.REPO / "bench" / "locomo.py")  # as `python /abs/path/bench/locomo.py`
    got = runinfo.command([script, "--conversations", "5-9", "--data", "/tmp/a b.json"])
    assert got == "scripts/python bench/locomo.py --conversations 5-9 --data '/tmp/a b.json'"


def test_cpu_model_from_cpuinfo(tmp_path: Path) -> None:
    info = tmp_path / "cpuinfo"
    info.write_text("processor\t: 0\nvendor_id\t: X\nmodel name\t: Test CPU 9000 @ 2.0GHz\n")
    assert runinfo.cpu_model(info) == "Test CPU 9000 @ 2.0GHz"
    assert runinfo.cpu_model(tmp_path / "missing")  # falls back, never raises


def test_run_info_shape() -> None:
    info = runinfo.run_info(["bench/xquad.py", "--questions", "3"])
    assert info["command"] == "scripts/python bench/xquad.py --questions 3"
    assert set(info["machine"]) == {"platform", "cpu", "nproc", "python"}
    assert info["date"].endswith(" UTC")


def test_describe_current_and_older_files() -> None:
    current = {
        "command": "scripts/python bench/xquad.py",
        "machine": {"platform": "Linux-x", "cpu": "CPU", "nproc": 2, "python": "3.13.5"},
        "date": "2026-01-01 00:00 UTC",
    }
    assert runinfo.describe(current) == (
        "scripts/python bench/xquad.py",
        "CPU, 2 cores, Linux-x, Python 3.13.5",
        "2026-01-01 00:00 UTC",
    )
    old_xquad = {"command": "bench/xquad.py", "machine": "x86_64 Linux", "date": "2026-01-01T00:00:00+00:00"}
    assert runinfo.describe(old_xquad)[:2] == ("scripts/python bench/xquad.py", "x86_64 Linux")
    old_locomo = {"date": "d", "nproc": 2}
    assert runinfo.describe(old_locomo, "scripts/python bench/locomo.py") == (
        "scripts/python bench/locomo.py",
        "2 cores",
        "d",
    )
    assert runinfo.describe({}) == ("not recorded", "not recorded", "not recorded")
