"""The point net against the rule path on real photos, leave one set out.

    .venv/bin/python benchmarks/vision_point_net.py [--train] [--epochs 6] [--per-epoch 50000]
        [--data test-artifacts/point_net/data.npz] [--torch /work/torchvenv/bin/python] [--with-rules]
        [--sets A,B] [--widths 8,16,16,32]
    .venv/bin/python benchmarks/vision_point_net.py --drawn-lamps 6 [--seed-from 0]
        [--calibrate-under white] [--model FILE.onnx]

``--drawn-lamps N``: instead, Go boards drawn by ``benchmarks/go_render.draw`` (seeds
``--seed-from`` onward; the net was trained on ``draw_varied``'s boards, not these) calibrated
under one lamp (``--calibrate-under``, white) and read under each other lamp of
``benchmarks/vision_lamps.py``, by the net and by the rules: points wrong and unsure per lamp.

For each tuning set of ``benchmarks/real_photos/sets.json`` that is here, a model trained
*without that set's photos* (``benchmarks/train_point_net.py --leave-out SET``, written to
``test-artifacts/point_net/loso_SET.onnx``; ``--train`` (re)trains them, otherwise the ones there
are used) calibrates for and reads the set as ``vision_real_photos.py --sets`` does (each photo
showing every colour calibrates in turn, a refusal counts against acceptance, the others are
read). The renders in its training data are the same for every model; no photo of the set
measured is. Then the rule path on the same calibrations, for comparison. The shipped model
(``vision/models/point_net.onnx``) is trained on all sets: its ``--sets`` figures are in-sample.
"""

from __future__ import annotations

import argparse
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from benchmarks.vision_real_photos import available_sets, load_truths, print_sets, set_figures, set_runs  # noqa: E402


def drawn_lamps(count: int, first_seed: int = 0, calibrate_under: str = "white") -> int:
    import numpy as np

    from benchmarks.go_render import draw
    from benchmarks.vision_lamps import LAMPS, relight
    from vision.groundtruth import score
    from vision.net_calibration import calibrate_picture
    from vision.profile import BoardProfile, ProfileError
    from vision.reader import read_image

    names = {"B": "black", "W": "white"}
    lamps = [lamp for lamp in LAMPS if lamp != calibrate_under]
    totals = {key: [0, 0, 0] for key in ("net", "rules")}  # wrong, unsure, refused
    print(f"{'seed':>4s} {'lamp':8s} {'net wrong':>9s} {'unsure':>6s} {'rules wrong':>11s} {'unsure':>6s}")
    for seed in range(first_seed, first_seed + count):
        image, corners, letters = draw(np.random.default_rng(seed))
        profiles = {}
        for key in totals:
            try:
                profiles[key] = calibrate_picture(
                    relight(image, LAMPS[calibrate_under]),
                    corners,
                    BoardProfile(rows=19, cols=19),
                    letters,
                    names,
                    net=key == "net",
                )
            except ProfileError:
                totals[key][2] += 1
        for lamp in lamps:
            picture = relight(image, LAMPS[lamp])
            cells = []
            for key in totals:
                if key not in profiles:
                    cells.append(f"{'refused':>9s} {'':>6s}")
                    continue
                s = score(read_image(picture, profiles[key], corners=corners).letters, letters, 19)
                totals[key][0] += len(s.wrong)
                totals[key][1] += len(s.unsure)
                cells.append(f"{len(s.wrong):9d} {len(s.unsure):6d}")
            print(f"{seed:4d} {lamp:8s} {cells[0]} {cells[1]:>18s}")
    points = count * len(lamps) * 361
    for key, (wrong, unsure, refused) in totals.items():
        print(
            f"{key}: {wrong} wrong ({100 * wrong / points:.2f} %), {unsure} unsure "
            f"({100 * unsure / points:.2f} %) of {points} points; calibrations refused {refused} of {count}"
        )
    return 0


def main() -> int:
    from benchmarks.fetch_real_photos import cache_dir
    from vision import point_net
    from vision.point_net import use_model

    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--train", action="store_true", help="train the left-out models first")
    parser.add_argument("--epochs", type=int, default=6)
    parser.add_argument("--per-epoch", type=int, default=50000)
    parser.add_argument("--data", type=Path, default=ROOT / "test-artifacts" / "point_net" / "data.npz")
    parser.add_argument("--torch", default="/work/torchvenv/bin/python", help="a python with torch")
    parser.add_argument("--shared", type=Path, default=ROOT.parent / "shared")
    parser.add_argument("--no-rules", action="store_true", help="skip the rule path's table")
    parser.add_argument(
        "--with-rules", action="store_true", help="read only where the net and the rules agree"
    )
    parser.add_argument(
        "--drawn-lamps", type=int, default=0, help="drawn boards under coloured lamps instead"
    )
    parser.add_argument("--seed-from", type=int, default=0, help="--drawn-lamps: the first board's seed")
    parser.add_argument("--calibrate-under", default="white", help="--drawn-lamps: the calibration's lamp")
    parser.add_argument("--model", type=Path, help="--drawn-lamps: read with this model, not the shipped one")
    parser.add_argument("--widths", default="8,16,16,32", help="--train: the net's widths")
    parser.add_argument("--sets", default="", help="only these sets (comma-separated names)")
    args = parser.parse_args()
    point_net.WITH_RULES = args.with_rules
    if args.drawn_lamps:
        use_model(args.model)
        return drawn_lamps(args.drawn_lamps, args.seed_from, args.calibrate_under)
    found, missing = available_sets(args.shared, cache_dir())
    net_figures, rule_figures = [], []
    wanted = {n for n in args.sets.split(",") if n}
    for entry, folder, labels in found:
        name = str(entry["name"])
        if wanted and name not in wanted:
            continue
        model = args.data.parent / f"loso_{name}.onnx"
        if args.train or not model.exists():
            command = [
                args.torch,
                str(ROOT / "benchmarks" / "train_point_net.py"),
                "--data",
                str(args.data),
                "--epochs",
                str(args.epochs),
                "--per-epoch",
                str(args.per_epoch),
                "--widths",
                args.widths,
                "--leave-out",
                name,
                "--out",
                str(model),
            ]
            print("training:", " ".join(command), flush=True)
            subprocess.run(command, check=True)
        truths = load_truths(folder, labels)
        use_model(model)
        net_figures.append(set_figures(name, set_runs(entry, folder, truths, net=True), list(truths)))
        use_model(None)
        if not args.no_rules:
            rule_figures.append(set_figures(name, set_runs(entry, folder, truths), list(truths)))
    print("POINT NET, each set read by a model that never saw it (leave one set out):")
    print_sets(net_figures, missing)
    if rule_figures:
        print("RULE PATH, same calibration photos:")
        print_sets(rule_figures, [])
    return 0


if __name__ == "__main__":
    sys.exit(main())
