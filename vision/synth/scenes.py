"""Synthetic photographs of card tables with exact per-index annotations.

:func:`render_scene` lays out cards the way players do -- melds fanned and
overlapping in either direction, cascades, arcs, rows, stock and discard
piles, scattered and face-down cards -- on a procedural table, photographs
them through a tilted camera with light, shadows, glare, blur, noise and JPEG,
and lets hands and clutter cover some of them. Every corner index is
annotated with its centre, angle (see :mod:`vision.geometry`), size and box,
and with the fraction of it left visible, computed from the rendered masks.

>>> import numpy as np
>>> params = SceneParams(width=320, height=240, cards=(3, 3), designs=("proc/1",))
>>> scene = render_scene(np.random.default_rng(0), params)
>>> scene.image.shape, len(scene.cards)
((240, 320, 3), 3)
"""

from __future__ import annotations

import math
from dataclasses import asdict, dataclass, field, replace

import cv2
import numpy as np

from engine.cards import JOKER_CODE

from . import effects, occluders
from .backgrounds import random_table
from .decks import HELDOUT_DESIGNS, TRAIN_DESIGNS, Deck, load_deck
from .faces import BACK_CODE, CARD_CODES, CardFace
from ..geometry import angle_of_up

INDEX_VISIBLE = 0.6
"""An index counts as readable when at least this fraction of its box shows."""
_OCCLUDER = -1


