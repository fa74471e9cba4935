"""The board profile: where the holes are relative to the markers, and what the colours look like.

A profile is one JSON file, written by calibration and read by every reader. It holds:

- the grid (``rows`` x ``cols``) and the four corner holes in *board-plane* millimetres, the same
  plane the marker stickers are placed in, so the holes follow the markers when the board moves;
- the markers (ArUco ``DICT_4X4_100`` ids, centres and side length in the same millimetres);
- the colour models learnt under the room's light: ``empty`` and one per player colour, each a
  mean and spread of the light-normalised features (see :mod:`vision.classify`).

Why millimetres in the board plane and not pixels: the camera may move or the board be nudged;
only the relation of holes to stickers is a property of the board itself.

A board without stickers (a Go board) has nothing to follow, so its profile keeps the four outer
grid points *in the camera's picture* instead (``picture_corners``, pixels, TL TR BR BL): set
once from four taps (refined onto the printed lines), they hold while the camera stays fixed.

This module uses only the standard library, so the app can read and check a profile anywhere.
"""

from __future__ import annotations

import json
import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

FORMAT = "table99-vision-profile"
VERSION = 1
CORNERS = ("top_left", "top_right", "bottom_right", "bottom_left")
EMPTY = "."
UNSURE = "?"

Point = tuple[float, float]


class ProfileError(ValueError):
    """A profile that cannot be used, saying which file and which field is wrong."""

    def __init__(self, where: str, reason: str) -> None:
        super().__init__(f"{where}: {reason}")
        self.where = where
        self.reason = reason


@dataclass(frozen=True)
class ColourModel:
    """How one class (empty, or a player's colour) looks: mean and spread of its features."""

    letter: str
    name: str
    mean: tuple[float, ...]
    spread: tuple[float, ...]
    samples: int = 0

    def to_json(self) -> dict[str, Any]:
        return {
            "name": self.name,
            "mean": list(self.mean),
            "spread": list(self.spread),
            "samples": self.samples,
        }


@dataclass(frozen=True)
class Marker:
    """One sticker: its ArUco id, centre and side length in board-plane millimetres, and how far
    it is turned (degrees, clockwise as seen from above; 0 = upright, as the sheet asks)."""

    id: int
    centre: Point
    size: float
    angle: float = 0.0

    def corners(self) -> list[Point]:
        """The sticker's corners in ArUco order (TL, TR, BR, BL)."""
        x, y = self.centre
        h = self.size / 2
        a = math.radians(self.angle)
        cos, sin = math.cos(a), math.sin(a)
        return [
            (x + dx * cos - dy * sin, y + dx * sin + dy * cos)
            for dx, dy in ((-h, -h), (h, -h), (h, h), (-h, h))
        ]


@dataclass(frozen=True)
class NetHead:
    """A change of the point net's last layer fitted on the calibration picture
    (``vision.point_net.fit_head``), for the model whose ``fingerprint`` it names (another model
    ignores it): ``weights`` (3 rows of one number per hidden unit) and ``bias`` (3)."""

    model: str
    weights: tuple[tuple[float, ...], ...]
    bias: tuple[float, float, float]

    def to_json(self) -> dict[str, Any]:
        return {
            "model": self.model,
            "weights": [[round(v, 5) for v in row] for row in self.weights],
            "bias": [round(v, 5) for v in self.bias],
        }


