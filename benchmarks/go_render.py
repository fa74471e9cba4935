"""Go boards drawn at random, for training the point net (``vision/point_net.py``).

The peg board's renderers (``tests/render_board.py``, ``benchmarks/unseen_board.py``) draw holes;
the real sets are Go boards (printed lines, stones standing on the points). This draws the
latter with heavy randomisation: board wood from pale to dark yellow, line darkness and width,
black and white stones with a soft highlight, a shadow and a lift toward the camera (thick
stones seen at an angle), perspective, a light gradient, a sharp-edged patch of sun (sometimes
clipping), a lamp's glare, blur, noise and JPEG. Each call returns the picture, the four outer
grid points (TL, TR, BR, BL, pixels) and the letters per point (``.``, ``B``, ``W``).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from collections.abc import Callable

    import numpy as np


def stone_shadows(
    img: np.ndarray,
    hm: np.ndarray,
    letters: list[str],
    size: int,
    lift: float,
    radius: float,
    shade: Callable[[], list[float]],
) -> None:
    """Each stone's shadow, an ellipse down and to the right of where the stone is drawn (its
    point lifted ``lift`` pitches toward the top), in the colour ``shade`` gives per stone (called
    once a stone, in order, so a drawer that takes it from its random generator keeps its draws)."""
    import cv2
    import numpy as np

    from vision.sampling import project

    for point in np.flatnonzero(np.array(letters) != "."):
        x, y = project(hm, np.array([[point % size, point // size - lift]], dtype=np.float64))[0]
        centre = (round(x + 0.15 * radius), round(y + 0.35 * radius))
        cv2.ellipse(img, centre, (round(radius), round(radius * 0.8)), 0, 0, 360, shade(), -1, cv2.LINE_AA)


def draw(rng: np.random.Generator, size: int = 19) -> tuple[np.ndarray, list[tuple[float, float]], list[str]]:
    import cv2
    import numpy as np

    from vision.sampling import homography_from_corners, project

    w, h = 1280, 960
    # the grid's corners: a quadrilateral filling most of the picture, seen at some angle
    cx, cy, half = w / 2 + rng.uniform(-60, 60), h / 2 + rng.uniform(-40, 40), rng.uniform(300, 420)
    top = half * rng.uniform(0.7, 1.0)  # the far side looks shorter
    corners = [
        (cx - top + rng.uniform(-20, 20), cy - half * 0.9 + rng.uniform(-20, 20)),
        (cx + top + rng.uniform(-20, 20), cy - half * 0.9 + rng.uniform(-20, 20)),
        (cx + half + rng.uniform(-20, 20), cy + half * 0.9 + rng.uniform(-20, 20)),
        (cx - half + rng.uniform(-20, 20), cy + half * 0.9 + rng.uniform(-20, 20)),
    ]
    hm = homography_from_corners(corners, size, size)
    img = np.zeros((h, w, 3), np.float32)
    img[:] = rng.uniform(30, 200, 3)  # the table
    wood = np.array([rng.uniform(60, 150), rng.uniform(130, 200), rng.uniform(170, 235)], np.float32)
    outline = project(
        hm, np.array([[-0.7, -0.7], [size - 0.3, -0.7], [size - 0.3, size - 0.3], [-0.7, size - 0.3]])
    )
    cv2.fillConvexPoly(img, outline.astype(np.int32), wood.tolist())
    grain = cv2.GaussianBlur(rng.normal(0, 1, (h // 8, w // 8)).astype(np.float32), (0, 0), 1.5)
    img *= 1 + 0.06 * cv2.resize(grain, (w, h))[:, :, None]
    ink = wood * rng.uniform(0.15, 0.6)
    width = int(rng.integers(1, 3))
    for k in range(size):
        for a, b in (((k, 0), (k, size - 1)), ((0, k), (size - 1, k))):
            p, q = project(hm, np.array([a, b], dtype=np.float64))
            cv2.line(
                img, (round(p[0]), round(p[1])), (round(q[0]), round(q[1])), ink.tolist(), width, cv2.LINE_AA
            )
    letters = ["."] * (size * size)
    pitch = float(np.linalg.norm(np.subtract(corners[1], corners[0]))) / (size - 1)
    radius = pitch * rng.uniform(0.42, 0.49)
    lift = rng.uniform(0.0, 0.35)  # pitches toward the top of the picture
    count = int(rng.integers(0, 120))
    for point in rng.choice(size * size, size=count, replace=False):
        letters[int(point)] = "B" if rng.random() < 0.5 else "W"
    stone_shadows(img, hm, letters, size, lift, radius, lambda: (wood * 0.55).tolist())
    for point in np.flatnonzero(np.array(letters) != "."):
        x, y = project(hm, np.array([[point % size, point // size - lift]], dtype=np.float64))[0]
        base = rng.uniform(15, 45) if letters[point] == "B" else rng.uniform(200, 245)
        tint = np.array([base * rng.uniform(0.97, 1.06), base, base * rng.uniform(0.94, 1.02)])
        cv2.circle(img, (round(x), round(y)), round(radius), tint.tolist(), -1, cv2.LINE_AA)
        spot = (round(x - radius * 0.3), round(y - radius * 0.3))
        cv2.circle(
            img, spot, max(1, round(radius * 0.25)), (tint + rng.uniform(10, 60)).tolist(), -1, cv2.LINE_AA
        )
    # light: level, gradient, a warm or cool cast, a patch of sun, a lamp's glare
    yy, xx = np.mgrid[0:h, 0:w].astype(np.float32)
    angle = rng.uniform(0, 2 * np.pi)
    ramp = ((xx - w / 2) * np.cos(angle) + (yy - h / 2) * np.sin(angle)) / w
    light = rng.uniform(0.6, 1.25) * (1 + rng.uniform(0, 0.8) * ramp)
    img *= light[:, :, None] * np.array([rng.uniform(0.8, 1.1), 1.0, rng.uniform(0.9, 1.2)], np.float32)
    if rng.random() < 0.3:
        sun = np.zeros((h, w), np.float32)
        pts = np.array([[rng.uniform(0, w), rng.uniform(0, h)] for _ in range(4)], np.int32)
        cv2.fillConvexPoly(sun, cv2.convexHull(pts), 1.0)
        img *= 1 + rng.uniform(0.3, 1.2) * cv2.GaussianBlur(sun, (0, 0), 2)[:, :, None]
    if rng.random() < 0.4:
        gx, gy, sigma = rng.uniform(0, w), rng.uniform(0, h), rng.uniform(40, 160)
        blob = np.exp(-((xx - gx) ** 2 + (yy - gy) ** 2) / (2 * sigma**2))
        img += (rng.uniform(40, 160) * blob)[:, :, None]
    if rng.random() < 0.6:
        img = cv2.GaussianBlur(img, (0, 0), rng.uniform(0.3, 1.6))
    img += rng.normal(0, rng.uniform(0, 6), img.shape).astype(np.float32)
    out = np.clip(img, 0, 255).astype(np.uint8)
    if rng.random() < 0.7:
        _ok, enc = cv2.imencode(".jpg", out, [cv2.IMWRITE_JPEG_QUALITY, int(rng.integers(50, 95))])
        out = cv2.imdecode(enc, cv2.IMREAD_COLOR)
    return out, corners, letters


def saturated_lamp(rng: np.random.Generator) -> tuple[float, float, float]:
    """A lamp's gain per sensor channel (BGR, the brightest 1), the others log-uniform down to
    0.06: saturated LED colours (one or two channels nearly off, which clips the bright one after
    auto exposure and leaves the dim ones little contrast) as often as mild casts. Why log-uniform:
    uniform gains in 0.2-1.0 almost never gave the blue, cyan or orange lamps that misled the net."""
    import numpy as np

    gains = np.exp(rng.uniform(np.log(0.06), 0.0, 3))
    gains[int(rng.integers(0, 3))] = 1.0
    b, g, r = (round(float(v), 3) for v in gains / gains.max())
    return (b, g, r)


def draw_varied(
    rng: np.random.Generator,
) -> tuple[np.ndarray, list[tuple[float, float]], list[str], dict[str, object]]:
    """A board drawn with far more variety than :func:`draw`, for training the point net
    (``benchmarks/train_point_net.py``): Go boards of 9, 13 or 19 lines in wood from pale to dark,
    or an Othello-like board (green felt, lines *between* the points, discs at the cells'
    centres, felt from pale to near black, discs with a side seen at an angle); stones lifted
    toward the camera up to 0.4 pitch; in 80 % a strongly coloured lamp (:func:`saturated_lamp`
    behind the camera's colour matrix, ``vision_lamps.relight``; in a third of those a second
    lamp's colour across the board); dim light with the camera's noise;
    hot spots that clip; thin sunlit streaks and soft shadows across the board; star points; a white
    balance that is off; blur, noise, JPEG. Returns the picture,
    the four outer points (TL, TR, BR, BL), the letters per point and what was drawn.

    Separate from :func:`draw` so that the pictures :func:`draw` makes for a seed (tests,
    benchmarks) stay as they were.
    """
    import cv2
    import numpy as np

    from benchmarks.vision_lamps import relight
    from vision.sampling import homography_from_corners, project

    othello = rng.random() < 0.3
    size = 8 if othello else int(rng.choice([9, 13, 19, 19]))
    w, h = 1280, 960
    cx, cy = w / 2 + rng.uniform(-80, 80), h / 2 + rng.uniform(-50, 50)
    half = rng.uniform(260, 430)
    top = half * rng.uniform(0.6, 1.0)
    jitter = 0.05 * half
    corners = [
        (cx - top + rng.uniform(-jitter, jitter), cy - half * 0.9 + rng.uniform(-jitter, jitter)),
        (cx + top + rng.uniform(-jitter, jitter), cy - half * 0.9 + rng.uniform(-jitter, jitter)),
        (cx + half + rng.uniform(-jitter, jitter), cy + half * 0.9 + rng.uniform(-jitter, jitter)),
        (cx - half + rng.uniform(-jitter, jitter), cy + half * 0.9 + rng.uniform(-jitter, jitter)),
    ]
    hm = homography_from_corners(corners, size, size)
    img = np.zeros((h, w, 3), np.float32)
    img[:] = rng.uniform(20, 220, 3)
    if othello:  # green felt or painted board, from pale to near black
        board = np.array([rng.uniform(20, 110), rng.uniform(70, 170), rng.uniform(10, 70)], np.float32)
        board *= rng.uniform(0.25, 1.3)
    else:  # wood from pale maple to dark stained
        shade = rng.uniform(0.3, 1.1)
        board = (
            np.array([rng.uniform(50, 150), rng.uniform(120, 200), rng.uniform(160, 240)], np.float32) * shade
        )
    board = np.clip(board, 5, 250)
    lo, hi = (-1.0, size) if othello else (-0.7, size - 0.3)
    outline = project(hm, np.array([[lo, lo], [hi, lo], [hi, hi], [lo, hi]], dtype=np.float64))
    cv2.fillConvexPoly(img, outline.astype(np.int32), board.tolist())
    grain = cv2.GaussianBlur(rng.normal(0, 1, (h // 8, w // 8)).astype(np.float32), (0, 0), 1.5)
    img *= 1 + rng.uniform(0.0, 0.1) * cv2.resize(grain, (w, h))[:, :, None]
    ink = board * rng.uniform(0.1, 0.6)
    width = int(rng.integers(1, 4))
    offsets = [k - 0.5 for k in range(size + 1)] if othello else list(range(size))
    ends = (-0.5, size - 0.5) if othello else (0, size - 1)
    for k in offsets:
        for a, b in (((k, ends[0]), (k, ends[1])), ((ends[0], k), (ends[1], k))):
            p, q = project(hm, np.array([a, b], dtype=np.float64))
            cv2.line(
                img, (round(p[0]), round(p[1])), (round(q[0]), round(q[1])), ink.tolist(), width, cv2.LINE_AA
            )
    pitch = float(np.linalg.norm(np.subtract(corners[1], corners[0]))) / (size - 1)
    if not othello and size >= 9:  # star points: small dark dots on empty points
        edge = 3 if size >= 13 else 2
        stars = [
            (edge, edge),
            (edge, size - 1 - edge),
            (size - 1 - edge, edge),
            (size - 1 - edge, size - 1 - edge),
        ]
        if size % 2:
            stars.append((size // 2, size // 2))
        for r, c in stars:
            x, y = project(hm, np.array([[c, r]], dtype=np.float64))[0]
            dot = max(2, round(pitch * rng.uniform(0.06, 0.14)))
            cv2.circle(img, (round(x), round(y)), dot, ink.tolist(), -1, cv2.LINE_AA)
    letters = ["."] * (size * size)
    radius = pitch * (rng.uniform(0.36, 0.46) if othello else rng.uniform(0.42, 0.49))
    thick = rng.uniform(0.0, 0.25)  # an Othello disc's side, in radii, seen below it
    lift = rng.uniform(0.0, 0.4)
    count = int(rng.integers(0, int(0.7 * size * size)))
    for point in rng.choice(size * size, size=count, replace=False):
        letters[int(point)] = "B" if rng.random() < 0.5 else "W"
    dark = rng.uniform(8, 60)
    pale = rng.uniform(170, 250)
    stone_shadows(img, hm, letters, size, lift, radius, lambda: (board * rng.uniform(0.25, 0.8)).tolist())
    for point in np.flatnonzero(np.array(letters) != "."):
        x, y = project(hm, np.array([[point % size, point // size - lift]], dtype=np.float64))[0]
        base = dark * rng.uniform(0.8, 1.2) if letters[point] == "B" else pale * rng.uniform(0.93, 1.03)
        tint = np.array([base * rng.uniform(0.95, 1.08), base, base * rng.uniform(0.92, 1.04)])
        if othello and thick > 0:  # a disc's side, seen below it at an angle
            side = (tint * rng.uniform(0.5, 0.8)).tolist()
            cv2.circle(img, (round(x), round(y + thick * radius)), round(radius), side, -1, cv2.LINE_AA)
        cv2.circle(img, (round(x), round(y)), round(radius), tint.tolist(), -1, cv2.LINE_AA)
        if othello and rng.random() < 0.5:  # a disc's rim of the other colour
            rim = (np.full(3, 235.0) if letters[point] == "B" else np.full(3, 25.0)).tolist()
            cv2.circle(img, (round(x), round(y + radius * 0.12)), round(radius), rim, 1, cv2.LINE_AA)
        spot = (round(x - radius * 0.3), round(y - radius * 0.3))
        cv2.circle(
            img, spot, max(1, round(radius * 0.25)), (tint + rng.uniform(5, 70)).tolist(), -1, cv2.LINE_AA
        )
    yy, xx = np.mgrid[0:h, 0:w].astype(np.float32)
    angle = rng.uniform(0, 2 * np.pi)
    ramp = ((xx - w / 2) * np.cos(angle) + (yy - h / 2) * np.sin(angle)) / w
    img *= (rng.uniform(0.5, 1.3) * (1 + rng.uniform(0, 0.9) * ramp))[:, :, None]
    if rng.random() < 0.3:  # a patch of sun
        sun = np.zeros((h, w), np.float32)
        pts = np.array([[rng.uniform(0, w), rng.uniform(0, h)] for _ in range(4)], np.int32)
        cv2.fillConvexPoly(sun, cv2.convexHull(pts), 1.0)
        img *= 1 + rng.uniform(0.3, 1.4) * cv2.GaussianBlur(sun, (0, 0), 2)[:, :, None]
    if rng.random() < 0.35:  # a thin sunlit streak across the board (through a blind's slats)
        streak = np.zeros((h, w), np.float32)
        x0, y0 = rng.uniform(0, w), rng.uniform(0, h)
        angle_s = rng.uniform(0, np.pi)
        dx, dy = 2000 * np.cos(angle_s), 2000 * np.sin(angle_s)
        thick = max(2, round(pitch * rng.uniform(0.1, 0.7)))
        cv2.line(streak, (round(x0 - dx), round(y0 - dy)), (round(x0 + dx), round(y0 + dy)), 1.0, thick)
        img *= 1 + rng.uniform(0.3, 1.5) * cv2.GaussianBlur(streak, (0, 0), rng.uniform(0.5, 3))[:, :, None]
    if rng.random() < 0.35:  # a soft shadow (a hand, a cup, the camera's stand) over part of the board
        shade_mask = np.zeros((h, w), np.float32)
        pts = np.array([[rng.uniform(0, w), rng.uniform(0, h)] for _ in range(5)], np.int32)
        cv2.fillConvexPoly(shade_mask, cv2.convexHull(pts), 1.0)
        soft = cv2.GaussianBlur(shade_mask, (0, 0), rng.uniform(2, 30))
        img *= 1 - rng.uniform(0.3, 0.7) * soft[:, :, None]
    for _ in range(int(rng.integers(0, 3))):  # hot spots, up to clipping
        gx, gy, sigma = rng.uniform(0, w), rng.uniform(0, h), rng.uniform(20, 160)
        blob = np.exp(-((xx - gx) ** 2 + (yy - gy) ** 2) / (2 * sigma**2))
        img += (rng.uniform(40, 260) * blob)[:, :, None]
    if rng.random() < 0.6:
        img = cv2.GaussianBlur(img, (0, 0), rng.uniform(0.3, 1.8))
    if rng.random() < 0.15:  # dim light: the camera's gain brings noise up
        img *= rng.uniform(0.15, 0.45)
        img += rng.normal(0, rng.uniform(1, 4), img.shape).astype(np.float32)
        img *= 255.0 / max(float(np.percentile(img, 99)), 1.0)
    img += rng.normal(0, rng.uniform(0, 7), img.shape).astype(np.float32)
    out = np.clip(img, 0, 255).astype(np.uint8)
    lamp = (1.0, 1.0, 1.0)
    if rng.random() < 0.8:  # a strongly coloured lamp (the brightest channel 1)
        lamp = saturated_lamp(rng)
        lit = relight(out, lamp)
        if rng.random() < 0.3:  # a second lamp's colour across the board (a gradient)
            second = relight(out, saturated_lamp(rng))
            mix = np.clip(0.5 + ramp * rng.uniform(1.0, 3.0), 0.0, 1.0)[:, :, None]
            lit = np.clip(lit * (1 - mix) + second * mix, 0, 255).astype(np.uint8)
        out = lit
    if rng.random() < 0.5:  # a white balance that is off
        out = np.clip(out.astype(np.float32) * rng.uniform(0.8, 1.25, 3), 0, 255).astype(np.uint8)
    if rng.random() < 0.7:
        _ok, enc = cv2.imencode(".jpg", out, [cv2.IMWRITE_JPEG_QUALITY, int(rng.integers(50, 95))])
        out = cv2.imdecode(enc, cv2.IMREAD_COLOR)
    info: dict[str, object] = {"size": size, "othello": othello, "lift": round(float(lift), 3), "lamp": lamp}
    return out, corners, letters, info
