"""The dependency rules of docs/architecture.md, checked on the source itself.

- rules/ imports only the standard library and rules.*.
- hardware/, firmware_bridge/, vision/ never import app or kivy.
- app/ has no import cycle, and its rooms import only what ``tests/architecture_rules.py`` allows:
  services import services, games import services, a front end imports games and services and never
  another front end, and only the ``table99`` commands wire front ends together.
- A module over ``LONG_MODULE`` lines says in its docstring why it is long.
- Every module of app/ and rules/ imports on a machine without gpiozero, pyserial, OpenCV, numpy,
  Pillow or picamera2 (they are imported where used, inside functions or driver modules).
"""

from __future__ import annotations

import ast
import subprocess
import sys
from pathlib import Path

import pytest

from tests.architecture_rules import (
    CROSSINGS,
    DYNAMIC,
    LONG_BECAUSE,
    LONG_MODULE,
    PACKAGES,
    ROOMS,
    allowed,
    crossing,
    cycles,
    dynamic_imports,
    import_graph,
    module_names,
    room_of,
)

ROOT = Path(__file__).resolve().parent.parent
HARDWARE_LIBS = ("gpiozero", "serial", "cv2", "numpy", "PIL", "picamera2", "libcamera")


def modules_under(package: str) -> list[Path]:
    """Python modules of a package, without MicroPython firmware (another interpreter)."""
    paths = (ROOT / package).rglob("*.py")
    return sorted(p for p in paths if "firmware" not in p.relative_to(ROOT).parts[1:2])


