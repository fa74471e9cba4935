"""The theme's colours: peg colours apart under colour blindness, every text pair readable.

Metric: CIEDE2000 (ΔE00, the CIE's current colour-difference formula, via colour-science) between
the two colours as a person with full-strength deuteranopia, protanopia or tritanopia sees them
(Machado, Oliveira and Fernandes 2009 simulation at severity 1.0). A ΔE00 of about 2 is just
noticeable side by side; pegs are judged apart, across a table, at a glance, so we ask for
:data:`APART` = 15, roughly the step between neighbouring named colours. The old palette's red and
green pegs were 7.0 apart under deuteranopia; the Okabe-Ito-based one keeps every pair above 15.
Every peg also carries its letter (the second cue), checked below.

Measured closest pairs (ΔE00, this palette; `closest_pair` below): normal vision yellow/white 28.5,
deuteranopia red/green 19.6, protanopia red/green 23.9, tritanopia yellow/white 16.5: every one
above 15 with a margin of 1.5 or more. Why 15 and not more: the six colours players name their
pegs by must stay recognisable as those colours (a "yellow" must look yellow), and with white and
black fixed, yellow/white under tritanopia cannot go much past ~17 without yellow turning orange;
15 is about the step between neighbouring named colours, and the letter is there for the rest.

Yellow and white pegs against the light board squares are close by themselves: under tritanopia
yellow is only 6.8 (dark square) and 8.1 (light square) from them, white 9.5 and 14.8. What carries
those pegs is their dark ring: 73.7 or more from either square under every simulation (and 13.3:1
luminance contrast), checked in `test_light_pegs_stand_out_from_the_squares_by_their_ring`.
"""

from __future__ import annotations

import itertools
import warnings

import pytest

from app.ui import theme

APART = 15.0
DEFICIENCIES = ("Deuteranomaly", "Protanomaly", "Tritanomaly")  # at severity 1: -anopia


def seen(rgb: tuple[float, ...], deficiency: str | None) -> object:
    import numpy as np

    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        import colour

        srgb = np.array(rgb[:3], dtype=float)
        if deficiency is not None:
            linear = colour.cctf_decoding(srgb, function="sRGB")
            simulated = np.clip(colour.matrix_cvd_Machado2009(deficiency, 1.0) @ linear, 0, 1)
            srgb = colour.cctf_encoding(simulated, function="sRGB")
        return colour.XYZ_to_Lab(colour.sRGB_to_XYZ(srgb))


def delta_e(a: tuple[float, ...], b: tuple[float, ...], deficiency: str | None) -> float:
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        import colour

        return float(colour.delta_E(seen(a, deficiency), seen(b, deficiency), method="CIE 2000"))


def closest_pair(palette: dict[str, tuple[float, ...]], deficiency: str | None) -> tuple[float, str, str]:
    return min((delta_e(palette[a], palette[b], deficiency), a, b)
               for a, b in itertools.combinations(palette, 2))


@pytest.mark.parametrize("deficiency", [None, *DEFICIENCIES])
def test_every_pair_of_peg_colours_stays_apart(deficiency: str | None) -> None:
    pytest.importorskip("colour", reason="colour-science is a dev dependency (scripts/setup dev)")
    distance, a, b = closest_pair(theme.PEG_COLOURS, deficiency)
    assert distance >= APART, f"{a} and {b} are only ΔE00 {distance:.1f} apart under {deficiency}"


def test_the_metric_tells_the_old_red_and_green_apart_from_the_new() -> None:
    """The test can fail: the palette before issue 16 had red and green 7 apart under deuteranopia."""
    pytest.importorskip("colour")
    old_red, old_green = (0.86, 0.16, 0.16), (0.16, 0.66, 0.26)
    assert delta_e(old_red, old_green, "Deuteranomaly") < APART
    assert delta_e(theme.PEG_COLOURS["red"], theme.PEG_COLOURS["green"], "Deuteranomaly") >= APART


def test_every_peg_carries_a_distinct_letter_in_each_language() -> None:
    for language, marks in theme.PEG_MARKS.items():
        assert set(marks) == set(theme.PEG_COLOURS), language
        assert len(set(marks.values())) == len(marks), f"two colours share a letter in {language}"


