"""Camera calibration: touch the four corner holes, learn the empty board and each peg colour.

A board without stickers (issue 30, point 6) has its grid found on the picture by itself
(``vision/grid_find.py``, once per session), or, when that is refused or the user taps instead,
by four taps on its corner points that the session moves onto the board's printed lines. Either
way this screen draws the grid over the picture, and the user confirms it ("Grid is right") or
taps the four corners (again) before the empty board.

The shell links this screen from settings when it imports (``make_screen``). The steps are
:class:`vision.calibration_session.CalibrationSession` (UI-free, unit-tested); this screen shows
the live camera picture with what the reader sees drawn on it, forwards touches on the picture
and the buttons to the session, and saves the profile where ``[board.camera]`` reads it.

The camera is opened when the screen is entered and released when it is left; frames are read
on Kivy's clock (a calibration needs a live picture, not speed).
"""

from __future__ import annotations

import logging
import threading
import time
from collections import deque
from collections.abc import Callable
from pathlib import Path
from typing import Any

from kivy.clock import Clock
from kivy.graphics.texture import Texture
from kivy.uix.boxlayout import BoxLayout
from kivy.uix.image import Image
from kivy.uix.screenmanager import Screen
from kivy.uix.scrollview import ScrollView

from app.games.board99.calibration_texts import colours_to_learn as colours_to_learn
from app.games.board99.calibration_texts import message_text as message_text
from app.i18n import tr
from app.source_factories.camera import profile_path
from app.ui.widgets import ACCENT, Background, BigButton, WrapLabel, colour_name

GRID_TRIES = 5  # looks for a board without stickers at most this often per session
GRID_RETRY_S = 2.0  # seconds between two looks

log = logging.getLogger(__name__)
NAME = "camera_calibration"
CORNER_WORDS = ("top left", "top right", "bottom right", "bottom left")


def corner_word(index: int) -> str:
    return [tr("top left"), tr("top right"), tr("bottom right"), tr("bottom left")][index]


def mark_hole(frame: Any, image_from_grid: Any, profile: Any, hole: int) -> None:
    """A thick white ring with a black edge around the hole the current step asks for (seen on
    any board and any peg colour; the instruction names the hole in words as well)."""
    import cv2
    import numpy as np

    from vision.sampling import project

    row, col = divmod(hole, profile.cols)
    beside = col + 1 if col + 1 < profile.cols else col - 1
    (x, y), (x1, y1) = project(image_from_grid, np.array([[col, row], [beside, row]], float))
    radius = max(6, round(0.55 * float(np.hypot(x1 - x, y1 - y))))
    centre = (round(float(x)), round(float(y)))
    cv2.circle(frame, centre, radius, (0, 0, 0), 6, cv2.LINE_AA)
    cv2.circle(frame, centre, radius, (255, 255, 255), 3, cv2.LINE_AA)


def draw_grid(frame: Any, image_from_grid: Any, rows: int, cols: int) -> None:
    """The grid the taps were turned into, over the picture, for the user to confirm: every line
    thin and yellow, and a ring on each corner point."""
    import cv2
    import numpy as np

    from vision.sampling import project

    def px(u: float, v: float) -> tuple[int, int]:
        x, y = project(image_from_grid, np.array([[u, v]], dtype=np.float64))[0]
        return round(float(x)), round(float(y))

    lines = [((0, r), (cols - 1, r)) for r in range(rows)] + [((c, 0), (c, rows - 1)) for c in range(cols)]
    for a, b in lines:  # thin: the board's own lines stay visible beside a grid that is off
        cv2.line(frame, px(*a), px(*b), (0, 220, 255), 1, cv2.LINE_AA)
    for u, v in ((0, 0), (cols - 1, 0), (cols - 1, rows - 1), (0, rows - 1)):
        cv2.circle(frame, px(u, v), 12, (0, 0, 0), 5, cv2.LINE_AA)
        cv2.circle(frame, px(u, v), 12, (0, 220, 255), 3, cv2.LINE_AA)


def mark_taps(frame: Any, taps: list[tuple[float, float]]) -> None:
    """A ring where each corner was tapped so far (the user sees which corners are done)."""
    import cv2

    for x, y in taps:
        cv2.circle(frame, (round(x), round(y)), 10, (0, 0, 0), 5, cv2.LINE_AA)
        cv2.circle(frame, (round(x), round(y)), 10, (0, 220, 255), 3, cv2.LINE_AA)


