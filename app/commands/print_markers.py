"""``table99 print-markers``: a sheet with the four ArUco stickers at true size, and how to place them.

    table99 print-markers --out markers.pdf [--size-mm 40] [--paper a4|letter] [--dpi 300]

The sheet is drawn with Pillow at the given dpi and saved as PDF (with that resolution recorded,
so a printer at 100% prints the black squares exactly ``--size-mm`` wide) or as PNG (with the dpi
in the file). The stickers are ids 0..3 of ``DICT_4X4_100``, matching the default board profile.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import Any

from app.i18n import tr

PAPERS_MM = {"a4": (210.0, 297.0), "letter": (215.9, 279.4)}
CORNER_NAMES = ("top left", "top right", "bottom right", "bottom left")


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--out", default="table99-markers.pdf", help="the file to write (.pdf or .png)")
    parser.add_argument("--size-mm", type=float, default=40.0, help="side of each black marker in mm")
    parser.add_argument("--paper", choices=sorted(PAPERS_MM), default="a4")
    parser.add_argument("--dpi", type=int, default=300)


def corner_label(index: int) -> str:
    return [tr("top left"), tr("top right"), tr("bottom right"), tr("bottom left")][index]


def default_placement() -> tuple[float, float]:
    """(sticker side, distance) the default profile expects, in mm: the distance is from a corner
    hole to the nearest corner of its sticker's black square, both across and along the board."""
    from vision.profile import default_profile

    profile = default_profile()
    marker, (hole_x, _) = profile.markers[0], profile.holes[0]
    return marker.size, hole_x - marker.centre[0] - marker.size / 2


def instructions(size_mm: float) -> list[str]:
    """The sheet's paragraphs (wrapped to the paper's width when drawn, in any language)."""
    expected_size, distance = default_placement()
    paragraphs = [
        tr(
            "Table99 board stickers: print at 100% (no 'fit to page'). Each black square must be {size} mm.",
            size=f"{size_mm:g}",
        ),
        tr(
            "Cut out the four stickers. Stick each one flat and upright (its number readable from the"
            " players' side) beside the board's corners: 0 top left, 1 top right, 2 bottom right,"
            " 3 bottom left."
        ),
        tr(
            "Where the default profile expects them (drawn below): the corner of the black square"
            " nearest the board {distance} mm beside and {distance} mm above (or below) the nearest"
            " corner hole. Anywhere else is fine too: then touch the four corner holes once in the app"
            " (Settings, Camera).",
            distance=f"{distance:g}",
        ),
        tr(
            "Keep the white border around each square uncovered. On a thick board stick them on the"
            " board itself, not on the table: they must lie in the plane of the holes."
        ),
    ]
    if abs(size_mm - expected_size) > 1e-6:
        paragraphs.append(
            tr(
                "The app's default profile expects {expected} mm squares: with {size} mm squares, touch the"
                " four corner holes once in the app (Settings, Camera); it then measures the stickers.",
                expected=f"{expected_size:g}",
                size=f"{size_mm:g}",
            )
        )
    return paragraphs


def sheet_font(size_px: int) -> Any:
    """A font that has umlauts (Pillow's built-in one draws boxes for a German sheet): DejaVu Sans
    from the system or from Kivy's fonts, else Pillow's own."""
    import importlib.util

    from PIL import ImageFont

    candidates = ["DejaVuSans.ttf"]  # Pillow also looks in the system's font folders
    kivy = importlib.util.find_spec("kivy")  # finds the folder without importing Kivy
    for folder in (kivy.submodule_search_locations or []) if kivy else []:
        candidates.append(str(Path(folder) / "data" / "fonts" / "DejaVuSans.ttf"))
    for candidate in candidates:
        try:
            return ImageFont.truetype(candidate, size_px)
        except OSError:
            continue
    return ImageFont.load_default(size=size_px)


def wrap(draw: Any, text: str, font: Any, width_px: float) -> list[str]:
    """``text`` broken at spaces into lines no wider than ``width_px``."""
    lines: list[str] = []
    for word in text.split():
        if lines and draw.textlength(f"{lines[-1]} {word}", font=font) <= width_px:
            lines[-1] = f"{lines[-1]} {word}"
        else:
            lines.append(word)
    return lines


