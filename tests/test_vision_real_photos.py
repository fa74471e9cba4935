"""The real-photo check: calibrate on gobonline photos, read the others by their grid corners.

Runs when ``../shared`` is beside the project (skips with the reason otherwise). It asserts the
accuracy actually achieved (see docs/vision.md and ``benchmarks/vision_real_photos.py``), so a
change that reads real photos worse fails here: the default calibration photo in detail, and
the leave-one-out run (every photo that shows both colours calibrates in turn, as the app would).

The per-photo floors are the figures measured on 2026-11-26 less one intersection (1/361, JPEG
decoders differ slightly between OpenCV builds). They are in-sample: the reader's rules were
found while looking at these photos' failures (docs/vision.md says which).
"""

from __future__ import annotations

from pathlib import Path

import pytest

from benchmarks.vision_real_photos import CALIBRATION_PHOTO, leave_one_out, run, worst_per_photo

# intersections read correctly (of 361), the worst over the two accepted calibrations, measured
MEASURED_WORST = {
    "empty_angled.jpeg": 352,  # 5 sunlit intersections clipped white, 1 streak of sun, corners off the grid
    "empty_overhead.jpeg": 354,  # 5 sunlit intersections clipped white, 1 streak, 2 under sticker paper
    "few_stones_glare.jpg": 359,  # its white stone under glare and a sunlit corner: unsure
    "few_stones_overhead.jpeg": 360,  # one corner point beyond the photo's own empty holes: unsure
    "laser_empty_board.jpg": 361,  # its blue channel is nearly black (noise-widened spreads)
    "laser_empty_board_2.jpg": 360,  # one point beyond the photo's own empty holes: unsure
    "stones_overhead.jpg": 358,  # white stones side by side read (brighter than all their gaps)
}


@pytest.fixture(scope="module")
def photos() -> Path:
    from tests.conftest import SHARED

    if not SHARED.is_dir():
        pytest.skip(f"{SHARED} is absent (it is only beside the project on developer and CI machines)")
    return SHARED / "datasets" / "gobonline"


@pytest.fixture(scope="module")
def loo(photos: Path):  # type: ignore[no-untyped-def]
    return leave_one_out(photos)


def test_real_photos_are_read_as_well_as_measured(photos: Path) -> None:
    results, used = run(photos)
    assert used == CALIBRATION_PHOTO and len(results) == 6
    by_name = {r.name: r.score for r in results}
    total = sum(s.total for s in by_name.values())
    correct = sum(s.correct for s in by_name.values())
    assert correct / total >= 0.990, f"{correct}/{total}"
    assert by_name["laser_empty_board.jpg"].share == 1.0
    for name in ("few_stones_overhead.jpeg", "laser_empty_board_2.jpg", "few_stones_glare.jpg"):
        assert by_name[name].wrong == [], (name, by_name[name].wrong)
    for name, score in by_name.items():
        assert score.share >= 0.975, (name, score.wrong, score.unsure)
    # every stone is read but the white one under glare, which is unsure (it read empty before)
    stones = [(name, w) for name, s in by_name.items() for w in s.wrong + s.unsure if w[-1] in "BW"]
    assert stones == [("few_stones_glare.jpg", (3, 3, "W"))]


def test_no_photo_reads_worse_than_measured_from_any_accepted_calibration(loo) -> None:  # type: ignore[no-untyped-def]
    runs, _left_out = loo
    worst = worst_per_photo(runs)
    assert set(worst) == set(MEASURED_WORST)
    for name, (share, photo) in worst.items():
        assert share * 361 >= MEASURED_WORST[name] - 1, (name, photo, round(361 * share))
    # the goal (no photo below 99 %) is met by five of the seven photos; at most the two 640x480
    # photos of the empty board in sunshine fall below it (docs/vision.md, "Real photos", says why)
    below = {name for name, (share, _) in worst.items() if share < 0.99}
    assert below <= {"empty_angled.jpeg", "empty_overhead.jpeg"}, below


