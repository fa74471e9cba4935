"""Real photos: calibrate on one gobonline photo, read the others by their grid corners.

    .venv/bin/python benchmarks/vision_real_photos.py [--shared ../shared] [--calibrate PHOTO] [--details]
        [--quartiles]

By default every photo that can calibrate (its ground truth shows every stone colour of the set:
a calibration needs one peg of each player) calibrates in turn and the other six photos are read
with that one profile (leave-one-out). It prints the share of intersections read correctly per
calibration photo and per photo read, the mean and the worst calibration, and which
intersections were wrong or unsure, and per photo read its worst figure over the accepted
calibrations (the issue's goal: no photo below 99 %). ``--calibrate PHOTO`` runs just one
calibration; ``--quartiles`` samples the nine-number quartile features of the peg board's guided
path instead of the medians (for comparison: it reads these photos worse, see docs/vision.md).

Why leave-one-out: the thresholds in ``vision/`` were chosen while looking at these photos, so a
figure from one favourite calibration photo flatters the method; calibrating on each usable photo
in turn shows how much the result depends on the calibration picture. Nothing is tuned per photo:
one profile (learnt from the calibration photo's ground truth) reads all the others with the same
settings the camera uses.
"""

from __future__ import annotations

import argparse
import sys
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from vision.groundtruth import GroundTruth, Score, parse_textproto, score  # noqa: E402

if TYPE_CHECKING:
    from vision.profile import BoardProfile

CALIBRATION_PHOTO = "stones_overhead.jpg"
NAMES = {"B": "black", "W": "white"}


@dataclass
class PhotoResult:
    name: str
    score: Score


@dataclass
class Calibration:
    """One calibration photo and how well its profile read every other photo."""

    photo: str
    results: list[PhotoResult]
    refused: str = ""  # why the app's calibration refused this photo (the results are then forced)

    @property
    def correct(self) -> int:
        return sum(r.score.correct for r in self.results)

    @property
    def total(self) -> int:
        return sum(r.score.total for r in self.results)

    @property
    def share(self) -> float:
        return self.correct / self.total if self.total else 0.0

    @property
    def wrong(self) -> int:
        return sum(len(r.score.wrong) for r in self.results)

    @property
    def unsure(self) -> int:
        return sum(len(r.score.unsure) for r in self.results)


def load_truths(folder: Path) -> dict[str, GroundTruth]:
    truths = parse_textproto((folder / "test_images.textproto").read_text(encoding="utf-8"))
    return {Path(t.file_name).name: t for t in truths}


def _image(folder: Path, name: str):  # type: ignore[no-untyped-def]
    import cv2

    img = cv2.imread(str(folder / name), cv2.IMREAD_COLOR)  # applies the EXIF orientation
    if img is None:
        raise SystemExit(f"{folder / name}: cannot read the image")
    return img


def can_calibrate(truth: GroundTruth, colours: set[str]) -> bool:
    """A photo calibrates only if it shows every colour (the app asks for one peg of each)."""
    return colours <= set(truth.letters)


def calibrate(
    folder: Path, truth: GroundTruth, labelled: bool = False, quartiles: bool = False
) -> BoardProfile:
    """A profile from one photo, learnt the way the app's calibration learns it.

    The empty intersections teach "empty" (``learn_empty``); then, per colour, the photo with only
    that colour's stones (the others are left out, as if not yet placed) goes through
    ``learn_colour``, which finds the stones itself as the holes that clearly stop looking empty.
    So a stone the app would not notice (washed out by glare) teaches nothing, and a photo
    whose stones of some colour all go unnoticed is refused with the app's own ``ProfileError``.
    ``labelled``: learn every stone from the ground truth instead (``learn_labelled``), for
    comparison with the figures before 2026-11. ``quartiles``: nine numbers per hole (lower
    quartile, median, upper quartile of the disc) as the peg board's guided calibration samples.
    """
    import numpy as np

    from vision.calibration import learn_colour, learn_empty, learn_labelled
    from vision.profile import BoardProfile
    from vision.reader import read_image

    rows, cols = truth.size
    profile = BoardProfile(rows=rows, cols=cols, features=9 if quartiles else 3)
    first = read_image(_image(folder, Path(truth.file_name).name), profile, corners=list(truth.corners))
    assert first.features is not None
    if labelled:
        return learn_labelled(profile, [(first.features, truth.letters)], NAMES)
    letters = np.array(truth.letters)
    profile = learn_empty(profile, [first.features[letters == "."]])
    for letter in sorted(set(truth.letters) - {"."}):
        shown = (letters == ".") | (letters == letter)
        profile, _ = learn_colour(profile, letter, NAMES[letter], [first.features[shown]])
    return profile