def test_every_peg_ring_shows_on_both_squares_and_the_letter_on_the_peg() -> None:
    from app.ui.board99.board_view import SQUARE_DARK, SQUARE_LIGHT

    for square in (SQUARE_LIGHT, SQUARE_DARK):
        assert theme.contrast(theme.PEG_RING, square) >= 3.0  # WCAG 1.4.11: graphics 3:1
    for name, fill in theme.PEG_COLOURS.items():
        assert theme.contrast(theme.readable_on(fill), fill) >= 4.5, name


TEXT_PAIRS = {
    "text on background": (theme.TEXT, theme.BACKGROUND),
    "muted text on background": (theme.TEXT_MUTED, theme.BACKGROUND),
    "text on button": (theme.TEXT, theme.BUTTON),
    "text on accent": (theme.TEXT, theme.ACCENT),
    "text on warning": (theme.TEXT, theme.WARNING),
    "text on choice": (theme.TEXT, theme.CHOICE),
    "problem on background": (theme.PROBLEM_TEXT, theme.BACKGROUND),
    "good on background": (theme.GOOD_TEXT, theme.BACKGROUND),
    "penalty banner": (theme.readable_on(theme.PENALTY_BANNER), theme.PENALTY_BANNER),
    "win banner": (theme.readable_on(theme.WIN_BANNER), theme.WIN_BANNER),
    "card ink": (theme.CARD_INK, theme.CARD_FACE),
    "red card ink": (theme.CARD_RED_INK, theme.CARD_FACE),
    "cursor": (theme.readable_on(theme.CURSOR), theme.CURSOR),
}


@pytest.mark.parametrize("pair", list(TEXT_PAIRS))
def test_theme_text_pairs_reach_4_5_to_1(pair: str) -> None:
    ink, ground = TEXT_PAIRS[pair]
    assert theme.contrast(ink, ground) >= 4.5, f"{pair}: {theme.contrast(ink, ground):.2f}:1"


@pytest.mark.parametrize("name", list(theme.BACKGROUNDS))
def test_every_table_background_keeps_text_readable(name: str) -> None:
    ground = theme.BACKGROUNDS[name]
    for ink in (theme.TEXT, theme.TEXT_MUTED, theme.PROBLEM_TEXT, theme.GOOD_TEXT):
        assert theme.contrast(ink, ground) >= 4.5, (name, ink)


def test_contrast_matches_the_wcag_reference_values() -> None:
    assert theme.contrast((1, 1, 1), (0, 0, 0)) == pytest.approx(21.0)
    assert theme.contrast((0.4627, 0.4627, 0.4627), (1, 1, 1)) == pytest.approx(4.54, abs=0.01)  # #767676


@pytest.mark.parametrize("deficiency", [None, *DEFICIENCIES])
def test_light_pegs_stand_out_from_the_squares_by_their_ring(deficiency: str | None) -> None:
    """A yellow or white peg on a light square: the fill alone may be close (tritanopia), the dark
    ring round it keeps the peg apart from both squares under every simulation."""
    pytest.importorskip("colour")
    from app.ui.board99.board_view import SQUARE_DARK, SQUARE_LIGHT

    for square in (SQUARE_LIGHT, SQUARE_DARK):
        ring = delta_e(theme.PEG_RING, square, deficiency)
        assert ring >= 3 * APART, f"the peg ring is only ΔE00 {ring:.1f} from {square} ({deficiency})"
        for name in ("yellow", "white"):
            fill = delta_e(theme.PEG_COLOURS[name], square, deficiency)
            assert max(fill, ring) >= APART, (name, square, deficiency)


def test_without_the_ring_a_yellow_peg_is_too_close_to_a_square_under_tritanopia() -> None:
    """Why the ring is needed (and that the metric sees it): the fill alone is under APART."""
    pytest.importorskip("colour")
    from app.ui.board99.board_view import SQUARE_DARK

    assert delta_e(theme.PEG_COLOURS["yellow"], SQUARE_DARK, "Tritanomaly") < APART


def test_the_screen_draws_every_colour_the_game_names_in_its_order() -> None:
    """The camera calibration asks for the game's colours (``COLOURS``) and the screen draws
    ``PEG_COLOURS``: one list in one order, or a colour could be learnt that no screen shows."""
    from app.games.board99.game import COLOURS

    assert tuple(theme.PEG_COLOURS) == COLOURS
