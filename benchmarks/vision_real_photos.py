"""Real photos: calibrate on one gobonline photo, read the other six by their grid corners.

    .venv/bin/python benchmarks/vision_real_photos.py [--shared ../shared] [--calibrate stones_overhead.jpg]

Prints, per photo, the share of intersections read correctly, which were wrong or unsure, and the
total. Nothing is tuned per photo: one profile (learnt from the calibration photo's ground truth)
reads them all with the same settings the camera uses.
"""

from __future__ import annotations

import argparse
import sys
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from vision.groundtruth import GroundTruth, Score, parse_textproto, score  # noqa: E402

CALIBRATION_PHOTO = "stones_overhead.jpg"
NAMES = {"B": "black", "W": "white"}


@dataclass
class PhotoResult:
    name: str
    score: Score


def load_truths(folder: Path) -> list[GroundTruth]:
    return parse_textproto((folder / "test_images.textproto").read_text(encoding="utf-8"))


def run(folder: Path, calibration_photo: str = CALIBRATION_PHOTO) -> tuple[list[PhotoResult], str]:
    """Calibrate on one photo and read the others; returns per-photo scores and the photo used."""
    import cv2

    from vision.calibration import learn_labelled
    from vision.profile import BoardProfile
    from vision.reader import read_image

    truths = {Path(t.file_name).name: t for t in load_truths(folder)}
    calib = truths[calibration_photo]
    rows, cols = calib.size
    profile = BoardProfile(rows=rows, cols=cols)

    def image(name: str):  # type: ignore[no-untyped-def]
        img = cv2.imread(str(folder / name), cv2.IMREAD_COLOR)  # applies the EXIF orientation
        if img is None:
            raise SystemExit(f"{folder / name}: cannot read the image")
        return img

    first = read_image(image(calibration_photo), profile, corners=list(calib.corners))
    assert first.features is not None
    profile = learn_labelled(profile, [(first.features, calib.letters)], NAMES)
    results = []
    for name, truth in truths.items():
        if name == calibration_photo:
            continue
        got = read_image(image(name), profile, corners=list(truth.corners))
        results.append(PhotoResult(name, score(got.letters, truth.letters, cols)))
    return results, calibration_photo


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--shared", type=Path, default=ROOT.parent / "shared")
    parser.add_argument("--calibrate", default=CALIBRATION_PHOTO, help="the photo to calibrate on")
    args = parser.parse_args()
    folder = args.shared / "datasets" / "gobonline"
    results, used = run(folder, args.calibrate)
    print(f"calibrated on {used} (its ground truth); reading {len(results)} photos by their grid corners")
    total = correct = 0
    for r in results:
        s = r.score
        total += s.total
        correct += s.correct
        share = f"{s.correct:4d}/{s.total} = {100 * s.share:6.2f}%"
        print(f"{r.name:28s} {share}  wrong={len(s.wrong)} unsure={len(s.unsure)}")
        if s.wrong:
            cells = " ".join(f"({row},{col} {got}/{want})" for row, col, got, want in s.wrong)
            print(f"    wrong (row,col read/truth): {cells}")
        if s.unsure:
            cells = " ".join(f"({row},{col} {want})" for row, col, want in s.unsure)
            print(f"    unsure (row,col truth): {cells}")
    print(f"TOTAL {correct}/{total} = {100 * correct / total:.2f}% of intersections read correctly")
    return 0


if __name__ == "__main__":
    sys.exit(main())
