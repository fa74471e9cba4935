"""A learned "is a piece here?" test over each hole's patch (issue 30: the first step of a reader
that carries over from renders to real boards, cameras and lamps).

The rule-based reader compares one robust colour per hole with learnt colours, and each real
condition (a lamp's hot spot, a tall piece seen beside its hole) needed a new special case. This
module looks at the whole square around a hole instead: 8x8 cells of the upright board (one
pitch across, so a head seen a third of a pitch beside its hole is still inside), in log colour
relative to the light at the hole (the median of the surrounding gaps, as
:func:`~vision.classify.hole_features` takes it), summarised ring by ring (how much, and where,
the patch differs from the board), and a logistic regression over those 48 numbers says how
likely a piece is there. Which colour the piece is stays the
calibration's job (one peg per colour, as before).

Why a linear model over fixed cells: it trains in seconds on these CPUs from renders and real
photos (``benchmarks/vision_learned.py``), its weights are a few kilobytes of JSON, and one
frame costs one resize, a few sums per ring and a dot product of 48 numbers per hole. Why
relative to the gaps: a brighter or warmer lamp scales every channel, which the log turns into
an offset that the subtraction removes (tested). Not yet used by the reader: the benchmark
measures it against the rule-based reader first.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

from vision.classify import LOG_OFFSET, block_median

if TYPE_CHECKING:
    import numpy as np
    from numpy.typing import NDArray

PATCH_PITCH = 24  # warped pixels between holes (the default sampler's pitch)
CELLS = 8  # cells per side of a hole's patch (one pitch across)


RINGS = ((0.0, 0.2), (0.2, 0.35), (0.35, 0.5), (0.5, 0.8))  # pitches from the hole's centre


def patch_cells(
    warped: NDArray[np.uint8], gaps: NDArray[np.float32], rows: int, cols: int
) -> NDArray[np.float64]:
    """(rows*cols, CELLS, CELLS, 3): each hole's patch in log colour relative to the light there.

    ``warped``: the upright board at :data:`PATCH_PITCH` pixels a pitch with the sampler's margin
    (``Sampler(rows, cols).sample(...).warped``); ``gaps``: that sample's gap medians.
    """
    import cv2
    import numpy as np

    from vision.sampling import MARGIN

    step = PATCH_PITCH // CELLS
    if warped.shape[0] != round((rows - 1 + 2 * MARGIN) * PATCH_PITCH):
        raise ValueError(f"patch_cells: the board must be warped at {PATCH_PITCH} pixels a pitch")
    size = (warped.shape[1] // step, warped.shape[0] // step)
    lg = np.log(cv2.resize(warped, size, interpolation=cv2.INTER_AREA).astype(np.float64) + LOG_OFFSET)
    gap_log = np.log(gaps.astype(np.float64) + LOG_OFFSET).reshape(rows + 1, cols + 1, 3)
    light = block_median(gap_log, rows, cols)
    # hole (r, c) sits at ((c + MARGIN) * pitch, ...): its patch spans half a pitch either side
    start = round((MARGIN - 0.5) * CELLS)
    r_idx = start + np.arange(rows)[:, None] * CELLS + np.arange(CELLS)[None, :]  # (rows, CELLS)
    c_idx = start + np.arange(cols)[:, None] * CELLS + np.arange(CELLS)[None, :]
    patches = lg[r_idx[:, None, :, None], c_idx[None, :, None, :]]  # (rows, cols, CELLS, CELLS, 3)
    relative = patches.reshape(rows * cols, CELLS, CELLS, 3) - light[:, None, None, :]
    return np.asarray(relative, dtype=np.float64)


def patch_features(
    warped: NDArray[np.uint8], gaps: NDArray[np.float32], rows: int, cols: int
) -> NDArray[np.float64]:
    """(rows*cols, 48) per hole: how its patch differs from the light there, ring by ring.

    Per ring (:data:`RINGS`) of the patch: the mean absolute, mean square and mean difference per
    channel, the mean absolute difference and the spread of the luminance; then the centre's
    luminance against the third ring's, the luminance's mean gradient across and down, and a
    constant 1 (the model's bias). Rings, not cells: a first model over the 8x8 cells themselves
    (and their squares) fitted each set's own colours and carried over to no other real set
    (trained on gobonline and renders, it gave Gomrade's stones a probability of at most
    0.001); the rings ask how much and where the patch differs, as a piece does on any board.
    """
    import numpy as np

    p = patch_cells(warped, gaps, rows, cols)
    yy, xx = np.mgrid[0:CELLS, 0:CELLS] + 0.5
    radius = np.hypot(yy - CELLS / 2, xx - CELLS / 2) / CELLS
    lum = p.mean(axis=3)
    out = []
    for inner, outer in RINGS:
        ring = (radius >= inner) & (radius < outer)
        q = p[:, ring, :]
        out += [
            np.abs(q).mean(axis=1),
            (q**2).mean(axis=1),
            q.mean(axis=1),
            np.abs(lum[:, ring]).mean(axis=1, keepdims=True),
            lum[:, ring].std(axis=1, keepdims=True),
        ]
    centre, third = radius < RINGS[0][1], (radius >= RINGS[2][0]) & (radius < RINGS[2][1])
    out.append((lum[:, centre].mean(axis=1) - lum[:, third].mean(axis=1))[:, None])
    out.append(np.abs(np.diff(lum, axis=2)).mean(axis=(1, 2))[:, None])
    out.append(np.abs(np.diff(lum, axis=1)).mean(axis=(1, 2))[:, None])
    out.append(np.ones((len(p), 1)))
    return np.asarray(np.hstack(out), dtype=np.float64)


@dataclass(frozen=True)
class PieceModel:
    """Logistic regression weights over :func:`patch_features`; ``mean``/``scale`` standardise."""

    weights: tuple[float, ...]
    mean: tuple[float, ...]
    scale: tuple[float, ...]

    def probability(self, features: NDArray[np.float64]) -> NDArray[np.float64]:
        """Per hole the probability that a piece is there."""
        import numpy as np

        x = (features - np.asarray(self.mean)) / np.asarray(self.scale)
        return np.asarray(
            1.0 / (1.0 + np.exp(-np.clip(x @ np.asarray(self.weights), -40, 40))), dtype=np.float64
        )

    def with_bias(self, shift: float) -> PieceModel:
        """The same model with its bias moved (adapting it to one user's pictures)."""
        w = list(self.weights)
        w[-1] += shift
        return PieceModel(tuple(w), self.mean, self.scale)

    def save(self, path: Path) -> None:
        data = {"weights": self.weights, "mean": self.mean, "scale": self.scale, "cells": CELLS}
        path.write_text(json.dumps(data) + "\n", encoding="utf-8")

    @staticmethod
    def load(path: Path) -> PieceModel:
        data = json.loads(path.read_text(encoding="utf-8"))
        if data.get("cells") != CELLS:
            raise ValueError(f"{path}: made for {data.get('cells')} cells a side, this code uses {CELLS}")
        return PieceModel(tuple(data["weights"]), tuple(data["mean"]), tuple(data["scale"]))


def fit(
    features: NDArray[np.float64],
    occupied: NDArray[np.bool_],
    *,
    l2: float = 1.0,
    steps: int = 25,
    weight: NDArray[np.float64] | None = None,
) -> PieceModel:
    """Logistic regression by Newton's method (a few hundred features: each step solves one small
    linear system), standardised features, an L2 penalty ``l2`` on all weights but the bias.
    ``weight``: per example (e.g. so that each source of pictures counts the same)."""
    import numpy as np

    mean = features.mean(axis=0)
    scale = features.std(axis=0)
    mean[-1], scale[-1] = 0.0, 1.0  # the constant column stays 1
    scale = np.where(scale > 1e-9, scale, 1.0)
    x = (features - mean) / scale
    y = occupied.astype(np.float64)
    sw = np.ones(len(y)) if weight is None else weight
    w = np.zeros(x.shape[1])
    penalty = np.full(x.shape[1], l2)
    penalty[-1] = 0.0
    for _ in range(steps):
        p = 1.0 / (1.0 + np.exp(-np.clip(x @ w, -40, 40)))
        grad = x.T @ (sw * (p - y)) + penalty * w
        hess = (x * (sw * p * (1 - p))[:, None]).T @ x + np.diag(penalty + 1e-9)
        delta = np.linalg.solve(hess, grad)
        w -= delta
        if float(np.abs(delta).max()) < 1e-6:
            break
    return PieceModel(
        tuple(float(v) for v in w), tuple(float(v) for v in mean), tuple(float(v) for v in scale)
    )
