"""Things that lie on or over the cards: hands and fingers, and table clutter
(coins, pens, cups, phones, printed paper with letters and digits, packaging,
keypads, dice, small printed cards and patterned sheets that must not be read
as cards or as face-down cards).

Each drawer returns a layer ``(colour, alpha)`` over the whole image, float32,
sized relative to ``card_px`` (the height of a card in the image).

>>> import numpy as np
>>> colour, alpha = hand(np.random.default_rng(2), 200, 160, 80.0)
>>> colour.shape, alpha.shape, 0.0 < float(alpha.max()) <= 1.0
((160, 200, 3), (160, 200), True)
"""

from __future__ import annotations

import cv2
import numpy as np

from .backgrounds import smooth_noise

Layer = tuple[np.ndarray, np.ndarray]

# BGR skin tones from very light to very dark.
_SKIN = np.float32([[185, 200, 240], [150, 175, 225], [120, 150, 205], [95, 125, 180], [70, 95, 150],
                    [50, 70, 115], [35, 50, 80]])


def _capsule(mask: np.ndarray, start: np.ndarray, end: np.ndarray, radius: float) -> None:
    thickness = max(1, int(2 * radius))
    cv2.line(mask, tuple(int(v) for v in start), tuple(int(v) for v in end), 1.0, thickness, cv2.LINE_AA)


def hand(rng: np.random.Generator, width: int, height: int, card_px: float,
         target: tuple[float, float] | None = None) -> Layer:
    """A hand reaching in from outside the photo: arm, palm, some fingers and
    a thumb (or a single pointing finger), skin-coloured with soft shading.
    With a ``target`` the fingertips reach about that point (a card)."""
    mask = np.zeros((height, width), np.float32)
    scale = card_px * rng.uniform(0.8, 1.2)
    if target is None:
        target = (rng.uniform(0, width), rng.uniform(0, height))
    # The arm comes in over the nearest edge of the photo, as players reach from their side.
    x, y = target
    edge = int(np.argmin([y, width - x, height - y, x]))
    turn = [np.pi / 2, np.pi, -np.pi / 2, 0.0][edge] + rng.uniform(-0.7, 0.7)
    direction = np.float32([np.cos(turn), np.sin(turn)])
    normal = np.float32([-direction[1], direction[0]])
    palm = np.float32(target) - direction * scale * rng.uniform(0.6, 1.2)
    _capsule(mask, palm - direction * 2 * max(width, height), palm, 0.35 * scale)
    cv2.ellipse(mask, tuple(int(v) for v in palm), (int(0.5 * scale), int(0.45 * scale)),
                float(np.degrees(turn)), 0, 360, 1.0, -1, cv2.LINE_AA)
    pointing = rng.random() < 0.3
    fingers = [0.0] if pointing else np.linspace(-0.3, 0.3, 4) + rng.normal(0, 0.05, 4)
    for k, spread in enumerate(fingers):
        base = palm + direction * 0.35 * scale + normal * spread * scale
        length = scale * (rng.uniform(0.7, 1.0) if pointing else rng.uniform(0.4, 0.85)) * (0.8 if k in (0, 3) else 1.0)
        bend = direction + normal * rng.normal(0, 0.15)
        _capsule(mask, base, base + bend / np.linalg.norm(bend) * length, 0.09 * scale)
    thumb_side = 1 if rng.random() < 0.5 else -1
    thumb_base = palm + normal * thumb_side * 0.35 * scale
    _capsule(mask, thumb_base, thumb_base + (normal * thumb_side + direction) * 0.4 * scale, 0.1 * scale)
    alpha = cv2.GaussianBlur(mask, (0, 0), max(0.6, card_px / 150)).clip(0, 1)
    tone = _SKIN[rng.integers(len(_SKIN))] * rng.uniform(0.9, 1.1, 3).astype(np.float32)
    shade = 0.75 + 0.4 * smooth_noise(rng, width, height, max(8.0, scale / 2))
    colour = tone * shade[:, :, None]
    return colour, alpha


