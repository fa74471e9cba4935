"""A synthetic camera: draws a 10x10 peg board with stickers as a camera would see it.

Used by the vision tests and benchmarks (``benchmarks/vision_*.py``). A :class:`Scene` describes
what is on the table (pegs by hole and colour name, a hand, a covered sticker) and how the camera
sees it (pose, uneven light, glare, noise, blur, JPEG quality); :func:`render` draws it with a
seeded random generator, so every picture can be drawn again exactly.

The board is drawn top-down in board-plane millimetres (the default profile's geometry: holes
25 mm apart, stickers 40 mm diagonally outside the corner holes) and then projected into the
camera with a homography, so the same geometry the reader assumes is the one rendered.
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from functools import cache

import cv2
import numpy as np

from vision.profile import BoardProfile, default_markers, default_profile

PEG_COLOURS_BGR: dict[str, tuple[int, int, int]] = {
    "red": (40, 40, 200),
    "blue": (190, 90, 30),
    "green": (60, 160, 40),
    "yellow": (30, 200, 230),
}
LETTERS = {"red": "R", "blue": "B", "green": "G", "yellow": "Y"}
# the colours a calibrated profile learns: fixed, so that a test adding a colour to the dicts
# above (monkeypatch) never changes the profile :func:`small_profile` calibrates once and shares
STANDARD_COLOURS = ("red", "blue", "green", "yellow")
PX_PER_MM = 3.0
BOARD_BGR = (150, 195, 225)  # light beige
TABLE_BGR = (70, 90, 110)  # brown table
SKIN_BGR = (120, 150, 205)


@dataclass(frozen=True)
class Hand:
    """A hand and forearm reaching in from the bottom edge to (x, y) in board millimetres."""

    x: float
    y: float
    width: float = 80.0


@dataclass(frozen=True)
class Scene:
    pegs: dict[int, str] = field(default_factory=dict)
    size: tuple[int, int] = (1280, 960)
    tilt: float = 0.0  # 0..1: how oblique the camera looks at the board
    rotation: float = 0.0  # degrees the board is turned in the picture
    shift: tuple[float, float] = (0.0, 0.0)  # board nudged, millimetres
    scale: float = 1.0
    light: float = 1.0  # overall brightness
    gradient: float = 0.0  # 0..1 uneven light from one side
    warmth: float = 0.0  # -1 (cool) .. 1 (warm lamp)
    glare: float = 0.0  # 0..1 a lamp's reflection
    noise: float = 0.0  # sensor noise, grey levels
    blur: float = 0.0  # Gaussian sigma in pixels
    jpeg: int = 0  # JPEG quality, 0 = none
    hand: Hand | None = None
    covered_marker: int | None = None  # sticker id half covered by something
    stickers: tuple[float, float] = (40.0, 35.0)  # sticker side and distance from the corner holes, mm
    sun: float = 0.0  # extra light in a sharp-edged patch of sunlight (1.0 = twice as bright)
    seed: int = 0  # the board, table and lamp
    frame: int = 0  # the sensor noise of one video frame
    peg_radius: float = 8.5  # the peg's head, mm (holes are 25 mm apart: 8.5 mm = 0.68 pitch across)
    board: tuple[int, int, int] = BOARD_BGR  # the wood's colour
    hole_radius: float = 3.8  # mm


def profile() -> BoardProfile:
    return default_profile()


def _board_texture(scene: Scene, prof: BoardProfile, rng: np.random.Generator) -> tuple[np.ndarray, float]:
    """Top-down board + stickers in board millimetres; returns the image and its origin (mm)."""
    origin = -100.0
    span = 225.0 + 200.0
    n = int(span * PX_PER_MM)
    img = np.empty((n, n, 3), np.uint8)
    img[:] = TABLE_BGR

    def px(v: float) -> int:
        return round((v - origin) * PX_PER_MM)

    cv2.rectangle(img, (px(-20), px(-20)), (px(245), px(245)), scene.board, -1)
    for k in range(11):  # square outlines between holes
        v = -12.5 + 25 * k
        cv2.line(img, (px(v), px(-12.5)), (px(v), px(237.5)), (110, 140, 170), 1)
        cv2.line(img, (px(-12.5), px(v)), (px(237.5), px(v)), (110, 140, 170), 1)
    for hole in range(100):
        r, c = divmod(hole, 10)
        cx, cy = 25.0 * c, 25.0 * r
        cv2.putText(
            img,
            str(hole),
            (px(cx - 11), px(cy - 6)),
            cv2.FONT_HERSHEY_SIMPLEX,
            0.35,
            (90, 110, 130),
            1,
            cv2.LINE_AA,
        )
        colour = scene.pegs.get(hole)
        if colour is None:
            rim, cavity = (scene.hole_radius + 0.7) * PX_PER_MM, scene.hole_radius * PX_PER_MM
            cv2.circle(img, (px(cx), px(cy)), int(rim), (110, 140, 160), -1, cv2.LINE_AA)
            cv2.circle(img, (px(cx), px(cy)), max(1, int(cavity)), (35, 45, 55), -1, cv2.LINE_AA)
        else:
            bgr = np.array(PEG_COLOURS_BGR[colour], np.float64)
            size = scene.peg_radius / 8.5
            cv2.circle(
                img, (px(cx + 1.2), px(cy + 1.2)), int(8.5 * size * PX_PER_MM), (60, 80, 95), -1, cv2.LINE_AA
            )
            cv2.circle(
                img,
                (px(cx), px(cy)),
                int(8.5 * size * PX_PER_MM),
                tuple(float(v) for v in bgr * 0.7),
                -1,
                cv2.LINE_AA,
            )
            cv2.circle(
                img,
                (px(cx), px(cy)),
                int(7.0 * size * PX_PER_MM),
                tuple(float(v) for v in bgr),
                -1,
                cv2.LINE_AA,
            )
            cv2.circle(
                img,
                (px(cx - 2.5 * size), px(cy - 2.5 * size)),
                max(1, int(1.3 * size * PX_PER_MM)),
                tuple(float(min(255, v * 0.4 + 160)) for v in bgr),
                -1,
                cv2.LINE_AA,
            )
    dictionary = cv2.aruco.getPredefinedDictionary(cv2.aruco.DICT_4X4_100)
    for marker in prof.markers:
        (x0, y0), _, (x1, y1), _ = marker.corners()
        quiet = 6.0
        cv2.rectangle(
            img, (px(x0 - quiet), px(y0 - quiet)), (px(x1 + quiet), px(y1 + quiet)), (245, 245, 245), -1
        )
        side = px(x1) - px(x0)
        code = cv2.aruco.generateImageMarker(dictionary, marker.id, side)
        img[px(y0) : px(y0) + side, px(x0) : px(x0) + side] = (code[:, :, None] * (230 / 255) + 12).astype(
            np.uint8
        )
        if scene.covered_marker == marker.id:
            cv2.rectangle(
                img,
                (px(x0 - quiet), px((y0 + y1) / 2)),
                (px(x1 + quiet + 10), px(y1 + quiet + 10)),
                (60, 60, 160),
                -1,
            )
    grain = cv2.GaussianBlur(rng.normal(0, 5, (n, n)).astype(np.float32), (0, 0), 2)
    return img.astype(np.float32) + grain[:, :, None], origin


def camera_from_board(scene: Scene) -> np.ndarray:
    """Homography from board millimetres to camera pixels for the scene's pose."""
    w, h = scene.size
    centre = np.array([112.5, 112.5])
    half = 190.0
    src = np.array(
        [
            centre + np.array([-half, -half]),
            centre + np.array([half, -half]),
            centre + np.array([half, half]),
            centre + np.array([-half, half]),
        ],
        np.float32,
    )
    s = 0.40 * min(w, h) * scene.scale
    squeeze = scene.tilt * 0.35
    dst = np.array(
        [
            [-s * (1 - squeeze), -s * (1 - 0.5 * squeeze)],
            [s * (1 - squeeze), -s * (1 - 0.5 * squeeze)],
            [s, s],
            [-s, s],
        ],
        np.float64,
    )
    a = np.deg2rad(scene.rotation)
    rot = np.array([[np.cos(a), -np.sin(a)], [np.sin(a), np.cos(a)]])
    dst = dst @ rot.T + [w / 2, h / 2]
    camera_from_table = np.asarray(cv2.getPerspectiveTransform(src, dst.astype(np.float32)), np.float64)
    # a nudge moves the board on the table, not the camera
    table_from_board = np.array([[1, 0, scene.shift[0]], [0, 1, scene.shift[1]], [0, 0, 1]], np.float64)
    return camera_from_table @ table_from_board


