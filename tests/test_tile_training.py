"""The tile classifier's training data (`python -m vision.train.tiles`): the hard tables and the
extra cuts of the numbers an unseen font's digits are confused among. Rendering only, no torch."""

import cv2
import numpy as np
import pytest

from vision.synth.tiles import TileSceneParams, render_tile_scene
from vision.tiles.labels import NONE_CLASS, UPSIDE_CLASS, class_of
from vision.train.tiles import (CONFUSION_CUTS, EXTRA_CUTS, HARD_TILE_HEIGHT, blurred_and_faded, classifier_samples, parse_args,
                                training_scene)

CLEAN = dict(effects=0.0, tilt=0.0, hands=0.0, light_tables=False, scattered=(0, 0))


def test_confused_numbers_get_more_upright_cuts_than_the_others():
    rows = [["R5", "R6", "R7"], ["B2", "B3", "B4"]]
    scene = render_tile_scene(np.random.default_rng(3), TileSceneParams(palette="rummikub", rows=(2, 2), **CLEAN), rows)
    assert len(scene.rows) == 2 and all(t.visible >= 0.85 for t in scene.tiles)
    for extra_cuts, expected in ((EXTRA_CUTS, {"R5": 3, "R6": 3, "R7": 2, "B2": 2, "B3": 2, "B4": 3}),
                                 (CONFUSION_CUTS, {"R5": 4, "R6": 4, "R7": 2, "B2": 3, "B3": 2, "B4": 3})):
        _, classes = classifier_samples(scene, np.random.default_rng(0), extra_cuts=extra_cuts)
        assert {code: int((classes == class_of(code)).sum()) for row in rows for code in row} == expected
        assert int((classes == UPSIDE_CLASS).sum()) == 6 and (classes == NONE_CLASS).any()


def edge_strength(image: np.ndarray) -> float:
    """The 99th percentile of the grey levels' gradient: the steepest edges (ink on a face),
    which blur flattens and contrast lowers, while fresh sensor noise barely moves it."""
    grey = cv2.cvtColor(image, cv2.COLOR_BGR2GRAY).astype(np.float32)
    return float(np.percentile(np.hypot(cv2.Sobel(grey, cv2.CV_32F, 1, 0), cv2.Sobel(grey, cv2.CV_32F, 0, 1)), 99))


def test_blurring_and_fading_flattens_the_edges_of_a_sharp_table():
    scene = render_tile_scene(np.random.default_rng(5), TileSceneParams(palette="rummikub", **CLEAN))
    ratios = [edge_strength(blurred_and_faded(np.random.default_rng(seed), scene.image)) / edge_strength(scene.image)
              for seed in range(6)]
    assert max(ratios) < 0.85 and np.mean(ratios) < 0.6     # a light streak along most edges flattens them least


def test_hard_training_tables_have_small_tiles_and_share_zero_renders_the_tables_of_before():
    # Table 3's own draw is 0.22: hard at a share of 0.5, plain at 0.2 and 0.
    hard, _ = training_scene(1, 3, 0.5)
    assert all(HARD_TILE_HEIGHT[0] * 0.9 <= t.height <= HARD_TILE_HEIGHT[1] * 1.1 for t in hard.tiles)
    plain, _ = training_scene(1, 3, 0.2)
    before = render_tile_scene(np.random.default_rng([1, 3]), TileSceneParams())
    assert np.array_equal(plain.image, before.image) and not np.array_equal(hard.image[:100], plain.image[:100])
    portrait, _ = training_scene(1, 4, 0.0)
    assert portrait.image.shape[:2] == (1280, 720)


def test_the_hard_share_must_be_a_share(capsys):
    assert parse_args([]).hard_share == 0.0 and not parse_args([]).weigh_confusions
    with pytest.raises(SystemExit):
        parse_args(["--hard-share", "1.5"])
    assert "--hard-share must be between 0 and 1, got 1.5" in capsys.readouterr().err


def test_members_must_be_one_or_more_and_init_takes_one(capsys):
    assert parse_args([]).members == 3
    with pytest.raises(SystemExit):
        parse_args(["--members", "0"])
    with pytest.raises(SystemExit):
        parse_args(["--members", "2", "--first", "2"])
    with pytest.raises(SystemExit):
        parse_args(["--init", "models"])
    assert "--members 1" in capsys.readouterr().err


def test_the_one_command_trains_each_member_on_its_own_tables_and_joins_them(tmp_path):
    """A tiny run of the whole command: two members, one file that reads with both."""
    pytest.importorskip("torch")
    import onnxruntime as ort

    from vision.recognizer import Networks
    from vision.train.ensemble import members_of
    from vision.train.tiles import main

    assert main(["--out", str(tmp_path), "--scenes", "2", "--classifier-steps", "2", "--batch", "8", "--members", "2",
                 "--eval-scenes", "0", "--threads", "1", "--keep-patches"]) == 0
    assert members_of(tmp_path / "tiles-classifier.onnx") == 2
    assert sorted(p.name for p in tmp_path.glob("tiles-patches-*.npz")) == ["tiles-patches-1-2.npz", "tiles-patches-2-2.npz"]
    session = ort.InferenceSession(str(tmp_path / "tiles-classifier.onnx"), providers=["CPUExecutionProvider"])
    logits, embeddings = Networks(session).read(np.zeros((1, 40, 32, 3), np.uint8))
    assert [a.shape for a in logits] == [(1, 81)] * 2 and [a.shape for a in embeddings] == [(1, 64)] * 2
