"""``table99 vision read|calibrate|watch``: the camera board reader from the command line.

- ``read IMAGE --profile FILE [--json]`` prints one reading and which colour each letter is.
  ``--json`` prints exactly ``{"holes": [[".", "R", ...], ...], "unsure": [[row, col], ...],
  "colours": {"R": "red", ...}}`` (``?`` marks an unsure hole in ``holes``). ``--grid 19x19
  --corners "x,y x,y x,y x,y"`` (TL, TR, BR, BL grid points in pixels) reads any grid without
  stickers; ``--refine`` takes them as rough taps and moves them onto the board's printed lines;
  ``--grid`` alone finds a board's printed grid by itself (``vision/grid_find.py``) or says in one
  line to give ``--corners``. A profile calibrated with corners (given or found) keeps them: later
  pictures of that fixed camera need none.
- Letters: a profile's letters are its own (each learnt colour has one letter and one name), and
  ``read`` says them. Given on the command line they default to the app's (R red, B blue,
  G green, Y yellow, W white, K black); Go data's ``B`` for black is given as ``--peg
  B=black:IMAGE`` or, for ``--labelled`` rows, ``--letters B=black,W=white``.
- ``calibrate --out FILE (--camera SPEC | --empty IMAGE --peg [R=]red:IMAGE ...) [--plan]`` walks
  the app's guided calibration (``app/commands/vision_calibrate.py``): the empty board, then per
  colour one peg in the hole it names; a board without stickers is found by ``--grid`` alone (on
  the first picture, or the camera's, shown to confirm) or ``--grid --corners [--refine]`` once,
  and the corners are saved in the profile; ``--labelled IMAGE=ROWS.txt ...``
  instead learns from pictures with their ground truth.
- ``watch [--camera SPEC] [--show] [--save DIR]`` runs the live reader and prints each released
  reading; ``--show`` shows the camera with what it sees drawn on it (needs an OpenCV with
  windows), ``--save`` writes every such frame as PNG.

Exit status: 0 done, 2 bad input (a one-line message on stderr says what and where).
"""

from __future__ import annotations

import argparse
import json
import sys
from dataclasses import replace
from pathlib import Path
from typing import TYPE_CHECKING, Any

from app.i18n import tr

if TYPE_CHECKING:
    from vision.profile import BoardProfile


class UsageError(Exception):
    pass


def add_arguments(parser: argparse.ArgumentParser) -> None:
    sub = parser.add_subparsers(dest="vision_command", metavar="ACTION")
    read = sub.add_parser("read", help="read one image and print which holes hold which colour")
    read.add_argument("image", help="the picture to read")
    _common(read)
    read.add_argument("--json", action="store_true", help='print {"holes": [...], "unsure": [...]}')

    cal = sub.add_parser("calibrate", help="make a board profile from pictures")
    _common(cal)
    cal.add_argument("--out", help="where to write the profile (JSON; needed but with --plan)")
    cal.add_argument("--camera", help='guided, live: "picamera", "webcam:0" (prompts on the terminal)')
    cal.add_argument("--empty", action="append", default=[], help="a picture of the empty board")
    cal.add_argument(
        "--peg",
        action="append",
        default=[],
        metavar="[LETTER=]NAME:IMAGE",
        help="a picture with the next colour's peg in the hole --plan names (earlier pegs may stay),"
        " e.g. red:red.png; repeat a colour for several pictures of one step",
    )
    cal.add_argument(
        "--plan",
        action="store_true",
        help="print which colour's peg goes in which hole on the board --empty shows (chosen where its light"
        " is even; give the same --peg list as for the pictures)",
    )
    cal.add_argument(
        "--labelled",
        action="append",
        default=[],
        metavar="IMAGE=ROWS",
        help="a picture and a text file with one row of letters per line (. empty)",
    )
    cal.add_argument(
        "--reader",
        choices=("rules", "net"),
        default="rules",
        help="net: a grid read by its corners is read by the point net, its bias fitted on the --labelled"
        " pictures (docs/vision.md)",
    )
    cal.add_argument(
        "--letters",
        metavar="L=NAME,...",
        help="the colours the --labelled letters stand for, e.g. B=black,W=white for Go data (default:"
        " R red, B blue, G green, Y yellow, W white, K black)",
    )

    watch = sub.add_parser("watch", help="run the live reader; print readings, optionally save frames")
    _common(watch)
    watch.add_argument("--camera", default="picamera", help='"picamera", "webcam:0", a video, a folder')
    watch.add_argument("--save", help="folder to write annotated PNG frames into")
    watch.add_argument("--show", action="store_true", help="show the annotated camera picture in a window")
    watch.add_argument("--frames", type=int, default=0, help="stop after this many frames (0 = never)")