@dataclass(frozen=True)
class SceneParams:
    """What kind of scene to render. All ranges are (low, high), inclusive.

    ``designs`` is ``"train"`` (the training designs plus procedural decks),
    ``"heldout"`` (only :data:`~vision.synth.decks.HELDOUT_DESIGNS`) or a
    tuple of design names. ``overlap`` runs from 0 (cards lie apart) to 1
    (tight fans and piles). ``card_height`` is the card height in pixels at
    the centre of the photo; perspective makes nearer cards bigger.
    Probabilities: ``face_down``, ``jokers`` and ``curl`` (a slightly bowed
    card) per card, ``hands``, ``clutter``, ``back_decoys`` (a card back's
    pattern on something that is not a card), ``printed_matter`` (a rug, a book
    cover or a printed illustration under the cards; 0 by default, which
    leaves the stream of scenes as it was) and ``shadows`` per scene;
    ``effects`` scales every camera effect (0 = clean); ``keep_clean`` keeps
    the photo before them too (:attr:`Scene.clean`, for telling how legible each
    index is: :mod:`vision.train.legibility`). ``arrangement`` is ``"table"``
    (melds, piles and strays as players lay them) or ``"layout"`` (whole upright
    rows of 13, apart, as ``learn-deck``'s guided layout lays them).
    The camera's tilt lies within ``min_tilt_deg``..``max_tilt_deg`` but never so far
    that a ray of the frame looks further than ``horizon_deg`` from straight down
    (the table must fill the photo), its horizontal field of view within ``fov_deg``.

    >>> SceneParams.closeup().width, SceneParams.small_photo().cards
    (1600, (1, 6))
    >>> SceneParams.layout().arrangement, SceneParams.grazing().min_tilt_deg
    ('layout', 50.0)
    """

    width: int = 1280
    height: int = 720
    cards: tuple[int, int] = (6, 32)
    card_height: tuple[float, float] = (70.0, 170.0)
    overlap: float = 0.6
    designs: str | tuple[str, ...] = "train"
    procedural: float = 0.35
    decks: tuple[int, int] = (1, 2)
    face_down: float = 0.1
    jokers: float = 0.05
    piles: float = 0.5
    max_tilt_deg: float = 30.0
    hands: float = 0.35
    clutter: float = 0.45
    back_decoys: float = 0.2
    printed_matter: float = 0.0
    shadows: float = 0.8
    curl: float = 0.25
    effects: float = 1.0
    keep_clean: bool = False
    arrangement: str = "table"
    min_tilt_deg: float = 0.0
    fov_deg: tuple[float, float] = (50.0, 75.0)
    horizon_deg: float = 82.0

    def __post_init__(self) -> None:
        if self.width < 32 or self.height < 32:
            raise ValueError(f"scene size must be at least 32x32, got {self.width}x{self.height}")
        if not 1 <= self.cards[0] <= self.cards[1]:
            raise ValueError(f"cards must be a range (low, high) with 1 <= low <= high, got {self.cards}")
        if not 0 < self.card_height[0] <= self.card_height[1]:
            raise ValueError(f"card_height must be a positive range, got {self.card_height}")
        if isinstance(self.designs, str) and self.designs not in ("train", "heldout"):
            raise ValueError(f"designs must be 'train', 'heldout' or a tuple of design names, got {self.designs!r}")
        if self.arrangement not in ("table", "layout"):
            raise ValueError(f"arrangement must be 'table' or 'layout', got {self.arrangement!r}")
        if not 0 <= self.min_tilt_deg <= self.max_tilt_deg:
            raise ValueError(f"tilt must be a range 0 <= min_tilt_deg <= max_tilt_deg, got "
                             f"{self.min_tilt_deg}..{self.max_tilt_deg}")
        if not 0 < self.fov_deg[0] <= self.fov_deg[1] < 150:
            raise ValueError(f"fov_deg must be a range (low, high) within 0..150 degrees, got {self.fov_deg}")

    @classmethod
    def closeup(cls, **changes) -> "SceneParams":
        """A phone photo of one or two cards filling most of a 1600 px frame."""
        base = cls(width=1600, height=1200, cards=(1, 2), card_height=(600.0, 1050.0), overlap=0.3,
                   piles=0.0, max_tilt_deg=40.0, hands=0.15, clutter=0.1, face_down=0.0, back_decoys=0.0)
        return replace(base, **changes)

    @classmethod
    def small_photo(cls, **changes) -> "SceneParams":
        """A small low-resolution photo (about 400x500) of a few cards."""
        base = cls(width=384, height=512, cards=(1, 6), card_height=(110.0, 300.0), overlap=0.4,
                   piles=0.1, max_tilt_deg=35.0, hands=0.2, clutter=0.35, face_down=0.05)
        return replace(base, **changes)

    @classmethod
    def layout(cls, **changes) -> "SceneParams":
        """A photo of one to four rows of ``learn-deck``'s guided layout: one deck, 13 upright cards a
        row, apart, the camera nearly straight down (cards sized so a row fills the frame's width)."""
        base = cls(cards=(13, 52), card_height=(95.0, 125.0), overlap=0.0, decks=(1, 1), face_down=0.0,
                   jokers=0.0, piles=0.0, max_tilt_deg=12.0, hands=0.1, clutter=0.2, back_decoys=0.0,
                   curl=0.15, arrangement="layout")
        return replace(base, **changes)

    @classmethod
    def grazing(cls, **changes) -> "SceneParams":
        """A phone photo from low over the table: a few cards at a grazing angle (tilt 50-75 degrees,
        a narrow field of view, the far rays up to 88 degrees from straight down), their indices
        squashed to half their height or less."""
        base = cls(width=1280, height=960, cards=(1, 8), card_height=(110.0, 300.0), overlap=0.3, piles=0.2,
                   face_down=0.05, hands=0.15, clutter=0.3, min_tilt_deg=50.0, max_tilt_deg=75.0,
                   fov_deg=(25.0, 45.0), horizon_deg=88.0)
        return replace(base, **changes)

    def portrait(self) -> "SceneParams":
        """The same scene kind in the other orientation (a layout's rows still fill the width).

        >>> SceneParams.layout().portrait().card_height
        (53.4375, 70.3125)
        """
        if self.arrangement == "layout":
            narrower = self.height / self.width
            return replace(self, width=self.height, height=self.width,
                           card_height=(self.card_height[0] * narrower, self.card_height[1] * narrower))
        return replace(self, width=self.height, height=self.width)


@dataclass
class IndexAnnotation:
    """One corner index in the image: see :mod:`vision.geometry` for ``angle``.

    ``polygon`` holds the box corners as the glyphs are read: top-left,
    top-right, bottom-right, bottom-left. ``visible`` is the fraction of the
    box not covered by other cards, hands, objects or the image border.
    ``card_number`` is the position of its card in :attr:`Scene.cards`.
    """

    card: str
    center: tuple[float, float]
    angle: float
    size: float
    polygon: np.ndarray
    visible: float
    design: str
    card_number: int

    @property
    def readable(self) -> bool:
        return self.visible >= INDEX_VISIBLE


