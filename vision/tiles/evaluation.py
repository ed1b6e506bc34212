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
    unseen: int = 0
    """Missed tiles the outline finder cut no candidate for (the rest of the missed ones it
    cut, and the classifier dropped, or the blob was cut into the wrong count)."""
    wrong_colour: int = 0
    """Misread tiles read with the right number but the wrong colour (the rest: a wrong number or joker)."""
    right_unsure: int = 0
    """Tiles read right, but below the confirmation bar (a question the players need not have had)."""
    wrong_sure: int = 0
    """Tiles misread at or above the confirmation bar (only doubts can then stop a wrong verdict)."""

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

        >>> print(TileScore(10, 8, 1, 1, 2, 4, 3, 2, 1, 0, 1, 1, 2, 0).summary())
        tiles 8/10 = 0.8000 (1 misread, 1 missed, 2 extra); rows 3/4 = 0.7500; tables 2: doubted 1, trusted yet missing a tile 0
          missed: no outline 1, cut but dropped or miscut 0; misread: colour 1, number 0; right but unsure 2, misread yet sure 0
        """
        return (f"tiles {self.correct}/{self.tiles} = {self.accuracy:.4f} ({self.wrong} misread, {self.missed} missed, "
                f"{self.extra} extra); rows {self.rows_correct}/{self.rows} = {self.row_accuracy:.4f}; "
                f"tables {self.tables}: doubted {self.doubted}, trusted yet missing a tile {self.silent}\n"
                f"  missed: no outline {self.unseen}, cut but dropped or miscut {self.missed - self.unseen}; "
                f"misread: colour {self.wrong_colour}, number {self.wrong - self.wrong_colour}; "
                f"right but unsure {self.right_unsure}, misread yet sure {self.wrong_sure}")

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


def graded_readings(scene, reading) -> list[tuple[float, str, str]]:
    """(confidence, true code, code read) of every observation that matches a true tile."""
    return [(reading.tiles[o].confidence, scene.tiles[t].code, reading.tiles[o].tile)
            for t, o in match(scene, reading).items()]


CONFIRM_BELOW = 0.7
"""Callers ask the players about a reading with a tile less sure than this (the benchmark's bar)."""


def score_scene(scene, reading, confirm_below: float = CONFIRM_BELOW,
                candidates: list[tuple[float, float]] | None = None) -> TileScore:
    """Score one reading of a rendered ``scene``; ``candidates`` (the centres of the tiles the
    outline finder cut, every count of every blob) splits the missed tiles by where they were lost."""
    score = TileScore(tables=1, doubted=int(not reading.complete))
    matched = match(scene, reading)
    counted = {t for t, tile in enumerate(scene.tiles) if tile.visible >= MUST_SEE}
    for t in counted:
        score.tiles += 1
        truth = scene.tiles[t]
        if t not in matched:
            score.missed += 1
            if candidates is not None:
                score.unseen += not any(math.hypot(x - truth.center[0], y - truth.center[1]) < MATCH_DISTANCE * truth.height
                                        for x, y in candidates)
            continue
        seen = reading.tiles[matched[t]]
        sure = seen.confidence >= confirm_below
        if seen.tile == truth.code:
            score.correct += 1
            score.right_unsure += not sure
        else:
            score.wrong += 1
            score.wrong_sure += sure
            score.wrong_colour += "JK" not in (seen.tile, truth.code) and seen.tile[1:] == truth.code[1:]
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
    from vision.tiles.outlines import find_blobs

    params = TileSceneParams(**{"palette": palette, "fonts": "heldout", "light_tables": False, **changes})
    rng = np.random.default_rng(seed)
    reader = reader.with_palette(PALETTES[palette], reader.profile)
    total = TileScore()
    for _ in range(count):
        scene = render_tile_scene(rng, params)
        candidates = [(c.x, c.y) for blob in find_blobs(scene.image) for n in blob.counts for c in blob.cut(n)]
        total += score_scene(scene, reader.read(scene.image), candidates=candidates)
    return total
