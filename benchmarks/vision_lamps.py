"""Lamps of another colour after calibration: the in-sample real sets, recoloured.

    .venv/bin/python benchmarks/vision_lamps.py [--sets gomrade_seq,gobonline] [--lamps white,cyan]
        [--calibrate-under white] [--cache DIR]

Every photo of the tuning sets (``benchmarks/real_photos/sets.json``, in-sample) is relit by a
synthetic lamp (:func:`relight`), then the set's leave-one-photo-out protocol runs as in
``vision_real_photos.py --sets``: each photo showing every colour calibrates under one lamp and
the set's other photos are read under every lamp. It prints issue 30's goal table per
calibration lamp, split into reading under the same lamp and under the others.

Why synthetic lamps: a coloured lamp changing after calibration is what failed on the held-out
photos (docs/vision.md), and those photos must not steer the reader. The lamps here are generic
(a warm bulb and saturated LED colours at round gains), not measured from any photo.

The lamp model (:func:`relight`): in linear light a lamp multiplies what each sensor channel
sees. Sensor channels overlap (a red filter passes some green: ``CROSSTALK``, C, each channel
keeps 85 % and takes the rest from the others) and the camera's colour matrix sharpens them
again, so a lamp that is a gain L per sensor channel is ``C^-1 diag(L) C x`` in the picture's
linear colours x, clipped at nothing. The camera then exposes for the picture's mean luminance
(auto exposure: a strongly coloured lamp's own channel may clip), adds a little veiling flare of
the scene's own colour (1 % of the mean), encodes sRGB, rounds to 8 bits and saves a JPEG
(colour at half resolution). So the change is not a per-channel gain on the 8-bit picture (which
the reader's features cancel): a dim channel loses its contrast to the colour matrix, flare and
rounding, and on a saturated board it can go black.
"""

from __future__ import annotations

import argparse
import sys
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

if TYPE_CHECKING:
    import numpy as np
    from numpy.typing import NDArray

# lamp gains in linear light, BGR (the brightest 1): round numbers for common lamp colours
LAMPS: dict[str, tuple[float, float, float]] = {
    "white": (1.0, 1.0, 1.0),
    "warm": (0.45, 0.75, 1.0),
    "orange": (0.12, 0.45, 1.0),
    "yellow": (0.15, 0.9, 1.0),
    "green": (0.25, 1.0, 0.25),
    "cyan": (1.0, 1.0, 0.15),
    "blue": (1.0, 0.35, 0.15),
    "violet": (1.0, 0.2, 0.6),
    "pink": (0.6, 0.3, 1.0),
}
CROSSTALK = ((0.85, 0.1, 0.05), (0.075, 0.85, 0.075), (0.05, 0.1, 0.85))
FLARE = 0.01
JPEG_QUALITY = 85  # the camera saves a JPEG (4:2:0: colour at half resolution)


def _linear(img: NDArray[np.uint8]) -> NDArray[np.float32]:
    import numpy as np

    v = np.arange(256, dtype=np.float64) / 255.0
    table = np.where(v <= 0.04045, v / 12.92, ((v + 0.055) / 1.055) ** 2.4).astype(np.float32)
    return np.asarray(table[img], dtype=np.float32)


def _encode(lin: NDArray[np.float32]) -> NDArray[np.uint8]:
    import numpy as np

    x = np.clip(lin, 0.0, 1.0)
    s = np.where(x <= 0.0031308, 12.92 * x, 1.055 * np.power(x, 1 / 2.4) - 0.055)
    return np.asarray(np.clip(np.rint(s * 255.0), 0, 255), dtype=np.uint8)