def test_a_one_stone_calibration_reads_white_stones_side_by_side(loo) -> None:  # type: ignore[no-untyped-def]
    """``few_stones_overhead`` has one white stone; before, four white stones of the cluster in
    ``stones_overhead`` were unsure (they brighten the gap they share, so the light check took
    them for bare board in a patch of light). A hole brighter than all four own gaps is not."""
    runs, _ = loo
    few = next(r for r in runs if r.photo == "few_stones_overhead.jpeg")
    stones = next(x.score for x in few.results if x.name == "stones_overhead.jpg")
    missed = [w for w in stones.wrong + stones.unsure if w[-1] in "BW"]
    assert missed == [], missed


def test_a_nearly_black_channel_does_not_make_bare_board_unsure(loo) -> None:  # type: ignore[no-untyped-def]
    """``laser_empty_board`` is lit orange: its blue channel sits at 2-25 of 255. Four empty
    intersections were unsure with the one-stone calibration; the spreads widened by the photo's
    own noise over each hole's level read them all."""
    runs, _ = loo
    for r in runs:
        if r.refused:
            continue
        laser = next(x.score for x in r.results if x.name == "laser_empty_board.jpg")
        assert laser.share == 1.0, (r.photo, laser.wrong, laser.unsure)


def test_every_photo_with_both_colours_calibrates_in_turn(loo) -> None:  # type: ignore[no-untyped-def]
    runs, left_out = loo
    # the four photos of an empty board cannot teach a stone colour: they are only read
    assert sorted(left_out) == [
        "empty_angled.jpeg",
        "empty_overhead.jpeg",
        "laser_empty_board.jpg",
        "laser_empty_board_2.jpg",
    ]
    by_photo = {r.photo: r for r in runs}
    assert set(by_photo) == {"stones_overhead.jpg", "few_stones_overhead.jpeg", "few_stones_glare.jpg"}
    # the glare photo's only white stone does not stand out from the board: the calibration
    # refuses it instead of learning glare, and says why and what to do
    refused = by_photo["few_stones_glare.jpg"].refused
    assert "no peg of colour 'white' was seen" in refused
    assert "2.5 spreads" in refused and "glare" in refused and "light the board evenly" in refused
    accepted = [r for r in runs if not r.refused]
    assert [r.photo for r in accepted] == ["stones_overhead.jpg", "few_stones_overhead.jpeg"]
    for r in accepted:
        assert r.share >= 0.989, (r.photo, r.correct, r.total)
        # sunlit empty intersections are unsure rather than read as white stones: of 2166
        # intersections one is read wrong (a sunlit streak; the white stone under glare is unsure)
        assert r.wrong <= 1, (r.photo, [(x.name, x.score.wrong) for x in r.results if x.score.wrong])
        # no accepted calibration misses a black stone anywhere
        missed = [(x.name, w) for x in r.results for w in x.score.wrong + x.score.unsure if w[-1] == "B"]
        assert missed == [], (r.photo, missed)


def test_a_white_stone_washed_out_by_glare_is_unsure_never_empty(loo) -> None:  # type: ignore[no-untyped-def]
    """Issue 30, failure point 3: ``few_stones_glare``'s white stone lies under a lamp's hot spot,
    nearer to empty than to white, and was read empty with confidence from both accepted
    calibrations. It lies 1.6 spreads from empty where 99 % of that photo's empty points lie
    within 0.7: judged against the photo's own empty points it is unsure
    (``classify.beyond_picture_empty``). Fails on the code before (read ``.``)."""
    runs, _ = loo
    for r in runs:
        if r.refused:
            continue
        glare = next(x.score for x in r.results if x.name == "few_stones_glare.jpg")
        assert (3, 3, "W") in glare.unsure, (r.photo, glare.wrong, glare.unsure)
        assert glare.wrong == [], (r.photo, glare.wrong)