def _box(mask: np.ndarray, centre: np.ndarray, size: tuple[int, int], angle: float) -> np.ndarray:
    """Fill a turned rectangle into ``mask``; its corners (int32, 4x2)."""
    box = cv2.boxPoints((tuple(float(v) for v in centre), size, angle)).astype(np.int32)
    cv2.fillConvexPoly(mask, box, 1.0, cv2.LINE_AA)
    return box


def _print_text(sheet: np.ndarray, rng: np.random.Generator, centre: np.ndarray, size: tuple[int, int],
                height: float, lines: int, alphabet: str, ink: tuple[float, ...]) -> None:
    """Lines of random text about ``height`` px tall scattered over a box (putText draws on 8-bit only)."""
    for _ in range(lines):
        text = "".join(rng.choice(list(alphabet), int(rng.integers(1, 8))))
        org = (int(centre[0] + rng.uniform(-0.5, 0.4) * size[0]), int(centre[1] + rng.uniform(-0.4, 0.5) * size[1]))
        scale = height * rng.uniform(0.6, 1.4) / 22
        cv2.putText(sheet, text, org, int(rng.integers(0, 8)), scale, ink, max(1, int(scale * 1.5)), cv2.LINE_AA)


_LETTERS = "AKQJ0123456789abcdefghijklmnopqrstuvwxyz "
_CAPITALS = "ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789&%"


def _packaging(rng: np.random.Generator, mask: np.ndarray, centre: np.ndarray, card_px: float) -> np.ndarray:
    """A box, carton or magazine: colour bands, big bold capitals, logos and small print."""
    height, width = mask.shape
    size = (int(card_px * rng.uniform(0.6, 2.2)), int(card_px * rng.uniform(0.6, 2.2)))
    angle = rng.uniform(0, 180)
    _box(mask, centre, size, angle)
    sheet = np.empty((height, width, 3), np.uint8)
    sheet[:] = rng.uniform(0, 255, 3)
    reach = max(size) // 2
    for _ in range(int(rng.integers(1, 4))):  # colour bands and blocks
        band = (int(size[0] * rng.uniform(0.2, 1.0)), int(size[1] * rng.uniform(0.1, 0.5)))
        spot = centre + rng.uniform(-0.4, 0.4, 2) * reach
        cv2.fillConvexPoly(sheet, cv2.boxPoints((tuple(float(v) for v in spot), band, angle)).astype(np.int32),
                           tuple(float(v) for v in rng.uniform(0, 255, 3)), cv2.LINE_AA)
    for _ in range(int(rng.integers(0, 3))):  # round logos
        spot = tuple(int(v) for v in centre + rng.uniform(-0.4, 0.4, 2) * reach)
        cv2.circle(sheet, spot, int(card_px * rng.uniform(0.05, 0.2)), tuple(float(v) for v in rng.uniform(0, 255, 3)),
                   -1, cv2.LINE_AA)
    ink = tuple(float(v) for v in rng.uniform(0, 255, 3))
    _print_text(sheet, rng, centre, size, card_px * rng.uniform(0.1, 0.35), int(rng.integers(1, 4)), _CAPITALS, ink)
    _print_text(sheet, rng, centre, size, card_px * rng.uniform(0.04, 0.1), int(rng.integers(2, 10)), _LETTERS, ink)
    return sheet.astype(np.float32)