def read_others(
    folder: Path,
    truths: dict[str, GroundTruth],
    calibration_photo: str,
    labelled: bool = False,
    quartiles: bool = False,
) -> Calibration:
    from vision.profile import ProfileError
    from vision.reader import read_image

    refused = ""
    try:
        profile = calibrate(folder, truths[calibration_photo], labelled, quartiles)
    except ProfileError as exc:  # what the app says; read anyway with the labels, to show why
        refused = str(exc)
        profile = calibrate(folder, truths[calibration_photo], labelled=True, quartiles=quartiles)
    results = []
    for name, truth in truths.items():
        if name == calibration_photo:
            continue
        got = read_image(_image(folder, name), profile, corners=list(truth.corners))
        results.append(PhotoResult(name, score(got.letters, truth.letters, truth.size[1])))
    return Calibration(calibration_photo, results, refused)


def run(folder: Path, calibration_photo: str = CALIBRATION_PHOTO) -> tuple[list[PhotoResult], str]:
    """Calibrate on one photo and read the others; returns per-photo scores and the photo used."""
    return read_others(folder, load_truths(folder), calibration_photo).results, calibration_photo


def leave_one_out(
    folder: Path, labelled: bool = False, quartiles: bool = False
) -> tuple[list[Calibration], list[str]]:
    """Every photo that can calibrate does so in turn; returns the runs and the photos left out."""
    truths = load_truths(folder)
    colours = {letter for t in truths.values() for letter in t.letters} - {"."}
    usable = [name for name, t in truths.items() if can_calibrate(t, colours)]
    left_out = [name for name in truths if name not in usable]
    return [read_others(folder, truths, name, labelled, quartiles) for name in usable], left_out


def worst_per_photo(runs: list[Calibration]) -> dict[str, tuple[float, str]]:
    """Per photo read: its lowest share over the accepted calibrations, and which one that was."""
    worst: dict[str, tuple[float, str]] = {}
    for run in runs:
        if run.refused:
            continue
        for r in run.results:
            if r.name not in worst or r.score.share < worst[r.name][0]:
                worst[r.name] = (r.score.share, run.photo)
    return worst


def locate_by_stickers(folder: Path) -> list[tuple[str, dict[str, float | None]]]:
    """Stickers measured in one photo (by its grid corners, as touching the corner holes does);
    then every photo located by its stickers alone: the largest grid error, in pitches."""
    import numpy as np

    from vision.markers import MarkerFinder, image_from_grid, measure_stickers
    from vision.profile import BoardProfile
    from vision.sampling import hole_grid_points, homography_from_corners, project

    truths = load_truths(folder)
    finder = MarkerFinder()
    found = {name: finder.find(_image(folder, name)) for name in truths}
    rows = []
    for source, truth in truths.items():
        rows_n, cols_n = truth.size
        profile = measure_stickers(BoardProfile(rows=rows_n, cols=cols_n), found[source], list(truth.corners))
        if profile is None or len(profile.markers) < max(len(f) for f in found.values()):
            continue  # not every sticker in view: cannot measure them all
        errors: dict[str, float | None] = {}
        for name, other in truths.items():
            h = image_from_grid(found[name], profile)
            if h is None:
                errors[name] = None
                continue
            want = homography_from_corners(list(other.corners), rows_n, cols_n)
            grid = hole_grid_points(rows_n, cols_n)
            miss = np.linalg.norm(project(h, grid) - project(want, grid), axis=1)
            pitch = np.linalg.norm(project(want, grid[[0, cols_n - 1]])[1] - project(want, grid[[0]])[0])
            errors[name] = float(miss.max() / (pitch / (cols_n - 1)))
        rows.append((source, errors))
    return rows


def print_details(run: Calibration) -> None:
    for r in run.results:
        s = r.score
        print(
            f"  {r.name:26s} {s.correct:4d}/{s.total} = {100 * s.share:6.2f}%  wrong={len(s.wrong)} "
            f"unsure={len(s.unsure)}"
        )
        if s.wrong:
            cells = " ".join(f"({r},{c} {g}/{w})" for r, c, g, w in s.wrong)
            print(f"      wrong (row,col read/truth): {cells}")
        if s.unsure:
            print("      unsure (row,col truth): " + " ".join(f"({r},{c} {w})" for r, c, w in s.unsure))


