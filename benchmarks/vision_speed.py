"""Speed of the whole per-frame path at 1280x960 on one core, and the cost of each stage.

    .venv/bin/python benchmarks/vision_speed.py [--frames 300]

Frames are rendered beforehand (a still board with sensor noise, so every frame differs); the
reader then processes them as the camera source would. ``cv2.setNumThreads(1)`` keeps OpenCV on
one core. Locating the stickers runs only on the first frame and now and then, so its cost is
reported separately from the steady per-frame path.
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))


def main() -> int:
    import cv2
    import numpy as np

    from tests.render_board import Scene, calibrated_profile, random_scene, render
    from vision.markers import MarkerFinder
    from vision.reader import BoardReader

    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--frames", type=int, default=300)
    args = parser.parse_args()
    cv2.setNumThreads(1)
    profile = calibrated_profile()
    base = random_scene(np.random.default_rng(3), pegs=40)
    frames = [render(Scene(pegs=base.pegs, tilt=0.3, noise=3.0, jpeg=80, seed=5, frame=i)) for i in range(10)]
    assert frames[0].shape[:2] == (960, 1280)
    reader = BoardReader(profile, relocate_every=10**9)
    reader.process(frames[0])  # locates the board
    totals: dict[str, float] = {}
    started = time.perf_counter()
    for i in range(args.frames):
        result = reader.process(frames[i % len(frames)])
        for stage, seconds in result.stages.items():
            totals[stage] = totals.get(stage, 0.0) + seconds
    elapsed = time.perf_counter() - started
    print(
        f"per-frame path at 1280x960, one core: {args.frames / elapsed:.1f} frames/s "
        f"({1000 * elapsed / args.frames:.2f} ms per frame)"
    )
    for stage, seconds in totals.items():
        print(f"  {stage:12s} {1000 * seconds / args.frames:7.3f} ms")
    finder = MarkerFinder(profile.dictionary)
    t = time.perf_counter()
    for i in range(20):
        finder.find(frames[i % len(frames)])
    print(
        f"  locating the stickers (first frame, after movement, every 90 frames): "
        f"{1000 * (time.perf_counter() - t) / 20:.2f} ms each"
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