SUN_PATCH = np.array([[30.0, 95.0], [160.0, 70.0], [185.0, 120.0], [95.0, 180.0]])  # board mm


def _glare_blob(scene: Scene, xx: np.ndarray, yy: np.ndarray) -> np.ndarray:
    """The lamp's reflection at pixels (xx, yy): 1 at its centre."""
    w, h = scene.size
    lamp = np.random.default_rng([scene.seed, 1])
    gx, gy = w * (0.35 + 0.3 * lamp.random()), h * (0.3 + 0.4 * lamp.random())
    sigma = 0.12 * min(w, h)
    return np.asarray(np.exp(-((xx - gx) ** 2 + (yy - gy) ** 2) / (2 * sigma**2)))


def glare_at(scene: Scene, hole: int) -> float:
    """How strong the lamp's reflection is at a hole (1 at its centre), for tests that must know."""
    x, y = 25.0 * (hole % 10), 25.0 * (hole // 10)
    px = cv2.perspectiveTransform(np.array([[[x, y]]]), camera_from_board(scene))[0, 0]
    return float(_glare_blob(scene, np.array(px[0]), np.array(px[1])))


def in_sun(point: tuple[float, float]) -> bool:
    """Is a point of the board (mm) in the patch of sun (when the scene has one)?"""
    return cv2.pointPolygonTest(SUN_PATCH.astype(np.float32), point, False) > 0


def render(scene: Scene) -> np.ndarray:
    """The camera frame (BGR uint8) for ``scene``."""
    rng = np.random.default_rng(scene.seed)
    prof = profile()
    if scene.stickers != (40.0, 35.0):  # stuck elsewhere than the default profile expects
        prof = replace(prof, markers=default_markers(prof.holes, *scene.stickers))
    board, origin = _board_texture(scene, prof, rng)
    w, h = scene.size
    texture_from_board = np.array(
        [[PX_PER_MM, 0, -origin * PX_PER_MM], [0, PX_PER_MM, -origin * PX_PER_MM], [0, 0, 1]]
    )
    cam = camera_from_board(scene) @ np.linalg.inv(texture_from_board)
    frame = cv2.warpPerspective(
        board, cam, (w, h), flags=cv2.INTER_LINEAR, borderMode=cv2.BORDER_CONSTANT, borderValue=TABLE_BGR
    )
    frame = frame.astype(np.float32)
    if scene.hand is not None:
        frame = _draw_hand(frame, scene, rng)
    yy, xx = np.mgrid[0:h, 0:w].astype(np.float32)
    gain = scene.light * (1 - scene.gradient * 0.6 * (xx / w)) * (1 - scene.gradient * 0.25 * (yy / h))
    warm = np.array([1 - 0.25 * scene.warmth, 1.0, 1 + 0.2 * scene.warmth], np.float32)
    frame = frame * gain[:, :, None] * warm[None, None, :]
    if scene.sun > 0:  # a patch of sun through a window: sharp edges, across holes and gaps alike
        corners = cv2.perspectiveTransform(SUN_PATCH[None], camera_from_board(scene))[0]
        mask = np.zeros((h, w), np.float32)
        cv2.fillPoly(mask, [np.round(corners).astype(np.int32)], 1.0, cv2.LINE_AA)
        frame = frame * (1 + scene.sun * mask)[:, :, None]
    if scene.glare > 0:
        blob = _glare_blob(scene, xx, yy)
        # a mirror image of the lamp, so in its colour (mean 1): grey only under white light
        frame += (scene.glare * 120 * scene.light * blob)[:, :, None] * (warm / warm.mean())[None, None, :]
    if scene.noise > 0:
        rng = np.random.default_rng([scene.seed, scene.frame])
        frame += rng.normal(0, scene.noise, frame.shape).astype(np.float32)
    out = np.clip(frame, 0, 255).astype(np.uint8)
    if scene.blur > 0:
        out = cv2.GaussianBlur(out, (0, 0), scene.blur)
    if scene.jpeg:
        ok, data = cv2.imencode(".jpg", out, [cv2.IMWRITE_JPEG_QUALITY, scene.jpeg])
        assert ok
        out = cv2.imdecode(data, cv2.IMREAD_COLOR)
    return out


def _draw_hand(frame: np.ndarray, scene: Scene, rng: np.random.Generator) -> np.ndarray:
    assert scene.hand is not None
    cam = camera_from_board(scene)
    hand = scene.hand
    tip = np.array([hand.x, hand.y])
    wrist = tip + np.array([0, 90])
    elbow = wrist + np.array([20, 400])
    shadow = np.zeros(frame.shape[:2], np.float32)
    skin = np.zeros(frame.shape[:2], np.float32)

    def poly(points: list[np.ndarray], target: np.ndarray, offset: float = 0.0) -> None:
        pts = np.array(points, np.float64) + offset
        img_pts = cv2.perspectiveTransform(pts.reshape(-1, 1, 2), cam).reshape(-1, 2)
        cv2.fillPoly(target, [np.rint(img_pts).astype(np.int32)], 1.0, cv2.LINE_AA)

    half = hand.width / 2
    palm = [
        wrist + np.array([-half, 0]),
        tip + np.array([-half, 20]),
        tip + np.array([-half * 0.6, 0]),
        tip + np.array([half * 0.6, 0]),
        tip + np.array([half, 20]),
        wrist + np.array([half, 0]),
    ]
    arm = [
        wrist + np.array([-half * 0.8, 0]),
        wrist + np.array([half * 0.8, 0]),
        elbow + np.array([half, 0]),
        elbow + np.array([-half, 0]),
    ]
    for target, off in ((shadow, 18.0), (skin, 0.0)):
        poly(palm, target, off)
        poly(arm, target, off)
    shadow = cv2.GaussianBlur(shadow, (0, 0), 15)
    frame = frame * (1 - 0.45 * shadow[:, :, None])
    tone = np.array(SKIN_BGR, np.float32) * (0.9 + 0.2 * rng.random())
    frame = frame * (1 - skin[:, :, None]) + tone[None, None, :] * skin[:, :, None]
    return frame


def random_scene(rng: np.random.Generator, *, pegs: int | None = None, hard: bool = True) -> Scene:
    """A random but plausible table: pegs, pose and light drawn from ``rng``."""
    count = int(rng.integers(0, 60)) if pegs is None else pegs
    holes = rng.choice(100, size=count, replace=False)
    colours = list(PEG_COLOURS_BGR)
    layout = {int(hh): colours[int(rng.integers(0, len(colours)))] for hh in holes}
    if not hard:
        return Scene(pegs=layout, seed=int(rng.integers(0, 2**31)))
    return Scene(
        pegs=layout,
        tilt=float(rng.uniform(0, 0.8)),
        rotation=float(rng.uniform(-12, 12)),
        shift=(float(rng.uniform(-15, 15)), float(rng.uniform(-15, 15))),
        scale=float(rng.uniform(0.8, 1.02)),
        light=float(rng.uniform(0.55, 1.3)),
        gradient=float(rng.uniform(0, 0.8)),
        warmth=float(rng.uniform(-0.8, 0.8)),
        glare=float(rng.uniform(0, 0.5)) if rng.random() < 0.5 else 0.0,
        noise=float(rng.uniform(0, 6)),
        blur=float(rng.uniform(0, 1.5)),
        jpeg=int(rng.integers(50, 95)) if rng.random() < 0.7 else 0,
        covered_marker=int(rng.integers(0, 4)) if rng.random() < 0.25 else None,
        seed=int(rng.integers(0, 2**31)),
        sun=float(rng.uniform(0.2, 0.9)) if rng.random() < 0.25 else 0.0,
    )


def truth_letters(scene: Scene) -> list[str]:
    return [LETTERS[scene.pegs[h]] if h in scene.pegs else "." for h in range(100)]


def with_pegs(scene: Scene, pegs: dict[int, str]) -> Scene:
    return replace(scene, pegs=dict(pegs))


def calibrated_profile(base: Scene | None = None) -> BoardProfile:
    """Calibrate the default profile as the app does (guided): the empty board, then one peg per
    colour in the hole the session names, the earlier pegs left on the board."""
    from vision.calibration_session import CalibrationSession

    base = base or Scene()
    session = CalibrationSession(profile(), [(LETTERS[name], name) for name in STANDARD_COLOURS])
    session.keep_corners()
    assert session.learn_empty(render(replace(base, pegs={}))).ok
    pegs: dict[int, str] = {}
    for k, name in enumerate(STANDARD_COLOURS):
        pegs[session.targets[k]] = name
        outcome = session.learn_colour(render(replace(base, pegs=dict(pegs), frame=k + 1)))
        assert outcome.ok, outcome
    return session.profile


def hand_sequence(
    rng: np.random.Generator, still: int = 6, rest: int = 8
) -> tuple[list[Scene], list[list[str]]]:
    """Frames of one play: the board still, a hand reaches in, rests, places a peg and leaves.

    Returns the scenes (one per frame) and the true letters per frame; while the hand is over
    the board the truth is the board under it (the peg counts only once the hand is gone).
    """
    before = random_scene(rng, pegs=int(rng.integers(0, 40)))
    free = [h for h in range(100) if h not in before.pegs]
    target = int(rng.choice(free))
    colour = list(PEG_COLOURS_BGR)[int(rng.integers(0, len(PEG_COLOURS_BGR)))]
    after = replace(before, pegs={**before.pegs, target: colour})
    r, c = divmod(target, 10)
    tx, ty = 25.0 * c, 25.0 * r
    scenes: list[Scene] = [replace(before, frame=i) for i in range(still)]
    path = [(tx + 60 * (1 - k / 6) * (1 if k % 2 else -1), 320 - (320 - ty) * k / 6) for k in range(1, 7)]
    for k, (x, y) in enumerate(path):
        scenes.append(replace(before, hand=Hand(x, y), frame=still + k))
    for k in range(rest):  # the hand rests on the board, still
        scenes.append(
            replace(after if k >= rest // 2 else before, hand=Hand(tx, ty + 10), frame=still + 6 + k)
        )
    for k, y in enumerate((ty + 80, ty + 200, 330)):
        scenes.append(replace(after, hand=Hand(tx + 10, y), frame=still + 6 + rest + k))
    scenes += [replace(after, frame=still + 9 + rest + i) for i in range(still)]
    truths = [truth_letters(sc) for sc in scenes]
    return scenes, truths


SMALL = (640, 480)


@cache
def small_profile() -> BoardProfile:
    """A profile calibrated on 640x480 renders, shared by the tests (calibrating costs ~0.4 s)."""
    return calibrated_profile(Scene(size=SMALL))


def reach_and_place(before: Scene, after: Scene, hole: int, first_frame: int) -> list[Scene]:
    """Five frames of a hand reaching in from the players' side, placing a peg in ``hole`` (the
    board becomes ``after`` under the resting hand) and leaving again."""
    x, y = 25.0 * (hole % 10), 25.0 * (hole // 10)
    path = [Hand(x + 40, 300), Hand(x + 20, y + 60), Hand(x, y + 12)]
    scenes = [replace(before, hand=hand, frame=first_frame + i) for i, hand in enumerate(path)]
    scenes += [
        replace(after, hand=Hand(x, y + 12), frame=first_frame + 3),
        replace(after, hand=Hand(x + 10, y + 150), frame=first_frame + 4),
    ]
    return scenes
