"""Rough taps refined onto the printed grid (``vision/grid_refine.py``), on the real photos.

    .venv/bin/python benchmarks/vision_grid_refine.py [--off 0.35] [--tries 3] [--seed 0] [--once]

For every photo of every real set that is here (``benchmarks/real_photos/sets.json``), its
labelled corner points are moved at random by up to ``--off`` pitches each (as a finger taps),
``--tries`` times, and refined. Printed per photo: the largest error over all intersections,
in pitches, before and after (median and worst over the tries), and refusals. Then per set:
the rule-based reader's figures (``vision_real_photos.py --sets``) with every photo located by
one refined tap instead of its labelled corners.

``--once`` is the product's path for a fixed camera (``table99 vision calibrate --corners
--refine``, the screen's four taps): a set whose labelled corners agree within a tenth of a pitch
on every photo (one camera that never moved: gomrade_seq) is tapped and refined on its first photo
only, and every photo is read with those corners; a set whose camera moves (gobonline's phones)
keeps one refined tap per photo.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from benchmarks.vision_real_photos import _image, available_sets, load_truths  # noqa: E402


def grid_error(
    corners: list[tuple[float, float]], truth: list[tuple[float, float]], rows: int, cols: int
) -> float:
    """Largest distance between the two grids' intersections, in pitches (of the true grid)."""
    import numpy as np

    from vision.sampling import hole_grid_points, homography_from_corners, project

    grid = hole_grid_points(rows, cols)
    want = project(homography_from_corners(truth, rows, cols), grid)
    got = project(homography_from_corners(corners, rows, cols), grid)
    pitch = float(np.linalg.norm(want[cols - 1] - want[0])) / (cols - 1)
    return float(np.linalg.norm(got - want, axis=1).max() / pitch)


def tapped(
    truth: list[tuple[float, float]], rows: int, cols: int, off: float, rng: object
) -> list[tuple[float, float]]:
    import numpy as np

    assert isinstance(rng, np.random.Generator)
    pitch = float(np.hypot(truth[1][0] - truth[0][0], truth[1][1] - truth[0][1])) / (cols - 1)
    return [(x + rng.uniform(-off, off) * pitch, y + rng.uniform(-off, off) * pitch) for x, y in truth]


def main() -> int:
    import numpy as np

    import benchmarks.vision_real_photos as vrp
    from benchmarks.fetch_real_photos import cache_dir
    from vision.grid_refine import GridNotFound, refine_corners

    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--off", type=float, default=0.35, help="taps off by up to this many pitches")
    parser.add_argument("--tries", type=int, default=3)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--shared", type=Path, default=ROOT.parent / "shared")
    parser.add_argument(
        "--once", action="store_true", help="a fixed camera's set: tapped once, on its first photo, for all"
    )
    args = parser.parse_args()
    rng = np.random.default_rng(args.seed)
    found, missing = available_sets(args.shared, cache_dir())
    refined_truths = {}
    worst_all: list[float] = []
    refused = 0
    print(f"{'photo':34s} {'tapped: median worst':>22s} {'refined: median worst':>23s}")
    for entry, folder, labels in found:
        truths = load_truths(folder, labels)
        refined_truths[str(entry["name"])] = {}
        for name, t in truths.items():
            rows, cols = t.size
            image = _image(folder, name)
            before, after = [], []
            for k in range(args.tries):
                taps = tapped(list(t.corners), rows, cols, args.off, rng)
                before.append(grid_error(taps, list(t.corners), rows, cols))
                try:
                    corners = refine_corners(image, taps, rows, cols)
                except GridNotFound:
                    refused += 1
                    after.append(float("inf"))
                    continue
                after.append(grid_error(corners, list(t.corners), rows, cols))
                if k == 0:
                    refined_truths[str(entry["name"])][name] = corners
            worst_all += after
            print(
                f"{entry['name'] + '/' + name:34s} {np.median(before):10.2f} {max(before):10.2f} "
                f"{np.median(after):11.2f} {max(after):10.2f}"
            )
    print(
        f"refined: {sum(e <= 0.1 for e in worst_all)} of {len(worst_all)} tries within 0.1 pitch, "
        f"{sum(e <= 0.2 for e in worst_all)} within 0.2; {refused} refused"
    )
    if args.once:
        for entry, folder, labels in found:
            truths = load_truths(folder, labels)
            moved = refined_truths[str(entry["name"])]
            first = sorted(truths)[0]
            rows, cols = truths[first].size
            fixed = all(
                grid_error(list(t.corners), list(truths[first].corners), rows, cols) <= 0.1
                for t in truths.values()
            )
            if not fixed or first not in moved:
                print(f"{entry['name']}: the camera moves between photos: one refined tap per photo")
                continue
            errors = [grid_error(moved[first], list(t.corners), rows, cols) for t in truths.values()]
            print(
                f"{entry['name']}: fixed camera, tapped once on {first}; those corners against every photo's"
                f" labels: worst {max(errors):.2f} pitch"
            )
            for name in truths:
                moved[name] = moved[first]
    # read each set with its photos located by the first refined tap
    figures = []
    for entry, folder, labels in found:
        truths = load_truths(folder, labels)
        moved = refined_truths[str(entry["name"])]
        if len(moved) != len(truths):
            print(f"{entry['name']}: some photo refused, its reading is left out")
            continue
        for name, t in truths.items():
            c = moved[name]
            truths[name] = vrp.GroundTruth(t.file_name, (c[0], c[1], c[2], c[3]), t.rows)
        figures.append(vrp.set_figures(str(entry["name"]), vrp.set_runs(entry, folder, truths), list(truths)))
    how = "a fixed camera's set tapped once, the others" if args.once else "one refined tap"
    print(f"read with {how} per photo (calibration photo located the same way):")
    vrp.print_sets(figures, missing)
    return 0


if __name__ == "__main__":
    sys.exit(main())
