"""Scoring the tile reader on rendered tables whose truth is known.

A true tile is matched to the observation whose centre lies within :data:`MATCH_DISTANCE`
tile heights of its own. Tile accuracy counts every tile at least :data:`MUST_SEE` visible:
read right, read as another tile, or missed. A row is grouped right when one observed group
holds exactly its tiles, in its order.

Training-time and benchmark code: needs :mod:`vision.synth` (the renderer).
"""

from __future__ import annotations

import math
from dataclasses import dataclass, fields

import numpy as np

MATCH_DISTANCE = 0.35
MUST_SEE = 0.95


@dataclass
class TileScore:
    tiles: int = 0
    correct: int = 0
    wrong: int = 0
    missed: int = 0
    extra: int = 0
    rows: int = 0
    rows_correct: int = 0
    tables: int = 0
    doubted: int = 0
    """Tables whose reading listed doubts (a tile may be missing)."""
    silent: int = 0
    """Tables whose reading listed no doubt and no tile below the confirmation bar, yet missed
    a tile: a reading a caller would trust, wrongly."""

    def __iadd__(self, other: "TileScore") -> "TileScore":
        for f in fields(self):
            setattr(self, f.name, getattr(self, f.name) + getattr(other, f.name))
        return self

    @property
    def accuracy(self) -> float:
        return self.correct / self.tiles if self.tiles else 1.0

    @property
    def row_accuracy(self) -> float:
        return self.rows_correct / self.rows if self.rows else 1.0

    def summary(self) -> str:
        """One line of figures.

        >>> TileScore(10, 9, 1, 0, 2, 4, 3, 2, 1, 0).summary()
        'tiles 9/10 = 0.9000 (1 misread, 0 missed, 2 extra); rows 3/4 = 0.7500; tables 2: doubted 1, trusted yet missing a tile 0'
        """
        return (f"tiles {self.correct}/{self.tiles} = {self.accuracy:.4f} ({self.wrong} misread, {self.missed} missed, "
                f"{self.extra} extra); rows {self.rows_correct}/{self.rows} = {self.row_accuracy:.4f}; "
                f"tables {self.tables}: doubted {self.doubted}, trusted yet missing a tile {self.silent}")

    def to_json(self) -> dict:
        data = {f.name: getattr(self, f.name) for f in fields(self)}
        data.update(accuracy=round(self.accuracy, 4), row_accuracy=round(self.row_accuracy, 4))
        return data


def match(scene, reading) -> dict[int, int]:
    """True tile number -> observation number, nearest centres first, each used once."""
    pairs = []
    for t, tile in enumerate(scene.tiles):
        tx, ty = tile.center
        for o, seen in enumerate(reading.tiles):
            ox, oy = seen.center
            distance = math.hypot(ox - tx, oy - ty)
            if distance < MATCH_DISTANCE * tile.height:
                pairs.append((distance, t, o))
    matched: dict[int, int] = {}
    used: set[int] = set()
    for _, t, o in sorted(pairs):
        if t not in matched and o not in used:
            matched[t] = o
            used.add(o)
    return matched


CONFIRM_BELOW = 0.7
"""Callers ask the players about a reading with a tile less sure than this (the benchmark's bar)."""


def score_scene(scene, reading, confirm_below: float = CONFIRM_BELOW) -> TileScore:
    score = TileScore(tables=1, doubted=int(not reading.complete))
    matched = match(scene, reading)
    counted = {t for t, tile in enumerate(scene.tiles) if tile.visible >= MUST_SEE}
    for t in counted:
        score.tiles += 1
        if t not in matched:
            score.missed += 1
        elif reading.tiles[matched[t]].tile == scene.tiles[t].code:
            score.correct += 1
        else:
            score.wrong += 1
    trusted = reading.complete and reading.least_confidence() >= confirm_below
    score.silent = int(trusted and score.missed > 0)
    explained = {matched[t] for t in matched}
    score.extra = sum(1 for o in range(len(reading.tiles)) if o not in explained)
    observed_rows: dict[int, list[int]] = {}
    for o, seen in enumerate(reading.tiles):
        observed_rows.setdefault(seen.row, []).append(o)
    for row in scene.rows:
        if not all(t in counted for t in row):
            continue
        score.rows += 1
        wanted = [matched.get(t) for t in row]
        if None not in wanted and wanted in observed_rows.values():
            score.rows_correct += 1
    return score


def evaluate_tables(reader, palette: str, seed: int, count: int, **changes) -> TileScore:
    """Read ``count`` rendered tables of ``palette`` in the held-out font (``changes`` override
    :class:`vision.synth.tiles.TileSceneParams` fields) and add up the scores."""
    from engine.cards import PALETTES
    from vision.synth.tiles import TileSceneParams, render_tile_scene

    params = TileSceneParams(**{"palette": palette, "fonts": "heldout", "light_tables": False, **changes})
    rng = np.random.default_rng(seed)
    reader = reader.with_palette(PALETTES[palette], reader.profile)
    total = TileScore()
    for _ in range(count):
        scene = render_tile_scene(rng, params)
        total += score_scene(scene, reader.read(scene.image))
    return total
