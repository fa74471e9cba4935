"""The dependency rules of docs/architecture.md as data, and the import graph they are checked on.

``tests/test_architecture.py`` asserts them; ``docs/architecture.md`` explains them. Kept apart
from the test so a reader (or a broken copy made to show that the test fails) finds the rules in
one place: change a rule here and in the docs together.
"""

from __future__ import annotations

import ast
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent

# The rooms of app/, longest prefix first wins. Each module belongs to exactly one room.
ROOMS: dict[str, str] = {
    "app.games": "games",  # the games as the app keeps them: sessions and their sentences
    "app.referee": "games",  # the board game's referee: its sessions at a physical board
    "app.ui.exhibit": "exhibit loop",  # the touchscreen's exhibitor mode (a front end of its own)
    "app.ui": "touchscreen",
    "app.terminal": "terminal",
    "app.web": "web display",
    "app.club": "club hub",
    "app.commands": "commands",  # the table99 command: the one place that wires front ends
    "app.cli": "commands",
    "app.__main__": "commands",
    "app": "services",  # everything else: store, config, paths, i18n, speech, settings, ...
}
FRONT_ENDS = ("touchscreen", "exhibit loop", "terminal", "web display", "club hub")

# What each room may import (besides itself). Services import only services; games import
# services; a front end imports games and services, never another front end; commands wire all.
MAY_IMPORT: dict[str, frozenset[str]] = {
    "services": frozenset(),
    "games": frozenset({"services"}),
    **{front: frozenset({"services", "games"}) for front in FRONT_ENDS},
    "commands": frozenset({"services", "games", *FRONT_ENDS}),
}
# The exhibitor loop shows the touchscreen's own screens to visitors, so it builds on them (these
# modules and nothing else of the touchscreen); the touchscreen's shell is the one place that opens
# exhibitor mode. An entry is (importer's room or module, imported module or package).
EXHIBIT_BUILDS_ON = (
    "app.ui", "app.ui.theme", "app.ui.widgets", "app.ui.context", "app.ui.web_join",
    "app.ui.board99", "app.ui.board99.game_screen", "app.ui.board99.pads", "app.ui.board99.setup_screen",
    "app.ui.board99.board_view", "app.ui.count99", "app.ui.count99.computer_screen", "app.ui.parlett",
    "app.ui.parlett.totals_screen",
)
CROSSINGS: dict[tuple[str, str], str] = {
    **{("exhibit loop", module): "the loop shows the touchscreen's screens" for module in EXHIBIT_BUILDS_ON},
    ("app.ui.shell", "app.ui.exhibit"): "the shell opens exhibitor mode when asked to",
    ("app.ui.shell", "app.ui.exhibit.controller"): "the shell opens exhibitor mode when asked to",
    ("app.ui.shell", "app.ui.exhibit.phone"): "the shell starts exhibitor mode's phone view",
}
# Modules that import a module whose name is made at run time (``importlib.import_module(name)``),
# and what they may load that way: the graph gets these edges, and a dynamic import anywhere else
# fails the test (a name made at run time must not hide a crossing or a cycle).
DYNAMIC: dict[str, tuple[str, ...]] = {
    "app.cli": ("app.commands",),  # each subcommand's module
    "app.config": ("app.source_factories",),  # the chosen board's option SPEC
    "app.sources": ("app.source_factories",),  # the chosen board's factory
    "app.ui.home": ("app.ui.board99", "app.ui.parlett", "app.ui.count99"),  # context.GAMES
    "app.ui.shell": ("app.ui.teach_board", "app.ui.camera_calibration", "app.ui.web_join"),
    "app.web.launch": ("app.web.server", "app.web.follow"),  # aiohttp may be missing
    "app.commands.play": ("app.terminal",),
    "app.commands.replay": ("rules",),  # each game's replay (outside app/)
}
PACKAGES = ("app", "rules", "hardware", "vision", "firmware_bridge")  # checked for cycles and length
LONG_MODULE = 500  # lines; a longer module says why in its docstring (see LONG_BECAUSE)
LONG_BECAUSE = "Long because"


def room_of(module: str) -> str:
    best = max((prefix for prefix in ROOMS if module == prefix or module.startswith(prefix + ".")),
               key=len)
    return ROOMS[best]


def crossing(importer: str, imported: str) -> tuple[str, str] | None:
    """The CROSSINGS entry that lets ``importer`` import ``imported``, if any."""
    for key in ((room_of(importer), imported), (importer, imported)):
        if key in CROSSINGS:
            return key
    return None


def allowed(importer: str, imported: str) -> bool:
    """Whether module ``importer`` may import module ``imported`` by the rooms' rules."""
    src, dst = room_of(importer), room_of(imported)
    if src == dst or dst in MAY_IMPORT[src]:
        return True
    return crossing(importer, imported) is not None


@dataclass(frozen=True)
class Edge:
    importer: str
    imported: str
    line: int


def module_names(package: str, root: Path = ROOT) -> dict[str, Path]:
    """Dotted name -> file for every module of ``package`` (a package is its ``__init__``)."""
    names: dict[str, Path] = {}
    for path in sorted((root / package).rglob("*.py")):
        parts = path.relative_to(root).with_suffix("").parts
        if parts[-1] == "__init__":
            parts = parts[:-1]
        names[".".join(parts)] = path
    return names