def imported_names(path: Path) -> list[tuple[str, int]]:
    tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
    names: list[tuple[str, int]] = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            names.extend((alias.name, node.lineno) for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            names.append((node.module, node.lineno))
    return names


def test_rules_import_only_the_standard_library() -> None:
    stdlib = sys.stdlib_module_names | {"__future__"}
    offenders = [
        f"{path.relative_to(ROOT)}:{line} imports {name}"
        for path in modules_under("rules")
        for name, line in imported_names(path)
        if name.split(".")[0] not in stdlib and name.split(".")[0] != "rules"
    ]
    assert not offenders, "\n".join(offenders)


def test_sensing_layers_never_import_app_or_kivy() -> None:
    offenders = [
        f"{path.relative_to(ROOT)}:{line} imports {name}"
        for package in ("hardware", "firmware_bridge", "vision", "rules")
        for path in sorted((ROOT / package).rglob("*.py"))
        for name, line in imported_names(path)
        if name.split(".")[0] in ("app", "kivy")
    ]
    assert not offenders, "\n".join(offenders)


@pytest.mark.parametrize("package", PACKAGES)
def test_no_import_cycle(package: str) -> None:
    """A cycle makes the import order matter: the module that happens to load first sees a half-made
    other one (it worked by luck until a new import came first). Lazy imports inside functions,
    names given to ``import_module`` (see DYNAMIC) and a package's ``__init__`` count: all run."""
    found = cycles(import_graph(package))
    assert not found, f"import cycles in {package}/:\n" + "\n".join(" -> ".join(group) for group in found)


def test_the_graph_is_the_real_one() -> None:
    """Guards the two tests around it against passing on nothing (a wrong ROOT, a parser change)."""
    edges = {(edge.importer, edge.imported) for edge in import_graph("app")}
    assert len(edges) > 300
    assert ("app.referee.core", "app.games.board99.texts") in edges
    assert ("app.club.hub_web", "app.pages") in edges
    assert ("app.cli", "app.commands.replay") in edges  # a DYNAMIC edge


def test_every_room_imports_only_what_the_rules_allow() -> None:
    offenders = [
        f"{edge.importer} ({room_of(edge.importer)}) imports {edge.imported} ({room_of(edge.imported)})"
        f" at line {edge.line}"
        for edge in import_graph("app") if not allowed(edge.importer, edge.imported)
    ]
    assert not offenders, "\n".join(offenders)


def test_a_name_made_at_run_time_is_imported_only_where_the_rules_say() -> None:
    """``import_module(name)`` is invisible to the graph but for DYNAMIC: anywhere else it could hide
    a front end importing another, or a cycle."""
    sites = [(module, line) for package in PACKAGES for module, line in dynamic_imports(package)]
    unknown = [f"{module}:{line}" for module, line in sites if module not in DYNAMIC]
    assert not unknown, "imports of a name made at run time, not in DYNAMIC: " + ", ".join(unknown)
    stale = set(DYNAMIC) - {module for module, _ in sites}
    assert not stale, f"DYNAMIC names modules with no such import: {sorted(stale)}"


def test_the_rules_name_only_rooms_and_modules_that_exist_and_every_crossing_is_used() -> None:
    """A rule about a folder that moved away would pass for ever, and a crossing no longer needed
    would stay open: each must name something real and be used."""
    names = module_names("app")
    assert set(ROOMS) <= set(names), sorted(set(ROOMS) - set(names))
    rooms = set(ROOMS.values())
    for source, target in CROSSINGS:
        assert source in rooms or source in names, source
        assert target in names, target
    used = {crossing(e.importer, e.imported) for e in import_graph("app")
            if room_of(e.importer) != room_of(e.imported)}
    assert set(CROSSINGS) <= used, f"crossings no import uses: {sorted(set(CROSSINGS) - used)}"
    for module, loads in DYNAMIC.items():
        assert module in names, module
        for prefix in loads:
            assert prefix in names or prefix in module_names(prefix.split(".")[0]), prefix


@pytest.mark.parametrize("package", PACKAGES)
def test_a_long_module_says_why_it_is_long(package: str) -> None:
    offenders = []
    for name, path in module_names(package).items():
        text = path.read_text(encoding="utf-8")
        lines = text.count("\n")
        doc = ast.get_docstring(ast.parse(text)) or ""
        if lines > LONG_MODULE and LONG_BECAUSE not in doc:
            offenders.append(f"{name}: {lines} lines and no '{LONG_BECAUSE} ...' in its docstring")
    assert not offenders, "\n".join(offenders)


BLOCKER = """
import importlib.abc, importlib.util, pkgutil, sys
BLOCKED = set(sys.argv[1].split(","))

class Block(importlib.abc.MetaPathFinder):
    def find_spec(self, name, path=None, target=None):
        if name.split(".")[0] in BLOCKED:
            raise ImportError(f"{name} is not installed (blocked by the test)")
        return None

sys.meta_path.insert(0, Block())
failures = []
for package in sys.argv[2].split(","):
    pkg = importlib.import_module(package)
    names = [package] + [m.name for m in pkgutil.walk_packages(pkg.__path__, package + ".")]
    for name in names:
        if name.endswith("__main__"):
            continue
        try:
            importlib.import_module(name)
        except Exception as exc:
            failures.append(f"{name}: {type(exc).__name__}: {exc}")
print("\\n".join(failures))
sys.exit(1 if failures else 0)
"""


def test_app_and_rules_import_without_hardware_libraries() -> None:
    result = subprocess.run(
        [sys.executable, "-c", BLOCKER, ",".join(HARDWARE_LIBS), "rules,app"],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=120,
        env={"KIVY_NO_ARGS": "1", "KIVY_NO_CONFIG": "1", "KIVY_NO_FILELOG": "1",
             "KIVY_NO_CONSOLELOG": "1", "SDL_VIDEODRIVER": "offscreen", "PATH": "/usr/bin:/bin"},
    )
    assert result.returncode == 0, result.stdout + result.stderr[-3000:]


def test_every_cli_command_has_a_module_and_help() -> None:
    from app import cli

    for name in cli.COMMANDS:
        result = subprocess.run(
            [sys.executable, "-m", "app", name, "--help"], cwd=ROOT, capture_output=True, text=True,
            timeout=120,
        )
        assert result.returncode == 0, f"table99 {name} --help failed:\n{result.stderr[-2000:]}"
        assert "usage: table99" in result.stdout
