"""`rummyref markers OUT.pdf|OUT.png`: print the four table-corner markers on an A4 sheet."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

A4_MM = (210, 297)
_GRID = {0: (0, 0), 1: (1, 0), 2: (1, 1), 3: (0, 1)}
"""Column and row of each marker on the sheet: where it goes on the table."""


def register(subparsers: argparse._SubParsersAction) -> None:
    parser = subparsers.add_parser(
        "markers", help="write the sheet of table-corner markers to print (PDF or PNG)",
        description="Write an A4 sheet (300 dpi) with the four ArUco markers that go on the corners of the "
                    "playing area, with cut lines and labels. Print it at 100%% scale, cut the markers out and "
                    "lay them with their centres on the corners, as labelled seen from the camera.",
    )
    parser.add_argument("out", metavar="OUT", help="output file, .pdf or .png")
    parser.add_argument("--size-cm", type=float, default=6.0, help="printed side of each marker in cm (default 6)")
    parser.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    out = Path(args.out)
    if out.suffix.lower() not in (".pdf", ".png"):
        print(f"rummyref markers: {out}: the sheet is written as .pdf or .png, not {out.suffix or 'no extension'!r}",
              file=sys.stderr)
        return 2
    if not 2.0 <= args.size_cm <= 9.0:
        print(f"rummyref markers: --size-cm must be 2..9 so that four markers fit on A4, got {args.size_cm:g}",
              file=sys.stderr)
        return 2
    sheet = marker_sheet(args.size_cm)
    try:
        if out.suffix.lower() == ".pdf":
            sheet.save(out, "PDF", resolution=300.0)
        else:
            sheet.save(out, "PNG", dpi=(300, 300))
    except OSError as error:
        print(f"rummyref markers: cannot write {out}: {error}", file=sys.stderr)
        return 1
    print(f"wrote {out}: markers 0-3 of {args.size_cm:g} cm, A4 at 300 dpi")
    return 0


def marker_sheet(size_cm: float, dpi: int = 300):
    """The A4 page as a Pillow image: a 2 x 2 grid of markers, each with a dashed cut square and a label."""
    from PIL import Image, ImageDraw, ImageFont

    from vision.calibration import CORNER_IDS, CORNER_NAMES, marker_image

    def px(mm: float) -> int:
        return round(mm / 25.4 * dpi)

    page = Image.new("L", (px(A4_MM[0]), px(A4_MM[1])), 255)
    draw = ImageDraw.Draw(page)
    font = ImageFont.load_default(size=px(4))
    side = px(size_cm * 10)
    margin = px(8)  # white quiet zone around the marker inside the cut line
    cell_w, cell_h = page.width // 2, (page.height - px(30)) // 2
    draw.multiline_text((px(15), px(10)), "rummyref table markers: print at 100% scale and cut along the dashed lines.\n"
                        "Lay each marker's centre on its corner of the playing area, as seen from the camera.",
                        fill=0, font=font, spacing=px(2))
    for marker_id in CORNER_IDS:
        col, row = _GRID[marker_id]
        cx, cy = col * cell_w + cell_w // 2, px(30) + row * cell_h + cell_h // 2
        x0, y0 = cx - side // 2, cy - side // 2
        page.paste(Image.fromarray(marker_image(marker_id, side)), (x0, y0))
        cut = (x0 - margin, y0 - margin, x0 + side + margin, y0 + side + margin)
        _dashed_rectangle(draw, cut, dash=px(3))
        draw.text((cut[0], cut[3] + px(2)), f"marker {marker_id}: {CORNER_NAMES[marker_id]} corner ({size_cm:g} cm)",
                  fill=0, font=font)
    return page


def _dashed_rectangle(draw, box: tuple[int, int, int, int], dash: int) -> None:
    x0, y0, x1, y1 = box
    for start in range(x0, x1, 2 * dash):
        end = min(start + dash, x1)
        draw.line((start, y0, end, y0), fill=0, width=2)
        draw.line((start, y1, end, y1), fill=0, width=2)
    for start in range(y0, y1, 2 * dash):
        end = min(start + dash, y1)
        draw.line((x0, start, x0, end), fill=0, width=2)
        draw.line((x1, start, x1, end), fill=0, width=2)
