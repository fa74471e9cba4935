"""``table99 vision calibrate``: the app's guided calibration on the terminal.

It walks the same :class:`vision.calibration_session.CalibrationSession` as the app's calibration
screen, with the same steps and sentences: the empty board, then for each colour one peg in the
hole it names ("put one red peg in row 3, column 3"), earlier pegs left where they are; only that
hole is looked at, and a calibration that would misread its own pictures is refused with a
sentence saying what to change. Two ways to give it pictures:

- ``--camera SPEC``: live. It says what to do, waits for Enter (``s`` skips a colour, ``q``
  stops), then takes :data:`~vision.calibration_session.FRAMES` frames in a row; a refused step
  is simply asked again.
- image files: ``--empty IMAGE`` and ``--peg [LETTER=]NAME:IMAGE`` per colour (NAME one of the
  colours players can pick, any case), in the order the colours are to be learnt (``--plan``
  prints the hole each colour's peg goes in first). Give a step several pictures (repeat the
  option) and their mean is learnt, as the camera's frames are. A refused step ends the command
  with the sentence (exit status 2).

The profile keeps its hole geometry (the stickers where ``table99 print-markers`` puts them, or
the corners a profile made by the app's screen measured; ``--profile``). A board without stickers
is located by ``--grid --corners [--refine]`` (``app/commands/vision.py``), kept in the profile.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from app.games.board99.calibration_texts import colours_to_learn, message_text
from app.i18n import tr

if TYPE_CHECKING:
    from vision.calibration_session import CalibrationSession, Outcome
    from vision.profile import BoardProfile


class CalibrateError(Exception):
    """Bad input or a refused step: one line for stderr."""


def parse_pegs(items: list[str]) -> list[tuple[str, str, list[str]]]:
    """``[LETTER=]NAME:IMAGE`` items -> (letter, name, images) per colour, in first-seen order."""
    known = dict((name, letter) for letter, name in colours_to_learn())
    steps: dict[str, tuple[str, list[str]]] = {}
    for item in items:
        head, sep, image = item.partition(":")
        letter, sep2, name = head.partition("=") if "=" in head else ("", "=", head)
        name = name.strip().lower()
        letter = letter or known.get(name, name[:1].upper())
        if not sep or not sep2 or not image or len(letter) != 1 or not letter.isalpha() or not name:
            raise CalibrateError(
                tr("--peg: expected [LETTER=]NAME:IMAGE like red:red.png, got {item}", item=repr(item))
            )
        if name not in known:  # a name players cannot pick would be learnt and never asked for
            raise CalibrateError(
                tr(
                    "--peg: no peg colour {name}; the colours are {names}",
                    name=repr(name),
                    names=", ".join(known),
                )
            )
        if name in steps and steps[name][0] != letter:
            raise CalibrateError(tr("--peg: {name} has two letters", name=name))
        steps.setdefault(name, (letter, []))[1].append(image)
    letters = [letter for letter, _images in steps.values()]
    if len(set(letters)) != len(letters):
        raise CalibrateError(tr("--peg: two colours share a letter; give them as LETTER=NAME:IMAGE"))
    return [(letter, name, images) for name, (letter, images) in steps.items()]


def plan_lines(session: CalibrationSession) -> list[str]:
    """Which colour goes in which hole, as the steps will ask."""
    lines = []
    for k, (_letter, name) in enumerate(session.colours):
        where = session.hole_words(session.targets[k])
        lines.append(tr("{colour}: row {row}, column {column}", colour=message_colour(name), **where))
    return lines


def message_colour(name: str) -> str:
    from app.games.board99.game import colour_name

    return colour_name(name)


def say(outcome: Outcome) -> str:
    return message_text(outcome.message, outcome.values)


def refusal(outcome: Outcome, profile: BoardProfile) -> str:
    """A refused step's one line for the terminal: the screen's sentence, but a board without
    stickers is told the command line's fix (the screen asks for four taps instead)."""
    if outcome.message == "stickers-not-found" and profile.picture_corners is None:
        return tr(
            "No stickers seen on the board. Put them in view, or for a board without stickers give"
            ' --grid ROWSxCOLS --corners "x,y x,y x,y x,y" (its four outer grid points, TL TR BR BL;'
            " add --refine for rough ones) once: they are saved with the profile."
        )
    return say(outcome)


