"""The wiring map: which sensor input is which hole.

A board built by hand has its wires in any order, so the link between an *input* (bit ``i`` of a
shift-register chain, or cell ``row_line * columns + column_line`` of a matrix) and a *hole* (the
physical position ``row * 10 + col`` as the players see the board) is data, not code. It is
learned by the "teach the board" step and saved as JSON::

    {"format": "table99-wiring", "version": 1, "inputs": 104,
     "holes": [12, 13, null, ...]}          # holes[h] = input of hole h, or null if unknown

Why hole -> input rather than input -> hole: the teach step fills it hole by hole, and a reader
sees at once which holes are still unknown (``null``). The map is checked on load: an input used
by two holes, or one out of range, is an error naming the hole, so a bad file never silently
swaps pegs.

This module only uses the standard library: the app, the teach logic and the tests all use it.
"""

from __future__ import annotations

import json
import os
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path

from hardware.board_source import HOLES

FORMAT = "table99-wiring"
VERSION = 1


class WiringMapError(ValueError):
    """A wiring map that cannot be used, saying where (file, hole) and why."""

    def __init__(self, where: str, reason: str) -> None:
        super().__init__(f"{where}: {reason}")
        self.where = where
        self.reason = reason


def hole_name(hole: int, columns: int = 10) -> str:
    """A hole as players find it: 'row 3, column 7' (counted from 1, top-left)."""
    row, col = divmod(hole, columns)
    return f"row {row + 1}, column {col + 1}"


@dataclass(frozen=True)
class WiringMap:
    """Hole -> input for every hole whose input is known; ``inputs`` is how many inputs exist."""

    inputs: int
    hole_inputs: tuple[int | None, ...]

    def __post_init__(self) -> None:
        seen: dict[int, int] = {}
        for hole, entry in enumerate(self.hole_inputs):
            if entry is None:
                continue
            if not 0 <= entry < self.inputs:
                raise WiringMapError(f"hole {hole}", f"input {entry} out of range 0..{self.inputs - 1}")
            if entry in seen:
                raise WiringMapError(f"hole {hole}", f"input {entry} is already hole {seen[entry]}")
            seen[entry] = hole

    # -- construction ---------------------------------------------------------------------
    @classmethod
    def identity(cls, inputs: int, holes: int = HOLES) -> WiringMap:
        """Input ``h`` is hole ``h``: a board wired in order (the default without a map file)."""
        if inputs < holes:
            raise WiringMapError("wiring", f"{inputs} inputs cannot cover {holes} holes")
        return cls(inputs, tuple(range(holes)))

    @classmethod
    def empty(cls, inputs: int, holes: int = HOLES) -> WiringMap:
        return cls(inputs, (None,) * holes)

    @classmethod
    def from_mapping(cls, inputs: int, hole_inputs: Mapping[int, int], holes: int = HOLES) -> WiringMap:
        return cls(inputs, tuple(hole_inputs.get(h) for h in range(holes)))

    def with_hole(self, hole: int, entry: int | None) -> WiringMap:
        """A copy where ``hole`` is ``entry``; an input taken by another hole is moved here."""
        entries = [None if e == entry and entry is not None else e for e in self.hole_inputs]
        entries[hole] = entry
        return WiringMap(self.inputs, tuple(entries))

    # -- use ------------------------------------------------------------------------------
    @property
    def holes(self) -> int:
        return len(self.hole_inputs)

    def known_holes(self) -> frozenset[int]:
        return frozenset(h for h, e in enumerate(self.hole_inputs) if e is not None)

    def unknown_holes(self) -> tuple[int, ...]:
        return tuple(h for h, e in enumerate(self.hole_inputs) if e is None)

    def input_of(self, hole: int) -> int | None:
        return self.hole_inputs[hole]

    def hole_of(self, entry: int) -> int | None:
        return self._reverse().get(entry)

    def _reverse(self) -> dict[int, int]:
        cached: dict[int, int] | None = self.__dict__.get("_reverse_cache")
        if cached is None:
            cached = {e: h for h, e in enumerate(self.hole_inputs) if e is not None}
            object.__setattr__(self, "_reverse_cache", cached)
        return cached

    def holes_of(self, active_inputs: Iterable[int]) -> frozenset[int]:
        """The holes of the active inputs; inputs that are no hole (spares) are dropped."""
        reverse = self._reverse()
        return frozenset(reverse[i] for i in active_inputs if i in reverse)

    def complete(self) -> bool:
        return all(e is not None for e in self.hole_inputs)

    # -- JSON -----------------------------------------------------------------------------
    def to_json(self) -> dict[str, object]:
        return {"format": FORMAT, "version": VERSION, "inputs": self.inputs, "holes": list(self.hole_inputs)}

    @classmethod
    def from_json(cls, data: object, where: str = "wiring map") -> WiringMap:
        if not isinstance(data, Mapping):
            raise WiringMapError(where, "expected a JSON object")
        if data.get("format") != FORMAT:
            raise WiringMapError(where, f"format must be {FORMAT!r}, got {data.get('format')!r}")
        if data.get("version") != VERSION:
            version = data.get("version")
            raise WiringMapError(where, f"unsupported version {version!r} (this app reads {VERSION})")
        inputs = data.get("inputs")
        if not isinstance(inputs, int) or isinstance(inputs, bool) or inputs < 1:
            raise WiringMapError(f"{where} inputs", f"expected a positive integer, got {inputs!r}")
        holes = data.get("holes")
        if not isinstance(holes, Sequence) or isinstance(holes, str) or len(holes) != HOLES:
            raise WiringMapError(f"{where} holes", f"expected a list of {HOLES} entries (input or null)")
        entries: list[int | None] = []
        for hole, entry in enumerate(holes):
            if entry is not None and (not isinstance(entry, int) or isinstance(entry, bool)):
                raise WiringMapError(f"{where} holes[{hole}]", f"expected an input or null, got {entry!r}")
            entries.append(entry)
        try:
            return cls(inputs, tuple(entries))
        except WiringMapError as exc:
            raise WiringMapError(f"{where} {exc.where}", exc.reason) from None

    @classmethod
    def load(cls, path: Path) -> WiringMap:
        try:
            data = json.loads(path.read_text(encoding="utf-8"))
        except OSError as exc:
            raise WiringMapError(str(path), f"cannot read: {exc.strerror or exc}") from exc
        except (UnicodeDecodeError, json.JSONDecodeError) as exc:
            raise WiringMapError(str(path), f"not valid JSON: {exc}") from exc
        return cls.from_json(data, str(path))

    def save(self, path: Path) -> None:
        """Write atomically (temp file + rename): a crash mid-save keeps the old map."""
        path.parent.mkdir(parents=True, exist_ok=True)
        tmp = path.with_name(path.name + ".tmp")
        tmp.write_text(json.dumps(self.to_json(), indent=1) + "\n", encoding="utf-8")
        os.replace(tmp, path)