def _keypad(rng: np.random.Generator, mask: np.ndarray, centre: np.ndarray, card_px: float) -> np.ndarray:
    """A keyboard, calculator or remote: a grid of rounded keys with one letter or digit each."""
    height, width = mask.shape
    key = card_px * rng.uniform(0.1, 0.22)
    rows, columns = int(rng.integers(2, 6)), int(rng.integers(3, 11))
    angle = rng.uniform(0, 2 * np.pi)
    across, down = np.float32([np.cos(angle), np.sin(angle)]), np.float32([-np.sin(angle), np.cos(angle)])
    _box(mask, centre, (int(columns * key * 1.2 + key * 0.4), int(rows * key * 1.2 + key * 0.4)), np.degrees(angle))
    sheet = np.empty((height, width, 3), np.uint8)
    body = rng.uniform(10, 90) if rng.random() < 0.6 else rng.uniform(170, 240)
    sheet[:] = body
    cap = tuple(float(v) for v in np.full(3, body) + rng.uniform(-25, 25))
    ink = (235.0,) * 3 if body < 128 else (25.0,) * 3
    for r in range(rows):
        for c in range(columns):
            spot = centre + across * (c - (columns - 1) / 2) * key * 1.2 + down * (r - (rows - 1) / 2) * key * 1.2
            cv2.fillConvexPoly(sheet, cv2.boxPoints((tuple(float(v) for v in spot), (key, key), np.degrees(angle))
                                                    ).astype(np.int32), cap, cv2.LINE_AA)
            glyph = str(rng.choice(list(_CAPITALS)))
            scale = key * 0.6 / 22
            (tw, th), _ = cv2.getTextSize(glyph, cv2.FONT_HERSHEY_SIMPLEX, scale, 1)
            cv2.putText(sheet, glyph, (int(spot[0] - tw / 2), int(spot[1] + th / 2)), cv2.FONT_HERSHEY_SIMPLEX, scale,
                        ink, max(1, int(scale * 1.5)), cv2.LINE_AA)
    return sheet.astype(np.float32)


def _die(rng: np.random.Generator, mask: np.ndarray, centre: np.ndarray, card_px: float) -> np.ndarray:
    """A die seen from above: a rounded square with 1-6 pips."""
    height, width = mask.shape
    side = card_px * rng.uniform(0.12, 0.22)
    angle = rng.uniform(0, 90)
    _box(mask, centre, (int(side), int(side)), angle)
    sheet = np.empty((height, width, 3), np.uint8)
    sheet[:] = rng.uniform(200, 250, 3) if rng.random() < 0.6 else rng.uniform(20, 200, 3)
    pip = (20.0, 20.0, 20.0) if sheet[0, 0].mean() > 128 else (240.0, 240.0, 240.0)
    turn = np.float32([[np.cos(np.radians(angle)), -np.sin(np.radians(angle))],
                       [np.sin(np.radians(angle)), np.cos(np.radians(angle))]])
    spots = {1: [(0, 0)], 2: [(-1, -1), (1, 1)], 3: [(-1, -1), (0, 0), (1, 1)], 4: [(-1, -1), (1, 1), (-1, 1), (1, -1)],
             5: [(-1, -1), (1, 1), (-1, 1), (1, -1), (0, 0)], 6: [(-1, -1), (1, 1), (-1, 1), (1, -1), (-1, 0), (1, 0)]}
    for spot in spots[int(rng.integers(1, 7))]:
        at = centre + turn @ (np.float32(spot) * side * 0.28)
        cv2.circle(sheet, (int(at[0]), int(at[1])), max(1, int(side * 0.09)), pip, -1, cv2.LINE_AA)
    return sheet.astype(np.float32)


def _printed_card(rng: np.random.Generator, mask: np.ndarray, centre: np.ndarray, card_px: float) -> np.ndarray:
    """A business card, ticket, receipt or score pad: a light rectangle of roughly
    a card's size with corners and a border, but small print instead of indices."""
    height, width = mask.shape
    long = card_px * rng.uniform(0.6, 1.6)
    size = (int(long * rng.uniform(0.35, 1.0)), int(long))
    angle = rng.uniform(0, 180)
    box = _box(mask, centre, size, angle)
    sheet = np.empty((height, width, 3), np.uint8)
    sheet[:] = rng.uniform(190, 255, 3)
    ink = tuple(float(v) for v in rng.uniform(0, 140, 3))
    if rng.random() < 0.5:
        inner = cv2.boxPoints((tuple(float(v) for v in centre), (size[0] * 0.88, size[1] * 0.9), angle))
        cv2.polylines(sheet, [inner.astype(np.int32)], True, ink, max(1, int(card_px / 90)), cv2.LINE_AA)
    else:
        cv2.polylines(sheet, [box], True, ink, max(1, int(card_px / 60)), cv2.LINE_AA)
    _print_text(sheet, rng, centre, (int(size[0] * 0.7), int(size[1] * 0.7)), card_px * rng.uniform(0.04, 0.1),
                int(rng.integers(2, 12)), _LETTERS, ink)
    return sheet.astype(np.float32)


