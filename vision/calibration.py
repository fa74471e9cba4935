"""Learn what empty holes and each player's pegs look like under this room's light.

The steps the app walks through (and ``table99 vision calibrate`` does from files):

1. the empty board: every hole is an example of "empty", and the gaps give the board's chroma;
2. per player: one peg (or several) of their colour placed anywhere; the holes that clearly stop
   looking empty are that colour's examples, so nobody has to say where the peg went.

Labelled pictures (a photo with its ground truth, as in the real-photo benchmark) go through
:func:`learn_labelled`. The result is a new :class:`~vision.profile.BoardProfile`; saving it is
the caller's decision.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

from vision.classify import find_pegs, learn_model
from vision.profile import EMPTY, BoardProfile, ColourModel, ProfileError

if TYPE_CHECKING:
    import numpy as np
    from numpy.typing import NDArray


def learn_empty(profile: BoardProfile, shots: Sequence[NDArray[np.float64]]) -> BoardProfile:
    """``shots``: the hole features of pictures of the empty board; replaces the empty model."""
    import numpy as np

    if not shots:
        raise ProfileError("calibration", "no picture of the empty board")
    empty = learn_model(EMPTY, "empty", np.concatenate(list(shots)))
    return profile.with_models(empty, profile.colours)


def learn_colour(
    profile: BoardProfile, letter: str, name: str, shots: Sequence[NDArray[np.float64]]
) -> tuple[BoardProfile, list[int]]:
    """Learn a colour from pictures with its pegs placed; returns the profile and holes used.

    Pegs of colours learnt before may still be on the board (players put their calibration pegs
    in one after another): holes read as one of those colours are not examples of this one.
    """
    import numpy as np

    from vision.classify import Classifier

    if profile.empty is None:
        raise ProfileError("calibration", "learn the empty board first")
    if len(letter) != 1 or letter in (EMPTY, "?"):
        raise ProfileError("calibration", f"a colour's letter is one character, not {letter!r}")
    others = [c for c in profile.colours if c.letter != letter]
    known = Classifier(profile.empty, others) if others else None
    examples: list[NDArray[np.float64]] = []
    used: list[int] = []
    like: list[str] = []
    for features in shots:
        letters = known.classify(features).letters if known is not None else None
        for hole in find_pegs(features, profile.empty):
            if letters is not None and letters[hole] in {c.letter for c in others}:
                like.append(next(c.name for c in others if c.letter == letters[hole]))
                continue
            used.append(hole)
            examples.append(features[hole])
    if not examples:
        if like:
            looks = ", ".join(sorted(set(like)))
            raise ProfileError("calibration", f"no new peg was seen: the pegs in view look like {looks}")
        raise ProfileError("calibration", f"no peg of colour {name!r} was seen: place one in a hole")
    model = learn_model(letter, name, np.array(examples))
    colours = [*others, model]
    return profile.with_models(profile.empty, colours), sorted(set(used))


def learn_labelled(
    profile: BoardProfile,
    shots: Sequence[tuple[NDArray[np.float64], Sequence[str]]],
    names: dict[str, str] | None = None,
) -> BoardProfile:
    """Learn every class from pictures with known letters per hole (``.`` empty)."""
    import numpy as np

    names = names or {}
    by_letter: dict[str, list[NDArray[np.float64]]] = {}
    for features, letters in shots:
        if len(letters) != len(features):
            raise ProfileError("calibration", f"{len(letters)} letters for {len(features)} holes")
        for f, letter in zip(features, letters, strict=True):
            by_letter.setdefault(letter, []).append(f)
    if EMPTY not in by_letter:
        raise ProfileError("calibration", "the labelled pictures show no empty hole")
    empty = learn_model(EMPTY, "empty", np.array(by_letter.pop(EMPTY)))
    colours: list[ColourModel] = [
        learn_model(letter, names.get(letter, letter), np.array(feats))
        for letter, feats in sorted(by_letter.items())
    ]
    return profile.with_models(empty, colours)