def draw_placement(draw: Any, font: Any, x_mm: float, y_mm: float, scale: float, px: Any) -> None:
    """A small plan of where the default profile expects the stickers, drawn from that profile
    (so the picture and the profile cannot disagree): the holes, the corner holes bigger, the
    board's edge half a pitch outside them, and the four stickers with their numbers."""
    from vision.profile import default_profile

    profile = default_profile()
    xs = [m.centre[0] + s * m.size / 2 for m in profile.markers for s in (-1, 1)]
    ys = [m.centre[1] + s * m.size / 2 for m in profile.markers for s in (-1, 1)]
    left, top = min(xs), min(ys)

    def at(x: float, y: float) -> tuple[int, int]:
        return px(x_mm + (x - left) * scale), px(y_mm + (y - top) * scale)

    (x0, y0), (x1, _), (_, y1) = profile.holes[0], profile.holes[1], profile.holes[2]
    margin = (x1 - x0) / (profile.cols - 1) / 2
    corner_holes = {
        (0, 0),
        (0, profile.cols - 1),
        (profile.rows - 1, 0),
        (profile.rows - 1, profile.cols - 1),
    }
    draw.rectangle([at(x0 - margin, y0 - margin), at(x1 + margin, y1 + margin)], outline=0, width=px(0.3))
    for r in range(profile.rows):
        for c in range(profile.cols):
            cx = x0 + (x1 - x0) * c / (profile.cols - 1)
            cy = y0 + (y1 - y0) * r / (profile.rows - 1)
            (a, b), radius = at(cx, cy), px(0.6 if (r, c) not in corner_holes else 1.1)
            draw.ellipse([a - radius, b - radius, a + radius, b + radius], fill=0)
    for m in profile.markers:
        half = m.size / 2
        draw.rectangle(
            [at(m.centre[0] - half, m.centre[1] - half), at(m.centre[0] + half, m.centre[1] + half)], fill=0
        )
        a, b = at(*m.centre)
        draw.text((a - px(1), b - px(1.6)), str(m.id), fill=255, font=font)
    _, distance = default_placement()
    inner = profile.markers[0]
    corner = (inner.centre[0] + inner.size / 2, inner.centre[1] + inner.size / 2)
    draw.line([at(*corner), at(x0, y0)], fill=0, width=px(0.2))
    label = f"{distance:g} mm / {distance:g} mm"
    draw.text((at(*corner)[0] + px(3), at(*corner)[1] - px(2.5)), label, fill=0, font=font)


def render_sheet(size_mm: float = 40.0, paper: str = "a4", dpi: int = 300) -> Any:
    """The sheet as a Pillow image at ``dpi`` (white, stickers and text in black)."""
    import cv2
    from PIL import Image, ImageDraw

    def px(mm: float) -> int:
        return round(mm / 25.4 * dpi)

    width_mm, height_mm = PAPERS_MM[paper]
    if not 10 <= size_mm <= (width_mm - 40) / 2:
        raise ValueError(tr("--size-mm must be between 10 and {most}", most=f"{(width_mm - 40) / 2:g}"))
    sheet = Image.new("L", (px(width_mm), px(height_mm)), 255)
    draw = ImageDraw.Draw(sheet)
    font = sheet_font(max(10, px(3.2)))
    dictionary = cv2.aruco.getPredefinedDictionary(cv2.aruco.DICT_4X4_100)
    quiet = size_mm / 6  # the white border a detector needs around the code
    cell = size_mm + 2 * quiet + 12
    left = (width_mm - 2 * cell) / 2
    top = 20.0
    for index in range(4):
        col, row = index % 2, index // 2
        x0 = left + col * cell + 6 + quiet
        y0 = top + row * (cell + 8) + 6 + quiet
        code = cv2.aruco.generateImageMarker(dictionary, index, px(size_mm))
        sheet.paste(Image.fromarray(code), (px(x0), px(y0)))
        # a dashed cutting line around the sticker's white border
        box = (px(x0 - quiet), px(y0 - quiet), px(x0 + size_mm + quiet), px(y0 + size_mm + quiet))
        for a in range(box[0], box[2], px(3)):
            draw.line([(a, box[1]), (min(a + px(1.5), box[2]), box[1])], fill=0)
            draw.line([(a, box[3]), (min(a + px(1.5), box[2]), box[3])], fill=0)
        for b in range(box[1], box[3], px(3)):
            draw.line([(box[0], b), (box[0], min(b + px(1.5), box[3]))], fill=0)
            draw.line([(box[2], b), (box[2], min(b + px(1.5), box[3]))], fill=0)
        label = f"{index}: {corner_label(index)}"
        draw.text((px(x0), box[3] + px(1.5)), label, fill=0, font=font)
    y = top + 2 * (cell + 8) + 4
    for paragraph in instructions(size_mm):
        for line in wrap(draw, paragraph, font, px(width_mm - 30)):
            draw.text((px(15), px(y)), line, fill=0, font=font)
            y += 5.0
        y += 1.5
    plan_scale = min(0.2, (height_mm - y - 12) / 380)
    draw_placement(draw, font, (width_mm - 380 * plan_scale) / 2, y + 4, plan_scale, px)
    return sheet


def main(args: argparse.Namespace) -> int:
    out = Path(args.out)
    if out.suffix.lower() not in (".pdf", ".png"):
        print(tr("print-markers: --out must end in .pdf or .png, got {name}", name=out.name), file=sys.stderr)
        return 2
    if not 72 <= args.dpi <= 1200:
        print(tr("print-markers: --dpi must be between 72 and 1200"), file=sys.stderr)
        return 2
    try:
        sheet = render_sheet(args.size_mm, args.paper, args.dpi)
    except ValueError as exc:
        print(f"print-markers: {exc}", file=sys.stderr)
        return 2
    try:
        if out.suffix.lower() == ".pdf":
            sheet.save(out, "PDF", resolution=float(args.dpi))
        else:
            sheet.save(out, "PNG", dpi=(args.dpi, args.dpi))
    except OSError as exc:
        print(f"print-markers: {out}: {exc.strerror or exc}", file=sys.stderr)
        return 2
    print(tr("wrote {path}: print it at 100%", path=str(out)))
    return 0
