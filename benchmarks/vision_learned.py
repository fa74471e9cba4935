"""The learned piece test (``vision/patches.py``) against the rule-based reader, set by set.

    .venv/bin/python benchmarks/vision_learned.py [--renders 60] [--go-renders 0] [--seed 30]
        [--save PATH] [--hi 0.9] [--lo 0.1] [--doubt 0.5]

Leave one set out: for each real set of ``benchmarks/real_photos/sets.json`` that is here, a
model is trained on renders (``tests/render_board.random_scene``: pose, lamps, glare, sun,
noise, blur, JPEG drawn at random) and on the *other* real sets' photos, never on the set it
is measured on. It is then measured as ``vision_real_photos.py --sets`` measures the rule-based
reader: each photo of the set showing every colour calibrates in turn (the app's own learner:
a refused calibration reads nothing), and the set's other photos are read. Calibrating also
adapts the model to the user's pictures: its bias is refitted on the calibration photo (the
only labels a user gives: the calibration's own). A hole reads as a piece when the model says
so with probability ``--hi`` or more, empty at ``--lo`` or less, unsure between; a piece's
colour is the rule-based reader's reading where that is a colour, else the nearest learnt
colour. A second table keeps the rule-based reading but makes a hole unsure where the learned
test disagrees (read empty, piece probability ``--doubt`` or more; read a piece, ``--lo`` or
less): it can only turn readings into "unsure", never create one. The third table is the
rule-based reader alone on the same calibrations.

``--save PATH`` trains once more on renders and *all* sets and writes the weights (JSON).
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import TYPE_CHECKING

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from benchmarks.vision_real_photos import (  # noqa: E402
    SetFigures,
    _image,
    available_sets,
    calibrate,
    can_calibrate,
    load_truths,
    print_sets,
)
from vision.groundtruth import score  # noqa: E402

if TYPE_CHECKING:
    import numpy as np
    from numpy.typing import NDArray

    from vision.groundtruth import GroundTruth
    from vision.patches import PieceModel


def photo_patches(folder: Path, truth: GroundTruth) -> NDArray[np.float64]:
    from vision.patches import patch_features
    from vision.sampling import Sampler, homography_from_corners

    rows, cols = truth.size
    samples = Sampler(rows, cols).sample(
        _image(folder, Path(truth.file_name).name), homography_from_corners(list(truth.corners), rows, cols)
    )
    return patch_features(samples.warped, samples.gaps, rows, cols)


def render_patches(count: int, seed: int) -> tuple[NDArray[np.float64], NDArray[np.bool_]]:
    import numpy as np

    from tests.render_board import camera_from_board, random_scene, render, truth_letters
    from vision.patches import patch_features
    from vision.sampling import Sampler

    rng = np.random.default_rng(seed)
    feats, occupied = [], []
    sampler = Sampler(10, 10)
    for _ in range(count):
        scene = random_scene(rng)
        h = camera_from_board(scene) @ np.diag([25.0, 25.0, 1.0])  # holes 25 mm apart from (0, 0)
        samples = sampler.sample(render(scene), h)
        feats.append(patch_features(samples.warped, samples.gaps, 10, 10))
        occupied.append(np.array([letter != "." for letter in truth_letters(scene)]))
    return np.concatenate(feats), np.concatenate(occupied)


def go_render_patches(count: int, seed: int) -> tuple[NDArray[np.float64], NDArray[np.bool_]]:
    """Patches of ``count`` Go boards drawn at random (``benchmarks/go_render.py``)."""
    import numpy as np

    from benchmarks.go_render import draw
    from vision.patches import patch_features
    from vision.sampling import Sampler, homography_from_corners

    rng = np.random.default_rng(seed)
    feats, occupied = [], []
    sampler = Sampler(19, 19)
    for _ in range(count):
        image, corners, letters = draw(rng)
        samples = sampler.sample(image, homography_from_corners(corners, 19, 19))
        feats.append(patch_features(samples.warped, samples.gaps, 19, 19))
        occupied.append(np.array([letter != "." for letter in letters]))
    return np.concatenate(feats), np.concatenate(occupied)


def train(parts: list[tuple[NDArray[np.float64], NDArray[np.bool_]]]) -> PieceModel:
    """Each part (renders, one real set) weighs the same, and within it pieces and empty holes."""
    import numpy as np

    from vision.patches import fit

    xs, ys, ws = [], [], []
    for feats, occ in parts:
        xs.append(feats)
        ys.append(occ)
        ws.append(np.where(occ, 0.5 / max(occ.sum(), 1), 0.5 / max((~occ).sum(), 1)) * 1000.0)
    return fit(np.concatenate(xs), np.concatenate(ys), weight=np.concatenate(ws))


def adapt(model: PieceModel, feats: NDArray[np.float64], occupied: NDArray[np.bool_]) -> PieceModel:
    """Refit the bias alone on the calibration photo (balanced classes), a few Newton steps."""
    import numpy as np

    shift = 0.0
    w = np.where(occupied, 0.5 / max(occupied.sum(), 1), 0.5 / max((~occupied).sum(), 1))
    y = occupied.astype(np.float64)
    for _ in range(20):
        p = model.with_bias(shift).probability(feats)
        grad = float((w * (p - y)).sum())
        hess = float((w * p * (1 - p)).sum()) + 1e-6
        shift -= float(np.clip(grad / hess, -2, 2))
    return model.with_bias(shift)


def measure_set(
    name: str, folder: Path, labels: Path, model: PieceModel, hi: float, lo: float, doubt: float
) -> dict[str, SetFigures]:
    """Figures per reader ("learned", "doubted", "rules") for one set, leave-one-out over its
    calibration photos."""
    import numpy as np

    from vision.classify import Classifier
    from vision.profile import UNSURE, ProfileError
    from vision.reader import read_image

    truths = load_truths(folder, labels)
    colours = {letter for t in truths.values() for letter in t.letters} - {"."}
    usable = [n for n, t in truths.items() if can_calibrate(t, colours)]
    patches = {n: photo_patches(folder, t) for n, t in truths.items()}
    kinds = ("learned", "doubted", "rules")
    figs = {k: SetFigures(name, len(usable), 0, 0, 0, 0, 0, len(truths), []) for k in kinds}
    meets: dict[str, dict[str, bool]] = {k: {} for k in kinds}
    for cal in usable:
        try:
            profile = calibrate(folder, truths[cal])
        except ProfileError:
            continue
        occupied = np.array([letter != "." for letter in truths[cal].letters])
        adapted = adapt(model, patches[cal], occupied)
        only_colours = Classifier(profile.empty, profile.colours)  # type: ignore[arg-type]
        for k in figs:
            figs[k].accepted += 1
        for other, truth in truths.items():
            if other == cal:
                continue
            got = read_image(_image(folder, other), profile, corners=list(truth.corners))
            p = adapted.probability(patches[other])
            assert got.features is not None
            nearest = only_colours.distances(got.features)[:, 1:].argmin(axis=1)
            learned = []
            for i, rule in enumerate(got.letters):
                if p[i] <= lo:
                    learned.append(".")
                elif p[i] >= hi:
                    learned.append(rule if rule not in (".", UNSURE) else profile.colours[nearest[i]].letter)
                else:
                    learned.append(UNSURE)
            doubted = [
                UNSURE
                if (rule == "." and p[i] >= doubt) or (rule not in (".", UNSURE) and p[i] <= lo)
                else rule
                for i, rule in enumerate(got.letters)
            ]
            for key, letters in (("learned", learned), ("doubted", doubted), ("rules", got.letters)):
                s = score(letters, truth.letters, truth.size[1])
                f = figs[key]
                f.total += s.total
                f.correct += s.correct
                f.wrong += len(s.wrong)
                f.unsure += len(s.unsure)
                ok = len(s.wrong) <= 0.0005 * s.total and len(s.unsure) <= 0.01 * s.total
                meets[key][other] = meets[key].get(other, True) and ok
    for key, f in figs.items():
        f.meeting = sorted(n for n, ok in meets[key].items() if ok)
    return figs


def main() -> int:
    import numpy as np

    from benchmarks.fetch_real_photos import cache_dir

    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--renders", type=int, default=60, help="rendered pictures to train on")
    parser.add_argument("--seed", type=int, default=30, help="the renders' seed")
    parser.add_argument("--go-renders", type=int, default=0, help="Go boards drawn at random to train on")
    parser.add_argument("--hi", type=float, default=0.9)
    parser.add_argument("--lo", type=float, default=0.1)
    parser.add_argument("--doubt", type=float, default=0.5, help="rule-based empty made unsure from here")
    parser.add_argument("--shared", type=Path, default=ROOT.parent / "shared")
    parser.add_argument("--save", type=Path, help="also train on everything and write the weights here")
    args = parser.parse_args()
    found, missing = available_sets(args.shared, cache_dir())
    renders = render_patches(args.renders, args.seed)
    if args.go_renders:
        go = go_render_patches(args.go_renders, args.seed + 1)
        renders = (np.concatenate([renders[0], go[0]]), np.concatenate([renders[1], go[1]]))
    real = {}
    for entry, folder, labels in found:
        truths = load_truths(folder, labels)
        feats = np.concatenate([photo_patches(folder, t) for t in truths.values()])
        occ = np.concatenate([np.array([c != "." for c in t.letters]) for t in truths.values()])
        real[str(entry["name"])] = (folder, labels, feats, occ)
    tables: dict[str, list[SetFigures]] = {"learned": [], "doubted": [], "rules": []}
    for name, (folder, labels, _f, _o) in real.items():
        model = train([renders] + [(f, o) for other, (_d, _l, f, o) in real.items() if other != name])
        for key, figures in measure_set(name, folder, labels, model, args.hi, args.lo, args.doubt).items():
            tables[key].append(figures)
    print(
        f"LEARNED piece test alone (trained on {args.renders} peg-board renders, {args.go_renders} Go-board "
        "renders and the other sets; never this set):"
    )
    print_sets(tables["learned"], missing)
    print(f"RULE-BASED reader DOUBTED by the learned test (empty: p >= {args.doubt}; piece: p <= {args.lo}):")
    print_sets(tables["doubted"], [])
    print("RULE-BASED reader alone, same calibrations:")
    print_sets(tables["rules"], [])
    if args.save:
        train([renders] + [(f, o) for (_d, _l, f, o) in real.values()]).save(args.save)
        print(f"weights (renders + every set here) written to {args.save}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
