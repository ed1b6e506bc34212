"""Synthetic photographs of tile-Rummy tables with exact per-tile annotations.

Tiles of both palettes (Ravensburger ``Y G B R``, Rummikub-style ``K B O R``) in several fonts
(one font held out of training, :data:`HELDOUT_FONT`), on cream or white faces of plastic or
wood, with the cues real sets print under 6 and 9 (an underline or a dot), a ring at the foot
of some sets and a joker face. They lie in rows of touching tiles -- the table's groups and
runs, often upside down for the players across the table -- and scattered, on the synth
package's tables, photographed with its camera effects plus warm or cold room light, shadows
and, sometimes, a hand over the tiles.

>>> import numpy as np
>>> scene = render_tile_scene(np.random.default_rng(0), TileSceneParams(width=480, height=320, rows=(1, 2), scattered=(1, 1)))
>>> scene.image.shape, all(t.code for t in scene.tiles), len(scene.rows) >= 1
((320, 480, 3), True, True)
"""

from __future__ import annotations

import difflib
import math
from dataclasses import dataclass, field, replace
from functools import lru_cache
from pathlib import Path

import cv2
import numpy as np
from PIL import Image, ImageDraw, ImageFont

from engine.cards import JOKER_CODE, PALETTES, TilePalette

from ..tiles.grouping import Placed, outline
from . import effects, occluders
from .backgrounds import random_table, smooth_noise

FACE_HEIGHT = 128
"""Canonical face height in pixels; faces are drawn at this size and scaled into the photo."""

_FONT_DIRS = (Path("/usr/share/fonts/truetype"), Path("/usr/share/fonts/opentype"))
TRAIN_FONTS = ("DejaVuSans-Bold", "DejaVuSansCondensed-Bold", "DejaVuSerif-Bold", "LiberationSans-Bold",
               "LiberationSansNarrow-Bold", "LiberationSerif-Bold", "FreeSansBold", "FreeSerifBold",
               "NimbusSans-Bold", "NimbusRoman-Bold", "URWBookman-Demi", "LiberationMono-Bold", "DejaVuSans",
               "C059-Bold", "P052-Bold", "NimbusSansNarrow-Bold", "DejaVuSerifCondensed-Bold", "DejaVuSansMono-Bold",
               "NotoSansMono-Bold", "FreeSans", "LiberationSans-Regular",
               # session 7b: the rest of the installed faces with plain digits (obliques, light and
               # regular weights, monospaced), so the digits' shapes vary more than the held-out font's
               "DejaVuSans-BoldOblique", "DejaVuSansCondensed-BoldOblique", "DejaVuSerif-BoldItalic",
               "DejaVuSansCondensed", "DejaVuSerif", "DejaVuSansMono", "LiberationSans-BoldItalic",
               "LiberationSansNarrow-BoldItalic", "LiberationSansNarrow-Regular", "LiberationSerif-BoldItalic",
               "LiberationSerif-Regular", "LiberationMono-Regular", "FreeSansBoldOblique", "FreeSerifBoldItalic",
               "FreeSerif", "FreeMonoBold", "NimbusSans-Regular", "NimbusSans-BoldItalic", "NimbusSansNarrow-Regular",
               "NimbusRoman-Regular", "NimbusMonoPS-Bold", "C059-Roman", "P052-Roman", "URWBookman-Light",
               "URWBookman-DemiItalic", "NotoSansMono-Regular", "DroidSansFallbackFull")
"""More faces than any real set has: the held-out font's digits must look like some of them.
Left out: the held-out font's family (``URWGothic-*``), script, symbol and maths faces (``Z003``,
``Symbola``, ``StandardSymbolsPS``, ``D050000L``, ``DejaVuMathTeXGyre``) and hairlines
(``DejaVuSans-ExtraLight``)."""
HELDOUT_FONT = "URWGothic-Demi"
"""Never used for training: the evaluation's font."""

# BGR inks per palette colour; each tile varies them a little (dye lots, wear, light).
INK_COLOURS = {
    "ravensburger": {"Y": (10, 175, 235), "G": (60, 135, 20), "B": (170, 85, 15), "R": (40, 30, 205)},
    "rummikub": {"K": (35, 30, 30), "B": (160, 80, 25), "O": (15, 125, 245), "R": (45, 25, 195)},
}
FACES = {"cream": (200, 232, 245), "ivory": (215, 238, 248), "white": (242, 244, 244)}


class FontMissingError(RuntimeError):
    """A tile font is not installed."""


def font_path(name: str) -> str:
    """The installed file of a font (``.ttf`` or ``.otf``) by its file stem.

    >>> Path(font_path("DejaVuSans-Bold")).name
    'DejaVuSans-Bold.ttf'
    """
    for directory in _FONT_DIRS:
        for suffix in (".ttf", ".otf"):
            found = sorted(directory.rglob(name + suffix))
            if found:
                return str(found[0])
    raise FontMissingError(f"font {name!r} is not installed (fonts-dejavu-core, fonts-liberation2, "
                           "fonts-freefont-ttf and fonts-urw-base35 provide the tile fonts)")


