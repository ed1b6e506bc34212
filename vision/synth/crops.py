"""Index patches for training the classifier: jittered crops of annotated
indices, and "no index" patches from elsewhere on the table.

The crop itself is :func:`vision.geometry.crop_index`, the same function the
runtime recognizer uses; jitter imitates the detector's errors in centre,
angle and size.

>>> import numpy as np
>>> from vision.synth.scenes import SceneParams, render_scene
>>> rng = np.random.default_rng(0)
>>> scene = render_scene(rng, SceneParams(width=320, height=240, cards=(2, 2), designs=("proc/1",)))
>>> crops = index_crops(scene, rng)
>>> all(p.shape == (32, 32, 3) for p, _ in crops)
True
"""

from __future__ import annotations

import math

import numpy as np

from ..geometry import PATCH_SIZE, crop_index
from .scenes import INDEX_VISIBLE, IndexAnnotation, Scene

NO_INDEX = "NONE"
"""Label of patches that show no corner index."""


def jittered_crop(image: np.ndarray, index: IndexAnnotation, rng: np.random.Generator, patch: int = PATCH_SIZE,
                  shift: float = 0.08, scale: float = 0.12, rotate_deg: float = 8.0) -> np.ndarray:
    """A patch of an index with its centre moved by up to ``shift`` index
    heights, its size off by up to ``scale`` (relative) and its angle off by
    up to ``rotate_deg`` degrees (uniform)."""
    dx, dy = rng.uniform(-shift, shift, 2) * index.size
    size = index.size * math.exp(rng.uniform(-scale, scale))
    angle = index.angle + math.radians(rng.uniform(-rotate_deg, rotate_deg))
    return crop_index(image, (index.center[0] + dx, index.center[1] + dy), angle, size, patch)


def index_crops(scene: Scene, rng: np.random.Generator, patch: int = PATCH_SIZE,
                negatives: float = 0.5) -> list[tuple[np.ndarray, str]]:
    """(patch, label) for every readable index of a scene, plus about
    ``negatives`` times as many patches showing no index (label
    :data:`NO_INDEX`): half on cards (pips, pictures, partly covered
    indices), half anywhere."""
    readable = [a for a in scene.indices if a.visible >= INDEX_VISIBLE]
    crops = [(jittered_crop(scene.image, a, rng, patch), a.card) for a in readable]
    sizes = [a.size for a in scene.indices] or [scene.image.shape[0] / 20]
    h, w = scene.image.shape[:2]
    outlines = [c.outline for c in scene.cards if c.visible > 0.2]
    wanted = int(round(len(readable) * negatives)) or int(rng.random() < negatives)
    for attempt in range(wanted * 10):
        if len(crops) >= len(readable) + wanted:
            break
        size = float(rng.choice(sizes)) * math.exp(rng.uniform(-0.3, 0.3))
        if outlines and attempt % 2 == 0:
            outline = outlines[int(rng.integers(len(outlines)))]
            a, b = rng.random(2)
            top = outline[0] + a * (outline[1] - outline[0])
            bottom = outline[3] + a * (outline[2] - outline[3])
            centre = top + b * (bottom - top)
        else:
            centre = rng.uniform((0, 0), (w, h))
        if any(math.hypot(centre[0] - i.center[0], centre[1] - i.center[1]) < 0.7 * max(size, i.size)
               for i in scene.indices):
            continue
        crops.append((crop_index(scene.image, (float(centre[0]), float(centre[1])), rng.uniform(-math.pi, math.pi),
                                 size, patch), NO_INDEX))
    return crops