class CameraCalibrationScreen(Screen):
    def __init__(
        self,
        ctx: Any,
        open_capture: Callable[[], Any] | None = None,
        save_to: str | Path | None = None,
        **kwargs: Any,
    ) -> None:
        kwargs.setdefault("name", NAME)
        super().__init__(**kwargs)
        self.ctx = ctx
        options = ctx.config.options_for("camera") if ctx is not None and ctx.config is not None else {}
        self.save_to = Path(save_to) if save_to else profile_path(options)
        self._open_capture = open_capture or self._capture_from_config(options)
        self.capture: Any = None
        self.frame: Any = None
        from vision.calibration_session import FRAMES

        # the last few frames (half a second): a step learns their mean, not one noisy frame
        self.recent: deque[Any] = deque(maxlen=FRAMES)
        self.session: Any = None
        self._event: Any = None
        self.message = ""
        self.values: dict[str, Any] = {}
        self.stickers_seen = True  # in the latest frame, while the corners are asked for
        root = BoxLayout(orientation="horizontal", spacing=8, padding=8)
        Background.paint(root)
        # invisible until a frame arrives: an Image without a texture is a glaring white box
        self.picture = Image(size_hint_x=0.55, fit_mode="contain", color=(1, 1, 1, 0))
        self.picture.bind(texture=lambda image, tex: setattr(image, "color", (1, 1, 1, 1 if tex else 0)))
        self.picture.bind(on_touch_down=self._on_picture_touch)
        side = BoxLayout(orientation="vertical", spacing=8, size_hint_x=0.45)
        self.title = WrapLabel(tr("Camera calibration"), bold=True)
        self.instruction = WrapLabel("")
        self.status = WrapLabel("", color=(0.95, 0.8, 0.4, 1))
        self.primary = BigButton("", on_press=self.on_primary, background_color=ACCENT)
        self.secondary = BigButton("", on_press=self.on_secondary)
        self.back = BigButton(tr("Back"), on_press=self.leave)
        # the texts scroll above the buttons: a refusal's sentence with the step's instruction
        # is longer than 480 pixels leave in German
        texts = BoxLayout(orientation="vertical", spacing=8, size_hint_y=None, padding=(0, 0, 12, 0))
        texts.bind(minimum_height=texts.setter("height"))
        for widget in (self.title, self.status, self.instruction):  # what just happened first
            texts.add_widget(widget)
        self.texts = ScrollView(do_scroll_x=False, bar_width=6)
        self.texts.add_widget(texts)
        side.add_widget(self.texts)
        for button in (self.primary, self.secondary, self.back):
            side.add_widget(button)
        root.add_widget(self.picture)
        root.add_widget(side)
        self.add_widget(root)
        self._new_session()

    @staticmethod
    def _capture_from_config(options: Any) -> Callable[[], Any]:
        def open_it() -> Any:
            from vision.capture import open_capture

            spec = str(options.get("camera", "picamera"))
            return open_capture(
                spec, width=int(options.get("width", 1280)), height=int(options.get("height", 960))
            )

        return open_it

    def _new_session(self) -> None:
        from vision.calibration_session import CalibrationSession
        from vision.profile import ProfileError, default_profile, load_profile

        profile = default_profile()
        if self.save_to.exists():
            try:
                profile = load_profile(self.save_to)
            except ProfileError as exc:
                log.warning("ignoring the unreadable camera profile: %s", exc)
        self.session = CalibrationSession(profile, colours_to_learn())
        # a board without stickers is looked for on a worker thread, again every few seconds
        # while it is not found (a camera's first frames are dark while its exposure settles)
        self.grid_tries = 0
        self.grid_search: threading.Thread | None = None
        self.next_grid_try = 0.0
        self.message = ""
        self.refresh()

    # -- camera ------------------------------------------------------------------------------
    def on_enter(self, *args: Any) -> None:
        self.start_camera()

    def on_leave(self, *args: Any) -> None:
        self.stop_camera()

    def start_camera(self) -> None:
        from vision.capture import CaptureError

        if self.capture is None:
            try:
                self.capture = self._open_capture()
            except CaptureError as exc:
                log.warning("camera calibration: %s", exc)
                self.message = "no-camera"
                self.refresh()
                return
        if self._event is None:
            self._event = Clock.schedule_interval(lambda _dt: self.next_frame(), 1 / 10)
        self.next_frame()

    def stop_camera(self) -> None:
        if self._event is not None:
            self._event.cancel()
            self._event = None
        if self.capture is not None:
            self.capture.close()
            self.capture = None

    def next_frame(self) -> None:
        """Read a frame and show it with the reader's view drawn on it."""
        if self.capture is None:
            return
        frame = self.capture.read()
        if frame is None:
            return
        self.frame = frame
        self.recent.append(frame)
        from vision.calibration_session import Step

        if self.session.step is Step.CORNERS and not self.session.grid_to_confirm:
            seen = self.session.image_from_board(frame) is not None
            if seen != self.stickers_seen:  # no stickers: the words ask for the board's corners
                self.stickers_seen = seen
                self.refresh()
            if (
                not seen
                and not self.session.corners
                and self.grid_search is None
                and self.grid_tries < GRID_TRIES
                and time.monotonic() >= self.next_grid_try
            ):
                self._search_grid(frame)
        self._show(self._annotated(frame))

    def _search_grid(self, frame: Any) -> None:
        """The board's grid looked for on a worker thread: a second or more on a Pi, which on the
        UI thread would freeze the screen; the result comes back through the Clock."""
        self.grid_tries += 1
        session = self.session
        rows, cols = session.profile.rows, session.profile.cols
        picture = frame.copy()

        def work() -> None:
            from vision import grid_find

            try:
                points: list[tuple[float, float]] | None = grid_find.find_corners(picture, rows, cols)
            except ValueError:  # GridNotFoundHere, or a grid too small to look for
                points = None
            Clock.schedule_once(lambda _dt: self._grid_searched(session, points))

        self.grid_search = threading.Thread(target=work, name="grid-find", daemon=True)
        self.grid_search.start()

    def _grid_searched(self, session: Any, points: list[tuple[float, float]] | None) -> None:
        from vision.calibration_session import Outcome, Step

        self.grid_search = None
        self.next_grid_try = time.monotonic() + GRID_RETRY_S
        if session is not self.session or session.step is not Step.CORNERS or session.corners:
            return  # started again, or tapped, while it looked
        self._said(session.propose_grid(points) if points else Outcome(False, "grid-not-found-itself"))
        self.refresh()

    def _annotated(self, frame: Any) -> Any:
        from vision.annotate import annotate
        from vision.reader import read_image

        profile = self.session.profile
        if self.session.grid_to_confirm and profile.picture_corners is not None:
            from vision.sampling import homography_from_corners

            out = frame.copy()
            draw_grid(
                out,
                homography_from_corners(list(profile.picture_corners), profile.rows, profile.cols),
                profile.rows,
                profile.cols,
            )
            return out
        if self.session.corners:
            frame = frame.copy()
            mark_taps(frame, self.session.corners)
        try:
            result = read_image(frame, profile)
            if not profile.calibrated:
                result.letters = ["." for _ in result.letters]
            out = annotate(frame, result, profile, show_status=False)
        except Exception:  # no stickers in view: show the bare picture
            return frame
        hole = self.session.target_hole
        if hole is not None and result.image_from_grid is not None:
            mark_hole(out, result.image_from_grid, profile, hole)
        return out

    def _show(self, frame: Any) -> None:
        import cv2

        rgb = cv2.cvtColor(frame, cv2.COLOR_BGR2RGB)[::-1]
        height, width = rgb.shape[:2]
        texture = Texture.create(size=(width, height), colorfmt="rgb")
        texture.blit_buffer(rgb.tobytes(), colorfmt="rgb", bufferfmt="ubyte")
        self.picture.texture = texture

    # -- touches and buttons -----------------------------------------------------------------
    def picture_to_frame(self, x: float, y: float) -> tuple[float, float] | None:
        """Window coordinates of a touch -> pixel of the frame (None outside the picture)."""
        if self.frame is None:
            return None
        height, width = self.frame.shape[:2]
        scale = min(self.picture.width / width, self.picture.height / height)
        left = self.picture.x + (self.picture.width - width * scale) / 2
        bottom = self.picture.y + (self.picture.height - height * scale) / 2
        fx, fy = (x - left) / scale, height - (y - bottom) / scale
        if not (0 <= fx < width and 0 <= fy < height):
            return None
        return fx, fy

    def _on_picture_touch(self, _widget: Any, touch: Any) -> bool:
        from vision.calibration_session import Step

        if not self.picture.collide_point(*touch.pos) or self.session.step is not Step.CORNERS:
            return False
        point = self.picture_to_frame(*touch.pos)
        if point is None:
            return False
        self._said(self.session.touch_corner(self.frame, *point))
        self.refresh()
        return True

    def on_primary(self) -> None:
        from vision.calibration_session import Step

        step = self.session.step
        if self.frame is None and step in (Step.EMPTY, Step.COLOUR):
            self.message = "no-camera"
        elif step is Step.CORNERS and self.session.grid_to_confirm:
            self._said(self.session.confirm_grid())
        elif step is Step.CORNERS and not self._can_keep():
            self.session.corners = []  # a board without stickers has no holes to keep: tap again
            self.message = ""
        elif step is Step.CORNERS:
            self.session.keep_corners()
            self.message = ""
        elif step is Step.EMPTY:
            self._said(self.session.learn_empty(list(self.recent)))
        elif step is Step.COLOUR:
            self._said(self.session.learn_colour(list(self.recent)))
        elif step is Step.DONE:
            self._said(self.session.save(self.save_to))
        self.refresh()

    def _can_keep(self) -> bool:
        """Whether the holes can be kept: stickers in view, or a grid saved for this camera."""
        return self.stickers_seen or self.session.profile.picture_corners is not None

    def _said(self, outcome: Any) -> None:
        self.message, self.values = outcome.message, dict(outcome.values)

    def on_secondary(self) -> None:
        from vision.calibration_session import Step

        if self.session.step is Step.COLOUR:
            self.session.skip_colour()
        else:
            self._new_session()  # start again
        self.refresh()

    def leave(self) -> None:
        self.stop_camera()
        if self.ctx is not None and getattr(self.ctx, "manager", None) is not None:
            self.ctx.go("home")

    def refresh(self) -> None:
        from vision.calibration_session import Step

        session = self.session
        step = session.step
        self.status.text = message_text(self.message, self.values) if self.message else ""
        self.texts.scroll_y = 1  # the top: the title and what just happened
        number = {Step.CORNERS: 1, Step.EMPTY: 2, Step.COLOUR: 3, Step.DONE: 4}[step]
        self.title.text = tr("Camera calibration: step {n} of 4", n=number)
        self.secondary.text = tr("Start again")
        self.back.text = tr("Back")  # every label in the language shown now, like the others
        if step is Step.CORNERS and session.grid_to_confirm:
            self.instruction.text = tr(
                "The grid is drawn over the picture. If its lines lie on the board's, tap Grid is right;"
                " if not, tap the four corners again."
            )
            self.primary.text = tr("Grid is right")
        elif step is Step.CORNERS and not self.stickers_seen:
            index = len(session.corners)
            self.instruction.text = tr(
                "No stickers seen. Tap the board's {corner} corner point on the picture ({n} of 4):"
                " roughly is enough, the grid is then found on the board's lines.",
                corner=corner_word(index),
                n=index + 1,
            )
            self.primary.text = tr("Keep the holes") if self._can_keep() else tr("Clear the taps")
        elif step is Step.CORNERS:
            index = len(session.corners)
            self.instruction.text = tr(
                "Touch the {corner} corner hole on the picture ({n} of 4), or keep the holes as they are"
                " if the stickers are where the printed sheet says.",
                corner=corner_word(index),
                n=index + 1,
            )
            self.primary.text = tr("Keep the holes")
        elif step is Step.EMPTY:
            self.instruction.text = tr(
                "Take every peg off the board and keep hands and glare off it, then tap Learn."
            )
            self.primary.text = tr("Learn")
        elif step is Step.COLOUR:
            _letter, name = session.current_colour
            self.instruction.text = tr(
                "Put one {colour} peg in row {row}, column {column} (ringed on the picture), then tap"
                " Learn. Pegs put in before stay where they are.",
                colour=colour_name(name),
                **session.hole_words(session.target_hole),
            )
            self.primary.text = tr("Learn")
            self.secondary.text = tr("Skip this colour")
        else:
            learnt = ", ".join(colour_name(n) for n in session.learnt) or "-"
            self.instruction.text = tr("Colours learnt: {colours}. Tap Save to use them.", colours=learnt)
            if session.hard:
                self.instruction.text += " " + tr(
                    "Close to the board's colour here (read less surely): {colours}.",
                    colours=", ".join(colour_name(n) for n in session.hard),
                )
            self.primary.text = tr("Save")


def make_screen(ctx: Any) -> CameraCalibrationScreen:
    return CameraCalibrationScreen(ctx)