def tile_fonts(which: str) -> tuple[str, ...]:
    """Font stems of ``"train"`` (those installed) or ``"heldout"``."""
    if which == "heldout":
        return (HELDOUT_FONT,)
    if which != "train":
        raise ValueError(f"fonts must be 'train' or 'heldout', got {which!r}")
    installed = []
    for name in TRAIN_FONTS:
        try:
            font_path(name)
            installed.append(name)
        except FontMissingError:
            pass
    if not installed:
        raise FontMissingError("no tile training font is installed: install fonts-dejavu-core")
    return tuple(installed)


@lru_cache(maxsize=1024)
def _glyph(font: str, text: str) -> np.ndarray:
    """The ink mask (0..1, cropped to the ink) of ``text`` at 96 px in ``font``."""
    pil_font = ImageFont.truetype(font_path(font), 96)
    left, top, right, bottom = pil_font.getbbox(text)
    layer = Image.new("L", (right - left + 8, bottom - top + 8), 0)
    ImageDraw.Draw(layer).text((4 - left, 4 - top), text, font=pil_font, fill=255)
    mask = np.asarray(layer, np.float32) / 255
    ys, xs = np.nonzero(mask > 0.05)
    return mask[ys.min():ys.max() + 1, xs.min():xs.max() + 1]


def _shaped_glyph(font: str, text: str, stretch: float, slant: float, thin: int) -> np.ndarray:
    """:func:`_glyph` condensed or extended by ``stretch``, sheared by ``slant`` and with
    ``thin`` pixels eroded off its strokes (the plain glyph where all are neutral).

    >>> plain = _glyph("DejaVuSans-Bold", "8")
    >>> shaped = _shaped_glyph("DejaVuSans-Bold", "8", 0.8, 0.2, 1)
    >>> shaped.shape[0] == plain.shape[0], bool(shaped.sum() < plain.sum())
    (True, True)
    """
    glyph = _glyph(font, text)
    if stretch == 1.0 and slant == 0.0 and thin == 0:
        return glyph
    h, w = glyph.shape
    shear = slant * h
    out_w = int(round(w * stretch + abs(shear))) + 2
    # x' = stretch * x - slant * y (+ offset): the top leans right for a positive slant
    matrix = np.float32([[stretch, -slant, max(shear, 0.0) + 1], [0, 1, 0]])
    shaped = cv2.warpAffine(glyph, matrix, (out_w, h), flags=cv2.INTER_LINEAR)
    if thin:
        shaped = cv2.erode(shaped, np.ones((thin + 1, thin + 1), np.uint8))
    return shaped


@dataclass(frozen=True)
class TileStyle:
    """How one tile set looks. ``aspect`` is width / height; ``number_y`` the number's centre
    as a fraction of the height from the top; ``cue`` what 6 and 9 carry below the number."""

    palette: str
    font: str
    face: tuple[float, float, float]
    wood: bool
    aspect: float
    number_y: float
    number_height: float
    cue: str
    ring: bool
    joker_glyph: bool
    bold: int
    stretch: float = 1.0
    """The digits' width against the font's (condensed below 1, extended above)."""
    slant: float = 0.0
    """Horizontal shear of the digits (italic-ish), as a fraction of their height."""
    thin: int = 0
    """Pixels eroded off the digits' strokes (at 96 px glyph height; light weights)."""

    @classmethod
    def random(cls, rng: np.random.Generator, palette: str, fonts: tuple[str, ...],
               vary_glyphs: bool = False, stretch: tuple[float, float] = (0.72, 1.2)) -> "TileStyle":
        """A random set; ``vary_glyphs`` also stretches (within ``stretch``), slants and thins its
        digits (training sets: more digit shapes than the fonts have; evaluation sets draw the
        fonts as they are, and draw the same random numbers as before these were added)."""
        cue = str(rng.choice(["underline", "dot", "none"], p=[0.6, 0.3, 0.1]))
        style = cls(
            palette=palette, font=str(fonts[rng.integers(len(fonts))]),
            face=tuple(float(v) for v in np.float32(list(FACES.values())[rng.integers(len(FACES))]) * rng.uniform(0.97, 1.02, 3)),
            wood=bool(rng.random() < 0.25), aspect=float(rng.uniform(0.68, 0.8)),
            number_y=float(rng.uniform(0.33, 0.45)), number_height=float(rng.uniform(0.3, 0.4)),
            cue=cue, ring=bool(cue == "none" or rng.random() < 0.5), joker_glyph=bool(rng.random() < 0.5),
            bold=int(rng.integers(0, 3)))
        if not vary_glyphs:
            return style
        thin = int(rng.integers(1, 4)) if style.bold == 0 and rng.random() < 0.3 else 0
        return replace(style, stretch=float(rng.uniform(*stretch)) if rng.random() < 0.6 else 1.0,
                       slant=float(rng.uniform(-0.1, 0.25)) if rng.random() < 0.35 else 0.0, thin=thin)


