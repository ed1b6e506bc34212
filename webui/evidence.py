"""What the camera read on an evidence photo, kept beside the photo and drawn over it by the browser.

The photo stays exactly as the camera took it (its sha256 is its name); the overlay says where
each card was read (its corner indices and outline, in image pixels) and where the table's zones
lie in the image. The result page draws it as SVG over the ``<img>``, so a player can switch it
off and look at the bare photo.

>>> overlay = make_overlay(640, 360, [{"card": "7H", "confidence": 0.97, "corners": [[100, 80]],
...     "outline": [[95, 75], [155, 75], [155, 160], [95, 160]]}], [{"name": "discard",
...     "points": [[300, 100], [400, 100], [400, 200], [300, 200]]}])
>>> drawing = draw(overlay)
>>> [(c.label, c.sure, c.outline) for c in drawing.cards]
[('7H', True, '95,75 155,75 155,160 95,160')]
>>> make_overlay(640, 360, [{"card": "7H", "confidence": 2, "corners": [[1, 1]]}], [])
Traceback (most recent call last):
...
webui.evidence.OverlayError: cards[0].confidence: must be a number 0..1, got 2
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Sequence

SURE = 0.9
"""Readings at least this confident are drawn green, the others orange (as ``vision.annotate``)."""
MAX_CARDS = 400
MAX_SIDE = 20000


class OverlayError(ValueError):
    """An overlay that does not describe a photo (bad size, points, card codes)."""


def _number(value: Any, where: str, low: float, high: float, digits: int = 1) -> float:
    if isinstance(value, bool) or not isinstance(value, (int, float)) or not low <= value <= high:
        raise OverlayError(f"{where}: must be a number {low:g}..{high:g}, got {value!r}")
    return round(float(value), digits)


def _points(value: Any, where: str, count: int | None) -> list[list[float]]:
    if not isinstance(value, list) or not value or (count is not None and len(value) != count):
        wanted = f"{count} points" if count else "a list of points"
        raise OverlayError(f"{where}: must be {wanted} [x, y], got {value!r}"[:200])
    points = []
    for number, point in enumerate(value):
        if not isinstance(point, (list, tuple)) or len(point) != 2:
            raise OverlayError(f"{where}[{number}]: must be a point [x, y], got {point!r}"[:200])
        points.append([_number(point[0], f"{where}[{number}].x", -MAX_SIDE, MAX_SIDE),
                       _number(point[1], f"{where}[{number}].y", -MAX_SIDE, MAX_SIDE)])
    return points


def _label(value: Any, where: str) -> str:
    if not isinstance(value, str) or not 1 <= len(value) <= 24 or not value.isprintable():
        raise OverlayError(f"{where}: must be a short name, got {value!r}"[:200])
    return value


def make_overlay(width: int, height: int, cards: Sequence[dict[str, Any]], zones: Sequence[dict[str, Any]],
                 doubts: Sequence[dict[str, Any]] = ()) -> dict[str, Any]:
    """Check and normalise an overlay: image size, cards (or tiles) as ``CardObservation.to_json()``
    gives them, zones as ``{"name", "points"}`` (image pixels), and the places the referee asks the
    players about (``doubts``, as zones: a label and an outline)."""
    size = [int(_number(width, "width", 1, MAX_SIDE)), int(_number(height, "height", 1, MAX_SIDE))]
    if len(cards) > MAX_CARDS:
        raise OverlayError(f"cards: at most {MAX_CARDS} readings, got {len(cards)}")
    clean_cards = []
    for number, card in enumerate(cards):
        where = f"cards[{number}]"
        if not isinstance(card, dict):
            raise OverlayError(f"{where}: must be an object with card, confidence, corners")
        entry = {"card": _label(card.get("card"), f"{where}.card"),
                 "confidence": _number(card.get("confidence"), f"{where}.confidence", 0, 1, digits=3),
                 "corners": _points(card.get("corners"), f"{where}.corners", None)}
        if card.get("outline") is not None:
            entry["outline"] = _points(card["outline"], f"{where}.outline", 4)
        clean_cards.append(entry)
    overlay = {"size": size, "cards": clean_cards, "zones": _areas(zones, "zones")}
    if doubts:
        overlay["doubts"] = _areas(doubts, "doubts")
    return overlay


def _areas(areas: Sequence[dict[str, Any]], where: str) -> list[dict[str, Any]]:
    return [{"name": _label(area.get("name") if isinstance(area, dict) else None, f"{where}[{number}].name"),
             "points": _points(area.get("points"), f"{where}[{number}].points", None)}
            for number, area in enumerate(areas)]


def zone_outlines(zones: Any, calibration: Any) -> list[dict[str, Any]]:
    """The table's zones (an ``engine.zones.ZoneMap``) as image polygons, through ``calibration``
    (a ``vision.calibration.Calibration``: table cm to image); none while there is no calibration."""
    if calibration is None:
        return []
    outlines = []
    for zone in zones.zones:
        left, top, right, bottom = zone.rect
        corners = calibration.to_image([(left, top), (right, top), (right, bottom), (left, bottom)])
        outlines.append({"name": zone.name, "points": [[round(float(x), 1), round(float(y), 1)] for x, y in corners]})
    return outlines


@dataclass(frozen=True)
class CardMark:
    """One reading as the SVG draws it: outline (``points`` attribute), corner dots, label."""

    code: str
    label: str
    sure: bool
    outline: str | None
    dots: tuple[tuple[float, float], ...]
    at: tuple[float, float]


@dataclass(frozen=True)
class ZoneMark:
    name: str
    outline: str
    at: tuple[float, float]


@dataclass(frozen=True)
class Drawing:
    width: int
    height: int
    text_size: float
    dot_radius: float
    cards: tuple[CardMark, ...]
    zones: tuple[ZoneMark, ...]
    doubts: tuple[ZoneMark, ...] = ()
    """Places the referee asks about (a tile may be missed there), labelled as the question says."""


def _svg_points(points: Sequence[Sequence[float]]) -> str:
    return " ".join(f"{x:g},{y:g}" for x, y in points)


def draw(overlay: dict[str, Any]) -> Drawing:
    """The overlay as marks for the SVG in ``_evidence.html`` (sizes scale with the photo)."""
    width, height = overlay["size"]
    scale = max(width, height)
    cards = []
    for card in overlay["cards"]:
        outline = card.get("outline")
        # the label sits at the card's top left, where a player looks for the index
        anchor = min(outline or card["corners"], key=lambda p: p[0] + p[1])
        sure = card["confidence"] >= SURE
        # an unsure reading says how unsure: that is what a dispute is about
        label = card["card"] if sure else f"{card['card']} {card['confidence']:.2f}"
        cards.append(CardMark(card["card"], label, sure, _svg_points(outline) if outline else None,
                              tuple((x, y) for x, y in card["corners"]), (anchor[0], anchor[1] - scale / 160)))
    zones, doubts = ([ZoneMark(area["name"], _svg_points(area["points"]),
                               (min(x for x, _ in area["points"]) + scale / 200, min(y for _, y in area["points"]) + scale / 50))
                      for area in overlay.get(kind, [])] for kind in ("zones", "doubts"))
    return Drawing(width, height, round(scale / 40, 1), round(scale / 200, 1), tuple(cards), tuple(zones), tuple(doubts))
