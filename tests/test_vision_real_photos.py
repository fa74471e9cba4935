"""The real-photo check: calibrate on one gobonline photo, read the other six by their grid corners.

Runs when ``../shared`` is beside the project (skips with the reason otherwise). It asserts the
accuracy actually achieved (see docs/vision.md and ``benchmarks/vision_real_photos.py``), so a
change that reads real photos worse fails here.
"""

from __future__ import annotations

from pathlib import Path

from benchmarks.vision_real_photos import CALIBRATION_PHOTO, run


def test_real_photos_are_read_as_well_as_measured(shared_dir: Path) -> None:
    results, used = run(shared_dir / "datasets" / "gobonline")
    assert used == CALIBRATION_PHOTO and len(results) == 6
    by_name = {r.name: r.score for r in results}
    total = sum(s.total for s in by_name.values())
    correct = sum(s.correct for s in by_name.values())
    assert correct / total >= 0.992, f"{correct}/{total}"
    for name in ("few_stones_overhead.jpeg", "laser_empty_board.jpg", "laser_empty_board_2.jpg"):
        assert by_name[name].share == 1.0, (name, by_name[name].wrong, by_name[name].unsure)
    for name, score in by_name.items():
        assert score.share >= 0.977, (name, score.wrong, score.unsure)
    # every black stone is read; of the white ones only the one under glare is missed
    stones = [(name, w) for name, s in by_name.items() for w in s.wrong + s.unsure if w[-1] in "BW"]
    assert stones == [("few_stones_glare.jpg", (3, 3, ".", "W"))]