def _runtime_imports(tree: ast.AST) -> list[ast.AST]:
    """Import nodes and ``importlib.import_module("...")`` calls that can run: everything except
    what sits under ``if TYPE_CHECKING:`` (read by type checkers only, never executed)."""
    found: list[ast.AST] = []

    def visit(node: ast.AST) -> None:
        if isinstance(node, ast.If) and _is_type_checking(node.test):
            for child in node.orelse:
                visit(child)
            return
        if isinstance(node, (ast.Import, ast.ImportFrom)) or _imports_by_name(node):
            found.append(node)
        for child in ast.iter_child_nodes(node):
            visit(child)

    visit(tree)
    return found


def _is_type_checking(test: ast.AST) -> bool:
    """``if TYPE_CHECKING:`` or ``if typing.TYPE_CHECKING:`` exactly (not ``if not TYPE_CHECKING``)."""
    return (isinstance(test, ast.Name) and test.id == "TYPE_CHECKING") or (
        isinstance(test, ast.Attribute) and test.attr == "TYPE_CHECKING")


def dynamic_imports(package: str = "app", root: Path = ROOT) -> list[tuple[str, int]]:
    """(module, line) of every import whose module name is made at run time: ``import_module`` or
    ``__import__`` called with anything but a written string."""
    found: list[tuple[str, int]] = []
    for module, path in module_names(package, root).items():
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"), filename=str(path))):
            if not isinstance(node, ast.Call):
                continue
            called = ast.unparse(node.func)
            if (called.endswith("import_module") or called == "__import__") and not _imports_by_name(node):
                found.append((module, node.lineno))
    return found


def _imports_by_name(node: ast.AST) -> bool:
    """``importlib.import_module("app.x")`` with the name written out: an import like any other."""
    return (isinstance(node, ast.Call) and ast.unparse(node.func).endswith("import_module")
            and bool(node.args) and isinstance(node.args[0], ast.Constant)
            and isinstance(node.args[0].value, str))


def _targets(node: ast.AST, module: str, is_package: bool) -> list[str]:
    if isinstance(node, ast.Import):
        return [alias.name for alias in node.names]
    if isinstance(node, ast.Call):
        return [str(node.args[0].value)]  # type: ignore[attr-defined]
    assert isinstance(node, ast.ImportFrom)
    if node.level:
        base = module.split(".") if is_package else module.split(".")[:-1]
        base = base[: len(base) - (node.level - 1)]
        stem = ".".join([*base, *([node.module] if node.module else [])])
    else:
        stem = node.module or ""
    return [stem, *(f"{stem}.{alias.name}" for alias in node.names)]


def import_graph(package: str = "app", root: Path = ROOT) -> list[Edge]:
    """Every runtime import between modules of ``package``, inside functions too (a lazy import
    still runs), and the packages Python imports on the way (``import a.b.c`` runs ``a/__init__``
    and ``a/b/__init__`` first), so a cycle through a package's ``__init__`` is seen as well."""
    names = module_names(package, root)
    edges: set[Edge] = set()
    for module, path in names.items():
        tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
        for node in _runtime_imports(tree):
            for target in _targets(node, module, path.name == "__init__.py"):
                while target and target not in names and "." in target:
                    target = target.rsplit(".", 1)[0]  # "app.x.name" -> the module app.x
                if target not in names:
                    continue
                parts = target.split(".")
                for depth in range(1, len(parts) + 1):  # the parent packages run first
                    step = ".".join(parts[:depth])
                    # an ancestor package of the importer already ran before it: no edge
                    implicit = step != target and module.startswith(step + ".")
                    if step in names and step != module and not implicit:
                        edges.add(Edge(module, step, getattr(node, "lineno", 0)))
    for module, loads in DYNAMIC.items():
        if module not in names:
            continue
        for target in names:  # every module it may load by a name made at run time
            if any(target == prefix or target.startswith(prefix + ".") for prefix in loads):
                edges.add(Edge(module, target, 0))
    return sorted(edges, key=lambda e: (e.importer, e.imported, e.line))


def cycles(edges: list[Edge]) -> list[list[str]]:
    """The import cycles: strongly connected groups of more than one module (Tarjan's algorithm)."""
    graph: dict[str, set[str]] = {}
    for edge in edges:
        graph.setdefault(edge.importer, set()).add(edge.imported)
        graph.setdefault(edge.imported, set())
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found: list[list[str]] = []

    def connect(node: str) -> None:
        index[node] = low[node] = len(index)
        stack.append(node)
        on_stack.add(node)
        for other in sorted(graph[node]):
            if other not in index:
                connect(other)
                low[node] = min(low[node], low[other])
            elif other in on_stack:
                low[node] = min(low[node], index[other])
        if low[node] == index[node]:
            group = []
            while True:
                member = stack.pop()
                on_stack.discard(member)
                group.append(member)
                if member == node:
                    break
            if len(group) > 1:
                found.append(sorted(group))

    for node in sorted(graph):
        if node not in index:
            connect(node)
    return found
