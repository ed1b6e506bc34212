"""Scoring a tile reading against a rendered table's truth: where each lost tile was lost; tables
photographed with the whole table in view."""

import numpy as np

from vision.synth.tiles import TileAnnotation, TileScene, TileSceneParams, render_tile_scene
from vision.tiles.evaluation import score_scene
from vision.tiles.reader import TableReading, TileObservation


def box(x: float, y: float, w: float = 30.0, h: float = 40.0) -> np.ndarray:
    return np.float32([[x - w / 2, y - h / 2], [x + w / 2, y - h / 2], [x + w / 2, y + h / 2], [x - w / 2, y + h / 2]])


def seen(code: str, confidence: float, x: float, y: float, row: int = 0) -> TileObservation:
    return TileObservation(code, confidence, tuple(map(tuple, box(x, y).tolist())), row)


def test_lost_tiles_are_split_by_where_they_were_lost():
    codes = ["R5", "R6", "R7", "B9", "Y1", "G2"]
    tiles = [TileAnnotation(code, box(100 + 31 * k, 50), 0.0, 30, 40, 0) for k, code in enumerate(codes)]
    scene = TileScene(np.zeros((200, 400, 3), np.uint8), "ravensburger", tiles, [[0, 1, 2, 3, 4, 5]])
    reading = TableReading((
        seen("R5", 0.95, 100, 50),      # right and sure
        seen("R6", 0.55, 131, 50),      # right, below the bar
        seen("B7", 0.9, 162, 50),       # the wrong colour, sure
        seen("B6", 0.4, 193, 50),       # the wrong number, unsure
    ))
    # Y1 at x 224 was cut by the outline finder (and dropped); G2 at x 255 was never cut.
    score = score_scene(scene, reading, confirm_below=0.7, candidates=[(225.0, 51.0), (100.0, 50.0)])
    assert (score.tiles, score.correct, score.wrong, score.missed) == (6, 2, 2, 2)
    assert (score.unseen, score.wrong_colour, score.right_unsure, score.wrong_sure) == (1, 1, 1, 1)
    assert score.rows == 1 and score.rows_correct == 0
    assert not score.silent     # a tile below the bar: the reading is not trusted as it stands


def nearest_to_edge(scene: TileScene) -> float:
    """How far the tile nearest the frame's edge lies inside it, in px (negative: cut by it)."""
    height, width = scene.image.shape[:2]
    return min(min(t.outline[:, 0].min(), t.outline[:, 1].min(), width - 1 - t.outline[:, 0].max(),
                   height - 1 - t.outline[:, 1].max()) for t in scene.tiles)


def test_a_table_in_view_keeps_every_tile_off_the_frames_edge_despite_the_tilt():
    """With ``in_view`` the layout leaves free the band that the camera's tilt can move across the
    frame's edge; without it (the training tables) rows lie up to the edge and the tilt cuts some."""
    def margins(in_view: bool) -> list[float]:
        params = TileSceneParams(palette="rummikub", fonts="heldout", rows=(8, 10), scattered=(4, 8), hands=0.0,
                                 light_tables=False, tilt=0.1, in_view=in_view)
        return [nearest_to_edge(render_tile_scene(np.random.default_rng(seed), params)) for seed in range(12)]

    assert min(margins(True)) > 4
    assert min(margins(False)) < 0