@dataclass(frozen=True)
class BoardProfile:
    rows: int = 10
    cols: int = 10
    holes: tuple[Point, Point, Point, Point] = ((0.0, 0.0), (225.0, 0.0), (225.0, 225.0), (0.0, 225.0))
    markers: tuple[Marker, ...] = ()
    dictionary: str = "DICT_4X4_100"
    sample_radius: float = 0.28  # of the hole pitch: the disc whose median colour is the hole's
    # where a peg's head is seen: at grid point p + k*p - (mx, my) (a tall peg leans away from the
    # camera); (k, mx, my), measured by the guided calibration, (0, 0, 0) = straight above the hole
    head_shift: tuple[float, float, float] = (0.0, 0.0, 0.0)
    peg_size: float = 0.0  # measured head diameter in pitches (0 = not measured); for the record
    # the lamp's colour (BGR, mean 1) on the stickers' white paper at calibration: a reflection of
    # the lamp on the varnish has it (vision.classify.glare_features); (1, 1, 1) = white light
    lamp: tuple[float, float, float] = (1.0, 1.0, 1.0)
    empty_holes: tuple[tuple[float, ...], ...] = ()  # each hole's features on the empty board
    # the board's colour at calibration (BGR grey levels, the median of every gap of the empty
    # board's picture): how a lamp's colour changed since (vision.classify.dimmed_channels)
    board: tuple[float, float, float] | None = None
    # numbers per hole: 3 = median colour (grids read by corners, older profiles), 9 = lower
    # quartile, median, upper quartile, 18 = those for the head's disc and the hole's own disc
    features: int = 3
    empty: ColourModel | None = None
    colours: tuple[ColourModel, ...] = ()
    extra: Mapping[str, Any] = field(default_factory=dict)
    # a board without stickers: the outer grid points in the fixed camera's picture, pixels
    picture_corners: tuple[Point, Point, Point, Point] | None = None
    # read by the point net (vision/point_net.py): the shift of its piece logit fitted on the
    # calibration's own picture; None = the rule path (profiles from before the net, peg board)
    net_bias: float | None = None
    # ... and its own last layer, used while the light is the calibration's (NetHead)
    net_head: NetHead | None = None

    @property
    def hole_count(self) -> int:
        return self.rows * self.cols

    @property
    def calibrated(self) -> bool:
        return self.empty is not None and bool(self.colours)

    def letters(self) -> dict[str, str]:
        return {c.letter: c.name for c in self.colours}

    def with_models(self, empty: ColourModel | None, colours: Sequence[ColourModel]) -> BoardProfile:
        return replace(
            self,
            empty=empty,
            colours=tuple(colours),
        )

    def with_holes(self, corners: Sequence[Point]) -> BoardProfile:
        if len(corners) != 4:
            raise ProfileError("holes", f"need 4 corner holes, got {len(corners)}")
        pts = tuple((float(x), float(y)) for x, y in corners)
        return replace(self, holes=(pts[0], pts[1], pts[2], pts[3]))

    def _own_json(self) -> list[list[float]]:
        return [[round(v, 4) for v in hole] for hole in self.empty_holes]

    # -- JSON ------------------------------------------------------------------------------
    def to_json(self) -> dict[str, Any]:
        data: dict[str, Any] = {
            "format": FORMAT,
            "version": VERSION,
            "rows": self.rows,
            "cols": self.cols,
            "holes": {name: list(p) for name, p in zip(CORNERS, self.holes, strict=True)},
            "markers": {
                "dictionary": self.dictionary,
                "stickers": [
                    {
                        "id": m.id,
                        "centre": list(m.centre),
                        "size": m.size,
                        **({"angle": m.angle} if m.angle else {}),
                    }
                    for m in self.markers
                ],
            },
            "sample_radius": self.sample_radius,
            **({"head_shift": list(self.head_shift)} if any(self.head_shift) else {}),
            **({"peg_size": self.peg_size} if self.peg_size else {}),
            **({"lamp": list(self.lamp)} if self.lamp != (1.0, 1.0, 1.0) else {}),
            **({"features": self.features} if self.features != 3 else {}),
            **({"board": [round(v, 2) for v in self.board]} if self.board is not None else {}),
            **({"empty_holes": self._own_json()} if self.empty_holes else {}),
            "colours": {c.letter: c.to_json() for c in self.colours},
        }
        if self.net_bias is not None:
            data["point_net"] = {"bias": round(self.net_bias, 4)}
            if self.net_head is not None:
                data["point_net"]["head"] = self.net_head.to_json()
        if self.picture_corners is not None:
            data["picture_corners"] = {
                name: list(p) for name, p in zip(CORNERS, self.picture_corners, strict=True)
            }
        if self.empty is not None:
            data["empty"] = self.empty.to_json()
        return data

    def save(self, path: str | Path) -> None:
        """Write atomically: a crash while saving never leaves half a profile."""
        path = Path(path)
        tmp = path.with_name(path.name + ".tmp")
        tmp.write_text(json.dumps(self.to_json(), indent=2) + "\n", encoding="utf-8")
        tmp.replace(path)


