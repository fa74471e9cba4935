"""Overlays for checking photo labels by eye: no reader of this project runs on the photos.

    .venv/bin/python benchmarks/label_overlays.py --heldout-round 3 --out /tmp/overlays
    .venv/bin/python benchmarks/label_overlays.py --labels FILE.textproto --photos DIR --out DIR

A wrong label in a held-out set counts as the reader's error (or hides one), and held-out photos
may not meet any reader before the one measurement, so labels are checked by eye. Per photo this
writes, into ``--out``:

- ``<set>__<photo>_full.png``: the photo with every grid point (green dot), every labelled stone
  (red circle and B, blue circle and W) and the four labelled corners (magenta, TL TR BR BL);
- ``<set>__<photo>_warp.png``: the board rectified by the labelled corners (40 px a pitch, 80 on
  a 9x9) with row and column numbers, bare on the left and with the labels on the right, so a
  corner a line in (an extra line outside 0 or the last), a shifted row or a missed stone shows;
- ``<set>__<photo>_q<i><j>.png``: the four quadrants of a 90 px-a-pitch rectified view, bare
  and labelled side by side, to look at crowded corners zoomed;
- ``corners_<set>.png``: each labelled corner, zoomed, one row per photo.

It also prints, for every two photos of a set with the same grid, the board symmetry that
keeps most stones in place and what changed under it: photos of one game should keep their
stones (a colour change is a capture and a play on the same point, or a slip in one label).
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

import cv2
import numpy as np

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from benchmarks.fetch_real_photos import cache_dir  # noqa: E402
from vision.groundtruth import GroundTruth, parse_textproto  # noqa: E402

HELDOUT = ROOT / "benchmarks" / "real_photos" / "heldout.json"
STONE_COLOURS = {"B": (0, 0, 255), "W": (255, 80, 0)}  # BGR: red for black stones, blue for white
EMPTY_COLOUR = (0, 255, 0)
CORNER_COLOUR = (255, 0, 255)
NUMBER_COLOUR = (0, 255, 255)


def grid_points(truth: GroundTruth) -> np.ndarray:
    """Pixel (x, y) of every grid point, shape (rows, cols, 2), from the four labelled corners."""
    rows, cols = truth.size
    unit = np.float32([[0, 0], [cols - 1, 0], [cols - 1, rows - 1], [0, rows - 1]])
    homography = cv2.getPerspectiveTransform(unit, np.float32(truth.corners))
    grid = np.float32([[c, r] for r in range(rows) for c in range(cols)]).reshape(-1, 1, 2)
    return cv2.perspectiveTransform(grid, homography).reshape(rows, cols, 2)


def rectify(image: np.ndarray, truth: GroundTruth, pitch: int) -> np.ndarray:
    """The board seen from above: grid point (r, c) lands on (1.5 + c, 1.5 + r) pitches."""
    rows, cols = truth.size
    margin = 1.5 * pitch
    far_x, far_y = margin + (cols - 1) * pitch, margin + (rows - 1) * pitch
    target = np.float32([[margin, margin], [far_x, margin], [far_x, far_y], [margin, far_y]])
    homography = cv2.getPerspectiveTransform(np.float32(truth.corners), target)
    size = (round(far_x + margin), round(far_y + margin))
    shrink = cv2.INTER_AREA if pitch < 60 else cv2.INTER_LINEAR
    return cv2.warpPerspective(image, homography, size, flags=shrink)


def draw_labels(view: np.ndarray, truth: GroundTruth, pitch: int, stones: bool) -> np.ndarray:
    """Grid dots, row and column numbers and (if ``stones``) the labels on a rectified view."""
    out = view.copy()
    rows, cols = truth.size
    margin = 1.5 * pitch
    scale = pitch / 90
    for r in range(rows):
        for c in range(cols):
            x, y = round(margin + c * pitch), round(margin + r * pitch)
            letter = truth.rows[r][c]
            if stones and letter in STONE_COLOURS:
                colour = STONE_COLOURS[letter]
                cv2.circle(out, (x, y), round(pitch * 0.47), colour, 1)
                cv2.putText(
                    out,
                    letter,
                    (round(x - pitch * 0.5), round(y - pitch * 0.3)),
                    cv2.FONT_HERSHEY_SIMPLEX,
                    scale,
                    colour,
                    1,
                )
            else:
                cv2.circle(out, (x, y), 1, EMPTY_COLOUR, -1)
    height, width = out.shape[:2]
    for c in range(cols):
        x = round(margin + c * pitch - pitch * 0.15)
        for y in (round(margin * 0.45), round(height - margin * 0.2)):
            cv2.putText(out, str(c), (x, y), cv2.FONT_HERSHEY_SIMPLEX, scale, NUMBER_COLOUR, 1)
    for r in range(rows):
        y = round(margin + r * pitch + pitch * 0.1)
        for x in (4, round(width - margin * 0.6)):
            cv2.putText(out, str(r), (x, y), cv2.FONT_HERSHEY_SIMPLEX, scale, NUMBER_COLOUR, 1)
    return out


def draw_photo(image: np.ndarray, truth: GroundTruth, longest: int = 1400) -> np.ndarray:
    """The photo with grid points, labelled stones and corners, scaled down to ``longest`` px."""
    out = image.copy()
    points = grid_points(truth)
    pitch = float(np.linalg.norm(points[0, 1] - points[0, 0]))
    thick = max(1, round(image.shape[1] / 1000))
    for (r, c), letter in np.ndenumerate(np.array([list(row) for row in truth.rows])):
        x, y = (round(float(v)) for v in points[r, c])
        if letter in STONE_COLOURS:
            colour = STONE_COLOURS[letter]
            cv2.circle(out, (x, y), round(pitch * 0.42), colour, thick)
            cv2.putText(
                out,
                letter,
                (round(x - pitch * 0.2), round(y + pitch * 0.2)),
                cv2.FONT_HERSHEY_SIMPLEX,
                pitch / 60,
                colour,
                thick,
            )
        else:
            cv2.circle(out, (x, y), 2 * thick, EMPTY_COLOUR, -1)
    for (x, y), name in zip(truth.corners, ("TL", "TR", "BR", "BL"), strict=True):
        cv2.drawMarker(out, (round(x), round(y)), CORNER_COLOUR, cv2.MARKER_CROSS, round(pitch), thick)
        cv2.putText(
            out,
            name,
            (round(x + 10), round(y - 10)),
            cv2.FONT_HERSHEY_SIMPLEX,
            pitch / 40,
            CORNER_COLOUR,
            2 * thick,
        )
    factor = longest / max(out.shape[:2])
    return cv2.resize(out, None, fx=factor, fy=factor, interpolation=cv2.INTER_AREA) if factor < 1 else out


def corner_crops(image: np.ndarray, truth: GroundTruth, tile: int = 260) -> np.ndarray:
    """The four labelled corners, 1.3 pitches around each, zoomed to ``tile`` px, side by side."""
    corners = np.float32(truth.corners)
    pitch = np.mean([np.linalg.norm(corners[i] - corners[(i + 1) % 4]) for i in range(4)])
    half = max(4, round(pitch / (truth.size[0] - 1) * 1.3))
    padded = cv2.copyMakeBorder(image, half, half, half, half, cv2.BORDER_CONSTANT)
    tiles = []
    for x, y in corners:
        x0, y0 = round(float(x)), round(float(y))
        crop = cv2.resize(
            padded[y0 : y0 + 2 * half, x0 : x0 + 2 * half], (tile, tile), interpolation=cv2.INTER_CUBIC
        )
        mid = tile // 2
        cv2.line(crop, (mid - 12, mid), (mid + 12, mid), CORNER_COLOUR, 1)
        cv2.line(crop, (mid, mid - 12), (mid, mid + 12), CORNER_COLOUR, 1)
        tiles.append(crop)
    return np.hstack(tiles)


def quadrants(image: np.ndarray, truth: GroundTruth, pitch: int = 90) -> dict[str, np.ndarray]:
    """Bare and labelled halves of a zoomed rectified view, per quadrant (a 9x9 is one view)."""
    view = rectify(image, truth, pitch)
    bare, marked = draw_labels(view, truth, pitch, False), draw_labels(view, truth, pitch, True)
    rows, cols = truth.size
    margin = round(1.5 * pitch)
    if rows <= 9:
        return {"q": np.hstack([bare, marked])}
    half_r, half_c = rows // 2, cols // 2
    out = {}
    for i, (r0, r1) in enumerate(((0, half_r), (half_r - 1, rows - 1))):
        for j, (c0, c1) in enumerate(((0, half_c), (half_c - 1, cols - 1))):
            ys, ye = max(0, margin + (r0 - 1) * pitch), margin + (r1 + 1) * pitch
            xs, xe = max(0, margin + (c0 - 1) * pitch), margin + (c1 + 1) * pitch
            out[f"q{i}{j}"] = np.hstack([bare[ys:ye, xs:xe], marked[ys:ye, xs:xe]])
    return out


@dataclass(frozen=True)
class Match:
    """How a second photo's labels relate to a first's under the best board symmetry."""

    turns: int  # quarter turns (numpy rot90) applied to the first label
    mirrored: bool
    kept: int
    recoloured: list[tuple[int, int]]  # points (in the second label) whose stone changed colour
    removed: list[tuple[int, int]]
    added: list[tuple[int, int]]


def best_match(first: Sequence[str], second: Sequence[str]) -> Match:
    """The symmetry of the first label that keeps most of its stones where the second has them."""
    a = np.array([list(row) for row in first])
    b = np.array([list(row) for row in second])
    best: Match | None = None
    for turns in range(4):
        for mirrored in (False, True):
            moved = np.rot90(a, turns)
            moved = np.fliplr(moved) if mirrored else moved
            if moved.shape != b.shape:
                continue
            stone_a, stone_b = moved != ".", b != "."

            def where(mask: np.ndarray) -> list[tuple[int, int]]:
                return [(int(r), int(c)) for r, c in zip(*np.nonzero(mask), strict=True)]

            match = Match(
                turns,
                mirrored,
                int((stone_a & (moved == b)).sum()),
                where(stone_a & stone_b & (moved != b)),
                where(stone_a & ~stone_b),
                where(~stone_a & stone_b),
            )
            if best is None or match.kept > best.kept:
                best = match
    if best is None:
        raise ValueError("the two labels have grids of different shapes")
    return best


def write_set(name: str, truths: list[GroundTruth], photos: Path, out: Path) -> None:
    """All overlays of one set, and one line per photo; a missing photo is named and skipped."""
    rows = []
    for truth in truths:
        path = photos / truth.file_name
        image = cv2.imread(str(path))
        if image is None:
            print(f"{name}: {path}: no such photo or not an image, skipped")
            continue
        stem = f"{name}__{Path(truth.file_name).stem}"
        pitch = 40 if truth.size[0] > 9 else 80
        view = rectify(image, truth, pitch)
        cv2.imwrite(str(out / f"{stem}_full.png"), draw_photo(image, truth))
        cv2.imwrite(
            str(out / f"{stem}_warp.png"),
            np.hstack([draw_labels(view, truth, pitch, False), draw_labels(view, truth, pitch, True)]),
        )
        for key, picture in quadrants(image, truth).items():
            if key != "q":
                cv2.imwrite(str(out / f"{stem}_{key}.png"), picture)
        crops = corner_crops(image, truth)
        cv2.putText(crops, truth.file_name, (5, 20), cv2.FONT_HERSHEY_SIMPLEX, 0.6, NUMBER_COLOUR, 2)
        rows.append(crops)
        black = sum(row.count("B") for row in truth.rows)
        white = sum(row.count("W") for row in truth.rows)
        print(f"{name}: {truth.file_name}: {truth.size[0]}x{truth.size[1]}, {black} B, {white} W")
    if rows:
        cv2.imwrite(str(out / f"corners_{name}.png"), np.vstack(rows))
    for i, first in enumerate(truths):
        stones = sum(ch != "." for row in first.rows for ch in row)
        for second in truths[i + 1 :]:
            if first.size != second.size or not stones:
                continue
            m = best_match(first.rows, second.rows)
            pair = f"{name}: {first.file_name} -> {second.file_name}"
            if 4 * m.kept < 3 * stones:  # another game: nothing to compare
                print(f"{pair}: other positions (at best {m.kept} of {stones} stones in place)")
                continue
            turned = f"{m.turns} quarter turns{', mirrored' if m.mirrored else ''}"
            print(
                f"{pair} ({turned}): {m.kept} of {stones} stones kept, recoloured {m.recoloured},"
                f" removed {m.removed}, added {len(m.added)}"
            )


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--heldout-round", type=int, help="every held-out set labelled in this round")
    parser.add_argument("--labels", type=Path, help="one textproto of labels")
    parser.add_argument("--photos", type=Path, help="the folder of that textproto's photos")
    parser.add_argument("--out", type=Path, required=True, help="folder for the overlays")
    args = parser.parse_args(argv)
    args.out.mkdir(parents=True, exist_ok=True)
    if args.labels is not None:
        if args.photos is None:
            parser.error("--labels needs --photos")
        write_set(
            args.labels.stem, parse_textproto(args.labels.read_text(encoding="utf-8")), args.photos, args.out
        )
        return 0
    if args.heldout_round is None:
        parser.error("give --heldout-round or --labels")
    for entry in json.loads(HELDOUT.read_text(encoding="utf-8"))["sets"]:
        if entry.get("round") == args.heldout_round:
            labels = HELDOUT.parent / entry["labels"]
            truths = parse_textproto(labels.read_text(encoding="utf-8"))
            write_set(entry["name"], truths, cache_dir() / "heldout" / entry["name"], args.out)
    return 0


if __name__ == "__main__":
    sys.exit(main())