@dataclass
class CardAnnotation:
    """One card: ``card`` is its code or 'BACK' when face down (``face`` keeps
    the code underneath), ``outline`` the card corners (top-left, top-right,
    bottom-right, bottom-left of the upright card) in image pixels."""

    card: str
    face: str
    design: str
    back_design: str
    outline: np.ndarray
    visible: float


@dataclass
class Scene:
    """A rendered photo (BGR uint8) and everything on it.

    ``indices`` lists every corner index with any part visible (use
    :attr:`IndexAnnotation.readable` or ``visible`` to filter);
    ``cards`` lists every card laid out, bottom first.
    """

    image: np.ndarray
    indices: list[IndexAnnotation]
    cards: list[CardAnnotation]
    designs: list[str]
    clean: np.ndarray | None = None
    """The same photo before the camera's effects (blur, noise, JPEG...), with ``SceneParams.keep_clean``."""

    def annotations(self) -> dict:
        """The annotations as JSON-ready data (numbers rounded to 0.01 px)."""
        def clean(item) -> dict:
            data = asdict(item)
            for key, value in data.items():
                if isinstance(value, np.ndarray):
                    data[key] = np.round(value, 2).tolist()
                elif isinstance(value, float):
                    data[key] = round(value, 4)
                elif isinstance(value, tuple):
                    data[key] = [round(float(v), 2) for v in value]
            return data
        return {"width": self.image.shape[1], "height": self.image.shape[0], "designs": self.designs,
                "indices": [clean(a) for a in self.indices], "cards": [clean(c) for c in self.cards]}


@dataclass
class _Placed:
    """A card laid on the flat (top-down) table: face, centre, rotation, scale."""

    code: str
    deck: Deck
    face_down: bool
    centre: tuple[float, float]
    rotation: float
    face: CardFace = field(repr=False, default=None)  # type: ignore[assignment]
    bend: float = 0.0  # a bowed card: face pixels move down by bend * sin(pi x / width)

    def bent(self, points: np.ndarray) -> np.ndarray:
        """Face points where the bent card shows them."""
        x = points[:, 0]
        return np.stack([x, points[:, 1] + self.bend * np.sin(np.pi * x / self.face.size[0])], axis=1)

    def matrix(self, scale: float) -> np.ndarray:
        """3x3 map from face pixels to flat table pixels."""
        w, h = self.face.size
        c, s = math.cos(self.rotation), math.sin(self.rotation)
        return np.array([[c * scale, -s * scale, self.centre[0]], [s * scale, c * scale, self.centre[1]], [0, 0, 1]]) \
            @ np.array([[1, 0, -w / 2], [0, 1, -h / 2], [0, 0, 1]])


def pick_designs(rng: np.random.Generator, params: SceneParams) -> list[str]:
    """The designs of one scene's decks: one or two (``params.decks``), from
    the pool that ``params.designs`` names; "train" mixes in procedural decks.

    >>> pick_designs(np.random.default_rng(0), SceneParams(designs="heldout", decks=(2, 2)))
    ['kde/jolly-royal', 'kde/jolly-royal']
    """
    count = int(rng.integers(params.decks[0], params.decks[1] + 1))
    if params.designs == "heldout":
        pool: tuple[str, ...] = HELDOUT_DESIGNS
    elif params.designs == "train":
        pool = TRAIN_DESIGNS
    else:
        pool = tuple(params.designs)
    chosen = []
    for _ in range(count):
        if params.designs == "train" and rng.random() < params.procedural:
            chosen.append(f"proc/{int(rng.integers(1_000_000))}")
        else:
            chosen.append(pool[int(rng.integers(len(pool)))])
    return chosen