def from_files(
    profile: BoardProfile,
    empty: list[str],
    pegs: list[str],
    load: Callable[[str], Any],
    out: Callable[[str], None],
) -> CalibrationSession:
    """The guided steps from image files; raises :class:`CalibrateError` on a refused step."""
    from vision.calibration_session import CalibrationSession

    steps = parse_pegs(pegs)
    session = CalibrationSession(profile, [(letter, name) for letter, name, _images in steps])
    session.keep_corners()
    outcome = session.learn_empty([load(p) for p in empty])
    if not outcome.ok:
        raise CalibrateError(refusal(outcome, session.profile))
    out(say(outcome))
    for _letter, name, images in steps:
        where = session.hole_words(session.target_hole or 0)
        out(tr("{colour}: the peg in row {row}, column {column}", colour=message_colour(name), **where))
        outcome = session.learn_colour([load(p) for p in images])
        out(say(outcome))
        if not outcome.ok:
            raise CalibrateError(say(outcome))
    return session


STALE_FRAMES = 4  # a webcam's driver keeps about this many frames (OpenCV's V4L2 backend) ...
STALE_SECONDS = 0.3  # ... and at least this long is dropped, whatever the frame rate


def drop_stale(capture: Any, clock: Callable[[], float] | None = None) -> int:
    """Read and drop what a live camera took before Enter; returns how many frames were dropped.

    The terminal waits for Enter while nobody reads the camera, so its driver still holds the
    frames from before: the board without the peg just put in, or a hand. Learnt from those, a
    step was refused as "moved" on every first try (review of issue 13). Files and videos have
    no such buffer and are not drained.
    """
    import time

    now = clock or time.monotonic
    start, dropped = now(), 0
    while dropped < STALE_FRAMES or now() - start < STALE_SECONDS:
        if capture.read() is None:
            break
        dropped += 1
    return dropped


def live(
    profile: BoardProfile,
    capture: Any,
    ask: Callable[[str], str],
    out: Callable[[str], None],
    colours: list[tuple[str, str]] | None = None,
    find_grid: bool = False,
) -> CalibrationSession | None:
    """The guided steps with the camera: prompts, Enter takes the pictures. None = stopped (q).
    ``find_grid``: a board without stickers, its grid first found on the camera's picture."""
    from vision.calibration_session import FRAMES, CalibrationSession, Step

    session = CalibrationSession(profile, colours or colours_to_learn())
    session.keep_corners()

    def frames() -> list[Any]:
        if getattr(capture, "realtime", False):
            drop_stale(capture)
        got = [capture.read() for _ in range(FRAMES)]
        return [f for f in got if f is not None]

    if find_grid and not _found_and_accepted(session, frames, ask, out):
        return None

    while session.step is not Step.DONE:
        if session.step is Step.EMPTY:
            prompt = tr("Take every peg off the board, then press Enter (q stops).")
        else:
            _letter, name = session.current_colour or ("", "")
            where = session.hole_words(session.target_hole or 0)
            prompt = tr(
                "Put one {colour} peg in row {row}, column {column} and press Enter"
                " (s skips {colour}, q stops).",
                colour=message_colour(name),
                **where,
            )
        try:
            answer = ask(prompt).strip().lower()
        except (EOFError, KeyboardInterrupt):  # input closed or Ctrl-C: stopped, as with q
            return None
        if answer == "q":
            return None
        if answer == "s" and session.step is Step.COLOUR:
            session.skip_colour()
            continue
        pictures = frames()
        if not pictures:
            raise CalibrateError(tr("No camera picture: check the camera and --camera."))
        if session.step is Step.EMPTY:
            outcome = session.learn_empty(pictures)
        else:
            outcome = session.learn_colour(pictures)
        out(say(outcome))
    return session


