"""Touching tiles in a row are one combination of the table: grouping by position and turn.

Two tiles touch when they are turned alike (their axes within :data:`MAX_TURN`), lie side by
side (centres about a tile width apart along the row, little offset across it). Rows are the
connected sets of touching tiles, read left to right as their tiles stand upright.

>>> tiles = [Placed(100, 50, 0.0, 30, 40), Placed(131, 51, 0.0, 30, 40), Placed(300, 50, 0.0, 30, 40),
...          Placed(69, 50, 0.0, 30, 40)]
>>> rows(tiles)
[[3, 0, 1], [2]]
>>> rows([Placed(100, 50, math.pi, 30, 40), Placed(131, 50, math.pi, 30, 40)])   # upside down: right to left
[[1, 0]]
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np

MAX_TURN = math.radians(15)
MAX_PITCH = 1.35
"""Centres of touching tiles are at most this many tile widths apart along the row."""
MAX_OFFSET = 0.3
"""... and at most this many tile heights apart across it."""


@dataclass(frozen=True)
class Placed:
    """A tile's centre, up angle (:mod:`vision.geometry`), width and height in frame pixels."""

    x: float
    y: float
    angle: float
    width: float
    height: float


def outline(tile: Placed) -> tuple[tuple[float, float], ...]:
    """Corners as read upright: top-left, top-right, bottom-right, bottom-left.

    >>> [tuple(round(v) for v in p) for p in outline(Placed(50, 50, math.pi / 2, 20, 40))]
    [(70, 40), (70, 60), (30, 60), (30, 40)]
    """
    # Plain floats, not numpy vectors: the reader asks for thousands of outlines per frame.
    cos, sin = math.cos(tile.angle), math.sin(tile.angle)
    corners = []
    for sx, sy in ((-1, -1), (1, -1), (1, 1), (-1, 1)):
        along, down = sx * tile.width / 2, sy * tile.height / 2      # along the tile's right and down
        corners.append((float(tile.x + along * cos + down * -sin), float(tile.y + along * sin + down * cos)))
    return tuple(corners)


def axis_difference(a: float, b: float) -> float:
    """How far apart two tile axes are, ignoring which way is up (0..pi/2)."""
    return abs((a - b + math.pi / 2) % math.pi - math.pi / 2)


def touching(a: Placed, b: Placed) -> bool:
    if axis_difference(a.angle, b.angle) > MAX_TURN:
        return False
    width, height = (a.width + b.width) / 2, (a.height + b.height) / 2
    dx, dy = b.x - a.x, b.y - a.y
    along = abs(dx * math.cos(a.angle) + dy * math.sin(a.angle))
    across = abs(-dx * math.sin(a.angle) + dy * math.cos(a.angle))
    return along < MAX_PITCH * width and across < MAX_OFFSET * height


def components(tiles: list[Placed]) -> list[list[int]]:
    """Sets of touching tiles (unordered), in order of their first tile."""
    parent = list(range(len(tiles)))

    def root(i: int) -> int:
        while parent[i] != i:
            parent[i] = parent[parent[i]]
            i = parent[i]
        return i

    if tiles:
        # Only pairs whose centres are near enough can touch: find them all at once.
        xy = np.array([(t.x, t.y) for t in tiles])
        reach = MAX_PITCH * max(max(t.width, t.height) for t in tiles)
        near = np.linalg.norm(xy[:, None] - xy[None], axis=2) < reach
        for i, j in zip(*np.nonzero(np.triu(near, 1))):
            if touching(tiles[i], tiles[j]):
                parent[root(int(j))] = root(int(i))
    found: dict[int, list[int]] = {}
    for i in range(len(tiles)):
        found.setdefault(root(i), []).append(i)
    return list(found.values())


GAP_PITCH = 2.6
"""Rows whose nearest tiles are more than :data:`MAX_PITCH` and at most this many widths apart
along one line leave room for exactly one tile between them: maybe one the finder missed."""


def gaps(tiles: list[Placed], groups: list[list[int]]) -> list[tuple[int, int]]:
    """Pairs of tiles of different ``groups`` that lie in one line, turned alike, with one
    tile's room between them (each pair once, lower index first).

    >>> tiles = [Placed(100, 50, 0.0, 30, 40), Placed(131, 50, 0.0, 30, 40), Placed(192, 50, 0.0, 30, 40)]
    >>> gaps(tiles, [[0, 1], [2]])
    [(1, 2)]
    >>> gaps(tiles[:2] + [Placed(131, 120, 0.0, 30, 40)], [[0, 1], [2]])
    []
    """
    if len(tiles) < 2:
        return []
    group = np.empty(len(tiles), int)
    for number, members in enumerate(groups):
        group[members] = number
    xy = np.array([(t.x, t.y) for t in tiles])
    angle = np.array([t.angle for t in tiles])
    width = np.array([t.width for t in tiles])
    height = np.array([t.height for t in tiles])
    d = xy[None] - xy[:, None]                      # d[i, j]: from tile i to tile j
    along = np.abs(d[..., 0] * np.cos(angle)[:, None] + d[..., 1] * np.sin(angle)[:, None])
    across = np.abs(-d[..., 0] * np.sin(angle)[:, None] + d[..., 1] * np.cos(angle)[:, None])
    turn = np.abs((angle[:, None] - angle[None] + math.pi / 2) % math.pi - math.pi / 2)
    pitch = (width[:, None] + width[None]) / 2
    found = ((group[:, None] != group[None]) & (turn <= MAX_TURN) & (along > MAX_PITCH * pitch)
             & (along <= GAP_PITCH * pitch) & (across < MAX_OFFSET * (height[:, None] + height[None]) / 2))
    return [(int(i), int(j)) for i, j in zip(*np.nonzero(np.triu(found, 1)))]


def reading_order(tiles: list[Placed], members: list[int]) -> list[int]:
    """``members`` sorted left to right as the first of them stands upright."""
    angle = tiles[members[0]].angle
    return sorted(members, key=lambda i: tiles[i].x * math.cos(angle) + tiles[i].y * math.sin(angle))


def rows(tiles: list[Placed]) -> list[list[int]]:
    """Rows of touching tiles, each in reading order (a lone tile is a row of one)."""
    return [reading_order(tiles, members) for members in components(tiles)]