def clutter(rng: np.random.Generator, width: int, height: int, card_px: float) -> Layer:
    """One object on the table: a coin, pen, cup rim, phone, printed paper,
    packaging, a keypad, a die or a small printed card."""
    mask = np.zeros((height, width), np.float32)
    colour = np.empty((height, width, 3), np.float32)
    centre = np.float32([rng.uniform(0, width), rng.uniform(0, height)])
    kind = rng.integers(9)
    base = rng.uniform(20, 235, 3).astype(np.float32)
    colour[:] = base
    c = tuple(int(v) for v in centre)
    if kind == 0:  # coin
        radius = int(card_px * rng.uniform(0.1, 0.2))
        cv2.circle(mask, c, radius, 1.0, -1, cv2.LINE_AA)
        colour[:] = np.float32([[60, 140, 180], [160, 160, 160], [50, 90, 150]][rng.integers(3)])
    elif kind == 1:  # pen or pencil
        angle = rng.uniform(0, np.pi)
        half = np.float32([np.cos(angle), np.sin(angle)]) * card_px * rng.uniform(0.6, 1.0)
        _capsule(mask, centre - half, centre + half, card_px * 0.04)
    elif kind == 2:  # cup or glass rim seen from above
        radius = int(card_px * rng.uniform(0.35, 0.5))
        cv2.circle(mask, c, radius, 1.0, -1, cv2.LINE_AA)
        cv2.circle(colour, c, int(radius * 0.85), tuple(float(v) * 0.5 for v in base), -1)
    elif kind == 3:  # phone
        _box(mask, centre, (int(card_px * 0.45), int(card_px * 0.9)), rng.uniform(0, 180))
        colour[:] = rng.uniform(10, 50)
    elif kind == 4:  # paper or a book cover with letters and digits on it
        size = (int(card_px * rng.uniform(1, 2.5)), int(card_px * rng.uniform(1, 2.5)))
        _box(mask, centre, size, rng.uniform(0, 180))
        sheet = np.empty((height, width, 3), np.uint8)
        sheet[:] = rng.uniform(180, 250, 3)
        ink = tuple(float(v) for v in rng.uniform(0, 120, 3))
        _print_text(sheet, rng, centre, size, card_px * rng.uniform(0.03, 0.12), int(rng.integers(3, 10)), _LETTERS, ink)
        colour = sheet.astype(np.float32)
    else:
        colour = (_packaging, _keypad, _die, _printed_card)[kind - 5](rng, mask, centre, card_px)
    return colour, cv2.GaussianBlur(mask, (0, 0), 0.7)


