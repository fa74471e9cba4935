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


def instructions(size_mm: float) -> list[str]:
    return [
        tr(
            "Table99 board stickers: print at 100% (no 'fit to page'). Each black square must be {size} mm.",
            size=f"{size_mm:g}",
        ),
        tr("Cut out the four stickers. Stick each one upright, its number readable from the players' side,"),
        tr("flat on the table or the board beside the board's corners: 0 top left, 1 top right,"),
        tr("2 bottom right, 3 bottom left. The default profile expects them 35 mm diagonally outside"),
        tr("the corner holes; anywhere else is fine too: then touch the four corner holes once"),
        tr("in the app (Settings, Camera). Keep the white border around each square uncovered."),
    ]


def render_sheet(size_mm: float = 40.0, paper: str = "a4", dpi: int = 300) -> Any:
    """The sheet as a Pillow image at ``dpi`` (white, stickers and text in black)."""
    import cv2
    from PIL import Image, ImageDraw, ImageFont

    def px(mm: float) -> int:
        return round(mm / 25.4 * dpi)

    width_mm, height_mm = PAPERS_MM[paper]
    if not 10 <= size_mm <= (width_mm - 40) / 2:
        raise ValueError(tr("--size-mm must be between 10 and {most}", most=f"{(width_mm - 40) / 2:g}"))
    sheet = Image.new("L", (px(width_mm), px(height_mm)), 255)
    draw = ImageDraw.Draw(sheet)
    font = ImageFont.load_default(size=max(10, px(3.2)))
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
    y = top + 2 * (cell + 8) + 10
    for line in instructions(size_mm):
        draw.text((px(15), px(y)), line, fill=0, font=font)
        y += 6
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