def print_summary(runs: list[Calibration], left_out: list[str]) -> None:
    photos = sorted({r.name for run in runs for r in run.results})
    short = [p.split(".")[0].replace("_board", "").replace("_stones", "") for p in photos]
    print("leave-one-out: each photo showing every colour calibrates in turn; the others are read")
    print(f"(no stone of some colour, so read only: {', '.join(left_out) or 'none'})")
    print(f"{'calibrated on':26s} " + " ".join(f"{s:>14s}" for s in short) + "      total  wrong unsure")
    for run in runs:
        by_name = {r.name: r.score for r in run.results}
        cells = [f"{100 * by_name[p].share:13.1f}%" if p in by_name else f"{'-':>14s}" for p in photos]
        mark = "  REFUSED" if run.refused else ""
        totals = f"  {100 * run.share:8.2f}%  {run.wrong:5d} {run.unsure:6d}"
        print(f"{run.photo:26s} " + " ".join(cells) + totals + mark)
    for run in runs:
        if run.refused:
            print(f"REFUSED by the app's calibration: {run.photo}: {run.refused}")
            print("    (its row above was forced by learning every stone from the ground truth)")
    accepted = [run for run in runs if not run.refused]
    for label, group in (("accepted calibrations", accepted), ("all, refused ones forced", runs)):
        if not group or (group is runs and len(runs) == len(accepted)):
            continue
        shares = [run.share for run in group]
        worst = min(group, key=lambda run: run.share)
        print(
            f"{label}: MEAN {100 * sum(shares) / len(shares):.2f}%  MIN {100 * worst.share:.2f}% "
            f"({worst.photo})  over {len(group)} calibrations, {sum(r.total for r in group)} intersections"
        )
    per_photo = worst_per_photo(runs)
    below = [name for name, (share, _) in per_photo.items() if share < 0.99]
    print("worst per photo read (accepted calibrations; goal: none below 99 %):")
    for name, (share, photo) in sorted(per_photo.items()):
        print(f"  {name:26s} {100 * share:6.2f}%  (calibrated on {photo})")
    print(
        f"photos below 99 %: {len(below)} of {len(per_photo)}"
        + (f" ({', '.join(sorted(below))})" if below else "")
    )


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--shared", type=Path, default=ROOT.parent / "shared")
    parser.add_argument("--calibrate", help="calibrate on this photo only (default: each in turn)")
    parser.add_argument("--details", action="store_true", help="list every wrong and unsure intersection")
    parser.add_argument(
        "--locate", action="store_true", help="also: how well the stickers alone locate the grid"
    )
    parser.add_argument(
        "--labelled", action="store_true", help="learn every stone from the ground truth, not as the app does"
    )
    parser.add_argument(
        "--quartiles",
        action="store_true",
        help="sample quartiles (nine numbers) as the peg board's path does",
    )
    args = parser.parse_args()
    folder = args.shared / "datasets" / "gobonline"
    if args.calibrate:
        one = read_others(folder, load_truths(folder), args.calibrate, args.labelled, args.quartiles)
        if one.refused:
            print(f"REFUSED by the app's calibration: {one.refused}; forced with the ground truth's labels")
        print(f"calibrated on {one.photo}; reading {len(one.results)} photos by their grid corners")
        print_details(one)
        print(f"TOTAL {one.correct}/{one.total} = {100 * one.share:.2f}% of intersections read correctly")
        return 0
    runs, left_out = leave_one_out(folder, args.labelled, args.quartiles)
    print_summary(runs, left_out)
    if args.locate:
        print("locating by the stickers alone (measured in one photo): largest grid error in pitches")
        for source, errors in locate_by_stickers(folder):
            cells = " ".join(
                f"{name.split('.')[0]}={'-' if e is None else f'{e:.2f}'}" for name, e in errors.items()
            )
            print(f"  {source:26s} {cells}")
    if args.details:
        for run in runs:
            print(f"calibrated on {run.photo}: {run.correct}/{run.total} = {100 * run.share:.2f}%")
            print_details(run)
    return 0


if __name__ == "__main__":
    sys.exit(main())
