"""Scoring the recognizer on rendered scenes, where every index is known.

A card counts as *expected* when one of its corner indices is at least
:data:`~vision.train.data.MIN_VISIBLE` visible, and as *present* when any
of its indices shows at all; reading a present card is never a false
positive, missing an expected one is a miss. Face-down cards give one ``BACK``
identity per scene.
"""

from __future__ import annotations

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


def evaluate(recognizer, scenes) -> tuple[ImageScore, list[tuple[list[str], SceneTruth]]]:
    """Run ``recognizer`` over ``scenes``; overall score and per-scene (predicted, truth)."""
    scores, details = [], []
    for scene in scenes:
        predicted = [o.card for o in recognizer.recognize(scene.image)]
        truth = scene_truth(scene)
        scores.append(score_scene(predicted, truth))
        details.append((predicted, truth))
    return total(scores), details
