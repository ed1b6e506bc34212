"""Scoring the recognizer on rendered scenes, where every index is known.

A card counts as *expected* when one of its corner indices is at least
:data:`~vision.train.data.MIN_VISIBLE` visible, and as *present* when any
of its indices shows at all; reading a present card is never a false
positive, missing an expected one is a miss. Face-down cards give one ``BACK``
identity per scene.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

from vision.evaluation import ImageScore, total
from vision.labels import BACK_CODE
from vision.train.data import IGNORE_VISIBLE, MIN_VISIBLE, scene_labels


@dataclass(frozen=True)
class SceneTruth:
    expected: set[str]
    present: set[str]


def scene_truth(scene) -> SceneTruth:
    indices, backs = scene_labels(scene)
    expected = {i.card for i in indices if i.visible >= MIN_VISIBLE}
    present = {i.card for i in indices if i.visible > 0.0}
    if any(b.visible >= MIN_VISIBLE for b in backs):
        expected.add(BACK_CODE)
    if any(b.visible >= IGNORE_VISIBLE for b in backs):
        present.add(BACK_CODE)
    return SceneTruth(expected, present)


def score_scene(predicted: list[str], truth: SceneTruth) -> ImageScore:
    """Precision against the present cards, recall against the expected ones.

    >>> score = score_scene(["AS", "2S", "9H"], SceneTruth({"AS", "KD"}, {"AS", "KD", "2S"}))
    >>> score
    ImageScore(true_positives=1, predicted=2, expected=2)
    >>> score.precision, score.recall
    (0.5, 0.5)
    """
    got = set(predicted)
    # Precision counts predictions that are right; recall counts expected cards found.
    # Both fit in one ImageScore because a present-but-not-expected card found
    # is scored as neither a hit nor a false positive.
    extra = len(got & (truth.present - truth.expected))
    hits = len(got & truth.expected)
    return ImageScore(hits, len(got) - extra, len(truth.expected))


STRAY_REACH = 1.5
"""An index reading farther than this many index heights from every index of the scene read no index at all."""


def stray_readings(observations, indices, reach: float = STRAY_REACH) -> list:
    """The face-up observations none of whose corners lies near an index of the scene (``indices``: objects
    with ``x``, ``y``, ``size``): readings of table, print or artwork, not misreadings of an index.

    >>> from vision.observation import CardObservation
    >>> from vision.train.data import IndexLabel
    >>> index = IndexLabel("AS", 100.0, 100.0, 0.0, 20.0, 1.0)
    >>> seen = [CardObservation("AS", 0.9, ((102.0, 98.0),)), CardObservation("4C", 0.7, ((300.0, 40.0),))]
    >>> [o.card for o in stray_readings(seen, [index])]
    ['4C']
    """
    return [o for o in observations if o.card != BACK_CODE and
            all(math.hypot(x - i.x, y - i.y) > reach * i.size for x, y in o.corners for i in indices)]


def largest_card_diagonal(scene) -> float:
    """The longest diagonal of a card in ``scene`` in pixels: what a table's calibration tells the
    recognizer of a frame (no card's two indices lie further apart), here from the rendered cards.

    >>> import numpy as np
    >>> from vision.synth.scenes import CardAnnotation
    >>> card = CardAnnotation("AS", "AS", "d", "b", np.array([(0, 0), (60, 0), (60, 80), (0, 80)], float), 1.0)
    >>> largest_card_diagonal(type("Scene", (), {"cards": [card]})())
    100.0
    """
    return max((float(max(math.dist(c.outline[0], c.outline[2]), math.dist(c.outline[1], c.outline[3])))
                for c in scene.cards), default=math.inf)


def evaluate(recognizer, scenes, strays: list[int] | None = None, card_scale: bool = False
             ) -> tuple[ImageScore, list[tuple[list[str], SceneTruth]]]:
    """Run ``recognizer`` over ``scenes``; overall score and per-scene (predicted, truth).
    ``strays``, if given, gets each scene's number of :func:`stray_readings` appended. With
    ``card_scale`` the recognizer knows each scene's :func:`largest_card_diagonal`, as the table reader
    knows a calibrated table's."""
    scores, details = [], []
    for scene in scenes:
        diagonal = largest_card_diagonal(scene)
        observations = recognizer.recognize(scene.image, (lambda point: diagonal) if card_scale else None)
        predicted = [o.card for o in observations]
        truth = scene_truth(scene)
        scores.append(score_scene(predicted, truth))
        details.append((predicted, truth))
        if strays is not None:
            strays.append(len(stray_readings(observations, scene_labels(scene)[0])))
    return total(scores), details
