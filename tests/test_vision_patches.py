"""The learned piece test's features and model (``vision/patches.py``, issue 30)."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from tests.render_board import SMALL, Scene, camera_from_board, render
from vision.patches import PieceModel, fit, patch_features
from vision.sampling import Sampler

PEGS = {11: "red", 12: "blue", 45: "yellow", 77: "green"}


def _features(frame: np.ndarray, scene: Scene) -> np.ndarray:
    samples = Sampler(10, 10).sample(frame, camera_from_board(scene) @ np.diag([25.0, 25.0, 1.0]))
    return patch_features(samples.warped, samples.gaps, 10, 10)


def test_a_brighter_or_warmer_lamp_leaves_the_features_nearly_as_they_were() -> None:
    """Relative to the light at each hole in log colour, a lamp that scales the channels
    (brighter, warmer) is an offset taken out: the features move little against how far a
    piece moves them."""
    scene = Scene(size=SMALL, pegs=PEGS)
    frame = render(scene)
    base = _features(frame, scene)
    lamp = np.clip(frame.astype(np.float64) * np.array([0.7, 0.85, 1.0]), 0, 255).astype(np.uint8)
    moved = np.abs(_features(lamp, scene) - base)[:, :-1]
    empty = [h for h in range(100) if h not in PEGS]
    piece = np.abs(base[list(PEGS)] - base[empty].mean(axis=0))[:, :-1]
    assert np.median(moved) < 0.1 * np.median(piece)


def test_the_model_learns_pieces_from_renders_and_reads_another_render() -> None:
    train_scene = Scene(
        size=SMALL, pegs={h: ("red", "blue", "yellow", "green")[h % 4] for h in range(0, 100, 3)}
    )
    feats = _features(render(train_scene), train_scene)
    occupied = np.array([h in train_scene.pegs for h in range(100)])
    model = fit(feats, occupied)
    other = Scene(size=SMALL, pegs=PEGS, rotation=4, tilt=0.3, seed=5)
    p = model.probability(_features(render(other), other))
    assert (p[list(PEGS)] > 0.9).all() and (np.delete(p, list(PEGS)) < 0.1).all()


def test_weights_are_saved_and_loaded_and_a_model_for_other_cells_is_refused(tmp_path: Path) -> None:
    model = PieceModel((0.5, -1.0), (0.0, 0.0), (1.0, 1.0))
    path = tmp_path / "piece.json"
    model.save(path)
    assert PieceModel.load(path) == model
    path.write_text('{"weights": [1], "mean": [0], "scale": [1], "cells": 4}\n', encoding="utf-8")
    with pytest.raises(ValueError, match="made for 4 cells a side"):
        PieceModel.load(path)


def test_a_board_warped_at_another_pitch_is_refused_in_one_line() -> None:
    with pytest.raises(ValueError, match="must be warped at 24 pixels a pitch"):
        patch_features(np.zeros((100, 100, 3), np.uint8), np.zeros((121, 3), np.float32), 10, 10)
