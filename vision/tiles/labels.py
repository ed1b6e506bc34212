"""The tile classifier's classes: every ink colour of both palettes times 1..13, the joker,
an upside-down tile, and "not a tile".

Ink letters are the engine's colour codes (:mod:`engine.cards`); blue ``B`` and red ``R`` are
shared by both palettes, so one class ``B7`` serves either set. A set reads only its own four
colours (:func:`palette_classes`).

>>> CLASS_CODES[0], CLASS_CODES[12], CLASS_CODES[JOKER_CLASS], CLASS_CODES[UPSIDE_CLASS], CLASS_CODES[NONE_CLASS]
('K1', 'K13', 'JK', 'UPSIDE', 'NONE')
>>> class_of("y13") == CLASS_CODES.index("Y13"), NUM_CLASSES
(True, 81)
>>> [CLASS_CODES[i] for i in palette_classes(PALETTES["ravensburger"])][:3]
['B1', 'B2', 'B3']
"""

from __future__ import annotations

from engine.cards import JOKER_CODE, PALETTES, TilePalette, parse_tile

INKS = "KBORYG"
"""Every ink colour of the known palettes (Rummikub K B O R, Ravensburger Y G B R)."""
UPSIDE_CODE = "UPSIDE"
NONE_CODE = "NONE"
CLASS_CODES: tuple[str, ...] = tuple(f"{ink}{n}" for ink in INKS for n in range(1, 14)) + (JOKER_CODE, UPSIDE_CODE, NONE_CODE)
JOKER_CLASS = CLASS_CODES.index(JOKER_CODE)
UPSIDE_CLASS = CLASS_CODES.index(UPSIDE_CODE)
NONE_CLASS = CLASS_CODES.index(NONE_CODE)
NUM_CLASSES = len(CLASS_CODES)


def class_of(code: str) -> int:
    """The class of a tile code of any known palette (``R7``, ``k13``, ``JK``)."""
    text = code.strip().upper()
    for palette in PALETTES.values():
        if text[:1] in palette.colours or text == JOKER_CODE:
            return CLASS_CODES.index(str(parse_tile(text, palette)))
    raise ValueError(f"{code!r} is not a tile code of any known set (colours {', '.join(INKS)}, or JK)")


def palette_classes(palette: TilePalette) -> list[int]:
    """The classes a set of this palette can show: its 4 colours x 1..13 and the joker."""
    return [i for i, code in enumerate(CLASS_CODES[:JOKER_CLASS]) if code[0] in palette.colours] + [JOKER_CLASS]