def relight(img: NDArray[np.uint8], lamp: tuple[float, float, float]) -> NDArray[np.uint8]:
    """``img`` (BGR, taken under white light) as a camera would see it under ``lamp`` (see the
    module's docstring: sensor crosstalk, auto exposure for the brightest channel, flare, sRGB,
    8 bits, JPEG). White light changes the picture only by the flare and the JPEG."""
    import cv2
    import numpy as np

    c = np.asarray(CROSSTALK, dtype=np.float64)
    lin = _linear(img)
    # back to what the sensor's overlapping channels saw (all positive: C only mixes), the lamp's
    # gain on that, and the camera's colour matrix (C^-1: it sharpens, and may leave a saturated
    # colour below nothing, which the camera clips)
    m = np.linalg.inv(c) @ np.diag(np.asarray(lamp, dtype=np.float64)) @ c
    out = np.maximum(cv2.transform(lin, m.astype(np.float32)), 0.0)
    luma = np.array([0.0722, 0.7152, 0.2126])  # BGR: what a camera's auto exposure meters
    before, after = lin.reshape(-1, 3).mean(axis=0) @ luma, out.reshape(-1, 3).mean(axis=0) @ luma
    out *= float(before / max(after, 1e-6))  # auto exposure (the lamp's own channel may clip)
    out += (FLARE * out.reshape(-1, 3).mean(axis=0)).astype(np.float32)
    coded = _encode(np.asarray(out, dtype=np.float32))
    ok, data = cv2.imencode(".jpg", coded, [cv2.IMWRITE_JPEG_QUALITY, JPEG_QUALITY])
    return np.asarray(cv2.imdecode(data, cv2.IMREAD_COLOR), dtype=np.uint8) if ok else coded


@dataclass
class Tally:
    """Reads of one kind: points, wrong with confidence, unsure; photos and those meeting the goal."""

    points: int = 0
    wrong: int = 0
    unsure: int = 0
    photos: int = 0
    meeting: int = 0

    def add(self, wrong: int, unsure: int, total: int) -> None:
        self.points += total
        self.wrong += wrong
        self.unsure += unsure
        self.photos += 1
        self.meeting += int(wrong <= 0.0005 * total and unsure <= 0.01 * total)


@dataclass
class LampRow:
    lamp: str
    usable: int = 0
    accepted: int = 0
    same: Tally = field(default_factory=Tally)
    other: Tally = field(default_factory=Tally)


def measure(
    sets: list[str] | None, lamps: list[str], calibrate_under: list[str], shared: Path, cache: Path
) -> tuple[dict[str, LampRow], list[str]]:
    """Per calibration lamp: calibrations accepted, and the accepted ones' reads under the same
    lamp and under the others (every set's leave-one-photo-out protocol)."""
    from benchmarks.vision_real_photos import _image, available_sets, can_calibrate, load_truths
    from vision.groundtruth import score
    from vision.profile import ProfileError
    from vision.reader import read_image

    found, missing = available_sets(shared, cache)
    rows = {lamp: LampRow(lamp) for lamp in calibrate_under}
    for entry, folder, labels in found:
        if sets and str(entry["name"]) not in sets:
            continue
        truths = load_truths(folder, labels)
        colours = {letter for t in truths.values() for letter in t.letters} - {"."}
        itself = entry.get("protocol") == "self"
        originals = {name: _image(folder, name) for name in truths}
        usable = list(truths) if itself else [n for n, t in truths.items() if can_calibrate(t, colours)]
        profiles = {}
        for cal_lamp in calibrate_under:
            for name in usable:
                rows[cal_lamp].usable += 1
                try:
                    profiles[cal_lamp, name] = _calibrate(
                        relight(originals[name], LAMPS[cal_lamp]), truths[name]
                    )
                    rows[cal_lamp].accepted += 1
                except ProfileError:
                    pass
        for read_lamp in lamps:
            for name, truth in truths.items():
                img = relight(originals[name], LAMPS[read_lamp])
                for (cal_lamp, cal_name), profile in profiles.items():
                    if (cal_name == name) != itself:
                        continue
                    got = read_image(img, profile, corners=list(truth.corners))
                    s = score(got.letters, truth.letters, truth.size[1])
                    tally = rows[cal_lamp].same if read_lamp == cal_lamp else rows[cal_lamp].other
                    tally.add(len(s.wrong), len(s.unsure), s.total)
    return rows, missing


