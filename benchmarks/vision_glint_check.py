"""What the reader's glint check costs and gains: the unseen boards' pictures read with it and
without it, and with the stickers' paper taken darker than white (paper that is not white).

    .venv/bin/python benchmarks/vision_glint_check.py [--setups NAME,...] [--pictures 16]
        [--seed-offset 2000] [--paper 1.0]

Per setup: calibrated the app's way (as ``vision_unseen.py`` does), then its reading pictures
read twice, the check on and off (``BoardReader._glinting`` answering "no hole" when off):
holes read wrong with confidence, unsure, and pegs unsure. ``--paper 0.85`` multiplies every
sticker's paper as measured before the check uses it. The check is ``vision.classify.glint_free``
(docs/vision.md, the per-frame table).
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "benchmarks"))

PALE = (  # white or glossy pegs, and glints
    "birch-pale-pegs-warm,birch-white-flat-small,maple-tee-glints-warm,walnut-dome-fat-low,"
    "birch-flat-fat-white,cherry-tee-glints"
)


def main() -> int:
    from dataclasses import replace

    import cv2
    import numpy as np
    import unseen_board as ub
    import vision_unseen as vu

    import vision.reader as reader

    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--setups", default=PALE, help="comma-separated setups (default: pale, glossy)")
    parser.add_argument("--pictures", type=int, default=16)
    parser.add_argument("--seed-offset", type=int, default=2000)
    parser.add_argument("--paper", type=float, default=1.0, help="the stickers' paper as measured, times")
    parser.add_argument("--cache", default=vu.CACHE)
    args = parser.parse_args()
    cv2.setNumThreads(1)
    cache = Path(args.cache)
    cache.mkdir(parents=True, exist_ok=True)
    measured = reader.paper_over_board
    checked = reader.BoardReader._glinting

    def darker(papers, *rest):  # type: ignore[no-untyped-def]
        return measured({k: tuple(args.paper * v for v in c) for k, c in papers.items()}, *rest)

    def unchecked(self, samples, features, letters, noise):  # type: ignore[no-untyped-def]
        return np.zeros(len(letters), dtype=np.bool_)

    reader.paper_over_board = darker  # type: ignore[assignment]
    print(f"paper x{args.paper}, {args.pictures} pictures per setup, seed offset {args.seed_offset}")
    print(f"{'setup':28s} {'check':6s} {'wrong':>6s} {'unsure':>7s} {'pegs unsure':>12s}")
    for name in args.setups.split(","):
        base = next(s for s in ub.setups() if s.name == name)
        setup = replace(base, seed=base.seed + args.seed_offset)
        profile, _session, said = vu.calibrate(setup, cache)
        if profile is None:
            print(f"{name:28s} calibration refused: {vu.sentence(said[-1])[:80]}")
            continue
        for label, glinting in (("off", unchecked), ("on", checked)):
            reader.BoardReader._glinting = glinting  # type: ignore[method-assign]
            rng = np.random.default_rng([setup.seed, 2])
            wrong = unsure = pegs_unsure = 0
            for i in range(args.pictures):
                shot = ub.shot_for(setup, rng, seed=i + 1)
                letters = reader.read_image(vu._frame(setup, shot, cache), profile).letters
                for got, want in zip(letters, ub.truth(shot), strict=True):
                    wrong += got not in ("?", want)
                    unsure += got == "?"
                    pegs_unsure += got == "?" and want != "."
            print(f"{name:28s} {label:6s} {wrong:6d} {unsure:7d} {pegs_unsure:12d}")
        reader.BoardReader._glinting = checked  # type: ignore[method-assign]
    return 0


if __name__ == "__main__":
    sys.exit(main())
