"""Calibration for the point net (``vision/point_net.py``), and the unguided calibration of one
picture whose pieces are known (what the real-photo benchmarks and tests calibrate with).

With the net, the net says where the pieces are; the colour models only say which colour a piece
is. So a colour is learnt from the points where the net sees a piece (:func:`learn_seen_colour`)
and must stand apart from the other colours, not from the empty board (issue 30: white stones on
pale wood and black discs on dark green felt were refused at 4-6 spreads from empty), and the
net's piece logit is refitted on the calibration's own points (:func:`with_net_bias`), as
chesscog adapts to a new set from two pictures.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

from vision.calibration import learn_colour, learn_empty, typical_examples, with_board_colour
from vision.classify import learn_model
from vision.profile import EMPTY, BoardProfile, ProfileError

if TYPE_CHECKING:
    import numpy as np
    from numpy.typing import NDArray


SAME_COLOUR = 3.0  # spreads (root mean square): a piece this near an earlier colour is one of those
COLOURS_APART = 3.0  # pooled spreads (root mean square) two colours read by the point net must lie apart


def learn_seen_colour(
    profile: BoardProfile,
    letter: str,
    name: str,
    shots: Sequence[NDArray[np.float64]],
    pieces: Sequence[Sequence[int]],
) -> tuple[BoardProfile, list[int]]:
    """A colour learnt from the points where the point net sees a piece (``pieces``, per shot).

    The net, not the distance from empty, says where a piece is: so a piece close to the board's
    colour (white stones on pale wood, black discs on dark green felt: 4-6 spreads from empty,
    refused by :func:`new_pegs`) is learnt. A piece within :data:`SAME_COLOUR` spreads of an
    earlier colour is that colour's, not an example; the new colour must then lie
    :data:`COLOURS_APART` from every earlier one, measured in both models' spreads (a wide first
    colour does not swallow the second, as "the pegs in view look like black" did on a crowded
    19x19): a colour needs to stand apart from the other colours, not from empty.
    """
    import numpy as np

    if profile.empty is None:
        raise ProfileError("calibration", "learn the empty board first")
    if len(letter) != 1 or letter in (EMPTY, "?"):
        raise ProfileError("calibration", f"a colour's letter is one character, not {letter!r}")
    others = [c for c in profile.colours if c.letter != letter]
    examples: list[NDArray[np.float64]] = []
    used: list[int] = []
    like: list[str] = []
    for features, seen in zip(shots, pieces, strict=True):
        for hole in seen:
            f = features[int(hole)]
            near = [c for c in others if _rms_spreads(f, c.mean, c.spread) <= SAME_COLOUR]
            if near:
                like.append(near[0].name)
                continue
            used.append(int(hole))
            examples.append(f)
    if not examples:
        if like:
            looks = ", ".join(sorted(set(like)))
            raise ProfileError("calibration", f"no new piece was seen: the pieces in view look like {looks}")
        raise ProfileError(
            "calibration",
            f"no piece of colour {name!r} was seen: the point reader finds no piece on the board. A piece "
            "hidden by a hand, or in glare that hides it, is not seen: place one where it is clearly "
            "visible and try again",
        )
    model = learn_model(letter, name, typical_examples(np.array(examples)))
    for other in others:
        pooled = np.sqrt((np.asarray(model.spread) ** 2 + np.asarray(other.spread) ** 2) / 2)
        apart = _rms_spreads(np.asarray(model.mean), other.mean, tuple(pooled.tolist()))
        if apart < COLOURS_APART:
            raise ProfileError(
                "calibration",
                f"{name} looks too much like {other.name} ({apart:.1f} spreads apart, {COLOURS_APART:g} "
                "needed): use pieces of clearly different colours, or light the board evenly, and try again",
            )
    return profile.with_models(profile.empty, [*others, model]), sorted(set(used))


def _rms_spreads(f: NDArray[np.float64], mean: Sequence[float], spread: Sequence[float]) -> float:
    import numpy as np

    return float(np.sqrt((((np.asarray(f) - np.asarray(mean)) / np.asarray(spread)) ** 2).mean()))


def with_net_bias(
    profile: BoardProfile, empty_logits: NDArray[np.float64], piece_logits: NDArray[np.float64]
) -> BoardProfile:
    """``profile`` read by the point net, its piece logit refitted on the calibration's own
    points (``vision.point_net.fit_bias``): ``empty_logits`` of points the calibration knows are
    empty (the empty board's picture), ``piece_logits`` of the pieces it learnt colours from."""
    import dataclasses

    import numpy as np

    from vision.point_net import fit_bias

    logits = np.concatenate([np.asarray(empty_logits), np.asarray(piece_logits)])
    occupied = np.concatenate([np.zeros(len(empty_logits), bool), np.ones(len(piece_logits), bool)])
    return dataclasses.replace(profile, net_bias=fit_bias(logits, occupied))


def one_kind(found: NDArray[np.intp], dark: NDArray[np.bool_]) -> NDArray[np.intp]:
    """Of the points ``found`` in a picture showing one new colour, those the net calls dark, or
    those it calls light, whichever are more (a tie: all): one colour's pieces are one of the
    two, and a glint or a shadow the net took for a piece of the other kind must not widen the
    colour until the next colour "looks like" it (gobonline: three black stones and three
    sunlit points made "black" so wide that the white stone was refused)."""
    import numpy as np

    if len(found) == 0:
        return found
    darks = int(dark[found].sum())
    if darks * 2 == len(found):
        return found
    return np.asarray(found[dark[found] == (darks * 2 > len(found))], dtype=np.intp)


def calibrate_picture(
    image: NDArray[np.uint8],
    corners: Sequence[tuple[float, float]],
    profile: BoardProfile,
    letters: Sequence[str],
    names: dict[str, str],
    net: bool = False,
) -> BoardProfile:
    """The unguided calibration of one picture of a grid read by its corners, whose pieces are
    known (``letters``): its empty points teach "empty" (as the empty board's picture would), then
    per colour the picture with only that colour's pieces (the others left out, as if not yet
    placed) goes through :func:`learn_colour`, which finds the pieces itself. So a piece the
    reader would not notice teaches nothing and a colour none of whose pieces is noticed is
    refused (:class:`ProfileError`), as in the app. ``net``: for the point net (its pieces are the
    examples, its piece logit refitted on the picture: :func:`with_net_bias`). ``profile``: the
    grid (``rows``, ``cols``) and what to sample (``features``); its models are replaced."""
    import numpy as np

    from vision.point_net import PointNetError, dark_logit, piece_logit
    from vision.reader import read_image

    first = read_image(image, profile, corners=list(corners), net=net or None)
    if first.features is None or first.samples is None:
        raise ProfileError("calibration", "the picture could not be sampled")
    labels = np.array(letters)
    profile = with_board_colour(profile, first.samples.gaps)
    profile = learn_empty(profile, [first.features[labels == EMPTY]])
    colours = sorted(set(letters) - {EMPTY})
    if not net:
        for letter in colours:
            shown = (labels == EMPTY) | (labels == letter)
            profile, _ = learn_colour(profile, letter, names.get(letter, letter), [first.features[shown]])
        return profile
    if first.net_logits is None:
        raise PointNetError("the point net could not be loaded (see the log)")
    piece, dark = piece_logit(first.net_logits), dark_logit(first.net_logits) > 0
    learnt: list[int] = []
    for letter in colours:
        shown = np.flatnonzero((labels == EMPTY) | (labels == letter))
        seen = [one_kind(np.flatnonzero(piece[shown] >= 0.0), dark[shown]).tolist()]
        name = names.get(letter, letter)
        profile, used = learn_seen_colour(profile, letter, name, [first.features[shown]], seen)
        learnt += shown[used].tolist()
    profile = with_net_bias(profile, piece[labels == EMPTY], piece[learnt])
    if first.net_hidden is None:  # a model without its hidden layer: the bias alone
        return profile
    return with_net_head(profile, first.net_logits, first.net_hidden, letters)


def with_net_head(
    profile: BoardProfile,
    logits: NDArray[np.float32],
    hidden: NDArray[np.float32],
    letters: Sequence[str],
) -> BoardProfile:
    """``profile`` with its own last layer (``vision.point_net.fit_head``) fitted on every point of
    a calibration picture whose pieces are known (``letters``): empty, and each colour as dark or
    light (two colours: the darker dark; one colour, or more: as the net saw most of that colour's
    pieces). Read only under the calibration's light (``BoardReader._own_head``).

    A picture without one of the three classes (no empty point, or only dark or only light
    pieces) keeps the shipped layer (``net_head`` None): fitted without examples of a class, the
    layer only learns to push that class down, and its pieces would later read unsure or empty."""
    import dataclasses

    import numpy as np

    from vision.point_net import DARK, EMPTY_CLASS, LIGHT, default_net, fit_head
    from vision.profile import NetHead

    labels = np.array(letters)
    classes = np.full(len(labels), EMPTY_CLASS, dtype=np.intp)
    brightness = {c.letter: float(np.mean(c.mean[:3])) for c in profile.colours}
    darkest = min(brightness, key=lambda k: brightness[k]) if len(brightness) == 2 else None
    for letter in brightness:
        here = labels == letter
        if darkest is not None:
            classes[here] = DARK if letter == darkest else LIGHT
        elif here.any():
            classes[here] = DARK if (logits[here, DARK] > logits[here, LIGHT]).mean() >= 0.5 else LIGHT
    if np.bincount(classes, minlength=3).min() == 0:
        return dataclasses.replace(profile, net_head=None)
    weights, bias = fit_head(logits, hidden, classes)
    head = NetHead(
        default_net().fingerprint,
        tuple(tuple(float(v) for v in row) for row in weights),
        (float(bias[0]), float(bias[1]), float(bias[2])),
    )
    return dataclasses.replace(profile, net_head=head)