class _Dealer:
    """Deals codes from each deck without repeats, as runs, sets or at random.

    Only the cards a deck has: one cut from a player's layout photos lacks a card whose two
    indices were not both found (:func:`vision.deck_scenes.layout_deck`).
    """

    def __init__(self, rng: np.random.Generator, decks: list[Deck], jokers: float):
        self.rng, self.decks, self.jokers = rng, decks, jokers
        self.cards = [{code for code in CARD_CODES if code in deck.faces} for deck in decks]
        self.left = [set(cards) for cards in self.cards]

    def deal(self, count: int, kind: str = "random") -> list[tuple[str, Deck]]:
        k = int(self.rng.integers(len(self.decks)))
        deck, left = self.decks[k], self.left[k]
        if len(left) < count:
            left |= self.cards[k]
        codes: list[str] = []
        if kind == "run":
            suit = "SHDC"[int(self.rng.integers(4))]
            start = int(self.rng.integers(1, 15 - count)) if count <= 13 else 1
            ranks = ["A", *map(str, range(2, 11)), "J", "Q", "K"]
            codes = [r + suit for r in ranks[start - 1:start - 1 + count] if r + suit in left]
        elif kind == "set":
            rank = CARD_CODES[int(self.rng.integers(13))][:-1]
            codes = [rank + s for s in "SHDC" if rank + s in left][:count]
        pool = sorted(left - set(codes))
        extra = self.rng.choice(len(pool), count - len(codes), replace=False) if count > len(codes) else []
        codes += [pool[i] for i in extra]
        left -= set(codes)
        if deck.jokers:
            codes = [JOKER_CODE if self.rng.random() < self.jokers else c for c in codes]
        return [(c, deck) for c in codes]


def _meld_offsets(rng: np.random.Generator, count: int, card_w: float, card_h: float,
                  overlap: float) -> list[tuple[float, float, float]]:
    """(dx, dy, drotation) of each card of a meld in the meld's own frame."""
    tight = rng.random() < overlap
    kind = rng.choice(["right", "left", "down", "up", "diagonal", "arc", "row"],
                      p=[0.27, 0.18, 0.12, 0.08, 0.1, 0.15, 0.1] if tight else [0.2, 0.1, 0.05, 0.05, 0.05, 0.05, 0.5])
    step_x = card_w * (rng.uniform(0.2, 0.36) if tight else rng.uniform(0.3, 0.65))
    step_y = card_h * (rng.uniform(0.15, 0.28) if tight else rng.uniform(0.25, 0.5))
    offsets = []
    for i in range(count):
        if kind == "arc":
            radius, turn = card_h * rng.uniform(0.8, 1.5), math.radians(rng.uniform(7, 14))
            a = (i - (count - 1) / 2) * turn
            dx, dy, dr = radius * math.sin(a), radius * (1 - math.cos(a)), a
        else:
            sx = {"right": 1, "left": -1, "diagonal": 1, "row": 1}.get(kind, 0)
            sy = {"down": 1, "up": -1, "diagonal": 1}.get(kind, 0)
            gap = card_w * rng.uniform(1.03, 1.25) if kind == "row" else step_x
            dx, dy, dr = i * sx * gap, i * sy * step_y, 0.0
        jitter = card_h * 0.015
        offsets.append((dx + rng.normal(0, jitter), dy + rng.normal(0, jitter), dr + rng.normal(0, math.radians(1.5))))
    return offsets


def _group_rotation(rng: np.random.Generator) -> float:
    if rng.random() < 0.5:  # squared up with the table edge, as players mostly do
        return math.radians(90 * int(rng.integers(4)) + rng.normal(0, 8))
    return rng.uniform(-math.pi, math.pi)