def default_markers(holes: Sequence[Point], size: float = 40.0, gap: float = 35.0) -> tuple[Marker, ...]:
    """Stickers diagonally outside the four corner holes: ids 0..3 = TL, TR, BR, BL."""
    (x0, y0), (x1, _), (_, y1) = holes[0], holes[1], holes[2]
    off = gap + size / 2
    centres = [(x0 - off, y0 - off), (x1 + off, y0 - off), (x1 + off, y1 + off), (x0 - off, y1 + off)]
    return tuple(Marker(i, c, size) for i, c in enumerate(centres))


def default_profile(rows: int = 10, cols: int = 10, pitch: float = 25.0) -> BoardProfile:
    """A sensible start for a 10x10 peg board: 25 mm between holes, stickers at the corners."""
    if rows < 2 or cols < 2:
        raise ProfileError("grid", f"need at least 2x2 holes, got {rows}x{cols}")
    w, h = (cols - 1) * pitch, (rows - 1) * pitch
    holes = ((0.0, 0.0), (w, 0.0), (w, h), (0.0, h))
    return BoardProfile(rows=rows, cols=cols, holes=holes, markers=default_markers(holes))


def parse_grid(text: str) -> tuple[int, int]:
    """``"19x19"`` -> (rows, cols)."""
    try:
        rows, cols = (int(p) for p in text.lower().split("x"))
    except ValueError:
        raise ProfileError("--grid", f"expected ROWSxCOLS like 10x10, got {text!r}") from None
    if not (2 <= rows <= 60 and 2 <= cols <= 60):
        raise ProfileError("--grid", f"rows and columns must be 2..60, got {text!r}")
    return rows, cols


# -- reading a profile -------------------------------------------------------------------------
def _net_head(where: str, value: Any) -> NetHead:
    """A profile's ``point_net.head``: a model fingerprint, 3 rows of weights of one length (at
    most 1024), 3 biases, every number finite and within +-100."""
    if not isinstance(value, dict) or not isinstance(value.get("model"), str):
        raise ProfileError(where, 'expected {"model": text, "weights": [[...] x 3], "bias": [3 numbers]}')
    rows = value.get("weights")
    if not isinstance(rows, list) or len(rows) != 3 or not all(isinstance(r, list) for r in rows):
        raise ProfileError(f"{where}.weights", "expected 3 lists of numbers")
    if len({len(r) for r in rows}) != 1 or not 1 <= len(rows[0]) <= 1024:
        raise ProfileError(f"{where}.weights", "expected 3 lists of the same length (1-1024)")
    bias = value.get("bias")
    if not isinstance(bias, list) or len(bias) != 3:
        raise ProfileError(f"{where}.bias", "expected 3 numbers")
    weights = tuple(tuple(_number(f"{where}.weights[{i}]", v) for v in row) for i, row in enumerate(rows))
    b = tuple(_number(f"{where}.bias", v) for v in bias)
    if any(not math.isfinite(v) or abs(v) > 100 for row in (*weights, b) for v in row):
        raise ProfileError(where, "a number not finite or beyond +-100")
    return NetHead(value["model"], weights, (b[0], b[1], b[2]))


def _number(where: str, value: Any) -> float:
    if isinstance(value, bool) or not isinstance(value, int | float):
        raise ProfileError(where, f"expected a number, got {value!r}")
    try:
        return float(value)
    except OverflowError:  # an integer of hundreds of digits, hand-edited: no float holds it
        raise ProfileError(where, "a number too large") from None


def _point(where: str, value: Any) -> Point:
    if not isinstance(value, list) or len(value) != 2:
        raise ProfileError(where, f"expected [x, y], got {value!r}")
    return (_number(where, value[0]), _number(where, value[1]))