def _found_and_accepted(
    session: CalibrationSession,
    frames: Callable[[], list[Any]],
    ask: Callable[[str], str],
    out: Callable[[str], None],
) -> bool:
    """The board's grid found on the camera's picture and shown by its corner pixels; Enter keeps
    it (False: q, stopped). Raises :class:`CalibrateError` when it is not found."""
    pictures = frames()
    if not pictures:
        raise CalibrateError(tr("No camera picture: check the camera and --camera."))
    outcome = session.find_grid(pictures[-1])  # lines need no mean of frames
    if not outcome.ok or session.profile.picture_corners is None:
        raise CalibrateError(
            tr(
                "No stickers, and the board's grid was not found on the camera's picture: give its four"
                ' outer grid points as --corners "x,y x,y x,y x,y" (TL, TR, BR, BL; add --refine for'
                " rough ones)"
            )
        )
    corners = " ".join(f"{x:.0f},{y:.0f}" for x, y in session.profile.picture_corners)
    out(tr("The board's grid was found at --corners {corners} (TL, TR, BR, BL).", corners=repr(corners)))
    try:
        answer = ask(tr("Press Enter if those are the board's four outer grid points (q stops).")).strip()
    except (EOFError, KeyboardInterrupt):
        return False
    if answer.lower() == "q":
        return False
    session.confirm_grid()
    return True


def run(args: argparse.Namespace, profile: BoardProfile, load: Callable[[str], Any]) -> int:
    """``table99 vision calibrate`` without ``--labelled``: the guided steps; writes ``--out``."""
    out = print
    if args.plan:
        from vision.calibration_session import CalibrationSession

        names = (
            [(letter, name) for letter, name, _i in parse_pegs(args.peg)] if args.peg else colours_to_learn()
        )
        if not args.empty:  # the holes are chosen on the empty board, where its light is even
            raise CalibrateError(
                tr(
                    "--plan: give --empty, the picture of the empty board: the holes are chosen where"
                    " its light is even"
                )
            )
        session = CalibrationSession(profile, names)
        session.keep_corners()
        outcome = session.learn_empty([load(p) for p in args.empty])
        if not outcome.ok:
            raise CalibrateError(refusal(outcome, session.profile))
        for line in plan_lines(session):
            out(line)
        if not args.peg:  # the holes go by the order of the colours learnt: files may skip some
            out(tr("With pictures, run --plan with the same --peg list: the holes follow its order."))
        return 0
    if not args.out:
        raise CalibrateError(tr("--out: say where to write the profile"))
    if args.camera:
        from app.sources import configured_size
        from vision.capture import open_capture

        width, height = configured_size()  # the table's [board.camera] picture size
        capture = open_capture(args.camera, width=width, height=height)
        try:
            # --grid without --corners on a board with none kept: its grid is found first
            find = bool(getattr(args, "grid", None)) and profile.picture_corners is None
            session = live(profile, capture, input, out, find_grid=find)
        finally:
            capture.close()
        if session is None:
            out(tr("stopped: nothing written"))
            return 1
    else:
        if not args.empty:
            raise CalibrateError(tr("give --camera, or --empty and --peg pictures"))
        session = from_files(profile, args.empty, args.peg, load, out)
    if session.hard:
        out(tr("Read less surely: {colours}", colours=", ".join(message_colour(n) for n in session.hard)))
    outcome = session.save(args.out)
    if not outcome.ok:
        raise CalibrateError(say(outcome))
    out(tr("profile written to {path}", path=args.out))
    sys.stdout.flush()
    return 0