def back_decoy(rng: np.random.Generator, width: int, height: int, card_px: float, back: np.ndarray) -> Layer:
    """A card back's pattern on something that is not a card: a card box, gift
    wrap, a place mat or a napkin printed with it, shaped and sized so that no
    card outline shows (a disc, a sheet several cards big, a blob), so that a face-down card is learnt as a card-shaped area of back,
    not as the back's texture. ``back`` is a BACK face (BGRA); its inner
    pattern is tiled at about the card's scale.
    """
    bh, bw = back.shape[:2]
    motif = back[int(bh * 0.2):int(bh * 0.8), int(bw * 0.2):int(bw * 0.8), :3]
    tile_px = max(4, int(card_px * rng.uniform(0.4, 0.8)))
    motif = cv2.resize(motif, (max(4, int(tile_px * motif.shape[1] / motif.shape[0])), tile_px),
                       interpolation=cv2.INTER_AREA)
    reps = (height // motif.shape[0] + 2, width // motif.shape[1] + 2, 1)
    tiled = np.tile(motif, reps)
    turn = cv2.getRotationMatrix2D((width / 2, height / 2), rng.uniform(0, 180), 1.0)
    colour = cv2.warpAffine(tiled, turn, (width, height), borderMode=cv2.BORDER_REFLECT).astype(np.float32)
    mask = np.zeros((height, width), np.float32)
    centre = np.float32([rng.uniform(0, width), rng.uniform(0, height)])
    shape = rng.integers(3)
    if shape == 0:  # disc: a napkin, coaster or round place mat
        cv2.circle(mask, tuple(int(v) for v in centre), int(card_px * rng.uniform(0.5, 1.3)), 1.0, -1, cv2.LINE_AA)
    elif shape == 1:  # a sheet of wrap or a place mat, much bigger than a card
        _box(mask, centre, (int(card_px * rng.uniform(2.0, 4.0)), int(card_px * rng.uniform(2.0, 4.0))),
             rng.uniform(0, 180))
    else:  # an irregular blob: crumpled paper or fabric
        blob = smooth_noise(rng, width, height, card_px * 0.6)
        radius = card_px * rng.uniform(0.8, 1.8)
        ys, xs = np.mgrid[0:height, 0:width].astype(np.float32)
        falloff = np.hypot(xs - centre[0], ys - centre[1]) / radius
        mask[:] = (blob - falloff > 0).astype(np.float32)
    return colour, cv2.GaussianBlur(mask, (0, 0), 0.7)


def _rug(rng: np.random.Generator, width: int, height: int, card_px: float) -> np.ndarray:
    """An oriental rug or patterned carpet: a field of repeated lozenges, stars and
    small hooks in a few strong colours, framed by striped borders."""
    palette = [np.float32(c) for c in ([40, 40, 150], [90, 40, 30], [190, 215, 230], [40, 110, 170], [30, 30, 30],
                                       [60, 120, 60], [150, 150, 160])]
    order = rng.permutation(len(palette))
    ground, ink, accent = (palette[i] * np.float32(rng.uniform(0.8, 1.1)) for i in order[:3])
    ys, xs = np.mgrid[0:height, 0:width].astype(np.float32)
    turn = rng.uniform(0, np.pi)
    u, v = xs * np.cos(turn) + ys * np.sin(turn), -xs * np.sin(turn) + ys * np.cos(turn)
    period = card_px * rng.uniform(0.25, 0.9)
    du, dv = (u % period) / period - 0.5, (v % period) / period - 0.5
    lozenge = (np.abs(du) + np.abs(dv) < rng.uniform(0.25, 0.45)).astype(np.float32)
    star = ((np.abs(du) < 0.06) | (np.abs(dv) < 0.06) | (np.abs(np.abs(du) - np.abs(dv)) < 0.05)).astype(np.float32)
    inner = (np.abs(du) + np.abs(dv) < rng.uniform(0.1, 0.2)).astype(np.float32)
    colour = np.empty((height, width, 3), np.float32)
    colour[:] = ground
    colour = colour * (1 - lozenge[..., None]) + ink * lozenge[..., None]
    colour = colour * (1 - (star * (1 - lozenge))[..., None]) + accent * (star * (1 - lozenge))[..., None]
    colour = colour * (1 - inner[..., None]) + ground * inner[..., None]
    stripe = ((v / (card_px * rng.uniform(0.05, 0.15))) % 2 < 1).astype(np.float32)
    border = (np.abs(((v / (card_px * rng.uniform(2, 5))) % 1) - 0.5) < 0.08).astype(np.float32) * stripe
    colour = colour * (1 - border[..., None]) + accent * border[..., None]
    # Pile: fine fibre noise and soft blur; real rugs are never crisp.
    colour = cv2.GaussianBlur(colour, (0, 0), max(0.6, card_px / 150))
    return colour * (0.85 + 0.3 * smooth_noise(rng, width, height, max(2.0, card_px * 0.03)))[..., None]


def _book_cover(rng: np.random.Generator, mask: np.ndarray, centre: np.ndarray, card_px: float,
                pictures: list[np.ndarray]) -> np.ndarray:
    """A book, magazine or board-game box: a coloured cover with a title in big
    letters and digits, an author's name, and a picture on part of it."""
    height, width = mask.shape
    size = (int(card_px * rng.uniform(1.2, 2.6)), int(card_px * rng.uniform(1.6, 3.2)))
    angle = rng.uniform(0, 180)
    _box(mask, centre, size, angle)
    sheet = np.empty((height, width, 3), np.uint8)
    sheet[:] = rng.uniform(0, 255, 3) if rng.random() < 0.6 else rng.uniform(200, 250, 3)
    if pictures and rng.random() < 0.7:
        picture = pictures[int(rng.integers(len(pictures)))]
        side = int(min(size) * rng.uniform(0.5, 0.9))
        spot = centre + rng.uniform(-0.2, 0.2, 2) * min(size)
        _paste(sheet, picture, spot, side, angle)
    ink = tuple(float(v) for v in rng.uniform(0, 255, 3))
    _print_text(sheet, rng, centre, size, card_px * rng.uniform(0.1, 0.3), int(rng.integers(1, 3)), _CAPITALS, ink)
    _print_text(sheet, rng, centre, size, card_px * rng.uniform(0.05, 0.12), int(rng.integers(1, 4)), _LETTERS, ink)
    return sheet.astype(np.float32)


def _paste(sheet: np.ndarray, picture: np.ndarray, centre: np.ndarray, side: int, angle: float) -> np.ndarray:
    """Paste ``picture`` (BGR) into ``sheet``, its long side ``side`` px, turned by ``angle`` degrees;
    where it lies (float32 0..1)."""
    h, w = picture.shape[:2]
    scale = side / max(h, w)
    turn = cv2.getRotationMatrix2D((w / 2, h / 2), angle, scale)
    turn[:, 2] += centre - np.float32([w / 2, h / 2])
    inside = cv2.warpAffine(np.ones((h, w), np.float32), turn, sheet.shape[1::-1])
    placed = cv2.warpAffine(picture, turn, sheet.shape[1::-1], flags=cv2.INTER_AREA if scale < 1 else cv2.INTER_LINEAR)
    sheet[:] = (sheet * (1 - inside[..., None]) + placed * inside[..., None]).astype(np.uint8)
    return inside


PICTURE_AREA = (0.2, 0.22, 0.8, 0.78)
"""The part of a card face :func:`card_pictures` cuts (x0, y0, x1, y1 as fractions of the face)."""


def card_pictures(faces) -> list[np.ndarray]:
    """Illustrations cut from card faces (objects with BGRA ``image`` and ``indices`` boxes, as
    :class:`vision.synth.faces.CardFace`): the middle of each face (:data:`PICTURE_AREA`), as BGR on
    white, with any corner index that reaches into it (big poker indices do) painted out, so that
    a picture never holds an index."""
    x0, y0, x1, y1 = PICTURE_AREA
    pictures = []
    for face in faces:
        h, w = face.image.shape[:2]
        alpha = face.image[..., 3:4].astype(np.float32) / 255.0
        whole = (face.image[..., :3] * alpha + 255 * (1 - alpha)).astype(np.uint8)
        for index in face.indices:
            bx0, by0, bx1, by1 = index.box
            whole[by0:by1, bx0:bx1] = 255
        pictures.append(whole[int(h * y0):int(h * y1), int(w * x0):int(w * x1)].copy())
    return pictures


def printed_matter(rng: np.random.Generator, width: int, height: int, card_px: float,
                   pictures: list[np.ndarray]) -> Layer:
    """Printed things under the cards that are full of ink but hold no index: a
    rug or patterned carpet over much of the table, a book cover or box with a
    title and a picture, or a printed illustration (``pictures``: e.g. card
    artwork, :func:`card_pictures`, shown several times a card's size)."""
    mask = np.zeros((height, width), np.float32)
    centre = np.float32([rng.uniform(0, width), rng.uniform(0, height)])
    kind = int(rng.integers(3))
    if kind == 0:
        colour = _rug(rng, width, height, card_px)
        _box(mask, centre, (int(card_px * rng.uniform(3, 8)), int(card_px * rng.uniform(3, 8))), rng.uniform(0, 180))
    elif kind == 1:
        colour = _book_cover(rng, mask, centre, card_px, pictures)
    else:
        colour = _rug(rng, width, height, card_px * 0.3)   # a patterned print where there is no picture
        if pictures:
            sheet = np.zeros((height, width, 3), np.uint8)
            mask = _paste(sheet, pictures[int(rng.integers(len(pictures)))], centre,
                          int(card_px * rng.uniform(1.2, 3.5)), rng.uniform(0, 360))
            colour = sheet.astype(np.float32)
        else:
            _box(mask, centre, (int(card_px * 2), int(card_px * 2)), rng.uniform(0, 180))
    return colour, cv2.GaussianBlur(mask, (0, 0), 0.7)
