"""A board's grid found by itself (``vision/grid_find.py``): on drawn boards and on the real photos.

    .venv/bin/python benchmarks/vision_grid_find.py [--renders 40] [--seed 70000] [--no-real] [--no-read]

Drawn boards (``benchmarks/go_render.py``, 1280x960, seeds ``--seed`` onward, never used while
choosing the thresholds when the seed is fresh): per draw whether the grid was found within a
tenth of a pitch of the truth (largest error over all intersections), refused, or found wrong;
then the same draws of a 19x19 board asked as 13x13 and of a 13x13 board asked as 19x19 (every
answer there is wrong unless refused); milliseconds per picture (median, this machine).

Real photos (the tuning sets of ``benchmarks/real_photos/sets.json`` that are here; IN-SAMPLE: the
thresholds were chosen while looking at them): per photo found / refused / wrong and the error.
Then per set the rule-based reader's figures (``vision_real_photos.py --sets``) with every photo
located by its found grid (a refused photo keeps its labelled corners, as four taps would give:
the line says how many) against the labelled corners. A found grid is named in the picture's
reading order; for the piece map the naming of its corners nearest the labels' is used (which
corner is "top left" is the player's choice, not the finder's).
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from benchmarks.vision_grid_refine import grid_error  # noqa: E402
from vision.groundtruth import GroundTruth  # noqa: E402

Point = tuple[float, float]
WITHIN = 0.1  # pitches


def namings(corners: list[Point], square: bool) -> list[list[Point]]:
    """The ways of naming the same grid's corners (turns; for a square board also mirrors)."""
    out = []
    for k in range(0, 4, 1 if square else 2):
        turned = corners[k:] + corners[:k]
        out.append(turned)
        if square:
            out.append([turned[0], turned[3], turned[2], turned[1]])
    return out


def as_labelled(found: list[Point], truth: list[Point], rows: int, cols: int) -> tuple[list[Point], float]:
    """``found`` named as the labels name their corners, and its error in pitches."""
    best = min(namings(found, rows == cols), key=lambda c: grid_error(c, truth, rows, cols))
    return best, grid_error(best, truth, rows, cols)


def locate_set(folder: Path, truths: dict[str, GroundTruth]) -> tuple[dict[str, GroundTruth], dict[str, int]]:
    """The set's ground truths with each photo's corners replaced by its found grid (named as the
    labels name theirs; a refused photo keeps its labelled corners, as four taps would give), and
    how many photos were found, refused and wrong (off by more than a tenth of a pitch)."""
    import benchmarks.vision_real_photos as vrp
    from vision.grid_find import GridNotFoundHere, find_corners

    tally = {"found": 0, "refused": 0, "wrong": 0}
    moved = dict(truths)
    for name, t in truths.items():
        rows, cols = t.size
        try:
            corners = find_corners(vrp._image(folder, name), rows, cols)
        except GridNotFoundHere:
            tally["refused"] += 1
            continue
        named, error = as_labelled(corners, list(t.corners), rows, cols)
        tally["found" if error <= WITHIN else "wrong"] += 1
        moved[name] = vrp.GroundTruth(t.file_name, (named[0], named[1], named[2], named[3]), t.rows)
    return moved, tally


def renders(count: int, seed: int) -> None:
    import numpy as np

    from benchmarks.go_render import draw
    from vision.grid_find import GridNotFoundHere, find_corners

    def attempt(img: np.ndarray, truth: list[Point], size: int, asked: int, times: list[float]) -> str:
        start = time.perf_counter()
        try:
            corners = find_corners(img, asked, asked)
        except GridNotFoundHere:
            times.append(time.perf_counter() - start)
            return "refused"
        times.append(time.perf_counter() - start)
        if asked != size:
            return "wrong"
        return "found" if as_labelled(corners, truth, size, size)[1] <= WITHIN else "wrong"

    for size, asked in ((19, 19), (13, 13), (19, 13), (13, 19)):
        tally = {"found": 0, "refused": 0, "wrong": 0}
        times: list[float] = []
        errors = []
        for k in range(count):
            img, truth, _letters = draw(np.random.default_rng(seed + k), size)
            outcome = attempt(img, truth, size, asked, times)
            tally[outcome] += 1
            if outcome == "wrong":
                errors.append(seed + k)
        print(
            f"drawn {size}x{size} asked {asked}x{asked}: found {tally['found']}, refused {tally['refused']}, "
            f"wrong {tally['wrong']} of {count} (seeds {seed}..{seed + count - 1}); "
            f"{1000 * statistics.median(times):.0f} ms median per 1280x960 picture"
            + (f"; wrong at seeds {errors}" if errors else "")
        )
    rng = np.random.default_rng(seed)
    blank = np.clip(rng.normal(128, 40, (960, 1280, 3)), 0, 255).astype(np.uint8)
    times = []
    print(f"noise picture asked 19x19: {attempt(blank, [], 0, 19, times)}")


