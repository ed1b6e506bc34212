"""Precision and recall of card identities per image against a ``labels.json``.

The label format is that of the project's real-photo validation sets:
``{image path: {"cards": [codes], "boxes": [...] | null, "note": "..."}}``,
codes like ``10H``, ``JK``, ``BACK``, or ``Q?`` when the source labels only
the rank. An image with any ``?`` label is scored on ranks only. Identities
are compared as sets per image (one ``BACK`` per image at most).

>>> score = score_image(["10H", "QS", "QS", "2C"], ["10H", "QS", "3D"])
>>> score.true_positives, score.predicted, score.expected
(2, 3, 3)
>>> score_image(["QH", "9S"], ["Q?", "K?"]).true_positives
1
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path

from vision.labels import rank_of


class LabelsError(ValueError):
    """A labels.json file is missing or malformed."""


@dataclass(frozen=True)
class ImageScore:
    true_positives: int
    predicted: int
    expected: int

    @property
    def precision(self) -> float:
        return self.true_positives / self.predicted if self.predicted else 1.0

    @property
    def recall(self) -> float:
        return self.true_positives / self.expected if self.expected else 1.0


def identities(codes: list[str], ranks_only: bool) -> set[str]:
    return {rank_of(code) if ranks_only else code for code in codes}


def score_image(predicted: list[str], expected: list[str]) -> ImageScore:
    ranks_only = any(code.endswith("?") for code in expected)
    got, want = identities(predicted, ranks_only), identities(expected, ranks_only)
    return ImageScore(len(got & want), len(got), len(want))


def total(scores: list[ImageScore]) -> ImageScore:
    """Micro-averaged: all images' identities pooled."""
    return ImageScore(sum(s.true_positives for s in scores), sum(s.predicted for s in scores),
                      sum(s.expected for s in scores))


def load_labels(directory: str | Path) -> dict[str, list[str]]:
    """Image paths as labels.json names them (relative to ``directory``) and their expected card codes."""
    path = Path(directory) / "labels.json"
    if not path.is_file():
        raise LabelsError(f"{path} not found: eval-vision needs a labels.json in the directory it scores")
    try:
        data = json.loads(path.read_text())
    except json.JSONDecodeError as error:
        raise LabelsError(f"{path} is not valid JSON: {error}") from None
    if not isinstance(data, dict):
        raise LabelsError(f"{path}: expected an object mapping image paths to labels")
    labels = {}
    for image, entry in data.items():
        cards = entry.get("cards") if isinstance(entry, dict) else None
        if not isinstance(cards, list) or not all(isinstance(c, str) for c in cards):
            raise LabelsError(f"{path}: entry {image!r} needs a \"cards\" list of card codes")
        labels[image] = cards
    return labels
