"""Which rendered indices a person could read: the clean photo beside the camera's, sharpness, misreadings."""

from dataclasses import replace

import cv2
import numpy as np

from vision.patches import index_patch
from vision.synth.scenes import SceneParams, render_scene
from vision.train.legibility import LEGIBLE_SHARPNESS, legible, misreading, sharpness

PARAMS = SceneParams(designs=("kde/jolly-royal",), cards=(6, 8), hands=0.0, clutter=0.0, effects=1.0)


def test_keeping_the_clean_photo_changes_nothing_else_of_the_scene():
    plain = render_scene(np.random.default_rng(4), PARAMS)
    kept = render_scene(np.random.default_rng(4), replace(PARAMS, keep_clean=True))
    assert plain.clean is None
    assert np.array_equal(plain.image, kept.image)
    assert [(a.card, a.center) for a in plain.indices] == [(a.card, a.center) for a in kept.indices]
    assert kept.clean.shape == kept.image.shape and kept.clean.dtype == np.uint8
    assert not np.array_equal(kept.clean, kept.image)     # the camera's effects are not in it


def test_a_whole_index_is_sharp_until_blurred_past_reading():
    scene = render_scene(np.random.default_rng(4), replace(PARAMS, effects=0.0, keep_clean=True))
    whole = max(scene.indices, key=lambda a: (a.visible, a.size))
    assert whole.visible > 0.95

    def cut(image):
        return index_patch(image, whole.center, whole.angle, whole.size)

    assert sharpness(cut(scene.clean), cut(scene.image)) > 0.99       # no effects: the same index
    darker = (scene.image * 0.6 + 30).astype(np.uint8)                 # light alone does not count
    assert sharpness(cut(scene.clean), cut(darker)) > 0.99
    blurred = cv2.GaussianBlur(scene.image, (0, 0), whole.size * 0.25)
    assert sharpness(cut(scene.clean), cut(blurred)) < LEGIBLE_SHARPNESS
    assert legible(whole.visible, sharpness(cut(scene.clean), cut(scene.image)))
    assert not legible(whole.visible, sharpness(cut(scene.clean), cut(blurred)))


def test_misreadings_by_kind():
    assert misreading("10H", "10D") == "suit, same colour"
    assert misreading("QS", "QH") == "suit, other colour"
    assert misreading("QS", "KS") == "rank"
    assert misreading("QS", "JK") == "rank"
    assert misreading("QS", "NONE") == "not an index"