def real(read: bool) -> None:
    import benchmarks.vision_real_photos as vrp
    from benchmarks.fetch_real_photos import cache_dir
    from vision.grid_find import GridNotFoundHere, find_corners

    found_sets, missing = vrp.available_sets(ROOT.parent / "shared", cache_dir())
    tally = {"found": 0, "refused": 0, "wrong": 0}
    times = []
    located: dict[str, dict[str, list[Point]]] = {}
    print("real photos (IN-SAMPLE), error in pitches against the labelled corners:")
    for entry, folder, labels in found_sets:
        truths = vrp.load_truths(folder, labels)
        located[str(entry["name"])] = {}
        for name, t in sorted(truths.items()):
            rows, cols = t.size
            image = vrp._image(folder, name)
            start = time.perf_counter()
            try:
                corners = find_corners(image, rows, cols)
            except GridNotFoundHere as exc:
                times.append(time.perf_counter() - start)
                tally["refused"] += 1
                print(f"  {entry['name'] + '/' + name:36s} refused: {exc}")
                continue
            times.append(time.perf_counter() - start)
            named, error = as_labelled(corners, list(t.corners), rows, cols)
            outcome = "found" if error <= WITHIN else "wrong"
            tally[outcome] += 1
            located[str(entry["name"])][name] = named
            h, w = image.shape[:2]
            print(f"  {entry['name'] + '/' + name:36s} {outcome:5s} {error:.3f}  ({w}x{h})")
    print(
        f"real photos: found {tally['found']}, refused {tally['refused']}, wrong {tally['wrong']} of "
        f"{sum(tally.values())}; {1000 * statistics.median(times):.0f} ms median per photo"
    )
    for line in missing:
        print(f"NOT MEASURED: {line}")
    if not read:
        return
    labelled, by_found = [], []
    for entry, folder, labels in found_sets:
        truths = vrp.load_truths(folder, labels)
        name = str(entry["name"])
        labelled.append(vrp.set_figures(name, vrp.set_runs(entry, folder, truths), list(truths)))
        moved = dict(truths)
        for photo, c in located[name].items():
            t = truths[photo]
            moved[photo] = vrp.GroundTruth(t.file_name, (c[0], c[1], c[2], c[3]), t.rows)
        kept = len(truths) - len(located[name])
        figures = vrp.set_figures(name, vrp.set_runs(entry, folder, moved), list(truths))
        by_found.append(figures)
        print(
            f"{name}: {len(located[name])} photos located by the found grid, {kept} by their labels (refused)"
        )
    print("read with the LABELLED corners:")
    vrp.print_sets(labelled, [])
    print("read with the FOUND grids (refused photos: labelled corners, as taps):")
    vrp.print_sets(by_found, [])


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--renders", type=int, default=40, help="drawn boards per size")
    parser.add_argument("--seed", type=int, default=70000)
    parser.add_argument("--no-real", action="store_true", help="drawn boards only")
    parser.add_argument("--no-read", action="store_true", help="locate only; do not read the real sets")
    args = parser.parse_args()
    if args.renders:
        renders(args.renders, args.seed)
    if not args.no_real:
        real(not args.no_read)
    return 0


if __name__ == "__main__":
    sys.exit(main())