def _calibrate(img: NDArray[np.uint8], truth):  # type: ignore[no-untyped-def]
    """The unguided calibration of ``vision_real_photos.calibrate`` on a picture in memory."""
    import numpy as np

    from benchmarks.vision_real_photos import NAMES
    from vision.calibration import learn_colour, learn_empty, with_board_colour
    from vision.profile import BoardProfile
    from vision.reader import read_image

    rows, cols = truth.size
    profile = BoardProfile(rows=rows, cols=cols, features=3)
    first = read_image(img, profile, corners=list(truth.corners))
    assert first.features is not None
    letters = np.array(truth.letters)
    assert first.samples is not None
    profile = with_board_colour(profile, first.samples.gaps)
    profile = learn_empty(profile, [first.features[letters == "."]])
    for letter in sorted(set(truth.letters) - {"."}):
        shown = (letters == ".") | (letters == letter)
        profile, _ = learn_colour(profile, letter, NAMES[letter], [first.features[shown]])
    return profile


def _cells(t: Tally) -> str:
    p = max(t.points, 1)
    return (
        f"{100 * (t.points - t.wrong - t.unsure) / p:7.2f}% {t.wrong:6d} ({100 * t.wrong / p:5.2f}%) "
        f"{t.unsure:6d} ({100 * t.unsure / p:5.2f}%) {t.meeting:5d} of {t.photos:<5d}"
    )


def _row(row: LampRow) -> str:
    gap = " " * 11
    calibrations = f"{row.accepted:>3d} of {row.usable:<3d}"
    return f"{row.lamp:16s} {calibrations} | {gap}{_cells(row.same)} | {gap}{_cells(row.other)}"


def print_rows(rows: dict[str, LampRow], missing: list[str]) -> None:
    print("calibrated under one lamp, read under the same lamp / every other lamp (in-sample sets, relit)")
    head = f"{'right':>8s} {'wrong (conf.)':>15s} {'unsure':>15s} {'meet goal':>11s}"
    print(f"{'calibration lamp':16s} {'accepted':>10s} | same lamp: {head} | other lamps: {head}")
    total = LampRow("ALL")
    for row in rows.values():
        print(_row(row))
        total.usable += row.usable
        total.accepted += row.accepted
        for mine, theirs in ((total.same, row.same), (total.other, row.other)):
            for name in ("points", "wrong", "unsure", "photos", "meeting"):
                setattr(mine, name, getattr(mine, name) + getattr(theirs, name))
    print(_row(total))
    print("goal (issue 30): calibration >= 95 %, right >= 99.9 %, wrong <= 0.05 %, unsure <= 1 %")
    for line in missing:
        print(f"NOT MEASURED: {line}")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--shared", type=Path, default=ROOT.parent / "shared")
    parser.add_argument("--cache", type=Path, default=None)
    parser.add_argument("--sets", default="", help="comma-separated set names (default: every set here)")
    parser.add_argument("--lamps", default=",".join(LAMPS), help="lamps to read under")
    parser.add_argument("--calibrate-under", default="", help="lamps to calibrate under (default: --lamps)")
    args = parser.parse_args()
    from benchmarks.fetch_real_photos import cache_dir

    lamps = [x for x in args.lamps.split(",") if x]
    under = [x for x in args.calibrate_under.split(",") if x] or lamps
    for lamp in (*lamps, *under):
        if lamp not in LAMPS:
            raise SystemExit(f"unknown lamp {lamp!r}: one of {', '.join(LAMPS)}")
    sets = [x for x in args.sets.split(",") if x] or None
    rows, missing = measure(sets, lamps, under, args.shared, args.cache or cache_dir())
    print_rows(rows, missing)
    return 0


if __name__ == "__main__":
    sys.exit(main())