def _common(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--profile", help="the board profile (default: the app's camera profile)")
    parser.add_argument("--grid", help="ROWSxCOLS of a grid read without stickers, e.g. 19x19")
    parser.add_argument(
        "--corners",
        help='"x,y x,y x,y x,y": the TL, TR, BR, BL grid points in pixels (a board without stickers;'
        " calibrate keeps them in the profile)",
    )
    parser.add_argument(
        "--refine",
        action="store_true",
        help="the --corners are rough (taps): move them onto the board's printed lines first",
    )


def main(args: argparse.Namespace) -> int:
    from vision.capture import CaptureError
    from vision.groundtruth import GroundTruthError
    from vision.profile import ProfileError

    action = getattr(args, "vision_command", None)
    if action is None:
        print(tr("say what to do: table99 vision read|calibrate|watch (see --help)"), file=sys.stderr)
        return 2
    try:
        return {"read": _read, "calibrate": _calibrate, "watch": _watch}[action](args)
    except (ProfileError, CaptureError, GroundTruthError, UsageError) as exc:
        print(f"table99 vision {action}: {exc}", file=sys.stderr)
        return 2


# -- shared --------------------------------------------------------------------------------
def _corners(text: str | None) -> list[tuple[float, float]] | None:
    if text is None:
        return None
    try:
        points = [tuple(float(v) for v in pair.split(",")) for pair in text.split()]
    except ValueError:
        points = []
    if len(points) != 4 or any(len(p) != 2 for p in points):
        raise UsageError(tr('--corners: expected four points "x,y x,y x,y x,y", got {text}', text=repr(text)))
    return [(p[0], p[1]) for p in points]


def _profile(args: argparse.Namespace, *, must_exist: bool) -> BoardProfile:
    from app.source_factories.camera import profile_path
    from vision.profile import BoardProfile, ProfileError, load_profile, parse_grid

    path = Path(args.profile) if args.profile else profile_path({})
    grid = parse_grid(args.grid) if args.grid else None
    if path.exists() or must_exist:
        profile = load_profile(path)
        if grid is not None and grid != (profile.rows, profile.cols):
            raise ProfileError(str(path), f"the profile is {profile.rows}x{profile.cols}, not {args.grid}")
        return profile
    if grid is not None:
        return BoardProfile(rows=grid[0], cols=grid[1])
    from vision.profile import default_profile

    return default_profile()


def _image(path: str) -> Any:
    from vision.capture import load_image

    return load_image(path)


def _check_grid_args(args: argparse.Namespace) -> list[tuple[float, float]] | None:
    """The ``--corners`` given (None: none, or ``--grid`` alone, whose grid is then found)."""
    corners = _corners(args.corners)
    if corners is not None and args.grid is None:
        raise UsageError(tr("--corners needs --grid ROWSxCOLS (the board's size in points)"))
    if args.refine and corners is None:
        raise UsageError(tr("--refine moves --corners onto the printed lines: give --grid and --corners"))
    return corners


def _found(args: argparse.Namespace, image: Any) -> list[tuple[float, float]]:
    """``--grid`` without ``--corners``: the board's grid found in ``image`` by itself."""
    from vision.grid_find import GridNotFoundHere, find_corners
    from vision.profile import parse_grid

    rows, cols = parse_grid(args.grid)
    try:
        return find_corners(image, rows, cols)
    except GridNotFoundHere as exc:
        raise UsageError(
            tr(
                "--grid {grid}: the board's grid was not found by itself ({cause}): give its four outer"
                ' grid points as --corners "x,y x,y x,y x,y" (TL, TR, BR, BL; add --refine for rough ones)',
                grid=args.grid,
                cause=exc.cause,
            )
        ) from None
    except ValueError as exc:  # (after its subclass above) a grid too small, a picture too small
        raise UsageError(f"--grid {args.grid}: {exc}; give its four outer grid points as --corners") from None


def _refined(
    args: argparse.Namespace, image: Any, corners: list[tuple[float, float]]
) -> list[tuple[float, float]]:
    """The corners as given, or (``--refine``) moved onto the board's printed lines."""
    if not args.refine:
        return corners
    from vision.grid_refine import GridNotFound, refine_corners
    from vision.profile import parse_grid

    rows, cols = parse_grid(args.grid)
    try:
        return refine_corners(image, corners, rows, cols)
    except GridNotFound:
        raise UsageError(
            tr(
                "--refine: no printed grid lines found near --corners: give the four outer grid points"
                " (TL, TR, BR, BL) within half a line spacing, or drop --refine on a board without lines"
            )
        ) from None


def letter_names(profile: BoardProfile) -> dict[str, str]:
    """Each letter the profile reads and the colour it stands for (``B`` may be blue or black)."""
    return {c.letter: c.name for c in profile.colours}


# -- read ------------------------------------------------------------------------------------
def _read(args: argparse.Namespace) -> int:
    from vision.reader import read_image

    corners = _check_grid_args(args)
    profile = _profile(args, must_exist=True)
    if not profile.calibrated:
        raise UsageError(tr("the profile is not calibrated: run table99 vision calibrate first"))
    image = _image(args.image)
    if corners is not None:
        corners = _refined(args, image, corners)
    elif args.grid is not None:
        corners = _found(args, image)
    if corners is None and profile.picture_corners is None and len(profile.markers) < 2:
        raise UsageError(
            tr(
                "the profile has no stickers and no corners: give --grid ROWSxCOLS --corners"
                ' "x,y x,y x,y x,y" (the outer grid points, TL TR BR BL), or calibrate with them once'
            )
        )
    result = read_image(image, profile, corners)
    cols = profile.cols
    holes = [result.letters[r * cols : (r + 1) * cols] for r in range(profile.rows)]
    unsure = [[i // cols, i % cols] for i in result.unsure]
    names = letter_names(profile)
    if args.json:
        print(json.dumps({"holes": holes, "unsure": unsure, "colours": names}))
    else:
        for row in holes:
            print(" ".join(row))
        print(", ".join(f"{letter} = {colour_word(name)}" for letter, name in names.items()))
        if unsure:
            print(tr("unsure: {holes}", holes=", ".join(f"({r},{c})" for r, c in unsure)))
    return 0


def colour_word(name: str) -> str:
    """A colour's name in the app's language (a name it does not know as it is)."""
    from app.games.board99.game import colour_name

    return colour_name(name)


# -- calibrate -------------------------------------------------------------------------------
def _first_picture(args: argparse.Namespace) -> str | None:
    """The first picture of the board given (``--labelled`` or ``--empty``): where it is located."""
    labelled = args.labelled[0].partition("=")[0] if args.labelled else None
    return labelled or (args.empty[0] if args.empty else None)


def _calibrate(args: argparse.Namespace) -> int:
    import numpy as np

    from app.commands.vision_calibrate import CalibrateError, run
    from vision.calibration import learn_empty, learn_labelled, with_board_colour
    from vision.net_calibration import with_net_head
    from vision.point_net import fit_bias, piece_logit
    from vision.reader import read_image

    corners = _check_grid_args(args)
    profile = _profile(args, must_exist=bool(args.profile))
    if corners is not None:  # a board without stickers: its corners kept for the fixed camera
        if args.refine:  # refined on the first picture of the board
            first = _first_picture(args)
            if first is None:
                raise UsageError(tr("--refine: give --empty or --labelled pictures to find the lines on"))
            corners = _refined(args, _image(first), corners)
    elif args.grid is not None and profile.picture_corners is None and not args.camera:
        first = _first_picture(args)  # found on the first picture (a live camera: on its own)
        if first is None:
            raise UsageError(
                tr("--grid without --corners: give --empty or --labelled pictures to find it on")
            )
        corners = _found(args, _image(first))
    if corners is not None:
        profile = replace(profile, picture_corners=(corners[0], corners[1], corners[2], corners[3]))
    if args.letters and not args.labelled:
        raise UsageError(tr("--letters names the --labelled letters; with --peg give LETTER=NAME:IMAGE"))
    net = getattr(args, "reader", "rules") == "net"
    if not net:  # learnt for the rules: a net's bias from an earlier calibration would be stale
        profile = replace(profile, net_bias=None, net_head=None)
    if net and (not args.labelled or profile.picture_corners is None):
        raise UsageError(
            tr("--reader net: give --labelled pictures of a grid read by its corners (--grid --corners)")
        )
    if not args.labelled:
        try:
            return run(args, profile, _image)
        except CalibrateError as exc:
            raise UsageError(str(exc)) from None

    def shot(path: str) -> Any:
        result = read_image(_image(path), profile, corners, net=net or None)
        return result

    if args.labelled:
        labelled = []
        logits, occupied = [], []
        net_shots: list[tuple[Any, list[str]]] = []  # (read, letters): the calibration's own last layer
        for item in args.labelled:
            image, sep, rows_file = item.partition("=")
            if not sep:
                raise UsageError(tr("--labelled: expected IMAGE=ROWS, got {item}", item=repr(item)))
            letters = _letters_file(rows_file, profile.rows, profile.cols)
            result = shot(image)
            labelled.append((result.features, letters))
            if net and result.net_logits is not None:
                logits += piece_logit(result.net_logits).tolist()
                occupied += [letter != "." for letter in letters]
                net_shots.append((result, letters))
        profile = learn_labelled(profile, labelled, names=label_names(args.letters))
        if net:
            if not logits:
                raise UsageError(tr("--reader net: the point net's model could not be loaded (see the log)"))
            profile = replace(profile, net_bias=fit_bias(np.array(logits), np.array(occupied)))
            first, letters = net_shots[0]
            if first.net_hidden is not None and first.samples is not None:  # under its light only
                # the board's colour of the picture the layer is fitted on, not an earlier profile's:
                # it says when the layer may read (point_net.light_changed)
                profile = with_board_colour(profile, first.samples.gaps)
                profile = with_net_head(profile, first.net_logits, first.net_hidden, letters)
    if args.empty:
        shots = [shot(p) for p in args.empty]
        profile = learn_empty(profile, [s.features for s in shots])
        if shots[0].samples is not None:  # the board's colour: which channels a new lamp dims
            profile = with_board_colour(profile, shots[0].samples.gaps)
    if not args.out:
        raise UsageError(tr("--out: say where to write the profile"))
    if args.peg or args.camera:
        raise UsageError(tr("--labelled goes without --peg and --camera (those are the guided steps)"))
    profile.save(args.out)
    print(tr("profile written to {path}", path=args.out))
    return 0


def label_names(text: str | None) -> dict[str, str]:
    """``--letters L=NAME,...`` over the app's letters: what each letter of the rows files is.

    Go data writes ``B`` for black, the app ``B`` for blue (and ``K`` for black): the profile
    keeps each letter's name, so whichever is chosen, ``read`` says which colour a letter is."""
    from app.games.board99.calibration_texts import colours_to_learn

    names = {letter: name for letter, name in colours_to_learn()}
    for item in (text or "").split(","):
        if not item.strip():
            continue
        letter, sep, name = item.strip().partition("=")
        if not sep or len(letter) != 1 or not letter.isalpha() or not name.strip():
            raise UsageError(
                tr("--letters: expected L=NAME,... like B=black,W=white, got {item}", item=repr(item))
            )
        names[letter] = name.strip().lower()
    return names


def _show(cv2: Any, image: Any) -> None:
    try:
        cv2.imshow("table99 vision", image)
        cv2.waitKey(1)
    except cv2.error:
        raise UsageError(tr("this OpenCV cannot open a window (a headless build): use --save DIR")) from None


def _letters_file(path: str, rows: int, cols: int) -> list[str]:
    try:
        lines = [line.split() for line in Path(path).read_text(encoding="utf-8").splitlines() if line.strip()]
    except OSError as exc:
        raise UsageError(f"{path}: {exc.strerror or exc}") from exc
    letters = ["".join(parts) for parts in lines]
    if len(letters) != rows or any(len(row) != cols for row in letters):
        raise UsageError(
            tr("{path}: expected {rows} rows of {cols} letters", path=path, rows=rows, cols=cols)
        )
    return [ch for row in letters for ch in row]


# -- watch -----------------------------------------------------------------------------------
def _watch(args: argparse.Namespace) -> int:
    import cv2

    from vision.annotate import annotate
    from vision.capture import open_capture
    from vision.reader import BoardReader

    corners = _check_grid_args(args)
    profile = _profile(args, must_exist=True)
    if not profile.calibrated:
        raise UsageError(tr("the profile is not calibrated: run table99 vision calibrate first"))
    save = Path(args.save) if args.save else None
    if save is not None:
        save.mkdir(parents=True, exist_ok=True)
    from app.sources import configured_size

    width, height = configured_size()  # the table's [board.camera] picture size
    capture = open_capture(args.camera, width=width, height=height)
    reader = BoardReader(profile, corners=corners)
    count = 0
    texts = {"still": tr("still"), "moving": tr("moving: waiting"), "not found": tr("board not found")}
    try:
        while args.frames <= 0 or count < args.frames:
            frame = capture.read()
            if frame is None:
                break
            result = reader.process(frame)
            count += 1
            if save is not None or args.show:
                drawn = annotate(frame, result, profile, texts=texts)
                if save is not None:
                    cv2.imwrite(str(save / f"frame_{count:05d}.png"), drawn)
                if args.show:
                    _show(cv2, drawn)
            if result.released is not None:
                print(tr("frame {n}: board read", n=count))
                for r in range(profile.rows):
                    print(" ".join(result.released[r * profile.cols : (r + 1) * profile.cols]))
                sys.stdout.flush()
    finally:
        capture.close()
    return 0
