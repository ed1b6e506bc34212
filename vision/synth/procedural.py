"""Procedurally drawn decks: unlimited designs from a seed.

Each seed fixes a :class:`DeckStyle` (fonts, sizes, colours, 2- or 4-colour
suits, borders, pip sizes, picture-card art, back pattern, two or four
indices); faces are drawn with Pillow on demand, and the index boxes are
exact because the indices are drawn by us.

>>> deck = procedural_deck(3)
>>> face = deck.faces["7D"]
>>> face.image.shape[0], len(face.indices) in (2, 4)
(512, True)
>>> procedural_deck(3).faces["7D"].image.tobytes() == face.image.tobytes()
True
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path

import numpy as np
from PIL import Image, ImageDraw, ImageFont

from engine.cards import JOKER_CODE

from .decks import CARD_HEIGHT, Deck
from .faces import BACK_CODE, CARD_CODES, CardFace, IndexBox
from .suits import SuitShapes, suit_mask

_FONT_DIRS = ("/usr/share/fonts/truetype", "/usr/share/fonts/opentype")
# Script and maths fonts: no real deck prints its indices like that.
_UNREADABLE_FONTS = ("Z003", "DejaVuMath")
_SUIT_GLYPHS = {"S": "♠", "H": "♥", "D": "♦", "C": "♣"}
# Pip centres of the number cards, in units of the pip area (x 0..1, y 0..1).
_PIP_LAYOUTS = {
    1: [(0.5, 0.5)],
    2: [(0.5, 0.0), (0.5, 1.0)],
    3: [(0.5, 0.0), (0.5, 0.5), (0.5, 1.0)],
    4: [(0, 0), (1, 0), (0, 1), (1, 1)],
    5: [(0, 0), (1, 0), (0.5, 0.5), (0, 1), (1, 1)],
    6: [(0, 0), (1, 0), (0, 0.5), (1, 0.5), (0, 1), (1, 1)],
    7: [(0, 0), (1, 0), (0.5, 0.25), (0, 0.5), (1, 0.5), (0, 1), (1, 1)],
    8: [(0, 0), (1, 0), (0.5, 0.25), (0, 0.5), (1, 0.5), (0.5, 0.75), (0, 1), (1, 1)],
    9: [(0, 0), (1, 0), (0, 1 / 3), (1, 1 / 3), (0.5, 0.5), (0, 2 / 3), (1, 2 / 3), (0, 1), (1, 1)],
    10: [(0, 0), (1, 0), (0.5, 1 / 6), (0, 1 / 3), (1, 1 / 3), (0, 2 / 3), (1, 2 / 3), (0.5, 5 / 6), (0, 1), (1, 1)],
}


@lru_cache(maxsize=1)
def suit_fonts() -> tuple[str, ...]:
    """Installed fonts that draw all four suit symbols (DejaVu, FreeFont, URW, ...)."""
    paths = sorted(str(p) for d in _FONT_DIRS for p in Path(d).rglob("*")
                   if p.suffix in (".ttf", ".otf") and not p.name.startswith(_UNREADABLE_FONTS))
    usable = []
    for path in paths:
        try:
            font = ImageFont.truetype(path, 40)
        except OSError:
            continue
        boxes = [font.getmask(c).getbbox() for c in "♠♥♦♣\uffff"]
        if all(boxes[:4]) and len(set(boxes[:4])) == 4 and boxes[0] != boxes[4]:
            usable.append(path)
    if not usable:
        raise RuntimeError("no installed font draws the suit symbols: install fonts-dejavu-core or fonts-freefont-ttf")
    return tuple(usable)


def _colour(rng: np.random.Generator, base: tuple[int, int, int], spread: int) -> tuple[int, int, int]:
    return tuple(int(np.clip(c + rng.integers(-spread, spread + 1), 0, 255)) for c in base)


@dataclass(frozen=True)
class DeckStyle:
    """Everything that makes one procedural design look like itself. RGB colours."""

    width: int
    paper: tuple[int, int, int]
    corner_radius: int
    border: int  # 0 none, 1 thin line, 2 coloured frame
    border_colour: tuple[int, int, int]
    rank_font: str
    suit_font: str
    rank_px: int
    suit_scale: float
    index_inset: tuple[int, int]
    condensed_ten: bool
    suit_colours: dict[str, tuple[int, int, int]]
    four_indices: bool
    pip_scale: float
    picture_colours: tuple[tuple[int, int, int], ...]
    back_colour: tuple[int, int, int]
    back_pattern: int
    drawn_suits: SuitShapes | None = None
    """Suit symbols drawn from these shapes instead of ``suit_font``'s (shapes no font has)."""
    rank_stretch: float = 1.0
    """The rank's width against its font's (condensed below 1)."""

    @classmethod
    def from_seed(cls, seed: int) -> "DeckStyle":
        rng = np.random.default_rng([seed, 0x5EED])
        fonts = suit_fonts()
        width = int(CARD_HEIGHT * rng.uniform(0.63, 0.72))
        black = _colour(rng, (20, 20, 25), 20)
        red = _colour(rng, (205, 25, 35), 30)
        colours = {"S": black, "C": black, "H": red, "D": red}
        if rng.random() < 0.25:  # four-colour deck
            colours["D"] = _colour(rng, (30, 60, 190), 30) if rng.random() < 0.6 else _colour(rng, (230, 120, 20), 20)
            colours["C"] = _colour(rng, (20, 140, 50), 30)
        paper = _colour(rng, (247, 245, 238), 8) if rng.random() < 0.7 else _colour(rng, (240, 232, 205), 12)
        rank_px = int(CARD_HEIGHT * rng.uniform(0.075, 0.13))
        # A stream of its own, so that the fields above stay what they were before these two existed.
        shape_rng = np.random.default_rng([seed, 0x5EED, 1])
        drawn_suits = SuitShapes.from_rng(shape_rng) if shape_rng.random() < 0.5 else None
        rank_stretch = float(shape_rng.uniform(0.8, 1.15)) if shape_rng.random() < 0.6 else 1.0
        return cls(
            width=width,
            paper=paper,
            corner_radius=int(CARD_HEIGHT * rng.uniform(0.025, 0.075)),
            border=int(rng.choice([0, 0, 1, 2])),
            border_colour=tuple(int(c) for c in rng.integers(0, 200, 3)),
            rank_font=fonts[rng.integers(len(fonts))],
            suit_font=fonts[rng.integers(len(fonts))],
            rank_px=rank_px,
            suit_scale=float(rng.uniform(0.6, 1.0)),
            index_inset=(int(width * rng.uniform(0.025, 0.07)), int(CARD_HEIGHT * rng.uniform(0.02, 0.05))),
            condensed_ten=bool(rng.random() < 0.4),
            suit_colours=colours,
            four_indices=bool(rng.random() < 0.15),
            pip_scale=float(rng.uniform(0.1, 0.17)),
            picture_colours=tuple(tuple(int(c) for c in rng.integers(0, 256, 3)) for _ in range(4)),
            back_colour=tuple(int(c) for c in rng.integers(0, 230, 3)),
            back_pattern=int(rng.integers(4)),
            drawn_suits=drawn_suits,
            rank_stretch=rank_stretch,
        )