def _paint(face: np.ndarray, mask: np.ndarray, x: float, y: float, colour: np.ndarray) -> None:
    """Blend ``colour`` into ``face`` through ``mask`` with its top-left corner at (x, y)."""
    h, w = mask.shape
    x0, y0 = int(round(x)), int(round(y))
    fx0, fy0, fx1, fy1 = max(0, x0), max(0, y0), min(face.shape[1], x0 + w), min(face.shape[0], y0 + h)
    if fx0 >= fx1 or fy0 >= fy1:
        return
    m = mask[fy0 - y0:fy1 - y0, fx0 - x0:fx1 - x0, None]
    face[fy0:fy1, fx0:fx1] = face[fy0:fy1, fx0:fx1] * (1 - m) + colour * m


def _joker_mask(style: TileStyle, size: int) -> np.ndarray:
    if style.joker_glyph:
        glyph = _glyph("DejaVuSans", "\u263a")    # the smiley of many sets' jokers
        return cv2.resize(glyph, (size, size), interpolation=cv2.INTER_AREA)
    mask = np.zeros((size, size), np.float32)
    c, r = size // 2, size // 2 - 2
    cv2.circle(mask, (c, c), r, 1.0, max(2, size // 14), cv2.LINE_AA)
    for dx in (-1, 1):
        cv2.circle(mask, (c + dx * r // 3, c - r // 4), max(2, size // 14), 1.0, -1, cv2.LINE_AA)
    cv2.ellipse(mask, (c, c + r // 8), (r // 2, r // 2), 0, 20, 160, 1.0, max(2, size // 14), cv2.LINE_AA)
    return mask


def draw_tile(rng: np.random.Generator, code: str, style: TileStyle) -> tuple[np.ndarray, np.ndarray]:
    """An upright tile face (BGR float32, ``FACE_HEIGHT`` tall) and its alpha (rounded corners)."""
    h = FACE_HEIGHT
    w = int(round(h * style.aspect))
    alpha = np.zeros((h, w), np.float32)
    radius = int(h * 0.08)
    cv2.rectangle(alpha, (radius, 0), (w - 1 - radius, h - 1), 1.0, -1)
    cv2.rectangle(alpha, (0, radius), (w - 1, h - 1 - radius), 1.0, -1)
    for cx in (radius, w - 1 - radius):
        for cy in (radius, h - 1 - radius):
            cv2.circle(alpha, (cx, cy), radius, 1.0, -1, cv2.LINE_AA)
    base = np.float32(style.face)
    if style.wood:
        grain = cv2.resize(smooth_noise(rng, max(2, w // 24), h, 1.5), (w, h), interpolation=cv2.INTER_CUBIC)
        texture = 0.9 + 0.14 * grain + 0.05 * smooth_noise(rng, w, h, 20)
    else:
        texture = 0.97 + 0.05 * smooth_noise(rng, w, h, 40)
    face = base * texture[:, :, None]
    # The bevel: edges fall off into shade, so touching tiles show a seam.
    edge = cv2.distanceTransform((alpha > 0.5).astype(np.uint8), cv2.DIST_L2, 3)
    face *= (1 - rng.uniform(0.25, 0.5) * np.exp(-edge / rng.uniform(2.5, 5.0)))[:, :, None]
    colour_code, number = (None, None) if code == JOKER_CODE else (code[0], int(code[1:]))
    inks = INK_COLOURS[style.palette]
    ink = np.float32(inks[colour_code] if colour_code else list(inks.values())[rng.integers(4)])
    ink = np.clip(ink * rng.uniform(0.85, 1.12, 3) + rng.normal(0, 6, 3), 0, 255).astype(np.float32)
    top = style.number_y * h
    if number is None:
        size = int(min(w * 0.75, h * style.number_height * 1.5))
        mask = _joker_mask(style, size)
        glyph_w, glyph_h = size, size
    else:
        glyph = _shaped_glyph(style.font, str(number), style.stretch, style.slant, style.thin)
        glyph_h = style.number_height * h
        glyph_w = glyph.shape[1] * glyph_h / glyph.shape[0]
        if glyph_w > 0.82 * w:     # two digits: narrower, never wider than the face
            glyph_w = 0.82 * w
        mask = cv2.resize(glyph, (max(2, int(round(glyph_w))), max(2, int(round(glyph_h)))), interpolation=cv2.INTER_AREA)
        if style.bold:
            mask = cv2.dilate(mask, np.ones((style.bold + 1, style.bold + 1), np.uint8))
    wear = np.clip(1.0 - rng.uniform(0, 0.35) * (smooth_noise(rng, mask.shape[1], mask.shape[0], 6) > 0.75), 0, 1)
    _paint(face, mask * wear, w / 2 - mask.shape[1] / 2, top - mask.shape[0] / 2, ink)
    if number in (6, 9) and style.cue != "none":
        cue = np.zeros((h, w), np.float32)
        below = int(top + glyph_h / 2 + h * 0.04)
        if style.cue == "underline":
            cv2.rectangle(cue, (int(w / 2 - glyph_w * 0.45), below), (int(w / 2 + glyph_w * 0.45), below + max(3, h // 28)), 1.0, -1)
        else:
            cv2.circle(cue, (w // 2, below + h // 40), max(3, h // 30), 1.0, -1, cv2.LINE_AA)
        _paint(face, cue, 0, 0, ink)
    if style.ring:
        ring = np.zeros((h, w), np.float32)
        cv2.circle(ring, (w // 2, int(h * 0.8)), int(w * 0.11), 1.0, max(2, h // 40), cv2.LINE_AA)
        _paint(face, ring, 0, 0, base * 0.72)
    return face, alpha


# --- scenes ---------------------------------------------------------------------------------


@dataclass(frozen=True)
class TileSceneParams:
    """What kind of table to render. Ranges are (low, high), inclusive.

    ``palette`` is a palette name or ``"any"``; ``fonts`` ``"train"`` or ``"heldout"``.
    ``tile_height`` is in pixels. ``upside_down`` and ``any_angle`` are per-row
    probabilities, ``gaps`` the chance that a row's tiles do not quite touch, ``hands``,
    ``shadows`` and ``mixed_rows`` (a row of random tiles, as mid-turn) per scene or row.
    """

    width: int = 1280
    height: int = 720
    palette: str = "any"
    fonts: str = "train"
    rows: tuple[int, int] = (3, 10)
    scattered: tuple[int, int] = (0, 8)
    tile_height: tuple[float, float] = (40.0, 80.0)
    upside_down: float = 0.35
    any_angle: float = 0.15
    gaps: float = 0.3
    jokers: float = 0.25
    mixed_rows: float = 0.15
    hands: float = 0.15
    shadows: float = 0.8
    tilt: float = 0.06
    effects: float = 1.0
    light_tables: bool = True
    """False: only tables that stand out from the faces (darker, or clearly coloured); the
    reader's outline finder needs that (see :mod:`vision.tiles.outlines`)."""
    glyph_stretch: tuple[float, float] = (0.72, 1.2)
    """The range training sets' digits are condensed or extended in (``fonts="train"`` only)."""
    in_view: bool = False
    """True: the camera sees the whole table with a margin, as ``hardware.fov`` plans the mount,
    so the layout leaves free a band along the frame's edge as wide as the tilt can move a corner
    of the frame, and no tile ends up cut by the frame's edge (or mirrored into it: beyond the
    photographed table the tilt shows the table reflected). False (the training data's): tiles
    may lie to within 2 px of the edge before the tilt."""

    def __post_init__(self) -> None:
        if self.palette != "any" and self.palette not in PALETTES:
            raise ValueError(f"palette must be 'any' or one of {', '.join(PALETTES)}, got {self.palette!r}")
        if self.width < 64 or self.height < 64:
            raise ValueError(f"scene size must be at least 64x64, got {self.width}x{self.height}")


@dataclass
class TileAnnotation:
    """One tile in the photo. ``outline``: its corners as read upright (top-left, top-right,
    bottom-right, bottom-left); ``angle``: the clockwise turn of its up direction from the
    image's up (radians, as :mod:`vision.geometry`); ``row``: its row in :attr:`TileScene.rows`,
    or -1 for a lone tile; ``visible``: the fraction not covered by a hand."""

    code: str
    outline: np.ndarray
    angle: float
    width: float
    height: float
    row: int
    visible: float = 1.0

    @property
    def center(self) -> tuple[float, float]:
        x, y = self.outline.mean(axis=0)
        return float(x), float(y)

    def set_outline(self, corners: np.ndarray) -> None:
        """Move the tile to ``corners`` (TL, TR, BR, BL as read upright, e.g. seen in perspective);
        its angle and size follow.

        >>> tile = TileAnnotation("R7", np.zeros((4, 2)), 0.0, 1.0, 1.0, -1)
        >>> tile.set_outline(np.array([[10.0, 0.0], [10.0, 30.0], [-30.0, 30.0], [-30.0, 0.0]]))
        >>> round(math.degrees(tile.angle)), tile.width, tile.height
        (90, 30.0, 40.0)
        """
        self.outline = corners
        up = corners[0] + corners[1] - corners[2] - corners[3]
        self.angle = math.atan2(float(up[0]), -float(up[1]))
        self.width = float(np.linalg.norm(corners[1] - corners[0]))
        self.height = float(np.linalg.norm(corners[3] - corners[0]))


@dataclass
class TileScene:
    image: np.ndarray
    palette: str
    tiles: list[TileAnnotation]
    rows: list[list[int]] = field(default_factory=list)
    """Tile numbers (into :attr:`tiles`) of each row, in reading order."""


def _box(palette: TilePalette) -> list[str]:
    return [f"{c}{n}" for c in palette.colours for n in range(1, 14)] * 2


def deal_rows(rng: np.random.Generator, palette: TilePalette, rows: int, jokers: float, mixed: float) -> list[list[str]]:
    """Rows of tile codes: valid runs and groups from one box (a joker sometimes standing in),
    and, with probability ``mixed``, a row of random tiles as a turn leaves it half done."""
    left = _box(palette)
    jokers_left = 4
    dealt: list[list[str]] = []
    for _ in range(rows * 5):
        if len(dealt) >= rows:
            break
        if rng.random() < mixed:
            row = [str(rng.choice(left)) for _ in range(int(rng.integers(2, 6)))]
        elif rng.random() < 0.55:
            colour, length = palette.colours[rng.integers(4)], int(rng.integers(3, 8))
            start = int(rng.integers(1, 15 - length))
            row = [f"{colour}{n}" for n in range(start, start + length)]
        else:
            number = int(rng.integers(1, 14))
            row = [f"{c}{number}" for c in rng.permutation(list(palette.colours))[:int(rng.integers(3, 5))]]
        if any(row.count(code) > left.count(code) for code in row):
            continue
        for code in row:
            left.remove(code)
        if jokers_left and rng.random() < jokers:
            row[int(rng.integers(len(row)))] = JOKER_CODE
            jokers_left -= 1
        dealt.append(row)
    return dealt


def _rect(center: np.ndarray, angle: float, width: float, height: float) -> np.ndarray:
    """Corners (TL, TR, BR, BL as read upright) of a tile whose up is turned by ``angle``."""
    return np.array(outline(Placed(float(center[0]), float(center[1]), angle, width, height)))


def _row_angle(rng: np.random.Generator, params: TileSceneParams) -> float:
    roll = rng.random()
    if roll < params.any_angle:
        return float(rng.uniform(-math.pi, math.pi))
    flip = math.pi if roll < params.any_angle + params.upside_down else 0.0
    return flip + math.radians(rng.normal(0, 4))


def _place(rng: np.random.Generator, occupied: np.ndarray, angle: float, length: float, height: float,
           margin: float, edge: tuple[float, float] = (2.0, 2.0)) -> np.ndarray | None:
    """A free centre for a block ``length`` wide and ``height`` tall (kept ``margin`` apart and at
    least ``edge`` (across, down) px inside the frame), or None."""
    h, w = occupied.shape
    for _ in range(40):
        center = rng.uniform((length / 2 + 4, length / 2 + 4), (w - length / 2 - 4, h - height / 2 - 4)) \
            if length < w - 8 else None
        if center is None:
            return None
        center[1] = rng.uniform(height / 2 + 4, h - height / 2 - 4)
        block = _rect(center, angle, length + 2 * margin, height + 2 * margin).astype(np.int32)
        test = np.zeros_like(occupied)
        cv2.fillConvexPoly(test, block, 1)
        inside = _rect(center, angle, length, height)
        if (inside[:, 0].min() < edge[0] or inside[:, 1].min() < edge[1] or inside[:, 0].max() > w - 1 - edge[0]
                or inside[:, 1].max() > h - 1 - edge[1]):
            continue
        if not np.any(test & occupied):
            occupied |= test
            return center
    return None


def _layout(rng: np.random.Generator, params: TileSceneParams, palette: TilePalette, tile_h: float,
            aspect: float, dealt: list[list[str]] | None) -> tuple[list[TileAnnotation], list[list[int]]]:
    occupied = np.zeros((params.height, params.width), np.uint8)
    tile_w = tile_h * aspect
    # The tilt (_tilt) moves each corner of the frame up to tilt / 2 of its side; a few px more keep shadows in.
    edge = (params.tilt / 2 * params.width + 6, params.tilt / 2 * params.height + 6) if params.in_view else (2.0, 2.0)
    tiles: list[TileAnnotation] = []
    rows: list[list[int]] = []
    if dealt is None:
        dealt = deal_rows(rng, palette, int(rng.integers(params.rows[0], params.rows[1] + 1)), params.jokers,
                          params.mixed_rows)
    for codes in dealt:
        angle = _row_angle(rng, params)
        gap = tile_w * rng.uniform(0.0, 0.05) if rng.random() < params.gaps else tile_w * 0.004
        pitch = tile_w + gap
        center = _place(rng, occupied, angle, pitch * len(codes), tile_h, margin=0.45 * tile_h, edge=edge)
        if center is None:
            continue
        right = np.array([math.cos(angle), math.sin(angle)])
        down = np.array([-math.sin(angle), math.cos(angle)])
        members = []
        for k, code in enumerate(codes):
            offset = (k - (len(codes) - 1) / 2) * pitch
            spot = center + offset * right + rng.normal(0, 0.015) * tile_h * down
            turn = angle + math.radians(rng.normal(0, 1.0))
            members.append(len(tiles))
            tiles.append(TileAnnotation(code, _rect(spot, turn, tile_w, tile_h), turn, tile_w, tile_h, len(rows)))
        rows.append(members)
    loose = _box(palette) + [JOKER_CODE] * 2
    for _ in range(int(rng.integers(params.scattered[0], params.scattered[1] + 1))):
        angle = float(rng.uniform(-math.pi, math.pi))
        center = _place(rng, occupied, angle, tile_w, tile_h, margin=0.4 * tile_h, edge=edge)
        if center is not None:
            code = str(loose[rng.integers(len(loose))])
            tiles.append(TileAnnotation(code, _rect(center, angle, tile_w, tile_h), angle, tile_w, tile_h, -1))
    return tiles, rows


def _draw(image: np.ndarray, labels: np.ndarray, face: np.ndarray, alpha: np.ndarray, tile: TileAnnotation,
          label: int, shadow: tuple[float, float, float, float]) -> None:
    """Scale the face to size, turn it into place (with its shadow) and mark its pixels."""
    size = (max(2, int(round(tile.width))), max(2, int(round(tile.height))))
    small = cv2.resize(np.dstack([face, alpha * 255]), size, interpolation=cv2.INTER_AREA)
    src = np.float32([[0, 0], [size[0], 0], [size[0], size[1]]])
    x0, y0 = np.floor(tile.outline.min(axis=0) - 12).astype(int)
    x1, y1 = np.ceil(tile.outline.max(axis=0) + 12).astype(int)
    h, w = image.shape[:2]
    x0, y0, x1, y1 = max(0, x0), max(0, y0), min(w, x1), min(h, y1)
    if x0 >= x1 or y0 >= y1:
        return
    matrix = cv2.getAffineTransform(src, np.float32(tile.outline[:3] - (x0, y0)))
    warped = cv2.warpAffine(small, matrix, (x1 - x0, y1 - y0), flags=cv2.INTER_LINEAR,
                            borderMode=cv2.BORDER_CONSTANT, borderValue=(0, 0, 0, 0))
    a = warped[:, :, 3:] / 255
    region = image[y0:y1, x0:x1]
    dx, dy, blur, strength = shadow
    if strength > 0:
        shade = cv2.GaussianBlur(np.roll(a[:, :, 0], (int(round(dy)), int(round(dx))), axis=(0, 1)), (0, 0), blur)
        region *= (1 - strength * shade * (1 - a[:, :, 0]))[:, :, None]
    region += a * (warped[:, :, :3] - region)
    labels[y0:y1, x0:x1][a[:, :, 0] > 0.5] = label


def _face_like(table: np.ndarray) -> bool:
    """Is a good part (a tenth or more) of a table about as light and colourless as a tile face
    (a white or pale table, a white tablecloth with a print)?

    >>> _face_like(np.full((8, 8, 3), 230, np.uint8)), _face_like(np.full((8, 8, 3), 60, np.uint8))
    (True, False)
    """
    lab = cv2.cvtColor(cv2.resize(table, (64, 36)), cv2.COLOR_BGR2LAB).reshape(-1, 3).astype(np.float32)
    pale = (lab[:, 0] > 150) & (np.hypot(lab[:, 1] - 128, lab[:, 2] - 128) < 40)
    return bool(pale.mean() > 0.1)


def _light_cast(rng: np.random.Generator, image: np.ndarray) -> np.ndarray:
    """Warm (tungsten) or cold (daylight, LED) room light."""
    warmth = rng.uniform(-1, 1)
    return image * np.float32([1 - 0.22 * warmth, 1 - 0.03 * abs(warmth), 1 + 0.15 * warmth])


def render_tile_scene(rng: np.random.Generator, params: TileSceneParams | None = None,
                      rows: list[list[str]] | None = None) -> TileScene:
    """One photo of a tile table and what lies where on it; ``rows`` (tile codes) lays out
    those combinations instead of dealt ones (a row that finds no room is left out: compare
    :attr:`TileScene.rows` with what was asked)."""
    params = params or TileSceneParams()
    palette, style, tile_h = _set_and_size(rng, params)
    tiles, laid = _layout(rng, params, palette, tile_h, style.aspect, rows)
    return _photograph(rng, params, style, tiles, laid, tile_h)


def _set_and_size(rng: np.random.Generator, params: TileSceneParams) -> tuple[TilePalette, TileStyle, float]:
    """The tile set of a photo (its palette and look) and its tiles' height in pixels."""
    name = params.palette if params.palette != "any" else list(PALETTES)[rng.integers(len(PALETTES))]
    style = TileStyle.random(rng, name, tile_fonts(params.fonts), vary_glyphs=params.fonts == "train",
                             stretch=params.glyph_stretch)
    return PALETTES[name], style, float(rng.uniform(*params.tile_height))


def turn_params(palette: str, in_view: bool = True) -> TileSceneParams:
    """The photos of the tile turn benchmark (``benchmarks/eval_tiles.py``): the held-out font, rows
    only, no hand, a table that stands out from the faces, tiles 40-64 px tall, the whole table in
    view (``in_view``).

    >>> turn_params("rummikub").tile_height
    (40.0, 64.0)
    """
    return TileSceneParams(palette=palette, fonts="heldout", scattered=(0, 0), hands=0.0, light_tables=False,
                           tile_height=(40.0, 64.0), in_view=in_view)


def render_tile_turn(rng: np.random.Generator, params: TileSceneParams, before: list[list[str]],
                     after: list[list[str]]) -> tuple[TileScene, TileScene]:
    """Two photos of one table by one fixed camera, before and after a turn: the same tile set, table,
    light and camera, the tiles laid the same way but for the turn's changes. Row ``i`` of ``after``
    is row ``i`` of ``before`` with tiles put in or taken out (a run extended, a tile taken back, in
    place: the others do not move); rows beyond ``before``'s are new. The photos differ elsewhere only
    as two photos a little apart do (sensor noise, exposure). A row that finds no room is left out of
    both (compare :attr:`TileScene.rows` with what was asked).

    >>> first, second = render_tile_turn(np.random.default_rng(0), TileSceneParams(480, 320, "ravensburger"),
    ...                                  [["R1", "R2", "R3"]], [["R1", "R2", "R3", "R4"], ["B5", "G5", "Y5"]])
    >>> [t.code for t in first.tiles], [[second.tiles[k].code for k in row] for row in second.rows]
    (['R1', 'R2', 'R3'], [['R1', 'R2', 'R3', 'R4'], ['B5', 'G5', 'Y5']])
    """
    both, only = [], ([], [])           # the union of each row; where each photo's own tiles lie in it
    for number in range(max(len(before), len(after))):
        first = before[number] if number < len(before) else []
        second = after[number] if number < len(after) else []
        row: list[str] = []
        for op, i1, i2, j1, j2 in difflib.SequenceMatcher(None, first, second, autojunk=False).get_opcodes():
            if op != "insert":
                only[0].extend((number, len(row) + k) for k in range(i2 - i1) if op != "equal")
                row.extend(first[i1:i2])
            if op != "delete" and op != "equal":
                only[1].extend((number, len(row) + k) for k in range(j2 - j1))
                row.extend(second[j1:j2])
        both.append(row)
    palette, style, tile_h = _set_and_size(rng, params)
    tiles, laid = _layout(rng, params, palette, tile_h, style.aspect, both)
    placed, next_row = {}, 0            # (union row, position) -> tile number, for the rows that found room
    for members in laid:
        while [tiles[k].code for k in members] != both[next_row]:
            next_row += 1
        placed.update({(next_row, position): k for position, k in enumerate(members)})
        next_row += 1
    table, shared = random_tile_table(rng, params), int(rng.integers(2**31))
    photos = []
    for photo in (0, 1):
        away = frozenset(placed[spot] for spot in only[1 - photo] if spot in placed)
        copies = [replace(tile, outline=tile.outline.copy()) for tile in tiles]
        photos.append(_photograph(np.random.default_rng(shared), params, style, copies, laid, tile_h, table, away,
                                  moment=np.random.default_rng([shared, photo])))
    return photos[0], photos[1]


def render_learning_layout(rng: np.random.Generator, palette: str, fonts: str = "heldout", width: int = 1600,
                           height: int = 900) -> TileScene:
    """A photo of the guided layout of :mod:`vision.tiles.learn`: one row per colour of the
    palette (in its order), 1..13 left to right, upright and apart."""
    params = TileSceneParams(width=width, height=height, palette=palette, fonts=fonts, hands=0.0, light_tables=False,
                             tilt=0.03)
    style = TileStyle.random(rng, palette, tile_fonts(fonts))
    pitch = width / 14.2
    tile_w = pitch * 0.8
    tile_h = tile_w / style.aspect
    tiles, rows = [], []
    for row, colour in enumerate(PALETTES[palette].colours):
        rows.append([])
        for column in range(13):
            center = np.array([pitch * (column + 1.1), height * (row + 0.6) / 4.3]) + rng.normal(0, 0.03, 2) * tile_w
            angle = math.radians(rng.normal(0, 3))
            rows[-1].append(len(tiles))
            tiles.append(TileAnnotation(f"{colour}{column + 1}", _rect(center, angle, tile_w, tile_h), angle, tile_w, tile_h, row))
    return _photograph(rng, params, style, tiles, rows, tile_h)


def random_tile_table(rng: np.random.Generator, params: TileSceneParams) -> np.ndarray:
    """A table surface for tiles (BGR uint8, the scene's size); one that looks like tile faces
    only where ``params.light_tables`` allows it."""
    image = random_table(rng, params.width, params.height)
    while not params.light_tables and _face_like(image):
        image = random_table(rng, params.width, params.height)
    return image


def _photograph(rng: np.random.Generator, params: TileSceneParams, style: TileStyle, tiles: list[TileAnnotation],
                rows: list[list[int]], tile_h: float, table: np.ndarray | None = None,
                away: frozenset[int] = frozenset(), moment: np.random.Generator | None = None) -> TileScene:
    """Draw laid-out tiles on a table (``table``, else a random one), cover some with a hand, and
    take the photo. ``away``: tiles (numbers into ``tiles``) left off the table, drawing ``rng`` as
    if they were there, so that a photo with them and one without are alike but for them;
    ``moment``: draws what differs between two photos taken a little apart by one camera (its
    sensor's noise, the exposure)."""
    if away:
        kept = [k for k in range(len(tiles)) if k not in away]
        number = {k: n for n, k in enumerate(kept)}
        rows = [[number[k] for k in row if k in number] for row in rows]
        rows = [row for row in rows if row]
        for n, row in enumerate(rows):
            for k in row:
                tiles[kept[k]].row = n
    w, h = params.width, params.height
    image = (random_tile_table(rng, params) if table is None else table).astype(np.float32)
    labels = np.zeros((h, w), np.int32)
    light = rng.uniform(0, 2 * math.pi)
    has_shadow = rng.random() < params.shadows
    offset = tile_h * rng.uniform(0.03, 0.1) if has_shadow else 0.0
    shadow = (offset * math.cos(light), offset * math.sin(light), tile_h * rng.uniform(0.02, 0.06),
              rng.uniform(0.25, 0.55) if has_shadow else 0.0)
    for k, tile in enumerate(tiles):
        face, alpha = draw_tile(rng, tile.code, style)
        shade = rng.uniform(0.95, 1.05)
        if k not in away:
            _draw(image, labels, face * shade, alpha, tile, k + 1, shadow)
    areas = np.bincount(labels.ravel(), minlength=len(tiles) + 1)
    if rng.random() < params.hands and tiles:
        target = tiles[int(rng.integers(len(tiles)))].center
        colour, alpha = occluders.hand(rng, w, h, tile_h * 2.2, target)
        image += alpha[:, :, None] * (colour - image)
        labels[alpha > 0.5] = 0
    seen = np.bincount(labels.ravel(), minlength=len(tiles) + 1)
    for k, tile in enumerate(tiles):
        tile.visible = float(seen[k + 1] / max(1, areas[k + 1]))
    image, tiles = _tilt(rng, image, tiles, params.tilt)
    image = _light_cast(rng, image)
    if moment is not None:
        image = effects.sensor_noise(moment, image * np.float32(moment.uniform(0.97, 1.03)))
    tiles = [tile for k, tile in enumerate(tiles) if k not in away]
    return TileScene(effects.photograph(rng, image, params.effects), style.palette, tiles, rows)


def _tilt(rng: np.random.Generator, image: np.ndarray, tiles: list[TileAnnotation],
          amount: float) -> tuple[np.ndarray, list[TileAnnotation]]:
    """A camera not quite straight above the table: a mild perspective warp of photo and outlines."""
    if amount <= 0:
        return image, tiles
    h, w = image.shape[:2]
    corners = np.float32([[0, 0], [w, 0], [w, h], [0, h]])
    moved = corners + rng.uniform(-amount, amount, (4, 2)).astype(np.float32) * np.float32([w, h]) * 0.5
    matrix = cv2.getPerspectiveTransform(moved, corners)
    warped = cv2.warpPerspective(image, matrix, (w, h), flags=cv2.INTER_LINEAR, borderMode=cv2.BORDER_REFLECT)
    frame = np.float32([[0, 0], [w - 1, 0], [w - 1, h - 1], [0, h - 1]])
    for tile in tiles:
        tile.set_outline(cv2.perspectiveTransform(tile.outline.reshape(-1, 1, 2), matrix).reshape(-1, 2))
        area = cv2.contourArea(np.float32(tile.outline))
        inside, _ = cv2.intersectConvexConvex(np.float32(tile.outline), frame)
        tile.visible *= min(1.0, float(inside / max(area, 1e-6)))
    return warped, tiles
