"""The figures the guided calibration's limits were chosen on, on the unseen boards (issue 13,
fifth round; docs/vision.md): in-sample wherever they were looked at to choose a limit.

    .venv/bin/python benchmarks/vision_calibration_margins.py [--seed-offset 2000] [--setups ...]
    .venv/bin/python benchmarks/vision_calibration_margins.py --sweep maple-tee-glints-warm \\
        --offsets 0,2000 --draws 3 --pictures 12

Per setup (its first draw at the offset), calibrated the app's way (``vision_unseen.calibrate``):

- empty holes' board-wide distance from empty (most different number, ``calibration.peg_distance``
  without the own look): median and 90th percentile, and the calibration pegs' least
  (``LIKE_EMPTY_HOLE``);
- with 48 pegs in holes the light there is even (the calibration's light, five frames): two pegs
  of one colour, as seen and with the brightness set aside, the largest distance and brightness
  between them; two of different colours, the least (``LOOKS_LIKE``, ``BRIGHTNESS_ASIDE``);
- each colour's distance from empty (``calibration_session.from_empty``: ``TOO_NEAR_EMPTY``,
  ``classify.NEAR_EMPTY``);
- empty holes whose own look is ``STRAY_PEG`` from the board's and like a learnt colour (the
  check for a peg left on the board for the empty picture): how many, which should be none.

``--sweep SETUP``: the setup's reading pictures over several draws, read with ``NEAR_EMPTY`` at
several values (0 = the plain 1.5 margin): holes read wrong with confidence and unsure.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "benchmarks"))


def margins(setups: list[str], offset: int, cache: Path) -> None:
    from dataclasses import replace

    import numpy as np
    import unseen_board as ub
    import vision_unseen as vu

    from vision.calibration import light_trouble, peg_distance
    from vision.calibration_session import LOOKS_LIKE, STRAY_PEG, closest_colour, from_empty, still_picture
    from vision.reader import read_image

    same_seen = same_hue = brightness = 0.0
    other_seen = other_hue = faintest = float("inf")
    empties: list[float] = []
    for name in setups:
        base = next(s for s in ub.setups() if s.name == name)
        setup = replace(base, seed=base.seed + offset)
        profile, session, said = vu.calibrate(setup, cache)
        if profile is None:
            print(f"{name:28s} calibration refused: {vu.sentence(said[-1])[:70]}")
            continue
        own = np.asarray(profile.empty_holes)
        board = peg_distance(own, profile.empty)
        steps = [read_image(f, profile).features for _l, _n, _h, f in session.steps]
        pegs_board = [
            float(peg_distance(f[h : h + 1], profile.empty)[0])
            for f, (_l, _n, h, _f) in zip(steps, session.steps, strict=True)
        ]
        # pegs of every colour under the calibration's light, in the evenly lit half of the holes
        empty_read = read_image(session.empty_frame, replace(profile, empty=None, colours=()))
        samples = empty_read.samples
        lamps = [(1.0, 1.0, 1.0), profile.lamp]
        trouble = light_trouble(samples.holes, samples.gaps, empty_read.features, 10, 10, lamps)
        rng = np.random.default_rng(5)
        holes = [int(h) for h in rng.permutation(100) if 0 < h // 10 < 9 and 0 < h % 10 < 9][:48]
        placed = {h: setup.colours[i % len(setup.colours)] for i, h in enumerate(holes)}
        frames = [ub.render(setup, ub.Shot(pegs=placed, seed=1000, frame=90 + j)) for j in range(5)]
        features = read_image(still_picture(frames), profile).features
        even = [h for h in placed if trouble[h] < np.quantile(trouble, 0.5)]
        spreads = {c.name: c for c in profile.colours}
        s_seen = s_hue = s_shift = 0.0
        o_seen = o_hue = float("inf")
        for i, a in enumerate(even):
            for b in even[i + 1 :]:
                model = spreads[placed[b]]
                seen = float(np.sqrt((((features[a] - features[b]) / np.asarray(model.spread)) ** 2).mean()))
                hue = closest_colour([model], [features[b]], features[a])[0]
                if placed[a] == placed[b]:
                    shift = abs(float(np.median(features[a] - features[b])))
                    s_seen, s_hue, s_shift = max(s_seen, seen), max(s_hue, hue), max(s_shift, shift)
                else:
                    o_seen, o_hue = min(o_seen, seen), min(o_hue, hue)
        means = [np.asarray(c.mean) for c in profile.colours]
        odd = np.flatnonzero(board >= STRAY_PEG)
        strays = [h for h in odd if closest_colour(list(profile.colours), means, own[h])[0] < LOOKS_LIKE]
        near = ", ".join(f"{c.name} {from_empty(c, profile.empty):.2f}" for c in profile.colours)
        print(
            f"{name:28s} empty median {np.median(board):.2f} q90 {np.quantile(board, 0.9):.2f}"
            f" pegs >= {min(pegs_board):.2f} | one colour: seen {s_seen:.2f} hue {s_hue:.2f}"
            f" brighter {s_shift:.2f} | two: seen {o_seen:.2f} hue {o_hue:.2f} | from empty: {near}"
            f" | stray-like holes {len(strays)}",
            flush=True,
        )
        same_seen, same_hue = max(same_seen, s_seen), max(same_hue, s_hue)
        brightness = max(brightness, s_shift)
        empties.extend(board.tolist())
        faintest = min(faintest, min(pegs_board))
        other_seen, other_hue = min(other_seen, o_seen), min(other_hue, o_hue)
    print(
        f"all: empty holes' board-wide distance median {np.median(empties):.2f},"
        f" 90 % within {np.quantile(empties, 0.9):.2f}; the faintest calibration peg {faintest:.2f}"
    )
    print(
        f"all: one colour within {same_seen:.2f} as seen, {same_hue:.2f} with the brightness set aside,"
        f" {brightness:.2f} brighter or darker; two colours no nearer than {other_seen:.2f} as seen,"
        f" {other_hue:.2f} with it set aside"
    )


def sweep(name: str, offsets: list[int], draws: int, pictures: int, cache: Path) -> None:
    from dataclasses import replace

    import numpy as np
    import unseen_board as ub
    import vision_unseen as vu

    import vision.classify as classify
    from vision.reader import read_image

    base = next(s for s in ub.setups() if s.name == name)
    calibrated = []
    for offset in offsets:
        for draw in range(draws):
            setup = replace(base, seed=base.seed + offset + vu.DRAW_STRIDE * draw)
            profile, _session, _said = vu.calibrate(setup, cache)
            if profile is not None:
                calibrated.append((setup, profile))
    print(f"{name}: {len(calibrated)} draws calibrated, {pictures} pictures each")
    for near in (0.0, 2.25, 3.0, 3.75, 4.5):
        classify.NEAR_EMPTY = near
        wrong = unsure = holes = 0
        for setup, profile in calibrated:
            rng = np.random.default_rng([setup.seed, 2])
            for i in range(pictures):
                shot = ub.shot_for(setup, rng, seed=i + 1)
                letters = read_image(vu._frame(setup, shot, cache), profile).letters
                truth = ub.truth(shot)
                holes += len(truth)
                wrong += sum(got not in ("?", want) for got, want in zip(letters, truth, strict=True))
                unsure += letters.count("?")
        share = f"wrong {wrong} ({100 * wrong / holes:.2f}%), unsure {100 * unsure / holes:.2f}%"
        print(f"  NEAR_EMPTY {near:4.2f}: {share}", flush=True)


def main() -> int:
    import cv2
    import unseen_board as ub
    import vision_unseen as vu

    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seed-offset", type=int, default=2000)
    parser.add_argument("--setups", default="", help="comma-separated setups (default: all)")
    parser.add_argument("--sweep", default="", metavar="SETUP", help="sweep NEAR_EMPTY on this setup")
    parser.add_argument("--offsets", default="0,2000", help="with --sweep: seed offsets")
    parser.add_argument("--draws", type=int, default=3, help="with --sweep: draws per offset")
    parser.add_argument("--pictures", type=int, default=12, help="with --sweep: pictures per draw")
    parser.add_argument("--cache", default=vu.CACHE)
    args = parser.parse_args()
    cv2.setNumThreads(1)
    cache = Path(args.cache)
    cache.mkdir(parents=True, exist_ok=True)
    if args.sweep:
        sweep(args.sweep, [int(v) for v in args.offsets.split(",")], args.draws, args.pictures, cache)
    else:
        names = args.setups.split(",") if args.setups else [s.name for s in ub.setups()]
        margins(names, args.seed_offset, cache)
    return 0


if __name__ == "__main__":
    sys.exit(main())
