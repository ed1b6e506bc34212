"""Which corner indices of a rendered scene a person could read: enough of the index shown, sharp enough.

"Index accuracy" (``benchmarks/eval_learn_deck.py``) counts every index at least
:data:`vision.train.data.MIN_VISIBLE` visible, among them indices the camera left too blurred for
anyone to read, or whose suit sign another card covers. A player who asks for 99.5 % "on my deck"
means the cards a person can read in the photo. So each index is judged on two things the renderer
knows: its visible share (:attr:`vision.synth.scenes.IndexAnnotation.visible`) and how much of its
shape the camera kept (:func:`sharpness`), measured against the same scene before the camera's
effects (``SceneParams.keep_clean``). Defocus, motion blur and a cheap sensor lower it; light and
colour casts do not.

>>> clean = np.full((PATCH_SIZE, PATCH_SIZE, 3), 255, np.uint8)
>>> clean[12:28, 17:20] = 0                        # a stroke of an index
>>> round(sharpness(clean, clean // 2 + 40), 3)     # darker, less contrast: still as legible
1.0
>>> sharpness(clean, cv2.GaussianBlur(clean, (0, 0), 4.0)) < LEGIBLE_SHARPNESS
True
"""

from __future__ import annotations

import cv2
import numpy as np

from vision.labels import NONE_CODE, rank_of
from vision.patches import PATCH_CONTEXT, PATCH_SIZE

LEGIBLE_VISIBLE = 0.9
"""At least this share of an index visible: with more covered, the suit sign's lower part or the rank's
upper part is gone, and a person may take a club for a spade or a 6 for a 5."""

LEGIBLE_SHARPNESS = 0.9
"""At least this :func:`sharpness`. Set by eye on the rendered ``gnome/plastic`` scenes of seed 9
(``benchmarks/eval_learn_deck.py``): every index below 0.87 there was a blur no person could read,
from 0.92 up they could be read; some motion-blurred ones at 0.93-0.95 are hard to read and are kept,
so the figure errs towards counting an index."""

_INDEX_WIDTH = 0.6
"""An index box's width in index heights (rank above suit)."""


def _index_box(patch: np.ndarray) -> np.ndarray:
    """The index itself, in grey, smoothed a little (so that noise and JPEG speckle count less than blur),
    normalised to mean 0 and deviation 1 (so that light and contrast do not count)."""
    grey = cv2.cvtColor(patch, cv2.COLOR_BGR2GRAY).astype(np.float32)
    height = PATCH_SIZE / PATCH_CONTEXT
    top, left = int(round((PATCH_SIZE - height) / 2)), int(round((PATCH_SIZE - _INDEX_WIDTH * height) / 2))
    box = cv2.GaussianBlur(grey, (0, 0), 1.0)[top:PATCH_SIZE - top, left:PATCH_SIZE - left]
    return (box - box.mean()) / (box.std() + 1e-3)


def sharpness(clean: np.ndarray, photo: np.ndarray) -> float:
    """How much of the index's shape the photo kept: the correlation of the index box of the ``clean``
    patch (the scene before the camera's effects) with the ``photo`` one, both cut at the same place
    (:func:`vision.patches.index_patch`); 1 is the clean index, whatever the light."""
    return float((_index_box(clean) * _index_box(photo)).mean())


def legible(visible: float, sharp: float) -> bool:
    """Whether a person could read an index this visible and this sharp.

    >>> legible(1.0, 0.95), legible(0.8, 1.0), legible(1.0, 0.85)
    (True, False, False)
    """
    return visible >= LEGIBLE_VISIBLE and sharp >= LEGIBLE_SHARPNESS


def misreading(truth: str, read: str) -> str:
    """What kind of mistake reading the index of card ``truth`` as ``read`` (a card code or ``NONE``) is.

    >>> misreading("8C", "8S"), misreading("8C", "8H"), misreading("8C", "3C"), misreading("8C", "NONE")
    ('suit, same colour', 'suit, other colour', 'rank', 'not an index')
    >>> misreading("8C", "8C")
    'right'
    """
    if read == truth:
        return "right"
    if read == NONE_CODE:
        return "not an index"
    if rank_of(read) != rank_of(truth):
        return "rank"
    return "suit, same colour" if (truth[-1] in "SC") == (read[-1] in "SC") else "suit, other colour"