def _glyph(text: str, font: ImageFont.FreeTypeFont, colour: tuple[int, int, int], squeeze: float = 1.0) -> Image.Image:
    """Text drawn on a transparent layer cropped to its ink."""
    left, top, right, bottom = font.getbbox(text)
    layer = Image.new("RGBA", (right - left + 4, bottom - top + 4), (0, 0, 0, 0))
    ImageDraw.Draw(layer).text((2 - left, 2 - top), text, font=font, fill=colour + (255,))
    layer = layer.crop(layer.getbbox())
    if squeeze != 1.0:
        layer = layer.resize((max(1, int(layer.width * squeeze)), layer.height), Image.LANCZOS)
    return layer


def _suit(style: DeckStyle, suit: str, px: int, colour: tuple[int, int, int]) -> Image.Image:
    """The suit symbol as ``style`` draws it at font size ``px``, on a transparent layer cropped to the ink."""
    if style.drawn_suits is None:
        return _glyph(_SUIT_GLYPHS[suit], ImageFont.truetype(style.suit_font, px), colour)
    mask = suit_mask(style.drawn_suits, suit, max(2, round(px * 0.75)))     # a font's suits are about 3/4 of its size
    layer = Image.new("RGBA", (mask.shape[1], mask.shape[0]), colour + (0,))
    layer.putalpha(Image.fromarray(mask))
    return layer


