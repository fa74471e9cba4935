"""The newcomer's two commands and CI, run against stand-ins: what they call, in which order, with what.

``scripts/run`` and ``scripts/test`` are copied into a scratch project whose ``scripts/setup`` and
``.venv/bin/*`` are stand-ins that log their arguments (and the environment that matters), so the
test needs no network and no display. The real setup (pip, a fresh clone) is checked by hand;
shellcheck covers these scripts in tests/test_deploy.py.
"""

from __future__ import annotations

import os
import shutil
import subprocess
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
LOGGER = """#!/bin/sh
printf '%s %s | %s %s %s\\n' "$(basename "$0")" "$*" "${KIVY_LOG_MODE:-}" "${KCFG_GRAPHICS_WIDTH:-}" \
  "${KCFG_GRAPHICS_HEIGHT:-}" >> "$CALLS"
"""


def project(tmp_path: Path) -> tuple[Path, Path]:
    """A scratch copy of scripts/ and .ci/ with logging stand-ins; returns (project, calls log)."""
    copy = tmp_path / "project"
    shutil.copytree(ROOT / "scripts", copy / "scripts")
    shutil.copytree(ROOT / ".ci", copy / ".ci")
    (copy / "scripts" / "setup").write_text(LOGGER)
    (copy / ".venv" / "bin").mkdir(parents=True)
    for name in ("table99", "ruff", "mypy", "pytest"):
        (copy / ".venv" / "bin" / name).write_text(LOGGER)
        (copy / ".venv" / "bin" / name).chmod(0o755)
    return copy, tmp_path / "calls.log"


def run(copy: Path, calls: Path, *argv: str, **env: str) -> list[str]:
    clean = {k: v for k, v in os.environ.items() if not k.startswith(("KIVY_", "KCFG_"))}
    # cwd elsewhere: the scripts must find the project from their own path, not the caller's.
    subprocess.run(["bash", *argv], cwd=copy.parent, env={**clean, "CALLS": str(calls), **env},
                   check=True, timeout=60, capture_output=True)
    return calls.read_text().splitlines()


def test_run_sets_up_then_starts_the_app_at_the_touchscreens_size(tmp_path: Path) -> None:
    copy, calls = project(tmp_path)
    ran = run(copy, calls, str(copy / "scripts" / "run"), "--board", "serial")
    assert ran == ["setup gpio,serial,vision,web |   ", "table99 run --board serial | PYTHON 800 480"]


def test_run_keeps_what_the_caller_chose(tmp_path: Path) -> None:
    copy, calls = project(tmp_path)
    ran = run(copy, calls, str(copy / "scripts" / "run"), KIVY_LOG_MODE="MIXED", KCFG_GRAPHICS_WIDTH="1024")
    assert ran[-1] == "table99 run | MIXED 1024 480"


def test_test_sets_up_for_development_then_lints_type_checks_and_runs_the_suite(tmp_path: Path) -> None:
    copy, calls = project(tmp_path)
    ran = [line.split(" |")[0] for line in run(copy, calls, str(copy / "scripts" / "test"), "-k", "deploy")]
    assert ran == ["setup dev", "ruff check .", "mypy ", "pytest -n 2 -k deploy"]


def test_ci_runs_the_readmes_test_command_and_nothing_else(tmp_path: Path) -> None:
    copy, calls = project(tmp_path)
    ci = [line.split(" |")[0] for line in run(copy, calls, str(copy / ".ci" / "run"))]
    calls.unlink()
    readme = [line.split(" |")[0] for line in run(copy, calls, str(copy / "scripts" / "test"))]
    assert ci == readme
    assert "    bash scripts/test\n" in (ROOT / "README.md").read_text()