def _layout_rows(rng: np.random.Generator, params: SceneParams, dealer: _Dealer, to_flat: np.ndarray,
                 card_w: float, card_h: float) -> list[_Placed]:
    """Whole rows of 13 upright cards (a suit's run where the deck still has it), laid a little
    apart as a person lays ``learn-deck``'s layout, centred on the photo's middle."""
    rows = max(1, min(4, int(rng.integers(params.cards[0], params.cards[1] + 1)) // 13))
    pitch = card_w * rng.uniform(1.04, 1.2)
    spacing = card_h * rng.uniform(1.08, 1.25)
    middle = _project(to_flat, np.array([[params.width / 2, params.height / 2]]))[0]
    cards = []
    for row in range(rows):
        for column, (code, deck) in enumerate(dealer.deal(13, "run")):
            centre = (middle[0] + (column - 6) * pitch + rng.normal(0, 0.03) * pitch,
                      middle[1] + (row - (rows - 1) / 2) * spacing + rng.normal(0, 0.03) * card_h)
            cards.append(_Placed(code, deck, False, centre, rng.normal(0, math.radians(3)),
                                 face=deck.faces[code]))
    return cards


def _layout(rng: np.random.Generator, params: SceneParams, dealer: _Dealer, to_flat: np.ndarray,
            scale: float, card_size: tuple[int, int]) -> list[_Placed]:
    """Cards on the flat table, bottom first; groups are centred at points
    spread evenly over the photo (mapped to the table by ``to_flat``)."""
    frame = np.array([params.width, params.height], float)
    card_w, card_h = card_size[0] * scale, card_size[1] * scale
    if params.arrangement == "layout":
        return _layout_rows(rng, params, dealer, to_flat, card_w, card_h)
    total = int(rng.integers(params.cards[0], params.cards[1] + 1))
    groups: list[list[_Placed]] = []
    left = total
    if left >= 6 and rng.random() < params.piles:  # stock pile of face-down cards
        n = int(rng.integers(3, min(12, left - 2) + 1))
        groups.append([_Placed(c, d, True, (rng.normal(0, card_h * 0.012), rng.normal(0, card_h * 0.012)),
                               rng.normal(0, 0.04)) for c, d in dealer.deal(n)])
        left -= n
    if left >= 4 and rng.random() < params.piles:  # discard pile
        n = int(rng.integers(2, min(6, left - 1) + 1))
        groups.append([_Placed(c, d, False, (rng.normal(0, card_h * 0.05), rng.normal(0, card_h * 0.05)),
                               rng.normal(0, 0.2)) for c, d in dealer.deal(n)])
        left -= n
    while left > 0:
        if left >= 3 and rng.random() < 0.3 + 0.6 * params.overlap:
            n = int(rng.integers(3, min(8, left) + 1))
            dealt = dealer.deal(n, str(rng.choice(["run", "set", "random"])))
            offsets = _meld_offsets(rng, n, card_w, card_h, params.overlap)
            groups.append([_Placed(c, d, False, (dx, dy), dr) for (c, d), (dx, dy, dr) in zip(dealt, offsets)])
        else:
            n = 1
            groups.append([_Placed(c, d, False, (0.0, 0.0), 0.0) for c, d in dealer.deal(1)])
        left -= n
    rng.shuffle(groups)
    spread = min(0.45, 0.15 + 0.025 * total)  # a few cards lie near the middle of the photo
    placed_centres: list[tuple[float, float, float]] = []
    cards: list[_Placed] = []
    for group in groups:
        xs = [p.centre[0] for p in group]
        ys = [p.centre[1] for p in group]
        mid = ((max(xs) + min(xs)) / 2, (max(ys) + min(ys)) / 2)
        radius = 0.5 * math.hypot(max(xs) - min(xs) + card_w, max(ys) - min(ys) + card_h)
        best, best_clearance = (0.0, 0.0), -math.inf
        for _ in range(30):
            point = tuple(_project(to_flat, rng.uniform(0.5 - spread, 0.5 + spread, 2) * frame)[0])
            clearance = min((math.hypot(point[0] - px, point[1] - py) - pr - radius
                             for px, py, pr in placed_centres), default=math.inf)
            if clearance > best_clearance:
                best, best_clearance = point, clearance
            if clearance > -params.overlap * radius * 0.8:
                break
        placed_centres.append((best[0], best[1], radius))
        turn = _group_rotation(rng)
        c, s = math.cos(turn), math.sin(turn)
        for p in group:
            dx, dy = p.centre[0] - mid[0], p.centre[1] - mid[1]
            p.centre = (best[0] + c * dx - s * dy, best[1] + s * dx + c * dy)
            p.rotation += turn
            if not p.face_down and rng.random() < params.face_down:
                p.face_down = True
            cards.append(p)
    for p in cards:
        if p.face_down:
            p.face = p.deck.faces[BACK_CODE]
        elif p.code == JOKER_CODE:
            p.face = p.deck.jokers[int(rng.integers(len(p.deck.jokers)))]
        else:
            p.face = p.deck.faces[p.code]
    return cards


def _camera(rng: np.random.Generator, params: SceneParams) -> np.ndarray:
    """Homography from the flat top-down view to the photo: the camera turned
    about its own centre (tilt in a random direction and a roll)."""
    w, h = params.width, params.height
    hfov = math.radians(rng.uniform(*params.fov_deg))
    f = w / 2 / math.tan(hfov / 2)
    k = np.array([[f, 0, w / 2], [0, f, h / 2], [0, 0, 1]])
    half_diagonal = math.atan(math.hypot(w, h) / 2 / f)
    max_tilt = min(math.radians(params.max_tilt_deg), math.radians(params.horizon_deg) - half_diagonal)
    min_tilt = min(math.radians(params.min_tilt_deg), max_tilt)
    tilt = min_tilt + (max_tilt - min_tilt) * math.sqrt(rng.random()) if max_tilt > 0 else 0.0
    azimuth = rng.uniform(0, 2 * math.pi)
    axis = np.array([math.cos(azimuth), math.sin(azimuth), 0.0]) * tilt
    rotation, _ = cv2.Rodrigues(axis)
    return k @ rotation @ np.linalg.inv(k)


def _project(matrix: np.ndarray, points: np.ndarray) -> np.ndarray:
    return cv2.perspectiveTransform(points.reshape(-1, 1, 2).astype(np.float64), matrix).reshape(-1, 2)


def _magnification(camera: np.ndarray, image_point: tuple[float, float]) -> float:
    """How many photo pixels one table pixel spans (linear) around a photo point."""
    p = _project(np.linalg.inv(camera), np.array([image_point], float))[0]
    q = _project(camera, np.array([p, p + (1, 0), p + (0, 1)]))
    (ax, ay), (bx, by) = q[1] - q[0], q[2] - q[0]
    return math.sqrt(abs(ax * by - ay * bx))


def _polygon_visibility(labels: np.ndarray, polygon: np.ndarray, label: int) -> float:
    """Fraction of a polygon's pixels (counted even off-image) that show ``label``."""
    x0, y0 = np.floor(polygon.min(axis=0)).astype(int)
    x1, y1 = np.ceil(polygon.max(axis=0)).astype(int) + 1
    if x1 - x0 > 8 * labels.shape[1] or y1 - y0 > 8 * labels.shape[0]:
        return 0.0
    mask = np.zeros((y1 - y0, x1 - x0), np.uint8)
    cv2.fillConvexPoly(mask, np.round((polygon - (x0, y0)) * 16).astype(np.int32), 1, cv2.LINE_8, 4)
    total = int(mask.sum())
    if total == 0:
        return 0.0
    h, w = labels.shape
    cx0, cy0, cx1, cy1 = max(x0, 0), max(y0, 0), min(x1, w), min(y1, h)
    if cx0 >= cx1 or cy0 >= cy1:
        return 0.0
    inside = mask[cy0 - y0:cy1 - y0, cx0 - x0:cx1 - x0].astype(bool)
    return float((labels[cy0:cy1, cx0:cx1][inside] == label).sum()) / total


def _shifted(alpha: np.ndarray, dx: int, dy: int) -> np.ndarray:
    out = np.zeros_like(alpha)
    h, w = alpha.shape
    if abs(dx) >= w or abs(dy) >= h:
        return out
    out[max(dy, 0):h + min(dy, 0), max(dx, 0):w + min(dx, 0)] = alpha[max(-dy, 0):h - max(dy, 0),
                                                                       max(-dx, 0):w - max(dx, 0)]
    return out


def _bend(pixels: np.ndarray, amount: float) -> np.ndarray:
    """Bow a face image: each column moves down by amount * sin(pi x / width),
    shaded as the bowed paper turns towards or away from the light."""
    h, w = pixels.shape[:2]
    xs = np.arange(w, dtype=np.float32)
    shift = amount * np.sin(np.pi * xs / w)
    map_x = np.broadcast_to(xs, (h, w))
    map_y = np.arange(h, dtype=np.float32)[:, None] - shift[None, :]
    bent = cv2.remap(pixels, map_x, map_y, cv2.INTER_LINEAR, borderMode=cv2.BORDER_CONSTANT, borderValue=(0, 0, 0, 0))
    shade = 1 + np.clip(amount / h, -0.05, 0.05) * 4 * (xs / w - 0.5)
    bent[:, :, :3] = np.clip(bent[:, :, :3] * shade[None, :, None], 0, 255)
    return bent


def _draw_card(image: np.ndarray, labels: np.ndarray, placed: _Placed, to_image: np.ndarray, label: int,
               shadow: tuple[float, float, float, float], brightness: np.ndarray) -> None:
    """Warp one face into the photo (with its shadow) and mark its pixels."""
    face = placed.face
    h, w = image.shape[:2]
    fw, fh = face.size
    corners = _project(to_image, np.array([[0, 0], [fw, 0], [fw, fh], [0, fh]], float))
    dx, dy, blur, strength = shadow
    margin = abs(dx) + abs(dy) + 3 * blur + 2 + abs(placed.bend) * float(np.linalg.norm(corners[3] - corners[0])) / fh
    x0, y0 = np.floor(corners.min(axis=0) - margin).astype(int)
    x1, y1 = np.ceil(corners.max(axis=0) + margin).astype(int)
    x0, y0, x1, y1 = max(x0, 0), max(y0, 0), min(x1, w), min(y1, h)
    if x0 >= x1 or y0 >= y1:
        return
    # Area-average first: the camera integrates, it does not point-sample.
    pixels = face.shrunk(float(np.linalg.norm(corners[3] - corners[0])) / fh)
    if placed.bend:
        pixels = _bend(pixels, placed.bend * pixels.shape[0] / fh)
    to_image = to_image @ np.diag([fw / pixels.shape[1], fh / pixels.shape[0], 1.0])
    roi = np.array([[1, 0, -x0], [0, 1, -y0], [0, 0, 1]]) @ to_image
    warped = cv2.warpPerspective(pixels, roi, (x1 - x0, y1 - y0), flags=cv2.INTER_LINEAR,
                                 borderMode=cv2.BORDER_CONSTANT, borderValue=(0, 0, 0, 0))
    alpha = warped[:, :, 3].astype(np.float32) / 255
    region = image[y0:y1, x0:x1]
    if strength > 0:
        cast = _shifted(alpha, int(round(dx)), int(round(dy)))
        cast = cv2.GaussianBlur(cast, (0, 0), blur) if blur > 0.3 else cast
        region *= (1 - strength * cast)[:, :, None]
    colour = warped[:, :, :3].astype(np.float32) * brightness
    region += alpha[:, :, None] * (colour - region)
    labels[y0:y1, x0:x1][alpha > 0.5] = label


def _composite(image: np.ndarray, labels: np.ndarray, layer: tuple[np.ndarray, np.ndarray], on_top: bool) -> None:
    colour, alpha = layer
    x, y, w, h = cv2.boundingRect((alpha > 0.002).astype(np.uint8))
    if w == 0:
        return
    window = (slice(y, y + h), slice(x, x + w))
    a = alpha[window]
    image[window] += a[:, :, None] * (colour[window] - image[window])
    if on_top:
        labels[window][a > 0.5] = _OCCLUDER


def _annotate(placed: list[_Placed], matrices: list[np.ndarray], labels: np.ndarray
              ) -> tuple[list[IndexAnnotation], list[CardAnnotation]]:
    indices, cards = [], []
    for k, (p, to_image) in enumerate(zip(placed, matrices)):
        fw, fh = p.face.size
        outline = _project(to_image, np.array([[0, 0], [fw, 0], [fw, fh], [0, fh]], float))
        code = BACK_CODE if p.face_down else p.code
        cards.append(CardAnnotation(code, p.code, p.deck.design, p.deck.design, outline,
                                    _polygon_visibility(labels, outline, k + 1)))
        if p.face_down:
            continue
        for box in p.face.indices:
            polygon = _project(to_image, p.bent(box.corners()))
            top, bottom = (polygon[0] + polygon[1]) / 2, (polygon[2] + polygon[3]) / 2
            size = float(np.linalg.norm(top - bottom))
            if size < 2:
                continue
            visible = _polygon_visibility(labels, polygon, k + 1)
            if visible <= 0:
                continue
            x0, y0, x1, y1 = box.box
            centre = _project(to_image, p.bent(np.array([[(x0 + x1) / 2, (y0 + y1) / 2]], float)))[0]
            indices.append(IndexAnnotation(p.code, (float(centre[0]), float(centre[1])), angle_of_up(top - bottom),
                                           size, polygon, visible, p.deck.design, k))
    return indices, cards


def _table(rng: np.random.Generator, camera: np.ndarray, region: np.ndarray, width: int, height: int) -> np.ndarray:
    """The table surface seen through the camera (textures keep their perspective)."""
    x0, y0 = region.min(axis=0)
    x1, y1 = region.max(axis=0)
    scale = min(1.0, 1400 / max(x1 - x0, y1 - y0, 1))
    tw, th = int((x1 - x0) * scale) + 2, int((y1 - y0) * scale) + 2
    texture = random_table(rng, tw, th)
    to_flat = np.array([[1 / scale, 0, x0], [0, 1 / scale, y0], [0, 0, 1]])
    return cv2.warpPerspective(texture, camera @ to_flat, (width, height), flags=cv2.INTER_LINEAR,
                               borderMode=cv2.BORDER_REFLECT)


def render_scene(rng: np.random.Generator, params: SceneParams | None = None, decks: list[Deck] | None = None) -> Scene:
    """Render one table photo with its annotations (deterministic for a given rng state).

    ``decks`` lays out these decks instead of those ``params.designs`` names (e.g. a player's
    deck cut from photos, :mod:`vision.learn_deck`).
    """
    params = params or SceneParams()
    w, h = params.width, params.height
    if decks is None:
        decks = [load_deck(name) for name in pick_designs(rng, params)]
    names = [deck.design for deck in decks]
    camera = _camera(rng, params)
    region = _project(np.linalg.inv(camera), np.array([[0, 0], [w, 0], [w, h], [0, h]], float))
    centre = region.mean(axis=0)
    region = centre + np.clip(region - centre, -4 * max(w, h), 4 * max(w, h))
    image = _table(rng, camera, region, w, h).astype(np.float32)
    labels = np.zeros((h, w), np.int32)
    card_px = rng.uniform(*params.card_height)
    # card_height is what the photo shows at its centre: undo the camera's magnification there.
    scale = card_px / decks[0].card_size[1] / _magnification(camera, (w / 2, h / 2))
    placed = _layout(rng, params, _Dealer(rng, decks, params.jokers), np.linalg.inv(camera), scale,
                     decks[0].card_size)
    for _ in range(int(rng.poisson(params.clutter * 2))):
        _composite(image, labels, occluders.clutter(rng, w, h, card_px), on_top=False)
    if rng.random() < params.back_decoys:
        back = decks[int(rng.integers(len(decks)))].faces[BACK_CODE].image
        _composite(image, labels, occluders.back_decoy(rng, w, h, card_px, back), on_top=False)
    # Drawn only when asked: scenes of the default parameters stay as they were.
    if params.printed_matter and rng.random() < params.printed_matter:
        courts = [face for deck in decks for code, face in deck.faces.items() if code[:-1] in ("J", "Q", "K")]
        pictures = occluders.card_pictures([courts[int(i)] for i in rng.integers(len(courts), size=4)] if courts else [])
        for _ in range(1 + int(rng.poisson(params.printed_matter))):
            _composite(image, labels, occluders.printed_matter(rng, w, h, card_px, pictures), on_top=False)
    light = rng.uniform(0, 2 * math.pi)
    has_shadow = rng.random() < params.shadows
    matrices = []
    for k, p in enumerate(placed):
        to_image = camera @ p.matrix(scale)
        matrices.append(to_image)
        offset = card_px * rng.uniform(0.005, 0.03) if has_shadow else 0.0
        shadow = (offset * math.cos(light), offset * math.sin(light), card_px * rng.uniform(0.01, 0.04),
                  rng.uniform(0.15, 0.45) if has_shadow else 0.0)
        brightness = np.float32(rng.uniform(0.85, 1.05)) * rng.uniform(0.97, 1.03, 3).astype(np.float32)
        if rng.random() < params.curl:
            p.bend = rng.normal(0, 0.012) * p.face.size[1]
        _draw_card(image, labels, p, to_image, k + 1, shadow, brightness)
    for _ in range(int(rng.random() < params.hands) + int(rng.random() < params.hands * 0.3)):
        target = _project(matrices[int(rng.integers(len(matrices)))], np.array([[0.0, 0.0]]))[0] if matrices else None
        _composite(image, labels, occluders.hand(rng, w, h, card_px, target), on_top=True)
    if rng.random() < params.clutter * 0.3:
        _composite(image, labels, occluders.clutter(rng, w, h, card_px), on_top=True)
    indices, cards = _annotate(placed, matrices, labels)
    photo = effects.photograph(rng, image, params.effects)
    return Scene(photo, indices, cards, names, np.clip(image, 0, 255).astype(np.uint8) if params.keep_clean else None)