def _index_layer(style: DeckStyle, rank: str, suit: str | None, colour: tuple[int, int, int]) -> Image.Image:
    """The rank above the suit symbol, on a transparent layer cropped to the ink."""
    rank_font = ImageFont.truetype(style.rank_font, style.rank_px)
    if rank == JOKER_CODE:
        letters = [_glyph(ch, ImageFont.truetype(style.rank_font, int(style.rank_px * 0.55)), colour) for ch in "JOKER"]
        parts = letters
    else:
        squeeze = style.rank_stretch * (0.75 if rank == "10" and style.condensed_ten else 1.0)
        parts = [_glyph(rank, rank_font, colour, squeeze)]
        parts.append(_suit(style, suit, int(style.rank_px * style.suit_scale * 1.3), colour))
    gap = max(1, style.rank_px // 12)
    width = max(p.width for p in parts)
    layer = Image.new("RGBA", (width, sum(p.height for p in parts) + gap * (len(parts) - 1)), (0, 0, 0, 0))
    y = 0
    for part in parts:
        layer.alpha_composite(part, ((width - part.width) // 2, y))
        y += part.height + gap
    return layer


def _blank_card(style: DeckStyle) -> Image.Image:
    card = Image.new("RGBA", (style.width, CARD_HEIGHT), (0, 0, 0, 0))
    draw = ImageDraw.Draw(card)
    draw.rounded_rectangle((0, 0, style.width - 1, CARD_HEIGHT - 1), style.corner_radius, fill=style.paper + (255,),
                           outline=(150, 150, 150, 255))
    if style.border:
        inset = 6 if style.border == 1 else 10
        draw.rounded_rectangle((inset, inset, style.width - 1 - inset, CARD_HEIGHT - 1 - inset),
                               max(1, style.corner_radius - inset), outline=style.border_colour + (255,),
                               width=1 if style.border == 1 else 4)
    return card


def _draw_pips(card: Image.Image, style: DeckStyle, rank: int, suit: str, colour: tuple[int, int, int],
               area: tuple[int, int, int, int]) -> None:
    size = int(CARD_HEIGHT * style.pip_scale * (2.2 if rank == 1 else 1.0))
    pip = _suit(style, suit, size, colour)
    x0, y0, x1, y1 = area
    for fx, fy in _PIP_LAYOUTS[rank]:
        cx, cy = x0 + fx * (x1 - x0), y0 + fy * (y1 - y0)
        glyph = pip.rotate(180) if fy > 0.5 else pip
        card.alpha_composite(glyph, (int(cx - glyph.width / 2), int(cy - glyph.height / 2)))


def _draw_picture(card: Image.Image, style: DeckStyle, rank: str, suit: str, colour: tuple[int, int, int],
                  frame: tuple[int, int, int, int], rng: np.random.Generator) -> None:
    """A simple court-card picture: a framed panel of coloured shapes, the rank
    letter and suit large in the middle, mirrored like real court cards."""
    draw = ImageDraw.Draw(card)
    x0, y0, x1, y1 = frame
    draw.rectangle(frame, outline=colour + (255,), width=2)
    for _ in range(int(rng.integers(4, 9))):
        c = style.picture_colours[int(rng.integers(len(style.picture_colours)))]
        px, py = rng.uniform(x0, x1), rng.uniform(y0, (y0 + y1) / 2)
        r = rng.uniform(0.05, 0.2) * (x1 - x0)
        for sx, sy in ((px, py), (x0 + x1 - px, y0 + y1 - py)):
            draw.ellipse((sx - r, sy - r, sx + r, sy + r), fill=c + (255,))
    big = _glyph(rank, ImageFont.truetype(style.rank_font, int((y1 - y0) * 0.3)), colour)
    sym = _suit(style, suit, int((y1 - y0) * 0.2), colour)
    cx, cy = (x0 + x1) // 2, (y0 + y1) // 2
    card.alpha_composite(big, (cx - big.width // 2, cy - big.height - 4))
    card.alpha_composite(sym.rotate(180), (cx - sym.width // 2, cy + 4))


def _draw_back(style: DeckStyle) -> Image.Image:
    card = _blank_card(style)
    draw = ImageDraw.Draw(card)
    inset = int(style.width * 0.06)
    inner = (inset, inset, style.width - 1 - inset, CARD_HEIGHT - 1 - inset)
    draw.rectangle(inner, fill=style.back_colour + (255,))
    light = tuple(min(255, c + 90) for c in style.back_colour) + (255,)
    step = 14 + 6 * style.back_pattern
    if style.back_pattern in (0, 1):  # diagonal lattice
        for k in range(-CARD_HEIGHT, style.width + CARD_HEIGHT, step):
            draw.line((k, 0, k + CARD_HEIGHT, CARD_HEIGHT), fill=light, width=2)
            if style.back_pattern == 0:
                draw.line((k, CARD_HEIGHT, k + CARD_HEIGHT, 0), fill=light, width=2)
    elif style.back_pattern == 2:  # dots
        for y in range(0, CARD_HEIGHT, step):
            for x in range((y // step % 2) * step // 2, style.width, step):
                draw.ellipse((x - 3, y - 3, x + 3, y + 3), fill=light)
    else:  # concentric frames
        for k in range(0, style.width // 2, step):
            draw.rectangle((k, k, style.width - 1 - k, CARD_HEIGHT - 1 - k), outline=light, width=2)
    outside = Image.new("L", card.size, 255)
    ImageDraw.Draw(outside).rectangle(inner, fill=0)
    paper = _blank_card(style)
    card.paste(paper, (0, 0), outside)
    return card


def draw_face(style: DeckStyle, code: str, seed: int) -> CardFace:
    """Draw one face of a procedural design (RGB colours in, BGRA face out)."""
    if code == BACK_CODE:
        return CardFace(code, _to_bgra(_draw_back(style)), ())
    card = _blank_card(style)
    if code == JOKER_CODE:
        rank, suit, colour = JOKER_CODE, None, style.suit_colours["H"]
    else:
        rank, suit = code[:-1], code[-1]
        colour = style.suit_colours[suit]
    index = _index_layer(style, rank, suit, colour)
    ix, iy = style.index_inset
    spots = [((ix, iy), 0), ((style.width - ix - index.width, CARD_HEIGHT - iy - index.height), 180)]
    if style.four_indices:
        spots += [((style.width - ix - index.width, iy), 0), ((ix, CARD_HEIGHT - iy - index.height), 180)]
    boxes = []
    for (x, y), rotation in spots:
        card.alpha_composite(index if rotation == 0 else index.rotate(180), (x, y))
        boxes.append(IndexBox((x, y, x + index.width, y + index.height), rotation))
    margin_x = ix + index.width + int(style.width * 0.04)
    margin_y = iy + int(CARD_HEIGHT * 0.06)
    frame = (margin_x, margin_y, style.width - 1 - margin_x, CARD_HEIGHT - 1 - margin_y)
    rng = np.random.default_rng([seed, sum(map(ord, code))])
    if code == JOKER_CODE:
        star = _glyph("★", ImageFont.truetype(style.suit_font, int(CARD_HEIGHT * 0.3)), colour)
        card.alpha_composite(star, ((style.width - star.width) // 2, (CARD_HEIGHT - star.height) // 2))
    elif rank in ("J", "Q", "K"):
        _draw_picture(card, style, rank, suit, colour, frame, rng)
    else:
        pip_size = CARD_HEIGHT * style.pip_scale / 2
        area = (frame[0] + pip_size, frame[1] + pip_size, frame[2] - pip_size, frame[3] - pip_size)
        _draw_pips(card, style, 1 if rank == "A" else int(rank), suit, colour, area)
    return CardFace(code, _to_bgra(card), tuple(boxes))


def _to_bgra(image: Image.Image) -> np.ndarray:
    return np.ascontiguousarray(np.asarray(image)[:, :, [2, 1, 0, 3]])


class _LazyFaces(dict):
    """Faces drawn on first access: a scene needs only a few of the 54."""

    def __init__(self, style: DeckStyle, seed: int):
        super().__init__()
        self.style, self.seed = style, seed

    def __missing__(self, code: str) -> CardFace:
        if code not in CARD_CODES and code != BACK_CODE:
            raise KeyError(code)
        face = self[code] = draw_face(self.style, code, self.seed)
        return face

    def __contains__(self, code: object) -> bool:
        """Every card and the back, drawn or not (the keys are only those drawn so far)."""
        return code in CARD_CODES or code == BACK_CODE


@lru_cache(maxsize=16)
def procedural_deck(seed: int) -> Deck:
    """The procedural design ``proc/SEED``; faces are drawn when first used
    (the last few designs are kept, with the faces drawn so far)."""
    style = DeckStyle.from_seed(seed)
    return Deck(f"proc/{seed}", _LazyFaces(style, seed), (draw_face(style, JOKER_CODE, seed),))
