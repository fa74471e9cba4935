"""The dependency rules of docs/architecture.md, checked on the source itself.

- rules/ imports only the standard library and rules.*.
- hardware/, firmware_bridge/, vision/ never import app or kivy.
- Every module of app/ and rules/ imports on a machine without gpiozero, pyserial, OpenCV, numpy,
  Pillow or picamera2 (they are imported where used, inside functions or driver modules).
"""

from __future__ import annotations

import ast
import subprocess
import sys
from pathlib import Path

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