def _model(where: str, letter: str, value: Any) -> ColourModel:
    if not isinstance(value, dict):
        raise ProfileError(where, f"expected an object, got {value!r}")
    name = value.get("name", letter)
    if not isinstance(name, str) or not name:
        raise ProfileError(f"{where}.name", f"expected a colour name, got {name!r}")
    mean, spread = value.get("mean"), value.get("spread")
    if not isinstance(mean, list) or not isinstance(spread, list) or len(mean) != len(spread) or not mean:
        raise ProfileError(where, "mean and spread must be lists of the same length")
    means = tuple(_number(f"{where}.mean", v) for v in mean)
    spreads = tuple(_number(f"{where}.spread", v) for v in spread)
    if any(s <= 0 for s in spreads):
        raise ProfileError(f"{where}.spread", "every spread must be positive")
    samples = value.get("samples", 0)
    return ColourModel(letter, name, means, spreads, int(samples) if isinstance(samples, int) else 0)


def _bad(where: str) -> tuple[float, ...]:
    raise ProfileError(where, "expected a list of numbers")


def profile_from_json(data: Any, where: str = "profile") -> BoardProfile:
    if not isinstance(data, dict):
        raise ProfileError(where, "expected a JSON object")
    if data.get("format") != FORMAT:
        raise ProfileError(f"{where} format", f"expected {FORMAT!r}, got {data.get('format')!r}")
    if data.get("version") != VERSION:
        raise ProfileError(f"{where} version", f"expected {VERSION}, got {data.get('version')!r}")
    rows, cols = data.get("rows"), data.get("cols")
    if not isinstance(rows, int) or not isinstance(cols, int) or not (2 <= rows <= 60 and 2 <= cols <= 60):
        raise ProfileError(f"{where} rows/cols", f"expected integers 2..60, got {rows!r}x{cols!r}")
    holes_json = data.get("holes")
    if not isinstance(holes_json, dict):
        raise ProfileError(f"{where} holes", "expected an object with the four corner holes")
    holes = [_point(f"{where} holes.{name}", holes_json.get(name)) for name in CORNERS]
    markers_json = data.get("markers", {})
    if not isinstance(markers_json, dict):
        raise ProfileError(f"{where} markers", "expected an object")
    dictionary = markers_json.get("dictionary", "DICT_4X4_100")
    if not isinstance(dictionary, str):
        raise ProfileError(f"{where} markers.dictionary", f"expected a name, got {dictionary!r}")
    markers = []
    stickers = markers_json.get("stickers", [])
    if not isinstance(stickers, list):
        raise ProfileError(f"{where} markers.stickers", "expected a list")
    for i, sticker in enumerate(stickers):
        w = f"{where} markers.stickers[{i}]"
        if not isinstance(sticker, dict) or not isinstance(sticker.get("id"), int):
            raise ProfileError(w, f"expected {{id, centre, size}}, got {sticker!r}")
        size = _number(f"{w}.size", sticker.get("size"))
        if size <= 0:
            raise ProfileError(f"{w}.size", "must be positive")
        angle = _number(f"{w}.angle", sticker.get("angle", 0.0))
        markers.append(Marker(sticker["id"], _point(f"{w}.centre", sticker.get("centre")), size, angle))
    radius = _number(f"{where} sample_radius", data.get("sample_radius", 0.28))
    if not 0.05 <= radius <= 0.45:
        raise ProfileError(f"{where} sample_radius", f"must be 0.05..0.45 of the pitch, got {radius}")
    shift_json = data.get("head_shift", [0.0, 0.0, 0.0])
    if not isinstance(shift_json, list) or len(shift_json) != 3:
        raise ProfileError(f"{where} head_shift", f"expected [k, mx, my], got {shift_json!r}")
    shift = tuple(_number(f"{where} head_shift", v) for v in shift_json)
    if abs(shift[0]) > 0.5 or abs(shift[1]) > 30 or abs(shift[2]) > 30:
        raise ProfileError(f"{where} head_shift", f"out of range: {list(shift)}")
    peg_size = _number(f"{where} peg_size", data.get("peg_size", 0.0))
    features = data.get("features", 3)
    if features not in (3, 9, 18) or isinstance(features, bool):
        raise ProfileError(f"{where} features", f"must be 3, 9 or 18, got {features!r}")
    if not 0.0 <= peg_size <= 1.5:
        raise ProfileError(f"{where} peg_size", f"must be 0..1.5 pitches, got {peg_size}")
    lamp_json = data.get("lamp", [1.0, 1.0, 1.0])
    if not isinstance(lamp_json, list) or len(lamp_json) != 3:
        raise ProfileError(f"{where} lamp", f"expected [b, g, r], got {lamp_json!r}")
    lamp = tuple(_number(f"{where} lamp", v) for v in lamp_json)
    if not all(0.05 <= v <= 3.0 for v in lamp):
        raise ProfileError(f"{where} lamp", f"each of b, g, r must be 0.05..3, got {list(lamp)}")
    board_json = data.get("board")
    if board_json is not None and (not isinstance(board_json, list) or len(board_json) != 3):
        raise ProfileError(f"{where} board", f"expected [b, g, r], got {board_json!r}")
    board = tuple(_number(f"{where} board", v) for v in board_json) if board_json is not None else None
    if board is not None and not all(0.0 <= v <= 255.0 for v in board):
        raise ProfileError(f"{where} board", f"each of b, g, r must be 0..255 grey levels, got {list(board)}")
    own_json = data.get("empty_holes", [])
    if not isinstance(own_json, list) or (own_json and len(own_json) != rows * cols):
        raise ProfileError(f"{where} empty_holes", f"expected one list of numbers per hole ({rows * cols})")
    own = tuple(
        tuple(_number(f"{where} empty_holes[{i}]", v) for v in h)
        if isinstance(h, list)
        else _bad(f"{where} empty_holes[{i}]")
        for i, h in enumerate(own_json)
    )
    colours_json = data.get("colours", {})
    if not isinstance(colours_json, dict):
        raise ProfileError(f"{where} colours", "expected an object of letter -> model")
    colours = []
    for letter, model in colours_json.items():
        if len(letter) != 1 or letter in (EMPTY, UNSURE) or letter.isspace():
            raise ProfileError(f"{where} colours.{letter}", "a colour's letter is one character, not . or ?")
        colours.append(_model(f"{where} colours.{letter}", letter, model))
    empty = _model(f"{where} empty", EMPTY, data["empty"]) if "empty" in data else None
    picture = data.get("picture_corners")
    if picture is not None and not isinstance(picture, dict):
        raise ProfileError(f"{where} picture_corners", "expected an object with the four corner points")
    corners = [_point(f"{where} picture_corners.{n}", picture.get(n)) for n in CORNERS] if picture else None
    net_json = data.get("point_net")
    net_bias = None
    net_head = None
    if net_json is not None:
        if not isinstance(net_json, dict):
            raise ProfileError(f"{where} point_net", f'expected {{"bias": number}}, got {net_json!r}')
        net_bias = _number(f"{where} point_net.bias", net_json.get("bias"))
        if not -10.0 <= net_bias <= 10.0:
            raise ProfileError(f"{where} point_net.bias", f"must be -10..10, got {net_bias}")
        if net_json.get("head") is not None:
            net_head = _net_head(f"{where} point_net.head", net_json["head"])
    return BoardProfile(
        rows=rows,
        cols=cols,
        holes=(holes[0], holes[1], holes[2], holes[3]),
        markers=tuple(markers),
        dictionary=dictionary,
        sample_radius=radius,
        head_shift=(shift[0], shift[1], shift[2]),
        peg_size=peg_size,
        lamp=(lamp[0], lamp[1], lamp[2]),
        board=(board[0], board[1], board[2]) if board is not None else None,
        empty_holes=own,
        features=features,
        empty=empty,
        colours=tuple(colours),
        picture_corners=(corners[0], corners[1], corners[2], corners[3]) if corners else None,
        net_bias=net_bias,
        net_head=net_head,
    )


def load_profile(path: str | Path) -> BoardProfile:
    path = Path(path)
    try:
        text = path.read_text(encoding="utf-8")
    except OSError as exc:
        raise ProfileError(str(path), f"cannot read: {exc.strerror or exc}") from exc
    try:
        data = json.loads(text)
    except json.JSONDecodeError as exc:
        raise ProfileError(f"{path} line {exc.lineno}", f"not valid JSON: {exc.msg}") from exc
    return profile_from_json(data, str(path))
