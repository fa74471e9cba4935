"""Speed of the whole per-frame path at 1280x960 on one core, and the cost of each stage.

    .venv/bin/python benchmarks/vision_speed.py [--frames 300] [--setup NAME]
    .venv/bin/python benchmarks/vision_speed.py --grid [--frames 300] [--lamp orange]
        [--reader net [--model FILE.onnx]]

``--grid``: a 19x19 Go board drawn by ``benchmarks/go_render.py`` at 1280x960, read by its four
corners with a median profile learnt from the same drawing (the real photos' path: every check
of the corner grids included); there is nothing to locate per frame. ``--lamp``: the frames
relit by a lamp of ``benchmarks/vision_lamps.py`` after calibration, so that the check of a
channel the lamp dimmed (one more classification per such channel) is in the figure.
``--reader net``: the grid read by the point net (``vision/point_net.py``: the patches and one
batched forward through OpenCV's dnn module per frame) instead of the rules.

``--setup`` takes one of ``benchmarks/vision_unseen.py``'s setups instead (e.g. the smallest pegs,
``pine-tee-small-yellow``, whose small sampling disc makes the reader warp at twice the pitch),
calibrated the app's way.

Frames are rendered beforehand (a still board with sensor noise, so every frame differs); the
reader then processes them as the camera source would. ``cv2.setNumThreads(1)`` keeps OpenCV on
one core. Locating the stickers runs only on the first frame and now and then, so its cost is
reported separately from the steady per-frame path.
"""

from __future__ import annotations

import argparse
import sys
import time
from dataclasses import replace
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
    parser.add_argument("--setup", default="", help="a setup of benchmarks/vision_unseen.py")
    parser.add_argument("--grid", action="store_true", help="a 19x19 Go board read by its corners")
    parser.add_argument(
        "--lamp", default="", help="--grid: frames relit by this lamp of vision_lamps.py (a dimmed channel)"
    )
    parser.add_argument("--reader", choices=("rules", "net"), default="rules", help="--grid: read by")
    parser.add_argument("--model", type=Path, help="--reader net: this model, not the shipped one")
    args = parser.parse_args()
    if args.model is not None:
        from vision.point_net import use_model

        use_model(args.model)
    cv2.setNumThreads(1)
    corners = None
    if args.grid:
        sys.path.insert(0, str(ROOT / "benchmarks"))
        from go_render import draw

        from vision.calibration import learn_labelled, with_board_colour
        from vision.profile import BoardProfile
        from vision.reader import read_image

        rng = np.random.default_rng(3)
        picture, corners, letters = draw(rng)
        blank = BoardProfile(rows=19, cols=19, features=3)
        first = read_image(picture, blank, corners=corners)
        assert first.features is not None
        profile = learn_labelled(blank, [(first.features, letters)], {"B": "black", "W": "white"})
        assert first.samples is not None
        profile = with_board_colour(profile, first.samples.gaps)
        if args.reader == "net":
            profile = replace(profile, net_bias=0.0)
        if args.lamp:
            from vision_lamps import LAMPS, relight

            picture = relight(picture, LAMPS[args.lamp])
        noise = [rng.normal(0, 3.0, picture.shape) for _ in range(10)]
        frames = [np.clip(picture + n, 0, 255).astype(np.uint8) for n in noise]
    elif args.setup:
        sys.path.insert(0, str(ROOT / "benchmarks"))
        import unseen_board as ub
        from vision_unseen import calibrate

        setup = next((s for s in ub.setups() if s.name == args.setup), None)
        if setup is None:
            print(f"unknown setup {args.setup!r}", file=sys.stderr)
            return 2
        calibrated, _session, said = calibrate(setup, None)
        if calibrated is None:
            print(f"{args.setup}: calibration refused: {said[-1].message}", file=sys.stderr)
            return 1
        profile = calibrated
        shot = ub.shot_for(setup, np.random.default_rng(3), seed=1)
        frames = [ub.render(setup, replace(shot, frame=i)) for i in range(10)]
    else:
        profile = calibrated_profile()
        base = random_scene(np.random.default_rng(3), pegs=40)
        frames = [
            render(Scene(pegs=base.pegs, tilt=0.3, noise=3.0, jpeg=80, seed=5, frame=i)) for i in range(10)
        ]
    from vision.reader import sampler_for

    dims = len(profile.empty.mean) if profile.empty else 0
    print(
        f"profile: sampling disc {2 * profile.sample_radius:.2f} pitch across, warped at"
        f" {sampler_for(profile).pitch} px per hole, {dims} features per hole"
    )
    assert frames[0].shape[:2] == (960, 1280)
    reader = BoardReader(profile, corners=corners, relocate_every=10**9)
    reader.process(frames[0])  # locates the board
    totals: dict[str, float] = {}
    started, cpu_started = time.perf_counter(), time.process_time()
    for i in range(args.frames):
        result = reader.process(frames[i % len(frames)])
        for stage, seconds in result.stages.items():
            totals[stage] = totals.get(stage, 0.0) + seconds
    elapsed, cpu = time.perf_counter() - started, time.process_time() - cpu_started
    print(
        f"per-frame path at 1280x960, one core: {args.frames / elapsed:.1f} frames/s "
        f"({1000 * elapsed / args.frames:.2f} ms per frame); by this process's CPU time "
        f"{args.frames / cpu:.1f} frames/s (what one core gives it when it is not shared)"
    )
    for stage, seconds in totals.items():
        print(f"  {stage:12s} {1000 * seconds / args.frames:7.3f} ms")
    if corners is not None:
        return 0
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
