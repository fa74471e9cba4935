"""Starting up whatever is wrong: the app always opens, on safe defaults, and says what it did.

A Pi under systemd that fails to start restarts in a loop and shows a black screen: for a family
that is a broken table. So every problem found at start (an unusable config, a data directory
that cannot be written, a damaged game database, an unreadable ``settings.json``) becomes a
fallback plus one plain line for the home screen and the journal, and nothing is deleted: a
damaged file is moved aside as ``NAME.damaged-YYYYMMDD-HHMMSS`` next to where it was.

:func:`plan_startup` only looks (``table99 config`` prints its plan: exactly what ``run`` would
do); :func:`carry_out` does it (``table99 run``).
"""

from __future__ import annotations

import json
import os
import sqlite3
import tempfile
import time
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path

from app.config import Config, load_config_or_default
from app.store import GameStore, StoreError

DATABASE = "games.sqlite3"
SETTINGS = "settings.json"


@dataclass
class StartupPlan:
    config: Config
    data_dir: Path
    problems: list[str] = field(default_factory=list)
    damaged: list[Path] = field(default_factory=list)  # files to move aside before starting
    notes: list[str] = field(default_factory=list)  # what is fine, for `table99 config`


def default_data_dir(environ: Mapping[str, str]) -> Path:
    base = environ.get("XDG_DATA_HOME") or str(Path.home() / ".local" / "share")
    return Path(base) / "table99"


def _usable_dir(path: Path) -> str | None:
    """Why ``path`` cannot hold the games (None when it can); creates it when missing."""
    try:
        path.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        return exc.strerror or str(exc)
    if not path.is_dir():
        return "not a directory"
    if not os.access(path, os.W_OK | os.X_OK):
        return "not writable"
    return None


def choose_data_dir(config: Config, environ: Mapping[str, str]) -> tuple[Path, list[str]]:
    """``$TABLE99_DATA_DIR``, else ``[app] data_dir``, else the XDG directory; the first usable."""
    problems: list[str] = []
    candidates: list[tuple[str, Path]] = []
    if environ.get("TABLE99_DATA_DIR"):
        candidates.append(("$TABLE99_DATA_DIR", Path(environ["TABLE99_DATA_DIR"])))
    elif config.data_dir:
        candidates.append(("[app] data_dir", Path(config.data_dir)))
    candidates.append(("the default data directory", default_data_dir(environ)))
    for what, path in candidates:
        reason = _usable_dir(path)
        if reason is None:
            return path, problems
        problems.append(f"{what} {_one_line(str(path))} cannot be used ({reason})")
    fallback = Path(tempfile.gettempdir()) / f"table99-{os.getuid()}"
    fallback.mkdir(mode=0o700, exist_ok=True)
    problems.append(f"games are kept in {fallback} until this is fixed (lost at the next reboot)")
    return fallback, problems


def database_problem(path: Path) -> str | None:
    """Why the game database cannot be used (None when it is fine or does not exist yet)."""
    if not path.exists():
        return None
    try:
        db = sqlite3.connect(f"file:{path}?mode=ro", uri=True)
        try:
            rows = db.execute("PRAGMA quick_check(1)").fetchall()
        finally:
            db.close()
    except sqlite3.Error as exc:
        return str(exc)
    if rows != [("ok",)]:
        return str(rows[0][0]) if rows else "quick_check gave no answer"
    return None


def settings_problem(path: Path) -> str | None:
    """Why ``settings.json`` cannot be used (None when it is fine or missing)."""
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except FileNotFoundError:
        return None
    except OSError as exc:
        return exc.strerror or str(exc)
    except UnicodeDecodeError as exc:
        return f"not UTF-8 text (byte {exc.start})"
    except (ValueError, RecursionError) as exc:
        return f"not valid JSON ({_one_line(str(exc))[:80]})"
    return None if isinstance(data, dict) else "not a JSON object"


def plan_startup(config_path: Path | None, environ: Mapping[str, str] | None = None) -> StartupPlan:
    """What starting the app would do (looks only; creates the data directory if missing)."""
    env = os.environ if environ is None else environ
    config, config_problem = load_config_or_default(config_path)
    data_dir, problems = choose_data_dir(config, env)
    plan = StartupPlan(config, data_dir, ([config_problem] if config_problem else []) + problems)
    database = data_dir / DATABASE
    if (reason := database_problem(database)) is not None:
        plan.damaged.append(database)
        plan.problems.append(f"the game database {database} is damaged ({_one_line(reason)}): it is moved "
                             "aside and a new one started")
    else:
        plan.notes.append(f"games: {database}" + ("" if database.exists() else " (new)"))
    settings = data_dir / SETTINGS
    if (reason := settings_problem(settings)) is not None:
        plan.damaged.append(settings)
        plan.problems.append(f"{settings} cannot be read ({reason}): it is moved aside and the "
                             "language and speech settings start from the config")
    return plan


def move_aside(path: Path, now: float | None = None) -> Path:
    """Rename a damaged file (and SQLite's -wal/-shm beside it) to ``NAME.damaged-STAMP``."""
    stamp = time.strftime("%Y%m%d-%H%M%S", time.localtime(now))
    target = path.with_name(f"{path.name}.damaged-{stamp}")
    n = 1
    while target.exists():
        n += 1
        target = path.with_name(f"{path.name}.damaged-{stamp}-{n}")
    path.rename(target)
    for suffix in ("-wal", "-shm"):
        companion = path.with_name(path.name + suffix)
        if companion.exists():
            companion.rename(target.with_name(target.name + suffix))
    return target


def carry_out(plan: StartupPlan) -> tuple[GameStore, list[str]]:
    """Make the plan real: the data directory for the app, damaged files moved, the store open.

    Returns the store and the problems to show (with where each moved file went).
    """
    os.environ["TABLE99_DATA_DIR"] = str(plan.data_dir)
    problems = list(plan.problems)
    for path in plan.damaged:
        try:
            moved = move_aside(path)
        except OSError as exc:
            problems.append(f"could not move {path} aside ({exc.strerror or exc})")
            continue
        problems.append(f"the damaged file is kept as {moved}")
    database = plan.data_dir / DATABASE
    try:
        store = GameStore(database)
    except StoreError as exc:  # damaged between the plan and now, or unreadable: start afresh
        problems.append(_one_line(str(exc)))
        try:
            problems.append(f"the damaged file is kept as {move_aside(database)}")
            store = GameStore(database)
        except (OSError, StoreError) as again:
            problems.append(f"games are not kept this time ({_one_line(str(again))})")
            store = GameStore(":memory:")
    return store, problems


def _one_line(text: str) -> str:
    """Newlines in names and paths must not split a one-line message."""
    return " ".join(text.split())
