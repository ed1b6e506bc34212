"""Zones of the table: where the stock, the discard pile and each seat's layout lie.

Coordinates are table centimetres as calibration gives them (:mod:`vision.calibration`):
x to the right and y down as the camera sees the table, origin at the top-left marker.
A zone is an axis-aligned rectangle; a map of zones is plain data that round-trips through JSON,
so the web page can edit it.

>>> zones = default_zones("gin", players=2)
>>> [z.name for z in zones.zones]
['stock', 'discard', 'seat0', 'seat1']
>>> zones.zone_at(40, 30).name, zones.zone_at(40, 55).seat
('discard', 0)
>>> ZoneMap.from_json(zones.to_json()) == zones
True

Validation names what is wrong:

>>> ZoneMap.from_dict({"width": 80, "height": 60, "players": 2, "zones": [
...     {"name": "stock", "kind": "stock", "rect": [30, 20, 40, 35]},
...     {"name": "discard", "kind": "discard", "rect": [35, 20, 50, 35]},
...     {"name": "seat0", "kind": "layout", "seat": 0, "rect": [0, 40, 80, 60]},
...     {"name": "seat1", "kind": "layout", "seat": 1, "rect": [0, 0, 80, 18]}]})
Traceback (most recent call last):
...
engine.zones.ZoneError: zones 'stock' and 'discard' overlap (x 35..40, y 20..35)
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any, Literal, Mapping

ZoneKind = Literal["stock", "discard", "layout", "common"]
ZONE_KINDS: tuple[str, ...] = ("stock", "discard", "layout", "common")
GAMES: dict[str, tuple[int, int]] = {"gin": (2, 2), "wiener": (2, 6), "tiles": (2, 4)}
"""Player counts each game allows (Gin: two; Wiener Rummy 001: 2-6; tile Rummy 002: 2-4)."""

CARD_WIDTH_CM = 6.3
CARD_HEIGHT_CM = 8.8
FAN_STEP_CM = 2.0
"""How far apart the cards of a fanned meld lie: only their index corners show."""


class ZoneError(ValueError):
    """A zone map that cannot be used: overlaps, seats out of range, zones off the table."""


@dataclass(frozen=True)
class Zone:
    """One rectangle ``(x0, y0, x1, y1)`` of the table; ``seat`` only for layout areas."""

    name: str
    kind: ZoneKind
    rect: tuple[float, float, float, float]
    seat: int | None = None

    def __post_init__(self) -> None:
        if not isinstance(self.name, str) or not self.name:
            raise ZoneError(f"a zone needs a name, got {self.name!r}")
        if self.kind not in ZONE_KINDS:
            raise ZoneError(f"zone {self.name!r}: kind must be one of {', '.join(ZONE_KINDS)}, got {self.kind!r}")
        if len(self.rect) != 4 or not all(isinstance(v, (int, float)) and not isinstance(v, bool) for v in self.rect):
            raise ZoneError(f"zone {self.name!r}: rect must be four numbers x0, y0, x1, y1, got {self.rect!r}")
        x0, y0, x1, y1 = self.rect
        if not (x0 < x1 and y0 < y1):
            raise ZoneError(f"zone {self.name!r}: rect {list(self.rect)} must have x0 < x1 and y0 < y1")
        if (self.kind == "layout") != (self.seat is not None):
            raise ZoneError(f"zone {self.name!r}: a layout zone has a seat and no other zone has one")

    def contains(self, x: float, y: float) -> bool:
        x0, y0, x1, y1 = self.rect
        return x0 <= x < x1 and y0 <= y < y1

    @property
    def centre(self) -> tuple[float, float]:
        x0, y0, x1, y1 = self.rect
        return (x0 + x1) / 2, (y0 + y1) / 2

    def to_dict(self) -> dict[str, Any]:
        data: dict[str, Any] = {"name": self.name, "kind": self.kind, "rect": list(self.rect)}
        if self.seat is not None:
            data["seat"] = self.seat
        return data


@dataclass(frozen=True)
class ZoneMap:
    """All zones of a table of ``width`` x ``height`` cm for ``players`` seats, checked on creation."""

    width: float
    height: float
    players: int
    zones: tuple[Zone, ...]

    def __post_init__(self) -> None:
        if not (self.width > 0 and self.height > 0):
            raise ZoneError(f"table size must be positive, got {self.width} x {self.height}")
        if not isinstance(self.players, int) or not 2 <= self.players <= 6:
            raise ZoneError(f"players must be 2..6, got {self.players!r}")
        names = [z.name for z in self.zones]
        for name in names:
            if names.count(name) > 1:
                raise ZoneError(f"zone name {name!r} is used twice")
        for zone in self.zones:
            x0, y0, x1, y1 = zone.rect
            if x0 < 0 or y0 < 0 or x1 > self.width or y1 > self.height:
                raise ZoneError(
                    f"zone {zone.name!r} rect {list(zone.rect)} lies outside the table 0..{self.width} x 0..{self.height}"
                )
            if zone.seat is not None and not (isinstance(zone.seat, int) and 0 <= zone.seat < self.players):
                raise ZoneError(f"zone {zone.name!r}: seat {zone.seat!r} is out of range 0..{self.players - 1}")
        for i, a in enumerate(self.zones):
            for b in self.zones[i + 1:]:
                overlap = _overlap(a.rect, b.rect)
                if overlap:
                    raise ZoneError(f"zones {a.name!r} and {b.name!r} overlap "
                                    f"(x {_num(overlap[0])}..{_num(overlap[2])}, y {_num(overlap[1])}..{_num(overlap[3])})")
        seats = sorted(z.seat for z in self.zones if z.seat is not None)
        if seats and seats != list(range(self.players)):
            missing = sorted(set(range(self.players)) - set(seats))
            raise ZoneError(f"every seat needs exactly one layout zone; seats {seats} given"
                            + (f", seat {missing[0]} has none" if missing else ""))
        if sum(z.kind == "stock" for z in self.zones) != 1:
            raise ZoneError("a zone map needs exactly one stock zone")

    def zone_at(self, x: float, y: float) -> Zone | None:
        """The zone holding table point ``(x, y)``, or None between zones."""
        return next((z for z in self.zones if z.contains(x, y)), None)

    def named(self, name: str) -> Zone:
        for zone in self.zones:
            if zone.name == name:
                return zone
        raise ZoneError(f"no zone named {name!r}: zones are {', '.join(z.name for z in self.zones)}")

    def of_kind(self, kind: ZoneKind) -> Zone | None:
        return next((z for z in self.zones if z.kind == kind), None)

    def seat_zone(self, seat: int) -> Zone:
        for zone in self.zones:
            if zone.seat == seat:
                return zone
        raise ZoneError(f"seat {seat} has no layout zone")

    def to_dict(self) -> dict[str, Any]:
        return {"width": self.width, "height": self.height, "players": self.players,
                "zones": [z.to_dict() for z in self.zones]}

    def to_json(self) -> str:
        return json.dumps(self.to_dict())

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> "ZoneMap":
        for key in ("width", "height", "players", "zones"):
            if key not in data:
                raise ZoneError(f"zone map is missing {key!r}")
        unknown = set(data) - {"width", "height", "players", "zones"}
        if unknown:
            raise ZoneError(f"unknown zone map field {sorted(unknown)[0]!r}")
        zones = []
        for entry in data["zones"]:
            extra = set(entry) - {"name", "kind", "rect", "seat"}
            if extra:
                raise ZoneError(f"zone {entry.get('name')!r}: unknown field {sorted(extra)[0]!r}")
            zones.append(Zone(entry.get("name"), entry.get("kind"), tuple(entry.get("rect", ())), entry.get("seat")))
        return cls(data["width"], data["height"], data["players"], tuple(zones))

    @classmethod
    def from_json(cls, text: str) -> "ZoneMap":
        try:
            data = json.loads(text)
        except json.JSONDecodeError as error:
            raise ZoneError(f"zone map is not valid JSON: {error}") from None
        return cls.from_dict(data)


def _overlap(a: tuple[float, ...], b: tuple[float, ...]) -> tuple[float, float, float, float] | None:
    x0, y0 = max(a[0], b[0]), max(a[1], b[1])
    x1, y1 = min(a[2], b[2]), min(a[3], b[3])
    return (x0, y0, x1, y1) if x0 < x1 and y0 < y1 else None


def _num(value: float) -> str:
    return f"{value:g}"


# Seats go clockwise seen from above, starting at the camera's bottom edge. Each entry is
# (side, part, parts): the side of the table and which part of it when a side holds several.
_SEATING: dict[int, tuple[tuple[str, int, int], ...]] = {
    2: (("bottom", 0, 1), ("top", 0, 1)),
    3: (("bottom", 0, 1), ("top", 0, 2), ("top", 1, 2)),
    4: (("bottom", 0, 1), ("left", 0, 1), ("top", 0, 1), ("right", 0, 1)),
    5: (("bottom", 0, 1), ("left", 0, 1), ("top", 0, 2), ("top", 1, 2), ("right", 0, 1)),
    6: (("bottom", 1, 2), ("bottom", 0, 2), ("left", 0, 1), ("top", 0, 2), ("top", 1, 2), ("right", 0, 1)),
}


def default_zones(game: str, players: int, width: float = 80.0, height: float = 60.0) -> ZoneMap:
    """A sensible zone map: stock and discard (card games) or the pool and the common meld area
    (tiles) in the middle, one layout strip per seat along the table edges.

    >>> z = default_zones("wiener", players=4, width=100, height=80)
    >>> [(z.name, z.rect) for z in z.zones if z.seat in (1, 3)]
    [('seat1', (0.0, 20.8, 20.8, 59.2)), ('seat3', (79.2, 20.8, 100.0, 59.2))]
    >>> default_zones("gin", players=3)
    Traceback (most recent call last):
    ...
    engine.zones.ZoneError: gin is played by 2 players, got 3
    """
    if game not in GAMES:
        raise ZoneError(f"unknown game {game!r}: choose one of {', '.join(GAMES)}")
    low, high = GAMES[game]
    if not isinstance(players, int) or not low <= players <= high:
        allowed = f"{low}" if low == high else f"{low}-{high}"
        raise ZoneError(f"{game} is played by {allowed} players, got {players}")
    if width < 4 * CARD_HEIGHT_CM or height < 4 * CARD_HEIGHT_CM:
        raise ZoneError(f"a table of {width} x {height} cm is too small: each side needs at least {4 * CARD_HEIGHT_CM:g} cm")
    width, height = float(width), float(height)
    sides = {side for side, _, _ in _SEATING[players]}
    depth = round(min(width, height) * (0.36 if "left" not in sides else 0.26), 1)
    top, bottom = depth, height - depth
    left = depth if "left" in sides else 0.0
    right = width - depth if "right" in sides else width
    strips = {
        "bottom": (0.0, bottom, width, height), "top": (0.0, 0.0, width, top),
        "left": (0.0, top, left, bottom), "right": (right, top, width, bottom),
    }
    zones = list(_middle(game, left, top, right, bottom))
    for seat, (side, part, parts) in enumerate(_SEATING[players]):
        x0, y0, x1, y1 = strips[side]
        step = (x1 - x0) / parts
        zones.append(Zone(f"seat{seat}", "layout", (x0 + part * step, y0, x0 + (part + 1) * step, y1), seat))
    return ZoneMap(width, height, players, tuple(zones))


def _middle(game: str, left: float, top: float, right: float, bottom: float) -> tuple[Zone, ...]:
    """Stock and discard side by side in the middle, one card width apart; tiles: pool and table."""
    cx, cy = (left + right) / 2, (top + bottom) / 2
    if game == "tiles":
        pool_w = min(20.0, (right - left) / 4)
        return (Zone("stock", "stock", (left, top, left + pool_w, bottom)),
                Zone("table", "common", (left + pool_w, top, right, bottom)))
    w, h = CARD_WIDTH_CM * 1.6, min(CARD_HEIGHT_CM * 1.6, bottom - top)
    return (Zone("stock", "stock", (cx - w - 1, cy - h / 2, cx - 1, cy + h / 2)),
            Zone("discard", "discard", (cx, cy - h / 2, cx + w, cy + h / 2)))
