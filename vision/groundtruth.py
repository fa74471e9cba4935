"""Photos with known contents: the gobonline ``test_images.textproto`` format, and scoring a read.

The real-photo benchmark and its test read ``../shared/datasets/gobonline/``: phone photos of a
Go board, each with the four outer grid points in pixels and the stones per row. The file is
protobuf text format; its shape is simple and fixed, so a small parser here avoids a protobuf
dependency. Errors name the line, so a damaged file is easy to find.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass

from vision.profile import UNSURE

Point = tuple[float, float]


@dataclass(frozen=True)
class GroundTruth:
    file_name: str
    corners: tuple[Point, Point, Point, Point]  # TL, TR, BR, BL grid points, (x, y) pixels
    rows: list[str]  # one string per grid row: ".", "B", "W"

    @property
    def letters(self) -> list[str]:
        return [ch for row in self.rows for ch in row]

    @property
    def size(self) -> tuple[int, int]:
        return len(self.rows), len(self.rows[0]) if self.rows else 0


class GroundTruthError(ValueError):
    pass


_TOKEN = re.compile(
    r'\s*(?:(?P<str>"(?:[^"\\]|\\.)*")|(?P<word>[A-Za-z_][A-Za-z0-9_]*)|(?P<num>-?\d+)|(?P<sym>[{}\[\]:,]))'
)


def _tokens(text: str) -> list[tuple[str, str, int]]:
    out: list[tuple[str, str, int]] = []
    pos, line = 0, 1
    while pos < len(text):
        if text[pos] in " \t\r\n":
            line += text[pos] == "\n"
            pos += 1
            continue
        if text[pos] == "#":
            end = text.find("\n", pos)
            pos = len(text) if end < 0 else end
            continue
        m = _TOKEN.match(text, pos)
        if m is None or m.lastgroup is None:
            raise GroundTruthError(f"line {line}: cannot read {text[pos : pos + 20]!r}")
        out.append((m.lastgroup, m.group(m.lastgroup), line))
        pos = m.end()
    return out


def _parse_message(tokens: list[tuple[str, str, int]], i: int) -> tuple[dict[str, list[object]], int]:
    """Fields up to the closing brace; every field maps to a list of values (repeated or not)."""
    fields: dict[str, list[object]] = {}
    while i < len(tokens) and tokens[i][1] != "}":
        kind, name, line = tokens[i]
        if kind != "word":
            raise GroundTruthError(f"line {line}: expected a field name, got {name!r}")
        i += 1
        if tokens[i][1] == ":":
            i += 1
        value: object
        if tokens[i][1] == "{":
            value, i = _parse_message(tokens, i + 1)
            i += 1  # the closing brace
            fields.setdefault(name, []).append(value)
        elif tokens[i][1] == "[":
            i += 1
            while tokens[i][1] != "]":
                if tokens[i][1] != ",":
                    fields.setdefault(name, []).append(_scalar(tokens[i]))
                i += 1
            i += 1
        else:
            fields.setdefault(name, []).append(_scalar(tokens[i]))
            i += 1
        if i < len(tokens) and tokens[i][1] in (",", ";"):
            i += 1
    return fields, i


def _scalar(token: tuple[str, str, int]) -> object:
    kind, text, line = token
    if kind == "str":
        return text[1:-1]
    if kind == "num":
        return int(text)
    raise GroundTruthError(f"line {line}: unexpected {text!r}")


def parse_textproto(text: str) -> list[GroundTruth]:
    tokens = _tokens(text)
    root, end = _parse_message(tokens, 0)
    if end != len(tokens):
        raise GroundTruthError(f"line {tokens[end][2]}: unexpected closing brace")
    result = []
    for n, message in enumerate(root.get("test_images", [])):
        if not isinstance(message, dict):
            raise GroundTruthError(f"test_images[{n}]: expected a message")
        try:
            file_name = str(message["file_name"][0])
            rect = message["goban_rectangle"][0]
            corners = []
            for key in ("top_left", "top_right", "bottom_right", "bottom_left"):
                point = rect[key][0]
                corners.append((float(point["column"][0]), float(point["row"][0])))
            rows = ["".join(str(r).split()) for r in message["stringified_stones"]]
        except (KeyError, IndexError, TypeError) as exc:
            raise GroundTruthError(f"test_images[{n}]: missing field {exc}") from None
        if not rows or any(len(r) != len(rows[0]) for r in rows):
            raise GroundTruthError(f"test_images[{n}] ({file_name}): rows of different lengths")
        result.append(GroundTruth(file_name, (corners[0], corners[1], corners[2], corners[3]), rows))
    return result


@dataclass(frozen=True)
class Score:
    total: int
    correct: int
    wrong: list[tuple[int, int, str, str]]  # (row, col, read, truth)
    unsure: list[tuple[int, int, str]]  # (row, col, truth)

    @property
    def share(self) -> float:
        return self.correct / self.total if self.total else 0.0


def score(read: Sequence[str], truth: Sequence[str], cols: int) -> Score:
    wrong, unsure = [], []
    correct = 0
    for i, (got, want) in enumerate(zip(read, truth, strict=True)):
        if got == want:
            correct += 1
        elif got == UNSURE:
            unsure.append((i // cols, i % cols, want))
        else:
            wrong.append((i // cols, i % cols, got, want))
    return Score(len(truth), correct, wrong, unsure)
