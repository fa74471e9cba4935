"""The point net's training patches: randomised renders plus the tuning photos, relit.

    .venv/bin/python benchmarks/point_net_data.py [--renders 300] [--relights 4] [--seed 7]
        [--out test-artifacts/point_net/data.npz]

Step one of two (step two, ``benchmarks/train_point_net.py``, runs in a venv with torch and
reads what this writes). Split so that this step needs only the project's own venv (OpenCV) and
the training venv needs only torch and numpy.

What it writes (``--out``, an ``.npz``; and beside it ``--out`` with ``.json``: the data list):
every grid point's patch (``vision.point_net.point_patches`` with a 2-pixel border, so training
can crop patches shifted by up to 0.17 pitch), its class (0 empty, 1 black/dark, 2 white/light)
and its source (0: renders, k: the k-th real set of ``benchmarks/real_photos/sets.json``).

- Renders: ``--renders`` boards of ``benchmarks/go_render.draw_varied`` (Go 9/13/19 and
  Othello-like boards, wood from pale to dark, green felt, lifted stones, strongly coloured
  lamps, hot spots, blur, noise, JPEG), seeds ``--seed``, ``--seed + 1``, ...
- Real photos: every photo of every tuning set that is here, as taken and relit by
  ``--relights`` random lamps (``benchmarks/vision_lamps.relight``, per-channel gains
  ``go_render.saturated_lamp``: the brightest 1, the others log-uniform down to 0.06, behind the
  camera's colour matrix), each photo named with its SHA-256: gobonline, Gomrade's, and since
  2026-11-28 the five sets once held out (imago-tests' three Go boards, two recessed Othello
  boards) and the sets labelled for training since. Never the held-out sets (``heldout.json``;
  their repositories are ``sets.json``'s ``held_out`` and are not in its ``sets``).
"""

from __future__ import annotations

import argparse
import hashlib
import json
import sys
import time
from pathlib import Path
from typing import TYPE_CHECKING

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

if TYPE_CHECKING:
    import numpy as np
    from numpy.typing import NDArray

BORDER = 2
CLASS = {".": 0, "B": 1, "W": 2}


def board_patches(
    image: NDArray[np.uint8], corners: list[tuple[float, float]], rows: int, cols: int
) -> NDArray[np.float16]:
    """Every point's patch (with :data:`BORDER`) of one picture, read by its four outer points."""
    import numpy as np

    from vision.point_net import point_patches
    from vision.sampling import Sampler, homography_from_corners

    sampler = Sampler(rows, cols)
    samples = sampler.sample(image, homography_from_corners(corners, rows, cols))
    patches = point_patches(samples.warped, samples.gaps, rows, cols, sampler.pitch, border=BORDER)
    return patches.astype(np.float16)


def random_lamp(rng: np.random.Generator) -> tuple[float, float, float]:
    from benchmarks.go_render import saturated_lamp

    return saturated_lamp(rng)


def main() -> int:
    import cv2
    import numpy as np

    from benchmarks.fetch_real_photos import cache_dir
    from benchmarks.go_render import draw_varied
    from benchmarks.vision_lamps import relight
    from benchmarks.vision_real_photos import available_sets, load_truths

    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--renders", type=int, default=300)
    parser.add_argument("--relights", type=int, default=4, help="random lamps per real photo")
    parser.add_argument("--seed", type=int, default=7)
    parser.add_argument("--shared", type=Path, default=ROOT.parent / "shared")
    parser.add_argument("--out", type=Path, default=ROOT / "test-artifacts" / "point_net" / "data.npz")
    args = parser.parse_args()
    cv2.setNumThreads(1)
    patches: list[NDArray[np.float16]] = []
    labels: list[NDArray[np.int8]] = []
    sources: list[NDArray[np.int8]] = []
    started = time.perf_counter()
    drawn = {"othello": 0, "go": 0, "coloured_lamp": 0}
    for k in range(args.renders):
        image, corners, letters, info = draw_varied(np.random.default_rng(args.seed + k))
        size = int(info["size"])  # type: ignore[call-overload]
        drawn["othello" if info["othello"] else "go"] += 1
        drawn["coloured_lamp"] += int(info["lamp"] != (1.0, 1.0, 1.0))
        patches.append(board_patches(image, corners, size, size))
        labels.append(np.array([CLASS[c] for c in letters], dtype=np.int8))
        sources.append(np.zeros(len(letters), dtype=np.int8))
    print(f"{args.renders} renders in {time.perf_counter() - started:.0f} s", flush=True)
    found, missing = available_sets(args.shared, cache_dir())
    rng = np.random.default_rng(args.seed)
    photos: list[dict[str, object]] = []
    set_names = []
    for index, (entry, folder, label_file) in enumerate(found, start=1):
        set_names.append(str(entry["name"]))
        for name, truth in load_truths(folder, label_file).items():
            path = folder / name
            raw = cv2.imread(str(path), cv2.IMREAD_COLOR)
            if raw is None:
                raise SystemExit(f"{path}: cannot read the image")
            lamps = [(1.0, 1.0, 1.0)] + [random_lamp(rng) for _ in range(args.relights)]
            rows, cols = truth.size
            for lamp in lamps:
                image = raw if lamp == (1.0, 1.0, 1.0) else relight(raw, lamp)
                patches.append(board_patches(image, list(truth.corners), rows, cols))
                labels.append(np.array([CLASS[c] for c in truth.letters], dtype=np.int8))
                sources.append(np.full(len(truth.letters), index, dtype=np.int8))
            photos.append(
                {
                    "set": entry["name"],
                    "file": name,
                    "sha256": hashlib.sha256(path.read_bytes()).hexdigest(),
                    "lamps": lamps,
                }
            )
    args.out.parent.mkdir(parents=True, exist_ok=True)
    np.savez(
        args.out,
        patches=np.concatenate(patches),
        labels=np.concatenate(labels),
        sources=np.concatenate(sources),
        set_names=np.array(set_names),
    )
    data_list = {
        "what": "training patches of the point net (benchmarks/point_net_data.py)",
        "renders": {
            "generator": "benchmarks/go_render.draw_varied",
            "seeds": [args.seed, args.seed + args.renders - 1],
            "drawn": drawn,
        },
        "real_photos": photos,
        "sets_missing": missing,
        "relight": "benchmarks/vision_lamps.relight, gains go_render.saturated_lamp "
        "(brightest 1, others log-uniform 0.06-1), "
        f"rng seed {args.seed}",
        "patch": {"border": BORDER, "classes": CLASS},
        "command": f"benchmarks/point_net_data.py --renders {args.renders} --relights {args.relights} "
        f"--seed {args.seed}",
    }
    args.out.with_suffix(".json").write_text(json.dumps(data_list, indent=1) + "\n", encoding="utf-8")
    total = sum(len(x) for x in labels)
    print(f"{total} patches ({len(photos)} real photos, sets missing: {missing or 'none'}) -> {args.out}")
    print(f"took {time.perf_counter() - started:.0f} s")
    return 0


if __name__ == "__main__":
    sys.exit(main())
